"""Tests of the insurance eligibility service (Availity Coverages API, X12 270/271)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.insurance_claims import InsuranceClaims
from compoworld_gym.envs.services.insurance_eligibility import InsuranceEligibility
from compoworld_gym.envs.services.patient_scheduling import PatientScheduling

ORTIZ, LIU, ADEYEMI = "1902400014", "1906400042", "1904400028"
#: Henry Caldwell (PAT-0004): the new Cigna card after the old Humana one ended.
NEW_CARD = {"payer_id": "62308", "member_id": "hh00732612a", "patient_last_name": "Caldwell",
            "provider_npi": ORTIZ, "patient_birth_date": "1958-01-30"}


@pytest.fixture
def svc(make_service):
    return make_service(InsuranceEligibility)


def test_seed_lines_up_with_claims_and_scheduling(svc, make_service):
    claims, clinic = make_service(InsuranceClaims), make_service(PatientScheduling)
    for m in svc.state.members.values():
        pol = claims.state.policies[m.id]
        assert (m.member_id, m.patient_id, m.plan_name, m.deductible, m.deductible_met) == (
            pol.member_id, pol.patient_id, pol.plan_name, pol.deductible, pol.deductible_met)
    for c in svc.state.coverages.values():
        if c.appointment_id:
            a = clinic.state.appointments[c.appointment_id]
            assert (a.patient_id, a.start.date()) == (c.patient_id, c.as_of_date)
            assert clinic.state.patients[a.patient_id].coverage.member_id == c.member_id
    assert make_service(InsuranceEligibility, seed=3).state_dict() == make_service(InsuranceEligibility,
                                                                                   seed=3).state_dict()


def test_payers_and_providers(svc):
    assert [p["id"] for p in ok(svc, "list_payers", {"name": "CIG"})] == ["62308"]
    assert len(ok(svc, "list_payers", {"transaction": "270"})) == 5
    cfg = ok(svc, "get_payer_configuration", {"payer_id": "00621"})
    assert cfg["required_fields"] == ["payerId", "providerNpi", "memberId", "patientLastName"]
    assert "62" not in [s["code"] for s in cfg["service_types"]]
    assert str(cfg["latest_as_of_date"]) == "2026-02-14"
    assert code(svc, "get_payer_configuration", {"payer_id": "99999"}) == 404
    assert len(ok(svc, "list_service_types")) == 14
    liu = ok(svc, "list_providers", {"payer_id": "61101", "specialty": "ortho"})
    assert [(p["npi"], p["in_network"]) for p in liu] == [(LIU, False)]
    assert len(ok(svc, "list_providers")) == 7
    assert code(svc, "list_providers", {"payer_id": "nope"}) == 404


def test_coverage_reads(svc):
    rows = ok(svc, "search_coverages", {"patient_id": "PAT-0004"})
    assert [(r["id"], r["payer_name"], r["plan_status"]) for r in rows] == [
        ("COV-0006", "Humana", "inactive"), ("COV-0012", "Cigna", "active"), ("COV-0011", "Humana", "inactive")]
    assert [r["id"] for r in ok(svc, "search_coverages", {"appointment_id": "APT-0015"})] == ["COV-0006"]
    assert [r["id"] for r in ok(svc, "search_coverages", {"member_id": "cc00805719"})] == ["COV-0001", "COV-0005"]
    assert len(ok(svc, "search_coverages", {"plan_status": "inactive", "patient_last_name": "caldwell"})) == 2
    assert [r["id"] for r in ok(svc, "search_coverages", {"policy_id": "POL-0017"})] == ["COV-0012"]
    assert [r["id"] for r in ok(svc, "search_coverages", {"as_of_date": "2026-01-14", "payer_id": "00621"})] == [
        "COV-0010"]
    c = ok(svc, "get_coverage", {"coverage_id": "COV-0008"})
    assert (c["plan_name"], c["visit_copay"], c["deductible_remaining_in_network"],
            c["out_of_pocket_remaining_in_network"], c["deductible_out_of_network"]) == (
        "PPO Gold", 40.0, 415.23, 1915.23, 1000.0)
    old = ok(svc, "get_coverage", {"coverage_id": "COV-0006"})
    assert (old["plan_status"], old["benefits"], old["expiration_date"]) == ("inactive", [], "2025-12-31")
    assert code(svc, "get_coverage", {"coverage_id": "COV-0999"}) == 404
    b = ok(svc, "get_coverage_benefit", {"coverage_id": "COV-0010", "service_type": "98"})
    assert (b["in_network_copay"], b["out_of_network_covered"], b["out_of_pocket_remaining"]) == (15.0, False, 2277.76)
    hmo = ok(svc, "get_coverage_benefit", {"coverage_id": "COV-0012", "service_type": "62"})
    assert (hmo["authorization_required"], hmo["referral_required"], hmo["deductible_remaining"]) == (True, False,
                                                                                                     1500.0)
    assert code(svc, "get_coverage_benefit", {"coverage_id": "COV-0009", "service_type": "3"}) == 404
    assert code(svc, "get_coverage_benefit", {"coverage_id": "COV-0006", "service_type": "98"}) == 404


def test_create_coverage_and_cache(svc):
    new = ok(svc, "create_coverage", {**NEW_CARD, "service_type": "98", "as_of_date": "2026-01-20",
                                      "appointment_id": "APT-0015", "patient_id": "PAT-0004"})
    assert (new["id"], new["plan_status"], new["policy_id"], new["visit_copay"], new["cached"]) == (
        "COV-0013", "active", "POL-0017", 30.0, False)
    assert [b["service_type"] for b in new["benefits"]] == ["98"]
    again = ok(svc, "create_coverage", {**NEW_CARD, "service_type": "98", "as_of_date": "2026-01-20"})
    assert (again["id"], again["cached"]) == ("COV-0013", True)
    old = ok(svc, "create_coverage", {"payer_id": "61101", "member_id": "HH00732612", "patient_last_name": "Caldwell",
                                      "provider_npi": ORTIZ, "patient_birth_date": "1958-01-30"})
    assert (old["plan_status"], old["benefits"]) == ("inactive", [])
    spec = ok(svc, "create_coverage", {"payer_id": "61101", "member_id": "HH00813842", "patient_last_name": "Delgado",
                                       "provider_npi": LIU, "patient_birth_date": "1968-12-28"})
    assert (spec["in_network"], spec["visit_copay"], len(spec["benefits"])) == (False, None, 13)
    heart = ok(svc, "create_coverage", {"payer_id": "00621", "member_id": "BS00708243", "patient_last_name": "Bennett",
                                        "provider_npi": ADEYEMI})  # BCBS needs no birth date
    assert heart["visit_copay"] == 60.0  # a cardiologist: the specialist copay


def test_payer_rejections(svc):
    msg = error(svc, "create_coverage", {**NEW_CARD, "member_id": "HH00732612B"})
    assert msg["code"] == 422 and msg["message"].startswith("AAA 75")
    assert error(svc, "create_coverage", {**NEW_CARD, "patient_last_name": "Calwell"})["message"].startswith("AAA 73")
    assert error(svc, "create_coverage", {**NEW_CARD, "patient_birth_date": "1958-01-31"})["message"].startswith(
        "AAA 71")
    no_dob = {k: v for k, v in NEW_CARD.items() if k != "patient_birth_date"}
    assert error(svc, "create_coverage", no_dob)["message"].startswith("AAA 58")
    assert error(svc, "create_coverage", {**NEW_CARD, "as_of_date": "2026-06-01"})["message"].startswith("AAA 62")
    assert code(svc, "create_coverage", {**NEW_CARD, "provider_npi": "1234567890"}) == 404
    assert code(svc, "create_coverage", {**NEW_CARD, "provider_npi": "12345"}) == 400
    assert code(svc, "create_coverage", {**NEW_CARD, "payer_id": "00000"}) == 404
    assert code(svc, "create_coverage", {"payer_id": "00621", "member_id": "BS00708243", "patient_last_name": "Bennett",
                                         "provider_npi": ORTIZ, "service_type": "62"}) == 400
    assert code(svc, "create_coverage", {**NEW_CARD, "patient_id": "PAT-0001"}) == 400


def test_cost_estimates(svc):
    rows = ok(svc, "list_cost_estimates", {"status": "active"})
    assert [(e["id"], e["procedure_code"], e["patient_responsibility"]) for e in rows] == [
        ("EST-0001", "99214", 30.0), ("EST-0002", "80053", 6.0), ("EST-0003", "93000", 4.5)]
    assert ok(svc, "get_cost_estimate", {"estimate_id": "EST-0004"})["status"] == "void"
    assert [e["id"] for e in ok(svc, "list_cost_estimates", {"patient_id": "PAT-0013"})] == ["EST-0001"]
    assert code(svc, "get_cost_estimate", {"estimate_id": "EST-0099"}) == 404
    shot = ok(svc, "create_cost_estimate", {"coverage_id": "COV-0008", "procedure_code": "20610"})
    assert (shot["id"], shot["deductible_applied"], shot["patient_responsibility"], shot["plan_pays"]) == (
        "EST-0005", 95.0, 95.0, 0.0)
    hdhp = ok(svc, "create_cost_estimate", {"coverage_id": "COV-0004", "procedure_code": "99214"})
    assert (hdhp["service_type"], hdhp["copay"], hdhp["coinsurance"], hdhp["plan_pays"]) == ("3", 0.0, 45.0, 105.0)
    labs = ok(svc, "create_cost_estimate", {"coverage_id": "COV-0012", "procedure_code": "80053", "units": 2})
    assert (labs["allowed_amount"], labs["deductible_applied"]) == (60.0, 60.0)
    assert code(svc, "create_cost_estimate", {"coverage_id": "COV-0006", "procedure_code": "99213"}) == 422
    assert code(svc, "create_cost_estimate", {"coverage_id": "COV-0008", "procedure_code": "12345"}) == 422
    assert code(svc, "create_cost_estimate", {"coverage_id": "COV-0009", "procedure_code": "80053"}) == 422
    assert code(svc, "create_cost_estimate", {"coverage_id": "COV-0008", "procedure_code": "9921"}) == 400


def test_out_of_pocket_cap_and_out_of_network(svc):
    svc.state.members["POL-0014"].out_of_pocket_met = 3490.0  # $10 left of the HMO's $3,500
    hmo = ok(svc, "create_coverage", {"payer_id": "61101", "member_id": "HH00813842", "patient_last_name": "Delgado",
                                      "provider_npi": ORTIZ, "patient_birth_date": "1968-12-28"})
    est = ok(svc, "create_cost_estimate", {"coverage_id": hmo["id"], "procedure_code": "99214"})
    assert (est["copay"], est["patient_responsibility"]) == (15.0, 10.0)
    oon = ok(svc, "create_coverage", {"payer_id": "61101", "member_id": "HH00813842", "patient_last_name": "Delgado",
                                      "provider_npi": LIU, "patient_birth_date": "1968-12-28"})
    msg = error(svc, "create_cost_estimate", {"coverage_id": oon["id"], "procedure_code": "20610"})
    assert msg["code"] == 422 and "out of network" in msg["message"]


def test_notes_void_delete(svc):
    assert ok(svc, "add_coverage_note", {"coverage_id": "COV-0006", "note": " Asked for the new card. "})["notes"] == [
        "Asked for the new card."]
    assert code(svc, "delete_coverage", {"coverage_id": "COV-0001"}) == 409  # EST-0001 active
    v = ok(svc, "void_cost_estimate", {"estimate_id": "EST-0001", "reason": "Visit cancelled"})
    assert (v["status"], v["void_reason"]) == ("void", "Visit cancelled")
    assert code(svc, "void_cost_estimate", {"estimate_id": "EST-0001", "reason": "again"}) == 409
    assert ok(svc, "delete_coverage", {"coverage_id": "COV-0001"}) == {"id": "COV-0001", "deleted": True}
    assert code(svc, "delete_coverage", {"coverage_id": "COV-0001"}) == 404


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("create_coverage", {**NEW_CARD, "patient_last_name": "Wrong"})["success"] is False
    assert svc.call("delete_coverage", {"coverage_id": "COV-0002"})["success"] is False
    assert svc.state_dict() == before
