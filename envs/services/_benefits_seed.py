"""Seed factory of the benefits service.

The employees are the shared ``_workforce`` roster (same ids, names and work
emails as hr_directory and payroll), plus the recruiting service's hired
candidates as new hires (their personal email is the one recruiting and
background checks know, their hire date the accepted offer's start date).
Eight of them have dependents; the current plan year's elections were made
in last November's open enrollment; two life events are in their special
enrollment period, one has expired, one was processed months ago.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._benefits_models import (
    BenefitsEmployee, BenefitsGroup, BenefitsState, Dependent, Enrollment, LifeEvent,
)
from compoworld_gym.envs.services._benefits_rules import (
    PLANS, deduction, end_of_month, first_of_next_month, rate_of, tier_for,
)
from compoworld_gym.envs.services._blocks import seed_id
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.envs.services._recruiting_models import RecruitingState
from compoworld_gym.envs.services._workforce import Person

#: The employer's name on the benefits group.
EMPLOYER = "Company Example Inc."
#: First employee number of new hires not yet in the HR directory (EMP-0051...).
NEW_HIRE_IDS = 51
#: Dependents per family profile, in the order the profiles are dealt out.
_PROFILES: tuple[tuple[str, ...], ...] = (
    ("spouse", "child", "child"), ("spouse",), ("child",), ("domestic_partner", "child"), ("spouse",),
    ("spouse",), ("spouse", "child"), ("spouse",),
)
#: (profile index, event type, days since the event, days since reported, processed).
_EVENTS = ((5, "marriage", 12, 5, False), (6, "birth", 20, 18, False), (7, "loss_of_coverage", 40, 38, False),
           (1, "marriage", 200, 190, True))


def group_for(today: dt.date) -> BenefitsGroup:
    """The calendar-year group; open enrollment is November 1-30 before the plan year."""
    start = dt.date(today.year, 1, 1)
    return BenefitsGroup(id="GRP-0001", name=EMPLOYER, plan_year_start=start, plan_year_end=dt.date(today.year, 12, 31),
                         open_enrollment_start=dt.date(today.year - 1, 11, 1),
                         open_enrollment_end=dt.date(today.year - 1, 11, 30), open_enrollment_effective_date=start,
                         pay_periods_per_year=24, new_hire_window_days=30, special_enrollment_days=30)


def elect(state: BenefitsState, eid: str, emp: str, plan_id: str, deps: list[Dependent], *, reason: str,
          effective: dt.date, life_event_id: str | None = None) -> Enrollment:
    """An active enrollment of ``emp`` in ``plan_id`` covering ``deps``, tier and costs by the rules."""
    plan = next(p for p in PLANS if p.id == plan_id)
    tier = "employee" if plan.line_of_coverage == "401k" else tier_for([d.relationship for d in deps])
    rate = rate_of(plan, tier)
    monthly, per_check = deduction(rate.monthly_premium, rate.employer_contribution,
                                   state.groups["GRP-0001"].pay_periods_per_year)
    enr = Enrollment(id=eid, employee_id=emp, plan_id=plan.id, line_of_coverage=plan.line_of_coverage, tier=tier,
                     dependent_ids=[d.id for d in deps] if plan.line_of_coverage != "401k" else [], status="active",
                     reason=reason, life_event_id=life_event_id, effective_date=effective,
                     monthly_premium=rate.monthly_premium, employer_contribution=rate.employer_contribution,
                     employee_monthly_deduction=monthly, deduction_per_paycheck=per_check)
    state.enrollments[eid] = enr
    return enr


def _dependents(state: BenefitsState, emp: BenefitsEmployee, kinds: tuple[str, ...], fake: Faker,
                rng: random.Random, today: dt.date) -> list[Dependent]:
    last = emp.name.split(" ")[-1]
    out = []
    for kind in kinds:
        age = rng.randint(28, 52) if kind != "child" else rng.randint(1, 17)
        born = today - dt.timedelta(days=365 * age + rng.randint(0, 360))
        first = fake.first_name()
        dep = Dependent(id=seed_id(state, "DEP"), employee_id=emp.id, first_name=first, last_name=last,
                        relationship=kind, date_of_birth=born)
        state.dependents[dep.id] = dep
        out.append(dep)
    return out


def seed_benefits(people: tuple[Person, ...], recruiting: RecruitingState, fake: Faker, rng: random.Random,
                  today: dt.date) -> BenefitsState:
    """Group, plans, roster employees and new hires, dependents, enrollments and life events.

    Args:
        people: the shared roster (see :func:`._workforce.roster`).
        recruiting: the recruiting service's seeded state for the same seed (its hires join as new hires).
        fake: seeded Faker (dependents' first names).
        rng: seeded random source (who has a family, plan choices, birthdays).
        today: the task's date.
    """
    state = BenefitsState(groups={"GRP-0001": group_for(today)}, plans={p.id: p.model_copy() for p in PLANS})
    group = state.groups["GRP-0001"]
    for p in people:
        state.employees[p.employee_id] = BenefitsEmployee(id=p.employee_id, name=p.name, email=p.email,
                                                          department=p.department, hire_date=p.start_date)
    _new_hires(state, recruiting)
    staff = [p.employee_id for p in people[2:]]
    families = rng.sample(staff, len(_PROFILES))
    singles = rng.sample([e for e in staff if e not in families], 4)
    deps: dict[str, list[Dependent]] = {}
    for eid, kinds in zip(families, _PROFILES):
        deps[eid] = _dependents(state, state.employees[eid], kinds, fake, rng, today)
    oe = group.open_enrollment_effective_date
    events = {families[k]: (kind, ago, told, done) for k, kind, ago, told, done in _EVENTS}
    for eid in [*families, *singles]:
        mine = deps.get(eid, [])
        pending = events.get(eid)
        # Dependents of a pending event are not covered yet: that change is the work to do.
        covered = mine if pending is None or pending[3] else mine[:-1]
        if pending is not None and pending[0] == "loss_of_coverage":
            covered = []  # the spouse had coverage elsewhere until it ended
        medical = elect(state, seed_id(state, "ENR"), eid, rng.choice(("PLN-0001", "PLN-0002", "PLN-0003")),
                        covered, reason="open_enrollment", effective=oe)
        if eid in families[:4] or eid == families[5]:
            elect(state, seed_id(state, "ENR"), eid, "PLN-0004", covered, reason="open_enrollment", effective=oe)
        if eid in families[:3:2]:
            elect(state, seed_id(state, "ENR"), eid, "PLN-0005", covered, reason="open_enrollment", effective=oe)
        if eid in singles[:3]:
            enr = elect(state, seed_id(state, "ENR"), eid, "PLN-0006", [], reason="open_enrollment", effective=oe)
            enr.contribution_pct = rng.choice((0.04, 0.06, 0.08))
        if pending is not None and not pending[3]:
            _event(state, eid, pending, mine, medical, group.special_enrollment_days, today)
    old = _history(state, families[1], deps[families[1]], today)
    _event(state, families[1], events[families[1]], deps[families[1]], old, group.special_enrollment_days, today)
    return state


def _new_hires(state: BenefitsState, recruiting: RecruitingState) -> None:
    """Recruiting's hires, as employees starting on their accepted offer's start date.

    They are numbered from :data:`NEW_HIRE_IDS` up: the HR directory and payroll do not have them
    yet and number the people they add from the roster's end, so the two ranges never meet.
    """
    roster_size, n = len(state.employees), NEW_HIRE_IDS - 1
    for app in recruiting.applications.values():
        offer = next((o for o in recruiting.offers.values() if o.application_id == app.id and o.status == "accepted"),
                     None)
        if app.status != "hired" or offer is None:
            continue
        n += 1
        job = recruiting.jobs[app.job_id]
        eid = f"EMP-{n:04d}"
        state.employees[eid] = BenefitsEmployee(id=eid, name=app.candidate_name,
                                                email=email_for(app.candidate_name, DOMAIN),
                                                personal_email=app.candidate_email, department=job.department,
                                                hire_date=offer.start_date)
    state.counters["EMP"] = roster_size + 1


def _event(state: BenefitsState, eid: str, spec: tuple, deps: list[Dependent], medical: Enrollment, window: int,
           today: dt.date) -> None:
    """The life event ``spec`` of ``eid`` (see :data:`_EVENTS`); a processed one changed ``medical``."""
    kind, ago, told, done = spec
    day = today - dt.timedelta(days=ago)
    qid = seed_id(state, "QLE")
    gained = [d.id for d in deps if d.relationship != "child"][:1] if kind == "marriage" else [deps[-1].id]
    if kind == "birth":
        state.dependents[deps[-1].id].date_of_birth = day  # the newborn
    ev = LifeEvent(id=qid, employee_id=eid, event_type=kind, event_date=day, reported_on=today - dt.timedelta(days=told),
                   special_enrollment_ends=day + dt.timedelta(days=window), dependent_ids=gained,
                   status="processed" if done else "pending", enrollment_ids=[medical.id] if done else [])
    if done:  # the spouse joined last plan year's coverage the month after the wedding
        medical.reason, medical.life_event_id = "qualifying_life_event", qid
        medical.effective_date = first_of_next_month(day)
    state.life_events[qid] = ev


def _history(state: BenefitsState, eid: str, deps: list[Dependent], today: dt.date) -> Enrollment:
    """Last plan year's medical coverage of one family, ended when they switched plans in open enrollment."""
    current = next(e for e in state.enrollments.values() if e.employee_id == eid and e.line_of_coverage == "medical")
    old_plan = next(p for p in ("PLN-0001", "PLN-0002") if p != current.plan_id)
    last_year = dt.date(today.year - 1, 1, 1)
    old = elect(state, seed_id(state, "ENR"), eid, old_plan, deps, reason="open_enrollment", effective=last_year)
    old.status, old.end_date = "terminated", end_of_month(dt.date(today.year - 1, 12, 1))
    return old
