"""Deployments: projects, versioned deploys per environment, rollbacks and change freezes.

The only deploy server in ``compoworld_gym/data/mcp_servers.jsonl`` (Google Cloud
Run) uploads local files to GCP and names a tool ``list_services``, which
would shadow the ``list_services`` meta-tool; so the interface is designed
the way Vercel's deployments API looks instead: projects, deployments with
a version, target environment and status, promote from staging to
production, instant rollback to the previous ready deployment, plus
change-freeze windows (as in Spinnaker/Harness) during which deploys to an
environment are refused with 409. Rollbacks stay allowed during a freeze:
they restore a known-good version, which is what freeze policies exempt.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from typing import Annotated, Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id, RepoName, Url, entity
from compoworld_gym.envs.services._engineering import APPS, team_engineers
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import DAY_START, Record, Service, ServiceState, tool

Environment = Literal["development", "staging", "production"]
FreezeScope = Literal["development", "staging", "production", "all"]
DeployStatus = Literal["queued", "building", "ready", "failed", "canceled", "rolled_back"]
Branch = Annotated[str, entity("branch")]
VERSION = r"^v\d+\.\d+\.\d+$"


class Project(Record):
    """A deployable application."""

    id: Id("project") = Field(description="Project id (the app key), e.g. 'checkout-api'.")
    name: str = Field(description="Display name.")
    repo: RepoName = Field(description="Source repository, org/name.")
    team: str = Field(description="Owning team.")
    owner_email: Email = Field(description="Engineer who owns the project.")
    production_url: Url = Field(description="Public URL of the production deployment.")
    live: dict[Environment, Optional[Id("deployment")]] = Field(
        description="Deployment currently serving each environment (None if never deployed).")


class Deployment(Record):
    """One deploy of one version of a project to one environment."""

    id: Id("deployment") = Field(description="Deployment id, e.g. DPL-0001.")
    project_id: Id("project") = Field(description="The project deployed.")
    version: str = Field(pattern=VERSION, description="Release version, e.g. v2.14.0.")
    environment: Environment = Field(description="Target environment.")
    status: DeployStatus = Field(description="Lifecycle status; rolled_back = replaced by a rollback.")
    branch: Branch = Field(description="Git branch built.")
    commit_sha: str = Field(description="Short git commit hash (7 hex).")
    created_by: Email = Field(description="Who started the deploy.")
    created_at: DateTime = Field(description="When the deploy started.")
    url: Url = Field(description="Unique URL of this deployment.")
    note: str = Field(default="", description="Free-text note (rollback reason, failure cause).")


class FreezeWindow(Record):
    """A change freeze: no deploys to ``environment`` from ``starts_on`` to ``ends_on`` inclusive."""

    id: str = Field(description="Freeze id, e.g. FRZ-0001.")
    environment: FreezeScope = Field(description="Frozen environment, or 'all'.")
    starts_on: Date = Field(description="First frozen day.")
    ends_on: Date = Field(description="Last frozen day (inclusive).")
    reason: str = Field(description="Why changes are frozen.")
    created_by: Email = Field(description="Who declared the freeze.")


class DeploymentsState(ServiceState):
    """Projects, deployments and freeze windows."""

    projects: dict[str, Project] = Field(default_factory=dict, description="Projects by id.")
    deployments: dict[str, Deployment] = Field(default_factory=dict, description="Deployments by id.")
    freezes: dict[str, FreezeWindow] = Field(default_factory=dict, description="Freeze windows by id.")


def _sha(*parts: str) -> str:
    return hashlib.sha1("/".join(parts).encode()).hexdigest()[:7]


class Deployments(Service):
    """Vercel-style deployments with promotion, rollback and change-freeze windows."""

    name = "deployments"
    description = ("Deployment pipeline: projects, versioned deploys per environment, promotion, "
                   "rollback and change-freeze windows.")
    domain = "engineering"
    spec_source = None
    State = DeploymentsState

    # ---------------------------------------------------------------- helpers
    def _active_freeze(self, environment: str) -> FreezeWindow | None:
        for fz in self.state.freezes.values():
            if fz.environment in (environment, "all") and fz.starts_on <= self.today <= fz.ends_on:
                return fz
        return None

    def _deploy(self, project: Project, version: str, environment: str, created_by: str,
                branch: str, note: str = "") -> Deployment:
        fz = self._active_freeze(environment)
        if fz is not None:
            raise Conflict(f"{environment} is in change freeze {fz.id} ({fz.reason}) until {fz.ends_on}; "
                           "deploys are refused. Roll back instead, or wait for the freeze to end.")
        live = project.live.get(environment)
        if live and self.state.deployments[live].version == version:
            raise Conflict(f"{version} is already live in {environment} ({live}).")
        if environment == "production" and not any(
                d.project_id == project.id and d.version == version and d.environment == "staging"
                and d.status in ("ready", "rolled_back") for d in self.state.deployments.values()):
            raise Conflict(f"{version} of {project.id} was never deployed successfully to staging; "
                           "deploy it to staging first.")
        dep_id = self.new_id("DPL")
        sha = _sha(project.id, version)
        dep = Deployment(id=dep_id, project_id=project.id, version=version, environment=environment,
                         status="ready", branch=branch, commit_sha=sha, created_by=created_by,
                         created_at=self.now(), url=f"https://{project.id}-{dep_id.lower()}.deploy.company.example",
                         note=note)
        self.state.deployments[dep_id] = dep
        project.live[environment] = dep_id
        return dep

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Project])
    def list_projects(self, team: Optional[str] = None, owner_email: Optional[Email] = None) -> list[dict]:
        """List projects with the deployment live in each environment.

        Args:
            team: only projects of this team, e.g. 'payments'.
            owner_email: only projects owned by this engineer.
        """
        return [p.model_dump() for p in self.state.projects.values()
                if (team is None or p.team == team)
                and (owner_email is None or p.owner_email.lower() == owner_email.lower())]

    @tool(read_only=True, returns=Project)
    def get_project(self, project_id: Id("project")) -> dict:
        """Get a project plus the version live in each environment.

        Args:
            project_id: the project id, e.g. 'checkout-api'.
        """
        p = self.lookup(self.state.projects, project_id, "project")
        versions = {env: (self.state.deployments[d].version if d else None) for env, d in p.live.items()}
        return {**p.model_dump(), "live_versions": versions}

    @tool(read_only=True, returns=list[Deployment])
    def list_deployments(
        self,
        project_id: Optional[Id("project")] = None,
        environment: Optional[Environment] = None,
        status: Optional[DeployStatus] = None,
        created_by: Optional[Email] = None,
        since: Optional[Date] = None,
        limit: int = Field(default=20, ge=1, le=200),
    ) -> list[dict]:
        """List deployments, newest first.

        Args:
            project_id: only deployments of this project.
            environment: only deployments to this environment.
            status: only deployments with this status.
            created_by: only deployments started by this person.
            since: only deployments started on or after this date (YYYY-MM-DD).
            limit: maximum number of deployments (1-200).
        """
        out = []
        for d in sorted(self.state.deployments.values(), key=lambda d: (d.created_at, d.id), reverse=True):
            if ((project_id and d.project_id != project_id) or (environment and d.environment != environment)
                    or (status and d.status != status) or (since and d.created_at.date() < since)
                    or (created_by and d.created_by.lower() != created_by.lower())):
                continue
            out.append(d.model_dump())
        return out[:limit]

    @tool(read_only=True, returns=Deployment)
    def get_deployment(self, deployment_id: Id("deployment")) -> dict:
        """Get one deployment; ``is_live`` says whether it serves its environment now.

        Args:
            deployment_id: the deployment id, e.g. DPL-0001.
        """
        d = self.lookup(self.state.deployments, deployment_id, "deployment")
        return {**d.model_dump(), "is_live": self.state.projects[d.project_id].live[d.environment] == d.id}

    @tool(read_only=True, returns=list[FreezeWindow])
    def list_freeze_windows(self, environment: Optional[FreezeScope] = None,
                            active_on: Optional[Date] = None) -> list[dict]:
        """List change-freeze windows.

        Args:
            environment: only windows covering this environment ('all' windows cover every one).
            active_on: only windows covering this date (YYYY-MM-DD).
        """
        return [f.model_dump() for f in self.state.freezes.values()
                if (environment is None or f.environment in (environment, "all"))
                and (active_on is None or f.starts_on <= active_on <= f.ends_on)]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Deployment)
    def create_deployment(self, project_id: Id("project"), version: str = Field(pattern=VERSION),
                          environment: Environment = "staging", created_by: Email = Field(min_length=3),
                          branch: Branch = "main") -> dict:
        """Deploy a version of a project to an environment; it becomes live at once.

        409 during a change freeze of that environment, when the version is
        already live there, or for production when the version was never
        deployed successfully to staging.

        Args:
            project_id: the project to deploy.
            version: release version, e.g. v2.15.0.
            environment: development, staging or production.
            created_by: who starts the deploy.
            branch: git branch to build.
        """
        project = self.lookup(self.state.projects, project_id, "project")
        return self._deploy(project, version, environment, created_by, branch).model_dump()

    @tool(read_only=False, returns=Deployment)
    def promote_deployment(self, deployment_id: Id("deployment"), created_by: Email) -> dict:
        """Promote a ready staging deployment to production (same version and branch).

        409 if it is not a ready staging deployment or production is frozen.

        Args:
            deployment_id: the staging deployment to promote.
            created_by: who promotes it.
        """
        src = self.lookup(self.state.deployments, deployment_id, "deployment")
        if src.environment != "staging" or src.status != "ready":
            raise Conflict(f"only ready staging deployments can be promoted; {deployment_id} is "
                           f"{src.status} in {src.environment}.")
        project = self.state.projects[src.project_id]
        return self._deploy(project, src.version, "production", created_by, src.branch,
                            note=f"promoted from {src.id}").model_dump()

    @tool(read_only=False, returns=Deployment)
    def rollback_deployment(self, project_id: Id("project"), environment: Environment, actor_email: Email,
                            reason: str = Field(min_length=1, max_length=500)) -> dict:
        """Roll an environment back to its previous ready deployment (allowed during freezes).

        The live deployment becomes ``rolled_back``; returns the deployment now live.

        Args:
            project_id: the project to roll back.
            environment: development, staging or production.
            actor_email: who rolls back.
            reason: why (recorded on the rolled-back deployment).
        """
        project = self.lookup(self.state.projects, project_id, "project")
        live_id = project.live.get(environment)
        if live_id is None:
            raise Conflict(f"{project_id} has nothing live in {environment} to roll back.")
        live = self.state.deployments[live_id]
        previous = [d for d in self.state.deployments.values()
                    if d.project_id == project_id and d.environment == environment and d.status == "ready"
                    and d.id != live_id and d.created_at < live.created_at]
        if not previous:
            raise Conflict(f"no earlier ready deployment of {project_id} in {environment} to roll back to.")
        target = max(previous, key=lambda d: (d.created_at, d.id))
        live.status = "rolled_back"
        live.note = f"rolled back by {actor_email}: {reason}"
        project.live[environment] = target.id
        return {**target.model_dump(), "rolled_back_deployment_id": live_id}

    @tool(read_only=False, returns=Deployment)
    def cancel_deployment(self, deployment_id: Id("deployment"), actor_email: Email) -> dict:
        """Cancel a queued or building deployment (409 once it finished).

        Args:
            deployment_id: the deployment to cancel.
            actor_email: who cancels it.
        """
        d = self.lookup(self.state.deployments, deployment_id, "deployment")
        if d.status not in ("queued", "building"):
            raise Conflict(f"{deployment_id} is {d.status}; only queued or building deployments can be canceled.")
        d.status = "canceled"
        d.note = f"canceled by {actor_email}"
        return d.model_dump()

    @tool(read_only=False, returns=FreezeWindow)
    def create_freeze_window(self, environment: FreezeScope, starts_on: Date, ends_on: Date,
                             reason: str = Field(min_length=1, max_length=300),
                             created_by: Email = Field(min_length=3)) -> dict:
        """Declare a change freeze: deploys to the environment are refused on those days.

        Args:
            environment: development, staging, production or all.
            starts_on: first frozen day (YYYY-MM-DD), not in the past.
            ends_on: last frozen day (YYYY-MM-DD), on or after starts_on.
            reason: why changes are frozen.
            created_by: who declares the freeze.
        """
        if ends_on < starts_on:
            raise Unprocessable(f"ends_on {ends_on} is before starts_on {starts_on}.")
        if starts_on < self.today:
            raise Unprocessable(f"starts_on {starts_on} is in the past (today is {self.today}).")
        fz = FreezeWindow(id=self.new_id("FRZ"), environment=environment, starts_on=starts_on,
                          ends_on=ends_on, reason=reason, created_by=created_by)
        self.state.freezes[fz.id] = fz
        return fz.model_dump()

    @tool(read_only=False, destructive=True, returns=FreezeWindow)
    def delete_freeze_window(self, freeze_id: str) -> dict:
        """Lift a change freeze by deleting its window.

        Args:
            freeze_id: the freeze id, e.g. FRZ-0001.
        """
        if freeze_id not in self.state.freezes:
            raise NotFound(f"freeze window {freeze_id!r} not found; call list_freeze_windows.")
        return self.state.freezes.pop(freeze_id).model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> DeploymentsState:
        state = DeploymentsState()
        start = dt.datetime.combine(today, DAY_START)
        rows: list[tuple[dt.datetime, str, str, str, str, str]] = []
        for i, app in enumerate(APPS):
            crew = team_engineers(app.team)
            major, minor = rng.randint(1, 4), rng.randint(0, 20)
            for k in range(2):
                version = f"v{major}.{minor + k}.0"
                when = start - dt.timedelta(days=17 - 7 * k + rng.randint(0, 2), hours=rng.randint(1, 6))
                rows.append((when, app.key, version, "staging", rng.choice(crew).email, "ready"))
                if k < 1 or i % 3 != 1:  # every third app has its newest version only in staging
                    rows.append((when + dt.timedelta(days=1), app.key, version, "production",
                                 rng.choice(crew).email, "ready"))
            if i % 3 == 0:
                rows.append((start - dt.timedelta(hours=3 + i), app.key, f"v{major}.{minor + 2}.0", "staging",
                             crew[0].email, "failed" if i % 2 == 0 else "building"))
        for n, (when, key, version, env, who, status) in enumerate(sorted(rows), start=1):
            dep_id = f"DPL-{n:04d}"
            state.deployments[dep_id] = Deployment(
                id=dep_id, project_id=key, version=version, environment=env, status=status, branch="main",
                commit_sha=_sha(key, version), created_by=who, created_at=when,
                url=f"https://{key}-{dep_id.lower()}.deploy.company.example",
                note="build failed: unit tests" if status == "failed" else "")
        for app in APPS:
            live: dict[str, Optional[str]] = {"development": None, "staging": None, "production": None}
            for d in state.deployments.values():
                if d.project_id == app.key and d.status == "ready":
                    live[d.environment] = d.id
            state.projects[app.key] = Project(
                id=app.key, name=app.name, repo=app.repo, team=app.team,
                owner_email=team_engineers(app.team)[0].email,
                production_url=f"https://{app.key}.company.example", live=live)
        freezes = [("production", today - dt.timedelta(days=rng.randint(0, 2)), today + dt.timedelta(days=2),
                    "Quarter-end billing close")] if rng.random() < 0.5 else []
        freezes.append(("all", today + dt.timedelta(days=20), today + dt.timedelta(days=24), "Annual sale event"))
        for n, (env, s, e, why) in enumerate(freezes, start=1):
            state.freezes[f"FRZ-{n:04d}"] = FreezeWindow(id=f"FRZ-{n:04d}", environment=env, starts_on=s,
                                                          ends_on=e, reason=why,
                                                          created_by=team_engineers("platform")[0].email)
        state.counters.update(DPL=len(state.deployments) + 1, FRZ=len(freezes) + 1)
        return state
