"""The webhook tools of the ``discord`` service (create, post with, edit, delete).

:class:`DiscordWebhooks` sets no ``name``; the service class
:class:`~compoworld_gym.envs.services.discord.Discord` builds on it. Rules of
Discord's webhook API: a webhook lives in a text or forum channel (at most 15
per channel); its name has 1-80 characters and never contains 'clyde' or
'discord'; a message through a forum channel's webhook must name the post
(thread) it goes to; with token authorisation a webhook cannot be moved to
another channel; a wrong token is refused.
"""

from __future__ import annotations

from typing import Optional

from pydantic import Field

from compoworld_gym.entities import Id, Url
from compoworld_gym.envs.services._discord_channels import _REASON, DiscordBase, Reason
from compoworld_gym.envs.services._discord_models import MAX_WEBHOOKS, Message, Webhook
from compoworld_gym.envs.services._discord_rules import check_avatar, check_content, check_webhook_name, webhook_token
from compoworld_gym.errors import InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import tool


class DiscordWebhooks(DiscordBase):
    """Incoming webhooks of text and forum channels."""

    def _webhook(self, wid: str, token: Optional[str]) -> Webhook:
        w = self.state.webhooks.get(wid)
        if w is None:
            raise NotFound(f"unknown webhook {wid!r}; discord_get_server_info lists a server's webhooks.")
        if token is not None and token != w.token:
            raise Unprocessable(f"invalid webhook token for webhook {wid}; use the token discord_create_webhook "
                                "returned, or omit it to act as the bot.")
        return w

    @staticmethod
    def _hook_view(w: Webhook, with_token: bool = False) -> dict:
        out = {"id": w.id, "name": w.name, "channel_id": w.channel_id, "guild_id": w.guild_id, "avatar": w.avatar}
        if with_token:
            out |= {"token": w.token, "url": f"https://discord.com/api/webhooks/{w.id}/{w.token}"}
        return out

    @tool(read_only=False)
    def discord_create_webhook(self, channelId: Id("discord_channel"), name: str = Field(min_length=1, max_length=80),
                               avatar: Optional[Url] = None, reason: Reason = _REASON) -> dict:
        """Creates a new webhook for a Discord channel

        Returns the webhook with its secret token (needed by discord_send_webhook_message).

        Args:
            channelId: a text or forum channel.
            name: webhook name (1-80 characters, without 'clyde' or 'discord').
            avatar: avatar image URL.
            reason: audit-log reason.
        """
        ch = self._channel(channelId, "text", "forum")
        clean = check_webhook_name(name)
        if sum(w.channel_id == ch.id for w in self.state.webhooks.values()) >= MAX_WEBHOOKS:
            raise Unprocessable(f"#{ch.name} already has {MAX_WEBHOOKS} webhooks, Discord's maximum; "
                                "delete one first.")
        wid, at = self._sid()
        w = Webhook(id=wid, token=webhook_token(wid), guild_id=ch.guild_id, channel_id=ch.id, name=clean,
                    avatar=check_avatar(avatar), created_by=self.state.session.user_id, created_at=at)
        self.state.webhooks[wid] = w
        self._audit(ch.guild_id, "WEBHOOK_CREATE", wid, reason)
        return self._hook_view(w, with_token=True)

    @tool(read_only=False)
    def discord_send_webhook_message(self, webhookId: str, webhookToken: str, content: str = Field(min_length=1),
                                     username: Optional[str] = None, avatarURL: Optional[Url] = None,
                                     threadId: Optional[Id("forum_post")] = None) -> dict:
        """Sends a message to a Discord channel using a webhook

        A forum channel's webhook posts into one of its posts, named by threadId.

        Args:
            webhookId: the webhook id.
            webhookToken: the webhook's token.
            content: message text (up to 2000 characters).
            username: author name shown instead of the webhook's name.
            avatarURL: avatar shown instead of the webhook's avatar.
            threadId: the forum post to post in (forum-channel webhooks only).
        """
        w = self._webhook(webhookId, webhookToken)
        text = check_content(content)
        shown = check_webhook_name(username, "webhook username") if username is not None else w.name
        check_avatar(avatarURL)
        ch = self.state.channels[w.channel_id]
        if ch.type == "forum":
            if threadId is None:
                raise Unprocessable(f"webhook {w.id} posts to the forum #{ch.name}; give threadId of one of its posts.")
            post = self._post(threadId)
            if post.parent_id != ch.id:
                raise Unprocessable(f"forum post {threadId} is not in #{ch.name}, the webhook's channel.")
            self._writable(post)
            where = post.id
        elif threadId is not None:
            raise Unprocessable(f"webhook {w.id} posts to the text channel #{ch.name}, which has no posts; "
                                "omit threadId.")
        else:
            where = ch.id
        mid, at = self._sid()
        msg = Message(id=mid, channel_id=where, guild_id=w.guild_id, author_id=w.id, author_name=shown,
                      content=text, created_at=at, webhook_id=w.id)
        self.state.messages[mid] = msg
        return {"id": mid, "channel_id": where, "author_name": shown, "content": text, "created_at": at,
                "webhook_id": w.id}

    @tool(read_only=False)
    def discord_edit_webhook(self, webhookId: str, webhookToken: Optional[str] = None,
                             name: Optional[str] = Field(default=None, min_length=1, max_length=80),
                             avatar: Optional[Url] = None, channelId: Optional[Id("discord_channel")] = None,
                             reason: Reason = _REASON) -> dict:
        """Edits an existing webhook for a Discord channel

        Without webhookToken the bot edits it with its Manage Webhooks permission;
        only then can the webhook move to another channel of the same server.

        Args:
            webhookId: the webhook id.
            webhookToken: the webhook's token (optional).
            name: new name.
            avatar: new avatar image URL.
            channelId: new text or forum channel (not with webhookToken).
            reason: audit-log reason.
        """
        w = self._webhook(webhookId, webhookToken)
        if name is None and avatar is None and channelId is None:
            raise InvalidArgument("nothing to change: give name, avatar or channelId.")
        clean = check_webhook_name(name) if name is not None else w.name
        pic = check_avatar(avatar) if avatar is not None else w.avatar
        target = w.channel_id
        if channelId is not None:
            if webhookToken is not None:
                raise Unprocessable("a webhook cannot change channel with token authorisation; omit webhookToken.")
            ch = self._channel(channelId, "text", "forum")
            if ch.guild_id != w.guild_id:
                raise Unprocessable(f"#{ch.name} is in another server; a webhook stays in its server.")
            full = sum(x.channel_id == ch.id for x in self.state.webhooks.values()) >= MAX_WEBHOOKS
            if ch.id != w.channel_id and full:
                raise Unprocessable(f"#{ch.name} already has {MAX_WEBHOOKS} webhooks, Discord's maximum.")
            target = ch.id
        w.name, w.avatar, w.channel_id = clean, pic, target
        self._audit(w.guild_id, "WEBHOOK_UPDATE", w.id, reason)
        return self._hook_view(w)

    @tool(read_only=False, destructive=True)
    def discord_delete_webhook(self, webhookId: str, webhookToken: Optional[str] = None,
                               reason: Reason = _REASON) -> dict:
        """Deletes an existing webhook for a Discord channel

        Args:
            webhookId: the webhook id.
            webhookToken: the webhook's token (optional; without it the bot's permission is used).
            reason: audit-log reason.
        """
        w = self._webhook(webhookId, webhookToken)
        del self.state.webhooks[w.id]
        self._audit(w.guild_id, "WEBHOOK_DELETE", w.id, reason)
        return {"deleted": w.id, "name": w.name, "channel_id": w.channel_id}
