"""Tests of the payroll service: tax model, runs, corrections with audit, approvals."""

from __future__ import annotations

import pytest
from _svc_asserts import data, error, failed

from compoworld_gym.envs.services._payroll_models import PayEmployee
from compoworld_gym.envs.services._payroll_rules import compute_summary
from compoworld_gym.envs.services.payroll import Payroll


@pytest.fixture
def pay(make_service):
    return make_service(Payroll)


def test_compute_summary_tax_model():
    e = PayEmployee(id="EMP-0100", name="A B", email="a.b@company.example", department="Finance",
                    pay_type="salary", annual_salary=120000.0, tax_state="CA", retirement_pct=0.05, bank_last4="1234")
    s = compute_summary(e, 86.67, [])
    # 120000/24 = 5000; 401k 250; federal 12% of 4750 = 570; CA 6% = 285; FICA 7.65% of 5000 = 382.5.
    assert (s.gross_pay, s.retirement, s.federal_tax, s.state_tax, s.fica) == (5000.0, 250.0, 570.0, 285.0, 382.5)
    assert s.net_pay == 3512.5
    h = e.model_copy(update={"pay_type": "hourly", "annual_salary": None, "hourly_rate": 30.0, "tax_state": "TX",
                             "retirement_pct": 0.0})
    s2 = compute_summary(h, 80.0, [])
    assert (s2.gross_pay, s2.state_tax, s2.net_pay) == (2400.0, 0.0, round(2400 - 288 - 183.6, 2))


def test_runs_listing_and_totals(pay):
    runs = data(pay.call("list_pay_runs", {}))
    assert [r["id"] for r in runs] == ["PAY-0005", "PAY-0004", "PAY-0003", "PAY-0002", "PAY-0001"]
    assert runs[0]["status"] == "draft" and runs[0]["period_start"] == "2026-01-01"
    assert runs[0]["period_end"] == "2026-01-15" and runs[0]["pay_date"] == "2026-01-20"
    assert runs[1]["status"] == "paid" and runs[1]["approved_by"] == "elena.petrova@company.example"
    assert runs[0]["employees"] == 22
    assert [r["id"] for r in data(pay.call("list_pay_runs", {"year": 2025}))] == ["PAY-0003", "PAY-0002", "PAY-0001"]
    assert [r["id"] for r in data(pay.call("list_pay_runs", {"status": "draft"}))] == ["PAY-0005"]
    run = data(pay.call("get_pay_run", {"payroll_id": "PAY-0004"}))
    assert run["total_gross_pay"] == round(sum(s["gross_pay"] for s in run["summaries"]), 2)
    fin = data(pay.call("get_pay_run", {"payroll_id": "PAY-0004", "department": "finance"}))
    assert {s["employee_id"] for s in fin["summaries"]} == {"EMP-0006", "EMP-0007", "EMP-0008"}
    failed(pay.call("get_pay_run", {"payroll_id": "PAY-0099"}), 404)


def test_employee_views(pay):
    comp = data(pay.call("get_employee_compensation", {"employee_id": "EMP-0004"}))
    assert comp["name"] == "Marcus Bell" and comp["pay_type"] == "hourly" and comp["tax_state"] == "TX"
    hourly = data(pay.call("list_payroll_employees", {"pay_type": "hourly"}))
    assert {e["id"] for e in hourly} >= {"EMP-0004", "EMP-0005"}
    assert len(data(pay.call("list_payroll_employees", {"department": "Finance"}))) == 3
    s = data(pay.call("get_pay_summary", {"payroll_id": "PAY-0003", "employee_id": "EMP-0006"}))
    assert s["gross_pay"] == round(pay.state.employees["EMP-0006"].annual_salary / 24, 2)
    hist = data(pay.call("get_employee_pay_history", {"employee_id": "EMP-0006", "limit": 2}))
    assert [h["payroll_id"] for h in hist] == ["PAY-0005", "PAY-0004"]
    ytd = data(pay.call("get_year_to_date", {"employee_id": "EMP-0006", "year": 2025}))
    expect = sum(pay.state.runs[r].summaries["EMP-0006"].gross_pay for r in ("PAY-0001", "PAY-0002", "PAY-0003"))
    assert ytd["paid_runs"] == 3 and ytd["total_gross_pay"] == round(expect, 2)
    failed(pay.call("get_pay_summary", {"payroll_id": "PAY-0003", "employee_id": "EMP-0999"}), 404)


def test_corrections_audit_and_final_runs(pay):
    seeded = data(pay.call("list_corrections", {}))
    assert [c["kind"] for c in seeded] == ["bonus", "reimbursement", "deduction"]
    assert all(len(c["note"]) >= 10 for c in seeded)
    assert [c["id"] for c in data(pay.call("list_corrections", {"payroll_id": "PAY-0005"}))] == ["COR-0003"]
    before = pay.state_dict()
    msg = failed(pay.call("add_correction", {"payroll_id": "PAY-0004", "employee_id": "EMP-0007", "kind": "bonus",
                                          "amount": 100, "note": "Spot bonus for audit",
                                          "author_email": "elena.petrova@company.example"}), 409)
    assert "PAY-0005" in msg
    failed(pay.call("add_correction", {"payroll_id": "PAY-0005", "employee_id": "EMP-0007", "kind": "bonus",
                                    "amount": 100, "note": "short", "author_email": "e@company.example"}), 400)
    failed(pay.call("add_correction", {"payroll_id": "PAY-0005", "employee_id": "EMP-0007", "kind": "bonus",
                                    "amount": -100, "note": "Negative bonus test", "author_email": "e@company.example"}), 400)
    failed(pay.call("add_correction", {"payroll_id": "PAY-0005", "employee_id": "EMP-0007", "kind": "deduction",
                                    "amount": 40000, "note": "Would make net negative", "author_email": "e@company.example"}), 409)
    assert pay.state_dict() == before
    old = pay.state.runs["PAY-0005"].summaries["EMP-0007"]
    out = data(pay.call("add_correction", {"payroll_id": "PAY-0005", "employee_id": "EMP-0007", "kind": "bonus",
                                         "amount": 500, "note": "Year-end spot bonus",
                                         "author_email": "elena.petrova@company.example"}))
    assert out["id"] == "COR-0004" and out["summary"]["gross_pay"] == round(old.gross_pay + 500, 2)
    rev = data(pay.call("reverse_correction", {"correction_id": "COR-0004", "note": "Entered on wrong run",
                                             "author_email": "elena.petrova@company.example"}))
    assert rev["reversed"] and "Entered on wrong run" in rev["note"]
    assert rev["summary"]["gross_pay"] == old.gross_pay and rev["summary"]["net_pay"] == old.net_pay
    failed(pay.call("reverse_correction", {"correction_id": "COR-0004", "note": "Second reversal",
                                        "author_email": "e@company.example"}), 409)
    failed(pay.call("reverse_correction", {"correction_id": "COR-0001", "note": "Paid run reversal",
                                        "author_email": "e@company.example"}), 409)
    failed(pay.call("reverse_correction", {"correction_id": "COR-0999", "note": "Unknown correction",
                                        "author_email": "e@company.example"}), 404)


def test_hours_compensation_and_approval(pay):
    rate = pay.state.employees["EMP-0004"].hourly_rate
    s = data(pay.call("update_hours", {"payroll_id": "PAY-0005", "employee_id": "EMP-0004", "hours": 80,
                                     "note": "Timesheet corrected by lead"}))
    assert s["hours"] == 80.0 and s["base_pay"] == round(80 * rate, 2)
    failed(pay.call("update_hours", {"payroll_id": "PAY-0005", "employee_id": "EMP-0006", "hours": 80,
                                  "note": "Salaried employee hours"}), 400)
    comp = data(pay.call("update_compensation", {"employee_id": "EMP-0006", "annual_salary": 240000,
                                               "note": "Promotion to CFO approved by CEO"}))
    assert comp["recalculated_runs"] == ["PAY-0005"]
    assert pay.state.runs["PAY-0005"].summaries["EMP-0006"].base_pay == 10000.0
    assert pay.state.runs["PAY-0004"].summaries["EMP-0006"].base_pay != 10000.0  # paid runs untouched
    failed(pay.call("update_compensation", {"employee_id": "EMP-0006", "hourly_rate": 50, "note": "Wrong pay type"}), 400)
    failed(pay.call("approve_pay_run", {"payroll_id": "PAY-0005", "approver_email": "marcus.bell@company.example"}), 409)
    run = data(pay.call("approve_pay_run", {"payroll_id": "PAY-0005", "approver_email": "tomas.lindqvist@company.example"}))
    assert run["status"] == "approved" and run["approved_by"] == "tomas.lindqvist@company.example"
    failed(pay.call("update_hours", {"payroll_id": "PAY-0005", "employee_id": "EMP-0004", "hours": 70,
                                  "note": "Too late for this"}), 409)


def test_a_correction_that_rounds_to_zero_is_a_400(pay):

    e = error(pay, "add_correction", {"payroll_id": "PAY-0005", "employee_id": "EMP-0007", "kind": "adjustment",
                                      "amount": 0.004, "note": "Rounding test adjustment",
                                      "author_email": "e@company.example"})
    assert e["code"] == 400 and "0.01" in e["message"]


def test_pay_is_rounded_half_up_on_the_decimal_product(pay):

    from compoworld_gym.envs.services._payroll_models import PayEmployee
    from compoworld_gym.envs.services._payroll_rules import compute_summary

    emp = PayEmployee.model_validate({**pay.state.employees["EMP-0001"].model_dump(), "annual_salary": 55020.0,
                                      "retirement_pct": 0.03})
    assert compute_summary(emp, 80, []).retirement == 68.78  # 3% of 2292.50 = 68.775 on paper
    e = error(pay, "update_compensation", {"employee_id": "EMP-0001", "note": "Annual merit increase",
                                           "annual_salary": 0.004})
    assert e["code"] == 400 and "'annual_salary'" in e["message"]
    out = data(pay.call("update_compensation", {"employee_id": "EMP-0001", "note": "Annual merit increase",
                                              "annual_salary": 150000.125}))
    assert out["annual_salary"] == 150000.13
