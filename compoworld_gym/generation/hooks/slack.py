"""Slack in chained tasks: posts in the team channel the case calls for."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists
from compoworld_gym.envs.services._company import TEAMS
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Need, Reader, ServiceLinks, Write, pick


def _post(reader: Reader, args: dict[str, Found]) -> Write:
    name, mention, case = args["channel"].value, args["mention"], args["case"].value
    chans = reader.read("slack", "slack_list_channels", limit=200)["channels"]
    cid = pick(chans, name=name)["id"]
    text = f"{case}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("slack_post_message", channel_id=cid, text=text)],
        checks=[RecordExists(id="_", service="slack", collection="messages",
                             where={"channel_id": cid, "text": {"$contains": mention.display}},
                             description="The right channel got a post quoting the right value.")],
        scope=[OnlyChanged(id="_", service="slack", collection="messages", allow_new={"channel_id": cid},
                           description="Nothing was posted in any other channel.")],
        tool="slack_post_message", where={"channel_id": cid}, label=f"the post in #{name}")


def _channels(ctx: Ctx) -> tuple[str, str]:
    a, b = ctx.rng.sample(sorted(TEAMS), 2)
    return TEAMS[a].channel, TEAMS[b].channel


LINKS = ServiceLinks(
    service="slack", label="Slack",
    actions=(Action(service="slack", name="post", needs=(Need("channel", "channel_name", noun="channel"),), build=_post,
                    goal="post in {channel} on Slack, quoting {mention}", routable=True),),
    route_values={"channel_name": _channels},
)

__all__ = ["LINKS"]
