"""Records and state of the lab orders service (HL7 FHIR R4 as the Health Gorilla API exposes it;
see ``lab_orders.py``).

``LabPatient``, ``LabOrder`` (a ``ServiceRequest``), ``Specimen``,
``LabResult`` (an ``Observation`` with its reference range and
interpretation flag) and ``DiagnosticReport`` (the lab's report of an order).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id, PersonName
from compoworld_gym.service import Record, ServiceState

#: FHIR ServiceRequest.status values this service uses.
OrderStatus = Literal["draft", "active", "completed", "revoked"]
#: FHIR request priority.
Priority = Literal["routine", "urgent", "asap", "stat"]
#: HL7 v3 ObservationInterpretation: normal, low, high, critically low, critically high.
Interpretation = Literal["N", "L", "H", "LL", "HH"]
SpecimenType = Literal["serum", "whole blood", "plasma"]
Lab = Literal["Quest Diagnostics", "Labcorp", "BioReference Laboratories"]


class LabPatient(Record):
    """A patient (FHIR ``Patient``): the clinic registry's."""

    id: Id("patient") = Field(description="Patient id, e.g. PAT-0001.")
    name: PersonName = Field(description="Full name.")
    birth_date: Date = Field(description="Date of birth.")
    gender: Literal["female", "male", "other", "unknown"] = Field(description="Administrative gender "
                                                                         "(reference ranges depend on it).")


class LabOrder(Record):
    """A lab order (FHIR ``ServiceRequest``, intent order)."""

    id: Id("lab_order") = Field(description="Order id, e.g. LAB-0001.")
    status: OrderStatus = Field(description="draft, active (sent to the lab), completed or revoked.")
    priority: Priority = Field(description="routine, urgent, asap or stat.")
    patient_id: Id("patient") = Field(description="The patient (subject).")
    patient_name: PersonName = Field(description="The patient's name.")
    requester_id: Id("practitioner") = Field(description="The ordering practitioner.")
    requester_name: PersonName = Field(description="The ordering practitioner's name.")
    requester_email: Email = Field(description="The ordering practitioner's work email.")
    appointment_id: Optional[Id("appointment")] = Field(default=None, description="The visit it was ordered at "
                                                                                "(encounter).")
    test_codes: list[str] = Field(min_length=1, description="LOINC codes of the tests ordered.")
    reason_code: Optional[str] = Field(default=None, description="ICD-10 code of the reason.")
    performer: Lab = Field(description="The performing laboratory.")
    authored_on: Date = Field(description="Date ordered.")
    completed_on: Optional[Date] = Field(default=None, description="Date the report was released.")
    revoked_reason: Optional[str] = Field(default=None, description="Why it was revoked.")
    notes: list[str] = Field(default_factory=list, description="Notes, oldest first.")


class Specimen(Record):
    """A collected specimen (FHIR ``Specimen``)."""

    id: str = Field(description="Specimen id, e.g. SPC-0001.")
    order_id: Id("lab_order") = Field(description="The order it was collected for (request).")
    patient_id: Id("patient") = Field(description="The patient.")
    type: SpecimenType = Field(description="serum, whole blood or plasma.")
    container: str = Field(description="Collection tube.")
    collected_at: DateTime = Field(description="When collected.")
    collector: str = Field(description="Who drew it.")
    status: Literal["available", "unavailable"] = Field(default="available", description="available or unavailable.")


class LabResult(Record):
    """One result (FHIR ``Observation``, category laboratory) with its range and flag."""

    id: Id("lab_result") = Field(description="Result id, e.g. OBS-0001.")
    order_id: Id("lab_order") = Field(description="The order (basedOn).")
    patient_id: Id("patient") = Field(description="The patient.")
    specimen_id: str = Field(description="The specimen measured.")
    code: str = Field(description="LOINC code of the analyte.")
    display: str = Field(description="Analyte name.")
    value: float = Field(description="Measured value (valueQuantity.value).")
    unit: str = Field(description="Unit (UCUM), e.g. mg/dL.")
    reference_low: Optional[float] = Field(default=None, description="Low end of the reference range.")
    reference_high: Optional[float] = Field(default=None, description="High end of the reference range.")
    interpretation: Interpretation = Field(description="N, L, H, LL or HH, from value vs range.")
    status: Literal["preliminary", "final", "corrected"] = Field(description="preliminary until the report is "
                                                                          "released; corrected after a fix.")
    effective_at: DateTime = Field(description="When the specimen was collected (effectiveDateTime).")
    issued: DateTime = Field(description="When the result was recorded.")
    note: str = Field(default="", description="Comment, e.g. the reason of a correction.")


class DiagnosticReport(Record):
    """The lab's report of an order (FHIR ``DiagnosticReport``)."""

    id: str = Field(description="Report id, e.g. RPT-0001.")
    order_id: Id("lab_order") = Field(description="The order reported.")
    patient_id: Id("patient") = Field(description="The patient.")
    status: Literal["preliminary", "final"] = Field(description="preliminary while results come in; final "
                                                                "once released.")
    result_ids: list[Id("lab_result")] = Field(default_factory=list, description="The results, in order.")
    conclusion: str = Field(default="", description="The conclusion written on release.")
    issued: DateTime = Field(description="Last update.")


class LabOrdersState(ServiceState):
    """Patients, lab orders, specimens, results and reports."""

    patients: dict[str, LabPatient] = Field(default_factory=dict, description="Patients by id.")
    orders: dict[str, LabOrder] = Field(default_factory=dict, description="Lab orders by id.")
    specimens: dict[str, Specimen] = Field(default_factory=dict, description="Specimens by id.")
    results: dict[str, LabResult] = Field(default_factory=dict, description="Results by id.")
    reports: dict[str, DiagnosticReport] = Field(default_factory=dict, description="Reports by id.")
