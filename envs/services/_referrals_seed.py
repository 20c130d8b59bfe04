"""Seed data of the referrals service: the clinic's patients, the specialists it refers to and eleven
referrals in every status.

Patients are the clinic registry's (``_patient_scheduling_seed``: the same
names, emails and phones), with the active policy the claims clearinghouse
holds for them (``insurance_claims``: payer, plan, member id; patient
``PAT-0004``'s is the new ``POL-0017``). Specialists are the clinic's own
cardiologist, dermatologist and orthopedist (the registry's ids and emails)
and nine outside practices. Referrals needing the payer's authorization
name the prior authorization request they wait on (``prior_auth``:
``PA-0006`` approved for knee physical therapy, ``PA-0009`` appealed,
``PA-0004`` submitted). A referral names the clinic visit it was written at
when the scheduling system holds a past visit of the patient with the
referring practitioner (same seed).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import NamedTuple, Optional

from compoworld_gym.envs.services._insurance_eligibility_rules import PLAN_TERMS
from compoworld_gym.envs.services._patient_scheduling_models import PatientSchedulingState
from compoworld_gym.envs.services._patient_scheduling_seed import PATIENTS, PAYERS, PRACTITIONERS
from compoworld_gym.envs.services._prior_auth_seed import clearinghouse_coverages
from compoworld_gym.envs.services._referrals_models import (
    Referral, ReferralPatient, ReferralsState, ReferralTask, Specialist,
)
from compoworld_gym.envs.services._referrals_rules import VALID_DAYS, needs_authorization

#: Outside specialists: (name, specialty, practice, intake email domain, accepting, payers out of network).
OUTSIDE: tuple[tuple[str, str, str, str, bool, tuple[str, ...]], ...] = (
    ("Dr. Priya Raman", "Neurology", "Bayview Neurology Associates", "bayviewneuro.example", True, ()),
    ("Dr. Thomas Whitfield", "Gastroenterology", "Harborview GI Partners", "harborviewgi.example", True, ("Humana",)),
    ("Dr. Elena Sokolova", "Endocrinology", "Summit Endocrine Clinic", "summitendo.example", False, ()),
    ("Dr. Marcus Hale", "Endocrinology", "Lakeside Diabetes & Endocrine", "lakesideendo.example", True, ("Cigna",)),
    ("Dr. Janet Okafor", "Pulmonology", "Coastal Lung Center", "coastallung.example", True, ("Aetna",)),
    ("Dr. Ravi Menon", "Sleep Medicine", "Coastal Lung Center", "coastallung.example", True, ("Aetna",)),
    ("Dr. Sarah Lindqvist", "Orthopedic Surgery", "Riverside Orthopedic Institute", "riversideortho.example", True,
     ()),
    ("Dr. Daniel Cho", "Rheumatology", "Northgate Rheumatology", "northgaterheum.example", True,
     ("UnitedHealthcare",)),
    ("Alex Moreno, DPT", "Physical Therapy", "Harbor Physical Therapy", "harborpt.example", True, ()),
)
#: Clinic practitioners who also receive referrals (specialists).
IN_CLINIC = ("PRA-0004", "PRA-0005", "PRA-0006")


class SeedRef(NamedTuple):
    """A seeded referral: patient, requester, specialty, performer, ICD-10 code, reason, status, priority,
    days ago written, prior authorization, authorization number, task status, task business status."""

    patient: str
    requester: str
    specialty: str
    performer: Optional[str]
    code: str
    reason: str
    status: str
    priority: str
    days: int
    pa: Optional[str] = None
    auth: Optional[str] = None
    task: Optional[str] = None
    business: str = ""


REFERRALS: tuple[SeedRef, ...] = (
    SeedRef("PAT-0006", "PRA-0001", "Cardiology", "PRA-0004", "I42.9", "Cardiomyopathy, reassess ejection fraction",
            "completed", "routine", 60, auth="RN-660214", task="completed", business="Consult report sent"),
    SeedRef("PAT-0013", "PRA-0006", "Physical Therapy", "PRA-0109", "M17.11", "Right knee osteoarthritis, 12 visits",
            "active", "routine", 14, pa="PA-0006", auth="AUTH-0002", task="in-progress",
            business="Awaiting consult report"),
    SeedRef("PAT-0010", "PRA-0006", "Orthopedic Surgery", "PRA-0107", "M17.12",
            "Left knee osteoarthritis, evaluate for total knee replacement", "draft", "routine", 22, pa="PA-0009"),
    SeedRef("PAT-0014", "PRA-0006", "Neurology", "PRA-0101", "M54.50", "Low back pain with new left leg numbness",
            "draft", "urgent", 3, pa="PA-0004"),
    SeedRef("PAT-0002", "PRA-0002", "Gastroenterology", "PRA-0102", "K21.9", "Reflux not controlled on a PPI",
            "active", "routine", 6, auth="RN-221907", task="requested", business="Awaiting review"),
    SeedRef("PAT-0007", "PRA-0001", "Dermatology", "PRA-0005", "L40.0", "Plaque psoriasis, biologic candidate",
            "completed", "routine", 90, task="completed", business="Consult report sent"),
    SeedRef("PAT-0011", "PRA-0002", "Sleep Medicine", "PRA-0106", "G47.33", "Loud snoring, suspected sleep apnea",
            "revoked", "routine", 30),
    SeedRef("PAT-0005", "PRA-0002", "Endocrinology", "PRA-0103", "E11.65", "Type 2 diabetes with hyperglycemia",
            "active", "routine", 10, task="rejected", business="Not accepting new patients"),
    SeedRef("PAT-0001", "PRA-0001", "Rheumatology", "PRA-0108", "M06.9", "Joint pain, positive rheumatoid factor",
            "draft", "routine", 1),
    SeedRef("PAT-0012", "PRA-0002", "Pulmonology", "PRA-0105", "R06.02", "Shortness of breath, abnormal spirometry",
            "active", "asap", 8, task="accepted", business="Calling patient to book"),
    SeedRef("PAT-0008", "PRA-0002", "Cardiology", "PRA-0004", "R07.9", "Exertional chest pain", "active", "urgent", 4,
            task="requested", business="Awaiting review"),
)
_SUMMARIES = ("Seen; plan of care sent to the referring practitioner.", "Consult complete; follow up in 3 months.",
              "Assessment and recommendations in the attached consult note.")


def seed_specialists(state: ReferralsState) -> None:
    """The clinic's own specialists and the outside practices (ids PRA-0101 on)."""
    for d in PRACTITIONERS:
        if d.id in IN_CLINIC:
            state.specialists[d.id] = Specialist(
                id=d.id, name=d.name, specialty=d.specialty, organization="Riverside Family Health", email=d.email,
                phone="+1-415-555-0100", npi=d.npi, in_clinic=True, accepting_new_patients=True,
                network_payers=list(PAYERS))
    for k, (name, spec, org, domain, accepting, out) in enumerate(OUTSIDE, start=101):
        state.specialists[f"PRA-{k:04d}"] = Specialist(
            id=f"PRA-{k:04d}", name=name, specialty=spec, organization=org, email=f"referrals@{domain}",
            phone=f"+1-415-555-{2000 + 17 * k:04d}", npi=f"17{k:03d}5{k * 13:04d}", in_clinic=False,
            accepting_new_patients=accepting, network_payers=[p for p in PAYERS if p not in out])


def seed_patients(state: ReferralsState, today: dt.date) -> None:
    """The registry's patients with their active clearinghouse policy."""
    active = {c.patient_id: c for c in clearinghouse_coverages(today).values() if c.status == "active"}
    for p in PATIENTS:
        c = active.get(p.id)
        state.patients[p.id] = ReferralPatient(
            id=p.id, name=p.name, birth_date=p.birth_date, email=p.email, phone=p.phone,
            payer=c.payer if c else None, plan_name=c.plan_name if c else None,
            insurance_type=PLAN_TERMS[c.plan_name].insurance_type if c and c.plan_name in PLAN_TERMS else None,
            policy_id=c.id if c else None, member_id=c.member_id if c else None)


def build_state(rng: random.Random, today: dt.date, clinic: PatientSchedulingState) -> ReferralsState:
    """Patients, specialists, the fixed referrals and their tasks.

    Args:
        rng: seeded random stream (times of day, consult summaries).
        today: the task's date.
        clinic: the scheduling system's seeded state for the same seed (visits the referrals were written at).
    """
    state = ReferralsState()
    seed_specialists(state)
    seed_patients(state, today)
    docs = {d.id: d for d in PRACTITIONERS}
    n_task = 0
    for n, s in enumerate(REFERRALS, start=1):
        pat, doc, to = state.patients[s.patient], docs[s.requester], state.specialists.get(s.performer or "")
        written = today - dt.timedelta(days=s.days)
        visits = sorted((a for a in clinic.appointments.values() if a.patient_id == s.patient
                         and a.practitioner_id == s.requester and a.status == "fulfilled"
                         and a.start.date() <= written), key=lambda a: a.start)
        r = Referral(id=f"REF-{n:04d}", status=s.status, priority=s.priority, patient_id=pat.id, patient_name=pat.name,
                     requester_id=doc.id, requester_name=doc.name, requester_email=doc.email, specialty=s.specialty,
                     performer_id=to.id if to else None, performer_name=to.name if to else None,
                     performer_organization=to.organization if to else None, reason_code=s.code, reason=s.reason,
                     appointment_id=visits[-1].id if visits else None, authored_on=written,
                     needed_by=written + dt.timedelta(days=14 if s.priority != "routine" else 45),
                     valid_until=written + dt.timedelta(days=VALID_DAYS), payer=pat.payer, policy_id=pat.policy_id,
                     authorization_required=needs_authorization(pat, s.specialty), authorization_number=s.auth,
                     prior_authorization_id=s.pa)
        if s.status == "revoked":
            r.revoked_reason = "Patient chose a home sleep test instead."
        if s.status == "completed":
            r.completed_on = written + dt.timedelta(days=21)
        state.referrals[r.id] = r
        if s.task is None or to is None:
            continue
        n_task += 1
        sent = dt.datetime.combine(written, dt.time(rng.randint(9, 16), rng.randint(0, 59)))
        t = ReferralTask(id=f"TSK-{n_task:04d}", referral_id=r.id, owner_id=to.id, owner_name=to.name,
                         status=s.task, business_status=s.business, authored_on=sent,
                         last_modified=sent + dt.timedelta(days=min(2, s.days)))
        if s.task == "rejected":
            t.status_reason = "Dr. Sokolova is not accepting new patients."
        if s.task in ("in-progress", "completed"):
            t.specialist_visit = dt.datetime.combine(written + dt.timedelta(days=7 if s.task == "completed" else 12),
                                                     dt.time(10, 30))
        if s.task == "completed":
            t.consult_summary = rng.choice(_SUMMARIES)
            t.last_modified = dt.datetime.combine(r.completed_on, dt.time(15, 0))
        state.tasks[t.id] = t
    state.counters.update({"REF": len(REFERRALS) + 1, "TSK": n_task + 1})
    return state
