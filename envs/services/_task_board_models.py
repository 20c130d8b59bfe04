"""State records and task input of the task_board service: members, projects, tasks, comments.

Field names are the TaskQueue spec's camelCase ones, so a field written
through a tool is the field a rubric check reads. Kept apart from the tools so
hooks and tests can build records without importing the service.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from compoworld_gym.entities import Date, DateTime, Email, Id, PersonName
from compoworld_gym.service import Record, ServiceState

TaskStatus = Literal["not started", "in progress", "done"]
ListState = Literal["open", "pending_approval", "completed", "all"]
Priority = Literal["low", "medium", "high", "urgent"]


class Member(Record):
    """A person who can own tasks."""

    email: Email = Field(description="Work email.")
    name: PersonName = Field(description="Full name.")


class TaskComment(Record):
    """A comment on a task."""

    authorEmail: Email = Field(description="Who wrote it.")  # noqa: N815
    body: str = Field(description="Comment text.")
    createdAt: DateTime = Field(description="When it was posted (logical clock).")  # noqa: N815


class Task(Record):
    """A task of a project."""

    id: Id("task") = Field(description="Task id, e.g. task-3.")
    projectId: Id("project") = Field(description="Owning project id.")  # noqa: N815
    title: str = Field(description="Title.")
    description: str = Field(description="What to do.")
    status: TaskStatus = Field(description="not started, in progress or done.")
    approved: bool = Field(default=False, description="True once a done task is approved (then frozen).")
    completedDetails: str = Field(default="", description="How it was completed (set when done).")  # noqa: N815
    toolRecommendations: str = Field(default="", description="Tools suggested for the task.")  # noqa: N815
    ruleRecommendations: str = Field(default="", description="Rules to review for the task.")  # noqa: N815
    assigneeEmail: Optional[Email] = Field(default=None, description="Owner's email.")  # noqa: N815
    dueDate: Optional[Date] = Field(default=None, description="Due date.")  # noqa: N815
    priority: Priority = Field(default="medium", description="low, medium, high or urgent.")
    labels: list[str] = Field(default_factory=list, description="Labels.")
    comments: list[TaskComment] = Field(default_factory=list, description="Comments, oldest first.")


class Project(Record):
    """A project: a goal and an ordered list of tasks."""

    id: Id("project") = Field(description="Project id, e.g. proj-1.")
    initialPrompt: str = Field(description="The goal of the project.")  # noqa: N815
    projectPlan: str = Field(description="The detailed plan.")  # noqa: N815
    autoApprove: bool = Field(default=False, description="Done tasks are approved automatically.")  # noqa: N815
    completed: bool = Field(default=False, description="True once finalized (then frozen).")
    createdOn: Date = Field(description="Creation date.")  # noqa: N815
    taskIds: list[Id("task")] = Field(default_factory=list, description="Task ids in sequence.")  # noqa: N815


class TaskBoardState(ServiceState):
    """Members, projects and tasks."""

    members: dict[str, Member] = Field(default_factory=dict, description="Members by email.")
    projects: dict[str, Project] = Field(default_factory=dict, description="Projects by id.")
    tasks: dict[str, Task] = Field(default_factory=dict, description="Tasks by id.")


class TaskIn(BaseModel):
    """A task to create (spec fields plus the board extensions)."""

    model_config = ConfigDict(extra="forbid")
    title: str = Field(min_length=1, description="The title of the task.")
    description: str = Field(description="A detailed description of the task.")
    toolRecommendations: str = Field(default="", description="Recommendations for tools to use.")  # noqa: N815
    ruleRecommendations: str = Field(default="", description="Recommendations for rules to review.")  # noqa: N815
    assigneeEmail: Optional[Email] = Field(default=None, description="Owner's email (a board member).")  # noqa: N815
    dueDate: Optional[Date] = Field(default=None, description="Due date YYYY-MM-DD.")  # noqa: N815
    priority: Priority = Field(default="medium", description="low, medium, high or urgent.")
    labels: list[str] = Field(default_factory=list, description="Labels.")
