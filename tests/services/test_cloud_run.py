"""Tests of the cloud_run service (@GoogleCloudPlatform_cloud-run-mcp plus Cloud Run Admin API v2)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.cloud_run import CloudRun
from compoworld_gym.envs.services.deployments import Deployments

P = {"project": "acme-prod"}
CHECKOUT = {**P, "service": "checkout-api"}


@pytest.fixture
def svc(make_service):
    return make_service(CloudRun)


def test_seed_lines_up_with_the_deployment_pipeline(svc, make_service):
    dep = make_service(Deployments)
    live = dep.state.deployments[dep.state.projects["checkout-api"].live["production"]]
    s = ok(svc, "get_service", CHECKOUT)
    rev = ok(svc, "get_revision", {**CHECKOUT, "revision": s["latest_ready_revision"]})
    assert rev["annotations"]["deployment-id"] == live.id == "DPL-0019"
    assert (rev["annotations"]["version"], s["last_modifier"]) == (live.version, live.created_by)
    assert rev["traffic_percent"] == 100 and rev["env"]["VAULT_SECRET_PATH"] == "secret/apps/checkout-api/database"


def test_projects(svc):
    rows = ok(svc, "list_projects")
    assert [(p["project_id"], p["labels"]["environment"], p["billing_enabled"]) for p in rows] == [
        ("acme-prod", "production", True), ("acme-staging", "staging", True), ("acme-ml-sandbox", "sandbox", False)]
    p = ok(svc, "create_project", {"projectId": "acme-pricing-dev"})
    assert (p["project_id"], p["billing_enabled"], len(p["project_number"])) == ("acme-pricing-dev", True, 12)
    assert ok(svc, "create_project")["project_id"] == "mcp-0001-run"
    assert code(svc, "create_project", {"projectId": "acme-prod"}) == 409
    assert code(svc, "create_project", {"projectId": "Bad_ID"}) == 400
    assert code(svc, "create_project", {"projectId": "short"}) == 400


def test_services_and_revisions(svc):
    rows = ok(svc, "list_services", P)
    assert [s["service"] for s in rows] == ["checkout-api", "payments-service", "web-frontend", "search-api",
                                            "auth-service", "notifications-worker"]
    assert [s["service"] for s in ok(svc, "list_services", {**P, "region": "us-central1"})] == ["reporting-etl"]
    web = ok(svc, "get_service", {**P, "service": "web-frontend"})
    assert web["serving_revisions"] == {"web-frontend-00002-flx": 90, "web-frontend-00003-pyj": 10}
    assert web["traffic_statuses"][1]["uri"] == "https://canary---web-frontend-418220519133.europe-west1.run.app"
    search = ok(svc, "get_service", {**P, "service": "search-api"})
    assert (search["latest_created_revision"], search["latest_ready_revision"]) == ("search-api-00003-ysz",
                                                                                    "search-api-00002-ikv")
    revs = ok(svc, "list_revisions", {**P, "service": "search-api"})
    assert [(r["revision"], r["ready"], r["traffic_percent"]) for r in revs] == [
        ("search-api-00003-ysz", False, 0), ("search-api-00002-ikv", True, 100), ("search-api-00001-swo", True, 0)]
    assert revs[0]["condition_reason"] == "HealthCheckContainerError"
    assert code(svc, "get_service", {**P, "service": "nope"}) == 404
    assert code(svc, "get_service", {"project": "ghost-project", "service": "checkout-api"}) == 404
    assert code(svc, "list_services", {**P, "region": "asia-east1"}) == 400
    assert code(svc, "get_revision", {**CHECKOUT, "revision": "checkout-api-00009-zzz"}) == 404


def test_deploy_local_folder_creates_a_service(svc):
    out = ok(svc, "deploy_local_folder", {**P, "service": "pricing-api", "folderPath": "/home/dev/src/pricing-api/"})
    assert (out["runtime"], out["revision"], out["files_uploaded"]) == ("python", "pricing-api-00001-mlv", 3)
    s = out["service"]
    assert (s["creator"], s["uri"], s["serving_revisions"]) == (
        "ops@company.example", "https://pricing-api-418220519133.europe-west1.run.app", {"pricing-api-00001-mlv": 100})
    assert code(svc, "deploy_local_folder", {**P, "folderPath": "/home/dev/src/nothing"}) == 404
    assert code(svc, "deploy_local_folder", {**P, "folderPath": "src/pricing-api"}) == 400
    msg = error(svc, "deploy_local_folder", {**P, "folderPath": "/home/dev/notes"})
    assert msg["code"] == 422 and "no buildpack" in msg["message"]


def test_deploy_local_files_keeps_a_pinned_split(svc):
    files = ["/home/dev/src/notifications-worker/package.json", "/home/dev/src/notifications-worker/index.js"]
    out = ok(svc, "deploy_local_files", {**P, "service": "web-frontend", "files": files})
    assert (out["runtime"], out["revision"]) == ("nodejs", "web-frontend-00004-vqd")
    assert out["service"]["serving_revisions"] == {"web-frontend-00002-flx": 90, "web-frontend-00004-vqd": 10}
    assert code(svc, "deploy_local_files", {**P, "files": ["/home/dev/missing.js"]}) == 404
    assert code(svc, "deploy_local_files", {**P, "files": ["index.js"]}) == 400
    msg = error(svc, "deploy_local_files", {"project": "acme-ml-sandbox", "files": files})
    assert msg["code"] == 422 and "billing" in msg["message"]
    assert code(svc, "deploy_local_files", {**P, "service": "Bad_Name", "files": files}) == 400


def test_deploy_file_contents(svc):
    files = [{"filename": "Dockerfile", "content": "FROM nginx"}, {"filename": "site/index.html", "content": "hi"}]
    out = ok(svc, "deploy_file_contents", {"project": "acme-staging", "files": files})
    assert (out["runtime"], out["revision"], out["service"]["service"]) == ("dockerfile", "app-00001-uvm", "app")
    again = ok(svc, "deploy_file_contents", {"project": "acme-staging", "files": files})
    assert again["revision"].startswith("app-00002-") and again["service"]["generation"] == 2
    assert code(svc, "deploy_file_contents", {**P, "files": [{"filename": "/etc/passwd"}]}) == 400
    assert code(svc, "deploy_file_contents", {**P, "files": [{"filename": "a.txt"}, {"filename": "a.txt"}]}) == 400
    assert code(svc, "deploy_file_contents", {**P, "files": [{"filename": "a.txt", "content": "x"}]}) == 422


def test_update_traffic_rolls_back(svc):
    out = ok(svc, "update_traffic", {**CHECKOUT, "traffic": [{"revision": "checkout-api-00001-juh", "percent": 100}]})
    assert out["serving_revisions"] == {"checkout-api-00001-juh": 100} and out["generation"] == 3
    split = [{"latest": True, "percent": 80}, {"revision": "checkout-api-00001-juh", "percent": 20, "tag": "old"}]
    assert ok(svc, "update_traffic", {**CHECKOUT, "traffic": split})["serving_revisions"] == {
        "checkout-api-00002-sqo": 80, "checkout-api-00001-juh": 20}
    assert code(svc, "update_traffic", {**CHECKOUT, "traffic": split}) == 409
    assert code(svc, "update_traffic", {**CHECKOUT, "traffic": [{"latest": True, "percent": 90}]}) == 400
    assert code(svc, "update_traffic", {**CHECKOUT, "traffic": [{"revision": "search-api-00002-ikv",
                                                                  "percent": 100}]}) == 404
    assert code(svc, "update_traffic", {**P, "service": "search-api",
                                        "traffic": [{"revision": "search-api-00003-ysz", "percent": 100}]}) == 422
    assert code(svc, "update_traffic", {**CHECKOUT, "traffic": [{"latest": True, "revision": "checkout-api-00001-juh",
                                                                  "percent": 100}]}) == 400


def test_environment_variables_and_scaling_make_revisions(svc):
    rev = ok(svc, "update_environment_variables", {**CHECKOUT, "set_env": {"LOG_LEVEL": "debug"},
                                                    "remove_env": ["OTEL_SERVICE_NAME"]})
    assert (rev["revision"], rev["ready"], rev["traffic_percent"]) == ("checkout-api-00003-oaw", True, 100)
    assert rev["env"] == {"APP_ENV": "production", "LOG_LEVEL": "debug",
                          "VAULT_SECRET_PATH": "secret/apps/checkout-api/database"}
    assert code(svc, "update_environment_variables", {**CHECKOUT, "set_env": {"LOG_LEVEL": "debug"}}) == 409
    assert code(svc, "update_environment_variables", {**CHECKOUT, "set_env": {"PORT": "9000"}}) == 400
    assert code(svc, "update_environment_variables", {**CHECKOUT, "remove_env": ["NOPE"]}) == 404
    assert code(svc, "update_environment_variables", CHECKOUT) == 400
    sc = ok(svc, "update_scaling", {**CHECKOUT, "min_instance_count": 3, "max_instance_count": 60})
    assert (sc["min_instance_count"], sc["max_instance_count"], sc["generation"]) == (3, 60, 4)
    assert code(svc, "update_scaling", {**CHECKOUT, "min_instance_count": 3, "max_instance_count": 60}) == 409
    assert code(svc, "update_scaling", {**CHECKOUT, "min_instance_count": 9, "max_instance_count": 2}) == 400
    # the search-api template still holds the image that failed its probe: the new revision fails too
    bad = ok(svc, "update_environment_variables", {**P, "service": "search-api", "set_env": {"LOG_LEVEL": "debug"}})
    assert (bad["ready"], bad["traffic_percent"]) == (False, 0)


def test_delete_revision_and_service(svc):
    assert code(svc, "delete_revision", {**P, "service": "web-frontend", "revision": "web-frontend-00002-flx"}) == 409
    assert code(svc, "delete_revision", {**CHECKOUT, "revision": "checkout-api-00002-sqo"}) == 409
    gone = ok(svc, "delete_revision", {**CHECKOUT, "revision": "checkout-api-00001-juh"})
    assert gone["revision"] == "checkout-api-00001-juh"
    assert [r["revision"] for r in ok(svc, "list_revisions", CHECKOUT)] == ["checkout-api-00002-sqo"]
    assert code(svc, "delete_revision", {**CHECKOUT, "revision": "checkout-api-00001-juh"}) == 404
    out = ok(svc, "delete_service", {**P, "service": "search-api"})
    assert out["revisions_deleted"] == ["search-api-00003-ysz", "search-api-00002-ikv", "search-api-00001-swo"]
    assert code(svc, "get_service", {**P, "service": "search-api"}) == 404
    assert code(svc, "delete_service", {**P, "service": "search-api"}) == 404


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("update_traffic", {**CHECKOUT, "traffic": [{"latest": True, "percent": 50}]})["success"] is False
    assert svc.state_dict() == before
    assert make_service(CloudRun, seed=3).state_dict() == make_service(CloudRun, seed=3).state_dict()
