"""Public records in chained tasks: a records request names the requester's
email, the permit record it asks about and the fees it still owes; a
requester's open request is found by their email, a permit's open request
by the permit id (a site's or contractor's permit in the permit portal).
Writes: record the payment of the fee estimate, take the one extension of
the due date, or note the request."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._public_records_models import RECORDS_OFFICERS, RecordsRequest
from compoworld_gym.envs.services._public_records_rules import (
    ACK_DAYS, COPY_PRICE, EXTENSION_DAYS, RESPONSE_DAYS, add_business_days, estimate,
)
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.hooks.permits import next_record_id
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "public_records"
_OPEN = ("received", "acknowledged", "in_progress")
_ASKS = ("All plans, inspection reports and correction notices for permit {p}.",
         "Plan-review comments and the inspection history of permit {p}.",
         "Every complaint and code-enforcement note filed against permit {p}.")
#: The permit records the permits service seeds (PRM-0001..PRM-0009, the same in every seed).
_SEEDED_PERMITS = 9


def permit_ref(ctx: Ctx) -> str:
    """A fresh permit id for a request about a permit: the permit portal's next id when it is mounted,
    else one past its seeded records, counted in this service's counters."""
    if "permits" in ctx.states:
        return next_record_id(ctx.state("permits"))
    ctx.state(SERVICE)["counters"].setdefault("PRM", _SEEDED_PERMITS + 1 + ctx.rng.randrange(25))
    return ctx.new_id(SERVICE, "PRM")


def plant_request(ctx: Ctx, request_id: str, *, fees: float, **fields: Any) -> str:
    """Add an in-progress :class:`RecordsRequest` (validated), acknowledged on time, whose pending fee
    estimate totals ``fees`` USD (copies plus data extraction); ``fields`` override any field."""
    received = add_business_days(ctx.today, -ctx.rng.randint(2, 5))
    pages = min(ctx.rng.randint(20, 400), int(fees / COPY_PRICE))
    est = estimate(pages, money(fees - pages * COPY_PRICE), False, ctx.today)
    dept = "Building & Permits"
    base = {"department": dept, "point_of_contact": RECORDS_OFFICERS[dept], "status": "in_progress",
            "received_on": received, "ack_due_on": add_business_days(received, ACK_DAYS),
            "acknowledged_on": add_business_days(received, 1), "due_on": add_business_days(received, RESPONSE_DAYS),
            "acknowledgement": "Your request was received; the department is gathering the records.",
            "fee_estimate": est.model_dump(mode="json")}
    if fields.get("status") in ("fulfilled", "denied"):
        base.update(fee_estimate=None, closed_on=ctx.day(-2), exemptions_cited=["GC 7927.300"]
                    if fields["status"] == "denied" else [], closure_reason="Closed.")
    rec = RecordsRequest.model_validate({**base, **fields, "id": request_id})
    ctx.state(SERVICE)["requests"][request_id] = rec.model_dump(mode="json")
    return request_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    rid = key if by == "id" else next_id(ctx.state(SERVICE), "PRR")
    email = key if by == "email" else outs.get("email") or ctx.person()[1]
    permit = key if by == "permit" else outs.get("permit_id") or permit_ref(ctx)
    closed = {"status": "denied", "closure_reason": "Withheld: records pertain to pending litigation."} if stale \
        else {}
    return plant_request(ctx, rid, fees=outs.get("money") or ctx.fresh("money"), requester_email=email,
                         requester_name=name_from_email(email), related_permit_id=permit,
                         description=ctx.rng.choice(_ASKS).format(p=permit), **closed)


def _open(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "search_requests", limit=200, **where)
    rid = pick([r for r in rows if r["status"] in _OPEN], **where)["id"]
    return reader.read(SERVICE, "get_request", request_id=rid)


_FEES = Give("money", "fees_due", "the records request's fees due")
_TRUTH = "A closed records request cannot change; only the open request counts."

REQUEST = Relay(
    service=SERVICE, name="public records request", key="records_request_id",
    gives=(Give("email", "requester_email", "the requester's email address", "the customer"),
           Give("permit_id", "related_permit_id", "the permit record the request asks about"), _FEES),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"),
    find=lambda reader, key: reader.read(SERVICE, "get_request", request_id=key),
    where="Each public records request names the requester's email, the permit record it asks about and the "
          "fees it owes.",
    alloc=lambda ctx: next_id(ctx.state(SERVICE), "PRR"), entry=lambda key: f"public records request {key}")

REQUESTER_REQUEST = Relay(
    service=SERVICE, name="requester's open records request", key="email",
    gives=(Give("records_request_id", "id", "the requester's open records request"),
           Give("permit_id", "related_permit_id", "the permit record the request asks about"), _FEES),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "email"),
    find=lambda reader, key: _open(reader, requester_email=key),
    where="The city records office files public records requests under the requester's email.", truth=_TRUTH)

PERMIT_REQUEST = Relay(
    service=SERVICE, name="permit's open records request", key="permit_id",
    gives=(Give("records_request_id", "id", "the open records request about the permit"),
           Give("email", "requester_email", "the requester's email address", "the customer"), _FEES),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "permit"),
    find=lambda reader, key: _open(reader, related_permit_id=key),
    where="Public records requests about a permit are filed under the permit record's id.",
    alloc=permit_ref, entry=lambda key: f"the public records request about permit {key}", truth=_TRUTH)


def _scope(rid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="requests", allow_ids=[rid],
                        description="No other records request was changed or created.")]


def _pay(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["request"].value, args["mention"], args["case"].value
    due = reader.read(SERVICE, "get_request", request_id=rid)["fees_due"]
    if not due:
        raise SolveError(f"records request {rid} has no fees due")
    return Write(
        calls=[call("pay_request_fees", request_id=rid, amount=due, payment_method="credit_card",
                    reference=f"{case}: {mention.display}"[:120])],
        checks=[RecordMatches(id="_", service=SERVICE, collection="requests", record_id=rid,
                              where={"fee_estimate.status": "paid", "fee_estimate.total": due,
                                     "fee_estimate.reference": {"$contains": mention.display}},
                              description="The request's fee estimate is paid, the payment quoting the value.")],
        scope=_scope(rid), tool="pay_request_fees", where={"request_id": rid}, label="the records fee payment",
        moves_money=True)


def _prepare_extend(ctx: Ctx, values: dict[str, Any]) -> None:
    """The case's request has not used its one extension, and its due date has not passed."""
    r = ctx.state(SERVICE)["requests"].get(values["request"])
    if r is not None and r["status"] in _OPEN and not r["extended"] and r["due_on"] < ctx.today.isoformat():
        r["due_on"] = add_business_days(ctx.today, 2).isoformat()


def _extend(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["request"].value, args["mention"], args["case"].value
    r = reader.read(SERVICE, "get_request", request_id=rid)
    if r["extended"]:
        raise SolveError(f"records request {rid} was already extended")
    new_due = add_business_days(dt.date.fromisoformat(r["due_on"]), EXTENSION_DAYS).isoformat()
    reason = f"{case}: records still being gathered; {mention.noun} is {mention.display}."
    return Write(
        calls=[call("extend_deadline", request_id=rid, reason=reason)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="requests", record_id=rid,
                              where={"extended": True, "due_on": new_due,
                                     "extension_reason": {"$all": [{"$contains": case},
                                                                   {"$contains": mention.display}]}},
                              description="The request's due date is extended once, the reason quoting the value.")],
        scope=_scope(rid), tool="extend_deadline", where={"request_id": rid}, label="the extension of the due date")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["request"].value, args["mention"], args["case"].value
    reader.read(SERVICE, "get_request", request_id=rid)
    return Write(
        calls=[call("add_request_note", request_id=rid, note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="requests", record_id=rid,
                              where={"notes": {"$some": {"$all": [{"$contains": case},
                                                                  {"$contains": mention.display}]}}},
                              description="The records request carries a note quoting the right value.")],
        scope=_scope(rid), tool="add_request_note", where={"request_id": rid}, label="the note on the records request")


_REQ = Need("request", "records_request_id")

LINKS = ServiceLinks(
    service=SERVICE, label="the city public records portal",
    relays=(REQUEST, REQUESTER_REQUEST, PERMIT_REQUEST),
    actions=(
        Action(service=SERVICE, name="pay", needs=(_REQ,), build=_pay,
               goal="record the payment of the records request's fee estimate, quoting {mention} in the reference"),
        Action(service=SERVICE, name="extend", needs=(_REQ,), build=_extend, prepare=_prepare_extend,
               goal="extend the records request's due date (its one extension), quoting {mention} in the reason"),
        Action(service=SERVICE, name="note", needs=(_REQ,), build=_note,
               goal="add a note to the records request, quoting {mention}"),
    ),
)

__all__ = ["LINKS", "permit_ref", "plant_request"]
