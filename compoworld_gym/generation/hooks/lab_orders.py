"""Lab orders in chained tasks: a lab order names its patient, the ordering practitioner's email, the
day it was placed and its abnormal result; a lab result names its patient, order, ordering
practitioner and draw day; the abnormal result of the lab ordered at a clinic visit is found by the
visit's appointment id, and a patient's abnormal result by their patient id. Writes: release the
order's report, revoke the order, or note it."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._lab_orders_models import DiagnosticReport, LabOrder, LabPatient, LabResult, Specimen
from compoworld_gym.envs.services._lab_orders_rules import ANALYTES, COLLECTORS, CONTAINERS, TESTS, interpret
from compoworld_gym.envs.services._lab_orders_seed import LABS as PERFORMERS
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.patient_scheduling import SCHEDULING
from compoworld_gym.generation.hooks.pharmacy import (
    LABS, OBS_START, PHARMACY, birth_date, clinic_id, clinic_patient_id, patient_name, practitioner, practitioner_email,
)
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

DATE_RX = r"\d{4}-\d{2}-\d{2}"
#: Single-analyte tests planted orders are for: (abnormal value range, normal value range).
_VALUES = {"4548-4": ((7.0, 10.5), (4.8, 5.5)), "3016-3": ((5.5, 12.0), (0.8, 3.5)),
           "6301-6": ((1.4, 3.8), (0.9, 1.1))}
_REASONS = {"4548-4": "E11.9", "3016-3": "E03.9", "6301-6": "I48.91"}


def draw_day(ctx: Ctx) -> str:
    """A recent past day a specimen was drawn or an order placed (ISO)."""
    return ctx.day(-ctx.rng.randint(2, 30))


def _patient(ctx: Ctx, pid: str) -> LabPatient:
    """Patient ``pid`` in the lab system (added unless present)."""
    patients = ctx.state(LABS)["patients"]
    if pid not in patients:
        sched = ctx.states.get(SCHEDULING, {}).get("patients", {}).get(pid)
        gender = sched["gender"] if sched else ctx.rng.choice(("female", "male"))
        patients[pid] = LabPatient(id=pid, name=patient_name(ctx, pid), birth_date=birth_date(ctx, pid),
                                   gender=gender).model_dump(mode="json")
    return LabPatient.model_validate(patients[pid])


def plant_lab_order(ctx: Ctx, order_id: str, *, pid: str, email: Optional[str], day: str,
                    appointment_id: Optional[str] = None, result_id: Optional[str] = None,
                    abnormal: bool = True) -> str:
    """Add an active one-test lab order ``order_id`` of patient ``pid`` by the practitioner with
    ``email``, placed the day before ``day`` (ISO) at visit ``appointment_id``, its specimen drawn on
    ``day`` and its one result ``result_id`` (or the next id) recorded, flagged high when
    ``abnormal``, normal otherwise, with a preliminary report. Returns the result's id."""
    state = ctx.state(LABS)
    pat, doc = _patient(ctx, pid), practitioner(ctx, email)
    code = ctx.rng.choice(sorted(_VALUES))
    drawn = dt.datetime.combine(dt.date.fromisoformat(day), dt.time(8, 30))
    order = LabOrder(id=order_id, status="active", priority="routine", patient_id=pid, patient_name=pat.name,
                     requester_id=doc.id, requester_name=doc.name, requester_email=email or doc.email,
                     appointment_id=appointment_id, test_codes=[code], reason_code=_REASONS[code],
                     performer=ctx.rng.choice(PERFORMERS), authored_on=drawn.date() - dt.timedelta(days=1))
    sid = next_id(state, "SPC")
    analyte = ANALYTES[TESTS[code].analytes[0]]
    spec = Specimen(id=sid, order_id=order_id, patient_id=pid, type=analyte.specimen,
                    container=CONTAINERS[analyte.specimen], collected_at=drawn, collector=ctx.rng.choice(COLLECTORS))
    low, high = _VALUES[code][0 if abnormal else 1]
    value = round(ctx.rng.uniform(low, high), 1)
    ref_low, ref_high = analyte.range_for(pat.gender)
    rid = result_id or next_id(state, "OBS")
    issued = drawn + dt.timedelta(hours=6)
    result = LabResult(id=rid, order_id=order_id, patient_id=pid, specimen_id=sid, code=analyte.code,
                       display=analyte.display, value=value, unit=analyte.unit, reference_low=ref_low,
                       reference_high=ref_high, interpretation=interpret(analyte, value, pat.gender),
                       status="preliminary", effective_at=drawn, issued=issued)
    rpt = next_id(state, "RPT")
    state["orders"][order_id] = order.model_dump(mode="json")
    state["specimens"][sid] = spec.model_dump(mode="json")
    state["results"][rid] = result.model_dump(mode="json")
    state["reports"][rpt] = DiagnosticReport(id=rpt, order_id=order_id, patient_id=pid, status="preliminary",
                                             result_ids=[rid], issued=issued).model_dump(mode="json")
    return rid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(LABS)
    pid, visit, email = outs.get("patient_id"), None, outs.get("email")
    result = key if by == "result" else None if stale else outs.get("lab_result_id")
    if by == "patient":
        pid = key
    if by == "visit":
        visit = key
        appt = ctx.states.get(SCHEDULING, {}).get("appointments", {}).get(key)
        if appt is not None:
            pid, email = appt["patient_id"], appt["practitioner_email"]
    if by == "result":  # a prescription written for this result names the patient
        rx = next((r for r in ctx.states.get(PHARMACY, {}).get("prescriptions", {}).values()
                   if r.get("reason_reference") == key), None)
        pid = pid or (rx["patient_id"] if rx else None)
    oid = key if by == "order" else next_id(state, "LAB")
    day = outs.get("date") or draw_day(ctx)
    if by == "order":  # the order's date is the day it was placed; its specimen is drawn the next day
        day = (dt.date.fromisoformat(day) + dt.timedelta(days=1)).isoformat()
    rid = plant_lab_order(ctx, oid, pid=pid or clinic_patient_id(ctx), email=email, day=day, appointment_id=visit,
                          result_id=result, abnormal=not stale)
    return oid if by == "order" else rid


def _result(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(LABS, "get_lab_result", lab_result_id=key)


def _visit_result(reader: Reader, key: Any) -> dict[str, Any]:
    rows = []
    for order in reader.read(LABS, "search_lab_orders", appointment_id=key, limit=200):
        rows += reader.read(LABS, "list_lab_results", lab_order_id=order["id"], abnormal_only=True)
    return _result(reader, pick(rows)["id"])


def _patient_result(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(LABS, "list_lab_results", patient_id=key, abnormal_only=True)
    return _result(reader, pick(rows, patient_id=key)["id"])


_REQUESTER = Give("email", "requester_email", "the ordering practitioner's work email", "the ordering practitioner",
                  draw=practitioner_email)
_DRAWN = Give("date", "effective_at", "the day the specimen was drawn", "the specimen draw", pattern=DATE_RX,
              draw=draw_day)
_ORDER = Give("lab_order_id", "order_id", "the lab order")
_TRUTH = "A normal lab result needs no action; only the result the lab flagged abnormal (L, H, LL or HH) counts."

LAB_ORDER = Relay(
    service=LABS, name="lab order", key="lab_order_id",
    gives=(Give("patient_id", "patient_id", "the patient's id"), _REQUESTER,
           Give("date", "authored_on", "the day the lab was ordered", "the lab order date", draw=draw_day),
           Give("lab_result_id", "results.0.id", "the order's abnormal lab result")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "order"),
    find=lambda reader, key: reader.read(LABS, "get_lab_order", lab_order_id=key),
    where="Each lab order names the patient, the ordering practitioner, the day it was placed and its results.",
    alloc=lambda ctx: next_id(ctx.state(LABS), "LAB"), entry=lambda key: f"lab order {key}")

LAB_RESULT = Relay(
    service=LABS, name="lab result", key="lab_result_id",
    gives=(Give("patient_id", "patient_id", "the patient's id"), _ORDER, _REQUESTER, _DRAWN),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "result"), find=_result,
    where="Each lab result names the patient, its lab order, the ordering practitioner and the draw day.",
    alloc=lambda ctx: clinic_id(ctx, "OBS", start=OBS_START), entry=lambda key: f"lab result {key}")

VISIT_LAB_RESULT = Relay(
    service=LABS, name="abnormal result of the visit's lab order", key="appointment_id",
    gives=(Give("lab_result_id", "id", "the abnormal result of the lab ordered at the visit"), _ORDER, _DRAWN),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "visit"), find=_visit_result,
    where="Lab orders placed during a clinic visit are filed under the visit's appointment id, with their results.",
    alloc=lambda ctx: clinic_id(ctx, "APT", start=1), truth=_TRUTH)

PATIENT_LAB_RESULT = Relay(
    service=LABS, name="patient's abnormal lab result", key="patient_id",
    gives=(Give("lab_result_id", "id", "the patient's abnormal lab result"), _ORDER, _REQUESTER, _DRAWN),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "patient"), find=_patient_result,
    where="The lab system files results under the patient's id, each flagged against its reference range.",
    alloc=clinic_patient_id, truth=_TRUTH)


def _scope(oid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=LABS, collection="orders", allow_ids=[oid],
                        description="No other lab order was changed or placed.")]


def _release(reader: Reader, args: dict[str, Found]) -> Write:
    oid, mention, case = args["order"].value, args["mention"], args["case"].value
    order = reader.read(LABS, "get_lab_order", lab_order_id=oid)
    if order["status"] != "active" or order["pending_analytes"] or order["report"] is None:
        raise SolveError(f"lab order {oid} has no complete results to release")
    rpt, results = order["report"]["id"], [r["id"] for r in order["results"]]
    conclusion = f"{case}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("release_report", lab_order_id=oid, conclusion=conclusion)],
        checks=[RecordMatches(id="_", service=LABS, collection="orders", record_id=oid, where={"status": "completed"},
                              description="The lab order is completed."),
                RecordMatches(id="_", service=LABS, collection="reports", record_id=rpt,
                              where={"status": "final", "conclusion": {"$all": [{"$contains": case},
                                                                                {"$contains": mention.display}]}},
                              description="The order's report is final, its conclusion quoting the case and "
                                          "the value.")],
        scope=_scope(oid) + [
            OnlyChanged(id="_", service=LABS, collection="reports", allow_ids=[rpt],
                        description="No other lab report was changed."),
            OnlyChanged(id="_", service=LABS, collection="results", allow_ids=results,
                        description="Only the order's results were finalised.")],
        tool="release_report", where={"lab_order_id": oid}, label="the lab report release")


def _revoke(reader: Reader, args: dict[str, Found]) -> Write:
    oid, mention, case = args["order"].value, args["mention"], args["case"].value
    reader.read(LABS, "get_lab_order", lab_order_id=oid)
    return Write(
        calls=[call("revoke_lab_order", lab_order_id=oid, reason=f"{case}: {mention.noun} is {mention.display}"[:300])],
        checks=[RecordMatches(id="_", service=LABS, collection="orders", record_id=oid,
                              where={"status": "revoked", "revoked_reason": {"$contains": mention.display}},
                              description="The lab order is revoked, the reason quoting the value.")],
        scope=_scope(oid), tool="revoke_lab_order", where={"lab_order_id": oid}, label="the lab order revocation")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    oid, mention, case = args["order"].value, args["mention"], args["case"].value
    reader.read(LABS, "get_lab_order", lab_order_id=oid)
    return Write(
        calls=[call("add_lab_order_note", lab_order_id=oid, note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=LABS, collection="orders", record_id=oid,
                              where={"notes": {"$some": {"$all": [{"$contains": case},
                                                                  {"$contains": mention.display}]}}},
                              description="A note on the lab order quotes the case and the right value.")],
        scope=_scope(oid), tool="add_lab_order_note", where={"lab_order_id": oid}, label="the note on the lab order")


_ORDER_NEED = (Need("order", "lab_order_id"),)

LINKS = ServiceLinks(
    service=LABS, label="the lab ordering system",
    relays=(LAB_ORDER, LAB_RESULT, VISIT_LAB_RESULT, PATIENT_LAB_RESULT),
    actions=(
        Action(service=LABS, name="release", needs=_ORDER_NEED, build=_release,
               goal="release the lab order's final report, its conclusion quoting {mention}"),
        Action(service=LABS, name="revoke", needs=_ORDER_NEED, build=_revoke,
               goal="revoke the lab order, the reason quoting {mention}"),
        Action(service=LABS, name="note", needs=_ORDER_NEED, build=_note,
               goal="add a note to the lab order stating {mention}"),
    ),
)

__all__ = ["LINKS", "draw_day", "plant_lab_order"]
