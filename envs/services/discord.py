"""Discord: a bot in the store's community servers (categories, text and forum
channels, messages and reactions, forum posts and replies, webhooks).

Follows the MCP server ``@jackedelic_mcp-discord`` (all 22 tools, same names
and parameters). The bot session is deterministic: the configured bot token is
already set, and ``discord_login`` checks a given token against it and lists
the bot's servers. Rules of the real platform: text and forum channel names
are stored lower-case and hyphenated; forum posts exist only in forum
channels and messages only in text channels or posts; a post has a 1-100
character title and at most 5 of its forum's tags; message content has
1-2000 characters; a locked post takes no messages, an archived one reopens
when written to; each user adds an emoji to a message once, a message holds
at most 20 distinct emojis, and reactions are unicode emoji or the server's
custom ``name:id`` ones; the starter message of a post goes only with the post.
Departures: channel names are unique per server (Discord allows duplicates;
unique names keep name lookups unambiguous), and webhook and reason rules
follow Discord's API (see ``_discord_webhooks``). Deletions and changes with a
reason are written to the server's audit log.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services._discord_channels import _REASON, Reason
from compoworld_gym.envs.services._discord_models import (
    MAX_REACTIONS, MAX_TAGS, DiscordState, ForumPost, Message, Reaction,
)
from compoworld_gym.envs.services._discord_rules import check_content, check_title, emoji_key
from compoworld_gym.envs.services._discord_seed import build_state
from compoworld_gym.envs.services._discord_webhooks import DiscordWebhooks
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import tool


class Discord(DiscordWebhooks):
    """A Discord bot's community servers: channels, forum posts, messages, reactions, webhooks."""

    name = "discord"
    description = ("Discord community servers: categories, text and forum channels, forum posts and replies, "
                   "messages with reactions, and webhooks, through the store's bot.")
    domain = "communication"
    spec_source = "@jackedelic_mcp-discord"
    State = DiscordState

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> DiscordState:
        return build_state(fake, rng, today)

    # --------------------------------------------------------------- helpers
    def _msg_view(self, m: Message) -> dict:
        return {"id": m.id, "channel_id": m.channel_id, "author": {"id": m.author_id, "name": m.author_name,
                                                                   "webhook": m.webhook_id is not None},
                "content": m.content, "created_at": m.created_at,
                "reactions": [{"emoji": r.emoji, "count": len(r.user_ids), "user_ids": r.user_ids}
                              for r in m.reactions]}

    def _post_summary(self, p: ForumPost) -> dict:
        return {"id": p.id, "title": p.name, "author": self._name_of(p.guild_id, p.owner_id),
                "author_id": p.owner_id, "applied_tags": p.applied_tags, "archived": p.archived, "locked": p.locked,
                "created_at": p.created_at,
                "message_count": sum(m.channel_id == p.id for m in self.state.messages.values())}

    def _say(self, target_id: str, guild_id: str, text: str) -> Message:
        mid, at = self._sid()
        me = self.state.session.user_id
        msg = Message(id=mid, channel_id=target_id, guild_id=guild_id, author_id=me,
                      author_name=self._name_of(guild_id, me), content=text, created_at=at)
        self.state.messages[mid] = msg
        return msg

    def _reaction_target(self, channelId: str, messageId: str) -> tuple[Message, str]:
        target = self._target(channelId)
        return self._message(target.id, messageId), target.guild_id

    # -------------------------------------------------------------- messages
    @tool(read_only=False)
    def discord_send(self, channelId: Id("discord_channel"), message: str = Field(min_length=1)) -> dict:
        """Sends a message to a specified Discord text channel

        The channel may also be a forum post (thread) id; a locked post refuses it.

        Args:
            channelId: a text channel id, or a forum post id.
            message: the text (1-2000 characters).
        """
        target = self._target(channelId)
        text = check_content(message)
        self._writable(target)
        return self._msg_view(self._say(target.id, target.guild_id, text))

    @tool(read_only=True)
    def discord_read_messages(self, channelId: Id("discord_channel"),
                              limit: int = Field(default=50, ge=1, le=100)) -> dict:
        """Retrieves messages from a Discord text channel with a configurable limit

        Newest first, as Discord returns them. A forum post id reads the post's messages.

        Args:
            channelId: a text channel id, or a forum post id.
            limit: how many messages (1-100).
        """
        target = self._target(channelId)
        rows = sorted((m for m in self.state.messages.values() if m.channel_id == target.id),
                      key=lambda m: (m.created_at, int(m.id)), reverse=True)
        return {"channel_id": target.id, "name": target.name, "messages": [self._msg_view(m) for m in rows[:limit]]}

    @tool(read_only=False, destructive=True)
    def discord_delete_message(self, channelId: Id("discord_channel"), messageId: Id("message"),
                               reason: Reason = _REASON) -> dict:
        """Deletes a specific message from a Discord text channel

        Args:
            channelId: the text channel (or forum post) holding the message.
            messageId: the message id.
            reason: audit-log reason.
        """
        target = self._target(channelId)
        m = self._message(target.id, messageId)
        if m.id in self.state.posts:
            raise Unprocessable(f"{m.id} is the starter message of forum post '{target.name}'; "
                                "delete the whole post with discord_delete_forum_post.")
        del self.state.messages[m.id]
        self._audit(m.guild_id, "MESSAGE_DELETE", m.id, reason)
        return {"deleted": m.id, "channel_id": target.id}

    # ----------------------------------------------------------------- forum
    @tool(read_only=True)
    def discord_get_forum_channels(self, guildId: Id("guild")) -> list[dict]:
        """Lists all forum channels in a specified Discord server (guild)

        Each forum comes with its tags and its posts (open and archived), newest first.

        Args:
            guildId: the server id.
        """
        g = self._guild(guildId)
        out = []
        for c in self.state.channels.values():
            if c.guild_id == g.id and c.type == "forum":
                posts = sorted((p for p in self.state.posts.values() if p.parent_id == c.id),
                               key=lambda p: int(p.id), reverse=True)
                out.append({"id": c.id, "name": c.name, "topic": c.topic, "parent_id": c.parent_id,
                            "available_tags": [t.name for t in c.available_tags],
                            "posts": [self._post_summary(p) for p in posts]})
        return out

    @tool(read_only=False)
    def discord_create_forum_post(self, forumChannelId: Id("discord_channel"), title: str = Field(min_length=1),
                                  content: str = Field(min_length=1), tags: Optional[list[str]] = None) -> dict:
        """Creates a new post in a Discord forum channel with optional tags

        Args:
            forumChannelId: a forum channel id (see discord_get_forum_channels).
            title: post title (1-100 characters).
            content: the first message (1-2000 characters).
            tags: names of the forum's tags (at most 5).
        """
        forum = self._channel(forumChannelId, "forum")
        name, text = check_title(title), check_content(content, "post content")
        offered = {t.name.lower(): t.name for t in forum.available_tags}
        unknown = [t for t in tags or [] if t.lower() not in offered]
        if unknown:
            raise Unprocessable(f"#{forum.name} has no tag(s) {unknown}; its tags: {', '.join(offered.values())}.")
        wanted = list(dict.fromkeys(offered[t.lower()] for t in tags or []))
        if len(wanted) > MAX_TAGS:
            raise Unprocessable(f"a post takes at most {MAX_TAGS} tags; got {len(wanted)}.")
        pid, at = self._sid()
        me = self.state.session.user_id
        post = ForumPost(id=pid, guild_id=forum.guild_id, parent_id=forum.id, name=name, owner_id=me,
                         applied_tags=wanted, created_at=at)
        self.state.posts[pid] = post
        self.state.messages[pid] = Message(id=pid, channel_id=pid, guild_id=forum.guild_id, author_id=me,
                                           author_name=self._name_of(forum.guild_id, me), content=text, created_at=at)
        return {**self._post_summary(post), "forum_channel_id": forum.id, "content": text}

    @tool(read_only=True)
    def discord_get_forum_post(self, threadId: Id("forum_post")) -> dict:
        """Retrieves details about a forum post including its messages

        Args:
            threadId: the forum post (thread) id.
        """
        p = self._post(threadId)
        msgs = sorted((m for m in self.state.messages.values() if m.channel_id == p.id),
                      key=lambda m: (m.created_at, int(m.id)))
        starter = self.state.messages.get(p.id)
        return {**self._post_summary(p), "forum_channel_id": p.parent_id,
                "forum_name": self.state.channels[p.parent_id].name,
                "content": starter.content if starter else None, "messages": [self._msg_view(m) for m in msgs]}

    @tool(read_only=False)
    def discord_reply_to_forum(self, threadId: Id("forum_post"), message: str = Field(min_length=1)) -> dict:
        """Adds a reply to an existing forum post or thread

        A locked post refuses replies; an archived one is reopened by the reply.

        Args:
            threadId: the forum post (thread) id.
            message: the reply (1-2000 characters).
        """
        p = self._post(threadId)
        text = check_content(message, "reply")
        self._writable(p)
        return self._msg_view(self._say(p.id, p.guild_id, text))

    @tool(read_only=False, destructive=True)
    def discord_delete_forum_post(self, threadId: Id("forum_post"), reason: Reason = _REASON) -> dict:
        """Deletes a forum post or thread with an optional reason

        Args:
            threadId: the forum post (thread) id.
            reason: audit-log reason.
        """
        p = self._post(threadId)
        gone = [m.id for m in self.state.messages.values() if m.channel_id == p.id]
        for mid in gone:
            del self.state.messages[mid]
        del self.state.posts[p.id]
        self._audit(p.guild_id, "THREAD_DELETE", p.id, reason)
        return {"deleted": p.id, "title": p.name, "deleted_messages": len(gone)}

    # ------------------------------------------------------------- reactions
    def _react(self, m: Message, keys: list[str]) -> None:
        me = self.state.session.user_id
        for key in keys:
            r = next((r for r in m.reactions if r.emoji == key), None)
            if r is not None and me in r.user_ids:
                raise Conflict(f"the bot already reacted with {key} to message {m.id}; "
                               "each user reacts once per emoji.")
        new = [k for k in keys if all(r.emoji != k for r in m.reactions)]
        if len(m.reactions) + len(new) > MAX_REACTIONS:
            raise Unprocessable(f"message {m.id} would have {len(m.reactions) + len(new)} different emojis; "
                                f"Discord allows {MAX_REACTIONS}.")
        for key in keys:
            r = next((r for r in m.reactions if r.emoji == key), None)
            if r is None:
                m.reactions.append(Reaction(emoji=key, user_ids=[me]))
            else:
                r.user_ids.append(me)

    @tool(read_only=False)
    def discord_add_reaction(self, channelId: Id("discord_channel"), messageId: Id("message"),
                             emoji: str = Field(min_length=1)) -> dict:
        """Adds an emoji reaction to a specific Discord message

        Args:
            channelId: the text channel or forum post holding the message.
            messageId: the message id (a post's first message has the post's id).
            emoji: a unicode emoji such as '✅', or a custom emoji of the server as name:id.
        """
        m, gid = self._reaction_target(channelId, messageId)
        self._react(m, [emoji_key(emoji, self._guild(gid))])
        return self._msg_view(m)

    @tool(read_only=False)
    def discord_add_multiple_reactions(self, channelId: Id("discord_channel"), messageId: Id("message"),
                                       emojis: list[str] = Field(min_length=1, max_length=MAX_REACTIONS)) -> dict:
        """Adds multiple emoji reactions to a Discord message at once

        All or nothing: if one emoji is refused, none is added.

        Args:
            channelId: the text channel or forum post holding the message.
            messageId: the message id.
            emojis: unicode emojis or custom name:id emojis (repeats are ignored).
        """
        m, gid = self._reaction_target(channelId, messageId)
        guild = self._guild(gid)
        self._react(m, list(dict.fromkeys(emoji_key(e, guild) for e in emojis)))
        return self._msg_view(m)

    @tool(read_only=False, destructive=True)
    def discord_remove_reaction(self, channelId: Id("discord_channel"), messageId: Id("message"),
                                emoji: str = Field(min_length=1), userId: Optional[str] = None) -> dict:
        """Removes a specific emoji reaction from a Discord message

        Args:
            channelId: the text channel or forum post holding the message.
            messageId: the message id.
            emoji: the emoji to remove.
            userId: whose reaction to remove (default: the bot's own).
        """
        m, gid = self._reaction_target(channelId, messageId)
        key, who = emoji_key(emoji, self._guild(gid)), userId or self.state.session.user_id
        r = next((r for r in m.reactions if r.emoji == key), None)
        if r is None or who not in r.user_ids:
            raise NotFound(f"user {who} has no {key} reaction on message {m.id}.")
        r.user_ids.remove(who)
        if not r.user_ids:
            m.reactions.remove(r)
        return self._msg_view(m)
