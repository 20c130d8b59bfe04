"""Prior authorization in chained tasks: a request names its patient, the insurance policy it is
filed on, the prescription it is for, its estimated cost and the requested start day; the request
for a prescription is found by the prescription id, and a patient's request by their patient id.
Writes: answer a pend by resubmitting with a clinical note, appeal a denial, or note the request."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._patient_scheduling_seed import PAYERS, PRACTITIONERS
from compoworld_gym.envs.services._prior_auth_models import Decision, MemberCoverage, PriorAuthRequest
from compoworld_gym.envs.services._prior_auth_rules import CODES, DENIAL_REASONS, PEND_REASONS
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.patient_scheduling import CLAIMS
from compoworld_gym.generation.hooks.pharmacy import (
    PHARMACY, PRIOR_AUTH, RX_START, clinic_id, clinic_patient_id, make_specialty, patient_name, practitioner,
)
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, next_id, pick

#: Specialty drugs (on every payer's prior-authorization list).
_DRUGS = sorted(c for c, item in CODES.items() if item.kind == "medication")
#: A specialty drug fitting the lab analyte a prescription treats (diabetes: a GLP-1 agonist).
_FOR_ANALYTE = {"4548-4": "1991306", "2345-7": "1991306"}
_DIAGNOSES = {"1991306": "E11.9", "2002419": "L40.0", "1876376": "L20.9"}
_DOCS = {"1991306": "PRA-0002", "2002419": "PRA-0005", "1876376": "PRA-0005"}
_OPEN = ("draft", "submitted", "pended", "approved", "denied", "appealed")


def request_cost(ctx: Ctx) -> float:
    """A plausible estimated cost of a specialty-drug course (USD)."""
    return round(ctx.rng.randint(250000, 4200000) / 100, 2)


def start_day(ctx: Ctx) -> str:
    """A requested start of service, from ten days ago to three weeks ahead (ISO)."""
    return ctx.day(ctx.rng.randint(-10, 21))


def coverage(ctx: Ctx, pid: str, policy_id: Optional[str]) -> MemberCoverage:
    """The active coverage of patient ``pid`` in the prior-auth state (added unless present):
    ``policy_id`` when given, else the patient's active policy at the clearinghouse or a new one."""
    covs = ctx.state(PRIOR_AUTH)["coverages"]
    if policy_id is None:
        live = [p for s in (covs, ctx.states.get(CLAIMS, {}).get("policies", {})) for p in s.values()
                if p["patient_id"] == pid and p["status"] == "active"]
        policy_id = live[0]["id"] if live else clinic_id(ctx, "POL")
    if policy_id not in covs:
        pol = ctx.states.get(CLAIMS, {}).get("policies", {}).get(policy_id)
        payer = pol["payer"] if pol else ctx.rng.choice(PAYERS)
        member = pol["member_id"] if pol else f"{payer[:1]}{payer.split()[-1][:1]}{ctx.rng.randint(10**7, 10**8 - 1)}"
        covs[policy_id] = MemberCoverage(
            id=policy_id, patient_id=pid, subscriber_name=patient_name(ctx, pid), payer=payer, member_id=member,
            plan_name=pol["plan_name"] if pol else "PPO Silver", status="active",
            coverage_start=ctx.today.replace(month=1, day=1, year=ctx.today.year - 1)).model_dump(mode="json")
    return MemberCoverage.model_validate(covs[policy_id])


def plant_request(ctx: Ctx, pa_id: str, *, pid: str, policy_id: Optional[str], rx_id: Optional[str], code: str,
                  cost: float, start: str, requester: Optional[str] = None, cancelled: bool = False) -> str:
    """Add request ``pa_id`` of patient ``pid`` on their active policy (``policy_id`` or found) for
    ``code`` (a drug request names prescription ``rx_id``), estimated at ``cost`` USD, the service
    period starting ``start`` (ISO); pended by the payer for more clinical information, or
    ``cancelled``. Returns the id."""
    cov, item = coverage(ctx, pid, policy_id), CODES[code]
    doc = next((d for d in PRACTITIONERS if d.id == (requester or _DOCS.get(code))), None) or practitioner(ctx, None)
    first = dt.date.fromisoformat(start)
    filed = min(first, ctx.today) - dt.timedelta(days=ctx.rng.randint(3, 9))
    req = PriorAuthRequest(
        id=pa_id, status="cancelled" if cancelled else "pended", patient_id=pid, patient_name=cov.subscriber_name,
        policy_id=cov.id, member_id=cov.member_id, payer=cov.payer, requester_id=doc.id, requester_name=doc.name,
        requester_email=doc.email, request_type=item.kind, code=code, code_display=item.display,
        quantity=12 if item.kind == "medication" else 1, service_start=first,
        service_end=first + dt.timedelta(days=180 if item.kind == "medication" else 60),
        diagnosis_codes=[_DIAGNOSES.get(code, "M54.50")], prescription_id=rx_id, estimated_cost=cost,
        clinical_notes=["Diagnosis confirmed; first-line therapy tried for 3 months without control."],
        created_on=filed, submitted_on=filed, cancel_reason="Filed twice; duplicate request" if cancelled else None)
    if not cancelled:
        req.decisions.append(Decision(outcome="pended", review_action="A4", reason_code="INFO",
                                      reason=PEND_REASONS["INFO"], decided_on=filed + dt.timedelta(days=2),
                                      note="Send the chart notes documenting the prior therapy."))
    ctx.state(PRIOR_AUTH)["requests"][pa_id] = req.model_dump(mode="json")
    return pa_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    pa_id = key if by == "id" else next_id(ctx.state(PRIOR_AUTH), "PA")
    pid, rx_id, requester = outs.get("patient_id"), outs.get("prescription_id"), None
    code = ctx.rng.choice(sorted(CODES)) if by != "prescription" and rx_id is None else ctx.rng.choice(_DRUGS)
    if by == "patient":
        pid = key
    if by == "prescription":
        rx_id = key
        rx = ctx.states.get(PHARMACY, {}).get("prescriptions", {}).get(key)
        if rx is not None:  # the prescription names the patient, the prescriber and the drug
            pid, requester = rx["patient_id"], rx["prescriber_id"]
            if rx["medication_code"] in CODES:
                code = rx["medication_code"]
            else:
                result = ctx.states.get("lab_orders", {}).get("results", {}).get(rx.get("reason_reference") or "")
                code = _FOR_ANALYTE.get(result["code"] if result else "", code)
                make_specialty(ctx, key, code)
    if rx_id is not None and CODES[code].kind != "medication":
        code = ctx.rng.choice(_DRUGS)
    return plant_request(ctx, pa_id, pid=pid or clinic_patient_id(ctx), policy_id=outs.get("insurance_policy_id"),
                         rx_id=rx_id, code=code, cost=outs.get("money") or request_cost(ctx),
                         start=outs.get("date") or start_day(ctx), requester=requester, cancelled=stale)


def _get(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(PRIOR_AUTH, "get_prior_auth", prior_authorization_id=key)


def _live(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read(PRIOR_AUTH, "search_prior_auths", limit=200, **where)
    return _get(reader, pick([r for r in rows if r["status"] in _OPEN], **where)["id"])


_POLICY = Give("insurance_policy_id", "policy_id", "the insurance policy the request is filed on")
_COST = Give("money", "estimated_cost", "the prior authorization's estimated cost", draw=request_cost)
_START = Give("date", "service_start", "the requested start of service", "the requested service start",
              draw=start_day)
_TRUTH = "A cancelled prior authorization request is void; only the live request counts."

PRIOR_AUTHORIZATION = Relay(
    service=PRIOR_AUTH, name="prior authorization", key="prior_authorization_id",
    gives=(Give("patient_id", "patient_id", "the patient's id"), _POLICY,
           Give("prescription_id", "prescription_id", "the prescription the request is for"), _COST, _START),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_get,
    where="Each prior authorization request names the patient, the insurance policy, the prescription it is "
          "for, its estimated cost and the requested start of service.",
    alloc=lambda ctx: next_id(ctx.state(PRIOR_AUTH), "PA"), entry=lambda key: f"prior authorization {key}")

PRESCRIPTION_PRIOR_AUTH = Relay(
    service=PRIOR_AUTH, name="prescription's prior authorization", key="prescription_id",
    gives=(Give("prior_authorization_id", "id", "the prescription's prior authorization request"), _POLICY, _COST,
           _START),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "prescription"),
    find=lambda reader, key: _live(reader, prescription_id=key),
    where="Prior authorization requests for a drug are filed under the prescription's id.",
    alloc=lambda ctx: clinic_id(ctx, "RX", start=RX_START), truth=_TRUTH)

PATIENT_PRIOR_AUTH = Relay(
    service=PRIOR_AUTH, name="patient's prior authorization", key="patient_id",
    gives=(Give("prior_authorization_id", "id", "the patient's live prior authorization request"), _POLICY, _COST,
           _START),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "patient"),
    find=lambda reader, key: _live(reader, patient_id=key),
    where="The prior authorization portal files requests under the patient's id.", alloc=clinic_patient_id,
    truth=_TRUTH)


def _scope(pa_id: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=PRIOR_AUTH, collection="requests", allow_ids=[pa_id],
                        description="No other prior authorization request was changed or filed.")]


def _quote(case: str, mention: Found) -> dict[str, Any]:
    return {"$all": [{"$contains": case}, {"$contains": mention.display}]}


def _resubmit(reader: Reader, args: dict[str, Found]) -> Write:
    pa_id, mention, case = args["request"].value, args["mention"], args["case"].value
    _get(reader, pa_id)
    return Write(
        calls=[call("submit_prior_auth", prior_authorization_id=pa_id,
                    clinical_note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=PRIOR_AUTH, collection="requests", record_id=pa_id,
                              where={"status": "submitted", "clinical_notes": {"$some": _quote(case, mention)}},
                              description="The request is resubmitted with a clinical note quoting the case and "
                                          "the value.")],
        scope=_scope(pa_id), tool="submit_prior_auth", where={"prior_authorization_id": pa_id},
        label="the prior authorization resubmission")


def _prepare_appeal(ctx: Ctx, values: dict[str, Any]) -> None:
    """The payer denied the case's request yesterday for missing documentation (so it can be appealed)."""
    raw = ctx.state(PRIOR_AUTH)["requests"].get(values["request"])
    if raw is None or raw["status"] not in ("submitted", "pended"):
        return
    req = PriorAuthRequest.model_validate(raw)
    req.decisions.append(Decision(outcome="denied", review_action="A3", reason_code="DOC",
                                  reason=DENIAL_REASONS["DOC"], decided_on=ctx.today - dt.timedelta(days=1)))
    req.status = "denied"
    ctx.state(PRIOR_AUTH)["requests"][req.id] = req.model_dump(mode="json")


def _appeal(reader: Reader, args: dict[str, Found]) -> Write:
    pa_id, mention, case = args["request"].value, args["mention"], args["case"].value
    _get(reader, pa_id)
    return Write(
        calls=[call("appeal_prior_auth", prior_authorization_id=pa_id,
                    note=f"{case}: appeal of the denial; {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=PRIOR_AUTH, collection="requests", record_id=pa_id,
                              where={"status": "appealed", "appeal.note": _quote(case, mention)},
                              description="The denial is appealed, the appeal quoting the case and the value.")],
        scope=_scope(pa_id), tool="appeal_prior_auth", where={"prior_authorization_id": pa_id},
        label="the prior authorization appeal")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    pa_id, mention, case = args["request"].value, args["mention"], args["case"].value
    _get(reader, pa_id)
    return Write(
        calls=[call("add_prior_auth_note", prior_authorization_id=pa_id,
                    note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=PRIOR_AUTH, collection="requests", record_id=pa_id,
                              where={"notes": {"$some": _quote(case, mention)}},
                              description="A case note on the request quotes the case and the right value.")],
        scope=_scope(pa_id), tool="add_prior_auth_note", where={"prior_authorization_id": pa_id},
        label="the note on the prior authorization")


_REQUEST = (Need("request", "prior_authorization_id"),)

LINKS = ServiceLinks(
    service=PRIOR_AUTH, label="the prior authorization portal",
    relays=(PRIOR_AUTHORIZATION, PRESCRIPTION_PRIOR_AUTH, PATIENT_PRIOR_AUTH),
    actions=(
        Action(service=PRIOR_AUTH, name="resubmit", needs=_REQUEST, build=_resubmit,
               goal="answer the payer's request for information by resubmitting the prior authorization with a "
                    "clinical note quoting {mention}"),
        Action(service=PRIOR_AUTH, name="appeal", needs=_REQUEST, build=_appeal, prepare=_prepare_appeal,
               goal="appeal the payer's denial of the prior authorization, the appeal quoting {mention}"),
        Action(service=PRIOR_AUTH, name="note", needs=_REQUEST, build=_note,
               goal="add a case note to the prior authorization stating {mention}"),
    ),
)

__all__ = ["LINKS", "coverage", "plant_request", "request_cost", "start_day"]
