"""Rules of the insurance eligibility service: how a payer answers a 270 and how a cost estimate is priced.

A payer matches the member by member id, then checks the last name (AAA 73)
and, where its configuration asks for it, the birth date (AAA 71); an unknown
member id is AAA 75, a provider the organization has not registered AAA 43.
The as-of date must lie within the payer's window (AAA 62 outside it). The
plan is active on the as-of date when it lies between the plan's effective
and expiration dates; an inactive plan answers with no benefits. Service
type 30 returns every benefit of the plan, any other code that one.

A cost estimate prices a CPT code at the payer's allowed amount (the claims
clearinghouse's fee schedule): a service with a copay costs the copay (at
most the allowed amount); otherwise the remaining deductible applies first,
then coinsurance on the rest; the patient's share never passes the
out-of-pocket still to pay. Out-of-network benefits have no copay, a
coinsurance 20 points higher and a deductible and out-of-pocket maximum
twice the in-network ones; an HMO pays nothing out of network except
emergencies.
"""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple, Optional

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._insurance_claims_rules import FEE_SCHEDULE
from compoworld_gym.envs.services._insurance_eligibility_models import (
    Benefit, CostEstimate, Coverage, InsuranceEligibilityState, MemberPlan, Payer, Provider,
)
from compoworld_gym.errors import Unprocessable

#: X12 service type codes: (name, benefit kind). Kinds: pcp / specialist / urgent / emergency copays,
#: preventive (no charge), deductible (deductible then coinsurance).
SERVICE_TYPES: dict[str, tuple[str, str]] = {
    "30": ("Health Benefit Plan Coverage", "general"), "98": ("Professional (Physician) Visit - Office", "pcp"),
    "BZ": ("Physician Visit - Office: Well", "preventive"), "3": ("Consultation", "specialist"),
    "UC": ("Urgent Care", "urgent"), "86": ("Emergency Services", "emergency"), "5": ("Diagnostic Lab", "deductible"),
    "4": ("Diagnostic X-Ray", "deductible"), "62": ("MRI/CAT Scan", "deductible"),
    "PT": ("Physical Therapy", "specialist"), "73": ("Diagnostic Medical", "deductible"),
    "80": ("Immunizations", "preventive"), "2": ("Surgical", "deductible"), "MH": ("Mental Health", "pcp"),
}
#: The service type whose benefits apply to each CPT code of the fee schedule (office visits: 98, or 3
#: with a specialist).
CPT_SERVICE_TYPES: dict[str, str] = {"99203": "98", "99213": "98", "99214": "98", "99395": "BZ", "93000": "73",
                                     "80053": "5", "11102": "2", "20610": "2", "90471": "80"}
#: Specialties whose office visits are primary care (the others are specialist visits, type 3).
PRIMARY_CARE = frozenset({"Family Medicine", "Internal Medicine", "Pediatrics"})
#: Coinsurance points added out of network.
OUT_OF_NETWORK_EXTRA_PCT = 20


class Terms(NamedTuple):
    """A plan's type, copays (None: deductible and coinsurance apply) and out-of-pocket maximum."""

    insurance_type: str
    pcp: Optional[float]
    specialist: Optional[float]
    urgent: Optional[float]
    emergency: Optional[float]
    out_of_pocket_max: float


#: The plans of the clinic's payers (the claims clearinghouse's plan names).
PLAN_TERMS: dict[str, Terms] = {
    "PPO Gold": Terms("PPO", 20.0, 40.0, 50.0, 250.0, 2000.0),
    "PPO Silver": Terms("PPO", 30.0, 60.0, 75.0, 350.0, 4000.0),
    "HMO Standard": Terms("HMO", 15.0, 35.0, 40.0, 200.0, 3500.0),
    "HDHP Bronze": Terms("HDHP", None, None, None, None, 6500.0),
}


def _copay(m: MemberPlan, kind: str) -> Optional[float]:
    return {"pcp": m.pcp_copay, "specialist": m.specialist_copay, "urgent": m.urgent_care_copay,
            "emergency": m.emergency_copay, "preventive": 0.0}.get(kind)


def benefit(member: MemberPlan, code: str) -> Benefit:
    """The benefit line of service type ``code`` under ``member``'s plan."""
    name, kind = SERVICE_TYPES[code]
    hmo = member.insurance_type == "HMO"
    pct = 0 if kind == "preventive" else member.coinsurance_pct
    oon = kind == "emergency" or not hmo
    return Benefit(service_type=code, service_type_name=name, covered=True, in_network_copay=_copay(member, kind),
                   in_network_coinsurance_pct=pct, out_of_network_covered=oon,
                   out_of_network_copay=_copay(member, kind) if kind == "emergency" else None,
                   out_of_network_coinsurance_pct=(pct if kind == "emergency" else
                                                   min(100, member.coinsurance_pct + OUT_OF_NETWORK_EXTRA_PCT))
                   if oon else 100,
                   authorization_required=code == "62" or (hmo and code in ("PT", "2")),
                   referral_required=hmo and code in ("3", "PT", "62"))


def find_member(state: InsuranceEligibilityState, payer: Payer, member_id: str, last_name: str,
                birth_date: Optional[dt.date]) -> MemberPlan:
    """The payer's member for the inquiry's member id, name and birth date.

    Raises:
        Unprocessable: 422 with the 271's AAA rejection: 75 (member id unknown at the payer), 73 (last name
            does not match), 71 (birth date does not match) or 58 (birth date missing where required).
    """
    m = next((x for x in state.members.values() if x.payer_id == payer.id and x.member_id == member_id.strip().upper()),
             None)
    if m is None:
        raise Unprocessable(f"AAA 75 Subscriber/Insured Not Found: {payer.name} has no member {member_id}; check the "
                            "insurance card (a patient who changed plans has a new member id).")
    if m.last_name.lower() != last_name.strip().lower():
        raise Unprocessable(f"AAA 73 Invalid/Missing Subscriber/Insured Name: member {m.member_id}'s last name does "
                            f"not match {last_name!r}.")
    if birth_date is None and payer.requires_birth_date:
        raise Unprocessable(f"AAA 58 Invalid/Missing Date-of-Birth: {payer.name} requires the patient's birth date.")
    if birth_date is not None and birth_date != m.birth_date:
        raise Unprocessable(f"AAA 71 Patient Birth Date Does Not Match That for the Patient on the Database "
                            f"(member {m.member_id}).")
    return m


def check_window(payer: Payer, as_of: dt.date, today: dt.date) -> None:
    """The as-of date lies within the payer's window.

    Raises:
        Unprocessable: 422 AAA 62 (date of service outside the payer's inquiry window).
    """
    if as_of < today - dt.timedelta(days=payer.max_days_back) or as_of > today + dt.timedelta(
            days=payer.max_days_ahead):
        raise Unprocessable(f"AAA 62 Date of Service Not Within Allowable Inquiry Period: {payer.name} answers for "
                            f"{payer.max_days_back} days back to {payer.max_days_ahead} days ahead of today.")


def plan_active(member: MemberPlan, day: dt.date) -> bool:
    """Whether ``member``'s plan covers ``day``."""
    return member.effective_date <= day and (member.expiration_date is None or day <= member.expiration_date)


def answer(cov: Coverage, member: MemberPlan, payer: Payer, provider: Provider) -> Coverage:
    """Fill ``cov`` (its request fields set) with the payer's 271 for ``member``."""
    cov.policy_id, cov.patient_id = member.id, cov.patient_id or member.patient_id
    cov.patient_first_name = member.first_name
    cov.plan_name, cov.group_number, cov.insurance_type = member.plan_name, member.group_number, member.insurance_type
    cov.effective_date, cov.expiration_date = member.effective_date, member.expiration_date
    cov.in_network = payer.id not in provider.out_of_network_payers
    if not plan_active(member, cov.as_of_date):
        cov.plan_status, cov.benefits = "inactive", []
        return cov
    cov.plan_status = "active"
    cov.deductible_in_network = member.deductible
    cov.deductible_remaining_in_network = money(max(0.0, member.deductible - member.deductible_met))
    cov.out_of_pocket_in_network = member.out_of_pocket_max
    cov.out_of_pocket_remaining_in_network = money(max(0.0, member.out_of_pocket_max - member.out_of_pocket_met))
    if member.insurance_type != "HMO":
        cov.deductible_out_of_network = cov.deductible_remaining_out_of_network = money(2 * member.deductible)
        cov.out_of_pocket_out_of_network = money(2 * member.out_of_pocket_max)
        cov.out_of_pocket_remaining_out_of_network = cov.out_of_pocket_out_of_network
    codes = [c for c in SERVICE_TYPES if c != "30"] if cov.service_type == "30" else [cov.service_type]
    cov.benefits = [benefit(member, c) for c in codes]
    visit = "3" if is_specialist(provider) else "98"
    cov.visit_copay = benefit(member, visit).in_network_copay if cov.in_network else None
    return cov


def is_specialist(provider: Provider) -> bool:
    """Whether an office visit with ``provider`` is a specialist visit (service type 3, not 98)."""
    return provider.kind == "individual" and provider.specialty not in PRIMARY_CARE


def estimate(est: CostEstimate, cov: Coverage, specialist: bool) -> CostEstimate:
    """Price ``est`` (procedure code and units set) on active coverage ``cov``.

    Raises:
        Unprocessable: 422 for an inactive coverage, a code outside the fee schedule, a coverage run for
            another service type, or a service the plan does not pay out of network.
    """
    if cov.plan_status != "active":
        raise Unprocessable(f"coverage {cov.id} shows the plan inactive on {cov.as_of_date}; nothing to estimate.")
    fee = FEE_SCHEDULE.get(est.procedure_code)
    if fee is None:
        raise Unprocessable(f"CPT {est.procedure_code} is not on the payer's fee schedule; codes: "
                            f"{', '.join(FEE_SCHEDULE)}.")
    code = CPT_SERVICE_TYPES[est.procedure_code]
    if code == "98" and specialist:
        code = "3"
    b = next((x for x in cov.benefits if x.service_type == code), None)
    if b is None:
        raise Unprocessable(f"coverage {cov.id} was run for service type {cov.service_type}; run a coverage for "
                            f"service type {code} (or 30) to estimate CPT {est.procedure_code}.")
    if not cov.in_network and not b.out_of_network_covered:
        raise Unprocessable(f"the {cov.plan_name} plan pays nothing out of network for {b.service_type_name}.")
    allowed = money(fee.allowed * est.units)
    copay = b.in_network_copay if cov.in_network else b.out_of_network_copay
    pct = b.in_network_coinsurance_pct if cov.in_network else b.out_of_network_coinsurance_pct
    remaining = (cov.deductible_remaining_in_network if cov.in_network else cov.deductible_remaining_out_of_network) or 0
    cap = (cov.out_of_pocket_remaining_in_network if cov.in_network
           else cov.out_of_pocket_remaining_out_of_network) or 0
    est.service_type, est.in_network, est.allowed_amount = code, cov.in_network, allowed
    if copay is not None:
        est.copay, est.deductible_applied, est.coinsurance = money(min(copay, allowed)), 0.0, 0.0
    else:
        est.copay = 0.0
        est.deductible_applied = money(min(remaining, allowed))
        est.coinsurance = money((allowed - est.deductible_applied) * pct / 100)
    est.patient_responsibility = money(min(est.copay + est.deductible_applied + est.coinsurance, cap))
    est.plan_pays = money(allowed - est.patient_responsibility)
    return est
