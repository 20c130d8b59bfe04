"""Tests of the maintenance service (UpKeep CMMS style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.field_service import FieldService
from compoworld_gym.envs.services.hr_directory import HrDirectory
from compoworld_gym.envs.services.maintenance import Maintenance


@pytest.fixture
def svc(make_service):
    return make_service(Maintenance)


def test_people_line_up_with_field_service_and_hr(make_service, svc):
    crew = make_service(FieldService).state.technicians
    techs = {t["id"]: t for t in ok(svc, "list_technicians", {"kind": "contractor"})}
    assert sorted(techs) == sorted(crew) and techs["TEC-0003"]["name"] == crew["TEC-0003"].name
    assert techs["TEC-0007"]["active"] is False
    staff = ok(svc, "list_technicians", {"kind": "employee"})
    hr = make_service(HrDirectory).state_dict()
    assert [t["id"] for t in staff] == ["EMP-0009", "EMP-0010", "EMP-0011"]
    assert staff[1]["email"] == "grace.okafor@company.example"
    assert "grace.okafor@company.example" in str(hr)


def test_reads(svc):
    assert [loc["id"] for loc in ok(svc, "list_locations")] == ["WH-EAST", "WH-WEST", "WH-CENT", "SF-HQ", "NY-01",
                                                                 "AUS-01"]
    fcu = ok(svc, "list_equipment", {"room_id": "RM-0001"})
    assert [(e["id"], e["device_entity_id"], e["location_id"]) for e in fcu] == [("EQ-0008", "climate.redwood",
                                                                                  "SF-HQ")]
    assert [e["id"] for e in ok(svc, "list_equipment", {"device_entity_id": "climate.hudson"})] == ["EQ-0010"]
    assert [e["id"] for e in ok(svc, "list_equipment", {"status": "decommissioned"})] == ["EQ-0006"]
    assert len(ok(svc, "list_equipment", {"location_id": "WH-EAST"})) == 3
    assert ok(svc, "list_equipment", {"serial": "E0103680"})[0]["id"] == "EQ-0008"
    eq = ok(svc, "get_equipment", {"equipment_id": "EQ-0008"})
    assert (eq["open_work_orders"], eq["meters"], eq["schedules"]) == (["WO-0001"], ["MTR-0003"], ["PM-0004"])
    assert [w["id"] for w in ok(svc, "list_work_orders", {"status": "in_progress"})] == ["WO-0003", "WO-0008"]
    assert [w["id"] for w in ok(svc, "list_work_orders", {"technician_id": "TEC-0001"})] == ["WO-0001", "WO-0007"]
    assert [w["id"] for w in ok(svc, "list_work_orders", {"room_id": "RM-0001", "priority": "high"})] == ["WO-0001"]
    assert len(ok(svc, "list_work_orders", {"location_id": "WH-EAST"})) == 3
    wo = ok(svc, "get_work_order", {"work_order_id": "WO-0005"})
    assert (wo["labor_hours"], wo["total_cost"], [p["quantity"] for p in wo["parts"]]) == (2.0, 348.0, [4])
    assert [p["sku"] for p in ok(svc, "list_parts", {"low_stock": True})] == ["MP-SEAL-KIT", "MP-MTR-FCU"]
    assert [p["id"] for p in ok(svc, "list_preventive_maintenance", {"equipment_id": "EQ-0001"})] == ["PM-0001"]
    assert ok(svc, "list_meters", {"equipment_id": "EQ-0001"})[0]["readings"][-1]["value"] == 2460.0
    assert code(svc, "get_work_order", {"work_order_id": "WO-0999"}) == 404
    assert code(svc, "get_equipment", {"equipment_id": "EQ-0999"}) == 404


def test_work_order_lifecycle_and_completion_rule(svc):
    wo = ok(svc, "create_work_order", {"equipment_id": "EQ-0004", "title": "Replace drive belt", "priority": "high",
                                       "assigned_technician_id": "EMP-0011"})
    assert (wo["id"], wo["status"], wo["location_id"], wo["due_date"]) == ("WO-0010", "open", "WH-CENT", "2026-01-15")
    assert code(svc, "log_labor", {"work_order_id": "WO-0010", "technician_id": "EMP-0011", "hours": 1}) == 409
    assert ok(svc, "update_work_order_status", {"work_order_id": "WO-0010", "status": "in_progress"})["status"] == \
        "in_progress"
    msg = error(svc, "complete_work_order", {"work_order_id": "WO-0010", "completion_note": "Replaced the belt."})
    assert msg["code"] == 422 and "no labor hours" in msg["message"]
    done = ok(svc, "log_labor", {"work_order_id": "WO-0010", "technician_id": "EMP-0011", "hours": 1.5})
    assert (done["labor_hours"], done["total_cost"]) == (1.5, 63.0)
    assert code(svc, "complete_work_order", {"work_order_id": "WO-0010", "completion_note": "ok"}) == 422
    c = ok(svc, "complete_work_order", {"work_order_id": "WO-0010", "completion_note": "Replaced the B52 belt."})
    assert (c["status"], c["completed_on"]) == ("complete", "2026-01-15")
    assert code(svc, "add_parts_to_work_order", {"work_order_id": "WO-0010", "part_id": "PRT-0002",
                                                 "quantity": 1}) == 409


def test_status_moves(svc):
    assert code(svc, "update_work_order_status", {"work_order_id": "WO-0004", "status": "in_progress"}) == 422
    assert code(svc, "update_work_order_status", {"work_order_id": "WO-0003", "status": "on_hold"}) == 422
    held = ok(svc, "update_work_order_status", {"work_order_id": "WO-0003", "status": "on_hold",
                                                "reason": "Waiting for tires"})
    assert (held["status"], held["on_hold_reason"]) == ("on_hold", "Waiting for tires")
    assert code(svc, "complete_work_order", {"work_order_id": "WO-0003", "completion_note": "Serviced fully."}) == 409
    assert code(svc, "update_work_order_status", {"work_order_id": "WO-0001", "status": "open"}) == 409
    assert code(svc, "update_work_order_status", {"work_order_id": "WO-0005", "status": "open"}) == 409


def test_assign(svc):
    a = ok(svc, "assign_work_order", {"work_order_id": "WO-0004", "technician_id": "TEC-0006"})
    assert (a["assigned_technician_id"], a["assigned_technician_email"]) == ("TEC-0006", "nathan.hughes@fieldpro.example")
    assert code(svc, "assign_work_order", {"work_order_id": "WO-0004", "technician_id": "TEC-0006"}) == 409
    assert code(svc, "assign_work_order", {"work_order_id": "WO-0004", "technician_id": "TEC-0007"}) == 409
    assert code(svc, "assign_work_order", {"work_order_id": "WO-0004", "technician_id": "TEC-0999"}) == 404


def test_parts_cannot_exceed_stock(svc):
    msg = error(svc, "add_parts_to_work_order", {"work_order_id": "WO-0002", "part_id": "PRT-0004", "quantity": 3})
    assert msg["code"] == 422 and "only 2 of MP-SEAL-KIT" in msg["message"]
    wo = ok(svc, "add_parts_to_work_order", {"work_order_id": "WO-0002", "part_id": "PRT-0004", "quantity": 2})
    assert (wo["part_quantity_left"], wo["total_cost"]) == (0, 300.0)


def test_no_work_on_decommissioned_equipment(svc):
    msg = error(svc, "create_work_order", {"equipment_id": "EQ-0006", "title": "Fix wrapper"})
    assert msg["code"] == 409 and "decommissioned" in msg["message"]
    assert code(svc, "create_preventive_maintenance", {"equipment_id": "EQ-0006", "title": "Lube",
                                                       "interval_days": 30}) == 409
    assert code(svc, "set_equipment_status", {"equipment_id": "EQ-0006", "status": "operational"}) == 409
    assert code(svc, "set_equipment_status", {"equipment_id": "EQ-0001", "status": "decommissioned",
                                              "reason": "Sold"}) == 409  # WO-0003 open
    assert code(svc, "set_equipment_status", {"equipment_id": "EQ-0009", "status": "decommissioned"}) == 422
    d = ok(svc, "set_equipment_status", {"equipment_id": "EQ-0009", "status": "decommissioned",
                                         "reason": "Room converted to storage"})
    assert d["status"] == "decommissioned"
    assert ok(svc, "set_equipment_status", {"equipment_id": "EQ-0011", "status": "down", "reason": "x"})["status"] == \
        "down"


def test_repair_brings_equipment_back(svc):
    ok(svc, "update_work_order_status", {"work_order_id": "WO-0002", "status": "in_progress"})
    ok(svc, "complete_work_order", {"work_order_id": "WO-0002", "completion_note": "Resealed the cylinder."})
    assert ok(svc, "get_equipment", {"equipment_id": "EQ-0002"})["status"] == "operational"


def test_preventive_maintenance_generation(svc):
    pm = ok(svc, "create_preventive_maintenance", {"equipment_id": "EQ-0011", "title": "Elevator inspection",
                                                   "interval_days": 30, "start_date": "2026-01-20"})
    assert (pm["id"], pm["next_due_date"]) == ("PM-0006", "2026-01-20")
    run = ok(svc, "run_preventive_maintenance")
    assert [(w["id"], w["equipment_id"], w["source"], w["assigned_technician_id"]) for w in run["created"]] == [
        ("WO-0010", "EQ-0007", "pm:PM-0002", "TEC-0003"), ("WO-0011", "EQ-0008", "pm:PM-0004", "TEC-0001")]
    assert run["skipped"] == [{"schedule_id": "PM-0001", "reason": "last work order WO-0003 is still in_progress"},
                              {"schedule_id": "PM-0005", "reason": "equipment decommissioned"}]
    sched = {p["id"]: p for p in ok(svc, "list_preventive_maintenance")}
    assert sched["PM-0002"]["next_due_date"] == "2026-04-15" and sched["PM-0002"]["last_work_order_id"] == "WO-0010"
    again = ok(svc, "run_preventive_maintenance", {"as_of": "2026-01-25"})
    assert [w["source"] for w in again["created"]] == ["pm:PM-0006"]
    assert code(svc, "run_preventive_maintenance", {"as_of": "2026-03-01"}) == 422


def test_meter_readings_trigger_work_orders(svc):
    r = ok(svc, "add_meter_reading", {"meter_id": "MTR-0003", "value": 0.95})
    assert r["work_order_opened"] == "WO-0010"
    wo = ok(svc, "get_work_order", {"work_order_id": "WO-0010"})
    assert (wo["title"], wo["category"], wo["priority"], wo["room_id"]) == ("Replace clogged filter", "meter", "high",
                                                                           "RM-0001")
    assert ok(svc, "add_meter_reading", {"meter_id": "MTR-0003", "value": 1.0})["work_order_opened"] is None
    assert ok(svc, "add_meter_reading", {"meter_id": "MTR-0002", "value": 231})["work_order_opened"] is None  # WO-0006
    assert ok(svc, "add_meter_reading", {"meter_id": "MTR-0005", "value": 23.1})["work_order_opened"] == "WO-0011"
    msg = error(svc, "add_meter_reading", {"meter_id": "MTR-0001", "value": 2400})
    assert msg["code"] == 422 and "cannot go down" in msg["message"]
    assert ok(svc, "add_meter_reading", {"meter_id": "MTR-0001", "value": 2500})["work_order_opened"] is None


def test_notes_and_rollback(svc, make_service):
    n = ok(svc, "add_work_order_note", {"work_order_id": "WO-0001", "note": "Tenant reports 61F at 8am"})
    assert n["notes"] == ["Tenant reports 61F at 8am"]
    before = svc.state_dict()
    assert svc.call("complete_work_order", {"work_order_id": "WO-0003", "completion_note": "x"})["success"] is False
    assert svc.state_dict() == before
    assert make_service(Maintenance, seed=4).state_dict() == make_service(Maintenance, seed=4).state_dict()
