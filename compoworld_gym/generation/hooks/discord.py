"""Discord in chained tasks: a customer's help-desk forum post (by id, or the
latest open one a customer opened under their name) quotes the order or the
support ticket it is about; the bot replies on the post, marks it handled
with a ✅ reaction, or escalates it in the staff channel."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._discord_models import (
    ForumPost, GuildMember, Message, User, next_snowflake, snowflake_time,
)
from compoworld_gym.envs.services._discord_seed import COMMUNITY, RESOLVED, STAFF_CHANNELS, SUPPORT_FORUM, username_of
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, pick,
)

SERVICE = "discord"
#: Record ids a post may quote, by entity type: (how the post names it, pattern).
QUOTED = {"order_id": ("order", r"ORD-\d{4,}"), "ticket_id": ("support ticket", r"TCK-\d{4,}")}
HANDLED = "✅"
#: The staff channel where community posts are escalated.
ESCALATIONS = STAFF_CHANNELS[0]


def _guild(state: dict[str, Any]) -> str:
    return next(g["id"] for g in state["guilds"].values() if g["name"] == COMMUNITY)


def _forum(state: dict[str, Any]) -> str:
    gid = _guild(state)
    return next(c["id"] for c in state["channels"].values()
                if c["guild_id"] == gid and c["type"] == "forum" and c["name"] == SUPPORT_FORUM)


def plant_member(state: dict[str, Any], name: str, at: dt.datetime) -> str:
    """The user id of the community member shown as ``name``, added (validated) as a customer if missing."""
    gid = _guild(state)
    guild = state["guilds"][gid]
    for m in guild["members"]:
        if (state["users"][m["user_id"]].get("global_name") or "").lower() == name.lower():
            return m["user_id"]
    uid = next_snowflake(state, at - dt.timedelta(days=300))
    taken = {u["username"] for u in state["users"].values()}
    handle = username_of(name) or "member"
    while handle in taken:
        handle += "1"
    state["users"][uid] = User(id=uid, username=handle, global_name=name).model_dump(mode="json")
    guild["members"].append(GuildMember(user_id=uid, roles=["Customer"], joined_at=at - dt.timedelta(days=200))
                            .model_dump(mode="json"))
    return uid


def next_post_id(state: dict[str, Any], at: dt.datetime) -> str:
    """Take the next post (thread) id for a post opened at ``at``."""
    return next_snowflake(state, at)


def plant_post(state: dict[str, Any], post_id: str, *, author: str, title: str, content: str, tags: list[str],
               closed: bool = False) -> str:
    """Add a help-desk :class:`ForumPost` by member ``author`` (a user id) with its starter
    message (validated), opened when ``post_id`` says; resolved (archived, locked) when
    ``closed``. Returns the id."""
    at, gid = snowflake_time(post_id), _guild(state)
    state["posts"][post_id] = ForumPost(
        id=post_id, guild_id=gid, parent_id=_forum(state), name=title, owner_id=author,
        applied_tags=tags + ([RESOLVED] if closed else []), archived=closed, locked=closed,
        created_at=at).model_dump(mode="json")
    name = state["users"][author].get("global_name") or state["users"][author]["username"]
    state["messages"][post_id] = Message(id=post_id, channel_id=post_id, guild_id=gid, author_id=author,
                                         author_name=name, content=content, created_at=at).model_dump(mode="json")
    return post_id


def _when(ctx: Ctx, stale: bool) -> dt.datetime:
    # Open posts are from this morning (newer than every seeded post); resolved ones weeks old.
    day = ctx.today - dt.timedelta(days=ctx.rng.randint(15, 30) if stale else 0)
    return dt.datetime.combine(day, dt.time(7 if not stale else 11, ctx.rng.randint(0, 59)))


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    at = _when(ctx, stale)
    pid = key if by == "id" else next_post_id(state, at)
    if by == "id":
        at = snowflake_time(pid)
    name = key if by == "name" else outs.get("person_name") or ctx.client()
    author = plant_member(state, name, at)
    quoted = [f"my {what} {outs[t]}" for t, (what, _) in QUOTED.items() if outs.get(t)]
    about = " and ".join(quoted) or "my last order"
    if stale:
        title, text = "Sorted, thanks", f"Earlier problem with {about}. Support fixed it, closing this."
    else:
        title, text = "Still waiting for help", f"Nobody got back to me about {about}. Can someone from the team help?"
    tags = ["Order issue"] if "order_id" in outs else ["Product question"]
    return plant_post(state, pid, author=author, title=title, content=text, tags=tags, closed=stale)


def _alloc(ctx: Ctx) -> str:
    return next_post_id(ctx.state(SERVICE), _when(ctx, False))


def _community(reader: Reader) -> str:
    return pick(reader.read(SERVICE, "discord_login")["guilds"], name=COMMUNITY)["id"]


def _post(reader: Reader, pid: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "discord_get_forum_post", threadId=pid)


def _customer_post(reader: Reader, key: Any) -> dict[str, Any]:
    forums = reader.read(SERVICE, "discord_get_forum_channels", guildId=_community(reader))
    posts = [p for f in forums if f["name"] == SUPPORT_FORUM for p in f["posts"]
             if p["author"].lower() == str(key).lower() and not p["locked"]]
    return _post(reader, latest(posts, "created_at")["id"])


_QUOTES = tuple(Give(t, "content", f"the {what} the forum post is about", pattern=rx)
                for t, (what, rx) in QUOTED.items())

FORUM_POST = Relay(
    service=SERVICE, name="help-desk forum post", key="forum_post_id",
    gives=(Give("forum_post_id", "id", "the help-desk forum post"),
           Give("person_name", "author", "the member who opened the post", "the customer"), *_QUOTES),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_post,
    where="A customer's post in the #help-desk forum of the store's Discord community says which order or "
          "support ticket it is about.",
    alloc=_alloc, entry=lambda key: f"Discord forum post {key}")

CUSTOMER_POST = Relay(
    service=SERVICE, name="customer's help-desk post", key="person_name",
    gives=(Give("forum_post_id", "id", "the customer's open help-desk post"), *_QUOTES),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "name"), find=_customer_post,
    where="Customers open posts in the #help-desk forum of the store's Discord community under their own name; "
          "a post says which order or support ticket it is about.",
    truth="A locked help-desk post was resolved; only the customer's latest open post counts.")


def _bot(reader: Reader) -> str:
    return reader.read(SERVICE, "discord_login")["user"]["id"]


def _reply(reader: Reader, args: dict[str, Found]) -> Write:
    pid, mention, case = args["post"].value, args["mention"], args["case"].value
    _post(reader, pid)
    bot = _bot(reader)
    text = f"Thanks for your patience. We are on it under {case}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("discord_reply_to_forum", threadId=pid, message=text)],
        checks=[RecordExists(id="_", service=SERVICE, collection="messages",
                             where={"channel_id": pid, "author_id": bot,
                                    "content": {"$all": [{"$contains": case}, {"$contains": mention.display}]}},
                             description="The bot replied on the forum post quoting the case and the right value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="messages", allow_new={"channel_id": pid},
                           max_new=1, description="No other Discord message was sent, changed or deleted.")],
        tool="discord_reply_to_forum", where={"threadId": pid}, label="the reply on the Discord forum post")


def _handled(reader: Reader, args: dict[str, Found]) -> Write:
    pid = args["post"].value
    if _post(reader, pid)["locked"]:
        raise SolveError(f"forum post {pid} is locked")
    bot = _bot(reader)
    return Write(
        calls=[call("discord_add_reaction", channelId=pid, messageId=pid, emoji=HANDLED)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="messages", record_id=pid,
                              where={"reactions": {"$any": {"emoji": HANDLED, "user_ids": {"$contains": bot}}}},
                              description="The bot marked the forum post handled with a ✅ on its first message.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="messages", allow_ids=[pid],
                           allow_paths={pid: ["reactions"]}, max_added={"reactions": 1, "reactions[].user_ids": 1},
                           description="No other Discord message was reacted to, sent or changed.")],
        tool="discord_add_reaction", where={"messageId": pid}, label="the ✅ on the Discord forum post")


def _escalate(reader: Reader, args: dict[str, Found]) -> Write:
    pid, mention, case = args["post"].value, args["mention"], args["case"].value
    _post(reader, pid)
    info = reader.read(SERVICE, "discord_get_server_info", guildId=_community(reader))
    cid = pick([c for c in info["channels"] if c["type"] == "text"], name=ESCALATIONS)["id"]
    text = f"{case}: forum post {pid} needs a hand, {mention.noun} is {mention.display}."
    return Write(
        calls=[call("discord_send", channelId=cid, message=text)],
        checks=[RecordExists(id="_", service=SERVICE, collection="messages",
                             where={"channel_id": cid, "content": {"$all": [
                                 {"$contains": case}, {"$contains": pid}, {"$contains": mention.display}]}},
                             description="The staff escalation channel got a message naming the forum post, the "
                                         "case and the right value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="messages", allow_new={"channel_id": cid}, max_new=1,
                           description="Nothing was posted in any other Discord channel.")],
        tool="discord_send", where={"channelId": cid}, label=f"the escalation in #{ESCALATIONS} on Discord")


def _prepare(ctx: Ctx, values: dict[str, Any]) -> None:
    """The post to act on is open (a post found by the chain always is; a given one may not be)."""
    post = ctx.state(SERVICE)["posts"].get(values.get("post"))
    if post is not None:
        post["archived"] = post["locked"] = False


_POST = Need("post", "forum_post_id")

LINKS = ServiceLinks(
    service=SERVICE, label="the store's Discord community",
    relays=(FORUM_POST, CUSTOMER_POST),
    actions=(
        Action(service=SERVICE, name="reply", needs=(_POST,), build=_reply, prepare=_prepare,
               goal="reply to the customer's help-desk post on Discord from the bot, stating {mention}"),
        Action(service=SERVICE, name="handled", needs=(_POST,), build=_handled, prepare=_prepare,
               goal="mark the customer's help-desk post on Discord as handled with a ✅ reaction on its first "
                    "message"),
        Action(service=SERVICE, name="escalate", needs=(_POST,), build=_escalate,
               goal="escalate the customer's help-desk post to the staff in #mod-escalations on Discord, naming "
                    "the post and stating {mention}"),
    ),
)

__all__ = ["LINKS", "next_post_id", "plant_member", "plant_post"]
