"""Benefits: employee benefits enrollment, dependents and qualifying life events.

No benefits server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Noyo Fulfillment API
(a *group* with its plan year and open enrollment window, group *plans* by
``line_of_coverage``, *employees*, *dependents* with a ``relationship``,
enrollment tiers ``employee`` / ``employee_spouse`` / ``employee_children``
/ ``family``, and member requests of the kinds ``new_hire``,
``open_enrollment`` and ``qualifying_life_event``) and the Gusto Benefits
API (``employee_benefits`` with ``employee_deduction`` and
``company_contribution``, here per month and per paycheck).

Rules of the real products (see :mod:`._benefits_rules`): outside open
enrollment an election needs the 30-day new-hire window or a qualifying life
event (marriage, birth, adoption, loss of coverage) reported within 30 days
of the event, whose 30-day special enrollment period is still running;
dependents must fit the tier and belong to the employee (children under 26);
one active enrollment per line of coverage; the payroll deduction is the
premium less the employer's share. Left out: carrier EDI feeds, beneficiary
designations, COBRA and evidence of insurability.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id
from compoworld_gym.envs.services._benefits_models import (
    BenefitPlan, BenefitsEmployee, BenefitsState, Dependent, EnrollmentReason, Enrollment, EnrollmentStatus,
    EventStatus, EventType, LifeEvent, LineOfCoverage, Relationship, Tier,
)
from compoworld_gym.envs.services._benefits_rules import (
    CHILD_AGE_LIMIT, age_on, check_election, check_window, deduction, eligible_dependents, end_of_month,
    in_open_enrollment, new_hire_ends, rate_of,
)
from compoworld_gym.envs.services._benefits_seed import seed_benefits
from compoworld_gym.envs.services._blocks import eq, select
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._workforce import roster
from compoworld_gym.envs.services.recruiting import Recruiting
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Service, tool

_LIMIT = Field(default=50, ge=1, le=200)
_FAKE = Faker("en_US")


class Benefits(Service):
    """Noyo/Gusto-style benefits administration: plans, dependents, enrollments, life events."""

    name = "benefits"
    description = ("Employee benefits: medical, dental, vision and 401(k) plans with tiered premiums, dependents, "
                   "enrollments with payroll deductions, open enrollment and qualifying life events.")
    domain = "hr"
    spec_source = None
    State = BenefitsState

    # ---------------------------------------------------------------- helpers
    @property
    def _group(self):
        return next(iter(self.state.groups.values()))

    def _employee(self, employee_id: str) -> BenefitsEmployee:
        return self.lookup(self.state.employees, employee_id, "employee")

    def _plan(self, plan_id: str) -> BenefitPlan:
        return self.lookup(self.state.plans, plan_id, "plan")

    def _enrollment(self, enrollment_id: str) -> Enrollment:
        return self.lookup(self.state.enrollments, enrollment_id, "enrollment")

    def _event(self, life_event_id: Optional[str]) -> Optional[LifeEvent]:
        return None if life_event_id is None else self.lookup(self.state.life_events, life_event_id, "life event")

    def _active(self, employee_id: str) -> list[Enrollment]:
        return [e for e in self.state.enrollments.values() if e.employee_id == employee_id and e.status == "active"]

    def _deps(self, emp: BenefitsEmployee, ids: list[str]) -> list[Dependent]:
        return eligible_dependents(self.state.dependents, emp.id, ids, self.today)

    def _event_view(self, ev: LifeEvent) -> dict:
        return {**ev.model_dump(), "employee_email": self._employee(ev.employee_id).email,
                "window_open": self.today <= ev.special_enrollment_ends}

    def _price(self, enr: Enrollment, plan: BenefitPlan, tier: str) -> None:
        rate = rate_of(plan, tier)
        enr.monthly_premium, enr.employer_contribution = rate.monthly_premium, rate.employer_contribution
        enr.employee_monthly_deduction, enr.deduction_per_paycheck = deduction(
            rate.monthly_premium, rate.employer_contribution, self._group.pay_periods_per_year)

    def _elect(self, emp: BenefitsEmployee, plan: BenefitPlan, tier: str, deps: list[Dependent], reason: str,
               event: Optional[LifeEvent], before: list[str], contribution_pct: Optional[float]) -> dt.date:
        return check_election(self._group, emp, plan, tier, deps, reason, event, before, contribution_pct, self.today)

    @staticmethod
    def _processed(event: Optional[LifeEvent], enr: Enrollment) -> None:
        if event is not None:
            event.status = "processed"
            if enr.id not in event.enrollment_ids:
                event.enrollment_ids.append(enr.id)

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def get_group(self) -> dict:
        """The benefits group: plan year, open enrollment window (and whether it is open today), paychecks a year."""
        g = self._group
        return {**g.model_dump(), "open_enrollment_active": in_open_enrollment(g, self.today)}

    @tool(read_only=True, returns=list[BenefitPlan])
    def list_plans(self, line_of_coverage: Optional[LineOfCoverage] = None) -> list[dict]:
        """The group's plans with their monthly premium and employer contribution per tier (USD).

        Args:
            line_of_coverage: medical, dental, vision or 401k.
        """
        return [p.model_dump() for p in select(self.state.plans.values(), eq("line_of_coverage", line_of_coverage))]

    @tool(read_only=True, returns=BenefitPlan)
    def get_plan(self, plan_id: Id("benefit_plan")) -> dict:
        """Get one plan.

        Args:
            plan_id: the plan id, e.g. PLN-0002.
        """
        return self._plan(plan_id).model_dump()

    @tool(read_only=True, returns=list[BenefitsEmployee])
    def list_employees(self, email: Optional[Email] = None, department: Optional[str] = None,
                       employment_status: Optional[Literal["active", "terminated"]] = None, limit: int = _LIMIT) -> list[dict]:
        """Employees, found by work or personal email, department or employment status.

        Args:
            email: work or personal email (case-insensitive).
            department: department name.
            employment_status: active or terminated.
            limit: maximum number of employees (1-200).
        """
        wanted = email.lower() if email else None
        rows = [e for e in self.state.employees.values()
                if (wanted is None or wanted in (e.email.lower(), (e.personal_email or "").lower()))
                and (department is None or e.department.lower() == department.lower())
                and (employment_status is None or e.employment_status == employment_status)]
        return [e.model_dump() for e in rows[:limit]]

    @tool(read_only=True, returns=BenefitsEmployee)
    def get_employee(self, employee_id: Id("employee")) -> dict:
        """An employee with their dependents, active enrollments, per-paycheck deduction total and open windows.

        Args:
            employee_id: the employee id, e.g. EMP-0007.
        """
        emp, g = self._employee(employee_id), self._group
        active = self._active(emp.id)
        events = [self._event_view(ev) for ev in self.state.life_events.values()
                  if ev.employee_id == emp.id and self.today <= ev.special_enrollment_ends]
        return {**emp.model_dump(), "dependents": [d.model_dump() for d in self.state.dependents.values()
                                                    if d.employee_id == emp.id],
                "enrollments": [e.model_dump() for e in active],
                "total_deduction_per_paycheck": money(sum(e.deduction_per_paycheck for e in active)),
                "new_hire_window_ends": new_hire_ends(g, emp), "open_life_events": events}

    @tool(read_only=True, returns=list[Dependent])
    def list_dependents(self, employee_id: Id("employee")) -> list[dict]:
        """An employee's dependents.

        Args:
            employee_id: the employee.
        """
        emp = self._employee(employee_id)
        return [d.model_dump() for d in self.state.dependents.values() if d.employee_id == emp.id]

    @tool(read_only=True, returns=list[Enrollment])
    def list_enrollments(self, employee_id: Optional[Id("employee")] = None,
                         line_of_coverage: Optional[LineOfCoverage] = None,
                         status: Optional[EnrollmentStatus] = None, plan_id: Optional[Id("benefit_plan")] = None,
                         limit: int = _LIMIT) -> list[dict]:
        """Enrollments, filtered by employee, line of coverage, status or plan.

        Args:
            employee_id: the covered employee.
            line_of_coverage: medical, dental, vision or 401k.
            status: active or terminated.
            plan_id: the plan.
            limit: maximum number of enrollments (1-200).
        """
        rows = select(self.state.enrollments.values(), eq("employee_id", employee_id),
                      eq("line_of_coverage", line_of_coverage), eq("status", status), eq("plan_id", plan_id),
                      limit=limit)
        return [e.model_dump() for e in rows]

    @tool(read_only=True, returns=Enrollment)
    def get_enrollment(self, enrollment_id: Id("benefit_enrollment")) -> dict:
        """Get one enrollment with its tier, covered dependents, deductions and the employee's work email.

        Args:
            enrollment_id: the enrollment id, e.g. ENR-0004.
        """
        enr = self._enrollment(enrollment_id)
        return {**enr.model_dump(), "employee_email": self._employee(enr.employee_id).email}

    @tool(read_only=True, returns=list[LifeEvent])
    def list_life_events(self, employee_id: Optional[Id("employee")] = None, status: Optional[EventStatus] = None,
                         event_type: Optional[EventType] = None) -> list[dict]:
        """Reported qualifying life events, with whether their special enrollment window is still open.

        Args:
            employee_id: the employee.
            status: pending or processed.
            event_type: marriage, birth, adoption or loss_of_coverage.
        """
        rows = select(self.state.life_events.values(), eq("employee_id", employee_id), eq("status", status),
                      eq("event_type", event_type))
        return [self._event_view(ev) for ev in rows]

    @tool(read_only=True, returns=LifeEvent)
    def get_life_event(self, life_event_id: Id("life_event")) -> dict:
        """Get one life event.

        Args:
            life_event_id: the life event id, e.g. QLE-0002.
        """
        return self._event_view(self._event(life_event_id))

    @tool(read_only=True)
    def get_payroll_deductions(self, employee_id: Id("employee")) -> dict:
        """The benefit deductions payroll takes from each paycheck of an employee (USD), per enrollment and in total.

        Args:
            employee_id: the employee.
        """
        emp = self._employee(employee_id)
        rows = [{"enrollment_id": e.id, "plan_id": e.plan_id, "line_of_coverage": e.line_of_coverage, "tier": e.tier,
                 "deduction_per_paycheck": e.deduction_per_paycheck, "contribution_pct": e.contribution_pct}
                for e in self._active(emp.id)]
        return {"employee_id": emp.id, "pay_periods_per_year": self._group.pay_periods_per_year, "deductions": rows,
                "total_per_paycheck": money(sum(r["deduction_per_paycheck"] for r in rows))}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Dependent)
    def add_dependent(self, employee_id: Id("employee"), first_name: str = Field(min_length=1, max_length=60),
                      last_name: str = Field(min_length=1, max_length=60), relationship: Relationship = "child",
                      date_of_birth: Date = Field(description="YYYY-MM-DD")) -> dict:
        """Add a dependent to an employee's record (it is covered only once added to an enrollment).

        Args:
            employee_id: the employee.
            first_name: dependent's first name.
            last_name: dependent's last name.
            relationship: spouse, domestic_partner or child (an employee has at most one spouse or partner).
            date_of_birth: date of birth, not in the future; a child must be under 26.
        """
        emp = self._employee(employee_id)
        if date_of_birth > self.today:
            raise Unprocessable(f"date_of_birth {date_of_birth} is in the future.")
        if relationship == "child" and age_on(date_of_birth, self.today) >= CHILD_AGE_LIMIT:
            raise Unprocessable(f"a child dependent must be under {CHILD_AGE_LIMIT}.")
        if relationship != "child" and any(d.employee_id == emp.id and d.relationship != "child"
                                           for d in self.state.dependents.values()):
            raise Conflict(f"employee {emp.id} already has a spouse or domestic partner on file.")
        dep = Dependent(id=self.new_id("DEP"), employee_id=emp.id, first_name=first_name, last_name=last_name,
                        relationship=relationship, date_of_birth=date_of_birth)
        self.state.dependents[dep.id] = dep
        return dep.model_dump()

    @tool(read_only=False, returns=LifeEvent)
    def report_life_event(self, employee_id: Id("employee"), event_type: EventType, event_date: Date,
                          dependent_ids: list[str] = Field(default_factory=list, max_length=10)) -> dict:
        """Report a qualifying life event; it opens a special enrollment period of 30 days from the event date.

        Args:
            employee_id: the employee.
            event_type: marriage, birth, adoption or loss_of_coverage.
            event_date: the day it happened: not in the future, at most 30 days ago.
            dependent_ids: the employee's dependents gained by the event (add them with add_dependent first).
        """
        emp, g = self._employee(employee_id), self._group
        if event_date > self.today:
            raise Unprocessable(f"event_date {event_date} is in the future; report an event once it happened.")
        ends = event_date + dt.timedelta(days=g.special_enrollment_days)
        if ends < self.today:
            raise Unprocessable(f"a {event_type} on {event_date} must be reported within {g.special_enrollment_days} "
                                f"days; its special enrollment period ended on {ends}.")
        self._deps(emp, dependent_ids)
        if any(ev.employee_id == emp.id and ev.event_type == event_type and ev.event_date == event_date
               for ev in self.state.life_events.values()):
            raise Conflict(f"a {event_type} on {event_date} is already reported for {emp.id}.")
        ev = LifeEvent(id=self.new_id("QLE"), employee_id=emp.id, event_type=event_type, event_date=event_date,
                       reported_on=self.today, special_enrollment_ends=ends, dependent_ids=list(dict.fromkeys(dependent_ids)))
        self.state.life_events[ev.id] = ev
        return self._event_view(ev)

    @tool(read_only=False, returns=Enrollment)
    def create_enrollment(self, employee_id: Id("employee"), plan_id: Id("benefit_plan"), tier: Tier,
                          reason: EnrollmentReason, dependent_ids: list[str] = Field(default_factory=list, max_length=10),
                          life_event_id: Optional[Id("life_event")] = None,
                          contribution_pct: Optional[float] = Field(default=None, ge=0.01, le=0.5)) -> dict:
        """Enroll an employee in a plan; the deduction is the tier's premium less the employer share.

        Needs a window: open enrollment, the 30-day new-hire window, or a qualifying
        life event of the employee still in its special enrollment period (422 otherwise).

        Args:
            employee_id: an active employee with no active enrollment in the plan's line of coverage.
            plan_id: the plan.
            tier: employee, employee_spouse, employee_children or family (must fit the dependents).
            reason: open_enrollment, new_hire or qualifying_life_event.
            dependent_ids: the employee's dependents to cover.
            life_event_id: the event, for reason qualifying_life_event.
            contribution_pct: 401(k) deferral as a fraction of pay (401k plans only), e.g. 0.05.
        """
        emp, plan, event = self._employee(employee_id), self._plan(plan_id), self._event(life_event_id)
        deps = self._deps(emp, dependent_ids)
        if any(e.line_of_coverage == plan.line_of_coverage for e in self._active(emp.id)):
            raise Conflict(f"employee {emp.id} already has active {plan.line_of_coverage} coverage; change it with "
                           "update_enrollment.")
        effective = self._elect(emp, plan, tier, deps, reason, event, [], contribution_pct)
        enr = Enrollment(id=self.new_id("ENR"), employee_id=emp.id, plan_id=plan.id,
                         line_of_coverage=plan.line_of_coverage, tier=tier, dependent_ids=[d.id for d in deps],
                         status="active", reason=reason, life_event_id=life_event_id, effective_date=effective,
                         monthly_premium=0.0, employer_contribution=0.0, employee_monthly_deduction=0.0,
                         deduction_per_paycheck=0.0, contribution_pct=contribution_pct, updated_at=self.now())
        self._price(enr, plan, tier)
        self._processed(event, enr)
        self.state.enrollments[enr.id] = enr
        return enr.model_dump()

    @tool(read_only=False, returns=Enrollment)
    def update_enrollment(self, enrollment_id: Id("benefit_enrollment"), reason: EnrollmentReason,
                          tier: Optional[Tier] = None, dependent_ids: Optional[list[str]] = Field(default=None,
                                                                                                  max_length=10),
                          plan_id: Optional[Id("benefit_plan")] = None, life_event_id: Optional[Id("life_event")] = None,
                          contribution_pct: Optional[float] = Field(default=None, ge=0.01, le=0.5)) -> dict:
        """Change an active enrollment's tier, covered dependents, plan (same line) or 401(k) deferral.

        Same windows as create_enrollment; a marriage may add a spouse or partner, a
        birth or adoption a child. Premium, employer share and deductions are recomputed.

        Args:
            enrollment_id: the active enrollment.
            reason: open_enrollment, new_hire or qualifying_life_event.
            tier: the new tier (default: unchanged); must fit the covered dependents.
            dependent_ids: the full list of dependents to cover (default: unchanged).
            plan_id: another plan of the same line of coverage (default: unchanged).
            life_event_id: the event, for reason qualifying_life_event.
            contribution_pct: new 401(k) deferral (401k only).
        """
        enr = self._enrollment(enrollment_id)
        if enr.status != "active":
            raise Conflict(f"enrollment {enr.id} is {enr.status}; create a new enrollment instead.")
        emp, event = self._employee(enr.employee_id), self._event(life_event_id)
        plan = self._plan(plan_id or enr.plan_id)
        if plan.line_of_coverage != enr.line_of_coverage:
            raise Unprocessable(f"plan {plan.id} is {plan.line_of_coverage}; enrollment {enr.id} is "
                                f"{enr.line_of_coverage}.")
        new_tier = tier or enr.tier
        deps = self._deps(emp, enr.dependent_ids if dependent_ids is None else dependent_ids)
        pct = enr.contribution_pct if contribution_pct is None else contribution_pct
        if (plan.id, new_tier, [d.id for d in deps], pct) == (enr.plan_id, enr.tier, enr.dependent_ids,
                                                               enr.contribution_pct):
            raise Conflict(f"enrollment {enr.id} already has that plan, tier and dependents.")
        effective = self._elect(emp, plan, new_tier, deps, reason, event, enr.dependent_ids, pct)
        enr.plan_id, enr.tier, enr.dependent_ids, enr.contribution_pct = plan.id, new_tier, [d.id for d in deps], pct
        enr.reason, enr.life_event_id, enr.effective_date, enr.updated_at = reason, life_event_id, effective, self.now()
        self._price(enr, plan, new_tier)
        self._processed(event, enr)
        return enr.model_dump()

    @tool(read_only=False, destructive=True, returns=Enrollment)
    def terminate_enrollment(self, enrollment_id: Id("benefit_enrollment"), reason: EnrollmentReason,
                             life_event_id: Optional[Id("life_event")] = None) -> dict:
        """End an active enrollment at the end of this month (same windows as a change; its deduction stops).

        Args:
            enrollment_id: the active enrollment.
            reason: open_enrollment, new_hire or qualifying_life_event.
            life_event_id: the event, for reason qualifying_life_event (e.g. coverage gained through a spouse).
        """
        enr = self._enrollment(enrollment_id)
        if enr.status != "active":
            raise Conflict(f"enrollment {enr.id} is already {enr.status}.")
        emp, event = self._employee(enr.employee_id), self._event(life_event_id)
        check_window(self._group, emp, reason, event, [], self.today)
        enr.status, enr.end_date, enr.updated_at = "terminated", end_of_month(self.today), self.now()
        self._processed(event, enr)
        return enr.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> BenefitsState:
        """The seeded state on the shared roster and recruiting's seeded hires for the same seed."""
        rng = random.Random(f"{cls.name}:{seed}")
        _FAKE.seed_instance(rng.getrandbits(32))
        return seed_benefits(roster(seed, today), Recruiting.seed_state(seed, today), _FAKE, rng, today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> BenefitsState:
        """A state on a roster and a recruiting pipeline drawn from the same stream (used without a seed number)."""
        people = roster(rng.randrange(2**31), today)
        return seed_benefits(people, Recruiting.build_seed_state(fake, rng, today), fake, rng, today)


__all__ = ["Benefits"]
