"""Records of the issue tracker service (Linear GraphQL API style).

Linear's objects keep their names and fields, snake_cased: ``Team``
(``key``, ``name``, ``issueEstimationType``, ``cycleDuration``),
``WorkflowState`` (``name``, ``type``, ``position``), ``User`` (``name``,
``displayName``, ``email``, ``active``), ``Issue`` (``identifier``,
``title``, ``description``, ``priority``, ``estimate``, ``state``,
``assignee``, ``labels``, ``cycle``, ``parent``, ``branchName``,
``attachments``, ``dueDate``, ``archivedAt``, ``canceledAt``,
``completedAt``), ``Cycle`` (``number``, ``startsAt``, ``endsAt``,
``completedAt``), ``Comment`` (``body``, ``user``) and ``IssueRelation``
(``type`` blocks/duplicate/related, ``issue``, ``relatedIssue``).
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id, PersonName, RepoName, Url, entity
from compoworld_gym.service import Record, ServiceState

Branch = Annotated[str, entity("branch")]
StateType = Literal["backlog", "unstarted", "started", "completed", "canceled"]
EstimationType = Literal["notUsed", "exponential", "fibonacci", "linear", "tShirt"]
RelationType = Literal["blocks", "duplicate", "related"]
#: Linear's priority numbers: 0 none, 1 urgent, 2 high, 3 medium (normal), 4 low.
PRIORITY_LABELS = {0: "No priority", 1: "Urgent", 2: "High", 3: "Medium", 4: "Low"}
#: Estimate points allowed by each estimation scale (t-shirt sizes XS..XL are sent as 1, 2, 3, 5, 8).
ESTIMATE_SCALES: dict[str, tuple[int, ...]] = {
    "notUsed": (), "exponential": (1, 2, 4, 8, 16), "fibonacci": (1, 2, 3, 5, 8), "linear": (1, 2, 3, 4, 5),
    "tShirt": (1, 2, 3, 5, 8)}


class Team(Record):
    """A Linear team: its issue key prefix, its workflow and estimate scale."""

    id: Id("linear_team") = Field(description="Team id: the team key, e.g. PAY.")
    key: str = Field(description="Issue identifier prefix, e.g. PAY (issues are PAY-12).")
    name: str = Field(description="Team name, e.g. Payments.")
    repository: RepoName = Field(description="The main repository the team's work lands in (org/name).")
    issue_estimation_type: EstimationType = Field(description="Estimate scale of the team's issues.")
    cycle_duration_weeks: int = Field(ge=1, le=8, description="Cycle length in weeks.")
    member_emails: list[Email] = Field(default_factory=list, description="Team members' emails.")


class WorkflowState(Record):
    """One status of a team's workflow."""

    id: str = Field(description="State id, e.g. PAY-in-progress.")
    team_id: Id("linear_team") = Field(description="The team whose workflow this is.")
    name: str = Field(description="Status name, e.g. In Progress.")
    type: StateType = Field(description="backlog, unstarted, started, completed or canceled.")
    position: int = Field(description="Order of the state in the workflow.")


class User(Record):
    """A workspace member (issues are assigned to them)."""

    id: Email = Field(description="The user's email (the workspace login).")
    name: PersonName = Field(description="Full name.")
    display_name: str = Field(description="Short handle used in branch names, e.g. kenji.")
    active: bool = Field(default=True, description="Deactivated users cannot be assigned.")
    admin: bool = Field(default=False, description="Workspace admin.")


class Attachment(Record):
    """A link on an issue: a GitHub pull request, an error report, an incident."""

    title: str = Field(description="Link title, e.g. the pull request title.")
    url: Url = Field(description="Linked URL.")
    source_type: Literal["github", "sentry", "incident", "other"] = Field(description="Integration of the link.")


class Issue(Record):
    """A Linear issue."""

    id: Id("linear_issue") = Field(description="Issue identifier, e.g. PAY-12.")
    team_id: Id("linear_team") = Field(description="The owning team.")
    number: int = Field(ge=1, description="Number within the team.")
    title: str = Field(description="Title.")
    description: str = Field(default="", description="Markdown description.")
    state_id: str = Field(description="Current workflow state id.")
    state_name: str = Field(description="Current workflow state name.")
    state_type: StateType = Field(description="Type of the current state.")
    priority: int = Field(ge=0, le=4, description="0 none, 1 urgent, 2 high, 3 medium, 4 low.")
    priority_label: str = Field(description="Priority in words.")
    estimate: Optional[int] = Field(default=None, description="Estimate points on the team's scale.")
    assignee_email: Optional[Email] = Field(default=None, description="Assignee's email.")
    creator_email: Email = Field(description="Who created the issue.")
    labels: list[str] = Field(default_factory=list, description="Label names, e.g. Bug, checkout-api.")
    cycle_id: Optional[Id("cycle")] = Field(default=None, description="The cycle the issue is planned in.")
    parent_id: Optional[Id("linear_issue")] = Field(default=None, description="Parent issue (sub-issue of it).")
    branch_name: Branch = Field(description="Git branch name Linear suggests / links, e.g. kenji/pay-12-...")
    attachments: list[Attachment] = Field(default_factory=list, description="Linked pull requests and reports.")
    due_date: Optional[Date] = Field(default=None, description="Due date.")
    created_at: DateTime = Field(description="Created.")
    updated_at: DateTime = Field(description="Last changed.")
    started_at: Optional[DateTime] = Field(default=None, description="Entered a started state.")
    completed_at: Optional[DateTime] = Field(default=None, description="Entered a completed state.")
    canceled_at: Optional[DateTime] = Field(default=None, description="Entered a canceled state.")
    archived_at: Optional[DateTime] = Field(default=None, description="Archived (hidden from lists).")


class Cycle(Record):
    """A team's time-boxed cycle (sprint)."""

    id: Id("cycle") = Field(description="Cycle id, e.g. CYC-0003.")
    team_id: Id("linear_team") = Field(description="The team.")
    number: int = Field(ge=1, description="Cycle number within the team.")
    name: str = Field(description="Cycle name, e.g. Cycle 14.")
    starts_at: Date = Field(description="First day.")
    ends_at: Date = Field(description="Last day (exclusive end).")
    completed_at: Optional[DateTime] = Field(default=None, description="When the cycle was closed.")


class Comment(Record):
    """A comment on an issue."""

    id: Id("comment") = Field(description="Comment id, e.g. CMT-0004.")
    issue_id: Id("linear_issue") = Field(description="The issue.")
    user_email: Email = Field(description="Author.")
    body: str = Field(description="Markdown body.")
    created_at: DateTime = Field(description="Posted.")


class IssueRelation(Record):
    """A relation between two issues: issue blocks / duplicates / relates to related issue."""

    id: str = Field(description="Relation id, e.g. REL-0002.")
    type: RelationType = Field(description="blocks, duplicate (issue duplicates related issue) or related.")
    issue_id: Id("linear_issue") = Field(description="The issue the relation is from.")
    related_issue_id: Id("linear_issue") = Field(description="The issue it points to.")
    created_at: DateTime = Field(description="Created.")


class IssueTrackerState(ServiceState):
    """Teams, workflow states, users, issues, cycles, comments and relations."""

    teams: dict[str, Team] = Field(default_factory=dict, description="Teams by key.")
    workflow_states: dict[str, WorkflowState] = Field(default_factory=dict, description="States by id.")
    users: dict[str, User] = Field(default_factory=dict, description="Users by email.")
    issues: dict[str, Issue] = Field(default_factory=dict, description="Issues by identifier.")
    cycles: dict[str, Cycle] = Field(default_factory=dict, description="Cycles by id.")
    comments: dict[str, Comment] = Field(default_factory=dict, description="Comments by id.")
    relations: dict[str, IssueRelation] = Field(default_factory=dict, description="Issue relations by id.")
