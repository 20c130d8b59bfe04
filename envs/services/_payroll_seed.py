"""Seed factory of the payroll service: the shared roster on pay, five pay runs and corrections.

The people are the ``_workforce`` roster (same ids as ``hr_directory`` and
``leave``); summaries are computed with the service's own rules.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._payroll_models import Correction, PayEmployee, PayrollState, PayRun
from compoworld_gym.envs.services._payroll_rules import (
    APPROVER_DEPARTMENT, PAYDAY_LAG_DAYS, STANDARD_HOURS, cents, compute_summary)
from compoworld_gym.envs.services._workforce import OFFICES, Person


def seed_payroll(people: tuple[Person, ...], rng: random.Random, today: dt.date) -> PayrollState:
    """Compensation for the roster, the last five semimonthly runs (the current one a draft) and three
    audited corrections on recent runs.

    Args:
        people: the shared roster (see :func:`._workforce.roster`).
        rng: the seeded generator for retirement rates, bank digits, hours and corrected employees.
        today: the task's date; runs paid before it are ``paid``.
    """
    st = PayrollState()
    for p in people:
        st.employees[p.employee_id] = PayEmployee(
            id=p.employee_id, name=p.name, email=p.email, department=p.department,
            pay_type="hourly" if p.hourly else "salary", annual_salary=None if p.hourly else p.annual_salary,
            hourly_rate=cents(p.annual_salary / 2080) if p.hourly else None, tax_state=OFFICES[p.location][1],
            retirement_pct=rng.choice((0.0, 0.03, 0.05, 0.06)), bank_last4=f"{rng.randrange(10000):04d}")
    approver = next(p.email for p in people if p.department == APPROVER_DEPARTMENT)
    periods = _periods(today, 5)
    for n, (start, end) in enumerate(periods, start=1):
        pay = end + dt.timedelta(days=PAYDAY_LAG_DAYS)
        status = "draft" if n == len(periods) else ("paid" if pay < today else "approved")
        run = PayRun(id=f"PAY-{n:04d}", period_start=start, period_end=end, pay_date=pay, status=status,
                     approved_by=None if status == "draft" else approver)
        for e in st.employees.values():
            hours = cents(rng.uniform(70, 92)) if e.pay_type == "hourly" else STANDARD_HOURS
            run.summaries[e.id] = compute_summary(e, hours, [])
        st.runs[run.id] = run
    staff = list(st.employees)
    # The corrections are not folded into the summaries: the seed has always built them so (its recompute
    # ran on a revalidated copy of the state, which held no corrections yet), and folding them in would
    # change every seeded payroll. A correction made through the tools does recompute its summary.
    notes = [("bonus", 1500.0, "Q4 performance bonus approved by department head"),
             ("reimbursement", 245.8, "Client visit travel expenses, receipts on file"),
             ("deduction", 120.0, "Company laptop damage repayment, signed agreement")]
    for i, (kind, amount, note) in enumerate(notes):
        run = st.runs[f"PAY-{len(periods) - (1 if i < 2 else 0):04d}"]
        eid = staff[rng.randrange(2, len(staff))]
        c = Correction(id=f"COR-{i + 1:04d}", payroll_id=run.id, employee_id=eid, kind=kind, amount=amount,
                       note=note, author_email=approver,
                       created_at=dt.datetime.combine(min(run.period_end, today - dt.timedelta(days=1)), dt.time(16, 0)))
        st.corrections[c.id] = c
    st.counters["COR"] = len(notes) + 1
    return st


def _periods(today: dt.date, count: int) -> list[tuple[dt.date, dt.date]]:
    """The last ``count`` semimonthly periods, the one containing ``today`` last."""
    out: list[tuple[dt.date, dt.date]] = []
    d = today
    for _ in range(count):
        if d.day <= 15:
            start, end = d.replace(day=1), d.replace(day=15)
        else:
            start = d.replace(day=16)
            end = (d.replace(day=28) + dt.timedelta(days=4)).replace(day=1) - dt.timedelta(days=1)
        out.append((start, end))
        d = start - dt.timedelta(days=1)
    return out[::-1]
