"""Records and seed of the package_registry service: an npm registry with the
company's own scoped packages (linked to the github service's repositories,
``company-example/<repo>``) and the public packages they depend on."""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, Email, PersonName, RepoName
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.service import Record, ServiceState

Severity = Literal["low", "moderate", "high", "critical"]


class Maintainer(Record):
    """An npm user who may publish the package."""

    name: PersonName = Field(description="Display name.")
    email: Email = Field(description="Account email.")


class Version(Record):
    """One published version."""

    version: str = Field(pattern=r"^\d+\.\d+\.\d+$", description="Semantic version, e.g. 1.4.2.")
    published_on: Date = Field(description="Publication date.")
    deprecated: Optional[str] = Field(default=None, description="Deprecation message; None when not deprecated.")
    dependencies: dict[str, str] = Field(default_factory=dict, description="Package -> semver range.")


class Advisory(Record):
    """A security advisory against a range of versions."""

    id: str = Field(description="GitHub advisory id, e.g. GHSA-xvch-5gv4-984h.")
    severity: Severity = Field(description="low, moderate, high or critical.")
    title: str = Field(description="What the vulnerability is.")
    vulnerable_below: str = Field(description="Versions below this one are affected.")
    patched_version: str = Field(description="First fixed version.")
    published_on: Date = Field(description="Publication date.")


class Package(Record):
    """A package with its versions, maintainers, dist-tags and advisories."""

    name: str = Field(description="Package name, e.g. '@company-example/storefront-ui'.")
    description: str = Field(description="One-line summary.")
    license: str = Field(description="SPDX licence id.")
    repository: Optional[RepoName] = Field(default=None, description="Source repository, owner/name on GitHub.")
    maintainers: list[Maintainer] = Field(min_length=1, description="Who may publish.")
    versions: list[Version] = Field(min_length=1, description="Versions, oldest first.")
    dist_tags: dict[str, str] = Field(description="Tag -> version; 'latest' always present.")
    weekly_downloads: int = Field(ge=0, description="Downloads last week.")
    types_included: bool = Field(description="Ships TypeScript declarations.")
    advisories: list[Advisory] = Field(default_factory=list, description="Security advisories.")


class RegistryState(ServiceState):
    """Packages by name."""

    packages: dict[str, Package] = Field(default_factory=dict, description="Packages by name.")


def _versions(names: list[str], today: dt.date, rng: random.Random, deps: dict[str, str]) -> list[Version]:
    days = sorted(rng.sample(range(20, 900), len(names)), reverse=True)
    return [Version(version=v, published_on=today - dt.timedelta(days=d), dependencies=dict(deps))
            for v, d in zip(names, days)]


def build_state(rng: random.Random, today: dt.date) -> RegistryState:
    """The seeded registry: three company packages and five public ones (two deprecated, two with advisories)."""
    eng = [s for s in STAFF if s.team == "engineering"] or list(STAFF[:3])
    me = [Maintainer(name=s.name, email=s.email) for s in eng[:2]]
    ext = lambda user: [Maintainer(name=user.title(), email=f"{user}@npm-maintainers.example")]  # noqa: E731
    state = RegistryState()
    rows = [
        ("@company-example/storefront-ui", "UI components of the web shop", "UNLICENSED", "company-example/storefront",
         me, ["1.0.0", "1.1.0", "2.0.0"], {"lodash": "^4.17.20", "axios": "^0.21.0"}, 1200, True),
        ("@company-example/billing-client", "Client for the billing service API", "UNLICENSED",
         "company-example/billing-service", me[:1], ["0.9.0", "1.0.0", "1.2.0"], {"axios": "^1.6.0"}, 800, True),
        ("@company-example/runbook-cli", "Command line for the ops runbooks", "UNLICENSED", "company-example/ops-runbooks",
         me[1:] or me, ["0.1.0", "0.2.0"], {"minimist": "^1.2.5", "request": "^2.88.0"}, 90, False),
        ("lodash", "Lodash modular utilities", "MIT", "lodash/lodash", ext("jdalton"),
         ["4.17.19", "4.17.20", "4.17.21"], {}, 52_000_000, False),
        ("axios", "Promise based HTTP client", "MIT", "axios/axios", ext("jasonsaayman"),
         ["0.21.0", "0.21.1", "1.6.0", "1.6.8"], {}, 48_000_000, True),
        ("minimist", "Parse argument options", "MIT", "minimistjs/minimist", ext("ljharb"),
         ["1.2.5", "1.2.6", "1.2.8"], {}, 60_000_000, False),
        ("request", "Simplified HTTP request client", "Apache-2.0", "request/request", ext("mikeal"),
         ["2.87.0", "2.88.2"], {}, 16_000_000, False),
        ("left-pad", "String left pad", "WTFPL", "left-pad/left-pad", ext("stevemao"), ["1.2.0", "1.3.0"], {},
         1_000_000, False),
    ]
    for name, desc, lic, repo, owners, vers, deps, dl, types in rows:
        versions = _versions(vers, today, rng, deps)
        state.packages[name] = Package(name=name, description=desc, license=lic, repository=repo, maintainers=owners,
                                       versions=versions, dist_tags={"latest": vers[-1]}, weekly_downloads=dl,
                                       types_included=types)
    for name, msg in (("request", "request has been deprecated, see https://github.com/request/request/issues/3142"),
                      ("left-pad", "use String.prototype.padStart()")):
        for v in state.packages[name].versions:
            v.deprecated = msg
    state.packages["axios"].advisories.append(Advisory(
        id="GHSA-wf5p-g6vw-rhxx", severity="moderate", title="Cross-Site Request Forgery in axios",
        vulnerable_below="1.6.0", patched_version="1.6.0", published_on=today - dt.timedelta(days=400)))
    state.packages["minimist"].advisories.append(Advisory(
        id="GHSA-xvch-5gv4-984h", severity="critical", title="Prototype Pollution in minimist",
        vulnerable_below="1.2.6", patched_version="1.2.6", published_on=today - dt.timedelta(days=700)))
    return state
