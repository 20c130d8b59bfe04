"""Expenses: employee expense reports with receipts, policy limits and approvals.

No expense-management server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface is designed the way Expensify / SAP Concur reports look: a report
per employee holding dated, categorised items with receipts, submitted for
approval by the employee's manager (or Finance), then reimbursed. Company
policy caps each item per category and requires a receipt above a
threshold; submission is refused (422) while a report breaks policy.
Employees are the fixed company roster shared with the office services.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, Money, PersonName, Url
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._company import STAFF, TEAMS
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

ReportStatus = Literal["draft", "submitted", "approved", "rejected", "reimbursed"]
ExpenseCategory = Literal["travel", "lodging", "meals", "mileage", "supplies", "software", "other"]
#: Policy: maximum amount of one item per category (USD).
CATEGORY_LIMITS: dict[str, float] = {"travel": 1500.0, "lodging": 250.0, "meals": 75.0, "mileage": 300.0,
                                     "supplies": 200.0, "software": 500.0, "other": 150.0}
#: Items above this amount (USD) need a receipt.
RECEIPT_THRESHOLD = 25.0
#: Reports above this total (USD) must be approved by Finance, not only the manager.
FINANCE_APPROVAL_ABOVE = 2000.0
_FINANCE = frozenset(s.email for s in STAFF if s.team == "finance")
_MERCHANTS = {"travel": ("Delta Air Lines", "Amtrak", "Uber"), "lodging": ("Marriott", "Hilton Garden Inn"),
              "meals": ("Chipotle", "Pret A Manger", "Olive Garden"), "mileage": ("Personal car",),
              "supplies": ("Staples", "Office Depot"), "software": ("Figma", "JetBrains", "Notion"),
              "other": ("FedEx Office",)}


class Employee(Record):
    """An employee who can file or approve expense reports."""

    id: Id("employee") = Field(description="Employee id, e.g. EMP-0001.")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work email.")
    department: str = Field(description="Team name.")
    title: str = Field(description="Job title.")
    manager_email: Optional[Email] = Field(default=None, description="Manager who approves their reports.")


class ExpenseItem(Record):
    """One expense of a report."""

    expense_date: Date = Field(description="Date the money was spent.")
    category: ExpenseCategory = Field(description="Policy category.")
    merchant: str = Field(description="Where the money was spent.")
    amount: Money = Field(description="Amount (USD), rounded to cents.")
    description: str = Field(default="", description="Business purpose.")
    receipt_url: Optional[Url] = Field(default=None, description="Link to the receipt image.")


class ExpenseReport(Record):
    """An expense report."""

    id: Id("expense") = Field(description="Report id, e.g. EXP-0001.")
    employee_email: Email = Field(description="Who spent the money.")
    employee_name: PersonName = Field(description="Their name.")
    title: str = Field(description="Report title, e.g. 'Client visit Boston'.")
    items: list[ExpenseItem] = Field(default_factory=list, description="Items, in entry order.")
    total: Money = Field(default=0.0, description="Sum of item amounts (USD).")
    status: ReportStatus = Field(description="Workflow status.")
    created_on: Date = Field(description="Date created.")
    submitted_on: Optional[Date] = Field(default=None, description="Date submitted.")
    approver_email: Optional[Email] = Field(default=None, description="Who approved or rejected it.")
    decided_on: Optional[Date] = Field(default=None, description="Date approved or rejected.")
    rejection_reason: Optional[str] = Field(default=None, description="Why it was rejected.")
    reimbursed_on: Optional[Date] = Field(default=None, description="Date paid out.")
    payment_reference: Optional[str] = Field(default=None, description="Payroll/bank reference of the payout.")


class ExpensesState(ServiceState):
    """Employees and expense reports."""

    employees: dict[str, Employee] = Field(default_factory=dict, description="Employees by id.")
    reports: dict[str, ExpenseReport] = Field(default_factory=dict, description="Expense reports by id.")


def _violations(r: ExpenseReport) -> list[str]:
    out = []
    for i, it in enumerate(r.items, start=1):
        if it.amount > CATEGORY_LIMITS[it.category]:
            out.append(f"item {i}: {it.category} {it.amount:.2f} exceeds the limit {CATEGORY_LIMITS[it.category]:.2f}")
        if it.amount > RECEIPT_THRESHOLD and not it.receipt_url:
            out.append(f"item {i}: {it.amount:.2f} needs a receipt (over {RECEIPT_THRESHOLD:.2f})")
    return out


class Expenses(Service):
    """Employee expense reports: items, receipts, policy checks, approval and reimbursement."""

    name = "expenses"
    description = "Employee expense reports: items, receipts, policy limits, submit/approve/reject/reimburse workflow."
    domain = "finance"
    spec_source = None
    State = ExpensesState

    def _report(self, report_id: str) -> ExpenseReport:
        return self.lookup(self.state.reports, report_id, "expense report")

    def _employee(self, email: str) -> Employee:
        for e in self.state.employees.values():
            if e.email.lower() == email.lower():
                return e
        raise NotFound(f"no employee with email {email!r}; call list_employees for valid emails.")

    @staticmethod
    def _require(r: ExpenseReport, allowed: tuple[str, ...], action: str) -> None:
        if r.status not in allowed:
            raise Conflict(f"expense report {r.id} is {r.status}; {action} needs status {' or '.join(allowed)}.")

    def _require_approver(self, r: ExpenseReport, approver_email: str) -> None:
        approver = self._employee(approver_email)
        if approver.email == r.employee_email:
            raise Unprocessable("employees cannot approve or reject their own expense reports.")
        if r.total > FINANCE_APPROVAL_ABOVE and approver.email not in _FINANCE:
            raise Unprocessable(f"reports over {FINANCE_APPROVAL_ABOVE:.2f} need a Finance approver: "
                                f"{', '.join(sorted(_FINANCE))}.")
        manager = self._employee(r.employee_email).manager_email
        if approver.email != manager and approver.email not in _FINANCE:
            raise Unprocessable(f"{approver.email} is neither the manager ({manager}) nor in Finance.")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Employee])
    def list_employees(self, department: Optional[str] = None) -> list[dict]:
        """List employees with their manager, optionally of one department.

        Args:
            department: only this team, e.g. 'Finance'.
        """
        return [e.model_dump() for e in self.state.employees.values()
                if department is None or e.department.lower() == department.lower()]

    @tool(read_only=True)
    def get_expense_policy(self) -> dict:
        """The expense policy: per-item category limits, receipt threshold and Finance approval threshold."""
        return {"category_limits": dict(CATEGORY_LIMITS), "receipt_required_above": RECEIPT_THRESHOLD,
                "finance_approval_above": FINANCE_APPROVAL_ABOVE, "finance_approvers": sorted(_FINANCE),
                "currency": "USD"}

    @tool(read_only=True, returns=list[ExpenseReport])
    def list_expense_reports(self, status: Optional[ReportStatus] = None, employee_email: Optional[Email] = None,
                             limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List expense reports by status or employee (without items).

        Args:
            status: only reports with this status.
            employee_email: only this employee's reports.
            limit: maximum number of reports (1-200).
        """
        e = employee_email.lower() if employee_email else None
        return [r.model_dump(exclude={"items"}) for r in self.state.reports.values()
                if (status is None or r.status == status) and (e is None or r.employee_email.lower() == e)][:limit]

    @tool(read_only=True, returns=ExpenseReport)
    def get_expense_report(self, report_id: Id("expense")) -> dict:
        """Get one report with its items and current policy violations.

        Args:
            report_id: the report id, e.g. EXP-0001.
        """
        r = self._report(report_id)
        return {**r.model_dump(), "policy_violations": _violations(r)}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=ExpenseReport)
    def create_expense_report(self, employee_email: Email, title: str = Field(min_length=1, max_length=120)) -> dict:
        """Start a draft expense report for an employee.

        Args:
            employee_email: the employee's work email.
            title: report title, e.g. 'Client visit Boston'.
        """
        emp = self._employee(employee_email)
        r = ExpenseReport(id=self.new_id("EXP"), employee_email=emp.email, employee_name=emp.name, title=title,
                          status="draft", created_on=self.today)
        self.state.reports[r.id] = r
        return r.model_dump()

    @tool(read_only=False, returns=ExpenseReport)
    def add_expense_item(self, report_id: Id("expense"), expense_date: Date, category: ExpenseCategory,
                         merchant: str = Field(min_length=1, max_length=120), amount: Money = Field(ge=0.01, le=100000),
                         description: str = "", receipt_url: Optional[Url] = None) -> dict:
        """Add an item to a draft or rejected report (a rejected report returns to draft).

        Args:
            report_id: the report.
            expense_date: date spent (YYYY-MM-DD), not in the future.
            category: travel, lodging, meals, mileage, supplies, software or other.
            merchant: where the money was spent.
            amount: amount in USD (rounded to cents).
            description: business purpose.
            receipt_url: link to the receipt image.
        """
        r = self._report(report_id)
        self._require(r, ("draft", "rejected"), "adding items")
        if expense_date > self.today:
            raise Unprocessable(f"expense_date {expense_date} is in the future.")
        r.items.append(ExpenseItem(expense_date=expense_date, category=category, merchant=merchant,
                                   amount=money(amount), description=description, receipt_url=receipt_url))
        r.total, r.status = money(sum(i.amount for i in r.items)), "draft"
        return {**r.model_dump(), "policy_violations": _violations(r)}

    @tool(read_only=False, destructive=True, returns=ExpenseReport)
    def remove_expense_item(self, report_id: Id("expense"), item_number: int = Field(ge=1)) -> dict:
        """Remove an item (1-based position) from a draft or rejected report.

        Args:
            report_id: the report.
            item_number: 1-based position of the item.
        """
        r = self._report(report_id)
        self._require(r, ("draft", "rejected"), "removing items")
        if item_number > len(r.items):
            raise InvalidArgument(f"report {r.id} has {len(r.items)} items; item_number must be 1-{len(r.items)}.")
        r.items.pop(item_number - 1)
        r.total = money(sum(i.amount for i in r.items))
        return r.model_dump()

    @tool(read_only=False, idempotent=True, returns=ExpenseReport)
    def attach_receipt(self, report_id: Id("expense"), item_number: int = Field(ge=1),
                       receipt_url: Url = Field(min_length=8)) -> dict:
        """Attach a receipt link to an item of a draft or rejected report.

        Args:
            report_id: the report.
            item_number: 1-based position of the item.
            receipt_url: link to the receipt image.
        """
        r = self._report(report_id)
        self._require(r, ("draft", "rejected"), "attaching receipts")
        if item_number > len(r.items):
            raise InvalidArgument(f"report {r.id} has {len(r.items)} items; item_number must be 1-{len(r.items)}.")
        r.items[item_number - 1].receipt_url = receipt_url
        return {**r.model_dump(), "policy_violations": _violations(r)}

    @tool(read_only=False, returns=ExpenseReport)
    def submit_expense_report(self, report_id: Id("expense")) -> dict:
        """Submit a draft report for approval; refused (422) if empty or breaking policy.

        Args:
            report_id: the draft report.
        """
        r = self._report(report_id)
        self._require(r, ("draft",), "submission")
        if not r.items:
            raise Unprocessable(f"report {r.id} has no items.")
        problems = _violations(r)
        if problems:
            raise Unprocessable("report breaks the expense policy: " + "; ".join(problems) + ".")
        r.status, r.submitted_on = "submitted", self.today
        r.approver_email = r.decided_on = r.rejection_reason = None
        return r.model_dump(exclude={"items"})

    @tool(read_only=False, returns=ExpenseReport)
    def approve_expense_report(self, report_id: Id("expense"), approver_email: Email) -> dict:
        """Approve a submitted report as the employee's manager or a Finance approver.

        Reports above the Finance threshold need a Finance approver; nobody approves their own (422).

        Args:
            report_id: the submitted report.
            approver_email: the approving employee's email.
        """
        r = self._report(report_id)
        self._require(r, ("submitted",), "approval")
        self._require_approver(r, approver_email)
        r.status, r.approver_email, r.decided_on = "approved", approver_email.lower(), self.today
        return r.model_dump(exclude={"items"})

    @tool(read_only=False, returns=ExpenseReport)
    def reject_expense_report(self, report_id: Id("expense"), approver_email: Email,
                              reason: str = Field(min_length=1, max_length=500)) -> dict:
        """Send a submitted report back to the employee with a reason.

        Args:
            report_id: the submitted report.
            approver_email: the rejecting manager's or Finance approver's email.
            reason: what the employee must fix.
        """
        r = self._report(report_id)
        self._require(r, ("submitted",), "rejection")
        self._require_approver(r, approver_email)
        r.status, r.approver_email, r.decided_on = "rejected", approver_email.lower(), self.today
        r.rejection_reason = reason
        return r.model_dump(exclude={"items"})

    @tool(read_only=False, returns=ExpenseReport)
    def reimburse_expense_report(self, report_id: Id("expense"),
                                 payment_reference: str = Field(min_length=3, max_length=60)) -> dict:
        """Record the payout of an approved report (status becomes 'reimbursed').

        Args:
            report_id: the approved report.
            payment_reference: payroll or bank transfer reference.
        """
        r = self._report(report_id)
        self._require(r, ("approved",), "reimbursement")
        r.status, r.reimbursed_on, r.payment_reference = "reimbursed", self.today, payment_reference
        return r.model_dump(exclude={"items"})

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> ExpensesState:
        state = ExpensesState()
        controller = next(s for s in STAFF if s.team == "finance")
        for i, s in enumerate(STAFF, start=1):
            lead = next(x for x in STAFF if x.team == s.team)
            manager = lead if lead != s else (controller if controller != s else STAFF[0])
            eid = f"EMP-{i:04d}"
            state.employees[eid] = Employee(id=eid, name=s.name, email=s.email, department=TEAMS[s.team].name,
                                            title=s.title, manager_email=manager.email)
        emps = list(state.employees.values())
        flow = ("draft", "submitted", "submitted", "approved", "approved", "rejected", "reimbursed", "submitted",
                "draft", "approved")
        for i, status in enumerate(flow, start=1):
            emp = emps[(i * 5) % len(emps)]
            city = fake.city()
            created = today - dt.timedelta(days=30 - 2 * i)
            r = ExpenseReport(id=f"EXP-{i:04d}", employee_email=emp.email, employee_name=emp.name,
                              title=f"Trip to {city}" if i % 2 else f"{created:%B} team expenses", status=status,
                              created_on=created)
            for _ in range(rng.randint(1, 4)):
                cat = rng.choice(("travel", "lodging", "meals", "supplies", "software"))
                amount = money(rng.uniform(8, CATEGORY_LIMITS[cat] * 0.9))
                receipt = f"https://receipts.company.example/{r.id.lower()}/{len(r.items) + 1}.jpg"
                r.items.append(ExpenseItem(expense_date=created - dt.timedelta(days=rng.randint(0, 5)), category=cat,
                                           merchant=rng.choice(_MERCHANTS[cat]), amount=amount,
                                           description=f"{cat.title()} for {r.title.lower()}",
                                           receipt_url=receipt if amount > RECEIPT_THRESHOLD or rng.random() < 0.5
                                           else None))
            if status == "draft" and i == 1:  # a draft that still breaks policy (missing receipt)
                r.items.append(ExpenseItem(expense_date=created, category="meals", merchant="Olive Garden",
                                           amount=68.4, description="Client dinner"))
            r.total = money(sum(it.amount for it in r.items))
            if status != "draft":
                r.submitted_on = created + dt.timedelta(days=1)
            if status in ("approved", "rejected", "reimbursed"):
                r.approver_email, r.decided_on = emp.manager_email, created + dt.timedelta(days=3)
                if r.total > FINANCE_APPROVAL_ABOVE:
                    r.approver_email = controller.email if emp.email != controller.email else STAFF[3].email
            if status == "rejected":
                r.rejection_reason = "Please split the hotel folio into nightly amounts."
            if status == "reimbursed":
                r.reimbursed_on, r.payment_reference = created + dt.timedelta(days=6), f"PAYRUN-{created:%Y%m}-{i:02d}"
            state.reports[r.id] = r
        state.counters["EXP"] = len(flow) + 1
        return state
