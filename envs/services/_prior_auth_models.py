"""Records and state of the prior authorization service (Da Vinci PAS / CoverMyMeds shapes; see ``prior_auth.py``).

``MemberCoverage`` (the payer's view of a member's policy), ``PriorAuthRequest``
(a PAS ``Claim`` with ``use = preauthorization``: patient, coverage, requested
item, quantity, service period, diagnoses, supporting clinical notes), its
payer ``Decision`` s (a PAS ``ClaimResponse``: X12 278 review action, reason
code, ``preAuthRef``, approved units, ``preAuthPeriod``) and its ``Appeal``.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, Money, PersonName
from compoworld_gym.service import Record, ServiceState

PaStatus = Literal["draft", "submitted", "pended", "approved", "denied", "appealed", "cancelled"]
Outcome = Literal["approved", "denied", "pended"]
#: X12 278 HCR01 review action: A1 certified in total, A2 certified partially, A3 not certified, A4 pended.
ReviewAction = Literal["A1", "A2", "A3", "A4"]


class MemberCoverage(Record):
    """A member's policy as the payer holds it (FHIR ``Coverage``)."""

    id: Id("insurance_policy") = Field(description="Policy id, e.g. POL-0001 (the claims clearinghouse's).")
    patient_id: Id("patient") = Field(description="The member (beneficiary).")
    subscriber_name: PersonName = Field(description="The member's name.")
    payer: str = Field(description="Insurance company.")
    member_id: str = Field(description="Member id on the insurance card (subscriberId).")
    plan_name: str = Field(description="Plan, e.g. PPO Gold.")
    status: Literal["active", "terminated"] = Field(description="active or terminated.")
    coverage_start: Date = Field(description="First covered day.")
    coverage_end: Optional[Date] = Field(default=None, description="Last covered day; None while open-ended.")


class Decision(Record):
    """One payer decision on a request (PAS ``ClaimResponse``)."""

    outcome: Outcome = Field(description="approved, denied or pended.")
    review_action: ReviewAction = Field(description="A1, A2 (partial), A3 (denied) or A4 (pended).")
    reason_code: Optional[str] = Field(default=None, description="Denial or pend reason code.")
    reason: str = Field(default="", description="What the reason code means.")
    decided_on: Date = Field(description="Date of the decision.")
    auth_number: Optional[str] = Field(default=None, description="Payer's authorization number (preAuthRef).")
    approved_units: Optional[int] = Field(default=None, ge=1, description="Units approved.")
    valid_from: Optional[Date] = Field(default=None, description="First day the approval covers.")
    valid_until: Optional[Date] = Field(default=None, description="Last day the approval covers.")
    note: str = Field(default="", description="The payer's note.")


class Appeal(Record):
    """The provider's appeal of a denial."""

    filed_on: Date = Field(description="Date filed.")
    deadline: Date = Field(description="Last day it could be filed (30 days after the denial).")
    note: str = Field(description="Grounds of the appeal.")


class PriorAuthRequest(Record):
    """A prior authorization request (PAS ``Claim``, use preauthorization; a CoverMyMeds ePA)."""

    id: Id("prior_authorization") = Field(description="Request id, e.g. PA-0001.")
    status: PaStatus = Field(description="draft, submitted, pended, approved, denied, appealed or cancelled.")
    patient_id: Id("patient") = Field(description="The patient.")
    patient_name: PersonName = Field(description="The patient's name.")
    policy_id: Id("insurance_policy") = Field(description="The member's policy (insurance.coverage).")
    member_id: str = Field(description="Member id on the insurance card.")
    payer: str = Field(description="The payer (insurer).")
    requester_id: Id("practitioner") = Field(description="The requesting practitioner (provider).")
    requester_name: PersonName = Field(description="The requesting practitioner's name.")
    requester_email: Email = Field(description="The requesting practitioner's work email.")
    request_type: Literal["medication", "service"] = Field(description="A drug (RxNorm) or a service (CPT).")
    code: str = Field(description="RxNorm or CPT code requested (item.productOrService).")
    code_display: str = Field(description="What the code is.")
    quantity: int = Field(ge=1, description="Units requested.")
    service_start: Date = Field(description="First day of the requested period.")
    service_end: Date = Field(description="Last day of the requested period.")
    diagnosis_codes: list[str] = Field(min_length=1, description="ICD-10 codes.")
    prescription_id: Optional[Id("prescription")] = Field(default=None, description="The e-prescription of a drug "
                                                                                    "request.")
    estimated_cost: Money = Field(description="Estimated cost of the units requested (USD); when filed, quantity "
                                                "x the payer's unit cost.")
    clinical_notes: list[str] = Field(default_factory=list, description="Supporting clinical information.")
    created_on: Date = Field(description="Date started.")
    submitted_on: Optional[Date] = Field(default=None, description="Date last submitted to the payer.")
    decisions: list[Decision] = Field(default_factory=list, description="Payer decisions, oldest first.")
    appeal: Optional[Appeal] = Field(default=None, description="The appeal of a denial (one allowed).")
    cancel_reason: Optional[str] = Field(default=None, description="Why it was cancelled.")
    notes: list[str] = Field(default_factory=list, description="Case notes, oldest first.")


class PriorAuthState(ServiceState):
    """Member coverages and prior authorization requests."""

    coverages: dict[str, MemberCoverage] = Field(default_factory=dict, description="Coverages by policy id.")
    requests: dict[str, PriorAuthRequest] = Field(default_factory=dict, description="Requests by id.")
