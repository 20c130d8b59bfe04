"""Tests of the home_assistant service (@voska_hass-mcp)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.home_assistant import HomeAssistant


@pytest.fixture
def svc(make_service):
    return make_service(HomeAssistant)


def service(svc, domain, service_name, **data):
    return svc.call("call_service_tool", {"domain": domain, "service": service_name, "data": data})


def test_seed_lines_up_with_the_meeting_rooms(make_service):
    state = make_service(HomeAssistant, seed=5).state_dict()
    assert state == make_service(HomeAssistant, seed=5).state_dict()
    assert state["areas"]["golden_gate"] == {"area_id": "golden_gate", "name": "Golden Gate",
                                             "floor_id": "sf_hq_floor_3", "aliases": ["RM-0003"]}
    assert state["floors"]["sf_hq_floor_3"]["aliases"][0] == "101 Spear St, San Francisco, CA 94105"


def test_version_overview_and_domain_summary(svc):
    assert ok(svc, "get_version") == "2025.1.4"
    overview = ok(svc, "system_overview")
    assert (overview["total_entities"], overview["domains"]["climate"], overview["domains"]["lock"]["states"]) == (
        56, {"count": 12, "states": {"heat": 10, "off": 2}}, {"unlocked": 2, "jammed": 1})
    assert overview["area_distribution"]["redwood"] == {"name": "Redwood", "floor": "San Francisco HQ - Floor 2",
                                                        "aliases": ["RM-0001"], "entities": 3}
    summary = ok(svc, "domain_summary_tool", {"domain": "climate", "example_limit": 1})
    assert (summary["total_count"], summary["examples"]["off"]) == (
        12, [{"entity_id": "climate.colorado", "friendly_name": "Colorado Thermostat"}])
    assert ["friendly_name", 12] in summary["common_attributes"]


def test_get_entity_lean_fields_and_detailed(svc):
    lean = ok(svc, "get_entity", {"entity_id": "climate.golden_gate"})
    assert lean == {"entity_id": "climate.golden_gate", "state": "heat", "friendly_name": "Golden Gate Thermostat",
                    "area": "Golden Gate", "temperature": 70.0, "current_temperature": 70.6, "hvac_action": "idle"}
    picked = ok(svc, "get_entity", {"entity_id": "light.redwood", "fields": ["state", "attr.brightness", "attr.nope"]})
    assert picked == {"entity_id": "light.redwood", "state": "on", "attr.brightness": 204}
    full = ok(svc, "get_entity", {"entity_id": "climate.golden_gate", "detailed": True})
    assert (full["attributes"]["min_temp"], full["attributes"]["max_temp"], full["area_aliases"]) == (
        62.0, 80.0, ["RM-0003"])
    assert code(svc, "get_entity", {"entity_id": "light.nowhere"}) == 404
    assert code(svc, "get_entity", {"entity_id": "Light Redwood"}) == 400
    assert code(svc, "get_entity", {"entity_id": "light.redwood", "fields": ["colour"]}) == 400


def test_list_and_search_entities(svc):
    locks = ok(svc, "list_entities", {"domain": "lock"})
    assert [(e["entity_id"], e["state"]) for e in locks] == [
        ("lock.aus_01_main_entrance", "unlocked"), ("lock.ny_01_main_entrance", "jammed"),
        ("lock.sf_hq_main_entrance", "unlocked")]
    assert len(ok(svc, "list_entities", {"search_query": "golden gate", "limit": 2})) == 2
    assert len(ok(svc, "list_entities", {"domain": "light", "search_query": "Spear St"})) == 5  # SF by address
    found = ok(svc, "search_entities_tool", {"query": "RM-0003"})
    assert (found["count"], found["domains"]) == (4, {"climate": 1, "cover": 1, "light": 1, "sensor": 1})
    assert ok(svc, "search_entities_tool", {"query": "", "limit": 1})["count"] == 56
    assert code(svc, "list_entities", {"limit": 0}) == 400


def test_automations_and_trigger(svc):
    autos = ok(svc, "list_automations")
    assert [(a["entity_id"], a["state"]) for a in autos][:2] == [("automation.hvac_setback_evenings", "on"),
                                                               ("automation.lobby_display_schedule", "off")]
    on = service(svc, "automation", "turn_on", entity_id="automation.lobby_display_schedule")
    assert on["data"][0]["state"] == "on"
    ok(svc, "call_service_tool", {"domain": "automation", "service": "trigger",
                                  "data": {"entity_id": "automation.preheat_meeting_rooms"}})
    assert svc.state.automations["automation.preheat_meeting_rooms"].last_triggered.isoformat() == "2026-01-15T09:01:00"
    assert ok(svc, "call_service_tool", {"domain": "automation", "service": "reload"}) == []


def test_set_temperature_and_history(svc):
    res = service(svc, "climate", "set_temperature", entity_id="climate.sequoia", temperature=70, hvac_mode="heat")
    e = res["data"][0]
    assert (e["state"], e["attributes"]["temperature"], e["attributes"]["hvac_action"], e["last_changed"]) == (
        "heat", 70.0, "heating", "2026-01-15T09:00:00")
    hist = ok(svc, "get_history", {"entity_id": "climate.sequoia"})
    assert [(s["state"], s["context"]) for s in hist["states"]] == [
        ("off", "automation.hvac_setback_evenings"), ("heat", "service climate.set_temperature")]
    assert ok(svc, "get_history", {"entity_id": "climate.sequoia", "hours": 1})["count"] == 1
    assert code(svc, "get_history", {"entity_id": "climate.sequoia", "hours": 0}) == 400


def test_climate_rules(svc):
    msg = error(svc, "call_service_tool", {"domain": "climate", "service": "set_temperature",
                                           "data": {"entity_id": "climate.redwood", "temperature": 85}})
    assert (msg["code"], msg["message"]) == (422, "Provided temperature 85 is not valid. Accepted range is 62 to 80.")
    assert code(svc, "call_service_tool", {"domain": "climate", "service": "set_hvac_mode",
                                           "data": {"entity_id": "climate.redwood", "hvac_mode": "dry"}}) == 422
    assert code(svc, "call_service_tool", {"domain": "climate", "service": "set_temperature",
                                           "data": {"entity_id": "climate.redwood", "temperature": 70,
                                                    "hvac_mode": "heat_cool"}}) == 422
    ranged = service(svc, "climate", "set_temperature", entity_id="climate.redwood", hvac_mode="heat_cool",
                     target_temp_low=66, target_temp_high=72)["data"][0]
    assert (ranged["state"], ranged["attributes"]["target_temp_low"], ranged["attributes"]["hvac_action"]) == (
        "heat_cool", 66.0, "heating")
    assert code(svc, "call_service_tool", {"domain": "climate", "service": "set_temperature",
                                           "data": {"entity_id": "climate.redwood", "temperature": "warm"}}) == 400
    assert service(svc, "climate", "turn_off", entity_id="climate.redwood")["data"][0]["state"] == "off"


def test_service_call_validation(svc):
    assert code(svc, "call_service_tool", {"domain": "light", "service": "blink",
                                           "data": {"entity_id": "light.redwood"}}) == 400
    assert code(svc, "call_service_tool", {"domain": "light", "service": "turn_on",
                                           "data": {"entity_id": "light.redwood", "colour": "red"}}) == 400
    assert code(svc, "call_service_tool", {"domain": "light", "service": "turn_on", "data": {}}) == 400
    assert code(svc, "call_service_tool", {"domain": "light", "service": "turn_on",
                                           "data": {"entity_id": "switch.sf_hq_lobby_display"}}) == 400
    assert code(svc, "call_service_tool", {"domain": "light", "service": "turn_on",
                                           "data": {"entity_id": "light.nowhere"}}) == 404
    assert code(svc, "call_service_tool", {"domain": "light", "service": "turn_on",
                                           "data": {"entity_id": "light.redwood", "brightness": 300}}) == 400
    msg = error(svc, "call_service_tool", {"domain": "homeassistant", "service": "turn_on",
                                           "data": {"entity_id": "sensor.empire_temperature"}})
    assert msg["code"] == 409 and "unavailable" in msg["message"]


def test_lights_switches_covers(svc):
    both = service(svc, "light", "turn_on", entity_id=["light.redwood", "light.sequoia"], brightness_pct=50)["data"]
    assert [(e["state"], e["attributes"]["brightness"]) for e in both] == [("on", 128), ("on", 128)]
    assert service(svc, "light", "turn_on", entity_id="light.redwood", brightness=0)["data"][0]["state"] == "off"
    assert code(svc, "call_service_tool", {"domain": "light", "service": "turn_on",
                                           "data": {"entity_id": "light.redwood", "color_temp_kelvin": 2000}}) == 422
    assert service(svc, "switch", "toggle", entity_id="switch.ny_01_lobby_display")["data"][0]["state"] == "off"
    half = service(svc, "cover", "set_cover_position", entity_id="cover.alcatraz_blinds", position=40)["data"][0]
    assert (half["state"], half["attributes"]["current_position"]) == ("open", 40)
    assert service(svc, "cover", "close_cover", entity_id="cover.alcatraz_blinds")["data"][0]["state"] == "closed"
    assert code(svc, "call_service_tool", {"domain": "cover", "service": "set_cover_position",
                                           "data": {"entity_id": "cover.alcatraz_blinds"}}) == 400


def test_locks(svc):
    assert code(svc, "call_service_tool", {"domain": "lock", "service": "lock",
                                           "data": {"entity_id": "lock.sf_hq_main_entrance"}}) == 422  # no code
    locked = service(svc, "lock", "lock", entity_id="lock.sf_hq_main_entrance", code="4821")["data"][0]
    assert (locked["state"], locked["attributes"]["changed_by"]) == ("locked", "ops")
    msg = error(svc, "call_service_tool", {"domain": "lock", "service": "unlock",
                                           "data": {"entity_id": "lock.ny_01_main_entrance", "code": "4821"}})
    assert msg["code"] == 409 and "jammed" in msg["message"]


def test_entity_action(svc):
    on = ok(svc, "entity_action", {"entity_id": "light.sequoia", "action": "on", "params": '{"brightness": 100}'})
    assert (on[0]["state"], on[0]["attributes"]["brightness"]) == ("on", 100)
    off = ok(svc, "entity_action", {"entity_id": "climate.redwood", "action": "off", "params": ""})
    assert off[0]["state"] == "off"
    assert code(svc, "entity_action", {"entity_id": "light.sequoia", "action": "on", "params": "brightness=1"}) == 400
    assert code(svc, "entity_action", {"entity_id": "light.sequoia", "action": "on", "params": "[1]"}) == 400
    assert code(svc, "entity_action", {"entity_id": "lock.sf_hq_main_entrance", "action": "on", "params": ""}) == 400
    assert code(svc, "entity_action", {"entity_id": "light.sequoia", "action": "dim", "params": ""}) == 400


def test_logbook_and_history_window(svc):
    assert service(svc, "logbook", "log", name="case KQ-4821", message="pre-heat requested",
                   entity_id="climate.redwood")["data"] == []
    hist = ok(svc, "get_history", {"entity_id": "climate.redwood"})
    assert [(b["name"], b["message"]) for b in hist["logbook"]] == [("case KQ-4821", "pre-heat requested")]
    assert code(svc, "call_service_tool", {"domain": "logbook", "service": "log", "data": {"name": "x"}}) == 400
    assert code(svc, "call_service_tool", {"domain": "logbook", "service": "log",
                                           "data": {"name": "x", "message": "y", "entity_id": "light.nowhere"}}) == 404


def test_error_log_and_restart(svc):
    log = ok(svc, "get_error_log")
    assert (log["error_count"], log["warning_count"], log["integration_mentions"]) == (
        3, 2, {"hue": 1, "zwave_js": 1, "zha": 2, "automation": 1})
    assert "lock.ny_01_main_entrance" in log["log_text"]
    restart = ok(svc, "restart_ha")
    assert (restart["restart_id"], restart["boot"], restart["at"]) == ("RST-0001", 1, "2026-01-15T09:00:00")
    after = ok(svc, "get_error_log")
    assert (after["error_count"], after["warning_count"]) == (1, 0)  # a new run: the old lines are gone
    assert "sensor.empire_temperature" in after["log_text"]
    assert service(svc, "homeassistant", "restart")["data"]["boot"] == 2


def test_failed_calls_leave_state_unchanged(svc):
    before = svc.state_dict()
    assert service(svc, "light", "turn_on", entity_id=["light.redwood", "light.nowhere"])["success"] is False
    assert service(svc, "lock", "unlock", entity_id="lock.ny_01_main_entrance", code="1234")["success"] is False
    assert svc.state_dict() == before
