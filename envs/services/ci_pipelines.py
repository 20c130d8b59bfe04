"""CI pipelines: CircleCI-style projects, pipelines, workflows and jobs.

No CircleCI server is in ``compoworld_gym/data/mcp_servers.jsonl``; the interface
follows the CircleCI API v2: projects by slug (``gh/<org>/<repo>``, the
github service's repositories and the deploy projects' source repositories),
pipelines per branch and commit (``/project/{slug}/pipeline``), workflows
(``/pipeline/{id}/workflow``, ``/workflow/{id}/rerun``, ``/cancel``,
``/approve/{approval_request_id}``) and jobs (``/workflow/{id}/job``,
``/project/{slug}/job/{number}``).

Rules as in CircleCI: only a failed workflow can be rerun from failed, and
only once (its rerun supersedes it); only an unfinished workflow can be
canceled (409); an approval job can be approved only while on hold (409);
no deploy approval on a failed or failing workflow, and the commit author
cannot approve their own deploy (422).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Email, Id
from compoworld_gym.envs.services._blocks import eq, next_number, require_status, select, text
from compoworld_gym.envs.services._ci_pipelines_models import Branch, CiProject, CiState, Job, Pipeline, Workflow
from compoworld_gym.envs.services._ci_pipelines_rules import WORKFLOW_NAME, make_jobs, rerun_jobs, sha, workflow_status
from compoworld_gym.envs.services._ci_pipelines_seed import build_ci_seed
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Service, tool


class CiPipelines(Service):
    """CircleCI API v2 style continuous integration."""

    name = "ci_pipelines"
    description = ("Continuous integration: projects by repository, pipelines per branch and commit, workflows "
                   "and jobs; trigger, rerun failed, cancel, approve hold jobs.")
    domain = "engineering"
    spec_source = None
    State = CiState

    # ---------------------------------------------------------------- helpers
    def _project(self, slug: str) -> CiProject:
        return self.lookup(self.state.projects, slug, "project")

    def _pipeline(self, pipeline_id: str) -> Pipeline:
        return self.lookup(self.state.pipelines, pipeline_id, "pipeline")

    def _workflow(self, workflow_id: str) -> Workflow:
        return self.lookup(self.state.workflows, workflow_id, "workflow")

    def _summary(self, p: Pipeline) -> dict:
        """A pipeline with the status of its latest workflow (what the CircleCI UI shows)."""
        latest = self.state.workflows[p.workflow_ids[-1]].status if p.workflow_ids else None
        return {**p.model_dump(), "workflow_status": latest}

    def _numbers(self, slug: str):
        return lambda: next_number(self.state.counters, f"job:{slug}")

    def _superseded(self, wf: Workflow) -> bool:
        return any(w.rerun_of == wf.id for w in self.state.workflows.values())

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[CiProject])
    def list_projects(self, query: Optional[str] = None) -> list[dict]:
        """List followed projects, optionally matching a slug or repository name.

        Args:
            query: text in the slug, e.g. 'checkout'.
        """
        return [p.model_dump() for p in select(self.state.projects.values(), text(query, "slug"))]

    @tool(read_only=True, returns=CiProject)
    def get_project(self, project_slug: str) -> dict:
        """Get a project by slug (GET /project/{project-slug}).

        Args:
            project_slug: e.g. 'gh/acme/checkout-api'.
        """
        return self._project(project_slug).model_dump()

    @tool(read_only=True, returns=list[Pipeline])
    def list_pipelines(self, project_slug: str, branch: Optional[Branch] = None,
                       limit: int = Field(default=20, ge=1, le=100)) -> list[dict]:
        """List a project's pipelines, newest first, each with its latest workflow status.

        Args:
            project_slug: the project.
            branch: only pipelines of this branch.
            limit: maximum number of pipelines (1-100).
        """
        self._project(project_slug)
        hits = select(reversed(self.state.pipelines.values()), eq("project_slug", project_slug),
                      eq("branch", branch), limit=limit)
        return [self._summary(p) for p in hits]

    @tool(read_only=True, returns=Pipeline)
    def get_pipeline(self, pipeline_id: Id("pipeline")) -> dict:
        """Get a pipeline: branch, commit, author and its workflows (GET /pipeline/{id}).

        Args:
            pipeline_id: e.g. PL-0001.
        """
        return self._summary(self._pipeline(pipeline_id))

    @tool(read_only=True, returns=Pipeline)
    def get_pipeline_by_number(self, project_slug: str, pipeline_number: int = Field(ge=1)) -> dict:
        """Get a project's pipeline by its number (GET /project/{slug}/pipeline/{number}).

        Args:
            project_slug: the project.
            pipeline_number: the pipeline number within the project.
        """
        self._project(project_slug)
        for p in self.state.pipelines.values():
            if p.project_slug == project_slug and p.number == pipeline_number:
                return self._summary(p)
        raise NotFound(f"project {project_slug} has no pipeline {pipeline_number}; call list_pipelines.")

    @tool(read_only=True, returns=list[Workflow])
    def list_pipeline_workflows(self, pipeline_id: Id("pipeline")) -> list[dict]:
        """List a pipeline's workflows, oldest first, without jobs.

        Args:
            pipeline_id: the pipeline.
        """
        p = self._pipeline(pipeline_id)
        return [self.state.workflows[w].model_dump(exclude={"jobs"}) for w in p.workflow_ids]

    @tool(read_only=True, returns=Workflow)
    def get_workflow(self, workflow_id: Id("pipeline_run")) -> dict:
        """Get a workflow with its status (GET /workflow/{id}), without jobs.

        Args:
            workflow_id: e.g. WF-0001.
        """
        return self._workflow(workflow_id).model_dump(exclude={"jobs"})

    @tool(read_only=True, returns=list[Job])
    def list_workflow_jobs(self, workflow_id: Id("pipeline_run")) -> list[dict]:
        """List a workflow's jobs with status; approval jobs' ``id`` is their approval_request_id.

        Args:
            workflow_id: the workflow.
        """
        return [j.model_dump() for j in self._workflow(workflow_id).jobs]

    @tool(read_only=True, returns=Job)
    def get_job_details(self, project_slug: str, job_number: int = Field(ge=1)) -> dict:
        """Get a build job by its project-wide number, with its failure message (GET /project/{slug}/job/{n}).

        Args:
            project_slug: the project.
            job_number: the job (build) number.
        """
        self._project(project_slug)
        for w in self.state.workflows.values():
            if self.state.pipelines[w.pipeline_id].project_slug != project_slug:
                continue
            for j in w.jobs:
                if j.job_number == job_number:
                    return {**j.model_dump(), "workflow_id": w.id, "pipeline_id": w.pipeline_id}
        raise NotFound(f"project {project_slug} has no job {job_number}; call list_workflow_jobs.")

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Pipeline)
    def trigger_pipeline(self, project_slug: str, branch: Branch, actor_email: Email) -> dict:
        """Trigger a new pipeline on the head of a known branch (POST /project/{slug}/pipeline).

        Args:
            project_slug: the project.
            branch: a branch CI has seen (see get_project).
            actor_email: who triggers it.
        """
        proj = self._project(project_slug)
        if branch not in proj.branches:
            raise Unprocessable(f"branch {branch!r} is unknown in {proj.slug}; known: {', '.join(proj.branches)}.")
        head = next((p for p in reversed(self.state.pipelines.values())
                     if p.project_slug == proj.slug and p.branch == branch), None)
        when = self.now()
        number = next_number(self.state.counters, f"pipeline:{proj.slug}")
        p = Pipeline(id=self.new_id("PL"), project_slug=proj.slug, number=number, state="created", branch=branch,
                     revision=head.revision if head else sha(proj.slug, branch, number),
                     commit_subject=head.commit_subject if head else "Head of branch",
                     commit_author_email=head.commit_author_email if head else actor_email,
                     trigger_actor=actor_email, created_at=when)
        jobs = make_jobs("running", lambda: self.new_id("JOB"), self._numbers(proj.slug))
        for j in jobs:  # a fresh run: the first job runs, the others wait
            j.status, j.job_number = ("running", j.job_number) if j.name == "build" else ("blocked", None)
        wf = Workflow(id=self.new_id("WF"), pipeline_id=p.id, name=WORKFLOW_NAME, status="running",
                      created_at=when, jobs=jobs)
        p.workflow_ids.append(wf.id)
        self.state.pipelines[p.id], self.state.workflows[wf.id] = p, wf
        return self._summary(p)

    @tool(read_only=False, returns=Workflow)
    def rerun_workflow(self, workflow_id: Id("pipeline_run"), from_failed: bool = True) -> dict:
        """Rerun a finished workflow as a new workflow of the same pipeline (POST /workflow/{id}/rerun).

        With ``from_failed`` only a failed workflow qualifies and its passed jobs are kept; a workflow
        already rerun is superseded (409).

        Args:
            workflow_id: the workflow to rerun.
            from_failed: rerun only the failed jobs and what depends on them.
        """
        wf = self._workflow(workflow_id)
        allowed = ("failed", "error") if from_failed else ("failed", "error", "success", "canceled")
        require_status("workflow", wf.id, wf.status, allowed, "rerun" + (" from failed" if from_failed else ""))
        if self._superseded(wf):
            raise Conflict(f"workflow {wf.id} was already rerun; rerun its latest run instead.")
        slug = self.state.pipelines[wf.pipeline_id].project_slug
        new_id = lambda: self.new_id("JOB")  # noqa: E731 - one id source for both paths
        jobs = (rerun_jobs(wf.jobs, new_id, self._numbers(slug)) if from_failed
                else make_jobs("running", new_id, self._numbers(slug)))
        new = Workflow(id=self.new_id("WF"), pipeline_id=wf.pipeline_id, name=wf.name, status=workflow_status(jobs),
                       created_at=self.now(), rerun_of=wf.id, jobs=jobs)
        self.state.workflows[new.id] = new
        self.state.pipelines[wf.pipeline_id].workflow_ids.append(new.id)
        return new.model_dump()

    @tool(read_only=False, returns=Workflow)
    def cancel_workflow(self, workflow_id: Id("pipeline_run")) -> dict:
        """Cancel an unfinished workflow (running, on hold or failing); its unfinished jobs are canceled.

        Args:
            workflow_id: the workflow.
        """
        wf = self._workflow(workflow_id)
        require_status("workflow", wf.id, wf.status, ("running", "on_hold", "failing"), "cancel")
        for j in wf.jobs:
            if j.status in ("running", "queued", "blocked", "on_hold"):
                j.status = "canceled"
        wf.status, wf.stopped_at = "canceled", self.now()
        return wf.model_dump(exclude={"jobs"})

    @tool(read_only=False, returns=Job)
    def approve_job(self, workflow_id: Id("pipeline_run"), approval_request_id: str, approver_email: Email) -> dict:
        """Approve an on-hold approval job (POST /workflow/{id}/approve/{approval_request_id}).

        Refused (422) on a failed or failing workflow and for the commit author; 409 unless the job is on hold.

        Args:
            workflow_id: the workflow.
            approval_request_id: the approval job's id (see list_workflow_jobs).
            approver_email: who approves.
        """
        wf = self._workflow(workflow_id)
        job = next((j for j in wf.jobs if j.id == approval_request_id and j.type == "approval"), None)
        if job is None:
            raise NotFound(f"workflow {wf.id} has no approval job {approval_request_id!r}; call list_workflow_jobs.")
        if wf.status in ("failed", "failing") or any(j.status == "failed" for j in wf.jobs):
            raise Unprocessable(f"workflow {wf.id} has failed jobs; no deploy approval on a failed workflow.")
        require_status("approval job", job.id, job.status, ("on_hold",), "approve")
        pipe = self.state.pipelines[wf.pipeline_id]
        if pipe.commit_author_email.lower() == approver_email.lower():
            raise Unprocessable("the commit author cannot approve their own deploy; ask another engineer.")
        job.status, job.approved_by = "success", approver_email.lower()
        for j in wf.jobs:
            if job.name in j.dependencies and j.status == "blocked":
                j.status, j.job_number = "queued", next_number(self.state.counters, f"job:{pipe.project_slug}")
        wf.status = workflow_status(wf.jobs)
        self.now()  # the approval is a logged event: time moves on
        return job.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> CiState:
        """Seeded projects, pipelines and workflows (see ``_ci_pipelines_seed``)."""
        return build_ci_seed(rng, today)
