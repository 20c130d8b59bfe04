"""CI pipelines in chained tasks: a failed pipeline names its branch, the
commit author's email and the project (the same key as the deploy project);
a deploy project names its still-failing pipeline. The case's pipeline has
its failed workflow rerun from failed."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists
from compoworld_gym.envs.services._ci_pipelines_models import Pipeline, Workflow
from compoworld_gym.envs.services._ci_pipelines_rules import WORKFLOW_NAME, make_jobs, sha, workflow_status
from compoworld_gym.envs.services._ci_pipelines_seed import project_record
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import engineer_email, new_app_key
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "ci_pipelines"
ORG = "acme"
_TOPICS = ("timeouts", "retry-budget", "pool-size", "cache-keys", "null-totals", "tls-upgrade")


def new_branch(ctx: Ctx, key: str) -> str:
    """A feature branch name of project ``key``, e.g. ``fix/checkout-api-timeouts``."""
    return f"fix/{key}-{ctx.rng.choice(_TOPICS)}"


def ensure_project(ctx: Ctx, key: str, branch: str) -> str:
    """Add project ``gh/acme/<key>`` unless it exists (any org), with ``branch`` known; returns its slug."""
    projects = ctx.state(SERVICE)["projects"]
    slug = next((s for s, p in projects.items() if p["name"] == key), f"gh/{ORG}/{key}")
    if slug not in projects:
        projects[slug] = project_record(ORG, key, ["main"]).model_dump(mode="json")
    if branch not in projects[slug]["branches"]:
        projects[slug]["branches"].append(branch)
    return slug


def _jobs(state: dict[str, Any], slug: str, outcome: str) -> list[Any]:
    def number() -> int:
        n = state["counters"].get(f"job:{slug}", 1)
        state["counters"][f"job:{slug}"] = n + 1
        return n
    return make_jobs(outcome, lambda: next_id(state, "JOB"), number)  # type: ignore[arg-type]


def _add_workflow(state: dict[str, Any], pid: str, slug: str, outcome: str, when: str, rerun_of: Any = None) -> str:
    jobs = _jobs(state, slug, outcome)
    wf = Workflow(id=next_id(state, "WF"), pipeline_id=pid, name=WORKFLOW_NAME, status=workflow_status(jobs),
                  created_at=when, stopped_at=when, rerun_of=rerun_of, jobs=jobs)
    state["workflows"][wf.id] = wf.model_dump(mode="json")
    state["pipelines"][pid]["workflow_ids"].append(wf.id)
    return wf.id


def plant_pipeline(ctx: Ctx, pid: str, key: str, outs: dict[str, Any], stale: bool) -> str:
    """Add a pipeline ``pid`` on project ``key`` whose workflow failed; ``stale``: its rerun then passed."""
    state = ctx.state(SERVICE)
    branch = outs.get("branch") or new_branch(ctx, key)
    author = outs.get("email") or engineer_email(ctx)
    slug = ensure_project(ctx, key, branch)
    number = state["counters"].get(f"pipeline:{slug}", 1)
    state["counters"][f"pipeline:{slug}"] = number + 1
    when = ctx.at(-3 if stale else -1, 11)
    p = Pipeline(id=pid, project_slug=slug, number=number, state="created", branch=branch,
                 revision=sha(slug, number, branch, author), commit_subject=f"Fix {branch.rsplit('/', 1)[-1]}",
                 commit_author_email=author, trigger_actor=author, created_at=when)
    state["pipelines"][pid] = p.model_dump(mode="json")
    failed = _add_workflow(state, pid, slug, "failed", when)
    if stale:
        _add_workflow(state, pid, slug, "success", ctx.at(-3, 13), rerun_of=failed)
    return pid


def _fix_others(ctx: Ctx, key: str) -> None:
    """Seeded pipelines of ``key`` that still fail get a passing rerun: the planted one is the only failing one."""
    state = ctx.state(SERVICE)
    for pid, p in state["pipelines"].items():
        if p["project_slug"].rsplit("/", 1)[-1] == key and p["workflow_ids"]:
            last = state["workflows"][p["workflow_ids"][-1]]
            if last["status"] == "failed":
                _add_workflow(state, pid, p["project_slug"], "success", ctx.at(-2, 9), rerun_of=last["id"])


def _plant_by_id(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    project = outs.get("project_id") or new_app_key(ctx)
    return plant_pipeline(ctx, key, project, outs, stale)


def _plant_of_project(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    if not stale:
        _fix_others(ctx, key)
    return plant_pipeline(ctx, next_id(ctx.state(SERVICE), "PL"), key, outs, stale)


def _alloc_project(ctx: Ctx) -> str:
    taken = ctx.__dict__.setdefault("_app_keys", set())
    taken |= {p["name"] for p in ctx.state(SERVICE)["projects"].values()}
    return new_app_key(ctx)


def _of_project(reader: Reader, key: Any) -> dict[str, Any]:
    proj = pick(reader.read(SERVICE, "list_projects", query=key), name=key)
    rows = reader.read(SERVICE, "list_pipelines", project_slug=proj["slug"], limit=100)
    return pick(rows, workflow_status="failed")


_AUTHOR = Give("email", "commit_author_email", "the commit author's email address", "the commit author",
               draw=engineer_email)

PIPELINE = Relay(
    service=SERVICE, name="CI pipeline", key="pipeline_id",
    # No branch give: the generator draws a fresh value of every give type and has no fresh branch names.
    gives=(_AUTHOR, Give("project_id", "project_slug", "the project the pipeline built",
                                  pattern=r"[a-z0-9-]+$")),
    plant=_plant_by_id, find=lambda reader, key: reader.read(SERVICE, "get_pipeline", pipeline_id=key),
    where="A pipeline in CI names the branch and commit it built and the commit author's email.",
    alloc=lambda ctx: next_id(ctx.state(SERVICE), "PL"), entry=lambda key: f"CI pipeline {key}")

PROJECT_FAILURE = Relay(
    service=SERVICE, name="failing CI pipeline", key="project_id",
    gives=(Give("pipeline_id", "id", "the project's failing CI pipeline"), _AUTHOR),
    plant=_plant_of_project, find=_of_project,
    where="CI files pipelines under the project's repository (named like the deploy project); each names its "
          "branch and commit author.",
    alloc=_alloc_project, entry=lambda key: f"the failing CI pipeline of {key}",
    truth="A pipeline whose rerun passed is fixed; only the pipeline still failing counts.")


def _rerun(reader: Reader, args: dict[str, Found]) -> Write:
    pid = args["pipeline"].value
    flows = reader.read(SERVICE, "list_pipeline_workflows", pipeline_id=pid)
    if not flows or flows[-1]["status"] != "failed":
        raise SolveError(f"pipeline {pid} has no failed workflow to rerun")
    wid = flows[-1]["id"]
    return Write(
        calls=[call("rerun_workflow", workflow_id=wid, from_failed=True)],
        checks=[RecordExists(id="_", service=SERVICE, collection="workflows",
                             where={"rerun_of": wid, "pipeline_id": pid},
                             description="The pipeline's failed workflow is rerun from failed.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="workflows", allow_new={"rerun_of": wid}, max_new=1,
                           description="No other workflow was rerun, canceled or approved."),
               OnlyChanged(id="_", service=SERVICE, collection="pipelines", allow_ids=[pid], allow_paths={pid: []},
                           max_added={"workflow_ids": 1}, description="No other pipeline was triggered or changed.")],
        tool="rerun_workflow", where={"workflow_id": wid}, label="the rerun of the failed CI workflow")


LINKS = ServiceLinks(
    service=SERVICE, label="CI",
    relays=(PIPELINE, PROJECT_FAILURE),
    actions=(Action(service=SERVICE, name="rerun", needs=(Need("pipeline", "pipeline_id"),), build=_rerun,
                    goal="rerun the failed jobs of the CI pipeline"),),
)

__all__ = ["LINKS", "ensure_project", "new_branch", "plant_pipeline"]
