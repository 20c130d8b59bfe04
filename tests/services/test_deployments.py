"""Tests of the deployments service."""

from __future__ import annotations

import pytest

from compoworld_gym.envs.services._engineering import APPS
from compoworld_gym.envs.services.deployments import Deployments

WHO = "kenji.watanabe@company.example"


def ok(result):
    assert result["success"], result
    return result["data"]


def err(result, code):
    assert not result["success"] and result["error"]["code"] == code, result
    return result["error"]["message"]


@pytest.fixture
def svc(make_service):
    s = make_service(Deployments, seed=0)
    assert not ok(s.call("list_freeze_windows", {"active_on": "2026-01-15"}))  # seed 0 starts unfrozen
    return s


def test_seed_deterministic_and_consistent(make_service):
    a = make_service(Deployments, seed=1)
    assert a.state_dict() == make_service(Deployments, seed=1).state_dict()
    assert set(a.state.projects) == {app.key for app in APPS}
    for p in a.state.projects.values():
        for env, dep_id in p.live.items():
            if dep_id:
                d = a.state.deployments[dep_id]
                assert (d.project_id, d.environment, d.status) == (p.id, env, "ready")
    assert len(Deployments.tools) == 11


def test_reads(svc):
    projects = ok(svc.call("list_projects", {"team": "payments"}))
    assert [p["id"] for p in projects] == ["checkout-api", "payments-service"]
    proj = ok(svc.call("get_project", {"project_id": "checkout-api"}))
    live = svc.state.deployments[proj["live"]["production"]]
    assert proj["live_versions"]["production"] == live.version and proj["repo"] == "acme/checkout-api"
    err(svc.call("get_project", {"project_id": "nope"}), 404)
    deps = ok(svc.call("list_deployments", {"project_id": "checkout-api"}))
    assert len(deps) == sum(d.project_id == "checkout-api" for d in svc.state.deployments.values())
    assert [d["created_at"] for d in deps] == sorted((d["created_at"] for d in deps), reverse=True)
    failed = ok(svc.call("list_deployments", {"status": "failed"}))
    assert failed and all(d["status"] == "failed" for d in failed)
    assert ok(svc.call("get_deployment", {"deployment_id": live.id}))["is_live"] is True
    err(svc.call("get_deployment", {"deployment_id": "DPL-9999"}), 404)
    assert ok(svc.call("list_deployments", {"since": "2026-01-15"})) == ok(
        svc.call("list_deployments", {"since": "2026-01-15", "limit": 200}))


def test_deploy_staging_then_production(svc):
    err(svc.call("create_deployment", {"project_id": "search-api", "version": "v9.0.0",
                                       "environment": "production", "created_by": WHO}), 409)
    dep = ok(svc.call("create_deployment", {"project_id": "search-api", "version": "v9.0.0",
                                            "environment": "staging", "created_by": WHO}))
    assert dep["status"] == "ready" and dep["created_at"] == "2026-01-15T09:00:00"
    assert dep["id"] == "DPL-0030" and dep["url"] == "https://search-api-dpl-0030.deploy.company.example"
    assert svc.state.projects["search-api"].live["staging"] == "DPL-0030"
    err(svc.call("create_deployment", {"project_id": "search-api", "version": "v9.0.0",
                                       "environment": "staging", "created_by": WHO}), 409)
    prod = ok(svc.call("create_deployment", {"project_id": "search-api", "version": "v9.0.0",
                                             "environment": "production", "created_by": WHO}))
    assert ok(svc.call("get_project", {"project_id": "search-api"}))["live_versions"]["production"] == "v9.0.0"
    assert prod["environment"] == "production"
    err(svc.call("create_deployment", {"project_id": "search-api", "version": "9.0", "created_by": WHO}), 400)


def test_promote(svc):
    proj = svc.state.projects["payments-service"]  # its newest version is only in staging
    staging = svc.state.deployments[proj.live["staging"]]
    assert svc.state.deployments[proj.live["production"]].version != staging.version
    prod = ok(svc.call("promote_deployment", {"deployment_id": staging.id, "created_by": WHO}))
    assert (prod["version"], prod["environment"], prod["note"]) == (staging.version, "production",
                                                                    f"promoted from {staging.id}")
    err(svc.call("promote_deployment", {"deployment_id": prod["id"], "created_by": WHO}), 409)


def test_rollback(svc):
    proj = svc.state.projects["checkout-api"]
    live_id = proj.live["production"]
    prods = sorted((d for d in svc.state.deployments.values()
                    if d.project_id == "checkout-api" and d.environment == "production"), key=lambda d: d.created_at)
    back = ok(svc.call("rollback_deployment", {"project_id": "checkout-api", "environment": "production",
                                               "actor_email": WHO, "reason": "5xx spike"}))
    assert back["id"] == prods[-2].id and back["rolled_back_deployment_id"] == live_id
    assert svc.state.deployments[live_id].status == "rolled_back"
    assert svc.state.deployments[live_id].note == f"rolled back by {WHO}: 5xx spike"
    err(svc.call("rollback_deployment", {"project_id": "checkout-api", "environment": "production",
                                         "actor_email": WHO, "reason": "again"}), 409)
    err(svc.call("rollback_deployment", {"project_id": "checkout-api", "environment": "development",
                                         "actor_email": WHO, "reason": "x"}), 409)


def test_cancel(svc):
    building = next(d for d in svc.state.deployments.values() if d.status == "building")
    assert ok(svc.call("cancel_deployment", {"deployment_id": building.id, "actor_email": WHO}))["status"] == "canceled"
    err(svc.call("cancel_deployment", {"deployment_id": building.id, "actor_email": WHO}), 409)


def test_freeze_blocks_deploys_but_not_rollbacks(svc):
    fz = ok(svc.call("create_freeze_window", {"environment": "production", "starts_on": "2026-01-15",
                                              "ends_on": "2026-01-16", "reason": "Board demo", "created_by": WHO}))
    assert fz["id"] == "FRZ-0002"
    assert [f["id"] for f in ok(svc.call("list_freeze_windows", {"active_on": "2026-01-16"}))] == ["FRZ-0002"]
    staging = svc.state.deployments[svc.state.projects["payments-service"].live["staging"]]
    before = svc.state_dict()
    msg = err(svc.call("promote_deployment", {"deployment_id": staging.id, "created_by": WHO}), 409)
    assert "FRZ-0002" in msg and "Board demo" in msg
    assert svc.state_dict() == before  # the failed write changed nothing, not even the id counter
    ok(svc.call("create_deployment", {"project_id": "search-api", "version": "v9.1.0", "created_by": WHO}))
    ok(svc.call("rollback_deployment", {"project_id": "web-frontend", "environment": "production",
                                        "actor_email": WHO, "reason": "bad css"}))
    assert ok(svc.call("delete_freeze_window", {"freeze_id": "FRZ-0002"}))["reason"] == "Board demo"
    ok(svc.call("promote_deployment", {"deployment_id": staging.id, "created_by": WHO}))
    err(svc.call("delete_freeze_window", {"freeze_id": "FRZ-0002"}), 404)


def test_freeze_window_validation(svc):
    err(svc.call("create_freeze_window", {"environment": "all", "starts_on": "2026-02-10", "ends_on": "2026-02-01",
                                          "reason": "x", "created_by": WHO}), 422)
    err(svc.call("create_freeze_window", {"environment": "all", "starts_on": "2026-01-01", "ends_on": "2026-02-01",
                                          "reason": "x", "created_by": WHO}), 422)
    err(svc.call("create_freeze_window", {"environment": "qa", "starts_on": "2026-02-01", "ends_on": "2026-02-01",
                                          "reason": "x", "created_by": WHO}), 400)
    assert [f["environment"] for f in ok(svc.call("list_freeze_windows", {"environment": "staging"}))] == ["all"]
