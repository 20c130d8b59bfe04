"""Records of the discord service: a bot's view of community servers (guilds).

Discord ids are snowflakes: the creation time in milliseconds since the
Discord epoch (2015-01-01 UTC) shifted left by 22 bits, plus a sequence
number. :func:`snowflake` builds them from the logical clock and the state's
``SNOWFLAKE`` counter, so ids are deterministic, unique and sort by creation
time, as real ones do. A forum post is a thread channel whose starter message
has the same id as the thread (as on Discord).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, Id, PersonName, Url, Username
from compoworld_gym.service import Record, ServiceState

#: Start of Discord's snowflake clock.
DISCORD_EPOCH = dt.datetime(2015, 1, 1)
#: Discord's limits (API documentation: message content, thread name, tags, reactions, webhooks).
MAX_MESSAGE = 2000
MAX_TITLE = 100
MAX_TAGS = 5
MAX_REACTIONS = 20
MAX_WEBHOOKS = 15
ChannelType = Literal["category", "text", "forum"]
AuditAction = Literal["CHANNEL_CREATE", "CHANNEL_UPDATE", "CHANNEL_DELETE", "MESSAGE_DELETE", "THREAD_DELETE",
                      "WEBHOOK_CREATE", "WEBHOOK_UPDATE", "WEBHOOK_DELETE"]


def snowflake(at: dt.datetime, seq: int) -> str:
    """The snowflake id of something created at ``at`` with sequence number ``seq`` (decimal string).

    Example:
        >>> snowflake(dt.datetime(2026, 1, 15, 9, 0), 7)
        '1461283769548800007'
    """
    ms = int((at - DISCORD_EPOCH).total_seconds() * 1000)
    return str((ms << 22) | (seq % 4096))


def snowflake_time(sid: str) -> dt.datetime:
    """The creation time a snowflake encodes (to the millisecond).

    Example:
        >>> snowflake_time(snowflake(dt.datetime(2026, 1, 15, 9, 0), 7))
        datetime.datetime(2026, 1, 15, 9, 0)
    """
    return DISCORD_EPOCH + dt.timedelta(milliseconds=int(sid) >> 22)


def next_snowflake(state: dict[str, Any], at: dt.datetime) -> str:
    """Take the next snowflake from a state's ``counters`` (JSON form, as the hooks plant)."""
    n = state["counters"].get("SNOWFLAKE", 1)
    state["counters"]["SNOWFLAKE"] = n + 1
    return snowflake(at, n)


class User(Record):
    """A Discord account (a person or the bot)."""

    id: str = Field(description="User snowflake id.")
    username: Username = Field(description="Unique username (lower-case letters, digits, '_' and '.').")
    global_name: Optional[PersonName] = Field(default=None, description="Display name shown in every server.")
    bot: bool = Field(default=False, description="True for bot accounts.")


class GuildMember(Record):
    """A user's membership of one server."""

    user_id: str = Field(description="The member's user id.")
    nick: Optional[str] = Field(default=None, description="Server nickname, shown instead of the display name.")
    roles: list[str] = Field(default_factory=list, description="Role names, e.g. ['Staff'].")
    joined_at: DateTime = Field(description="When the user joined the server.")


class Role(Record):
    """A server role."""

    id: str = Field(description="Role snowflake id.")
    name: str = Field(description="Role name, e.g. 'Moderator'.")
    color: str = Field(default="#99AAB5", description="Hex colour of the role.")


class Emoji(Record):
    """A custom emoji of a server, used in reactions as ``name:id``."""

    id: str = Field(description="Emoji snowflake id.")
    name: str = Field(description="Emoji name, e.g. 'acme_heart'.")


class Guild(Record):
    """A Discord server (guild) the bot is in."""

    id: Id("guild") = Field(description="Guild snowflake id.")
    name: str = Field(description="Server name.")
    description: str = Field(default="", description="Server description.")
    owner_id: str = Field(description="User id of the server owner.")
    created_at: DateTime = Field(description="When the server was created.")
    roles: list[Role] = Field(default_factory=list, description="Roles, highest first.")
    emojis: list[Emoji] = Field(default_factory=list, description="Custom emojis.")
    members: list[GuildMember] = Field(default_factory=list, description="Members, by join date.")


class ForumTag(Record):
    """A tag a forum channel offers its posts."""

    id: str = Field(description="Tag snowflake id.")
    name: str = Field(description="Tag name, e.g. 'Order issue'.")
    emoji: Optional[str] = Field(default=None, description="Unicode emoji shown with the tag.")


class Channel(Record):
    """A guild channel: a category, a text channel or a forum channel."""

    id: Id("discord_channel") = Field(description="Channel snowflake id.")
    guild_id: Id("guild") = Field(description="The server.")
    type: ChannelType = Field(description="category, text or forum.")
    name: str = Field(description="Name; text and forum names are lower-case and hyphenated.")
    position: int = Field(ge=0, description="Sort position among its siblings.")
    parent_id: Optional[Id("discord_channel")] = Field(default=None, description="Category it sits in, if any.")
    topic: Optional[str] = Field(default=None, description="Channel topic (text) or post guidelines (forum).")
    available_tags: list[ForumTag] = Field(default_factory=list, description="Tags posts may carry (forums only).")
    created_at: DateTime = Field(description="Creation time.")


class ForumPost(Record):
    """A post in a forum channel: a thread whose starter message has the thread's id."""

    id: Id("forum_post") = Field(description="Thread snowflake id (also the starter message id).")
    guild_id: Id("guild") = Field(description="The server.")
    parent_id: Id("discord_channel") = Field(description="The forum channel.")
    name: str = Field(max_length=MAX_TITLE, description="Post title.")
    owner_id: str = Field(description="User id of the member who opened the post.")
    applied_tags: list[str] = Field(default_factory=list, description="Names of the forum tags applied.")
    archived: bool = Field(default=False, description="Archived posts are hidden from the active list.")
    locked: bool = Field(default=False, description="Locked posts take no new messages.")
    created_at: DateTime = Field(description="Creation time.")


class Reaction(Record):
    """One emoji on a message and who added it."""

    emoji: str = Field(description="Unicode emoji, or name:id of a custom emoji.")
    user_ids: list[str] = Field(min_length=1, description="Users who reacted with it, in order.")


class Message(Record):
    """A message in a text channel or a forum post."""

    id: Id("message") = Field(description="Message snowflake id.")
    channel_id: Id("discord_channel") = Field(description="Text channel, or forum post (thread) id.")
    guild_id: Id("guild") = Field(description="The server.")
    author_id: str = Field(description="User id of the author, or the webhook id for webhook messages.")
    author_name: str = Field(description="Name shown as the author.")
    content: str = Field(min_length=1, max_length=MAX_MESSAGE, description="Message text.")
    created_at: DateTime = Field(description="When it was sent.")
    reactions: list[Reaction] = Field(default_factory=list, description="Reactions, in the order first added.")
    webhook_id: Optional[str] = Field(default=None, description="Webhook that sent it, if any.")


class Webhook(Record):
    """An incoming webhook of a channel."""

    id: str = Field(description="Webhook snowflake id.")
    token: str = Field(description="Secret token that authorises posting.")
    guild_id: Id("guild") = Field(description="The server.")
    channel_id: Id("discord_channel") = Field(description="Channel it posts to.")
    name: str = Field(min_length=1, max_length=80, description="Default author name of its messages.")
    avatar: Optional[Url] = Field(default=None, description="Default avatar image URL.")
    created_by: str = Field(description="User id that created it.")
    created_at: DateTime = Field(description="Creation time.")


class AuditEntry(Record):
    """An audit-log entry: who changed what, with the reason given."""

    id: str = Field(description="Entry snowflake id.")
    guild_id: Id("guild") = Field(description="The server.")
    action: AuditAction = Field(description="What was done.")
    target_id: str = Field(description="Id of the channel, message, thread or webhook.")
    user_id: str = Field(description="Who did it.")
    reason: Optional[str] = Field(default=None, description="The X-Audit-Log-Reason given.")
    created_at: DateTime = Field(description="When.")


class BotSession(Record):
    """The bot's configured login."""

    user_id: str = Field(default="", description="The bot user's id.")
    token: str = Field(default="", description="The configured bot token.")


class DiscordState(ServiceState):
    """Everything the bot can see."""

    session: BotSession = Field(default_factory=BotSession, description="The bot's configured session.")
    users: dict[str, User] = Field(default_factory=dict, description="Users by id.")
    guilds: dict[str, Guild] = Field(default_factory=dict, description="Servers by id.")
    channels: dict[str, Channel] = Field(default_factory=dict, description="Channels by id.")
    posts: dict[str, ForumPost] = Field(default_factory=dict, description="Forum posts (threads) by id.")
    messages: dict[str, Message] = Field(default_factory=dict, description="Messages by id, oldest first.")
    webhooks: dict[str, Webhook] = Field(default_factory=dict, description="Webhooks by id.")
    audit_log: dict[str, AuditEntry] = Field(default_factory=dict, description="Audit-log entries by id.")
