"""Payroll: semimonthly pay runs, per-employee pay summaries and audited corrections.

No payroll server is in ``compoworld_gym/data/mcp_servers.jsonl``; the interface is
designed the way Gusto's payroll API looks (payrolls with a pay period and
check date, per-employee compensations with gross pay, taxes, deductions and
net pay; payrolls are calculated as drafts, then approved, then paid). Rules:
paid and approved runs are final; corrections (bonus, reimbursement,
deduction, adjustment) go onto a draft run and always carry an audit note;
only Finance staff approve a run. Tax is a fixed, documented model (see
:func:`compute_summary`), not a real tax engine. People come from the shared
roster in ``_workforce`` (same ids as ``hr_directory`` and ``leave``).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Email, Id, Money
from compoworld_gym.envs.services._payroll_models import (
    Correction, CorrectionKind, PayEmployee, PayrollState, PayRun, PaySummary, RunStatus)
from compoworld_gym.envs.services._payroll_rules import (
    APPROVER_DEPARTMENT, cents, recompute_summary, run_totals)
from compoworld_gym.envs.services._payroll_seed import seed_payroll
from compoworld_gym.envs.services._workforce import roster
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound
from compoworld_gym.service import Service, tool


class Payroll(Service):
    """Pay runs and pay summaries per employee; corrections on draft runs with audit notes."""

    name = "payroll"
    description = "Payroll: semimonthly pay runs, employee pay summaries and year-to-date totals, audited corrections."
    domain = "hr"
    spec_source = None
    State = PayrollState

    # ---------------------------------------------------------------- helpers
    def _run(self, payroll_id: str) -> PayRun:
        return self.lookup(self.state.runs, payroll_id, "payroll")

    def _draft(self, payroll_id: str) -> PayRun:
        run = self._run(payroll_id)
        if run.status != "draft":
            drafts = [r.id for r in self.state.runs.values() if r.status == "draft"]
            raise Conflict(f"payroll {payroll_id} is {run.status} and final; make the change on the draft run "
                           f"({', '.join(drafts) or 'none open'}).")
        return run

    def _recompute(self, run: PayRun, employee_id: str) -> PaySummary:
        return recompute_summary(self.state, run, employee_id)

    def _summary(self, run: PayRun, employee_id: str) -> PaySummary:
        self.lookup(self.state.employees, employee_id, "employee")
        s = run.summaries.get(employee_id)
        if s is None:
            raise NotFound(f"employee {employee_id} was not paid in payroll {run.id}.")
        return s

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[PayRun])
    def list_pay_runs(
        self, status: Optional[RunStatus] = None, year: Optional[int] = Field(default=None, ge=2000, le=2100),
        limit: int = Field(default=24, ge=1, le=100),
    ) -> list[dict]:
        """List pay runs (newest first) with their period, pay date, status and totals.

        Args:
            status: only runs with this status.
            year: only runs whose pay date falls in this year.
            limit: maximum number of runs (1-100).
        """
        runs = sorted(self.state.runs.values(), key=lambda r: r.period_start, reverse=True)
        return [{**r.model_dump(exclude={"summaries"}), **run_totals(list(r.summaries.values()))} for r in runs
                if (status is None or r.status == status) and (year is None or r.pay_date.year == year)][:limit]

    @tool(read_only=True, returns=PayRun)
    def get_pay_run(self, payroll_id: Id("payroll"), department: Optional[str] = None) -> dict:
        """Get a pay run with every employee's pay summary and the run totals.

        Args:
            payroll_id: the run, e.g. PAY-0004.
            department: only summaries of employees in this department.
        """
        run = self._run(payroll_id)
        rows = [s for eid, s in run.summaries.items() if department is None
                or (eid in self.state.employees and self.state.employees[eid].department.lower() == department.lower())]
        return {**run.model_dump(exclude={"summaries"}), "summaries": [s.model_dump() for s in rows], **run_totals(rows)}

    @tool(read_only=True, returns=PaySummary)
    def get_pay_summary(self, payroll_id: Id("payroll"), employee_id: Id("employee")) -> dict:
        """Get one employee's pay summary (gross, taxes, deductions, net) in one run.

        Args:
            payroll_id: the run.
            employee_id: the employee.
        """
        run = self._run(payroll_id)
        return {"payroll_id": run.id, "pay_date": run.pay_date, "status": run.status,
                **self._summary(run, employee_id).model_dump()}

    @tool(read_only=True, returns=list[PaySummary])
    def get_employee_pay_history(self, employee_id: Id("employee"), limit: int = Field(default=12, ge=1, le=48)) -> list[dict]:
        """List an employee's pay summaries across runs, newest first.

        Args:
            employee_id: the employee.
            limit: maximum number of runs (1-48).
        """
        self.lookup(self.state.employees, employee_id, "employee")
        runs = sorted(self.state.runs.values(), key=lambda r: r.period_start, reverse=True)
        return [{"payroll_id": r.id, "pay_date": r.pay_date, "status": r.status, **r.summaries[employee_id].model_dump()}
                for r in runs if employee_id in r.summaries][:limit]

    @tool(read_only=True, returns=PayEmployee)
    def get_employee_compensation(self, employee_id: Id("employee")) -> dict:
        """Get an employee's pay type, salary or hourly rate, tax state and 401(k) rate.

        Args:
            employee_id: the employee.
        """
        return self.lookup(self.state.employees, employee_id, "employee").model_dump()

    @tool(read_only=True, returns=list[PayEmployee])
    def list_payroll_employees(
        self, department: Optional[str] = None, pay_type: Optional[Literal["salary", "hourly"]] = None
    ) -> list[dict]:
        """List employees on the payroll, optionally by department or pay type.

        Args:
            department: only this department, e.g. 'Finance'.
            pay_type: salary or hourly.
        """
        return [e.model_dump() for e in self.state.employees.values()
                if (department is None or e.department.lower() == department.lower())
                and (pay_type is None or e.pay_type == pay_type)]

    @tool(read_only=True)
    def get_year_to_date(self, employee_id: Id("employee"), year: int = Field(ge=2000, le=2100)) -> dict:
        """Sum an employee's paid runs of a year: gross, taxes, retirement and net (USD).

        Args:
            employee_id: the employee.
            year: calendar year of the pay dates, e.g. 2025.
        """
        self.lookup(self.state.employees, employee_id, "employee")
        rows = [r.summaries[employee_id] for r in self.state.runs.values()
                if r.status == "paid" and r.pay_date.year == year and employee_id in r.summaries]
        out = run_totals(rows)
        out.pop("employees")
        return {"employee_id": employee_id, "year": year, "paid_runs": len(rows), **out}

    @tool(read_only=True, returns=list[Correction])
    def list_corrections(
        self, payroll_id: Optional[Id("payroll")] = None, employee_id: Optional[Id("employee")] = None
    ) -> list[dict]:
        """List corrections with their audit notes, optionally for one run or employee.

        Args:
            payroll_id: only corrections of this run.
            employee_id: only corrections of this employee.
        """
        return [c.model_dump() for c in self.state.corrections.values()
                if (payroll_id is None or c.payroll_id == payroll_id)
                and (employee_id is None or c.employee_id == employee_id)]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Correction)
    def add_correction(
        self,
        payroll_id: Id("payroll"),
        employee_id: Id("employee"),
        kind: CorrectionKind,
        amount: Money = Field(ge=-50000, le=50000),
        note: str = Field(min_length=10, max_length=500),
        author_email: Email = Field(min_length=3),
    ) -> dict:
        """Add a bonus, reimbursement, deduction or adjustment to a draft run; the summary is recalculated.

        Args:
            payroll_id: a draft run (approved and paid runs are final: 409).
            employee_id: whose pay to correct.
            kind: bonus, reimbursement, deduction (positive amounts) or adjustment (may be negative).
            amount: USD amount.
            note: audit note, at least 10 characters, saying why.
            author_email: who makes the correction.
        """
        run = self._draft(payroll_id)
        self._summary(run, employee_id)
        value = cents(amount)  # checked after rounding: 0.004 is a zero correction
        if value == 0 or (kind != "adjustment" and value < 0):
            raise InvalidArgument(f"amount must be {'non-zero' if kind == 'adjustment' else 'positive'} for {kind} "
                                  f"(at least 0.01 in absolute value after rounding to cents).")
        c = Correction(id=self.new_id("COR"), payroll_id=run.id, employee_id=employee_id, kind=kind,
                       amount=value, note=note, author_email=author_email, created_at=self.now())
        self.state.corrections[c.id] = c
        s = self._recompute(run, employee_id)
        if s.net_pay < 0:
            raise Conflict(f"this {kind} would make net pay negative ({s.net_pay}); lower the amount.")
        return {**c.model_dump(), "summary": s.model_dump()}

    @tool(read_only=False, returns=Correction)
    def reverse_correction(
        self, correction_id: str, note: str = Field(min_length=10, max_length=500), author_email: Email = Field(min_length=3)
    ) -> dict:
        """Reverse a correction on a draft run (kept for audit, marked reversed); the summary is recalculated.

        Args:
            correction_id: the correction, e.g. COR-0002.
            note: audit note, at least 10 characters, saying why.
            author_email: who reverses it.
        """
        c = self.lookup(self.state.corrections, correction_id, "correction")
        if c.reversed:
            raise Conflict(f"correction {correction_id} is already reversed.")
        run = self._draft(c.payroll_id)
        c.reversed = True
        c.note = f"{c.note} | reversed by {author_email}: {note}"
        s = self._recompute(run, c.employee_id)
        if s.net_pay < 0:
            raise Conflict(f"reversing would make net pay negative ({s.net_pay}); reverse the deduction first.")
        return {**c.model_dump(), "summary": s.model_dump()}

    @tool(read_only=False, returns=PaySummary)
    def update_hours(
        self, payroll_id: Id("payroll"), employee_id: Id("employee"), hours: float = Field(ge=0, le=200),
        note: str = Field(min_length=10, max_length=500),
    ) -> dict:
        """Set the hours paid to an hourly employee in a draft run; the summary is recalculated.

        Args:
            payroll_id: a draft run.
            employee_id: an hourly employee (salaried staff: 422).
            hours: hours worked in the period (0-200).
            note: audit note saying why the hours changed.
        """
        run = self._draft(payroll_id)
        s = self._summary(run, employee_id)
        if self.state.employees[employee_id].pay_type != "hourly":
            raise InvalidArgument(f"{employee_id} is salaried; hours only apply to hourly staff. "
                                  "Use add_correction for a salaried pay change.")
        old = s.hours
        run.summaries[employee_id] = s.model_copy(update={"hours": hours})
        out = self._recompute(run, employee_id)
        return {"payroll_id": run.id, "previous_hours": old, "note": note, **out.model_dump()}

    @tool(read_only=False, returns=PayRun)
    def approve_pay_run(self, payroll_id: Id("payroll"), approver_email: Email) -> dict:
        """Approve a draft run for payment; only Finance staff may approve.

        Args:
            payroll_id: the draft run.
            approver_email: the approver's work email (must be in the Finance department).
        """
        run = self._draft(payroll_id)
        low = approver_email.lower()
        who = next((e for e in self.state.employees.values() if e.email.lower() == low), None)
        if who is None or who.department != APPROVER_DEPARTMENT:
            raise Conflict(f"{approver_email} may not approve payroll; approvers are in the "
                           f"{APPROVER_DEPARTMENT} department (list_payroll_employees department='Finance').")
        run.status, run.approved_by = "approved", who.email
        return {**run.model_dump(exclude={"summaries"}), **run_totals(list(run.summaries.values()))}

    @tool(read_only=False, returns=PayEmployee)
    def update_compensation(
        self,
        employee_id: Id("employee"),
        note: str = Field(min_length=10, max_length=500),
        annual_salary: Optional[Money] = Field(default=None, ge=0.01, le=2000000),
        hourly_rate: Optional[Money] = Field(default=None, ge=0.01, le=1000),
    ) -> dict:
        """Change an employee's salary or hourly rate; open draft runs are recalculated.

        Args:
            employee_id: the employee.
            note: audit note (e.g. 'Annual merit increase, approved by ...').
            annual_salary: new yearly salary in USD (salaried staff only).
            hourly_rate: new USD per hour (hourly staff only).
        """
        e = self.lookup(self.state.employees, employee_id, "employee")
        if (annual_salary is None) == (hourly_rate is None):
            raise InvalidArgument("give exactly one of annual_salary or hourly_rate.")
        if (annual_salary is not None) != (e.pay_type == "salary"):
            raise InvalidArgument(f"{employee_id} is paid {e.pay_type}; give "
                                  f"{'annual_salary' if e.pay_type == 'salary' else 'hourly_rate'}.")
        if annual_salary is not None:
            e.annual_salary, e.hourly_rate = cents(annual_salary), None
        else:
            e.annual_salary, e.hourly_rate = None, cents(hourly_rate or 0.0)  # given: exactly one is set
        changed = [r.id for r in self.state.runs.values() if r.status == "draft" and employee_id in r.summaries]
        for rid in changed:
            self._recompute(self.state.runs[rid], employee_id)
        return {**e.model_dump(), "recalculated_runs": changed, "note": note}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> PayrollState:
        """Seeded state built on the shared roster (same people as hr_directory and leave)."""
        return seed_payroll(roster(seed, today), random.Random(f"{cls.name}:{seed}"), today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> PayrollState:
        return seed_payroll(roster(rng.randrange(2**31), today), rng, today)
