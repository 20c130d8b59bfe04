"""Records and state of the patient scheduling service (FHIR R4 resources; see ``patient_scheduling.py``).

``Patient`` (with its ``Coverage``), ``Practitioner`` (with its role's
specialty), ``Schedule``, ``Slot`` and ``Appointment``, as a clinic's EHR
scheduling API exposes them.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id, PersonName, Phone
from compoworld_gym.service import Record, ServiceState

SlotStatus = Literal["free", "busy", "busy-unavailable"]
AppointmentStatus = Literal["booked", "arrived", "fulfilled", "cancelled", "noshow"]
ServiceType = Literal["new-patient", "follow-up", "annual-physical", "consultation", "procedure"]
Specialty = Literal["Family Medicine", "Internal Medicine", "Pediatrics", "Cardiology", "Dermatology", "Orthopedics"]


class Coverage(Record):
    """A patient's insurance (FHIR ``Coverage``)."""

    payer: str = Field(description="Insurance company, e.g. Aetna.")
    member_id: str = Field(description="Subscriber / member id on the insurance card.")
    policy_id: Optional[Id("insurance_policy")] = Field(default=None, description="The policy in the claims system.")


class Patient(Record):
    """A patient (FHIR ``Patient``)."""

    id: Id("patient") = Field(description="Patient id, e.g. PAT-0001.")
    name: PersonName = Field(description="Full name.")
    birth_date: Date = Field(description="Date of birth.")
    gender: Literal["female", "male", "other", "unknown"] = Field(description="Administrative gender.")
    email: Optional[Email] = Field(default=None, description="Contact email.")
    phone: Optional[Phone] = Field(default=None, description="Contact phone.")
    coverage: Optional[Coverage] = Field(default=None, description="Insurance on file.")
    active: bool = Field(default=True, description="Whether the record is in use.")


class Practitioner(Record):
    """A practitioner with their role's specialty (FHIR ``Practitioner`` + ``PractitionerRole``)."""

    id: Id("practitioner") = Field(description="Practitioner id, e.g. PRA-0001.")
    name: PersonName = Field(description="Name, e.g. Dr. Helen Marsh.")
    specialty: Specialty = Field(description="Specialty of their role.")
    email: Email = Field(description="Work email.")
    npi: str = Field(description="National Provider Identifier.")


class Schedule(Record):
    """A practitioner's bookable schedule (FHIR ``Schedule``)."""

    id: str = Field(description="Schedule id, e.g. SCH-0001.")
    practitioner_id: Id("practitioner") = Field(description="Whose schedule.")
    location: str = Field(description="Clinic location.")
    service_types: list[ServiceType] = Field(description="Visit types offered.")


class Slot(Record):
    """A bookable time slot (FHIR ``Slot``)."""

    id: str = Field(description="Slot id, e.g. SLT-0001.")
    schedule_id: str = Field(description="The schedule.")
    practitioner_id: Id("practitioner") = Field(description="The practitioner.")
    start: DateTime = Field(description="Start, clinic local time.")
    end: DateTime = Field(description="End, clinic local time.")
    status: SlotStatus = Field(description="free, busy or busy-unavailable.")
    comment: Optional[str] = Field(default=None, description="Why a slot is blocked.")


class Appointment(Record):
    """An appointment of a patient in one slot (FHIR ``Appointment``)."""

    id: Id("appointment") = Field(description="Appointment id, e.g. APT-0001.")
    status: AppointmentStatus = Field(description="booked, arrived, fulfilled, cancelled or noshow.")
    slot_id: str = Field(description="The booked slot.")
    patient_id: Id("patient") = Field(description="The patient.")
    patient_name: PersonName = Field(description="The patient's name.")
    practitioner_id: Id("practitioner") = Field(description="The practitioner.")
    practitioner_email: Email = Field(description="The practitioner's email.")
    start: DateTime = Field(description="Start, clinic local time.")
    end: DateTime = Field(description="End, clinic local time.")
    service_type: ServiceType = Field(description="Visit type.")
    reason: str = Field(description="Reason for the visit.")
    created: Date = Field(description="Date booked.")
    cancellation_reason: Optional[str] = Field(default=None, description="Why it was cancelled.")
    comments: list[str] = Field(default_factory=list, description="Comments, oldest first.")


class PatientSchedulingState(ServiceState):
    """Patients, practitioners, schedules, slots and appointments."""

    patients: dict[str, Patient] = Field(default_factory=dict, description="Patients by id.")
    practitioners: dict[str, Practitioner] = Field(default_factory=dict, description="Practitioners by id.")
    schedules: dict[str, Schedule] = Field(default_factory=dict, description="Schedules by id.")
    slots: dict[str, Slot] = Field(default_factory=dict, description="Slots by id.")
    appointments: dict[str, Appointment] = Field(default_factory=dict, description="Appointments by id.")
