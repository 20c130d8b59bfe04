"""Records of the benefits service (Noyo Fulfillment API / Gusto Benefits API shapes).

Noyo's resources: a *group* (the employer's benefits account, with its plan
year and open enrollment window), *group plans* by ``line_of_coverage``,
*employees* and their *dependents*, and *member requests* of the kinds
``new_hire``, ``open_enrollment`` and ``qualifying_life_event``. Gusto's
``employee_benefits`` give each enrollment its ``employee_deduction`` and
``company_contribution``; here per month and per paycheck.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, DateTime, Email, Id, Money, PersonName
from compoworld_gym.service import Record, ServiceState

LineOfCoverage = Literal["medical", "dental", "vision", "401k"]
#: Noyo enrollment tiers (``enrollment_tier``), smallest first.
Tier = Literal["employee", "employee_spouse", "employee_children", "family"]
TIERS: tuple[str, ...] = ("employee", "employee_spouse", "employee_children", "family")
Relationship = Literal["spouse", "domestic_partner", "child"]
#: Noyo qualifying life event types that open a special enrollment period.
EventType = Literal["marriage", "birth", "adoption", "loss_of_coverage"]
EventStatus = Literal["pending", "processed"]
EnrollmentReason = Literal["open_enrollment", "new_hire", "qualifying_life_event"]
EnrollmentStatus = Literal["active", "terminated"]


class BenefitsGroup(Record):
    """The employer's benefits group: plan year and enrollment windows."""

    id: str = Field(description="Group id, e.g. GRP-0001.")
    name: CompanyName = Field(description="Employer's legal name.")
    plan_year_start: Date = Field(description="First day of the current plan year.")
    plan_year_end: Date = Field(description="Last day of the current plan year.")
    open_enrollment_start: Date = Field(description="First day of the annual open enrollment window.")
    open_enrollment_end: Date = Field(description="Last day of the open enrollment window.")
    open_enrollment_effective_date: Date = Field(description="When elections made in open enrollment take effect.")
    pay_periods_per_year: int = Field(ge=1, le=52, description="Paychecks a year (24: semimonthly payroll).")
    new_hire_window_days: int = Field(ge=1, description="Days after the hire date a new hire may enroll.")
    special_enrollment_days: int = Field(ge=1, description="Days after a qualifying life event changes may be made.")


class PlanRate(Record):
    """Monthly cost of one enrollment tier of a plan (USD)."""

    tier: Tier = Field(description="Enrollment tier.")
    monthly_premium: Money = Field(ge=0, description="Full monthly premium (USD).")
    employer_contribution: Money = Field(ge=0, description="Monthly share the employer pays (USD).")


class BenefitPlan(Record):
    """A group plan offered to employees."""

    id: Id("benefit_plan") = Field(description="Plan id, e.g. PLN-0001.")
    line_of_coverage: LineOfCoverage = Field(description="medical, dental, vision or 401k.")
    carrier_name: str = Field(description="Insurance carrier or plan provider.")
    plan_name: str = Field(description="Plan name as the carrier markets it.")
    plan_type: str = Field(description="PPO, HMO, HDHP, DPPO, safe-harbor 401(k)...")
    rates: list[PlanRate] = Field(default_factory=list, description="Monthly rates by tier (none for a 401(k)).")
    employer_match_pct: Optional[float] = Field(default=None, ge=0, le=0.2,
                                                description="401(k) employer match as a fraction of pay.")


class BenefitsEmployee(Record):
    """An employee (Noyo member) eligible for benefits."""

    id: Id("employee") = Field(description="Employee id, e.g. EMP-0004 (same as the HR directory).")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work email.")
    personal_email: Optional[Email] = Field(default=None, description="Personal email (new hires give it first).")
    department: str = Field(description="Department name.")
    hire_date: Date = Field(description="Date of hire (first working day).")
    employment_status: Literal["active", "terminated"] = Field(default="active", description="Employment status.")


class Dependent(Record):
    """A dependent of an employee (Noyo dependent)."""

    id: str = Field(description="Dependent id, e.g. DEP-0001.")
    employee_id: Id("employee") = Field(description="The employee the dependent belongs to.")
    first_name: str = Field(description="First name.")
    last_name: str = Field(description="Last name.")
    relationship: Relationship = Field(description="spouse, domestic_partner or child.")
    date_of_birth: Date = Field(description="Date of birth.")


class LifeEvent(Record):
    """A qualifying life event reported by an employee (opens a special enrollment period)."""

    id: Id("life_event") = Field(description="Life event id, e.g. QLE-0001.")
    employee_id: Id("employee") = Field(description="The employee.")
    event_type: EventType = Field(description="marriage, birth, adoption or loss_of_coverage.")
    event_date: Date = Field(description="Date of the event.")
    reported_on: Date = Field(description="Date the employee reported it.")
    special_enrollment_ends: Date = Field(description="Last day changes may be made under this event.")
    dependent_ids: list[str] = Field(default_factory=list, description="Dependents gained by the event.")
    status: EventStatus = Field(default="pending", description="pending, or processed once a change used it.")
    enrollment_ids: list[Id("benefit_enrollment")] = Field(default_factory=list,
                                                          description="Enrollments changed under this event.")


class Enrollment(Record):
    """An employee's coverage in one plan (Gusto employee benefit)."""

    id: Id("benefit_enrollment") = Field(description="Enrollment id, e.g. ENR-0001.")
    employee_id: Id("employee") = Field(description="The covered employee.")
    plan_id: Id("benefit_plan") = Field(description="The plan.")
    line_of_coverage: LineOfCoverage = Field(description="The plan's line of coverage.")
    tier: Tier = Field(description="Enrollment tier (a 401(k) is always employee).")
    dependent_ids: list[str] = Field(default_factory=list, description="Covered dependents.")
    status: EnrollmentStatus = Field(description="active or terminated.")
    reason: EnrollmentReason = Field(description="Window the last election was made in.")
    life_event_id: Optional[Id("life_event")] = Field(default=None, description="The event of a QLE change.")
    effective_date: Date = Field(description="When the current election took effect.")
    end_date: Optional[Date] = Field(default=None, description="Last day of coverage once terminated.")
    monthly_premium: Money = Field(ge=0, description="Full monthly premium of the tier (USD).")
    employer_contribution: Money = Field(ge=0, description="Monthly employer share (USD).")
    employee_monthly_deduction: Money = Field(ge=0, description="monthly_premium - employer_contribution (USD).")
    deduction_per_paycheck: Money = Field(ge=0, description="The monthly deduction spread over the paychecks.")
    contribution_pct: Optional[float] = Field(default=None, ge=0, le=0.5,
                                              description="401(k) deferral as a fraction of pay.")
    updated_at: Optional[DateTime] = Field(default=None, description="Last change through the API.")


class BenefitsState(ServiceState):
    """The group (one), plans, employees, dependents, life events and enrollments."""

    groups: dict[str, BenefitsGroup] = Field(default_factory=dict, description="The employer's benefits group by id.")
    plans: dict[str, BenefitPlan] = Field(default_factory=dict, description="Plans by id.")
    employees: dict[str, BenefitsEmployee] = Field(default_factory=dict, description="Employees by id.")
    dependents: dict[str, Dependent] = Field(default_factory=dict, description="Dependents by id.")
    life_events: dict[str, LifeEvent] = Field(default_factory=dict, description="Life events by id.")
    enrollments: dict[str, Enrollment] = Field(default_factory=dict, description="Enrollments by id.")
