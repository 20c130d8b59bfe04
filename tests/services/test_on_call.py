"""Tests of the on_call service (PagerDuty REST API v2 style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.on_call import OnCall

NADIA, BEN, KENJI, RACHEL = ("nadia.haddad@company.example", "ben.foster@company.example",
                             "kenji.watanabe@company.example", "rachel.adeyemi@company.example")
CARLA, OPS, OSCAR, JAMAL = ("carla.jensen@company.example", "ops@company.example",
                            "oscar.lindgren@company.example", "jamal.wright@company.example")


@pytest.fixture
def svc(make_service):
    return make_service(OnCall)


def test_seeded_roster_schedules_and_policies(svc):
    users = ok(svc, "list_users", {"team": "payments"})
    assert [u["email"] for u in users] == [KENJI, RACHEL]
    assert [u["role"] for u in ok(svc, "list_users", {"query": "jamal"})] == ["observer"]
    scheds = ok(svc, "list_schedules", {"query": "payments"})
    assert scheds == [{"id": "PS-0002", "name": "Payments primary", "time_zone": "UTC"}]
    s = ok(svc, "get_schedule", {"schedule_id": "PS-0002"})
    assert s["layers"][0]["rotation_turn_length_seconds"] == 604800
    assert s["oncall_now"] == {"user_email": KENJI, "start": "2026-01-12T09:00:00", "end": "2026-01-19T09:00:00"}
    pol = ok(svc, "get_escalation_policy", {"escalation_policy_id": "PE-0002"})
    assert [[t["id"] for t in r["targets"]] for r in pol["escalation_rules"]] == [
        ["PS-0002"], [KENJI, RACHEL], [CARLA, BEN]]
    assert [p["id"] for p in ok(svc, "list_escalation_policies", {"query": "data"})] == ["PE-0004"]
    assert code(svc, "get_schedule", {"schedule_id": "PS-0999"}) == 404


def test_services_and_oncalls(svc):
    svcs = ok(svc, "list_technical_services", {"team": "payments"})
    assert [(s["id"], s["escalation_policy_id"]) for s in svcs] == [("checkout-api", "PE-0002"),
                                                                    ("payments-service", "PE-0002")]
    assert ok(svc, "get_technical_service", {"service_id": "auth-service"})["escalation_policy_id"] == "PE-0001"
    rows = ok(svc, "list_oncalls", {"escalation_policy_id": "PE-0001"})
    assert [(r["escalation_level"], r["user_email"]) for r in rows] == [
        (1, NADIA), (2, BEN), (2, NADIA), (3, CARLA), (3, BEN)]
    assert rows[0]["schedule_id"] == "PS-0001" and rows[1]["schedule_id"] is None
    mine = ok(svc, "list_oncalls", {"user_email": CARLA})
    assert [r["escalation_policy_id"] for r in mine] == ["PE-0001", "PE-0002", "PE-0003", "PE-0004"]
    assert code(svc, "get_technical_service", {"service_id": "nope"}) == 404


def test_list_and_get_incidents(svc):
    open_ = ok(svc, "list_incidents", {"status": "triggered"})
    assert [(i["id"], i["service_id"], i["assignee_email"]) for i in open_] == [
        ("PI-0005", "auth-service", NADIA), ("PI-0004", "payments-service", KENJI)]
    assert "notes" not in open_[0]
    assert [i["id"] for i in ok(svc, "list_incidents", {"service_id": "payments-service", "limit": 1})] == ["PI-0004"]
    inc = ok(svc, "get_incident", {"incident_id": "PI-0003"})
    assert inc["status"] == "acknowledged" and inc["notes"][0]["user_email"] == KENJI
    assert ok(svc, "list_incident_notes", {"incident_id": "PI-0003"})[0]["id"] == "PN-0003"
    assert code(svc, "get_incident", {"incident_id": "PI-0099"}) == 404


def test_create_acknowledge_resolve(svc):
    inc = ok(svc, "create_incident", {"service_id": "checkout-api", "title": "Checkout 502s", "from_email": OPS})
    assert (inc["id"], inc["incident_number"], inc["assignee_email"], inc["status"]) == (
        "PI-0006", 6, KENJI, "triggered")
    a = ok(svc, "acknowledge_incident", {"incident_id": "PI-0006", "from_email": KENJI})
    assert (a["status"], a["acknowledged_at"]) == ("acknowledged", "2026-01-15T09:01:00")
    assert code(svc, "acknowledge_incident", {"incident_id": "PI-0006", "from_email": KENJI}) == 409
    r = ok(svc, "resolve_incident", {"incident_id": "PI-0006", "from_email": KENJI, "resolution": "Rolled back"})
    assert (r["status"], r["resolution"]) == ("resolved", "Rolled back")
    assert code(svc, "resolve_incident", {"incident_id": "PI-0006", "from_email": KENJI}) == 409
    log = ok(svc, "get_incident", {"incident_id": "PI-0006"})["log_entries"]
    assert [e["type"] for e in log] == ["trigger_log_entry", "acknowledge_log_entry", "resolve_log_entry"]


def test_create_refusals(svc):
    assert code(svc, "create_incident", {"service_id": "x", "title": "t", "from_email": OPS}) == 404
    assert code(svc, "create_incident", {"service_id": "checkout-api", "title": "t", "from_email": JAMAL}) == 422
    assert code(svc, "create_incident", {"service_id": "checkout-api", "title": "t",
                                         "from_email": "who@else.example"}) == 404
    assert code(svc, "create_incident", {"service_id": "checkout-api", "title": "", "from_email": OPS}) == 400
    svc.state.services["checkout-api"].status = "maintenance"
    assert code(svc, "create_incident", {"service_id": "checkout-api", "title": "t", "from_email": OPS}) == 422


def test_acknowledged_incident_cannot_be_retriggered(svc):
    e = error(svc, "update_incident", {"incident_id": "PI-0003", "from_email": KENJI, "status": "triggered"})
    assert e["code"] == 409 and "re-triggered" in e["message"]
    assert code(svc, "update_incident", {"incident_id": "PI-0001", "from_email": OPS, "urgency": "low"}) == 409
    assert code(svc, "update_incident", {"incident_id": "PI-0003", "from_email": OPS}) == 400
    u = ok(svc, "update_incident", {"incident_id": "PI-0004", "from_email": OPS, "status": "acknowledged",
                                    "urgency": "low", "title": "Queue backlog (payments)"})
    assert (u["status"], u["urgency"], u["title"]) == ("acknowledged", "low", "Queue backlog (payments)")
    assert ok(svc, "update_incident", {"incident_id": "PI-0004", "from_email": OPS,
                                       "status": "resolved"})["resolved_at"] == "2026-01-15T09:01:00"


def test_reassign_only_to_oncall_or_policy_members(svc):
    e = error(svc, "reassign_incident", {"incident_id": "PI-0004", "assignee_email": OSCAR, "from_email": OPS})
    assert e["code"] == 422 and "PE-0002" in e["message"]
    assert code(svc, "reassign_incident", {"incident_id": "PI-0004", "assignee_email": JAMAL,
                                           "from_email": OPS}) == 422
    assert code(svc, "reassign_incident", {"incident_id": "PI-0004", "assignee_email": KENJI,
                                           "from_email": OPS}) == 409
    assert code(svc, "reassign_incident", {"incident_id": "PI-0001", "assignee_email": BEN,
                                           "from_email": OPS}) == 409
    r = ok(svc, "reassign_incident", {"incident_id": "PI-0004", "assignee_email": CARLA, "from_email": OPS})
    assert r["assignee_email"] == CARLA
    assert ok(svc, "reassign_incident", {"incident_id": "PI-0004", "assignee_email": RACHEL,
                                         "from_email": OPS})["assignee_email"] == RACHEL


def test_escalate(svc):
    r = ok(svc, "escalate_incident", {"incident_id": "PI-0005", "escalation_level": 3, "from_email": OPS})
    assert (r["escalation_level"], r["assignee_email"]) == (3, CARLA)
    assert code(svc, "escalate_incident", {"incident_id": "PI-0005", "escalation_level": 3, "from_email": OPS}) == 409
    assert code(svc, "escalate_incident", {"incident_id": "PI-0005", "escalation_level": 4, "from_email": OPS}) == 400
    assert code(svc, "escalate_incident", {"incident_id": "PI-0002", "escalation_level": 2, "from_email": OPS}) == 409


def test_notes(svc):
    n = ok(svc, "add_note_to_incident", {"incident_id": "PI-0001", "user_email": OPS, "content": "Postmortem filed"})
    assert (n["id"], n["incident_id"], n["content"]) == ("PN-0004", "PI-0001", "Postmortem filed")
    assert code(svc, "add_note_to_incident", {"incident_id": "PI-0001", "user_email": JAMAL, "content": "hi"}) == 422
    assert code(svc, "add_note_to_incident", {"incident_id": "PI-0001", "user_email": OPS, "content": ""}) == 400


def test_overrides_change_who_is_paged(svc):
    o = ok(svc, "create_schedule_override", {"schedule_id": "PS-0002", "user_email": RACHEL,
                                             "start": "2026-01-15T08:00:00", "end": "2026-01-16T08:00:00"})
    assert o["id"] == "PO-0001"
    assert ok(svc, "get_schedule", {"schedule_id": "PS-0002"})["oncall_now"]["user_email"] == RACHEL
    inc = ok(svc, "create_incident", {"service_id": "payments-service", "title": "t", "from_email": OPS})
    assert inc["assignee_email"] == RACHEL
    assert code(svc, "create_schedule_override", {"schedule_id": "PS-0002", "user_email": RACHEL,
                                                  "start": "2026-01-16T08:00:00", "end": "2026-01-15T08:00:00"}) == 400
    assert code(svc, "create_schedule_override", {"schedule_id": "PS-0002", "user_email": RACHEL,
                                                  "start": "2026-01-10T08:00:00", "end": "2026-01-11T08:00:00"}) == 422
    assert code(svc, "create_schedule_override", {"schedule_id": "PS-0002", "user_email": JAMAL,
                                                  "start": "2026-01-15T08:00:00", "end": "2026-01-16T08:00:00"}) == 422
    assert ok(svc, "delete_schedule_override", {"schedule_id": "PS-0002", "override_id": "PO-0001"}) == {
        "deleted": "PO-0001", "schedule_id": "PS-0002"}
    assert code(svc, "delete_schedule_override", {"schedule_id": "PS-0002", "override_id": "PO-0001"}) == 404
    assert ok(svc, "get_schedule", {"schedule_id": "PS-0002"})["oncall_now"]["user_email"] == KENJI


def test_ended_override_cannot_be_deleted(svc):
    ok(svc, "create_schedule_override", {"schedule_id": "PS-0001", "user_email": BEN,
                                         "start": "2026-01-15T08:00:00", "end": "2026-01-15T09:01:00"})
    for _ in range(2):  # each logged write advances the logical clock one minute
        ok(svc, "add_note_to_incident", {"incident_id": "PI-0001", "user_email": OPS, "content": "tick"})
    assert code(svc, "delete_schedule_override", {"schedule_id": "PS-0001", "override_id": "PO-0001"}) == 409


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("reassign_incident", {"incident_id": "PI-0004", "assignee_email": OSCAR,
                                          "from_email": OPS})["error"]["code"] == 422
    assert svc.call("update_incident", {"incident_id": "PI-0003", "from_email": OPS,
                                        "status": "triggered"})["error"]["code"] == 409
    assert svc.state_dict() == before


def test_seed_is_deterministic_and_varies(make_service):
    assert make_service(OnCall, seed=3).state_dict() == make_service(OnCall, seed=3).state_dict()
    firsts = {make_service(OnCall, seed=s).state.schedules["PS-0002"].layers[0].users[0] for s in range(6)}
    assert firsts == {KENJI, RACHEL}
