"""Tests of the vehicle_registration service (DMV business-partner registration)."""

from __future__ import annotations

import random

import orjson
import pytest
from _svc_asserts import code, error, ok
from faker import Faker

from compoworld_gym.catalog import get_service
from compoworld_gym.envs.services._vehicle_registration_rules import check_digit
from compoworld_gym.envs.services.vehicle_registration import VehicleRegistration
from compoworld_gym.generation.config import TODAY
from compoworld_gym.generation.context import Ctx
from compoworld_gym.generation.hooks.vehicle_registration import UNIT_REGISTRATION

VAN_1, VAN_3, VAN_6 = "1ZS2LN0L6L97MZ95T", "RJ8ACZLX4N1YHSELF", "3DA47UJ97KXNE2Z97"
CIVIC = "T63R9LJC4N1ZP8VYZ"
NEW_VIN = "1M8GDM9AXKP042788"  # the textbook VIN: check digit X, model year code K (2019)


@pytest.fixture
def svc(make_service):
    return make_service(VehicleRegistration)


def _register(**over):
    args = {"vin": NEW_VIN, "make": "Honda", "model": "Accord", "year": 2019, "unladen_weight_lbs": 3200,
            "market_value": 12000, "odometer": 61000, "registered_owner": "Olivia Martinez",
            "owner_email": "olivia.martinez@gmail.com", "mailing_address": "418 Maple Avenue", "city": "Riverton"}
    return args | over


def test_check_digit_and_validate_vin(svc):
    assert check_digit(NEW_VIN) == "X"
    assert ok(svc, "validate_vin", {"vin": NEW_VIN}) == {"vin": NEW_VIN, "valid": True, "check_digit": "X",
                                                         "model_year_code": "K", "on_file": False}
    bad = ok(svc, "validate_vin", {"vin": VAN_1[:8] + "2" + VAN_1[9:]})
    assert (bad["valid"], bad["check_digit"], bad["on_file"]) == (False, "6", False)
    assert ok(svc, "validate_vin", {"vin": VAN_1})["on_file"] is True
    assert code(svc, "validate_vin", {"vin": "1M8GDM9AXKP04278O"}) == 400  # letter O is never in a VIN
    sched = ok(svc, "list_fee_schedule")
    assert (sched["registration_fee"], sched["vehicle_license_fee_rate"], sched["use_tax_rate"]) == (70.0, 0.0065,
                                                                                                     0.0725)


def test_vehicle_and_searches(svc):
    v = ok(svc, "get_vehicle", {"vin": VAN_3})
    assert (v["make"], v["model"], v["year"], v["lienholder"], v["lien_status"], v["registrations"]) == \
        ("Isuzu", "NPR-HD", 2022, "Ally Financial", "active", ["REG-0003"])
    assert code(svc, "get_vehicle", {"vin": NEW_VIN}) == 404
    assert [r["id"] for r in ok(svc, "search_registrations", {"unit_number": "VEH-0002"})] == ["REG-0002"]
    assert len(ok(svc, "search_registrations", {"owner_company": "acme inc."})) == 8
    assert [r["id"] for r in ok(svc, "search_registrations", {"status": "cancelled"})] == ["REG-0013"]
    assert [r["id"] for r in ok(svc, "search_registrations", {"plate": "9BCJ166"})] == ["REG-0010"]
    assert [r["id"] for r in ok(svc, "search_registrations", {"owner_email": "Sara.Dominguez@hotmail.com"})] == \
        ["REG-0009"]
    reg = ok(svc, "get_registration", {"registration_id": "REG-0004"})
    assert (reg["vehicle"], reg["expired"], reg["renewal_due"], reg["owner_email"]) == \
        ("2023 Ford Transit 250", True, 380.76, "grace.okafor@company.example")
    assert code(svc, "get_registration", {"registration_id": "REG-0999"}) == 404
    assert [h["id"] for h in ok(svc, "list_holds", {"status": "open"})] == ["HLD-0001", "HLD-0002"]
    assert [h["status"] for h in ok(svc, "list_holds", {"registration_id": "REG-0011"})] == ["cleared"]


def test_fees_by_class_weight_and_late_penalty(svc):
    q = ok(svc, "get_renewal_fees", {"registration_id": "REG-0004"})
    assert [(f["code"], f["amount"]) for f in q["fees"]] == [("REG", 70.0), ("CHP", 32.0), ("VLF", 178.87),
                                                            ("WGT", 50.0), ("SMOG", 20.0), ("LATE", 29.89)]
    assert (q["total_due"], q["new_expiration"], q["renewable"]) == (380.76, "2027-01-07", True)
    ev = ok(svc, "get_renewal_fees", {"registration_id": "REG-0011"})
    assert [f["code"] for f in ev["fees"]] == ["REG", "CHP", "VLF", "RIF"]
    truck = ok(svc, "get_renewal_fees", {"registration_id": "REG-0003"})
    assert next(f["amount"] for f in truck["fees"] if f["code"] == "WGT") == 175.0
    assert code(svc, "renew_registration", {"registration_id": "REG-0004", "amount": 350.87}) == 422
    ren = ok(svc, "renew_registration", {"registration_id": "REG-0004", "amount": 380.76, "reference": "PO 7731"})
    assert (ren["id"], ren["previous_expiration"], ren["new_expiration"], ren["total"]) == \
        ("RNW-0001", "2026-01-07", "2027-01-07", 380.76)
    assert ok(svc, "get_registration", {"registration_id": "REG-0004"})["expired"] is False


def test_no_renewal_with_open_hold(svc):
    msg = error(svc, "renew_registration", {"registration_id": "REG-0002", "amount": 384.16})
    assert msg["code"] == 409 and "HLD-0001" in msg["message"]
    assert code(svc, "pay_hold", {"hold_id": "HLD-0001", "amount": 10}) == 422
    h = ok(svc, "pay_hold", {"hold_id": "HLD-0001", "amount": 18.5, "reference": "case 12"})
    assert (h["status"], h["cleared_on"], h["reference"]) == ("cleared", "2026-01-15", "case 12")
    assert code(svc, "pay_hold", {"hold_id": "HLD-0001", "amount": 18.5}) == 409
    assert code(svc, "pay_hold", {"hold_id": "HLD-0999", "amount": 18.5}) == 404
    assert ok(svc, "renew_registration", {"registration_id": "REG-0002", "amount": 384.16})["new_expiration"] == \
        "2027-01-27"


def test_smog_required_for_older_vehicles(svc):
    q = ok(svc, "get_renewal_fees", {"registration_id": "REG-0006"})
    assert (q["smog_required"], q["smog_certified"], q["blocked_by"], q["total_due"]) == (True, False, "smog", 281.27)
    assert code(svc, "renew_registration", {"registration_id": "REG-0006", "amount": 281.27}) == 422
    smog = {"vin": VAN_6, "certificate_number": "SC1234567", "station": "STAR Smog Center"}
    assert code(svc, "record_smog_certificate", smog | {"result": "passed", "odometer": 50000}) == 422  # rollback
    ok(svc, "record_smog_certificate", smog | {"result": "failed", "odometer": 58900})
    assert code(svc, "record_smog_certificate", smog | {"result": "passed", "odometer": 58950}) == 409  # same number
    assert code(svc, "renew_registration", {"registration_id": "REG-0006", "amount": 281.27}) == 422
    cert = ok(svc, "record_smog_certificate", smog | {"certificate_number": "SC7654321", "result": "passed",
                                                      "odometer": 58950})
    assert (cert["tested_on"], cert["result"]) == ("2026-01-15", "passed")
    assert ok(svc, "renew_registration", {"registration_id": "REG-0006", "amount": 281.27})["total"] == 281.27
    assert ok(svc, "get_renewal_fees", {"registration_id": "REG-0009"})["renewable"] is True  # Camry: certified


def test_renewal_window_and_cancelled(svc):
    early = error(svc, "renew_registration", {"registration_id": "REG-0005", "amount": 391.79})
    assert early["code"] == 422 and "renewal opens on 2026-05-05" in early["message"]
    assert code(svc, "renew_registration", {"registration_id": "REG-0013", "amount": 130.86}) == 409
    c = ok(svc, "cancel_registration", {"registration_id": "REG-0011", "reason": "Vehicle totaled"})
    assert (c["status"], c["cancel_reason"]) == ("cancelled", "Vehicle totaled")
    assert code(svc, "cancel_registration", {"registration_id": "REG-0011", "reason": "again"}) == 409
    n = ok(svc, "add_registration_note", {"registration_id": "REG-0001", "note": "Fleet audit done"})
    assert n["notes"] == ["Fleet audit done"]


def test_transfer_needs_released_lien(svc):
    sale = {"registration_id": "REG-0010", "seller_name": "Stefanie Morse", "buyer_name": "Ravi Patel",
            "buyer_email": "ravi.patel@gmail.com", "buyer_address": "77 Oak Street", "buyer_city": "Riverton",
            "sale_price": 18000, "odometer": 45000, "amount": 1320}
    lien = error(svc, "transfer_title", sale)
    assert lien["code"] == 409 and "Golden 1 Credit Union" in lien["message"]
    assert code(svc, "record_lien_release", {"vin": CIVIC, "lienholder": "Chase Auto"}) == 422
    rel = ok(svc, "record_lien_release", {"vin": CIVIC, "lienholder": "golden 1 credit union"})
    assert (rel["lien_status"], rel["lien_released_on"]) == ("released", "2026-01-15")
    assert code(svc, "record_lien_release", {"vin": CIVIC, "lienholder": "Golden 1 Credit Union"}) == 409
    assert code(svc, "transfer_title", sale | {"seller_name": "Someone Else"}) == 422
    assert code(svc, "transfer_title", sale | {"odometer": 40000}) == 422
    assert code(svc, "transfer_title", sale | {"sale_date": "2026-02-01"}) == 422
    assert error(svc, "transfer_title", sale | {"amount": 1305})["message"].endswith("= 1320.00.")
    t = ok(svc, "transfer_title", sale)
    assert (t["id"], t["use_tax"], t["total"], t["new_title_number"], t["seller"]) == \
        ("TRF-0001", 1305.0, 1320.0, "0000001", "Stefanie Morse")
    reg = ok(svc, "get_registration", {"registration_id": "REG-0010"})
    assert (reg["registered_owner"], reg["owner_email"], reg["plate"]) == ("Ravi Patel", "ravi.patel@gmail.com",
                                                                          "9BCJ166")
    v = ok(svc, "get_vehicle", {"vin": CIVIC})
    assert (v["title_number"], v["lien_status"], v["odometer"]) == ("0000001", "none", 45000)


def test_register_vehicle(svc):
    reg = ok(svc, "register_vehicle", _register())
    assert (reg["id"], reg["plate"], reg["expires_on"], reg["vehicle"]) == ("REG-0014", "9AAB101", "2027-01-15",
                                                                           "2019 Honda Accord")
    assert [(f["code"], f["amount"]) for f in reg["fees_paid"]] == [("REG", 70.0), ("CHP", 32.0), ("VLF", 78.0)]
    assert code(svc, "register_vehicle", _register()) == 409  # already actively registered
    assert error(svc, "register_vehicle", _register(vin=VAN_1, year=2020))["code"] == 409
    wrong_year = error(svc, "register_vehicle", _register(year=2020))
    assert wrong_year["code"] == 422
    bad = error(svc, "register_vehicle", _register(vin="1M8GDM9A1KP042788"))
    assert bad["code"] == 422 and "check-digit" in bad["message"]


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("renew_registration", {"registration_id": "REG-0002", "amount": 384.16})["success"] is False
    assert svc.call("register_vehicle", _register(year=2021))["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    one, two = make_service(VehicleRegistration, seed=5), make_service(VehicleRegistration, seed=5)
    assert one.state_dict() == two.state_dict()
    assert all(r.vin[8] == check_digit(r.vin) for r in one.state.registrations.values())


def test_hook_lines_fleet_vans_up_with_the_fleet_service():
    states = {name: orjson.loads(orjson.dumps(get_service(name).seeded(1, TODAY).state_dict()))
              for name in ("fleet", "vehicle_registration")}
    ctx = Ctx(random.Random(7), Faker(), TODAY, states)
    unit = UNIT_REGISTRATION.alloc(ctx)
    assert unit == "VEH-0009"  # the fleet's next van
    rid = UNIT_REGISTRATION.plant(ctx, unit, {"money": 512.34, "date": "2026-02-20"}, False)
    reg, van = states["vehicle_registration"]["registrations"][rid], states["fleet"]["vehicles"][unit]
    assert (reg["vin"], reg["plate"], reg["unit_number"]) == (van["vin"], van["license_plate"], unit)
    seeded = states["vehicle_registration"]["registrations"]["REG-0001"]
    assert (seeded["vin"], seeded["plate"]) == (states["fleet"]["vehicles"]["VEH-0001"]["vin"],
                                                states["fleet"]["vehicles"]["VEH-0001"]["license_plate"])
    svc = VehicleRegistration(states["vehicle_registration"], today=TODAY)
    assert ok(svc, "get_registration", {"registration_id": rid})["renewal_due"] == 512.34
    assert ok(svc, "get_renewal_fees", {"registration_id": rid})["renewable"] is True
    get_service("fleet")(states["fleet"], today=TODAY)  # the fleet state stays valid
