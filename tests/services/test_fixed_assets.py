"""Tests of the fixed assets service (NetSuite FAM / Sage Intacct Fixed Assets style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._fixed_assets_rules import months_between
from compoworld_gym.envs.services.accounts_payable import AccountsPayable
from compoworld_gym.envs.services.fixed_assets import FixedAssets


@pytest.fixture
def svc(make_service):
    return make_service(FixedAssets)


def test_seed_lines_up_with_payables_and_procurement(make_service, svc):
    ap = make_service(AccountsPayable)
    rows = ok(svc, "list_assets", {"bill_id": "BIL-0002"})
    bill = ap.state.bills["BIL-0002"]
    assert [(a["id"], a["po_id"], a["vendor_name"], a["cost"]) for a in rows] == [
        ("FA-0002", bill.po_id, bill.vendor_name, 5260.0), ("FA-0003", bill.po_id, bill.vendor_name, 9120.0)]
    # PO-0006 is partially received: the chairs are in service, the desks still pending
    assert [a["status"] for a in rows] == ["in_service", "pending"]
    assert [a["id"] for a in ok(svc, "list_assets", {"po_id": "PO-0005"})] == ["FA-0001"]
    assert [a["id"] for a in ok(svc, "list_assets", {"vendor_name": "fisher ltd"})] == [
        "FA-0002", "FA-0003", "FA-0006", "FA-0011"]


def test_straight_line_figures(svc):
    assert months_between(__import__("datetime").date(2024, 4, 22), __import__("datetime").date(2026, 1, 15)) == 21
    a = ok(svc, "get_asset", {"asset_id": "FA-0005"})
    assert (a["periods_depreciated"], a["monthly_depreciation"], a["accumulated_depreciation"],
            a["net_book_value"], a["remaining_life_months"]) == (21, 512.5, 10762.5, 7687.5, 15)
    fork = ok(svc, "get_asset", {"asset_id": "FA-0007"})
    assert (fork["fully_depreciated"], fork["net_book_value"]) == (True, 2890.0)  # its residual value
    assert ok(svc, "get_asset", {"asset_id": "FA-0008"})["accumulated_depreciation"] == 39404.33
    assert ok(svc, "get_asset", {"asset_id": "FA-0001"})["net_book_value"] == 1648.0  # pending: no depreciation
    later = ok(svc, "calculate_depreciation", {"asset_id": "FA-0005", "as_of": "2027-06-01"})
    assert (later["periods_depreciated"], later["net_book_value"]) == (36, 0.0)
    assert code(svc, "get_asset", {"asset_id": "FA-0999"}) == 404


def test_schedule_and_register(svc):
    sch = ok(svc, "get_depreciation_schedule", {"asset_id": "FA-0009"})
    assert len(sch["periods"]) == 60
    assert sch["periods"][0] == {"period": "2024-12", "period_end": "2024-12-31", "depreciation": 185.25,
                                 "accumulated_depreciation": 185.25, "net_book_value": 12164.75, "posted": True}
    assert sch["periods"][13]["posted"] is False and sch["periods"][-1]["net_book_value"] == 1235.0
    disposed = ok(svc, "get_depreciation_schedule", {"asset_id": "FA-0011"})["periods"]
    assert (len(disposed), disposed[-1]["period"], disposed[-1]["net_book_value"]) == (22, "2025-11", 1641.5)
    assert ok(svc, "get_depreciation_schedule", {"asset_id": "FA-0001"})["periods"] == []
    reg = {r["class_id"]: r for r in ok(svc, "get_asset_register_summary")}
    assert (reg["CLS-COMP"]["assets"], reg["CLS-COMP"]["net_book_value"]) == (3, 13575.5)
    assert ok(svc, "get_asset_register_summary", {"class_id": "CLS-VEH"})[0]["net_book_value"] == 28704.0
    assert [c["default_life_months"] for c in ok(svc, "list_asset_classes")] == [36, 84, 60, 60, 120]
    assert ok(svc, "list_custodians", {"email": "BEN.FOSTER@company.example"})[0]["id"] == "CUS-0012"
    d = ok(svc, "get_disposal", {"disposal_id": "AD-0002"})
    assert (d["method"], d["net_book_value"], d["gain_loss"]) == ("scrap", 1641.5, -1641.5)
    assert [x["id"] for x in ok(svc, "list_disposals", {"method": "sale"})] == ["AD-0001"]
    assert code(svc, "get_disposal", {"disposal_id": "AD-0999"}) == 404


def test_create_and_place_in_service(svc):
    a = ok(svc, "create_asset", {"name": "Epson projector", "class_id": "CLS-MACH", "cost": 3000,
                                 "acquisition_date": "2025-10-03", "in_service_date": "2025-10-10",
                                 "custodian_email": "luis.ortega@company.example", "location": "austin office",
                                 "vendor_name": "Fisher Ltd", "po_id": "PO-0006"})
    assert (a["id"], a["residual_value"], a["useful_life_months"], a["city"], a["periods_depreciated"],
            a["net_book_value"]) == ("FA-0012", 300.0, 60, "Austin", 3, 2865.0)
    base = {"name": "Spare chair", "acquisition_date": "2025-10-03", "custodian_email": "luis.ortega@company.example"}
    assert code(svc, "create_asset", {**base, "cost": 0}) == 400
    msg = error(svc, "create_asset", {**base, "cost": 500, "in_service_date": "2025-10-01"})
    assert msg["code"] == 422 and "before acquisition_date" in msg["message"]
    assert code(svc, "create_asset", {**base, "cost": 500, "residual_value": 500}) == 422
    assert code(svc, "create_asset", {**base, "cost": 500, "acquisition_date": "2026-02-01"}) == 422
    assert code(svc, "create_asset", {**base, "cost": 500, "custodian_email": "x@y.example"}) == 404
    assert code(svc, "create_asset", {**base, "cost": 500, "location": "Mars"}) == 404
    assert code(svc, "create_asset", {**base, "cost": 500, "class_id": "CLS-NOPE"}) == 404
    assert code(svc, "place_in_service", {"asset_id": "FA-0001", "in_service_date": "2026-01-01"}) == 422
    p = ok(svc, "place_in_service", {"asset_id": "FA-0001", "in_service_date": "2026-01-05"})
    assert (p["status"], p["in_service_date"]) == ("in_service", "2026-01-05")
    assert code(svc, "place_in_service", {"asset_id": "FA-0001", "in_service_date": "2026-01-06"}) == 409


def test_revise_and_transfer(svc):
    r = ok(svc, "revise_asset", {"asset_id": "FA-0009", "useful_life_months": 120})
    assert (r["monthly_depreciation"], r["accumulated_depreciation"], r["net_book_value"]) == (92.63, 1204.19,
                                                                                               11145.81)
    assert code(svc, "revise_asset", {"asset_id": "FA-0009", "useful_life_months": 12}) == 422
    assert code(svc, "revise_asset", {"asset_id": "FA-0009"}) == 400
    assert code(svc, "revise_asset", {"asset_id": "FA-0010", "residual_value": 10}) == 409
    t = ok(svc, "transfer_asset", {"asset_id": "FA-0005", "to_custodian_email": "marcus.bell@company.example",
                                   "to_location": "Austin Office", "reason": "Team move"})
    assert (t["custodian_name"], t["location"], t["city"]) == ("Marcus Bell", "Austin Office", "Austin")
    assert t["transfers"] == [{"transferred_on": "2026-01-15", "from_custodian_email": "ben.foster@company.example",
                               "to_custodian_email": "marcus.bell@company.example",
                               "from_location": "San Francisco HQ", "to_location": "Austin Office",
                               "reason": "Team move"}]
    assert code(svc, "transfer_asset", {"asset_id": "FA-0005", "to_custodian_email": "marcus.bell@company.example"}) \
        == 409
    assert code(svc, "transfer_asset", {"asset_id": "FA-0005", "to_custodian_email": "who@x.example"}) == 404
    msg = error(svc, "transfer_asset", {"asset_id": "FA-0010", "to_custodian_email": "marcus.bell@company.example"})
    assert msg["code"] == 409 and "cannot be transferred" in msg["message"]


def test_dispose_computes_gain_or_loss(svc):
    d = ok(svc, "dispose_asset", {"asset_id": "FA-0005", "proceeds": 8000, "buyer": "Acme Resale"})
    assert (d["id"], d["disposal_date"], d["net_book_value"], d["gain_loss"]) == ("AD-0003", "2026-01-15", 7687.5,
                                                                                   312.5)
    assert ok(svc, "get_asset", {"asset_id": "FA-0005"})["status"] == "disposed"
    assert code(svc, "dispose_asset", {"asset_id": "FA-0005"}) == 409
    loss = ok(svc, "dispose_asset", {"asset_id": "FA-0009", "method": "scrap", "disposal_date": "2025-06-10"})
    assert (loss["accumulated_depreciation"], loss["gain_loss"]) == (1111.5, -11238.5)
    assert code(svc, "dispose_asset", {"asset_id": "FA-0006", "method": "scrap", "proceeds": 10}) == 400
    assert code(svc, "dispose_asset", {"asset_id": "FA-0006", "disposal_date": "2026-02-01"}) == 422
    assert code(svc, "dispose_asset", {"asset_id": "FA-0999"}) == 404


def test_notes_and_rollback(svc):
    n = ok(svc, "add_asset_note", {"asset_id": "FA-0010", "body": "case QA-1: the order total is 417.25"})
    assert n["notes"][0]["body"].endswith("417.25") and n["notes"][0]["created_at"] == "2026-01-15T09:00:00"
    assert code(svc, "add_asset_note", {"asset_id": "FA-0999", "body": "x"}) == 404
    before = svc.state_dict()
    res = svc.call("dispose_asset", {"asset_id": "FA-0010"})
    assert res["success"] is False and svc.state_dict() == before
