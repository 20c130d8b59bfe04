"""Tests of the referrals service (FHIR R4 ServiceRequest + Task)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.insurance_claims import InsuranceClaims
from compoworld_gym.envs.services.patient_scheduling import PatientScheduling
from compoworld_gym.envs.services.prior_auth import PriorAuth
from compoworld_gym.envs.services.referrals import Referrals

GI = {"patient_id": "PAT-0003", "requester_id": "PRA-0001", "specialty": "gastroenterology", "reason_code": "K58.9",
      "reason": "Irritable bowel, persistent"}


@pytest.fixture
def svc(make_service):
    return make_service(Referrals)


def test_seed_lines_up_with_the_clinic(svc, make_service):
    clinic, claims, pa = make_service(PatientScheduling), make_service(InsuranceClaims), make_service(PriorAuth)
    for p in svc.state.patients.values():
        reg = clinic.state.patients[p.id]
        assert (p.name, p.email, p.birth_date) == (reg.name, reg.email, reg.birth_date)
        if p.policy_id:
            pol = claims.state.policies[p.policy_id]
            assert (pol.patient_id, pol.member_id, pol.status) == (p.id, p.member_id, "active")
    for r in svc.state.referrals.values():
        if r.prior_authorization_id:
            assert pa.state.requests[r.prior_authorization_id].patient_id == r.patient_id
        assert clinic.state.practitioners[r.requester_id].email == r.requester_email
    assert pa.state.requests["PA-0006"].decisions[-1].auth_number == svc.state.referrals["REF-0002"].authorization_number
    assert make_service(Referrals, seed=2).state_dict() == make_service(Referrals, seed=2).state_dict()


def test_reads(svc):
    p = ok(svc, "get_patient", {"patient_id": "PAT-0004"})
    assert (p["payer"], p["policy_id"], p["insurance_type"]) == ("Cigna", "POL-0017", "PPO")
    assert code(svc, "get_patient", {"patient_id": "PAT-0099"}) == 404
    assert [d["id"] for d in ok(svc, "list_specialists", {"specialty": "ENDOCRINOLOGY"})] == ["PRA-0103", "PRA-0104"]
    assert [d["id"] for d in ok(svc, "list_specialists", {"specialty": "endocrinology",
                                                          "accepting_new_patients": True})] == ["PRA-0104"]
    assert [d["id"] for d in ok(svc, "list_specialists", {"in_clinic": True})] == ["PRA-0004", "PRA-0005", "PRA-0006"]
    assert "PRA-0102" not in [d["id"] for d in ok(svc, "list_specialists", {"payer": "humana"})]
    assert ok(svc, "get_specialist", {"practitioner_id": "PRA-0109"})["organization"] == "Harbor Physical Therapy"
    assert code(svc, "get_specialist", {"practitioner_id": "PRA-0001"}) == 404
    assert [r["id"] for r in ok(svc, "search_service_requests", {"status": "draft"})] == ["REF-0009", "REF-0004",
                                                                                         "REF-0003"]
    assert [r["id"] for r in ok(svc, "search_service_requests", {"prior_authorization_id": "PA-0009"})] == ["REF-0003"]
    assert [r["id"] for r in ok(svc, "search_service_requests", {"specialty": "cardiology",
                                                                 "performer_id": "PRA-0004"})] == ["REF-0011",
                                                                                                  "REF-0001"]
    assert len(ok(svc, "search_service_requests", {"requester_id": "PRA-0006"})) == 3
    ref = ok(svc, "get_service_request", {"referral_id": "REF-0008"})
    assert [(t["id"], t["status"]) for t in ref["tasks"]] == [("TSK-0005", "rejected")]
    assert code(svc, "get_service_request", {"referral_id": "REF-0099"}) == 404
    assert [t["id"] for t in ok(svc, "list_tasks", {"status": "requested"})] == ["TSK-0003", "TSK-0007"]
    assert [t["id"] for t in ok(svc, "list_tasks", {"owner_id": "PRA-0004"})] == ["TSK-0001", "TSK-0007"]
    assert ok(svc, "get_task", {"task_id": "TSK-0002"})["business_status"] == "Awaiting consult report"
    assert code(svc, "get_task", {"task_id": "TSK-0099"}) == 404


def test_create_and_send(svc):
    r = ok(svc, "create_service_request", {**GI, "performer_id": "PRA-0102"})
    assert (r["id"], r["status"], r["specialty"], r["authorization_required"], r["needed_by"], r["valid_until"],
            r["policy_id"]) == ("REF-0012", "draft", "Gastroenterology", False, "2026-03-01", "2026-04-15", "POL-0003")
    sent = ok(svc, "activate_service_request", {"referral_id": "REF-0012"})
    assert sent["status"] == "active" and [(t["id"], t["status"], t["owner_id"]) for t in sent["tasks"]] == [
        ("TSK-0008", "requested", "PRA-0102")]
    assert code(svc, "activate_service_request", {"referral_id": "REF-0012"}) == 409
    assert code(svc, "update_service_request", {"referral_id": "REF-0012", "priority": "urgent"}) == 409
    bare = ok(svc, "create_service_request", {**GI, "priority": "urgent"})
    assert bare["needed_by"] == "2026-01-29"
    assert error(svc, "activate_service_request", {"referral_id": bare["id"]})["code"] == 422  # no performer
    up = ok(svc, "update_service_request", {"referral_id": bare["id"], "performer_id": "PRA-0102",
                                            "reason": "IBS with weight loss", "needed_by": "2026-02-10"})
    assert (up["performer_name"], up["reason"], up["needed_by"]) == ("Dr. Thomas Whitfield", "IBS with weight loss",
                                                                     "2026-02-10")
    assert code(svc, "update_service_request", {"referral_id": bare["id"]}) == 400
    assert code(svc, "update_service_request", {"referral_id": bare["id"], "needed_by": "2026-06-01"}) == 422


def test_who_may_receive(svc):
    assert code(svc, "create_service_request", {**GI, "performer_id": "PRA-0104"}) == 422  # endocrinologist
    msg = error(svc, "create_service_request", {**GI, "specialty": "Endocrinology", "performer_id": "PRA-0103"})
    assert msg["code"] == 422 and "not accepting new patients" in msg["message"]
    hmo = {**GI, "patient_id": "PAT-0014", "specialty": "Gastroenterology", "performer_id": "PRA-0102"}
    assert "out of Humana's network" in error(svc, "create_service_request", hmo)["message"]
    assert code(svc, "create_service_request", {**GI, "specialty": "Oncology"}) == 422
    assert code(svc, "create_service_request", {**GI, "requester_id": "PRA-0104"}) == 404
    assert code(svc, "create_service_request", {**GI, "reason_code": "bad"}) == 400
    assert code(svc, "create_service_request", {**GI, "needed_by": "2026-01-10"}) == 422


def test_authorization_needed(svc):
    msg = error(svc, "activate_service_request", {"referral_id": "REF-0003"})
    assert msg["code"] == 422 and "must authorize" in msg["message"]
    a = ok(svc, "attach_authorization", {"referral_id": "REF-0003", "authorization_number": "auth-0077"})
    assert (a["authorization_number"], a["prior_authorization_id"]) == ("AUTH-0077", "PA-0009")
    assert code(svc, "attach_authorization", {"referral_id": "REF-0003", "authorization_number": "AUTH-0078"}) == 409
    assert ok(svc, "activate_service_request", {"referral_id": "REF-0003"})["status"] == "active"
    assert code(svc, "attach_authorization", {"referral_id": "REF-0005", "authorization_number": "AUTH-0079"}) == 409
    pt = ok(svc, "create_service_request", {**GI, "specialty": "Physical Therapy"})  # reviewed specialty, PPO too
    assert pt["authorization_required"] is True


def test_receiving_practice_workflow(svc):
    assert ok(svc, "accept_task", {"task_id": "TSK-0003"})["status"] == "accepted"
    assert code(svc, "accept_task", {"task_id": "TSK-0003"}) == 409
    assert code(svc, "schedule_task", {"task_id": "TSK-0003", "specialist_visit": "2026-01-14T10:00:00"}) == 422
    assert code(svc, "schedule_task", {"task_id": "TSK-0003", "specialist_visit": "2026-06-14T10:00:00"}) == 422
    s = ok(svc, "schedule_task", {"task_id": "TSK-0003", "specialist_visit": "2026-01-20T10:00:00"})
    assert (s["status"], s["specialist_visit"], s["business_status"]) == ("in-progress", "2026-01-20T10:00:00",
                                                                          "Visit booked")
    assert "comes after it" in error(svc, "complete_task", {"task_id": "TSK-0003", "consult_summary": "Early"})[
        "message"]
    done = ok(svc, "complete_task", {"task_id": "TSK-0002", "consult_summary": "Therapy done; home program"})
    assert done["status"] == "completed"
    ref = ok(svc, "get_service_request", {"referral_id": "REF-0002"})
    assert (ref["status"], ref["completed_on"]) == ("completed", "2026-01-15")
    assert code(svc, "revoke_service_request", {"referral_id": "REF-0002", "reason": "too late"}) == 409
    rej = ok(svc, "reject_task", {"task_id": "TSK-0007", "reason": "Needs a stress test first"})
    assert (rej["status"], rej["status_reason"]) == ("rejected", "Needs a stress test first")
    assert code(svc, "reject_task", {"task_id": "TSK-0006", "reason": "Not now"}) == 409


def test_redirect_after_rejection(svc):
    assert code(svc, "redirect_service_request", {"referral_id": "REF-0008", "performer_id": "PRA-0103"}) == 409
    assert code(svc, "redirect_service_request", {"referral_id": "REF-0005", "performer_id": "PRA-0102"}) == 409
    r = ok(svc, "redirect_service_request", {"referral_id": "REF-0008", "performer_id": "PRA-0104"})
    assert r["performer_id"] == "PRA-0104" and [(t["id"], t["status"]) for t in r["tasks"]] == [
        ("TSK-0005", "rejected"), ("TSK-0008", "requested")]
    assert code(svc, "redirect_service_request", {"referral_id": "REF-0009", "performer_id": "PRA-0108"}) == 409


def test_revoke_and_notes(svc):
    r = ok(svc, "revoke_service_request", {"referral_id": "REF-0010", "reason": "Patient moved out of state"})
    assert (r["status"], r["revoked_reason"], r["tasks"][0]["status"]) == ("revoked", "Patient moved out of state",
                                                                          "cancelled")
    assert code(svc, "revoke_service_request", {"referral_id": "REF-0010", "reason": "again"}) == 409
    assert ok(svc, "revoke_service_request", {"referral_id": "REF-0009", "reason": "Labs normal"})["status"] == \
        "revoked"
    n = ok(svc, "add_service_request_note", {"referral_id": "REF-0004", "note": " Called Humana about PA-0004. "})
    assert n["notes"] == ["Called Humana about PA-0004."]
    assert code(svc, "add_service_request_note", {"referral_id": "REF-0404", "note": "x"}) == 404


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("activate_service_request", {"referral_id": "REF-0004"})["success"] is False
    assert svc.call("complete_task", {"task_id": "TSK-0006", "consult_summary": "nope"})["success"] is False
    assert svc.state_dict() == before
