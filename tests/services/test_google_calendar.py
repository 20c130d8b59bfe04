"""Tests of the calendar service (@rishipradeep-think41_google-calendar-mcp)."""

from __future__ import annotations

import pytest
from _svc_asserts import data, failed

from compoworld_gym.envs.services.google_calendar import Calendar

PRIYA = "priya.raman@company.example"


@pytest.fixture
def cal(make_service):
    return make_service(Calendar)


def test_seed_shape(cal, make_service):
    assert make_service(Calendar).state_dict() == cal.state_dict()
    st = cal.state
    assert len(st.events) == 11 and st.counters["EVT"] == 12 and st.owner_email == "ops@company.example"
    assert st.events["EVT-0002"].location == "Room Cirrus"
    assert [a.email for a in st.events["EVT-0002"].attendees] == [PRIYA, "marcus.bell@company.example"]
    # the same customer is on the escalation call and the QBR
    assert st.events["EVT-0003"].attendees[0].email == st.events["EVT-0007"].attendees[1].email


def test_list_events(cal):
    today = data(cal.call("list_events", {}))
    assert [e["id"] for e in today] == ["EVT-0001", "EVT-0002", "EVT-0003", "EVT-0004", "EVT-0005", "EVT-0006",
                                        "EVT-0007", "EVT-0008", "EVT-0009"]
    window = data(cal.call("list_events", {"timeMin": "2026-01-16T00:00:00", "timeMax": "2026-01-16T12:00:00Z"}))
    assert [e["id"] for e in window] == ["EVT-0004", "EVT-0005"]
    assert [e["id"] for e in data(cal.call("list_events", {"timeMin": "2026-01-13", "maxResults": 2}))] == [
        "EVT-0011", "EVT-0010"]
    failed(cal.call("list_events", {"timeMin": "2026-01-16", "timeMax": "2026-01-15"}), 422)
    failed(cal.call("list_events", {"timeMin": "tomorrow"}), 400)


def test_get_event(cal):
    ev = data(cal.call("get_event", {"eventId": "EVT-0008"}))
    assert ev["summary"] == "Incident post-mortem: checkout latency" and ev["start"] == "2026-01-20T10:00:00"
    failed(cal.call("get_event", {"eventId": "EVT-0404"}), 404)


def test_find_free_slots(cal):
    slots = data(cal.call("find_free_slots", {"date": "2026-01-15", "duration_minutes": 60, "attendees": [PRIYA]}))
    starts = [s["start"][11:16] for s in slots]
    assert starts[:4] == ["09:15", "09:30", "09:45", "10:00"] and "11:00" not in starts and "14:00" not in starts
    assert starts[-1] == "16:00" and len(starts) == 16
    assert data(cal.call("find_free_slots", {"date": "2026-01-16", "duration_minutes": 480})) == []
    failed(cal.call("find_free_slots", {"date": "2026-01-16", "duration_minutes": 5}), 400)


def test_create_event(cal, today):
    ev = data(cal.call("create_event", {"summary": "Escalation call", "start": "2026-01-16T14:00:00",
                                       "end": "2026-01-16T14:30:00", "location": "Room Atlas",
                                       "attendees": [PRIYA, PRIYA, "cust@example.org"]}))
    assert ev["id"] == "EVT-0012" and ev["organizer"] == "ops@company.example" and ev["status"] == "confirmed"
    assert ev["attendees"] == [{"email": PRIYA, "responseStatus": "needsAction"},
                               {"email": "cust@example.org", "responseStatus": "needsAction"}]
    assert ev["updated"] == f"{today.isoformat()}T09:00:00"
    utc = data(cal.call("create_event", {"summary": "UTC", "start": "2026-01-17T10:00:00+02:00",
                                        "end": "2026-01-17T11:00:00+02:00"}))
    assert utc["start"] == "2026-01-17T08:00:00"
    # a video link is not exclusive
    data(cal.call("create_event", {"summary": "Also on Zoom", "start": "2026-01-15T14:00:00",
                                 "end": "2026-01-15T14:30:00", "location": "Zoom"}))


def test_create_event_errors_roll_back(cal):
    before = cal.state_dict()
    assert "must be after start" in failed(cal.call("create_event", {
        "summary": "x", "start": "2026-01-16T10:00:00", "end": "2026-01-16T10:00:00"}), 422)
    assert "EVT-0002" in failed(cal.call("create_event", {
        "summary": "x", "start": "2026-01-15T11:30:00", "end": "2026-01-15T12:30:00", "location": "room cirrus"}),
        409)
    failed(cal.call("create_event", {"summary": "x", "start": "2026-01-16T10:00:00"}), 400)
    failed(cal.call("create_event", {"summary": "x", "start": "2026-01-16T10:00:00", "end": "2026-01-16T11:00:00",
                                  "attendees": ["bob"]}), 400)
    failed(cal.call("create_event", {"summary": "x", "start": "2026-01-01T10:00:00", "end": "2026-02-01T11:00:00"}), 422)
    assert cal.state_dict() == before


def test_update_event(cal):
    ev = data(cal.call("update_event", {"eventId": "EVT-0002", "start": "2026-01-15T12:00:00",
                                       "end": "2026-01-15T13:00:00", "attendees": ["marcus.bell@company.example",
                                                                                  "billing@company.example"]}))
    assert ev["start"] == "2026-01-15T12:00:00" and ev["location"] == "Room Cirrus"
    kept = cal.state.events["EVT-0002"].attendees
    assert [a.email for a in kept] == ["marcus.bell@company.example", "billing@company.example"]
    assert kept[1].responseStatus == "needsAction" and kept[0].responseStatus == cal.seeded(
        0, cal.today).state.events["EVT-0002"].attendees[1].responseStatus
    assert data(cal.call("update_event", {"eventId": "EVT-0009", "summary": "Access review"}))["summary"] == \
        "Access review"


def test_update_event_errors_roll_back(cal):
    before = cal.state_dict()
    failed(cal.call("update_event", {"eventId": "EVT-0002", "end": "2026-01-15T10:00:00"}), 422)
    failed(cal.call("update_event", {"eventId": "EVT-0006", "start": "2026-01-15T11:30:00",
                                  "end": "2026-01-15T12:30:00"}), 409)
    failed(cal.call("update_event", {"eventId": "EVT-0002"}), 400)
    failed(cal.call("update_event", {"eventId": "EVT-0404", "summary": "x"}), 404)
    assert cal.state_dict() == before


def test_delete_event(cal):
    assert data(cal.call("delete_event", {"eventId": "EVT-0003"})) == {"deleted": "EVT-0003"}
    assert "EVT-0003" not in [e["id"] for e in data(cal.call("list_events", {}))]
    assert data(cal.call("get_event", {"eventId": "EVT-0003"}))["status"] == "cancelled"
    before = cal.state_dict()
    failed(cal.call("delete_event", {"eventId": "EVT-0003"}), 409)
    failed(cal.call("update_event", {"eventId": "EVT-0003", "summary": "x"}), 409)
    failed(cal.call("delete_event", {"eventId": "EVT-0404"}), 404)
    assert cal.state_dict() == before
    # the freed room can be booked again
    assert data(cal.call("delete_event", {"eventId": "EVT-0002"}))
    data(cal.call("create_event", {"summary": "x", "start": "2026-01-15T11:00:00", "end": "2026-01-15T12:00:00",
                                 "location": "Room Cirrus"}))
