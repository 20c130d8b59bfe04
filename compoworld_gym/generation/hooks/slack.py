"""Task hook of Slack: workspace members' emails as facts."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook


def _plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    users = ctx.state("slack")["users"]
    uid = f"U{max(int(u[1:]) for u in users if u[1:].isdigit()) + 1:04d}"
    return uid, {"id": uid, "name": cue.lower().replace(" ", "."), "real_name": cue, "email": value,
                 "title": "Partner contact", "is_bot": False, "tz": "America/Chicago"}


HOOK = ServiceHook(
    service="slack",
    label="Slack",
    sources={"email": RecordSource(
        type="email", tool="slack_get_users", collection="users", noun="the email address",
        locate="of the Slack member {cue}", plant=_plant, read_args=lambda cue: {"limit": 200},
        cue=lambda ctx: f"{ctx.first_name()} {ctx.last_name()}-{ctx.rng.choice('ABCDEFGH')}",
        plural="members")},
)
