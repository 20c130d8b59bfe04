"""Tests of the patient_scheduling service (FHIR R4 scheduling semantics)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._patient_scheduling_seed import PATIENTS
from compoworld_gym.envs.services.patient_scheduling import PatientScheduling

OLIVIA, MIA = "PAT-0001", "PAT-0015"  # an adult and a child of the registry
MARSH, FISCHER = "PRA-0001", "PRA-0003"  # Family Medicine, Pediatrics


@pytest.fixture
def svc(make_service):
    return make_service(PatientScheduling)


def free_slot(svc, practitioner=MARSH, day="2026-01-22"):
    return ok(svc, "search_slots", {"practitioner_id": practitioner, "date": day})[0]["id"]


def book(svc, patient=OLIVIA, practitioner=MARSH, day="2026-01-22", **extra):
    return ok(svc, "book_appointment", {"slot_id": free_slot(svc, practitioner, day), "patient_id": patient,
                                        "reason": "Blood pressure check", **extra})


def test_seeded_state_is_consistent(svc):
    st = svc.state
    assert len(st.patients) == len(PATIENTS) and len(st.practitioners) == 6 and len(st.slots) == 240
    for a in st.appointments.values():  # a live appointment holds its slot
        slot = st.slots[a.slot_id]
        assert (slot.start, slot.practitioner_id) == (a.start, a.practitioner_id)
        assert slot.status == ("free" if a.status == "cancelled" else "busy")
        if a.start.date() > svc.today:
            assert a.status == "booked"
    assert st.patients[OLIVIA].coverage.policy_id == "POL-0001"


def test_reads(svc):
    assert [p["id"] for p in ok(svc, "search_patients", {"name": "bennett"})] == [OLIVIA, MIA]
    assert ok(svc, "search_patients", {"email": "OLIVIA.BENNETT@mailbox.example"})[0]["id"] == OLIVIA
    member = svc.state.patients["PAT-0004"].coverage.member_id
    assert [p["id"] for p in ok(svc, "search_patients", {"member_id": member})] == ["PAT-0004"]
    assert [p["id"] for p in ok(svc, "search_patients", {"birth_date": "1958-01-30"})] == ["PAT-0004"]
    assert ok(svc, "read_patient", {"patient_id": OLIVIA})["coverage"]["payer"] == "Blue Cross Blue Shield"
    assert code(svc, "read_patient", {"patient_id": "PAT-0999"}) == 404
    assert [p["id"] for p in ok(svc, "search_practitioners", {"specialty": "Cardiology"})] == ["PRA-0004"]
    assert ok(svc, "search_practitioners", {"name": "marsh"})[0]["email"] == "helen.marsh@riversidehealth.example"
    sch = ok(svc, "list_schedules", {"practitioner_id": MARSH})
    assert [(s["id"], "annual-physical" in s["service_types"]) for s in sch] == [("SCH-0001", True)]
    slots = ok(svc, "search_slots", {"practitioner_id": MARSH, "date": "2026-01-22"})
    assert [s["start"][11:16] for s in slots] == ["09:00", "10:00", "14:00", "15:00"][:len(slots)]
    assert all(s["status"] == "free" for s in slots)
    assert ok(svc, "search_slots", {"date": "2026-01-17"}) == []  # a Saturday
    busy = ok(svc, "search_slots", {"status": "busy", "specialty": "Cardiology"})
    assert busy and all(s["practitioner_id"] == "PRA-0004" for s in busy)
    appts = ok(svc, "search_appointments", {"status": "booked", "limit": 200})
    assert [a["start"] for a in appts] == sorted(a["start"] for a in appts)
    assert ok(svc, "read_appointment", {"appointment_id": "APT-0001"})["status"] == "cancelled"
    assert code(svc, "read_appointment", {"appointment_id": "APT-0999"}) == 404


def test_book_and_its_refusals(svc):
    a = book(svc, service_type="annual-physical")
    assert (a["id"], a["status"], a["start"], a["practitioner_email"]) == (
        "APT-0019", "booked", "2026-01-22T09:00:00", "helen.marsh@riversidehealth.example")
    assert svc.state.slots[a["slot_id"]].status == "busy"
    assert code(svc, "book_appointment", {"slot_id": a["slot_id"], "patient_id": "PAT-0002",
                                          "reason": "Cough"}) == 409  # slot taken
    same_time = next(s.id for s in svc.state.slots.values()
                     if s.start == svc.state.slots[a["slot_id"]].start and s.status == "free")
    assert code(svc, "book_appointment", {"slot_id": same_time, "patient_id": OLIVIA, "reason": "Again"}) == 409
    past = next(s.id for s in svc.state.slots.values() if s.status == "free" and s.start.day == 13)
    assert code(svc, "book_appointment", {"slot_id": past, "patient_id": "PAT-0002", "reason": "Late"}) == 422
    kid_slot = free_slot(svc, FISCHER)
    assert code(svc, "book_appointment", {"slot_id": kid_slot, "patient_id": OLIVIA, "reason": "Adult"}) == 422
    kid = ok(svc, "book_appointment", {"slot_id": kid_slot, "patient_id": MIA, "reason": "Ear pain"})
    assert kid["status"] == "booked"
    cardio = free_slot(svc, "PRA-0004", "2026-01-23")
    assert code(svc, "book_appointment", {"slot_id": cardio, "patient_id": "PAT-0002", "reason": "Checkup",
                                          "service_type": "annual-physical"}) == 422  # not offered
    assert code(svc, "book_appointment", {"slot_id": "SLT-9999", "patient_id": OLIVIA, "reason": "x y"}) == 404
    svc.state.patients["PAT-0003"].active = False
    assert code(svc, "book_appointment", {"slot_id": cardio, "patient_id": "PAT-0003", "reason": "Checkup"}) == 422


def test_cancel_reschedule(svc):
    a = book(svc)
    new = free_slot(svc, "PRA-0002", "2026-01-23")
    moved = ok(svc, "reschedule_appointment", {"appointment_id": a["id"], "new_slot_id": new})
    assert (moved["slot_id"], moved["practitioner_id"]) == (new, "PRA-0002")
    assert (svc.state.slots[a["slot_id"]].status, svc.state.slots[new].status) == ("free", "busy")
    c = ok(svc, "cancel_appointment", {"appointment_id": a["id"], "reason": "Patient travelling"})
    assert (c["status"], c["cancellation_reason"]) == ("cancelled", "Patient travelling")
    assert svc.state.slots[new].status == "free"
    assert code(svc, "cancel_appointment", {"appointment_id": a["id"], "reason": "Again"}) == 409
    assert code(svc, "reschedule_appointment", {"appointment_id": a["id"], "new_slot_id": new}) == 409


def test_visit_status_transitions(svc):
    today = next(a for a in svc.state.appointments.values() if a.status == "booked" and a.start.date() == svc.today)
    future = book(svc)
    assert code(svc, "mark_arrived", {"appointment_id": future["id"]}) == 422
    assert code(svc, "mark_no_show", {"appointment_id": future["id"]}) == 422
    assert code(svc, "complete_appointment", {"appointment_id": today.id}) == 409
    assert ok(svc, "mark_arrived", {"appointment_id": today.id})["status"] == "arrived"
    assert code(svc, "cancel_appointment", {"appointment_id": today.id, "reason": "Too late"}) == 409
    assert ok(svc, "complete_appointment", {"appointment_id": today.id})["status"] == "fulfilled"
    past = ok(svc, "read_appointment", {"appointment_id": "APT-0007"})
    assert past["status"] == "fulfilled"
    assert code(svc, "mark_no_show", {"appointment_id": "APT-0007"}) == 409
    svc.state.appointments["APT-0007"].status = "booked"  # a past visit left booked
    assert ok(svc, "mark_no_show", {"appointment_id": "APT-0007"})["status"] == "noshow"


def test_patients_comments_and_slot_blocks(svc):
    p = ok(svc, "create_patient", {"name": "Nora Quinn", "birth_date": "1999-04-02", "gender": "female",
                                   "email": "nora.quinn@mailbox.example"})
    assert (p["id"], p["coverage"]) == ("PAT-0017", None)
    assert code(svc, "create_patient", {"name": "nora quinn", "birth_date": "1999-04-02"}) == 409
    assert code(svc, "create_patient", {"name": "Baby Future", "birth_date": "2026-02-01"}) == 422
    cov = ok(svc, "update_patient_coverage", {"patient_id": p["id"], "payer": "Cigna", "member_id": "CG1234567"})
    assert cov["coverage"] == {"payer": "Cigna", "member_id": "CG1234567", "policy_id": None}
    n = ok(svc, "add_appointment_comment", {"appointment_id": "APT-0001", "comment": "Called to rebook"})
    assert n["comments"] == ["Called to rebook"]
    slot = free_slot(svc)
    b = ok(svc, "block_slot", {"slot_id": slot, "comment": "CME training"})
    assert (b["status"], b["comment"]) == ("busy-unavailable", "CME training")
    assert code(svc, "block_slot", {"slot_id": slot, "comment": "Again"}) == 409
    assert code(svc, "book_appointment", {"slot_id": slot, "patient_id": OLIVIA, "reason": "Checkup"}) == 409
    assert ok(svc, "unblock_slot", {"slot_id": slot})["status"] == "free"
    assert code(svc, "unblock_slot", {"slot_id": slot}) == 409


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    e = error(svc, "book_appointment", {"slot_id": free_slot(svc, FISCHER), "patient_id": OLIVIA, "reason": "x y z"})
    assert e["code"] == 422 and "Pediatrics" in e["message"]
    res = svc.call("reschedule_appointment", {"appointment_id": "APT-0012", "new_slot_id": "SLT-0001"})
    assert res["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(PatientScheduling, seed=2).state_dict() == make_service(PatientScheduling, seed=2).state_dict()
    assert make_service(PatientScheduling, seed=2).state_dict() != make_service(PatientScheduling, seed=5).state_dict()
