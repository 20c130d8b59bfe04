"""Seed data of the insurance eligibility service: the clinic's payers, providers and members, and the
eligibility checks the front desk ran for the scheduled visits.

Members are the claims clearinghouse's policies for the same seed
(``insurance_claims``: member id, payer, plan, group, dates, deductible and
what is met of it), so ``POL-0003`` is patient ``PAT-0003``'s plan here too.
Coverages are run for the scheduling system's booked and arrived visits of
the same seed (``patient_scheduling``: the visit's day, patient and
practitioner), on the card the clinic has on file; patient ``PAT-0004``'s old
Humana card answers inactive and their new Cigna card active. A few past
visits were checked for an office visit only (service type 98).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._insurance_claims_models import InsuranceClaimsState, Policy
from compoworld_gym.envs.services._insurance_eligibility_models import (
    CostEstimate, Coverage, InsuranceEligibilityState, MemberPlan, Payer, Provider,
)
from compoworld_gym.envs.services._insurance_eligibility_rules import PLAN_TERMS, SERVICE_TYPES, answer, estimate, is_specialist
from compoworld_gym.envs.services._insurance_claims_rules import FEE_SCHEDULE
from compoworld_gym.envs.services._patient_scheduling_models import PatientSchedulingState
from compoworld_gym.envs.services._patient_scheduling_seed import CLINIC_NAME, CLINIC_NPI, PATIENTS, PRACTITIONERS

#: Availity payer ids of the clinic's payers.
PAYER_IDS: dict[str, str] = {"Aetna": "60054", "Blue Cross Blue Shield": "00621", "UnitedHealthcare": "87726",
                             "Cigna": "62308", "Humana": "61101"}
#: Payer configurations: (birth date required, days back, days ahead, service types not answered).
_CONFIG: dict[str, tuple[bool, int, int, tuple[str, ...]]] = {
    "Aetna": (True, 365, 90, ()), "Blue Cross Blue Shield": (False, 730, 30, ("62",)),
    "UnitedHealthcare": (True, 365, 60, ()), "Cigna": (True, 540, 90, ()), "Humana": (True, 365, 30, ("MH",)),
}
#: Practitioners out of network with a payer: Dr. Irene Castillo with UnitedHealthcare, Dr. Kevin Liu with Humana.
OUT_OF_NETWORK: dict[str, tuple[str, ...]] = {"PRA-0005": ("87726",), "PRA-0006": ("61101",)}
#: How many scheduled visits get an eligibility check.
_VISIT_CHECKS = 8


def payer_id(name: str) -> str:
    """The Availity payer id of a payer name."""
    return PAYER_IDS[name]


def split_name(name: str) -> tuple[str, str]:
    """``(first, last)`` of a full name."""
    first, _, last = name.strip().rpartition(" ")
    return first or last, last


def member_from_policy(p: Policy, birth_date: dt.date, oop_met: float) -> MemberPlan:
    """The payer's member record of clearinghouse policy ``p``, its copays from the plan's terms."""
    terms = PLAN_TERMS.get(p.plan_name, PLAN_TERMS["PPO Silver"])
    first, last = split_name(p.subscriber_name)
    oop = max(terms.out_of_pocket_max, p.deductible)
    return MemberPlan(id=p.id, payer_id=payer_id(p.payer), member_id=p.member_id, patient_id=p.patient_id,
                      first_name=first, last_name=last, birth_date=birth_date, plan_name=p.plan_name,
                      group_number=p.group_number, effective_date=p.coverage_start, expiration_date=p.coverage_end,
                      deductible=p.deductible, deductible_met=p.deductible_met, out_of_pocket_max=oop,
                      out_of_pocket_met=money(min(oop, max(oop_met, p.deductible_met))),
                      coinsurance_pct=p.coinsurance_pct, insurance_type=terms.insurance_type, pcp_copay=terms.pcp,
                      specialist_copay=terms.specialist, urgent_care_copay=terms.urgent,
                      emergency_copay=terms.emergency)


def seed_payers(state: InsuranceEligibilityState) -> None:
    """The clinic's five payers and its providers: each practitioner's NPI and the clinic's group NPI."""
    for name, pid in PAYER_IDS.items():
        dob, back, ahead, missing = _CONFIG[name]
        state.payers[pid] = Payer(id=pid, name=name, transactions=["270", "276", "278"],
                                  service_types=[c for c in SERVICE_TYPES if c not in missing],
                                  requires_birth_date=dob, max_days_back=back, max_days_ahead=ahead)
    state.providers[CLINIC_NPI] = Provider(npi=CLINIC_NPI, name=CLINIC_NAME, kind="group",
                                           specialty="Multi-Specialty Group")
    for d in PRACTITIONERS:
        state.providers[d.npi] = Provider(npi=d.npi, name=d.name, kind="individual", specialty=d.specialty,
                                          practitioner_id=d.id, out_of_network_payers=list(OUT_OF_NETWORK.get(d.id, ())))


def make_coverage(state: InsuranceEligibilityState, cid: str, member: MemberPlan, *, npi: str, as_of: dt.date,
                  requested: dt.datetime, service_type: str = "30", appointment_id: Optional[str] = None,
                  last_name: Optional[str] = None) -> Coverage:
    """A coverage answered from ``member`` (added to ``state``)."""
    payer, provider = state.payers[member.payer_id], state.providers[npi]
    cov = Coverage(id=cid, payer_id=payer.id, payer_name=payer.name, member_id=member.member_id,
                   patient_id=member.patient_id, patient_first_name=member.first_name,
                   patient_last_name=last_name or member.last_name, patient_birth_date=member.birth_date,
                   appointment_id=appointment_id, provider_npi=npi, provider_name=provider.name,
                   service_type=service_type, as_of_date=as_of, requested_at=requested, plan_status="inactive",
                   plan_name=member.plan_name, group_number=member.group_number, insurance_type=member.insurance_type,
                   effective_date=member.effective_date, in_network=True)
    state.coverages[cid] = answer(cov, member, payer, provider)
    return state.coverages[cid]


def _on_file(state: InsuranceEligibilityState, patient_id: str) -> Optional[MemberPlan]:
    """The member of the card the clinic has on file for the patient (the registry's policy)."""
    reg = next((p for p in PATIENTS if p.id == patient_id), None)
    return state.members.get(reg.policy_id) if reg else None


def build_state(rng: random.Random, today: dt.date, claims: InsuranceClaimsState,
                clinic: PatientSchedulingState) -> InsuranceEligibilityState:
    """Payers, providers, members of ``claims``' policies, coverages for ``clinic``'s visits and estimates.

    Args:
        rng: seeded random stream (out-of-pocket paid, request times).
        today: the task's date.
        claims: the claims clearinghouse's seeded state for the same seed.
        clinic: the scheduling system's seeded state for the same seed.
    """
    state = InsuranceEligibilityState()
    seed_payers(state)
    births = {p.id: p.birth_date for p in PATIENTS}
    for pol in claims.policies.values():
        met = pol.deductible_met + (rng.randint(0, 60000) / 100 if pol.deductible_met >= pol.deductible else 0.0)
        state.members[pol.id] = member_from_policy(pol, births.get(pol.patient_id, dt.date(1980, 1, 1)), met)
    n = 0

    def nxt() -> str:
        nonlocal n
        n += 1
        return f"COV-{n:04d}"

    docs = {d.id: d for d in PRACTITIONERS}
    visits = sorted((a for a in clinic.appointments.values() if a.status in ("booked", "arrived")),
                    key=lambda a: (a.start, a.id))
    done = sorted((a for a in clinic.appointments.values() if a.status == "fulfilled"), key=lambda a: (a.start, a.id))
    for a in visits[:_VISIT_CHECKS] + done[:2]:
        member = _on_file(state, a.patient_id)
        if member is None:
            continue
        asked = dt.datetime.combine(min(a.start.date(), today) - dt.timedelta(days=rng.randint(1, 3)),
                                    dt.time(rng.randint(8, 16), rng.randint(0, 59)))
        make_coverage(state, nxt(), member, npi=docs[a.practitioner_id].npi, as_of=a.start.date(), requested=asked,
                      service_type="30" if a.status != "fulfilled" else "98", appointment_id=a.id)
    # Patient PAT-0004 changed plans this year: the old Humana card on file answers inactive, the new Cigna one
    # (the clearinghouse's newest policy) active.
    old, new = state.members["POL-0004"], state.members[f"POL-{len(PATIENTS) + 1:04d}"]
    first = dt.datetime.combine(today - dt.timedelta(days=6), dt.time(10, 12))
    make_coverage(state, nxt(), old, npi=PRACTITIONERS[1].npi, as_of=today - dt.timedelta(days=6), requested=first)
    make_coverage(state, nxt(), new, npi=PRACTITIONERS[1].npi, as_of=today - dt.timedelta(days=6),
                  requested=first + dt.timedelta(minutes=14))
    state.counters["COV"] = n + 1
    k = 0
    active = [c for c in state.coverages.values()
              if c.plan_status == "active" and c.service_type == "30" and c.in_network]
    for cov, cpt in zip(active[:4], ("99214", "80053", "93000", "99395")):
        k += 1
        doc = state.providers[cov.provider_npi]
        est = CostEstimate(id=f"EST-{k:04d}", coverage_id=cov.id, patient_id=cov.patient_id, procedure_code=cpt,
                           procedure_description=FEE_SCHEDULE[cpt].description, units=1, service_type="30",
                           in_network=True, allowed_amount=0.0, copay=0.0, deductible_applied=0.0, coinsurance=0.0,
                           patient_responsibility=0.0, plan_pays=0.0, status="active",
                           created_at=cov.requested_at + dt.timedelta(minutes=3))
        estimate(est, cov, is_specialist(doc))
        if k == 4:
            est.status, est.void_reason = "void", "Visit changed to a follow-up; re-estimated at check-in."
        state.estimates[est.id] = est
    state.counters["EST"] = k + 1
    return state
