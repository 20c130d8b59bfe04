"""The deployment pipeline in chained tasks: a deploy names the service it
shipped and the engineer who started it; a project names its owner; the
case's production deploy is rolled back.

Also holds :func:`new_app_key`, the allocator of new service keys shared by
the engineering hooks (monitoring, status page, GitHub runbooks, wiki
service pages), so that one key names one service in every one of them.
"""

from __future__ import annotations

import hashlib
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._engineering import ENGINEERS, team_engineers
from compoworld_gym.envs.services.deployments import Deployment, Project
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, next_id

_DOMAINS = ("ledger", "pricing", "invoice", "loyalty", "fraud", "tax", "coupon", "refund", "warehouse",
            "catalog", "webhook", "session", "media", "returns", "subscription", "address")
_KINDS = ("api", "worker", "service", "sync")
_TEAMS = ("payments", "storefront", "platform", "data")


def new_app_key(ctx: Ctx) -> str:
    """A service key no service of the task uses yet, e.g. ``"ledger-sync"``
    (reserved for the rest of the planting)."""
    taken = ctx.__dict__.setdefault("_app_keys", set())
    taken |= set(ctx.states.get("deployments", {}).get("projects", {}))
    taken |= set(ctx.states.get("monitoring", {}).get("services", {}))
    taken |= {c.get("service") for c in ctx.states.get("status_page", {}).get("components", {}).values()}
    key = ctx.rng.choice([f"{d}-{k}" for d in _DOMAINS for k in _KINDS if f"{d}-{k}" not in taken])
    taken.add(key)
    return key


def app_name(key: str) -> str:
    """The display name of a service key ("ledger-sync" → "Ledger Sync")."""
    return key.replace("-", " ").title()


def engineer_email(ctx: Ctx) -> str:
    """An engineer's work email (deployers, maintainers, service owners)."""
    return ctx.rng.choice(ENGINEERS).email


def next_deployment_id(state: dict[str, Any]) -> str:
    """Take the next free deployment id from the pipeline's counters."""
    return next_id(state, "DPL")


def plant_deployment(state: dict[str, Any], dep_id: str, **fields: Any) -> str:
    """Add a :class:`Deployment` (validated) under ``dep_id``; when it is
    ready it becomes the live one of its environment. Returns the id."""
    pid, version = fields["project_id"], fields["version"]
    base = {"environment": "production", "status": "ready", "branch": "main", "note": "",
            "commit_sha": hashlib.sha1(f"{pid}/{version}".encode()).hexdigest()[:7],
            "url": f"https://{pid}-{dep_id.lower()}.deploy.company.example"}
    dep = Deployment.model_validate({**base, **fields, "id": dep_id})
    state["deployments"][dep_id] = dep.model_dump(mode="json")
    if dep.status == "ready":
        state["projects"][pid]["live"][dep.environment] = dep_id
    return dep_id


def ensure_project(ctx: Ctx, key: str, owner: str | None = None) -> dict[str, Any]:
    """The :class:`Project` ``key``, planted (validated) if missing with two
    ready production deploys, so that it can be rolled back."""
    state = ctx.state("deployments")
    if key not in state["projects"]:
        team = ctx.rng.choice(_TEAMS)
        owner = owner or team_engineers(team)[0].email
        state["projects"][key] = Project(
            id=key, name=app_name(key), repo=f"acme/{key}", team=team, owner_email=owner,
            production_url=f"https://{key}.company.example",
            live={"development": None, "staging": None, "production": None}).model_dump(mode="json")
        major, minor = ctx.rng.randint(1, 4), ctx.rng.randint(0, 15)
        for k, days in enumerate((16, 8)):  # each version goes to staging, then a day later to production
            for env, day in (("staging", -days), ("production", 1 - days)):
                plant_deployment(state, next_deployment_id(state), project_id=key, version=f"v{major}.{minor + k}.0",
                                 environment=env, created_by=owner, created_at=ctx.at(day, 11))
    return state["projects"][key]


def _version_after(state: dict[str, Any], pid: str) -> str:
    live = state["projects"][pid]["live"]["production"]
    major, minor, _ = (int(x) for x in state["deployments"][live]["version"][1:].split(".")) if live else (1, 0, 0)
    return f"v{major}.{minor + 1}.0"


def _plant_deployment(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state("deployments")
    pid = outs.get("project_id") or new_app_key(ctx)  # its own service: the deploy stays the live one
    who = outs.get("email") or engineer_email(ctx)
    ensure_project(ctx, pid)
    return plant_deployment(state, key, project_id=pid, version=_version_after(state, pid), created_by=who,
                            created_at=ctx.at(-1, ctx.rng.randint(13, 17)))


def _plant_project(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    project = ensure_project(ctx, key, outs.get("email") or engineer_email(ctx))
    return project["id"]


DEPLOYMENT = Relay(
    service="deployments", name="deployment", key="deployment_id",
    gives=(Give("deployment_id", "id", "the deploy"),
           Give("email", "created_by", "the email address of the engineer who deployed it",
                "the engineer who deployed it", draw=engineer_email),
           Give("project_id", "project_id", "the deployed service")),
    plant=_plant_deployment, find=lambda reader, key: reader.read("deployments", "get_deployment", deployment_id=key),
    where="The deployment pipeline records, for each deploy, the service it shipped and the engineer who started it.",
    alloc=lambda ctx: next_deployment_id(ctx.state("deployments")), entry=lambda key: f"deployment {key}")

PROJECT = Relay(
    service="deployments", name="deploy project", key="project_id",
    gives=(Give("email", "owner_email", "the email address of the service's owner", "the project owner",
                draw=engineer_email),),
    plant=_plant_project, find=lambda reader, key: reader.read("deployments", "get_project", project_id=key),
    where="The deployment pipeline's project record names the engineer who owns the service.",
    alloc=new_app_key)


def _rollback(reader: Reader, args: dict[str, Found]) -> Write:
    mention = args["mention"]
    pid = reader.read("deployments", "get_deployment", deployment_id=args["deploy"].value)["project_id"]
    live = reader.read("deployments", "get_project", project_id=pid)["live"]["production"]
    ready = reader.read("deployments", "list_deployments", project_id=pid, environment="production", status="ready")
    since = next(d["created_at"] for d in ready if d["id"] == live)
    target = max((d for d in ready if d["created_at"] < since), key=lambda d: (d["created_at"], d["id"]))["id"]
    reason = f"{args['case'].value}: {mention.noun} is {mention.display}"
    return Write(
        calls=[call("rollback_deployment", project_id=pid, environment="production", actor_email=OPS_EMAIL,
                    reason=reason)],
        checks=[RecordMatches(id="_", service="deployments", collection="projects", record_id=pid,
                              where={"live.production": target},
                              description="The service's production is back on its previous good deploy."),
                RecordMatches(id="_", service="deployments", collection="deployments", record_id=live,
                              where={"status": "rolled_back", "note": {"$contains": mention.display}},
                              description="The rolled-back deploy records a reason quoting the right value.")],
        scope=[OnlyChanged(id="_", service="deployments", collection="projects", allow_ids=[pid],
                           description="No other project was changed."),
               OnlyChanged(id="_", service="deployments", collection="deployments", allow_ids=[live],
                           description="No other deploy was changed or started.")],
        tool="rollback_deployment", where={"project_id": pid}, label="the production rollback")


LINKS = ServiceLinks(
    service="deployments", label="the deployment pipeline",
    relays=(DEPLOYMENT, PROJECT),
    actions=(Action(service="deployments", name="rollback", needs=(Need("deploy", "deployment_id", noun="deploy"),),
                    build=_rollback, goal="roll {deploy} back in production, giving {mention} in the reason"),),
)

__all__ = ["LINKS", "app_name", "engineer_email", "ensure_project", "new_app_key", "next_deployment_id",
           "plant_deployment"]
