"""Seed vocabulary and seed builder of the ``insurance_claims`` service (the payer's fee schedule and
denial codes are its rules, in ``_insurance_claims_rules``).

Policies belong to the fixed clinic registry's patients (``_patient_scheduling_seed``):
policy ``POL-0003`` is patient ``PAT-0003``'s, with the member id the
scheduling system has on file. Claims and remittances vary per seed.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._insurance_claims_models import (
    Claim, ClaimLine, InsuranceClaimsState, Policy, Remittance,
)
from compoworld_gym.envs.services._insurance_claims_rules import FEE_SCHEDULE, adjudicate
from compoworld_gym.envs.services._patient_scheduling_seed import CLINIC_NPI, PATIENTS

#: Staff who review claims (the company's billing and finance teams).
EXAMINERS: tuple[str, ...] = tuple(s.email for s in STAFF if s.team in ("billing", "finance"))
#: Plans per payer: (plan name, annual deductible USD, coinsurance percent the patient pays).
PLANS: tuple[tuple[str, float, int], ...] = (("PPO Gold", 500.0, 10), ("PPO Silver", 1500.0, 20),
                                             ("HMO Standard", 1000.0, 20), ("HDHP Bronze", 3000.0, 30))
#: ICD-10 diagnosis codes seeded claims carry.
DIAGNOSES: tuple[str, ...] = ("I10", "E11.9", "J20.9", "M25.561", "L30.9", "Z00.00", "R07.9")


def seed_claims(state: InsuranceClaimsState, rng: random.Random, today: dt.date) -> None:
    """Fill an ``InsuranceClaimsState``: one policy per registry patient (two terminated, one
    of them replaced by a newer active policy) and twelve claims across the lifecycle."""
    year = dt.date(today.year, 1, 1)
    for k, p in enumerate(PATIENTS, start=1):
        plan, deductible, coins = PLANS[k % len(PLANS)]
        ended = k in (4, 9)
        state.policies[p.policy_id] = Policy(
            id=p.policy_id, patient_id=p.id, subscriber_name=p.name, member_id=p.member_id, payer=p.payer,
            plan_name=plan, group_number=f"GRP-{4000 + 17 * k}", status="terminated" if ended else "active",
            coverage_start=dt.date(today.year - 2, 1, 1), coverage_end=year - dt.timedelta(days=1) if ended else None,
            deductible=deductible, coinsurance_pct=coins,
            # Half the members have met this year's deductible; the others part of it.
            deductible_met=deductible if rng.random() < 0.5 else round(rng.uniform(0, deductible * 0.6), 2))
    # Patient 4 changed plans this year: the terminated policy above, a new active one here.
    p4 = PATIENTS[3]
    new = f"POL-{len(PATIENTS) + 1:04d}"
    state.policies[new] = Policy(id=new, patient_id=p4.id, subscriber_name=p4.name, member_id=p4.member_id + "A",
                                 payer="Cigna", plan_name="PPO Silver", group_number="GRP-5120", status="active",
                                 coverage_start=year, deductible=1500.0, deductible_met=0.0, coinsurance_pct=20)
    flow = ("draft", "submitted", "submitted", "adjudicated", "paid", "paid", "denied", "submitted", "adjudicated",
            "paid", "void", "submitted")
    active = [pol for pol in state.policies.values() if pol.status == "active"]
    era = 0
    for i, status in enumerate(flow, start=1):
        pol = active[(i * 7) % len(active)]
        day = today - dt.timedelta(days=4 + 3 * i)
        codes = rng.sample(sorted(FEE_SCHEDULE), rng.randint(1, 3))
        lines = [ClaimLine(cpt_code=c, description=FEE_SCHEDULE[c].description, units=1,
                           charge=round(FEE_SCHEDULE[c].allowed * rng.choice((1.2, 1.35, 1.5)), 2)) for c in codes]
        c = Claim(id=f"CLM-{i:04d}", policy_id=pol.id, patient_id=pol.patient_id, provider_npi=CLINIC_NPI,
                  service_date=day, diagnosis_codes=[rng.choice(DIAGNOSES)], lines=lines,
                  total_charge=round(sum(x.charge for x in lines), 2), status="draft", created_on=day)
        if status != "draft":
            c.status, c.submitted_on = "submitted", day + dt.timedelta(days=1)
        if status in ("adjudicated", "paid"):
            adjudicate(c, pol, day + dt.timedelta(days=3))
        if status == "paid":
            era += 1
            c.status, c.paid_amount, c.paid_on = "paid", c.payable, day + dt.timedelta(days=5)
            state.remittances[f"ERA-{era:04d}"] = Remittance(id=f"ERA-{era:04d}", claim_id=c.id, amount=c.payable,
                                                             trace_number=f"EFT{880000 + 37 * i}", paid_on=c.paid_on)
        if status == "denied":
            c.status, c.denial_reason = "denied", "CO-197"
        if status == "void":
            c.status = "void"
        state.claims[c.id] = c
    state.counters.update({"POL": len(PATIENTS) + 2, "CLM": len(flow) + 1, "ERA": era + 1, "ELG": 1})
