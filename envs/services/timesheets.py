"""Timesheets: client projects, time tracking, weekly approval and invoicing of billable hours.

No time-tracking server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Harvest API v2:
``/clients``, ``/projects`` (``bill_by``, ``hourly_rate``, ``budget_by``,
``budget``, ``over_budget_notification_percentage``, task and user
assignments, ``is_active``), ``/tasks``, ``/users``, ``/time_entries``
(``spent_date``, ``hours``, ``notes``, ``billable``, ``billable_rate``,
``is_billed``, ``approval_status``), timesheet approval per week,
``/reports/uninvoiced`` and ``/invoices`` importing uninvoiced time.

Clients are the shared customer accounts, users the roster's client-facing
staff (see :mod:`._timesheets_seed`). Rules: no user tracks over 24 hours a
day; approved, submitted (awaiting approval) and billed entries cannot be
edited or deleted; no time on an archived project or a task the project
lacks, nor by a user not assigned to it; the user's manager approves or
rejects a submitted week; only approved billable time is invoiced; a project
past its budget is flagged (time is still accepted). Left out: expenses,
estimates, timers, retainers and project reports other than budget.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._timesheets_base import TimesheetsBase
from compoworld_gym.envs.services._timesheets_models import (
    Invoice, InvoiceLineItem, Project, TimeEntry, Timesheet, TimesheetsState,
)
from compoworld_gym.envs.services._timesheets_rules import amount, budget_report, invoice_ready, week_of
from compoworld_gym.envs.services._timesheets_seed import build_state
from compoworld_gym.envs.services._workforce import roster
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import tool


class Timesheets(TimesheetsBase):
    """Harvest-style time tracking: projects with budgets, time entries, approvals, invoices."""

    name = "timesheets"
    description = ("Time tracking for client projects: hourly rates and budgets, time entries, weekly timesheet "
                   "approval, uninvoiced billable hours and invoices to clients.")
    domain = "hr"
    spec_source = None
    State = TimesheetsState

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=TimeEntry)
    def create_time_entry(self, user_id: Id("employee"), project_id: Id("harvest_project"), task_id: str,
                          spent_date: Date, hours: float = Field(gt=0, le=24),
                          notes: str = Field(default="", max_length=500)) -> dict:
        """Track hours on a project task; billable flag and rate come from the project. Warns past the budget.

        Args:
            user_id: a user assigned to the project.
            project_id: an active project.
            task_id: one of the project's tasks.
            spent_date: the day (not in the future; its week not submitted or approved).
            hours: decimal hours (the user's day may not pass 24 h).
            notes: what was done.
        """
        p, user = self._project(project_id), self._user(user_id)
        billable, rate = self._check_entry(p, user, task_id, spent_date, hours)
        e = TimeEntry(id=self.new_id("TE"), spent_date=spent_date, user_id=user.id, project_id=p.id,
                      client_id=p.client_id, task_id=task_id, hours=round(hours, 2), notes=notes, billable=billable,
                      billable_rate=rate, created_at=self.now())
        self.state.time_entries[e.id] = e
        return {**self._entry_view(e), "project_budget": budget_report(p, self.state.time_entries.values())}

    @tool(read_only=False, returns=TimeEntry)
    def update_time_entry(self, time_entry_id: Id("time_entry"), hours: Optional[float] = Field(default=None, gt=0,
                                                                                               le=24),
                          notes: Optional[str] = Field(default=None, max_length=500), task_id: Optional[str] = None,
                          spent_date: Optional[Date] = None) -> dict:
        """Change an unsubmitted, unbilled time entry (approved entries are locked).

        Args:
            time_entry_id: the entry.
            hours: new hours.
            notes: new notes.
            task_id: another task of the project.
            spent_date: another day.
        """
        e = self._entry(time_entry_id)
        self._editable(e, "edited")
        p, user = self._project(e.project_id), self._user(e.user_id)
        new_hours, new_task, new_day = hours or e.hours, task_id or e.task_id, spent_date or e.spent_date
        billable, rate = self._check_entry(p, user, new_task, new_day, new_hours, skip=e.id)
        e.hours, e.task_id, e.spent_date, e.billable, e.billable_rate = round(new_hours, 2), new_task, new_day, \
            billable, rate
        if notes is not None:
            e.notes = notes
        return {**self._entry_view(e), "project_budget": budget_report(p, self.state.time_entries.values())}

    @tool(read_only=False, destructive=True)
    def delete_time_entry(self, time_entry_id: Id("time_entry")) -> dict:
        """Delete an unsubmitted, unbilled time entry.

        Args:
            time_entry_id: the entry.
        """
        e = self._entry(time_entry_id)
        self._editable(e, "deleted")
        del self.state.time_entries[e.id]
        return {"deleted": e.id}

    @tool(read_only=False, returns=Timesheet)
    def submit_timesheet(self, user_id: Id("employee"), week_of_date: Date) -> dict:
        """Submit a user's week for approval by their manager; its entries lock.

        Args:
            user_id: the user.
            week_of_date: the Monday of the week (the week has begun).
        """
        user = self._user(user_id)
        if week_of_date.weekday() != 0:
            raise Unprocessable(f"{week_of_date} is not a Monday; pass {week_of(week_of_date)}.")
        if week_of_date > self.today:
            raise Unprocessable(f"the week of {week_of_date} has not begun.")
        if user.approver_email is None:
            raise Unprocessable(f"user {user.id} has no approver.")
        open_ = [e for e in self._week_entries(user.id, week_of_date) if e.approval_status == "unsubmitted"]
        t = next((t for t in self.state.timesheets.values() if t.user_id == user.id and t.week_of == week_of_date),
                 None)
        if t is not None and t.status != "rejected":
            raise Conflict(f"the week of {week_of_date} is already {t.status} (timesheet {t.id}).")
        if not open_:
            raise Unprocessable(f"user {user.id} has no time in the week of {week_of_date}.")
        if t is None:
            t = Timesheet(id=self.new_id("TS"), user_id=user.id, week_of=week_of_date, status="submitted",
                          approver_email=user.approver_email, submitted_at=self.now())
            self.state.timesheets[t.id] = t
        else:
            t.status, t.submitted_at, t.decided_at, t.decided_by = "submitted", self.now(), None, None
        for e in open_:
            e.approval_status = "submitted"
        return t.model_dump()

    @tool(read_only=False, returns=Timesheet)
    def approve_timesheet(self, timesheet_id: Id("timesheet"), approver_email: Email) -> dict:
        """Approve a submitted week as the user's manager; its entries become approved (invoice-ready if billable).

        Args:
            timesheet_id: a submitted timesheet.
            approver_email: the user's manager (the timesheet's approver_email).
        """
        t = self._decide(timesheet_id, approver_email)
        t.status, t.rejection_note = "approved", None
        for e in self._week_entries(t.user_id, t.week_of):
            if e.approval_status == "submitted":
                e.approval_status = "approved"
        return t.model_dump()

    @tool(read_only=False, returns=Timesheet)
    def reject_timesheet(self, timesheet_id: Id("timesheet"), approver_email: Email,
                         note: str = Field(min_length=3, max_length=500)) -> dict:
        """Reject a submitted week; its entries reopen for the user to fix and resubmit.

        Args:
            timesheet_id: a submitted timesheet.
            approver_email: the user's manager.
            note: what to fix.
        """
        t = self._decide(timesheet_id, approver_email)
        t.status, t.rejection_note = "rejected", note
        for e in self._week_entries(t.user_id, t.week_of):
            if e.approval_status == "submitted":
                e.approval_status = "unsubmitted"
        return t.model_dump()

    @tool(read_only=False, returns=Invoice)
    def create_invoice(self, client_id: Id("customer"), subject: str = Field(min_length=3, max_length=200),
                       project_ids: Optional[list[Id("harvest_project")]] = Field(default=None, max_length=20),
                       payment_term_days: int = Field(default=30, ge=0, le=120)) -> dict:
        """Invoice a client's approved, billable, uninvoiced time (optionally only some projects); one line per
        project task and rate. The entries are marked billed.

        Args:
            client_id: the client.
            subject: invoice subject.
            project_ids: only these projects of the client (default: all).
            payment_term_days: days until due (net 30 by default).
        """
        client = self.lookup(self.state.clients, client_id, "client")
        for pid in project_ids or []:
            if self._project(pid).client_id != client.id:
                raise Unprocessable(f"project {pid} belongs to another client.")
        ready = [e for e in self.state.time_entries.values() if e.client_id == client.id and invoice_ready(e)
                 and (not project_ids or e.project_id in project_ids)]
        if not ready:
            raise Unprocessable(f"client {client.id} has no approved uninvoiced billable time"
                                f"{' on those projects' if project_ids else ''}.")
        iid = self.new_id("HIN")
        lines: dict[tuple, list[TimeEntry]] = {}
        for e in ready:
            lines.setdefault((e.project_id, e.task_id, e.billable_rate), []).append(e)
        items = [InvoiceLineItem(description=f"{self.state.projects[pid].name}: {self.state.tasks[tid].name}",
                                 project_id=pid, quantity=round(sum(e.hours for e in es), 2), unit_price=rate,
                                 amount=money(sum(map(amount, es)))) for (pid, tid, rate), es in lines.items()]
        inv = Invoice(id=iid, client_id=client.id, number=f"{self.today.year}-{int(iid[4:]):04d}", subject=subject,
                      state="open", issue_date=self.today, due_date=self.today + dt.timedelta(days=payment_term_days),
                      line_items=items, amount=money(sum(i.amount for i in items)), time_entry_ids=[e.id for e in ready])
        self.state.invoices[iid] = inv
        for e in ready:
            e.is_billed, e.invoice_id = True, iid
        return inv.model_dump()

    @tool(read_only=False, returns=Project)
    def update_project(self, project_id: Id("harvest_project"), notes: Optional[str] = Field(default=None,
                                                                                            max_length=2000),
                       budget: Optional[float] = Field(default=None, ge=1, le=1e7),
                       is_active: Optional[bool] = None) -> dict:
        """Change a project's notes or budget, or archive (is_active false) / restore it.

        Args:
            project_id: the project.
            notes: new notes (replace the old ones).
            budget: new budget in the project's budget unit (hours or USD); needs a budget_by.
            is_active: false archives the project, true restores it.
        """
        p = self._project(project_id)
        if notes is None and budget is None and is_active is None:
            raise Unprocessable("give notes, budget or is_active to change.")
        if budget is not None and p.budget_by == "none":
            raise Unprocessable(f"project {p.id} has no budget (budget_by none).")
        if is_active is not None and is_active == p.is_active:
            raise Conflict(f"project {p.id} is already {'active' if is_active else 'archived'}.")
        if notes is not None:
            p.notes = notes
        if budget is not None:
            p.budget = budget
        if is_active is not None:
            p.is_active = is_active
        return self._project_view(p)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> TimesheetsState:
        """The seeded state on the shared roster for the same seed (same employee ids and emails)."""
        return build_state(roster(seed, today), random.Random(f"{cls.name}:{seed}"), today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> TimesheetsState:
        """A state on a roster drawn from the stream (used without a seed number)."""
        return build_state(roster(rng.randrange(2**31), today), rng, today)


__all__ = ["Timesheets"]
