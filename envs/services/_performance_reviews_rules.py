"""Business rules of the performance reviews service (Lattice), as pure functions."""

from __future__ import annotations

from typing import Optional

from compoworld_gym.envs.services._performance_reviews_models import Goal, Review, ReviewCycle, User
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable


def check_open(cycle: ReviewCycle, action: str) -> None:
    """Reviews are written and submitted only while their cycle is open."""
    if cycle.phase != "open":
        raise Conflict(f"review cycle {cycle.id} is in its {cycle.phase} phase; {action} only while it is open.")


def check_rating(cycle: ReviewCycle, rating: Optional[int]) -> None:
    """A rating lies on the cycle's scale (1..rating_scale_max)."""
    if rating is not None and not 1 <= rating <= cycle.rating_scale_max:
        raise InvalidArgument(f"cycle {cycle.id} rates on a 1-{cycle.rating_scale_max} scale; {rating} is off it.")


def check_unlocked(review: Review) -> None:
    """A submitted review is locked."""
    if review.status == "submitted":
        raise Conflict(f"review {review.id} was submitted at {review.submitted_at}; a submitted review is locked.")


def check_reviewer(kind: str, reviewee: User, reviewer: User) -> None:
    """Self reviews are by the reviewee, manager reviews by their real manager, peer reviews by someone else."""
    if kind == "self" and reviewer.id != reviewee.id:
        raise Unprocessable("a self review is written by the reviewee.")
    if kind == "manager" and reviewer.id != reviewee.manager_id:
        raise Unprocessable(f"{reviewee.name}'s manager review is written by their manager "
                            f"({reviewee.manager_email or 'none on file'}), not {reviewer.email}.")
    if kind == "peer" and reviewer.id in (reviewee.id, reviewee.manager_id):
        raise Unprocessable("a peer review is written by a colleague other than the reviewee and their manager.")


def goal_status(goal: Goal, progress: Optional[int], status: Optional[str]) -> tuple[int, str]:
    """The goal's (progress, status) after an update: 100% is achieved, and achieved needs 100%."""
    if goal.status == "achieved":
        raise Conflict(f"goal {goal.id} is already achieved; it takes no more updates.")
    p = goal.progress if progress is None else progress
    if status == "achieved" and p < 100:
        raise Unprocessable(f"goal {goal.id} is at {p}%; a goal is achieved only at 100% progress.")
    if p == 100:
        return p, "achieved"
    if status is None:
        status = goal.status if goal.status != "not_started" or p == 0 else "on_track"
    if status == "not_started" and p > 0:
        raise Unprocessable("a goal with progress is on_track or off_track, not not_started.")
    return p, status
