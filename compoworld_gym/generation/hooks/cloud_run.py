"""Cloud Run in chained tasks: an app's production Cloud Run service (the
same key as its deploy project, its monitored service and its vault secret)
names the engineer who last deployed it and the revision it serves; a
revision names, in its annotations, the pipeline deploy that shipped it. The
case's serving revision is rolled back: all traffic goes to the revision
before it.

Services are planted in the production project (labelled
``environment=production``) in the default region; the stale look-alike is
the staging copy of the service, deployed by someone else."""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._cloud_run_models import LATEST, CloudRunState, TrafficTarget
from compoworld_gym.envs.services._cloud_run_rules import service_name
from compoworld_gym.envs.services._cloud_run_seed import DEFAULT_REGION, PROD, STAGING, add_revision, new_service
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import engineer_email, new_app_key, next_deployment_id
from compoworld_gym.generation.hooks.monitoring import DEPLOY_RX
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id,
)

SERVICE = "cloud_run"


def _load(ctx: Ctx) -> CloudRunState:
    return CloudRunState.model_validate(ctx.state(SERVICE))


def _save(ctx: Ctx, state: CloudRunState) -> None:
    raw, dumped = ctx.state(SERVICE), state.model_dump(mode="json")
    for coll in ("services", "revisions"):
        raw[coll] = dumped[coll]


def _alloc_key(ctx: Ctx) -> str:
    taken = ctx.__dict__.setdefault("_app_keys", set())
    taken |= {s["service"] for s in ctx.state(SERVICE)["services"].values()}
    return new_app_key(ctx)


def _alloc_revision(ctx: Ctx) -> str:
    key = _alloc_key(ctx)
    number = ctx.rng.randint(3, 14)
    suffix = "".join(ctx.rng.choice("abcdefghijkmnopqrstuvwxyz") for _ in range(3))
    return f"{key}-{number:05d}-{suffix}"


def _deploy_ref(ctx: Ctx) -> str:
    """A pipeline deploy id: the pipeline's next one when it is mounted (reserved), else one of our own."""
    if "deployments" in ctx.states:
        return next_deployment_id(ctx.state("deployments"))
    return next_id(ctx.state(SERVICE), "DPL", start=60)


def _version(ctx: Ctx, k: int) -> tuple[str, str]:
    v = f"v{ctx.rng.randint(1, 4)}.{ctx.rng.randint(2, 19) + k}.0"
    return v, hashlib.sha1(f"{v}{ctx.rng.random()}".encode()).hexdigest()[:7]


def plant_service(ctx: Ctx, key: str, owner: str, *, project: str = PROD, revision: str | None = None,
                  deployment_id: str | None = None) -> str:
    """Plant (or extend) ``key``'s Cloud Run service in ``project``: a ready revision two weeks old by
    another engineer, then the revision ``owner`` deployed yesterday (named ``revision`` when given,
    annotated with ``deployment_id``), serving 100 % of traffic. Returns the serving revision id."""
    state = _load(ctx)
    name = service_name(project, DEFAULT_REGION, key)
    svc = state.services.get(name)
    start = dt.datetime.fromisoformat(ctx.at(-14, 11))
    other = next(e for e in (engineer_email(ctx), engineer_email(ctx), "ops@company.example") if e != owner)
    env = {"APP_ENV": "production" if project == PROD else "staging", "LOG_LEVEL": "info",
           "VAULT_SECRET_PATH": f"secret/apps/{key}/database", "OTEL_SERVICE_NAME": key}
    base = int(revision.rsplit("-", 2)[1]) - 1 if revision else ctx.rng.randint(1, 9)
    if svc is None:
        svc = new_service(state, project, DEFAULT_REGION, key, other, start, env)
        svc.latest_created_revision = f"{key}-{base - 1:05d}-x" if base > 1 else None
    version, sha = _version(ctx, 0)
    image = f"{DEFAULT_REGION}-docker.pkg.dev/{project}/apps/{key}:{version}"
    add_revision(state, svc, start, other, image=image, annotations={"version": version, "commit-sha": sha})
    version, sha = _version(ctx, 1)
    when = dt.datetime.fromisoformat(ctx.at(-1, ctx.rng.randint(13, 17)))
    notes = {"deployment-id": deployment_id or _deploy_ref(ctx), "version": version, "commit-sha": sha}
    rev = add_revision(state, svc, when, owner, image=f"{DEFAULT_REGION}-docker.pkg.dev/{project}/apps/{key}:{version}",
                       annotations=notes)
    if revision and rev.revision != revision:  # keep the asked id (the instruction names it)
        del state.revisions[rev.name]
        rev.name, rev.revision = f"{svc.name}/revisions/{revision}", revision
        state.revisions[rev.name] = rev
        svc.latest_created_revision = svc.latest_ready_revision = revision
    svc.traffic = [TrafficTarget(type=LATEST, percent=100)]
    _save(ctx, state)
    return rev.revision


def _plant_service(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    owner = outs.get("email") or engineer_email(ctx)
    plant_service(ctx, key, owner, project=STAGING if stale else PROD)
    return service_name(STAGING if stale else PROD, DEFAULT_REGION, key)


def _plant_revision(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    service = str(key).rsplit("-", 2)[0]
    plant_service(ctx, service, engineer_email(ctx), revision=key, deployment_id=outs.get("deployment_id"))
    return f"{service_name(PROD, DEFAULT_REGION, service)}/revisions/{key}"


def _production(reader: Reader) -> str:
    rows = [p for p in reader.read(SERVICE, "list_projects") if p["labels"].get("environment") == "production"]
    if len(rows) != 1:
        raise SolveError(f"{len(rows)} production projects")
    return rows[0]["project_id"]


def _find_service(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_service", project=_production(reader), service=key)


def _find_revision(reader: Reader, key: Any) -> dict[str, Any]:
    service = str(key).rsplit("-", 2)[0]
    return reader.read(SERVICE, "get_revision", project=_production(reader), service=service, revision=key)


_DEPLOYER = Give("email", "last_modifier", "the email address of the engineer who last deployed it",
                 "the engineer who last deployed the service", draw=engineer_email)

CLOUD_RUN_SERVICE = Relay(
    service=SERVICE, name="Cloud Run service", key="project_id",
    gives=(_DEPLOYER, Give("cloud_run_revision_id", "latest_ready_revision", "the revision the service serves")),
    plant=_plant_service, find=_find_service,
    where="Each app runs on Cloud Run as a service of the same name in the production GCP project (labelled "
          "environment=production); the service names who last deployed it and the revision it serves.",
    alloc=_alloc_key, entry=lambda key: f"the Cloud Run service {key}",
    truth="The staging project's copy of a service is not production; only the production service counts.")

REVISION = Relay(
    service=SERVICE, name="Cloud Run revision", key="cloud_run_revision_id",
    gives=(Give("deployment_id", "annotations.deployment-id", "the pipeline deploy that shipped the revision",
                pattern=DEPLOY_RX),),
    plant=_plant_revision, find=_find_revision,
    where="A Cloud Run revision is named after its production service and its annotations record the pipeline "
          "deploy that shipped it.",
    alloc=_alloc_revision, entry=lambda key: f"Cloud Run revision {key}")


def _rollback_write(reader: Reader, project: str, service: str, rid: str) -> Write:
    revs = reader.read(SERVICE, "list_revisions", project=project, service=service)
    bad = next((r for r in revs if r["revision"] == rid), None)
    if bad is None or bad["traffic_percent"] != 100:
        raise SolveError(f"revision {rid} does not serve all of {service}'s traffic")
    prev = next((r["revision"] for r in revs if r["ready"] and r["generation"] < bad["generation"]), None)
    if prev is None:
        raise SolveError(f"{service} has no ready revision before {rid}")
    name = service_name(project, DEFAULT_REGION, service)
    return Write(
        calls=[call("update_traffic", project=project, service=service,
                    traffic=[{"revision": prev, "percent": 100}])],
        checks=[RecordMatches(id="_", service=SERVICE, collection="services", record_id=name,
                              where={"traffic": {"$len": 1, "$each": {"revision": prev, "percent": 100}}},
                              description="All of the service's traffic goes to the revision before the bad one.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="services", allow_ids=[name],
                           description="No other Cloud Run service was changed, deployed or deleted."),
               OnlyChanged(id="_", service=SERVICE, collection="revisions",
                           description="No revision was deployed or deleted.")],
        tool="update_traffic", where={"service": service}, label="the Cloud Run traffic rollback")


def _rollback_service(reader: Reader, args: dict[str, Found]) -> Write:
    service, project = args["service"].value, _production(reader)
    rid = reader.read(SERVICE, "get_service", project=project, service=service)["latest_ready_revision"]
    return _rollback_write(reader, project, service, rid)


def _rollback_revision(reader: Reader, args: dict[str, Found]) -> Write:
    rid = args["revision"].value
    return _rollback_write(reader, _production(reader), str(rid).rsplit("-", 2)[0], rid)


LINKS = ServiceLinks(
    service=SERVICE, label="Cloud Run",
    relays=(CLOUD_RUN_SERVICE, REVISION),
    actions=(
        Action(service=SERVICE, name="rollback", needs=(Need("service", "project_id"),), build=_rollback_service,
               goal="roll the app's production Cloud Run service back to the revision before the one it "
                    "serves, sending that revision all of the traffic"),
        Action(service=SERVICE, name="rollback_revision", needs=(Need("revision", "cloud_run_revision_id"),),
               build=_rollback_revision,
               goal="take the Cloud Run revision out of service, sending all of its service's traffic to the "
                    "revision before it"),
    ),
)

__all__ = ["LINKS", "plant_service"]
