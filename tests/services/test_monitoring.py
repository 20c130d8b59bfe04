"""Tests of the monitoring service."""

from __future__ import annotations

import pytest
from _svc_asserts import data, failed

from compoworld_gym.envs.services.monitoring import Monitoring

KENJI = "kenji.watanabe@company.example"  # payments level 1
RACHEL = "rachel.adeyemi@company.example"  # payments level 2
CARLA = "carla.jensen@company.example"  # engineering manager, level 3 everywhere


@pytest.fixture
def svc(make_service):
    return make_service(Monitoring, seed=0)


def test_seed(make_service):
    a = make_service(Monitoring, seed=2)
    assert a.state_dict() == make_service(Monitoring, seed=2).state_dict()
    assert len(a.state.alerts) == 12 and len(a.state.incidents) >= 2
    for inc in a.state.incidents.values():
        assert all(a.state.alerts[x].incident_id == inc.id for x in inc.alert_ids)
    assert len(Monitoring.tools) == 14


def test_oncall_and_policies(svc):
    rows = data(svc.call("list_oncalls", {"service": "checkout-api"}))
    assert rows == [{"service": "checkout-api", "team": "payments", "escalation_policy_id": "EP-PAYMENTS",
                     "oncalls": [{"level": 1, "email": KENJI}, {"level": 2, "email": RACHEL},
                                 {"level": 3, "email": CARLA}]}]
    assert len(data(svc.call("list_oncalls", {}))) == 7
    failed(svc.call("list_oncalls", {"service": "nope"}), 404)
    pols = data(svc.call("list_escalation_policies", {}))
    assert [p["id"] for p in pols] == ["EP-PLATFORM", "EP-PAYMENTS", "EP-STOREFRONT", "EP-DATA"]


def test_alert_lifecycle(svc):
    alerts = data(svc.call("list_alerts", {"status": "triggered"}))
    assert alerts and [a["triggered_at"] for a in alerts] == sorted((a["triggered_at"] for a in alerts), reverse=True)
    target = next(a for a in alerts if a["incident_id"] is None)
    assert data(svc.call("get_alert", {"alert_id": target["id"]}))["monitor"] == target["monitor"]
    acked = data(svc.call("acknowledge_alert", {"alert_id": target["id"], "user_email": KENJI}))
    assert (acked["status"], acked["acknowledged_by"]) == ("acknowledged", KENJI)
    failed(svc.call("acknowledge_alert", {"alert_id": target["id"], "user_email": KENJI}), 409)
    failed(svc.call("acknowledge_alert", {"alert_id": "ALR-0001", "user_email": "stranger@x.io"}), 400)
    done = data(svc.call("resolve_alert", {"alert_id": target["id"], "user_email": RACHEL}))
    assert (done["status"], done["resolved_by"], done["resolved_at"]) == ("resolved", RACHEL, "2026-01-15T09:00:00")
    failed(svc.call("resolve_alert", {"alert_id": target["id"], "user_email": RACHEL}), 409)
    failed(svc.call("get_alert", {"alert_id": "ALR-0999"}), 404)
    assert all(a["severity"] == "warning" for a in data(svc.call("list_alerts", {"severity": "warning"})))


def test_create_and_work_an_incident(svc):
    free = [a for a in svc.state.alerts.values() if a.status == "triggered" and a.incident_id is None]
    alert = free[0]
    inc = data(svc.call("create_incident", {"title": "Checkout errors", "service": alert.service, "priority": "P1",
                                          "alert_ids": [alert.id], "user_email": KENJI}))
    level1 = svc.state.policies[svc.state.services[alert.service].escalation_policy_id].levels[0]
    assert (inc["status"], inc["assignee_email"], inc["escalation_level"]) == ("triggered", level1, 1)
    assert svc.state.alerts[alert.id].incident_id == inc["id"]
    failed(svc.call("create_incident", {"title": "Dup", "service": alert.service, "alert_ids": [alert.id],
                                     "user_email": KENJI}), 409)
    other = next(s for s in svc.state.services if s != alert.service)
    failed(svc.call("create_incident", {"title": "x", "service": other, "alert_ids": [alert.id],
                                     "user_email": KENJI}), 400)
    failed(svc.call("create_incident", {"title": "x", "service": "nope", "user_email": KENJI}), 404)
    iid = inc["id"]
    assert data(svc.call("acknowledge_incident", {"incident_id": iid, "user_email": level1}))["status"] == "acknowledged"
    failed(svc.call("acknowledge_incident", {"incident_id": iid, "user_email": level1}), 409)
    note = data(svc.call("add_note_to_incident", {"incident_id": iid, "user_email": level1,
                                                "content": "Rolling back deploy"}))
    assert note["content"] == "Rolling back deploy" and note["incident_id"] == iid
    res = data(svc.call("resolve_incident", {"incident_id": iid, "user_email": level1, "resolution": "Rolled back"}))
    assert res["status"] == "resolved" and res["resolution"] == "Rolled back"
    assert svc.state.alerts[alert.id].status == "resolved"
    full = data(svc.call("get_incident", {"incident_id": iid}))
    assert [n["content"] for n in full["notes"]] == ["Incident opened: Checkout errors", "Acknowledged.",
                                                     "Rolling back deploy", "Resolved: Rolled back"]
    failed(svc.call("resolve_incident", {"incident_id": iid, "user_email": level1, "resolution": "x"}), 409)
    assert iid in {i["id"] for i in data(svc.call("list_incidents", {"status": "resolved"}))}


def test_escalate_and_reassign(svc):
    inc = data(svc.call("create_incident", {"title": "Payments down", "service": "payments-service",
                                          "user_email": KENJI}))
    iid = inc["id"]
    data(svc.call("acknowledge_incident", {"incident_id": iid, "user_email": KENJI}))
    up = data(svc.call("escalate_incident", {"incident_id": iid, "user_email": KENJI, "reason": "need help"}))
    assert (up["escalation_level"], up["assignee_email"], up["status"]) == (2, RACHEL, "triggered")
    up = data(svc.call("escalate_incident", {"incident_id": iid, "user_email": RACHEL, "reason": "still down"}))
    assert (up["escalation_level"], up["assignee_email"]) == (3, CARLA)
    before = svc.state_dict()
    failed(svc.call("escalate_incident", {"incident_id": iid, "user_email": CARLA, "reason": "x"}), 409)
    assert svc.state_dict() == before  # rolled back: no note, no clock tick
    moved = data(svc.call("reassign_incident", {"incident_id": iid, "assignee_email": KENJI, "user_email": CARLA}))
    assert moved["assignee_email"] == KENJI
    failed(svc.call("reassign_incident", {"incident_id": iid, "assignee_email": KENJI, "user_email": CARLA}), 409)
    failed(svc.call("reassign_incident", {"incident_id": iid, "assignee_email": "x@y.io", "user_email": CARLA}), 400)
    mine = data(svc.call("list_incidents", {"assignee_email": KENJI, "service": "payments-service"}))
    assert iid in {i["id"] for i in mine} and "notes" not in mine[0]
    failed(svc.call("get_incident", {"incident_id": "INC-0999"}), 404)
