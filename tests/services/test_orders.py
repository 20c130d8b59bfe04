"""Tests of the orders service."""

from __future__ import annotations

import pytest
from _svc_asserts import data, error, error_code

from compoworld_gym.envs.services._commerce import order_book
from compoworld_gym.envs.services.orders import Orders


@pytest.fixture
def svc(make_service):
    return make_service(Orders)


NEW = {"customer_name": "Olivia Martinez", "customer_email": "olivia.martinez@gmail.com",
       "items": [{"sku": "KB-MECH-01", "quantity": 2}, {"sku": "cb-hdmi-11", "quantity": 3}],
       "shipping_address": "418 Maple Avenue", "city": "Portland", "postal_code": "97205"}


def test_seed_matches_the_shared_book(svc, today):
    book = order_book(today)
    assert list(svc.state.orders) == [b.id for b in book]
    for b in book:
        o = svc.state.orders[b.id]
        assert (o.customer_email, o.total, o.status) == (b.customer.email, b.total, b.status)
        assert o.total == round(sum(ln.amount for ln in o.items) + o.shipping_fee, 2)
    assert svc.state.orders["ORD-0001"].payment_id == "PI-0001"
    assert svc.state.orders["ORD-0003"].tracking_number == "1ZCW84100003"


def test_list_and_get(svc, today):
    pending = data(svc.call("list_orders", {"status": "pending"}))
    assert [o["id"] for o in pending] == ["ORD-0009", "ORD-0008"]
    mine = data(svc.call("list_orders", {"customer_email": "LIAM.PATEL@gmail.com"}))
    assert {o["id"] for o in mine} == {"ORD-0001", "ORD-0011"}
    recent = data(svc.call("list_orders", {"placed_after": "2026-01-08"}))
    assert [o["id"] for o in recent] == ["ORD-0012", "ORD-0011"]
    sku = order_book(today)[0].lines[0].sku
    assert "ORD-0001" in {o["id"] for o in data(svc.call("list_orders", {"sku": sku}))}
    assert data(svc.call("get_order", {"order_id": "ORD-0010"}))["cancel_reason"] == "Customer ordered the wrong item."
    assert error_code(svc.call("get_order", {"order_id": "ORD-0999"})) == 404


def test_quote_and_create(svc):
    q = data(svc.call("quote_order", {"items": NEW["items"], "shipping_method": "express"}))
    assert (q["subtotal"], q["shipping_fee"], q["total"]) == (209.95, 14.99, 224.94)
    o = data(svc.call("create_order", NEW))
    assert (o["id"], o["status"], o["subtotal"], o["total"]) == ("ORD-0013", "pending", 209.95, 215.94)
    assert [ln["amount"] for ln in o["items"]] == [179.98, 29.97]
    assert error_code(svc.call("create_order", {**NEW, "items": [{"sku": "NOPE-1", "quantity": 1}]})) == 404
    dup = [{"sku": "KB-MECH-01", "quantity": 1}, {"sku": "kb-mech-01", "quantity": 1}]
    assert error_code(svc.call("create_order", {**NEW, "items": dup})) == 400
    assert error_code(svc.call("create_order", {**NEW, "items": []})) == 400


def test_payment_fulfilment_delivery(svc):
    assert error_code(svc.call("fulfill_order", {"order_id": "ORD-0009", "carrier": "ups",
                                           "tracking_number": "1Z1"})) == 400
    assert error_code(svc.call("fulfill_order", {"order_id": "ORD-0009", "carrier": "ups",
                                           "tracking_number": "1ZX9"})) == 409
    assert data(svc.call("mark_order_paid", {"order_id": "ORD-0009", "payment_id": "PI-0014"}))["status"] == "paid"
    assert error_code(svc.call("mark_order_paid", {"order_id": "ORD-0009", "payment_id": "PI-0014"})) == 409
    f = data(svc.call("fulfill_order", {"order_id": "ORD-0009", "carrier": "fedex", "tracking_number": "771291000014"}))
    assert (f["status"], f["carrier"], f["tracking_number"]) == ("fulfilled", "fedex", "771291000014")
    assert error_code(svc.call("update_shipping_address", {"order_id": "ORD-0009", "shipping_address": "1 Main St",
                                                     "city": "Reno", "postal_code": "89501"})) == 409
    assert data(svc.call("mark_delivered", {"order_id": "ORD-0009"}))["status"] == "delivered"
    assert error_code(svc.call("mark_delivered", {"order_id": "ORD-0009"})) == 409


def test_address_and_notes(svc):
    o = data(svc.call("update_shipping_address", {"order_id": "ORD-0005", "shipping_address": "12 Ocean Ave",
                                                  "city": "Miami", "postal_code": "33101"}))
    assert (o["shipping_address"], o["city"], o["postal_code"], o["country"]) == ("12 Ocean Ave", "Miami", "33101", "US")
    notes = data(svc.call("add_order_note", {"order_id": "ORD-0005", "note": "Customer called."}))["notes"]
    assert notes[-1] == "Customer called."


def test_cancel_rules(svc):
    total = svc.state.orders["ORD-0006"].total
    c = data(svc.call("cancel_order", {"order_id": "ORD-0006", "reason": "Changed mind"}))
    assert (c["status"], c["refund_due"], c["refunded_amount"]) == ("cancelled", total, total)
    p = data(svc.call("cancel_order", {"order_id": "ORD-0008", "reason": "Never paid"}))
    assert p["refund_due"] == 0.0
    assert error_code(svc.call("cancel_order", {"order_id": "ORD-0003", "reason": "late"})) == 409


def test_refund_rules(svc):
    total = svc.state.orders["ORD-0001"].total
    part = data(svc.call("refund_order", {"order_id": "ORD-0001", "amount": 10.004}))
    assert (part["status"], part["refunded_now"], part["refunded_amount"]) == ("partially_refunded", 10.0, 10.0)
    assert error_code(svc.call("refund_order", {"order_id": "ORD-0001", "amount": total})) == 422
    rest = data(svc.call("refund_order", {"order_id": "ORD-0001"}))
    assert rest["status"] == "refunded" and rest["refunded_now"] == round(total - 10.0, 2)
    assert rest["refunded_amount"] == total
    assert error_code(svc.call("refund_order", {"order_id": "ORD-0001", "amount": 1})) == 409
    assert error_code(svc.call("refund_order", {"order_id": "ORD-0011"})) == 409
    assert error_code(svc.call("refund_order", {"order_id": "ORD-0008"})) == 409


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert error_code(svc.call("refund_order", {"order_id": "ORD-0002", "amount": 99_999})) == 422
    assert error_code(svc.call("create_order", {**NEW, "items": [{"sku": "KB-MECH-01", "quantity": 1},
                                                          {"sku": "GONE-1", "quantity": 1}]})) == 404
    assert svc.state_dict() == before


@pytest.mark.parametrize("amount", [1e308, "Infinity", 0.001])
def test_out_of_range_refund_amounts_are_a_400_naming_amount(svc, amount):

    err = error(svc, "refund_order", {"order_id": "ORD-0001", "amount": amount})
    assert err["code"] == 400 and "'amount'" in err["message"]


def test_money_is_total_on_finite_floats_and_rejects_nan_and_inf():
    from compoworld_gym.envs.services._commerce import money

    assert (money(9.805), money(-1.005), money(2292.5 * 0.03), money(0.1 + 0.2)) == (9.81, -1.01, 68.78, 0.3)
    assert money(1e308) == 1e308 and money(-1e308) == -1e308 and money(5e-324) == 0.0
    for bad in (float("inf"), float("-inf"), float("nan")):
        with pytest.raises(ValueError):
            money(bad)
