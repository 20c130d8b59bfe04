"""Seed factory of the background_checks service: the recruiting pipeline's late-stage candidates.

Each recruiting application past the phone screen has a Checkr candidate
with the same name and email and the application id as ``custom_id``; what
happened to its check depends on where the application stands, so the same
seed lines the two services up:

* hired: a clear report, engaged;
* at Offer: the first a clear report waiting to be engaged, the second a
  consider report whose pre-adverse notice went out 3 days ago;
* at Onsite: a consider report not yet adjudicated;
* rejected at Onsite: a consider report whose pre-adverse notice went out
  9 days ago (the waiting period is over);
* at Technical Interview: the first a report still running, the second an
  invitation not yet completed (no consent yet) after an expired one.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._background_checks_models import (
    INVITATION_DAYS, WAITING_DAYS, AdverseAction, BackgroundChecksState, Candidate, Invitation, Report, screenings_for,
)
from compoworld_gym.envs.services._blocks import day_start, seed_id
from compoworld_gym.envs.services._recruiting_models import RecruitingState

#: Jobs whose hires drive for work: they get the package with a motor vehicle report.
DRIVING_JOBS = ("Logistics Coordinator",)
_CONSIDER = {"basic": "national_criminal_search: Misdemeanor petty theft, 2017, Alameda County, CA",
             "pro": "motor_vehicle_report: License suspended 2024-03 for unpaid citations"}


def invitation_url(iid: str) -> str:
    """The hosted apply-flow link of invitation ``iid``."""
    return f"https://apply.checkr.com/invitations/{iid.lower()}"


def _scenario(status: str, stage: str, seen: dict[str, int]) -> str | None:
    key = f"{status}:{stage}"
    n = seen[key] = seen.get(key, 0) + 1
    table = {"hired:Offer": ("engaged",), "active:Offer": ("clear", "consider_waiting"), "active:Onsite": ("consider",),
             "rejected:Onsite": ("consider_ready",), "active:Technical Interview": ("pending", "invited")}
    options = table.get(key, ())
    return options[n - 1] if n <= len(options) else None


def build_state(recruiting: RecruitingState, fake: Faker, rng: random.Random, today: dt.date) -> BackgroundChecksState:
    """Candidates, invitations, reports and adverse actions for recruiting's late-stage applications.

    Args:
        recruiting: the recruiting service's seeded state for the same seed.
        fake: seeded Faker (ZIP codes, license numbers).
        rng: seeded random source (birthdays).
        today: the task's date.
    """
    state, seen = BackgroundChecksState(), {}
    start = day_start(today)
    for app in recruiting.applications.values():
        scenario = _scenario(app.status, app.current_stage, seen)
        if scenario is None:
            continue
        person = recruiting.candidates[app.candidate_id]
        package = "pro" if recruiting.jobs[app.job_id].name in DRIVING_JOBS else "basic"
        cid = seed_id(state, "CND")
        cand = Candidate(id=cid, first_name=person.first_name, last_name=person.last_name, email=person.email,
                         phone=person.phone, zipcode=fake.zipcode(),
                         dob=today - dt.timedelta(days=365 * rng.randint(23, 55) + rng.randint(0, 360)),
                         driver_license_number=fake.bothify("D#######") if package == "pro" else None,
                         driver_license_state="CA" if package == "pro" else None, custom_id=app.id,
                         created_at=start - dt.timedelta(days=14, hours=2))
        state.candidates[cid] = cand
        if scenario == "invited":
            _invite(state, cand, package, start - dt.timedelta(days=12), "expired")
            _invite(state, cand, package, start - dt.timedelta(days=2), "pending")
            continue
        _report(state, cand, package, scenario, start, today)
    return state


def _invite(state: BackgroundChecksState, cand: Candidate, package: str, sent: dt.datetime, status: str) -> Invitation:
    iid = seed_id(state, "IVT")
    inv = Invitation(id=iid, candidate_id=cand.id, package=package, status=status, invitation_url=invitation_url(iid),
                     created_at=sent, expires_at=sent.date() + dt.timedelta(days=INVITATION_DAYS),
                     completed_at=sent + dt.timedelta(hours=5) if status == "completed" else None)
    state.invitations[iid] = inv
    return inv


def _report(state: BackgroundChecksState, cand: Candidate, package: str, scenario: str, start: dt.datetime,
            today: dt.date) -> None:
    """A completed invitation (consent) and the report it started, per ``scenario``."""
    done_ago = {"engaged": 10, "clear": 2, "consider": 1, "consider_ready": 11, "consider_waiting": 4, "pending": 0}
    ordered = start - dt.timedelta(days=done_ago[scenario] + 3)
    inv = _invite(state, cand, package, ordered - dt.timedelta(days=1), "completed")
    cand.consent_given_at = ordered = inv.completed_at  # the apply flow orders the report on completion
    rid = seed_id(state, "RPT")
    inv.report_id = rid
    rep = Report(id=rid, candidate_id=cand.id, package=package, status="complete", created_at=ordered,
                 invitation_id=inv.id)
    if scenario == "pending":
        rep.status, rep.screenings = "pending", screenings_for(package, pending=True)
        rep.estimated_completion_date = today + dt.timedelta(days=2)
    else:
        consider = _CONSIDER[package] if scenario.startswith("consider") else None
        rep.screenings = screenings_for(package, consider)
        rep.result = "consider" if consider else "clear"
        rep.completed_at = start - dt.timedelta(days=done_ago[scenario], hours=-2)
    if scenario == "engaged":
        rep.adjudication = "engaged"
    state.reports[rid] = rep
    if scenario in ("consider_ready", "consider_waiting"):
        sent = start - dt.timedelta(days={"consider_ready": 9, "consider_waiting": 3}[scenario], hours=-4)
        aid = seed_id(state, "AA")
        state.adverse_actions[aid] = AdverseAction(
            id=aid, report_id=rid, status="pending", adverse_items=[_CONSIDER[package].split(": ", 1)[1]],
            pre_notice_sent_at=sent, post_notice_ready_at=sent.date() + dt.timedelta(days=WAITING_DAYS))
        rep.adjudication = "pre_adverse_action"
