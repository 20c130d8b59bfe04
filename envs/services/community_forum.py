"""Community forum: the store's Discourse community (topics, posts, categories, users, flags, solved answers).

No bundled MCP spec covers it; the tools follow the Discourse REST API,
translated to snake_case, with its field names: ``GET /categories.json``
(list_categories), ``GET /latest.json`` and ``GET /c/{slug}.json``
(list_latest_topics), ``GET /t/{id}.json`` (get_topic), ``GET /search.json``
(search), ``GET /u/{username}.json`` (get_user), ``GET /admin/users/list/{flag}.json?email=``
(list_users), ``GET /topics/created-by/{username}.json`` (list_user_topics), ``POST /posts.json``
with a title (create_topic) or a ``topic_id`` (create_post), ``PUT /t/{id}/status``
(update_topic_status), ``PUT /t/-/{id}.json`` tags (update_topic_tags), ``POST /post_actions``
(flag_post), ``GET /review.json`` (list_review_queue), ``PUT /review/{id}/perform/{action}``
(perform_review: agree, disagree, ignore) and the discourse-solved plugin's
``POST /solution/accept`` / ``POST /solution/unaccept`` (accept_solution, unaccept_solution).
The acting user is ``username`` (the ``Api-Username`` header).

Rules of the real product kept here: closed or archived topics take no replies
(archived topics take no changes at all); suspended users cannot post or
flag; a user flags a post once and never their own; a flag is reviewed once
(agreed: the post is hidden; disagreed or ignored: it stays), only staff
review, close, archive or unlist; only the topic starter or staff accept a
solution, only in a category with solutions on, only a reply (not the opening
post), one accepted answer per topic. Left out: private messages, likes,
badges, groups, uploads, category and user administration.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Email, Id
from compoworld_gym.envs.services._community_forum_models import Flag, FlagType, ForumState, Post, Topic, User
from compoworld_gym.envs.services._community_forum_seed import add_post, build_state
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool


class CommunityForum(Service):
    """Discourse community forum: topics, posts, categories, users, flags and solved answers."""

    name = "community_forum"
    description = ("The store's Discourse community forum: customer topics in categories, replies, tags, "
                   "closing and archiving, accepted solutions and the flag review queue.")
    domain = "social"
    spec_source = None
    State = ForumState

    # --------------------------------------------------------------- helpers
    def _user(self, username: str, *, staff: bool = False) -> User:
        user = self.lookup(self.state.users, username, "user")
        if staff and not (user.admin or user.moderator):
            raise Conflict(f"{username} is not staff; only moderators and admins can do that.")
        return user

    def _active(self, username: str) -> User:
        user = self._user(username)
        if user.suspended:
            raise Conflict(f"{username} is suspended and cannot post or flag.")
        return user

    def _posts(self, topic_id: str) -> list[Post]:
        return sorted((p for p in self.state.posts.values() if p.topic_id == topic_id), key=lambda p: p.post_number)

    def _summary(self, t: Topic) -> dict:
        posts = self._posts(t.id)
        return {**t.model_dump(), "posts_count": len(posts),
                "has_accepted_answer": t.accepted_answer_post_id is not None}

    def _post(self, post_id: str) -> Post:
        return self.lookup(self.state.posts, post_id, "post")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_categories(self) -> dict:
        """The forum's categories with their topic counts."""
        rows = [{**c.model_dump(), "topic_count": sum(t.category == c.slug for t in self.state.topics.values())}
                for c in self.state.categories.values()]
        return {"categories": rows}

    @tool(read_only=True)
    def list_latest_topics(self, category: Optional[str] = None, tag: Optional[str] = None,
                           status: Optional[Literal["open", "closed", "archived", "solved", "unsolved"]] = None,
                           limit: int = Field(default=30, ge=1, le=100)) -> dict:
        """Listed topics, most recently active first.

        Args:
            category: only this category slug.
            tag: only topics with this tag.
            status: open, closed, archived, solved or unsolved.
            limit: most topics to return (default 30).
        """
        if category is not None:
            self.lookup(self.state.categories, category, "category")
        keep = {"open": lambda t: not t.closed and not t.archived, "closed": lambda t: t.closed,
                "archived": lambda t: t.archived, "solved": lambda t: t.accepted_answer_post_id is not None,
                "unsolved": lambda t: t.accepted_answer_post_id is None}
        rows = [t for t in self.state.topics.values() if t.visible and (category is None or t.category == category)
                and (tag is None or tag.lower() in t.tags) and (status is None or keep[status](t))]
        rows.sort(key=lambda t: (t.last_posted_at, t.id), reverse=True)
        return {"topic_list": {"topics": [self._summary(t) for t in rows[:limit]]}}

    @tool(read_only=True)
    def get_topic(self, topic_id: Id("forum_topic")) -> dict:
        """A topic with all its posts (post_stream), its starter (details), status and accepted answer.

        Args:
            topic_id: the topic id, e.g. TOP-0004.
        """
        t = self.lookup(self.state.topics, topic_id, "topic")
        starter = self.state.users.get(t.username)
        return {**self._summary(t), "post_stream": {"posts": [p.model_dump() for p in self._posts(t.id)]},
                "details": {"created_by": {"username": t.username, "name": starter.name if starter else t.username}}}

    @tool(read_only=True)
    def search(self, q: str = Field(min_length=2), limit: int = Field(default=20, ge=1, le=50)) -> dict:
        """Full-text search over topic titles and post text (case-insensitive).

        Args:
            q: the words to find, e.g. an order number.
            limit: most posts to return (default 20).
        """
        needle = q.lower()
        posts = [p for p in self.state.posts.values()
                 if needle in p.raw.lower() or needle in self.state.topics[p.topic_id].title.lower()]
        posts = posts[:limit]
        ids = list(dict.fromkeys(p.topic_id for p in posts))
        return {"posts": [p.model_dump() for p in posts],
                "topics": [self._summary(self.state.topics[i]) for i in ids]}

    @tool(read_only=True)
    def get_user(self, username: str) -> dict:
        """A user's profile (email included: the API key is a staff key).

        Args:
            username: the username, e.g. olivia_martinez.
        """
        u = self._user(username)
        return {**u.model_dump(), "topic_count": sum(t.username == username for t in self.state.topics.values()),
                "post_count": sum(p.username == username for p in self.state.posts.values())}

    @tool(read_only=True, returns=list[User])
    def list_users(self, flag: Literal["active", "new", "staff", "suspended"] = "active",
                   email: Optional[Email] = None) -> list[dict]:
        """Users of an admin list, optionally only the one with an email address.

        Args:
            flag: active, new (trust level 0-1), staff or suspended.
            email: only the user with this email (case-insensitive).
        """
        keep = {"active": lambda u: not u.suspended, "new": lambda u: u.trust_level <= 1,
                "staff": lambda u: u.admin or u.moderator, "suspended": lambda u: u.suspended}[flag]
        return [u.model_dump() for u in self.state.users.values()
                if keep(u) and (email is None or u.email.lower() == email.lower())]

    @tool(read_only=True)
    def list_user_topics(self, username: str) -> dict:
        """Topics a user started, newest first.

        Args:
            username: the topic starter's username.
        """
        self._user(username)
        rows = sorted((t for t in self.state.topics.values() if t.username == username),
                      key=lambda t: (t.created_at, t.id), reverse=True)
        return {"topic_list": {"topics": [self._summary(t) for t in rows]}}

    @tool(read_only=True)
    def list_review_queue(self, status: Literal["pending", "approved", "rejected", "ignored", "all"] = "pending"
                          ) -> dict:
        """Flags (reviewables) of the review queue.

        Args:
            status: pending (default), approved, rejected, ignored or all.
        """
        rows = [f.model_dump() for f in self.state.flags.values() if status == "all" or f.status == status]
        return {"reviewables": rows}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False)
    def create_topic(self, title: str = Field(min_length=15, max_length=255),
                     raw: str = Field(min_length=20, max_length=32000), category: str = "support",
                     tags: Optional[list[str]] = None, username: str = "system") -> dict:
        """Start a topic (its raw text is post 1).

        Args:
            title: topic title, 15 to 255 characters.
            raw: markdown of the opening post, at least 20 characters.
            category: category slug (default support).
            tags: tags to add (lower-cased).
            username: the acting user (Api-Username).
        """
        self._active(username)
        self.lookup(self.state.categories, category, "category")
        if any(t.title.lower() == title.strip().lower() for t in self.state.topics.values()):
            raise Conflict(f"a topic titled {title!r} already exists; reply to it instead.")
        now = self.now()
        t = Topic(id=self.new_id("TOP"), title=title.strip(), category=category, username=username,
                  tags=sorted({x.strip().lower() for x in tags or [] if x.strip()}), created_at=now,
                  last_posted_at=now)
        self.state.topics[t.id] = t
        post = add_post(self.state, t, username, raw, now)
        return {"topic_id": t.id, "post": post.model_dump()}

    @tool(read_only=False)
    def create_post(self, topic_id: Id("forum_topic"), raw: str = Field(min_length=20, max_length=32000),
                    username: str = "system", reply_to_post_number: Optional[int] = Field(default=None, ge=1)) -> dict:
        """Reply to a topic (not a closed or archived one).

        Args:
            topic_id: the topic id.
            raw: markdown of the reply, at least 20 characters.
            username: the acting user (Api-Username).
            reply_to_post_number: the post number replied to, if any.
        """
        t = self.lookup(self.state.topics, topic_id, "topic")
        self._active(username)
        if t.archived or t.closed:
            raise Conflict(f"topic {t.id} is {'archived' if t.archived else 'closed'}; it takes no new replies.")
        if reply_to_post_number is not None and reply_to_post_number > len(self._posts(t.id)):
            raise NotFound(f"topic {t.id} has no post number {reply_to_post_number}.")
        post = add_post(self.state, t, username, raw, self.now(), reply_to_post_number)
        return post.model_dump()

    @tool(read_only=False)
    def update_topic_status(self, topic_id: Id("forum_topic"), status: Literal["closed", "archived", "visible"],
                            enabled: bool, username: str = "system") -> dict:
        """Close or reopen, archive or unarchive, list or unlist a topic (staff only).

        Args:
            topic_id: the topic id.
            status: closed, archived or visible.
            enabled: true to close/archive/list, false to reopen/unarchive/unlist.
            username: the acting staff user (Api-Username).
        """
        t = self.lookup(self.state.topics, topic_id, "topic")
        self._user(username, staff=True)
        if t.archived and status != "archived":
            raise Conflict(f"topic {t.id} is archived; unarchive it first.")
        if getattr(t, status) == enabled:
            raise Conflict(f"topic {t.id} already has {status}={enabled}.")
        setattr(t, status, enabled)
        return self._summary(t)

    @tool(read_only=False)
    def update_topic_tags(self, topic_id: Id("forum_topic"), tags: list[str] = Field(max_length=5),
                          username: str = "system") -> dict:
        """Replace a topic's tags (the starter or staff; at most 5).

        Args:
            topic_id: the topic id.
            tags: the new tags (lower-cased).
            username: the acting user (Api-Username).
        """
        t = self.lookup(self.state.topics, topic_id, "topic")
        user = self._active(username)
        if username != t.username and not (user.admin or user.moderator):
            raise Conflict(f"only {t.username} or staff can edit the tags of {t.id}.")
        if t.archived:
            raise Conflict(f"topic {t.id} is archived; it cannot be changed.")
        clean = [x.strip().lower().replace(" ", "-") for x in tags]
        if any(not x or len(x) > 20 for x in clean):
            raise InvalidArgument("tags must be 1 to 20 characters.")
        t.tags = sorted(set(clean))
        return self._summary(t)

    def _solver(self, post_id: str, username: str) -> tuple[Post, Topic]:
        post = self._post(post_id)
        t = self.state.topics[post.topic_id]
        user = self._user(username)
        if username != t.username and not (user.admin or user.moderator):
            raise Conflict(f"only the topic starter ({t.username}) or staff can mark the solution of {t.id}.")
        if not self.state.categories[t.category].solved_enabled:
            raise Unprocessable(f"category {t.category} does not take accepted solutions.")
        if t.archived:
            raise Conflict(f"topic {t.id} is archived; it cannot be changed.")
        return post, t

    @tool(read_only=False)
    def accept_solution(self, id: Id("post"), username: str = "system") -> dict:
        """Accept a reply as its topic's solution (discourse-solved), replacing an earlier one.

        Args:
            id: the post id of the reply.
            username: the topic starter or a staff user (Api-Username).
        """
        post, t = self._solver(id, username)
        if post.post_number == 1:
            raise Unprocessable("the opening post cannot be its own topic's solution; accept a reply.")
        if t.accepted_answer_post_id == post.id:
            raise Conflict(f"{post.id} is already the accepted answer of {t.id}.")
        t.accepted_answer_post_id = post.id
        return {"topic_id": t.id, "accepted_answer": {"post_id": post.id, "post_number": post.post_number,
                                                      "username": post.username}}

    @tool(read_only=False)
    def unaccept_solution(self, id: Id("post"), username: str = "system") -> dict:
        """Withdraw the accepted solution of a topic.

        Args:
            id: the post id of the accepted reply.
            username: the topic starter or a staff user (Api-Username).
        """
        post, t = self._solver(id, username)
        if t.accepted_answer_post_id != post.id:
            raise Conflict(f"{post.id} is not the accepted answer of {t.id}.")
        t.accepted_answer_post_id = None
        return {"topic_id": t.id, "accepted_answer": None}

    @tool(read_only=False)
    def flag_post(self, id: Id("post"), flag_type: FlagType, username: str, message: str = "") -> dict:
        """Flag a post for the moderators (one flag per user and post; never your own post).

        Args:
            id: the post id.
            flag_type: off_topic, inappropriate, spam, notify_moderators or illegal.
            username: the flagging user (Api-Username).
            message: a note for the moderators (needed for notify_moderators and illegal).
        """
        post = self._post(id)
        self._active(username)
        if post.username == username:
            raise Unprocessable("users cannot flag their own posts.")
        if flag_type in ("notify_moderators", "illegal") and not message.strip():
            raise InvalidArgument(f"a {flag_type} flag needs a message.")
        if any(f.post_id == id and f.flagged_by == username for f in self.state.flags.values()):
            raise Conflict(f"{username} already flagged {id}.")
        f = Flag(id=self.new_id("FLG"), post_id=id, topic_id=post.topic_id, flag_type=flag_type,
                 flagged_by=username, message=message, status="pending", created_at=self.now())
        self.state.flags[f.id] = f
        return f.model_dump()

    @tool(read_only=False)
    def perform_review(self, reviewable_id: Id("forum_flag"), action: Literal["agree", "disagree", "ignore"],
                       username: str) -> dict:
        """Review a pending flag (staff only): agree hides the post, disagree or ignore keep it.

        Args:
            reviewable_id: the flag id, e.g. FLG-0001.
            action: agree, disagree or ignore.
            username: the reviewing staff user (Api-Username).
        """
        f = self.lookup(self.state.flags, reviewable_id, "flag")
        self._user(username, staff=True)
        if f.status != "pending":
            raise Conflict(f"flag {f.id} was already reviewed ({f.status} by {f.reviewed_by}).")
        f.status = {"agree": "approved", "disagree": "rejected", "ignore": "ignored"}[action]
        f.reviewed_by = username
        if action == "agree":
            self.state.posts[f.post_id].hidden = True
            for other in self.state.flags.values():  # the other pending flags on the post are settled too
                if other.post_id == f.post_id and other.status == "pending":
                    other.status, other.reviewed_by = "approved", username
        return f.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> ForumState:
        return build_state(rng, today)
