"""Prior authorization: payer prior-auth requests after HL7 Da Vinci PAS and CoverMyMeds ePA.

No prior-authorization server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Da Vinci Prior
Authorization Support (PAS) FHIR IG and the CoverMyMeds ePA workflow: a
request is a PAS ``Claim`` with ``use = preauthorization`` (``patient``,
``insurance.coverage`` with the member id, ``provider``, ``item.productOrService``
as an RxNorm drug or a CPT service, ``quantity``, ``servicedPeriod``,
``diagnosis``, ``supportingInfo`` clinical notes), the payer's answer a PAS
``ClaimResponse`` (X12 278 review action A1 certified / A2 partial / A3 not
certified / A4 pended, reason codes, ``preAuthRef`` authorization number,
approved units and ``preAuthPeriod``), with CoverMyMeds' statuses draft,
submitted (sent to plan), pended, approved, denied, appealed and cancelled
(archived). The rules are in ``_prior_auth_rules``. Coverages are the claims
clearinghouse's policies (``insurance_claims``); a drug request names the
``pharmacy`` prescription it is for. Left out: the X12 278 / FHIR transport,
Da Vinci CRD/DTR questionnaires and attachments, which need a live payer.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Id
from compoworld_gym.envs.services import _prior_auth_rules as rules
from compoworld_gym.envs.services._blocks import eq, select
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._patient_scheduling_seed import PRACTITIONERS
from compoworld_gym.envs.services._prior_auth_models import (
    Appeal, Decision, MemberCoverage, Outcome, PaStatus, PriorAuthRequest, PriorAuthState,
)
from compoworld_gym.envs.services._prior_auth_rules import APPEAL_DAYS, CODES, DENIAL_REASONS, PEND_REASONS
from compoworld_gym.envs.services._prior_auth_seed import seed_prior_auth
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

_DOCTORS = {d.id: d for d in PRACTITIONERS}


class PriorAuth(Service):
    """Prior authorization: member coverage, requests, submission, payer decisions, appeals, approvals."""

    name = "prior_auth"
    description = ("Prior authorization (Da Vinci PAS / CoverMyMeds): requests for specialty drugs and "
                   "services on a member's policy, clinical notes, payer decisions, appeals and approval windows.")
    domain = "healthcare"
    spec_source = None
    State = PriorAuthState

    # ---------------------------------------------------------------- helpers
    def _req(self, pa_id: str, action: Optional[str] = None) -> PriorAuthRequest:
        """The request, checked against ``action``'s statuses in :data:`rules.REQUEST` when given (409)."""
        req = self.lookup(self.state.requests, pa_id, "prior authorization")
        if action is not None:
            rules.REQUEST.check(req.id, req.status, action)
        return req

    def _view(self, req: PriorAuthRequest) -> dict:
        deadline = rules.appeal_deadline(req)
        return {**req.model_dump(), "latest_decision": req.decisions[-1].model_dump() if req.decisions else None,
                "appeal_deadline": deadline,
                "can_appeal": deadline is not None and req.appeal is None and self.today <= deadline}

    def _active_coverage(self, policy_id: str, patient_id: str) -> MemberCoverage:
        cov = self.lookup(self.state.coverages, policy_id, "coverage")
        if cov.patient_id != patient_id:
            raise Unprocessable(f"policy {cov.id} belongs to {cov.patient_id}, not {patient_id}; "
                                "call get_member_coverage.")
        if cov.status != "active":
            raise Unprocessable(f"policy {cov.id} is {cov.status} (ended {cov.coverage_end}); "
                                "call get_member_coverage for the patient's active policy.")
        return cov

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_pa_requirements(self) -> dict:
        """The codes the payers authorize (unit cost USD, units limit), denial and pend reason codes, appeal window."""
        return {"codes": [c._asdict() for c in CODES.values()], "denial_reasons": dict(DENIAL_REASONS),
                "pend_reasons": dict(PEND_REASONS), "appeal_days": APPEAL_DAYS,
                "max_period_days": rules.MAX_PERIOD_DAYS}

    @tool(read_only=True, returns=list[MemberCoverage])
    def get_member_coverage(self, patient_id: Optional[Id("patient")] = None, member_id: Optional[str] = None
                            ) -> list[dict]:
        """A patient's policies as the payers hold them (active and terminated), by patient or member id.

        Args:
            patient_id: the patient, e.g. PAT-0004.
            member_id: member id from the insurance card.
        """
        return [c.model_dump() for c in select(self.state.coverages.values(), eq("patient_id", patient_id),
                                               eq("member_id", member_id))]

    @tool(read_only=True, returns=list[PriorAuthRequest])
    def search_prior_auths(self, patient_id: Optional[Id("patient")] = None, status: Optional[PaStatus] = None,
                           policy_id: Optional[Id("insurance_policy")] = None,
                           prescription_id: Optional[Id("prescription")] = None, code: Optional[str] = None,
                           limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Find requests by patient, status, policy, prescription or requested code.

        Args:
            patient_id: only this patient's requests.
            status: draft, submitted, pended, approved, denied, appealed or cancelled.
            policy_id: only requests on this policy.
            prescription_id: only the request for this prescription, e.g. RX-0008.
            code: only requests for this RxNorm or CPT code.
            limit: maximum number of requests (1-200).
        """
        rows = select(self.state.requests.values(), eq("patient_id", patient_id), eq("status", status),
                      eq("policy_id", policy_id), eq("prescription_id", prescription_id), eq("code", code),
                      limit=limit)
        return [self._view(r) for r in rows]

    @tool(read_only=True, returns=PriorAuthRequest)
    def get_prior_auth(self, prior_authorization_id: Id("prior_authorization")) -> dict:
        """One request with its decisions, appeal and appeal deadline.

        Args:
            prior_authorization_id: the request id, e.g. PA-0001.
        """
        return self._view(self._req(prior_authorization_id))

    @tool(read_only=True)
    def check_authorization(self, prior_authorization_id: Id("prior_authorization"), service_date: Date,
                            units: int = Field(default=1, ge=1, le=1000)) -> dict:
        """Whether an approval covers a date of service and a number of units (before billing or dispensing).

        Args:
            prior_authorization_id: the request.
            service_date: the date of service (YYYY-MM-DD).
            units: units to be billed or dispensed.
        """
        req = self._req(prior_authorization_id)
        dec = rules.approval(req)
        why = ("" if dec is None or (dec.valid_from <= service_date <= dec.valid_until and units <= dec.approved_units)
               else f"the approval covers {dec.valid_from} to {dec.valid_until}, {dec.approved_units} units")
        return {"prior_authorization_id": req.id, "authorized": dec is not None and not why,
                "reason": f"request is {req.status}" if dec is None else why,
                "auth_number": dec.auth_number if dec else None, "approved_units": dec.approved_units if dec else None,
                "valid_from": dec.valid_from if dec else None, "valid_until": dec.valid_until if dec else None}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=PriorAuthRequest)
    def create_prior_auth(self, patient_id: Id("patient"), policy_id: Id("insurance_policy"),
                          requester_id: Id("practitioner"), code: str, quantity: int = Field(ge=1, le=1000),
                          service_start: Date = Field(), service_end: Optional[Date] = None,
                          diagnosis_codes: list[str] = Field(min_length=1, max_length=12),
                          prescription_id: Optional[Id("prescription")] = None,
                          clinical_note: Optional[str] = Field(default=None, min_length=3, max_length=2000)) -> dict:
        """Start a draft request on the patient's active policy for a code on the payer's list (see
        list_pa_requirements), within its units limit and a service period of at most 365 days.

        Args:
            patient_id: the patient.
            policy_id: the patient's active policy, e.g. POL-0017.
            requester_id: the requesting practitioner, e.g. PRA-0005.
            code: RxNorm code of a specialty drug or CPT code of a service.
            quantity: units requested.
            service_start: first day of the requested period (YYYY-MM-DD).
            service_end: last day; default 180 days on for a drug, 60 for a service.
            diagnosis_codes: ICD-10 codes, e.g. ["L20.9"].
            prescription_id: the e-prescription a drug request is for.
            clinical_note: supporting clinical information.
        """
        cov = self._active_coverage(policy_id, patient_id)
        doc = _DOCTORS.get(requester_id)
        if doc is None:
            raise NotFound(f"no practitioner {requester_id!r}; practitioners are {', '.join(_DOCTORS)}.")
        item = CODES.get(code)
        if item is None:
            raise Unprocessable(f"code {code!r} needs no prior authorization or is unknown; see list_pa_requirements.")
        if quantity > item.max_units:
            raise Unprocessable(f"{item.display} is limited to {item.max_units} units a request; {quantity} asked.")
        bad = [d for d in diagnosis_codes if not rules.ICD10.match(d)]
        if bad:
            raise InvalidArgument(f"diagnosis codes {bad} are not ICD-10 codes (e.g. E11.9).")
        rules.check_period(service_start, service_start, self.today)
        end = service_end or service_start + dt.timedelta(days=180 if item.kind == "medication" else 60)
        rules.check_period(service_start, end, self.today)
        dup = [r.id for r in self.state.requests.values() if r.patient_id == patient_id and r.code == code
               and r.status in rules.OPEN]
        if dup:
            raise Conflict(f"{cov.subscriber_name} already has an open request for {code}: {dup[0]}.")
        req = PriorAuthRequest(
            id=self.new_id("PA"), status="draft", patient_id=cov.patient_id, patient_name=cov.subscriber_name,
            policy_id=cov.id, member_id=cov.member_id, payer=cov.payer, requester_id=doc.id, requester_name=doc.name,
            requester_email=doc.email, request_type=item.kind, code=item.code, code_display=item.display,
            quantity=quantity, service_start=service_start, service_end=end, diagnosis_codes=diagnosis_codes,
            prescription_id=prescription_id, estimated_cost=money(quantity * item.unit_cost),
            clinical_notes=[clinical_note] if clinical_note else [], created_on=self.today)
        self.state.requests[req.id] = req
        return self._view(req)

    @tool(read_only=False, returns=PriorAuthRequest)
    def add_clinical_note(self, prior_authorization_id: Id("prior_authorization"),
                          note: str = Field(min_length=3, max_length=2000)) -> dict:
        """Attach supporting clinical information to an open or denied request (supportingInfo).

        Args:
            prior_authorization_id: the request.
            note: the clinical information, e.g. prior therapies tried and failed.
        """
        req = self._req(prior_authorization_id, "adding clinical notes")
        req.clinical_notes.append(note)
        return self._view(req)

    @tool(read_only=False, returns=PriorAuthRequest)
    def submit_prior_auth(self, prior_authorization_id: Id("prior_authorization"),
                          clinical_note: Optional[str] = Field(default=None, min_length=3, max_length=2000)) -> dict:
        """Send a draft (or pended, after answering the payer) request to the payer; it needs at least
        one clinical note (422) and an active policy (422).

        Args:
            prior_authorization_id: the draft or pended request.
            clinical_note: a clinical note to attach first.
        """
        req = self._req(prior_authorization_id, "submission")
        self._active_coverage(req.policy_id, req.patient_id)
        if not req.clinical_notes and not clinical_note:
            raise Unprocessable(f"request {req.id} has no clinical notes; the payer needs supporting "
                                "information (give clinical_note).")
        if clinical_note:
            req.clinical_notes.append(clinical_note)
        req.status, req.submitted_on = "submitted", self.today
        return self._view(req)

    @tool(read_only=False, returns=PriorAuthRequest)
    def record_payer_decision(self, prior_authorization_id: Id("prior_authorization"), outcome: Outcome,
                              reason_code: Optional[str] = None,
                              approved_units: Optional[int] = Field(default=None, ge=1, le=1000),
                              valid_from: Optional[Date] = None, valid_until: Optional[Date] = None,
                              note: str = Field(default="", max_length=500)) -> dict:
        """Record the payer's decision on a submitted or appealed request. An approval grants at most
        the units requested (default all; fewer is partial) for a window of at most 365 days (default
        the requested period) not already over; a denial or pend needs a reason code (422).

        Args:
            prior_authorization_id: the submitted or appealed request.
            outcome: approved, denied or pended.
            reason_code: denial code (MN, ST, DOC, QL, ELIG, OON) or pend code (INFO, MR, P2P).
            approved_units: units approved.
            valid_from: first day the approval covers.
            valid_until: last day the approval covers.
            note: the payer's note.
        """
        req = self._req(prior_authorization_id, "a payer decision")
        dec = self._decide(req, outcome, reason_code, approved_units, valid_from, valid_until, note)
        req.decisions.append(dec)
        req.status = {"approved": "approved", "denied": "denied", "pended": "pended"}[outcome]
        return self._view(req)

    def _decide(self, req: PriorAuthRequest, outcome: str, reason_code: Optional[str], units: Optional[int],
                start: Optional[dt.date], end: Optional[dt.date], note: str) -> Decision:
        """The decision record, every rule checked (422)."""
        if outcome != "approved":
            codes = DENIAL_REASONS if outcome == "denied" else PEND_REASONS
            if reason_code not in codes:
                raise Unprocessable(f"a {outcome} decision needs a reason_code: one of {', '.join(codes)}.")
            return Decision(outcome=outcome, review_action="A3" if outcome == "denied" else "A4",
                            reason_code=reason_code, reason=codes[reason_code], decided_on=self.today, note=note)
        if reason_code is not None:
            raise Unprocessable("an approval takes no reason_code.")
        units = units or req.quantity
        if units > req.quantity:
            raise Unprocessable(f"request {req.id} asks for {req.quantity} units; {units} cannot be approved.")
        start, end = start or req.service_start, end or req.service_end
        rules.check_period(start, end, self.today, "approval window")
        if end < self.today:
            raise Unprocessable(f"an approval window ending {end} is already over.")
        return Decision(outcome="approved", review_action="A1" if units == req.quantity else "A2",
                        decided_on=self.today, auth_number=self.new_id("AUTH"), approved_units=units,
                        valid_from=start, valid_until=end, note=note)

    @tool(read_only=False, returns=PriorAuthRequest)
    def appeal_prior_auth(self, prior_authorization_id: Id("prior_authorization"),
                          note: str = Field(min_length=10, max_length=2000)) -> dict:
        """Appeal a denied request, once and within 30 days of the denial (422 after); the payer decides again.

        Args:
            prior_authorization_id: the denied request.
            note: grounds of the appeal.
        """
        req = self._req(prior_authorization_id, "an appeal")
        if req.appeal is not None:
            raise Conflict(f"request {req.id} was already appealed on {req.appeal.filed_on}; the appeal was denied, "
                           "so only an external review remains.")
        deadline = rules.appeal_deadline(req)
        if self.today > deadline:
            raise Unprocessable(f"the denial of {req.id} on {req.decisions[-1].decided_on} could be appealed until "
                                f"{deadline}; file a new request instead.")
        req.appeal = Appeal(filed_on=self.today, deadline=deadline, note=note)
        req.status = "appealed"
        return self._view(req)

    @tool(read_only=False, destructive=True, returns=PriorAuthRequest)
    def cancel_prior_auth(self, prior_authorization_id: Id("prior_authorization"),
                          reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Cancel a draft, submitted or pended request.

        Args:
            prior_authorization_id: the request.
            reason: why.
        """
        req = self._req(prior_authorization_id, "cancellation")
        req.status, req.cancel_reason = "cancelled", reason
        return self._view(req)

    @tool(read_only=False, returns=PriorAuthRequest)
    def add_prior_auth_note(self, prior_authorization_id: Id("prior_authorization"),
                            note: str = Field(min_length=1, max_length=500)) -> dict:
        """Add a case note to a request (any status).

        Args:
            prior_authorization_id: the request.
            note: the note text.
        """
        req = self._req(prior_authorization_id)
        req.notes.append(note)
        return self._view(req)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> PriorAuthState:
        state = PriorAuthState()
        seed_prior_auth(state, rng, today)
        return state

