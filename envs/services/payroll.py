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

from compoworld_gym.entities import Date, DateTime, Email, Id, Money, PersonName
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._workforce import OFFICES, Person, roster
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound
from compoworld_gym.service import Record, Service, ServiceState, tool

RunStatus = Literal["draft", "approved", "paid"]
CorrectionKind = Literal["bonus", "reimbursement", "deduction", "adjustment"]
FEDERAL_RATE, FICA_RATE = 0.12, 0.0765
STATE_RATE = {"CA": 0.06, "NY": 0.065, "TX": 0.0, "IL": 0.0495}
STANDARD_HOURS = 86.67  # hours in a semimonthly period of a 40-hour week
PAYDAY_LAG_DAYS = 5
APPROVER_DEPARTMENT = "Finance"


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


def _c(x: float) -> float:
    return money(x)  # the suite's one rounding rule: half-up to cents, symmetric for negative amounts


def compute_summary(emp: PayEmployee, hours: float, corrections: list[Correction]) -> PaySummary:
    """Pay for one run: base (salary/24 or hours*rate) plus live corrections.

    Tax model: retirement = pct * gross (pre-tax); federal 12% and state rate
    on gross - retirement; FICA 7.65% of gross; net = gross - retirement -
    taxes + reimbursements - deductions. Every amount is rounded to cents.
    """
    base = _c(emp.annual_salary / 24) if emp.pay_type == "salary" else _c(hours * (emp.hourly_rate or 0.0))
    live = [c for c in corrections if not c.reversed]
    extra = _c(sum(c.amount for c in live if c.kind in ("bonus", "adjustment")))
    reimb = _c(sum(c.amount for c in live if c.kind == "reimbursement"))
    ded = _c(sum(c.amount for c in live if c.kind == "deduction"))
    gross = _c(base + extra)
    ret = _c(gross * emp.retirement_pct)
    fed, st = _c((gross - ret) * FEDERAL_RATE), _c((gross - ret) * STATE_RATE[emp.tax_state])
    fica = _c(gross * FICA_RATE)
    return PaySummary(employee_id=emp.id, hours=hours, base_pay=base, extra_pay=extra, gross_pay=gross,
                      retirement=ret, federal_tax=fed, state_tax=st, fica=fica, reimbursements=reimb,
                      deductions=ded, net_pay=_c(gross - ret - fed - st - fica + reimb - ded))


def _totals(summaries: list[PaySummary]) -> dict:
    keys = ("gross_pay", "net_pay", "federal_tax", "state_tax", "fica", "retirement")
    return {f"total_{k}": _c(sum(getattr(s, k) for s in summaries)) for k in keys} | {"employees": len(summaries)}


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
        emp = self.state.employees[employee_id]
        hours = run.summaries[employee_id].hours
        cors = [c for c in self.state.corrections.values() if c.payroll_id == run.id and c.employee_id == employee_id]
        run.summaries[employee_id] = compute_summary(emp, hours, cors)
        return run.summaries[employee_id]

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
        return [{**r.model_dump(exclude={"summaries"}), **_totals(list(r.summaries.values()))} for r in runs
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
        return {**run.model_dump(exclude={"summaries"}), "summaries": [s.model_dump() for s in rows], **_totals(rows)}

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
        out = _totals(rows)
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
        value = _c(amount)  # checked after rounding: 0.004 is a zero correction
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
        return {**run.model_dump(exclude={"summaries"}), **_totals(list(run.summaries.values()))}

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
            e.annual_salary, e.hourly_rate = _c(annual_salary), None
        else:
            e.annual_salary, e.hourly_rate = None, _c(hourly_rate or 0.0)  # given: exactly one is set
        changed = [r.id for r in self.state.runs.values() if r.status == "draft" and employee_id in r.summaries]
        for rid in changed:
            self._recompute(self.state.runs[rid], employee_id)
        return {**e.model_dump(), "recalculated_runs": changed, "note": note}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> PayrollState:
        """Seeded state built on the shared roster (same people as hr_directory and leave)."""
        return cls._from_roster(roster(seed, today), random.Random(f"{cls.name}:{seed}"), today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> PayrollState:
        return cls._from_roster(roster(rng.randrange(2**31), today), rng, today)

    @classmethod
    def _from_roster(cls, people: tuple[Person, ...], rng: random.Random, today: dt.date) -> PayrollState:
        st = PayrollState()
        for p in people:
            st.employees[p.employee_id] = PayEmployee(
                id=p.employee_id, name=p.name, email=p.email, department=p.department,
                pay_type="hourly" if p.hourly else "salary", annual_salary=None if p.hourly else p.annual_salary,
                hourly_rate=_c(p.annual_salary / 2080) if p.hourly else None, tax_state=OFFICES[p.location][1],
                retirement_pct=rng.choice((0.0, 0.03, 0.05, 0.06)), bank_last4=f"{rng.randrange(10000):04d}")
        approver = next(p.email for p in people if p.department == APPROVER_DEPARTMENT)
        periods = _periods(today, 5)
        for n, (start, end) in enumerate(periods, start=1):
            pay = end + dt.timedelta(days=PAYDAY_LAG_DAYS)
            status = "draft" if n == len(periods) else ("paid" if pay < today else "approved")
            run = PayRun(id=f"PAY-{n:04d}", period_start=start, period_end=end, pay_date=pay, status=status,
                         approved_by=None if status == "draft" else approver)
            for e in st.employees.values():
                hours = _c(rng.uniform(70, 92)) if e.pay_type == "hourly" else STANDARD_HOURS
                run.summaries[e.id] = compute_summary(e, hours, [])
            st.runs[run.id] = run
        staff = list(st.employees)
        notes = [("bonus", 1500.0, "Q4 performance bonus approved by department head"),
                 ("reimbursement", 245.8, "Client visit travel expenses, receipts on file"),
                 ("deduction", 120.0, "Company laptop damage repayment, signed agreement")]
        svc = cls(st, today=today)
        for i, (kind, amount, note) in enumerate(notes):
            run = st.runs[f"PAY-{len(periods) - (1 if i < 2 else 0):04d}"]
            eid = staff[rng.randrange(2, len(staff))]
            c = Correction(id=f"COR-{i + 1:04d}", payroll_id=run.id, employee_id=eid, kind=kind, amount=amount,
                           note=note, author_email=approver,
                           created_at=dt.datetime.combine(min(run.period_end, today - dt.timedelta(days=1)), dt.time(16, 0)))
            st.corrections[c.id] = c
            svc._recompute(run, eid)
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
