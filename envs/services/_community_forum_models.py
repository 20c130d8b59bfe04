"""Records of the community_forum service (a Discourse forum).

Discourse keeps users (by username, with their email visible to staff),
categories (by slug), topics (a title, a category, tags and status flags:
closed, archived, listed) whose posts are numbered from 1 (post 1 is the
opening post), and flags (reviewables) on posts waiting in the review queue.
The discourse-solved plugin marks one reply of a topic as its accepted answer.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id, PersonName
from compoworld_gym.service import Record, ServiceState

FlagType = Literal["off_topic", "inappropriate", "spam", "notify_moderators", "illegal"]


class User(Record):
    """A forum account."""

    username: str = Field(description="Unique username, e.g. olivia_martinez.")
    name: PersonName = Field(description="Full name shown on posts.")
    email: Email = Field(description="Primary email (visible to staff only).")
    trust_level: int = Field(ge=0, le=4, description="Discourse trust level 0-4.")
    admin: bool = Field(default=False, description="Site administrator.")
    moderator: bool = Field(default=False, description="Moderator (staff).")
    suspended: bool = Field(default=False, description="Suspended users cannot post or flag.")
    created_at: DateTime = Field(description="When the account was created.")


class Category(Record):
    """A category topics are filed in."""

    slug: str = Field(description="URL slug, e.g. support.")
    name: str = Field(description="Display name.")
    description: str = Field(description="What belongs in the category.")
    solved_enabled: bool = Field(default=False, description="Whether replies can be accepted as solutions.")


class Topic(Record):
    """A topic: its opening post is post number 1."""

    id: Id("forum_topic") = Field(description="Topic id, e.g. TOP-0004.")
    title: str = Field(description="Topic title.")
    category: str = Field(description="Category slug.")
    username: str = Field(description="Username of the topic starter.")
    tags: list[str] = Field(default_factory=list, description="Tags, lower case.")
    closed: bool = Field(default=False, description="Closed topics take no new replies.")
    archived: bool = Field(default=False, description="Archived topics are frozen (no replies, no changes).")
    visible: bool = Field(default=True, description="Listed in topic lists (unlisted when False).")
    accepted_answer_post_id: Optional[Id("post")] = Field(default=None, description="Post accepted as the solution.")
    created_at: DateTime = Field(description="When the topic was created.")
    last_posted_at: DateTime = Field(description="Time of the newest post.")


class Post(Record):
    """A post of a topic."""

    id: Id("post") = Field(description="Post id, e.g. POST-0012.")
    topic_id: Id("forum_topic") = Field(description="Topic the post belongs to.")
    post_number: int = Field(ge=1, description="Position in the topic (1 is the opening post).")
    username: str = Field(description="Author's username.")
    raw: str = Field(description="Markdown text of the post.")
    reply_to_post_number: Optional[int] = Field(default=None, description="Post number this replies to.")
    hidden: bool = Field(default=False, description="Hidden after an agreed flag.")
    created_at: DateTime = Field(description="When it was posted.")


class Flag(Record):
    """A flag on a post: a reviewable in the review queue."""

    id: Id("forum_flag") = Field(description="Flag (reviewable) id, e.g. FLG-0003.")
    post_id: Id("post") = Field(description="Flagged post.")
    topic_id: Id("forum_topic") = Field(description="Topic of the flagged post.")
    flag_type: FlagType = Field(description="off_topic, inappropriate, spam, notify_moderators or illegal.")
    flagged_by: str = Field(description="Username who flagged.")
    message: str = Field(default="", description="The flagger's note.")
    status: Literal["pending", "approved", "rejected", "ignored"] = Field(
        description="pending; approved (flag agreed, post hidden); rejected (disagreed); ignored.")
    reviewed_by: Optional[str] = Field(default=None, description="Staff username who reviewed it.")
    created_at: DateTime = Field(description="When it was flagged.")


class ForumState(ServiceState):
    """Users, categories, topics, posts and flags of the forum."""

    users: dict[str, User] = Field(default_factory=dict, description="Users by username.")
    categories: dict[str, Category] = Field(default_factory=dict, description="Categories by slug.")
    topics: dict[str, Topic] = Field(default_factory=dict, description="Topics by id.")
    posts: dict[str, Post] = Field(default_factory=dict, description="Posts by id.")
    flags: dict[str, Flag] = Field(default_factory=dict, description="Flags by id.")
