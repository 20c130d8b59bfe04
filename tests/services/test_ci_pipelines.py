"""Tests of the ci_pipelines service (CircleCI API v2 style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.ci_pipelines import CiPipelines

WEB, STORE, ETL, NOTIF = ("gh/acme/web-frontend", "gh/company-example/storefront", "gh/acme/reporting-etl",
                          "gh/acme/notifications-worker")
OSCAR, NADIA, BEN = "oscar.lindgren@company.example", "nadia.haddad@company.example", "ben.foster@company.example"


@pytest.fixture
def svc(make_service):
    return make_service(CiPipelines)


def test_projects_match_github_and_deploy_repos(svc):
    slugs = [p["slug"] for p in ok(svc, "list_projects")]
    assert {"gh/company-example/storefront", "gh/company-example/billing-service",
            "gh/company-example/ops-runbooks", "gh/acme/checkout-api"} <= set(slugs) and len(slugs) == 10
    p = ok(svc, "get_project", {"project_slug": STORE})
    assert (p["name"], p["repo"], p["branches"]) == ("storefront", "company-example/storefront",
                                                     ["main", "fix/checkout-rounding"])
    assert [p["slug"] for p in ok(svc, "list_projects", {"query": "checkout"})] == ["gh/acme/checkout-api"]
    assert code(svc, "get_project", {"project_slug": "gh/acme/nope"}) == 404


def test_pipelines_workflows_and_jobs(svc):
    rows = ok(svc, "list_pipelines", {"project_slug": WEB})
    assert [(r["id"], r["number"], r["branch"], r["workflow_status"]) for r in rows] == [
        ("PL-0020", 2, "main", "failed"), ("PL-0002", 1, "fix/web-frontend-timeouts", "failed")]
    assert [r["id"] for r in ok(svc, "list_pipelines", {"project_slug": WEB, "branch": "main"})] == ["PL-0020"]
    p = ok(svc, "get_pipeline", {"pipeline_id": "PL-0002"})
    assert (p["commit_author_email"], len(p["revision"]), p["workflow_ids"]) == (OSCAR, 40, ["WF-0002"])
    assert ok(svc, "get_pipeline_by_number", {"project_slug": WEB, "pipeline_number": 1})["id"] == "PL-0002"
    assert code(svc, "get_pipeline_by_number", {"project_slug": WEB, "pipeline_number": 9}) == 404
    assert ok(svc, "list_pipeline_workflows", {"pipeline_id": "PL-0002"})[0]["status"] == "failed"
    assert "jobs" not in ok(svc, "get_workflow", {"workflow_id": "WF-0002"})
    jobs = ok(svc, "list_workflow_jobs", {"workflow_id": "WF-0002"})
    assert [(j["name"], j["status"]) for j in jobs] == [("build", "success"), ("lint", "success"),
                                                        ("test", "failed"), ("hold-deploy", "not_run"),
                                                        ("deploy", "not_run")]
    d = ok(svc, "get_job_details", {"project_slug": WEB, "job_number": 3})
    assert (d["name"], d["workflow_id"], d["failure_message"]) == ("test", "WF-0002",
                                                                  "3 tests failed in tests/test_checkout.py")
    assert code(svc, "get_job_details", {"project_slug": WEB, "job_number": 99}) == 404
    assert code(svc, "get_pipeline", {"pipeline_id": "PL-0999"}) == 404


def test_rerun_from_failed(svc):
    wf = ok(svc, "rerun_workflow", {"workflow_id": "WF-0002"})
    assert (wf["id"], wf["rerun_of"], wf["status"]) == ("WF-0021", "WF-0002", "running")
    assert [(j["name"], j["status"]) for j in wf["jobs"]] == [("build", "success"), ("lint", "success"),
                                                              ("test", "queued"), ("hold-deploy", "blocked"),
                                                              ("deploy", "blocked")]
    assert wf["jobs"][2]["job_number"] == 7  # next build number of the project
    assert ok(svc, "get_pipeline", {"pipeline_id": "PL-0002"})["workflow_ids"] == ["WF-0002", "WF-0021"]
    e = error(svc, "rerun_workflow", {"workflow_id": "WF-0002"})
    assert e["code"] == 409 and "already rerun" in e["message"]
    assert code(svc, "rerun_workflow", {"workflow_id": "WF-0001"}) == 409  # a passed workflow
    full = ok(svc, "rerun_workflow", {"workflow_id": "WF-0001", "from_failed": False})
    assert full["rerun_of"] == "WF-0001" and full["jobs"][0]["status"] == "success"


def test_cancel(svc):
    c = ok(svc, "cancel_workflow", {"workflow_id": "WF-0007"})
    assert c["status"] == "canceled" and c["stopped_at"] == "2026-01-15T09:00:00"
    assert [j["status"] for j in ok(svc, "list_workflow_jobs", {"workflow_id": "WF-0007"})] == [
        "success", "success", "canceled", "canceled", "canceled"]
    assert code(svc, "cancel_workflow", {"workflow_id": "WF-0007"}) == 409
    assert code(svc, "cancel_workflow", {"workflow_id": "WF-0002"}) == 409
    assert code(svc, "cancel_workflow", {"workflow_id": "WF-0999"}) == 404


def test_approve_hold_job(svc):
    # WF-0004: notifications-worker main, committed by Nadia, waiting on hold-deploy JOB-0019
    e = error(svc, "approve_job", {"workflow_id": "WF-0004", "approval_request_id": "JOB-0019",
                                   "approver_email": NADIA})
    assert e["code"] == 422 and "commit author" in e["message"]
    assert code(svc, "approve_job", {"workflow_id": "WF-0004", "approval_request_id": "JOB-0016",
                                     "approver_email": BEN}) == 404  # a build job is no approval
    j = ok(svc, "approve_job", {"workflow_id": "WF-0004", "approval_request_id": "JOB-0019", "approver_email": BEN})
    assert (j["status"], j["approved_by"]) == ("success", BEN)
    wf = ok(svc, "list_workflow_jobs", {"workflow_id": "WF-0004"})
    assert wf[4]["status"] == "queued" and ok(svc, "get_workflow", {"workflow_id": "WF-0004"})["status"] == "running"
    assert code(svc, "approve_job", {"workflow_id": "WF-0004", "approval_request_id": "JOB-0019",
                                     "approver_email": BEN}) == 409


def test_no_deploy_approval_on_a_failed_workflow(svc):
    e = error(svc, "approve_job", {"workflow_id": "WF-0008", "approval_request_id": "JOB-0039",
                                   "approver_email": BEN})
    assert e["code"] == 422 and "failed workflow" in e["message"]


def test_trigger_pipeline(svc):
    p = ok(svc, "trigger_pipeline", {"project_slug": WEB, "branch": "main", "actor_email": BEN})
    head = ok(svc, "get_pipeline", {"pipeline_id": "PL-0020"})
    assert (p["id"], p["number"], p["workflow_status"], p["trigger_actor"]) == ("PL-0021", 3, "running", BEN)
    assert (p["revision"], p["commit_author_email"]) == (head["revision"], head["commit_author_email"])
    jobs = ok(svc, "list_workflow_jobs", {"workflow_id": p["workflow_ids"][0]})
    assert [j["status"] for j in jobs] == ["running", "blocked", "blocked", "blocked", "blocked"]
    assert code(svc, "trigger_pipeline", {"project_slug": WEB, "branch": "nope", "actor_email": BEN}) == 422
    assert code(svc, "trigger_pipeline", {"project_slug": "gh/x/y", "branch": "main", "actor_email": BEN}) == 404
    assert code(svc, "trigger_pipeline", {"project_slug": WEB, "branch": "main", "actor_email": "bad"}) == 400


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("rerun_workflow", {"workflow_id": "WF-0001"})["error"]["code"] == 409
    assert svc.call("approve_job", {"workflow_id": "WF-0008", "approval_request_id": "JOB-0039",
                                    "approver_email": BEN})["error"]["code"] == 422
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    a, b = make_service(CiPipelines, seed=5), make_service(CiPipelines, seed=5)
    assert a.state_dict() == b.state_dict()
    assert a.state_dict() != make_service(CiPipelines, seed=6).state_dict()
