"""Tests of the fleet service (Samsara-style vehicles, drivers, routes and stops)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._fleet_seed import vin
from compoworld_gym.envs.services.fleet import Fleet

TOMORROW = "2026-01-16"


@pytest.fixture
def svc(make_service):
    return make_service(Fleet)


def test_seeded_fleet(svc):
    vehicles = ok(svc, "list_vehicles")
    assert len(vehicles) == 8 and all(len(v["vin"]) == 17 for v in vehicles)
    assert [v["id"] for v in ok(svc, "list_vehicles", {"status": "out_of_service"})] == ["VEH-0004", "VEH-0007"]
    assert ok(svc, "get_vehicle", {"vehicle_id": "VEH-0004"})["status_reason"] == "Brake pads below minimum at DVIR"
    assert [d["id"] for d in ok(svc, "list_drivers", {"status": "deactivated"})] == ["DRV-0010"]
    lapsed = ok(svc, "get_driver", {"driver_id": "DRV-0008"})
    assert lapsed["license_expires"] == "2026-01-06" and lapsed["email"].endswith("@company.example")
    assert code(svc, "get_vehicle", {"vehicle_id": "VEH-0999"}) == 404
    assert code(svc, "get_driver", {"driver_id": "DRV-0999"}) == 404


def test_vin_check_digit():
    weights = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)
    values = {**{str(d): d for d in range(10)}, **dict(zip("ABCDEFGH", range(1, 9))),
              **dict(zip("JKLMN", range(1, 6))), "P": 7, "R": 9, **dict(zip("STUVWXYZ", range(2, 10)))}
    import random
    for seed in range(20):
        v = vin(random.Random(seed), 2021)
        total = sum(values[c] * w for c, w in zip(v, weights)) % 11
        assert v[8] == ("X" if total == 10 else str(total)) and v[9] == "M"  # 2021 model-year code


def test_routes_and_stops_chain_with_the_order_book(svc):
    routes = ok(svc, "list_routes", {"scheduled_date": TOMORROW})
    assert [(r["id"], r["status"], r["stop_count"]) for r in routes] == [("RTE-0004", "planned", 4),
                                                                          ("RTE-0005", "planned", 3)]
    stop = ok(svc, "list_route_stops", {"tracking_number": "1ZCW84100003"})
    assert [(s["id"], s["order_id"], s["address"], s["route_id"], s["route_status"]) for s in stop] == [
        ("STP-0011", "ORD-0003", "805 Cedar Boulevard", "RTE-0004", "planned")]
    assert [s["id"] for s in ok(svc, "list_route_stops", {"order_id": "ORD-0004"})] == ["STP-0008"]
    assert [s["id"] for s in ok(svc, "list_route_stops", {"address": "pine road"})] == ["STP-0008"]
    route = ok(svc, "get_route", {"route_id": "RTE-0002"})
    assert [s["status"] for s in route["stops"]] == ["completed", "arrived", "scheduled", "scheduled"]
    assert code(svc, "get_route", {"route_id": "RTE-0099"}) == 404


def test_hos_clock(svc):
    clock = ok(svc, "get_driver_hos_clock", {"driver_id": "DRV-0009"})
    assert (clock["hours_driven"], clock["drive_remaining_hours"], clock["cycle_remaining_hours"]) == (9.5, 1.5, 8.0)
    busy = ok(svc, "get_driver_hos_clock", {"driver_id": "DRV-0006"})  # on RTE-0003 today (3.0 h)
    assert (busy["scheduled_drive_hours"], busy["drive_remaining_hours"]) == (3.0, 6.5)
    later = ok(svc, "get_driver_hos_clock", {"driver_id": "DRV-0009", "date": TOMORROW})
    assert (later["hours_driven"], later["drive_remaining_hours"]) == (0.0, 11.0)


def test_dispatch_rules(svc):
    base = {"route_id": "RTE-0004", "driver_id": "DRV-0001", "vehicle_id": "VEH-0005"}
    for bad, status in ((dict(vehicle_id="VEH-0004"), 422), (dict(driver_id="DRV-0010"), 422),
                        (dict(driver_id="DRV-0008"), 422), (dict(vehicle_id="VEH-0099"), 404),
                        (dict(route_id="RTE-0001"), 409), (dict(route_id="RTE-0007"), 409)):
        assert code(svc, "dispatch_route", {**base, **bad}) == status, bad
    assert code(svc, "dispatch_route", {**base, "route_id": "RTE-0002"}) == 409  # in progress
    r = ok(svc, "dispatch_route", base)
    assert (r["status"], r["driver_id"], r["vehicle_id"]) == ("dispatched", "DRV-0001", "VEH-0005")
    assert code(svc, "dispatch_route", {"route_id": "RTE-0005", "driver_id": "DRV-0002", "vehicle_id": "VEH-0005"}) == 409
    again = ok(svc, "dispatch_route", {**base, "driver_id": "DRV-0002"})  # re-dispatch swaps the driver
    assert again["driver_id"] == "DRV-0002"


def test_eleven_hour_limit(svc):
    msg = error(svc, "dispatch_route", {"route_id": "RTE-0003", "driver_id": "DRV-0009", "vehicle_id": "VEH-0003"})
    assert msg["code"] == 422 and "1.5 driving hours left" in msg["message"]


def test_seventy_hour_cycle(svc):
    long = ok(svc, "create_route", {"scheduled_date": TOMORROW, "name": "Linehaul", "depot": "Denver Stapleton depot",
                                    "planned_drive_hours": 9})
    ok(svc, "add_route_stop", {"route_id": long["id"], "address": "9 Birch Lane", "city": "Denver",
                               "postal_code": "80202", "recipient_name": "Liam Patel"})
    msg = error(svc, "dispatch_route", {"route_id": long["id"], "driver_id": "DRV-0009", "vehicle_id": "VEH-0006"})
    assert msg["code"] == 422 and "8.0 hours left in the 70-hour cycle" in msg["message"]
    assert ok(svc, "dispatch_route", {"route_id": long["id"], "driver_id": "DRV-0003",
                                      "vehicle_id": "VEH-0006"})["status"] == "dispatched"


def test_empty_and_past_routes(svc):
    new = ok(svc, "create_route", {"scheduled_date": TOMORROW, "name": "Seattle overflow", "depot": "Seattle SoDo depot"})
    assert (new["id"], new["status"], new["stops"]) == ("RTE-0008", "planned", [])
    assert code(svc, "dispatch_route", {"route_id": new["id"], "driver_id": "DRV-0001", "vehicle_id": "VEH-0006"}) == 422
    assert code(svc, "create_route", {"scheduled_date": "2026-01-10", "name": "Old", "depot": "x"}) == 422


def test_add_and_remove_stops(svc):
    stop = ok(svc, "add_route_stop", {"route_id": "RTE-0005", "address": "61 Elm Court", "city": "Chicago",
                                      "postal_code": "60601", "recipient_name": "Lucas Fernandez",
                                      "tracking_number": "1Z999AA10123456784", "order_id": "ORD-0008"})
    assert (stop["id"], stop["sequence"], stop["route_id"]) == ("STP-0023", 4, "RTE-0005")
    dup = error(svc, "add_route_stop", {"route_id": "RTE-0006", "address": "1 Main Street", "city": "Portland",
                                        "postal_code": "97205", "recipient_name": "X Y",
                                        "tracking_number": "1ZCW84100003"})
    assert dup["code"] == 409 and "RTE-0004" in dup["message"]
    assert code(svc, "add_route_stop", {"route_id": "RTE-0001", "address": "1 Main Street", "city": "Denver",
                                        "postal_code": "80202", "recipient_name": "X Y"}) == 409
    route = ok(svc, "remove_route_stop", {"route_id": "RTE-0005", "stop_id": "STP-0015"})
    assert [(s["id"], s["sequence"]) for s in route["stops"]] == [("STP-0016", 1), ("STP-0017", 2), ("STP-0023", 3)]
    assert code(svc, "remove_route_stop", {"route_id": "RTE-0005", "stop_id": "STP-0001"}) == 404


def test_stops_are_served_in_order_and_complete_the_route(svc):
    r = "RTE-0003"
    out_of_order = error(svc, "mark_stop_arrived", {"route_id": r, "stop_id": "STP-0009"})
    assert out_of_order["code"] == 422 and "STP-0008" in out_of_order["message"]
    assert code(svc, "complete_stop", {"route_id": r, "stop_id": "STP-0008"}) == 409
    arrived = ok(svc, "mark_stop_arrived", {"route_id": r, "stop_id": "STP-0008"})
    assert (arrived["status"], arrived["route_status"], arrived["arrived_at"]) == ("arrived", "in_progress",
                                                                                 "2026-01-15T09:00:00")
    done = ok(svc, "complete_stop", {"route_id": r, "stop_id": "STP-0008", "signed_by": "Emma Wilson",
                                     "note": "Left with concierge"})
    assert (done["status"], done["signed_by"], done["notes"]) == ("completed", "Emma Wilson", ["Left with concierge"])
    ok(svc, "skip_stop", {"route_id": r, "stop_id": "STP-0009", "reason": "Business closed"})
    ok(svc, "mark_stop_arrived", {"route_id": r, "stop_id": "STP-0010"})
    last = ok(svc, "complete_stop", {"route_id": r, "stop_id": "STP-0010"})
    assert last["route_status"] == "completed"
    driver = ok(svc, "get_driver", {"driver_id": "DRV-0006"})
    assert (driver["hours_driven_today"], driver["cycle_hours"]) == (4.5, 27.6)
    assert code(svc, "mark_stop_arrived", {"route_id": r, "stop_id": "STP-0010"}) == 409


def test_planned_route_cannot_be_served(svc):
    assert code(svc, "mark_stop_arrived", {"route_id": "RTE-0004", "stop_id": "STP-0011"}) == 409


def test_skip_note_cancel(svc):
    s = ok(svc, "skip_stop", {"route_id": "RTE-0004", "stop_id": "STP-0011", "reason": "Customer asked to hold"})
    assert (s["status"], s["skip_reason"]) == ("skipped", "Customer asked to hold")
    assert code(svc, "skip_stop", {"route_id": "RTE-0004", "stop_id": "STP-0011", "reason": "again"}) == 409
    assert code(svc, "skip_stop", {"route_id": "RTE-0004", "stop_id": "STP-0011", "reason": "x"}) == 400
    noted = ok(svc, "add_route_note", {"route_id": "RTE-0004", "note": "Gate code 4417"})
    assert noted["notes"] == ["Gate code 4417"]
    assert code(svc, "add_route_note", {"route_id": "RTE-0007", "note": "x"}) == 409
    c = ok(svc, "cancel_route", {"route_id": "RTE-0005", "reason": "Snow storm"})
    assert (c["status"], c["cancel_reason"]) == ("cancelled", "Snow storm")
    stops = ok(svc, "get_route", {"route_id": "RTE-0005"})["stops"]
    assert {s["status"] for s in stops} == {"skipped"} and stops[0]["skip_reason"] == "Route cancelled: Snow storm"
    assert code(svc, "cancel_route", {"route_id": "RTE-0002", "reason": "late"}) == 409


def test_vehicle_status(svc):
    assert code(svc, "update_vehicle_status", {"vehicle_id": "VEH-0002", "status": "out_of_service",
                                               "reason": "Flat tyre"}) == 409  # on RTE-0002, in progress
    assert code(svc, "update_vehicle_status", {"vehicle_id": "VEH-0005", "status": "out_of_service"}) == 422
    down = ok(svc, "update_vehicle_status", {"vehicle_id": "VEH-0005", "status": "out_of_service", "reason": "Recall"})
    assert (down["status"], down["status_reason"]) == ("out_of_service", "Recall")
    back = ok(svc, "update_vehicle_status", {"vehicle_id": "VEH-0004", "status": "in_service"})
    assert (back["status"], back["status_reason"]) == ("in_service", None)


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("dispatch_route", {"route_id": "RTE-0004", "driver_id": "DRV-0008",
                                       "vehicle_id": "VEH-0005"})["success"] is False
    assert svc.call("complete_stop", {"route_id": "RTE-0003", "stop_id": "STP-0008"})["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(Fleet, seed=3).state_dict() == make_service(Fleet, seed=3).state_dict()
    assert make_service(Fleet, seed=3).state_dict() != make_service(Fleet, seed=4).state_dict()
