"""Insurance claims: a health-claims clearinghouse after the X12 837 / 835 / 270-271 lifecycle.

No claims server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface follows what clearinghouse APIs (Change Healthcare / Optum Medical
Network, Availity) expose: insurance ``policies`` (member id, payer, plan,
coverage dates, annual deductible and how much of it is met, coinsurance),
eligibility inquiries (270/271), professional claims (837P) with CPT-coded
service lines, the payer's adjudication against its fee schedule, denials
with CARC reason codes and payments with remittance advice (835). The rules
are in ``_insurance_claims_rules``. Policies belong to the fixed clinic
registry's patients shared with ``patient_scheduling``; ``appointment_id``
names the visit billed.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, Money
from compoworld_gym.envs.services import _insurance_claims_rules as rules
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._insurance_claims_models import (
    Claim, ClaimLine, ClaimStatus, CptCode, DenialCode, EligibilityCheck, InsuranceClaimsState, Policy, Remittance,
)
from compoworld_gym.envs.services._insurance_claims_rules import DENIAL_REASONS, FEE_SCHEDULE, TIMELY_FILING_DAYS
from compoworld_gym.envs.services._insurance_claims_seed import EXAMINERS, seed_claims
from compoworld_gym.envs.services._patient_scheduling_seed import CLINIC_NPI
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool


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

    def _claim(self, claim_id: str, action: Optional[str] = None) -> Claim:
        """The claim, checked against ``action``'s statuses in :data:`rules.CLAIM` when given (409)."""
        c = self.lookup(self.state.claims, claim_id, "claim")
        if action is not None:
            rules.CLAIM.check(c.id, c.status, action)
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
        return [p.model_dump() for p in select(self.state.policies.values(), eq("patient_id", patient_id),
                                               ieq("member_id", member_id), eq("status", status))]

    @tool(read_only=True, returns=Policy)
    def get_policy(self, policy_id: Id("insurance_policy")) -> dict:
        """Get one policy with its remaining deductible.

        Args:
            policy_id: the policy id, e.g. POL-0001.
        """
        p = self._policy(policy_id)
        return {**p.model_dump(), "deductible_remaining": rules.deductible_remaining(p)}

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
        rows = select(self.state.claims.values(), eq("status", status), eq("patient_id", patient_id),
                      eq("policy_id", policy_id), eq("appointment_id", appointment_id), limit=limit)
        return [c.model_dump(exclude={"lines"}) for c in rows]

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
        return [r.model_dump() for r in select(self.state.remittances.values(), eq("claim_id", claim_id))]

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
                             eligible=rules.covers(p, service_date), deductible_remaining=rules.deductible_remaining(p),
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
        c = self._claim(claim_id, "adding lines")
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
        c = self._claim(claim_id, "removing lines")
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
        c = self._claim(claim_id, "submission")
        rules.check_submittable(c, self.state.policies[c.policy_id], self.today)
        c.status, c.submitted_on = "submitted", self.today
        return c.model_dump()

    @tool(read_only=False, returns=Claim)
    def adjudicate_claim(self, claim_id: Id("claim")) -> dict:
        """Price a submitted claim: allowed amounts, deductible, coinsurance and what the plan pays.

        Args:
            claim_id: the submitted claim.
        """
        c = self._claim(claim_id, "adjudication")
        rules.adjudicate(c, self.state.policies[c.policy_id], self.today)
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
        c = self._claim(claim_id, "denial")
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
        c = self._claim(claim_id, "an appeal")
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
        c = self._claim(claim_id, "payment")
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
        c = self._claim(claim_id, "voiding")
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
        c = self._claim(claim_id, "assignment")
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

