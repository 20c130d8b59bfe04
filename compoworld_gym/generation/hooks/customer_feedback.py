"""Customer feedback in chained tasks: a customer's latest survey response
names the ticket or order it is about and the customer's company; a
company's open feedback note names the customer who gave it; the case's
response gets a follow-up owner or a follow-up note."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import staff_of
from compoworld_gym.envs.services.customer_feedback import FeedbackNote, Response
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.helpdesk import STAFF_ROLES
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, latest, pick

ORDER_RX = r"ORD-\d{4,}"
#: Seeded surveys: the relationship NPS (oldest), support CSAT, business-accounts NPS.
_OLD_NPS, _CSAT, _B2B_NPS = "SRV-0001", "SRV-0002", "SRV-0003"
_TOPICS = (("Export invoices as CSV", "feature-request"), ("Order tracking page is confusing", "ux"),
           ("Bulk reorder from past orders", "feature-request"), ("Invoices arrive without a PO number", "billing"))


def _next(state: dict[str, Any], prefix: str) -> str:
    n = state["counters"].get(prefix, 1)
    state["counters"][prefix] = n + 1
    return f"{prefix}-{n:04d}"


def plant_response(state: dict[str, Any], **fields: Any) -> str:
    """Add a survey :class:`Response` (validated) with the next free id; returns it."""
    rid = _next(state, "RSP")
    base = {"company": None, "ticket_id": None, "tags": [], "follow_up_owner": None, "follow_up_note": ""}
    state["responses"][rid] = Response.model_validate({**base, **fields, "id": rid}).model_dump(mode="json")
    return rid


def plant_feedback(state: dict[str, Any], **fields: Any) -> str:
    """Add a :class:`FeedbackNote` (validated) with the next free id; returns it."""
    fid = _next(state, "FBK")
    base = {"company": None, "ticket_id": None, "response_id": None, "tags": [], "owner_email": None}
    state["notes"][fid] = FeedbackNote.model_validate({**base, **fields, "id": fid}).model_dump(mode="json")
    return fid


def _plant_response(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    order, company = outs.get("order_id"), outs.get("company")
    about = f"My order {order} arrived damaged" if order else "My delivery arrived damaged"
    if stale:
        fields = {"survey_id": _OLD_NPS, "score": 9, "comment": "Quick delivery, happy with the service.",
                  "submitted_on": ctx.day(-35), "follow_up_status": "none"}
    else:
        fields = {"survey_id": _B2B_NPS if company else _CSAT, "score": 3 if company else 2,
                  "comment": f"{about} and nobody has called me back.", "tags": ["shipping", "support"],
                  "submitted_on": ctx.day(-2), "follow_up_status": "needed"}
    return plant_response(ctx.state("customer_feedback"), customer_email=key, company=company,
                          customer_name=outs.get("person_name") or ctx.client(), ticket_id=outs.get("ticket_id"),
                          **fields)


def _find_response(reader: Reader, key: Any) -> dict[str, Any]:
    return latest(reader.read("customer_feedback", "search_responses", customer_email=key, limit=200),
                  "submitted_on", customer_email=key)


def _plant_note(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    title, tag = ctx.rng.choice(_TOPICS)
    ticket = outs.get("ticket_id")
    return plant_feedback(
        ctx.state("customer_feedback"), title=title, customer_email=outs.get("email") or ctx.person()[1],
        content=f"{title}: this slows our team down every week.", company=key, ticket_id=ticket, tags=[tag],
        source="ticket" if ticket else "email", status="closed" if stale else "new",
        created_on=ctx.day(-50 if stale else -3))


def _find_note(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read("customer_feedback", "list_feedback", company=key, limit=200)
    return pick([r for r in rows if r["status"] != "closed"], company=key)


_TICKET = Give("ticket_id", "ticket_id", "the helpdesk ticket the feedback is about")

RESPONSE = Relay(
    service="customer_feedback", name="survey response", key="email",
    gives=(Give("response_id", "id", "the survey response's id"), _TICKET,
           Give("order_id", "comment", "the order the customer complains about", pattern=ORDER_RX),
           Give("person_name", "customer_name", "the respondent's name", "the customer"),
           Give("company", "company", "the respondent's company", party="customer")),
    plant=_plant_response, find=_find_response,
    where="Customer feedback files survey responses under the customer's email address, with the comment, "
          "the ticket they concern and the company.",
    entry=lambda key: f"the latest survey response from {key}",
    truth="When the customer answered more than one survey, the most recent response wins.")

COMPANY_NOTE = Relay(
    service="customer_feedback", name="company's feedback note", key="company", key_party="customer",
    gives=(Give("email", "customer_email", "the email address of the customer who gave the feedback", "the customer"),
           _TICKET),
    plant=_plant_note, find=_find_note,
    where="Customer feedback files product feedback notes under the customer company, naming who gave them.",
    truth="Closed feedback is final; only the company's open feedback note counts.")


def _follow_up(reader: Reader, args: dict[str, Found]) -> Write:
    rid, owner, mention = args["response"].value, args["owner"].value, args["mention"]
    reader.read("customer_feedback", "get_response", response_id=rid)
    note = f"{args['case'].value}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("set_follow_up", response_id=rid, status="in_progress", owner_email=owner, note=note)],
        checks=[RecordMatches(id="_", service="customer_feedback", collection="responses", record_id=rid,
                              where={"follow_up_status": "in_progress", "follow_up_owner": {"$ieq": owner},
                                     "follow_up_note": {"$contains": mention.display}},
                              description="The right person follows up the response, with the right value noted.")],
        scope=[OnlyChanged(id="_", service="customer_feedback", collection="responses", allow_ids=[rid],
                           description="No other survey response was changed or created.")],
        tool="set_follow_up", where={"response_id": rid}, label="the follow-up on the survey response")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention = args["response"].value, args["mention"]
    status = reader.read("customer_feedback", "get_response", response_id=rid)["follow_up_status"]
    note = f"{args['case'].value}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("set_follow_up", response_id=rid, status=status, note=note)],
        checks=[RecordMatches(id="_", service="customer_feedback", collection="responses", record_id=rid,
                              where={"follow_up_note": {"$contains": mention.display}},
                              description="The follow-up note of the response quotes the right value.")],
        scope=[OnlyChanged(id="_", service="customer_feedback", collection="responses", allow_ids=[rid],
                           description="No other survey response was changed or created.")],
        tool="set_follow_up", where={"response_id": rid}, label="the follow-up note on the survey response")


def _owners(ctx: Ctx) -> tuple[str, str]:
    a, b = ctx.rng.sample([s.email for s in staff_of("customer_success") + staff_of("support")], 2)
    return a, b


LINKS = ServiceLinks(
    service="customer_feedback", label="customer feedback",
    relays=(RESPONSE, COMPANY_NOTE),
    actions=(Action(service="customer_feedback", name="follow_up",
                    needs=(Need("owner", "email", STAFF_ROLES, "follow-up owner"), Need("response", "response_id")),
                    build=_follow_up, routable=True,
                    goal="hand the follow-up of the customer's survey response to {owner}, noting {mention}"),
             Action(service="customer_feedback", name="note", needs=(Need("response", "response_id"),), build=_note,
                    goal="add {mention} to the follow-up note of the customer's survey response")),
    route_values={"email": _owners},
)

__all__ = ["LINKS", "plant_feedback", "plant_response"]
