"""Tests of the prior authorization service (Da Vinci PAS / CoverMyMeds)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.insurance_claims import InsuranceClaims
from compoworld_gym.envs.services.prior_auth import PriorAuth


@pytest.fixture
def svc(make_service):
    return make_service(PriorAuth)


def new_pa(svc, **extra):
    args = {"patient_id": "PAT-0014", "policy_id": "POL-0014", "requester_id": "PRA-0006", "code": "73721",
            "quantity": 1, "service_start": "2026-01-22", "diagnosis_codes": ["M25.561"]} | extra
    return svc.call("create_prior_auth", args)


def decide(svc, pa_id, outcome, **extra):
    return svc.call("record_payer_decision", {"prior_authorization_id": pa_id, "outcome": outcome} | extra)


def test_requirements_coverage_and_search(svc):
    req = ok(svc, "list_pa_requirements")
    codes = {c["code"]: c for c in req["codes"]}
    assert (codes["2002419"]["system"], codes["97110"]["max_units"], req["appeal_days"]) == ("RxNorm", 36, 30)
    assert sorted(req["denial_reasons"]) == ["DOC", "ELIG", "MN", "OON", "QL", "ST"]
    covs = ok(svc, "get_member_coverage", {"patient_id": "PAT-0004"})
    assert [(c["id"], c["status"], c["payer"]) for c in covs] == [("POL-0004", "terminated", "Humana"),
                                                                  ("POL-0017", "active", "Cigna")]
    assert [c["id"] for c in ok(svc, "get_member_coverage", {"member_id": "HH00732612A"})] == ["POL-0017"]
    assert [r["id"] for r in ok(svc, "search_prior_auths", {"status": "denied"})] == ["PA-0003", "PA-0007"]
    assert [r["id"] for r in ok(svc, "search_prior_auths", {"prescription_id": "RX-0008"})] == ["PA-0002"]
    assert [r["id"] for r in ok(svc, "search_prior_auths", {"patient_id": "PAT-0013"})] == ["PA-0006"]
    assert [r["id"] for r in ok(svc, "search_prior_auths", {"policy_id": "POL-0017", "code": "1991306"})] == ["PA-0003"]
    pa = ok(svc, "get_prior_auth", {"prior_authorization_id": "PA-0003"})
    assert (pa["appeal_deadline"], pa["can_appeal"], pa["latest_decision"]["reason_code"]) == ("2026-02-06", True, "ST")
    assert code(svc, "get_prior_auth", {"prior_authorization_id": "PA-0999"}) == 404


def test_check_authorization(svc):
    yes = ok(svc, "check_authorization", {"prior_authorization_id": "PA-0001", "service_date": "2026-01-15",
                                          "units": 2})
    assert (yes["authorized"], yes["auth_number"], yes["valid_until"]) == (True, "AUTH-0001", "2026-04-29")
    late = ok(svc, "check_authorization", {"prior_authorization_id": "PA-0001", "service_date": "2026-06-01"})
    assert late["authorized"] is False and "2025-10-31 to 2026-04-29" in late["reason"]
    over = ok(svc, "check_authorization", {"prior_authorization_id": "PA-0006", "service_date": "2026-01-20",
                                           "units": 13})
    assert (over["authorized"], over["approved_units"]) == (False, 12)
    pended = ok(svc, "check_authorization", {"prior_authorization_id": "PA-0002", "service_date": "2026-01-15"})
    assert (pended["authorized"], pended["reason"]) == (False, "request is pended")


def test_create_prior_auth(svc):
    pa = new_pa(svc)["data"]
    assert (pa["id"], pa["status"], pa["payer"], pa["member_id"], pa["estimated_cost"], pa["service_end"]) == (
        "PA-0010", "draft", "Humana", "HH00813842", 580.0, "2026-03-23")
    drug = new_pa(svc, patient_id="PAT-0004", policy_id="POL-0017", requester_id="PRA-0002", code="2002419",
                  quantity=26, service_start="2026-02-01", service_end="2026-12-31", diagnosis_codes=["L40.0"],
                  prescription_id="RX-0012", clinical_note="Failed topical therapy")["data"]
    assert (drug["request_type"], drug["estimated_cost"], drug["clinical_notes"]) == (
        "medication", 89986.0, ["Failed topical therapy"])


def test_create_rules(svc):
    old = error(svc, "create_prior_auth", {"patient_id": "PAT-0004", "policy_id": "POL-0004", "requester_id": "PRA-0002",
                                           "code": "72148", "quantity": 1, "service_start": "2026-01-20",
                                           "diagnosis_codes": ["M54.50"]})
    assert old["code"] == 422 and "terminated" in old["message"]
    assert new_pa(svc, policy_id="POL-0003")["error"]["code"] == 422  # another member's policy
    assert new_pa(svc, code="99213")["error"]["code"] == 422  # needs no prior authorization
    assert new_pa(svc, quantity=2)["error"]["code"] == 422  # an MRI is one unit
    assert new_pa(svc, service_start="2025-11-01")["error"]["code"] == 422  # more than 30 days back
    assert new_pa(svc, service_end="2027-03-01")["error"]["code"] == 422  # more than 365 days
    assert new_pa(svc, service_end="2026-01-10")["error"]["code"] == 422  # ends before it starts
    assert new_pa(svc, diagnosis_codes=["knee"])["error"]["code"] == 400
    assert new_pa(svc, requester_id="PRA-0042")["error"]["code"] == 404
    assert new_pa(svc, policy_id="POL-0999")["error"]["code"] == 404
    dup = new_pa(svc, patient_id="PAT-0008", policy_id="POL-0008")
    assert dup["error"]["code"] == 409 and "PA-0005" in dup["error"]["message"]


def test_submit_needs_clinical_notes(svc):
    msg = error(svc, "submit_prior_auth", {"prior_authorization_id": "PA-0005"})
    assert msg["code"] == 422 and "no clinical notes" in msg["message"]
    assert ok(svc, "add_clinical_note", {"prior_authorization_id": "PA-0005", "note": "Locked knee, effusion"}
              )["clinical_notes"] == ["Locked knee, effusion"]
    sub = ok(svc, "submit_prior_auth", {"prior_authorization_id": "PA-0005"})
    assert (sub["status"], sub["submitted_on"]) == ("submitted", "2026-01-15")
    assert code(svc, "submit_prior_auth", {"prior_authorization_id": "PA-0005"}) == 409
    pend = ok(svc, "submit_prior_auth", {"prior_authorization_id": "PA-0002",
                                         "clinical_note": "Failed 8 weeks of triamcinolone 0.1%"})
    assert (pend["status"], len(pend["clinical_notes"])) == ("submitted", 2)
    assert code(svc, "add_clinical_note", {"prior_authorization_id": "PA-0008", "note": "late"}) == 409  # cancelled


def test_payer_decisions(svc):
    assert decide(svc, "PA-0005", "approved")["error"]["code"] == 409  # still a draft
    assert decide(svc, "PA-0004", "denied")["error"]["code"] == 422  # no reason code
    assert decide(svc, "PA-0004", "denied", reason_code="INFO")["error"]["code"] == 422  # a pend code
    assert decide(svc, "PA-0004", "approved", reason_code="MN")["error"]["code"] == 422
    assert decide(svc, "PA-0004", "approved", approved_units=2)["error"]["code"] == 422  # more than asked
    assert decide(svc, "PA-0004", "approved", valid_from="2026-01-01", valid_until="2026-01-10"
                  )["error"]["code"] == 422  # already over
    ok_ = decide(svc, "PA-0004", "approved", note="Meets criteria")["data"]
    dec = ok_["latest_decision"]
    assert (ok_["status"], dec["review_action"], dec["auth_number"], dec["approved_units"], dec["valid_until"]) == (
        "approved", "A1", "AUTH-0003", 1, "2026-03-19")
    assert code(svc, "record_payer_decision", {"prior_authorization_id": "PA-0004", "outcome": "denied",
                                               "reason_code": "MN"}) == 409
    ok(svc, "add_clinical_note", {"prior_authorization_id": "PA-0005", "note": "MRI needed"})
    ok(svc, "submit_prior_auth", {"prior_authorization_id": "PA-0005"})
    p = decide(svc, "PA-0005", "pended", reason_code="P2P")["data"]
    assert (p["status"], p["latest_decision"]["review_action"]) == ("pended", "A4")


def test_appeal_within_30_days_once(svc):
    late = error(svc, "appeal_prior_auth", {"prior_authorization_id": "PA-0007", "note": "Echo was inconclusive"})
    assert late["code"] == 422 and "until 2025-12-31" in late["message"]
    assert code(svc, "appeal_prior_auth", {"prior_authorization_id": "PA-0004", "note": "Not denied yet"}) == 409
    ap = ok(svc, "appeal_prior_auth", {"prior_authorization_id": "PA-0003",
                                       "note": "Metformin not tolerated: GI intolerance documented"})
    assert (ap["status"], ap["appeal"]["filed_on"], ap["appeal"]["deadline"]) == ("appealed", "2026-01-15", "2026-02-06")
    partial = decide(svc, "PA-0003", "approved", approved_units=3)["data"]
    assert (partial["status"], partial["latest_decision"]["review_action"]) == ("approved", "A2")
    assert decide(svc, "PA-0009", "denied", reason_code="MN")["data"]["status"] == "denied"
    again = error(svc, "appeal_prior_auth", {"prior_authorization_id": "PA-0009", "note": "Second appeal please"})
    assert again["code"] == 409 and "already appealed" in again["message"]


def test_cancel_and_notes(svc):
    c = ok(svc, "cancel_prior_auth", {"prior_authorization_id": "PA-0005", "reason": "Patient moved"})
    assert (c["status"], c["cancel_reason"]) == ("cancelled", "Patient moved")
    assert code(svc, "cancel_prior_auth", {"prior_authorization_id": "PA-0001", "reason": "No longer needed"}) == 409
    assert ok(svc, "add_prior_auth_note", {"prior_authorization_id": "PA-0001", "note": "Pens shipped"})["notes"] == [
        "Pens shipped"]


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert decide(svc, "PA-0004", "approved", approved_units=5)["success"] is False
    assert svc.state_dict() == before
    assert make_service(PriorAuth, seed=4).state_dict() == make_service(PriorAuth, seed=4).state_dict()


def test_coverages_are_the_clearinghouse_policies(make_service):
    covs = make_service(PriorAuth, seed=2).state_dict()["coverages"]
    pols = make_service(InsuranceClaims, seed=2).state_dict()["policies"]
    assert sorted(covs) == sorted(pols)
    for pid, c in covs.items():
        assert (c["patient_id"], c["member_id"], c["payer"], c["status"]) == (
            pols[pid]["patient_id"], pols[pid]["member_id"], pols[pid]["payer"], pols[pid]["status"])


def test_planted_chain_keeps_one_patient_from_lab_to_prior_auth():
    """Lab order -> prescription for its abnormal result -> that prescription's prior authorization:
    each planter takes the patient from the record before it, and the drug becomes the specialty drug
    the request is for (nothing dispensed before the authorization)."""
    import random

    from faker import Faker

    from compoworld_gym.generation.config import TODAY
    from compoworld_gym.generation.context import Ctx
    from compoworld_gym.generation.explore import explore_states
    from compoworld_gym.generation.hooks import lab_orders, pharmacy, prior_auth
    from compoworld_gym.generation.solve import ServiceReader, mount_states

    ctx = Ctx(random.Random(7), Faker(), TODAY, explore_states(["lab_orders", "pharmacy", "prior_auth"], 1, TODAY))
    order_id = lab_orders.LAB_ORDER.alloc(ctx)
    result_id = pharmacy.RESULT_PRESCRIPTION.alloc(ctx)
    lab_orders.LAB_ORDER.plant(ctx, order_id, {"lab_result_id": result_id, "date": "2026-01-05"}, False)
    rx_id = pharmacy.RESULT_PRESCRIPTION.plant(ctx, result_id, {"money": 41.2}, False)
    pa_id = prior_auth.PRESCRIPTION_PRIOR_AUTH.plant(ctx, rx_id, {"money": 9000.0}, False)
    reader = ServiceReader(mount_states(ctx.states, TODAY))
    order = lab_orders.LAB_ORDER.find(reader, order_id)
    rx = pharmacy.RESULT_PRESCRIPTION.find(reader, result_id)
    pa = prior_auth.PRESCRIPTION_PRIOR_AUTH.find(reader, rx_id)
    assert (order["results"][0]["id"], rx["id"], pa["id"]) == (result_id, rx_id, pa_id)
    assert order["patient_id"] == rx["patient_id"] == pa["patient_id"]
    assert (rx["medication_code"], rx["prior_auth_required"], rx["dispenses"]) == (pa["code"], True, [])
    assert (rx["reason_reference"], rx["estimated_cost"], pa["estimated_cost"]) == (result_id, 41.2, 9000.0)
    assert (pa["status"], pa["latest_decision"]["reason_code"], pa["prescription_id"]) == ("pended", "INFO", rx_id)
