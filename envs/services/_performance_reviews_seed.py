"""Seed data of the performance reviews service: the workforce roster in Lattice.

Every roster employee is a user with their real manager. The current cycle
is open: each employee below the CEO has a self review and a manager review
written by their actual manager (a few submitted with a rating, some drafts,
most not started) and some peer reviews; last half-year's cycle is closed
with every review submitted. Goals belong to roster employees, in every
status, with check-ins; a little feedback was given.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._blocks import day_start, seed_id
from compoworld_gym.envs.services._performance_reviews_models import (
    Feedback, Goal, GoalUpdate, PerformanceReviewsState, Review, ReviewCycle, User,
)
from compoworld_gym.envs.services._workforce import Person

LABELS5 = ["Needs improvement", "Partially meets", "Meets expectations", "Exceeds expectations", "Outstanding"]
_GOALS = ("Cut average ticket resolution time by 20%", "Ship the quarterly close checklist", "Mentor a new hire",
          "Reduce invoice disputes below 2%", "Automate the weekly dispatch report", "Complete security training",
          "Launch the customer health dashboard", "Document the on-call runbook")
_COMMENTS = ("Consistently delivers on commitments and helps the team.", "Strong quarter; owned two key projects.",
             "Solid work; should delegate more.", "Great collaborator across departments.")


def user_of(p: Person, people: dict[str, Person]) -> User:
    """The Lattice user for roster person ``p``."""
    boss = people.get(p.manager_id) if p.manager_id else None
    return User(id=p.employee_id, name=p.name, email=p.email, title=p.title, department=p.department,
                manager_id=p.manager_id, manager_email=boss.email if boss else None)


def _review(state: PerformanceReviewsState, cycle: str, reviewee: User, reviewer: User, kind: str) -> Review:
    r = Review(id=seed_id(state, "PRV"), cycle_id=cycle, reviewee_id=reviewee.id, reviewee_name=reviewee.name,
               reviewee_email=reviewee.email, reviewer_id=reviewer.id, reviewer_name=reviewer.name,
               reviewer_email=reviewer.email, review_type=kind, status="not_started")
    state.reviews[r.id] = r
    return r


def seed_reviews(roster: tuple[Person, ...], rng: random.Random, today: dt.date) -> PerformanceReviewsState:
    """The seeded state for ``roster`` (the workforce roster of the same seed)."""
    state = PerformanceReviewsState()
    people = {p.employee_id: p for p in roster}
    for p in roster:
        state.users[p.employee_id] = user_of(p, people)
    users = state.users
    past = ReviewCycle(id=seed_id(state, "RC"), name=f"H1 {today.year - 1 if today.month < 7 else today.year} "
                       "Performance Review", phase="closed", rating_scale_max=5, rating_labels=LABELS5,
                       review_types=["self", "manager"], start_date=today - dt.timedelta(days=200),
                       due_date=today - dt.timedelta(days=170))
    now = ReviewCycle(id=seed_id(state, "RC"), name=f"H2 {today.year - 1 if today.month < 7 else today.year} "
                      "Performance Review", phase="open", rating_scale_max=5, rating_labels=LABELS5,
                      review_types=["self", "manager", "peer"], start_date=today - dt.timedelta(days=10),
                      due_date=today + dt.timedelta(days=21))
    draft = ReviewCycle(id=seed_id(state, "RC"), name="Engineering Mid-Year Check-in", phase="draft",
                        rating_scale_max=4, rating_labels=LABELS5[:2] + LABELS5[3:], review_types=["manager"],
                        start_date=today + dt.timedelta(days=30), due_date=today + dt.timedelta(days=60))
    for c in (past, now, draft):
        state.cycles[c.id] = c
    start = day_start(today)
    managed = [u for u in users.values() if u.manager_id]
    for n, u in enumerate(managed[:5]):  # last cycle: manager reviews, all submitted
        r = _review(state, past.id, u, users[u.manager_id], "manager")
        r.status, r.rating, r.comments = "submitted", rng.randint(2, 5), rng.choice(_COMMENTS)
        r.submitted_at = start - dt.timedelta(days=172, hours=n)
    for n, u in enumerate(managed[:7]):
        self_r = _review(state, now.id, u, u, "self")
        mgr = _review(state, now.id, u, users[u.manager_id], "manager")
        if n % 4 == 0:
            self_r.status, self_r.rating, self_r.comments = "submitted", rng.randint(3, 5), "I grew my scope this half."
            self_r.submitted_at = start - dt.timedelta(days=3, hours=n)
        if n % 5 == 1:
            mgr.status, mgr.rating, mgr.comments = "submitted", rng.randint(2, 5), rng.choice(_COMMENTS)
            mgr.submitted_at = start - dt.timedelta(days=2, hours=n)
        elif n % 5 == 2:
            mgr.status, mgr.comments = "in_progress", "Draft: strong delivery this half."
        if n % 6 == 3:
            peers = [x for x in managed if x.department == u.department and x.id != u.id]
            if peers:
                _review(state, now.id, u, peers[0], "peer")
    for n, name in enumerate(_GOALS):
        owner = managed[(n * 3) % len(managed)]
        progress = (0, 35, 60, 100, 20, 80, 45, 100)[n]
        status = "achieved" if progress == 100 else "not_started" if progress == 0 else (
            "off_track" if n % 3 == 1 else "on_track")
        g = Goal(id=seed_id(state, "GOAL"), name=name, owner_id=owner.id, owner_name=owner.name,
                 owner_email=owner.email, cycle_id=now.id, progress=progress, status=status,
                 due_date=today + dt.timedelta(days=(n - 2) * 15), description=f"{name} ({owner.department}).")
        if progress:
            g.updates.append(GoalUpdate(at=start - dt.timedelta(days=8 - n), author_email=owner.email,
                                        progress=progress, status=status, comment="Check-in."))
        state.goals[g.id] = g
    for n in range(6):
        giver, to = managed[n], managed[(n + 5) % len(managed)]
        fb = Feedback(id=seed_id(state, "FB"), giver_email=giver.email, recipient_email=to.email,
                      body=rng.choice(_COMMENTS), visibility=("private", "manager", "public")[n % 3],
                      created_at=start - dt.timedelta(days=n + 1, hours=2))
        state.feedback[fb.id] = fb
    return state
