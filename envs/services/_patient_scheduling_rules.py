"""Business rules of the patient scheduling service (see ``patient_scheduling.py``).

Rules: only a free slot in the future can be booked (409 / 422); booking
makes the slot busy, cancelling or rescheduling frees it; a patient cannot
hold two overlapping booked appointments (409); pediatrics sees patients
under 18 only (422); a patient arrives only on the day of the appointment
(422) and an appointment is fulfilled only after arrival (409); a no-show is
recorded only once the start time has passed (422).
"""

from __future__ import annotations

import datetime as dt
from typing import Optional

from compoworld_gym.envs.services._blocks import Lifecycle
from compoworld_gym.envs.services._patient_scheduling_models import Patient, PatientSchedulingState, Slot
from compoworld_gym.errors import Conflict, Unprocessable

#: The statuses each appointment action starts from (409 otherwise).
APPOINTMENT = Lifecycle("appointment", {"cancellation": ("booked",), "rescheduling": ("booked",),
                                        "check-in": ("booked",), "completion": ("arrived",),
                                        "a no-show": ("booked",)})


def age_on(born: dt.date, day: dt.date) -> int:
    """Whole years between ``born`` and ``day``."""
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def check_bookable(state: PatientSchedulingState, slot: Slot, patient: Patient, opening: dt.datetime,
                   ignore: Optional[str] = None) -> None:
    """``patient`` may be booked into ``slot``: it is free and not before ``opening`` (the clinic's now), the
    patient is active and of an age the practitioner sees, and they hold no overlapping appointment
    (other than ``ignore``, the one being moved).

    Raises:
        Conflict: 409 for a slot that is not free or an overlapping appointment.
        Unprocessable: 422 for a past slot, an inactive patient or an adult at pediatrics.
    """
    if slot.status != "free":
        raise Conflict(f"slot {slot.id} is {slot.status}; call search_slots for free slots.")
    if slot.start < opening:
        raise Unprocessable(f"slot {slot.id} starts {slot.start:%Y-%m-%d %H:%M}, in the past.")
    if not patient.active:
        raise Unprocessable(f"patient {patient.id} is inactive.")
    doc = state.practitioners[slot.practitioner_id]
    if doc.specialty == "Pediatrics" and age_on(patient.birth_date, slot.start.date()) >= 18:
        raise Unprocessable(f"{doc.name} (Pediatrics) sees patients under 18; {patient.name} is an adult.")
    for a in state.appointments.values():
        if (a.patient_id == patient.id and a.id != ignore and a.status in ("booked", "arrived")
                and a.start < slot.end and slot.start < a.end):
            raise Conflict(f"patient {patient.id} already has appointment {a.id} at {a.start:%Y-%m-%d %H:%M}.")
