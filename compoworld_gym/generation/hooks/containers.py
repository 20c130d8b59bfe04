"""Containers in chained tasks: on the staging Docker host each app runs as a
container labelled with its service key (the same key as its deploy project,
monitored service, vault secret and Cloud Run service) and its owner's email.
An app leads to its running container, which names its owner. The case's
app container is restarted (to pick up a rotated secret or a fix), or
stopped."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._containers_models import ContainersState
from compoworld_gym.envs.services._containers_rules import hex_id
from compoworld_gym.envs.services._containers_seed import COMPANY_REGISTRY, HOST, add_container, app_logs
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import engineer_email, new_app_key
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write

SERVICE = "containers"


def _alloc_key(ctx: Ctx) -> str:
    taken = ctx.__dict__.setdefault("_app_keys", set())
    taken |= {c["labels"].get("app") for c in ctx.state(SERVICE)["containers"].values()}
    return new_app_key(ctx)


def plant_container(ctx: Ctx, key: str, owner: str, *, stale: bool = False, cid: str | None = None) -> str:
    """Add app ``key``'s container (id ``cid`` when given) owned by ``owner``: running under the app's name,
    or (``stale``) an old stopped one named ``<key>-old``; returns its id."""
    st = ContainersState.model_validate(ctx.state(SERVICE))
    name = f"{key}-old" if stale else key
    for c in list(st.containers.values()):
        if c.name == name:
            del st.containers[c.id]
    version = f"v{ctx.rng.randint(1, 4)}.{ctx.rng.randint(1, 20) + (0 if stale else 1)}.0"
    made = dt.datetime.fromisoformat(ctx.at(-ctx.rng.randint(8, 20) if stale else -ctx.rng.randint(1, 6), 11))
    used = {p for c in st.containers.values() for p in c.ports.values()}
    port = next(str(p) for p in range(8100, 9000) if str(p) not in used)
    c = add_container(
        st, name, f"{COMPANY_REGISTRY}/{key}:{version}", made, state_="exited" if stale else "running", started=made,
        finished=made + dt.timedelta(days=3) if stale else None, restart="no" if stale else "unless-stopped",
        ports={} if stale else {"8080/tcp": port}, networks=["apps"],
        env={"APP_ENV": "staging", "VAULT_SECRET_PATH": f"secret/apps/{key}/database", "LOG_LEVEL": "info"},
        labels={"app": key, "owner": owner}, logs=app_logs(key, version, made, ctx.rng),
        cid=cid or hex_id(HOST, name, made.isoformat(), ctx.code()))
    dumped = st.model_dump(mode="json")
    ctx.state(SERVICE)["containers"] = dumped["containers"]
    ctx.state(SERVICE)["images"] = dumped["images"]
    return c.id


def _find(reader: Reader, key: Any) -> dict[str, Any]:
    rows = [c for c in reader.read(SERVICE, "list-containers")
            if c["labels"].get("app") == key and c["state"] == "running"]
    if len(rows) != 1:
        raise SolveError(f"{len(rows)} running containers of {key}")
    return reader.read(SERVICE, "inspect-container", container_id=rows[0]["name"])


APP_CONTAINER = Relay(
    service=SERVICE, name="app's staging container", key="project_id",
    gives=(Give("email", "labels.owner", "the email address of the container's owner", "the container owner",
                draw=engineer_email),),
    plant=lambda ctx, key, outs, stale: plant_container(ctx, key, outs.get("email") or engineer_email(ctx),
                                                        stale=stale),
    find=_find, alloc=_alloc_key, entry=lambda key: f"the staging container of {key}",
    where="On the staging Docker host each app runs as a container labelled app=<service key> and owner=<email>.",
    truth="A stopped container of an app serves nothing; only its running container counts.")


def _container(reader: Reader, app: str) -> dict[str, Any]:
    """The app's running container, found as an agent would (list, then inspect)."""
    return _find(reader, app)


def _scope(cid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="containers", allow_ids=[cid],
                        description="No other container was started, stopped, created or removed."),
            OnlyChanged(id="_", service=SERVICE, collection="images", description="No image was pulled or removed.")]


def _restart(reader: Reader, args: dict[str, Found]) -> Write:
    c = _container(reader, args["app"].value)
    cid = c["id"]
    return Write(
        calls=[call("restart-container", container_id=c["name"])],
        checks=[RecordMatches(id="_", service=SERVICE, collection="containers", record_id=cid,
                              where={"state": "running", "restart_count": c["restart_count"] + 1},
                              description="The app's container was restarted once and runs again.")],
        scope=_scope(cid), tool="restart-container", where={"container_id": c["name"]},
        label="the restarted container")


def _stop(reader: Reader, args: dict[str, Found]) -> Write:
    c = _container(reader, args["app"].value)
    cid = c["id"]
    return Write(
        calls=[call("stop-container", container_id=c["name"])],
        checks=[RecordMatches(id="_", service=SERVICE, collection="containers", record_id=cid,
                              where={"state": "exited"}, description="The app's container is stopped.")],
        scope=_scope(cid), tool="stop-container", where={"container_id": c["name"]},
        label="the stopped container")


LINKS = ServiceLinks(
    service=SERVICE, label="the staging Docker host",
    relays=(APP_CONTAINER,),
    actions=(
        Action(service=SERVICE, name="restart", needs=(Need("app", "project_id"),), build=_restart,
               goal="restart the app's running container on the staging Docker host"),
        Action(service=SERVICE, name="stop", needs=(Need("app", "project_id"),), build=_stop,
               goal="stop the app's running container on the staging Docker host"),
    ),
)

__all__ = ["LINKS", "plant_container"]
