"""The secrets vault in chained tasks: a secret's metadata (never its value)
names the owning engineer and the service it belongs to; a service's
database secret is found by the service key. The case's secret gets a
rotation ticket in its custom metadata, quoting a discovered value.

Secret values stay out of instructions, checks and reference calls: relays
read only ``read_secret_metadata`` and the action writes only metadata."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._secrets_vault_seed import make_secret, token
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import engineer_email, new_app_key
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write

SERVICE = "secrets_vault"
MOUNT = "secret"


def db_path(key: str) -> str:
    """The database secret's path of service ``key`` inside the mount."""
    return f"apps/{key}/database"


def _split(secret_id: str) -> tuple[str, str]:
    mount, _, path = str(secret_id).partition("/")
    return mount, path


def plant_secret(ctx: Ctx, key: str, owner: str) -> str:
    """Add (or replace) service ``key``'s database secret owned by ``owner``; returns its id."""
    state = ctx.state(SERVICE)
    when = dt.datetime.fromisoformat(ctx.at(-ctx.rng.randint(10, 60), 10))
    secret = make_secret(MOUNT, db_path(key), [{"username": f"{key.replace('-', '_')}_app",
                                                "password": token(ctx.rng)}], when, owner, key)
    state["secrets"][secret.id] = secret.model_dump(mode="json")
    return secret.id


def _alloc_secret(ctx: Ctx) -> str:
    return f"{MOUNT}/{db_path(_alloc_key(ctx))}"


def _alloc_key(ctx: Ctx) -> str:
    taken = ctx.__dict__.setdefault("_app_keys", set())
    taken |= {s["custom_metadata"].get("service") for s in ctx.state(SERVICE)["secrets"].values()}
    return new_app_key(ctx)


def _plant_by_id(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    service = outs.get("project_id") or _split(key)[1].split("/")[1]
    sid = plant_secret(ctx, service, outs.get("email") or engineer_email(ctx))
    if sid != key:  # the id names another service: keep the planted record under the asked id
        state = ctx.state(SERVICE)
        rec = state["secrets"].pop(sid)
        mount, path = _split(key)
        rec.update(id=key, mount=mount, path=path)
        state["secrets"][key] = rec
    return key


def _find_by_id(reader: Reader, key: Any) -> dict[str, Any]:
    mount, path = _split(key)
    return reader.read(SERVICE, "read_secret_metadata", mount=mount, path=path)


_OWNER = Give("email", "custom_metadata.owner", "the secret owner's email address", "the secret owner",
              draw=engineer_email)

SECRET = Relay(
    service=SERVICE, name="vault secret", key="secret_id",
    gives=(_OWNER, Give("project_id", "custom_metadata.service", "the service the secret belongs to")),
    plant=_plant_by_id, find=_find_by_id,
    where="Each secret's metadata in the vault names its owner and the service it belongs to.",
    alloc=_alloc_secret, entry=lambda key: f"vault secret {key}")

SERVICE_SECRET = Relay(
    service=SERVICE, name="service database secret", key="project_id",
    gives=(Give("secret_id", "id", "the service's database secret"), _OWNER),
    plant=lambda ctx, key, outs, stale: plant_secret(ctx, key, outs.get("email") or engineer_email(ctx)),
    find=lambda reader, key: reader.read(SERVICE, "read_secret_metadata", mount=MOUNT, path=db_path(key)),
    where="The vault keeps each service's database credentials at secret/apps/<service>/database, with the "
          "owner in its metadata.",
    alloc=_alloc_key, entry=lambda key: f"the database secret of {key}")


def _ticket(reader: Reader, args: dict[str, Found]) -> Write:
    sid, mention = args["secret"].value, args["mention"]
    mount, path = _split(sid)
    meta = reader.read(SERVICE, "read_secret_metadata", mount=mount, path=path)
    text = f"{args['case'].value}: {mention.noun} is {mention.display}"
    custom = {**meta["custom_metadata"], "rotation_ticket": text}
    return Write(
        calls=[call("update_secret_metadata", mount=mount, path=path, requester_email=OPS_EMAIL,
                    custom_metadata=custom)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="secrets", record_id=sid,
                              where={"custom_metadata.rotation_ticket": {"$contains": mention.display},
                                     "custom_metadata.owner": meta["custom_metadata"].get("owner")},
                              description="The secret's metadata carries the rotation ticket quoting the value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="secrets", allow_ids=[sid],
                           allow_paths={sid: ["custom_metadata.rotation_ticket", "updated_time"]},
                           description="No other secret, version or value was changed.")],
        tool="update_secret_metadata", where={"path": path}, label="the rotation ticket on the secret")


LINKS = ServiceLinks(
    service=SERVICE, label="the secrets vault",
    relays=(SECRET, SERVICE_SECRET),
    actions=(Action(service=SERVICE, name="ticket", needs=(Need("secret", "secret_id"),), build=_ticket,
                    goal="record a rotation ticket in the vault secret's metadata stating {mention}"),),
)

__all__ = ["LINKS", "db_path", "plant_secret"]
