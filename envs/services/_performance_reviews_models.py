"""Records of the performance reviews service (Lattice API style).

Lattice's resources keep their names, snake_cased: review cycles
(``/v1/reviewCycles``: ``name``, ``state``, ``ratingScale``), reviews
(``/v1/reviewCycles/{id}/reviews``: ``reviewee``, ``reviewer``,
``reviewType`` self/manager/peer, ``status``, ``rating``), goals
(``/v1/goals``: ``owner``, ``name``, ``progress``, ``dueDate``, ``status``
on_track/off_track/achieved, ``updates``), feedback (``/v1/feedbacks``) and
users (``/v1/users``: ``email``, ``manager``).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id, PersonName
from compoworld_gym.service import Record, ServiceState

CyclePhase = Literal["draft", "open", "calibration", "closed"]
ReviewType = Literal["self", "manager", "peer"]
ReviewStatus = Literal["not_started", "in_progress", "submitted"]
GoalStatus = Literal["not_started", "on_track", "off_track", "achieved"]
Visibility = Literal["private", "manager", "public"]


class User(Record):
    """A Lattice user: an employee of the shared workforce roster."""

    id: Id("employee") = Field(description="Employee id, e.g. EMP-0004.")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work email.")
    title: str = Field(description="Job title.")
    department: str = Field(description="Department.")
    manager_id: Optional[Id("employee")] = Field(default=None, description="The manager's employee id.")
    manager_email: Optional[Email] = Field(default=None, description="The manager's work email.")


class ReviewCycle(Record):
    """A review cycle (Lattice ``reviewCycle``) and its phase."""

    id: Id("review_cycle") = Field(description="Cycle id, e.g. RC-0001.")
    name: str = Field(description="Cycle name, e.g. 'H2 2025 Performance Review'.")
    phase: CyclePhase = Field(description="draft, open (reviews being written), calibration or closed.")
    rating_scale_max: int = Field(ge=3, le=10, description="Ratings run from 1 to this value.")
    rating_labels: list[str] = Field(default_factory=list, description="Label of each rating, 1 first.")
    review_types: list[ReviewType] = Field(description="Review types the cycle collects.")
    start_date: Date = Field(description="First day reviews can be written.")
    due_date: Date = Field(description="Day reviews are due.")


class Review(Record):
    """One review in a cycle (Lattice ``review``): a reviewer writing about a reviewee."""

    id: Id("performance_review") = Field(description="Review id, e.g. PRV-0001.")
    cycle_id: Id("review_cycle") = Field(description="The review cycle.")
    reviewee_id: Id("employee") = Field(description="The person reviewed.")
    reviewee_name: PersonName = Field(description="The reviewee's name.")
    reviewee_email: Email = Field(description="The reviewee's work email.")
    reviewer_id: Id("employee") = Field(description="The person writing the review.")
    reviewer_name: PersonName = Field(description="The reviewer's name.")
    reviewer_email: Email = Field(description="The reviewer's work email (a manager review's is the manager's).")
    review_type: ReviewType = Field(description="self, manager or peer.")
    status: ReviewStatus = Field(description="not_started, in_progress (draft saved) or submitted (locked).")
    rating: Optional[int] = Field(default=None, ge=1, le=10, description="Rating on the cycle's scale.")
    comments: str = Field(default="", max_length=4000, description="The written review.")
    submitted_at: Optional[DateTime] = Field(default=None, description="When submitted.")


class GoalUpdate(Record):
    """A check-in on a goal (Lattice goal ``updates``)."""

    at: DateTime = Field(description="When the update was posted.")
    author_email: Email = Field(description="Who posted it.")
    progress: int = Field(ge=0, le=100, description="Progress after the update (percent).")
    status: GoalStatus = Field(description="Status after the update.")
    comment: str = Field(default="", max_length=2000, description="The update's text.")


class Goal(Record):
    """A goal (Lattice ``goal``) owned by one employee."""

    id: Id("goal") = Field(description="Goal id, e.g. GOAL-0001.")
    name: str = Field(description="Goal title.")
    description: str = Field(default="", description="What the goal is about.")
    owner_id: Id("employee") = Field(description="The goal owner.")
    owner_name: PersonName = Field(description="The owner's name.")
    owner_email: Email = Field(description="The owner's work email.")
    cycle_id: Optional[Id("review_cycle")] = Field(default=None, description="Review cycle the goal counts toward.")
    progress: int = Field(ge=0, le=100, description="Progress, percent.")
    status: GoalStatus = Field(description="not_started, on_track, off_track or achieved (at 100%).")
    due_date: Date = Field(description="When the goal is due.")
    updates: list[GoalUpdate] = Field(default_factory=list, description="Check-ins, oldest first.")
    last_update_comment: str = Field(default="", description="The latest check-in's comment.")


class Feedback(Record):
    """Feedback one employee gave another (Lattice ``feedback``)."""

    id: str = Field(description="Feedback id, e.g. FB-0001.")
    giver_email: Email = Field(description="Who gave it.")
    recipient_email: Email = Field(description="Who received it.")
    body: str = Field(max_length=2000, description="The feedback.")
    visibility: Visibility = Field(description="private (recipient only), manager (and their manager) or public.")
    created_at: DateTime = Field(description="When given.")


class PerformanceReviewsState(ServiceState):
    users: dict[str, User] = Field(default_factory=dict, description="Employees by id.")
    cycles: dict[str, ReviewCycle] = Field(default_factory=dict, description="Review cycles by id.")
    reviews: dict[str, Review] = Field(default_factory=dict, description="Reviews by id.")
    goals: dict[str, Goal] = Field(default_factory=dict, description="Goals by id.")
    feedback: dict[str, Feedback] = Field(default_factory=dict, description="Feedback by id.")
