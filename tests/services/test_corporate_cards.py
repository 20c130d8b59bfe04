"""Tests of the corporate cards service (Ramp Developer API style)."""

from __future__ import annotations

import datetime as dt

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._corporate_cards_rules import period_start
from compoworld_gym.envs.services._workforce import roster
from compoworld_gym.envs.services.corporate_cards import CorporateCards
from compoworld_gym.envs.services.hr_directory import HrDirectory


@pytest.fixture
def svc(make_service):
    return make_service(CorporateCards)


def test_periods():
    day = dt.date(2026, 5, 20)
    assert [period_start(i, day) for i in ("DAILY", "MONTHLY", "QUARTERLY", "YEARLY", "TOTAL")] == [
        day, dt.date(2026, 5, 1), dt.date(2026, 4, 1), dt.date(2026, 1, 1), None]


def test_cardholders_are_the_company_roster(make_service, svc):
    people = {p.email: p.employee_id for p in roster(0, dt.date(2026, 1, 15))}
    users = ok(svc, "list_users", {"limit": 200})
    assert len(users) == 14 and all(people[u["email"]] == u["employee_id"] for u in users)
    hr = make_service(HrDirectory)
    emails = {e.email for e in hr.state.employees.values()}
    assert all(c.cardholder_email in emails for c in svc.state.cards.values())


def test_reads(svc):
    assert [u["id"] for u in ok(svc, "list_users", {"email": "GRACE.OKAFOR@company.example"})] == ["USR-0008"]
    assert [u["email"] for u in ok(svc, "list_users", {"department_name": "finance"})] == [
        "elena.petrova@company.example", "tomas.lindqvist@company.example"]
    assert [u["id"] for u in ok(svc, "list_users", {"role": "BUSINESS_OWNER"})] == ["USR-0001"]
    assert ok(svc, "get_user", {"user_id": "USR-0004"})["name"] == "Marcus Bell"
    assert [(p["id"], p["restrictions"]["amount"]) for p in ok(svc, "list_spend_programs")] == [
        ("SPR-0001", 3000.0), ("SPR-0002", 6000.0), ("SPR-0003", 800.0), ("SPR-0004", 12000.0)]
    assert [(c["id"], c["state"]) for c in ok(svc, "list_cards", {"cardholder_email": "marcus.bell@company.example"})] \
        == [("CARD-0008", "TERMINATED"), ("CARD-0009", "ACTIVE")]
    assert [c["id"] for c in ok(svc, "list_cards", {"state": "SUSPENDED"})] == ["CARD-0005"]
    assert [c["id"] for c in ok(svc, "list_cards", {"spend_program_id": "SPR-0003"})] == ["CARD-0003", "CARD-0007"]
    card = ok(svc, "get_card", {"card_id": "CARD-0002"})
    assert (card["cardholder_email"], card["limit"]["spent"], card["limit"]["pending"], card["limit"]["cleared"],
            card["limit"]["remaining"]) == ("grace.okafor@company.example", 355.54, 53.19, 302.35, 5644.46)
    lim = ok(svc, "get_card_limit", {"card_id": "CARD-0003"})
    assert (lim["amount"], lim["interval"], lim["period_start"], lim["spent"], lim["remaining"]) == (
        800.0, "MONTHLY", "2026-01-01", 740.0, 60.0)
    assert ok(svc, "get_card_limit", {"card_id": "CARD-0010"})["period_start"] == "2026-01-01"
    assert code(svc, "get_card", {"card_id": "CARD-0999"}) == 404
    assert code(svc, "get_user", {"user_id": "USR-0999"}) == 404


def test_transaction_filters(svc):
    ids = lambda args: [t["id"] for t in ok(svc, "list_transactions", args)]  # noqa: E731
    assert ids({"card_id": "CARD-0003"}) == ["CTX-0015", "CTX-0012", "CTX-0008"]
    assert ids({"state": "DECLINED"}) == ["CTX-0016", "CTX-0015"]
    assert ids({"state": "PENDING"}) == ["CTX-0017", "CTX-0018"]
    assert ids({"merchant_name": "united airlines"}) == ["CTX-0011", "CTX-0007"]
    assert ids({"cardholder_email": "Ben.Foster@company.example"}) == ["CTX-0018", "CTX-0005"]
    assert ids({"memo": "austin"}) == ["CTX-0008"]
    assert ids({"from_date": "2026-01-10", "to_date": "2026-01-12", "min_amount": 100}) == ["CTX-0014", "CTX-0012"]
    assert ids({"max_amount": 75}) == ["CTX-0017", "CTX-0013"]
    assert ids({"has_no_receipts": True, "state": "CLEARED"}) == ["CTX-0012", "CTX-0008", "CTX-0004"]
    assert ids({"flagged": True}) == ["CTX-0013"]
    assert ids({"limit": 2}) == ["CTX-0017", "CTX-0018"]
    assert code(svc, "list_transactions", {"from_date": "2026-01-12", "to_date": "2026-01-10"}) == 400
    t = ok(svc, "get_transaction", {"transaction_id": "CTX-0015"})
    assert (t["merchant_name"], t["amount"], t["state"], t["decline_reason"]) == (
        "Amazon Business", 116.0, "DECLINED", "INSUFFICIENT_LIMIT")
    assert code(svc, "get_transaction", {"transaction_id": "CTX-0999"}) == 404
    assert ok(svc, "list_memos", {"card_id": "CARD-0004"}) == [
        {"transaction_id": "CTX-0013", "card_id": "CARD-0004", "memo": "Team lunch with the customer"},
        {"transaction_id": "CTX-0007", "card_id": "CARD-0004", "memo": "Client visit - travel"}]
    assert [r["id"] for r in ok(svc, "list_receipts", {"transaction_id": "CTX-0003"})] == ["RCT-0003"]
    assert [r["transaction_id"] for r in ok(svc, "list_receipts", {"user_id": "USR-0008"})] == [
        "CTX-0003", "CTX-0006", "CTX-0009"]


def test_authorizations_against_the_limit(svc):
    ok_ = ok(svc, "simulate_authorization", {"card_id": "CARD-0003", "merchant_name": "Staples", "amount": 59.99})
    assert (ok_["id"], ok_["state"], ok_["decline_reason"], ok_["remaining"]) == ("CTX-0019", "PENDING", None, 0.01)
    over = ok(svc, "simulate_authorization", {"card_id": "CARD-0003", "merchant_name": "Staples", "amount": 0.02})
    assert (over["state"], over["decline_reason"], over["remaining"]) == ("DECLINED", "INSUFFICIENT_LIMIT", 0.01)
    per = ok(svc, "simulate_authorization", {"card_id": "CARD-0002", "merchant_name": "Delta Air Lines",
                                             "amount": 2600, "merchant_category": "TRAVEL"})
    assert per["decline_reason"] == "TRANSACTION_AMOUNT_LIMIT"
    blocked = ok(svc, "simulate_authorization", {"card_id": "CARD-0001", "merchant_name": "Marriott", "amount": 120,
                                                 "merchant_category": "LODGING"})
    assert blocked["decline_reason"] == "BLOCKED_CATEGORY"
    locked = ok(svc, "simulate_authorization", {"card_id": "CARD-0005", "merchant_name": "Eventbrite", "amount": 10,
                                                "merchant_category": "EVENTS"})
    assert locked["decline_reason"] == "CARD_SUSPENDED"
    gone = ok(svc, "simulate_authorization", {"card_id": "CARD-0008", "merchant_name": "Uber", "amount": 10,
                                              "merchant_category": "TRAVEL"})
    assert gone["decline_reason"] == "CARD_TERMINATED"
    assert ok(svc, "get_card_limit", {"card_id": "CARD-0003"})["spent"] == 799.99
    assert code(svc, "simulate_authorization", {"card_id": "CARD-0003", "merchant_name": "Staples",
                                                "amount": 0}) == 400


def test_lock_unlock_terminate(svc):
    locked = ok(svc, "lock_card", {"card_id": "CARD-0002"})
    assert (locked["state"], locked["suspended_at"]) == ("SUSPENDED", "2026-01-15T09:00:00")
    assert code(svc, "lock_card", {"card_id": "CARD-0002"}) == 409
    assert ok(svc, "unlock_card", {"card_id": "CARD-0002"})["state"] == "ACTIVE"
    assert code(svc, "unlock_card", {"card_id": "CARD-0002"}) == 409
    msg = error(svc, "unlock_card", {"card_id": "CARD-0008"})
    assert msg["code"] == 409 and "terminated" in msg["message"]
    assert code(svc, "lock_card", {"card_id": "CARD-0008"}) == 409
    assert ok(svc, "terminate_card", {"card_id": "CARD-0005"})["state"] == "TERMINATED"
    assert code(svc, "terminate_card", {"card_id": "CARD-0005"}) == 409
    assert code(svc, "lock_card", {"card_id": "CARD-0404"}) == 404


def test_update_and_issue(svc):
    low = ok(svc, "update_card", {"card_id": "CARD-0002", "amount": 355.54})
    assert (low["spending_restrictions"]["amount"], low["spending_restrictions"]["transaction_amount_limit"],
            low["limit"]["remaining"]) == (355.54, 355.54, 0.0)
    assert ok(svc, "simulate_authorization", {"card_id": "CARD-0002", "merchant_name": "Uber", "amount": 5,
                                              "merchant_category": "TRAVEL"})["decline_reason"] == "INSUFFICIENT_LIMIT"
    renamed = ok(svc, "update_card", {"card_id": "CARD-0001", "display_name": "SaaS - Elena", "interval": "QUARTERLY"})
    assert (renamed["display_name"], renamed["limit"]["interval"], renamed["limit"]["spent"]) == (
        "SaaS - Elena", "QUARTERLY", 298.46)
    assert code(svc, "update_card", {"card_id": "CARD-0001"}) == 400
    assert code(svc, "update_card", {"card_id": "CARD-0001", "transaction_amount_limit": 5000}) == 422
    assert code(svc, "update_card", {"card_id": "CARD-0008", "amount": 100}) == 409
    assert code(svc, "update_card", {"card_id": "CARD-0001", "amount": 0}) == 400
    card = ok(svc, "create_card", {"user_id": "USR-0006", "spend_program_id": "SPR-0003", "amount": 300})
    assert (card["id"], card["display_name"], card["state"], card["is_physical"], card["spending_restrictions"]["amount"],
            card["spending_restrictions"]["transaction_amount_limit"], card["cardholder_email"]) == (
        "CARD-0011", "Office supplies - Tomas Lindqvist", "ACTIVE", False, 300.0, 300.0,
        "tomas.lindqvist@company.example")
    assert code(svc, "create_card", {"user_id": "USR-0006", "spend_program_id": "SPR-0404"}) == 404
    svc.state.users["USR-0006"].status = "USER_SUSPENDED"
    assert code(svc, "create_card", {"user_id": "USR-0006", "spend_program_id": "SPR-0001"}) == 409


def test_memos_receipts_flags(svc):
    t = ok(svc, "update_memo", {"transaction_id": "CTX-0012", "memo": " Courier for the Denver return "})
    assert t["memo"] == "Courier for the Denver return"
    assert code(svc, "update_memo", {"transaction_id": "CTX-0015", "memo": "x"}) == 422
    rc = ok(svc, "upload_receipt", {"transaction_id": "CTX-0012", "filename": "fedex-0110.pdf"})
    assert (rc["id"], rc["user_id"], rc["transaction_id"]) == ("RCT-0012", "USR-0007", "CTX-0012")
    assert ok(svc, "get_transaction", {"transaction_id": "CTX-0012"})["receipts"] == ["RCT-0012"]
    assert code(svc, "upload_receipt", {"transaction_id": "CTX-0012", "filename": "FEDEX-0110.pdf"}) == 409
    assert code(svc, "upload_receipt", {"transaction_id": "CTX-0012", "filename": "notes.docx"}) == 400
    assert code(svc, "upload_receipt", {"transaction_id": "CTX-0016", "filename": "eventbrite.pdf"}) == 422
    assert code(svc, "upload_receipt", {"transaction_id": "CTX-0012", "filename": "a.pdf", "user_id": "USR-0999"}) \
        == 404
    f = ok(svc, "flag_transaction", {"transaction_id": "CTX-0017", "reason": "case AB-1234: meal without attendees"})
    assert (f["flagged"], f["flag_reason"]) == (True, "case AB-1234: meal without attendees")
    assert code(svc, "flag_transaction", {"transaction_id": "CTX-0013", "reason": "again"}) == 409
    assert code(svc, "flag_transaction", {"transaction_id": "CTX-0015", "reason": "declined one"}) == 422


def test_failed_call_rolls_back(svc):
    before = svc.state_dict()
    res = svc.call("update_card", {"card_id": "CARD-0001", "amount": 100, "transaction_amount_limit": 200})
    assert res["success"] is False and res["error"]["code"] == 422
    assert svc.state_dict() == before
