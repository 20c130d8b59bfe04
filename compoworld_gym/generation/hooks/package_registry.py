"""The package registry in chained tasks: the npm package published from a
GitHub repository (by ``owner/name``) names its maintainer's email; the
case's package gets its latest version deprecated with a message quoting a
found value, made by that maintainer."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._package_registry_seed import Maintainer, Package, Version
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write

_STAFF_EMAILS = tuple(s.email for s in STAFF)


def plant_package(ctx: Ctx, repo: str, maintainer: str) -> str:
    """Add a :class:`Package` (validated) published from ``repo``; returns its name."""
    name = f"@{repo.split('/')[0]}/{repo.split('/')[-1]}"
    version = f"{ctx.rng.randint(1, 4)}.{ctx.rng.randint(0, 9)}.{ctx.rng.randint(0, 9)}"
    pkg = Package(name=name, description=f"Library built from {repo}", license="UNLICENSED", repository=repo,
                  maintainers=[Maintainer(name=name_from_email(maintainer), email=maintainer)],
                  versions=[Version(version=version, published_on=ctx.day(-ctx.rng.randint(5, 200)))],
                  dist_tags={"latest": version}, weekly_downloads=ctx.rng.randint(10, 5000), types_included=True)
    ctx.state("package_registry")["packages"][name] = pkg.model_dump(mode="json")
    return name


def _package_of(reader: Reader, repo: Any) -> str:
    hits = [h for h in reader.read("package_registry", "npmSearch", query=str(repo), limit=100)
            if h["repository"] == repo]
    if len(hits) != 1:
        raise SolveError(f"{len(hits)} packages are published from {repo}")
    return hits[0]["name"]


def _find(reader: Reader, repo: Any) -> dict[str, Any]:
    return reader.read("package_registry", "npmMaintainers", packages=[_package_of(reader, repo)])[0]


PACKAGE = Relay(
    service="package_registry", name="npm package", key="repo_name",
    gives=(Give("email", "maintainers.0.email", "the package maintainer's email", "the package maintainer",
                draw=lambda ctx: ctx.rng.choice(_STAFF_EMAILS)),),
    plant=lambda ctx, key, outs, stale: plant_package(ctx, str(key), outs.get("email") or ctx.rng.choice(_STAFF_EMAILS)),
    find=_find,
    where="Each npm package in the package registry names the GitHub repository it is published from and its "
          "maintainers.", key_role="any", entry=lambda key: f"the npm package published from repository {key}")


def _prepare(ctx: Ctx, values: dict[str, Any]) -> None:
    repo = str(values["repo"])
    if not any(p["repository"] == repo for p in ctx.state("package_registry")["packages"].values()):
        plant_package(ctx, repo, ctx.rng.choice(_STAFF_EMAILS))


def _deprecate(reader: Reader, args: dict[str, Found]) -> Write:
    repo, mention, case = str(args["repo"].value), args["mention"], args["case"].value
    name = _package_of(reader, repo)
    version = reader.read("package_registry", "npmLatest", packages=[name])[0]["latest"]
    actor = reader.read("package_registry", "npmMaintainers", packages=[name])[0]["maintainers"][0]["email"]
    return Write(
        calls=[call("npmDeprecate", package=name, version=version, message=f"{case}: {mention.display}",
                    actor_email=actor)],
        checks=[RecordMatches(id="_", service="package_registry", collection="packages", record_id=name,
                              where={"versions": {"$any": {"version": version,
                                                           "deprecated": {"$contains": mention.display}}}},
                              description="The package's latest version is deprecated, its message quoting the value.")],
        scope=[OnlyChanged(id="_", service="package_registry", collection="packages", allow_ids=[name],
                           description="No other package was changed.")],
        tool="npmDeprecate", where={"package": name}, label="the deprecation of the package's latest version")


LINKS = ServiceLinks(
    service="package_registry", label="the npm package registry",
    relays=(PACKAGE,),
    actions=(Action(service="package_registry", name="deprecate", needs=(Need("repo", "repo_name"),),
                    build=_deprecate, prepare=_prepare,
                    goal="deprecate the latest version of the npm package published from the repository (as its "
                         "maintainer), the deprecation message quoting {mention}"),),
)

__all__ = ["LINKS", "plant_package"]
