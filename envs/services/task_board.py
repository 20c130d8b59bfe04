"""Task board: projects made of ordered tasks with owners, due dates and approval.

Follows ``@chriscarrollsmith_taskqueue-mcp`` (TaskQueue): same tool names,
camelCase parameters, ids ``proj-N``/``task-N``, task statuses ``not
started``/``in progress``/``done``, list states ``open``/``pending_approval``/
``completed``/``all``, the transition rule not started → in progress → done,
``completedDetails`` required for done, approved tasks frozen, and
``finalize_project`` only when every task is done and approved. Left out:
``generate_project_plan`` (calls an LLM). Extended, the way team boards such
as Asana work: tasks also carry an assignee email, a due date, a priority,
labels and comments, set with the designed tool ``set_task_details`` (and,
optionally, in the task objects of ``create_project``/``add_tasks_to_project``)
and searched with ``search_tasks``; plus ``add_task_comment`` and
``list_members``. Spec tools keep exactly the spec's parameters.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id
from compoworld_gym.envs.services._company import OPS_EMAIL, STAFF
from compoworld_gym.envs.services._task_board_models import (
    ListState, Member, Priority, Project, Task, TaskBoardState, TaskComment, TaskIn, TaskStatus)
from compoworld_gym.errors import Conflict, InvalidArgument
from compoworld_gym.service import Service, tool

#: Status changes update_task allows: one step forward or back (approved tasks are frozen before this).
_MOVES = {("not started", "in progress"), ("in progress", "done"), ("in progress", "not started"),
          ("done", "in progress")}


def _task_state(t: Task) -> str:
    return "completed" if t.approved else "pending_approval" if t.status == "done" else "open"


class TaskBoard(Service):
    """Project and task board with owners, due dates, approval and comments."""

    name = "task_board"
    description = ("Project task board: projects with ordered tasks, assignees, due dates, priorities, "
                   "labels, comments and approval.")
    domain = "productivity"
    spec_source = "@chriscarrollsmith_taskqueue-mcp"
    designed_tools = ("search_tasks", "set_task_details", "add_task_comment", "list_members")
    State = TaskBoardState

    # --------------------------------------------------------------- helpers
    def _project(self, project_id: str, writable: bool = False) -> Project:
        p = self.lookup(self.state.projects, project_id, "project")
        if writable and p.completed:
            raise Conflict(f"project {project_id} is finalized and can no longer be changed.")
        return p

    def _task(self, project_id: str, task_id: str, writable: bool = False) -> Task:
        self._project(project_id, writable)
        t = self.lookup(self.state.tasks, task_id, "task")
        if t.projectId != project_id:
            raise InvalidArgument(f"task {task_id} belongs to project {t.projectId}, not {project_id}.")
        return t

    def _member(self, email: Optional[str]) -> None:
        if email is not None and email.lower() not in self.state.members:
            raise InvalidArgument(f"{email!r} is not a board member; call list_members for valid emails.")

    def _add(self, p: Project, spec: TaskIn) -> Task:
        self._member(spec.assigneeEmail)
        t = Task(id=self.new_id("task", 1), projectId=p.id, status="not started",
                 **spec.model_dump(exclude={"assigneeEmail"}),
                 assigneeEmail=spec.assigneeEmail.lower() if spec.assigneeEmail else None)
        self.state.tasks[t.id] = t
        p.taskIds.append(t.id)
        return t

    def _project_view(self, p: Project) -> dict:
        tasks = [self.state.tasks[i] for i in p.taskIds]
        return {**p.model_dump(exclude={"taskIds"}), "totalTasks": len(tasks),
                "completedTasks": sum(t.status == "done" for t in tasks),
                "approvedTasks": sum(t.approved for t in tasks)}

    def _project_state(self, p: Project) -> str:
        states = {_task_state(self.state.tasks[i]) for i in p.taskIds}
        return "completed" if p.completed else "open" if "open" in states else "pending_approval" if states else "open"

    # --------------------------------------------------------------- projects
    @tool(read_only=True, returns=list[Project])
    def list_projects(self, state: ListState = "all") -> list[dict]:
        """List projects with task counts, optionally only those in one state.

        Args:
            state: open (a task not done), pending_approval (done tasks awaiting approval),
                completed (finalized) or all.
        """
        return [self._project_view(p) for p in self.state.projects.values()
                if state == "all" or self._project_state(p) == state]

    @tool(read_only=True, returns=Project)
    def read_project(self, projectId: Id("project")) -> dict:  # noqa: N803
        """Read a project with all its tasks in sequence.

        Args:
            projectId: the project id, e.g. proj-1.
        """
        p = self._project(projectId)
        tasks = [self.state.tasks[i].model_dump(exclude={"comments"}) for i in p.taskIds]
        return {**self._project_view(p), "tasks": tasks}

    @tool(read_only=False, returns=Project)
    def create_project(self, initialPrompt: str = Field(min_length=1), tasks: list[TaskIn] = Field(min_length=1),  # noqa: N803
                       projectPlan: Optional[str] = None, autoApprove: bool = False) -> dict:  # noqa: N803
        """Create a project with a goal and its first tasks.

        Args:
            initialPrompt: the goal of the project.
            tasks: the tasks, in order.
            projectPlan: a more detailed plan (defaults to the initial prompt).
            autoApprove: approve tasks automatically when they are marked done.
        """
        p = Project(id=self.new_id("proj", 1), initialPrompt=initialPrompt, projectPlan=projectPlan or initialPrompt,
                    autoApprove=autoApprove, createdOn=self.today)
        self.state.projects[p.id] = p
        for spec in tasks:
            self._add(p, spec)
        return {**self._project_view(p), "taskIds": list(p.taskIds)}

    @tool(read_only=False, destructive=True)
    def delete_project(self, projectId: Id("project")) -> dict:  # noqa: N803
        """Delete a project and all its tasks.

        Args:
            projectId: the project to delete.
        """
        p = self._project(projectId)
        for i in p.taskIds:
            del self.state.tasks[i]
        del self.state.projects[projectId]
        return {"projectId": projectId, "deletedTasks": len(p.taskIds)}

    @tool(read_only=False)
    def add_tasks_to_project(self, projectId: Id("project"), tasks: list[TaskIn] = Field(min_length=1)) -> dict:  # noqa: N803
        """Append tasks to an existing, not finalized project.

        Args:
            projectId: the project to extend.
            tasks: the tasks to append, in order.
        """
        p = self._project(projectId, writable=True)
        return {"projectId": projectId, "taskIds": [self._add(p, spec).id for spec in tasks]}

    @tool(read_only=False)
    def finalize_project(self, projectId: Id("project")) -> dict:  # noqa: N803
        """Mark a project complete; every task must be done and approved.

        Args:
            projectId: the project to finalize.
        """
        p = self._project(projectId, writable=True)
        pending = [i for i in p.taskIds if not self.state.tasks[i].approved]
        if pending:
            raise Conflict(f"tasks {pending} are not done and approved yet; finish and approve them first.")
        p.completed = True
        return self._project_view(p)

    # ------------------------------------------------------------------ tasks
    @tool(read_only=True, returns=list[Task])
    def list_tasks(self, projectId: Optional[Id("project")] = None, state: ListState = "all") -> list[dict]:  # noqa: N803
        """List tasks, optionally of one project and/or in one state.

        Args:
            projectId: only tasks of this project.
            state: open (not done), pending_approval (done, not approved), completed (approved) or all.
        """
        return self.search_tasks(projectId=projectId, state=state)

    @tool(read_only=True, returns=list[Task])
    def search_tasks(self, assigneeEmail: Optional[Email] = None, dueBefore: Optional[Date] = None,  # noqa: N803
                     priority: Optional[Priority] = None, label: Optional[str] = None,
                     state: ListState = "all", projectId: Optional[Id("project")] = None) -> list[dict]:  # noqa: N803
        """Find tasks across projects by assignee, due date, priority, label and state.

        Args:
            assigneeEmail: only tasks owned by this email.
            dueBefore: only tasks due strictly before this date (YYYY-MM-DD), e.g. today for overdue ones.
            priority: only tasks with this priority.
            label: only tasks carrying this label.
            state: open (not done), pending_approval (done, not approved), completed (approved) or all.
            projectId: only tasks of this project.
        """
        if projectId is not None:
            self._project(projectId)
        who = assigneeEmail.lower() if assigneeEmail else None
        return [t.model_dump(exclude={"comments"}) for t in self.state.tasks.values()
                if projectId in (None, t.projectId) and state in ("all", _task_state(t))
                and who in (None, t.assigneeEmail) and priority in (None, t.priority)
                and (label is None or label in t.labels) and (dueBefore is None or (t.dueDate and t.dueDate < dueBefore))]

    @tool(read_only=True, returns=Task)
    def read_task(self, projectId: Id("project"), taskId: Id("task")) -> dict:  # noqa: N803
        """Read one task with its comments.

        Args:
            projectId: the project containing the task.
            taskId: the task id, e.g. task-1.
        """
        return self._task(projectId, taskId).model_dump()

    @tool(read_only=False, returns=Task)
    def create_task(self, projectId: Id("project"), title: str = Field(min_length=1), description: str = Field(max_length=5000),  # noqa: N803
                    toolRecommendations: str = "", ruleRecommendations: str = "") -> dict:  # noqa: N803
        """Create one task at the end of a project (set owner and due date with set_task_details).

        Args:
            projectId: the project to add the task to.
            title: the task title.
            description: a detailed description.
            toolRecommendations: tools suggested for the task.
            ruleRecommendations: rules to review for the task.
        """
        spec = TaskIn(title=title, description=description, toolRecommendations=toolRecommendations,
                      ruleRecommendations=ruleRecommendations)
        return self._add(self._project(projectId, writable=True), spec).model_dump()

    @tool(read_only=False, returns=Task)
    def update_task(self, projectId: Id("project"), taskId: Id("task"), title: Optional[str] = None,  # noqa: N803
                    description: Optional[str] = None, status: Optional[TaskStatus] = None,
                    completedDetails: Optional[str] = None, toolRecommendations: Optional[str] = None,  # noqa: N803
                    ruleRecommendations: Optional[str] = None) -> dict:  # noqa: N803
        """Change a task. Approved tasks are frozen; status moves not started → in progress → done
        (or one step back), and done needs completedDetails.

        Args:
            projectId: the project containing the task.
            taskId: the task to change.
            title: new title.
            description: new description.
            status: new status.
            completedDetails: how the task was completed (required when setting done).
            toolRecommendations: new tool recommendations.
            ruleRecommendations: new rule recommendations.
        """
        t = self._task(projectId, taskId, writable=True)
        if t.approved:
            raise Conflict(f"task {taskId} is approved and can no longer be modified.")
        changes = {k: v for k, v in dict(title=title, description=description, completedDetails=completedDetails,
                                          toolRecommendations=toolRecommendations,
                                          ruleRecommendations=ruleRecommendations).items() if v is not None}
        if not changes and status is None:
            raise InvalidArgument("nothing to update: give at least one field to change.")
        if status is not None and status != t.status:
            if (t.status, status) not in _MOVES:
                raise Conflict(f"task {taskId} cannot go from '{t.status}' to '{status}'; "
                               "the order is not started -> in progress -> done.")
            if status == "done" and not (completedDetails or t.completedDetails):
                raise InvalidArgument("completedDetails is required when setting status to 'done'.")
            t.status = status
            t.approved = status == "done" and self.state.projects[projectId].autoApprove
        for k, v in changes.items():
            setattr(t, k, v)
        return t.model_dump(exclude={"comments"})

    @tool(read_only=False, returns=Task)
    def set_task_details(self, projectId: Id("project"), taskId: Id("task"),  # noqa: N803
                         assigneeEmail: Optional[Email] = None, dueDate: Optional[Date] = None,  # noqa: N803
                         priority: Optional[Priority] = None, labels: Optional[list[str]] = None) -> dict:
        """Set a task's owner, due date, priority or labels (approved tasks are frozen).

        Args:
            projectId: the project containing the task.
            taskId: the task to change.
            assigneeEmail: new owner's email (a board member, see list_members).
            dueDate: new due date (YYYY-MM-DD).
            priority: new priority.
            labels: new full list of labels.
        """
        t = self._task(projectId, taskId, writable=True)
        if t.approved:
            raise Conflict(f"task {taskId} is approved and can no longer be modified.")
        if assigneeEmail is None and dueDate is None and priority is None and labels is None:
            raise InvalidArgument("nothing to update: give assigneeEmail, dueDate, priority or labels.")
        self._member(assigneeEmail)
        if assigneeEmail is not None:
            t.assigneeEmail = assigneeEmail.lower()
        t.dueDate = dueDate or t.dueDate
        t.priority = priority or t.priority
        if labels is not None:
            t.labels = list(dict.fromkeys(labels))
        return t.model_dump(exclude={"comments"})

    @tool(read_only=False, destructive=True)
    def delete_task(self, projectId: Id("project"), taskId: Id("task")) -> dict:  # noqa: N803
        """Remove a task from a project.

        Args:
            projectId: the project containing the task.
            taskId: the task to delete.
        """
        self._task(projectId, taskId, writable=True)
        del self.state.tasks[taskId]
        self.state.projects[projectId].taskIds.remove(taskId)
        return {"projectId": projectId, "taskId": taskId, "deleted": True}

    @tool(read_only=False, returns=Task)
    def approve_task(self, projectId: Id("project"), taskId: Id("task")) -> dict:  # noqa: N803
        """Approve a task that is done with completedDetails.

        Args:
            projectId: the project containing the task.
            taskId: the task to approve.
        """
        t = self._task(projectId, taskId, writable=True)
        if t.approved:
            raise Conflict(f"task {taskId} is already approved.")
        if t.status != "done":
            raise Conflict(f"task {taskId} is '{t.status}'; only done tasks can be approved.")
        t.approved = True
        return t.model_dump(exclude={"comments"})

    @tool(read_only=True, returns=Task)
    def get_next_task(self, projectId: Id("project")) -> dict:  # noqa: N803
        """The first task of a project (in sequence) that is not approved yet, whatever its status.

        Args:
            projectId: the project.
        """
        p = self._project(projectId)
        for i in p.taskIds:
            if not self.state.tasks[i].approved:
                return self.state.tasks[i].model_dump()
        return {"message": "All tasks are approved; the project can be finalized.", "projectId": projectId}

    @tool(read_only=False, returns=TaskComment)
    def add_task_comment(self, projectId: Id("project"), taskId: Id("task"), body: str = Field(min_length=1),  # noqa: N803
                         authorEmail: Email = OPS_EMAIL) -> dict:  # noqa: N803
        """Comment on a task (allowed at any status, even approved, until the project is finalized).

        Args:
            projectId: the project containing the task.
            taskId: the task to comment on.
            body: comment text.
            authorEmail: who writes the comment.
        """
        t = self._task(projectId, taskId, writable=True)
        c = TaskComment(authorEmail=authorEmail, body=body, createdAt=self.now())
        t.comments.append(c)
        return {"taskId": taskId, **c.model_dump()}

    @tool(read_only=True, returns=list[Member])
    def list_members(self) -> list[dict]:
        """List the board members who can own tasks."""
        return [m.model_dump() for m in self.state.members.values()]

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> TaskBoardState:
        from compoworld_gym.envs.services._task_board_seed import PROJECTS

        state = TaskBoardState(members={s.email: Member(email=s.email, name=s.name) for s in STAFF})
        svc = cls(state, today=today)
        for goal, team, tasks in PROJECTS:
            people = [s.email for s in STAFF if s.team == team] or [STAFF[0].email]
            specs = [TaskIn(title=title, description=desc, assigneeEmail=rng.choice(people),
                            dueDate=today + dt.timedelta(days=rng.randint(-6, 14)),
                            priority=rng.choice(("low", "medium", "medium", "high", "urgent")), labels=[team])
                     for title, desc in tasks]
            p = Project(id=svc.new_id("proj", 1), initialPrompt=goal, projectPlan=goal,
                        createdOn=today - dt.timedelta(days=rng.randint(10, 30)))
            svc.state.projects[p.id] = p
            for k, spec in enumerate(specs):
                t = svc._add(p, spec)
                # Earlier tasks of a project tend to be further along.
                stage = rng.choice((0, 1, 2, 3) if k < 2 else (0, 0, 1, 2))
                t.status = ("not started", "in progress", "done", "done")[stage]
                t.completedDetails = "Completed and checked." if stage >= 2 else ""
                t.approved = stage == 3
        return svc.state
