"""Task requests: work requests split into tasks, done one by one with approval.

Follows the MCP server ``taskmanager`` (MCP TaskManager,
``kazuph/mcp-taskmanager``): all ten of its tools with their camelCase
parameters (``requestId``, ``taskId``, ``originalRequest``,
``splitDetails``, ``completedDetails``, ``tasks`` as ``{title,
description}`` objects) and its ids (``req-1``, ``task-3``, one task
counter across requests). The company uses it for internal work requests
raised by staff: vendor onboarding, laptop refreshes, customer escalation
follow-ups; their tasks quote the order, vendor or employee they are about.

Rules of the real server kept here: ``get_next_task`` returns the first
task not done yet (``all_tasks_done`` once every task is done); a task is
marked done once (with ``completedDetails``) and must be done before the
user approves it; a done task cannot be updated or deleted; a request is
approved (``approve_request_completion``) only when all its tasks are done
and approved, and an approved request is frozen (no new tasks, no changes).
The server's progress table is returned as structured rows (``tasks``).
Departures: requests carry the staff owner and creation date (the company's
additions); a repeated done/approval is a 409 instead of a soft message.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._task_requests_models import (
    TaskItem, TaskRequest, TaskRequestsState, TaskSpec,
)
from compoworld_gym.envs.services._task_requests_rules import (
    awaiting_approval, next_pending, progress, progress_row, require_approvable, require_editable, require_open,
    require_request_ready, summary,
)
from compoworld_gym.envs.services._task_requests_seed import build_state
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound
from compoworld_gym.service import Service, tool

#: Requests and tasks are numbered like the server's: req-1, task-1.
REQ, TASK = "req", "task"


class TaskRequests(Service):
    """MCP TaskManager: requests, their ordered tasks, done-then-approved."""

    name = "task_requests"
    description = ("Task manager for internal work requests (vendor onboarding, laptop refresh, escalation "
                   "follow-ups): planned tasks done in order, each approved, then the whole request approved.")
    domain = "productivity"
    spec_source = "taskmanager"
    State = TaskRequestsState

    # --------------------------------------------------------------- helpers
    def _request(self, request_id: str) -> TaskRequest:
        return self.lookup(self.state.requests, request_id, "request")

    def _task(self, request_id: str, task_id: str) -> tuple[TaskRequest, TaskItem]:
        req = self._request(request_id)
        t = self.lookup(self.state.tasks, task_id, "task")
        if t.requestId != req.id:
            raise NotFound(f"task {task_id} is not in request {req.id} (it belongs to {t.requestId}).")
        return req, t

    def _add(self, req: TaskRequest, specs: list[TaskSpec]) -> list[TaskItem]:
        made = []
        for spec in specs:
            t = TaskItem(id=self.new_id(TASK, 1), requestId=req.id, title=spec.title.strip(),
                         description=spec.description.strip())
            self.state.tasks[t.id] = t
            req.taskIds.append(t.id)
            made.append(t)
        return made

    def _table(self, req: TaskRequest) -> list[dict]:
        return progress(req, self.state.tasks)

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_requests(self) -> dict:
        """List all requests with their owner, task counts and progress table."""
        rows = [summary(r, self.state.tasks) for r in self.state.requests.values()]
        return {"requests": rows, "total": len(rows)}

    @tool(read_only=True)
    def open_task_details(self, taskId: Id("task")) -> dict:  # noqa: N803
        """Get a task's details, with the request it belongs to.

        Args:
            taskId: the task id, e.g. task-3.
        """
        t = self.lookup(self.state.tasks, taskId, "task")
        req = self.state.requests[t.requestId]
        return {"requestId": req.id, "originalRequest": req.originalRequest, "splitDetails": req.splitDetails,
                "ownerEmail": req.ownerEmail, "completed": req.completed,
                "task": {**progress_row(t), "doneAt": t.doneAt}}

    @tool(read_only=True)
    def get_next_task(self, requestId: Id("task_request")) -> dict:  # noqa: N803
        """The next pending (not done) task of a request, with the progress table.

        Once every task is done the status is all_tasks_done and the request awaits completion
        approval; done tasks still awaiting approval are listed in awaitingApproval.

        Args:
            requestId: the request id, e.g. req-2.
        """
        req = self._request(requestId)
        base = {"requestId": req.id, "originalRequest": req.originalRequest, "ownerEmail": req.ownerEmail,
                "awaitingApproval": awaiting_approval(req, self.state.tasks), "tasks": self._table(req)}
        if req.completed:
            return {"status": "already_completed", **base,
                    "message": f"Request {req.id} is already completed and approved."}
        nxt = next_pending(req, self.state.tasks)
        if nxt is None:
            return {"status": "all_tasks_done", **base,
                    "message": "All tasks are done; wait for approval of the request (approve_request_completion)."}
        return {"status": "next_task", **base,
                "task": {"id": nxt.id, "title": nxt.title, "description": nxt.description},
                "message": f"Next task is {nxt.id}: {nxt.title}."}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False)
    def request_planning(self, originalRequest: str = Field(min_length=1, max_length=2000),  # noqa: N803
                         tasks: list[TaskSpec] = Field(min_length=1, max_length=30),
                         splitDetails: Optional[str] = Field(default=None, max_length=4000)) -> dict:  # noqa: N803
        """Register a new request and plan its tasks, in order.

        Args:
            originalRequest: the request as the user put it.
            tasks: the tasks, each {title, description}, in the order they are to be done.
            splitDetails: how the request was split into tasks (defaults to the request).
        """
        req = TaskRequest(id=self.new_id(REQ, 1), originalRequest=originalRequest.strip(),
                          splitDetails=(splitDetails or originalRequest).strip(), ownerEmail=OPS_EMAIL,
                          createdOn=self.today)
        self.state.requests[req.id] = req
        made = self._add(req, tasks)
        return {"status": "planned", "requestId": req.id, "totalTasks": len(made),
                "tasks": [{"id": t.id, "title": t.title, "description": t.description} for t in made],
                "message": f"Planned {len(made)} tasks; call get_next_task for {req.id}."}

    @tool(read_only=False)
    def add_tasks_to_request(self, requestId: Id("task_request"),  # noqa: N803
                             tasks: list[TaskSpec] = Field(min_length=1, max_length=30)) -> dict:
        """Append tasks to a request that is not completed yet.

        Args:
            requestId: the request to extend.
            tasks: the new tasks, each {title, description}, in order.
        """
        req = self._request(requestId)
        require_open(req, "add tasks")
        made = self._add(req, tasks)
        return {"status": "task_added", "requestId": req.id, "newTasks": [t.id for t in made],
                "tasks": self._table(req)}

    @tool(read_only=False)
    def mark_task_done(self, requestId: Id("task_request"), taskId: Id("task"),  # noqa: N803
                       completedDetails: Optional[str] = Field(default=None, max_length=4000)) -> dict:  # noqa: N803
        """Mark a task done, saying what was done; it then awaits the user's approval.

        Args:
            requestId: the request containing the task.
            taskId: the task done.
            completedDetails: what was done (e.g. the value found or the confirmation received).
        """
        req, t = self._task(requestId, taskId)
        require_open(req, "mark tasks done")
        if t.done:
            raise Conflict(f"task {t.id} is already done.")
        t.done, t.completedDetails, t.doneAt = True, (completedDetails or "").strip(), self.now()
        return {"status": "task_marked_done", "requestId": req.id, "task": progress_row(t),
                "tasks": self._table(req),
                "message": f"Task {t.id} is done; wait for approval (approve_task_completion)."}

    @tool(read_only=False)
    def approve_task_completion(self, requestId: Id("task_request"), taskId: Id("task")) -> dict:  # noqa: N803
        """Approve a task that was marked done.

        Args:
            requestId: the request containing the task.
            taskId: the done task to approve.
        """
        req, t = self._task(requestId, taskId)
        require_open(req, "approve tasks")
        require_approvable(t)
        t.approved = True
        return {"status": "task_approved", "requestId": req.id, "task": progress_row(t), "tasks": self._table(req)}

    @tool(read_only=False)
    def approve_request_completion(self, requestId: Id("task_request")) -> dict:  # noqa: N803
        """Approve the whole request once every task is done and approved; it is then frozen.

        Args:
            requestId: the request to approve.
        """
        req = self._request(requestId)
        require_open(req, "approve it again")
        require_request_ready(req, self.state.tasks)
        req.completed = True
        return {"status": "request_approved_complete", "requestId": req.id, "tasks": self._table(req),
                "message": f"Request {req.id} is completed."}

    @tool(read_only=False)
    def update_task(self, requestId: Id("task_request"), taskId: Id("task"),  # noqa: N803
                    title: Optional[str] = Field(default=None, min_length=1, max_length=200),
                    description: Optional[str] = Field(default=None, max_length=4000)) -> dict:
        """Change the title and/or description of a task not done yet.

        Args:
            requestId: the request containing the task.
            taskId: the task to change.
            title: the new title.
            description: the new description.
        """
        req, t = self._task(requestId, taskId)
        require_open(req, "update tasks")
        require_editable(t, "updated")
        if title is None and description is None:
            raise InvalidArgument("nothing to update: give a title and/or a description.")
        t.title = title.strip() if title is not None else t.title
        t.description = description.strip() if description is not None else t.description
        return {"status": "task_updated", "requestId": req.id, "task": progress_row(t), "tasks": self._table(req)}

    @tool(read_only=False, destructive=True)
    def delete_task(self, requestId: Id("task_request"), taskId: Id("task")) -> dict:  # noqa: N803
        """Delete a task not done yet from its request.

        Args:
            requestId: the request containing the task.
            taskId: the task to delete.
        """
        req, t = self._task(requestId, taskId)
        require_open(req, "delete tasks")
        require_editable(t, "deleted")
        del self.state.tasks[t.id]
        req.taskIds.remove(t.id)
        return {"status": "task_deleted", "requestId": req.id, "taskId": t.id, "tasks": self._table(req)}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> TaskRequestsState:
        return build_state(rng, today)


__all__ = ["TaskRequests"]
