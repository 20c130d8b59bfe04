"""Records and state of the pharmacy service (HL7 FHIR R4 ``MedicationRequest`` / ``MedicationDispense``;
see ``pharmacy.py``).

``PatientProfile`` (with its ``AllergyIntolerance`` list), ``Prescription``
(a MedicationRequest with its ``dispenseRequest`` and ``detectedIssue``
warnings), ``Dispense`` (a MedicationDispense, one per fill) and
``RefillRequest`` (a Surescripts RxRenewalRequest-style request from the
pharmacy to the prescriber).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, Money, PersonName
from compoworld_gym.service import Record, ServiceState

#: FHIR MedicationRequest.status values this service uses.
PrescriptionStatus = Literal["active", "completed", "cancelled"]
#: DEA controlled-substance schedules.
DeaSchedule = Literal["II", "III", "IV", "V"]
RefillStatus = Literal["pending", "approved", "denied"]
Criticality = Literal["low", "high"]


class Medication(Record):
    """A formulary drug (FHIR ``Medication``) with an RxNorm-style code."""

    code: str = Field(description="RxNorm-style concept code (RxCUI), e.g. 617310.")
    display: str = Field(description="Clinical drug name, e.g. 'Atorvastatin 20 MG Oral Tablet'.")
    ingredient: str = Field(description="Active ingredient, lower case, e.g. atorvastatin.")
    drug_class: str = Field(description="Therapeutic class, lower case, e.g. statin, penicillin.")
    form: str = Field(description="Dispensing unit: tablet, capsule, pen, inhaler.")
    schedule: Optional[DeaSchedule] = Field(default=None, description="DEA schedule of a controlled substance.")
    specialty: bool = Field(default=False, description="Specialty drug: dispensing needs a prior authorization.")
    unit_price: Money = Field(description="Price per dispensing unit (USD).")


class Allergy(Record):
    """An allergy or intolerance on file (FHIR ``AllergyIntolerance``)."""

    substance: str = Field(description="Ingredient or drug class, lower case, e.g. penicillin.")
    reaction: str = Field(description="Reaction manifestation, e.g. hives.")
    criticality: Criticality = Field(description="low or high (risk of a life-threatening reaction).")
    recorded_on: Date = Field(description="Date recorded.")


class PatientProfile(Record):
    """A patient's medication profile (FHIR ``Patient`` with allergies)."""

    id: Id("patient") = Field(description="Patient id, e.g. PAT-0001 (the clinic registry's).")
    name: PersonName = Field(description="Full name.")
    birth_date: Date = Field(description="Date of birth.")
    allergies: list[Allergy] = Field(default_factory=list, description="Allergies and intolerances.")


class DrugAlert(Record):
    """A drug-utilization-review alert (FHIR ``DetectedIssue``) raised when prescribing."""

    kind: Literal["allergy", "interaction"] = Field(description="allergy or drug-drug interaction.")
    severity: Literal["high", "moderate"] = Field(description="high or moderate.")
    message: str = Field(description="What the alert says.")
    other_prescription_id: Optional[Id("prescription")] = Field(
        default=None, description="The interacting active prescription (interactions only).")


class Prescription(Record):
    """A prescription (FHIR ``MedicationRequest``, intent order)."""

    id: Id("prescription") = Field(description="Prescription id, e.g. RX-0001.")
    status: PrescriptionStatus = Field(description="active, completed (every fill dispensed) or cancelled.")
    patient_id: Id("patient") = Field(description="The patient (subject).")
    patient_name: PersonName = Field(description="The patient's name.")
    prescriber_id: Id("practitioner") = Field(description="The prescriber (requester).")
    prescriber_name: PersonName = Field(description="The prescriber's name.")
    prescriber_email: Email = Field(description="The prescriber's work email.")
    medication_code: str = Field(description="RxNorm-style code of the drug.")
    medication_display: str = Field(description="Drug name.")
    schedule: Optional[DeaSchedule] = Field(default=None, description="DEA schedule, for controlled drugs.")
    dosage_instruction: str = Field(description="Sig, e.g. 'Take 1 tablet by mouth daily'.")
    quantity: int = Field(ge=1, description="Units per fill (dispenseRequest.quantity).")
    unit: str = Field(description="Dispensing unit.")
    days_supply: int = Field(ge=1, description="Days one fill lasts (expectedSupplyDuration).")
    refills_allowed: int = Field(ge=0, description="Refills after the first fill (numberOfRepeatsAllowed).")
    fills: int = Field(default=0, ge=0, description="Fills dispensed so far, the first fill included.")
    authored_on: Date = Field(description="Date written.")
    valid_until: Date = Field(description="Last day it may be dispensed (dispenseRequest.validityPeriod.end).")
    reason_code: Optional[str] = Field(default=None, description="ICD-10 code of the indication.")
    reason_reference: Optional[Id("lab_result")] = Field(
        default=None, description="The lab result (Observation) it was written for.")
    estimated_cost: Money = Field(description="Price of one fill quoted by the pharmacy (USD); when written, "
                                                "quantity x the formulary unit price.")
    prior_auth_required: bool = Field(default=False, description="Specialty drug: needs a prior authorization.")
    prior_authorization_id: Optional[Id("prior_authorization")] = Field(
        default=None, description="The payer's approved prior authorization on file.")
    pharmacy: str = Field(description="Dispensing pharmacy.")
    warnings: list[DrugAlert] = Field(default_factory=list, description="Alerts raised when it was written.")
    override_reason: Optional[str] = Field(default=None, description="Why the prescriber overrode the alerts.")
    status_reason: Optional[str] = Field(default=None, description="Why it was cancelled.")
    notes: list[str] = Field(default_factory=list, description="Notes, oldest first.")


class Dispense(Record):
    """One fill handed to the patient (FHIR ``MedicationDispense``)."""

    id: str = Field(description="Dispense id, e.g. MD-0001.")
    prescription_id: Id("prescription") = Field(description="The prescription filled (authorizingPrescription).")
    patient_id: Id("patient") = Field(description="The patient.")
    medication_code: str = Field(description="RxNorm-style code dispensed.")
    quantity: int = Field(ge=1, description="Units dispensed.")
    fill_number: int = Field(ge=1, description="1 for the first fill, 2 for the first refill, ...")
    days_supply: int = Field(ge=1, description="Days the fill lasts.")
    handed_over_on: Date = Field(description="Date handed over (whenHandedOver).")
    pharmacy: str = Field(description="Dispensing pharmacy.")
    note: str = Field(default="", description="Pharmacist's note.")


class RefillRequest(Record):
    """A refill request the pharmacy sends the prescriber (RxRenewalRequest)."""

    id: str = Field(description="Refill request id, e.g. RFR-0001.")
    prescription_id: Id("prescription") = Field(description="The prescription to refill.")
    patient_id: Id("patient") = Field(description="The patient.")
    requested_on: Date = Field(description="Date requested.")
    status: RefillStatus = Field(description="pending, approved or denied.")
    note: str = Field(default="", description="The request's note.")
    response_note: Optional[str] = Field(default=None, description="The prescriber's answer.")
    dispense_id: Optional[str] = Field(default=None, description="The fill an approval dispensed.")


class PharmacyState(ServiceState):
    """Patient profiles, prescriptions, dispenses and refill requests."""

    patients: dict[str, PatientProfile] = Field(default_factory=dict, description="Patient profiles by id.")
    prescriptions: dict[str, Prescription] = Field(default_factory=dict, description="Prescriptions by id.")
    dispenses: dict[str, Dispense] = Field(default_factory=dict, description="Dispenses by id.")
    refill_requests: dict[str, RefillRequest] = Field(default_factory=dict, description="Refill requests by id.")
