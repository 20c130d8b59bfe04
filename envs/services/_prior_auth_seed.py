"""Seed data of the prior authorization service: the payers' member coverages and nine requests
in every status.

Coverages are the claims clearinghouse's policies (``insurance_claims``), built
by its own seed builder, so policy ``POL-0003`` is patient ``PAT-0003``'s here
too, with the same payer and member id, and patient ``PAT-0004``'s active
policy is the newer ``POL-0017``. The drug requests ``PA-0001`` to ``PA-0003``
are for ``pharmacy``'s specialty prescriptions ``RX-0009``, ``RX-0008`` and
``RX-0012`` (fixed, as those are). Payer notes vary per seed.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import NamedTuple, Optional

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._insurance_claims_models import InsuranceClaimsState
from compoworld_gym.envs.services._insurance_claims_seed import seed_claims
from compoworld_gym.envs.services._patient_scheduling_seed import PATIENTS, PRACTITIONERS
from compoworld_gym.envs.services._prior_auth_models import (
    Appeal, Decision, MemberCoverage, PriorAuthRequest, PriorAuthState,
)
from compoworld_gym.envs.services._prior_auth_rules import APPEAL_DAYS, CODES, DENIAL_REASONS, PEND_REASONS


def clearinghouse_coverages(today: dt.date) -> dict[str, MemberCoverage]:
    """The clearinghouse's policies as member coverages, by policy id.

    Policy ids, members, payers, plans and dates do not depend on the claims
    seed's random stream (only deductibles and claims do), so any stream gives them.
    """
    claims = InsuranceClaimsState()
    seed_claims(claims, random.Random(0), today)
    return {p.id: MemberCoverage(id=p.id, patient_id=p.patient_id, subscriber_name=p.subscriber_name, payer=p.payer,
                                 member_id=p.member_id, plan_name=p.plan_name, status=p.status,
                                 coverage_start=p.coverage_start, coverage_end=p.coverage_end)
            for p in claims.policies.values()}


class SeedPa(NamedTuple):
    """A seeded request: patient, requester, code, units, period start and length (days from today),
    diagnosis, prescription, days ago created, final status, decision days ago, reason code,
    approved units, clinical note."""

    patient: str
    requester: str
    code: str
    units: int
    start: int
    length: int
    diagnosis: str
    prescription: Optional[str]
    created: int
    status: str
    decided: int = 0
    reason: Optional[str] = None
    approved: Optional[int] = None
    note: str = ""


REQUESTS: tuple[SeedPa, ...] = (
    SeedPa("PAT-0007", "PRA-0005", "2002419", 12, -76, 180, "L40.0", "RX-0009", 78, "approved", 75, None, 12,
           "Plaque psoriasis, 12% body surface area; failed 6 months of methotrexate."),
    SeedPa("PAT-0011", "PRA-0005", "1876376", 12, -8, 180, "L20.9", "RX-0008", 9, "pended", 5, "INFO", None,
           "Moderate-to-severe atopic dermatitis, EASI 24."),
    SeedPa("PAT-0004", "PRA-0002", "1991306", 6, -12, 180, "E11.9", "RX-0012", 13, "denied", 8, "ST", None,
           "Type 2 diabetes, HbA1c 8.9% on diet alone."),
    SeedPa("PAT-0014", "PRA-0006", "72148", 1, 3, 60, "M54.50", None, 2, "submitted", note=(
        "Low back pain 8 weeks, failed 6 weeks of physical therapy; new left leg numbness.")),
    SeedPa("PAT-0008", "PRA-0006", "73721", 1, 5, 60, "M25.561", None, 1, "draft"),
    SeedPa("PAT-0013", "PRA-0006", "97110", 24, -10, 60, "M17.11", None, 14, "approved", 10, None, 12,
           "Right knee osteoarthritis; home exercise program failed."),
    SeedPa("PAT-0006", "PRA-0004", "75557", 1, -30, 60, "I42.9", None, 50, "denied", 45, "MN", None,
           "Cardiomyopathy follow-up; echocardiogram 3 months ago."),
    SeedPa("PAT-0002", "PRA-0002", "95810", 1, 10, 60, "G47.33", None, 6, "cancelled",
           note="Snoring, daytime sleepiness."),
    SeedPa("PAT-0010", "PRA-0006", "27447", 1, 20, 90, "M17.12", None, 26, "appealed", 20, "DOC", None,
           "Left knee osteoarthritis, Kellgren-Lawrence grade 4."),
)
_PAYER_NOTES = ("Reviewed by utilization management.", "Decision per plan clinical policy.",
                "Criteria reviewed by a clinical pharmacist.")


def _decision(s: SeedPa, req: PriorAuthRequest, today: dt.date, rng: random.Random, n_auth: int) -> Decision:
    day = today - dt.timedelta(days=s.decided)
    if s.status == "approved":
        return Decision(outcome="approved", review_action="A1" if s.approved == s.units else "A2", decided_on=day,
                        auth_number=f"AUTH-{n_auth:04d}", approved_units=s.approved, valid_from=req.service_start,
                        valid_until=req.service_end, note=rng.choice(_PAYER_NOTES))
    if s.status == "pended":
        return Decision(outcome="pended", review_action="A4", reason_code=s.reason, reason=PEND_REASONS[s.reason],
                        decided_on=day, note="Document failure of topical corticosteroids.")
    return Decision(outcome="denied", review_action="A3", reason_code=s.reason, reason=DENIAL_REASONS[s.reason],
                    decided_on=day, note=rng.choice(_PAYER_NOTES))


def seed_prior_auth(state: PriorAuthState, rng: random.Random, today: dt.date) -> None:
    """Fill a ``PriorAuthState``: the clearinghouse's coverages and the fixed requests, each on its
    patient's active policy, with decisions, an appeal and a cancellation."""
    state.coverages.update(clearinghouse_coverages(today))
    docs, names = {d.id: d for d in PRACTITIONERS}, {p.id: p.name for p in PATIENTS}
    n_auth = 0
    for n, s in enumerate(REQUESTS, start=1):
        cov = next(c for c in state.coverages.values() if c.patient_id == s.patient and c.status == "active")
        doc, item = docs[s.requester], CODES[s.code]
        start = today + dt.timedelta(days=s.start)
        req = PriorAuthRequest(
            id=f"PA-{n:04d}", status=s.status, patient_id=s.patient, patient_name=names[s.patient], policy_id=cov.id,
            member_id=cov.member_id, payer=cov.payer, requester_id=doc.id, requester_name=doc.name,
            requester_email=doc.email, request_type=item.kind, code=item.code, code_display=item.display,
            quantity=s.units, service_start=start, service_end=start + dt.timedelta(days=s.length),
            diagnosis_codes=[s.diagnosis], prescription_id=s.prescription,
            estimated_cost=money(s.units * item.unit_cost),
            clinical_notes=[s.note] if s.note else [], created_on=today - dt.timedelta(days=s.created),
            submitted_on=None if s.status == "draft" else today - dt.timedelta(days=max(s.created - 1, 0)))
        if s.status == "cancelled":
            req.cancel_reason = "Duplicate request; the sleep study was authorized under another plan."
        if s.status in ("approved", "pended", "denied", "appealed"):
            n_auth += s.status == "approved"
            req.decisions.append(_decision(s, req, today, rng, n_auth))
        if s.status == "appealed":
            denied = req.decisions[-1].decided_on
            req.appeal = Appeal(filed_on=denied + dt.timedelta(days=14),
                                deadline=denied + dt.timedelta(days=APPEAL_DAYS),
                                note="Weight-bearing X-rays and 6 months of failed conservative care attached.")
        state.requests[req.id] = req
    # PAT / POL: the clinic registry's next numbers (the task generator allocates from them).
    state.counters.update({"PA": len(REQUESTS) + 1, "AUTH": n_auth + 1, "PAT": len(PATIENTS) + 1,
                           "POL": len(PATIENTS) + 2})
