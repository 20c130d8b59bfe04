"""State model and seed data of the event ticketing service (Eventbrite API v3 shapes).

Records mirror Eventbrite's objects: venues, events (draft, live, ended,
canceled) with a capacity, ticket classes with cost, quantity and sales
window, orders with base price, fee and gross, and one attendee per ticket.
The seed is the company's own event calendar (customer summit, partner
meetups, workshops) organised by staff from the shared roster; buyers are
Faker customers.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Address, City, DateTime, Email, Id, Money, PersonName
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.service import Record, ServiceState

EventStatus = Literal["draft", "live", "ended", "canceled"]
OrderStatus = Literal["placed", "partially_refunded", "refunded"]
AttendeeStatus = Literal["attending", "checked_in", "refunded"]
#: Eventbrite's service fee per paid ticket: a share of the price plus a fixed part (USD).
FEE_RATE, FEE_FIXED = 0.037, 1.79


def ticket_fee(cost: float) -> float:
    """The service fee of one ticket of ``cost`` USD (free tickets carry none)."""
    return money(cost * FEE_RATE + FEE_FIXED) if cost > 0 else 0.0


class Venue(Record):
    """A venue."""

    id: str = Field(description="Venue id, e.g. VEN-0001.")
    name: str = Field(description="Venue name.")
    address: Address = Field(description="Street address.")
    city: City = Field(description="City.")
    capacity: int = Field(ge=1, description="Most people the venue holds.")


class Event(Record):
    """A ticketed event."""

    id: Id("ticketed_event") = Field(description="Event id, e.g. TEV-0001.")
    name: str = Field(description="Event name.")
    venue_id: str = Field(description="Where it takes place.")
    start: DateTime = Field(description="Start (local time).")
    end: DateTime = Field(description="End (local time).")
    capacity: int = Field(ge=1, description="Most tickets sold across all ticket classes.")
    status: EventStatus = Field(description="draft, live, ended or canceled.")
    organizer_email: Email = Field(description="Staff member who runs it.")


class TicketClass(Record):
    """A kind of ticket for an event."""

    id: str = Field(description="Ticket class id, e.g. TCL-0001.")
    event_id: Id("ticketed_event") = Field(description="The event.")
    name: str = Field(description="e.g. General Admission.")
    cost: Money = Field(ge=0, description="Price per ticket (USD), before the fee.")
    fee: Money = Field(ge=0, description="Service fee per ticket (USD).")
    quantity_total: int = Field(ge=1, description="Tickets of this class for sale.")
    quantity_sold: int = Field(default=0, ge=0, description="Tickets sold and not refunded.")
    sales_start: DateTime = Field(description="Sales open.")
    sales_end: DateTime = Field(description="Sales close (at the latest the event start).")
    maximum_quantity_per_order: int = Field(default=10, ge=1, description="Most tickets in one order.")


class Attendee(Record):
    """The holder of one ticket."""

    id: Id("attendee") = Field(description="Attendee id, e.g. ATD-0001.")
    order_id: Id("ticket_order") = Field(description="The order that bought the ticket.")
    event_id: Id("ticketed_event") = Field(description="The event.")
    ticket_class_id: str = Field(description="The ticket class.")
    name: PersonName = Field(description="Ticket holder's name.")
    email: Email = Field(description="Ticket holder's email.")
    status: AttendeeStatus = Field(description="attending, checked_in or refunded.")
    checked_in_at: Optional[DateTime] = Field(default=None, description="When checked in.")


class Order(Record):
    """A ticket order."""

    id: Id("ticket_order") = Field(description="Order id, e.g. TKO-0001.")
    event_id: Id("ticketed_event") = Field(description="The event.")
    ticket_class_id: str = Field(description="The ticket class bought.")
    quantity: int = Field(ge=1, description="Tickets bought.")
    name: PersonName = Field(description="Buyer's name.")
    email: Email = Field(description="Buyer's email.")
    base_price: Money = Field(ge=0, description="Ticket prices (USD).")
    fee: Money = Field(ge=0, description="Service fees (USD).")
    gross: Money = Field(ge=0, description="Amount paid (USD).")
    refunded_amount: Money = Field(default=0.0, ge=0, description="Refunded so far (USD).")
    status: OrderStatus = Field(description="placed, partially_refunded or refunded.")
    created: DateTime = Field(description="When placed.")
    refund_reason: Optional[str] = Field(default=None, description="Why it was refunded.")


class EventTicketingState(ServiceState):
    """Venues, events, ticket classes, orders and attendees."""

    venues: dict[str, Venue] = Field(default_factory=dict, description="Venues by id.")
    events: dict[str, Event] = Field(default_factory=dict, description="Events by id.")
    ticket_classes: dict[str, TicketClass] = Field(default_factory=dict, description="Ticket classes by id.")
    orders: dict[str, Order] = Field(default_factory=dict, description="Orders by id.")
    attendees: dict[str, Attendee] = Field(default_factory=dict, description="Attendees by id.")


# ---------------------------------------------------------------------- seed
_VENUES = (("Riverside Convention Center", 1200), ("The Grand Ballroom", 400), ("Pier 17 Hall", 250),
           ("Innovation Hub Auditorium", 180), ("Downtown Loft", 80), ("Hilltop Amphitheater", 900))
#: (name, venue index, start offset in days, status, organizer)
_EVENTS = (("Customer Summit 2026", 0, 34, "live", "jamal.wright@company.example"),
           ("Partner Meetup: Spring Edition", 2, 12, "live", "hannah.kovacs@company.example"),
           ("Admin Bootcamp", 3, 6, "live", "luis.ortega@company.example"),
           ("Data and Reporting Workshop", 4, 20, "live", "ben.foster@company.example"),
           ("Spring Product Launch Party", 1, 52, "live", "jamal.wright@company.example"),
           ("Holiday Customer Gala", 1, -28, "ended", "hannah.kovacs@company.example"),
           ("Security Roundtable", 4, 75, "draft", "sofia.marin@company.example"),
           ("Billing Office Hours Live", 3, 18, "canceled", "priya.raman@company.example"))


def _classes(st: EventTicketingState, ev: Event, rng: random.Random, today: dt.date) -> None:
    base = float(rng.choice((49, 79, 99, 149, 199)))
    opened = dt.datetime.combine(today - dt.timedelta(days=60), dt.time(9, 0))
    plans = [("Early Bird", money(base * 0.7), ev.capacity // 5, min(ev.start, opened + dt.timedelta(days=45))),
             ("General Admission", base, ev.capacity * 3 // 5, ev.start),
             ("VIP", money(base * 2.5), ev.capacity // 10, ev.start)]
    for name, cost, qty, end in plans:
        cid = f"TCL-{len(st.ticket_classes) + 1:04d}"
        st.ticket_classes[cid] = TicketClass(id=cid, event_id=ev.id, name=name, cost=cost, fee=ticket_fee(cost),
                                             quantity_total=max(qty, 2), sales_start=opened, sales_end=end,
                                             maximum_quantity_per_order=4 if name == "VIP" else 10)


def _guest_email(holder: str, fake: Faker) -> str:
    return f"{holder.lower().replace(' ', '.')}@{fake.free_email_domain()}".replace("'", "")


def _order(st: EventTicketingState, tc: TicketClass, fake: Faker, rng: random.Random, when: dt.datetime,
           ended: bool) -> None:
    qty = min(rng.choice((1, 1, 2, 2, 3)), tc.quantity_total - tc.quantity_sold)
    if qty < 1:
        return
    first, last = fake.first_name(), fake.last_name()
    name = f"{first} {last}"
    email = f"{first}.{last}{rng.randint(1, 99)}@{fake.free_email_domain()}".lower().replace("'", "")
    oid = f"TKO-{len(st.orders) + 1:04d}"
    refunded = not ended and rng.random() < 0.12
    base, fee = money(qty * tc.cost), money(qty * tc.fee)
    st.orders[oid] = Order(id=oid, event_id=tc.event_id, ticket_class_id=tc.id, quantity=qty, name=name, email=email,
                           base_price=base, fee=fee, gross=money(base + fee), 
                           refunded_amount=money(base + fee) if refunded else 0.0,
                           status="refunded" if refunded else "placed", created=when,
                           refund_reason="Cannot attend" if refunded else None)
    if not refunded:
        tc.quantity_sold += qty
    for k in range(qty):
        aid = f"ATD-{len(st.attendees) + 1:04d}"
        holder = name if k == 0 else fake.name()
        status = "refunded" if refunded else ("checked_in" if ended and rng.random() < 0.8 else "attending")
        ev = st.events[tc.event_id]
        st.attendees[aid] = Attendee(id=aid, order_id=oid, event_id=tc.event_id, ticket_class_id=tc.id, name=holder,
                                     email=email if k == 0 else _guest_email(holder, fake),
                                     status=status, checked_in_at=ev.start + dt.timedelta(minutes=rng.randint(-30, 40))
                                     if status == "checked_in" else None)


def build_seed(fake: Faker, rng: random.Random, today: dt.date) -> EventTicketingState:
    """The seeded calendar: 6 venues, 8 events (5 live, 1 ended, 1 draft, 1
    canceled), three ticket classes each, ~40 orders with their attendees."""
    st = EventTicketingState()
    for i, (name, cap) in enumerate(_VENUES, start=1):
        vid = f"VEN-{i:04d}"
        st.venues[vid] = Venue(id=vid, name=name, address=f"{fake.building_number()} {fake.street_name()}",
                               city=fake.city(), capacity=cap)
    for i, (name, v, offset, status, organizer) in enumerate(_EVENTS, start=1):
        venue = st.venues[f"VEN-{v + 1:04d}"]
        start = dt.datetime.combine(today + dt.timedelta(days=offset), dt.time(rng.choice((9, 10, 18)), 0))
        ev = Event(id=f"TEV-{i:04d}", name=name, venue_id=venue.id, start=start,
                   end=start + dt.timedelta(hours=rng.choice((3, 4, 8))),
                   capacity=venue.capacity if i % 2 else venue.capacity * 3 // 4, status=status,
                   organizer_email=organizer)
        st.events[ev.id] = ev
        _classes(st, ev, rng, today)
        if status in ("live", "ended"):
            classes = [t for t in st.ticket_classes.values() if t.event_id == ev.id]
            for k in range(rng.randint(4, 7)):
                tc = classes[k % 3]
                after = dt.timedelta(days=rng.randint(1, 40), hours=rng.randint(0, 10))
                when = min(tc.sales_end, tc.sales_start + after)
                _order(st, tc, fake, rng, min(when, dt.datetime.combine(today, dt.time(8, 0))), status == "ended")
    st.counters = {"TEV": len(st.events) + 1, "TCL": len(st.ticket_classes) + 1, "TKO": len(st.orders) + 1,
                   "ATD": len(st.attendees) + 1, "VEN": len(st.venues) + 1}
    return st
