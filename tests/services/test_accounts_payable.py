"""Tests of the accounts-payable service (BILL v3 style)."""

from __future__ import annotations

import datetime as dt

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.accounts_payable import AccountsPayable
from compoworld_gym.envs.services.procurement import Procurement

ELENA, TOMAS, GRACE = ("elena.petrova@company.example", "tomas.lindqvist@company.example",
                       "grace.okafor@company.example")
TODAY = dt.date(2026, 1, 15)


@pytest.fixture
def svc(make_service):
    return make_service(AccountsPayable)


def new_bill(svc, price, qty=1, invoice="INV-90001", vendor="VEN-0002", **extra):
    args = {"vendor_id": vendor, "invoice_number": invoice, "invoice_date": "2026-01-10", "created_by": GRACE,
            "lines": [{"description": "Pallet racking", "quantity": qty, "unit_price": price}], **extra}
    return ok(svc, "create_bill", args)


def test_vendors_are_procurements_for_the_same_seed(svc):
    for seed in (0, 3):
        mine = AccountsPayable.seed_state(seed, TODAY).vendors
        theirs = Procurement.seed_state(seed, TODAY).vendors
        assert {k: v.model_dump() for k, v in mine.items()} == {k: v.model_dump() for k, v in theirs.items()}
    assert [v["id"] for v in ok(svc, "list_vendors", {"active": False})] == ["VEN-0006"]
    assert [v["name"] for v in ok(svc, "list_vendors", {"name": "fisher"})] == ["Fisher Ltd"]
    v = ok(svc, "get_vendor", {"vendor_id": "VEN-0002"})
    assert (v["open_balance"], v["open_bills"]) == (24507.27, ["BIL-0002", "BIL-0006", "BIL-0011"])
    assert code(svc, "get_vendor", {"vendor_id": "VEN-0999"}) == 404


def test_seeded_bills_match_procurement_pos(svc):
    pos = Procurement.seeded(0, TODAY).state.purchase_orders
    for b in ok(svc, "list_bills", {"limit": 200}):
        if b["po_id"]:
            po = pos[b["po_id"]]
            assert (b["vendor_id"], b["total"]) == (po.vendor_id, po.total)
    assert [b["id"] for b in ok(svc, "list_bills", {"po_id": "po-0006"})] == ["BIL-0002"]


def test_create_vendor(svc):
    v = ok(svc, "create_vendor", {"name": "Nordic Freight AB", "email": "ar@nordicfreight.example"})
    assert (v["id"], v["payment_terms"], v["active"]) == ("VEN-0007", "net30", True)
    assert code(svc, "create_vendor", {"name": "fisher ltd", "email": "x@y.example"}) == 409


def test_policies_and_routing(svc):
    pols = ok(svc, "list_approval_policies")
    assert [(p["id"], p["above"], p["approvers"]) for p in pols] == [
        ("POL-0001", 1000.0, [ELENA, TOMAS]), ("POL-0002", 20000.0, [ELENA])]
    small = new_bill(svc, 250.0, qty=4)
    assert (small["id"], small["total"], small["approval_status"], small["due_date"]) == (
        "BIL-0014", 1000.0, "not_required", "2026-02-09")  # Fisher Ltd is net30
    mid = new_bill(svc, 1000.005, qty=2, invoice="INV-90002")
    assert (mid["total"], mid["approval_status"], mid["approval_policy_id"]) == (2000.02, "pending", "POL-0001")
    big = new_bill(svc, 25000.0, invoice="INV-90003", due_date="2026-02-01")
    assert (big["approval_policy_id"], big["due_date"]) == ("POL-0002", "2026-02-01")
    assert [b["id"] for b in ok(svc, "list_pending_approvals", {"approver_email": TOMAS})] == ["BIL-0006", "BIL-0015"]


def test_create_bill_refusals(svc):
    assert code(svc, "create_bill", {"vendor_id": "VEN-0006", "invoice_number": "A", "invoice_date": "2026-01-10",
                                     "created_by": GRACE, "lines": [{"description": "x", "unit_price": 5}]}) == 409
    new_bill(svc, 100.0)
    assert code(svc, "create_bill", {"vendor_id": "VEN-0002", "invoice_number": "inv-90001",
                                     "invoice_date": "2026-01-10", "created_by": GRACE,
                                     "lines": [{"description": "x", "unit_price": 5}]}) == 409
    base = {"vendor_id": "VEN-0001", "invoice_number": "B", "created_by": GRACE,
            "lines": [{"description": "x", "unit_price": 5}]}
    assert code(svc, "create_bill", {**base, "invoice_date": "2026-01-20"}) == 422
    assert code(svc, "create_bill", {**base, "invoice_date": "2026-01-10", "due_date": "2026-01-01"}) == 422
    assert code(svc, "create_bill", {**base, "invoice_date": "2026-01-10", "lines": []}) == 400
    assert code(svc, "create_bill", {**base, "vendor_id": "VEN-0404", "invoice_date": "2026-01-10"}) == 404


def test_approval_rules(svc):
    assert error(svc, "approve_bill", {"bill_id": "BIL-0007", "approver_email": TOMAS})["code"] == 422
    assert ok(svc, "approve_bill", {"bill_id": "BIL-0007", "approver_email": ELENA})["approval_status"] == "approved"
    mine = new_bill(svc, 3000.0, created_by=TOMAS)
    msg = error(svc, "approve_bill", {"bill_id": mine["id"], "approver_email": TOMAS})
    assert msg["code"] == 422 and "entered" in msg["message"]
    assert code(svc, "approve_bill", {"bill_id": "BIL-0006", "approver_email": GRACE}) == 422
    a = ok(svc, "approve_bill", {"bill_id": "BIL-0006", "approver_email": "Tomas.Lindqvist@company.example"})
    assert (a["approval_status"], a["approver_email"], a["decided_on"]) == ("approved", TOMAS, "2026-01-15")
    assert code(svc, "approve_bill", {"bill_id": "BIL-0006", "approver_email": ELENA}) == 409
    assert code(svc, "approve_bill", {"bill_id": "BIL-0012", "approver_email": ELENA}) == 409  # void


def test_deny_then_correct_and_reroute(svc):
    d = ok(svc, "deny_bill", {"bill_id": "BIL-0006", "approver_email": ELENA, "reason": "Wrong quantity"})
    assert (d["approval_status"], d["denial_reason"]) == ("denied", "Wrong quantity")
    assert code(svc, "schedule_payment", {"bill_id": "BIL-0006", "amount": 10, "process_date": "2026-01-20"}) == 409
    u = ok(svc, "update_bill", {"bill_id": "BIL-0006", "lines": [{"description": "Fixed", "quantity": 3,
                                                                  "unit_price": 200}]})
    assert (u["total"], u["approval_status"], u["denial_reason"], u["open_balance"]) == (600.0, "not_required",
                                                                                          None, 600.0)
    assert code(svc, "update_bill", {"bill_id": "BIL-0001", "due_date": "2026-03-30"}) == 409  # approved
    assert code(svc, "update_bill", {"bill_id": "BIL-0005", "due_date": "2025-01-01"}) == 422
    assert code(svc, "update_bill", {"bill_id": "BIL-0003", "due_date": "2026-03-30"}) == 409  # paid


def test_payments_schedule_process_cancel(svc):
    assert code(svc, "schedule_payment", {"bill_id": "BIL-0006", "amount": 10, "process_date": "2026-01-20"}) == 409
    b = ok(svc, "get_bill", {"bill_id": "BIL-0009"})
    assert (b["open_balance"], b["payable_amount"], len(b["payments"])) == (3905.67, 3905.67, 1)
    e = error(svc, "schedule_payment", {"bill_id": "BIL-0009", "amount": 3905.68, "process_date": "2026-01-15"})
    assert e["code"] == 422 and "open balance" in e["message"]
    assert code(svc, "schedule_payment", {"bill_id": "BIL-0009", "amount": 5, "process_date": "2026-01-14"}) == 422
    p = ok(svc, "schedule_payment", {"bill_id": "BIL-0009", "amount": 3905.67, "process_date": "2026-01-15",
                                     "memo": "INV settle"})
    assert (p["id"], p["status"], p["amount"]) == ("PAY-0005", "scheduled", 3905.67)
    assert ok(svc, "get_bill", {"bill_id": "BIL-0009"})["payment_status"] == "scheduled"
    assert code(svc, "schedule_payment", {"bill_id": "BIL-0009", "amount": 1, "process_date": "2026-01-16"}) == 422
    done = ok(svc, "process_payment", {"payment_id": "PAY-0005"})
    assert (done["status"], done["processed_on"]) == ("processed", "2026-01-15")
    paid = ok(svc, "get_bill", {"bill_id": "BIL-0009"})
    assert (paid["payment_status"], paid["open_balance"], paid["paid_amount"]) == ("paid", 0.0, 7811.35)
    assert code(svc, "process_payment", {"payment_id": "PAY-0005"}) == 409
    assert code(svc, "process_payment", {"payment_id": "PAY-0002"}) == 422  # scheduled for the 18th
    c = ok(svc, "cancel_payment", {"payment_id": "PAY-0002", "reason": "Vendor changed bank"})
    assert (c["status"], ok(svc, "get_bill", {"bill_id": "BIL-0008"})["payment_status"]) == ("cancelled", "unpaid")
    assert code(svc, "cancel_payment", {"payment_id": "PAY-0002", "reason": "again"}) == 409
    assert [x["id"] for x in ok(svc, "list_payments", {"status": "cancelled"})] == ["PAY-0002"]
    assert ok(svc, "get_payment", {"payment_id": "PAY-0001"})["bill_id"] == "BIL-0003"
    assert code(svc, "get_payment", {"payment_id": "PAY-0404"}) == 404


def test_void(svc):
    assert code(svc, "void_bill", {"bill_id": "BIL-0003", "reason": "dup"}) == 409  # paid
    assert code(svc, "void_bill", {"bill_id": "BIL-0008", "reason": "dup"}) == 409  # scheduled
    v = ok(svc, "void_bill", {"bill_id": "BIL-0013", "reason": "Duplicate invoice"})
    assert (v["voided"], v["void_reason"], v["voided_on"]) == (True, "Duplicate invoice", "2026-01-15")
    assert code(svc, "void_bill", {"bill_id": "BIL-0013", "reason": "again"}) == 409
    assert code(svc, "schedule_payment", {"bill_id": "BIL-0013", "amount": 1, "process_date": "2026-01-20"}) == 409
    assert "BIL-0013" not in {b["id"] for b in ok(svc, "list_bills", {"limit": 200})}
    assert "BIL-0013" in {b["id"] for b in ok(svc, "list_bills", {"include_voided": True, "limit": 200})}


def test_list_filters(svc):
    assert [b["id"] for b in ok(svc, "list_bills", {"payment_status": "partially_paid"})] == ["BIL-0009"]
    assert [b["id"] for b in ok(svc, "list_bills", {"due_before": "2026-01-13"})] == ["BIL-0008", "BIL-0011",
                                                                                      "BIL-0013"]
    assert [b["id"] for b in ok(svc, "list_bills", {"approval_status": "denied"})] == ["BIL-0011"]
    assert code(svc, "get_bill", {"bill_id": "BIL-0999"}) == 404


def test_failed_writes_roll_back(svc):
    before = svc.state_dict()
    assert code(svc, "schedule_payment", {"bill_id": "BIL-0001", "amount": 99999, "process_date": "2026-01-20"}) == 422
    assert code(svc, "approve_bill", {"bill_id": "BIL-0006", "approver_email": GRACE}) == 422
    assert svc.state_dict() == before


def test_a_planted_bill_against_a_po_is_from_the_po_vendor():
    import random

    from faker import Faker

    from compoworld_gym.generation.context import Ctx
    from compoworld_gym.generation.hooks.accounts_payable import BILL_OF_PO

    states = {"accounts_payable": AccountsPayable.seed_state(0, TODAY).model_dump(mode="json"),
              "procurement": Procurement.seed_state(0, TODAY).model_dump(mode="json")}
    ctx = Ctx(random.Random(1), Faker(), TODAY, states)
    rid = BILL_OF_PO.plant(ctx, "PO-0002", {"money": 2500.0, "date": "2026-02-01"}, False)
    bill = states["accounts_payable"]["bills"][rid]
    po = states["procurement"]["purchase_orders"]["PO-0002"]
    assert (rid, bill["vendor_id"], bill["po_id"], bill["total"], bill["approval_status"]) == (
        "BIL-0014", po["vendor_id"], "PO-0002", 2500.0, "pending")
