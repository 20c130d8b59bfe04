"""Issue tracker: the engineering teams' Linear workspace (teams, issues, cycles, comments, relations).

No issue-tracking server of this kind is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Linear GraphQL API,
snake_cased: queries ``teams``/``team`` (``key``, ``issueEstimationType``,
``states``, ``members``, ``activeCycle``), ``workflowStates``, ``users``,
``issues`` (filter by team, state type/name, assignee, label, cycle,
priority; ``includeArchived``), ``issue``, ``issueSearch``/``searchIssues``
(identifier, title, description, ``branchName``, attachment URLs),
``cycles``, ``comments``, ``issueRelations``; mutations ``issueCreate``
(``teamId``, ``title``, ``description``, ``priority``, ``estimate``,
``assigneeId``, ``stateId``, ``labelIds``, ``cycleId``, ``parentId``,
``dueDate``), ``issueUpdate``, ``issueArchive``/``issueUnarchive``,
``commentCreate``, ``issueRelationCreate``/``issueRelationDelete`` (type
``blocks``, ``duplicate``, ``related``) and ``attachmentLinkURL`` (link a
GitHub pull request). Users are identified by their email.

Rules of the real product: an issue's state must be one of its own team's
workflow states, and ``startedAt``/``completedAt``/``canceledAt`` follow the
state's type; an estimate must be on the team's scale (none when the team
does not estimate); priority is 0-4; the assignee must be an active
workspace member; a completed cycle takes no new issues and a cycle belongs
to one team; an issue cannot be its own parent or relate to itself, and a
parent loop is refused; a duplicate relation moves the duplicate to its
team's canceled "Duplicate" state as Linear does; archived issues are
hidden from lists and searches and cannot be edited until unarchived.
Left out: projects, roadmaps, initiatives, custom views, notifications,
reactions, SLAs, triage and webhooks.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, Url
from compoworld_gym.envs.services._blocks import eq, select
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._issue_tracker_models import (
    PRIORITY_LABELS, Attachment, Comment, Cycle, Issue, IssueRelation, IssueTrackerState, RelationType, StateType,
    Team, User, WorkflowState,
)
from compoworld_gym.envs.services._issue_tracker_rules import branch_name, check_estimate, cycle_status, move, would_loop
from compoworld_gym.envs.services._issue_tracker_relations import RelationTools
from compoworld_gym.envs.services._issue_tracker_seed import build_state
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

CycleStatus = Literal["completed", "active", "upcoming"]


class IssueTracker(RelationTools, Service):
    """Linear-style issue tracker of the engineering teams."""

    name = "issue_tracker"
    description = ("Issue tracker (Linear): engineering teams' issues with workflow states, priorities, estimates, "
                   "assignees, cycles, comments, linked pull requests and blocking/duplicate relations.")
    domain = "developer_tools"
    spec_source = None
    State = IssueTrackerState

    # ---------------------------------------------------------------- helpers
    def _team(self, team_id: str) -> Team:
        t = self.state.teams.get(team_id.strip().upper())
        if t is None:
            raise NotFound(f"team {team_id!r} not found; teams are {', '.join(self.state.teams)}.")
        return t

    def _issue(self, issue_id: str) -> Issue:
        return self.lookup(self.state.issues, issue_id.strip().upper(), "issue")

    def _editable(self, issue_id: str) -> Issue:
        i = self._issue(issue_id)
        if i.archived_at is not None:
            raise Conflict(f"issue {i.id} is archived; unarchive it first.")
        return i

    def _user(self, email: str) -> User:
        u = self.state.users.get(email.strip().lower())
        if u is None:
            raise NotFound(f"user {email!r} is not a member of this workspace.")
        if not u.active:
            raise Unprocessable(f"user {u.id} is deactivated and cannot be assigned.")
        return u

    def _state_of(self, team: Team, state_id: str) -> WorkflowState:
        st = self.state.workflow_states.get(state_id)
        if st is None:
            raise NotFound(f"workflow state {state_id!r} not found; see list_workflow_states.")
        if st.team_id != team.id:
            raise Unprocessable(f"state {st.id} belongs to team {st.team_id}, not to issue's team {team.id}.")
        return st

    def _open_cycle(self, team: Team, cycle_id: str) -> Cycle:
        c = self.lookup(self.state.cycles, cycle_id, "cycle")
        if c.team_id != team.id:
            raise Unprocessable(f"cycle {c.id} belongs to team {c.team_id}; an issue of {team.id} cannot join it.")
        if cycle_status(c, self.today) == "completed":
            raise Unprocessable(f"cycle {c.id} ({c.name}) is completed and takes no new issues.")
        return c

    def _view(self, i: Issue) -> dict:
        children = [x.id for x in self.state.issues.values() if x.parent_id == i.id]
        rel = [r.model_dump() for r in self.state.relations.values() if i.id in (r.issue_id, r.related_issue_id)]
        return {**i.model_dump(), "children": children, "relations": rel,
                "comment_count": sum(c.issue_id == i.id for c in self.state.comments.values())}

    def _cycle_view(self, c: Cycle) -> dict:
        return {**c.model_dump(), "status": cycle_status(c, self.today),
                "issue_ids": [i.id for i in self.state.issues.values() if i.cycle_id == c.id]}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Team])
    def list_teams(self) -> list[dict]:
        """List the workspace's teams with their issue key, repository and estimate scale."""
        return [t.model_dump() for t in self.state.teams.values()]

    @tool(read_only=True, returns=Team)
    def get_team(self, team_id: Id("linear_team")) -> dict:
        """Get a team with its workflow states and its active cycle.

        Args:
            team_id: the team key, e.g. PAY.
        """
        t = self._team(team_id)
        active = next((c.id for c in self.state.cycles.values() if c.team_id == t.id
                       and cycle_status(c, self.today) == "active"), None)
        states = [s.model_dump() for s in self.state.workflow_states.values() if s.team_id == t.id]
        return {**t.model_dump(), "states": states, "active_cycle_id": active}

    @tool(read_only=True, returns=list[WorkflowState])
    def list_workflow_states(self, team_id: Id("linear_team"), type: Optional[StateType] = None) -> list[dict]:
        """List a team's workflow states in board order.

        Args:
            team_id: the team key, e.g. WEB.
            type: only states of this type (backlog, unstarted, started, completed, canceled).
        """
        t = self._team(team_id)
        return [s.model_dump() for s in select(self.state.workflow_states.values(), eq("team_id", t.id),
                                               eq("type", type))]

    @tool(read_only=True, returns=list[User])
    def list_users(self, include_disabled: bool = False) -> list[dict]:
        """List workspace members.

        Args:
            include_disabled: also list deactivated users.
        """
        return [u.model_dump() for u in self.state.users.values() if u.active or include_disabled]

    @tool(read_only=True, returns=list[Issue])
    def list_issues(self, team_id: Optional[Id("linear_team")] = None, state_type: Optional[StateType] = None,
                    state_name: Optional[str] = None, assignee_email: Optional[Email] = None,
                    label: Optional[str] = None, cycle_id: Optional[Id("cycle")] = None,
                    priority: Optional[int] = Field(default=None, ge=0, le=4), include_archived: bool = False,
                    limit: int = Field(default=50, ge=1, le=250)) -> list[dict]:
        """List issues, most recently updated first.

        Args:
            team_id: only this team's issues, e.g. PAY.
            state_type: backlog, unstarted, started, completed or canceled.
            state_name: workflow state name (case-insensitive), e.g. In Review.
            assignee_email: the assignee's email.
            label: a label name (case-insensitive), e.g. Bug or checkout-api.
            cycle_id: only issues in this cycle.
            priority: 0 none, 1 urgent, 2 high, 3 medium, 4 low.
            include_archived: also list archived issues.
            limit: maximum number of issues (1-250).
        """
        team = self._team(team_id).id if team_id else None
        rows = sorted(self.state.issues.values(), key=lambda i: i.updated_at, reverse=True)
        rows = select(rows, eq("team_id", team), eq("state_type", state_type), eq("cycle_id", cycle_id),
                      eq("priority", priority),
                      (lambda i: i.state_name.lower() == state_name.lower()) if state_name else None,
                      (lambda i: (i.assignee_email or "").lower() == assignee_email.lower()) if assignee_email else None,
                      (lambda i: label.lower() in (x.lower() for x in i.labels)) if label else None,
                      None if include_archived else (lambda i: i.archived_at is None), limit=limit)
        return [i.model_dump() for i in rows]

    @tool(read_only=True, returns=Issue)
    def get_issue(self, issue_id: Id("linear_issue")) -> dict:
        """Get one issue by identifier, with its sub-issues, relations and comment count.

        Args:
            issue_id: the identifier, e.g. PAY-112.
        """
        return self._view(self._issue(issue_id))

    @tool(read_only=True, returns=list[Issue])
    def search_issues(self, query: str = Field(min_length=2, max_length=200), include_archived: bool = False,
                      limit: int = Field(default=25, ge=1, le=100)) -> list[dict]:
        """Search issues by identifier, title, description, git branch name or linked URL (case-insensitive).

        Args:
            query: text to find, e.g. a branch name, a pull request URL or an incident id.
            include_archived: also search archived issues.
            limit: maximum number of issues (1-100).
        """
        q = query.strip().lower()

        def hit(i: Issue) -> bool:
            hay = [i.id, i.title, i.description, i.branch_name] + [a.url for a in i.attachments] + [
                a.title for a in i.attachments]
            return any(q in h.lower() for h in hay)

        rows = sorted(self.state.issues.values(), key=lambda i: i.updated_at, reverse=True)
        rows = select(rows, hit, None if include_archived else (lambda i: i.archived_at is None), limit=limit)
        return [i.model_dump() for i in rows]

    @tool(read_only=True, returns=list[Comment])
    def list_comments(self, issue_id: Id("linear_issue")) -> list[dict]:
        """List an issue's comments, oldest first.

        Args:
            issue_id: the issue identifier.
        """
        i = self._issue(issue_id)
        return [c.model_dump() for c in self.state.comments.values() if c.issue_id == i.id]

    @tool(read_only=True, returns=list[Cycle])
    def list_cycles(self, team_id: Optional[Id("linear_team")] = None,
                    status: Optional[CycleStatus] = None) -> list[dict]:
        """List cycles with their status (completed, active, upcoming) and issues.

        Args:
            team_id: only this team's cycles.
            status: completed, active or upcoming.
        """
        team = self._team(team_id).id if team_id else None
        rows = [self._cycle_view(c) for c in select(self.state.cycles.values(), eq("team_id", team))]
        return [c for c in rows if status is None or c["status"] == status]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Issue)
    def create_issue(self, team_id: Id("linear_team"), title: str = Field(min_length=3, max_length=255),
                     description: str = Field(default="", max_length=10000),
                     priority: int = Field(default=0, ge=0, le=4), estimate: Optional[int] = None,
                     assignee_email: Optional[Email] = None, state_id: Optional[str] = None,
                     labels: list[str] = Field(default_factory=list, max_length=10),
                     cycle_id: Optional[Id("cycle")] = None, parent_id: Optional[Id("linear_issue")] = None,
                     due_date: Optional[Date] = None) -> dict:
        """Create an issue in a team; it starts in the team's first unstarted state (Todo) unless state_id is given.

        Args:
            team_id: the team key, e.g. PAY.
            title: issue title.
            description: markdown description.
            priority: 0 none, 1 urgent, 2 high, 3 medium, 4 low.
            estimate: points on the team's estimate scale.
            assignee_email: an active workspace member's email.
            state_id: a workflow state of the team, e.g. PAY-backlog.
            labels: label names, e.g. ["Bug", "checkout-api"].
            cycle_id: an active or upcoming cycle of the team.
            parent_id: the parent issue, making this a sub-issue.
            due_date: due date.
        """
        team = self._team(team_id)
        st = self._state_of(team, state_id) if state_id else next(
            s for s in self.state.workflow_states.values() if s.team_id == team.id and s.type == "unstarted")
        check_estimate(team, estimate)
        user = self._user(assignee_email) if assignee_email else None
        cycle = self._open_cycle(team, cycle_id) if cycle_id else None
        parent = self._editable(parent_id) if parent_id else None
        ident = self.new_id(team.key, width=1)
        at = self.now()
        i = Issue(id=ident, team_id=team.id, number=int(ident.split("-")[1]), title=title, description=description,
                  state_id=st.id, state_name=st.name, state_type=st.type, priority=priority,
                  priority_label=PRIORITY_LABELS[priority], estimate=estimate,
                  assignee_email=user.id if user else None, creator_email=OPS_EMAIL,
                  labels=list(dict.fromkeys(labels)), cycle_id=cycle.id if cycle else None,
                  parent_id=parent.id if parent else None,
                  branch_name=branch_name(user.display_name if user else None, ident, title), due_date=due_date,
                  created_at=at, updated_at=at)
        move(i, st, at)
        self.state.issues[ident] = i
        return self._view(i)

    @tool(read_only=False, returns=Issue)
    def update_issue(self, issue_id: Id("linear_issue"), title: Optional[str] = Field(default=None, min_length=3,
                                                                                         max_length=255),
                     description: Optional[str] = Field(default=None, max_length=10000),
                     state_id: Optional[str] = None, priority: Optional[int] = Field(default=None, ge=0, le=4),
                     estimate: Optional[int] = None, assignee_email: Optional[Email] = None,
                     labels: Optional[list[str]] = None, parent_id: Optional[Id("linear_issue")] = None,
                     due_date: Optional[Date] = None) -> dict:
        """Update an issue: move it to another state of its team, reprioritise, re-estimate, reassign, relabel.

        Args:
            issue_id: the issue identifier, e.g. PAY-112.
            title: new title.
            description: new markdown description.
            state_id: a workflow state of the issue's team, e.g. PAY-in-progress.
            priority: 0 none, 1 urgent, 2 high, 3 medium, 4 low.
            estimate: points on the team's estimate scale.
            assignee_email: the new assignee (an active workspace member).
            labels: the full new list of label names.
            parent_id: a new parent issue.
            due_date: new due date.
        """
        i = self._editable(issue_id)
        team = self.state.teams[i.team_id]
        st = self._state_of(team, state_id) if state_id else None
        check_estimate(team, estimate)
        user = self._user(assignee_email) if assignee_email else None
        if parent_id is not None:
            parent = self._editable(parent_id)
            if parent.id == i.id or would_loop(self.state.issues, i.id, parent.id):
                raise Unprocessable(f"{parent.id} cannot be the parent of {i.id}: that would make a parent loop.")
            i.parent_id = parent.id
        if all(v is None for v in (title, description, st, priority, estimate, user, labels, parent_id, due_date)):
            raise InvalidArgument("give at least one field to change.")
        at = self.now()
        if title is not None:
            i.title = title
        if description is not None:
            i.description = description
        if priority is not None:
            i.priority, i.priority_label = priority, PRIORITY_LABELS[priority]
        if estimate is not None:
            i.estimate = estimate
        if user is not None:
            i.assignee_email = user.id
        if labels is not None:
            i.labels = list(dict.fromkeys(labels))
        if due_date is not None:
            i.due_date = due_date
        i.updated_at = at
        if st is not None:
            move(i, st, at)
        return self._view(i)

    @tool(read_only=False, destructive=True, returns=Issue)
    def archive_issue(self, issue_id: Id("linear_issue")) -> dict:
        """Archive an issue: it leaves lists and searches but keeps its history.

        Args:
            issue_id: the issue identifier.
        """
        i = self._editable(issue_id)
        i.archived_at = self.now()
        return self._view(i)

    @tool(read_only=False, returns=Issue)
    def unarchive_issue(self, issue_id: Id("linear_issue")) -> dict:
        """Restore an archived issue.

        Args:
            issue_id: the issue identifier.
        """
        i = self._issue(issue_id)
        if i.archived_at is None:
            raise Conflict(f"issue {i.id} is not archived.")
        i.archived_at = None
        i.updated_at = self.now()
        return self._view(i)

    @tool(read_only=False, returns=Comment)
    def create_comment(self, issue_id: Id("linear_issue"), body: str = Field(min_length=1, max_length=10000),
                       user_email: Email = OPS_EMAIL) -> dict:
        """Comment on an issue.

        Args:
            issue_id: the issue identifier.
            body: markdown comment.
            user_email: the author's email.
        """
        i = self._editable(issue_id)
        c = Comment(id=self.new_id("CMT"), issue_id=i.id, user_email=user_email.lower(), body=body,
                    created_at=self.now())
        self.state.comments[c.id] = c
        return c.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> IssueTrackerState:
        return build_state(fake, rng, today)


__all__ = ["IssueTracker"]
