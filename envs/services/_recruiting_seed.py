"""Seed data of the recruiting service: open requisitions and their pipelines."""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._blocks import fake_person, seed_id, stamp
from compoworld_gym.envs.services._company import OPS_EMAIL, STAFF, TEAMS
from compoworld_gym.envs.services._recruiting_models import (
    STAGES, Application, Candidate, Interview, Job, Offer, Opening, RecruitingState, Scorecard, StageMove,
)

#: (title, team key, hiring manager email) of the seeded jobs.
JOBS = (("Account Manager", "customer_success", "jamal.wright@company.example"),
        ("Billing Specialist", "billing", "priya.raman@company.example"),
        ("Site Reliability Engineer", "engineering", "ben.foster@company.example"),
        ("Logistics Coordinator", "logistics", "daniel.cho@company.example"),
        ("Accounts Payable Analyst", "finance", "elena.petrova@company.example"))
#: Recruiting is run from the operations mailbox.
RECRUITER = OPS_EMAIL
#: (job index, status, stage index) of the seeded applications.
_APPS = ((0, "active", 0), (0, "active", 2), (0, "active", 4), (0, "rejected", 1), (1, "active", 1),
         (1, "hired", 4), (1, "active", 3), (2, "active", 2), (2, "rejected", 3), (2, "active", 0),
         (3, "active", 1), (3, "active", 4), (4, "active", 0), (4, "rejected", 0))


def interviewers_for(team: str, manager: str) -> list[str]:
    """The hiring manager plus one other roster member (of the team if it has one)."""
    others = [s.email for s in STAFF if s.team == team and s.email != manager]
    return [manager, others[0] if others else "luis.ortega@company.example"]


def _jobs(state: RecruitingState, today: dt.date) -> None:
    for n, (title, team, manager) in enumerate(JOBS):
        jid = seed_id(state, "REQ")
        openings = [Opening(opening_id=seed_id(state, "OPN"), status="open") for _ in range(1 + n % 2)]
        state.jobs[jid] = Job(id=jid, name=title, department=TEAMS[team].name, office=("Boston", "Remote")[n % 2],
                              status="open", hiring_manager_email=manager, recruiter_email=RECRUITER,
                              openings=openings, opened_on=today - dt.timedelta(days=60 + 7 * n))


def _interviews(state: RecruitingState, app: Application, team: str, upto: int, rng: random.Random) -> None:
    """Completed interviews with scorecards for every stage from Phone Screen before ``upto``."""
    for k in range(1, min(upto, 4)):
        start = app.history[k].at + dt.timedelta(days=1)
        panel = interviewers_for(team, app.hiring_manager_email)
        cards = [Scorecard(interviewer_email=e, overall_recommendation=rng.choice(("yes", "strong_yes")),
                           notes="Clear communicator; solid examples.", submitted_at=start + dt.timedelta(hours=2))
                 for e in panel]
        iid = seed_id(state, "INT")
        state.interviews[iid] = Interview(id=iid, application_id=app.id, stage=STAGES[k], interviewers=panel,
                                          start=start, end=start + dt.timedelta(minutes=45), status="completed",
                                          scorecards=cards)


def build_seed(fake: Faker, rng: random.Random, today: dt.date) -> RecruitingState:
    """The seeded pipeline: 5 open jobs, 14 candidates with one application each, interviews and offers.

    Args:
        fake: the service's seeded Faker (candidate names, employers, phones).
        rng: the service's seeded random source.
        today: the task's date; every time is before 09:00 of it.
    """
    state = RecruitingState()
    _jobs(state, today)
    jobs = list(state.jobs.values())
    for n, (j, status, stage) in enumerate(_APPS):
        job, team = jobs[j], JOBS[j][1]
        person = fake_person(fake)
        first, last = person.name.split(" ", 1)
        cid = seed_id(state, "CAN")
        applied = stamp(today, 40 - 2 * n, rng)
        state.candidates[cid] = Candidate(id=cid, first_name=first, last_name=last, email=person.email,
                                          phone=fake.numerify("+1-###-555-####"), company=fake.company(),
                                          created_at=applied)
        app = Application(id=seed_id(state, "APP"), candidate_id=cid, candidate_name=person.name,
                          candidate_email=person.email, job_id=job.id, hiring_manager_email=job.hiring_manager_email,
                          status=status, current_stage=STAGES[stage], source=rng.choice(("Careers page", "Referral",
                                                                                          "LinkedIn")),
                          applied_at=applied,
                          history=[StageMove(stage=STAGES[k], at=applied + dt.timedelta(days=3 * k))
                                   for k in range(stage + 1)])
        state.applications[app.id] = app
        _interviews(state, app, team, stage, rng)
        if status == "rejected":
            app.rejected_at = app.history[-1].at + dt.timedelta(days=1)
            app.rejection_reason = "Lacking skill(s)/qualification(s)"
        if stage == 4:
            hired = status == "hired"
            made = app.history[-1].at + dt.timedelta(hours=3)
            oid = seed_id(state, "OFR")
            state.offers[oid] = Offer(id=oid, application_id=app.id, salary=float(rng.randint(60, 140) * 1000),
                                      start_date=today + dt.timedelta(days=rng.randint(14, 40)),
                                      status="accepted" if hired else "unresolved", created_at=made,
                                      resolved_at=made + dt.timedelta(days=1) if hired else None)
            if hired:
                app.hired_at, app.start_date = made + dt.timedelta(days=1), state.offers[oid].start_date
                job.openings[0].status, job.openings[0].application_id = "filled", app.id
    _pending(state, today)
    return state


def _pending(state: RecruitingState, today: dt.date) -> None:
    """One interview held yesterday still waiting for scorecards, and one booked for tomorrow."""
    for stage, days in (("Technical Interview", -1), ("Phone Screen", 1)):
        app = next(a for a in state.applications.values() if a.status == "active" and a.current_stage == stage)
        team = next(t for title, t, m in JOBS if m == app.hiring_manager_email)
        start = dt.datetime.combine(today + dt.timedelta(days=days), dt.time(14, 0))
        iid = seed_id(state, "INT")
        state.interviews[iid] = Interview(id=iid, application_id=app.id, stage=stage,
                                          interviewers=interviewers_for(team, app.hiring_manager_email), start=start,
                                          end=start + dt.timedelta(minutes=45), status="scheduled")
