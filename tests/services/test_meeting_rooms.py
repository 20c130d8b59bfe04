"""Tests of the meeting_rooms service: rooms, schedules, no double booking, rollback."""

from __future__ import annotations

import pytest
from _svc_asserts import data, failed

from compoworld_gym.envs.services.meeting_rooms import MeetingRooms


@pytest.fixture
def mr(make_service):
    m = make_service(MeetingRooms)
    m.state.bookings = {}  # start from an empty calendar so slots below are known free
    m.state.counters["BKG"] = 1
    return m


def book(mr, room="RM-0002", start="2026-01-16T10:00:00", end="2026-01-16T11:00:00", attendees=("a@company.example",)):
    return mr.call("book_room", {"room_id": room, "title": "Roadmap review", "organizer_email": "ben.foster@company.example",
                                 "start": start, "end": end, "attendees": list(attendees)})


def test_seeded_bookings_never_overlap(make_service):
    m = make_service(MeetingRooms)
    live = [b for b in m.state.bookings.values() if b.status == "confirmed"]
    assert len(live) >= 10
    for a in live:
        for b in live:
            if a.id < b.id and a.room_id == b.room_id:
                assert a.end <= b.start or b.end <= a.start


def test_sites_and_rooms(mr):
    sites = {s["code"]: s for s in data(mr.call("list_sites", {}))}
    assert sites["SF-HQ"]["city"] == "San Francisco" and sites["AUS-01"]["rooms"] == 4
    vc = data(mr.call("list_rooms", {"site": "ny-01", "min_capacity": 8, "equipment": ["projector"]}))
    assert [r["name"] for r in vc] == ["Brooklyn", "Empire"]
    assert all(r["accessible"] for r in data(mr.call("list_rooms", {"accessible": True})))
    room = data(mr.call("get_room", {"room_id": "RM-0004"}))
    assert room["name"] == "Alcatraz" and room["capacity"] == 16 and room["floor"] == 3
    failed(mr.call("get_room", {"room_id": "RM-0999"}), 404)
    failed(mr.call("list_rooms", {"equipment": ["hologram"]}), 400)


def test_book_and_double_booking_conflict(mr):
    b = data(book(mr))
    assert b["id"] == "BKG-0001" and b["room_name"] == "Sequoia" and b["site"] == "SF-HQ"
    before = mr.state_dict()
    msg = failed(book(mr, start="2026-01-16T10:30:00", end="2026-01-16T11:30:00"), 409)
    assert "10:00-11:00" in msg and "BKG-0001" in msg
    failed(book(mr, start="2026-01-16T06:00:00", end="2026-01-16T07:30:00"), 422)  # before opening
    failed(book(mr, start="2026-01-16T10:00:00", end="2026-01-16T10:05:00"), 422)  # too short
    failed(book(mr, start="2026-01-14T10:00:00", end="2026-01-14T11:00:00"), 422)  # past
    failed(book(mr, room="RM-0001", attendees=[f"p{i}@company.example" for i in range(4)]), 422)  # 5 > 4 seats
    failed(book(mr, start="2026-01-16T10:00:00+02:00", end="2026-01-16T11:00:00+02:00"), 400)
    assert mr.state_dict() == before
    # Back-to-back is fine.
    assert data(book(mr, start="2026-01-16T11:00:00", end="2026-01-16T12:00:00"))["id"] == "BKG-0002"


def test_schedule_and_find(mr):
    data(book(mr))
    sched = data(mr.call("get_room_schedule", {"room_id": "RM-0002", "date": "2026-01-16"}))
    assert [x["id"] for x in sched["bookings"]] == ["BKG-0001"]
    assert sched["free"] == [{"start": "2026-01-16T07:00:00", "end": "2026-01-16T10:00:00"},
                             {"start": "2026-01-16T11:00:00", "end": "2026-01-16T21:00:00"}]
    free = data(mr.call("find_available_rooms", {"start": "2026-01-16T10:15:00", "end": "2026-01-16T10:45:00",
                                               "site": "SF-HQ", "min_capacity": 5}))
    assert [r["id"] for r in free] == ["RM-0003", "RM-0004"]
    failed(mr.call("find_available_rooms", {"start": "2026-01-16T11:00:00", "end": "2026-01-16T10:00:00"}), 422)


def test_update_cancel_list(mr):
    data(book(mr))
    data(book(mr, room="RM-0003"))
    before = mr.state_dict()
    failed(mr.call("update_room_booking", {"booking_id": "BKG-0002", "room_id": "RM-0002"}), 409)
    failed(mr.call("update_room_booking", {"booking_id": "BKG-0002"}), 400)
    assert mr.state_dict() == before
    moved = data(mr.call("update_room_booking", {"booking_id": "BKG-0001", "start": "2026-01-16T14:00:00",
                                               "end": "2026-01-16T15:30:00", "title": "Roadmap v2"}))
    assert moved["start"] == "2026-01-16T14:00:00" and moved["title"] == "Roadmap v2"
    assert data(mr.call("update_room_booking", {"booking_id": "BKG-0002", "room_id": "RM-0002"}))["room_id"] == "RM-0002"
    mine = data(mr.call("list_room_bookings", {"organizer_email": "BEN.FOSTER@company.example", "date": "2026-01-16"}))
    assert [b["id"] for b in mine] == ["BKG-0002", "BKG-0001"]
    assert data(mr.call("get_room_booking", {"booking_id": "BKG-0001"}))["end"] == "2026-01-16T15:30:00"
    assert data(mr.call("cancel_room_booking", {"booking_id": "BKG-0001"}))["status"] == "cancelled"
    failed(mr.call("cancel_room_booking", {"booking_id": "BKG-0001"}), 409)
    assert [b["id"] for b in data(mr.call("list_room_bookings", {"status": "cancelled"}))] == ["BKG-0001"]
    failed(mr.call("get_room_booking", {"booking_id": "BKG-0404"}), 404)


def test_report_issue_blocks_room(mr):
    data(book(mr))
    out = data(mr.call("report_room_issue", {"room_id": "RM-0002", "issue": "Display has no signal",
                                           "out_of_service": True}))
    assert out["out_of_service"] and out["issues"] == ["Display has no signal"]
    assert out["affected_bookings"] == ["BKG-0001"]
    assert "out of service" in failed(book(mr, start="2026-01-17T10:00:00", end="2026-01-17T11:00:00"), 409)
    free = data(mr.call("find_available_rooms", {"start": "2026-01-17T10:00:00", "end": "2026-01-17T11:00:00",
                                               "site": "SF-HQ"}))
    assert "RM-0002" not in [r["id"] for r in free]
