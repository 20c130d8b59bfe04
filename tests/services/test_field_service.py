"""Tests of the field_service service: dispatch rules, lifecycle, parts stock, rollback."""

from __future__ import annotations

import pytest
from _svc_asserts import data, failed

from compoworld_gym.envs.services._field_service_models import LABOR_RATE
from compoworld_gym.envs.services.field_service import FieldService


@pytest.fixture
def fs(make_service):
    return make_service(FieldService)


def new_job(fs, zone="north", service_type="hvac"):
    return data(fs.call("create_job", {
        "customer_name": "Lena Ortiz", "customer_phone": "+15125559001", "customer_email": "lena.ortiz@mail.example",
        "address": "4100 Burnet Rd, Austin, TX 78756", "zone": zone, "service_type": service_type,
        "description": "Furnace not igniting", "priority": "urgent"}))


def test_every_trade_and_zone_is_covered(fs):
    for skill in ("hvac", "plumbing", "electrical", "appliance"):
        for zone in ("north", "south", "east", "west", "central"):
            techs = data(fs.call("list_technicians", {"skill": skill, "zone": zone}))
            assert any(t["active"] for t in techs), (skill, zone)
    assert data(fs.call("list_technicians", {"skill": "electrical", "zone": "south"}))[-1]["id"] == "TEC-0008"


def test_list_and_get_jobs(fs):
    assert len(data(fs.call("list_jobs", {}))) == 12
    scheduled = data(fs.call("list_jobs", {"status": "scheduled"}))
    assert scheduled and all(j["technician_id"] and j["scheduled_date"] for j in scheduled)
    done = data(fs.call("list_jobs", {"status": "completed"}))
    for j in done:
        part = j["parts"][0]
        assert j["invoice_total"] == round(part["unit_price"] + 1.5 * LABOR_RATE[j["service_type"]], 2)
    j1 = data(fs.call("get_job", {"job_id": "JOB-0001"}))
    assert j1["status"] == "unscheduled" and j1["city"] == "Austin"
    assert data(fs.call("list_jobs", {"customer_email": j1["customer_email"]}))[0]["id"] == "JOB-0001"
    assert all(j["zone"] == "east" for j in data(fs.call("list_jobs", {"zone": "east"})))
    failed(fs.call("get_job", {"job_id": "JOB-0404"}), 404)


def test_dispatch_rules_and_rollback(fs):
    job = new_job(fs)  # hvac, north: TEC-0001 has hvac+north, TEC-0003 has hvac but not north.
    assert job["id"] == "JOB-0013" and job["status"] == "unscheduled"
    avail = data(fs.call("find_available_technicians", {"job_id": "JOB-0013", "date": "2026-01-21",
                                                      "time_window": "08:00-12:00"}))
    assert [t["id"] for t in avail] == ["TEC-0001"]
    before = fs.state_dict()
    failed(fs.call("dispatch_job", {"job_id": "JOB-0013", "technician_id": "TEC-0003", "scheduled_date": "2026-01-21",
                                 "time_window": "08:00-12:00"}), 422)  # zone
    failed(fs.call("dispatch_job", {"job_id": "JOB-0013", "technician_id": "TEC-0002", "scheduled_date": "2026-01-21",
                                 "time_window": "08:00-12:00"}), 422)  # skill
    failed(fs.call("dispatch_job", {"job_id": "JOB-0013", "technician_id": "TEC-0001", "scheduled_date": "2026-01-10",
                                 "time_window": "08:00-12:00"}), 422)  # past
    failed(fs.call("dispatch_job", {"job_id": "JOB-0013", "technician_id": "TEC-0001", "scheduled_date": "2026-01-21",
                                 "time_window": "09:00-10:00"}), 400)
    assert fs.state_dict() == before
    out = data(fs.call("dispatch_job", {"job_id": "JOB-0013", "technician_id": "TEC-0001",
                                      "scheduled_date": "2026-01-21", "time_window": "08:00-12:00"}))
    assert out["status"] == "scheduled" and out["technician_id"] == "TEC-0001"
    # The same technician and window is now taken.
    job2 = new_job(fs, zone="central")
    assert "already has JOB-0013" in failed(fs.call("dispatch_job", {
        "job_id": job2["id"], "technician_id": "TEC-0001", "scheduled_date": "2026-01-21",
        "time_window": "08:00-12:00"}), 409)
    sched = data(fs.call("get_technician_schedule", {"technician_id": "TEC-0001", "date": "2026-01-21"}))
    assert sched["windows"]["08:00-12:00"]["job_id"] == "JOB-0013" and sched["windows"]["12:00-16:00"] is None
    assert data(fs.call("find_available_technicians", {"job_id": job2["id"], "date": "2026-01-21",
                                                     "time_window": "08:00-12:00"})) == []
    failed(fs.call("dispatch_job", {"job_id": job2["id"], "technician_id": "TEC-0007", "scheduled_date": "2026-01-21",
                                 "time_window": "12:00-16:00"}), 409)  # TEC-0007 is off duty


def test_reschedule_start_parts_complete(fs):
    new_job(fs)
    data(fs.call("dispatch_job", {"job_id": "JOB-0013", "technician_id": "TEC-0001", "scheduled_date": "2026-01-21",
                                "time_window": "08:00-12:00"}))
    failed(fs.call("start_job", {"job_id": "JOB-0013"}), 422)  # not today
    moved = data(fs.call("reschedule_job", {"job_id": "JOB-0013", "scheduled_date": "2026-01-15",
                                          "time_window": "16:00-20:00", "reason": "Customer asked for today"}))
    assert moved["scheduled_date"] == "2026-01-15" and "Customer asked for today" in moved["notes"][-1]
    failed(fs.call("reschedule_job", {"job_id": "JOB-0001", "scheduled_date": "2026-01-20",
                                   "time_window": "08:00-12:00", "reason": "n/a"}), 409)
    failed(fs.call("complete_job", {"job_id": "JOB-0013", "labor_hours": 1, "resolution": "done"}), 409)
    assert data(fs.call("start_job", {"job_id": "JOB-0013"}))["status"] == "in_progress"
    fs.state.parts["PRT-HV-001"].stock = 4
    data(fs.call("add_job_parts", {"job_id": "JOB-0013", "sku": "PRT-HV-001", "quantity": 1}))
    assert fs.state.parts["PRT-HV-001"].stock == 3
    before = fs.state_dict()
    assert "in stock" in failed(fs.call("add_job_parts", {"job_id": "JOB-0013", "sku": "PRT-HV-003",
                                                       "quantity": fs.state.parts["PRT-HV-003"].stock + 1}), 409)
    failed(fs.call("add_job_parts", {"job_id": "JOB-0013", "sku": "PRT-XX-000", "quantity": 1}), 404)
    assert fs.state_dict() == before
    done = data(fs.call("complete_job", {"job_id": "JOB-0013", "labor_hours": 2, "resolution": "Replaced igniter"}))
    assert done["status"] == "completed" and done["invoice_total"] == 48.5 + 2 * 145.0
    failed(fs.call("cancel_job", {"job_id": "JOB-0013", "reason": "too late"}), 409)


def test_cancel_returns_parts_and_search_parts(fs):
    hits = data(fs.call("search_parts", {"query": "breaker"}))
    assert [p["sku"] for p in hits] == ["PRT-EL-002"] and hits[0]["unit_price"] == 31.5
    assert len(data(fs.call("search_parts", {"category": "plumbing"}))) == 3
    fs.state.parts["PRT-EL-001"].stock = 5
    job = new_job(fs, zone="west", service_type="electrical")
    data(fs.call("add_job_parts", {"job_id": job["id"], "sku": "PRT-EL-001", "quantity": 2}))
    assert fs.state.parts["PRT-EL-001"].stock == 3
    out = data(fs.call("cancel_job", {"job_id": job["id"], "reason": "Customer fixed it"}))
    assert out["status"] == "cancelled" and fs.state.parts["PRT-EL-001"].stock == 5
    failed(fs.call("create_job", {"customer_name": "A"}), 400)
