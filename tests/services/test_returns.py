"""Tests of the returns service (Loop Returns API style)."""

from __future__ import annotations

import datetime as dt

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._commerce import order_book
from compoworld_gym.envs.services._returns_rules import delivered_on, tracking_number
from compoworld_gym.envs.services.returns import Returns

TODAY = dt.date(2026, 1, 15)


@pytest.fixture
def svc(make_service):
    return make_service(Returns)


def test_rules():
    assert delivered_on(dt.date(2026, 1, 1), "express") == dt.date(2026, 1, 3)
    assert tracking_number("ups", "RET-0007", 1) == "1ZRT01900007"
    assert len(tracking_number("usps", "RET-0007", 1)) == 22 and len(tracking_number("fedex", "RET-0007", 2)) == 12


def test_seed_lines_up_with_the_order_book(svc):
    book = {o.id: o for o in order_book(TODAY)}
    assert sorted(svc.state.orders) == ["ORD-0001", "ORD-0002", "ORD-0003", "ORD-0004", "ORD-0011"]
    for r in svc.state.returns.values():
        o = book[r.order_id]
        assert r.customer_email == o.customer.email
        assert all(li.price == next(b.unit_price for b in o.lines if b.sku == li.sku) for li in r.line_items)
    refunded = svc.state.returns["RET-0001"]
    assert (refunded.order_id, refunded.refund_total, refunded.processed) == ("ORD-0011", 399.58, True)
    assert round(refunded.refund_total + book["ORD-0011"].shipping_fee, 2) == book["ORD-0011"].total


def test_reads(svc):
    assert ok(svc, "get_return_policy") == {"return_window_days": 30, "label_valid_days": 14, "carrier": "ups"}
    o = ok(svc, "lookup_order", {"order_id": "ORD-0002"})
    assert (o["delivered_on"], o["days_since_delivery"], o["within_window"]) == ("2025-12-16", 30, True)
    assert [(ln["sku"], ln["returnable"]) for ln in o["lines"]] == [("LP-LED-07", 0), ("DK-STD-06", 2)]
    assert ok(svc, "lookup_order", {"order_id": "ORD-0001"})["within_window"] is False
    assert ok(svc, "lookup_order", {"order_id": "ORD-0003"})["days_since_delivery"] is None
    assert code(svc, "lookup_order", {"order_id": "ORD-0005"}) == 404
    ids = lambda args: [r["id"] for r in ok(svc, "list_returns", args)]  # noqa: E731
    assert ids({}) == ["RET-0001", "RET-0005", "RET-0003", "RET-0002", "RET-0004"]
    assert ids({"state": "open"}) == ["RET-0005", "RET-0003"]
    assert ids({"customer_email": "LIAM.PATEL@gmail.com"}) == ["RET-0001", "RET-0003", "RET-0002"]
    assert ids({"order_id": "ORD-0002"}) == ["RET-0005", "RET-0004"]
    assert ids({"from_date": "2026-01-06", "to_date": "2026-01-10"}) == ["RET-0005", "RET-0003"]
    assert code(svc, "list_returns", {"from_date": "2026-01-10", "to_date": "2026-01-06"}) == 400
    r = ok(svc, "get_return", {"return_id": "RET-0003"})
    assert (r["order_id"], r["refund_total"], r["label"]["tracking_number"], r["days_since_delivery"]) == (
        "ORD-0001", 468.9, "1ZRT01900003", 33)
    assert code(svc, "get_return", {"return_id": "RET-0999"}) == 404
    assert [n["body"] for n in ok(svc, "list_notes", {"return_id": "RET-0002"})] == [
        "Customer decided to keep the lamp."]
    assert ok(svc, "get_label", {"return_id": "RET-0005"})["status"] == "pre_transit"
    assert code(svc, "get_label", {"return_id": "RET-0002"}) == 422
    assert [v["id"] for v in ok(svc, "list_exchange_variants", {"in_stock": False})] == ["MN-27K-04", "HS-NC-13"]
    assert ok(svc, "list_exchange_variants", {"sku": "DK-STD-06"})[0]["available"] == 5


def test_create_return(svc):
    msg = error(svc, "create_return", {"order_id": "ORD-0002", "items": [
        {"sku": "DK-STD-06", "quantity": 1, "reason": "defective", "exchange_sku": "HS-NC-13"}]})
    assert msg["code"] == 422 and "in stock" in msg["message"]
    r = ok(svc, "create_return", {"order_id": "ORD-0002", "items": [
        {"sku": "DK-STD-06", "quantity": 1, "reason": "too_large"},
        {"sku": "DK-STD-06", "quantity": 1, "reason": "defective", "exchange_sku": "DK-STD-06"}]})
    assert (r["id"], r["state"], r["refund_total"], r["expires_on"], r["customer_email"]) == (
        "RET-0006", "open", 399.0, "2026-01-29", "mia.schneider@gmx.de")
    assert [(li["line_item_id"], li["outcome"], li["refund"]) for li in r["line_items"]] == [
        ("RET-0006-1", "refund", 399.0), ("RET-0006-2", "exchange", 0.0)]
    assert ok(svc, "list_exchange_variants", {"sku": "DK-STD-06"})[0]["available"] == 4
    more = {"order_id": "ORD-0002", "items": [{"sku": "DK-STD-06", "quantity": 1, "reason": "changed_mind"}]}
    assert code(svc, "create_return", more) == 409  # all three desks are on returns now
    assert code(svc, "create_return", {"order_id": "ORD-0001", "items": [
        {"sku": "PN-GEL-09", "quantity": 1, "reason": "changed_mind"}]}) == 422  # 33 days since delivery
    assert code(svc, "create_return", {"order_id": "ORD-0003", "items": [
        {"sku": "WC-HD-12", "quantity": 1, "reason": "defective"}]}) == 422  # not delivered
    assert code(svc, "create_return", {"order_id": "ORD-0011", "items": [
        {"sku": "NB-A5-08", "quantity": 1, "reason": "defective"}]}) == 422  # not on the order
    assert code(svc, "create_return", {"order_id": "ORD-0011", "items": [
        {"sku": "KB-MECH-01", "quantity": 1, "reason": "defective"}]}) == 409  # the whole order came back
    assert code(svc, "create_return", {"order_id": "ORD-0011", "items": [
        {"sku": "KB-MECH-01", "quantity": 1, "reason": "defective", "exchange_sku": "XX-0"}]}) == 404
    assert code(svc, "create_return", {"order_id": "ORD-0011", "items": []}) == 400


def test_refunds_and_labels(svc):
    r = ok(svc, "update_refund", {"return_id": "RET-0003", "line_item_id": "RET-0003-1", "amount": 350})
    assert r["refund_total"] == 419.9
    msg = error(svc, "update_refund", {"return_id": "RET-0003", "line_item_id": "RET-0003-2", "amount": 69.91})
    assert msg["code"] == 422 and "more than was paid" in msg["message"]
    assert code(svc, "update_refund", {"return_id": "RET-0005", "line_item_id": "RET-0005-1", "amount": 5}) == 422
    assert code(svc, "update_refund", {"return_id": "RET-0003", "line_item_id": "RET-0003-9", "amount": 5}) == 400
    assert code(svc, "update_refund", {"return_id": "RET-0001", "line_item_id": "RET-0001-1", "amount": 5}) == 409
    assert code(svc, "create_label", {"return_id": "RET-0003"}) == 409
    cancelled = ok(svc, "cancel_return", {"return_id": "RET-0005"})
    assert (cancelled["state"], cancelled["label"]["status"]) == ("cancelled", "voided")
    assert ok(svc, "list_exchange_variants", {"sku": "LP-LED-07"})[0]["available"] == 13
    assert code(svc, "create_label", {"return_id": "RET-0005"}) == 409
    new = ok(svc, "create_return", {"order_id": "ORD-0002", "items": [
        {"sku": "DK-STD-06", "quantity": 2, "reason": "defective"}]})
    label = ok(svc, "create_label", {"return_id": new["id"], "carrier": "fedex"})
    assert (label["tracking_number"], label["carrier"], label["status"]) == ("790100000006", "fedex", "pre_transit")


def test_lifecycle(svc):
    p = ok(svc, "process_return", {"return_id": "RET-0003"})
    assert (p["state"], p["processed"], p["processed_at"]) == ("closed", True, "2026-01-15T09:00:00")
    assert code(svc, "process_return", {"return_id": "RET-0003"}) == 409
    assert code(svc, "cancel_return", {"return_id": "RET-0003"}) == 409
    msg = error(svc, "reopen_return", {"return_id": "RET-0001"})
    assert msg["code"] == 409 and "only an expired return" in msg["message"]
    assert code(svc, "reopen_return", {"return_id": "RET-0002"}) == 409
    assert code(svc, "reopen_return", {"return_id": "RET-0004"}) == 409  # its lamp is on open RET-0005
    ok(svc, "cancel_return", {"return_id": "RET-0005"})
    re = ok(svc, "reopen_return", {"return_id": "RET-0004"})  # ORD-0002 is on day 30 of its window
    assert (re["state"], re["expires_on"], re["label"]["status"]) == ("open", "2026-01-29", "pre_transit")
    c = ok(svc, "close_return", {"return_id": "RET-0004"})
    assert (c["state"], c["processed"], c["label"]["status"]) == ("closed", False, "voided")
    assert code(svc, "close_return", {"return_id": "RET-0404"}) == 404


def test_notes_and_rollback(svc):
    n = ok(svc, "add_note", {"return_id": "RET-0001", "body": "case AB-1234: refund confirmed 399.58"})
    assert (n["id"], n["author"]) == ("NOTE-0003", "luis.ortega@company.example")
    assert ok(svc, "get_return", {"return_id": "RET-0001"})["notes"][-1]["body"].endswith("399.58")
    assert code(svc, "add_note", {"return_id": "RET-0001", "body": ""}) == 400
    before = svc.state_dict()
    res = svc.call("create_return", {"order_id": "ORD-0002", "items": [
        {"sku": "DK-STD-06", "quantity": 1, "reason": "too_large", "exchange_sku": "DK-STD-06"},
        {"sku": "DK-STD-06", "quantity": 5, "reason": "too_large"}]})
    assert res["success"] is False and res["error"]["code"] == 409
    assert svc.state_dict() == before
