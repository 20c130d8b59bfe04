"""Feature flags in chained tasks: a flag names its maintainer; a customer
picked for a feature is individually targeted by its flag. The case's flag
is switched off in production, or the customer is taken out of its targets."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._engineering import ENGINEERS
from compoworld_gym.envs.services._feature_flags_models import AuditEntry, Flag
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import engineer_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write,
)

_FEATURES = ("smart-retries", "bulk-pricing", "express-checkout", "saved-carts", "gift-wrap", "split-payments",
             "live-chat", "order-tracking", "wishlist-sharing", "address-autocomplete", "one-click-reorder",
             "loyalty-badges")
_TEAMS = tuple(dict.fromkeys(e.team for e in ENGINEERS))


def new_flag_key(ctx: Ctx) -> str:
    """A flag key no flag uses yet, e.g. ``"smart-retries-v2"`` (the form
    :data:`~compoworld_gym.generation.hooks.monitoring.FLAG_RX` quotes),
    reserved for the rest of the planting."""
    taken = ctx.__dict__.setdefault("_flag_keys", set())
    taken |= set(ctx.state("feature_flags")["flags"])
    key = ctx.rng.choice([f"{f}-v{n}" for f in _FEATURES for n in (2, 3, 4) if f"{f}-v{n}" not in taken])
    taken.add(key)
    return key


def _audit(state: dict[str, Any], at: str, actor: str, action: str, detail: str, flag: str,
           env: str | None = None) -> None:
    n = state["counters"].get("AUD", 1)
    state["counters"]["AUD"] = n + 1
    aid = f"AUD-{n:04d}"
    state["audit_log"][aid] = AuditEntry(id=aid, at=at, actor_email=actor, flag_key=flag, environment=env,
                                         action=action, detail=detail).model_dump(mode="json")


def plant_flag(ctx: Ctx, key: str, maintainer: str, *, on: bool = True, targets: tuple[str, ...] = (),
               archived: bool = False) -> str:
    """Add a :class:`Flag` (validated) with its audit trail: created, turned
    on in production (``on``), ``targets`` served variation 0 there. Returns the key."""
    state = ctx.state("feature_flags")
    name = key.rsplit("-v", 1)[0].replace("-", " ").capitalize()
    created, turned = ctx.at(-ctx.rng.randint(20, 60), 10), ctx.at(-ctx.rng.randint(3, 15), 14)
    envs = {"development": {"on": True, "rollout_percentage": 100}, "staging": {"on": True, "rollout_percentage": 100},
            "production": {"on": on and not archived, "rollout_percentage": ctx.rng.choice((10, 25, 50)),
                           "targets": [{"email": t, "variation": 0} for t in targets]}}
    flag = Flag.model_validate({"key": key, "name": name, "description": f"{name} for storefront customers.",
                                "variations": ["true", "false"], "tags": [ctx.rng.choice(_TEAMS)],
                                "maintainer_email": maintainer, "temporary": True, "archived": archived,
                                "created_at": created, "environments": envs})
    state["flags"][key] = flag.model_dump(mode="json")
    _audit(state, created, maintainer, "created", f"created flag {name!r}", key)
    if targets:
        _audit(state, turned, maintainer, "targets_added", f"variation 0 for {', '.join(targets)}", key, "production")
    if on:
        _audit(state, turned, maintainer, "turned_on", "turned on", key, "production")
    if archived:
        _audit(state, ctx.at(-2, 16), maintainer, "archived", "archived", key)
    return key


def _plant_flag(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return plant_flag(ctx, key, outs.get("email") or engineer_email(ctx))


def _plant_targeted(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return plant_flag(ctx, new_flag_key(ctx), outs.get("email") or engineer_email(ctx), on=not stale,
                      targets=(key,), archived=stale)


def _targeting(reader: Reader, key: Any) -> dict[str, Any]:
    log = reader.read("feature_flags", "list_audit_log", limit=200)
    keys = sorted({e["flag_key"] for e in log if e["action"] == "targets_added" and key.lower() in e["detail"].lower()})
    flags = [reader.read("feature_flags", "get_flag", flag_key=k) for k in keys]
    live = [f for f in flags if not f["archived"]
            and any(t["email"].lower() == key.lower() for t in f["environments"]["production"]["targets"])]
    if len(live) != 1:
        raise SolveError(f"{len(live)} live flags target {key}")
    return live[0]


_MAINTAINER = Give("email", "maintainer_email", "the flag maintainer's email address", "the flag maintainer",
                   draw=engineer_email)

FLAG = Relay(
    service="feature_flags", name="feature flag", key="flag_id", gives=(_MAINTAINER,),
    plant=_plant_flag, find=lambda reader, key: reader.read("feature_flags", "get_flag", flag_key=key),
    where="Each feature flag names the engineer who maintains it.",
    alloc=new_flag_key, entry=lambda key: f"feature flag {key}")

TARGETED_FLAG = Relay(
    service="feature_flags", name="flag targeting the customer", key="email", gives=(_MAINTAINER,),
    plant=_plant_targeted, find=_targeting,
    where="A customer picked for a feature is individually targeted by its flag in production; the flag names "
          "its maintainer.",
    truth="Archived flags are retired; only a live flag that targets the customer counts.")


def _kill(reader: Reader, args: dict[str, Found]) -> Write:
    key, mention = args["flag"].value, args["mention"]
    reader.read("feature_flags", "get_flag", flag_key=key)
    comment = f"{args['case'].value}: {mention.noun} is {mention.display}"
    return Write(
        calls=[call("toggle_flag", flag_key=key, environment="production", on=False, actor_email=OPS_EMAIL,
                    comment=comment)],
        checks=[RecordMatches(id="_", service="feature_flags", collection="flags", record_id=key,
                              where={"environments.production.on": False},
                              description="The case's flag is off in production."),
                RecordExists(id="_", service="feature_flags", collection="audit_log",
                             where={"flag_key": key, "action": "turned_off", "environment": "production",
                                    "detail": {"$contains": mention.display}},
                             description="The audit log records why, quoting the right value.")],
        scope=_scope(key, "turned_off"),
        tool="toggle_flag", where={"flag_key": key}, label="the flag switch-off")


def _scope(key: str, action: str) -> list[OnlyChanged]:
    """Guards of a write on flag ``key``: no other flag changed, one audit entry of ``action``."""
    return [OnlyChanged(id="_", service="feature_flags", collection="flags", allow_ids=[key],
                        description="No other flag was changed."),
            OnlyChanged(id="_", service="feature_flags", collection="audit_log",
                        allow_new={"flag_key": key, "action": action},
                        description="No other flag change was made.")]


def _untarget(reader: Reader, args: dict[str, Found]) -> Write:
    email = args["customer"].value
    key = _targeting(reader, email)["key"]
    return Write(
        calls=[call("remove_targets", flag_key=key, environment="production", emails=[email], actor_email=OPS_EMAIL)],
        checks=[RecordMatches(id="_", service="feature_flags", collection="flags", record_id=key,
                              where={"environments.production.targets": {"$none": {"email": {"$ieq": email}}}},
                              description="The customer is no longer individually targeted by the flag.")],
        scope=_scope(key, "targets_removed"),
        tool="remove_targets", where={"flag_key": key}, label="the removal of the customer's targeting")


def _prepare_untarget(ctx: Ctx, values: dict[str, Any]) -> None:
    email = values["customer"].lower()
    flags = ctx.state("feature_flags")["flags"].values()
    targeted = (f for f in flags if not f["archived"])
    if not any(t["email"].lower() == email for f in targeted for t in f["environments"]["production"]["targets"]):
        plant_flag(ctx, new_flag_key(ctx), engineer_email(ctx), targets=(values["customer"],))


LINKS = ServiceLinks(
    service="feature_flags", label="the feature-flag service",
    relays=(FLAG, TARGETED_FLAG),
    actions=(
        Action(service="feature_flags", name="kill", needs=(Need("flag", "flag_id", noun="flag"),), build=_kill,
               goal="switch {flag} off in production, giving {mention} in the comment"),
        Action(service="feature_flags", name="untarget", needs=(Need("customer", "email", ("the customer",)),),
               build=_untarget, prepare=_prepare_untarget,
               goal="take {customer} out of the production targets of the feature flag that targets them"),
    ),
)

__all__ = ["LINKS", "new_flag_key", "plant_flag"]
