"""Tests of the expenses service."""

from __future__ import annotations

import pytest
from _svc_asserts import data, error, error_code

from compoworld_gym.envs.services.expenses import Expenses

MARCUS, PRIYA, ELENA, GRACE = ("marcus.bell@company.example", "priya.raman@company.example",
                               "elena.petrova@company.example", "grace.okafor@company.example")


@pytest.fixture
def svc(make_service):
    return make_service(Expenses)


def item(amount, category="meals", receipt=True, day="2026-01-12"):
    out = {"expense_date": day, "category": category, "merchant": "Pret A Manger", "amount": amount}
    if receipt:
        out["receipt_url"] = "https://receipts.company.example/r1.jpg"
    return out


def new_report(svc, *items):
    r = data(svc.call("create_expense_report", {"employee_email": MARCUS, "title": "Client visit Boston"}))
    for it in items:
        data(svc.call("add_expense_item", {"report_id": r["id"], **it}))
    return r["id"]


def test_employees_and_policy(svc):
    emps = data(svc.call("list_employees", {"department": "billing operations"}))
    assert [(e["email"], e["manager_email"]) for e in emps] == [(PRIYA, ELENA), (MARCUS, PRIYA)]
    pol = data(svc.call("get_expense_policy", {}))
    assert pol["category_limits"]["meals"] == 75.0 and pol["receipt_required_above"] == 25.0
    assert pol["finance_approvers"] == [ELENA, "tomas.lindqvist@company.example"]


def test_list_and_get(svc):
    assert len(data(svc.call("list_expense_reports", {"status": "submitted"}))) == 3
    r = data(svc.call("get_expense_report", {"report_id": "EXP-0001"}))
    assert r["status"] == "draft" and any("needs a receipt" in v for v in r["policy_violations"])
    assert r["total"] == round(sum(i["amount"] for i in r["items"]), 2)
    assert error_code(svc.call("get_expense_report", {"report_id": "EXP-0999"})) == 404
    mine = data(svc.call("list_expense_reports", {"employee_email": r["employee_email"]}))
    assert "EXP-0001" in {x["id"] for x in mine}


def test_create_and_items(svc):
    assert error_code(svc.call("create_expense_report", {"employee_email": "nobody@company.example", "title": "x"})) == 404
    rid = new_report(svc, item(12.345, receipt=False), item(60.0))
    r = data(svc.call("get_expense_report", {"report_id": rid}))
    assert (rid, r["total"], r["policy_violations"]) == ("EXP-0011", 72.35, [])
    over = data(svc.call("add_expense_item", {"report_id": rid, **item(80.0)}))
    assert over["policy_violations"] == ["item 3: meals 80.00 exceeds the limit 75.00"]
    assert error_code(svc.call("add_expense_item", {"report_id": rid, **item(5, day="2026-02-01")})) == 422
    assert error_code(svc.call("add_expense_item", {"report_id": rid, **item(5, category="yacht")})) == 400
    left = data(svc.call("remove_expense_item", {"report_id": rid, "item_number": 3}))
    assert left["total"] == 72.35
    assert error_code(svc.call("remove_expense_item", {"report_id": rid, "item_number": 7})) == 400


def test_submit_requires_policy_compliance(svc):
    assert error_code(svc.call("submit_expense_report", {"report_id": "EXP-0001"})) == 422
    n = len(svc.state.reports["EXP-0001"].items)
    fixed = data(svc.call("attach_receipt", {"report_id": "EXP-0001", "item_number": n,
                                             "receipt_url": "https://receipts.company.example/dinner.jpg"}))
    assert fixed["policy_violations"] == []
    s = data(svc.call("submit_expense_report", {"report_id": "EXP-0001"}))
    assert (s["status"], s["submitted_on"]) == ("submitted", "2026-01-15")
    assert error_code(svc.call("submit_expense_report", {"report_id": "EXP-0001"})) == 409
    assert error_code(svc.call("attach_receipt", {"report_id": "EXP-0001", "item_number": 1,
                                            "receipt_url": "https://x.example/1.jpg"})) == 409
    empty = data(svc.call("create_expense_report", {"employee_email": MARCUS, "title": "Nothing"}))["id"]
    assert error_code(svc.call("submit_expense_report", {"report_id": empty})) == 422


def test_approval_rules_and_reimbursement(svc):
    rid = new_report(svc, item(60.0))
    data(svc.call("submit_expense_report", {"report_id": rid}))
    assert error_code(svc.call("approve_expense_report", {"report_id": rid, "approver_email": GRACE})) == 422
    assert error_code(svc.call("approve_expense_report", {"report_id": rid, "approver_email": MARCUS})) == 422
    assert error_code(svc.call("approve_expense_report", {"report_id": rid, "approver_email": "x@y.example"})) == 404
    a = data(svc.call("approve_expense_report", {"report_id": rid, "approver_email": PRIYA}))
    assert (a["status"], a["approver_email"], a["decided_on"]) == ("approved", PRIYA, "2026-01-15")
    assert error_code(svc.call("approve_expense_report", {"report_id": rid, "approver_email": PRIYA})) == 409
    paid = data(svc.call("reimburse_expense_report", {"report_id": rid, "payment_reference": "PAYRUN-202601-99"}))
    assert (paid["status"], paid["payment_reference"]) == ("reimbursed", "PAYRUN-202601-99")
    assert error_code(svc.call("reimburse_expense_report", {"report_id": rid, "payment_reference": "again"})) == 409


def test_large_reports_need_finance(svc):
    rid = new_report(svc, *[item(1400.0, category="travel", day=f"2026-01-0{d}") for d in (1, 2)])
    data(svc.call("submit_expense_report", {"report_id": rid}))
    assert error_code(svc.call("approve_expense_report", {"report_id": rid, "approver_email": PRIYA})) == 422
    assert data(svc.call("approve_expense_report", {"report_id": rid, "approver_email": ELENA}))["status"] == "approved"


def test_reject_and_resubmit(svc):
    rid = new_report(svc, item(30.0))
    data(svc.call("submit_expense_report", {"report_id": rid}))
    r = data(svc.call("reject_expense_report", {"report_id": rid, "approver_email": PRIYA, "reason": "Wrong project"}))
    assert (r["status"], r["rejection_reason"]) == ("rejected", "Wrong project")
    assert error_code(svc.call("reimburse_expense_report", {"report_id": rid, "payment_reference": "PR-1"})) == 409
    back = data(svc.call("add_expense_item", {"report_id": rid, **item(10.0, receipt=False)}))
    assert back["status"] == "draft"
    again = data(svc.call("submit_expense_report", {"report_id": rid}))
    assert (again["status"], again["rejection_reason"], again["approver_email"]) == ("submitted", None, None)


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert error_code(svc.call("submit_expense_report", {"report_id": "EXP-0001"})) == 422
    assert error_code(svc.call("add_expense_item", {"report_id": "EXP-0004", **item(10.0)})) == 409
    assert svc.state_dict() == before


@pytest.mark.parametrize("amount", [0.004, 1e-9, "NaN"])
def test_an_amount_that_rounds_to_zero_is_a_400_naming_amount(svc, amount):

    e = error(svc, "add_expense_item", {"report_id": "EXP-0001", **item(amount)})
    assert e["code"] == 400 and "'amount'" in e["message"]
