"""Helpdesk in chained tasks: a ticket names the customer and the order it is
about; the case's ticket is assigned, escalated or annotated."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services.helpdesk import Agent, Ticket
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    next_id,
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick,
)

#: Who may own a ticket: staff, never the customer.
STAFF_ROLES = ("the account owner", "the agent", "the manager", "the employee's manager")
_TOPICS = ("Refund request", "Delivery problem", "Damaged item", "Billing question", "Wrong item received")
ORDER_RX = r"ORD-\d{4,}"


def plant_ticket(state: dict[str, Any], ticket_id: str, **fields: Any) -> str:
    """Add a :class:`Ticket` (validated) under ``ticket_id``; returns the id.

    Built-in tasks and generation hooks share this planter.

    Raises:
        pydantic.ValidationError: the fields do not make a valid ticket.
    """
    base = {"status": "open", "priority": "normal", "category": "billing", "assignee_email": None,
            "created_on": "2026-01-08", "due_date": None, "tags": [], "comments": [], "description": ""}
    ticket = Ticket.model_validate({**base, **fields, "id": ticket_id})
    state["tickets"][ticket_id] = ticket.model_dump(mode="json")
    return ticket_id


def next_ticket_id(state: dict[str, Any]) -> str:
    """Take the next free ticket id from the helpdesk's counters."""
    return next_id(state, "TCK")


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state("helpdesk")
    tid = key if by_id else next_ticket_id(state)
    name = outs.get("person_name") or ctx.client()
    email = outs.get("email") if not by_id else outs.get("email", ctx.person()[1])
    if not by_id:
        email = key
    order = outs.get("order_id")
    topic = ctx.rng.choice(_TOPICS)
    about = f" about order {order}" if order else ""
    return plant_ticket(
        state, tid, subject=f"{topic}{about}", requester_name=name, requester_email=email,
        description=f"Hello, I am writing{about}. {topic} - please help. {name}",
        status="closed" if stale else "open", created_on=ctx.day(-12 if stale else -2),
        due_date=ctx.day(ctx.rng.randint(2, 9)), category="refund" if "Refund" in topic else "shipping")


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read("helpdesk", "get_ticket", ticket_id=key)


def _by_requester(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read("helpdesk", "search_tickets", requester_email=key)
    return pick([r for r in rows if r["status"] != "closed"], requester_email=key)


_GIVES_BY_ID = (Give("email", "requester_email", "the requester's email address", "the customer"),
                Give("person_name", "requester_name", "the requester's name", "the customer"),
                Give("order_id", "subject", "the order the ticket is about", pattern=ORDER_RX))

TICKET = Relay(
    service="helpdesk", name="ticket", key="ticket_id", gives=_GIVES_BY_ID,
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_by_id,
    where="The ticket names the customer and the order it is about.",
    alloc=lambda ctx: next_ticket_id(ctx.state("helpdesk")), entry=lambda key: f"ticket {key}")

TICKET_OF_CUSTOMER = Relay(
    service="helpdesk", name="open ticket", key="email",
    gives=(Give("ticket_id", "id", "the customer's open ticket"),
           Give("order_id", "subject", "the order the ticket is about", pattern=ORDER_RX)),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_by_requester,
    where="Support tickets are filed under the customer's email address in the helpdesk.",
    truth="A closed ticket is history; only the customer's open ticket counts.")


def _ticket_scope(tid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="helpdesk", collection="tickets", allow_ids=[tid],
                        description="No other helpdesk ticket was changed or created.")]


def plant_agent(state: dict[str, Any], email: str, name: str, team: str = "escalations") -> str:
    """Add an :class:`Agent` with ``email`` unless one exists; returns its id."""
    for agent in state["agents"].values():
        if agent["email"].lower() == email.lower():
            return agent["id"]
    n = state["counters"].get("AGT", len(state["agents"]) + 1)
    state["counters"]["AGT"] = n + 1
    aid = f"AGT-{n:04d}"
    state["agents"][aid] = Agent(id=aid, name=name, email=email, team=team).model_dump(mode="json")
    return aid


def _prepare_assign(ctx: Ctx, values: dict[str, Any]) -> None:
    owners = values["assignee"]
    for email in owners if isinstance(owners, tuple) else (owners,):
        plant_agent(ctx.state("helpdesk"), email, email.split("@")[0].replace(".", " ").title())


def _assign(reader: Reader, args: dict[str, Found]) -> Write:
    tid, owner = args["ticket"].value, args["assignee"].value
    _by_id(reader, tid)
    return Write(
        calls=[call("update_ticket", ticket_id=tid, assignee_email=owner)],
        checks=[RecordMatches(id="_", service="helpdesk", collection="tickets", record_id=tid,
                              where={"assignee_email": {"$ieq": owner}},
                              description="The case's ticket is assigned to the right owner.")],
        scope=_ticket_scope(tid), tool="update_ticket", where={"ticket_id": tid},
        label="the ticket assignment")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    tid, mention = args["ticket"].value, args["mention"]
    body = f"{args['case'].value}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("add_comment", ticket_id=tid, body=body, public=False)],
        checks=[RecordMatches(id="_", service="helpdesk", collection="tickets", record_id=tid,
                              where={"comments": {"$any": {"body": {"$contains": mention.display},
                                                           "public": False}}},
                              description="An internal note on the ticket quotes the right value.")],
        scope=_ticket_scope(tid), tool="add_comment", where={"ticket_id": tid},
        label="the internal note on the ticket")


LINKS = ServiceLinks(
    service="helpdesk", label="the helpdesk",
    relays=(TICKET, TICKET_OF_CUSTOMER),
    actions=(
        Action(service="helpdesk", name="assign", needs=(Need("assignee", "email", STAFF_ROLES, "agent"), Need("ticket", "ticket_id")),
               build=_assign, goal="make {assignee} the owner of the customer's ticket", routable=True,
               prepare=_prepare_assign),
        Action(service="helpdesk", name="note", needs=(Need("ticket", "ticket_id"),),
               build=_note, goal="leave an internal note on the ticket stating {mention}"),
    ),
)

__all__ = ["LINKS", "ORDER_RX", "next_ticket_id", "plant_agent", "plant_ticket"]
