"""Permits in chained tasks: a permit record names the site address, the
applicant's email, the contractor and the fees due; a site's (or a
contractor's) open permit is found by its address (or company name); the
case's permit fees are paid, its final inspection booked, or a comment added."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._permits_seed import CITY, RECORD_TYPES, PermitRecord
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

_OPEN = ("submitted", "in_review", "approved", "issued")
_ALTERATION = "Building/Residential/Alteration"


def next_record_id(state: dict[str, Any]) -> str:
    """Take the next free record id from the permits counters (as ``new_id("PRM")``)."""
    return next_id(state, "PRM")


def _fees(state: dict[str, Any], due: float) -> tuple[str, float, list[dict[str, Any]]]:
    """(record type, valuation, invoiced fee items) whose balance is exactly ``due`` (USD)."""
    rtype = RECORD_TYPES[_ALTERATION]
    if due >= rtype.base_fee + 12.5 + 1:
        val = money(due - rtype.base_fee - 12.5)
        parts = [("APP", "Application / plan review fee", rtype.base_fee),
                 ("VAL", "Permit fee (0.6% of valuation)", val), ("TECH", "Technology surcharge", 12.5)]
        kind, valuation = _ALTERATION, float(round(val / rtype.valuation_rate, -2))
    else:
        parts, kind, valuation = [("APP", "Application / plan review fee", money(due))], \
            "Electrical/Residential/Service Upgrade", 0.0
    return kind, valuation, [{"id": next_id(state, "FEE"), "code": c, "description": d, "amount": a,
                              "status": "invoiced"} for c, d, a in parts]


def plant_record(state: dict[str, Any], record_id: str, *, due: float, **fields: Any) -> str:
    """Add an in-review :class:`PermitRecord` (validated) under ``record_id``
    with ``due`` USD of invoiced fees; ``fields`` override any field; returns the id."""
    kind, valuation, fees = _fees(state, due)
    base = {"type": kind, "city": CITY, "valuation": valuation, "status": "in_review", "fees": fees,
            "payments": [], "comments": [], "description": "Kitchen remodel, remove non-bearing wall"}
    state["records"][record_id] = PermitRecord.model_validate({**base, **fields, "id": record_id}).model_dump(mode="json")
    return record_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state("permits")
    rid = key if by == "id" else next_record_id(state)
    name, email = ctx.person()
    values = {"address": outs.get("address") or ctx.fresh("address"), "applicant_email": outs.get("email") or email,
              "contractor": outs.get("company") or f"{ctx.last_name()} Builders"}
    if by != "id":
        values[by] = key
    return plant_record(state, rid, due=outs.get("money") or ctx.fresh("money"), applicant_name=name,
                        applicant_phone=ctx.fresh("phone"), opened_on=ctx.day(-20 if stale else -5),
                        status="denied" if stale else "in_review",
                        comments=["denied: setback variance required."] if stale else [], **values)


def _open(reader: Reader, field: str, key: Any) -> dict[str, Any]:
    rows = reader.read("permits", "search_records", limit=200, **{field: key})
    rid = pick([r for r in rows if r["status"] in _OPEN], **{field: key})["id"]
    return reader.read("permits", "get_record", record_id=rid)


_EMAIL = Give("email", "applicant_email", "the applicant's email address", "the customer")
_DUE = Give("money", "balance_due", "the permit fees due")
_TRUTH = "A denied or withdrawn permit application is closed; only the open permit record counts."

PERMIT = Relay(
    service="permits", name="permit record", key="permit_id",
    gives=(Give("address", "address", "the permit's site address"), _EMAIL,
           Give("company", "contractor", "the contractor on the permit", party="vendor"), _DUE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"),
    find=lambda reader, key: reader.read("permits", "get_record", record_id=key),
    where="Each permit record names the site address, the applicant's email, the contractor and the fees due.",
    alloc=lambda ctx: next_record_id(ctx.state("permits")), entry=lambda key: f"permit record {key}")

SITE_PERMIT = Relay(
    service="permits", name="site's open permit", key="address",
    gives=(Give("permit_id", "id", "the site's open permit record"), _EMAIL, _DUE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "address"),
    find=lambda reader, key: _open(reader, "address", key),
    where="The city's permit office files permit records under the street address of the work.", truth=_TRUTH)

CONTRACTOR_PERMIT = Relay(
    service="permits", name="contractor's open permit", key="company", key_party="vendor",
    gives=(Give("permit_id", "id", "the contractor's open permit record"),
           Give("address", "address", "the permit's site address"), _DUE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "contractor"),
    find=lambda reader, key: _open(reader, "contractor", key),
    where="Permit records name the licensed contractor doing the work.", truth=_TRUTH)


def _scope(rid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="permits", collection="records", allow_ids=[rid],
                        description="No other permit record was changed or created.")]


def _pay(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["permit"].value, args["mention"], args["case"].value
    due = reader.read("permits", "get_record", record_id=rid)["balance_due"]
    if not due:
        raise SolveError(f"permit {rid} has no fees due")
    ref = f"{case}: {mention.display}"[:120]
    return Write(
        calls=[call("pay_record_fees", record_id=rid, amount=due, payment_method="credit_card", reference=ref)],
        checks=[RecordMatches(id="_", service="permits", collection="records", record_id=rid,
                              where={"fees": {"$each": {"status": "paid"}},
                                     "payments": {"$any": {"reference": {"$contains": mention.display}}}},
                              description="The permit's fees are paid in full, the payment quoting the value.")],
        scope=_scope(rid), tool="pay_record_fees", where={"record_id": rid}, label="the permit fee payment",
        moves_money=True)


def _prepare_inspection(ctx: Ctx, values: dict[str, Any]) -> None:
    """Plan review is done: the record is approved (inspections need that)."""
    rec = ctx.state("permits")["records"].get(values["permit"])
    if rec is not None and rec["status"] in ("submitted", "in_review"):
        rec["status"] = "approved"


def _inspect(reader: Reader, args: dict[str, Found]) -> Write:
    rid = args["permit"].value
    rec = reader.read("permits", "get_record", record_id=rid)
    final = rec["required_inspections"][-1]
    day = reader.read("permits", "check_inspection_availability", record_id=rid,
                      inspection_type=final)["available_dates"][0]
    where = {"record_id": rid, "inspection_type": final, "scheduled_date": day, "status": "scheduled"}
    return Write(
        calls=[call("schedule_inspection", record_id=rid, inspection_type=final, scheduled_date=day)],
        checks=[RecordExists(id="_", service="permits", collection="inspections", where=where,
                             description="The permit's final inspection is booked on the first available date.")],
        scope=[OnlyChanged(id="_", service="permits", collection="inspections", allow_new=where, max_new=1,
                           description="No other inspection was scheduled or changed.")],
        tool="schedule_inspection", where={"record_id": rid}, label="the final inspection booking")


def _comment(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["permit"].value, args["mention"], args["case"].value
    reader.read("permits", "get_record", record_id=rid)
    return Write(
        calls=[call("add_record_comment", record_id=rid, comment=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service="permits", collection="records", record_id=rid,
                              where={"comments": {"$some": {"$all": [{"$contains": case},
                                                                     {"$contains": mention.display}]}}},
                              description="The permit record carries a comment quoting the right value.")],
        scope=_scope(rid), tool="add_record_comment", where={"record_id": rid}, label="the comment on the permit")


LINKS = ServiceLinks(
    service="permits", label="the city permit portal",
    relays=(PERMIT, SITE_PERMIT, CONTRACTOR_PERMIT),
    actions=(
        Action(service="permits", name="pay", needs=(Need("permit", "permit_id"),), build=_pay,
               goal="pay the permit's outstanding fees in full, quoting {mention} in the payment reference"),
        Action(service="permits", name="inspect", needs=(Need("permit", "permit_id"),), build=_inspect,
               prepare=_prepare_inspection,
               goal="book the permit's final inspection on the first available date"),
        Action(service="permits", name="comment", needs=(Need("permit", "permit_id"),), build=_comment,
               goal="add a comment to the permit record, quoting {mention}"),
    ),
)

__all__ = ["LINKS", "next_record_id", "plant_record"]
