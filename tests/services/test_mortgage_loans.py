"""Tests of the mortgage_loans service (Encompass-style loan origination)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.mortgage_loans import MortgageLoans

# today is 2026-01-15


@pytest.fixture
def svc(make_service):
    return make_service(MortgageLoans)


def finish(svc, loan_id, milestone, comments=None):
    return svc.call("complete_milestone", {"loan_id": loan_id, "milestone": milestone} |
                    ({"comments": comments} if comments else {}))


def condition(svc, cid, status, comment=None):
    return svc.call("update_condition_status", {"condition_id": cid, "status": status} |
                    ({"comment": comment} if comment else {}))


NEW = {"borrower_name": "Noah Thompson", "borrower_email": "noah.thompson@outlook.com",
       "borrower_phone": "+1-617-555-0199", "total_monthly_income_amount": 12500, "street_address": "77 Harbor Street",
       "city": "Boston", "state": "MA", "postal_code": "02110", "loan_amount": 480000,
       "property_appraised_value_amount": 610000, "purchase_price_amount": 600000,
       "estimated_closing_date": "2026-03-02", "monthly_taxes_insurance_amount": 725}


def test_search_and_get_loan(svc):
    rows = ok(svc, "search_loans", {"borrower_email": "LIAM.PATEL@gmail.com"})
    assert [(r["id"], r["current_milestone"], r["loan_amount"], r["street_address"]) for r in rows] == [
        ("LN-0002", "Approval", 697500.0, "5608 Shoal Creek Boulevard")]
    assert [r["id"] for r in ok(svc, "search_loans", {"property_address": "vine street"})] == ["LN-0003"]
    assert [r["id"] for r in ok(svc, "search_loans", {"milestone": "Docs Out"})] == ["LN-0003", "LN-0009"]
    assert [r["id"] for r in ok(svc, "search_loans", {"status": "withdrawn"})] == ["LN-0010"]
    assert len(ok(svc, "search_loans", {"loan_officer_email": "nadia.farouk@company.example"})) == 4
    assert [r["id"] for r in ok(svc, "search_loans", {"borrower_name": "martinez"})] == ["LN-0001"]
    loan = ok(svc, "get_loan", {"loan_id": "LN-0002"})
    assert (loan["ltv_percent"], loan["dti_percent"], loan["monthly_principal_interest"],
            loan["proposed_housing_payment"]) == (90.0, 34.74, 4238.08, 5174.54)
    assert (loan["rate_lock_status"], loan["rate_lock"]["lock_expiration_date"], loan["open_conditions"]) == (
        "Locked", "2026-01-21", 2)
    assert ok(svc, "get_loan", {"loan_id": "LN-0003"})["rate_lock_status"] == "Expired"
    assert code(svc, "get_loan", {"loan_id": "LN-0999"}) == 404


def test_milestones_and_conditions_reads(svc):
    ms = ok(svc, "list_milestones", {"loan_id": "LN-0001"})
    assert ms["current_milestone"] == "Cond. Approval"
    assert [(m["milestone_name"], m["done_indicator"]) for m in ms["milestones"][:5]] == [
        ("Started", True), ("Processing", True), ("Submittal", True), ("Cond. Approval", False), ("Resubmittal", False)]
    conds = ok(svc, "list_conditions", {"loan_id": "LN-0001"})
    assert [(c["id"], c["prior_to"], c["status"]) for c in conds] == [
        ("COND-0001", "Approval", "Received"), ("COND-0002", "Approval", "Requested"), ("COND-0003", "Docs", "Added")]
    assert [c["id"] for c in ok(svc, "list_conditions", {"loan_id": "LN-0001", "prior_to": "Docs"})] == ["COND-0003"]
    assert [c["id"] for c in ok(svc, "list_conditions", {"loan_id": "LN-0001", "status": "Received"})] == ["COND-0001"]
    assert ok(svc, "get_condition", {"condition_id": "COND-0009"})["title"] == \
        "Verified wire instructions for cash to close"
    assert code(svc, "get_condition", {"condition_id": "COND-0999"}) == 404


def test_create_loan_and_ltv_limit(svc):
    loan = ok(svc, "create_loan", NEW)
    assert (loan["id"], loan["current_milestone"], loan["status"], loan["ltv_percent"]) == (
        "LN-0012", "Started", "active", 80.0)
    assert loan["loan_officer_email"] == "rebecca.stanton@company.example"
    assert loan["milestones"][0] == {"milestone_name": "Started", "start_date": "2026-01-15", "done_indicator": False,
                                     "completed_date": None, "comments": None}
    msg = error(svc, "create_loan", NEW | {"loan_amount": 585000})  # 97.5% of the 600000 price
    assert msg["code"] == 422 and "97.50%" in msg["message"] and "582000.00" in msg["message"]
    assert code(svc, "create_loan", NEW | {"estimated_closing_date": "2026-01-10"}) == 422
    assert code(svc, "create_loan", {k: v for k, v in NEW.items() if k != "purchase_price_amount"}) == 422
    assert code(svc, "create_loan", NEW | {"loan_officer_email": "nobody@company.example"}) == 404
    assert code(svc, "create_loan", NEW | {"state": "Massachusetts"}) == 400


def test_update_terms_and_liabilities(svc):
    up = ok(svc, "update_loan_terms", {"loan_id": "LN-0005", "loan_amount": 500000,
                                       "estimated_closing_date": "2026-03-20"})
    assert (up["loan_amount"], up["ltv_percent"], up["estimated_closing_date"]) == (500000.0, 80.65, "2026-03-20")
    assert code(svc, "update_loan_terms", {"loan_id": "LN-0005", "loan_amount": 610000}) == 422  # LTV 98.39%
    assert code(svc, "update_loan_terms", {"loan_id": "LN-0002", "note_rate_percent": 5.5}) == 409  # locked
    assert code(svc, "update_loan_terms", {"loan_id": "LN-0004", "loan_amount": 700000}) == 409  # completed
    before = ok(svc, "get_loan", {"loan_id": "LN-0008"})["dti_percent"]
    debt = ok(svc, "add_liability", {"loan_id": "LN-0008", "holder_name": "Chase Auto", "monthly_payment_amount": 450,
                                     "unpaid_balance_amount": 18000})
    assert (before, debt["dti_percent"], debt["liabilities"][-1]["holder_name"]) == (36.0, 41.01, "Chase Auto")
    assert code(svc, "add_liability", {"loan_id": "LN-0010", "holder_name": "Chase", "monthly_payment_amount": 1}) == 409


def test_open_conditions_block_approval(svc):
    msg = error(svc, "complete_milestone", {"loan_id": "LN-0008", "milestone": "Resubmittal"})
    assert msg["code"] == 422 and "COND-0012" in msg["message"] and "clear or waive" in msg["message"]
    assert error(svc, "complete_milestone", {"loan_id": "LN-0008", "milestone": "Processing"})["code"] == 409
    cleared = condition(svc, "COND-0012", "Cleared", "Stubs through 01/09 verified")["data"]
    assert (cleared["status"], cleared["status_date"], cleared["comments"]) == (
        "Cleared", "2026-01-15", ["Stubs through 01/09 verified"])
    loan = finish(svc, "LN-0008", "Resubmittal", "Final approval")["data"]
    assert (loan["current_milestone"], loan["milestones"][4]["comments"], loan["milestones"][5]["start_date"]) == (
        "Approval", "Final approval", "2026-01-15")


def test_dti_over_limit_blocks_approval(svc):
    condition(svc, "COND-0012", "Cleared")
    ok(svc, "add_liability", {"loan_id": "LN-0008", "holder_name": "Chase Auto", "monthly_payment_amount": 1300})
    msg = error(svc, "complete_milestone", {"loan_id": "LN-0008", "milestone": "Resubmittal"})
    assert msg["code"] == 422 and "DTI" in msg["message"] and "50%" in msg["message"]


def test_condition_workflow_rules(svc):
    msg = error(svc, "update_condition_status", {"condition_id": "COND-0002", "status": "Cleared"})
    assert msg["code"] == 409 and "Received before clearing" in msg["message"]
    assert condition(svc, "COND-0002", "Received")["data"]["status"] == "Received"
    assert condition(svc, "COND-0002", "Requested", "Statement page 3 missing")["data"]["status"] == "Requested"
    assert code(svc, "update_condition_status", {"condition_id": "COND-0003", "status": "Waived"}) == 422
    assert condition(svc, "COND-0003", "Waived", "Escrowed at closing")["data"]["status"] == "Waived"
    assert code(svc, "update_condition_status", {"condition_id": "COND-0004", "status": "Requested"}) == 409  # cleared
    assert code(svc, "update_condition_status", {"condition_id": "COND-0015", "status": "Received"}) == 409  # denied


def test_add_condition_only_for_open_stages(svc):
    msg = error(svc, "add_condition", {"loan_id": "LN-0002", "title": "Updated credit report", "prior_to": "Approval"})
    assert msg["code"] == 409 and "already at Approval" in msg["message"]
    c = ok(svc, "add_condition", {"loan_id": "LN-0002", "title": "Updated credit report", "prior_to": "Docs",
                                  "category": "Credit"})
    assert (c["id"], c["status"], c["prior_to"], c["added_date"]) == ("COND-0016", "Added", "Docs", "2026-01-15")
    assert code(svc, "add_condition", {"loan_id": "LN-0011", "title": "Any", "prior_to": "Funding"}) == 409


def test_funding_needs_an_unexpired_lock(svc):
    assert condition(svc, "COND-0009", "Cleared")["success"]
    loan = finish(svc, "LN-0003", "Docs Out")
    assert loan["success"] is False and loan["error"]["code"] == 422
    assert "expired on 2026-01-13" in loan["error"]["message"]
    msg = error(svc, "extend_rate_lock", {"loan_id": "LN-0003", "extension_days": 7})
    assert msg["code"] == 409 and "lock_rate" in msg["message"]
    lock = ok(svc, "lock_rate", {"loan_id": "LN-0003", "lock_number_of_days": 15})
    assert (lock["id"], lock["lock_expiration_date"], lock["rate"]) == ("LCK-0012", "2026-01-30", 6.0)
    assert finish(svc, "LN-0003", "Docs Out")["data"]["current_milestone"] == "Funding"
    done = finish(svc, "LN-0003", "Funding")["data"]
    assert (done["current_milestone"], done["status"], done["milestones"][-1]["done_indicator"]) == (
        "Completion", "completed", True)


def test_funding_without_lock_refused(svc, make_service):
    svc = make_service(MortgageLoans)
    ok(svc, "cancel_rate_lock", {"loan_id": "LN-0009", "reason": "Borrower wants to float"})
    msg = error(svc, "complete_milestone", {"loan_id": "LN-0009", "milestone": "Docs Out"})
    assert msg["code"] == 422 and "no rate lock" in msg["message"]


def test_rate_lock_tools(svc):
    assert code(svc, "lock_rate", {"loan_id": "LN-0002", "lock_number_of_days": 30}) == 409  # already locked
    ext = ok(svc, "extend_rate_lock", {"loan_id": "LN-0002", "extension_days": 22, "comment": "closing moved"})
    assert (ext["lock_expiration_date"], ext["lock_number_of_days"], ext["extension_days"]) == ("2026-02-12", 52, 22)
    assert ok(svc, "get_loan", {"loan_id": "LN-0002"})["notes"] == ["Lock extended 22 days: closing moved"]
    assert code(svc, "extend_rate_lock", {"loan_id": "LN-0002", "extension_days": 31}) == 400
    assert code(svc, "lock_rate", {"loan_id": "LN-0005", "lock_number_of_days": 20}) == 400
    cancelled = ok(svc, "cancel_rate_lock", {"loan_id": "LN-0007", "reason": "Rates dropped"})
    assert cancelled["requested_status"] == "Cancelled"
    assert code(svc, "cancel_rate_lock", {"loan_id": "LN-0005", "reason": "none"}) == 409  # never locked


def test_adverse_action_and_notes(svc):
    w = ok(svc, "record_adverse_action", {"loan_id": "LN-0007", "action": "withdrawn", "reason": "Bought with cash"})
    assert (w["status"], w["adverse_action_reason"], w["rate_lock_status"]) == ("withdrawn", "Bought with cash",
                                                                               "Cancelled")
    assert code(svc, "record_adverse_action", {"loan_id": "LN-0007", "action": "denied", "reason": "again"}) == 409
    assert code(svc, "complete_milestone", {"loan_id": "LN-0007", "milestone": "Submittal"}) == 409
    note = ok(svc, "add_loan_note", {"loan_id": "LN-0004", "note": "Final docs archived"})
    assert note["notes"] == ["Final docs archived"]


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert finish(svc, "LN-0001", "Cond. Approval")["success"] is True  # no gate into Resubmittal
    assert finish(svc, "LN-0001", "Resubmittal")["success"] is False
    assert svc.state_dict() != before
    again = svc.state_dict()
    assert svc.call("update_loan_terms", {"loan_id": "LN-0001", "loan_amount": 600000})["success"] is False
    assert svc.state_dict() == again


def test_seed_is_deterministic(make_service):
    assert make_service(MortgageLoans, seed=3).state_dict() == make_service(MortgageLoans, seed=3).state_dict()
