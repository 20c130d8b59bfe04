"""Task hook of Slack: members' emails as facts; posts to a channel as a
free-text sink for short values (dates, amounts, codes, names)."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import TEXT_FORMAT, RecordSource, ServiceHook, record_sink, text_of

#: Entity types short enough to be posted in a chat line.
POSTABLE = ("date", "money", "tracking_number", "sku", "phone", "company", "person_name", "url", "order_id",
            "invoice_id", "city")


def _plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    users = ctx.state("slack")["users"]
    uid = f"U{max(int(u[1:]) for u in users if u[1:].isdigit()) + 1:04d}"
    return uid, {"id": uid, "name": cue.lower().replace(" ", "."), "real_name": cue, "email": value,
                 "title": "Partner contact", "is_bot": False, "tz": "America/Chicago"}


def _sink_post(ctx: Ctx, fact: Fact) -> SinkStep:
    chans = ctx.state("slack")["channels"]
    cid = ctx.rng.choice(sorted(c for c, rec in chans.items() if not rec.get("is_archived")))
    name = chans[cid]["name"]
    case = ctx.case()
    return record_sink(
        ctx, fact, service="slack", tool="slack_post_message", value_arg="text", collection="messages",
        field_path="text", key={"channel_id": cid}, where={"channel_id": cid}, text=True,
        calls=[call("slack_list_channels", limit=200),
               call("slack_post_message", channel_id=cid, text=f"Update on {case}: {text_of(fact.value)}")],
        phrase=f"post {{ref}} in the #{name} Slack channel, mentioning {case}{TEXT_FORMAT.get(fact.type, '')}",
        label=f"the #{name} post")


HOOK = ServiceHook(
    service="slack",
    label="Slack",
    sources={"email": RecordSource(
        type="email", tool="slack_get_users", collection="users", noun="the email address",
        locate="of the Slack member {cue}", plant=_plant, read_args=lambda cue: {"limit": 200},
        cue=lambda ctx: f"{ctx.first_name()} {ctx.last_name()}-{ctx.rng.choice('ABCDEFGH')}",
        plural="members")},
    sinks={t: ("slack_post_message", _sink_post) for t in POSTABLE},
    free_text={"slack_post_message": "text"},
)
