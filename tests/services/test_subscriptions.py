"""Tests of the subscriptions service (Chargebee API v2 style). Today is 2026-01-15."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._subscriptions_rules import prorate_cents
from compoworld_gym.envs.services.subscriptions import Subscriptions


@pytest.fixture
def svc(make_service):
    return make_service(Subscriptions)


def change(svc, sid, price, **kw):
    return ok(svc, "update_subscription_for_items", {"subscription_id": sid, "item_price_id": price, **kw})


def test_catalog_and_customers(svc):
    prices = ok(svc, "list_item_prices")
    assert [p["id"] for p in prices[:2]] == ["starter-USD-monthly", "starter-USD-yearly"]
    assert len(prices) == 8 and len(ok(svc, "list_item_prices", {"include_archived": True})) == 9
    assert [p["price"] for p in ok(svc, "list_item_prices", {"item_id": "growth"})] == [299.0, 2990.0]
    ip = ok(svc, "retrieve_item_price", {"item_price_id": "growth-legacy-USD-monthly"})
    assert (ip["status"], ip["price"], ip["tier"]) == ("archived", 249.0, 2)
    cust = ok(svc, "list_customers", {"company": "initech"})
    assert [(c["id"], c["email"], c["first_name"]) for c in cust] == [
        ("CUS-0002", "samir.nagheenanajar@initech.example", "Samir")]
    assert ok(svc, "list_customers", {"email": "ANA.LUCIA.CORTEZ@oceanic.example"})[0]["last_name"] == "Cortez"
    assert ok(svc, "retrieve_customer", {"customer_id": "CUS-0010"})["company"] == "Vandelay Industries"
    assert code(svc, "retrieve_customer", {"customer_id": "CUS-0099"}) == 404
    assert code(svc, "retrieve_item_price", {"item_price_id": "gold-USD-monthly"}) == 404


def test_subscriptions_list_and_retrieve(svc):
    oceanic = ok(svc, "list_subscriptions", {"customer_id": "CUS-0009"})
    assert [(s["id"], s["status"], s["item_price_id"]) for s in oceanic] == [
        ("SUB-0001", "cancelled", "starter-USD-yearly"), ("SUB-0010", "active", "business-USD-monthly")]
    assert [s["id"] for s in ok(svc, "list_subscriptions", {"status": "paused"})] == ["SUB-0007"]
    assert [s["id"] for s in ok(svc, "list_subscriptions", {"item_price_id": "growth-USD-monthly"})] == [
        "SUB-0003", "SUB-0006"]
    sub = ok(svc, "retrieve_subscription", {"subscription_id": "SUB-0002"})
    assert (sub["company"], sub["plan"], sub["plan_amount"], sub["mrr"]) == ("Globex Corporation", "Business",
                                                                            7990.0, 665.83)
    assert (sub["current_term_start"], sub["current_term_end"]) == ("2025-06-29", "2026-06-29")
    trial = ok(svc, "retrieve_subscription", {"subscription_id": "SUB-0006"})
    assert (trial["status"], trial["trial_end"], trial["mrr"]) == ("in_trial", "2026-01-24", 0.0)
    assert code(svc, "retrieve_subscription", {"subscription_id": "SUB-0999"}) == 404
    assert code(svc, "list_subscriptions", {"status": "expired"}) == 400


def test_downgrade_prorates_by_day_and_issues_a_credit_note(svc):
    est = ok(svc, "estimate_update_subscription", {"subscription_id": "SUB-0003",
                                                   "item_price_id": "starter-USD-monthly"})
    # 19 of the term's 31 days are left: 299.00 x 19/31 = 183.26 back, 99.00 x 19/31 = 60.68 due.
    assert (est["days_left"], est["term_days"], est["credit"], est["charge"]) == (19, 31, 183.26, 60.68)
    assert (est["credit_note_total"], est["unbilled_charge"]) == (122.58, 0.0)
    out = change(svc, "SUB-0003", "starter-USD-monthly")
    assert (out["subscription"]["item_price_id"], out["subscription"]["mrr"]) == ("starter-USD-monthly", 99.0)
    cn = out["credit_note"]
    assert (cn["id"], cn["total"], cn["reason_code"], cn["status"], cn["amount_available"]) == (
        "CN-0004", 122.58, "subscription_change", "refund_due", 122.58)
    assert out["unbilled_charge"] is None
    assert ok(svc, "retrieve_credit_note", {"credit_note_id": "CN-0004"})["subscription_id"] == "SUB-0003"
    assert [c["id"] for c in ok(svc, "list_credit_notes", {"subscription_id": "SUB-0003"})] == ["CN-0002", "CN-0004"]


def test_upgrade_adds_an_unbilled_charge(svc):
    out = change(svc, "SUB-0011", "growth-USD-monthly")
    # 14 of 31 days left: 299.00 x 14/31 = 135.03 less 99.00 x 14/31 = 44.71.
    assert out["unbilled_charge"]["amount"] == 90.32 and out["credit_note"] is None
    assert out["subscription"]["current_term_end"] == "2026-01-29"
    assert [u["id"] for u in ok(svc, "list_unbilled_charges", {"subscription_id": "SUB-0011"})] == ["UBC-0003"]
    assert prorate_cents(29900, 14, 31) - prorate_cents(9900, 14, 31) == 9032


def test_billing_period_change_starts_a_new_term(svc):
    out = change(svc, "SUB-0003", "growth-USD-yearly")
    sub = out["subscription"]
    assert (sub["current_term_start"], sub["current_term_end"], sub["mrr"]) == ("2026-01-15", "2027-01-15", 249.17)
    assert out["unbilled_charge"]["amount"] == 2806.74  # 2990.00 in full less 183.26 unused
    negotiated = change(svc, "SUB-0005", "enterprise-USD-yearly", unit_price=18000, prorate=False)
    assert (negotiated["subscription"]["plan_amount"], negotiated["credit_note"]) == (18000.0, None)


def test_no_change_on_a_cancelled_subscription(svc):
    for tool, args in (("update_subscription_for_items", {"item_price_id": "growth-USD-yearly"}),
                       ("cancel_subscription_for_items", {}), ("pause_subscription", {}),
                       ("resume_subscription", {}), ("remove_scheduled_cancellation", {})):
        msg = error(svc, tool, {"subscription_id": "SUB-0001", **args})
        assert msg["code"] == 409, (tool, msg)
    assert "reactivate_subscription" in error(svc, "update_subscription_for_items", {
        "subscription_id": "SUB-0001", "item_price_id": "growth-USD-yearly"})["message"]
    back = ok(svc, "reactivate_subscription", {"subscription_id": "SUB-0001"})
    assert (back["status"], back["current_term_end"], back["mrr"]) == ("active", "2027-01-15", 82.5)
    assert code(svc, "reactivate_subscription", {"subscription_id": "SUB-0001"}) == 409


def test_plan_change_rules(svc):
    assert code(svc, "update_subscription_for_items", {"subscription_id": "SUB-0007",
                                                       "item_price_id": "growth-USD-monthly"}) == 409  # paused
    assert code(svc, "update_subscription_for_items", {"subscription_id": "SUB-0003",
                                                       "item_price_id": "growth-legacy-USD-monthly"}) == 422
    assert code(svc, "update_subscription_for_items", {"subscription_id": "SUB-0003",
                                                       "item_price_id": "growth-USD-monthly"}) == 422  # no change
    trial = change(svc, "SUB-0006", "business-USD-monthly")  # a trial is not prorated
    assert (trial["subscription"]["status"], trial["credit_note"], trial["unbilled_charge"]) == ("in_trial", None,
                                                                                               None)


def test_one_live_subscription_per_customer_and_plan(svc):
    assert code(svc, "create_subscription_for_items", {"customer_id": "CUS-0002",
                                                       "item_price_id": "growth-USD-yearly"}) == 409
    new = ok(svc, "create_subscription_for_items", {"customer_id": "CUS-0002", "item_price_id": "starter-USD-monthly"})
    assert (new["id"], new["status"], new["trial_end"]) == ("SUB-0012", "in_trial", "2026-01-29")
    msg = error(svc, "update_subscription_for_items", {"subscription_id": "SUB-0003",
                                                       "item_price_id": "starter-USD-monthly"})
    assert msg["code"] == 409 and "SUB-0012" in msg["message"]
    # Oceanic's cancelled Starter does not count: a new one may start.
    assert ok(svc, "create_subscription_for_items", {"customer_id": "CUS-0009", "item_price_id": "starter-USD-monthly",
                                                     "skip_trial": True})["status"] == "active"


def test_create_customer_and_subscription(svc):
    c = ok(svc, "create_customer", {"first_name": "Ada", "last_name": "Byrne", "email": "ada@hooli.example",
                                    "company": "Hooli"})
    assert c["id"] == "CUS-0011"
    assert code(svc, "create_customer", {"first_name": "A", "last_name": "B", "email": "ADA@hooli.example",
                                         "company": "Hooli"}) == 409
    fut = ok(svc, "create_subscription_for_items", {"customer_id": "CUS-0011", "item_price_id": "business-USD-yearly",
                                                    "start_date": "2026-02-01"})
    assert (fut["status"], fut["next_billing_at"], fut["mrr"]) == ("future", "2026-02-01", 0.0)
    assert code(svc, "create_subscription_for_items", {"customer_id": "CUS-0011",
                                                       "item_price_id": "starter-USD-monthly",
                                                       "start_date": "2026-01-01"}) == 422
    assert code(svc, "create_subscription_for_items", {"customer_id": "CUS-0011",
                                                       "item_price_id": "growth-legacy-USD-monthly"}) == 422
    assert code(svc, "create_subscription_for_items", {"customer_id": "CUS-0404",
                                                       "item_price_id": "starter-USD-monthly"}) == 404


def test_cancel_at_end_of_term_or_immediately(svc):
    assert code(svc, "cancel_subscription_for_items", {"subscription_id": "SUB-0011", "end_of_term": True,
                                                       "credit_option_for_current_term_charges": "prorate"}) == 422
    out = ok(svc, "cancel_subscription_for_items", {"subscription_id": "SUB-0011", "end_of_term": True,
                                                    "cancel_reason_code": "no_longer_needed"})
    sub = out["subscription"]
    assert (sub["status"], sub["cancelled_at"], sub["next_billing_at"], sub["mrr"]) == ("non_renewing", "2026-01-29",
                                                                                       None, 99.0)
    assert code(svc, "cancel_subscription_for_items", {"subscription_id": "SUB-0011", "end_of_term": True}) == 409
    kept = ok(svc, "remove_scheduled_cancellation", {"subscription_id": "SUB-0011"})
    assert (kept["status"], kept["cancelled_at"], kept["next_billing_at"]) == ("active", None, "2026-01-29")
    assert code(svc, "remove_scheduled_cancellation", {"subscription_id": "SUB-0011"}) == 409
    assert code(svc, "cancel_subscription_for_items", {"subscription_id": "SUB-0006", "end_of_term": True}) == 409
    now = ok(svc, "cancel_subscription_for_items", {"subscription_id": "SUB-0002",
                                                    "cancel_reason_code": "too_expensive",
                                                    "credit_option_for_current_term_charges": "prorate"})
    # 165 of 365 days unused: 7990.00 x 165/365 = 3611.92.
    assert (now["subscription"]["status"], now["credit_note"]["total"]) == ("cancelled", 3611.92)
    assert now["credit_note"]["reason_code"] == "subscription_cancellation"
    trial = ok(svc, "cancel_subscription_for_items", {"subscription_id": "SUB-0006"})
    assert (trial["subscription"]["status"], trial["credit_note"]) == ("cancelled", None)


def test_pause_and_resume(svc):
    assert code(svc, "pause_subscription", {"subscription_id": "SUB-0006"}) == 409  # a trial
    assert code(svc, "pause_subscription", {"subscription_id": "SUB-0011", "resume_date": "2026-01-10"}) == 422
    later = ok(svc, "pause_subscription", {"subscription_id": "SUB-0011", "pause_option": "end_of_term"})
    assert (later["status"], later["pause_date"]) == ("active", "2026-01-29")
    assert code(svc, "pause_subscription", {"subscription_id": "SUB-0011"}) == 409
    now = ok(svc, "pause_subscription", {"subscription_id": "SUB-0003", "resume_date": "2026-03-01"})
    assert (now["status"], now["pause_date"], now["resume_date"], now["mrr"]) == ("paused", "2026-01-15",
                                                                                "2026-03-01", 0.0)
    back = ok(svc, "resume_subscription", {"subscription_id": "SUB-0007"})
    assert (back["status"], back["current_term_start"], back["current_term_end"], back["mrr"]) == (
        "active", "2026-01-15", "2026-02-15", 99.0)
    assert code(svc, "resume_subscription", {"subscription_id": "SUB-0007"}) == 409


def test_credit_notes_never_exceed_the_term(svc):
    assert code(svc, "create_credit_note", {"subscription_id": "SUB-0003", "total": 299.01,
                                            "description": "Outage"}) == 422
    cn = ok(svc, "create_credit_note", {"subscription_id": "SUB-0003", "total": 250, "description": "Outage credit",
                                        "reason_code": "service_unsatisfactory"})
    assert (cn["id"], cn["status"], cn["amount_available"]) == ("CN-0004", "refund_due", 250.0)
    msg = error(svc, "create_credit_note", {"subscription_id": "SUB-0003", "total": 49.01, "description": "More"})
    assert msg["code"] == 422 and "at most 49.00" in msg["message"]
    adj = ok(svc, "create_credit_note", {"subscription_id": "SUB-0003", "total": 49, "description": "Rest",
                                         "type": "adjustment"})
    assert (adj["status"], adj["amount_available"]) == ("adjusted", 0.0)
    assert code(svc, "create_credit_note", {"subscription_id": "SUB-0006", "total": 10, "description": "Trial"}) == 422
    assert ok(svc, "void_credit_note", {"credit_note_id": "CN-0004"})["status"] == "voided"
    assert code(svc, "void_credit_note", {"credit_note_id": "CN-0004"}) == 409
    assert code(svc, "void_credit_note", {"credit_note_id": "CN-0001"}) == 409  # refunded
    assert code(svc, "void_credit_note", {"credit_note_id": "CN-0404"}) == 404
    assert [c["id"] for c in ok(svc, "list_credit_notes", {"status": "voided"})] == ["CN-0003", "CN-0004"]
    assert [c["id"] for c in ok(svc, "list_credit_notes", {"customer_id": "CUS-0009"})] == ["CN-0001"]


def test_comments(svc):
    c = ok(svc, "create_comment", {"entity_type": "subscription", "entity_id": "SUB-0003",
                                   "notes": "Asked about the Business plan."})
    assert (c["id"], c["added_by"], c["created_at"]) == ("CMT-0004", "ops@company.example", "2026-01-15T09:00:00")
    assert [x["id"] for x in ok(svc, "list_comments", {"entity_id": "SUB-0003"})] == ["CMT-0004"]
    assert ok(svc, "list_comments", {"entity_id": "SUB-0007"})[0]["notes"].startswith("Paused for the winter")
    assert code(svc, "create_comment", {"entity_type": "customer", "entity_id": "SUB-0003", "notes": "x"}) == 404


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("create_credit_note", {"subscription_id": "SUB-0003", "total": 500,
                                           "description": "Too much"})["success"] is False
    assert svc.call("update_subscription_for_items", {"subscription_id": "SUB-0001",
                                                      "item_price_id": "growth-USD-monthly"})["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic_and_varies_discounts(make_service):
    assert make_service(Subscriptions, seed=3).state_dict() == make_service(Subscriptions, seed=3).state_dict()
    amounts = {make_service(Subscriptions, seed=s).state.subscriptions["SUB-0005"].mrr for s in range(6)}
    assert len(amounts) > 1
