"""The server half of the ``discord`` service: lookups shared by every tool, the
login, server info and the category and channel tools.

:class:`DiscordBase` sets no ``name``, so it is not a service of its own;
:class:`~compoworld_gym.envs.services.discord.Discord` adds the message,
forum, reaction and webhook tools.
"""

from __future__ import annotations

import datetime as dt
from typing import Optional, Union

from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services._discord_models import (
    AuditEntry, Channel, ForumPost, Guild, Message, snowflake,
)
from compoworld_gym.envs.services._discord_rules import channel_name
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

Reason = Optional[str]
_REASON = Field(default=None, max_length=512)


class DiscordBase(Service):
    """Servers, categories and channels; the lookups of every discord tool."""

    # --------------------------------------------------------------- helpers
    def _sid(self) -> tuple[str, dt.datetime]:
        """A new snowflake and its creation time (the logical clock)."""
        at = self.now()
        n = self.state.counters.get("SNOWFLAKE", 1)
        self.state.counters["SNOWFLAKE"] = n + 1
        return snowflake(at, n), at

    def _guild(self, gid: str) -> Guild:
        g = self.state.guilds.get(gid)
        if g is None:
            raise NotFound(f"server {gid!r} not found; call discord_login to list the bot's servers.")
        return g

    def _channel(self, cid: str, *kinds: str) -> Channel:
        ch = self.state.channels.get(cid)
        if ch is None:
            if cid in self.state.posts:
                raise Unprocessable(f"{cid} is a forum post, not a channel; use the forum post tools.")
            raise NotFound(f"channel {cid!r} not found; call discord_get_server_info to list channels.")
        if kinds and ch.type not in kinds:
            raise Unprocessable(f"#{ch.name} ({cid}) is a {ch.type} channel; this needs a {' or '.join(kinds)} "
                                "channel.")
        return ch

    def _post(self, tid: str) -> ForumPost:
        p = self.state.posts.get(tid)
        if p is None:
            raise NotFound(f"forum post {tid!r} not found; call discord_get_forum_channels to list posts.")
        return p

    def _target(self, cid: str) -> Union[Channel, ForumPost]:
        """Where messages can be sent or read: a text channel or a forum post (thread)."""
        if cid in self.state.posts:
            return self.state.posts[cid]
        ch = self._channel(cid)
        if ch.type == "forum":
            raise Unprocessable(f"#{ch.name} is a forum channel; open a post with discord_create_forum_post "
                                "or use a post's id.")
        if ch.type == "category":
            raise Unprocessable(f"{ch.name} is a category; messages go to its text channels.")
        return ch

    def _writable(self, target: Union[Channel, ForumPost]) -> None:
        """Refuse a locked post; a message to an archived post reopens it (as on Discord)."""
        if isinstance(target, ForumPost):
            if target.locked:
                raise Conflict(f"forum post {target.id} ('{target.name}') is locked; it takes no new messages.")
            target.archived = False

    def _name_of(self, guild_id: str, user_id: str) -> str:
        """Nickname, display name or username of a user in a server."""
        u = self.state.users.get(user_id)
        if u is None:
            return user_id
        m = next((m for m in self._guild(guild_id).members if m.user_id == user_id), None)
        return (m.nick if m and m.nick else None) or u.global_name or u.username

    def _message(self, cid: str, mid: str) -> Message:
        m = self.state.messages.get(mid)
        if m is None or m.channel_id != cid:
            raise NotFound(f"message {mid!r} not found in channel {cid}; call discord_read_messages for its ids.")
        return m

    def _audit(self, gid: str, action: str, target: str, reason: Reason) -> None:
        eid, at = self._sid()
        self.state.audit_log[eid] = AuditEntry(id=eid, guild_id=gid, action=action, target_id=target,
                                               user_id=self.state.session.user_id, reason=reason, created_at=at)

    def _siblings(self, gid: str, parent: Optional[str], kinds: tuple[str, ...]) -> list[Channel]:
        return [c for c in self.state.channels.values()
                if c.guild_id == gid and c.parent_id == parent and c.type in kinds]

    def _check_free(self, gid: str, name: str, kinds: tuple[str, ...]) -> None:
        for c in self.state.channels.values():
            if c.guild_id == gid and c.type in kinds and c.name.lower() == name.lower():
                raise Conflict(f"the server already has a {c.type} channel named {c.name!r} ({c.id}).")

    @staticmethod
    def _channel_view(c: Channel) -> dict:
        return {"id": c.id, "name": c.name, "type": c.type, "parent_id": c.parent_id, "position": c.position,
                "topic": c.topic}

    # ------------------------------------------------------------- session
    @tool(read_only=True)
    def discord_login(self, token: Optional[str] = None) -> dict:
        """Logs in to Discord using the configured token

        Without a token the configured bot token is used. Returns the bot user and
        the servers (guilds) it is in.

        Args:
            token: a bot token; must be the configured one.
        """
        s = self.state.session
        if token is not None and token != s.token:
            raise Unprocessable("an invalid token was provided; omit token to log in with the configured one.")
        bot = self.state.users[s.user_id]
        return {"status": "logged_in", "user": {"id": bot.id, "username": bot.username, "bot": True},
                "guilds": [{"id": g.id, "name": g.name} for g in self.state.guilds.values()]}

    @tool(read_only=True)
    def discord_get_server_info(self, guildId: Id("guild")) -> dict:
        """Retrieves detailed information about a Discord server including channels and member count

        Args:
            guildId: the server id (see discord_login).
        """
        g = self._guild(guildId)
        chans = sorted((c for c in self.state.channels.values() if c.guild_id == g.id),
                       key=lambda c: (self.state.channels[c.parent_id].position if c.parent_id else -1,
                                      c.type != "category", c.position, c.id))
        return {"id": g.id, "name": g.name, "description": g.description, "owner_id": g.owner_id,
                "created_at": g.created_at, "member_count": len(g.members),
                "roles": [r.name for r in g.roles], "emojis": [f"{e.name}:{e.id}" for e in g.emojis],
                "channels": [self._channel_view(c) for c in chans],
                "webhooks": [{"id": w.id, "name": w.name, "channel_id": w.channel_id}
                             for w in self.state.webhooks.values() if w.guild_id == g.id]}

    # ------------------------------------------------------------ categories
    @tool(read_only=False)
    def discord_create_category(self, guildId: Id("guild"), name: str = Field(min_length=1, max_length=100),
                                position: Optional[int] = Field(default=None, ge=0), reason: Reason = _REASON) -> dict:
        """Creates a new category in a Discord server.

        Args:
            guildId: the server id.
            name: category name (1-100 characters; case is kept).
            position: sort position among the categories (default: last).
            reason: audit-log reason.
        """
        g = self._guild(guildId)
        self._check_free(g.id, name.strip(), ("category",))
        cats = self._siblings(g.id, None, ("category",))
        cid, at = self._sid()
        cat = Channel(id=cid, guild_id=g.id, type="category", name=name.strip(), created_at=at,
                      position=len(cats) if position is None else position)
        self.state.channels[cid] = cat
        self._audit(g.id, "CHANNEL_CREATE", cid, reason)
        return self._channel_view(cat)

    @tool(read_only=False)
    def discord_edit_category(self, categoryId: Id("discord_channel"),
                              name: Optional[str] = Field(default=None, min_length=1, max_length=100),
                              position: Optional[int] = Field(default=None, ge=0), reason: Reason = _REASON) -> dict:
        """Edits an existing Discord category (name and position).

        Args:
            categoryId: the category's channel id.
            name: new name.
            position: new sort position.
            reason: audit-log reason.
        """
        cat = self._channel(categoryId, "category")
        if name is None and position is None:
            raise InvalidArgument("nothing to change: give name or position.")
        if name is not None and name.strip().lower() != cat.name.lower():
            self._check_free(cat.guild_id, name.strip(), ("category",))
        cat.name = name.strip() if name is not None else cat.name
        cat.position = position if position is not None else cat.position
        self._audit(cat.guild_id, "CHANNEL_UPDATE", cat.id, reason)
        return self._channel_view(cat)

    @tool(read_only=False, destructive=True)
    def discord_delete_category(self, categoryId: Id("discord_channel"), reason: Reason = _REASON) -> dict:
        """Deletes a Discord category by ID.

        Its channels are kept and move out of the category (as on Discord).

        Args:
            categoryId: the category's channel id.
            reason: audit-log reason.
        """
        cat = self._channel(categoryId, "category")
        moved = [c for c in self.state.channels.values() if c.parent_id == cat.id]
        for c in moved:
            c.parent_id = None
        del self.state.channels[cat.id]
        self._audit(cat.guild_id, "CHANNEL_DELETE", cat.id, reason)
        return {"deleted": cat.id, "name": cat.name, "uncategorized_channels": [c.id for c in moved]}

    # -------------------------------------------------------------- channels
    @tool(read_only=False)
    def discord_create_text_channel(self, guildId: Id("guild"), channelName: str = Field(min_length=1, max_length=200),
                                    topic: Optional[str] = Field(default=None, max_length=1024)) -> dict:
        """Creates a new text channel in a Discord server with an optional topic

        The name is stored as Discord stores it: lower-case, spaces become hyphens
        ('Order Help' becomes 'order-help'). Names must be unique in the server.

        Args:
            guildId: the server id.
            channelName: the channel name.
            topic: channel topic (up to 1024 characters).
        """
        g = self._guild(guildId)
        name = channel_name(channelName)
        self._check_free(g.id, name, ("text", "forum"))
        cid, at = self._sid()
        ch = Channel(id=cid, guild_id=g.id, type="text", name=name, topic=topic, created_at=at,
                     position=len(self._siblings(g.id, None, ("text", "forum"))))
        self.state.channels[cid] = ch
        self._audit(g.id, "CHANNEL_CREATE", cid, None)
        return self._channel_view(ch)

    @tool(read_only=False, destructive=True)
    def discord_delete_channel(self, channelId: Id("discord_channel"), reason: Reason = _REASON) -> dict:
        """Deletes a Discord channel with an optional reason

        Deletes a text or forum channel with its messages, forum posts and webhooks.

        Args:
            channelId: the text or forum channel id.
            reason: audit-log reason.
        """
        ch = self._channel(channelId)
        if ch.type == "category":
            raise Unprocessable(f"{ch.name} is a category; delete it with discord_delete_category.")
        posts = [p.id for p in self.state.posts.values() if p.parent_id == ch.id]
        rooms = {ch.id, *posts}
        for mid in [m.id for m in self.state.messages.values() if m.channel_id in rooms]:
            del self.state.messages[mid]
        for pid in posts:
            del self.state.posts[pid]
        for wid in [w.id for w in self.state.webhooks.values() if w.channel_id == ch.id]:
            del self.state.webhooks[wid]
        del self.state.channels[ch.id]
        self._audit(ch.guild_id, "CHANNEL_DELETE", ch.id, reason)
        return {"deleted": ch.id, "name": ch.name, "type": ch.type, "deleted_posts": len(posts)}
