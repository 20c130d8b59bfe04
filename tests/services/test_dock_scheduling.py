"""Tests of the dock scheduling service (Opendock API style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.dock_scheduling import DockScheduling
from compoworld_gym.envs.services.warehouse import WarehouseWms

BOOK = {"dock_id": "DOOR-0002", "load_type_id": "LT-0002", "start": "2026-01-19T09:00:00", "ref_number": "PO-0042",
        "carrier_name": "Werner Enterprises", "carrier_email": "appts@werner.example"}


@pytest.fixture
def svc(make_service):
    return make_service(DockScheduling)


def test_seed_lines_up_with_the_wms(svc, make_service):
    wms = make_service(WarehouseWms)
    assert [w["name"] for w in ok(svc, "list_warehouses")] == [w.name for w in wms.state.warehouses.values()]
    ib = wms.state.inbound_shipments["IB-0003"]
    rows = ok(svc, "search_appointments", {"search": "IB-0003"})
    assert [(a["id"], a["ref_number"], a["warehouse_id"]) for a in rows] == [
        ("APT-0003", ib.purchase_order_id, ib.warehouse_id)]


def test_reads(svc):
    w = ok(svc, "get_warehouse", {"warehouse_id": "WH-EAST"})
    assert (w["min_lead_time_hours"], w["schedule"]["sunday"], w["dock_ids"]) == (
        24, None, ["DOOR-0001", "DOOR-0002", "DOOR-0003"])
    assert code(svc, "get_warehouse", {"warehouse_id": "WH-NORTH"}) == 404
    assert [d["id"] for d in ok(svc, "list_docks", {"warehouse_id": "WH-CENT", "is_active": False})] == ["DOOR-0008"]
    assert [d["id"] for d in ok(svc, "list_docks", {"load_type_id": "LT-0004"})] == [
        "DOOR-0003", "DOOR-0006", "DOOR-0009"]
    assert ok(svc, "get_dock", {"dock_id": "DOOR-0006"})["name"] == "Door 3"
    assert code(svc, "get_dock", {"dock_id": "DOOR-0099"}) == 404
    assert [t["id"] for t in ok(svc, "list_load_types", {"direction": "Outbound"})] == ["LT-0004"]
    assert [a["id"] for a in ok(svc, "search_appointments", {"ref_number": "po-0005"})] == ["APT-0006", "APT-0001"]
    assert [a["id"] for a in ok(svc, "search_appointments", {"search": "FB-0002"})] == ["APT-0002"]
    assert [a["id"] for a in ok(svc, "search_appointments", {"date": "2026-01-15"})] == ["APT-0002", "APT-0007"]
    assert [a["id"] for a in ok(svc, "search_appointments", {"status": "Cancelled"})] == ["APT-0005"]
    assert [a["id"] for a in ok(svc, "search_appointments", {"carrier_name": "xpo logistics"})] == [
        "APT-0006", "APT-0005"]
    a = ok(svc, "get_appointment", {"appointment_id": "APT-0005"})
    assert (a["status"], a["cancel_reason"]) == ("Cancelled", "Purchase order canceled by the vendor.")
    assert code(svc, "get_appointment", {"appointment_id": "APT-0999"}) == 404


def test_availability(svc):
    av = ok(svc, "get_dock_availability", {"warehouse_id": "WH-EAST", "load_type_id": "LT-0001",
                                           "date": "2026-01-19"})
    door1 = av["docks"][0]
    assert door1["dock_id"] == "DOOR-0001" and "10:00" not in door1["start_times"] and "11:00" not in \
        door1["start_times"] and door1["start_times"][:4] == ["06:00", "06:30", "07:00", "07:30"]
    assert "12:00" in door1["start_times"] and door1["start_times"][-1] == "16:00"
    today = ok(svc, "get_dock_availability", {"warehouse_id": "WH-EAST", "load_type_id": "LT-0002",
                                              "date": "2026-01-15"})
    assert all(d["start_times"] == [] for d in today["docks"])  # 24 hours' notice
    assert ok(svc, "get_dock_availability", {"warehouse_id": "WH-EAST", "load_type_id": "LT-0001",
                                             "date": "2026-01-18"})["docks"] == []  # Sunday
    assert code(svc, "get_dock_availability", {"warehouse_id": "WH-EAST", "load_type_id": "LT-0099",
                                               "date": "2026-01-19"}) == 404


def test_create_rules(svc):
    a = ok(svc, "create_appointment", {**BOOK, "custom_fields": {"Inbound Shipment": "IB-0042"},
                                       "purchase_order_id": "PO-0042"})
    assert (a["id"], a["end"], a["status"], a["dock_name"]) == ("APT-0009", "2026-01-19T10:00:00", "Scheduled",
                                                                "Door 2")
    assert code(svc, "create_appointment", {**BOOK, "ref_number": "PO-0043", "start": "2026-01-19T09:30:00"}) == 409
    assert code(svc, "create_appointment", {**BOOK, "start": "2026-01-19T11:00:00"}) == 409  # same reference
    msg = error(svc, "create_appointment", {**BOOK, "ref_number": "PO-0044", "start": "2026-01-19T17:30:00"})
    assert msg["code"] == 422 and "06:00-18:00" in msg["message"]
    assert code(svc, "create_appointment", {**BOOK, "ref_number": "PO-0044", "start": "2026-01-18T09:00:00"}) == 422
    msg = error(svc, "create_appointment", {**BOOK, "ref_number": "PO-0044", "start": "2026-01-16T08:00:00"})
    assert msg["code"] == 422 and "24 hours' notice" in msg["message"]
    assert code(svc, "create_appointment", {**BOOK, "ref_number": "PO-0044", "start": "2026-03-02T09:00:00"}) == 422
    assert code(svc, "create_appointment", {**BOOK, "dock_id": "DOOR-0003", "load_type_id": "LT-0001",
                                            "ref_number": "PO-0044"}) == 422  # door takes no containers
    assert code(svc, "create_appointment", {**BOOK, "dock_id": "DOOR-0008", "ref_number": "PO-0044"}) == 409
    req = ok(svc, "create_appointment", {**BOOK, "dock_id": "DOOR-0004", "ref_number": "PO-0045",
                                         "start": "2026-01-16T07:00:00", "status": "Requested"})
    assert req["status"] == "Requested" and "scheduled" not in req["status_timeline"]  # WH-WEST: 12 hours


def test_status_flow(svc):
    assert ok(svc, "update_appointment_status", {"appointment_id": "APT-0003", "status": "Scheduled"})[
        "status"] == "Scheduled"
    msg = error(svc, "update_appointment_status", {"appointment_id": "APT-0003", "status": "Arrived"})
    assert msg["code"] == 422 and "on the day" in msg["message"]
    arrived = ok(svc, "update_appointment_status", {"appointment_id": "APT-0007", "status": "Arrived"})
    assert arrived["status_timeline"]["arrived"] == "2026-01-15T09:01:00"
    assert code(svc, "update_appointment_status", {"appointment_id": "APT-0007", "status": "Completed"}) == 409
    assert code(svc, "cancel_appointment", {"appointment_id": "APT-0007", "reason": "Carrier late"}) == 409
    assert ok(svc, "update_appointment_status", {"appointment_id": "APT-0007", "status": "InProgress"})
    assert ok(svc, "update_appointment_status", {"appointment_id": "APT-0002", "status": "Completed"})[
        "status"] == "Completed"
    assert code(svc, "update_appointment_status", {"appointment_id": "APT-0004", "status": "Scheduled"}) == 409
    assert code(svc, "update_appointment_status", {"appointment_id": "APT-0008", "status": "NoShow"}) == 422
    assert code(svc, "update_appointment_status", {"appointment_id": "APT-0008", "status": "Cancelled"}) == 400


def test_reschedule_cancel_update(svc):
    r = ok(svc, "reschedule_appointment", {"appointment_id": "APT-0001", "start": "2026-01-20T12:00:00",
                                           "dock_id": "DOOR-0002"})
    assert (r["start"], r["end"], r["dock_name"]) == ("2026-01-20T12:00:00", "2026-01-20T14:00:00", "Door 2")
    assert code(svc, "reschedule_appointment", {"appointment_id": "APT-0001", "start": "2026-01-20T12:00:00",
                                                "dock_id": "DOOR-0004"}) == 422  # another warehouse
    assert code(svc, "reschedule_appointment", {"appointment_id": "APT-0004", "start": "2026-01-20T12:00:00"}) == 409
    assert code(svc, "reschedule_appointment", {"appointment_id": "APT-0008", "start": "2026-01-20T13:00:00",
                                                "dock_id": "DOOR-0002"}) == 422  # door takes no pickups
    assert code(svc, "cancel_appointment", {"appointment_id": "APT-0003", "reason": ""}) == 400
    c = ok(svc, "cancel_appointment", {"appointment_id": "APT-0003", "reason": "PO-0009 pushed to February"})
    assert (c["status"], c["cancel_reason"]) == ("Cancelled", "PO-0009 pushed to February")
    assert code(svc, "cancel_appointment", {"appointment_id": "APT-0003", "reason": "again"}) == 409
    u = ok(svc, "update_appointment", {"appointment_id": "APT-0001", "notes": "Call ahead",
                                       "custom_fields": {"Trailer Number": "TRL00001", "Seal": "S-77"}})
    assert u["notes"] == "Call ahead" and {"label": "Seal", "value": "S-77"} in u["custom_fields"]
    assert code(svc, "update_appointment", {"appointment_id": "APT-0001"}) == 400
    assert code(svc, "update_appointment", {"appointment_id": "APT-0008", "ref_number": "PO-0005"}) == 409
    assert code(svc, "update_appointment", {"appointment_id": "APT-0004", "notes": "x"}) == 409


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("create_appointment", {**BOOK, "start": "2026-01-18T09:00:00"})["success"] is False
    assert svc.state_dict() == before
    assert make_service(DockScheduling, seed=5).state_dict() == make_service(DockScheduling, seed=5).state_dict()
