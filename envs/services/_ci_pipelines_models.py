"""Records and state of the ``ci_pipelines`` service (CircleCI API v2 shapes):
projects by slug, pipelines per branch and commit, workflows and their jobs."""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id, RepoName, entity
from compoworld_gym.service import Record, ServiceState

Branch = Annotated[str, entity("branch")]
WorkflowStatus = Literal["success", "running", "not_run", "failed", "error", "failing", "on_hold", "canceled"]
JobStatus = Literal["success", "running", "not_run", "failed", "queued", "blocked", "on_hold", "canceled"]


class CiProject(Record):
    """A followed project: one VCS repository."""

    slug: str = Field(description="Project slug, e.g. 'gh/acme/checkout-api'.")
    name: Id("project") = Field(description="Repository name, the same key as the deploy project, e.g. 'checkout-api'.")
    organization_name: str = Field(description="VCS organisation.")
    repo: RepoName = Field(description="Repository, org/name.")
    vcs_url: str = Field(description="Repository URL.")
    default_branch: Branch = Field(description="Default branch.")
    branches: list[Branch] = Field(min_length=1, description="Branches CI has seen.")


class Job(Record):
    """One job of a workflow (a build step or an approval gate)."""

    id: str = Field(description="Job id, e.g. JOB-0001.")
    name: str = Field(description="Job name, e.g. 'test' or 'hold-deploy'.")
    type: Literal["build", "approval"] = Field(description="build runs commands; approval waits for a person.")
    status: JobStatus = Field(description="Job status.")
    job_number: Optional[int] = Field(default=None, description="Project-wide build number (build jobs only).")
    dependencies: list[str] = Field(default_factory=list, description="Names of the jobs it waits for.")
    approved_by: Optional[Email] = Field(default=None, description="Who approved it (approval jobs).")
    failure_message: str = Field(default="", description="Why it failed, if it did.")


class Workflow(Record):
    """A workflow run of a pipeline."""

    id: Id("pipeline_run") = Field(description="Workflow id, e.g. WF-0001.")
    pipeline_id: Id("pipeline") = Field(description="Pipeline it belongs to.")
    name: str = Field(description="Workflow name, e.g. 'build-test-deploy'.")
    status: WorkflowStatus = Field(description="Workflow status.")
    created_at: DateTime = Field(description="When it started.")
    stopped_at: Optional[DateTime] = Field(default=None, description="When it finished.")
    rerun_of: Optional[Id("pipeline_run")] = Field(default=None, description="Workflow this one reruns, if any.")
    jobs: list[Job] = Field(min_length=1, description="Jobs in dependency order.")


class Pipeline(Record):
    """One pipeline: a trigger of a project's config on a branch at a commit."""

    id: Id("pipeline") = Field(description="Pipeline id, e.g. PL-0001.")
    project_slug: str = Field(description="Project slug.")
    number: int = Field(ge=1, description="Pipeline number within the project.")
    state: Literal["created", "errored"] = Field(description="Whether the config compiled.")
    branch: Branch = Field(description="Branch built.")
    revision: str = Field(pattern=r"^[0-9a-f]{40}$", description="Commit SHA built.")
    commit_subject: str = Field(description="Commit message subject.")
    commit_author_email: Email = Field(description="Email of the commit author.")
    trigger_actor: Email = Field(description="Who triggered the pipeline (push author or API caller).")
    created_at: DateTime = Field(description="When it was triggered.")
    workflow_ids: list[Id("pipeline_run")] = Field(default_factory=list, description="Its workflows, oldest first.")


class CiState(ServiceState):
    """Projects, pipelines and workflows."""

    projects: dict[str, CiProject] = Field(default_factory=dict, description="Projects by slug.")
    pipelines: dict[str, Pipeline] = Field(default_factory=dict, description="Pipelines by id.")
    workflows: dict[str, Workflow] = Field(default_factory=dict, description="Workflows by id.")
