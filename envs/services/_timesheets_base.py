"""Helpers and read tools of the timesheets service (Harvest API v2 shapes); writes are in ``timesheets.py``."""

from __future__ import annotations

import datetime as dt
from typing import Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, Email, Id
from compoworld_gym.envs.services._blocks import eq, ieq, require_status, select
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._timesheets_models import (
    ApprovalStatus, HarvestClient, HarvestTask, HarvestUser, Invoice, InvoiceState, Project, TimeEntry, Timesheet,
    TimesheetsState, TimesheetStatus,
)
from compoworld_gym.envs.services._timesheets_rules import (
    DAY_LIMIT, amount, budget_report, rate_for, uninvoiced, week_of,
)
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Service, tool

_LIMIT = Field(default=100, ge=1, le=500)


class TimesheetsBase(Service, register=False):
    """The timesheets service's lookups, rule checks and read tools (see :class:`.timesheets.Timesheets`)."""

    State = TimesheetsState

    # ---------------------------------------------------------------- helpers
    def _project(self, project_id: str) -> Project:
        return self.lookup(self.state.projects, project_id, "project")

    def _user(self, user_id: str) -> HarvestUser:
        return self.lookup(self.state.users, user_id, "user")

    def _entry(self, time_entry_id: str) -> TimeEntry:
        return self.lookup(self.state.time_entries, time_entry_id, "time entry")

    def _sheet(self, timesheet_id: str) -> Timesheet:
        return self.lookup(self.state.timesheets, timesheet_id, "timesheet")

    def _project_view(self, p: Project) -> dict:
        entries = self.state.time_entries.values()
        u = uninvoiced(p, entries)
        return {**p.model_dump(), "client_name": self.state.clients[p.client_id].name, **budget_report(p, entries),
                "uninvoiced_hours": u["uninvoiced_hours"], "uninvoiced_amount": u["uninvoiced_amount"]}

    def _entry_view(self, e: TimeEntry) -> dict:
        return {**e.model_dump(), "billable_amount": amount(e), "is_locked": e.approval_status != "unsubmitted"
                or e.is_billed}

    def _editable(self, e: TimeEntry, action: str) -> None:
        if e.is_billed:
            raise Conflict(f"time entry {e.id} is on invoice {e.invoice_id}; billed time cannot be {action}.")
        if e.approval_status != "unsubmitted":
            raise Conflict(f"time entry {e.id} is {e.approval_status}; only unsubmitted time can be {action} (a "
                           "manager can reject the week to reopen it).")

    def _check_entry(self, p: Project, user: HarvestUser, task_id: str, day: dt.date, hours: float,
                     skip: Optional[str] = None) -> tuple[bool, Optional[float]]:
        """Refuse time the rules do not allow; returns the entry's (billable, rate)."""
        if not p.is_active:
            raise Conflict(f"project {p.id} ({p.name}) is archived; no time can be tracked on it.")
        if user.id not in p.user_ids:
            raise Unprocessable(f"user {user.id} is not assigned to project {p.id}.")
        if day > self.today:
            raise Unprocessable(f"spent_date {day} is in the future.")
        if p.starts_on is not None and day < p.starts_on:
            raise Unprocessable(f"project {p.id} starts on {p.starts_on}.")
        billable, rate = rate_for(p, task_id)
        logged = sum(e.hours for e in self.state.time_entries.values()
                     if e.user_id == user.id and e.spent_date == day and e.id != skip)
        if logged + hours > DAY_LIMIT:
            raise Unprocessable(f"user {user.id} already has {logged:g} h on {day}; a day holds at most "
                                f"{DAY_LIMIT:g} h, so at most {DAY_LIMIT - logged:g} h more.")
        week = next((t for t in self.state.timesheets.values() if t.user_id == user.id and t.week_of == week_of(day)
                     and t.status != "rejected"), None)
        if week is not None:
            raise Conflict(f"the week of {week.week_of} is {week.status} (timesheet {week.id}); no time can be added.")
        return billable, rate

    def _week_entries(self, user_id: str, monday: dt.date) -> list[TimeEntry]:
        return [e for e in self.state.time_entries.values()
                if e.user_id == user_id and week_of(e.spent_date) == monday]

    def _decide(self, timesheet_id: str, approver_email: str) -> Timesheet:
        t = self._sheet(timesheet_id)
        require_status("timesheet", t.id, t.status, ("submitted",), "approval")
        if approver_email.lower() != t.approver_email.lower():
            raise Unprocessable(f"timesheet {t.id} is approved by {t.approver_email}, the user's manager.")
        t.decided_at, t.decided_by = self.now(), t.approver_email
        return t

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[HarvestClient])
    def list_clients(self, name: Optional[CompanyName] = None, is_active: Optional[bool] = None) -> list[dict]:
        """Clients, by company name (case-insensitive) or active flag.

        Args:
            name: the company name.
            is_active: True for active clients, False for archived ones.
        """
        return [c.model_dump() for c in select(self.state.clients.values(), ieq("name", name), eq("is_active", is_active))]

    @tool(read_only=True, returns=list[Project])
    def list_projects(self, client_id: Optional[Id("customer")] = None, is_active: Optional[bool] = None) -> list[dict]:
        """Projects with their budget use and invoice-ready (uninvoiced) amount, by client or active flag.

        Args:
            client_id: the client, e.g. CUS-0001.
            is_active: True for active projects, False for archived ones.
        """
        rows = select(self.state.projects.values(), eq("client_id", client_id), eq("is_active", is_active))
        return [self._project_view(p) for p in rows]

    @tool(read_only=True, returns=Project)
    def get_project(self, project_id: Id("harvest_project")) -> dict:
        """A project: rates, task and user assignments, budget report (over_budget flag) and uninvoiced amount.

        Args:
            project_id: the project id, e.g. PRJ-0002.
        """
        return self._project_view(self._project(project_id))

    @tool(read_only=True, returns=list[HarvestTask])
    def list_tasks(self) -> list[dict]:
        """The account's tasks with their default billable flag and rate."""
        return [t.model_dump() for t in self.state.tasks.values()]

    @tool(read_only=True, returns=list[HarvestUser])
    def list_users(self, email: Optional[Email] = None, is_active: Optional[bool] = None) -> list[dict]:
        """Users (time trackers) with their rates and timesheet approver, by email or active flag.

        Args:
            email: the user's work email (case-insensitive).
            is_active: True for active users.
        """
        return [u.model_dump() for u in select(self.state.users.values(), ieq("email", email), eq("is_active", is_active))]

    @tool(read_only=True, returns=list[TimeEntry])
    def list_time_entries(self, user_id: Optional[Id("employee")] = None,
                          project_id: Optional[Id("harvest_project")] = None,
                          client_id: Optional[Id("customer")] = None, from_date: Optional[Date] = None,
                          to_date: Optional[Date] = None, approval_status: Optional[ApprovalStatus] = None,
                          is_billed: Optional[bool] = None, limit: int = _LIMIT) -> list[dict]:
        """Time entries with their billable amount, filtered by user, project, client, dates or status.

        Args:
            user_id: the user.
            project_id: the project.
            client_id: the client.
            from_date: earliest spent_date.
            to_date: latest spent_date.
            approval_status: unsubmitted, submitted or approved.
            is_billed: True for invoiced time, False for uninvoiced.
            limit: maximum number of entries (1-500).
        """
        rows = select(self.state.time_entries.values(), eq("user_id", user_id), eq("project_id", project_id),
                      eq("client_id", client_id), eq("approval_status", approval_status), eq("is_billed", is_billed),
                      (lambda e: e.spent_date >= from_date) if from_date else None,
                      (lambda e: e.spent_date <= to_date) if to_date else None, limit=limit)
        return [self._entry_view(e) for e in rows]

    @tool(read_only=True, returns=TimeEntry)
    def get_time_entry(self, time_entry_id: Id("time_entry")) -> dict:
        """Get one time entry.

        Args:
            time_entry_id: the entry id, e.g. TE-0007.
        """
        return self._entry_view(self._entry(time_entry_id))

    @tool(read_only=True)
    def get_uninvoiced_report(self, client_id: Optional[Id("customer")] = None) -> list[dict]:
        """Per project: approved billable hours and amount not yet invoiced, and billable time awaiting approval (USD).

        Args:
            client_id: only this client's projects.
        """
        rows = select(self.state.projects.values(), eq("client_id", client_id))
        return [{**uninvoiced(p, self.state.time_entries.values()), "client_name": self.state.clients[p.client_id].name}
                for p in rows]

    @tool(read_only=True, returns=list[Timesheet])
    def list_timesheets(self, user_id: Optional[Id("employee")] = None, status: Optional[TimesheetStatus] = None,
                        approver_email: Optional[Email] = None) -> list[dict]:
        """Submitted weekly timesheets, by user, status or approver.

        Args:
            user_id: the user.
            status: submitted, approved or rejected.
            approver_email: the approving manager.
        """
        rows = select(self.state.timesheets.values(), eq("user_id", user_id), eq("status", status),
                      ieq("approver_email", approver_email))
        return [t.model_dump() for t in rows]

    @tool(read_only=True, returns=Timesheet)
    def get_timesheet(self, timesheet_id: Id("timesheet")) -> dict:
        """A timesheet with its week's entries, total and billable hours and billable amount.

        Args:
            timesheet_id: the timesheet id, e.g. TS-0004.
        """
        t = self._sheet(timesheet_id)
        entries = self._week_entries(t.user_id, t.week_of)
        return {**t.model_dump(), "user_email": self._user(t.user_id).email,
                "entries": [self._entry_view(e) for e in entries], "total_hours": round(sum(e.hours for e in entries), 2),
                "billable_hours": round(sum(e.hours for e in entries if e.billable), 2),
                "billable_amount": money(sum(map(amount, entries)))}

    @tool(read_only=True, returns=list[Invoice])
    def list_invoices(self, client_id: Optional[Id("customer")] = None, state: Optional[InvoiceState] = None) -> list[dict]:
        """Invoices, by client or state.

        Args:
            client_id: the client.
            state: open or paid.
        """
        return [i.model_dump() for i in select(self.state.invoices.values(), eq("client_id", client_id),
                                               eq("state", state))]

    @tool(read_only=True, returns=Invoice)
    def get_invoice(self, invoice_id: Id("invoice")) -> dict:
        """Get one invoice with its line items.

        Args:
            invoice_id: the invoice id, e.g. HIN-0001.
        """
        return self.lookup(self.state.invoices, invoice_id, "invoice").model_dump()
