"""Seed data of the pharmacy service: the clinic registry's patients with their allergies, and
thirteen prescriptions in every state, with their fills and refill requests.

Patients and prescribers are the fixed clinic registry (``_patient_scheduling_seed``),
shared with ``patient_scheduling``, ``insurance_claims``, ``lab_orders`` and
``prior_auth``. Seeded prescriptions are fixed too, because other services
point at them: ``RX-0001`` (metformin) was written for ``lab_orders``'
abnormal HbA1c ``OBS-0001``, and ``prior_auth``'s requests ``PA-0001`` to
``PA-0003`` are for the specialty prescriptions ``RX-0009``, ``RX-0008`` and
``RX-0012``. Which pharmacy fills each one varies per seed.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import NamedTuple, Optional

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._pharmacy_models import (
    Allergy, Dispense, PatientProfile, PharmacyState, Prescription, RefillRequest,
)
from compoworld_gym.envs.services._pharmacy_rules import (
    FORMULARY, PHARMACIES, PRESCRIBERS, SPECIALTY_PHARMACY, VALID_DAYS,
)
from compoworld_gym.envs.services._patient_scheduling_seed import PATIENTS

#: Allergies on file: patient id -> (substance, reaction, criticality, days ago recorded).
ALLERGIES: dict[str, tuple[tuple[str, str, str, int], ...]] = {
    "PAT-0001": (("penicillin", "hives", "high", 900),),
    "PAT-0004": (("sulfonamide", "rash", "low", 2100),),
    "PAT-0010": (("nsaid", "gastrointestinal bleeding", "high", 400),),
    "PAT-0013": (("penicillin", "anaphylaxis", "high", 3000), ("codeine", "nausea", "low", 700)),
    "PAT-0015": (("amoxicillin", "rash", "low", 300),),
}


class SeedRx(NamedTuple):
    """A seeded prescription: patient, prescriber, drug, sig, quantity, days supply, refills,
    days ago written, fills made, status, ICD-10 reason, lab result it treats, prior authorization."""

    patient: str
    prescriber: str
    code: str
    sig: str
    quantity: int
    days: int
    refills: int
    written: int
    fills: int
    status: str
    reason: str
    result: Optional[str] = None
    prior_auth: Optional[str] = None


#: Seeded prescriptions RX-0001.. in order.
PRESCRIPTIONS: tuple[SeedRx, ...] = (
    SeedRx("PAT-0002", "PRA-0002", "861007", "Take 1 tablet by mouth twice daily with meals", 60, 30, 5, 19, 1,
           "active", "E11.9", "OBS-0001"),
    SeedRx("PAT-0006", "PRA-0004", "617310", "Take 1 tablet by mouth at bedtime", 30, 30, 11, 12, 1, "active",
           "E78.5", "OBS-0003"),
    SeedRx("PAT-0010", "PRA-0004", "855332", "Take 1 tablet by mouth daily in the evening", 30, 30, 3, 95, 3,
           "active", "I48.91"),
    SeedRx("PAT-0012", "PRA-0001", "966222", "Take 1 tablet by mouth every morning before breakfast", 30, 30, 5, 6,
           0, "active", "E03.9", "OBS-0007"),
    SeedRx("PAT-0008", "PRA-0006", "1049621", "Take 1 tablet by mouth every 6 hours as needed for pain", 20, 5, 0,
           3, 0, "active", "M25.561"),
    SeedRx("PAT-0003", "PRA-0001", "308048", "Take 1 tablet by mouth twice daily as needed for anxiety", 30, 15, 2,
           70, 3, "completed", "F41.1"),
    SeedRx("PAT-0005", "PRA-0001", "308191", "Take 1 capsule by mouth three times daily for 7 days", 21, 7, 0, 40,
           1, "completed", "J02.9"),
    SeedRx("PAT-0011", "PRA-0005", "1876376", "Inject 300 mg under the skin every 14 days", 2, 28, 5, 9, 0,
           "active", "L20.9"),
    SeedRx("PAT-0007", "PRA-0005", "2002419", "Inject 40 mg under the skin every 14 days", 2, 28, 5, 75, 2,
           "active", "L40.0", prior_auth="PA-0001"),
    SeedRx("PAT-0014", "PRA-0002", "314076", "Take 1 tablet by mouth daily", 90, 90, 3, 380, 2, "active", "I10"),
    SeedRx("PAT-0013", "PRA-0006", "197806", "Take 1 tablet by mouth every 8 hours with food as needed", 30, 10, 1,
           25, 1, "cancelled", "M25.561"),
    SeedRx("PAT-0004", "PRA-0002", "1991306", "Inject 1 mg under the skin once weekly", 1, 28, 3, 20, 0, "active",
           "E11.9"),
    SeedRx("PAT-0001", "PRA-0001", "745679", "Inhale 2 puffs by mouth every 4 hours as needed for wheezing", 1, 30,
           2, 50, 1, "active", "J45.909"),
)
#: Refill requests: (prescription, days ago, status, note, answer).
REFILL_REQUESTS: tuple[tuple[str, int, str, str, Optional[str]], ...] = (
    ("RX-0001", 1, "pending", "Patient called: 3 days of tablets left.", None),
    ("RX-0003", 35, "approved", "Auto-refill program.", "Approved; INR stable."),
    ("RX-0010", 4, "denied", "Patient requests refill.", "Prescription expired; schedule a blood pressure visit."),
)


def _profiles(today: dt.date) -> dict[str, PatientProfile]:
    out = {}
    for p in PATIENTS:
        allergies = [Allergy(substance=s, reaction=r, criticality=c, recorded_on=today - dt.timedelta(days=d))
                     for s, r, c, d in ALLERGIES.get(p.id, ())]
        out[p.id] = PatientProfile(id=p.id, name=p.name, birth_date=p.birth_date, allergies=allergies)
    return out


def seed_pharmacy(state: PharmacyState, rng: random.Random, today: dt.date) -> None:
    """Fill a ``PharmacyState``: registry patients with allergies, the fixed prescriptions, one
    dispense per fill made (the days supply apart) and three refill requests."""
    state.patients.update(_profiles(today))
    names = {p.id: p.name for p in PATIENTS}
    n_fill = 0
    for n, s in enumerate(PRESCRIPTIONS, start=1):
        med, doc = FORMULARY[s.code], PRESCRIBERS[s.prescriber]
        written = today - dt.timedelta(days=s.written)
        pharmacy = SPECIALTY_PHARMACY if med.specialty else rng.choice(PHARMACIES)
        rx = Prescription(
            id=f"RX-{n:04d}", status=s.status, patient_id=s.patient, patient_name=names[s.patient],
            prescriber_id=doc.id, prescriber_name=doc.name, prescriber_email=doc.email, medication_code=med.code,
            medication_display=med.display, schedule=med.schedule, dosage_instruction=s.sig, quantity=s.quantity,
            unit=med.form, days_supply=s.days, refills_allowed=s.refills, fills=s.fills, authored_on=written,
            valid_until=written + dt.timedelta(days=VALID_DAYS[med.schedule]), reason_code=s.reason,
            reason_reference=s.result, estimated_cost=money(s.quantity * med.unit_price),
            prior_auth_required=med.specialty, prior_authorization_id=s.prior_auth, pharmacy=pharmacy,
            status_reason="Switched to physical therapy" if s.status == "cancelled" else None)
        state.prescriptions[rx.id] = rx
        for k in range(1, s.fills + 1):
            n_fill += 1
            state.dispenses[f"MD-{n_fill:04d}"] = Dispense(
                id=f"MD-{n_fill:04d}", prescription_id=rx.id, patient_id=rx.patient_id, medication_code=med.code,
                quantity=s.quantity, fill_number=k, days_supply=s.days, pharmacy=pharmacy,
                handed_over_on=written + dt.timedelta(days=1 + (k - 1) * s.days))
    for n, (rx_id, ago, status, note, answer) in enumerate(REFILL_REQUESTS, start=1):
        rx = state.prescriptions[rx_id]
        fill = next((d.id for d in state.dispenses.values() if d.prescription_id == rx_id
                     and d.fill_number == rx.fills), None) if status == "approved" else None
        state.refill_requests[f"RFR-{n:04d}"] = RefillRequest(
            id=f"RFR-{n:04d}", prescription_id=rx_id, patient_id=rx.patient_id,
            requested_on=today - dt.timedelta(days=ago), status=status, note=note, response_note=answer,
            dispense_id=fill)
    # PAT: the clinic registry's next patient number (the task generator allocates patients from it).
    state.counters.update({"RX": len(PRESCRIPTIONS) + 1, "MD": n_fill + 1, "RFR": len(REFILL_REQUESTS) + 1,
                           "PAT": len(PATIENTS) + 1})
