"""State records of the social service: accounts, communities, posts, comments and the mod log.

Kept apart from the tools so that hooks and tests can build records without
importing the service, and so ``social.py`` holds only the tool surface.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id, PersonName, Username
from compoworld_gym.service import Record, ServiceState

PostStatus = Literal["published", "scheduled", "hidden", "removed"]
CommentStatus = Literal["visible", "hidden", "removed"]
ModAction = Literal["hide", "unhide", "remove"]


class Account(Record):
    """A user account."""

    username: Username = Field(description="Unique username, e.g. 'olivia_martinez'.")
    display_name: PersonName = Field(description="Person behind the account.")
    email: Email = Field(description="Account email.")
    karma: int = Field(ge=0, description="Accumulated karma points.")
    created_on: Date = Field(description="Sign-up date.")


class Subreddit(Record):
    """A community."""

    name: str = Field(description="Community name without 'r/', e.g. 'acmestore'.")
    title: str = Field(description="One-line title.")
    description: str = Field(description="What the community is about.")
    rules: list[str] = Field(description="Community rules, numbered from 1.")
    moderators: list[Username] = Field(description="Moderators' usernames.")
    banned: list[Username] = Field(default_factory=list, description="Users banned from posting and commenting.")
    subscribers: int = Field(ge=0, description="Number of members.")


class Post(Record):
    """A post (a thread)."""

    id: Id("post") = Field(description="Post id, e.g. PST-0001.")
    subreddit: str = Field(description="Community the post belongs to.")
    author: Username = Field(description="Author's username.")
    title: str = Field(description="Post title.")
    body: str = Field(description="Post text.")
    flair: Optional[str] = Field(default=None, description="Flair label, e.g. 'Question'.")
    score: int = Field(description="Net upvotes.")
    liked_by: list[Username] = Field(default_factory=list, description="Accounts that upvoted it (tracked).")
    status: PostStatus = Field(description="published, scheduled, hidden or removed.")
    created_at: DateTime = Field(description="When it was written.")
    scheduled_for: Optional[DateTime] = Field(default=None, description="Publication time of a scheduled post.")


class Comment(Record):
    """A comment on a post or a reply to a comment."""

    id: Id("comment") = Field(description="Comment id, e.g. CMT-0001.")
    post_id: Id("post") = Field(description="Post the comment belongs to.")
    parent_id: Optional[Id("comment")] = Field(default=None, description="Comment replied to; None if top level.")
    author: Username = Field(description="Author's username.")
    body: str = Field(description="Comment text.")
    score: int = Field(description="Net upvotes.")
    status: CommentStatus = Field(description="visible, hidden or removed.")
    created_at: DateTime = Field(description="When it was written.")


class ModLogEntry(Record):
    """One moderator action."""

    id: str = Field(description="Entry id, e.g. MOD-0001.")
    subreddit: str = Field(description="Community.")
    moderator: Username = Field(description="Moderator who acted.")
    action: Literal["hide", "unhide", "remove", "ban"] = Field(description="What was done.")
    target: str = Field(description="Post id, comment id or banned username.")
    reason: str = Field(description="Reason given.")
    at: DateTime = Field(description="When (logical clock).")


class SocialState(ServiceState):
    """Accounts, communities, posts, comments and the mod log."""

    accounts: dict[str, Account] = Field(default_factory=dict, description="Accounts by username.")
    subreddits: dict[str, Subreddit] = Field(default_factory=dict, description="Communities by name.")
    posts: dict[str, Post] = Field(default_factory=dict, description="Posts by id.")
    comments: dict[str, Comment] = Field(default_factory=dict, description="Comments by id.")
    mod_log: dict[str, ModLogEntry] = Field(default_factory=dict, description="Moderator actions by id.")
