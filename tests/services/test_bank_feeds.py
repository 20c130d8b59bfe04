"""Tests of the bank_feeds service (Plaid Transactions API + reconciliation ledger). Today is 2026-01-15."""

from __future__ import annotations

import datetime as dt

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.accounts_payable import AccountsPayable
from compoworld_gym.envs.services.bank_feeds import BankFeeds

TODAY = dt.date(2026, 1, 15)


@pytest.fixture
def svc(make_service):
    return make_service(BankFeeds)


def test_accounts_and_computed_balances(svc):
    accts = ok(svc, "get_accounts")["accounts"]
    assert [(a["account_id"], a["subtype"], a["mask"]) for a in accts] == [
        ("BA-0001", "checking", "9547"), ("BA-0002", "savings", "3745"), ("BA-0003", "credit card", "2499")]
    bal = {a["account_id"]: a["balances"] for a in ok(svc, "get_account_balances")["accounts"]}
    # Checking: 168,480.23 opening less posted net 110,933.80; 342.18 pending held on top.
    assert (bal["BA-0001"]["current"], bal["BA-0001"]["available"]) == (57546.43, 57204.25)
    assert (bal["BA-0002"]["current"], bal["BA-0002"]["available"]) == (130023.04, 130023.04)
    # Card: 2,502.42 owed; 25,000 limit less that and the 86.75 pending dinner.
    assert (bal["BA-0003"]["current"], bal["BA-0003"]["available"], bal["BA-0003"]["limit"]) == (2502.42, 22410.83,
                                                                                                 25000.0)
    assert len(ok(svc, "get_account_balances", {"account_ids": ["BA-0002"]})["accounts"]) == 1
    assert code(svc, "get_account_balances", {"account_ids": ["BA-0009"]}) == 404


def test_sync_and_get_transactions(svc):
    first = ok(svc, "sync_transactions", {"count": 10})
    assert ([t["transaction_id"] for t in first["added"][:2]], first["next_cursor"], first["has_more"]) == (
        ["BTX-0001", "BTX-0002"], "cursor-10", True)
    rest = ok(svc, "sync_transactions", {"cursor": "cursor-10", "count": 100})
    assert (len(rest["added"]), rest["next_cursor"], rest["has_more"], rest["removed"]) == (15, "cursor-25", False, [])
    card = ok(svc, "sync_transactions", {"account_id": "BA-0003"})
    assert len(card["added"]) == 8 and all(t["account_id"] == "BA-0003" for t in card["added"])
    assert code(svc, "sync_transactions", {"cursor": "abc"}) == 400
    got = ok(svc, "get_transactions", {"start_date": "2026-01-10", "end_date": "2026-01-15",
                                       "account_ids": ["BA-0001"]})
    assert got["total_transactions"] == 5
    assert [t["transaction_id"] for t in got["transactions"]][:2] == ["BTX-0024", "BTX-0023"]  # newest first
    paged = ok(svc, "get_transactions", {"start_date": "2025-12-01", "end_date": "2026-01-15", "count": 2, "offset": 1})
    assert [t["transaction_id"] for t in paged["transactions"]] == ["BTX-0024", "BTX-0023"]
    assert code(svc, "get_transactions", {"start_date": "2026-01-15", "end_date": "2026-01-01"}) == 400


def test_search_and_get(svc):
    bill_pay = ok(svc, "search_transactions", {"name_contains": "bil-0010"})
    assert [(t["id"], t["amount"], t["direction"], t["merchant_name"]) for t in bill_pay] == [
        ("BTX-0019", 1626.22, "out", "Ellis-Martinez")]
    assert [t["id"] for t in ok(svc, "search_transactions", {"amount": 543.89})] == ["BTX-0010"]
    assert [t["id"] for t in ok(svc, "search_transactions", {"merchant_name": "stripe", "reconciled": False})] == [
        "BTX-0010", "BTX-0023"]
    assert [t["id"] for t in ok(svc, "search_transactions", {"pending": True})] == ["BTX-0024", "BTX-0025"]
    assert [t["id"] for t in ok(svc, "search_transactions", {"flagged": True})] == ["BTX-0017"]
    assert len(ok(svc, "search_transactions", {"direction": "in", "account_id": "BA-0002"})) == 2
    t = ok(svc, "get_transaction", {"transaction_id": "BTX-0014"})
    assert (t["match"]["record_type"], t["match"]["record_id"], t["match"]["amount"], t["reconciled"]) == (
        "expense", "EXP-0007", 250.77, True)
    assert t["personal_finance_category"] == {"primary": "TRANSFER_OUT", "detailed": "TRANSFER_OUT_ACCOUNT_TRANSFER"}
    assert code(svc, "get_transaction", {"transaction_id": "BTX-0999"}) == 404


def test_bank_payments_line_up_with_accounts_payable():
    ap = AccountsPayable.seed_state(0, TODAY)
    feed = BankFeeds.seed_state(0, TODAY)
    paid = {p.bill_id: p.amount for p in ap.payments.values() if p.status == "processed"}
    quoted = {t.name.rsplit(" ", 1)[1]: t.amount for t in feed.transactions.values()
              if t.name.startswith("BILL.COM PAYABLES")}
    assert quoted == paid == {"BIL-0003": 121.0, "BIL-0009": 3905.68, "BIL-0010": 1626.22}


def test_reconcile_to_the_bill_it_pays(svc):
    t = ok(svc, "reconcile_transaction", {"transaction_id": "BTX-0019", "bill_id": "BIL-0010",
                                          "matched_amount": 1626.22, "note": "case AB-1234"})
    assert (t["match"]["record_id"], t["match"]["reconciled_on"], t["match"]["reconciled_by"], t["reconciled"]) == (
        "BIL-0010", "2026-01-15", "ops@company.example", True)
    summary = ok(svc, "get_reconciliation_summary", {"account_id": "BA-0001"})
    assert (summary["reconciled_count"], summary["unreconciled_count"], summary["pending_count"]) == (5, 9, 1)
    assert "BTX-0019" not in summary["unreconciled_ids"]
    inv = ok(svc, "reconcile_transaction", {"transaction_id": "BTX-0023", "invoice_id": "INV-0012",
                                            "matched_amount": 163.99})
    assert inv["match"]["record_type"] == "invoice"


def test_a_transaction_reconciles_once(svc):
    msg = error(svc, "reconcile_transaction", {"transaction_id": "BTX-0021", "bill_id": "BIL-0003",
                                               "matched_amount": 121.0})
    assert msg["code"] == 409 and "already reconciled to bill BIL-0003" in msg["message"]
    assert ok(svc, "unreconcile_transaction", {"transaction_id": "BTX-0021"})["match"] is None
    assert code(svc, "unreconcile_transaction", {"transaction_id": "BTX-0021"}) == 409
    assert ok(svc, "reconcile_transaction", {"transaction_id": "BTX-0021", "bill_id": "BIL-0003",
                                             "matched_amount": 121})["reconciled"] is True


def test_pending_transactions_cannot_be_reconciled(svc):
    msg = error(svc, "reconcile_transaction", {"transaction_id": "BTX-0024", "bill_id": "BIL-0001",
                                               "matched_amount": 342.18})
    assert msg["code"] == 422 and "pending" in msg["message"]


def test_matched_amount_and_direction_must_fit(svc):
    msg = error(svc, "reconcile_transaction", {"transaction_id": "BTX-0020", "bill_id": "BIL-0009",
                                               "matched_amount": 7811.35})
    assert msg["code"] == 422 and "3905.68" in msg["message"]
    assert code(svc, "reconcile_transaction", {"transaction_id": "BTX-0010", "bill_id": "BIL-0009",
                                               "matched_amount": 543.89}) == 422  # money in, not a bill payment
    assert code(svc, "reconcile_transaction", {"transaction_id": "BTX-0019", "invoice_id": "INV-0001",
                                               "matched_amount": 1626.22}) == 422  # money out, not an invoice
    assert code(svc, "reconcile_transaction", {"transaction_id": "BTX-0019", "bill_id": "INV-0010",
                                               "matched_amount": 1626.22}) == 422  # not a bill id
    assert code(svc, "reconcile_transaction", {"transaction_id": "BTX-0019", "matched_amount": 1626.22}) == 400
    assert code(svc, "reconcile_transaction", {"transaction_id": "BTX-0019", "bill_id": "BIL-0010",
                                               "expense_id": "EXP-0001", "matched_amount": 1626.22}) == 400


def test_categorize_and_flag(svc):
    t = ok(svc, "categorize_transaction", {"transaction_id": "BTX-0013", "detailed": "RENT_AND_UTILITIES_RENT"})
    assert (t["personal_finance_category"]["primary"], t["category_source"]) == ("RENT_AND_UTILITIES", "user")
    assert code(svc, "categorize_transaction", {"transaction_id": "BTX-0013", "detailed": "SHOPPING"}) == 400
    f = ok(svc, "flag_transaction", {"transaction_id": "BTX-0018", "reason": "No trip request on file"})
    assert (f["flagged"], f["flag_reason"]) == (True, "No trip request on file")
    assert code(svc, "flag_transaction", {"transaction_id": "BTX-0017", "reason": "again"}) == 409
    assert ok(svc, "clear_flag", {"transaction_id": "BTX-0017"})["flag_reason"] is None
    assert code(svc, "clear_flag", {"transaction_id": "BTX-0017"}) == 409


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("reconcile_transaction", {"transaction_id": "BTX-0019", "bill_id": "BIL-0010",
                                              "matched_amount": 1.0})["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(BankFeeds, seed=2).state_dict() == make_service(BankFeeds, seed=2).state_dict()
    assert make_service(BankFeeds, seed=1).state_dict() != make_service(BankFeeds, seed=2).state_dict()
