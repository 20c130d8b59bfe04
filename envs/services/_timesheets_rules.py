"""Pure rules of the timesheets service: rates, budgets, uninvoiced time, weeks.

* A billable entry bills ``hours * billable_rate``; the rate is the
  project's ``hourly_rate`` (``bill_by`` Project) or the task assignment's.
* A budget in hours counts every tracked hour; a cost budget counts billable
  amounts. Passing the notification percentage warns, passing 100% flags the
  project over budget (Harvest keeps tracking; it does not refuse).
* Only approved, billable, not yet billed time is invoice-ready.

Example:
    >>> import datetime as dt
    >>> week_of(dt.date(2026, 1, 15))
    datetime.date(2026, 1, 12)
"""

from __future__ import annotations

import datetime as dt
from typing import Iterable, Optional

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._timesheets_models import Project, TimeEntry
from compoworld_gym.errors import Unprocessable

#: Most hours one user may track on one day.
DAY_LIMIT = 24.0


def week_of(day: dt.date) -> dt.date:
    """The Monday of ``day``'s week."""
    return day - dt.timedelta(days=day.weekday())


def amount(e: TimeEntry) -> float:
    """The billable amount of an entry (USD; 0 for non-billable time)."""
    return money(e.hours * e.billable_rate) if e.billable and e.billable_rate is not None else 0.0


def rate_for(project: Project, task_id: str) -> tuple[bool, Optional[float]]:
    """``(billable, rate)`` of time on ``task_id`` of ``project``.

    Raises:
        Unprocessable: 422 the task is not assigned to the project.
    """
    ta = next((t for t in project.task_assignments if t.task_id == task_id), None)
    if ta is None:
        raise Unprocessable(f"task {task_id} is not assigned to project {project.id}; its tasks are "
                            f"{', '.join(t.task_id for t in project.task_assignments)}.")
    billable = project.is_billable and ta.billable
    rate = project.hourly_rate if project.bill_by == "Project" else ta.hourly_rate
    return billable, rate if billable else None


def budget_report(project: Project, entries: Iterable[TimeEntry]) -> dict:
    """The project's budget use: spent, remaining, percent used, warning and over-budget flags."""
    mine = [e for e in entries if e.project_id == project.id]
    if project.budget_by == "none" or project.budget is None:
        return {"budget_by": "none", "budget": None, "budget_spent": None, "budget_remaining": None,
                "budget_percent_used": None, "over_notification_threshold": False, "over_budget": False}
    spent = round(sum(e.hours for e in mine), 2) if project.budget_by == "project" else money(sum(map(amount, mine)))
    pct = round(100 * spent / project.budget, 1) if project.budget else 0.0
    return {"budget_by": project.budget_by, "budget": project.budget, "budget_spent": spent,
            "budget_remaining": round(project.budget - spent, 2), "budget_percent_used": pct,
            "over_notification_threshold": pct >= project.over_budget_notification_percentage,
            "over_budget": spent > project.budget}


def invoice_ready(e: TimeEntry) -> bool:
    """Whether an entry can go on an invoice: approved, billable, not billed."""
    return e.approval_status == "approved" and e.billable and not e.is_billed and e.billable_rate is not None


def uninvoiced(project: Project, entries: Iterable[TimeEntry]) -> dict:
    """Invoice-ready hours and amount of a project, and the billable amount still awaiting approval (USD)."""
    mine = [e for e in entries if e.project_id == project.id and e.billable and not e.is_billed]
    ready = [e for e in mine if invoice_ready(e)]
    return {"project_id": project.id, "client_id": project.client_id, "project_name": project.name,
            "uninvoiced_hours": round(sum(e.hours for e in ready), 2),
            "uninvoiced_amount": money(sum(map(amount, ready))),
            "pending_approval_amount": money(sum(amount(e) for e in mine if e.approval_status != "approved"))}
