"""Forms in chained tasks: the customer's latest refund request, found by their
email, gives the order number and the refund amount asked for; a refund
request is filed for the case's customer."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services.forms import Form, FormResponse
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, latest, pick, next_id,
)

#: The form customers ask for refunds with (planted when a task needs it).
REFUND_FORM = "Refund request form"
_QUESTIONS = [
    {"id": "q1", "title": "Order or booking reference", "type": "short_text", "required": False, "choices": [], "scale_max": 5},
    {"id": "q2", "title": "Refund amount requested (USD)", "type": "number", "required": False, "choices": [],
     "scale_max": 5},
    {"id": "q3", "title": "Reason for the refund", "type": "long_text", "required": True, "choices": [],
     "scale_max": 5},
]
_REASONS = ("Arrived damaged.", "Wrong size.", "Not as described.", "Changed my mind.", "Arrived too late.")


def refund_form(ctx: Ctx) -> str:
    """The id of the open refund request form, planted if the forms tool lacks it."""
    state = ctx.state("forms")
    for form in state["forms"].values():
        if form["title"] == REFUND_FORM:
            return form["id"]
    n = state["counters"].get("FRM", 1)
    state["counters"]["FRM"] = n + 1
    fid = f"FRM-{n:04d}"
    state["forms"][fid] = Form.model_validate({
        "id": fid, "title": REFUND_FORM, "description": "Tell us what you want refunded and why.", "owner_email": OPS_EMAIL,
        "status": "open", "one_response_per_email": False, "created_on": ctx.day(-90),
        "questions": _QUESTIONS}).model_dump(mode="json")
    return fid


def next_response_id(state: dict[str, Any]) -> str:
    """Take the next free response id from the forms tool's counters."""
    return next_id(state, "RSP")


def plant_response(state: dict[str, Any], response_id: str, **fields: Any) -> str:
    """Add a :class:`FormResponse` (validated) under ``response_id``; returns the id.

    Raises:
        pydantic.ValidationError: the fields do not make a valid response.
    """
    record = FormResponse.model_validate({**fields, "id": response_id})
    state["responses"][response_id] = record.model_dump(mode="json")
    return response_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state("forms")
    fid, rid, email = refund_form(ctx), next_response_id(state), str(key)
    order = outs.get("order_id") or f"ORD-{ctx.rng.randint(5000, 9999)}"
    amount = outs.get("money") or round(ctx.rng.randint(2000, 60000) / 100, 2)
    when = ctx.at(-6 if stale else -1, ctx.rng.randint(9, 19))
    return plant_response(state, rid, form_id=fid, respondent_email=email.lower(), submitted_at=when,
                          answers={"q1": order, "q2": amount, "q3": ctx.rng.choice(_REASONS)})


def _latest_of(reader: Reader, key: Any) -> dict[str, Any]:
    fid = pick(reader.read("forms", "list_forms"), title=REFUND_FORM)["id"]
    rows = reader.read("forms", "list_responses", form_id=fid, respondent_email=key, limit=500)
    return reader.read("forms", "get_response", response_id=latest(rows, "submitted_at")["id"])


CUSTOMER_RETURN = Relay(
    service="forms", name="customer's refund request", key="email",
    gives=(Give("order_id", "answers.q1", "the order the customer wants refunded"),
           Give("money", "answers.q2", "the refund amount the customer asked for")),
    plant=_plant, find=_latest_of,
    where="Refund requests in the forms tool are filed under the customer's email, with the order and the refund "
          "asked for.",
    truth="When the customer filed more than one refund request, only the latest one counts.",
    entry=lambda key: f"the refund request {key} filed through the forms tool")


def _prepare(ctx: Ctx, values: dict[str, Any]) -> None:
    refund_form(ctx)


def _file(reader: Reader, args: dict[str, Found]) -> Write:
    email, amount, mention = args["customer"].value.lower(), args["amount"].value, args["mention"]
    fid = pick(reader.read("forms", "list_forms"), title=REFUND_FORM)["id"]
    reason = f"Filed for {args['case'].value}: {mention.noun} is {mention.display}."
    where = {"form_id": fid, "respondent_email": {"$ieq": email}, "answers.q3": {"$contains": mention.display},
             "answers.q2": {"$gte": round(amount - 0.01, 2), "$lte": round(amount + 0.01, 2)}}
    return Write(
        calls=[call("submit_response", form_id=fid, respondent_email=email, answers={"q2": amount, "q3": reason})],
        checks=[RecordExists(id="_", service="forms", collection="responses", where=where,
                             description="A refund request is filed for the right customer and refund, "
                                         "quoting the value.")],
        scope=[OnlyChanged(id="_", service="forms", collection="responses",
                           allow_new={"form_id": fid, "respondent_email": {"$ieq": email}},
                           description="No other form response was filed, changed or deleted.")],
        tool="submit_response", where={"form_id": fid}, label="the filed refund request")


LINKS = ServiceLinks(
    service="forms", label="the forms tool",
    relays=(CUSTOMER_RETURN,),
    actions=(Action(service="forms", name="file",
                    needs=(Need("customer", "email", ("the customer",)),
                           Need("amount", "money", same_record_as="customer")),
                    build=_file, prepare=_prepare,
                    goal="file a refund request for {customer} through the forms tool asking for {amount}, its reason "
                         "quoting {mention}"),),
)

__all__ = ["LINKS", "REFUND_FORM", "next_response_id", "plant_response", "refund_form"]
