"""Insurance claims: a health-claims clearinghouse after the X12 837 / 835 / 270-271 lifecycle.

No claims server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface follows what clearinghouse APIs (Change Healthcare / Optum Medical
Network, Availity) expose: insurance ``policies`` (member id, payer, plan,
coverage dates, annual deductible and how much of it is met, coinsurance),
eligibility inquiries (270/271), professional claims (837P) with CPT-coded
service lines, the payer's adjudication against its fee schedule, denials
with CARC reason codes and payments with remittance advice (835). Rules: a
claim is submitted only with lines, for a past date of service covered by an
active policy and within timely filing (422); statuses move draft →
submitted → adjudicated → paid, or submitted → denied → (appeal) submitted,
and a draft or submitted claim can be voided (409 otherwise); adjudication
allows at most the fee-schedule amount per line, applies the remaining
deductible, then coinsurance; no payment exceeds what the plan owes on the
allowed amount (422). Policies belong to the fixed clinic registry's patients
shared with ``patient_scheduling``; ``appointment_id`` names the visit billed.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id, Money, PersonName
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._insurance_claims_seed import (
    DENIAL_REASONS, EXAMINERS, FEE_SCHEDULE, TIMELY_FILING_DAYS, seed_claims,
)
from compoworld_gym.envs.services._patient_scheduling_seed import CLINIC_NPI
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

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


def covers(p: Policy, day: dt.date) -> bool:
    """Whether policy ``p`` covers date of service ``day`` (a terminated policy covers up to its end)."""
    return p.coverage_start <= day and (p.coverage_end is None or day <= p.coverage_end)


def adjudicate(c: Claim, p: Policy, day: dt.date) -> None:
    """Price claim ``c`` under policy ``p`` on ``day``: allowed = min(charge, fee x units) per line;
    the patient pays the remaining deductible first, then coinsurance on the rest; the policy's
    deductible_met grows by the deductible applied."""
    for line in c.lines:
        line.allowed = money(min(line.charge, FEE_SCHEDULE[line.cpt_code].allowed * line.units))
    allowed = money(sum(x.allowed or 0.0 for x in c.lines))
    toward = money(min(allowed, max(p.deductible - p.deductible_met, 0.0)))
    share = money(toward + (allowed - toward) * p.coinsurance_pct / 100)
    p.deductible_met = money(p.deductible_met + toward)
    c.status, c.adjudicated_on, c.allowed_total = "adjudicated", day, allowed
    c.patient_responsibility, c.payable = share, money(allowed - share)


class InsuranceClaims(Service):
    """Health-insurance claims: policies, eligibility, claim lines, submission, adjudication, denial, payment."""

    name = "insurance_claims"
    description = ("Health-insurance claims clearinghouse (X12 837/835): member policies and deductibles, "
                   "eligibility checks, claims with CPT lines, adjudication, denials and payments.")
    domain = "healthcare"
    spec_source = None
    State = InsuranceClaimsState

    def _policy(self, policy_id: str) -> Policy:
        return self.lookup(self.state.policies, policy_id, "policy")

    def _claim(self, claim_id: str, allowed: tuple[str, ...] = (), action: str = "") -> Claim:
        c = self.lookup(self.state.claims, claim_id, "claim")
        if allowed and c.status not in allowed:
            raise Conflict(f"claim {c.id} is {c.status}; {action} needs status {' or '.join(allowed)}.")
        return c

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Policy])
    def search_policies(self, patient_id: Optional[Id("patient")] = None, member_id: Optional[str] = None,
                        status: Optional[Literal["active", "terminated"]] = None) -> list[dict]:
        """Find policies by patient, member id or status.

        Args:
            patient_id: the insured patient, e.g. PAT-0001.
            member_id: member id from the insurance card.
            status: active or terminated.
        """
        return [p.model_dump() for p in self.state.policies.values()
                if (patient_id is None or p.patient_id == patient_id)
                and (member_id is None or p.member_id.lower() == member_id.lower())
                and (status is None or p.status == status)]

    @tool(read_only=True, returns=Policy)
    def get_policy(self, policy_id: Id("insurance_policy")) -> dict:
        """Get one policy with its remaining deductible.

        Args:
            policy_id: the policy id, e.g. POL-0001.
        """
        p = self._policy(policy_id)
        return {**p.model_dump(), "deductible_remaining": money(max(p.deductible - p.deductible_met, 0.0))}

    @tool(read_only=True)
    def get_fee_schedule(self) -> dict:
        """The payer fee schedule (allowed USD per unit by CPT code), denial reason codes and filing limit."""
        return {"codes": {k: f._asdict() for k, f in FEE_SCHEDULE.items()}, "denial_reasons": dict(DENIAL_REASONS),
                "timely_filing_days": TIMELY_FILING_DAYS, "examiners": list(EXAMINERS)}

    @tool(read_only=True, returns=list[Claim])
    def list_claims(self, status: Optional[ClaimStatus] = None, patient_id: Optional[Id("patient")] = None,
                    policy_id: Optional[Id("insurance_policy")] = None,
                    appointment_id: Optional[Id("appointment")] = None,
                    limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List claims (without lines) by status, patient, policy or visit.

        Args:
            status: the claim status.
            patient_id: only this patient's claims.
            policy_id: only claims on this policy.
            appointment_id: only the claim of this visit.
            limit: maximum number of claims (1-200).
        """
        return [c.model_dump(exclude={"lines"}) for c in self.state.claims.values()
                if (status is None or c.status == status) and (patient_id is None or c.patient_id == patient_id)
                and (policy_id is None or c.policy_id == policy_id)
                and (appointment_id is None or c.appointment_id == appointment_id)][:limit]

    @tool(read_only=True, returns=Claim)
    def get_claim(self, claim_id: Id("claim")) -> dict:
        """Get one claim with its lines and adjudication.

        Args:
            claim_id: the claim id, e.g. CLM-0001.
        """
        return self._claim(claim_id).model_dump()

    @tool(read_only=True, returns=list[Remittance])
    def list_remittances(self, claim_id: Optional[Id("claim")] = None) -> list[dict]:
        """List payments (835 remittances), optionally of one claim.

        Args:
            claim_id: only this claim's payments.
        """
        return [r.model_dump() for r in self.state.remittances.values() if claim_id is None or r.claim_id == claim_id]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=EligibilityCheck)
    def check_eligibility(self, policy_id: Id("insurance_policy"), service_date: Date,
                          reference: str = Field(default="", max_length=120)) -> dict:
        """Ask the payer whether a policy covers a date of service (270/271); the inquiry is logged.

        Args:
            policy_id: the policy.
            service_date: date of service (YYYY-MM-DD).
            reference: the provider's reference, e.g. the appointment.
        """
        p = self._policy(policy_id)
        e = EligibilityCheck(id=self.new_id("ELG"), policy_id=p.id, service_date=service_date,
                             eligible=covers(p, service_date),
                             deductible_remaining=money(max(p.deductible - p.deductible_met, 0.0)),
                             reference=reference, checked_at=self.now())
        self.state.eligibility_checks[e.id] = e
        return e.model_dump()

    @tool(read_only=False, returns=Claim)
    def create_claim(self, policy_id: Id("insurance_policy"), service_date: Date,
                     diagnosis_codes: list[str] = Field(min_length=1, max_length=12),
                     appointment_id: Optional[Id("appointment")] = None) -> dict:
        """Start a draft claim on a policy for a date of service.

        Args:
            policy_id: the patient's policy.
            service_date: date of service (YYYY-MM-DD).
            diagnosis_codes: ICD-10 codes, e.g. ["I10"].
            appointment_id: the visit billed, e.g. APT-0001.
        """
        p = self._policy(policy_id)
        if appointment_id and any(c.appointment_id == appointment_id and c.status != "void"
                                  for c in self.state.claims.values()):
            raise Conflict(f"visit {appointment_id} already has a claim; call list_claims with its appointment_id.")
        c = Claim(id=self.new_id("CLM"), policy_id=p.id, patient_id=p.patient_id, appointment_id=appointment_id,
                  provider_npi=CLINIC_NPI, service_date=service_date, diagnosis_codes=diagnosis_codes, status="draft",
                  created_on=self.today)
        self.state.claims[c.id] = c
        return c.model_dump()

    @tool(read_only=False, returns=Claim)
    def add_claim_line(self, claim_id: Id("claim"), cpt_code: CptCode, charge: Money = Field(ge=0.01, le=MONEY_MAX),
                       units: int = Field(default=1, ge=1, le=99)) -> dict:
        """Add a service line to a draft claim.

        Args:
            claim_id: the draft claim.
            cpt_code: procedure code from the fee schedule.
            charge: billed charge in USD for all units.
            units: units of service.
        """
        c = self._claim(claim_id, ("draft",), "adding lines")
        c.lines.append(ClaimLine(cpt_code=cpt_code, description=FEE_SCHEDULE[cpt_code].description, units=units,
                                 charge=money(charge)))
        c.total_charge = money(sum(x.charge for x in c.lines))
        return c.model_dump()

    @tool(read_only=False, destructive=True, returns=Claim)
    def remove_claim_line(self, claim_id: Id("claim"), line_number: int = Field(ge=1)) -> dict:
        """Remove a service line (1-based) from a draft claim.

        Args:
            claim_id: the draft claim.
            line_number: 1-based position of the line.
        """
        c = self._claim(claim_id, ("draft",), "removing lines")
        if line_number > len(c.lines):
            raise InvalidArgument(f"claim {c.id} has {len(c.lines)} lines; line_number must be 1-{len(c.lines)}.")
        c.lines.pop(line_number - 1)
        c.total_charge = money(sum(x.charge for x in c.lines))
        return c.model_dump()

    @tool(read_only=False, returns=Claim)
    def submit_claim(self, claim_id: Id("claim")) -> dict:
        """Submit a draft claim to the payer (837); refused (422) without lines, for a future date,
        a date the policy does not cover, or past timely filing.

        Args:
            claim_id: the draft claim.
        """
        c = self._claim(claim_id, ("draft",), "submission")
        p = self.state.policies[c.policy_id]
        if not c.lines:
            raise Unprocessable(f"claim {c.id} has no service lines.")
        if c.service_date > self.today:
            raise Unprocessable(f"date of service {c.service_date} is in the future.")
        if not covers(p, c.service_date):
            raise Unprocessable(f"policy {p.id} ({p.status}) does not cover {c.service_date}; "
                                "call search_policies for the patient's active policy.")
        if (self.today - c.service_date).days > TIMELY_FILING_DAYS:
            raise Unprocessable(f"date of service {c.service_date} is past the {TIMELY_FILING_DAYS}-day filing limit.")
        c.status, c.submitted_on = "submitted", self.today
        return c.model_dump()

    @tool(read_only=False, returns=Claim)
    def adjudicate_claim(self, claim_id: Id("claim")) -> dict:
        """Price a submitted claim: allowed amounts, deductible, coinsurance and what the plan pays.

        Args:
            claim_id: the submitted claim.
        """
        c = self._claim(claim_id, ("submitted",), "adjudication")
        adjudicate(c, self.state.policies[c.policy_id], self.today)
        return c.model_dump()

    @tool(read_only=False, returns=Claim)
    def deny_claim(self, claim_id: Id("claim"), reason_code: DenialCode,
                   note: str = Field(default="", max_length=500)) -> dict:
        """Deny a submitted claim with a CARC reason code.

        Args:
            claim_id: the submitted claim.
            reason_code: CO-16, CO-27, CO-29, CO-50, CO-97 or CO-197.
            note: explanation added to the claim's notes.
        """
        c = self._claim(claim_id, ("submitted",), "denial")
        c.status, c.denial_reason = "denied", reason_code
        if note:
            c.notes.append(note)
        return c.model_dump()

    @tool(read_only=False, returns=Claim)
    def appeal_claim(self, claim_id: Id("claim"), note: str = Field(min_length=3, max_length=500)) -> dict:
        """Appeal a denied claim: it is resubmitted for adjudication with the note.

        Args:
            claim_id: the denied claim.
            note: the grounds of the appeal.
        """
        c = self._claim(claim_id, ("denied",), "an appeal")
        c.status, c.denial_reason, c.submitted_on = "submitted", None, self.today
        c.notes.append(f"Appeal: {note}")
        return c.model_dump()

    @tool(read_only=False, returns=Claim)
    def pay_claim(self, claim_id: Id("claim"), amount: Money = Field(ge=0.01, le=MONEY_MAX),
                  trace_number: str = Field(min_length=3, max_length=60)) -> dict:
        """Pay an adjudicated claim (835); never more than what the plan owes on the allowed amount (422).

        Args:
            claim_id: the adjudicated claim.
            amount: amount paid in USD.
            trace_number: EFT or check trace number.
        """
        c = self._claim(claim_id, ("adjudicated",), "payment")
        amount = money(amount)
        if amount > (c.payable or 0.0):
            raise Unprocessable(f"payment {amount:.2f} exceeds the plan's share {c.payable:.2f} of the allowed "
                                f"amount {c.allowed_total:.2f} on claim {c.id}.")
        r = Remittance(id=self.new_id("ERA"), claim_id=c.id, amount=amount, trace_number=trace_number,
                       paid_on=self.today)
        self.state.remittances[r.id] = r
        c.status, c.paid_amount, c.paid_on = "paid", amount, self.today
        return c.model_dump()

    @tool(read_only=False, destructive=True, returns=Claim)
    def void_claim(self, claim_id: Id("claim")) -> dict:
        """Void a draft or submitted claim (it is withdrawn).

        Args:
            claim_id: the claim.
        """
        c = self._claim(claim_id, ("draft", "submitted"), "voiding")
        c.status = "void"
        return c.model_dump()

    @tool(read_only=False, returns=Claim)
    def add_claim_note(self, claim_id: Id("claim"), note: str = Field(min_length=1, max_length=1000)) -> dict:
        """Add a note to a claim (any status).

        Args:
            claim_id: the claim.
            note: the note text.
        """
        c = self._claim(claim_id)
        c.notes.append(note)
        return c.model_dump()

    @tool(read_only=False, idempotent=True, returns=Claim)
    def assign_claim(self, claim_id: Id("claim"), examiner_email: Email) -> dict:
        """Assign an open claim (not paid or void) to a claims examiner.

        Args:
            claim_id: the claim.
            examiner_email: an examiner from get_fee_schedule's examiners.
        """
        c = self._claim(claim_id, ("draft", "submitted", "adjudicated", "denied"), "assignment")
        who = examiner_email.lower()
        if who not in EXAMINERS:
            raise NotFound(f"{examiner_email} is not a claims examiner; examiners: {', '.join(EXAMINERS)}.")
        c.assigned_to = who
        return c.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> InsuranceClaimsState:
        state = InsuranceClaimsState()
        seed_claims(state, rng, today)
        return state


__all__ = ["Claim", "ClaimLine", "EligibilityCheck", "InsuranceClaims", "InsuranceClaimsState", "Policy",
           "Remittance", "adjudicate", "covers"]
