"""Pharmacy: e-prescribing after HL7 FHIR R4 MedicationRequest / MedicationDispense.

No e-prescribing server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the FHIR R4 resources as the
DrFirst / Surescripts e-prescribing APIs expose them: ``MedicationRequest``
(``subject``, ``requester``, ``medicationCodeableConcept`` with an RxNorm
code, ``dosageInstruction``, ``dispenseRequest.quantity`` /
``numberOfRepeatsAllowed`` / ``validityPeriod`` / ``expectedSupplyDuration``,
``reasonCode`` and ``reasonReference`` to the lab ``Observation``, status
active / completed / cancelled with ``statusReason``), ``MedicationDispense``
(one per fill, ``whenHandedOver``), ``AllergyIntolerance`` on the patient,
``DetectedIssue`` drug-utilization-review alerts, Surescripts
RxRenewalRequest-style refill requests and CancelRx. The rules are in
``_pharmacy_rules``. Patients and prescribers are the clinic registry shared
with ``patient_scheduling``; a specialty drug is dispensed only with the
payer's prior authorization (``prior_auth``) on file. Left out: NCPDP
SCRIPT transport, pharmacy directories and benefit checks (RTPB), which
need outside systems.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services import _pharmacy_rules as rules
from compoworld_gym.envs.services._blocks import eq, select, text
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._pharmacy_models import (
    Allergy, Criticality, Dispense, DrugAlert, Medication, PatientProfile, PharmacyState, Prescription,
    PrescriptionStatus, RefillRequest, RefillStatus,
)
from compoworld_gym.envs.services._pharmacy_rules import FORMULARY, PHARMACIES, PRESCRIBERS, SPECIALTY_PHARMACY
from compoworld_gym.envs.services._pharmacy_seed import seed_pharmacy
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

_ICD10 = r"^[A-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$"


class Pharmacy(Service):
    """E-prescribing: formulary, allergy/interaction screening, prescriptions, fills, refills, cancellations."""

    name = "pharmacy"
    description = ("E-prescribing (FHIR MedicationRequest/MedicationDispense): drug formulary, patient "
                   "allergies, interaction alerts, prescriptions, dispenses, refill requests and cancellations.")
    domain = "healthcare"
    spec_source = None
    State = PharmacyState

    # ---------------------------------------------------------------- helpers
    def _patient(self, patient_id: str) -> PatientProfile:
        return self.lookup(self.state.patients, patient_id, "patient")

    def _rx(self, prescription_id: str, action: Optional[str] = None) -> Prescription:
        """The prescription, checked against ``action``'s statuses in :data:`rules.PRESCRIPTION` (409)."""
        rx = self.lookup(self.state.prescriptions, prescription_id, "prescription")
        if action is not None:
            rules.PRESCRIPTION.check(rx.id, rx.status, action)
        return rx

    @staticmethod
    def _medication(code: str) -> Medication:
        med = FORMULARY.get(code)
        if med is None:
            raise NotFound(f"no formulary drug with code {code!r}; call search_medications.")
        return med

    def _active_of(self, patient_id: str) -> list[Prescription]:
        return [rx for rx in self.state.prescriptions.values() if rx.patient_id == patient_id
                and rx.status == "active" and rx.valid_until >= self.today]

    def _view(self, rx: Prescription) -> dict:
        return {**rx.model_dump(), "refills_remaining": rules.refills_remaining(rx),
                "expired": self.today > rx.valid_until,
                "dispenses": [d.model_dump() for d in self.state.dispenses.values() if d.prescription_id == rx.id]}

    def _fill(self, rx: Prescription, quantity: int, note: str) -> Dispense:
        """Dispense one fill of ``rx`` (rules checked first); the last allowed fill completes it."""
        rules.check_fill(rx, quantity, self.today)
        d = Dispense(id=self.new_id("MD"), prescription_id=rx.id, patient_id=rx.patient_id,
                     medication_code=rx.medication_code, quantity=quantity, fill_number=rx.fills + 1,
                     days_supply=rx.days_supply, handed_over_on=self.today, pharmacy=rx.pharmacy, note=note)
        self.state.dispenses[d.id] = d
        rx.fills += 1
        if rx.fills == rx.refills_allowed + 1:
            rx.status = "completed"
        return d

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Medication])
    def search_medications(self, query: Optional[str] = None, drug_class: Optional[str] = None,
                           specialty: Optional[bool] = None) -> list[dict]:
        """Search the formulary by name or ingredient, therapeutic class, or specialty status.

        Args:
            query: text in the drug name or ingredient (case-insensitive), e.g. 'atorvastatin'.
            drug_class: therapeutic class, e.g. statin, opioid, penicillin.
            specialty: only specialty drugs (which need a prior authorization) or only others.
        """
        cls = drug_class.lower() if drug_class else None
        return [m.model_dump() for m in select(FORMULARY.values(), text(query, "display", "ingredient"),
                                               eq("drug_class", cls), eq("specialty", specialty))]

    @tool(read_only=True)
    def list_prescribers(self) -> list[dict]:
        """The clinic's prescribers: id, name, email, specialty and DEA number ('' when none)."""
        return [p._asdict() for p in PRESCRIBERS.values()]

    @tool(read_only=True, returns=PatientProfile)
    def get_patient_profile(self, patient_id: Id("patient")) -> dict:
        """A patient's medication profile: allergies and active prescription ids.

        Args:
            patient_id: the patient id, e.g. PAT-0001.
        """
        p = self._patient(patient_id)
        return {**p.model_dump(), "active_prescriptions": [rx.id for rx in self._active_of(p.id)]}

    @tool(read_only=True, returns=list[DrugAlert])
    def screen_medication(self, patient_id: Id("patient"), medication_code: str) -> dict:
        """Drug-utilization review: the allergy and interaction alerts prescribing a drug to a patient would raise.

        Args:
            patient_id: the patient.
            medication_code: RxNorm-style code of the drug.
        """
        p, med = self._patient(patient_id), self._medication(medication_code)
        alerts = rules.screen(med, p, self._active_of(p.id))
        return {"patient_id": p.id, "medication_code": med.code, "alerts": [a.model_dump() for a in alerts]}

    @tool(read_only=True, returns=list[Prescription])
    def search_prescriptions(self, patient_id: Optional[Id("patient")] = None,
                             status: Optional[PrescriptionStatus] = None,
                             prescriber_id: Optional[Id("practitioner")] = None,
                             medication_code: Optional[str] = None,
                             reason_reference: Optional[Id("lab_result")] = None,
                             limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Find prescriptions (without fills) by patient, status, prescriber, drug or the lab result they treat.

        Args:
            patient_id: only this patient's prescriptions.
            status: active, completed or cancelled.
            prescriber_id: only this prescriber's, e.g. PRA-0002.
            medication_code: only this drug.
            reason_reference: only those written for this lab result, e.g. OBS-0001.
            limit: maximum number of prescriptions (1-200).
        """
        rows = select(self.state.prescriptions.values(), eq("patient_id", patient_id), eq("status", status),
                      eq("prescriber_id", prescriber_id), eq("medication_code", medication_code),
                      eq("reason_reference", reason_reference), limit=limit)
        return [{**rx.model_dump(), "refills_remaining": rules.refills_remaining(rx),
                 "expired": self.today > rx.valid_until} for rx in rows]

    @tool(read_only=True, returns=Prescription)
    def get_prescription(self, prescription_id: Id("prescription")) -> dict:
        """One prescription with its fills, refills remaining and whether it has expired.

        Args:
            prescription_id: the prescription id, e.g. RX-0001.
        """
        return self._view(self._rx(prescription_id))

    @tool(read_only=True, returns=list[Dispense])
    def list_dispenses(self, prescription_id: Optional[Id("prescription")] = None,
                       patient_id: Optional[Id("patient")] = None) -> list[dict]:
        """List fills handed over, oldest first, of one prescription or patient.

        Args:
            prescription_id: only this prescription's fills.
            patient_id: only this patient's fills.
        """
        return [d.model_dump() for d in select(self.state.dispenses.values(), eq("prescription_id", prescription_id),
                                               eq("patient_id", patient_id))]

    @tool(read_only=True, returns=list[RefillRequest])
    def list_refill_requests(self, status: Optional[RefillStatus] = None,
                             prescription_id: Optional[Id("prescription")] = None) -> list[dict]:
        """List refill requests by status or prescription.

        Args:
            status: pending, approved or denied.
            prescription_id: only this prescription's requests.
        """
        return [r.model_dump() for r in select(self.state.refill_requests.values(), eq("status", status),
                                               eq("prescription_id", prescription_id))]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=PatientProfile)
    def record_allergy(self, patient_id: Id("patient"), substance: str = Field(min_length=3, max_length=60),
                       reaction: str = Field(min_length=2, max_length=120), criticality: Criticality = "low") -> dict:
        """Record an allergy or intolerance on a patient's profile (screening uses it from then on).

        Args:
            patient_id: the patient.
            substance: ingredient or drug class, e.g. penicillin, sulfonamide, ibuprofen.
            reaction: the reaction, e.g. hives.
            criticality: low or high.
        """
        p = self._patient(patient_id)
        sub = substance.strip().lower()
        if any(a.substance == sub for a in p.allergies):
            raise Conflict(f"{p.name} already has an allergy to {sub} on file.")
        p.allergies.append(Allergy(substance=sub, reaction=reaction, criticality=criticality, recorded_on=self.today))
        return p.model_dump()

    @tool(read_only=False, returns=Prescription)
    def create_prescription(self, patient_id: Id("patient"), prescriber_id: Id("practitioner"), medication_code: str,
                            quantity: int = Field(ge=1, le=1000), days_supply: int = Field(ge=1, le=365),
                            dosage_instruction: str = Field(min_length=5, max_length=300),
                            refills_allowed: int = Field(default=0, ge=0, le=11),
                            reason_code: Optional[str] = Field(default=None, pattern=_ICD10),
                            reason_reference: Optional[Id("lab_result")] = None,
                            pharmacy: Optional[str] = None,
                            override_reason: Optional[str] = Field(default=None, min_length=5, max_length=300)
                            ) -> dict:
        """Write a new prescription (NewRx). Allergy or interaction alerts need an override_reason (422);
        schedule II drugs take no refills, schedule III-V at most 5, and only prescribers with a DEA
        registration write controlled drugs (422).

        Args:
            patient_id: the patient.
            prescriber_id: the prescriber, e.g. PRA-0002 (see list_prescribers).
            medication_code: RxNorm-style code from the formulary.
            quantity: units per fill.
            days_supply: days one fill lasts.
            dosage_instruction: the sig, e.g. 'Take 1 tablet by mouth daily'.
            refills_allowed: refills after the first fill.
            reason_code: ICD-10 code of the indication, e.g. E11.9.
            reason_reference: the lab result it treats, e.g. OBS-0001.
            pharmacy: dispensing pharmacy; default the clinic's (specialty drugs: the specialty pharmacy).
            override_reason: why the prescriber goes ahead despite the alerts.
        """
        p, med = self._patient(patient_id), self._medication(medication_code)
        doc = PRESCRIBERS.get(prescriber_id)
        if doc is None:
            raise NotFound(f"no prescriber {prescriber_id!r}; call list_prescribers.")
        rules.check_limits(med, doc, refills_allowed)
        if pharmacy is not None and pharmacy not in (*PHARMACIES, SPECIALTY_PHARMACY):
            raise NotFound(f"no pharmacy {pharmacy!r}; pharmacies: {', '.join((*PHARMACIES, SPECIALTY_PHARMACY))}.")
        alerts = rules.screen(med, p, self._active_of(p.id))
        if alerts and not override_reason:
            raise Unprocessable("screening raised alerts: " + " ".join(a.message for a in alerts)
                                + " Give override_reason to prescribe anyway, or choose another drug.")
        rx = Prescription(
            id=self.new_id("RX"), status="active", patient_id=p.id, patient_name=p.name, prescriber_id=doc.id,
            prescriber_name=doc.name, prescriber_email=doc.email, medication_code=med.code,
            medication_display=med.display, schedule=med.schedule, dosage_instruction=dosage_instruction,
            quantity=quantity, unit=med.form, days_supply=days_supply, refills_allowed=refills_allowed,
            authored_on=self.today, valid_until=self.today + dt.timedelta(days=rules.VALID_DAYS[med.schedule]),
            reason_code=reason_code, reason_reference=reason_reference,
            estimated_cost=money(quantity * med.unit_price), prior_auth_required=med.specialty,
            pharmacy=pharmacy or (SPECIALTY_PHARMACY if med.specialty else PHARMACIES[0]), warnings=alerts,
            override_reason=override_reason if alerts else None)
        self.state.prescriptions[rx.id] = rx
        return self._view(rx)

    @tool(read_only=False, returns=Dispense)
    def dispense_prescription(self, prescription_id: Id("prescription"), quantity: int = Field(ge=1, le=1000),
                              note: str = Field(default="", max_length=300)) -> dict:
        """Dispense the next fill of an active prescription (MedicationDispense). Refused (422) once
        expired, above the prescribed quantity, with no fill left, or for a specialty drug without a
        prior authorization on file; the last allowed fill completes the prescription.

        Args:
            prescription_id: the prescription.
            quantity: units handed over (at most the prescribed quantity).
            note: the pharmacist's note.
        """
        rx = self._rx(prescription_id, "dispensing")
        return {**self._fill(rx, quantity, note).model_dump(), "refills_remaining": rules.refills_remaining(rx),
                "prescription_status": rx.status}

    @tool(read_only=False, returns=RefillRequest)
    def request_refill(self, prescription_id: Id("prescription"), note: str = Field(default="", max_length=300)
                       ) -> dict:
        """Ask the prescriber to authorize a refill (pending until answered). Refused (422) for schedule
        II drugs, before the first fill, after expiry or with no refill left; one pending request at a time (409).

        Args:
            prescription_id: the prescription.
            note: the request's note, e.g. 'patient has 3 days left'.
        """
        rx = self._rx(prescription_id, "a refill request")
        rules.check_refillable(rx, self.today)
        if any(r.prescription_id == rx.id and r.status == "pending" for r in self.state.refill_requests.values()):
            raise Conflict(f"prescription {rx.id} already has a pending refill request; call list_refill_requests.")
        r = RefillRequest(id=self.new_id("RFR"), prescription_id=rx.id, patient_id=rx.patient_id,
                          requested_on=self.today, status="pending", note=note)
        self.state.refill_requests[r.id] = r
        return r.model_dump()

    @tool(read_only=False, returns=RefillRequest)
    def respond_to_refill_request(self, refill_request_id: str, decision: Literal["approve", "deny"],
                                  note: str = Field(default="", max_length=300)) -> dict:
        """The prescriber's answer to a pending refill request: approve (one fill of the prescribed
        quantity is dispensed, under the dispensing rules) or deny (a note is required).

        Args:
            refill_request_id: the request, e.g. RFR-0001.
            decision: approve or deny.
            note: the answer; required to deny.
        """
        r = self.lookup(self.state.refill_requests, refill_request_id, "refill request")
        if r.status != "pending":
            raise Conflict(f"refill request {r.id} is already {r.status}.")
        if decision == "deny":
            if not note:
                raise Unprocessable("give the reason for denying the refill in note.")
            r.status, r.response_note = "denied", note
            return r.model_dump()
        rx = self._rx(r.prescription_id, "dispensing")
        rules.check_refillable(rx, self.today)
        d = self._fill(rx, rx.quantity, f"Refill authorized ({r.id})")
        r.status, r.response_note, r.dispense_id = "approved", note or None, d.id
        return r.model_dump()

    @tool(read_only=False, destructive=True, returns=Prescription)
    def cancel_prescription(self, prescription_id: Id("prescription"),
                            reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Cancel an active prescription (CancelRx); its pending refill requests are denied.

        Args:
            prescription_id: the prescription.
            reason: why (statusReason).
        """
        rx = self._rx(prescription_id, "cancellation")
        rx.status, rx.status_reason = "cancelled", reason
        for r in self.state.refill_requests.values():
            if r.prescription_id == rx.id and r.status == "pending":
                r.status, r.response_note = "denied", f"Prescription cancelled: {reason}"
        return self._view(rx)

    @tool(read_only=False, idempotent=True, returns=Prescription)
    def attach_prior_authorization(self, prescription_id: Id("prescription"),
                                   prior_authorization_id: Id("prior_authorization")) -> dict:
        """Record the payer's approved prior authorization on an active specialty-drug prescription.

        Args:
            prescription_id: the prescription of a specialty drug.
            prior_authorization_id: the approved request, e.g. PA-0001.
        """
        rx = self._rx(prescription_id, "attaching a prior authorization")
        if not rx.prior_auth_required:
            raise Unprocessable(f"{rx.medication_display} needs no prior authorization.")
        rx.prior_authorization_id = prior_authorization_id
        return self._view(rx)

    @tool(read_only=False, returns=Prescription)
    def add_prescription_note(self, prescription_id: Id("prescription"),
                              note: str = Field(min_length=1, max_length=500)) -> dict:
        """Add a note to a prescription (any status).

        Args:
            prescription_id: the prescription.
            note: the note text.
        """
        rx = self._rx(prescription_id)
        rx.notes.append(note)
        return self._view(rx)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> PharmacyState:
        state = PharmacyState()
        seed_pharmacy(state, rng, today)
        return state
