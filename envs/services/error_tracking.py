"""Error tracking: the applications' Sentry organization (projects, issues, events, releases, notes).

No error-tracking server of this kind is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Sentry Web API:
``GET /organizations/{org}/members/``, ``/organizations/{org}/projects/``,
``/projects/{org}/{project}/``, ``/projects/{org}/{project}/issues/``
(``query`` ``is:unresolved``, ``assigned:``, ``level:``), ``/issues/{id}/``
(``shortId``, ``title``, ``culprit``, ``level``, ``status``,
``statusDetails``, ``firstSeen``, ``lastSeen``, ``count``, ``userCount``,
``assignedTo``, ``firstRelease``, ``lastRelease``, ``permalink``),
``/issues/{id}/events/`` and ``/events/latest/`` (``user.email``, tags
``release``, ``environment``, ``url``), ``/organizations/{org}/events/``
(search by ``user.email`` and ``release``), ``/organizations/{org}/releases/``
(``version``, ``ref``, ``commitCount``, ``dateReleased``) and
``/releases/{version}/deploys/``, ``PUT /issues/{id}/`` (``status``
resolved/unresolved/ignored, ``statusDetails.inNextRelease``,
``statusDetails.inRelease``, ``ignoreCount``, ``ignoreDuration``,
``assignedTo``), issue notes (``/issues/{id}/comments/``) and linking an
issue to an external tracker issue (``/issues/{id}/integrations/``).

Rules of the real product: "resolved in next release" needs the project to
have releases, and the next release created for the project fills in
``inRelease``; "resolved in release" names a release of the issue's own
project newer than the last release the issue was seen in; an ignore lasts
for a number of further events or a number of minutes (not both); the
assignee must be a member of the organization who has joined; a release
version is ``project@x.y.z``, unique, and newer than the project's latest;
a deploy is of an existing release. Left out: alerts rules, performance,
replays, source maps, ownership rules, merge/unmerge and discover queries.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Email, Id
from compoworld_gym.envs.services._blocks import eq, select
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._error_tracking_models import (
    Deploy, Environment, ErrorTrackingState, Event, Issue, IssueStatus, Level, Member, Note, Project, Release,
    StatusDetails,
)
from compoworld_gym.envs.services._error_tracking_rules import newer, project_of, version_key
from compoworld_gym.envs.services._error_tracking_seed import build_state
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool


class ErrorTracking(Service):
    """Sentry-style error tracking of the company's applications."""

    name = "error_tracking"
    description = ("Error tracking (Sentry): application projects, grouped error issues with their events "
                   "(release, environment, affected user), releases and deploys, and resolve/ignore/assign.")
    domain = "engineering"
    spec_source = None
    State = ErrorTrackingState

    # ---------------------------------------------------------------- helpers
    def _project(self, slug: str) -> Project:
        return self.lookup(self.state.projects, slug.strip().lower(), "project")

    def _issue(self, issue_id: str) -> Issue:
        return self.lookup(self.state.issues, issue_id.strip().upper(), "issue")

    def _events(self, issue: Issue) -> list[Event]:
        return sorted((e for e in self.state.events.values() if e.issue_id == issue.id),
                      key=lambda e: e.date_created, reverse=True)

    def _latest_release(self, project: str) -> Optional[Release]:
        rels = [r for r in self.state.releases.values() if r.project_id == project]
        return max(rels, key=lambda r: version_key(r.id)) if rels else None

    def _view(self, i: Issue) -> dict:
        ev = self._events(i)
        return {**i.model_dump(), "repository": self.state.projects[i.project_id].repository,
                "latest_event": ev[0].model_dump() if ev else None}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Member])
    def list_organization_members(self) -> list[dict]:
        """List the organization's members (pending invites included, marked pending)."""
        return [m.model_dump() for m in self.state.members.values()]

    @tool(read_only=True, returns=list[Project])
    def list_projects(self, team: Optional[str] = None) -> list[dict]:
        """List the organization's projects.

        Args:
            team: only projects of this team slug, e.g. payments.
        """
        return [p.model_dump() for p in select(self.state.projects.values(), eq("team", team))]

    @tool(read_only=True, returns=Project)
    def get_project(self, project_id: Id("project")) -> dict:
        """Get a project with its latest release and its count of unresolved issues.

        Args:
            project_id: the project slug, e.g. checkout-api.
        """
        p = self._project(project_id)
        latest = self._latest_release(p.id)
        return {**p.model_dump(), "latest_release": latest.id if latest else None,
                "unresolved_issues": sum(i.project_id == p.id and i.status == "unresolved"
                                         for i in self.state.issues.values())}

    @tool(read_only=True, returns=list[Issue])
    def list_project_issues(self, project_id: Id("project"), status: Optional[IssueStatus] = None,
                            assigned_to: Optional[Email] = None, level: Optional[Level] = None,
                            query: Optional[str] = Field(default=None, max_length=200),
                            limit: int = Field(default=25, ge=1, le=100)) -> list[dict]:
        """List a project's issues, most recently seen first.

        Args:
            project_id: the project slug.
            status: unresolved, resolved or ignored.
            assigned_to: the assignee's email.
            level: fatal, error, warning or info.
            query: text in the title or culprit (case-insensitive).
            limit: maximum number of issues (1-100).
        """
        p = self._project(project_id)
        q = query.lower() if query else None
        rows = sorted(self.state.issues.values(), key=lambda i: i.last_seen, reverse=True)
        rows = select(rows, eq("project_id", p.id), eq("status", status), eq("level", level),
                      (lambda i: (i.assigned_to or "") == assigned_to.lower()) if assigned_to else None,
                      (lambda i: q in i.title.lower() or q in i.culprit.lower()) if q else None, limit=limit)
        return [i.model_dump() for i in rows]

    @tool(read_only=True, returns=Issue)
    def get_issue(self, issue_id: Id("error_issue")) -> dict:
        """Get an issue with its project's repository and its latest event.

        Args:
            issue_id: the short id, e.g. CHECKOUT-API-4F.
        """
        return self._view(self._issue(issue_id))

    @tool(read_only=True, returns=list[Event])
    def list_issue_events(self, issue_id: Id("error_issue"), environment: Optional[Environment] = None,
                          limit: int = Field(default=50, ge=1, le=100)) -> list[dict]:
        """List an issue's events, newest first.

        Args:
            issue_id: the short id.
            environment: production or staging.
            limit: maximum number of events (1-100).
        """
        i = self._issue(issue_id)
        return [e.model_dump() for e in select(self._events(i), eq("environment", environment), limit=limit)]

    @tool(read_only=True, returns=Event)
    def get_latest_event(self, issue_id: Id("error_issue")) -> dict:
        """Get an issue's latest event (its release, environment and affected user).

        Args:
            issue_id: the short id.
        """
        ev = self._events(self._issue(issue_id))
        if not ev:
            raise NotFound(f"issue {issue_id} has no events.")
        return ev[0].model_dump()

    @tool(read_only=True, returns=list[Event])
    def list_events(self, user_email: Optional[Email] = None, release: Optional[Id("release")] = None,
                    limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search the organization's events by affected user email or release, newest first.

        Args:
            user_email: the affected user's email (case-insensitive).
            release: a release version, e.g. checkout-api@2.14.0.
            limit: maximum number of events (1-200).
        """
        if user_email is None and release is None:
            raise InvalidArgument("give user_email or release.")
        rows = sorted(self.state.events.values(), key=lambda e: e.date_created, reverse=True)
        rows = select(rows, eq("release", release),
                      (lambda e: (e.user_email or "").lower() == user_email.lower()) if user_email else None,
                      limit=limit)
        return [e.model_dump() for e in rows]

    @tool(read_only=True, returns=list[Release])
    def list_releases(self, project_id: Id("project")) -> list[dict]:
        """List a project's releases, newest version first.

        Args:
            project_id: the project slug.
        """
        p = self._project(project_id)
        rows = [r for r in self.state.releases.values() if r.project_id == p.id]
        return [r.model_dump() for r in sorted(rows, key=lambda r: version_key(r.id), reverse=True)]

    @tool(read_only=True, returns=Release)
    def get_release(self, version: Id("release")) -> dict:
        """Get a release with the issues first seen in it.

        Args:
            version: the version, e.g. checkout-api@2.14.0.
        """
        r = self.lookup(self.state.releases, version.strip(), "release")
        return {**r.model_dump(), "new_issues": [i.id for i in self.state.issues.values() if i.first_release == r.id]}

    @tool(read_only=True, returns=list[Note])
    def list_notes(self, issue_id: Id("error_issue")) -> list[dict]:
        """List the notes on an issue, oldest first.

        Args:
            issue_id: the short id.
        """
        i = self._issue(issue_id)
        return [n.model_dump() for n in self.state.notes.values() if n.issue_id == i.id]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Issue)
    def update_issue(self, issue_id: Id("error_issue"), status: Optional[IssueStatus] = None,
                     in_next_release: bool = False, in_release: Optional[Id("release")] = None,
                     ignore_count: Optional[int] = Field(default=None, ge=1, le=1_000_000),
                     ignore_duration: Optional[int] = Field(default=None, ge=1, le=525_600),
                     assigned_to: Optional[Email] = None) -> dict:
        """Resolve (now, in the next release or in a release), ignore (for a count or minutes), reopen or assign.

        Args:
            issue_id: the short id, e.g. CHECKOUT-API-4F.
            status: resolved, ignored or unresolved.
            in_next_release: with status resolved: resolved in the project's next release.
            in_release: with status resolved: resolved in this release (newer than the issue's last release).
            ignore_count: with status ignored: ignore until this many more events.
            ignore_duration: with status ignored: ignore for this many minutes.
            assigned_to: assign to this organization member (email).
        """
        i = self._issue(issue_id)
        if status is None and assigned_to is None:
            raise InvalidArgument("give a status or assigned_to.")
        if (in_next_release or in_release) and status != "resolved":
            raise InvalidArgument("in_next_release / in_release go with status resolved.")
        if (ignore_count or ignore_duration) and status != "ignored":
            raise InvalidArgument("ignore_count / ignore_duration go with status ignored.")
        if in_next_release and in_release:
            raise InvalidArgument("give in_next_release or in_release, not both.")
        if ignore_count and ignore_duration:
            raise InvalidArgument("give ignore_count or ignore_duration, not both.")
        member = None
        if assigned_to is not None:
            member = self.state.members.get(assigned_to.lower())
            if member is None:
                raise Unprocessable(f"{assigned_to} is not a member of the organization.")
            if member.pending:
                raise Unprocessable(f"{member.id} has not accepted the invite yet and cannot be assigned.")
        if status is not None and status == i.status and not (in_next_release or in_release):
            raise Conflict(f"issue {i.id} is already {i.status}.")
        if in_next_release and self._latest_release(i.project_id) is None:
            raise Unprocessable(f"project {i.project_id} has no releases; resolve it now instead.")
        if in_release:
            r = self.lookup(self.state.releases, in_release, "release")
            if r.project_id != i.project_id:
                raise Unprocessable(f"release {r.id} is not a release of project {i.project_id}.")
            if not newer(r.id, i.last_release):
                raise Unprocessable(f"issue {i.id} was last seen in {i.last_release}; it cannot be resolved in "
                                    f"{r.id}, which is not newer.")
        at = self.now()
        if status == "resolved":
            i.status_details = StatusDetails(in_next_release=in_next_release, in_release=in_release, actor=OPS_EMAIL)
        elif status == "ignored":
            i.status_details = StatusDetails(
                ignore_count=ignore_count, actor=OPS_EMAIL,
                ignore_until=at + dt.timedelta(minutes=ignore_duration) if ignore_duration else None)
        elif status == "unresolved":
            i.status_details = StatusDetails()
        if status is not None:
            i.status = status
        if member is not None:
            i.assigned_to = member.id
        return self._view(i)

    @tool(read_only=False, returns=Note)
    def create_note(self, issue_id: Id("error_issue"), text: str = Field(min_length=1, max_length=5000),
                    user_email: Email = OPS_EMAIL) -> dict:
        """Add a note to an issue's activity.

        Args:
            issue_id: the short id.
            text: the note.
            user_email: the author's email.
        """
        i = self._issue(issue_id)
        n = Note(id=self.new_id("NOTE"), issue_id=i.id, user_email=user_email.lower(), text=text,
                 date_created=self.now())
        self.state.notes[n.id] = n
        return n.model_dump()

    @tool(read_only=False, returns=Issue)
    def link_external_issue(self, issue_id: Id("error_issue"),
                            external_issue: str = Field(pattern=r"^[A-Z][A-Z0-9]*-\d+$")) -> dict:
        """Link the issue to an issue-tracker issue (e.g. a Linear issue PAY-112).

        Args:
            issue_id: the short id.
            external_issue: the tracker issue's identifier, e.g. PAY-112.
        """
        i = self._issue(issue_id)
        if external_issue in i.linked_issues:
            raise Conflict(f"{i.id} is already linked to {external_issue}.")
        i.linked_issues.append(external_issue)
        return self._view(i)

    @tool(read_only=False, returns=Release)
    def create_release(self, project_id: Id("project"), version: Id("release"),
                       ref: str = Field(pattern=r"^[0-9a-f]{7,40}$"), commit_count: int = Field(default=0, ge=0)) -> dict:
        """Create a release (project@x.y.z, newer than the latest); issues resolved "in next release" get it.

        Args:
            project_id: the project slug.
            version: the version, e.g. checkout-api@2.15.0.
            ref: the commit sha the release is built from.
            commit_count: commits since the previous release.
        """
        p = self._project(project_id)
        if project_of(version) != p.id:
            raise InvalidArgument(f"version {version} must start with {p.id}@.")
        if version in self.state.releases:
            raise Conflict(f"release {version} already exists.")
        latest = self._latest_release(p.id)
        if latest is not None and not newer(version, latest.id):
            raise Unprocessable(f"{version} is not newer than the latest release {latest.id}.")
        r = Release(id=version, project_id=p.id, date_created=self.now(), ref=ref, commit_count=commit_count)
        self.state.releases[version] = r
        for i in self.state.issues.values():
            if i.project_id == p.id and i.status == "resolved" and i.status_details.in_next_release:
                i.status_details.in_next_release, i.status_details.in_release = False, version
        return r.model_dump()

    @tool(read_only=False, returns=Release)
    def create_deploy(self, version: Id("release"), environment: Environment) -> dict:
        """Record a deploy of a release; the first production deploy sets its release date.

        Args:
            version: the release version.
            environment: production or staging.
        """
        r = self.lookup(self.state.releases, version.strip(), "release")
        at = self.now()
        r.deploys.append(Deploy(environment=environment, date_finished=at))
        if environment == "production" and r.date_released is None:
            r.date_released = at
        return r.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> ErrorTrackingState:
        return build_state(fake, rng, today)


__all__ = ["ErrorTracking"]
