"""Redis in chained tasks: a customer's email finds their live storefront
session, which points to their current cart (its total, and the SKU they
added last); a service's key finds its runtime config document, which names
the service's owner. Writes: the customer's session is revoked, or their
login lockout cleared (each logged to the audit stream with a reason quoting
a found value), or the service's config is switched to maintenance mode."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordAbsent, RecordMatches
from compoworld_gym.envs.services._blocks import day_start
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._redis_models import HashKey, JsonKey, SetKey, StringKey
from compoworld_gym.envs.services._redis_seed import (
    AUDIT_STREAM, ONLINE_SET, app_config, cart_fields, config_key, lockout_key, session_fields, session_key,
)
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import app_name, engineer_email, new_app_key
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id,
)

SERVICE = "redis"


def _put(ctx: Ctx, rec: Any) -> None:
    ctx.state(SERVICE)["keys"][rec.key] = rec.model_dump(mode="json")


def _start(ctx: Ctx) -> dt.datetime:
    return day_start(ctx.today)


def plant_session(ctx: Ctx, email: str, cart: str | None) -> str:
    """Add (or replace) the live session of ``email`` pointing to ``cart``, and mark the customer
    online; returns the session key. The session outlives any episode (expires at 21:00)."""
    start, key = _start(ctx), session_key(email)
    login = start - dt.timedelta(minutes=ctx.rng.randint(20, 400))
    fields = session_fields(name_from_email(email), email, cart, login, login + dt.timedelta(minutes=12),
                            "macOS / Chrome 121", f"198.51.100.{ctx.rng.randint(2, 254)}",
                            f"{ctx.rng.getrandbits(64):016x}")
    _put(ctx, HashKey(key=key, value=fields, expires_at=start + dt.timedelta(hours=12)))
    members = ctx.state(SERVICE)["keys"].get(ONLINE_SET, {}).get("value", [])
    _put(ctx, SetKey(key=ONLINE_SET, value=sorted({*members, email.lower()})))
    return key


def plant_cart(ctx: Ctx, email: str, total: float, sku: str, *, current: bool = True) -> str:
    """Add a cart of ``email`` worth ``total`` (USD) whose last-added SKU is ``sku``; a ``current``
    cart is open and the customer's live session points to it, else it is checked out (history).
    Returns the cart key."""
    state, start = ctx.state(SERVICE), _start(ctx)
    key = f"cart:{next_id(state, 'CRT')}"
    cents = round(total * 100)
    first = ctx.rng.randint(1, max(1, cents // 3)) if cents >= 300 else 0
    lines = [(f"SKU-{ctx.rng.randint(10000, 99999)}", 1, first / 100)] if first else []
    lines.append((sku, 1, (cents - first) / 100))
    updated = start - dt.timedelta(minutes=ctx.rng.randint(5, 90)) if current else start - dt.timedelta(days=9)
    _put(ctx, HashKey(key=key, value=cart_fields(email, lines, "open" if current else "checked_out", updated),
                      expires_at=start + dt.timedelta(days=7)))
    if current:
        plant_session(ctx, email, key)
    return key


def _plant_cart(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return plant_cart(ctx, str(key), outs.get("money") or ctx.fresh("money"), outs.get("sku") or ctx.fresh("sku"),
                      current=not stale)


def _cart(reader: Reader, email: Any) -> dict[str, Any]:
    cart = reader.read(SERVICE, "hget", name=session_key(str(email)), key="cart_key")["value"]
    if not cart:
        raise SolveError(f"the session of {email} has no cart")
    fields = reader.read(SERVICE, "hgetall", name=cart)
    return {"id": cart, **fields, "total": float(fields["total"])}


CART = Relay(
    service=SERVICE, name="customer's current cart", key="email",
    gives=(Give("money", "total", "the total of the customer's current cart"),
           Give("sku", "last_added_sku", "the SKU the customer added to their cart last"),
           Give("cache_key_id", "id", "the customer's current cart")),
    plant=_plant_cart, find=_cart,
    where="The storefront's session store (Redis) keeps each signed-in customer's session under their email "
          "address; the session points to the customer's current cart, which holds its total and the SKU added last.",
    truth="Checked-out carts are order history; only the cart the customer's live session points to is current.")


def plant_config(ctx: Ctx, app: str, owner: str) -> str:
    """Add the runtime config document of service ``app`` owned by ``owner``; returns its key."""
    doc = app_config(app, app_name(app), "platform", owner, ctx.rng.choice((300, 600, 1200)),
                     {"express-checkout": True, "saved-carts": ctx.rng.random() < 0.5},
                     _start(ctx) - dt.timedelta(days=3))
    _put(ctx, JsonKey(key=config_key(app), value=doc))
    return config_key(app)


def _alloc_app(ctx: Ctx) -> str:
    keys = ctx.state(SERVICE)["keys"]
    while True:
        app = new_app_key(ctx)
        if config_key(app) not in keys:
            return app


CONFIG = Relay(
    service=SERVICE, name="service's runtime config", key="project_id",
    gives=(Give("email", "owner_email", "the email address of the service's owner", "the service owner",
                draw=engineer_email),),
    plant=lambda ctx, key, outs, stale: plant_config(ctx, str(key), outs.get("email") or engineer_email(ctx)),
    find=lambda reader, key: reader.read(SERVICE, "json_get", name=config_key(str(key)), path="$"),
    where="Each service's runtime configuration is cached in Redis as a JSON document named after the service; "
          "it names the service's owner.",
    alloc=_alloc_app)


def _audited(key: str, action: str, mention: Found) -> RecordMatches:
    return RecordMatches(id="_", service=SERVICE, collection="keys", record_id=AUDIT_STREAM,
                         where={"value": {"$any": {"fields.key": key, "fields.action": action,
                                                   "fields.reason": {"$contains": mention.display}}}},
                         description="The audit stream logs the change with a reason quoting the right value.")


def _removal(reader: Reader, args: dict[str, Found], key: str, action: str, label: str) -> Write:
    mention, case = args["mention"], args["case"].value
    if reader.read(SERVICE, "ttl", key=key)["ttl"] == -2:
        raise SolveError(f"{key} is not in the cache")
    reason = f"{case}: {mention.noun} is {mention.display}"
    return Write(
        calls=[call("delete", key=key),
               call("xadd", key=AUDIT_STREAM, fields={"action": action, "key": key, "actor": OPS_EMAIL,
                                                      "reason": reason})],
        checks=[RecordAbsent(id="_", service=SERVICE, collection="keys", where={"key": key}, guard=False,
                             description=f"The customer's {label} is gone from the cache."),
                _audited(key, action, mention)],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="keys", allow_ids=[key, AUDIT_STREAM, ONLINE_SET],
                           description="No other cache key was changed or deleted.")],
        tool="delete", where={"key": key}, label=f"the removal of the customer's {label}")


def _prepare_session(ctx: Ctx, values: dict[str, Any]) -> None:
    if session_key(str(values["customer"])) not in ctx.state(SERVICE)["keys"]:
        plant_session(ctx, str(values["customer"]), None)


def _prepare_lockout(ctx: Ctx, values: dict[str, Any]) -> None:
    key = lockout_key(str(values["customer"]))
    if key not in ctx.state(SERVICE)["keys"]:
        _put(ctx, StringKey(key=key, value=str(ctx.rng.randint(5, 9)), expires_at=_start(ctx) + dt.timedelta(hours=18)))


def _maintenance(reader: Reader, args: dict[str, Found]) -> Write:
    app, mention, case = str(args["service"].value), args["mention"], args["case"].value
    key = config_key(app)
    reader.read(SERVICE, "json_get", name=key, path="$")
    reason = f"{case}: {mention.noun} is {mention.display}"
    return Write(
        calls=[call("json_set", name=key, path="$.maintenance", value={"enabled": True, "reason": reason})],
        checks=[RecordMatches(id="_", service=SERVICE, collection="keys", record_id=key,
                              where={"value.maintenance.enabled": True,
                                     "value.maintenance.reason": {"$contains": mention.display}},
                              description="The service's config is in maintenance mode, quoting the value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="keys", allow_ids=[key, AUDIT_STREAM],
                           description="No other cache key was changed.")],
        tool="json_set", where={"name": key}, label="the maintenance switch in the service's config")


def _prepare_config(ctx: Ctx, values: dict[str, Any]) -> None:
    if config_key(str(values["service"])) not in ctx.state(SERVICE)["keys"]:
        plant_config(ctx, str(values["service"]), engineer_email(ctx))


_CUSTOMER = (Need("customer", "email", ("the customer",)),)

LINKS = ServiceLinks(
    service=SERVICE, label="the storefront's Redis cache",
    relays=(CART, CONFIG),
    actions=(
        Action(service=SERVICE, name="revoke_session", needs=_CUSTOMER, prepare=_prepare_session,
               build=lambda reader, args: _removal(reader, args, session_key(str(args["customer"].value)),
                                                   "session_revoked", "session"),
               goal="sign {customer} out of the storefront by ending their session in the cache, and log it to the "
                    "cache's audit stream (action session_revoked, the key, and a reason quoting {mention})"),
        Action(service=SERVICE, name="clear_lockout", needs=_CUSTOMER, prepare=_prepare_lockout,
               build=lambda reader, args: _removal(reader, args, lockout_key(str(args["customer"].value)),
                                                   "lockout_cleared", "login lockout"),
               goal="clear {customer}'s login lockout in the cache, and log it to the cache's audit stream (action "
                    "lockout_cleared, the key, and a reason quoting {mention})"),
        Action(service=SERVICE, name="maintenance", needs=(Need("service", "project_id", noun="service"),),
               build=_maintenance, prepare=_prepare_config,
               goal="switch {service} into maintenance mode in its cached runtime config, giving {mention} as the "
                    "reason"),
    ),
)

__all__ = ["LINKS", "plant_cart", "plant_config", "plant_session"]
