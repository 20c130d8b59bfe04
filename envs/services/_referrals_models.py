"""Records and state of the referrals service (FHIR R4 ServiceRequest + Task; see ``referrals.py``).

``ReferralPatient`` (the patient with the coverage a referral is checked
against), ``Specialist`` (a FHIR ``PractitionerRole``: a practitioner who
receives referrals, in the clinic or outside it), ``Referral`` (a FHIR
``ServiceRequest`` with ``category`` referral) and ``ReferralTask`` (the FHIR
``Task`` that carries the referral to the receiving practitioner and tracks
what they did with it).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, DateTime, Email, Id, PersonName, Phone
from compoworld_gym.service import Record, ServiceState

ReferralStatus = Literal["draft", "active", "completed", "revoked"]
Priority = Literal["routine", "urgent", "asap", "stat"]
TaskStatus = Literal["requested", "accepted", "rejected", "in-progress", "completed", "cancelled"]


class ReferralPatient(Record):
    """A patient with the coverage referrals are checked against (FHIR ``Patient`` + ``Coverage``)."""

    id: Id("patient") = Field(description="The clinic's patient id, e.g. PAT-0002.")
    name: PersonName = Field(description="Full name.")
    birth_date: Date = Field(description="Date of birth.")
    email: Optional[Email] = Field(default=None, description="Contact email.")
    phone: Optional[Phone] = Field(default=None, description="Contact phone.")
    payer: Optional[str] = Field(default=None, description="Insurance company of the active policy.")
    plan_name: Optional[str] = Field(default=None, description="Plan, e.g. HMO Standard.")
    insurance_type: Optional[Literal["PPO", "HMO", "HDHP"]] = Field(default=None, description="Plan type (an HMO "
                                                                                             "needs referrals "
                                                                                             "authorized).")
    policy_id: Optional[Id("insurance_policy")] = Field(default=None, description="The active policy.")
    member_id: Optional[str] = Field(default=None, description="Member id on the insurance card.")


class Specialist(Record):
    """A practitioner who receives referrals (FHIR ``PractitionerRole``)."""

    id: Id("practitioner") = Field(description="Practitioner id, e.g. PRA-0004 (clinic) or PRA-0101 (outside).")
    name: PersonName = Field(description="Name, e.g. Dr. Samuel Adeyemi.")
    specialty: str = Field(description="Specialty, e.g. Cardiology.")
    organization: CompanyName = Field(description="Practice the role belongs to.")
    email: Email = Field(description="Referral intake email.")
    phone: Phone = Field(description="Referral intake phone.")
    npi: str = Field(description="National Provider Identifier.")
    in_clinic: bool = Field(description="Whether the practitioner is one of the clinic's own.")
    accepting_new_patients: bool = Field(description="Whether they take new referrals.")
    network_payers: list[str] = Field(description="Payers the practitioner is in network with.")


class Referral(Record):
    """A referral to a specialist (FHIR ``ServiceRequest``, category referral, intent order)."""

    id: Id("referral") = Field(description="Referral id, e.g. REF-0001.")
    status: ReferralStatus = Field(description="draft, active, completed or revoked.")
    priority: Priority = Field(description="routine, urgent, asap or stat.")
    patient_id: Id("patient") = Field(description="The patient referred (subject).")
    patient_name: PersonName = Field(description="The patient's name.")
    requester_id: Id("practitioner") = Field(description="The referring practitioner (requester).")
    requester_name: PersonName = Field(description="The referring practitioner's name.")
    requester_email: Email = Field(description="The referring practitioner's work email.")
    specialty: str = Field(description="The specialty referred to (performerType).")
    performer_id: Optional[Id("practitioner")] = Field(default=None, description="The receiving practitioner.")
    performer_name: Optional[PersonName] = Field(default=None, description="The receiving practitioner's name.")
    performer_organization: Optional[CompanyName] = Field(default=None, description="The receiving practice.")
    reason_code: str = Field(description="ICD-10 code of the reason (reasonCode).")
    reason: str = Field(description="Why the patient is referred, in words.")
    appointment_id: Optional[Id("appointment")] = Field(default=None, description="The clinic visit the referral "
                                                                                 "was written at (encounter).")
    authored_on: Date = Field(description="Date written.")
    needed_by: Date = Field(description="Date the specialist visit is wanted by (occurrence).")
    valid_until: Date = Field(description="Last day the referral may be used.")
    payer: Optional[str] = Field(default=None, description="The patient's payer when written.")
    policy_id: Optional[Id("insurance_policy")] = Field(default=None, description="The policy it is billed to.")
    authorization_required: bool = Field(description="Whether the payer must authorize it before it is sent.")
    authorization_number: Optional[str] = Field(default=None, description="The payer's authorization or referral "
                                                                          "number.")
    prior_authorization_id: Optional[Id("prior_authorization")] = Field(default=None, description="The prior "
                                                                                                   "authorization "
                                                                                                   "request.")
    notes: list[str] = Field(default_factory=list, description="Notes, oldest first.")
    revoked_reason: Optional[str] = Field(default=None, description="Why it was revoked.")
    completed_on: Optional[Date] = Field(default=None, description="Date the consult report came back.")


class ReferralTask(Record):
    """The task carrying a referral to the receiving practitioner (FHIR ``Task``, focus the ServiceRequest)."""

    id: str = Field(description="Task id, e.g. TSK-0001.")
    referral_id: Id("referral") = Field(description="The referral (focus).")
    owner_id: Id("practitioner") = Field(description="The receiving practitioner (owner).")
    owner_name: PersonName = Field(description="The receiving practitioner's name.")
    status: TaskStatus = Field(description="requested, accepted, rejected, in-progress, completed or cancelled.")
    business_status: str = Field(description="Where the receiving practice is, e.g. Awaiting records.")
    authored_on: DateTime = Field(description="When it was sent.")
    last_modified: DateTime = Field(description="When it last changed.")
    status_reason: Optional[str] = Field(default=None, description="Why it was rejected or cancelled.")
    specialist_visit: Optional[DateTime] = Field(default=None, description="The visit booked with the specialist.")
    consult_summary: Optional[str] = Field(default=None, description="The consult report's summary (output).")


class ReferralsState(ServiceState):
    """Patients, specialists, referrals and their tasks."""

    patients: dict[str, ReferralPatient] = Field(default_factory=dict, description="Patients by id.")
    specialists: dict[str, Specialist] = Field(default_factory=dict, description="Specialists by id.")
    referrals: dict[str, Referral] = Field(default_factory=dict, description="Referrals by id.")
    tasks: dict[str, ReferralTask] = Field(default_factory=dict, description="Tasks by id.")
