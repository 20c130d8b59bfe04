"""Tests of the desk booking service (Robin): locations, desks, reservations, check-in, rollback."""

from __future__ import annotations

import pytest
from _svc_asserts import code, ok

from compoworld_gym.envs.services.desk_booking import DeskBooking


@pytest.fixture
def db(make_service):
    return make_service(DeskBooking)


def test_locations_users_and_desks(db):
    locs = ok(db, "list_locations")
    assert [l["name"] for l in locs] == ["San Francisco HQ", "Austin Office", "New York Office", "Chicago Office"]
    assert ok(db, "get_location", {"location_id": "LOC-0004"})["open_days"] == [1, 2, 3]
    assert ok(db, "get_location", {"location_id": "LOC-0001"})["desk_count"] == 3
    assert code(db, "get_location", {"location_id": "LOC-0009"}) == 404
    assert len(ok(db, "list_users")) == 22
    assert ok(db, "list_users", {"email": "SOFIA.MARIN@company.example"})[0]["home_location_id"] == "LOC-0001"
    assert len(ok(db, "list_desks", {"location_id": "LOC-0002"})) == 3
    assert ok(db, "get_desk", {"desk_id": "DSK-0001"})["reservation_type"] == "assigned"
    assert ok(db, "get_desk", {"desk_id": "DSK-0012"})["is_disabled"] is True
    # Thursday 15 Jan in San Francisco: DSK-0001 assigned, DSK-0002/0003 reserved -> none free
    assert ok(db, "list_desks", {"location_id": "LOC-0001", "available_on": "2026-01-15"}) == []
    free = ok(db, "list_desks", {"location_id": "LOC-0001", "available_on": "2026-01-16"})
    assert [d["id"] for d in free] == ["DSK-0002", "DSK-0003"]
    assert code(db, "get_desk", {"desk_id": "DSK-0099"}) == 404


def test_reservations_reads_and_presence(db):
    mine = ok(db, "list_reservations", {"reservee_email": "sofia.marin@company.example"})
    assert [(r["id"], r["desk_name"], r["date"]) for r in mine] == [("DRS-0002", "SF-3-C12", "2026-01-15")]
    assert ok(db, "get_reservation", {"reservation_id": "DRS-0001"})["status"] == "checked_in"
    assert len(ok(db, "list_reservations", {"status": "cancelled"})) == 1
    assert len(ok(db, "list_reservations", {"location_id": "LOC-0003", "date": "2026-01-15"})) == 3
    p = ok(db, "get_presence", {"location_id": "LOC-0002", "date": "2026-01-15"})
    assert sorted(x["email"] for x in p["people"]) == ["marcus.bell@company.example", "sarah.hunt@company.example"]
    assert code(db, "get_reservation", {"reservation_id": "DRS-0999"}) == 404


def test_reserve_rules(db):
    base = {"reservee_email": "sofia.marin@company.example", "start": "2026-01-16T09:00:00",
            "end": "2026-01-16T17:00:00"}
    r = ok(db, "reserve_desk", {**base, "desk_id": "DSK-0002"})
    assert (r["id"], r["status"], r["location_name"], r["date"]) == ("DRS-0016", "booked", "San Francisco HQ",
                                                                    "2026-01-16")
    assert code(db, "reserve_desk", {**base, "desk_id": "DSK-0003"}) == 409  # one desk a day
    other = {**base, "reservee_email": "amy.perry@company.example"}
    assert code(db, "reserve_desk", {**other, "desk_id": "DSK-0002"}) == 409  # desk taken
    assert code(db, "reserve_desk", {**other, "desk_id": "DSK-0001"}) == 422  # assigned desk
    assert code(db, "reserve_desk", {**other, "desk_id": "DSK-0012", "start": "2026-01-20T09:00:00",
                                     "end": "2026-01-20T12:00:00"}) == 409  # disabled
    assert code(db, "reserve_desk", {**other, "desk_id": "DSK-0003", "start": "2026-01-17T09:00:00",
                                     "end": "2026-01-17T12:00:00"}) == 422  # Saturday
    assert code(db, "reserve_desk", {**other, "desk_id": "DSK-0003", "start": "2026-01-16T06:00:00",
                                     "end": "2026-01-16T12:00:00"}) == 422  # before opening
    assert code(db, "reserve_desk", {**other, "desk_id": "DSK-0003", "start": "2026-01-16T12:00:00",
                                     "end": "2026-01-16T09:00:00"}) == 400
    assert code(db, "reserve_desk", {**other, "desk_id": "DSK-0003", "start": "2026-01-14T09:00:00",
                                     "end": "2026-01-14T12:00:00"}) == 400  # past
    assert code(db, "reserve_desk", {**other, "reservee_email": "x@y.example", "desk_id": "DSK-0003"}) == 404
    assign = db.state.desks["DSK-0001"].assignee_email
    own = ok(db, "reserve_desk", {**base, "reservee_email": assign, "desk_id": "DSK-0001",
                                  "start": "2026-01-20T09:00:00", "end": "2026-01-20T17:00:00"})
    assert own["desk_id"] == "DSK-0001"


def test_update_cancel_check_in(db):
    assert code(db, "check_in", {"reservation_id": "DRS-0001"}) == 409  # already checked in
    assert code(db, "check_in", {"reservation_id": "DRS-0003"}) == 422  # a later day
    assert ok(db, "check_in", {"reservation_id": "DRS-0002"})["status"] == "checked_in"
    moved = ok(db, "update_reservation", {"reservation_id": "DRS-0003", "start": "2026-01-19T10:00:00",
                                          "end": "2026-01-19T15:00:00"})
    assert moved["start"] == "2026-01-19T10:00:00"
    assert code(db, "update_reservation", {"reservation_id": "DRS-0005", "start": "2026-01-19T10:00:00",
                                           "end": "2026-01-19T15:00:00"}) == 409
    c = ok(db, "cancel_reservation", {"reservation_id": "DRS-0003", "reason": "On leave"})
    assert (c["status"], c["cancel_reason"]) == ("cancelled", "On leave")
    assert code(db, "cancel_reservation", {"reservation_id": "DRS-0003"}) == 409


def test_assign_desk(db):
    assert code(db, "assign_desk", {"desk_id": "DSK-0002", "assignee_email": "amy.perry@company.example"}) == 409
    d = ok(db, "assign_desk", {"desk_id": "DSK-0001"})
    assert (d["reservation_type"], d["assignee_email"]) == ("hoteled", None)
    d = ok(db, "assign_desk", {"desk_id": "DSK-0003", "assignee_email": "sofia.marin@company.example"})
    assert d["assignee_email"] == "sofia.marin@company.example"


def test_failed_call_rolls_back(db):
    before = db.state_dict()
    res = db.call("reserve_desk", {"desk_id": "DSK-0002", "reservee_email": "amy.perry@company.example",
                                   "start": "2026-01-15T09:00:00", "end": "2026-01-15T17:00:00"})
    assert not res["success"] and db.state_dict() == before
