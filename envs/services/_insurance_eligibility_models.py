"""Records and state of the insurance eligibility service (Availity Coverages API; see ``insurance_eligibility.py``).

``Payer`` (an entry of Availity's payer list with its 270 configuration),
``Provider`` (an NPI the organization submits under, with the payers it is
out of network for), ``MemberPlan`` (the payer's enrollment data a 270 is
answered from), ``Coverage`` (one eligibility and benefits inquiry and its
271 answer, with ``Benefit`` lines per service type) and ``CostEstimate``
(a patient cost estimate on a coverage).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, DateTime, Id, Money, PersonName
from compoworld_gym.service import Record, ServiceState

#: X12 service type codes (EQ01 / EB03) the payers answer for.
ServiceTypeCode = Literal["30", "98", "BZ", "3", "UC", "86", "5", "4", "62", "PT", "73", "80", "2", "MH"]
PlanStatus = Literal["active", "inactive"]
EstimateStatus = Literal["active", "void"]


class Payer(Record):
    """A payer of Availity's payer list, with its 270 configuration."""

    id: str = Field(description="Availity payer id, e.g. 60054 (Aetna).")
    name: CompanyName = Field(description="Payer name as the payer list shows it, e.g. Aetna.")
    transactions: list[str] = Field(description="X12 transactions the payer takes through Availity, e.g. 270, 276.")
    service_types: list[ServiceTypeCode] = Field(description="Service type codes the payer answers a 270 for.")
    requires_birth_date: bool = Field(description="Whether the payer's configuration requires the patient's birth "
                                                  "date with the member id.")
    max_days_back: int = Field(description="How many days before today an inquiry's as-of date may be.")
    max_days_ahead: int = Field(description="How many days after today an inquiry's as-of date may be.")


class Provider(Record):
    """An NPI the organization submits inquiries under (Availity Express Entry)."""

    npi: str = Field(description="National Provider Identifier (10 digits).")
    name: PersonName = Field(description="The practitioner or group name.")
    kind: Literal["individual", "group"] = Field(description="individual (a practitioner) or group (the clinic).")
    specialty: str = Field(description="Specialty, e.g. Family Medicine.")
    practitioner_id: Optional[Id("practitioner")] = Field(default=None, description="The clinic practitioner.")
    out_of_network_payers: list[str] = Field(default_factory=list,
                                             description="Payer ids the provider does not participate with.")


class MemberPlan(Record):
    """A member's enrollment as the payer holds it: what a 270 for them is answered from."""

    id: Id("insurance_policy") = Field(description="The policy id, e.g. POL-0003 (the claims clearinghouse's).")
    payer_id: str = Field(description="Availity payer id.")
    member_id: str = Field(description="Member id on the insurance card.")
    patient_id: Id("patient") = Field(description="The clinic's patient.")
    first_name: str = Field(description="Member's first name.")
    last_name: str = Field(description="Member's last name.")
    birth_date: Date = Field(description="Member's date of birth.")
    plan_name: str = Field(description="Plan, e.g. PPO Gold.")
    group_number: str = Field(description="Employer group number.")
    effective_date: Date = Field(description="First covered day.")
    expiration_date: Optional[Date] = Field(default=None, description="Last covered day; None while open-ended.")
    deductible: Money = Field(description="Annual in-network deductible (USD).")
    deductible_met: Money = Field(description="In-network deductible met this plan year (USD).")
    out_of_pocket_max: Money = Field(description="Annual in-network out-of-pocket maximum (USD).")
    out_of_pocket_met: Money = Field(description="In-network out-of-pocket paid this plan year (USD).")
    coinsurance_pct: int = Field(ge=0, le=100, description="In-network coinsurance the member pays (percent).")
    insurance_type: Literal["PPO", "HMO", "HDHP"] = Field(description="Plan type (an HMO pays out of network for "
                                                                      "emergencies only).")
    pcp_copay: Optional[Money] = Field(default=None, description="Primary-care office visit copay (USD); None: "
                                                                 "deductible and coinsurance apply.")
    specialist_copay: Optional[Money] = Field(default=None, description="Specialist visit copay (USD).")
    urgent_care_copay: Optional[Money] = Field(default=None, description="Urgent care copay (USD).")
    emergency_copay: Optional[Money] = Field(default=None, description="Emergency room copay (USD).")


class Benefit(Record):
    """The benefits of one service type in a 271 (EB segments), in and out of network."""

    service_type: ServiceTypeCode = Field(description="X12 service type code.")
    service_type_name: str = Field(description="What the code covers, e.g. Urgent Care.")
    covered: bool = Field(description="Whether the plan covers the service in network.")
    in_network_copay: Optional[Money] = Field(default=None, description="In-network copay per visit (USD); None "
                                                                         "where deductible and coinsurance apply.")
    in_network_coinsurance_pct: int = Field(ge=0, le=100, description="In-network coinsurance (percent).")
    out_of_network_covered: bool = Field(description="Whether the plan pays out of network.")
    out_of_network_copay: Optional[Money] = Field(default=None, description="Out-of-network copay (USD), if any.")
    out_of_network_coinsurance_pct: int = Field(ge=0, le=100, description="Out-of-network coinsurance (percent).")
    authorization_required: bool = Field(description="Whether the payer requires prior authorization (EB11).")
    referral_required: bool = Field(description="Whether the plan requires a PCP referral for the service.")


class Coverage(Record):
    """An eligibility and benefits inquiry (270) and the payer's answer (271)."""

    id: Id("coverage") = Field(description="Coverage id, e.g. COV-0001.")
    payer_id: str = Field(description="Availity payer id asked.")
    payer_name: str = Field(description="Payer name.")
    member_id: str = Field(description="Member id sent.")
    patient_id: Optional[Id("patient")] = Field(default=None, description="The clinic's patient.")
    patient_first_name: str = Field(description="Patient's first name as the payer holds it.")
    patient_last_name: str = Field(description="Patient's last name as sent.")
    patient_birth_date: Date = Field(description="Patient's date of birth as sent.")
    policy_id: Optional[Id("insurance_policy")] = Field(default=None, description="The policy the payer matched.")
    appointment_id: Optional[Id("appointment")] = Field(default=None, description="The visit the inquiry was run "
                                                                                 "for (the 270 trace reference).")
    provider_npi: str = Field(description="NPI of the provider asking.")
    provider_name: PersonName = Field(description="Name of the provider asking.")
    service_type: ServiceTypeCode = Field(description="Service type asked about (30: all plan benefits).")
    as_of_date: Date = Field(description="Date of service asked about.")
    requested_at: DateTime = Field(description="When the inquiry was made (logical clock).")
    plan_status: PlanStatus = Field(description="active (coverage on the as-of date) or inactive.")
    plan_name: str = Field(description="Plan name.")
    group_number: str = Field(description="Group number.")
    insurance_type: Literal["PPO", "HMO", "HDHP"] = Field(description="Plan type.")
    effective_date: Date = Field(description="Plan's first covered day.")
    expiration_date: Optional[Date] = Field(default=None, description="Plan's last covered day, if ended.")
    in_network: bool = Field(description="Whether the asking provider participates with the payer.")
    deductible_in_network: Optional[Money] = Field(default=None, description="Annual in-network deductible (USD).")
    deductible_remaining_in_network: Optional[Money] = Field(default=None, description="In-network deductible "
                                                                                       "still to meet (USD).")
    out_of_pocket_in_network: Optional[Money] = Field(default=None, description="In-network out-of-pocket max (USD).")
    out_of_pocket_remaining_in_network: Optional[Money] = Field(default=None, description="In-network out-of-pocket "
                                                                                          "still to pay (USD).")
    deductible_out_of_network: Optional[Money] = Field(default=None, description="Out-of-network deductible (USD).")
    deductible_remaining_out_of_network: Optional[Money] = Field(default=None, description="Out-of-network "
                                                                                           "deductible to meet (USD).")
    out_of_pocket_out_of_network: Optional[Money] = Field(default=None, description="Out-of-network out-of-pocket "
                                                                                    "max (USD).")
    out_of_pocket_remaining_out_of_network: Optional[Money] = Field(default=None, description="Out-of-network "
                                                                                              "out-of-pocket still "
                                                                                              "to pay (USD).")
    benefits: list[Benefit] = Field(default_factory=list, description="Benefits per service type (none when "
                                                                      "inactive).")
    visit_copay: Optional[Money] = Field(default=None, description="Copay of an office visit with the asking "
                                                                   "provider, in its network (USD).")
    notes: list[str] = Field(default_factory=list, description="Front-desk notes, oldest first.")


class CostEstimate(Record):
    """A patient cost estimate for a procedure on an active coverage."""

    id: str = Field(description="Estimate id, e.g. EST-0001.")
    coverage_id: Id("coverage") = Field(description="The coverage the estimate uses.")
    patient_id: Optional[Id("patient")] = Field(default=None, description="The clinic's patient.")
    procedure_code: str = Field(description="CPT code estimated.")
    procedure_description: str = Field(description="What the procedure is.")
    units: int = Field(ge=1, description="Units of service.")
    service_type: ServiceTypeCode = Field(description="Service type whose benefits apply.")
    in_network: bool = Field(description="Whether in-network benefits apply.")
    allowed_amount: Money = Field(description="The payer's allowed amount (USD).")
    copay: Money = Field(description="Copay part (USD).")
    deductible_applied: Money = Field(description="Deductible part (USD).")
    coinsurance: Money = Field(description="Coinsurance part (USD).")
    patient_responsibility: Money = Field(description="What the patient pays (USD), capped by the out-of-pocket "
                                                      "still to pay.")
    plan_pays: Money = Field(description="What the plan pays (USD).")
    status: EstimateStatus = Field(description="active or void.")
    created_at: DateTime = Field(description="When estimated (logical clock).")
    void_reason: Optional[str] = Field(default=None, description="Why it was voided.")


class InsuranceEligibilityState(ServiceState):
    """Payers, providers, the payers' member plans, coverages and cost estimates."""

    payers: dict[str, Payer] = Field(default_factory=dict, description="Payers by Availity payer id.")
    providers: dict[str, Provider] = Field(default_factory=dict, description="Providers by NPI.")
    members: dict[str, MemberPlan] = Field(default_factory=dict, description="The payers' member plans by policy id.")
    coverages: dict[str, Coverage] = Field(default_factory=dict, description="Coverages by id.")
    estimates: dict[str, CostEstimate] = Field(default_factory=dict, description="Cost estimates by id.")
