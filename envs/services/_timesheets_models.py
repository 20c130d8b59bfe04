"""Records of the timesheets service (Harvest API v2 shapes).

Harvest's resources: *clients*, *projects* (``bill_by``, ``hourly_rate``,
``budget_by``, ``budget``, ``over_budget_notification_percentage``, task and
user assignments), *tasks*, *users*, *time entries* (``spent_date``,
``hours``, ``notes``, ``billable``, ``billable_rate``, ``is_billed``,
``approval_status``), the weekly *timesheet* approval, and *invoices* whose
line items import uninvoiced billable time.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, DateTime, Email, Id, Money
from compoworld_gym.service import Record, ServiceState

ApprovalStatus = Literal["unsubmitted", "submitted", "approved"]
TimesheetStatus = Literal["submitted", "approved", "rejected"]
BillBy = Literal["Project", "Tasks"]
BudgetBy = Literal["project", "project_cost", "none"]
InvoiceState = Literal["open", "paid"]


class HarvestClient(Record):
    """A client company (the shared customer accounts)."""

    id: Id("customer") = Field(description="Client id, e.g. CUS-0001 (the company's customer account).")
    name: CompanyName = Field(description="Company name.")
    is_active: bool = Field(default=True, description="False once archived.")
    currency: str = Field(default="USD", description="Invoice currency.")


class HarvestUser(Record):
    """A person who tracks time (an employee)."""

    id: Id("employee") = Field(description="User id: the employee id, e.g. EMP-0015.")
    first_name: str = Field(description="First name.")
    last_name: str = Field(description="Last name.")
    email: Email = Field(description="Work email.")
    department: str = Field(description="Department name.")
    is_active: bool = Field(default=True, description="False once deactivated.")
    weekly_capacity_hours: float = Field(default=40.0, ge=0, le=80, description="Hours a week the user works.")
    default_hourly_rate: Money = Field(ge=0, description="Default billable rate (USD per hour).")
    cost_rate: Money = Field(ge=0, description="Internal cost (USD per hour).")
    approver_email: Optional[Email] = Field(default=None, description="Manager who approves the user's timesheets.")


class HarvestTask(Record):
    """A kind of work time is tracked against."""

    id: str = Field(description="Task id, e.g. TSK-0001.")
    name: str = Field(description="Task name.")
    billable_by_default: bool = Field(description="Whether new project assignments bill it.")
    default_hourly_rate: Optional[Money] = Field(default=None, ge=0, description="Default rate (USD per hour).")
    is_active: bool = Field(default=True, description="False once archived.")


class TaskAssignment(Record):
    """A task assigned to a project."""

    task_id: str = Field(description="The task.")
    billable: bool = Field(description="Whether time on it is billable on this project.")
    hourly_rate: Optional[Money] = Field(default=None, ge=0, description="Rate when the project bills by task.")


class Project(Record):
    """A client project with its rates and budget."""

    id: Id("harvest_project") = Field(description="Project id, e.g. PRJ-0001.")
    client_id: Id("customer") = Field(description="The client.")
    name: str = Field(description="Project name.")
    code: str = Field(description="Project code.")
    is_active: bool = Field(default=True, description="False once archived (no more time can be tracked).")
    is_billable: bool = Field(default=True, description="Whether the project bills the client.")
    bill_by: BillBy = Field(description="Project: one hourly_rate; Tasks: each task assignment's rate.")
    hourly_rate: Optional[Money] = Field(default=None, ge=0, description="Rate when bill_by is Project (USD/h).")
    budget_by: BudgetBy = Field(description="project (hours), project_cost (USD) or none.")
    budget: Optional[float] = Field(default=None, ge=0, description="Budget in hours or USD, per budget_by.")
    over_budget_notification_percentage: float = Field(default=80.0, ge=0, le=100,
                                                       description="Share of the budget that raises a warning.")
    starts_on: Optional[Date] = Field(default=None, description="Start date.")
    ends_on: Optional[Date] = Field(default=None, description="End date.")
    manager_email: Email = Field(description="Project manager.")
    user_ids: list[Id("employee")] = Field(default_factory=list, description="Users assigned to the project.")
    task_assignments: list[TaskAssignment] = Field(default_factory=list, description="Tasks of the project.")
    notes: str = Field(default="", description="Project notes.")


class TimeEntry(Record):
    """Hours one user spent on one project task on one day."""

    id: Id("time_entry") = Field(description="Time entry id, e.g. TE-0001.")
    spent_date: Date = Field(description="The day worked.")
    user_id: Id("employee") = Field(description="Who.")
    project_id: Id("harvest_project") = Field(description="The project.")
    client_id: Id("customer") = Field(description="The project's client.")
    task_id: str = Field(description="The task.")
    hours: float = Field(gt=0, le=24, description="Hours (decimal).")
    notes: str = Field(default="", description="What was done.")
    billable: bool = Field(description="Whether the time bills the client.")
    billable_rate: Optional[Money] = Field(default=None, ge=0, description="Rate billed (USD/h) when billable.")
    is_billed: bool = Field(default=False, description="True once on an invoice.")
    invoice_id: Optional[Id("invoice")] = Field(default=None, description="The invoice that billed it.")
    approval_status: ApprovalStatus = Field(default="unsubmitted", description="unsubmitted, submitted or approved.")
    created_at: DateTime = Field(description="When tracked.")


class Timesheet(Record):
    """A user's week of time submitted for approval."""

    id: Id("timesheet") = Field(description="Timesheet id, e.g. TS-0001.")
    user_id: Id("employee") = Field(description="Whose week.")
    week_of: Date = Field(description="Monday of the week.")
    status: TimesheetStatus = Field(description="submitted, approved or rejected (reopened for edits).")
    approver_email: Email = Field(description="Who approves it (the user's manager).")
    submitted_at: DateTime = Field(description="When last submitted.")
    decided_at: Optional[DateTime] = Field(default=None, description="When approved or rejected.")
    decided_by: Optional[Email] = Field(default=None, description="Who approved or rejected it.")
    rejection_note: Optional[str] = Field(default=None, description="Why it was rejected.")


class InvoiceLineItem(Record):
    """One line of an invoice: a project's task hours at one rate."""

    kind: Literal["Service"] = Field(default="Service", description="Line kind.")
    description: str = Field(description="Project and task.")
    project_id: Id("harvest_project") = Field(description="The project billed.")
    quantity: float = Field(ge=0, description="Hours.")
    unit_price: Money = Field(ge=0, description="Rate (USD per hour).")
    amount: Money = Field(ge=0, description="Line total (USD).")


class Invoice(Record):
    """An invoice to a client for tracked time."""

    id: Id("invoice") = Field(description="Invoice id, e.g. HIN-0001.")
    client_id: Id("customer") = Field(description="The client billed.")
    number: str = Field(description="Invoice number, e.g. 2026-0002.")
    subject: str = Field(description="Subject line.")
    state: InvoiceState = Field(description="open or paid.")
    issue_date: Date = Field(description="Issue date.")
    due_date: Date = Field(description="Due date.")
    line_items: list[InvoiceLineItem] = Field(default_factory=list, description="Lines.")
    amount: Money = Field(ge=0, description="Total (USD).")
    time_entry_ids: list[Id("time_entry")] = Field(default_factory=list, description="Entries billed.")


class TimesheetsState(ServiceState):
    """Clients, users, tasks, projects, time entries, timesheets and invoices."""

    clients: dict[str, HarvestClient] = Field(default_factory=dict, description="Clients by id.")
    users: dict[str, HarvestUser] = Field(default_factory=dict, description="Users by id.")
    tasks: dict[str, HarvestTask] = Field(default_factory=dict, description="Tasks by id.")
    projects: dict[str, Project] = Field(default_factory=dict, description="Projects by id.")
    time_entries: dict[str, TimeEntry] = Field(default_factory=dict, description="Time entries by id.")
    timesheets: dict[str, Timesheet] = Field(default_factory=dict, description="Timesheets by id.")
    invoices: dict[str, Invoice] = Field(default_factory=dict, description="Invoices by id.")
