"""State records of the payroll service: employees' compensation, pay runs, summaries, corrections.

Kept apart from the tools so that hooks and tests can build records without
importing the service; the pay arithmetic is in :mod:`._payroll_rules`.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id, Money, PersonName
from compoworld_gym.service import Record, ServiceState

RunStatus = Literal["draft", "approved", "paid"]
CorrectionKind = Literal["bonus", "reimbursement", "deduction", "adjustment"]


class PayEmployee(Record):
    """An employee on the payroll with their current compensation."""

    id: Id("employee") = Field(description="Employee id, e.g. EMP-0004.")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work email.")
    department: str = Field(description="Department name.")
    pay_type: Literal["salary", "hourly"] = Field(description="Salaried or paid by the hour.")
    annual_salary: Optional[Money] = Field(default=None, description="Yearly salary in USD (salaried staff).")
    hourly_rate: Optional[Money] = Field(default=None, description="USD per hour (hourly staff).")
    tax_state: Literal["CA", "NY", "TX", "IL"] = Field(description="US state whose income tax applies.")
    retirement_pct: float = Field(ge=0, le=0.2, description="Pre-tax 401(k) contribution as a fraction of gross.")
    bank_last4: str = Field(description="Last four digits of the deposit account.")


class PaySummary(Record):
    """One employee's pay in one run, in USD."""

    employee_id: Id("employee") = Field(description="Whose pay.")
    hours: float = Field(ge=0, description="Hours paid (hourly staff; salaried show standard hours).")
    base_pay: Money = Field(description="Salary share or hours * rate.")
    extra_pay: Money = Field(default=0.0, description="Bonuses and adjustments (taxable).")
    gross_pay: Money = Field(description="base_pay + extra_pay.")
    retirement: Money = Field(description="Pre-tax 401(k) contribution.")
    federal_tax: Money = Field(description="12% of (gross - retirement).")
    state_tax: Money = Field(description="State rate * (gross - retirement).")
    fica: Money = Field(description="7.65% of gross.")
    reimbursements: Money = Field(default=0.0, description="Non-taxable reimbursements added to net.")
    deductions: Money = Field(default=0.0, description="Post-tax deductions taken from net.")
    net_pay: Money = Field(description="What is deposited.")


class PayRun(Record):
    """A payroll for one semimonthly pay period."""

    id: Id("payroll") = Field(description="Payroll id, e.g. PAY-0003.")
    period_start: Date = Field(description="First day of the pay period.")
    period_end: Date = Field(description="Last day of the pay period.")
    pay_date: Date = Field(description="Check date: when the money is deposited.")
    status: RunStatus = Field(description="draft (editable), approved or paid (final).")
    approved_by: Optional[Email] = Field(default=None, description="Finance approver, once approved.")
    summaries: dict[str, PaySummary] = Field(default_factory=dict, description="Pay summaries by employee id.")


class Correction(Record):
    """An audited change to one employee's pay in a draft run."""

    id: str = Field(description="Correction id, e.g. COR-0002.")
    payroll_id: Id("payroll") = Field(description="The run it changes.")
    employee_id: Id("employee") = Field(description="Whose pay it changes.")
    kind: CorrectionKind = Field(description="bonus, reimbursement, deduction or adjustment.")
    amount: Money = Field(description="USD; adjustments may be negative, the others are positive.")
    note: str = Field(description="Audit note: why the correction was made.")
    author_email: Email = Field(description="Who made it.")
    created_at: DateTime = Field(description="When (logical clock).")
    reversed: bool = Field(default=False, description="True once reversed.")


class PayrollState(ServiceState):
    """Employees, pay runs and corrections."""

    employees: dict[str, PayEmployee] = Field(default_factory=dict, description="Employees by id.")
    runs: dict[str, PayRun] = Field(default_factory=dict, description="Pay runs by id.")
    corrections: dict[str, Correction] = Field(default_factory=dict, description="Corrections by id.")
