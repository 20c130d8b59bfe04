"""Pay rules of the payroll service: the documented tax model and the pay arithmetic.

Pure functions of an employee's compensation, hours and corrections, so the
seed factory, the tools and the task hooks compute the same cents.
"""

from __future__ import annotations

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._payroll_models import Correction, PayEmployee, PayrollState, PayRun, PaySummary

FEDERAL_RATE, FICA_RATE = 0.12, 0.0765
STATE_RATE = {"CA": 0.06, "NY": 0.065, "TX": 0.0, "IL": 0.0495}
STANDARD_HOURS = 86.67  # hours in a semimonthly period of a 40-hour week
PAYDAY_LAG_DAYS = 5
APPROVER_DEPARTMENT = "Finance"


def cents(x: float) -> float:
    """``x`` USD rounded to cents."""
    return money(x)  # the suite's one rounding rule: half-up to cents, symmetric for negative amounts


def compute_summary(emp: PayEmployee, hours: float, corrections: list[Correction]) -> PaySummary:
    """Pay for one run: base (salary/24 or hours*rate) plus live corrections.

    Tax model: retirement = pct * gross (pre-tax); federal 12% and state rate
    on gross - retirement; FICA 7.65% of gross; net = gross - retirement -
    taxes + reimbursements - deductions. Every amount is rounded to cents.
    """
    base = cents(emp.annual_salary / 24) if emp.pay_type == "salary" else cents(hours * (emp.hourly_rate or 0.0))
    live = [c for c in corrections if not c.reversed]
    extra = cents(sum(c.amount for c in live if c.kind in ("bonus", "adjustment")))
    reimb = cents(sum(c.amount for c in live if c.kind == "reimbursement"))
    ded = cents(sum(c.amount for c in live if c.kind == "deduction"))
    gross = cents(base + extra)
    ret = cents(gross * emp.retirement_pct)
    fed, st = cents((gross - ret) * FEDERAL_RATE), cents((gross - ret) * STATE_RATE[emp.tax_state])
    fica = cents(gross * FICA_RATE)
    return PaySummary(employee_id=emp.id, hours=hours, base_pay=base, extra_pay=extra, gross_pay=gross,
                      retirement=ret, federal_tax=fed, state_tax=st, fica=fica, reimbursements=reimb,
                      deductions=ded, net_pay=cents(gross - ret - fed - st - fica + reimb - ded))


def run_totals(summaries: list[PaySummary]) -> dict:
    """Totals of a set of pay summaries: ``{"total_<amount>": USD, ..., "employees": count}``."""
    keys = ("gross_pay", "net_pay", "federal_tax", "state_tax", "fica", "retirement")
    return {f"total_{k}": cents(sum(getattr(s, k) for s in summaries)) for k in keys} | {"employees": len(summaries)}


def recompute_summary(state: PayrollState, run: PayRun, employee_id: str) -> PaySummary:
    """Recompute (and store in ``run``) one employee's summary from their corrections in ``state``."""
    emp = state.employees[employee_id]
    hours = run.summaries[employee_id].hours
    cors = [c for c in state.corrections.values() if c.payroll_id == run.id and c.employee_id == employee_id]
    run.summaries[employee_id] = compute_summary(emp, hours, cors)
    return run.summaries[employee_id]
