"""Insurance eligibility: payer eligibility and benefits checks after Availity's Coverages API (X12 270/271).

No eligibility server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows Availity's REST APIs:
``POST /v1/coverages`` (form fields ``payerId``, ``memberId``,
``patientLastName``, ``patientFirstName``, ``patientBirthDate``,
``providerNpi``, ``serviceType``, ``asOfDate``) answered with the payer's 271
(``plans[].status`` active / inactive, ``planName``, ``groupNumber``,
``coverageStartDate`` / ``coverageEndDate``, ``insuranceType``, and
``benefits[]`` per service type with copayment, coinsurance, deductible and
out-of-pocket amounts and remaining amounts, in and out of network,
``authorizationRequired``), ``GET /v1/coverages`` (search), ``GET
/v1/coverages/{id}``, ``DELETE /v1/coverages/{id}``, the payer list
(``/v1/availity-payer-list``), payer configurations (``/v1/configurations?
type=270``: required fields, supported service types, date window), the
organization's Express Entry providers, and the Patient Cost Estimator
(an estimate of what the patient owes for a CPT code on a coverage). The
rules are in ``_insurance_eligibility_rules``.

Rules of the real product: a payer answers only the service types its
configuration lists (400) and dates within its inquiry window (AAA 62); the
member must match by member id (AAA 75), last name (AAA 73) and, where the
payer requires it, birth date (AAA 58 / 71); the provider must be a
registered NPI; an identical inquiry made the same day is answered from
Availity's cache; a coverage with an active cost estimate cannot be deleted;
estimates need an active plan and a coverage holding the service's
benefits. Members, payers and providers are the clinic's
(``insurance_claims`` policies, ``patient_scheduling`` practitioners); a
coverage names the visit (``appointment_id``) it was run for. Left out: the
asynchronous "In Progress" polling, dependents' coverage, 276/278
transactions (``insurance_claims``, ``prior_auth``) and payer-specific
extra fields.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Id
from compoworld_gym.envs.services import _insurance_eligibility_rules as rules
from compoworld_gym.envs.services._blocks import eq, select
from compoworld_gym.envs.services._insurance_claims_rules import FEE_SCHEDULE
from compoworld_gym.envs.services._insurance_eligibility_models import (
    Benefit, CostEstimate, Coverage, EstimateStatus, InsuranceEligibilityState, Payer, PlanStatus, Provider,
    ServiceTypeCode,
)
from compoworld_gym.envs.services._insurance_eligibility_seed import build_state
from compoworld_gym.envs.services.insurance_claims import InsuranceClaims
from compoworld_gym.envs.services.patient_scheduling import PatientScheduling
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound
from compoworld_gym.service import DAY_START, Service, tool

Npi = str


class InsuranceEligibility(Service):
    """Availity-style eligibility and benefits: payers, providers, coverages (270/271) and cost estimates."""

    name = "insurance_eligibility"
    description = ("Insurance eligibility and benefits (Availity Coverages, X12 270/271): check a patient's plan "
                   "with the payer, plan status, copays, deductible and out-of-pocket remaining in and out of "
                   "network, and patient cost estimates.")
    domain = "healthcare"
    spec_source = None
    State = InsuranceEligibilityState

    # ---------------------------------------------------------------- helpers
    def _payer(self, payer_id: str) -> Payer:
        return self.lookup(self.state.payers, payer_id, "payer")

    def _coverage(self, coverage_id: str) -> Coverage:
        return self.lookup(self.state.coverages, coverage_id, "coverage")

    def _estimate(self, estimate_id: str) -> CostEstimate:
        return self.lookup(self.state.estimates, estimate_id, "cost estimate")

    def _provider(self, npi: str) -> Provider:
        p = self.state.providers.get(npi)
        if p is None:
            raise NotFound(f"NPI {npi} is not one of the organization's registered providers (list_providers); "
                           "the payer would answer AAA 43 Invalid/Missing Provider Identification.")
        return p

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Payer])
    def list_payers(self, name: Optional[str] = Field(default=None, max_length=80),
                    transaction: Optional[Literal["270", "276", "278"]] = None) -> list[dict]:
        """List the payers of the payer list, by name text or the X12 transaction they take.

        Args:
            name: text in the payer's name (case-insensitive), e.g. cigna.
            transaction: 270 (eligibility), 276 (claim status) or 278 (authorization).
        """
        keep = (lambda p: name.lower() in p.name.lower()) if name else None
        has = (lambda p: transaction in p.transactions) if transaction else None
        return [p.model_dump() for p in select(self.state.payers.values(), keep, has)]

    @tool(read_only=True)
    def get_payer_configuration(self, payer_id: str = Field(min_length=2, max_length=20)) -> dict:
        """A payer's 270 configuration: required fields, the service types it answers and its date window.

        Args:
            payer_id: Availity payer id, e.g. 62308 (Cigna).
        """
        p = self._payer(payer_id)
        required = ["payerId", "providerNpi", "memberId", "patientLastName"] + (
            ["patientBirthDate"] if p.requires_birth_date else [])
        return {"payer_id": p.id, "payer_name": p.name, "required_fields": required,
                "service_types": [{"code": c, "name": rules.SERVICE_TYPES[c][0]} for c in p.service_types],
                "earliest_as_of_date": self.today - dt.timedelta(days=p.max_days_back),
                "latest_as_of_date": self.today + dt.timedelta(days=p.max_days_ahead)}

    @tool(read_only=True)
    def list_service_types(self) -> list[dict]:
        """The X12 service type codes an inquiry can ask about, with their names."""
        return [{"code": c, "name": n} for c, (n, _) in rules.SERVICE_TYPES.items()]

    @tool(read_only=True, returns=list[Provider])
    def list_providers(self, payer_id: Optional[str] = Field(default=None, max_length=20),
                       specialty: Optional[str] = Field(default=None, max_length=60)) -> list[dict]:
        """The organization's registered providers (NPIs); with a payer, whether each is in its network.

        Args:
            payer_id: Availity payer id: adds in_network for that payer.
            specialty: text in the specialty (case-insensitive), e.g. cardiology.
        """
        if payer_id is not None:
            self._payer(payer_id)
        keep = (lambda p: specialty.lower() in p.specialty.lower()) if specialty else None
        rows = select(self.state.providers.values(), keep)
        return [{**p.model_dump(), **({"in_network": payer_id not in p.out_of_network_payers} if payer_id else {})}
                for p in rows]

    @tool(read_only=True, returns=list[Coverage])
    def search_coverages(self, payer_id: Optional[str] = Field(default=None, max_length=20),
                         member_id: Optional[str] = Field(default=None, max_length=40),
                         patient_id: Optional[Id("patient")] = None,
                         patient_last_name: Optional[str] = Field(default=None, max_length=60),
                         appointment_id: Optional[Id("appointment")] = None,
                         policy_id: Optional[Id("insurance_policy")] = None, plan_status: Optional[PlanStatus] = None,
                         as_of_date: Optional[Date] = None, limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search coverages, newest inquiry first.

        Args:
            payer_id: Availity payer id.
            member_id: member id sent (case-insensitive).
            patient_id: the clinic's patient id, e.g. PAT-0004.
            patient_last_name: patient's last name (case-insensitive).
            appointment_id: the visit the inquiry was run for, e.g. APT-0003.
            policy_id: the policy the payer matched, e.g. POL-0017.
            plan_status: active or inactive.
            as_of_date: date of service asked about (YYYY-MM-DD).
            limit: maximum number of coverages (1-200).
        """
        mid = (lambda c: c.member_id.lower() == member_id.strip().lower()) if member_id else None
        last = (lambda c: c.patient_last_name.lower() == patient_last_name.strip().lower()) if patient_last_name \
            else None
        rows = sorted(select(self.state.coverages.values(), eq("payer_id", payer_id), mid, eq("patient_id", patient_id),
                             last, eq("appointment_id", appointment_id), eq("policy_id", policy_id),
                             eq("plan_status", plan_status), eq("as_of_date", as_of_date)),
                      key=lambda c: (c.requested_at, c.id), reverse=True)
        return [c.model_dump() for c in rows[:limit]]

    @tool(read_only=True, returns=Coverage)
    def get_coverage(self, coverage_id: Id("coverage")) -> dict:
        """Get one coverage: the plan's status, its accumulators and its benefits per service type.

        Args:
            coverage_id: the coverage id, e.g. COV-0003.
        """
        return self._coverage(coverage_id).model_dump()

    @tool(read_only=True, returns=Benefit)
    def get_coverage_benefit(self, coverage_id: Id("coverage"), service_type: ServiceTypeCode) -> dict:
        """One service type's benefits on a coverage, with the deductible and out-of-pocket still to pay.

        Args:
            coverage_id: the coverage.
            service_type: X12 service type code, e.g. 98 (office visit) or UC (urgent care).
        """
        c = self._coverage(coverage_id)
        if c.plan_status != "active":
            raise NotFound(f"coverage {c.id} shows the plan inactive on {c.as_of_date}: it has no benefits.")
        b = next((x for x in c.benefits if x.service_type == service_type), None)
        if b is None:
            raise NotFound(f"coverage {c.id} was run for service type {c.service_type}; it holds no benefits of "
                           f"type {service_type}.")
        return {**b.model_dump(), "coverage_id": c.id, "in_network": c.in_network,
                "deductible_remaining": c.deductible_remaining_in_network if c.in_network
                else c.deductible_remaining_out_of_network,
                "out_of_pocket_remaining": c.out_of_pocket_remaining_in_network if c.in_network
                else c.out_of_pocket_remaining_out_of_network}

    @tool(read_only=True, returns=list[CostEstimate])
    def list_cost_estimates(self, coverage_id: Optional[Id("coverage")] = None,
                            patient_id: Optional[Id("patient")] = None, status: Optional[EstimateStatus] = None,
                            limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List patient cost estimates by coverage, patient or status.

        Args:
            coverage_id: the coverage the estimates use.
            patient_id: the clinic's patient id.
            status: active or void.
            limit: maximum number of estimates (1-200).
        """
        rows = select(self.state.estimates.values(), eq("coverage_id", coverage_id), eq("patient_id", patient_id),
                      eq("status", status), limit=limit)
        return [e.model_dump() for e in rows]

    @tool(read_only=True, returns=CostEstimate)
    def get_cost_estimate(self, estimate_id: str = Field(min_length=3, max_length=20)) -> dict:
        """Get one patient cost estimate.

        Args:
            estimate_id: the estimate id, e.g. EST-0002.
        """
        return self._estimate(estimate_id).model_dump()

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Coverage)
    def create_coverage(self, payer_id: str = Field(min_length=2, max_length=20),
                        member_id: str = Field(min_length=2, max_length=40, pattern=r"^[A-Za-z0-9-]+$"),
                        patient_last_name: str = Field(min_length=1, max_length=60),
                        provider_npi: Npi = Field(pattern=r"^\d{10}$"),
                        patient_birth_date: Optional[Date] = None,
                        patient_first_name: Optional[str] = Field(default=None, max_length=60),
                        service_type: ServiceTypeCode = "30", as_of_date: Optional[Date] = None,
                        patient_id: Optional[Id("patient")] = None,
                        appointment_id: Optional[Id("appointment")] = None) -> dict:
        """Check a member's eligibility and benefits with the payer (270); the payer's 271 is the coverage.

        An identical inquiry already made today is answered from the cache (no new coverage).

        Args:
            payer_id: Availity payer id (list_payers), e.g. 60054 for Aetna.
            member_id: member id on the insurance card.
            patient_last_name: patient's last name as on the card.
            provider_npi: NPI of the registered provider asking (list_providers).
            patient_birth_date: patient's date of birth (required by most payers).
            patient_first_name: patient's first name.
            service_type: X12 service type code; 30 returns all the plan's benefits.
            as_of_date: date of service to check (default today).
            patient_id: the clinic's patient id, kept with the coverage.
            appointment_id: the visit the check is for, kept with the coverage.
        """
        payer = self._payer(payer_id)
        provider = self._provider(provider_npi)
        if "270" not in payer.transactions:
            raise InvalidArgument(f"{payer.name} does not take eligibility inquiries (270) through Availity.")
        if service_type not in payer.service_types:
            raise InvalidArgument(f"{payer.name} does not answer service type {service_type}; ask for 30 (all "
                                  "benefits) or a type from get_payer_configuration.")
        day = as_of_date or self.today
        rules.check_window(payer, day, self.today)
        member = rules.find_member(self.state, payer, member_id, patient_last_name, patient_birth_date)
        if patient_id is not None and patient_id != member.patient_id:
            raise InvalidArgument(f"member {member.member_id} is patient {member.patient_id}, not {patient_id}.")
        for c in self.state.coverages.values():
            if ((c.payer_id, c.member_id, c.service_type, c.as_of_date, c.provider_npi)
                    == (payer.id, member.member_id, service_type, day, provider.npi)
                    and c.requested_at.date() == self.today and c.appointment_id == (appointment_id or c.appointment_id)):
                return {**c.model_dump(), "cached": True}
        cov = Coverage(id=self.new_id("COV"), payer_id=payer.id, payer_name=payer.name, member_id=member.member_id,
                       patient_first_name=patient_first_name or member.first_name,
                       patient_last_name=patient_last_name.strip(),
                       patient_birth_date=patient_birth_date or member.birth_date, patient_id=patient_id,
                       appointment_id=appointment_id, provider_npi=provider.npi, provider_name=provider.name,
                       service_type=service_type, as_of_date=day, requested_at=self.now(), plan_status="inactive",
                       plan_name=member.plan_name, group_number=member.group_number,
                       insurance_type=member.insurance_type, effective_date=member.effective_date, in_network=True)
        self.state.coverages[cov.id] = rules.answer(cov, member, payer, provider)
        return {**cov.model_dump(), "cached": False}

    @tool(read_only=False, destructive=True)
    def delete_coverage(self, coverage_id: Id("coverage")) -> dict:
        """Delete a coverage from the organization's results (none of its cost estimates may be active).

        Args:
            coverage_id: the coverage.
        """
        c = self._coverage(coverage_id)
        live = [e.id for e in self.state.estimates.values() if e.coverage_id == c.id and e.status == "active"]
        if live:
            raise Conflict(f"coverage {c.id} backs active cost estimate(s) {', '.join(live)}; void them first.")
        del self.state.coverages[c.id]
        return {"id": c.id, "deleted": True}

    @tool(read_only=False, returns=Coverage)
    def add_coverage_note(self, coverage_id: Id("coverage"), note: str = Field(min_length=1, max_length=1000)) -> dict:
        """Add a front-desk note to a coverage (e.g. the copay collected, a call to the payer).

        Args:
            coverage_id: the coverage.
            note: the note text.
        """
        c = self._coverage(coverage_id)
        c.notes.append(note.strip())
        return c.model_dump()

    @tool(read_only=False, returns=CostEstimate)
    def create_cost_estimate(self, coverage_id: Id("coverage"), procedure_code: str = Field(pattern=r"^\d{5}$"),
                             units: int = Field(default=1, ge=1, le=20)) -> dict:
        """Estimate what the patient owes for a CPT code on an active coverage (copay, deductible, coinsurance).

        Args:
            coverage_id: an active coverage holding the service's benefits (service type 30 holds all).
            procedure_code: CPT code of the fee schedule, e.g. 99214.
            units: units of service.
        """
        c = self._coverage(coverage_id)
        est = CostEstimate(id="EST-0", coverage_id=c.id, patient_id=c.patient_id, procedure_code=procedure_code,
                           procedure_description=FEE_SCHEDULE[procedure_code].description
                           if procedure_code in FEE_SCHEDULE else "", units=units, service_type=c.service_type,
                           in_network=c.in_network, allowed_amount=0.0, copay=0.0, deductible_applied=0.0,
                           coinsurance=0.0, patient_responsibility=0.0, plan_pays=0.0, status="active",
                           created_at=dt.datetime.combine(self.today, DAY_START))
        rules.estimate(est, c, rules.is_specialist(self.state.providers[c.provider_npi]))
        est.id, est.created_at = self.new_id("EST"), self.now()
        self.state.estimates[est.id] = CostEstimate.model_validate(est.model_dump())
        return est.model_dump()

    @tool(read_only=False, destructive=True, returns=CostEstimate)
    def void_cost_estimate(self, estimate_id: str = Field(min_length=3, max_length=20),
                           reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Void a patient cost estimate that no longer applies.

        Args:
            estimate_id: an active estimate.
            reason: why it no longer applies.
        """
        e = self._estimate(estimate_id)
        if e.status != "active":
            raise Conflict(f"cost estimate {e.id} is already void.")
        e.status, e.void_reason = "void", reason.strip()
        return e.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> InsuranceEligibilityState:
        """Seeded state on the claims clearinghouse's policies and the scheduled visits of the same seed."""
        rng = random.Random(f"{cls.name}:{seed}")
        return build_state(rng, today, InsuranceClaims.seed_state(seed, today),
                           PatientScheduling.seed_state(seed, today))

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> InsuranceEligibilityState:
        return build_state(rng, today, InsuranceClaims.build_seed_state(fake, rng, today),
                           PatientScheduling.build_seed_state(fake, rng, today))


__all__ = ["InsuranceEligibility"]
