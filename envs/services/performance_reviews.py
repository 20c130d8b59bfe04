"""Performance reviews: review cycles, self/manager/peer reviews, goals and feedback.

No performance-management server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Lattice API:
``GET /v1/users`` and ``/v1/user/{id}`` (``email``, ``manager``, ``department``),
``GET /v1/reviewCycles`` and ``/v1/reviewCycle/{id}`` (``name``, ``state``,
``ratingScale``), ``GET /v1/reviewCycle/{id}/reviews`` and ``/v1/review/{id}``
(``reviewee``, ``reviewer``, ``reviewType`` self/manager/peer, ``status``,
``rating``, ``response``), ``GET/POST /v1/goals`` and ``/v1/goal/{id}``
(``name``, ``owner``, ``progress``, ``dueDate``, ``status``
on_track/off_track/achieved, ``updates``), and ``GET/POST /v1/feedbacks``
(``giver``, ``recipient``, ``body``, ``visibility``). Writing, drafting and
submitting a review, launching and advancing a cycle are the Lattice app's
operations, exposed here as tools.

Rules of the real product: reviews are written and submitted only while the
cycle is open (launched, not yet in calibration); a rating lies on the cycle's
scale; a submitted review is locked; a manager review is written by the
reviewee's manager of record, a self review by the reviewee, a peer review by
someone else; one review per reviewer, reviewee, type and cycle; a cycle moves
draft -> open -> calibration -> closed; goal progress is 0-100 and a goal is
achieved exactly at 100%, after which it takes no updates. People are the
shared workforce roster. Left out: calibration grids, templates and question
sets, one-on-ones, engagement surveys, goal alignment trees.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._performance_reviews_models import (
    CyclePhase, Feedback, Goal, GoalStatus, GoalUpdate, PerformanceReviewsState, Review, ReviewCycle, ReviewStatus,
    ReviewType, User, Visibility,
)
from compoworld_gym.envs.services._performance_reviews_rules import (
    check_open, check_rating, check_reviewer, check_unlocked, goal_status,
)
from compoworld_gym.envs.services._performance_reviews_seed import seed_reviews
from compoworld_gym.envs.services._workforce import roster
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

_PHASES = ("draft", "open", "calibration", "closed")


def _ieq_opt(field: str, value: Optional[str]):
    """Case-insensitive match on a field that may be None (the CEO has no manager)."""
    return None if value is None else (lambda r: (getattr(r, field) or "").lower() == value.lower())


class PerformanceReviews(Service):
    """Lattice-style performance management: cycles, reviews, goals, feedback."""

    name = "performance_reviews"
    description = ("Performance reviews (Lattice): review cycles and their phases, self, manager and peer reviews "
                   "with ratings, employee goals with progress check-ins, and feedback.")
    domain = "hr"
    spec_source = None
    State = PerformanceReviewsState

    # ---------------------------------------------------------------- helpers
    def _user(self, user_id: str) -> User:
        return self.lookup(self.state.users, user_id, "user")

    def _by_email(self, email: str, what: str) -> User:
        hit = next((u for u in self.state.users.values() if u.email.lower() == email.strip().lower()), None)
        if hit is None:
            raise NotFound(f"{what} {email!r} is no Lattice user; look people up with list_users.")
        return hit

    def _cycle(self, cycle_id: str) -> ReviewCycle:
        return self.lookup(self.state.cycles, cycle_id, "review cycle")

    def _review(self, review_id: str) -> Review:
        return self.lookup(self.state.reviews, review_id, "review")

    def _goal(self, goal_id: str) -> Goal:
        return self.lookup(self.state.goals, goal_id, "goal")

    def _view(self, r: Review) -> dict:
        c = self.state.cycles[r.cycle_id]
        label = c.rating_labels[r.rating - 1] if r.rating and r.rating <= len(c.rating_labels) else None
        return {**r.model_dump(), "cycle_name": c.name, "cycle_phase": c.phase,
                "rating_scale_max": c.rating_scale_max, "rating_label": label}

    # ------------------------------------------------------------------ users
    @tool(read_only=True, returns=list[User])
    def list_users(self, email: Optional[Email] = None, manager_email: Optional[Email] = None,
                   department: Optional[str] = None) -> list[dict]:
        """List Lattice users (employees) by work email, manager's email or department.

        Args:
            email: the user's work email (case-insensitive).
            manager_email: only the direct reports of this manager.
            department: department name (case-insensitive), e.g. Finance.
        """
        return [u.model_dump() for u in select(self.state.users.values(), ieq("email", email),
                                               _ieq_opt("manager_email", manager_email), ieq("department", department))]

    @tool(read_only=True, returns=User)
    def get_user(self, user_id: Id("employee")) -> dict:
        """Get one user with their manager.

        Args:
            user_id: the employee id, e.g. EMP-0004.
        """
        return self._user(user_id).model_dump()

    # ----------------------------------------------------------------- cycles
    @tool(read_only=True, returns=list[ReviewCycle])
    def list_review_cycles(self, phase: Optional[CyclePhase] = None) -> list[dict]:
        """List review cycles, optionally in one phase.

        Args:
            phase: draft, open, calibration or closed.
        """
        return [c.model_dump() for c in select(self.state.cycles.values(), eq("phase", phase))]

    @tool(read_only=True, returns=ReviewCycle)
    def get_review_cycle(self, cycle_id: Id("review_cycle")) -> dict:
        """Get one review cycle with its review counts by status.

        Args:
            cycle_id: the cycle id, e.g. RC-0002.
        """
        c = self._cycle(cycle_id)
        counts = {s: 0 for s in ("not_started", "in_progress", "submitted")}
        for r in self.state.reviews.values():
            if r.cycle_id == c.id:
                counts[r.status] += 1
        return {**c.model_dump(), "review_counts": counts}

    @tool(read_only=False, returns=ReviewCycle)
    def update_review_cycle_phase(self, cycle_id: Id("review_cycle"), phase: CyclePhase) -> dict:
        """Move a cycle to its next phase: draft -> open (launch) -> calibration -> closed.

        Args:
            cycle_id: the cycle.
            phase: the next phase (phases are never skipped or reversed).
        """
        c = self._cycle(cycle_id)
        at = _PHASES.index(c.phase)
        if at == len(_PHASES) - 1:
            raise Conflict(f"review cycle {c.id} is closed.")
        if phase != _PHASES[at + 1]:
            raise Unprocessable(f"review cycle {c.id} is {c.phase}; its next phase is {_PHASES[at + 1]}.")
        c.phase = phase
        return c.model_dump()

    # ---------------------------------------------------------------- reviews
    @tool(read_only=True, returns=list[Review])
    def list_reviews(self, cycle_id: Optional[Id("review_cycle")] = None, reviewee_email: Optional[Email] = None,
                     reviewer_email: Optional[Email] = None, review_type: Optional[ReviewType] = None,
                     status: Optional[ReviewStatus] = None, limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List reviews by cycle, reviewee, reviewer, type or status.

        Args:
            cycle_id: only this cycle's reviews.
            reviewee_email: the reviewed employee's work email.
            reviewer_email: the reviewer's work email.
            review_type: self, manager or peer.
            status: not_started, in_progress or submitted.
            limit: maximum number of reviews (1-200).
        """
        rows = select(self.state.reviews.values(), eq("cycle_id", cycle_id), ieq("reviewee_email", reviewee_email),
                      ieq("reviewer_email", reviewer_email), eq("review_type", review_type), eq("status", status),
                      limit=limit)
        return [self._view(r) for r in rows]

    @tool(read_only=True, returns=Review)
    def get_review(self, review_id: Id("performance_review")) -> dict:
        """Get one review with its cycle's phase, scale and the rating's label.

        Args:
            review_id: the review id, e.g. PRV-0007.
        """
        return self._view(self._review(review_id))

    @tool(read_only=False, returns=Review)
    def create_review(self, cycle_id: Id("review_cycle"), reviewee_id: Id("employee"), reviewer_id: Id("employee"),
                      review_type: ReviewType) -> dict:
        """Assign a review in a draft or open cycle (a peer review is the usual one to add).

        Args:
            cycle_id: the cycle; it must collect this review type.
            reviewee_id: the employee reviewed.
            reviewer_id: who writes it: the reviewee (self), their manager (manager) or a colleague (peer).
            review_type: self, manager or peer.
        """
        c, ee, er = self._cycle(cycle_id), self._user(reviewee_id), self._user(reviewer_id)
        if c.phase not in ("draft", "open"):
            raise Conflict(f"review cycle {c.id} is in {c.phase}; reviews are assigned only before calibration.")
        if review_type not in c.review_types:
            raise Unprocessable(f"cycle {c.id} collects {', '.join(c.review_types)} reviews, not {review_type}.")
        check_reviewer(review_type, ee, er)
        dup = next((r for r in self.state.reviews.values() if (r.cycle_id, r.reviewee_id, r.reviewer_id,
                                                                r.review_type) == (c.id, ee.id, er.id, review_type)), None)
        if dup is not None:
            raise Conflict(f"that review already exists: {dup.id}.")
        r = Review(id=self.new_id("PRV"), cycle_id=c.id, reviewee_id=ee.id, reviewee_name=ee.name,
                   reviewee_email=ee.email, reviewer_id=er.id, reviewer_name=er.name, reviewer_email=er.email,
                   review_type=review_type, status="not_started")
        self.state.reviews[r.id] = r
        return self._view(r)

    def _write(self, review_id: str, reviewer_email: str, rating: Optional[int], comments: Optional[str],
               action: str) -> Review:
        r = self._review(review_id)
        c = self.state.cycles[r.cycle_id]
        check_open(c, action)
        check_unlocked(r)
        if reviewer_email.strip().lower() != r.reviewer_email.lower():
            raise Unprocessable(f"review {r.id} is written by {r.reviewer_email}, not {reviewer_email}.")
        check_rating(c, rating)
        return r

    @tool(read_only=False, returns=Review)
    def save_review_draft(self, review_id: Id("performance_review"), reviewer_email: Email,
                          rating: Optional[int] = Field(default=None, ge=1, le=10),
                          comments: Optional[str] = Field(default=None, max_length=4000)) -> dict:
        """Save a draft of a review (it stays editable: status in_progress).

        Args:
            review_id: the review, in an open cycle and not yet submitted.
            reviewer_email: the reviewer's work email (only they write it).
            rating: rating on the cycle's scale.
            comments: the written review so far.
        """
        r = self._write(review_id, reviewer_email, rating, comments, "drafts are saved")
        if rating is not None:
            r.rating = rating
        if comments is not None:
            r.comments = comments
        r.status = "in_progress"
        return self._view(r)

    @tool(read_only=False, returns=Review)
    def submit_review(self, review_id: Id("performance_review"), reviewer_email: Email,
                      rating: Optional[int] = Field(default=None, ge=1, le=10),
                      comments: Optional[str] = Field(default=None, max_length=4000)) -> dict:
        """Submit a review; it is locked afterwards. Self and manager reviews need a rating and comments.

        Args:
            review_id: the review, in an open cycle and not yet submitted.
            reviewer_email: the reviewer's work email (only they submit it).
            rating: rating on the cycle's scale (else the draft's).
            comments: the written review (else the draft's).
        """
        r = self._write(review_id, reviewer_email, rating, comments, "reviews are submitted")
        final_rating = rating if rating is not None else r.rating
        final_text = comments if comments is not None else r.comments
        if r.review_type != "peer" and (final_rating is None or not final_text.strip()):
            raise InvalidArgument(f"a {r.review_type} review is submitted with a rating and comments.")
        r.rating, r.comments, r.status, r.submitted_at = final_rating, final_text, "submitted", self.now()
        return self._view(r)

    # ------------------------------------------------------------------ goals
    @tool(read_only=True, returns=list[Goal])
    def list_goals(self, owner_email: Optional[Email] = None, status: Optional[GoalStatus] = None,
                   cycle_id: Optional[Id("review_cycle")] = None,
                   limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List goals by owner, status or review cycle.

        Args:
            owner_email: the owner's work email.
            status: not_started, on_track, off_track or achieved.
            cycle_id: goals counting toward this review cycle.
            limit: maximum number of goals (1-200).
        """
        return [g.model_dump() for g in select(self.state.goals.values(), ieq("owner_email", owner_email),
                                               eq("status", status), eq("cycle_id", cycle_id), limit=limit)]

    @tool(read_only=True, returns=Goal)
    def get_goal(self, goal_id: Id("goal")) -> dict:
        """Get one goal with its check-ins.

        Args:
            goal_id: the goal id, e.g. GOAL-0003.
        """
        return self._goal(goal_id).model_dump()

    @tool(read_only=False, returns=Goal)
    def create_goal(self, owner_id: Id("employee"), name: str = Field(min_length=3, max_length=200),
                    due_date: Date = Field(), description: str = Field(default="", max_length=2000),
                    cycle_id: Optional[Id("review_cycle")] = None) -> dict:
        """Create a goal for an employee (not started, 0%).

        Args:
            owner_id: the employee who owns the goal.
            name: the goal's title.
            due_date: when it is due (today or later).
            description: what success looks like.
            cycle_id: a review cycle (not closed) it counts toward.
        """
        owner = self._user(owner_id)
        if cycle_id is not None and self._cycle(cycle_id).phase == "closed":
            raise Conflict(f"review cycle {cycle_id} is closed; goals count toward an active cycle.")
        if due_date < self.today:
            raise InvalidArgument(f"due_date {due_date} is in the past.")
        g = Goal(id=self.new_id("GOAL"), name=name, description=description, owner_id=owner.id,
                 owner_name=owner.name, owner_email=owner.email, cycle_id=cycle_id, progress=0,
                 status="not_started", due_date=due_date)
        self.state.goals[g.id] = g
        return g.model_dump()

    @tool(read_only=False, returns=Goal)
    def update_goal(self, goal_id: Id("goal"), author_email: Email,
                    progress: Optional[int] = Field(default=None, ge=0, le=100),
                    status: Optional[GoalStatus] = None,
                    comment: str = Field(default="", max_length=2000)) -> dict:
        """Post a check-in on a goal: new progress and/or status with a comment (100% marks it achieved).

        Args:
            goal_id: the goal, not yet achieved.
            author_email: who posts it: the owner or the owner's manager.
            progress: new progress, 0-100 percent.
            status: on_track or off_track (achieved only at 100%).
            comment: what changed.
        """
        g = self._goal(goal_id)
        author = self._by_email(author_email, "author_email")
        owner = self.state.users[g.owner_id]
        if author.id not in (owner.id, owner.manager_id):
            raise Unprocessable(f"goal {g.id} is updated by its owner or their manager ({owner.manager_email}).")
        if progress is None and status is None and not comment:
            raise InvalidArgument("give progress, status or a comment.")
        p, s = goal_status(g, progress, status)
        g.progress, g.status, g.last_update_comment = p, s, comment
        g.updates.append(GoalUpdate(at=self.now(), author_email=author.email, progress=p, status=s, comment=comment))
        return g.model_dump()

    # --------------------------------------------------------------- feedback
    @tool(read_only=True, returns=list[Feedback])
    def list_feedback(self, recipient_email: Optional[Email] = None, giver_email: Optional[Email] = None,
                      limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List feedback, newest first, by recipient or giver.

        Args:
            recipient_email: who received it.
            giver_email: who gave it.
            limit: maximum number of items (1-200).
        """
        rows = sorted(select(self.state.feedback.values(), ieq("recipient_email", recipient_email),
                             ieq("giver_email", giver_email)), key=lambda f: f.created_at, reverse=True)
        return [f.model_dump() for f in rows[:limit]]

    @tool(read_only=False, returns=Feedback)
    def give_feedback(self, giver_email: Email, recipient_email: Email,
                      body: str = Field(min_length=3, max_length=2000), visibility: Visibility = "private") -> dict:
        """Give an employee feedback.

        Args:
            giver_email: who gives it (a user).
            recipient_email: who receives it (another user).
            body: the feedback.
            visibility: private (recipient only), manager (also their manager) or public.
        """
        giver, to = self._by_email(giver_email, "giver_email"), self._by_email(recipient_email, "recipient_email")
        if giver.id == to.id:
            raise Unprocessable("feedback goes to someone else.")
        f = Feedback(id=self.new_id("FB"), giver_email=giver.email, recipient_email=to.email, body=body,
                     visibility=visibility, created_at=self.now())
        self.state.feedback[f.id] = f
        return f.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> PerformanceReviewsState:
        """Seeded state on the workforce roster of the same seed."""
        return seed_reviews(roster(seed, today), random.Random(f"{cls.name}:{seed}"), today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> PerformanceReviewsState:
        return seed_reviews(roster(rng.randrange(2**31), today), rng, today)


__all__ = ["PerformanceReviews"]
