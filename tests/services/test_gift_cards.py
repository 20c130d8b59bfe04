"""Tests of the gift cards service (Square Gift Cards API style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._commerce import CUSTOMERS, order_book
from compoworld_gym.envs.services._gift_cards_rules import gan_for
from compoworld_gym.envs.services.gift_cards import GiftCards


@pytest.fixture
def svc(make_service):
    return make_service(GiftCards)


def test_seed_lines_up_with_the_store(svc, today):
    assert [c["email_address"] for c in ok(svc, "search_customers", {"limit": 200})] == [c.email for c in CUSTOMERS]
    refund = ok(svc, "list_gift_card_activities", {"order_id": "ORD-0011"})
    book = {o.id: o for o in order_book(today)}
    assert [(a["gift_card_id"], a["type"], a["amount_money"]) for a in refund] == [
        ("GC-0003", "ACTIVATE", book["ORD-0011"].total)]
    card = ok(svc, "retrieve_gift_card", {"gift_card_id": "GC-0003"})
    assert card["customer_emails"] == [book["ORD-0011"].customer.email] and card["balance_money"] == 405.57
    assert gan_for(1) == "7783320000000018"


def test_reads(svc):
    assert [c["id"] for c in ok(svc, "search_customers", {"email_address": "LIAM.PATEL@gmail.com"})] == ["CUS-0004"]
    assert [c["id"] for c in ok(svc, "search_customers", {"name": "emma wilson"})] == ["CUS-0003"]
    assert ok(svc, "retrieve_customer", {"customer_id": "CUS-0003"})["gift_card_ids"] == ["GC-0004", "GC-0008"]
    assert code(svc, "retrieve_customer", {"customer_id": "CUS-0099"}) == 404
    assert [g["id"] for g in ok(svc, "list_gift_cards", {"customer_id": "CUS-0004"})] == ["GC-0003", "GC-0005"]
    assert [g["id"] for g in ok(svc, "list_gift_cards", {"state": "PENDING", "type": "PHYSICAL"})] == [
        "GC-0006", "GC-0007"]
    assert ok(svc, "retrieve_gift_card", {"gift_card_id": "GC-0001"})["balance_money"] == 64.5
    assert code(svc, "retrieve_gift_card", {"gift_card_id": "GC-0999"}) == 404
    assert ok(svc, "retrieve_gift_card_from_gan", {"gan": "7783 3200 0000 0083"})["id"] == "GC-0008"
    assert code(svc, "retrieve_gift_card_from_gan", {"gan": "1234567890"}) == 404
    acts = ok(svc, "list_gift_card_activities", {"gift_card_id": "GC-0009"})
    assert [(a["type"], a["gift_card_balance_money"]) for a in acts] == [
        ("REDEEM", 114.75), ("REFUND", 160.0), ("REDEEM", 140.0), ("ACTIVATE", 200.0)]
    assert [a["id"] for a in ok(svc, "list_gift_card_activities", {"type": "BLOCK"})] == ["GCA-0010"]
    assert code(svc, "list_gift_card_activities", {"gift_card_id": "GC-0999"}) == 404


def test_create_activate_link(svc):
    g = ok(svc, "create_gift_card", {"type": "PHYSICAL", "gan": "60010020003000"})
    assert (g["id"], g["state"], g["gan_source"], g["balance_money"]) == ("GC-0012", "PENDING", "OTHER", 0.0)
    assert code(svc, "create_gift_card", {"gan": "60010020003000"}) == 409
    assert code(svc, "create_gift_card", {"gan": "12ab"}) == 400
    d = ok(svc, "create_gift_card", {})
    assert (d["gan"], d["gan_source"]) == (gan_for(13), "SQUARE")
    assert code(svc, "load_gift_card", {"gift_card_id": "GC-0012", "amount_money": 10}) == 409  # pending
    a = ok(svc, "activate_gift_card", {"gift_card_id": "GC-0012", "amount_money": 120.0, "order_id": "ORD-0007",
                                       "reference_id": "Refund of order ORD-0007"})
    assert (a["id"], a["type"], a["gift_card_balance_money"], a["gift_card"]["state"]) == (
        "GCA-0019", "ACTIVATE", 120.0, "ACTIVE")
    assert code(svc, "activate_gift_card", {"gift_card_id": "GC-0012", "amount_money": 5}) == 409
    assert code(svc, "activate_gift_card", {"gift_card_id": "GC-0013", "amount_money": 2500}) == 400
    linked = ok(svc, "link_customer_to_gift_card", {"gift_card_id": "GC-0012", "customer_id": "CUS-0002"})
    assert linked["customer_emails"] == ["noah.thompson@outlook.com"]
    assert code(svc, "link_customer_to_gift_card", {"gift_card_id": "GC-0012", "customer_id": "CUS-0002"}) == 409
    assert code(svc, "link_customer_to_gift_card", {"gift_card_id": "GC-0004", "customer_id": "CUS-0002"}) == 409
    assert code(svc, "link_customer_to_gift_card", {"gift_card_id": "GC-0012", "customer_id": "CUS-0042"}) == 404
    un = ok(svc, "unlink_customer_from_gift_card", {"gift_card_id": "GC-0012", "customer_id": "CUS-0002"})
    assert (un["customer_ids"], un["customer_emails"]) == ([], [])
    assert code(svc, "unlink_customer_from_gift_card", {"gift_card_id": "GC-0012", "customer_id": "CUS-0002"}) == 422


def test_load_redeem_and_max_balance(svc):
    a = ok(svc, "load_gift_card", {"gift_card_id": "GC-0001", "amount_money": 45.5, "order_id": "ORD-0010",
                                   "reference_id": "RET-0003"})
    assert (a["type"], a["gift_card_balance_money"], a["order_id"]) == ("LOAD", 110.0, "ORD-0010")
    msg = error(svc, "load_gift_card", {"gift_card_id": "GC-0010", "amount_money": 0.01})
    assert msg["code"] == 422 and "maximum balance of 2,000.00" in msg["message"]
    r = ok(svc, "redeem_gift_card", {"gift_card_id": "GC-0001", "amount_money": 10, "payment_id": "PI-0100"})
    assert r["gift_card_balance_money"] == 100.0
    msg = error(svc, "redeem_gift_card", {"gift_card_id": "GC-0001", "amount_money": 100.01})
    assert msg["code"] == 422 and "holds 100.00" in msg["message"]
    assert code(svc, "redeem_gift_card", {"gift_card_id": "GC-0005", "amount_money": 5}) == 409  # blocked
    assert code(svc, "load_gift_card", {"gift_card_id": "GC-0001", "amount_money": 0}) == 400


def test_refund_limited_to_its_redeem(svc):
    assert code(svc, "refund_gift_card", {"gift_card_id": "GC-0009", "redeem_activity_id": "GCA-0013",
                                          "amount_money": 40.01}) == 422  # 60 redeemed, 20 refunded
    r = ok(svc, "refund_gift_card", {"gift_card_id": "GC-0009", "redeem_activity_id": "GCA-0013",
                                     "amount_money": 40})
    assert (r["gift_card_balance_money"], r["payment_id"]) == (154.75, "PI-0093")
    assert code(svc, "refund_gift_card", {"gift_card_id": "GC-0009", "redeem_activity_id": "GCA-0013",
                                          "amount_money": 1}) == 422
    assert code(svc, "refund_gift_card", {"gift_card_id": "GC-0009", "redeem_activity_id": "GCA-0002",
                                          "amount_money": 1}) == 400  # another card's redeem
    assert code(svc, "refund_gift_card", {"gift_card_id": "GC-0009", "redeem_activity_id": "GCA-0999",
                                          "amount_money": 1}) == 404


def test_adjust_and_clear(svc):
    inc = ok(svc, "adjust_gift_card_balance", {"gift_card_id": "GC-0002", "amount_money": 5, "direction": "INCREMENT",
                                               "reason": "COMPLIMENTARY"})
    assert (inc["type"], inc["gift_card_balance_money"]) == ("ADJUST_INCREMENT", 80.0)
    assert code(svc, "adjust_gift_card_balance", {"gift_card_id": "GC-0002", "amount_money": 5,
                                                  "direction": "INCREMENT", "reason": "PURCHASE_WAS_REFUNDED"}) == 400
    assert code(svc, "adjust_gift_card_balance", {"gift_card_id": "GC-0002", "amount_money": 81,
                                                  "direction": "DECREMENT", "reason": "SUPPORT_ISSUE"}) == 422
    c = ok(svc, "clear_gift_card_balance", {"gift_card_id": "GC-0002", "reason": "SUSPICIOUS_ACTIVITY"})
    assert (c["type"], c["gift_card_balance_money"], c["gift_card"]["state"]) == ("CLEAR_BALANCE", 0.0, "ACTIVE")
    assert code(svc, "clear_gift_card_balance", {"gift_card_id": "GC-0002"}) == 409


def test_block_unblock_deactivate(svc):
    b = ok(svc, "block_gift_card", {"gift_card_id": "GC-0008", "reference_id": "DSP-0042"})
    assert (b["reason"], b["gift_card"]["state"]) == ("CHARGEBACK_BLOCK", "BLOCKED")
    assert code(svc, "block_gift_card", {"gift_card_id": "GC-0008"}) == 409
    assert ok(svc, "unblock_gift_card", {"gift_card_id": "GC-0008"})["gift_card"]["state"] == "ACTIVE"
    assert code(svc, "unblock_gift_card", {"gift_card_id": "GC-0008"}) == 409
    d = ok(svc, "deactivate_gift_card", {"gift_card_id": "GC-0005", "reason": "CHARGEBACK_DEACTIVATE"})
    assert d["gift_card"]["state"] == "DEACTIVATED" and d["gift_card_balance_money"] == 40.0
    msg = error(svc, "load_gift_card", {"gift_card_id": "GC-0004", "amount_money": 5})
    assert msg["code"] == 409 and "final" in msg["message"]
    assert code(svc, "unblock_gift_card", {"gift_card_id": "GC-0004"}) == 409
    assert code(svc, "deactivate_gift_card", {"gift_card_id": "GC-0004"}) == 409


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("redeem_gift_card", {"gift_card_id": "GC-0001", "amount_money": 1000})["success"] is False
    assert svc.state_dict() == before
    assert make_service(GiftCards, seed=5).state_dict() == make_service(GiftCards, seed=5).state_dict()
