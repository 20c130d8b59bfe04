"""Tests of the treasury service (Wise Platform API style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._treasury_rules import aba_checksum_ok, check_iban, make_iban
from compoworld_gym.envs.services.accounts_payable import AccountsPayable
from compoworld_gym.envs.services.treasury import Treasury

GOOD_DE = "DE89370400440532013000"  # the textbook valid German IBAN


@pytest.fixture
def svc(make_service):
    return make_service(Treasury)


def test_bank_detail_checks():
    assert check_iban("de89 3704 0044 0532 0130 00", "EUR") == GOOD_DE
    assert make_iban("DE", "370400440532013000") == GOOD_DE
    assert aba_checksum_ok("021000021") and not aba_checksum_ok("021000022")


def test_seed_lines_up_with_accounts_payable(make_service, svc):
    ap = make_service(AccountsPayable)
    rcp = ok(svc, "list_recipients", {"vendor_id": "VEN-0001", "active": True})
    assert [(r["id"], r["account_holder_name"], r["currency"]) for r in rcp] == [
        ("RCP-0001", ap.state.vendors["VEN-0001"].name, "EUR")]
    t = ok(svc, "get_transfer", {"transfer_id": "TRF-0003"})
    bill = ap.state.bills["BIL-0001"]
    assert t["reference"] == f"BIL-0001 {bill.invoice_number}" and t["target_value"] == bill.open_balance == 1844.0
    assert (t["status"], t["quote_expired"], t["source_value"]) == ("incoming_payment_waiting", False, 2023.82)


def test_reads(svc):
    assert ok(svc, "get_exchange_rate", {"source": "eur", "target": "GBP"})["rate"] == 0.859343
    assert code(svc, "get_exchange_rate", {"source": "USD", "target": "XAU"}) == 404
    assert [(b["currency"], b["amount"]) for b in ok(svc, "list_balances")] == [
        ("USD", 256532.63), ("EUR", 11153.84), ("GBP", 4687.46)]
    assert ok(svc, "get_quote", {"quote_id": "FXQ-0007"})["expired"] is True
    assert ok(svc, "get_quote", {"quote_id": "FXQ-0006"})["expired"] is False
    assert [r["id"] for r in ok(svc, "list_recipients", {"currency": "eur"})] == ["RCP-0001", "RCP-0002", "RCP-0004",
                                                                                "RCP-0006"]
    assert [r["id"] for r in ok(svc, "list_recipients", {"account_holder_name": "FISHER LTD"})] == ["RCP-0002"]
    assert ok(svc, "get_recipient", {"recipient_id": "RCP-0005"})["abartn"] == "030159756"
    assert [t["id"] for t in ok(svc, "list_transfers", {"reference": "bil-0002"})] == ["TRF-0004"]
    assert [t["id"] for t in ok(svc, "list_transfers", {"account_holder_name": "fisher ltd"})] == ["TRF-0005",
                                                                                                 "TRF-0004"]
    assert [t["id"] for t in ok(svc, "list_transfers", {"status": "incoming_payment_waiting"})] == ["TRF-0004",
                                                                                                  "TRF-0003"]
    assert code(svc, "get_transfer", {"transfer_id": "TRF-0999"}) == 404
    assert code(svc, "get_quote", {"quote_id": "FXQ-0999"}) == 404


def test_quotes(svc):
    q = ok(svc, "create_quote", {"source_currency": "usd", "target_currency": "EUR", "target_amount": 1000})
    assert (q["id"], q["source_amount"], q["fee"], q["rate"], q["expiration_time"]) == (
        "FXQ-0008", 1097.97, 5.91, 0.9157, "2026-01-16T09:00:00")
    q2 = ok(svc, "create_quote", {"source_currency": "USD", "target_currency": "GBP", "source_amount": 500})
    assert (q2["target_amount"], q2["fee"]) == (390.9, 3.24)
    same = ok(svc, "create_quote", {"source_currency": "USD", "target_currency": "USD", "target_amount": 500})
    assert (same["source_amount"], same["fee"], same["rate"]) == (501.0, 1.0, 1.0)
    assert code(svc, "create_quote", {"source_currency": "USD", "target_currency": "EUR"}) == 400
    assert code(svc, "create_quote", {"source_currency": "USD", "target_currency": "EUR", "source_amount": 5,
                                      "target_amount": 5}) == 400
    assert code(svc, "create_quote", {"source_currency": "USD", "target_currency": "EUR", "source_amount": 0.5}) == 422


def test_recipients_and_iban_mod97(svc):
    r = ok(svc, "create_recipient", {"account_holder_name": "Keller Logistik GmbH", "currency": "EUR",
                                     "iban": "de89 3704 0044 0532 0130 00", "bic": "COBADEFFXXX"})
    assert (r["id"], r["iban"], r["country"], r["type"]) == ("RCP-0007", GOOD_DE, "DE", "iban")
    assert code(svc, "create_recipient", {"account_holder_name": "Other", "iban": GOOD_DE}) == 409
    msg = error(svc, "create_recipient", {"account_holder_name": "Typo GmbH", "iban": "DE89370400440532013001"})
    assert msg["code"] == 422 and "mod-97" in msg["message"]
    assert code(svc, "create_recipient", {"account_holder_name": "Short", "iban": "DE8937040044053201300"}) == 422
    assert code(svc, "create_recipient", {"account_holder_name": "UK Ltd", "iban": "GB82BARC90544298195536"}) == 422
    assert code(svc, "create_recipient", {"account_holder_name": "Bad", "iban": "not an iban"}) == 400
    usd = ok(svc, "create_recipient", {"account_holder_name": "Acme Corp", "currency": "USD", "type": "aba",
                                       "abartn": "021000021", "account_number": "123456789"})
    assert usd["type"] == "aba"
    assert code(svc, "create_recipient", {"account_holder_name": "Acme", "currency": "USD", "type": "aba",
                                          "abartn": "021000022", "account_number": "123456789"}) == 422
    assert code(svc, "create_recipient", {"account_holder_name": "Acme", "currency": "USD", "iban": GOOD_DE}) == 422
    assert code(svc, "create_recipient", {"account_holder_name": "Acme", "currency": "JPY", "iban": GOOD_DE}) == 422


def test_transfer_create_fund_send(svc):
    q = ok(svc, "create_quote", {"source_currency": "USD", "target_currency": "EUR", "target_amount": 1844})
    t = ok(svc, "create_transfer", {"target_account": "RCP-0001", "quote_id": q["id"], "reference": "BIL-0005",
                                    "customer_transaction_id": "bil-0005-1"})
    assert (t["id"], t["status"], t["source_value"]) == ("TRF-0006", "incoming_payment_waiting", 2023.82)
    assert ok(svc, "get_quote", {"quote_id": q["id"]})["status"] == "accepted"
    assert code(svc, "create_transfer", {"target_account": "RCP-0001", "quote_id": q["id"], "reference": "again",
                                         "customer_transaction_id": "bil-0005-2"}) == 409  # quote used
    f = ok(svc, "fund_transfer", {"transfer_id": "TRF-0006"})
    assert (f["status"], f["balance_after"]) == ("processing", 254508.81)
    assert code(svc, "fund_transfer", {"transfer_id": "TRF-0006"}) == 409
    sent = ok(svc, "simulate_transfer_status", {"transfer_id": "TRF-0006"})
    assert sent["status"] == "outgoing_payment_sent" and sent["sent_at"] is not None
    assert code(svc, "simulate_transfer_status", {"transfer_id": "TRF-0003"}) == 409  # not funded
    assert code(svc, "simulate_transfer_status", {"transfer_id": "TRF-0002", "status": "processing"}) == 422


def test_recipient_currency_must_match_quote(svc):
    msg = error(svc, "create_transfer", {"target_account": "RCP-0003", "quote_id": "FXQ-0006", "reference": "x",
                                         "customer_transaction_id": "bil-x-01"})
    assert msg["code"] == 422 and "receives GBP but quote FXQ-0006 delivers EUR" in msg["message"]
    assert code(svc, "create_transfer", {"target_account": "RCP-0006", "quote_id": "FXQ-0006", "reference": "x",
                                         "customer_transaction_id": "bil-x-01"}) == 409  # deactivated
    assert code(svc, "create_transfer", {"target_account": "RCP-0001", "quote_id": "FXQ-0006", "reference": "x",
                                         "customer_transaction_id": "ap-trf-0003"}) == 409  # duplicate key


def test_expired_quote_cannot_fund(svc):
    msg = error(svc, "fund_transfer", {"transfer_id": "TRF-0004"})
    assert msg["code"] == 422 and "expired quote cannot fund" in msg["message"]
    assert code(svc, "create_transfer", {"target_account": "RCP-0003", "quote_id": "FXQ-0007", "reference": "x",
                                         "customer_transaction_id": "bil-x-02"}) == 422
    assert code(svc, "convert_balance", {"quote_id": "FXQ-0007"}) == 422


def test_insufficient_balance_refused(svc):
    q = ok(svc, "create_quote", {"source_currency": "GBP", "target_currency": "EUR", "target_amount": 9000})
    t = ok(svc, "create_transfer", {"target_account": "RCP-0002", "quote_id": q["id"], "reference": "BIL-0011",
                                    "customer_transaction_id": "bil-0011-gbp"})
    msg = error(svc, "fund_transfer", {"transfer_id": t["id"]})
    assert msg["code"] == 422 and "the GBP balance holds 4,687.46" in msg["message"]
    conv = ok(svc, "convert_balance", {"quote_id": "FXQ-0006"})  # 5,485.87 USD -> 5,000 EUR
    assert [(b["currency"], b["amount"]) for b in conv][:2] == [("USD", 251046.76), ("EUR", 16153.84)]
    assert code(svc, "convert_balance", {"quote_id": "FXQ-0006"}) == 409


def test_cancel_only_before_sent(svc):
    c = ok(svc, "cancel_transfer", {"transfer_id": "TRF-0002"})  # funded: refunded
    assert (c["status"], c["refunded"]) == ("cancelled", True)
    assert ok(svc, "list_balances")[0]["amount"] == 259068.39
    assert ok(svc, "cancel_transfer", {"transfer_id": "TRF-0003"})["refunded"] is False
    msg = error(svc, "cancel_transfer", {"transfer_id": "TRF-0001"})
    assert msg["code"] == 409 and "outgoing_payment_sent" in msg["message"]
    assert code(svc, "cancel_transfer", {"transfer_id": "TRF-0005"}) == 409


def test_deactivate_recipient(svc):
    assert code(svc, "deactivate_recipient", {"recipient_id": "RCP-0001"}) == 409  # TRF-0003 waiting
    assert ok(svc, "deactivate_recipient", {"recipient_id": "RCP-0005"})["active"] is False
    assert code(svc, "deactivate_recipient", {"recipient_id": "RCP-0005"}) == 409


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("fund_transfer", {"transfer_id": "TRF-0004"})["success"] is False
    assert svc.state_dict() == before
    assert make_service(Treasury, seed=5).state_dict() == make_service(Treasury, seed=5).state_dict()
