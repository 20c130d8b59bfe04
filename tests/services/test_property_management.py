"""Tests of the property management (Buildium-style) service."""

from __future__ import annotations

import pytest
from _svc_asserts import code, ok

from compoworld_gym.envs.services._property_management_rules import balance
from compoworld_gym.envs.services.property_management import PropertyManagement

JEFFREY = "jeffrey.martinez17@yahoo.com"


@pytest.fixture
def svc(make_service):
    return make_service(PropertyManagement)


def test_seeded_portfolio(svc):
    assert len(PropertyManagement.tools) == 20
    st = svc.state
    assert (len(st.properties), len(st.units), len(st.tenants), len(st.leases), len(st.vendors),
            len(st.maintenance_requests)) == (5, 22, 40, 40, 8, 8)
    active = [l for l in st.leases.values() if l.status == "active"]
    assert len({l.unit_id for l in active}) == len(active) == 18  # one active lease per unit at most
    assert all(l.security_deposit <= 2 * l.rent for l in st.leases.values())
    assert sorted(l.id for l in active if balance(l) > 0) == ["LSE-0014", "LSE-0018", "LSE-0020", "LSE-0027"]


def test_reads(svc):
    assert [p["id"] for p in ok(svc, "list_properties", {"search": "maple"})] == ["PRP-0002"]
    assert [p["id"] for p in ok(svc, "list_properties", {"city": "jackfort"})] == ["PRP-0003"]
    prop = ok(svc, "get_property", {"property_id": "PRP-0004"})
    assert (prop["property_type"], [u["unit_number"] for u in prop["units"]]) == ("single_family", ["Main"])
    assert [u["id"] for u in ok(svc, "list_units", {"property_id": "PRP-0001", "vacant": True})] == ["UNT-0001",
                                                                                                     "UNT-0002"]
    occupied = ok(svc, "list_units", {"property_id": "PRP-0001", "vacant": False})
    assert occupied[0]["active_lease_id"] == "LSE-0004"
    assert ok(svc, "list_tenants", {"email": JEFFREY.upper()})[0]["id"] == "TNT-0014"
    assert [t["id"] for t in ok(svc, "list_tenants", {"search": "garcia"})] == ["TNT-0018", "TNT-0033"]
    leases = ok(svc, "list_leases", {"tenant_email": JEFFREY})
    assert [(l["id"], l["status"], l["balance"]) for l in leases] == [("LSE-0014", "active", 1275.0)]
    assert [l["id"] for l in ok(svc, "list_leases", {"unit_id": "UNT-0003"})] == ["LSE-0003", "LSE-0004"]
    lease = ok(svc, "get_lease", {"lease_id": "LSE-0014"})
    assert [(t["kind"], t["date"]) for t in lease["transactions"]][-1] == ("charge", "2026-01-01")
    assert [v["id"] for v in ok(svc, "list_vendors", {"trade": "plumbing"})] == ["VND-0003", "VND-0008"]
    assert [v["id"] for v in ok(svc, "list_vendors", {"active": False})] == ["VND-0008"]
    assert [r["id"] for r in ok(svc, "list_maintenance_requests", {"status": "new"})] == ["MNT-0008", "MNT-0002",
                                                                                          "MNT-0001"]
    assert ok(svc, "get_maintenance_request", {"request_id": "MNT-0003"})["vendor_id"] == "VND-0005"
    assert code(svc, "get_lease", {"lease_id": "LSE-0999"}) == 404
    assert code(svc, "get_property", {"property_id": "PRP-0999"}) == 404


def test_create_tenant_and_lease(svc):
    t = ok(svc, "create_tenant", {"name": "Ann Lee", "email": "Ann.Lee@Example.org", "phone": "+1-206-555-0101"})
    assert (t["id"], t["email"]) == ("TNT-0041", "ann.lee@example.org")
    assert code(svc, "create_tenant", {"name": "Ann Lee", "email": "ann.lee@example.org",
                                       "phone": "+1-206-555-0101"}) == 409
    base = {"unit_id": "UNT-0001", "tenant_id": "TNT-0041", "start_date": "2026-02-01", "end_date": "2027-01-31"}
    assert code(svc, "create_lease", {**base, "rent": 2200, "security_deposit": 4400.01}) == 422
    assert code(svc, "create_lease", {**base, "end_date": "2026-01-31", "rent": 2200, "security_deposit": 0}) == 422
    assert code(svc, "create_lease", {**base, "tenant_id": "TNT-0999", "rent": 2200, "security_deposit": 0}) == 404
    lease = ok(svc, "create_lease", {**base, "rent": 2200, "security_deposit": 3300})
    assert (lease["id"], lease["status"], lease["balance"]) == ("LSE-0041", "future", 5500.0)
    assert [t["memo"] for t in lease["transactions"]] == ["First month's rent", "Security deposit"]
    # one active or future lease per unit: an overlapping second lease is refused
    assert code(svc, "create_lease", {**base, "start_date": "2026-12-01", "end_date": "2027-11-30", "rent": 2100,
                                      "security_deposit": 0}) == 409
    assert code(svc, "create_lease", {"unit_id": "UNT-0003", "tenant_id": "TNT-0041", "start_date": "2026-03-01",
                                      "end_date": "2027-02-28", "rent": 1300, "security_deposit": 0}) == 409
    after = ok(svc, "create_lease", {"unit_id": "UNT-0003", "tenant_id": "TNT-0041", "start_date": "2026-10-01",
                                     "end_date": "2027-09-30", "rent": 1350, "security_deposit": 1350})
    assert after["status"] == "future"


def test_a_deposit_under_half_a_cent_is_no_deposit(svc):
    # Deep fuzz campaign, seed 1: 0.00390625 passed the > 0 test but became a $0.00 charge (a 500).
    lease = ok(svc, "create_lease", {"unit_id": "UNT-0001", "tenant_id": "TNT-0001", "start_date": "2026-02-01",
                                     "end_date": "2026-03-01", "rent": 100.0, "security_deposit": 0.00390625})
    assert (lease["security_deposit"], lease["balance"]) == (0.0, 100.0)
    assert [t["memo"] for t in lease["transactions"]] == ["First month's rent"]


def test_end_lease_and_deposit(svc):
    ended = ok(svc, "end_lease", {"lease_id": "LSE-0004", "move_out_date": "2026-01-14"})
    assert (ended["status"], ended["move_out_date"]) == ("ended", "2026-01-14")
    assert code(svc, "end_lease", {"lease_id": "LSE-0004", "move_out_date": "2026-01-14"}) == 409
    assert "UNT-0003" in {u["id"] for u in ok(svc, "list_units", {"vacant": True})}
    assert code(svc, "end_lease", {"lease_id": "LSE-0006", "move_out_date": "2025-01-01"}) == 422
    assert code(svc, "return_deposit", {"lease_id": "LSE-0006", "amount": 100}) == 409
    assert code(svc, "return_deposit", {"lease_id": "LSE-0001", "amount": 2275.01}) == 422
    assert code(svc, "return_deposit", {"lease_id": "LSE-0001", "amount": 2000}) == 422
    back = ok(svc, "return_deposit", {"lease_id": "LSE-0001", "amount": 2000, "deductions": "Wall repair"})
    assert (back["deposit_returned"], back["deposit_deductions"]) == (2000.0, "Wall repair")
    assert code(svc, "return_deposit", {"lease_id": "LSE-0001", "amount": 275}) == 409
    assert code(svc, "post_charge", {"lease_id": "LSE-0001", "amount": 50}) == 409


def test_charges_payments_and_late_fees(svc):
    assert code(svc, "post_charge", {"lease_id": "LSE-0014", "amount": 127.51, "charge_type": "late_fee"}) == 422
    fee = ok(svc, "post_charge", {"lease_id": "LSE-0014", "amount": 127.5, "charge_type": "late_fee",
                                  "memo": "January late fee"})
    assert (fee["id"], fee["date"], fee["balance"]) == ("TRX-0103", "2026-01-15", 1402.5)
    assert code(svc, "post_charge", {"lease_id": "LSE-0004", "amount": 50, "charge_type": "late_fee"}) == 422
    assert code(svc, "record_payment", {"lease_id": "LSE-0014", "amount": 1402.51}) == 422
    assert code(svc, "record_payment", {"lease_id": "LSE-0014", "amount": 100, "payment_date": "2026-01-16"}) == 422
    paid = ok(svc, "record_payment", {"lease_id": "LSE-0014", "amount": 1275, "reference": "Check 1042"})
    assert (paid["kind"], paid["memo"], paid["balance"]) == ("payment", "Check 1042", 127.5)
    # the payment settled the January rent first: no rent is late any more
    assert code(svc, "post_charge", {"lease_id": "LSE-0014", "amount": 20, "charge_type": "late_fee"}) == 422
    util = ok(svc, "post_charge", {"lease_id": "LSE-0014", "amount": 64.2, "charge_type": "utilities",
                                   "due_date": "2026-02-01"})
    assert util["balance"] == 191.7
    note = ok(svc, "add_lease_note", {"lease_id": "LSE-0014", "note": "Tenant set up autopay."})
    assert note["notes"] == ["Tenant set up autopay."]


def test_maintenance_workflow(svc):
    args = {"request_id": "MNT-0001", "scheduled_date": "2026-01-20"}
    assert code(svc, "assign_vendor", {**args, "vendor_id": "VND-0004"}) == 422  # electrician for plumbing
    assert code(svc, "assign_vendor", {**args, "vendor_id": "VND-0008"}) == 422  # inactive
    assert code(svc, "assign_vendor", {**args, "vendor_id": "VND-0003", "scheduled_date": "2026-01-14"}) == 422
    assert code(svc, "assign_vendor", {"request_id": "MNT-0004", "vendor_id": "VND-0006",
                                       "scheduled_date": "2026-01-18"}) == 422  # insurance lapsed
    assert code(svc, "complete_maintenance_request", {"request_id": "MNT-0001", "actual_cost": 10,
                                                      "resolution": "Fixed"}) == 409
    r = ok(svc, "assign_vendor", {**args, "vendor_id": "VND-0003", "estimate": 240})
    assert (r["status"], r["vendor_name"], r["estimate"]) == ("assigned", "BlueLine Plumbing", 240.0)
    general = ok(svc, "assign_vendor", {**args, "vendor_id": "VND-0002"})  # a general contractor takes anything
    assert (general["vendor_id"], general["estimate"]) == ("VND-0002", 240.0)
    done = ok(svc, "complete_maintenance_request", {"request_id": "MNT-0001", "actual_cost": 265.5,
                                                    "resolution": "Cleared the drain line."})
    assert (done["status"], done["actual_cost"]) == ("completed", 265.5)
    assert code(svc, "cancel_maintenance_request", {"request_id": "MNT-0001", "reason": "Duplicate"}) == 409
    assert code(svc, "assign_vendor", {**args, "vendor_id": "VND-0003"}) == 409
    c = ok(svc, "cancel_maintenance_request", {"request_id": "MNT-0002", "reason": "Tenant reset the breaker."})
    assert (c["status"], c["resolution"]) == ("cancelled", "Tenant reset the breaker.")


def test_create_maintenance_request(svc):
    assert code(svc, "create_maintenance_request", {"property_id": "PRP-0001", "unit_id": "UNT-0009",
                                                    "category": "hvac", "description": "No heat"}) == 422
    assert code(svc, "create_maintenance_request", {"property_id": "PRP-0001", "category": "roof",
                                                    "description": "Leak"}) == 400
    r = ok(svc, "create_maintenance_request", {"property_id": "PRP-0001", "unit_id": "UNT-0003", "category": "hvac",
                                               "description": "No heat", "priority": "urgent",
                                               "tenant_email": "Thomas.Smith78@hotmail.com"})
    assert (r["id"], r["status"], r["created_on"], r["tenant_email"]) == (
        "MNT-0009", "new", "2026-01-15", "thomas.smith78@hotmail.com")


def test_failed_writes_roll_back(svc):
    before = svc.state_dict()
    for tool, args in [("record_payment", {"lease_id": "LSE-0014", "amount": 5000}),
                       ("create_lease", {"unit_id": "UNT-0003", "tenant_id": "TNT-0001", "start_date": "2026-02-01",
                                         "end_date": "2027-01-31", "rent": 1000, "security_deposit": 0}),
                       ("assign_vendor", {"request_id": "MNT-0005", "vendor_id": "VND-0001",
                                          "scheduled_date": "2026-01-20"})]:
        assert not svc.call(tool, args)["success"]
    assert svc.state_dict() == before  # no id counter moved either
