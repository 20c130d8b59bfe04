"""Records and state of the insurance claims service (X12 837 / 835 / 270-271 shapes; see ``insurance_claims.py``).

Member ``Policy`` records, professional claims (837P) with CPT-coded
``ClaimLine`` s and their adjudication, payments with remittance advice
(835) and eligibility inquiries (270/271).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id, Money, PersonName
from compoworld_gym.service import Record, ServiceState

ClaimStatus = Literal["draft", "submitted", "adjudicated", "paid", "denied", "void"]
CptCode = Literal["99203", "99213", "99214", "99395", "93000", "80053", "11102", "20610", "90471"]
DenialCode = Literal["CO-16", "CO-27", "CO-29", "CO-50", "CO-97", "CO-197"]


class Policy(Record):
    """A member's health insurance policy."""

    id: Id("insurance_policy") = Field(description="Policy id, e.g. POL-0001.")
    patient_id: Id("patient") = Field(description="The insured patient.")
    subscriber_name: PersonName = Field(description="The member's name.")
    member_id: str = Field(description="Member id on the insurance card.")
    payer: str = Field(description="Insurance company.")
    plan_name: str = Field(description="Plan, e.g. PPO Gold.")
    group_number: str = Field(description="Employer group number.")
    status: Literal["active", "terminated"] = Field(description="active or terminated.")
    coverage_start: Date = Field(description="First covered day.")
    coverage_end: Optional[Date] = Field(default=None, description="Last covered day; None while open-ended.")
    deductible: Money = Field(description="Annual deductible (USD).")
    deductible_met: Money = Field(description="Deductible already met this year (USD).")
    coinsurance_pct: int = Field(ge=0, le=100, description="Percent of the allowed amount the patient pays "
                                                        "after the deductible.")


class ClaimLine(Record):
    """A service line of a claim (837 SV1 segment)."""

    cpt_code: CptCode = Field(description="Procedure code.")
    description: str = Field(description="Procedure description.")
    units: int = Field(ge=1, description="Units of service.")
    charge: Money = Field(description="Billed charge (USD).")
    allowed: Optional[Money] = Field(default=None, description="Allowed amount after adjudication (USD).")


class Claim(Record):
    """A professional claim (837P) and its adjudication (835)."""

    id: Id("claim") = Field(description="Claim id, e.g. CLM-0001.")
    policy_id: Id("insurance_policy") = Field(description="The policy billed.")
    patient_id: Id("patient") = Field(description="The patient treated.")
    appointment_id: Optional[Id("appointment")] = Field(default=None, description="The visit billed.")
    provider_npi: str = Field(description="Billing provider NPI.")
    service_date: Date = Field(description="Date of service.")
    diagnosis_codes: list[str] = Field(description="ICD-10 diagnosis codes.")
    lines: list[ClaimLine] = Field(default_factory=list, description="Service lines.")
    total_charge: Money = Field(default=0.0, description="Sum of line charges (USD).")
    status: ClaimStatus = Field(description="draft, submitted, adjudicated, paid, denied or void.")
    created_on: Date = Field(description="Date created.")
    submitted_on: Optional[Date] = Field(default=None, description="Date submitted to the payer.")
    adjudicated_on: Optional[Date] = Field(default=None, description="Date adjudicated.")
    allowed_total: Optional[Money] = Field(default=None, description="Sum of allowed amounts (USD).")
    patient_responsibility: Optional[Money] = Field(default=None, description="Deductible plus coinsurance (USD).")
    payable: Optional[Money] = Field(default=None, description="What the plan owes: allowed - patient share (USD).")
    paid_amount: Optional[Money] = Field(default=None, description="Amount paid (USD).")
    paid_on: Optional[Date] = Field(default=None, description="Date paid.")
    denial_reason: Optional[DenialCode] = Field(default=None, description="CARC code of a denial.")
    assigned_to: Optional[Email] = Field(default=None, description="Claims examiner working it.")
    notes: list[str] = Field(default_factory=list, description="Claim notes, oldest first.")


class Remittance(Record):
    """A payment with its remittance advice (835)."""

    id: str = Field(description="Remittance id, e.g. ERA-0001.")
    claim_id: Id("claim") = Field(description="The claim paid.")
    amount: Money = Field(description="Amount paid (USD).")
    trace_number: str = Field(description="EFT / check trace number.")
    paid_on: Date = Field(description="Payment date.")


class EligibilityCheck(Record):
    """An eligibility inquiry and its answer (270/271)."""

    id: str = Field(description="Inquiry id, e.g. ELG-0001.")
    policy_id: Id("insurance_policy") = Field(description="The policy asked about.")
    service_date: Date = Field(description="Date of service asked about.")
    eligible: bool = Field(description="Whether the policy covers that date.")
    deductible_remaining: Money = Field(description="Deductible still to meet (USD).")
    reference: str = Field(description="Provider's reference for the inquiry.")
    checked_at: DateTime = Field(description="When asked (logical clock).")


class InsuranceClaimsState(ServiceState):
    """Policies, claims, remittances and eligibility inquiries."""

    policies: dict[str, Policy] = Field(default_factory=dict, description="Policies by id.")
    claims: dict[str, Claim] = Field(default_factory=dict, description="Claims by id.")
    remittances: dict[str, Remittance] = Field(default_factory=dict, description="Remittances by id.")
    eligibility_checks: dict[str, EligibilityCheck] = Field(default_factory=dict, description="Inquiries by id.")
