"""Slack: the company workspace, as the ``ops-bot`` user.

Follows the official ``modelcontextprotocol-slack`` reference server (all
eight tools, same names, parameters and required sets). Messages are keyed
by their ``ts`` (``"<epoch seconds>.<6 digits>"``, unique in the workspace,
derived from the logical clock). Replies carry the parent's ``thread_ts``;
reactions live on the message. Staff and channels come from the fixed
company roster (:mod:`._company`), so the channels named by knowledge-base
rules exist here.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import ChannelName, DateTime, Email, Id, PersonName, Username
from compoworld_gym.envs.services._slack_seed import BOT_ID, seed_workspace
from compoworld_gym.errors import Conflict, InvalidArgument
from compoworld_gym.service import Record, Service, ServiceState, tool

_EPOCH = dt.datetime(1970, 1, 1)
_REACTION = re.compile(r"^[a-z0-9_+'-]+$")


class User(Record):
    """A workspace member."""

    id: Id("user") = Field(description="User id, e.g. U0002.")
    name: Username = Field(description="Handle, e.g. priya.raman.")
    real_name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work email.")
    title: str = Field(default="", description="Job title.")
    is_bot: bool = Field(default=False, description="True for app/bot users.")
    tz: str = Field(default="America/New_York", description="IANA time zone.")


class Channel(Record):
    """A channel."""

    id: Id("channel") = Field(description="Channel id, e.g. C0001.")
    name: ChannelName = Field(description="Channel name without '#', e.g. billing-escalations.")
    topic: str = Field(default="", description="Channel topic.")
    purpose: str = Field(default="", description="What the channel is for.")
    is_archived: bool = Field(default=False, description="Archived channels accept no messages.")
    members: list[Id("user")] = Field(default_factory=list, description="Member user ids.")
    created: DateTime = Field(description="When the channel was created.")


class Reaction(Record):
    """One emoji reaction on a message."""

    name: str = Field(description="Emoji name without colons, e.g. eyes.")
    users: list[Id("user")] = Field(description="Who reacted, in order.")


class Message(Record):
    """A message or thread reply."""

    ts: Id("message") = Field(description="Message timestamp id, e.g. 1768467600.000001.")
    channel_id: Id("channel") = Field(description="Channel the message is in.")
    user: Id("user") = Field(description="Author's user id.")
    text: str = Field(description="Message text.")
    thread_ts: Optional[Id("message")] = Field(default=None, description="Parent ts for a reply, else None.")
    reactions: list[Reaction] = Field(default_factory=list, description="Emoji reactions.")


class SlackState(ServiceState):
    """Users, channels and messages of the workspace."""

    bot_user_id: Id("user") = Field(default=BOT_ID, description="The user the agent acts as.")
    users: dict[str, User] = Field(default_factory=dict, description="Users by id.")
    channels: dict[str, Channel] = Field(default_factory=dict, description="Channels by id.")
    messages: dict[str, Message] = Field(default_factory=dict, description="Messages by ts.")


def _norm_ts(ts: str) -> str:
    """Accept '1768467600000001' as well as '1768467600.000001' (as the spec allows)."""
    ts = ts.strip()
    if "." not in ts and ts.isdigit() and len(ts) > 6:
        return f"{ts[:-6]}.{ts[-6:]}"
    return ts


class Slack(Service):
    """A Slack workspace: channels, history, threads, reactions and user profiles."""

    name = "slack"
    description = "Slack workspace of the company: post to channels, read history and threads, react, look up users."
    domain = "communication"
    spec_source = "modelcontextprotocol-slack"
    State = SlackState

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Channel])
    def slack_list_channels(
        self,
        limit: int = Field(default=100, ge=1, le=200),
        cursor: Optional[str] = None,
    ) -> dict:
        """List the workspace's active (not archived) channels, by id, with paging.

        Args:
            limit: maximum number of channels to return (1-200, default 100).
            cursor: the next_cursor of a previous call, to get the next page.
        """
        chans = [c for c in self.state.channels.values() if not c.is_archived]
        page, nxt = self._page(chans, cursor, limit, lambda c: c.id)
        return {"channels": [{**c.model_dump(exclude={"members"}), "num_members": len(c.members)} for c in page],
                "response_metadata": {"next_cursor": nxt}}

    @tool(read_only=True, returns=list[Message])
    def slack_get_channel_history(
        self,
        channel_id: Id("channel"),
        limit: int = Field(default=10, ge=1, le=1000),
    ) -> dict:
        """Get a channel's most recent top-level messages, newest first, with their reply counts.

        Args:
            channel_id: the channel id, e.g. C0001 (not the name).
            limit: number of messages to return (default 10).
        """
        self._channel(channel_id)
        top = [m for m in self.state.messages.values() if m.channel_id == channel_id and m.thread_ts is None]
        top.sort(key=lambda m: float(m.ts), reverse=True)
        return {"messages": [self._render(m) for m in top[:limit]], "has_more": len(top) > limit}

    @tool(read_only=True, returns=list[Message])
    def slack_get_thread_replies(self, channel_id: Id("channel"), thread_ts: Id("message")) -> dict:
        """Get a thread: the parent message first, then every reply oldest first.

        Args:
            channel_id: the channel holding the thread.
            thread_ts: ts of the parent message, e.g. '1768467600.000001'.
        """
        parent = self._message(channel_id, thread_ts)
        replies = sorted((m for m in self.state.messages.values() if m.thread_ts == parent.ts),
                         key=lambda m: float(m.ts))
        return {"messages": [self._render(parent), *(self._render(m) for m in replies)]}

    @tool(read_only=True, returns=list[User])
    def slack_get_users(
        self,
        cursor: Optional[str] = None,
        limit: int = Field(default=100, ge=1, le=200),
    ) -> dict:
        """List workspace members with their basic profile (name, real name, email, title).

        Args:
            cursor: the next_cursor of a previous call, to get the next page.
            limit: maximum number of users to return (1-200, default 100).
        """
        page, nxt = self._page(list(self.state.users.values()), cursor, limit, lambda u: u.id)
        return {"members": [u.model_dump() for u in page], "response_metadata": {"next_cursor": nxt}}

    @tool(read_only=True, returns=User)
    def slack_get_user_profile(self, user_id: Id("user")) -> dict:
        """Get one user's full profile.

        Args:
            user_id: the user id, e.g. U0002.
        """
        u = self.lookup(self.state.users, user_id, "user")
        return {"id": u.id, "profile": {"real_name": u.real_name, "display_name": u.name, "email": u.email,
                                        "title": u.title, "tz": u.tz, "is_bot": u.is_bot}}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Message)
    def slack_post_message(
        self,
        channel_id: Id("channel"),
        text: str = Field(min_length=1, max_length=40000),
    ) -> dict:
        """Post a new top-level message to a channel as the ops bot.

        Args:
            channel_id: the channel id, e.g. C0001 (use slack_list_channels to map names to ids).
            text: the message text.
        """
        self._writable(channel_id)
        return self._render(self._post(channel_id, text, None))

    @tool(read_only=False, returns=Message)
    def slack_reply_to_thread(
        self,
        channel_id: Id("channel"),
        thread_ts: Id("message"),
        text: str = Field(min_length=1, max_length=40000),
    ) -> dict:
        """Reply in the thread of a message (a reply to a reply joins the same thread).

        Args:
            channel_id: the channel holding the thread.
            thread_ts: ts of the parent message, e.g. '1768467600.000001'.
            text: the reply text.
        """
        parent = self._message(channel_id, thread_ts)
        self._writable(channel_id)
        return self._render(self._post(channel_id, text, parent.thread_ts or parent.ts))

    @tool(read_only=False, returns=Message)
    def slack_add_reaction(
        self,
        channel_id: Id("channel"),
        timestamp: Id("message"),
        reaction: str = Field(min_length=1, max_length=100),
    ) -> dict:
        """Add an emoji reaction from the ops bot to a message.

        Args:
            channel_id: the channel holding the message.
            timestamp: ts of the message to react to.
            reaction: emoji name without colons, e.g. 'white_check_mark'.
        """
        msg = self._message(channel_id, timestamp)
        name = reaction.strip().strip(":").lower()
        if not _REACTION.match(name):
            raise InvalidArgument(f"invalid reaction {reaction!r}; give an emoji name like 'eyes'.")
        self._writable(channel_id)
        bot = self.state.bot_user_id
        existing = next((r for r in msg.reactions if r.name == name), None)
        if existing is None:
            msg.reactions.append(Reaction(name=name, users=[bot]))
        elif bot in existing.users:
            raise Conflict(f"already_reacted: the bot already reacted with :{name}: to {msg.ts}.")
        else:
            existing.users.append(bot)
        return self._render(msg)

    # --------------------------------------------------------------- helpers
    def _channel(self, channel_id: str) -> Channel:
        return self.lookup(self.state.channels, channel_id, "channel")

    def _writable(self, channel_id: str) -> None:
        chan = self._channel(channel_id)
        if chan.is_archived:
            raise Conflict(f"is_archived: channel #{chan.name} ({chan.id}) is archived; pick an active channel.")

    def _message(self, channel_id: str, ts: str) -> Message:
        self._channel(channel_id)
        msg = self.state.messages.get(_norm_ts(ts))
        if msg is None or msg.channel_id != channel_id:
            self.lookup({}, ts, "message")
        return msg

    def _post(self, channel_id: str, text: str, thread_ts: Optional[str]) -> Message:
        seq = self.state.counters.get("TS", 1)
        self.state.counters["TS"] = seq + 1
        epoch = int((self.now() - _EPOCH).total_seconds())
        msg = Message(ts=f"{epoch}.{seq:06d}", channel_id=channel_id, user=self.state.bot_user_id,
                      text=text, thread_ts=thread_ts)
        self.state.messages[msg.ts] = msg
        return msg

    def _render(self, m: Message) -> dict:
        out = m.model_dump()
        out["reactions"] = [{**r.model_dump(), "count": len(r.users)} for r in m.reactions]
        if m.thread_ts is None:
            out["reply_count"] = sum(1 for x in self.state.messages.values() if x.thread_ts == m.ts)
        user = self.state.users.get(m.user)
        out["user_name"] = user.name if user else None
        return out

    @staticmethod
    def _page(items: list, cursor: Optional[str], limit: int, key) -> tuple[list, str]:
        start = 0
        if cursor:
            keys = [key(x) for x in items]
            if cursor not in keys:
                raise InvalidArgument(f"invalid cursor {cursor!r}; pass the next_cursor of the previous page.")
            start = keys.index(cursor)
        page = items[start:start + limit]
        rest = items[start + limit:]
        return page, key(rest[0]) if rest else ""

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> SlackState:
        users, channels, messages, next_ts = seed_workspace(fake, rng, today)
        state = SlackState()
        state.users = {u["id"]: User(**u) for u in users}
        state.channels = {c["id"]: Channel(**c) for c in channels}
        state.messages = {m["ts"]: Message(**m) for m in messages}
        state.counters["TS"] = next_ts
        return state
