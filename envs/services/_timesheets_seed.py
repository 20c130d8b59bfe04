"""Seed factory of the timesheets service.

Clients are the shared customer accounts (``_accounts``: same ids and
company names as contracts, CRM and customer feedback); users are the
roster's client-facing staff (same employee ids and emails as the HR
services), approved by their manager. Two weeks ago is approved (partly
invoiced), last week is submitted and awaiting approval (one user's week
was rejected), this week is still open. One project is archived and fully
billed; one is past its budget.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._blocks import seed_id
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._timesheets_models import (
    HarvestClient, HarvestTask, HarvestUser, Invoice, InvoiceLineItem, Project, TaskAssignment, TimeEntry, Timesheet,
    TimesheetsState,
)
from compoworld_gym.envs.services._timesheets_rules import amount, rate_for, week_of
from compoworld_gym.envs.services._workforce import Person

TASKS: tuple[HarvestTask, ...] = (
    HarvestTask(id="TSK-0001", name="Implementation", billable_by_default=True, default_hourly_rate=175.0),
    HarvestTask(id="TSK-0002", name="Training", billable_by_default=True, default_hourly_rate=150.0),
    HarvestTask(id="TSK-0003", name="Project Management", billable_by_default=True, default_hourly_rate=190.0),
    HarvestTask(id="TSK-0004", name="Compliance Review", billable_by_default=True, default_hourly_rate=225.0),
    HarvestTask(id="TSK-0005", name="Travel", billable_by_default=False),
    HarvestTask(id="TSK-0006", name="Internal Meeting", billable_by_default=False),
)
_RATES = {t.id: t.default_hourly_rate for t in TASKS}
#: Departments whose people track client time, and the project each works on.
_TEAMS = {"Customer Success": 0, "Engineering": 1, "Privacy & Legal": 2, "Customer Support": 4}
#: (account index, name, code, bill_by, project rate, budget_by, budget, task ids, active).
_PROJECTS = (
    (0, "ERP Integration Rollout", "GLX-ERP", "Tasks", None, "project", 120.0, ("TSK-0001", "TSK-0002", "TSK-0003",
                                                                                 "TSK-0005"), True),
    (1, "SSO Migration", "INI-SSO", "Project", 180.0, "project_cost", 9000.0, ("TSK-0001", "TSK-0006"), True),
    (2, "HIPAA Compliance Review", "UMB-HIPAA", "Tasks", None, "project", 80.0, ("TSK-0004", "TSK-0003"), True),
    (3, "Fleet Dashboard Onboarding", "STK-FLT", "Tasks", None, "project", 40.0, ("TSK-0001", "TSK-0002"), True),
    (4, "Guest Portal Support Retainer", "WYN-RET", "Project", 150.0, "none", None, ("TSK-0001",), True),
    (5, "Recipe Data Migration", "SOY-MIG", "Project", 165.0, "project", 30.0, ("TSK-0001",), False),
)


def _project(state: TimesheetsState, spec: tuple, manager: str, users: list[str], today: dt.date) -> Project:
    acct, name, code, bill_by, rate, budget_by, budget, tasks, active = spec
    pid = seed_id(state, "PRJ")
    p = Project(id=pid, client_id=ACCOUNTS[acct].id, name=name, code=code, is_active=active, bill_by=bill_by,
                hourly_rate=rate, budget_by=budget_by, budget=budget, starts_on=today - dt.timedelta(days=90),
                manager_email=manager, user_ids=users,
                task_assignments=[TaskAssignment(task_id=t, billable=_RATES[t] is not None,
                                                 hourly_rate=_RATES[t] if bill_by == "Tasks" else None) for t in tasks])
    state.projects[pid] = p
    return p


def _entry(state: TimesheetsState, p: Project, user: str, task: str, day: dt.date, hours: float, notes: str,
           status: str) -> TimeEntry:
    billable, rate = rate_for(p, task)
    eid = seed_id(state, "TE")
    e = TimeEntry(id=eid, spent_date=day, user_id=user, project_id=p.id, client_id=p.client_id, task_id=task,
                  hours=hours, notes=notes, billable=billable, billable_rate=rate, approval_status=status,
                  created_at=dt.datetime.combine(day, dt.time(17, 30)))
    state.time_entries[eid] = e
    return e


_NOTES = ("Configured data mappings with the client team", "Working session on open issues",
          "Prepared and ran training for admins", "Status call and plan update", "Reviewed findings and wrote up")


def build_state(people: tuple[Person, ...], rng: random.Random, today: dt.date) -> TimesheetsState:
    """Clients, users, tasks, projects, three weeks of time, timesheets and invoices.

    Args:
        people: the shared roster (see :func:`._workforce.roster`).
        rng: seeded random source (hours, notes, rates, who was rejected).
        today: the task's date.
    """
    state = TimesheetsState(tasks={t.id: t.model_copy() for t in TASKS})
    for a in ACCOUNTS:
        state.clients[a.id] = HarvestClient(id=a.id, name=a.company, is_active=a.id != "CUS-0009")
    by_id = {p.employee_id: p for p in people}
    teams: dict[int, list[str]] = {}
    for p in people:
        if p.department in _TEAMS:
            first, last = p.name.split(" ", 1)
            head = by_id[p.manager_id].department != p.department if p.manager_id else True
            state.users[p.employee_id] = HarvestUser(
                id=p.employee_id, first_name=first, last_name=last, email=p.email, department=p.department,
                default_hourly_rate=225.0 if head else 175.0, cost_rate=money(p.annual_salary / 2080),
                approver_email=by_id[p.manager_id].email if p.manager_id else None)
            teams.setdefault(_TEAMS[p.department], []).append(p.employee_id)
    cs = teams[0]
    projects = []
    for k, spec in enumerate(_PROJECTS):
        users = teams.get(k, cs if k in (3, 5) else [])
        projects.append(_project(state, spec, state.users[users[0]].email, list(users), today))
    _time(state, projects, teams, rng, today)
    return state


def _time(state: TimesheetsState, projects: list[Project], teams: dict[int, list[str]], rng: random.Random,
          today: dt.date) -> None:
    monday = week_of(today)
    weeks = (monday - dt.timedelta(days=14), monday - dt.timedelta(days=7), monday)
    users = [u for k in sorted(teams) for u in teams[k]]
    rejected = rng.choice(users)
    for k in sorted(teams):
        for n, uid in enumerate(teams[k]):
            # Customer Success splits its time between Globex and Stark Logistics.
            p = projects[3] if k == 0 and n == len(teams[k]) - 1 else projects[k]
            billable = [t.task_id for t in p.task_assignments if t.billable]
            for w, week in enumerate(weeks):
                status = ("approved", "unsubmitted" if uid == rejected else "submitted", "unsubmitted")[w]
                days = (1,) if w == 0 else (1, 3) if w == 1 else (0,)
                for d in days:
                    _entry(state, p, uid, billable[(n + d) % len(billable)], week + dt.timedelta(days=d),
                           rng.choice((4.0, 5.5, 6.0, 7.5, 8.0)), rng.choice(_NOTES), status)
                if w < 2:
                    _sheet(state, uid, week, "approved" if w == 0 else "rejected" if uid == rejected else "submitted",
                           today)
    _archived(state, projects[5], teams[0][0], weeks[0], today)


def _sheet(state: TimesheetsState, uid: str, week: dt.date, status: str, today: dt.date) -> None:
    user = state.users[uid]
    sent = dt.datetime.combine(week + dt.timedelta(days=4), dt.time(17, 45))
    decided = sent + dt.timedelta(days=3, hours=-1) if status != "submitted" else None
    tid = seed_id(state, "TS")
    state.timesheets[tid] = Timesheet(
        id=tid, user_id=uid, week_of=week, status=status, approver_email=user.approver_email or user.email,
        submitted_at=sent, decided_at=decided, decided_by=user.approver_email if decided else None,
        rejection_note="Split the Thursday block between implementation and training." if status == "rejected"
        else None)


def _archived(state: TimesheetsState, p: Project, uid: str, week: dt.date, today: dt.date) -> None:
    """The archived project's approved time, all billed on one paid invoice."""
    entries = [_entry(state, p, uid, "TSK-0001", week - dt.timedelta(days=7 * k - 2), 8.0,
                      "Migrated recipe catalogue batch", "approved") for k in (3, 2, 1)]
    iid = seed_id(state, "HIN")
    total = money(sum(map(amount, entries)))
    hours = sum(e.hours for e in entries)
    issued = week - dt.timedelta(days=1)
    state.invoices[iid] = Invoice(
        id=iid, client_id=p.client_id, number=f"{issued.year}-{int(iid[4:]):04d}", subject=f"{p.name} - final",
        state="paid", issue_date=issued, due_date=issued + dt.timedelta(days=30),
        line_items=[InvoiceLineItem(description=f"{p.name}: Implementation", project_id=p.id, quantity=hours,
                                    unit_price=p.hourly_rate or 0.0, amount=total)],
        amount=total, time_entry_ids=[e.id for e in entries])
    for e in entries:
        e.is_billed, e.invoice_id = True, iid
