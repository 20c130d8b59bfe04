"""The fixed clinic registry shared by ``patient_scheduling`` and ``insurance_claims``.

Each service seeds its state from its own random stream, so two services of
one composition could never agree on generated patients. The clinic's patients
(with their insurance member ids and policy ids) and its practitioners are
therefore fixed and seed-independent, like the company roster in ``_company``:
patient ``PAT-0003`` in the scheduling system is the patient whose policy
``POL-0003`` the claims clearinghouse holds. Per-seed variation lives in each
service's own records (slots, appointments, claims).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import NamedTuple

from compoworld_gym.envs.services._patient_scheduling_models import (
    Appointment, Coverage, Patient, PatientSchedulingState, Practitioner, Schedule, Slot,
)

#: The clinic's mail domain (practitioners' addresses).
CLINIC_DOMAIN = "riversidehealth.example"
#: The clinic as a billing provider on claims, with its NPI.
CLINIC_NAME, CLINIC_NPI = "Riverside Family Health", "1427083951"


class RegistryPatient(NamedTuple):
    """A patient: id, name, birth date, gender, email, phone, payer, member id, policy id."""

    id: str
    name: str
    birth_date: dt.date
    gender: str
    email: str
    phone: str
    payer: str
    member_id: str
    policy_id: str


class RegistryPractitioner(NamedTuple):
    """A practitioner: id, name, specialty, email, NPI."""

    id: str
    name: str
    specialty: str
    email: str
    npi: str


PAYERS: tuple[str, ...] = ("Aetna", "Blue Cross Blue Shield", "UnitedHealthcare", "Cigna", "Humana")

_PATIENTS = (
    ("Olivia Bennett", "1984-03-12", "female"), ("Marcus Alvarez", "1971-11-02", "male"),
    ("Priya Desai", "1990-06-25", "female"), ("Henry Caldwell", "1958-01-30", "male"),
    ("Sofia Romano", "2001-09-14", "female"), ("Jamal Freeman", "1966-04-08", "male"),
    ("Grace Whitaker", "1979-12-19", "female"), ("Ethan Nakamura", "1995-02-27", "male"),
    ("Lucia Fernandez", "1987-07-03", "female"), ("Walter Briggs", "1949-05-21", "male"),
    ("Amara Okonkwo", "1993-10-11", "female"), ("Daniel Kowalski", "1982-08-16", "male"),
    ("Hannah Lindgren", "1975-03-05", "female"), ("Oscar Delgado", "1968-12-28", "male"),
    ("Mia Bennett", "2016-05-09", "female"), ("Leo Alvarez", "2019-01-22", "male"),
)


def _patient(i: int, name: str, born: str, gender: str) -> RegistryPatient:
    first, last = name.lower().split()
    payer = PAYERS[i % len(PAYERS)]
    return RegistryPatient(f"PAT-{i:04d}", name, dt.date.fromisoformat(born), gender,
                           f"{first}.{last}@mailbox.example", f"+1-415-555-{1200 + 37 * i:04d}", payer,
                           f"{payer[:1]}{payer.split()[-1][:1]}{700120 + 8123 * i:08d}", f"POL-{i:04d}")


PATIENTS: tuple[RegistryPatient, ...] = tuple(_patient(i, *p) for i, p in enumerate(_PATIENTS, start=1))

PRACTITIONERS: tuple[RegistryPractitioner, ...] = tuple(
    RegistryPractitioner(f"PRA-{i:04d}", name, specialty,
                         f"{name.split()[1].lower()}.{name.split()[2].lower()}@{CLINIC_DOMAIN}",
                         f"19{i:02d}4{i * 7:05d}")
    for i, (name, specialty) in enumerate((
        ("Dr. Helen Marsh", "Family Medicine"), ("Dr. Rafael Ortiz", "Internal Medicine"),
        ("Dr. Naomi Fischer", "Pediatrics"), ("Dr. Samuel Adeyemi", "Cardiology"),
        ("Dr. Irene Castillo", "Dermatology"), ("Dr. Kevin Liu", "Orthopedics")), start=1))

#: Visit types (FHIR ``serviceType``) with their usual length in minutes.
SERVICE_TYPES: dict[str, int] = {"new-patient": 40, "follow-up": 20, "annual-physical": 40, "consultation": 30,
                                 "procedure": 60}
#: Visit reasons (FHIR ``reasonCode`` text) per specialty.
REASONS: dict[str, tuple[str, ...]] = {
    "Family Medicine": ("Annual physical", "Persistent cough", "Blood pressure check"),
    "Internal Medicine": ("Diabetes follow-up", "Fatigue work-up", "Medication review"),
    "Pediatrics": ("Well-child visit", "Ear pain", "Vaccination"),
    "Cardiology": ("Chest pain evaluation", "Arrhythmia follow-up", "Echo results review"),
    "Dermatology": ("Mole check", "Eczema flare", "Acne treatment"),
    "Orthopedics": ("Knee pain", "Post-op follow-up", "Back pain"),
}


#: Start hours of the 30-minute slots each practitioner opens per weekday.
SLOT_HOURS = (9, 10, 14, 15)
#: Appointment statuses seeded in the past, today and the future.
_PAST = ("fulfilled", "fulfilled", "noshow", "cancelled", "fulfilled")


def seed_clinic(state: PatientSchedulingState, rng: random.Random, today: dt.date) -> None:
    """Fill a ``PatientSchedulingState``: the registry's patients and practitioners, one schedule each,
    30-minute slots on weekdays from 3 days ago to 10 days ahead, and appointments in them
    (past visits fulfilled, no-show or cancelled; today's booked or arrived; future ones booked)."""
    for r in PATIENTS:
        state.patients[r.id] = Patient(id=r.id, name=r.name, birth_date=r.birth_date, gender=r.gender, email=r.email,
                                       phone=r.phone, coverage=Coverage(payer=r.payer, member_id=r.member_id,
                                                                        policy_id=r.policy_id))
    n_slot = 0
    for k, d in enumerate(PRACTITIONERS, start=1):
        state.practitioners[d.id] = Practitioner(id=d.id, name=d.name, specialty=d.specialty, email=d.email, npi=d.npi)
        kinds = ["new-patient", "follow-up", "consultation"] + (["annual-physical"] if k <= 3 else ["procedure"])
        state.schedules[f"SCH-{k:04d}"] = Schedule(id=f"SCH-{k:04d}", practitioner_id=d.id,
                                                   location=f"{CLINIC_NAME}, Suite {100 + k}", service_types=kinds)
        for off in range(-3, 11):
            day = today + dt.timedelta(days=off)
            if day.weekday() >= 5:
                continue
            for hour in SLOT_HOURS:
                n_slot += 1
                start = dt.datetime.combine(day, dt.time(hour, 0))
                state.slots[f"SLT-{n_slot:04d}"] = Slot(id=f"SLT-{n_slot:04d}", schedule_id=f"SCH-{k:04d}",
                                                        practitioner_id=d.id, start=start,
                                                        end=start + dt.timedelta(minutes=30), status="free")
    adults = [p for p in PATIENTS if p.birth_date.year < 2005]
    kids = [p for p in PATIENTS if p.birth_date.year >= 2005]
    slots = sorted(state.slots.values(), key=lambda s: s.id)
    picked = rng.sample(slots, 18)
    n = 0
    for slot in sorted(picked, key=lambda s: (s.start, s.id)):
        doc = state.practitioners[slot.practitioner_id]
        pool = kids if doc.specialty == "Pediatrics" else adults
        patient = rng.choice(pool)
        if any(a.patient_id == patient.id and a.start == slot.start for a in state.appointments.values()):
            continue
        day = slot.start.date()
        status = (rng.choice(_PAST) if day < today else rng.choice(("booked", "arrived")) if day == today
                  else "booked")
        n += 1
        a = Appointment(id=f"APT-{n:04d}", status=status, slot_id=slot.id, patient_id=patient.id,
                        patient_name=patient.name, practitioner_id=doc.id, practitioner_email=doc.email,
                        start=slot.start, end=slot.end, service_type=rng.choice(("follow-up", "consultation")),
                        reason=rng.choice(REASONS[doc.specialty]), created=min(day, today) - dt.timedelta(days=7),
                        cancellation_reason="Patient called to cancel" if status == "cancelled" else None)
        state.appointments[a.id] = a
        slot.status = "free" if status == "cancelled" else "busy"
    state.counters.update({"PAT": len(PATIENTS) + 1, "SLT": n_slot + 1, "APT": n + 1})
