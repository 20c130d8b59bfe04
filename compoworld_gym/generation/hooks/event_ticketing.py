"""Event ticketing in chained tasks: a ticket order names the buyer (email
and name), the amount paid and the event's date; a buyer's live order is
found by their email; an event names its organizer and its date. The case's
order is refunded in full, or its service fee is refunded as a goodwill
gesture."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._event_ticketing_models import Attendee, Event, Order, TicketClass
from compoworld_gym.envs.services._event_ticketing_rules import ticket_fee
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import employee_email, name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, next_id, pick,
)

SERVICE = "event_ticketing"
DATE_RX = r"\d{4}-\d{2}-\d{2}"
_NAMES = ("Regional Customer Roadshow", "Partner Enablement Day", "Product Deep Dive", "Community Meetup",
          "Executive Briefing", "Hands-on Workshop")
_ORGANIZERS = tuple(s.email for s in STAFF if s.team in ("customer_success", "support"))


def next_order_id(state: dict[str, Any]) -> str:
    """Take the next free ticket order id (as ``new_id("TKO")``)."""
    return next_id(state, "TKO")


def next_event_id(state: dict[str, Any]) -> str:
    """Take the next free event id (as ``new_id("TEV")``)."""
    return next_id(state, "TEV")


def plant_event(ctx: Ctx, event_id: str, *, day: str, organizer: str) -> str:
    """Add (or re-plant) a live :class:`Event` on ``day`` (ISO date, 18:00-21:00)
    at a seeded venue, run by ``organizer``, with a General Admission class on
    sale until it starts. Returns the id."""
    state = ctx.state(SERVICE)
    venue = state["venues"][ctx.rng.choice(sorted(state["venues"]))]
    start = dt.datetime.fromisoformat(f"{day}T18:00:00")
    event = Event.model_validate({
        "id": event_id, "name": f"{ctx.rng.choice(_NAMES)} {start:%B %Y}", "venue_id": venue["id"],
        "start": start.isoformat(), "end": (start + dt.timedelta(hours=3)).isoformat(),
        "capacity": venue["capacity"], "status": "live", "organizer_email": organizer})
    state["events"][event_id] = event.model_dump(mode="json")
    if not any(t["event_id"] == event_id for t in state["ticket_classes"].values()):
        _plant_class(ctx, event_id, 129.0, "General Admission")
    return event_id


def _plant_class(ctx: Ctx, event_id: str, cost: float, name: str) -> str:
    state = ctx.state(SERVICE)
    ev = state["events"][event_id]
    cid = next_id(state, "TCL")
    state["ticket_classes"][cid] = TicketClass.model_validate({
        "id": cid, "event_id": event_id, "name": name, "cost": cost, "fee": ticket_fee(cost),
        "quantity_total": max(2, ev["capacity"] // 10), "sales_start": f"{ctx.day(-40)}T09:00:00",
        "sales_end": ev["start"]}).model_dump(mode="json")
    return cid


def _price(gross: float) -> tuple[float, float]:
    """(ticket cost, fee) of one ticket whose price plus Eventbrite fee is ``gross``."""
    guess = round((gross - 1.79) / 1.037, 2)
    for cents in (0, 1, -1, 2, -2):
        cost = round(guess + cents / 100, 2)
        if round(cost + ticket_fee(cost), 2) == round(gross, 2):
            return cost, ticket_fee(cost)
    return guess, round(gross - guess, 2)  # no exact cent split: the fee absorbs the cent


def plant_order(ctx: Ctx, order_id: str, *, email: str, name: str, gross: float, day: str, refunded: bool) -> str:
    """Add a one-ticket :class:`Order` of ``gross`` USD (price plus fee) by
    ``email`` for a new live event on ``day``, with its attendee; placed, or
    ``refunded`` (void). Returns ``order_id``."""
    state = ctx.state(SERVICE)
    event = plant_event(ctx, next_event_id(state), day=day, organizer=ctx.rng.choice(_ORGANIZERS))
    cost, fee = _price(gross)
    tc = _plant_class(ctx, event, cost, "Standard Admission")
    order = Order.model_validate({
        "id": order_id, "event_id": event, "ticket_class_id": tc, "quantity": 1, "name": name, "email": email,
        "base_price": cost, "fee": fee, "gross": gross, "refunded_amount": gross if refunded else 0.0,
        "status": "refunded" if refunded else "placed", "created": f"{ctx.day(-ctx.rng.randint(3, 20))}T12:30:00",
        "refund_reason": "Duplicate purchase" if refunded else None})
    state["orders"][order_id] = order.model_dump(mode="json")
    if not refunded:
        state["ticket_classes"][tc]["quantity_sold"] = 1
    aid = next_id(state, "ATD")
    state["attendees"][aid] = Attendee.model_validate({
        "id": aid, "order_id": order_id, "event_id": event, "ticket_class_id": tc, "name": name, "email": email,
        "status": "refunded" if refunded else "attending"}).model_dump(mode="json")
    return order_id


def _plant_order(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state(SERVICE)
    oid = key if by_id else next_order_id(state)
    email = (outs.get("email") or ctx.person()[1]) if by_id else str(key)
    gross = outs.get("money") or order_total(ctx)
    return plant_order(ctx, oid, email=email, name=outs.get("person_name") or name_from_email(email), gross=gross,
                       day=outs.get("date") or ctx.day(ctx.rng.randint(5, 40)), refunded=stale)


def order_total(ctx: Ctx) -> float:
    """A plausible amount paid for one ticket including its fee (USD)."""
    return round(ctx.rng.randint(4000, 90000) / 100, 2)


_PAID = Give("money", "gross", "the amount paid for the tickets", draw=order_total)
_DAY = Give("date", "event.start", "the event date", pattern=DATE_RX)

ORDER = Relay(
    service=SERVICE, name="ticket order", key="ticket_order_id",
    gives=(Give("email", "email", "the ticket buyer's email address", "the customer"),
           Give("person_name", "name", "the ticket buyer's name", "the customer"), _PAID, _DAY,
           Give("ticket_order_id", "id", "the ticket order")),
    plant=lambda ctx, key, outs, stale: _plant_order(ctx, key, outs, stale, True),
    find=lambda reader, key: reader.read(SERVICE, "get_order", order_id=key),
    where="Each ticket order names the buyer, the amount paid and the event it is for.",
    alloc=lambda ctx: next_order_id(ctx.state(SERVICE)), entry=lambda key: f"ticket order {key}")

BUYER_ORDER = Relay(
    service=SERVICE, name="buyer's ticket order", key="email",
    gives=(Give("ticket_order_id", "id", "the buyer's live ticket order"), _PAID, _DAY),
    plant=lambda ctx, key, outs, stale: _plant_order(ctx, key, outs, stale, False),
    find=lambda reader, key: pick(reader.read(SERVICE, "list_orders", email=key, status="placed")),
    where="The ticketing system files ticket orders under the buyer's email address.",
    truth="A refunded ticket order is void; only the buyer's placed order counts.")

EVENT = Relay(
    service=SERVICE, name="ticketed event", key="ticketed_event_id",
    gives=(Give("email", "organizer_email", "the event organizer's work email", "the event organizer",
                draw=employee_email), Give("date", "start", "the event date", pattern=DATE_RX)),
    plant=lambda ctx, key, outs, stale: plant_event(ctx, key, day=outs.get("date") or ctx.day(ctx.rng.randint(5, 40)),
                                                     organizer=outs.get("email") or employee_email(ctx)),
    find=lambda reader, key: reader.read(SERVICE, "get_event", event_id=key),
    where="Each ticketed event names the staff member who organises it and its date.",
    alloc=lambda ctx: next_event_id(ctx.state(SERVICE)), entry=lambda key: f"ticketed event {key}")


def _scope(oid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="orders", allow_ids=[oid],
                        description="No other ticket order was changed or created.")]


def _refund(reader: Reader, args: dict[str, Found]) -> Write:
    oid, case = args["order"].value, args["case"].value
    reader.read(SERVICE, "get_order", order_id=oid)
    return Write(
        calls=[call("refund_order", order_id=oid, reason=f"Refund for {case}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="orders", record_id=oid,
                              where={"status": "refunded", "refund_reason": {"$contains": case}},
                              description="The ticket order is refunded in full, its reason naming the case.")],
        scope=_scope(oid), tool="refund_order", where={"order_id": oid}, label="the ticket refund", moves_money=True)


def _refund_fee(reader: Reader, args: dict[str, Found]) -> Write:
    oid, case = args["order"].value, args["case"].value
    fee = reader.read(SERVICE, "get_order", order_id=oid)["fee"]
    return Write(
        calls=[call("refund_order", order_id=oid, amount=fee, reason=f"Service fee refunded for {case}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="orders", record_id=oid,
                              where={"status": "partially_refunded", "refunded_amount": {"$gte": fee - 0.005,
                                                                                         "$lte": fee + 0.005},
                                     "refund_reason": {"$contains": case}},
                              description="Exactly the order's service fee is refunded, the reason naming the case.")],
        scope=_scope(oid), tool="refund_order", where={"order_id": oid}, label="the service fee refund",
        moves_money=True)


LINKS = ServiceLinks(
    service=SERVICE, label="the ticketing system",
    relays=(ORDER, BUYER_ORDER, EVENT),
    actions=(
        Action(service=SERVICE, name="refund", needs=(Need("order", "ticket_order_id"),), build=_refund,
               goal="refund the ticket order in full, naming the case in the reason"),
        Action(service=SERVICE, name="refund_fee", needs=(Need("order", "ticket_order_id"),), build=_refund_fee,
               goal="refund just the service fee of the ticket order, naming the case in the reason"),
    ),
)

__all__ = ["LINKS", "next_event_id", "order_total", "next_order_id", "plant_event", "plant_order"]
