"""Patient scheduling: a clinic's FHIR R4 Patient / Practitioner / Schedule / Slot / Appointment store.

No clinical scheduling server is in ``compoworld_gym/data/mcp_servers.jsonl``;
the interface follows HL7 FHIR R4 resource semantics as EHR scheduling APIs
(Epic, athenahealth, Cerner) expose them: ``Patient`` (with its ``Coverage``:
payer, member id, policy), ``Practitioner`` with its ``PractitionerRole``
specialty, ``Schedule`` per practitioner, ``Slot`` (status free / busy /
busy-unavailable) and ``Appointment`` (status booked / arrived / fulfilled /
cancelled / noshow). The rules are in ``_patient_scheduling_rules``. Patients
and practitioners are the fixed clinic registry (``_patient_scheduling_seed``)
shared with ``insurance_claims``.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, PersonName, Phone
from compoworld_gym.envs.services import _patient_scheduling_rules as rules
from compoworld_gym.envs.services._blocks import eq, select, text
from compoworld_gym.envs.services._patient_scheduling_models import (
    Appointment, AppointmentStatus, Coverage, Patient, PatientSchedulingState, Practitioner, ServiceType, Slot,
    SlotStatus, Specialty,
)
from compoworld_gym.envs.services._patient_scheduling_seed import seed_clinic
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import DAY_START, Service, tool


class PatientScheduling(Service):
    """Clinic scheduling: patients and coverage, practitioners, free slots, appointments and visit status."""

    name = "patient_scheduling"
    description = ("Clinic scheduling (FHIR R4): patients with insurance coverage, practitioners by specialty, "
                   "free slots, booking, cancellation, arrival and no-shows.")
    domain = "healthcare"
    spec_source = None
    State = PatientSchedulingState

    # ---------------------------------------------------------------- helpers
    def _patient(self, patient_id: str) -> Patient:
        return self.lookup(self.state.patients, patient_id, "patient")

    def _slot(self, slot_id: str) -> Slot:
        return self.lookup(self.state.slots, slot_id, "slot")

    def _appointment(self, appointment_id: str) -> Appointment:
        return self.lookup(self.state.appointments, appointment_id, "appointment")

    def _opening(self) -> dt.datetime:
        """The clinic's 'now': today at the start of the day (the task's clock)."""
        return dt.datetime.combine(self.today, DAY_START)

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Patient])
    def search_patients(self, name: Optional[str] = None, email: Optional[Email] = None,
                        birth_date: Optional[Date] = None, member_id: Optional[str] = None) -> list[dict]:
        """Search patients by name (substring), email, birth date or insurance member id.

        Args:
            name: text in the patient's name (case-insensitive).
            email: the patient's email.
            birth_date: date of birth (YYYY-MM-DD).
            member_id: insurance member id.
        """
        def keep(p: Patient) -> bool:
            return ((name is None or name.lower() in p.name.lower())
                    and (email is None or (p.email or "").lower() == email.lower())
                    and (birth_date is None or p.birth_date == birth_date)
                    and (member_id is None or (p.coverage is not None and p.coverage.member_id == member_id)))
        return [p.model_dump() for p in self.state.patients.values() if keep(p)]

    @tool(read_only=True, returns=Patient)
    def read_patient(self, patient_id: Id("patient")) -> dict:
        """Read one patient with their coverage.

        Args:
            patient_id: the patient id, e.g. PAT-0001.
        """
        return self._patient(patient_id).model_dump()

    @tool(read_only=True, returns=list[Practitioner])
    def search_practitioners(self, specialty: Optional[Specialty] = None, name: Optional[str] = None) -> list[dict]:
        """List practitioners, optionally of one specialty or by name.

        Args:
            specialty: e.g. Cardiology.
            name: text in the name (case-insensitive).
        """
        return [p.model_dump() for p in select(self.state.practitioners.values(), eq("specialty", specialty),
                                               text(name, "name"))]

    @tool(read_only=True)
    def list_schedules(self, practitioner_id: Optional[Id("practitioner")] = None) -> list[dict]:
        """List schedules (location and visit types offered), optionally of one practitioner.

        Args:
            practitioner_id: only this practitioner's schedule.
        """
        return [s.model_dump() for s in select(self.state.schedules.values(), eq("practitioner_id", practitioner_id))]

    @tool(read_only=True)
    def search_slots(self, practitioner_id: Optional[Id("practitioner")] = None,
                     specialty: Optional[Specialty] = None, date: Optional[Date] = None,
                     status: SlotStatus = "free", limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Find slots by practitioner, specialty and day (default: free ones), earliest first.

        Args:
            practitioner_id: only this practitioner's slots.
            specialty: only slots of practitioners of this specialty.
            date: only slots on this day (YYYY-MM-DD).
            status: free, busy or busy-unavailable.
            limit: maximum number of slots (1-200).
        """
        docs = self.state.practitioners
        rows = [s for s in self.state.slots.values() if s.status == status
                and (practitioner_id is None or s.practitioner_id == practitioner_id)
                and (specialty is None or docs[s.practitioner_id].specialty == specialty)
                and (date is None or s.start.date() == date)]
        return [s.model_dump() for s in sorted(rows, key=lambda s: (s.start, s.id))[:limit]]

    @tool(read_only=True, returns=list[Appointment])
    def search_appointments(self, patient_id: Optional[Id("patient")] = None,
                            practitioner_id: Optional[Id("practitioner")] = None, date: Optional[Date] = None,
                            status: Optional[AppointmentStatus] = None,
                            limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search appointments by patient, practitioner, day or status, earliest first.

        Args:
            patient_id: only this patient's appointments.
            practitioner_id: only this practitioner's.
            date: only on this day (YYYY-MM-DD).
            status: booked, arrived, fulfilled, cancelled or noshow.
            limit: maximum number of appointments (1-200).
        """
        on_day = None if date is None else (lambda a: a.start.date() == date)
        rows = select(self.state.appointments.values(), eq("patient_id", patient_id),
                      eq("practitioner_id", practitioner_id), on_day, eq("status", status))
        return [a.model_dump() for a in sorted(rows, key=lambda a: (a.start, a.id))[:limit]]

    @tool(read_only=True, returns=Appointment)
    def read_appointment(self, appointment_id: Id("appointment")) -> dict:
        """Read one appointment.

        Args:
            appointment_id: the appointment id, e.g. APT-0001.
        """
        return self._appointment(appointment_id).model_dump()

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Patient)
    def create_patient(self, name: PersonName = Field(min_length=3, max_length=120), birth_date: Date = Field(),
                       gender: Literal["female", "male", "other", "unknown"] = "unknown",
                       email: Optional[Email] = None, phone: Optional[Phone] = None) -> dict:
        """Register a patient; the same name and birth date already registered is refused (409).

        Args:
            name: full name.
            birth_date: date of birth (YYYY-MM-DD), not in the future.
            gender: female, male, other or unknown.
            email: contact email.
            phone: contact phone.
        """
        if birth_date > self.today:
            raise Unprocessable(f"birth_date {birth_date} is in the future.")
        for p in self.state.patients.values():
            if p.name.lower() == name.lower() and p.birth_date == birth_date:
                raise Conflict(f"patient {p.id} has that name and birth date; use it.")
        p = Patient(id=self.new_id("PAT"), name=name, birth_date=birth_date, gender=gender, email=email, phone=phone)
        self.state.patients[p.id] = p
        return p.model_dump()

    @tool(read_only=False, idempotent=True, returns=Patient)
    def update_patient_coverage(self, patient_id: Id("patient"), payer: str = Field(min_length=2, max_length=80),
                                member_id: str = Field(min_length=4, max_length=30),
                                policy_id: Optional[Id("insurance_policy")] = None) -> dict:
        """Put a patient's insurance on file (replaces the coverage on file).

        Args:
            patient_id: the patient.
            payer: insurance company.
            member_id: member id from the insurance card.
            policy_id: the policy id in the claims system, if known.
        """
        p = self._patient(patient_id)
        p.coverage = Coverage(payer=payer, member_id=member_id, policy_id=policy_id)
        return p.model_dump()

    @tool(read_only=False, returns=Appointment)
    def book_appointment(self, slot_id: str, patient_id: Id("patient"), reason: str = Field(min_length=3,
                                                                                            max_length=200),
                         service_type: Optional[ServiceType] = None) -> dict:
        """Book a free future slot for a patient (the slot becomes busy).

        Args:
            slot_id: a free slot from search_slots.
            patient_id: the patient.
            reason: reason for the visit.
            service_type: visit type (default: follow-up); must be offered by the schedule.
        """
        slot, patient = self._slot(slot_id), self._patient(patient_id)
        rules.check_bookable(self.state, slot, patient, self._opening())
        kind = service_type or "follow-up"
        if kind not in self.state.schedules[slot.schedule_id].service_types:
            raise Unprocessable(f"schedule {slot.schedule_id} does not offer {kind!r} visits.")
        doc = self.state.practitioners[slot.practitioner_id]
        a = Appointment(id=self.new_id("APT"), status="booked", slot_id=slot.id, patient_id=patient.id,
                        patient_name=patient.name, practitioner_id=doc.id, practitioner_email=doc.email,
                        start=slot.start, end=slot.end, service_type=kind, reason=reason, created=self.today)
        slot.status = "busy"
        self.state.appointments[a.id] = a
        return a.model_dump()

    @tool(read_only=False, returns=Appointment)
    def cancel_appointment(self, appointment_id: Id("appointment"),
                           reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Cancel a booked appointment; a future slot becomes free again.

        Args:
            appointment_id: the booked appointment.
            reason: why it is cancelled.
        """
        a = self._appointment(appointment_id)
        rules.APPOINTMENT.check(a.id, a.status, "cancellation")
        a.status, a.cancellation_reason = "cancelled", reason
        if a.start >= self._opening():
            self.state.slots[a.slot_id].status = "free"
        return a.model_dump()

    @tool(read_only=False, returns=Appointment)
    def reschedule_appointment(self, appointment_id: Id("appointment"), new_slot_id: str) -> dict:
        """Move a booked appointment to another free future slot (the old slot is freed).

        Args:
            appointment_id: the booked appointment.
            new_slot_id: a free slot from search_slots.
        """
        a = self._appointment(appointment_id)
        rules.APPOINTMENT.check(a.id, a.status, "rescheduling")
        slot = self._slot(new_slot_id)
        rules.check_bookable(self.state, slot, self._patient(a.patient_id), self._opening(), ignore=a.id)
        doc = self.state.practitioners[slot.practitioner_id]
        self.state.slots[a.slot_id].status = "free"
        slot.status = "busy"
        a.slot_id, a.start, a.end = slot.id, slot.start, slot.end
        a.practitioner_id, a.practitioner_email = doc.id, doc.email
        return a.model_dump()

    @tool(read_only=False, returns=Appointment)
    def mark_arrived(self, appointment_id: Id("appointment")) -> dict:
        """Check the patient in for a booked appointment of today (status arrived).

        Args:
            appointment_id: today's booked appointment.
        """
        a = self._appointment(appointment_id)
        rules.APPOINTMENT.check(a.id, a.status, "check-in")
        if a.start.date() != self.today:
            raise Unprocessable(f"appointment {a.id} is on {a.start.date()}; patients arrive on the day "
                                f"({self.today}).")
        a.status = "arrived"
        return a.model_dump()

    @tool(read_only=False, returns=Appointment)
    def complete_appointment(self, appointment_id: Id("appointment")) -> dict:
        """Mark an arrived appointment fulfilled (the visit took place).

        Args:
            appointment_id: the arrived appointment.
        """
        a = self._appointment(appointment_id)
        rules.APPOINTMENT.check(a.id, a.status, "completion")
        a.status = "fulfilled"
        return a.model_dump()

    @tool(read_only=False, returns=Appointment)
    def mark_no_show(self, appointment_id: Id("appointment")) -> dict:
        """Record that the patient did not come to a booked appointment whose start has passed.

        Args:
            appointment_id: the booked appointment.
        """
        a = self._appointment(appointment_id)
        rules.APPOINTMENT.check(a.id, a.status, "a no-show")
        if a.start >= self._opening():
            raise Unprocessable(f"appointment {a.id} starts {a.start:%Y-%m-%d %H:%M}; it has not happened yet.")
        a.status = "noshow"
        return a.model_dump()

    @tool(read_only=False, returns=Appointment)
    def add_appointment_comment(self, appointment_id: Id("appointment"),
                                comment: str = Field(min_length=1, max_length=1000)) -> dict:
        """Add a comment to an appointment (any status).

        Args:
            appointment_id: the appointment.
            comment: the comment text.
        """
        a = self._appointment(appointment_id)
        a.comments.append(comment)
        return a.model_dump()

    @tool(read_only=False)
    def block_slot(self, slot_id: str, comment: str = Field(min_length=3, max_length=200)) -> dict:
        """Make a free slot unavailable (busy-unavailable), e.g. for leave or training.

        Args:
            slot_id: the free slot.
            comment: why it is blocked.
        """
        slot = self._slot(slot_id)
        if slot.status != "free":
            raise Conflict(f"slot {slot.id} is {slot.status}; only a free slot can be blocked.")
        slot.status, slot.comment = "busy-unavailable", comment
        return slot.model_dump()

    @tool(read_only=False)
    def unblock_slot(self, slot_id: str) -> dict:
        """Make a blocked slot free again.

        Args:
            slot_id: the busy-unavailable slot.
        """
        slot = self._slot(slot_id)
        if slot.status != "busy-unavailable":
            raise Conflict(f"slot {slot.id} is {slot.status}; only a blocked slot can be unblocked.")
        slot.status, slot.comment = "free", None
        return slot.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> PatientSchedulingState:
        state = PatientSchedulingState()
        seed_clinic(state, rng, today)
        return state

