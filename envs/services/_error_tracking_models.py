"""Records of the error tracking service (Sentry Web API style).

Sentry's objects keep their names and fields, snake_cased: ``Project``
(``slug``, ``platform``, ``team``), organization ``Member`` (``email``,
``role``), ``Issue`` (``shortId``, ``title``, ``culprit``, ``level``,
``status``, ``statusDetails``, ``firstSeen``, ``lastSeen``, ``count``,
``userCount``, ``assignedTo``, ``firstRelease``, ``lastRelease``,
``permalink``), ``Event`` (``eventID``, ``dateCreated``, ``message``,
``user.email``, tags ``release``/``environment``/``url``), ``Release``
(``version``, ``dateCreated``, ``dateReleased``, ``commitCount``,
``lastCommit``, ``deploys``) and issue notes (activity of type ``note``).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id, PersonName, RepoName, Url
from compoworld_gym.service import Record, ServiceState

IssueStatus = Literal["unresolved", "resolved", "ignored"]
Level = Literal["fatal", "error", "warning", "info"]
Environment = Literal["production", "staging"]


class Member(Record):
    """An organization member (issues are assigned to members)."""

    id: Email = Field(description="The member's email.")
    name: PersonName = Field(description="Full name.")
    role: Literal["owner", "manager", "member"] = Field(description="Organization role.")
    team: str = Field(description="Sentry team slug, e.g. payments.")
    pending: bool = Field(default=False, description="Invited but not joined: cannot be assigned.")


class Project(Record):
    """A Sentry project: one per application."""

    id: Id("project") = Field(description="Project slug: the application key, e.g. checkout-api.")
    name: str = Field(description="Project name.")
    platform: str = Field(description="SDK platform, e.g. python or javascript-react.")
    team: str = Field(description="Owning team slug.")
    repository: RepoName = Field(description="Linked source repository (org/name).")


class StatusDetails(Record):
    """How an issue was resolved or ignored (Sentry ``statusDetails``)."""

    in_next_release: bool = Field(default=False, description="Resolved in the project's next release.")
    in_release: Optional[Id("release")] = Field(default=None, description="Resolved in this release version.")
    ignore_count: Optional[int] = Field(default=None, description="Ignored until seen this many more times.")
    ignore_until: Optional[DateTime] = Field(default=None, description="Ignored until this time.")
    actor: Optional[Email] = Field(default=None, description="Who changed the status.")


class Issue(Record):
    """A Sentry issue: a group of events with one fingerprint."""

    id: Id("error_issue") = Field(description="Short id, e.g. CHECKOUT-API-4F.")
    project_id: Id("project") = Field(description="The project slug.")
    title: str = Field(description="Exception type and message.")
    culprit: str = Field(description="Where it happened (function or transaction).")
    level: Level = Field(description="fatal, error, warning or info.")
    status: IssueStatus = Field(description="unresolved, resolved or ignored.")
    status_details: StatusDetails = Field(default_factory=StatusDetails, description="Resolve / ignore details.")
    first_seen: DateTime = Field(description="First event.")
    last_seen: DateTime = Field(description="Latest event.")
    count: int = Field(ge=1, description="Number of events.")
    user_count: int = Field(ge=0, description="Number of affected users.")
    assigned_to: Optional[Email] = Field(default=None, description="Assignee (an organization member).")
    first_release: Optional[Id("release")] = Field(default=None, description="Release it was first seen in.")
    last_release: Optional[Id("release")] = Field(default=None, description="Release of the latest event.")
    permalink: Url = Field(description="Link to the issue in Sentry.")
    linked_issues: list[str] = Field(default_factory=list, description="Linked tracker issues, e.g. PAY-112.")


class Event(Record):
    """One error event of an issue."""

    id: Id("error_event") = Field(description="Event id, e.g. EVT-0012.")
    issue_id: Id("error_issue") = Field(description="The issue.")
    date_created: DateTime = Field(description="When it happened.")
    message: str = Field(description="Exception message.")
    release: Optional[Id("release")] = Field(default=None, description="release tag.")
    environment: Environment = Field(description="environment tag.")
    user_email: Optional[Email] = Field(default=None, description="user.email: the affected customer.")
    url: Optional[Url] = Field(default=None, description="Request URL tag.")


class Deploy(Record):
    """A deploy of a release to an environment."""

    environment: Environment = Field(description="Target environment.")
    date_finished: DateTime = Field(description="When the deploy finished.")


class Release(Record):
    """A release of a project (``project@version``)."""

    id: Id("release") = Field(description="Version, e.g. checkout-api@2.14.0.")
    project_id: Id("project") = Field(description="The project slug.")
    date_created: DateTime = Field(description="Created.")
    date_released: Optional[DateTime] = Field(default=None, description="First deployed to production.")
    ref: str = Field(description="Git ref / commit sha the release is built from.")
    commit_count: int = Field(ge=0, description="Commits since the previous release.")
    deploys: list[Deploy] = Field(default_factory=list, description="Deploys of the release.")


class Note(Record):
    """A note (comment) on an issue."""

    id: Id("comment") = Field(description="Note id, e.g. NOTE-0003.")
    issue_id: Id("error_issue") = Field(description="The issue.")
    user_email: Email = Field(description="Author.")
    text: str = Field(description="Note text.")
    date_created: DateTime = Field(description="Posted.")


class ErrorTrackingState(ServiceState):
    """Members, projects, issues, events, releases and notes of one organization."""

    organization: str = Field(default="acme", description="Organization slug.")
    members: dict[str, Member] = Field(default_factory=dict, description="Members by email.")
    projects: dict[str, Project] = Field(default_factory=dict, description="Projects by slug.")
    issues: dict[str, Issue] = Field(default_factory=dict, description="Issues by short id.")
    events: dict[str, Event] = Field(default_factory=dict, description="Events by id.")
    releases: dict[str, Release] = Field(default_factory=dict, description="Releases by version.")
    notes: dict[str, Note] = Field(default_factory=dict, description="Notes by id.")
