"""Tests of the workflow_automation service (n8n public REST API v1 style)."""

from __future__ import annotations

import datetime as dt

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._commerce import order_book
from compoworld_gym.envs.services.workflow_automation import WorkflowAutomation

TODAY = dt.date(2026, 1, 15)  # conftest's task date
SLACK = {"slackApi": {"name": "Slack ops bot"}}


@pytest.fixture
def svc(make_service):
    return make_service(WorkflowAutomation)


def test_reads_and_filters(svc):
    assert len(ok(svc, "list_workflows")) == 11
    assert [w["id"] for w in ok(svc, "list_workflows", {"tags": "alerting,checkout-api"})] == ["WF-0004", "WF-0005"]
    assert [w["id"] for w in ok(svc, "list_workflows", {"tags": "checkout-api", "active": True})] == ["WF-0004"]
    assert [w["id"] for w in ok(svc, "list_workflows", {"name": "xero"})] == ["WF-0002"]
    assert [w["id"] for w in ok(svc, "list_workflows", {"project_id": "PRJ-0011"})] == ["WF-0004", "WF-0005"]
    wf = ok(svc, "get_workflow", {"workflow_id": "WF-0002"})
    assert (wf["owner_email"], wf["project_name"], [t["name"] for t in wf["tags"]]) == (
        "elena.petrova@company.example", "Elena Petrova <elena.petrova@company.example>", ["finance", "sync"])
    assert wf["nodes"][2]["credentials"] == {"xeroOAuth2Api": {"id": "CRD-0004", "name": "Xero finance"}}
    assert code(svc, "get_workflow", {"workflow_id": "WF-0099"}) == 404
    assert [u["email"] for u in ok(svc, "list_users")][:2] == ["ben.foster@company.example",
                                                               "sofia.marin@company.example"]
    assert ok(svc, "get_user", {"id_or_email": "PRIYA.RAMAN@company.example"})["id"] == "USR-0003"
    assert code(svc, "get_user", {"id_or_email": "nobody@company.example"}) == 404
    assert ok(svc, "list_projects")[-1] == {"id": "PRJ-0011", "name": "Platform Alerts", "type": "team",
                                            "owner_email": "ben.foster@company.example"}
    assert [t["name"] for t in ok(svc, "list_tags", {"limit": 3})] == ["billing", "finance", "sync"]


def test_credentials_never_show_data(svc):
    rows = ok(svc, "list_credentials", {"name": "slack OPS bot"})
    assert rows == [{"id": "CRD-0002", "name": "Slack ops bot", "type": "slackApi", "project_id": "PRJ-0011",
                     "created_at": rows[0]["created_at"], "updated_at": rows[0]["updated_at"]}]
    assert [c["id"] for c in ok(svc, "list_credentials", {"type": "googleSheetsOAuth2Api"})] == ["CRD-0011"]
    c = ok(svc, "create_credential", {"name": "HubSpot CRM", "type": "hubspotApi", "data": {"apiKey": "pat-1"}})
    assert (c["id"], c["project_id"], "data" in c) == ("CRD-0012", "PRJ-0001", False)
    assert code(svc, "create_credential", {"name": "X", "type": "madeUpApi", "data": {"k": "v"}}) == 400
    assert ok(svc, "delete_credential", {"credential_id": "CRD-0012"})["name"] == "HubSpot CRM"
    assert code(svc, "delete_credential", {"credential_id": "CRD-0012"}) == 404


def test_executions(svc):
    rows = ok(svc, "list_executions", {"status": "error", "workflow_id": "WF-0002"})
    assert [(e["id"], e["started_at"]) for e in rows] == [("1013", "2026-01-15T07:46:00"),
                                                          ("1008", "2026-01-14T07:31:00")]
    assert "data" not in rows[0]
    full = ok(svc, "get_execution", {"execution_id": "1013", "include_data": True})
    o = order_book(TODAY)[6]
    assert full["data"]["input"] == {"order_id": "ORD-0007", "customer_email": o.customer.email,
                                     "total": f"{o.total:.2f}"}
    assert full["data"]["error"]["node"] == "Xero"
    assert [e["id"] for e in ok(svc, "list_executions", {"status": "waiting"})] == ["1012", "1011"]
    assert [e["id"] for e in ok(svc, "list_executions", {"project_id": "PRJ-0011"})] == ["1005"]
    assert code(svc, "get_execution", {"execution_id": "999"}) == 404


def test_retry_only_failed_executions(svc):
    new = ok(svc, "retry_execution", {"execution_id": "1013"})
    assert (new["id"], new["status"], new["mode"], new["retry_of"]) == ("1014", "success", "retry", "1013")
    assert new["data"]["input"]["order_id"] == "ORD-0007"
    assert ok(svc, "get_execution", {"execution_id": "1013"})["retry_success_id"] == "1014"
    assert error(svc, "retry_execution", {"execution_id": "1013"})["code"] == 409  # already retried
    msg = error(svc, "retry_execution", {"execution_id": "1012"})
    assert msg["code"] == 409 and "only a failed execution" in msg["message"]
    assert code(svc, "retry_execution", {"execution_id": "1009"}) == 409
    assert code(svc, "retry_execution", {"execution_id": "1006"}) == 409  # retried successfully by 1007


def test_retry_fails_again_until_the_credential_is_fixed(svc):
    again = ok(svc, "retry_execution", {"execution_id": "1010", "load_workflow": True})
    assert (again["status"], again["data"]["error"]["message"]) == ("error", "Credential with ID CRD-0005 does not "
                                                                             "exist.")
    wf = ok(svc, "get_workflow", {"workflow_id": "WF-0003"})
    nodes = [{k: n[k] for k in ("name", "type", "parameters")} for n in wf["nodes"]]
    nodes[2]["credentials"] = {"googleSheetsOAuth2Api": {"name": "Google Sheets reporting 2026"}}
    saved = ok(svc, "update_workflow", {"workflow_id": "WF-0003", "nodes": nodes})
    assert saved["version_id"] == "wf-0003-v2" and saved["nodes"][2]["credentials"]["googleSheetsOAuth2Api"]["id"] \
        == "CRD-0011"
    assert ok(svc, "retry_execution", {"execution_id": "1010"})["status"] == "error"  # the old version
    assert ok(svc, "retry_execution", {"execution_id": "1010", "load_workflow": True})["status"] == "success"


def test_activation_needs_a_trigger_and_credentials(svc):
    msg = error(svc, "activate_workflow", {"workflow_id": "WF-0009"})
    assert msg["code"] == 422 and "Manual Trigger does not count" in msg["message"]
    assert ok(svc, "activate_workflow", {"workflow_id": "WF-0008"})["active"] is True
    assert code(svc, "activate_workflow", {"workflow_id": "WF-0008"}) == 409
    assert ok(svc, "deactivate_workflow", {"workflow_id": "WF-0004"})["active"] is False
    assert code(svc, "deactivate_workflow", {"workflow_id": "WF-0004"}) == 409
    assert ok(svc, "deactivate_workflow", {"workflow_id": "WF-0003"})["active"] is False
    msg = error(svc, "activate_workflow", {"workflow_id": "WF-0003"})  # its Google Sheets credential is gone
    assert msg["code"] == 422 and "CRD-0005 does not exist" in msg["message"]


def test_create_update_and_delete_workflows(svc):
    nodes = [{"name": "Webhook", "type": "n8n-nodes-base.webhook", "parameters": {"path": "alerts/pricing-api"}},
             {"name": "Slack", "type": "n8n-nodes-base.slack", "credentials": SLACK}]
    conn = {"Webhook": {"main": [[{"node": "Slack", "type": "main", "index": 0}]]}}
    wf = ok(svc, "create_workflow", {"name": "pricing-api alerts", "nodes": nodes, "connections": conn})
    assert (wf["id"], wf["active"], wf["project_id"], wf["nodes"][1]["credentials"]["slackApi"]["id"]) == (
        "WF-0012", False, "PRJ-0001", "CRD-0002")
    assert code(svc, "create_workflow", {"name": "x", "nodes": nodes, "connections": {"Nope": {}}}) == 400
    assert code(svc, "create_workflow", {"name": "x", "nodes": [nodes[0], nodes[0]]}) == 400
    assert code(svc, "create_workflow", {"name": "x", "nodes": [
        {"name": "S", "type": "n8n-nodes-base.slack", "credentials": {"slackApi": {"name": "Nope"}}}]}) == 404
    assert code(svc, "create_workflow", {"name": "x", "nodes": [
        {"name": "S", "type": "n8n-nodes-base.slack", "credentials": {"slackApi": {"id": "CRD-0001"}}}]}) == 400
    assert ok(svc, "activate_workflow", {"workflow_id": "WF-0012"})["active"] is True
    manual = [{"name": "Start", "type": "n8n-nodes-base.manualTrigger"}]
    msg = error(svc, "update_workflow", {"workflow_id": "WF-0012", "nodes": manual, "connections": {}})
    assert msg["code"] == 422  # an active workflow must stay activatable
    assert ok(svc, "update_workflow", {"workflow_id": "WF-0012", "name": "pricing-api alerts v2"})["name"] == \
        "pricing-api alerts v2"
    assert code(svc, "update_workflow", {"workflow_id": "WF-0012"}) == 400
    assert ok(svc, "delete_workflow", {"workflow_id": "WF-0002"})["id"] == "WF-0002"
    assert ok(svc, "list_executions", {"workflow_id": "WF-0002"}) == []
    assert code(svc, "delete_workflow", {"workflow_id": "WF-0002"}) == 404


def test_tags_and_transfer(svc):
    tags = ok(svc, "update_workflow_tags", {"workflow_id": "WF-0001", "tag_ids": ["TAG-0001", "TAG-0003"]})
    assert [t["name"] for t in tags] == ["billing", "sync"]
    assert code(svc, "update_workflow_tags", {"workflow_id": "WF-0001", "tag_ids": ["TAG-0099"]}) == 404
    moved = ok(svc, "transfer_workflow", {"workflow_id": "WF-0001", "destination_project_id": "PRJ-0004"})
    assert (moved["project_id"], moved["owner_email"]) == ("PRJ-0004", "marcus.bell@company.example")
    assert code(svc, "transfer_workflow", {"workflow_id": "WF-0001", "destination_project_id": "PRJ-0004"}) == 409
    assert code(svc, "transfer_workflow", {"workflow_id": "WF-0001", "destination_project_id": "PRJ-0999"}) == 404


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("activate_workflow", {"workflow_id": "WF-0009"})["success"] is False
    assert svc.state_dict() == before
    assert make_service(WorkflowAutomation, seed=4).state_dict() == make_service(WorkflowAutomation, seed=4).state_dict()
