"""Tests of the deployments service."""

from __future__ import annotations

import pytest
from _svc_asserts import data, failed

from compoworld_gym.envs.services._engineering import APPS
from compoworld_gym.envs.services.deployments import Deployments

WHO = "kenji.watanabe@company.example"


@pytest.fixture
def svc(make_service):
    s = make_service(Deployments, seed=0)
    assert not data(s.call("list_freeze_windows", {"active_on": "2026-01-15"}))  # seed 0 starts unfrozen
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
    projects = data(svc.call("list_projects", {"team": "payments"}))
    assert [p["id"] for p in projects] == ["checkout-api", "payments-service"]
    proj = data(svc.call("get_project", {"project_id": "checkout-api"}))
    live = svc.state.deployments[proj["live"]["production"]]
    assert proj["live_versions"]["production"] == live.version and proj["repo"] == "acme/checkout-api"
    failed(svc.call("get_project", {"project_id": "nope"}), 404)
    deps = data(svc.call("list_deployments", {"project_id": "checkout-api"}))
    assert len(deps) == sum(d.project_id == "checkout-api" for d in svc.state.deployments.values())
    assert [d["created_at"] for d in deps] == sorted((d["created_at"] for d in deps), reverse=True)
    failures = data(svc.call("list_deployments", {"status": "failed"}))
    assert failures and all(d["status"] == "failed" for d in failures)
    assert data(svc.call("get_deployment", {"deployment_id": live.id}))["is_live"] is True
    failed(svc.call("get_deployment", {"deployment_id": "DPL-9999"}), 404)
    assert data(svc.call("list_deployments", {"since": "2026-01-15"})) == data(
        svc.call("list_deployments", {"since": "2026-01-15", "limit": 200}))


def test_deploy_staging_then_production(svc):
    failed(svc.call("create_deployment", {"project_id": "search-api", "version": "v9.0.0",
                                       "environment": "production", "created_by": WHO}), 409)
    dep = data(svc.call("create_deployment", {"project_id": "search-api", "version": "v9.0.0",
                                            "environment": "staging", "created_by": WHO}))
    assert dep["status"] == "ready" and dep["created_at"] == "2026-01-15T09:00:00"
    assert dep["id"] == "DPL-0030" and dep["url"] == "https://search-api-dpl-0030.deploy.company.example"
    assert svc.state.projects["search-api"].live["staging"] == "DPL-0030"
    failed(svc.call("create_deployment", {"project_id": "search-api", "version": "v9.0.0",
                                       "environment": "staging", "created_by": WHO}), 409)
    prod = data(svc.call("create_deployment", {"project_id": "search-api", "version": "v9.0.0",
                                             "environment": "production", "created_by": WHO}))
    assert data(svc.call("get_project", {"project_id": "search-api"}))["live_versions"]["production"] == "v9.0.0"
    assert prod["environment"] == "production"
    failed(svc.call("create_deployment", {"project_id": "search-api", "version": "9.0", "created_by": WHO}), 400)


def test_promote(svc):
    proj = svc.state.projects["payments-service"]  # its newest version is only in staging
    staging = svc.state.deployments[proj.live["staging"]]
    assert svc.state.deployments[proj.live["production"]].version != staging.version
    prod = data(svc.call("promote_deployment", {"deployment_id": staging.id, "created_by": WHO}))
    assert (prod["version"], prod["environment"], prod["note"]) == (staging.version, "production",
                                                                    f"promoted from {staging.id}")
    failed(svc.call("promote_deployment", {"deployment_id": prod["id"], "created_by": WHO}), 409)


def test_rollback(svc):
    proj = svc.state.projects["checkout-api"]
    live_id = proj.live["production"]
    prods = sorted((d for d in svc.state.deployments.values()
                    if d.project_id == "checkout-api" and d.environment == "production"), key=lambda d: d.created_at)
    back = data(svc.call("rollback_deployment", {"project_id": "checkout-api", "environment": "production",
                                               "actor_email": WHO, "reason": "5xx spike"}))
    assert back["id"] == prods[-2].id and back["rolled_back_deployment_id"] == live_id
    assert svc.state.deployments[live_id].status == "rolled_back"
    assert svc.state.deployments[live_id].note == f"rolled back by {WHO}: 5xx spike"
    failed(svc.call("rollback_deployment", {"project_id": "checkout-api", "environment": "production",
                                         "actor_email": WHO, "reason": "again"}), 409)
    failed(svc.call("rollback_deployment", {"project_id": "checkout-api", "environment": "development",
                                         "actor_email": WHO, "reason": "x"}), 409)


def test_cancel(svc):
    building = next(d for d in svc.state.deployments.values() if d.status == "building")
    assert data(svc.call("cancel_deployment", {"deployment_id": building.id, "actor_email": WHO}))["status"] == "canceled"
    failed(svc.call("cancel_deployment", {"deployment_id": building.id, "actor_email": WHO}), 409)


def test_freeze_blocks_deploys_but_not_rollbacks(svc):
    fz = data(svc.call("create_freeze_window", {"environment": "production", "starts_on": "2026-01-15",
                                              "ends_on": "2026-01-16", "reason": "Board demo", "created_by": WHO}))
    assert fz["id"] == "FRZ-0002"
    assert [f["id"] for f in data(svc.call("list_freeze_windows", {"active_on": "2026-01-16"}))] == ["FRZ-0002"]
    staging = svc.state.deployments[svc.state.projects["payments-service"].live["staging"]]
    before = svc.state_dict()
    msg = failed(svc.call("promote_deployment", {"deployment_id": staging.id, "created_by": WHO}), 409)
    assert "FRZ-0002" in msg and "Board demo" in msg
    assert svc.state_dict() == before  # the failed write changed nothing, not even the id counter
    data(svc.call("create_deployment", {"project_id": "search-api", "version": "v9.1.0", "created_by": WHO}))
    data(svc.call("rollback_deployment", {"project_id": "web-frontend", "environment": "production",
                                        "actor_email": WHO, "reason": "bad css"}))
    assert data(svc.call("delete_freeze_window", {"freeze_id": "FRZ-0002"}))["reason"] == "Board demo"
    data(svc.call("promote_deployment", {"deployment_id": staging.id, "created_by": WHO}))
    failed(svc.call("delete_freeze_window", {"freeze_id": "FRZ-0002"}), 404)


def test_freeze_window_validation(svc):
    failed(svc.call("create_freeze_window", {"environment": "all", "starts_on": "2026-02-10", "ends_on": "2026-02-01",
                                          "reason": "x", "created_by": WHO}), 422)
    failed(svc.call("create_freeze_window", {"environment": "all", "starts_on": "2026-01-01", "ends_on": "2026-02-01",
                                          "reason": "x", "created_by": WHO}), 422)
    failed(svc.call("create_freeze_window", {"environment": "qa", "starts_on": "2026-02-01", "ends_on": "2026-02-01",
                                          "reason": "x", "created_by": WHO}), 400)
    assert [f["environment"] for f in data(svc.call("list_freeze_windows", {"environment": "staging"}))] == ["all"]
