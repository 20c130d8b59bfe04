"""Seed data of the event ticketing service (records in ``_event_ticketing_models``).

The seed is the company's own event calendar (customer summit, partner
meetups, workshops) organised by staff from the shared roster; buyers are
Faker customers.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._event_ticketing_models import (
    Attendee, Event, EventTicketingState, Order, TicketClass, Venue,
)
from compoworld_gym.envs.services._event_ticketing_rules import ticket_fee

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
