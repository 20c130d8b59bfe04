"""Tests of the ledger service."""

from __future__ import annotations

import pytest
from _svc_asserts import data, error, error_code

from compoworld_gym.envs.services.ledger import Ledger


@pytest.fixture
def svc(make_service):
    return make_service(Ledger)


def sale(amount, day="2026-01-10", debit="1100", credit="4000"):
    return {"entry_date": day, "memo": "Wholesale order", "reference": "INV-0017",
            "lines": [{"account_id": debit, "debit": amount}, {"account_id": credit, "credit": amount}]}


def test_seed_books_balance(svc):
    tb = data(svc.call("get_trial_balance", {}))
    assert tb["balanced"] and tb["total_debits"] == tb["total_credits"]
    assert svc.state.closed_periods == ["2025-11"]
    ar = svc.state.accounts["1100"].balance
    assert ar == data(svc.call("get_account_balance", {"account_id": "1100", "as_of": "2026-01-15"}))["balance"]


def test_list_and_create_accounts(svc):
    assert [a["id"] for a in data(svc.call("list_accounts", {"type": "liability"}))] == ["2000", "2100", "2200"]
    acc = data(svc.call("create_account", {"account_id": "6600", "name": "Marketing", "type": "expense"}))
    assert (acc["id"], acc["balance"]) == ("6600", 0.0)
    assert error_code(svc.call("create_account", {"account_id": "6600", "name": "Dup", "type": "expense"})) == 409
    assert error_code(svc.call("create_account", {"account_id": "66", "name": "Bad", "type": "expense"})) == 400


def test_post_balanced_entry_moves_balances(svc):
    ar, rev = svc.state.accounts["1100"].balance, svc.state.accounts["4000"].balance
    n = len(svc.state.entries) + 1
    e = data(svc.call("create_journal_entry", sale(120.005)))
    assert (e["id"], e["total"], e["status"]) == (f"JE-{n:04d}", 120.01, "posted")
    assert svc.state.accounts["1100"].balance == round(ar + 120.01, 2)
    assert svc.state.accounts["4000"].balance == round(rev + 120.01, 2)
    assert data(svc.call("get_journal_entry", {"entry_id": e["id"]}))["reference"] == "INV-0017"
    found = data(svc.call("list_journal_entries", {"reference": "INV-0017"}))
    assert [x["id"] for x in found] == [e["id"]]
    assert data(svc.call("get_trial_balance", {}))["balanced"]


def test_entry_rules(svc):
    unbalanced = sale(100)
    unbalanced["lines"][1]["credit"] = 99.99
    assert error_code(svc.call("create_journal_entry", unbalanced)) == 422
    both = sale(100)
    both["lines"][0]["credit"] = 5
    assert error_code(svc.call("create_journal_entry", both)) == 400
    assert error_code(svc.call("create_journal_entry", sale(10, debit="9999"))) == 404
    assert error_code(svc.call("create_journal_entry", sale(10, day="2026-02-01"))) == 422
    assert error_code(svc.call("create_journal_entry", sale(10, day="2025-11-20"))) == 409
    one_line = sale(10)
    one_line["lines"] = one_line["lines"][:1]
    assert error_code(svc.call("create_journal_entry", one_line)) == 400


def test_void_entry(svc):
    cash = svc.state.accounts["1000"].balance
    e = data(svc.call("create_journal_entry", sale(50, debit="1000")))
    v = data(svc.call("void_journal_entry", {"entry_id": e["id"], "reason": "posted twice"}))
    assert v["status"] == "voided" and svc.state.accounts["1000"].balance == cash
    assert error_code(svc.call("void_journal_entry", {"entry_id": e["id"], "reason": "again"})) == 409
    nov = next(x.id for x in svc.state.entries.values() if x.entry_date.strftime("%Y-%m") == "2025-11")
    assert error_code(svc.call("void_journal_entry", {"entry_id": nov, "reason": "closed"})) == 409
    posted = data(svc.call("list_journal_entries", {"status": "voided"}))
    assert [x["id"] for x in posted] == [e["id"]]


def test_balance_as_of_and_income_statement(svc):
    data(svc.call("create_journal_entry", sale(200, day="2026-01-14")))
    now = data(svc.call("get_account_balance", {"account_id": "4000"}))["balance"]
    before = data(svc.call("get_account_balance", {"account_id": "4000", "as_of": "2026-01-13"}))["balance"]
    assert round(now - before, 2) == 200.0
    inc = data(svc.call("get_income_statement", {"date_from": "2026-01-14", "date_to": "2026-01-14"}))
    assert (inc["revenue"], inc["expenses"], inc["net_income"]) == (200.0, 0.0, 200.0)
    assert error_code(svc.call("get_income_statement", {"date_from": "2026-01-14", "date_to": "2026-01-01"})) == 422
    assert error_code(svc.call("get_account_balance", {"account_id": "0000"})) == 404


def test_close_and_reopen_periods(svc):
    assert data(svc.call("close_period", {"period": "2025-12"}))["closed_periods"] == ["2025-11", "2025-12"]
    assert error_code(svc.call("close_period", {"period": "2025-12"})) == 409
    assert error_code(svc.call("close_period", {"period": "2026-01"})) == 422
    assert error_code(svc.call("close_period", {"period": "2025-13"})) == 400
    assert error_code(svc.call("create_journal_entry", sale(10, day="2025-12-31"))) == 409
    assert data(svc.call("reopen_period", {"period": "2025-12"}))["closed_periods"] == ["2025-11"]
    assert error_code(svc.call("reopen_period", {"period": "2025-12"})) == 409


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    bad = sale(10)
    bad["lines"].append({"account_id": "6000", "debit": 1})
    assert error_code(svc.call("create_journal_entry", bad)) == 422
    assert svc.state_dict() == before


@pytest.mark.parametrize("amount", [1e308, "inf", 1_000_000_000.01])
def test_out_of_range_line_amounts_are_a_400_naming_the_line(svc, amount):

    err = error(svc, "create_journal_entry", sale(amount))
    assert err["code"] == 400 and "lines.0.debit" in err["message"]
    assert data(svc.call("create_journal_entry", sale(1_000_000_000)))["total"] == 1_000_000_000
