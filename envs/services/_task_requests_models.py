"""Records of the task_requests service (MCP TaskManager, ``kazuph/mcp-taskmanager``).

Field names are the server's own camelCase ones (``requestId``,
``originalRequest``, ``splitDetails``, ``completedDetails``), so a field a
tool writes is the field a rubric check reads. The server keeps tasks inside
their request; here they are one collection keyed by task id (``task-3``),
each naming its request, so a check can address one task. Owner and dates
are the company's additions (who raised the work request, and when).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from compoworld_gym.entities import Date, DateTime, Email, Id
from compoworld_gym.service import Record, ServiceState

#: A task's place in the workflow: not done, done awaiting approval, done and approved.
TaskStatus = Literal["pending", "done", "approved"]


class TaskItem(Record):
    """One task of a work request (the server's ``Task``)."""

    id: Id("task") = Field(description="Task id, e.g. task-3 (one counter across requests).")
    requestId: Id("task_request") = Field(description="The request the task belongs to, e.g. req-2.")  # noqa: N815
    title: str = Field(description="Short title of the task.")
    description: str = Field(description="What to do; quotes the order, vendor or employee it is about.")
    done: bool = Field(default=False, description="True once marked done.")
    approved: bool = Field(default=False, description="True once the user approved the done task.")
    completedDetails: str = Field(default="", description="What was done, given when marked done.")  # noqa: N815
    doneAt: DateTime | None = Field(default=None, description="When marked done (logical clock).")  # noqa: N815


class TaskRequest(Record):
    """A user's request and its planned tasks (the server's ``RequestEntry``)."""

    id: Id("task_request") = Field(description="Request id, e.g. req-1.")
    originalRequest: str = Field(description="The request as the user put it.")  # noqa: N815
    splitDetails: str = Field(default="", description="How the request was split into tasks.")  # noqa: N815
    ownerEmail: Email = Field(description="Staff member who raised the request.")  # noqa: N815
    createdOn: Date = Field(description="When the request was registered.")  # noqa: N815
    completed: bool = Field(default=False, description="True once the whole request was approved (then frozen).")
    taskIds: list[Id("task")] = Field(default_factory=list, description="Its tasks, in order.")  # noqa: N815


class TaskRequestsState(ServiceState):
    """Requests and their tasks."""

    requests: dict[str, TaskRequest] = Field(default_factory=dict, description="Requests by id.")
    tasks: dict[str, TaskItem] = Field(default_factory=dict, description="Tasks by id.")


class TaskSpec(BaseModel):
    """A task to plan: the spec's ``{title, description}`` object."""

    model_config = ConfigDict(extra="forbid")
    title: str = Field(min_length=1, max_length=200, description="The task's title.")
    description: str = Field(max_length=4000, description="What the task involves.")


def task_status(t: TaskItem) -> TaskStatus:
    """pending, done (awaiting approval) or approved."""
    return "approved" if t.approved else "done" if t.done else "pending"
