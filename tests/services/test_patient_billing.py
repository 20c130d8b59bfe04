"""Tests of the patient billing service (athenahealth patient billing style)."""

from __future__ import annotations

import datetime as dt

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._patient_billing_rules import split
from compoworld_gym.envs.services.insurance_claims import InsuranceClaims
from compoworld_gym.envs.services.insurance_eligibility import InsuranceEligibility
from compoworld_gym.envs.services.patient_billing import PatientBilling
from compoworld_gym.envs.services.patient_scheduling import PatientScheduling


@pytest.fixture
def svc(make_service):
    return make_service(PatientBilling)


def test_seed_lines_up_with_the_clinic(svc, make_service):
    clinic, claims = make_service(PatientScheduling), make_service(InsuranceClaims)
    elig = make_service(InsuranceEligibility)
    for a in svc.state.accounts.values():
        p = clinic.state.patients[a.id]
        assert (a.name, a.email, a.phone) == (p.name, p.email, p.phone)
    for c in svc.state.charges.values():
        if c.claim_id:
            assert c.amount == claims.state.claims[c.claim_id].patient_responsibility
        if c.kind == "copay":
            cov = next(x for x in elig.state.coverages.values() if x.appointment_id == c.appointment_id)
            assert c.amount == cov.visit_copay
        if c.kind == "no_show_fee":
            assert clinic.state.appointments[c.appointment_id].status == "noshow"
    assert make_service(PatientBilling, seed=4).state_dict() == make_service(PatientBilling, seed=4).state_dict()


def test_split_covers_the_balance():
    assert split(1240.0, 6, None) == [206.67] * 5 + [206.65]
    assert split(66.0, None, 25.0) == [25.0, 25.0, 16.0]
    assert sum(split(1000.01, 3, None)) == pytest.approx(1000.01)


def test_reads(svc):
    assert [a["id"] for a in ok(svc, "search_patients", {"email": "Amara.Okonkwo@mailbox.example"})] == ["PAT-0011"]
    assert [(a["id"], a["guarantor_name"]) for a in ok(svc, "search_patients", {"name": "bennett"})] == [
        ("PAT-0001", "Olivia Bennett"), ("PAT-0015", "Olivia Bennett")]
    bal = ok(svc, "get_patient_balance", {"patient_id": "PAT-0011"})
    assert (bal["balance"], bal["payment_plan_balance"], bal["aging"]["days_31_60"]) == (1033.33, 1033.33, 1033.33)
    coll = ok(svc, "get_patient_balance", {"patient_id": "PAT-0009"})
    assert (coll["collections_balance"], coll["aging"]["days_over_90"]) == (285.0, 285.0)
    assert code(svc, "get_patient_balance", {"patient_id": "PAT-0999"}) == 404
    assert [c["id"] for c in ok(svc, "list_charges", {"kind": "no_show_fee"})] == ["CHG-0008", "CHG-0009", "CHG-0010"]
    assert [c["id"] for c in ok(svc, "list_charges", {"patient_id": "PAT-0010", "open_only": True})] == []
    assert [c["id"] for c in ok(svc, "list_charges", {"claim_id": "CLM-0009"})] == ["CHG-0002"]
    assert [c["id"] for c in ok(svc, "list_charges", {"appointment_id": "APT-0007"})] == ["CHG-0007"]
    assert [s["id"] for s in ok(svc, "list_statements", {"patient_id": "PAT-0005"})] == ["STM-0003", "STM-0002"]
    assert [s["id"] for s in ok(svc, "list_statements", {"status": "in_collections"})] == ["STM-0001"]
    assert [s["id"] for s in ok(svc, "list_statements", {"email": "grace.whitaker@mailbox.example"})] == ["STM-0004"]
    stm = ok(svc, "get_statement", {"statement_id": "STM-0003"})
    assert (stm["amount_due"], stm["balance"], stm["charges"][0]["paid"]) == (66.0, 33.0, 33.0)
    assert code(svc, "get_statement", {"statement_id": "STM-0999"}) == 404
    assert [p["id"] for p in ok(svc, "list_payments", {"statement_id": "STM-0003"})] == ["PAY-0002"]
    assert [p["id"] for p in ok(svc, "list_payments", {"status": "posted"})] == ["PAY-0001", "PAY-0002", "PAY-0003"]
    assert ok(svc, "get_payment", {"payment_id": "PAY-0001"})["applied"] == [{"charge_id": "CHG-0006",
                                                                              "amount": 35.0}]
    assert [p["id"] for p in ok(svc, "list_payment_plans", {"status": "active"})] == ["PPL-0001"]
    plan = ok(svc, "get_payment_plan", {"payment_plan_id": "PPL-0001"})
    assert (plan["remaining"], [i["status"] for i in plan["installments"]][:2]) == (1033.33, ["paid", "scheduled"])
    assert code(svc, "get_payment_plan", {"payment_plan_id": "PPL-0009"}) == 404


def test_post_charge(svc):
    c = ok(svc, "post_patient_charge", {"patient_id": "PAT-0013", "kind": "copay", "amount": 30,
                                        "appointment_id": "APT-0010"})
    assert (c["id"], c["description"], c["balance"], c["service_date"]) == ("CHG-0013", "Office visit copay", 30.0,
                                                                             "2026-01-15")
    assert code(svc, "post_patient_charge", {"patient_id": "PAT-0013", "kind": "copay", "amount": 30,
                                             "appointment_id": "APT-0010"}) == 409
    assert code(svc, "post_patient_charge", {"patient_id": "PAT-0013", "kind": "copay", "amount": 30}) == 400
    assert code(svc, "post_patient_charge", {"patient_id": "PAT-0013", "kind": "coinsurance", "amount": 30}) == 400
    assert code(svc, "post_patient_charge", {"patient_id": "PAT-0013", "kind": "self_pay", "amount": 30,
                                             "service_date": "2026-02-01"}) == 422
    assert code(svc, "post_patient_charge", {"patient_id": "PAT-0999", "kind": "self_pay", "amount": 30}) == 404
    assert code(svc, "post_patient_charge", {"patient_id": "PAT-0013", "kind": "self_pay", "amount": 0}) == 400


def test_payments_never_exceed_the_balance(svc):
    ok(svc, "post_patient_charge", {"patient_id": "PAT-0013", "kind": "copay", "amount": 30,
                                    "appointment_id": "APT-0010"})
    msg = error(svc, "record_payment", {"patient_id": "PAT-0013", "amount": 31, "appointment_id": "APT-0010",
                                        "card_last4": "4242"})
    assert msg["code"] == 422 and "would exceed the balance" in msg["message"]
    p = ok(svc, "record_payment", {"patient_id": "PAT-0013", "amount": 30, "appointment_id": "APT-0010",
                                   "card_last4": "4242"})
    assert (p["id"], p["applied"]) == ("PAY-0004", [{"charge_id": "CHG-0013", "amount": 30.0}])
    paid = ok(svc, "record_payment", {"patient_id": "PAT-0005", "amount": 33, "method": "check",
                                      "check_number": "5521", "statement_id": "STM-0003"})
    assert ok(svc, "get_statement", {"statement_id": paid["statement_id"]})["status"] == "paid"
    assert code(svc, "record_payment", {"patient_id": "PAT-0005", "amount": 1, "method": "cash",
                                        "statement_id": "STM-0003"}) == 409  # paid
    assert code(svc, "record_payment", {"patient_id": "PAT-0016", "amount": 5, "method": "cash",
                                        "statement_id": "STM-0007"}) == 409  # draft
    assert code(svc, "record_payment", {"patient_id": "PAT-0007", "amount": 5, "method": "cash",
                                        "statement_id": "STM-0006"}) == 400  # another patient's
    assert code(svc, "record_payment", {"patient_id": "PAT-0007", "amount": 5, "method": "check"}) == 400
    assert code(svc, "record_payment", {"patient_id": "PAT-0007", "amount": 5, "method": "credit_card"}) == 400
    assert code(svc, "record_payment", {"patient_id": "PAT-0007", "amount": 5, "method": "cash",
                                        "card_last4": "4242"}) == 400
    assert code(svc, "record_payment", {"patient_id": "PAT-0010", "amount": 5, "method": "cash"}) == 422  # owes 0
    assert code(svc, "record_payment", {"patient_id": "PAT-0007", "amount": 5, "method": "cash",
                                        "statement_id": "STM-0004", "appointment_id": "APT-0001"}) == 400
    plan = ok(svc, "record_payment", {"patient_id": "PAT-0011", "amount": 206.67, "card_last4": "4417",
                                      "payment_plan_id": "PPL-0001"})
    pp = ok(svc, "get_payment_plan", {"payment_plan_id": plan["payment_plan_id"]})
    assert (pp["remaining"], pp["installments"][1]["status"]) == (826.66, "paid")
    assert code(svc, "record_payment", {"patient_id": "PAT-0011", "amount": 900, "card_last4": "4417",
                                        "payment_plan_id": "PPL-0001"}) == 422
    assert code(svc, "record_payment", {"patient_id": "PAT-0007", "amount": 5, "method": "cash",
                                        "payment_plan_id": "PPL-0001"}) == 400


def test_void_payment_same_day_only(svc):
    p = ok(svc, "record_payment", {"patient_id": "PAT-0005", "amount": 33, "method": "cash",
                                   "statement_id": "STM-0003"})
    assert ok(svc, "get_statement", {"statement_id": "STM-0003"})["status"] == "paid"
    v = ok(svc, "void_payment", {"payment_id": p["id"], "reason": "Posted to the wrong visit"})
    assert v["status"] == "voided" and "Voided: Posted to the wrong visit" in v["memo"]
    stm = ok(svc, "get_statement", {"statement_id": "STM-0003"})
    assert (stm["status"], stm["balance"]) == ("sent", 33.0)
    assert code(svc, "void_payment", {"payment_id": p["id"], "reason": "again"}) == 409
    assert error(svc, "void_payment", {"payment_id": "PAY-0002", "reason": "late"})["message"].endswith(
        "(refund it through the card processor).")
    plan = ok(svc, "record_payment", {"patient_id": "PAT-0011", "amount": 100, "card_last4": "4417",
                                      "payment_plan_id": "PPL-0001"})
    ok(svc, "void_payment", {"payment_id": plan["id"], "reason": "Card declined"})
    assert ok(svc, "get_payment_plan", {"payment_plan_id": "PPL-0001"})["remaining"] == 1033.33


def test_adjustments(svc):
    adj = ok(svc, "post_adjustment", {"charge_id": "CHG-0005", "amount": 3.5, "reason": "small_balance"})
    assert (adj["balance"], adj["adjusted"]) == (20.0, 3.5)
    assert ok(svc, "get_statement", {"statement_id": "STM-0007"})["balance"] == 20.0
    assert code(svc, "post_adjustment", {"charge_id": "CHG-0005", "amount": 15, "reason": "small_balance"}) == 422
    assert code(svc, "post_adjustment", {"charge_id": "CHG-0005", "amount": 25, "reason": "billing_error"}) == 422
    assert code(svc, "post_adjustment", {"charge_id": "CHG-0011", "amount": 5}) == 409  # in collections
    assert code(svc, "post_adjustment", {"charge_id": "CHG-0999", "amount": 5}) == 404


def test_statements_and_collections(svc):
    s = ok(svc, "create_statement", {"patient_id": "PAT-0014", "message": "Missed visit on Jan 14"})
    assert (s["id"], s["status"], s["charge_ids"], s["amount_due"], s["due_date"]) == (
        "STM-0008", "draft", ["CHG-0008"], 50.0, "2026-02-14")
    assert code(svc, "create_statement", {"patient_id": "PAT-0014"}) == 422  # nothing left to bill
    assert code(svc, "create_statement", {"patient_id": "PAT-0012", "due_date": "2026-01-15"}) == 422
    sent = ok(svc, "send_statement", {"statement_id": "STM-0008"})
    assert (sent["status"], sent["delivery"], sent["sent_on"]) == ("sent", "mail", "2026-01-15")
    assert code(svc, "send_statement", {"statement_id": "STM-0008"}) == 409
    up = ok(svc, "update_statement", {"statement_id": "STM-0008", "due_date": "2026-03-01", "message": "Call us"})
    assert (up["due_date"], up["message"]) == ("2026-03-01", "Call us")
    assert code(svc, "update_statement", {"statement_id": "STM-0008"}) == 400
    assert code(svc, "update_statement", {"statement_id": "STM-0008", "due_date": "2026-01-01"}) == 422
    msg = error(svc, "update_statement", {"statement_id": "STM-0001", "message": "Please pay"})
    assert msg["code"] == 409 and "cannot be edited" in msg["message"]
    assert code(svc, "void_statement", {"statement_id": "STM-0001", "reason": "x-out"}) == 409
    assert code(svc, "void_statement", {"statement_id": "STM-0002", "reason": "again"}) == 409
    assert ok(svc, "void_statement", {"statement_id": "STM-0007", "reason": "Claim reprocessed"})["status"] == "void"
    assert error(svc, "send_statement_to_collections", {"statement_id": "STM-0004", "agency": "Transworld Systems"})[
        "code"] == 422
    svc.state.statements["STM-0004"].due_date = dt.date(2025, 11, 1)
    c = ok(svc, "send_statement_to_collections", {"statement_id": "STM-0004", "agency": "credit control services"})
    assert (c["status"], c["collections_agency"], c["collections_on"]) == ("in_collections", "Credit Control Services",
                                                                          "2026-01-15")
    assert code(svc, "send_statement_to_collections", {"statement_id": "STM-0005", "agency": "Acme Collect"}) == 404
    assert code(svc, "send_statement_to_collections", {"statement_id": "STM-0008", "agency": "Transworld Systems"}) \
        == 422


def test_payment_plans(svc):
    assert code(svc, "create_payment_plan", {"patient_id": "PAT-0011", "number_of_installments": 3}) == 409
    assert code(svc, "create_payment_plan", {"patient_id": "PAT-0016", "number_of_installments": 2}) == 422  # $11.75
    assert code(svc, "create_payment_plan", {"patient_id": "PAT-0009", "number_of_installments": 2}) == 422
    assert code(svc, "create_payment_plan", {"patient_id": "PAT-0013", "number_of_installments": 2,
                                             "installment_amount": 33}) == 400
    assert code(svc, "create_payment_plan", {"patient_id": "PAT-0013", "installment_amount": 2.5}) == 422
    assert code(svc, "create_payment_plan", {"patient_id": "PAT-0013", "number_of_installments": 2,
                                             "start_date": "2026-03-01"}) == 422
    p = ok(svc, "create_payment_plan", {"patient_id": "PAT-0013", "installment_amount": 25, "card_last4": "1881",
                                        "start_date": "2026-01-31"})
    assert (p["id"], p["total"], [i["amount"] for i in p["installments"]],
            [i["due_date"] for i in p["installments"]]) == ("PPL-0002", 66.0, [25.0, 25.0, 16.0],
                                                            ["2026-01-31", "2026-02-28", "2026-03-31"])
    c = ok(svc, "cancel_payment_plan", {"payment_plan_id": "PPL-0002", "reason": "Paid in full instead"})
    assert (c["status"], c["cancel_reason"]) == ("cancelled", "Paid in full instead")
    assert code(svc, "cancel_payment_plan", {"payment_plan_id": "PPL-0002", "reason": "again"}) == 409


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("record_payment", {"patient_id": "PAT-0005", "amount": 500, "method": "cash",
                                       "statement_id": "STM-0003"})["success"] is False
    assert svc.call("update_statement", {"statement_id": "STM-0001", "message": "x"})["success"] is False
    assert svc.state_dict() == before
