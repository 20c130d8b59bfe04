"""Package registry: an npm registry's packages, versions, maintainers,
deprecations and security advisories.

Follows the MCP server ``@Nekzus_npm-sentinel-mcp`` (its record-like read
tools, each taking a ``packages`` array as that server does). Chosen over
``@ardyfeb_package-registry-mcp`` because it exposes maintainers,
deprecations and vulnerabilities. Both are read-only, so the writes are
designed after the npm CLI (``npm deprecate``, ``npm owner add/rm``,
``npm dist-tag add``): only a current maintainer may make them (422), a
version must exist (404), the last maintainer cannot be removed (422).
Company packages link to the github service's repositories by
``repository`` (``company-example/<repo>``).

Implemented: npmVersions, npmLatest, npmDeps, npmTypes, npmVulnerabilities,
npmMaintainers, npmSearch, npmDeprecated, npmRepoStats; designed:
npmDeprecate, npmOwnerAdd, npmOwnerRemove, npmDistTag. Left out: npmSize,
npmTrends, npmCompare, npmScore, npmQuality, npmMaintenance, npmPackageReadme,
npmLicenseCompatibility, npmChangelogAnalysis and npmAlternatives (derived
metrics, bundle analysis or free text, not stored records).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Annotated

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Email, PersonName
from compoworld_gym.envs.services._package_registry_seed import Maintainer, Package, RegistryState, build_state
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

Names = list[str]


def _key(v: str) -> tuple[int, ...]:
    return tuple(int(p) for p in v.split("."))


class PackageRegistry(Service):
    """An npm registry with company and public packages."""

    name = "package_registry"
    description = "npm package registry: versions, dist-tags, dependencies, maintainers, deprecations and advisories."
    domain = "developer_tools"
    spec_source = "@Nekzus_npm-sentinel-mcp"
    designed_tools = frozenset({"npmDeprecate", "npmOwnerAdd", "npmOwnerRemove", "npmDistTag"})
    State = RegistryState

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> RegistryState:
        return build_state(rng, today)

    def _pkg(self, name: str) -> Package:
        pkg = self.state.packages.get(name)
        if pkg is None:
            raise NotFound(f"package {name!r} not found in the registry; call npmSearch to find packages.")
        return pkg

    def _each(self, packages: Names) -> list[Package]:
        return [self._pkg(n) for n in dict.fromkeys(packages)]

    def _require_maintainer(self, pkg: Package, actor: str) -> None:
        if actor.lower() not in {m.email.lower() for m in pkg.maintainers}:
            raise Unprocessable(f"{actor} is not a maintainer of {pkg.name}; maintainers: "
                                f"{', '.join(m.email for m in pkg.maintainers)}.")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def npmVersions(self, packages: Names = Field(min_length=1)) -> list[dict]:
        """All published versions of packages, oldest first, with dates and deprecation messages.

        Args:
            packages: Package names, e.g. ["lodash"]
        """
        return [{"package": p.name, "versions": [v.model_dump(exclude={"dependencies"}) for v in p.versions]}
                for p in self._each(packages)]

    @tool(read_only=True)
    def npmLatest(self, packages: Names = Field(min_length=1)) -> list[dict]:
        """The version the 'latest' dist-tag points to, its date, and every dist-tag.

        Args:
            packages: Package names
        """
        out = []
        for p in self._each(packages):
            latest = next(v for v in p.versions if v.version == p.dist_tags["latest"])
            out.append({"package": p.name, "latest": latest.version, "published_on": latest.published_on,
                        "dist_tags": p.dist_tags})
        return out

    @tool(read_only=True)
    def npmDeps(self, packages: Names = Field(min_length=1)) -> list[dict]:
        """Dependencies (package -> semver range) of each package's latest version.

        Args:
            packages: Package names
        """
        return [{"package": p.name, "version": p.dist_tags["latest"],
                 "dependencies": next(v for v in p.versions if v.version == p.dist_tags["latest"]).dependencies}
                for p in self._each(packages)]

    @tool(read_only=True)
    def npmTypes(self, packages: Names = Field(min_length=1)) -> list[dict]:
        """Whether each package ships its own TypeScript declarations.

        Args:
            packages: Package names
        """
        return [{"package": p.name, "types_included": p.types_included} for p in self._each(packages)]

    @tool(read_only=True)
    def npmVulnerabilities(self, packages: Names = Field(min_length=1)) -> list[dict]:
        """Security advisories of packages, and whether the latest version is still affected.

        Args:
            packages: Package names
        """
        return [{"package": p.name, "advisories": [a.model_dump() for a in p.advisories],
                 "latest_affected": any(_key(p.dist_tags["latest"]) < _key(a.vulnerable_below) for a in p.advisories)}
                for p in self._each(packages)]

    @tool(read_only=True)
    def npmMaintainers(self, packages: Names = Field(min_length=1)) -> list[dict]:
        """Maintainers (name and email) of packages.

        Args:
            packages: Package names
        """
        return [{"package": p.name, "maintainers": [m.model_dump() for m in p.maintainers]} for p in self._each(packages)]

    @tool(read_only=True)
    def npmDeprecated(self, packages: Names = Field(min_length=1)) -> list[dict]:
        """Whether each package's latest version is deprecated, with the message and deprecated versions.

        Args:
            packages: Package names
        """
        out = []
        for p in self._each(packages):
            latest = next(v for v in p.versions if v.version == p.dist_tags["latest"])
            out.append({"package": p.name, "deprecated": latest.deprecated is not None, "message": latest.deprecated,
                        "deprecated_versions": [v.version for v in p.versions if v.deprecated]})
        return out

    @tool(read_only=True)
    def npmRepoStats(self, packages: Names = Field(min_length=1)) -> list[dict]:
        """Source repository (owner/name on GitHub), licence and weekly downloads of packages.

        Args:
            packages: Package names
        """
        return [{"package": p.name, "repository": p.repository, "license": p.license,
                 "weekly_downloads": p.weekly_downloads} for p in self._each(packages)]

    @tool(read_only=True)
    def npmSearch(self, query: str = Field(min_length=1), limit: int = Field(default=10, ge=1, le=100)) -> list[dict]:
        """Search packages by text in name, description or repository, most downloaded first.

        Args:
            query: Text to search for (case-insensitive)
            limit: Maximum number of results
        """
        q = query.lower()
        hits = [p for p in self.state.packages.values()
                if q in f"{p.name} {p.description} {p.repository or ''}".lower()]
        hits.sort(key=lambda p: -p.weekly_downloads)
        return [{"name": p.name, "description": p.description, "version": p.dist_tags["latest"],
                 "repository": p.repository} for p in hits[:limit]]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, idempotent=True)
    def npmDeprecate(self, package: str, version: str, message: Annotated[str, Field(max_length=300)],
                     actor_email: Email) -> dict:
        """Deprecate one version of a package with a message (an empty message un-deprecates), as `npm deprecate`.

        Args:
            package: Package name
            version: Exact version, e.g. 1.1.0
            message: Why, and what to use instead ('' lifts the deprecation)
            actor_email: Email of the maintainer making the change
        """
        pkg = self._pkg(package)
        self._require_maintainer(pkg, actor_email)
        ver = next((v for v in pkg.versions if v.version == version), None)
        if ver is None:
            raise NotFound(f"{package} has no version {version}; call npmVersions for its versions.")
        ver.deprecated = message or None
        return ver.model_dump(exclude={"dependencies"})

    @tool(read_only=False)
    def npmOwnerAdd(self, package: str, email: Email, name: PersonName, actor_email: Email) -> dict:
        """Add a maintainer to a package, as `npm owner add` (409 if already one).

        Args:
            package: Package name
            email: The new maintainer's email
            name: The new maintainer's name
            actor_email: Email of the existing maintainer making the change
        """
        pkg = self._pkg(package)
        self._require_maintainer(pkg, actor_email)
        if email.lower() in {m.email.lower() for m in pkg.maintainers}:
            raise Conflict(f"{email} already maintains {package}.")
        pkg.maintainers.append(Maintainer(name=name, email=email.lower()))
        return {"package": pkg.name, "maintainers": [m.model_dump() for m in pkg.maintainers]}

    @tool(read_only=False, destructive=True)
    def npmOwnerRemove(self, package: str, email: Email, actor_email: Email) -> dict:
        """Remove a maintainer from a package, as `npm owner rm`; the last maintainer stays (422).

        Args:
            package: Package name
            email: The maintainer to remove
            actor_email: Email of the maintainer making the change
        """
        pkg = self._pkg(package)
        self._require_maintainer(pkg, actor_email)
        keep = [m for m in pkg.maintainers if m.email.lower() != email.lower()]
        if len(keep) == len(pkg.maintainers):
            raise NotFound(f"{email} does not maintain {package}; call npmMaintainers.")
        if not keep:
            raise Unprocessable(f"{email} is the last maintainer of {package}; add another one first.")
        pkg.maintainers = keep
        return {"package": pkg.name, "maintainers": [m.model_dump() for m in pkg.maintainers]}

    @tool(read_only=False, idempotent=True)
    def npmDistTag(self, package: str, tag: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]{0,30}$")], version: str,
                   actor_email: Email) -> dict:
        """Point a dist-tag (e.g. 'latest', 'next') at an existing version, as `npm dist-tag add`.

        Args:
            package: Package name
            tag: Tag name (lower-case letters, digits, '-')
            version: Existing version the tag points to
            actor_email: Email of the maintainer making the change
        """
        pkg = self._pkg(package)
        self._require_maintainer(pkg, actor_email)
        if version not in {v.version for v in pkg.versions}:
            raise NotFound(f"{package} has no version {version!r}; call npmVersions for its versions.")
        pkg.dist_tags[tag] = version
        return {"package": pkg.name, "dist_tags": pkg.dist_tags}
