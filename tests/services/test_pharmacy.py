"""Tests of the pharmacy service (FHIR MedicationRequest / MedicationDispense e-prescribing)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.lab_orders import LabOrders
from compoworld_gym.envs.services.pharmacy import Pharmacy
from compoworld_gym.envs.services.prior_auth import PriorAuth


@pytest.fixture
def svc(make_service):
    return make_service(Pharmacy)


def new_rx(svc, **extra):
    args = {"patient_id": "PAT-0006", "prescriber_id": "PRA-0004", "medication_code": "314076", "quantity": 30,
            "days_supply": 30, "dosage_instruction": "Take 1 tablet by mouth daily"} | extra
    return svc.call("create_prescription", args)


def test_formulary_prescribers_and_profile(svc):
    assert [m["code"] for m in ok(svc, "search_medications", {"specialty": True})] == ["1991306", "2002419", "1876376"]
    statin = ok(svc, "search_medications", {"query": "atorva"})
    assert [(m["code"], m["drug_class"], m["unit_price"]) for m in statin] == [("617310", "statin", 0.35)]
    assert [m["code"] for m in ok(svc, "search_medications", {"drug_class": "Opioid"})] == ["1049621", "1049221"]
    docs = {d["id"]: d["dea_number"] for d in ok(svc, "list_prescribers")}
    assert (docs["PRA-0004"], docs["PRA-0005"]) == ("BA5512093", "")
    prof = ok(svc, "get_patient_profile", {"patient_id": "PAT-0010"})
    assert [a["substance"] for a in prof["allergies"]] == ["nsaid"] and prof["active_prescriptions"] == ["RX-0003"]
    assert code(svc, "get_patient_profile", {"patient_id": "PAT-0999"}) == 404


def test_search_and_get_prescription(svc):
    assert [r["id"] for r in ok(svc, "search_prescriptions", {"patient_id": "PAT-0002"})] == ["RX-0001"]
    assert [r["id"] for r in ok(svc, "search_prescriptions", {"status": "completed"})] == ["RX-0006", "RX-0007"]
    assert [r["id"] for r in ok(svc, "search_prescriptions", {"reason_reference": "OBS-0007"})] == ["RX-0004"]
    assert [r["id"] for r in ok(svc, "search_prescriptions", {"prescriber_id": "PRA-0005"})] == ["RX-0008", "RX-0009"]
    assert [r["id"] for r in ok(svc, "search_prescriptions", {"medication_code": "855332"})] == ["RX-0003"]
    rx = ok(svc, "get_prescription", {"prescription_id": "RX-0003"})
    assert (rx["fills"], rx["refills_remaining"], rx["expired"], rx["valid_until"]) == (3, 1, False, "2026-10-12")
    assert [d["fill_number"] for d in rx["dispenses"]] == [1, 2, 3]
    assert ok(svc, "get_prescription", {"prescription_id": "RX-0010"})["expired"] is True
    assert [d["id"] for d in ok(svc, "list_dispenses", {"patient_id": "PAT-0007"})] == ["MD-0010", "MD-0011"]
    assert len(ok(svc, "list_dispenses", {"prescription_id": "RX-0001"})) == 1
    assert [r["id"] for r in ok(svc, "list_refill_requests", {"status": "pending"})] == ["RFR-0001"]
    assert ok(svc, "list_refill_requests", {"prescription_id": "RX-0003"})[0]["dispense_id"] == "MD-0005"
    assert code(svc, "get_prescription", {"prescription_id": "RX-0999"}) == 404


def test_create_prescription(svc):
    rx = new_rx(svc, refills_allowed=3, reason_code="I10")["data"]
    assert (rx["id"], rx["status"], rx["estimated_cost"], rx["valid_until"], rx["pharmacy"]) == (
        "RX-0014", "active", 3.6, "2027-01-15", "Riverside Community Pharmacy")
    assert (rx["prescriber_email"], rx["warnings"], rx["refills_remaining"]) == (
        "samuel.adeyemi@riversidehealth.example", [], 3)
    assert code(svc, "create_prescription", {"patient_id": "PAT-0006", "prescriber_id": "PRA-0004",
                                             "medication_code": "000000", "quantity": 30, "days_supply": 30,
                                             "dosage_instruction": "Take daily"}) == 404
    assert new_rx(svc, prescriber_id="PRA-0099")["error"]["code"] == 404
    assert new_rx(svc, refills_allowed=12)["error"]["code"] == 400
    assert new_rx(svc, reason_code="hypertension")["error"]["code"] == 400
    assert new_rx(svc, pharmacy="Nowhere Drugs")["error"]["code"] == 404


def test_schedule_ii_takes_no_refills_and_dea_is_needed(svc):
    msg = error(svc, "create_prescription", {"patient_id": "PAT-0008", "prescriber_id": "PRA-0006",
                                             "medication_code": "1049621", "quantity": 20, "days_supply": 5,
                                             "dosage_instruction": "Take 1 tablet every 6 hours", "refills_allowed": 1})
    assert msg["code"] == 422 and "at most 0 refills" in msg["message"]
    ii = new_rx(svc, patient_id="PAT-0008", prescriber_id="PRA-0006", medication_code="1049621", quantity=20,
                days_supply=5)["data"]
    assert (ii["schedule"], ii["valid_until"]) == ("II", "2026-04-15")
    assert code(svc, "request_refill", {"prescription_id": "RX-0005"}) == 422  # schedule II: never refilled
    iv = new_rx(svc, patient_id="PAT-0003", prescriber_id="PRA-0001", medication_code="308048", refills_allowed=6)
    assert iv["error"]["code"] == 422 and "at most 5 refills" in iv["error"]["message"]
    nodea = new_rx(svc, patient_id="PAT-0003", prescriber_id="PRA-0005", medication_code="308048")
    assert nodea["error"]["code"] == 422 and "no DEA registration" in nodea["error"]["message"]


def test_allergy_and_interaction_alerts_need_an_override(svc):
    scr = ok(svc, "screen_medication", {"patient_id": "PAT-0010", "medication_code": "197806"})
    assert [(a["kind"], a["severity"], a["other_prescription_id"]) for a in scr["alerts"]] == [
        ("allergy", "high", None), ("interaction", "high", "RX-0003")]
    msg = error(svc, "create_prescription", {"patient_id": "PAT-0001", "prescriber_id": "PRA-0001",
                                             "medication_code": "308191", "quantity": 21, "days_supply": 7,
                                             "dosage_instruction": "Take 1 capsule 3 times daily"})
    assert msg["code"] == 422 and "allergic to penicillin" in msg["message"]
    rx = new_rx(svc, patient_id="PAT-0010", medication_code="308460", quantity=6, days_supply=5,
                override_reason="Short course; INR check in 3 days")["data"]
    assert [(w["kind"], w["severity"]) for w in rx["warnings"]] == [("interaction", "moderate")]
    assert rx["override_reason"] == "Short course; INR check in 3 days"
    assert ok(svc, "screen_medication", {"patient_id": "PAT-0006", "medication_code": "617310"})["alerts"] == []


def test_record_allergy(svc):
    prof = ok(svc, "record_allergy", {"patient_id": "PAT-0006", "substance": "Sulfonamide", "reaction": "rash"})
    assert prof["allergies"] == [{"substance": "sulfonamide", "reaction": "rash", "criticality": "low",
                                  "recorded_on": "2026-01-15"}]
    assert code(svc, "record_allergy", {"patient_id": "PAT-0006", "substance": "sulfonamide", "reaction": "hives"}) == 409
    assert new_rx(svc, medication_code="198335")["error"]["code"] == 422  # now screened out


def test_dispense_rules(svc):
    assert code(svc, "dispense_prescription", {"prescription_id": "RX-0004", "quantity": 31}) == 422  # > prescribed
    d = ok(svc, "dispense_prescription", {"prescription_id": "RX-0004", "quantity": 30, "note": "first fill"})
    assert (d["id"], d["fill_number"], d["handed_over_on"], d["refills_remaining"]) == ("MD-0016", 1, "2026-01-15", 5)
    expired = error(svc, "dispense_prescription", {"prescription_id": "RX-0010", "quantity": 90})
    assert expired["code"] == 422 and "expired on 2025-12-31" in expired["message"]
    assert code(svc, "dispense_prescription", {"prescription_id": "RX-0006", "quantity": 30}) == 409  # completed
    last = ok(svc, "dispense_prescription", {"prescription_id": "RX-0003", "quantity": 30})
    assert (last["fill_number"], last["refills_remaining"], last["prescription_status"]) == (4, 0, "completed")
    assert code(svc, "dispense_prescription", {"prescription_id": "RX-0003", "quantity": 30}) == 409  # all fills used


def test_specialty_drug_needs_a_prior_authorization(svc):
    msg = error(svc, "dispense_prescription", {"prescription_id": "RX-0008", "quantity": 2})
    assert msg["code"] == 422 and "attach the payer's approved prior authorization" in msg["message"]
    assert code(svc, "attach_prior_authorization", {"prescription_id": "RX-0001",
                                                    "prior_authorization_id": "PA-0002"}) == 422  # not specialty
    rx = ok(svc, "attach_prior_authorization", {"prescription_id": "RX-0008", "prior_authorization_id": "PA-0002"})
    assert rx["prior_authorization_id"] == "PA-0002"
    assert ok(svc, "dispense_prescription", {"prescription_id": "RX-0008", "quantity": 2})["fill_number"] == 1
    assert code(svc, "attach_prior_authorization", {"prescription_id": "RX-0011",
                                                    "prior_authorization_id": "PA-0002"}) == 409  # cancelled


def test_refill_requests(svc):
    assert code(svc, "request_refill", {"prescription_id": "RX-0001"}) == 409  # RFR-0001 pending
    assert code(svc, "request_refill", {"prescription_id": "RX-0004"}) == 422  # no first fill yet
    late = error(svc, "request_refill", {"prescription_id": "RX-0010"})
    assert late["code"] == 422 and "expired" in late["message"]
    assert code(svc, "respond_to_refill_request", {"refill_request_id": "RFR-0001", "decision": "deny"}) == 422
    done = ok(svc, "respond_to_refill_request", {"refill_request_id": "RFR-0001", "decision": "approve"})
    assert (done["status"], done["dispense_id"]) == ("approved", "MD-0016")
    rx = ok(svc, "get_prescription", {"prescription_id": "RX-0001"})
    assert (rx["fills"], rx["refills_remaining"], rx["dispenses"][-1]["quantity"]) == (2, 4, 60)
    assert code(svc, "respond_to_refill_request", {"refill_request_id": "RFR-0001", "decision": "approve"}) == 409
    req = ok(svc, "request_refill", {"prescription_id": "RX-0013", "note": "out of inhaler"})
    assert (req["id"], req["status"]) == ("RFR-0004", "pending")
    deny = ok(svc, "respond_to_refill_request", {"refill_request_id": "RFR-0004", "decision": "deny",
                                                 "note": "Needs an asthma review first"})
    assert (deny["status"], deny["response_note"]) == ("denied", "Needs an asthma review first")
    assert code(svc, "respond_to_refill_request", {"refill_request_id": "RFR-0999", "decision": "deny",
                                                   "note": "x"}) == 404


def test_last_refill_used_by_a_fill_blocks_the_approval(svc):
    req = ok(svc, "request_refill", {"prescription_id": "RX-0003"})  # warfarin: 1 refill left
    ok(svc, "dispense_prescription", {"prescription_id": "RX-0003", "quantity": 30})
    assert code(svc, "respond_to_refill_request", {"refill_request_id": req["id"], "decision": "approve"}) == 409


def test_cancel_and_notes(svc):
    rx = ok(svc, "cancel_prescription", {"prescription_id": "RX-0001", "reason": "Switched to an extended-release form"})
    assert (rx["status"], rx["status_reason"]) == ("cancelled", "Switched to an extended-release form")
    assert ok(svc, "list_refill_requests", {"prescription_id": "RX-0001"})[0]["status"] == "denied"
    assert code(svc, "cancel_prescription", {"prescription_id": "RX-0001", "reason": "again"}) == 409
    assert code(svc, "cancel_prescription", {"prescription_id": "RX-0007", "reason": "too late"}) == 409  # completed
    assert ok(svc, "add_prescription_note", {"prescription_id": "RX-0007", "note": "Course done"})["notes"] == [
        "Course done"]


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("dispense_prescription", {"prescription_id": "RX-0008", "quantity": 2})["success"] is False
    assert svc.state_dict() == before
    assert make_service(Pharmacy, seed=3).state_dict() == make_service(Pharmacy, seed=3).state_dict()


def test_seed_lines_up_with_labs_and_prior_auth(make_service):
    """Prescriptions written for lab results point at abnormal results of the same patient; specialty
    prescriptions' prior authorizations are the same patient's requests for the same drug."""
    rx = make_service(Pharmacy).state_dict()["prescriptions"]
    labs, pas = make_service(LabOrders).state_dict()["results"], make_service(PriorAuth).state_dict()["requests"]
    linked = [r for r in rx.values() if r["reason_reference"]]
    assert [(r["id"], r["reason_reference"]) for r in linked] == [("RX-0001", "OBS-0001"), ("RX-0002", "OBS-0003"),
                                                                   ("RX-0004", "OBS-0007")]
    for r in linked:
        res = labs[r["reason_reference"]]
        assert (res["patient_id"], res["interpretation"]) == (r["patient_id"], "H")
    for pa in pas.values():
        if pa["prescription_id"]:
            p = rx[pa["prescription_id"]]
            assert (p["patient_id"], p["medication_code"], p["prior_auth_required"]) == (
                pa["patient_id"], pa["code"], True)
    assert rx["RX-0009"]["prior_authorization_id"] == "PA-0001" and pas["PA-0001"]["status"] == "approved"
