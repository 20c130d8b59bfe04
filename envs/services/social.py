"""Social: a Reddit-style community with posts, comments, likes, scheduling and moderation.

Follows the Reddit Content Fetcher MCP server (``@ruradium_mcp-reddit`` in
``compoworld_gym/data/mcp_servers.jsonl``) for its two tools,
``fetch_reddit_hot_threads(subreddit, limit=10)`` and
``fetch_reddit_post_content(post_id, comment_limit=20, comment_depth=3)``
(same names, parameters, defaults and required sets; results are JSON
instead of prose). The write side, which that server lacks, is designed
the way Reddit's own API works: submit (optionally scheduled), comment,
upvote, and moderator actions (remove, hide/approve, ban) recorded in a
mod log. Customers of the shared commerce book post under their own
email, so a complaint can be traced to an order.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import ClassVar, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import DateTime, Id, Username
from compoworld_gym.envs.services._social_models import (
    Account, Comment, ModAction, ModLogEntry, Post, PostStatus, SocialState, Subreddit)
from compoworld_gym.envs.services._social_seed import seed_social
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Service, tool


class Social(Service):
    """Reddit-style communities: hot threads, posts, comments, likes, scheduling, moderation."""

    name = "social"
    description = ("Social community (Reddit-style): communities, posts, comment threads, upvotes, "
                   "scheduled posts and moderation (hide, remove, ban) with a mod log.")
    domain = "social"
    spec_source = "@ruradium_mcp-reddit"
    #: Tools the spec server lacks (it only reads), designed after Reddit's own API.
    designed_tools: ClassVar[frozenset[str]] = frozenset({
        "search_posts", "get_account", "get_subreddit_info", "list_mod_log", "create_post",
        "publish_scheduled_post", "cancel_scheduled_post", "add_comment", "like_post", "moderate_content",
        "ban_user"})
    State = SocialState

    # ---------------------------------------------------------------- helpers
    def _sub(self, name: str) -> Subreddit:
        return self.lookup(self.state.subreddits, name.removeprefix("r/"), "subreddit")

    def _can_write(self, sub: Subreddit, username: str) -> Account:
        acct = self.lookup(self.state.accounts, username, "account")
        if username in sub.banned:
            raise Conflict(f"u/{username} is banned from r/{sub.name} and cannot post or comment there.")
        return acct

    def _count_comments(self, post_id: str) -> int:
        return sum(1 for c in self.state.comments.values() if c.post_id == post_id and c.status == "visible")

    def _thread(self, post_id: str, parent: str | None, depth: int, limit: int | None) -> list[dict]:
        if depth <= 0:
            return []
        kids = sorted((c for c in self.state.comments.values()
                       if c.post_id == post_id and c.parent_id == parent and c.status == "visible"),
                      key=lambda c: (-c.score, c.created_at))
        return [{**c.model_dump(exclude={"post_id", "parent_id", "status"}),
                 "replies": self._thread(post_id, c.id, depth - 1, None)} for c in kids[:limit]]

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Post])
    def fetch_reddit_hot_threads(self, subreddit: str, limit: int = Field(default=10, ge=1, le=100)) -> list[dict]:
        """Fetch the hot (highest-scoring, published) threads of a subreddit.

        Args:
            subreddit: name of the subreddit, e.g. 'acmestore'.
            limit: number of posts to fetch (default 10).
        """
        sub = self._sub(subreddit)
        posts = sorted((p for p in self.state.posts.values() if p.subreddit == sub.name and p.status == "published"),
                       key=lambda p: (-p.score, -p.created_at.timestamp()))
        return [{"id": p.id, "title": p.title, "author": p.author, "score": p.score, "flair": p.flair,
                 "num_comments": self._count_comments(p.id), "created_at": p.created_at} for p in posts[:limit]]

    @tool(read_only=True, returns=Post)
    def fetch_reddit_post_content(self, post_id: Id("post"), comment_limit: int = Field(default=20, ge=0, le=500),
                                  comment_depth: int = Field(default=3, ge=0, le=20)) -> dict:
        """Fetch a post and its tree of visible comments (best first).

        Args:
            post_id: the post id, e.g. PST-0001.
            comment_limit: number of top-level comments to fetch.
            comment_depth: maximum depth of the comment tree to traverse.
        """
        p = self.lookup(self.state.posts, post_id, "post")
        return {**p.model_dump(), "comments": self._thread(post_id, None, comment_depth, comment_limit)}

    @tool(read_only=True, returns=list[Post])
    def search_posts(self, query: Optional[str] = None, subreddit: Optional[str] = None,
                     author: Optional[Username] = None, status: Optional[PostStatus] = None,
                     limit: int = Field(default=25, ge=1, le=200)) -> list[dict]:
        """Search posts of every status by text, community, author or status, newest first.

        Args:
            query: case-insensitive text to find in title or body.
            subreddit: only posts in this community.
            author: only posts by this username.
            status: only posts with this status (e.g. scheduled).
            limit: maximum number of posts (1-200).
        """
        q = query.lower() if query else None
        sub = subreddit.removeprefix("r/") if subreddit else None
        out = [p.model_dump() for p in sorted(self.state.posts.values(), key=lambda p: (p.created_at, p.id),
                                              reverse=True)
               if (sub is None or p.subreddit == sub) and (author is None or p.author == author)
               and (status is None or p.status == status)
               and (q is None or q in p.title.lower() or q in p.body.lower())]
        return out[:limit]

    @tool(read_only=True, returns=Account)
    def get_account(self, username: Username) -> dict:
        """Get a user's profile with post and comment counts.

        Args:
            username: the username, without 'u/'.
        """
        a = self.lookup(self.state.accounts, username.removeprefix("u/"), "account")
        return {**a.model_dump(), "posts": sum(p.author == a.username for p in self.state.posts.values()),
                "comments": sum(c.author == a.username for c in self.state.comments.values())}

    @tool(read_only=True, returns=Subreddit)
    def get_subreddit_info(self, subreddit: str) -> dict:
        """Get a community's description, rules, moderators and banned users.

        Args:
            subreddit: name of the subreddit.
        """
        return self._sub(subreddit).model_dump()

    @tool(read_only=True, returns=list[ModLogEntry])
    def list_mod_log(self, subreddit: str, limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List a community's moderator actions, newest first.

        Args:
            subreddit: name of the subreddit.
            limit: maximum number of entries (1-200).
        """
        sub = self._sub(subreddit)
        return [m.model_dump() for m in reversed(self.state.mod_log.values()) if m.subreddit == sub.name][:limit]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Post)
    def create_post(self, subreddit: str, author: Username, title: str = Field(min_length=1, max_length=300),
                    body: str = Field(default="", max_length=40000), flair: Optional[str] = None,
                    scheduled_for: Optional[DateTime] = None) -> dict:
        """Submit a post now, or schedule it for later (status 'scheduled').

        Args:
            subreddit: community to post in.
            author: the posting account's username.
            title: post title.
            body: post text.
            flair: optional flair label, e.g. 'Announcement'.
            scheduled_for: publication time (YYYY-MM-DDTHH:MM:SS), must be in the future.
        """
        sub = self._sub(subreddit)
        self._can_write(sub, author)
        now = self.now()
        if scheduled_for is not None and scheduled_for.replace(tzinfo=None) <= now:
            raise Unprocessable(f"scheduled_for {scheduled_for} is not in the future (now is {now}).")
        p = Post(id=self.new_id("PST"), subreddit=sub.name, author=author, title=title, body=body, flair=flair,
                 score=1, liked_by=[author], status="scheduled" if scheduled_for else "published", created_at=now,
                 scheduled_for=scheduled_for.replace(tzinfo=None) if scheduled_for else None)
        self.state.posts[p.id] = p
        return p.model_dump()

    def _scheduled(self, post_id: str) -> Post:
        p = self.lookup(self.state.posts, post_id, "post")
        if p.status != "scheduled":
            raise Conflict(f"post {post_id} is {p.status}, not scheduled.")
        return p

    @tool(read_only=False, returns=Post)
    def publish_scheduled_post(self, post_id: Id("post")) -> dict:
        """Publish a scheduled post now.

        Args:
            post_id: the scheduled post.
        """
        p = self._scheduled(post_id)
        p.status, p.created_at, p.scheduled_for = "published", self.now(), None
        return p.model_dump()

    @tool(read_only=False, destructive=True, returns=Post)
    def cancel_scheduled_post(self, post_id: Id("post")) -> dict:
        """Cancel a scheduled post; it is deleted.

        Args:
            post_id: the scheduled post.
        """
        self._scheduled(post_id)
        return self.state.posts.pop(post_id).model_dump()

    @tool(read_only=False, returns=Comment)
    def add_comment(self, post_id: Id("post"), author: Username, body: str = Field(min_length=1, max_length=10000),
                    parent_comment_id: Optional[Id("comment")] = None) -> dict:
        """Comment on a published post, or reply to one of its visible comments.

        Args:
            post_id: the post.
            author: the commenting account's username.
            body: comment text.
            parent_comment_id: comment to reply to; omit for a top-level comment.
        """
        p = self.lookup(self.state.posts, post_id, "post")
        if p.status != "published":
            raise Conflict(f"post {post_id} is {p.status}; only published posts take comments.")
        self._can_write(self.state.subreddits[p.subreddit], author)
        if parent_comment_id is not None:
            parent = self.lookup(self.state.comments, parent_comment_id, "comment")
            if parent.post_id != post_id:
                raise Unprocessable(f"comment {parent_comment_id} belongs to {parent.post_id}, not {post_id}.")
            if parent.status != "visible":
                raise Conflict(f"comment {parent_comment_id} is {parent.status} and cannot be replied to.")
        c = Comment(id=self.new_id("CMT"), post_id=post_id, parent_id=parent_comment_id, author=author, body=body,
                    score=1, status="visible", created_at=self.now())
        self.state.comments[c.id] = c
        return c.model_dump()

    @tool(read_only=False, returns=Post)
    def like_post(self, post_id: Id("post"), username: Username) -> dict:
        """Upvote a published post (409 if this account already upvoted it).

        Args:
            post_id: the post.
            username: the upvoting account.
        """
        p = self.lookup(self.state.posts, post_id, "post")
        self.lookup(self.state.accounts, username, "account")
        if p.status != "published":
            raise Conflict(f"post {post_id} is {p.status}; only published posts can be upvoted.")
        if username in p.liked_by:
            raise Conflict(f"u/{username} already upvoted {post_id}.")
        p.liked_by.append(username)
        p.score += 1
        self.state.accounts[p.author].karma += 1
        return {"id": p.id, "score": p.score, "liked_by": p.liked_by}

    @tool(read_only=False, returns=ModLogEntry)
    def moderate_content(self, content_id: str, action: ModAction, moderator: Username,
                         reason: str = Field(min_length=1, max_length=500)) -> dict:
        """Hide, unhide or remove a post or comment as a moderator of its community.

        Removal is final; hidden content can be unhidden. 409 if the user is not
        a moderator there or the content is already in that state.

        Args:
            content_id: a post id (PST-...) or comment id (CMT-...).
            action: hide, unhide or remove.
            moderator: the moderator's username.
            reason: reason shown in the mod log.
        """
        item = self.state.posts.get(content_id) or self.state.comments.get(content_id)
        if item is None:
            raise NotFound(f"no post or comment {content_id!r}; use search_posts or fetch_reddit_post_content.")
        sub_name = item.subreddit if isinstance(item, Post) else self.state.posts[item.post_id].subreddit
        if moderator not in self.state.subreddits[sub_name].moderators:
            raise Conflict(f"u/{moderator} is not a moderator of r/{sub_name}; see get_subreddit_info.")
        shown = "published" if isinstance(item, Post) else "visible"
        if item.status == "removed" or (isinstance(item, Post) and item.status == "scheduled"):
            raise Conflict(f"{content_id} is {item.status} and cannot be moderated.")
        new = {"hide": "hidden", "unhide": shown, "remove": "removed"}[action]
        if item.status == new:
            raise Conflict(f"{content_id} is already {new}.")
        item.status = new
        entry = ModLogEntry(id=self.new_id("MOD"), subreddit=sub_name, moderator=moderator, action=action,
                            target=content_id, reason=reason, at=self.now())
        self.state.mod_log[entry.id] = entry
        return entry.model_dump()

    @tool(read_only=False, returns=Subreddit)
    def ban_user(self, subreddit: str, username: Username, moderator: Username,
                 reason: str = Field(min_length=1, max_length=500)) -> dict:
        """Ban a user from posting and commenting in a community.

        Args:
            subreddit: the community.
            username: the user to ban.
            moderator: the moderator's username.
            reason: reason shown in the mod log.
        """
        sub = self._sub(subreddit)
        self.lookup(self.state.accounts, username, "account")
        if moderator not in sub.moderators:
            raise Conflict(f"u/{moderator} is not a moderator of r/{sub.name}.")
        if username in sub.moderators or username in sub.banned:
            raise Conflict(f"u/{username} is {'a moderator' if username in sub.moderators else 'already banned'} "
                           f"in r/{sub.name}.")
        sub.banned.append(username)
        entry = ModLogEntry(id=self.new_id("MOD"), subreddit=sub.name, moderator=moderator, action="ban",
                            target=username, reason=reason, at=self.now())
        self.state.mod_log[entry.id] = entry
        return sub.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> SocialState:
        return seed_social(fake, rng, today)
