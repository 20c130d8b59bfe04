"""Tests of the insurance_claims service (X12 837/835 claim lifecycle)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._patient_scheduling_seed import PATIENTS
from compoworld_gym.envs.services.insurance_claims import InsuranceClaims

PRIYA = "priya.raman@company.example"


@pytest.fixture
def svc(make_service):
    return make_service(InsuranceClaims)


def draft(svc, policy="POL-0001", day="2026-01-12", lines=(("99214", 210.0),), **extra):
    c = ok(svc, "create_claim", {"policy_id": policy, "service_date": day, "diagnosis_codes": ["I10"], **extra})
    for cpt, charge in lines:
        c = ok(svc, "add_claim_line", {"claim_id": c["id"], "cpt_code": cpt, "charge": charge})
    return c


def test_seeded_policies_follow_the_registry(svc):
    st = svc.state
    for p in PATIENTS:
        pol = st.policies[p.policy_id]
        assert (pol.patient_id, pol.member_id, pol.payer) == (p.id, p.member_id, p.payer)
    assert [p["id"] for p in ok(svc, "search_policies", {"patient_id": "PAT-0004"})] == ["POL-0004", "POL-0017"]
    assert [p["id"] for p in ok(svc, "search_policies", {"patient_id": "PAT-0004", "status": "active"})] == ["POL-0017"]
    for c in st.claims.values():
        assert c.total_charge == round(sum(x.charge for x in c.lines), 2)
        if c.payable is not None:
            assert c.payable + c.patient_responsibility == pytest.approx(c.allowed_total)
            assert c.allowed_total <= c.total_charge


def test_reads(svc):
    pol = ok(svc, "get_policy", {"policy_id": "POL-0002"})
    assert pol["deductible_remaining"] == round(pol["deductible"] - pol["deductible_met"], 2)
    member = svc.state.policies["POL-0003"].member_id
    assert [p["id"] for p in ok(svc, "search_policies", {"member_id": member.lower()})] == ["POL-0003"]
    assert code(svc, "get_policy", {"policy_id": "POL-0999"}) == 404
    fees = ok(svc, "get_fee_schedule")
    assert fees["codes"]["99213"]["allowed"] == 105.0 and fees["timely_filing_days"] == 365
    assert PRIYA in fees["examiners"] and "CO-27" in fees["denial_reasons"]
    assert [c["id"] for c in ok(svc, "list_claims", {"status": "submitted"})] == ["CLM-0002", "CLM-0003", "CLM-0008",
                                                                                 "CLM-0012"]
    assert all("lines" not in c for c in ok(svc, "list_claims", {}))
    assert len(ok(svc, "get_claim", {"claim_id": "CLM-0001"})["lines"]) == 3
    assert code(svc, "get_claim", {"claim_id": "CLM-0999"}) == 404
    assert [r["claim_id"] for r in ok(svc, "list_remittances", {})] == ["CLM-0005", "CLM-0006", "CLM-0010"]


def test_eligibility(svc):
    e = ok(svc, "check_eligibility", {"policy_id": "POL-0004", "service_date": "2026-01-20", "reference": "APT-0042"})
    assert (e["id"], e["eligible"], e["reference"], e["checked_at"]) == ("ELG-0001", False, "APT-0042",
                                                                         "2026-01-15T09:00:00")
    assert ok(svc, "check_eligibility", {"policy_id": "POL-0004", "service_date": "2025-12-01"})["eligible"] is True
    e2 = ok(svc, "check_eligibility", {"policy_id": "POL-0017", "service_date": "2026-01-20"})
    assert (e2["eligible"], e2["deductible_remaining"]) == (True, 1500.0)


def test_claim_lifecycle_with_deductible_and_coinsurance(svc):
    # POL-0017: deductible 1500 unmet, coinsurance 20%; POL-0001: deductible met, 20%.
    c = draft(svc, appointment_id="APT-0042", lines=(("99214", 210.0), ("93000", 30.0)))
    assert (c["id"], c["status"], c["total_charge"], c["patient_id"]) == ("CLM-0013", "draft", 240.0, "PAT-0001")
    assert code(svc, "create_claim", {"policy_id": "POL-0001", "service_date": "2026-01-12",
                                      "diagnosis_codes": ["I10"], "appointment_id": "APT-0042"}) == 409
    s = ok(svc, "submit_claim", {"claim_id": c["id"]})
    assert (s["status"], s["submitted_on"]) == ("submitted", "2026-01-15")
    assert code(svc, "add_claim_line", {"claim_id": c["id"], "cpt_code": "90471", "charge": 30}) == 409
    assert code(svc, "pay_claim", {"claim_id": c["id"], "amount": 10, "trace_number": "EFT1"}) == 409
    a = ok(svc, "adjudicate_claim", {"claim_id": c["id"]})
    assert [x["allowed"] for x in a["lines"]] == [150.0, 30.0]  # fee cap 150; a charge below the fee stays
    assert (a["allowed_total"], a["patient_responsibility"], a["payable"]) == (180.0, 36.0, 144.0)
    assert code(svc, "pay_claim", {"claim_id": c["id"], "amount": 144.01, "trace_number": "EFT1"}) == 422
    paid = ok(svc, "pay_claim", {"claim_id": c["id"], "amount": 144, "trace_number": "EFT1"})
    assert (paid["status"], paid["paid_amount"], paid["paid_on"]) == ("paid", 144.0, "2026-01-15")
    assert ok(svc, "list_remittances", {"claim_id": c["id"]})[0]["trace_number"] == "EFT1"
    fresh = draft(svc, policy="POL-0017", lines=(("99213", 120.0),))
    ok(svc, "submit_claim", {"claim_id": fresh["id"]})
    d = ok(svc, "adjudicate_claim", {"claim_id": fresh["id"]})
    assert (d["allowed_total"], d["patient_responsibility"], d["payable"]) == (105.0, 105.0, 0.0)
    assert svc.state.policies["POL-0017"].deductible_met == 105.0


def test_submission_refusals(svc):
    empty = ok(svc, "create_claim", {"policy_id": "POL-0001", "service_date": "2026-01-12", "diagnosis_codes": ["I10"]})
    assert code(svc, "submit_claim", {"claim_id": empty["id"]}) == 422
    future = draft(svc, day="2026-01-20")
    assert code(svc, "submit_claim", {"claim_id": future["id"]}) == 422
    ended = draft(svc, policy="POL-0004", day="2026-01-05")
    assert "does not cover" in error(svc, "submit_claim", {"claim_id": ended["id"]})["message"]
    late = draft(svc, day="2024-12-01")
    assert "filing limit" in error(svc, "submit_claim", {"claim_id": late["id"]})["message"]
    assert code(svc, "remove_claim_line", {"claim_id": late["id"], "line_number": 2}) == 400
    assert ok(svc, "remove_claim_line", {"claim_id": late["id"], "line_number": 1})["total_charge"] == 0.0
    assert code(svc, "add_claim_line", {"claim_id": late["id"], "cpt_code": "12345", "charge": 5}) == 400
    assert code(svc, "create_claim", {"policy_id": "POL-0999", "service_date": "2026-01-12",
                                      "diagnosis_codes": ["I10"]}) == 404


def test_deny_appeal_void_note_assign(svc):
    d = ok(svc, "deny_claim", {"claim_id": "CLM-0002", "reason_code": "CO-16", "note": "Missing referral"})
    assert (d["status"], d["denial_reason"], d["notes"]) == ("denied", "CO-16", ["Missing referral"])
    assert code(svc, "deny_claim", {"claim_id": "CLM-0002", "reason_code": "CO-16"}) == 409
    assert code(svc, "deny_claim", {"claim_id": "CLM-0003", "reason_code": "CO-99"}) == 400
    ap = ok(svc, "appeal_claim", {"claim_id": "CLM-0002", "note": "Referral attached"})
    assert (ap["status"], ap["denial_reason"], ap["notes"][-1]) == ("submitted", None, "Appeal: Referral attached")
    assert code(svc, "appeal_claim", {"claim_id": "CLM-0002", "note": "Again"}) == 409
    assert ok(svc, "void_claim", {"claim_id": "CLM-0002"})["status"] == "void"
    assert code(svc, "void_claim", {"claim_id": "CLM-0005"}) == 409  # paid
    assert ok(svc, "add_claim_note", {"claim_id": "CLM-0005", "note": "EOB mailed"})["notes"] == ["EOB mailed"]
    a = ok(svc, "assign_claim", {"claim_id": "CLM-0003", "examiner_email": PRIYA.upper()})
    assert a["assigned_to"] == PRIYA
    assert code(svc, "assign_claim", {"claim_id": "CLM-0003", "examiner_email": "luis.ortega@company.example"}) == 404
    assert code(svc, "assign_claim", {"claim_id": "CLM-0005", "examiner_email": PRIYA}) == 409


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    res = svc.call("pay_claim", {"claim_id": "CLM-0004", "amount": 10000, "trace_number": "EFT9"})
    assert res["error"]["code"] == 422
    assert svc.call("submit_claim", {"claim_id": "CLM-0001"})["success"] is True
    svc.call("void_claim", {"claim_id": "CLM-0001"})
    assert svc.state_dict() != before
    again = InsuranceClaims(before, today=svc.today)
    assert again.call("adjudicate_claim", {"claim_id": "CLM-0001"})["error"]["code"] == 409
    assert again.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(InsuranceClaims, seed=1).state_dict() == make_service(InsuranceClaims, seed=1).state_dict()
    assert make_service(InsuranceClaims, seed=1).state_dict() != make_service(InsuranceClaims, seed=2).state_dict()
