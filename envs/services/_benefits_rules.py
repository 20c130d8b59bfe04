"""Pure rules of the benefits service: the plan catalog, tiers, windows and deductions.

* Dependents must fit the tier: ``employee`` covers nobody else,
  ``employee_spouse`` one spouse or domestic partner, ``employee_children``
  one or more children, ``family`` a spouse or partner and children.
* Outside open enrollment an election needs the new-hire window (30 days
  from the hire date) or a qualifying life event of the employee whose
  30-day special enrollment period is still running; a marriage may add a
  spouse or partner, a birth or adoption a child.
* The payroll deduction is the tier's monthly premium less the employer's
  contribution, spread over the group's paychecks (24 a year).

Example:
    >>> tier_problem("employee_spouse", ["child"])
    'tier employee_spouse covers exactly one spouse or domestic partner and no children; got 1 child(ren) and 0 spouse(s).'
    >>> deduction(640.0, 512.0, 24)
    (128.0, 64.0)
"""

from __future__ import annotations

import datetime as dt
from typing import Mapping, Optional, Sequence

from compoworld_gym.envs.services._benefits_models import (
    BenefitPlan, BenefitsEmployee, BenefitsGroup, Dependent, LifeEvent, PlanRate,
)
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.errors import Conflict, Unprocessable

#: Age at which a child stops being an eligible dependent (ACA).
CHILD_AGE_LIMIT = 26
#: Relationships each event type may add to coverage (loss of coverage: anyone).
EVENT_ADDS: dict[str, tuple[str, ...]] = {
    "marriage": ("spouse", "domestic_partner"), "birth": ("child",), "adoption": ("child",),
    "loss_of_coverage": ("spouse", "domestic_partner", "child"),
}
_SPOUSES = ("spouse", "domestic_partner")


def _rates(employee: float, spouse: float, children: float, family: float, share: float,
           dep_share: float) -> list[PlanRate]:
    """Rates where the employer pays ``share`` of the employee-only premium and ``dep_share`` of the rest."""
    base = money(employee * share)
    return [PlanRate(tier=t, monthly_premium=p, employer_contribution=money(base + (p - employee) * dep_share))
            for t, p in (("employee", employee), ("employee_spouse", spouse), ("employee_children", children),
                         ("family", family))]


#: The group's plans (ids PLN-0001...): one catalog for every seed.
PLANS: tuple[BenefitPlan, ...] = (
    BenefitPlan(id="PLN-0001", line_of_coverage="medical", carrier_name="Aetna", plan_name="Aetna Choice POS II 500",
                plan_type="PPO", rates=_rates(640.0, 1344.0, 1216.0, 1920.0, 0.8, 0.6)),
    BenefitPlan(id="PLN-0002", line_of_coverage="medical", carrier_name="Kaiser Permanente",
                plan_name="Kaiser Permanente Gold HMO 20", plan_type="HMO",
                rates=_rates(540.0, 1134.0, 1026.0, 1620.0, 0.9, 0.6)),
    BenefitPlan(id="PLN-0003", line_of_coverage="medical", carrier_name="Blue Shield of California",
                plan_name="Blue Shield Bronze HDHP 3000 HSA", plan_type="HDHP",
                rates=_rates(410.0, 861.0, 779.0, 1230.0, 1.0, 0.6)),
    BenefitPlan(id="PLN-0004", line_of_coverage="dental", carrier_name="Delta Dental", plan_name="Delta Dental PPO Plus",
                plan_type="DPPO", rates=_rates(42.5, 89.25, 102.0, 148.75, 1.0, 0.5)),
    BenefitPlan(id="PLN-0005", line_of_coverage="vision", carrier_name="VSP", plan_name="VSP Choice 130",
                plan_type="Vision", rates=_rates(9.8, 19.6, 20.58, 28.42, 1.0, 0.5)),
    BenefitPlan(id="PLN-0006", line_of_coverage="401k", carrier_name="Guideline", plan_name="Guideline Safe Harbor 401(k)",
                plan_type="Safe harbor 401(k)", employer_match_pct=0.04),
)


def rate_of(plan: BenefitPlan, tier: str) -> PlanRate:
    """The plan's rate for ``tier``; a 401(k) costs nothing in premiums.

    Raises:
        Unprocessable: 422 the plan does not offer the tier.
    """
    if plan.line_of_coverage == "401k":
        return PlanRate(tier="employee", monthly_premium=0.0, employer_contribution=0.0)
    for r in plan.rates:
        if r.tier == tier:
            return r
    raise Unprocessable(f"plan {plan.id} has no {tier} tier; it offers {', '.join(r.tier for r in plan.rates)}.")


def deduction(premium: float, employer: float, per_year: int) -> tuple[float, float]:
    """``(monthly deduction, deduction per paycheck)`` in USD: premium less the employer share."""
    monthly = money(max(premium - employer, 0.0))
    return monthly, money(monthly * 12 / per_year)


def tier_problem(tier: str, relationships: Sequence[str]) -> Optional[str]:
    """Why dependents of ``relationships`` do not fit ``tier``, or None when they do."""
    spouses = sum(r in _SPOUSES for r in relationships)
    children = sum(r == "child" for r in relationships)
    ok = {"employee": spouses == 0 and children == 0, "employee_spouse": spouses == 1 and children == 0,
          "employee_children": spouses == 0 and children >= 1, "family": spouses == 1 and children >= 1}[tier]
    if ok:
        return None
    need = {"employee": "no dependents", "employee_spouse": "exactly one spouse or domestic partner and no children",
            "employee_children": "one or more children and no spouse",
            "family": "one spouse or domestic partner and one or more children"}[tier]
    return f"tier {tier} covers {need}; got {children} child(ren) and {spouses} spouse(s)."


def tier_for(relationships: Sequence[str]) -> str:
    """The tier that fits dependents of ``relationships`` (see :func:`tier_problem`)."""
    spouse, child = any(r in _SPOUSES for r in relationships), "child" in relationships
    return "family" if spouse and child else "employee_spouse" if spouse else "employee_children" if child else "employee"


def age_on(born: dt.date, day: dt.date) -> int:
    """Whole years from ``born`` to ``day``."""
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def first_of_next_month(day: dt.date) -> dt.date:
    """The first day of the month after ``day``."""
    return (day.replace(day=28) + dt.timedelta(days=4)).replace(day=1)


def end_of_month(day: dt.date) -> dt.date:
    """The last day of ``day``'s month."""
    return first_of_next_month(day) - dt.timedelta(days=1)


def in_open_enrollment(group: BenefitsGroup, today: dt.date) -> bool:
    """Whether ``today`` lies in the group's open enrollment window."""
    return group.open_enrollment_start <= today <= group.open_enrollment_end


def new_hire_ends(group: BenefitsGroup, emp: BenefitsEmployee) -> dt.date:
    """Last day of the employee's new-hire enrollment window."""
    return emp.hire_date + dt.timedelta(days=group.new_hire_window_days)


def check_window(group: BenefitsGroup, emp: BenefitsEmployee, reason: str, event: Optional[LifeEvent],
                 added: Sequence[str], today: dt.date) -> dt.date:
    """Refuse an election outside its window; returns the date it takes effect.

    Args:
        group: the benefits group.
        emp: the employee making the election.
        reason: open_enrollment, new_hire or qualifying_life_event.
        event: the life event cited (qualifying_life_event only).
        added: relationships of the dependents the election adds to coverage.
        today: the task's date.

    Raises:
        Unprocessable: 422 the window is closed, the event is missing or not the
            employee's, or it cannot add dependents of that relationship.
        Conflict: 409 the employee is terminated.
    """
    if emp.employment_status != "active":
        raise Conflict(f"employee {emp.id} is {emp.employment_status}; only active employees can elect coverage.")
    if reason == "open_enrollment":
        if not in_open_enrollment(group, today):
            raise Unprocessable(
                f"open enrollment ran {group.open_enrollment_start} to {group.open_enrollment_end}; outside it a change "
                "needs a qualifying life event within 30 days (reason=qualifying_life_event with life_event_id) or "
                "the new-hire window.")
        return group.open_enrollment_effective_date
    if reason == "new_hire":
        ends = new_hire_ends(group, emp)
        if today > ends:
            raise Unprocessable(f"the new-hire window of {emp.id} (hired {emp.hire_date}) closed on {ends}; "
                                "cite a qualifying life event or wait for open enrollment.")
        return emp.hire_date if emp.hire_date.day == 1 else first_of_next_month(emp.hire_date)
    if event is None:
        raise Unprocessable("a qualifying_life_event change needs life_event_id (report the event first).")
    if event.employee_id != emp.id:
        raise Unprocessable(f"life event {event.id} belongs to {event.employee_id}, not {emp.id}.")
    if today > event.special_enrollment_ends:
        raise Unprocessable(f"the special enrollment period of life event {event.id} ({event.event_type} on "
                            f"{event.event_date}) ended on {event.special_enrollment_ends}.")
    wrong = sorted({r for r in added if r not in EVENT_ADDS[event.event_type]})
    if wrong:
        raise Unprocessable(f"a {event.event_type} event cannot add a {' or '.join(wrong)} to coverage; it may add "
                            f"{' or '.join(EVENT_ADDS[event.event_type])}.")
    if event.event_type in ("birth", "adoption"):
        return event.event_date
    return first_of_next_month(event.event_date)


def eligible_dependents(dependents: Mapping[str, Dependent], employee_id: str, ids: Sequence[str],
                        today: dt.date) -> list[Dependent]:
    """The dependents ``ids`` (repeats dropped), each the employee's own and, for a child, under 26.

    Raises:
        Unprocessable: 422 naming the first dependent that is not eligible.
    """
    out = []
    for did in dict.fromkeys(ids):
        dep = dependents.get(did)
        if dep is None or dep.employee_id != employee_id:
            raise Unprocessable(f"{did} is not a dependent of {employee_id}; see list_dependents.")
        if dep.relationship == "child" and age_on(dep.date_of_birth, today) >= CHILD_AGE_LIMIT:
            raise Unprocessable(f"dependent {did} is {age_on(dep.date_of_birth, today)}; children are covered until "
                                f"{CHILD_AGE_LIMIT}.")
        out.append(dep)
    return out


def check_election(group: BenefitsGroup, emp: BenefitsEmployee, plan: BenefitPlan, tier: str,
                   deps: Sequence[Dependent], reason: str, event: Optional[LifeEvent], before: Sequence[str],
                   contribution_pct: Optional[float], today: dt.date) -> dt.date:
    """Refuse an election the rules do not allow (401(k) shape, tier fit, window); returns its effective date.

    Args:
        before: ids of the dependents the enrollment covered until now (an election adds the others).

    Raises:
        Unprocessable: 422 naming the broken rule (see :func:`check_window` for the windows).
        Conflict: 409 the employee is not active.
    """
    if plan.line_of_coverage == "401k":
        if tier != "employee" or deps:
            raise Unprocessable("a 401(k) covers the employee only: tier employee, no dependents.")
        if contribution_pct is None:
            raise Unprocessable("a 401(k) election needs contribution_pct (e.g. 0.06 for 6% of pay).")
    elif contribution_pct is not None:
        raise Unprocessable("contribution_pct applies to a 401(k) plan only.")
    problem = tier_problem(tier, [d.relationship for d in deps])
    if problem:
        raise Unprocessable(problem)
    added = [d.relationship for d in deps if d.id not in before]
    return check_window(group, emp, reason, event, added, today)
