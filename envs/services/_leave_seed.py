"""Seed factory of the leave service: balances, holidays and requests for the shared roster.

The people are the ``_workforce`` roster (same ids as ``hr_directory`` and
``payroll``); seeded requests are charged with the same rules as new ones
(:mod:`._leave_rules`), so seeded balances are consistent with the tools.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._leave_models import Balance, LeaveEmployee, LeaveRequest, LeaveState
from compoworld_gym.envs.services._leave_rules import ALLOWANCE, company_holidays, pending_days, working_days
from compoworld_gym.envs.services._workforce import Person


def seed_leave(people: tuple[Person, ...], rng: random.Random, today: dt.date) -> LeaveState:
    """Employees with full balances, this and next year's holidays, and up to nine requests.

    Args:
        people: the shared roster (see :func:`._workforce.roster`).
        rng: the seeded generator that picks requesters and spans.
        today: the task's date; requests fall around it.
    """
    st = LeaveState()
    emails = {p.employee_id: p.email for p in people}
    for p in people:
        st.employees[p.employee_id] = LeaveEmployee(
            id=p.employee_id, name=p.name, email=p.email, department=p.department,
            manager_email=emails.get(p.manager_id or ""))
        for t, allowance in ALLOWANCE.items():
            st.balances[f"{p.employee_id}:{t}"] = Balance(
                employee_id=p.employee_id, leave_type=t, available=allowance, used=0.0)
    for y in (today.year, today.year + 1):
        for h in company_holidays(y):
            st.holidays[h.date.isoformat()] = h
    _plant_requests(st, people, emails, rng, today)
    return st


def _plant_requests(st: LeaveState, people: tuple[Person, ...], emails: dict[str, str], rng: random.Random,
                    today: dt.date) -> None:
    # Requests: past approved, upcoming approved, pending, denied; balances follow.
    plan = [("approved", -20, "vacation"), ("approved", -6, "sick"), ("approved", 12, "vacation"),
            ("approved", 26, "personal"), ("pending", 8, "vacation"), ("pending", 15, "personal"),
            ("pending", 33, "vacation"), ("denied", 19, "vacation"), ("pending", 40, "unpaid")]
    staff = [p for p in people if p.manager_id]
    for n, (status, offset, ltype) in enumerate(plan, start=1):
        p = staff[rng.randrange(len(staff))] if n > 3 else staff[n * 4 % len(staff)]
        start = today + dt.timedelta(days=offset)
        while start.weekday() >= 5:
            start += dt.timedelta(days=1)
        end = start + dt.timedelta(days=rng.choice((0, 1, 2, 4)) if ltype != "sick" else 1)
        if any(r.employee_id == p.employee_id and r.start_date <= end and start <= r.end_date
               for r in st.requests.values()):
            continue
        rid = f"LR-{n:04d}"
        days = working_days(start, end, st.holidays)
        b = st.balances.get(f"{p.employee_id}:{ltype}")
        if b is not None and days > b.available - pending_days(st.requests, p.employee_id, ltype):
            end, days = start, working_days(start, start, st.holidays)  # keep seeded balances non-negative
        if days == 0:
            continue  # a holiday-only span is no request at all
        st.requests[rid] = LeaveRequest(
            id=rid, employee_id=p.employee_id, employee_email=p.email, leave_type=ltype, start_date=start,
            end_date=end, days=days, status=status, requested_on=min(today, start) - dt.timedelta(days=7),
            reason={"vacation": "Family trip", "sick": "Flu", "personal": "Moving house",
                    "unpaid": "Extended travel"}[ltype],
            approver_email=emails.get(p.manager_id or "") if status in ("approved", "denied") else None,
            decision_note="Team coverage is too thin that week." if status == "denied" else "",
        )
        if status == "approved" and b is not None:
            b.available -= days
            b.used += days
    st.counters["LR"] = len(plan) + 1
