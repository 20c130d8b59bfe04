"""Tests of the payments service."""

from __future__ import annotations

import pytest
from _svc_asserts import data, error_code

from compoworld_gym.envs.services._commerce import order_book
from compoworld_gym.envs.services.payments import Payments


@pytest.fixture
def svc(make_service):
    return make_service(Payments)


def test_seed_pays_the_shared_book(svc, today):
    book = {b.id: b for b in order_book(today)}
    assert svc.state.payment_intents["PI-0001"].amount == book["ORD-0001"].total
    assert svc.state.payment_intents["PI-0001"].order_id == "ORD-0001"
    assert "PI-0008" not in svc.state.payment_intents  # ORD-0008 is unpaid
    assert svc.state.payment_intents["PI-0011"].amount_refunded == book["ORD-0011"].total
    assert svc.state.payment_intents["PI-0013"].status == "requires_capture"


def test_customers(svc):
    c = data(svc.call("create_customer", {"name": "Zoe Adams", "email": "zoe@adams.example"}))
    assert (c["id"], c["card_brand"]) == ("CUS-0011", None)
    assert error_code(svc.call("create_customer", {"name": "Dup", "email": "OLIVIA.MARTINEZ@gmail.com"})) == 409
    found = data(svc.call("list_customers", {"email": "olivia.martinez@gmail.com"}))
    assert [x["id"] for x in found] == ["CUS-0001"]
    assert len(data(svc.call("list_customers", {"limit": 100}))) == 11
    assert data(svc.call("retrieve_customer", {"customer": "CUS-0002"}))["name"] == "Noah Thompson"
    assert error_code(svc.call("retrieve_customer", {"customer": "CUS-0999"})) == 404
    card = data(svc.call("attach_payment_method", {"customer": "CUS-0011", "card_brand": "visa", "card_last4": "4242"}))
    assert (card["card_brand"], card["card_last4"]) == ("visa", "4242")
    assert error_code(svc.call("attach_payment_method", {"customer": "CUS-0011", "card_brand": "visa",
                                                   "card_last4": "42"})) == 400


def test_automatic_payment_flow(svc):
    pi = data(svc.call("create_payment_intent", {"amount": 49.999, "customer": "CUS-0003", "order_id": "ORD-0013"}))
    assert (pi["id"], pi["amount"], pi["status"]) == ("PI-0014", 50.0, "requires_confirmation")
    ok = data(svc.call("confirm_payment_intent", {"payment_intent": "PI-0014"}))
    assert (ok["status"], ok["amount_captured"]) == ("succeeded", 50.0)
    assert error_code(svc.call("confirm_payment_intent", {"payment_intent": "PI-0014"})) == 409
    assert error_code(svc.call("cancel_payment_intent", {"payment_intent": "PI-0014"})) == 409
    assert data(svc.call("retrieve_payment_intent", {"payment_intent": "PI-0014"}))["order_id"] == "ORD-0013"
    listed = data(svc.call("list_payment_intents", {"customer": "CUS-0003"}))
    assert listed[0]["id"] == "PI-0014"
    assert [p["id"] for p in data(svc.call("list_payment_intents", {"order_id": "ORD-0002"}))] == ["PI-0002"]


def test_confirm_needs_a_card(svc):
    data(svc.call("create_payment_intent", {"amount": 10, "customer": "CUS-0010"}))
    assert error_code(svc.call("confirm_payment_intent", {"payment_intent": "PI-0014"})) == 422
    assert error_code(svc.call("create_payment_intent", {"amount": 10, "customer": "CUS-0999"})) == 404
    assert error_code(svc.call("create_payment_intent", {"amount": -1, "customer": "CUS-0001"})) == 400


def test_manual_capture_and_cancel(svc):
    held = svc.state.payment_intents["PI-0013"].amount
    assert error_code(svc.call("capture_payment_intent", {"payment_intent": "PI-0013",
                                                    "amount_to_capture": held + 1})) == 422
    cap = data(svc.call("capture_payment_intent", {"payment_intent": "PI-0013", "amount_to_capture": 100}))
    assert (cap["status"], cap["amount_captured"]) == ("succeeded", 100.0)
    assert error_code(svc.call("capture_payment_intent", {"payment_intent": "PI-0013"})) == 409
    data(svc.call("create_payment_intent", {"amount": 5, "customer": "CUS-0001", "capture_method": "manual"}))
    assert data(svc.call("confirm_payment_intent", {"payment_intent": "PI-0014"}))["status"] == "requires_capture"
    assert data(svc.call("cancel_payment_intent", {"payment_intent": "PI-0014"}))["status"] == "canceled"
    assert error_code(svc.call("cancel_payment_intent", {"payment_intent": "PI-0014"})) == 409


def test_refund_rules(svc):
    total = svc.state.payment_intents["PI-0002"].amount_captured
    r = data(svc.call("create_refund", {"payment_intent": "PI-0002", "amount": 20}))
    assert (r["id"], r["amount"], r["payment_amount_refunded"]) == ("RE-0002", 20.0, 20.0)
    assert error_code(svc.call("create_refund", {"payment_intent": "PI-0002", "amount": total})) == 422
    rest = data(svc.call("create_refund", {"payment_intent": "PI-0002", "reason": "duplicate"}))
    assert rest["amount"] == round(total - 20, 2)
    assert error_code(svc.call("create_refund", {"payment_intent": "PI-0002"})) == 409
    assert error_code(svc.call("create_refund", {"payment_intent": "PI-0011"})) == 409
    assert error_code(svc.call("create_refund", {"payment_intent": "PI-0013"})) == 409
    assert [x["id"] for x in data(svc.call("list_refunds", {"payment_intent": "PI-0002"}))] == ["RE-0002", "RE-0003"]
    assert len(data(svc.call("list_refunds", {}))) == 3


def test_retrieve_balance(svc):
    pis = svc.state.payment_intents.values()
    expected = round(sum(p.amount_captured for p in pis) - sum(p.amount_refunded for p in pis), 2)
    bal = data(svc.call("retrieve_balance", {}))["available"]
    assert [b["currency"] for b in bal] == ["usd"] and bal[0]["amount"] == expected


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert error_code(svc.call("create_refund", {"payment_intent": "PI-0001", "amount": 1_000_000})) == 422
    assert error_code(svc.call("create_customer", {"name": "X", "email": "noah.thompson@outlook.com"})) == 409
    assert svc.state_dict() == before


@pytest.mark.parametrize("amount", [1e308, "inf", "-Infinity", "NaN", 0.004, 1_000_000_000.01])
def test_out_of_range_refund_amounts_are_a_400_naming_amount(svc, amount):
    import _svc_asserts as sa

    err = sa.error(svc, "create_refund", {"payment_intent": "PI-0002", "amount": amount})
    assert err["code"] == 400 and "'amount'" in err["message"]
    err = sa.error(svc, "capture_payment_intent", {"payment_intent": "PI-0013", "amount_to_capture": amount})
    assert err["code"] == 400 and "'amount_to_capture'" in err["message"]


def test_refund_amounts_round_half_up_to_cents(svc):
    assert data(svc.call("create_refund", {"payment_intent": "PI-0002", "amount": 10.005}))["amount"] == 10.01
    assert error_code(svc.call("create_payment_intent", {"amount": 0.004, "customer": "CUS-0002"})) == 400
