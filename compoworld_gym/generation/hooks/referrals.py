"""Referrals in chained tasks: a specialist referral names the patient, the referring practitioner's email,
the prior authorization it waits on and the date the specialist visit is wanted by; a patient's live
referral is found by their patient id, the referral written at a clinic visit by the visit's id, and the
referral waiting on a prior authorization by that request's id. A revoked referral is passed over.
Writes: send the draft referral to the receiving specialist, revoke it, or note it."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._insurance_eligibility_rules import PLAN_TERMS
from compoworld_gym.envs.services._referrals_models import Referral, ReferralPatient, Specialist
from compoworld_gym.envs.services._referrals_rules import VALID_DAYS, needs_authorization
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.insurance_eligibility import appointment_key
from compoworld_gym.generation.hooks.patient_scheduling import CLAIMS, SCHEDULING
from compoworld_gym.generation.hooks.pharmacy import (
    PRIOR_AUTH, birth_date, clinic_patient_id, patient_name, practitioner, practitioner_email,
)
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id,
)

SERVICE = "referrals"
_LIVE = ("draft", "active")
#: Specialties a referral waiting on a prior authorization is for (payers review them).
_REVIEWED = ("Orthopedic Surgery", "Physical Therapy", "Sleep Medicine")
_REASONS = {"Neurology": ("G43.909", "Migraines, worse over 3 months"), "Gastroenterology": ("K21.9", "Reflux not "
            "controlled on a PPI"), "Endocrinology": ("E11.65", "Type 2 diabetes with hyperglycemia"),
            "Pulmonology": ("R06.02", "Shortness of breath on exertion"), "Rheumatology": ("M06.9", "Joint pain, "
            "positive rheumatoid factor"), "Cardiology": ("R07.9", "Exertional chest pain"),
            "Dermatology": ("L30.9", "Rash not improving"), "Orthopedic Surgery": ("M17.11", "Knee osteoarthritis, "
            "surgical evaluation"), "Physical Therapy": ("M54.50", "Low back pain, 8 weeks"),
            "Sleep Medicine": ("G47.33", "Suspected sleep apnea"), "Orthopedics": ("M25.561", "Knee pain")}


def _patient(ctx: Ctx, pid: str) -> ReferralPatient:
    """Patient ``pid`` in the referrals system (added unless present, with their active clearinghouse policy)."""
    patients = ctx.state(SERVICE)["patients"]
    if pid not in patients:
        pol = next((p for p in ctx.states.get(CLAIMS, {}).get("policies", {}).values()
                    if p["patient_id"] == pid and p["status"] == "active"), None)
        clinic = ctx.states.get(SCHEDULING, {}).get("patients", {}).get(pid) or {}
        plan = pol["plan_name"] if pol else None
        patients[pid] = ReferralPatient(
            id=pid, name=patient_name(ctx, pid), birth_date=birth_date(ctx, pid), email=clinic.get("email"),
            phone=clinic.get("phone"), payer=pol["payer"] if pol else None, plan_name=plan,
            insurance_type=PLAN_TERMS[plan].insurance_type if plan in PLAN_TERMS else None,
            policy_id=pol["id"] if pol else None, member_id=pol["member_id"] if pol else None).model_dump(mode="json")
    return ReferralPatient.model_validate(patients[pid])


def _performer(ctx: Ctx, pat: ReferralPatient, reviewed: bool) -> Specialist:
    """An accepting specialist the patient may be referred to (in their payer's network)."""
    docs = [Specialist.model_validate(d) for d in ctx.state(SERVICE)["specialists"].values()]
    fit = [d for d in docs if d.accepting_new_patients and (pat.payer is None or pat.payer in d.network_payers)
           and (d.specialty in _REVIEWED) == reviewed and d.specialty in _REASONS]
    return ctx.rng.choice(fit or docs)


def _authorization(ctx: Ctx, pa_id: Optional[str]) -> Optional[str]:
    """The auth number of prior authorization ``pa_id`` when the payer approved it."""
    req = ctx.states.get(PRIOR_AUTH, {}).get("requests", {}).get(pa_id or "")
    done = [d["auth_number"] for d in (req or {}).get("decisions", []) if d.get("auth_number")]
    return done[-1] if done else None


def plant_referral(ctx: Ctx, rid: str, *, pid: str, email: Optional[str] = None, appointment_id: Optional[str] = None,
                   pa_id: Optional[str] = None, needed_by: Optional[str] = None, revoked: bool = False) -> str:
    """Add draft referral ``rid`` of patient ``pid`` by the clinic practitioner with ``email`` (an adult-care one
    when None), written at visit ``appointment_id``, to an accepting in-network specialist, wanted by
    ``needed_by`` (ISO): ready to send (the payer's referral number on it when it needs one), or, with
    ``pa_id``, to a reviewed specialty waiting on that prior authorization; ``revoked``: a revoked one.
    Returns the id."""
    pat, doc = _patient(ctx, pid), practitioner(ctx, email)
    to = _performer(ctx, pat, pa_id is not None)
    code, reason = _REASONS.get(to.specialty, ("R69", "Specialist opinion"))
    written = ctx.today - dt.timedelta(days=ctx.rng.randint(1, 10))
    wanted = dt.date.fromisoformat(needed_by) if needed_by else written + dt.timedelta(days=ctx.rng.randint(20, 60))
    r = Referral(id=rid, status="revoked" if revoked else "draft", priority="routine", patient_id=pat.id,
                 patient_name=pat.name, requester_id=doc.id, requester_name=doc.name, requester_email=doc.email,
                 specialty=to.specialty, performer_id=to.id, performer_name=to.name, performer_organization=to.organization,
                 reason_code=code, reason=reason, appointment_id=appointment_id, authored_on=written, needed_by=wanted,
                 valid_until=written + dt.timedelta(days=VALID_DAYS), payer=pat.payer, policy_id=pat.policy_id,
                 authorization_required=needs_authorization(pat, to.specialty), prior_authorization_id=pa_id,
                 revoked_reason="Written in error; a new referral replaces it" if revoked else None)
    if r.authorization_required:
        r.authorization_number = _authorization(ctx, pa_id) if pa_id else f"RN-{ctx.rng.randint(100000, 999999)}"
    ctx.state(SERVICE)["referrals"][rid] = r.model_dump(mode="json")
    return rid


def _next_referral(ctx: Ctx) -> str:
    return next_id(ctx.state(SERVICE), "REF")


def _pa_key(ctx: Ctx) -> str:
    if PRIOR_AUTH in ctx.states:
        return next_id(ctx.state(PRIOR_AUTH), "PA")
    return next_id(ctx.state(SERVICE), "PA", start=40)


def _wanted(ctx: Ctx) -> str:
    return ctx.day(ctx.rng.randint(15, 60))


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    rid = key if by == "id" else _next_referral(ctx)
    visit = ctx.states.get(SCHEDULING, {}).get("appointments", {}).get(key if by == "visit" else "")
    req = ctx.states.get(PRIOR_AUTH, {}).get("requests", {}).get(key if by == "pa" else "")
    pid = key if by == "patient" else outs.get("patient_id") or (
        visit["patient_id"] if visit else req["patient_id"] if req else clinic_patient_id(ctx))
    email = outs.get("email") or (visit["practitioner_email"] if visit else req["requester_email"] if req else None)
    pa_id = key if by == "pa" else outs.get("prior_authorization_id")
    return plant_referral(ctx, rid, pid=pid, email=email, appointment_id=key if by == "visit" else None,
                          pa_id=None if stale else pa_id, needed_by=outs.get("date"), revoked=stale)


def _get(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_service_request", referral_id=key)


def _live(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = [r for r in reader.read(SERVICE, "search_service_requests", limit=200, **where) if r["status"] in _LIVE]
    if not rows:
        raise SolveError(f"no live referral for {where}")
    return _get(reader, rows[0]["id"])


_REQUESTER = Give("email", "requester_email", "the referring practitioner's work email", "the ordering practitioner",
                  draw=practitioner_email)
_WANTED = Give("date", "needed_by", "the date the specialist visit is wanted by", "the specialist visit deadline",
               draw=_wanted)
_TRUTH = "A revoked referral was withdrawn; only the patient's live referral counts."

REFERRAL = Relay(
    service=SERVICE, name="specialist referral", key="referral_id",
    gives=(Give("patient_id", "patient_id", "the patient's id"), _REQUESTER,
           Give("prior_authorization_id", "prior_authorization_id", "the prior authorization the referral waits on"),
           _WANTED),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_get,
    where="Each specialist referral names the patient, the referring practitioner's email, the prior authorization "
          "it waits on and the date the specialist visit is wanted by.",
    alloc=_next_referral, entry=lambda key: f"referral {key}")

PATIENT_REFERRAL = Relay(
    service=SERVICE, name="patient's specialist referral", key="patient_id",
    gives=(Give("referral_id", "id", "the patient's live specialist referral"), _REQUESTER, _WANTED),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "patient"),
    find=lambda reader, key: _live(reader, patient_id=key),
    where="Specialist referrals are filed under the patient's id.", alloc=clinic_patient_id, truth=_TRUTH,
    entry=lambda key: f"the specialist referral of patient {key}")

VISIT_REFERRAL = Relay(
    service=SERVICE, name="referral written at a visit", key="appointment_id",
    gives=(Give("referral_id", "id", "the referral written at the visit"), _REQUESTER, _WANTED),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "visit"),
    find=lambda reader, key: _live(reader, appointment_id=key),
    where="A referral written during a clinic visit is filed under the visit's appointment id.",
    alloc=appointment_key, truth=_TRUTH)

PA_REFERRAL = Relay(
    service=SERVICE, name="referral waiting on a prior authorization", key="prior_authorization_id",
    gives=(Give("referral_id", "id", "the referral waiting on the prior authorization"),
           Give("patient_id", "patient_id", "the patient's id"), _WANTED),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "pa"),
    find=lambda reader, key: _live(reader, prior_authorization_id=key),
    where="A referral that needs the payer's prior authorization names the prior authorization request.",
    alloc=_pa_key, entry=lambda key: f"the referral waiting on prior authorization {key}")


def _scope(rid: str, tasks: bool = False) -> list[OnlyChanged]:
    out = [OnlyChanged(id="_", service=SERVICE, collection="referrals", allow_ids=[rid],
                       description="No other referral was changed or written.")]
    if tasks:
        out.append(OnlyChanged(id="_", service=SERVICE, collection="tasks", allow_new={"referral_id": rid},
                               description="Only the referral's own task was created."))
    return out


def _send(reader: Reader, args: dict[str, Found]) -> Write:
    r = _get(reader, args["referral"].value)
    if r["status"] != "draft" or not r["performer_id"] or (r["authorization_required"] and not
                                                           r["authorization_number"]):
        raise SolveError(f"referral {r['id']} is not ready to send")
    return Write(
        calls=[call("activate_service_request", referral_id=r["id"])],
        checks=[RecordMatches(id="_", service=SERVICE, collection="referrals", record_id=r["id"],
                              where={"status": "active"}, description="The referral is sent (active)."),
                RecordExists(id="_", service=SERVICE, collection="tasks",
                             where={"referral_id": r["id"], "owner_id": r["performer_id"], "status": "requested"},
                             description="A task carries the referral to the receiving specialist.")],
        scope=_scope(r["id"], tasks=True), tool="activate_service_request", where={"referral_id": r["id"]},
        label="the sent referral")


def _revoke(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["referral"].value, args["mention"], args["case"].value
    r = _get(reader, rid)
    if r["status"] not in _LIVE:
        raise SolveError(f"referral {rid} is {r['status']}")
    return Write(
        calls=[call("revoke_service_request", referral_id=rid, reason=f"{case}: {mention.noun} is {mention.display}")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="referrals", record_id=rid,
                              where={"status": "revoked", "revoked_reason": {"$all": [{"$contains": case},
                                                                                      {"$contains": mention.display}]}},
                              description="The referral is revoked, the reason quoting the case and the value.")],
        scope=_scope(rid) + [OnlyChanged(id="_", service=SERVICE, collection="tasks",
                                         allow_ids=[t["id"] for t in r["tasks"]],
                                         description="Only the referral's own tasks were cancelled.")],
        tool="revoke_service_request", where={"referral_id": rid}, label="the revoked referral")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["referral"].value, args["mention"], args["case"].value
    _get(reader, rid)
    return Write(
        calls=[call("add_service_request_note", referral_id=rid, note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="referrals", record_id=rid,
                              where={"notes": {"$some": {"$all": [{"$contains": case},
                                                                  {"$contains": mention.display}]}}},
                              description="A note on the referral quotes the case and the right value.")],
        scope=_scope(rid), tool="add_service_request_note", where={"referral_id": rid},
        label="the note on the referral")


_REFERRAL = (Need("referral", "referral_id"),)

LINKS = ServiceLinks(
    service=SERVICE, label="the referral management system",
    relays=(REFERRAL, PATIENT_REFERRAL, VISIT_REFERRAL, PA_REFERRAL),
    actions=(
        Action(service=SERVICE, name="send", needs=_REFERRAL, build=_send,
               goal="send the draft specialist referral to the receiving specialist"),
        Action(service=SERVICE, name="revoke", needs=_REFERRAL, build=_revoke,
               goal="revoke the specialist referral, the reason quoting {mention}"),
        Action(service=SERVICE, name="note", needs=_REFERRAL, build=_note,
               goal="add a note to the specialist referral stating {mention}"),
    ),
)

__all__ = ["LINKS", "plant_referral"]
