"""Seed data of the patient billing service: the clinic's patient accounts and what they owe.

Accounts are the clinic registry's patients (``_patient_scheduling_seed``:
the same names, emails and phones as the scheduling system). Charges come
from the other clinic services for the same seed: the patient's share of
each adjudicated or paid claim (``insurance_claims``), the office-visit copay
of past visits whose eligibility check showed one (``insurance_eligibility``)
and a no-show fee for each missed visit (``patient_scheduling``). Two are
fixed: Lucia Fernandez's (``PAT-0009``) visit after her Humana plan ended,
billed to her and now in collections, and Amara Okonkwo's (``PAT-0011``) MRI
under her high-deductible plan, on a six-month payment plan.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._insurance_claims_models import InsuranceClaimsState
from compoworld_gym.envs.services._insurance_eligibility_models import InsuranceEligibilityState
from compoworld_gym.envs.services._patient_billing_models import (
    Charge, Installment, PatientAccount, PatientBillingState, Payment, PaymentPlan, Statement,
)
from compoworld_gym.envs.services._patient_billing_rules import (
    AGENCIES, TERMS_DAYS, add_months, apply, pay_installments, refresh, split,
)
from compoworld_gym.envs.services._patient_scheduling_models import PatientSchedulingState
from compoworld_gym.envs.services._patient_scheduling_seed import PATIENTS

#: Minors' guarantors: the parent in the registry.
GUARANTORS = {"PAT-0015": "Olivia Bennett", "PAT-0016": "Marcus Alvarez"}
#: Patients who get paper statements.
BY_MAIL = frozenset({"PAT-0004", "PAT-0010", "PAT-0014"})
#: The practice's no-show fee (USD).
NO_SHOW_FEE = 50.0


def charge(state: PatientBillingState, cid: str, pid: str, kind: str, what: str, day: dt.date, amount: float,
           posted: dt.date, **refs: str) -> Charge:
    """Add an unpaid charge."""
    c = Charge(id=cid, patient_id=pid, kind=kind, description=what, service_date=day, amount=money(amount),
               balance=money(amount), posted_on=posted, **refs)
    state.charges[cid] = c
    return c


def statement(state: PatientBillingState, sid: str, pid: str, charges: list[Charge], day: dt.date,
              status: str = "sent") -> Statement:
    """Add a statement of ``charges`` produced (and, unless a draft, sent) on ``day``."""
    acct = state.accounts[pid]
    due = money(sum(c.balance for c in charges))
    s = Statement(id=sid, patient_id=pid, patient_name=acct.name, email=acct.email, status=status,
                  statement_date=day, due_date=day + dt.timedelta(days=TERMS_DAYS), charge_ids=[c.id for c in charges],
                  amount_due=due, balance=due, delivery=None if status == "draft" else acct.statement_delivery,
                  sent_on=None if status == "draft" else day)
    state.statements[sid] = s
    return s


def build_state(rng: random.Random, today: dt.date, claims: InsuranceClaimsState, elig: InsuranceEligibilityState,
                clinic: PatientSchedulingState) -> PatientBillingState:
    """Accounts of the registry's patients and their charges, statements, payments and plans.

    Args:
        rng: seeded random stream (check numbers, card digits).
        today: the task's date.
        claims: the claims clearinghouse's seeded state for the same seed.
        elig: the eligibility service's seeded state for the same seed.
        clinic: the scheduling system's seeded state for the same seed.
    """
    state = PatientBillingState()
    for p in PATIENTS:
        state.accounts[p.id] = PatientAccount(id=p.id, name=p.name, email=p.email, phone=p.phone,
                                              guarantor_name=GUARANTORS.get(p.id, p.name),
                                              statement_delivery="mail" if p.id in BY_MAIL else "email")
    n = 0

    def cid() -> str:
        nonlocal n
        n += 1
        return f"CHG-{n:04d}"

    for c in sorted(claims.claims.values(), key=lambda c: (c.service_date, c.id)):
        share = c.patient_responsibility or 0.0
        if c.status in ("adjudicated", "paid") and share > 0:
            kind = "deductible" if share >= (c.allowed_total or 0) else "coinsurance"
            charge(state, cid(), c.patient_id, kind, f"Patient share after insurance, claim {c.id}", c.service_date,
                   share, c.adjudicated_on or c.service_date, claim_id=c.id)
    copays = [cov for cov in elig.coverages.values() if cov.service_type == "98" and cov.visit_copay]
    for cov in copays:
        charge(state, cid(), cov.patient_id, "copay", "Office visit copay", cov.as_of_date, cov.visit_copay,
               cov.as_of_date, appointment_id=cov.appointment_id)
    for a in sorted(clinic.appointments.values(), key=lambda a: a.id):
        if a.status == "noshow":
            charge(state, cid(), a.patient_id, "no_show_fee", "Missed appointment fee", a.start.date(), NO_SHOW_FEE,
                   a.start.date() + dt.timedelta(days=1), appointment_id=a.id)
    old = charge(state, cid(), "PAT-0009", "self_pay", "Office visit after Humana coverage ended (claim denied CO-27)",
                 today - dt.timedelta(days=150), 285.0, today - dt.timedelta(days=140))
    mri = charge(state, cid(), "PAT-0011", "deductible", "MRI right knee, high-deductible plan",
                 today - dt.timedelta(days=45), 1240.0, today - dt.timedelta(days=40))
    state.counters["CHG"] = n + 1
    k, pay = 0, 0

    def sid() -> str:
        nonlocal k
        k += 1
        return f"STM-{k:04d}"

    coll = statement(state, sid(), "PAT-0009", [old], today - dt.timedelta(days=135))
    coll.status, coll.collections_agency, coll.collections_on = "in_collections", AGENCIES[0], \
        today - dt.timedelta(days=25)
    # One open statement per patient for what was posted a week ago or earlier (not the plan's MRI).
    week = today - dt.timedelta(days=7)
    due: dict[str, list[Charge]] = {}
    for c in state.charges.values():
        if c.balance > 0 and c.posted_on <= week and c.id not in (old.id, mri.id):
            due.setdefault(c.patient_id, []).append(c)
    for i, (pid, rows) in enumerate(sorted(due.items())):
        if i == 0:  # an earlier statement, voided when insurance reprocessed the claim, then reissued
            v = statement(state, sid(), pid, rows, week - dt.timedelta(days=14))
            v.status, v.void_reason = "void", "Claim reprocessed by the payer; statement reissued."
        statement(state, sid(), pid, rows, week, status="draft" if i == len(due) - 1 and len(due) > 2 else "sent")
    state.counters["STM"] = k + 1
    # The first copay was paid by card at check-in; the first sent statement got a partial check.
    if copays:
        c = next(x for x in state.charges.values() if x.kind == "copay")
        pay += 1
        state.payments[f"PAY-{pay:04d}"] = Payment(
            id=f"PAY-{pay:04d}", patient_id=c.patient_id, amount=c.amount, method="credit_card",
            card_last4=f"{rng.randint(1000, 9999)}", appointment_id=c.appointment_id, applied=apply([c], c.amount),
            status="posted", posted_at=dt.datetime.combine(c.service_date, dt.time(8, 50)), memo="Copay at check-in")
    sent = [s for s in state.statements.values() if s.status == "sent"]
    if sent and sent[0].amount_due > 20:
        s = sent[0]
        part = money(round(s.amount_due / 2))
        pay += 1
        state.payments[f"PAY-{pay:04d}"] = Payment(
            id=f"PAY-{pay:04d}", patient_id=s.patient_id, amount=part, method="check",
            check_number=str(rng.randint(1000, 9999)), statement_id=s.id,
            applied=apply([state.charges[x] for x in s.charge_ids], part), status="posted",
            posted_at=dt.datetime.combine(today - dt.timedelta(days=2), dt.time(11, 20)), memo="Mailed check")
    start = today - dt.timedelta(days=30)
    amounts = split(mri.amount, 6, None)
    plan = PaymentPlan(id="PPL-0001", patient_id="PAT-0011", status="active", total=mri.amount, remaining=mri.amount,
                       charge_ids=[mri.id], start_date=start, card_last4="4417", created_on=start,
                       installments=[Installment(number=i + 1, due_date=add_months(start, i), amount=a,
                                                 status="scheduled") for i, a in enumerate(amounts)])
    state.plans[plan.id] = plan
    pay += 1
    state.payments[f"PAY-{pay:04d}"] = Payment(
        id=f"PAY-{pay:04d}", patient_id="PAT-0011", amount=amounts[0], method="credit_card", card_last4="4417",
        payment_plan_id=plan.id, applied=apply([mri], amounts[0]), status="posted",
        posted_at=dt.datetime.combine(start, dt.time(6, 0)), memo="Payment plan installment 1 (autopay)")
    pay_installments(plan.installments, amounts[0])
    state.counters.update({"PAY": pay + 1, "PPL": 2})
    refresh(state)
    return state
