"""Tests of the procurement service."""

from __future__ import annotations

import pytest
from _svc_asserts import data, error_code

from compoworld_gym.envs.services.procurement import Procurement

GRACE, DANIEL, TOMAS, ELENA = ("grace.okafor@company.example", "daniel.cho@company.example",
                               "tomas.lindqvist@company.example", "elena.petrova@company.example")


@pytest.fixture
def svc(make_service):
    return make_service(Procurement)


def po(svc, qty=10, cost=41.2, requester=GRACE):
    lines = [{"sku": "kb-mech-01", "quantity": qty, "unit_cost": cost}, {"sku": "MS-WL-02", "quantity": 3,
                                                                         "unit_cost": 9.805}]
    return data(svc.call("create_purchase_order", {"vendor_id": "VEN-0001", "requester_email": requester,
                                                   "lines": lines, "ship_to": "WH-WEST"}))


def test_policy_and_vendors(svc):
    pol = data(svc.call("get_approval_policy", {}))
    assert pol["auto_approve_limit"] == 1000.0
    assert {a["email"]: a["max_total"] for a in pol["approvers"]} == {TOMAS: 5000.0, DANIEL: 10000.0, ELENA: 100000.0}
    assert [v["id"] for v in data(svc.call("list_vendors", {"active": False}))] == ["VEN-0006"]
    assert [v["id"] for v in data(svc.call("list_vendors", {"category": "electronics"}))] == ["VEN-0001", "VEN-0005"]
    assert data(svc.call("get_vendor", {"vendor_id": "VEN-0003"}))["category"] == "stationery"
    assert error_code(svc.call("get_vendor", {"vendor_id": "VEN-0999"})) == 404
    v = data(svc.call("create_vendor", {"name": "Acme Cables", "email": "orders@acme.example",
                                        "phone": "+1 555 0100", "category": "accessories"}))
    assert (v["id"], v["payment_terms"]) == ("VEN-0007", "net30")
    assert error_code(svc.call("create_vendor", {"name": "acme cables", "email": "a@b.example", "phone": "55501",
                                           "category": "x"})) == 409


def test_seed_pos(svc):
    assert [p["id"] for p in data(svc.call("list_purchase_orders", {"status": "pending_approval"}))] == [
        "PO-0002", "PO-0003"]
    for p in svc.state.purchase_orders.values():
        assert p.total == round(sum(ln.amount for ln in p.lines), 2)
        assert p.approver_email != p.requester_email
    got = data(svc.call("get_purchase_order", {"po_id": "PO-0006"}))
    assert got["lines"][0]["received_quantity"] == got["lines"][0]["quantity"]
    assert error_code(svc.call("get_purchase_order", {"po_id": "PO-0999"})) == 404
    sku = got["lines"][0]["sku"]
    assert "PO-0006" in {p["id"] for p in data(svc.call("list_purchase_orders", {"sku": sku}))}


def test_create_rules(svc):
    p = po(svc)
    assert (p["id"], p["status"], p["total"]) == ("PO-0011", "draft", 441.43)
    assert [ln["amount"] for ln in p["lines"]] == [412.0, 29.43]
    base = {"requester_email": GRACE, "lines": [{"sku": "X-1", "quantity": 1, "unit_cost": 1}]}
    assert error_code(svc.call("create_purchase_order", {**base, "vendor_id": "VEN-0006"})) == 409
    assert error_code(svc.call("create_purchase_order", {**base, "vendor_id": "VEN-0001", "ship_to": "WH-MOON"})) == 404
    assert error_code(svc.call("create_purchase_order", {**base, "vendor_id": "VEN-0001",
                                                   "expected_date": "2026-01-01"})) == 422
    dup = {**base, "vendor_id": "VEN-0001", "lines": base["lines"] * 2}
    assert error_code(svc.call("create_purchase_order", dup)) == 400


def test_auto_approval_send_and_receive(svc):
    po(svc)
    assert data(svc.call("submit_purchase_order", {"po_id": "PO-0011"}))["status"] == "approved"
    assert error_code(svc.call("submit_purchase_order", {"po_id": "PO-0011"})) == 409
    sent = data(svc.call("send_purchase_order", {"po_id": "PO-0011"}))
    assert sent["status"] == "ordered" and sent["sent_to"] == svc.state.vendors["VEN-0001"].email
    part = data(svc.call("receive_goods", {"po_id": "PO-0011", "sku": "KB-MECH-01", "quantity": 10}))
    assert part["status"] == "partially_received"
    assert error_code(svc.call("receive_goods", {"po_id": "PO-0011", "sku": "MS-WL-02", "quantity": 4})) == 422
    assert error_code(svc.call("receive_goods", {"po_id": "PO-0011", "sku": "HS-NC-13", "quantity": 1})) == 404
    assert error_code(svc.call("cancel_purchase_order", {"po_id": "PO-0011", "reason": "x"})) == 409
    done = data(svc.call("receive_goods", {"po_id": "PO-0011", "sku": "ms-wl-02", "quantity": 3}))
    assert done["status"] == "received"
    assert error_code(svc.call("receive_goods", {"po_id": "PO-0011", "sku": "MS-WL-02", "quantity": 1})) == 409


def test_approval_thresholds(svc):
    po(svc, qty=200, requester=DANIEL)  # 8240 + 29.43
    sub = data(svc.call("submit_purchase_order", {"po_id": "PO-0011"}))
    assert (sub["status"], sub["total"]) == ("pending_approval", 8269.43)
    assert error_code(svc.call("approve_purchase_order", {"po_id": "PO-0011", "approver_email": TOMAS})) == 422
    assert error_code(svc.call("approve_purchase_order", {"po_id": "PO-0011", "approver_email": DANIEL})) == 422
    assert error_code(svc.call("approve_purchase_order", {"po_id": "PO-0011", "approver_email": GRACE})) == 422
    ok = data(svc.call("approve_purchase_order", {"po_id": "PO-0011", "approver_email": ELENA}))
    assert (ok["status"], ok["approver_email"]) == ("approved", ELENA)
    assert error_code(svc.call("approve_purchase_order", {"po_id": "PO-0011", "approver_email": ELENA})) == 409


def test_reject_and_cancel(svc):
    pending = svc.state.purchase_orders["PO-0002"]
    approver = ELENA if pending.requester_email != ELENA else TOMAS
    r = data(svc.call("reject_purchase_order", {"po_id": "PO-0002", "approver_email": approver, "reason": "Budget"}))
    assert (r["status"], r["decision_note"]) == ("rejected", "Budget")
    c = data(svc.call("cancel_purchase_order", {"po_id": "PO-0001", "reason": "Not needed"}))
    assert c["status"] == "cancelled"
    assert error_code(svc.call("cancel_purchase_order", {"po_id": "PO-0001", "reason": "again"})) == 409
    assert error_code(svc.call("send_purchase_order", {"po_id": "PO-0001"})) == 409


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert error_code(svc.call("receive_goods", {"po_id": "PO-0005", "sku": "NOPE-1", "quantity": 1})) == 404
    assert error_code(svc.call("approve_purchase_order", {"po_id": "PO-0003", "approver_email": GRACE})) == 422
    assert svc.state_dict() == before


@pytest.mark.parametrize("unit_cost", [0.00390625, 0.004, 1e-9])
def test_a_unit_cost_that_rounds_to_zero_is_a_400_naming_unit_cost(svc, unit_cost):
    import _svc_asserts as sa

    args = {"vendor_id": "VEN-0001", "requester_email": "buyer@example.com",
            "lines": [{"sku": "KB-MECH-01", "quantity": 2, "unit_cost": 41.2},
                      {"sku": "MS-WL-02", "quantity": 1, "unit_cost": unit_cost}]}
    err = sa.error(svc, "create_purchase_order", args)
    assert err["code"] == 400 and "lines.1.unit_cost" in err["message"]
    args["lines"][1]["unit_cost"] = 0.015  # at least a cent: accepted, rounded half-up
    po = data(svc.call("create_purchase_order", args))
    assert po["lines"][1]["unit_cost"] == 0.02 and po["total"] == 82.42


def test_receive_goods_quantity_is_bounded(svc):
    import _svc_asserts as sa

    err = sa.error(svc, "receive_goods", {"po_id": "PO-0005", "sku": "KB-MECH-01", "quantity": 10**30})
    assert err["code"] == 400 and "'quantity'" in err["message"]
