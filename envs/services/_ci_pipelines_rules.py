"""Pure CI rules: the jobs of a workflow for an outcome, a workflow's status
from its jobs, and the jobs of a rerun from failed (CircleCI semantics: a
failed job's dependents do not run; a rerun from failed keeps the jobs that
passed and runs the rest again)."""

from __future__ import annotations

import hashlib
from typing import Callable, Literal

from compoworld_gym.envs.services._ci_pipelines_models import Job, WorkflowStatus

Outcome = Literal["success", "failed", "on_hold", "running", "failing"]
#: The workflow every project runs: (name, type, dependencies).
STEPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("build", "build", ()), ("lint", "build", ("build",)), ("test", "build", ("build",)),
    ("hold-deploy", "approval", ("lint", "test")), ("deploy", "build", ("hold-deploy",)))
WORKFLOW_NAME = "build-test-deploy"
FAILURES = {"test": "3 tests failed in tests/test_checkout.py", "lint": "flake8: 2 errors (E501 line too long)"}
_STATUS: dict[Outcome, dict[str, str]] = {
    "success": {"build": "success", "lint": "success", "test": "success", "hold-deploy": "success", "deploy": "success"},
    "failed": {"build": "success", "lint": "success", "test": "failed", "hold-deploy": "not_run", "deploy": "not_run"},
    "on_hold": {"build": "success", "lint": "success", "test": "success", "hold-deploy": "on_hold", "deploy": "blocked"},
    "running": {"build": "success", "lint": "success", "test": "running", "hold-deploy": "blocked", "deploy": "blocked"},
    "failing": {"build": "success", "lint": "failed", "test": "success", "hold-deploy": "on_hold", "deploy": "blocked"},
}


def make_jobs(outcome: Outcome, new_id: Callable[[], str], build_number: Callable[[], int]) -> list[Job]:
    """The five jobs of a workflow with ``outcome``; ``new_id()`` gives job ids, ``build_number()`` numbers."""
    jobs = []
    for name, kind, deps in STEPS:
        status = _STATUS[outcome][name]
        number = build_number() if kind == "build" and status not in ("blocked", "not_run") else None
        jobs.append(Job(id=new_id(), name=name, type=kind, status=status, job_number=number,
                        dependencies=list(deps), failure_message=FAILURES.get(name, "") if status == "failed" else ""))
    return jobs


def workflow_status(jobs: list[Job]) -> WorkflowStatus:
    """The workflow status its jobs imply (failed beats on_hold beats running)."""
    states = {j.status for j in jobs}
    if states <= {"success"}:
        return "success"
    if "canceled" in states:
        return "canceled"
    if "failed" in states:
        return "failing" if states & {"running", "queued", "on_hold"} else "failed"
    if "on_hold" in states:
        return "on_hold"
    return "running"


def rerun_jobs(jobs: list[Job], new_id: Callable[[], str], build_number: Callable[[], int]) -> list[Job]:
    """Jobs of a rerun from failed: passed jobs copied, the first failed job queued again, the rest blocked."""
    out, queued = [], False
    for j in jobs:
        if j.status == "success":
            out.append(j.model_copy(update={"id": new_id()}))
            continue
        first = not queued and j.status == "failed"
        queued = queued or first
        out.append(Job(id=new_id(), name=j.name, type=j.type, status="queued" if first else "blocked",
                       job_number=build_number() if first else None, dependencies=list(j.dependencies)))
    return out


def sha(*parts: object) -> str:
    """A deterministic 40-hex commit SHA from ``parts``."""
    return hashlib.sha1("\n".join(map(str, parts)).encode()).hexdigest()
