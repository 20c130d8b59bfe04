"""Workflow rules of the task_requests service (MCP TaskManager).

The server's cycle: plan a request's tasks, take the next pending task, mark
it done (with what was done), wait for the user to approve it, and once every
task is done and approved the user approves the whole request, which then is
frozen. A done task can no longer be edited or deleted ("only uncompleted
tasks can be updated"). Pure functions over the records; the tools raise.
"""

from __future__ import annotations

from typing import Optional

from compoworld_gym.envs.services._task_requests_models import TaskItem, TaskRequest, task_status
from compoworld_gym.errors import Conflict, Unprocessable


def progress_row(t: TaskItem) -> dict:
    """One row of the server's progress table."""
    return {"id": t.id, "title": t.title, "description": t.description, "status": task_status(t),
            "done": t.done, "approved": t.approved, "completedDetails": t.completedDetails}


def progress(req: TaskRequest, tasks: dict[str, TaskItem]) -> list[dict]:
    """The progress table of a request: its tasks in order."""
    return [progress_row(tasks[i]) for i in req.taskIds]


def summary(req: TaskRequest, tasks: dict[str, TaskItem]) -> dict:
    """A request with its task counts and progress table (``list_requests``)."""
    rows = [tasks[i] for i in req.taskIds]
    return {"id": req.id, "originalRequest": req.originalRequest, "splitDetails": req.splitDetails,
            "ownerEmail": req.ownerEmail, "createdOn": req.createdOn, "completed": req.completed,
            "totalTasks": len(rows), "completedTasks": sum(t.done for t in rows),
            "approvedTasks": sum(t.approved for t in rows), "tasks": progress(req, tasks)}


def next_pending(req: TaskRequest, tasks: dict[str, TaskItem]) -> Optional[TaskItem]:
    """The first task of the request, in order, that is not done yet."""
    return next((tasks[i] for i in req.taskIds if not tasks[i].done), None)


def awaiting_approval(req: TaskRequest, tasks: dict[str, TaskItem]) -> list[str]:
    """Ids of done tasks the user has not approved yet."""
    return [i for i in req.taskIds if tasks[i].done and not tasks[i].approved]


def require_open(req: TaskRequest, action: str) -> None:
    """A completed (approved) request is frozen."""
    if req.completed:
        raise Conflict(f"request {req.id} is completed and approved; cannot {action}. "
                       "Plan a new request (request_planning) for further work.")


def require_editable(t: TaskItem, action: str) -> None:
    """Only a task not yet done may be updated or deleted."""
    if t.done:
        state = "done and approved" if t.approved else "done (awaiting approval)"
        raise Conflict(f"task {t.id} is {state}; only uncompleted tasks can be {action}.")


def require_approvable(t: TaskItem) -> None:
    """A task is approved once, and only after it was marked done."""
    if t.approved:
        raise Conflict(f"task {t.id} is already approved.")
    if not t.done:
        raise Conflict(f"task {t.id} is not done yet; mark it done (mark_task_done) before approving it.")


def require_request_ready(req: TaskRequest, tasks: dict[str, TaskItem]) -> None:
    """A request is approved only when it has tasks and every one is done and approved."""
    if not req.taskIds:
        raise Unprocessable(f"request {req.id} has no tasks to complete; add tasks first.")
    not_done = [i for i in req.taskIds if not tasks[i].done]
    if not_done:
        raise Conflict(f"request {req.id} still has tasks not done: {', '.join(not_done)}.")
    unapproved = awaiting_approval(req, tasks)
    if unapproved:
        raise Conflict(f"request {req.id} has done tasks awaiting approval: {', '.join(unapproved)}; "
                       "approve them (approve_task_completion) first.")
