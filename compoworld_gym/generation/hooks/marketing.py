"""Task hook of marketing (Mailchimp-like): a list member's email as a
fact; adding someone to a mailing list as a sink."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook, record_sink


def _list_id(ctx: Ctx) -> str:
    return min(ctx.state("marketing")["lists"])


def _plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    lid = _list_id(ctx)
    gone = bool(opts.get("closed"))
    return f"{lid}:{value.lower()}", {
        "list_id": lid, "email": value.lower(), "full_name": cue, "status": "unsubscribed" if gone else "subscribed",
        "tags": [], "opted_in_on": ctx.day(-30 * opts.get("when", 2)), "unsubscribed_on": ctx.day(-3) if gone else None}


def _sink_member(ctx: Ctx, fact: Fact) -> SinkStep:
    lid = _list_id(ctx)
    name = ctx.client()
    lst = ctx.state("marketing")["lists"][lid]["name"]
    return record_sink(
        ctx, fact, service="marketing", tool="add_member", value_arg="email", collection="members",
        field_path="email", key={"list_id": lid, "full_name": {"$ieq": name}}, where={"list_id": lid},
        calls=[call("list_audiences"), call("add_member", list_id=lid, email=fact.value, full_name=name)],
        phrase=f"subscribe {name} to the '{lst}' mailing list at {{ref}}", label=f"the '{lst}' signup")


HOOK = ServiceHook(
    service="marketing",
    label="the marketing tool",
    sources={"email": RecordSource(
        type="email", tool="list_members", collection="members", noun="the subscriber's email address",
        locate="of {cue} on the store newsletter list", plant=_plant,
        read_args=lambda cue: {"list_id": "LST-0001", "limit": 500},
        cue=lambda ctx: f"{ctx.first_name()} {ctx.last_name()}-{ctx.rng.choice('RSTUV')}",
        variants=frozenset({"decoy"}), plural="list entries",
        decoy_rule="Unsubscribed entries are stale; use {cue}'s subscribed entry.")},
    sinks={"email": ("add_member", _sink_member)},
)
