"""Event ticketing: venues, events, ticket classes, orders, attendees, check-in and refunds.

No ticketing server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface follows the Eventbrite API v3 (``/venues``, ``/events`` with
``/publish`` and ``/cancel``, ``/events/{id}/ticket_classes``,
``/orders``, ``/events/{id}/attendees``, attendee check-in and order
refunds): the same objects, statuses (event ``draft``/``live``/``ended``/
``canceled``) and order costs (``base_price``, ``fee``, ``gross``). Rules
Eventbrite enforces: tickets sell only for a live event, inside the ticket
class's sales window, within its quantity, the per-order maximum and the
event capacity (422); refunds total at most what was paid (422); an event
with paid orders cannot be cancelled until they are refunded (409); a
refunded ticket cannot be checked in, nor a ticket twice (409).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import City, DateTime, Email, Id, Money, PersonName
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._event_ticketing_models import (
    Attendee, AttendeeStatus, Event, EventStatus, EventTicketingState, Order, OrderStatus, TicketClass, Venue,
)
from compoworld_gym.envs.services._event_ticketing_rules import ticket_fee
from compoworld_gym.envs.services._event_ticketing_seed import build_seed
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Service, tool


class EventTicketing(Service):
    """Eventbrite-style ticketing for the company's events."""

    name = "event_ticketing"
    description = ("Event ticketing (Eventbrite-style): venues, events with capacity, ticket classes, orders by "
                   "attendee email, attendees, check-in and refunds.")
    domain = "events"
    spec_source = None
    State = EventTicketingState

    # ---------------------------------------------------------------- helpers
    def _event(self, event_id: str) -> Event:
        return self.lookup(self.state.events, event_id, "event")

    def _class(self, ticket_class_id: str) -> TicketClass:
        return self.lookup(self.state.ticket_classes, ticket_class_id, "ticket class")

    def _order(self, order_id: str) -> Order:
        return self.lookup(self.state.orders, order_id, "order")

    def _attendee(self, attendee_id: str) -> Attendee:
        return self.lookup(self.state.attendees, attendee_id, "attendee")

    def _sold(self, event_id: str) -> int:
        return sum(t.quantity_sold for t in self.state.ticket_classes.values() if t.event_id == event_id)

    def _event_view(self, ev: Event) -> dict:
        venue = self.state.venues[ev.venue_id]
        sold = self._sold(ev.id)
        return {**ev.model_dump(), "venue": venue.model_dump(), "tickets_sold": sold,
                "tickets_remaining": ev.capacity - sold}

    def _order_view(self, o: Order) -> dict:
        ev = self.state.events[o.event_id]
        return {**o.model_dump(), "event": {"id": ev.id, "name": ev.name, "start": ev.start, "status": ev.status},
                "attendees": [a.model_dump() for a in self.state.attendees.values() if a.order_id == o.id]}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Venue])
    def list_venues(self, city: Optional[City] = None) -> list[dict]:
        """List venues with their address and capacity.

        Args:
            city: only venues in this city.
        """
        return [v.model_dump() for v in self.state.venues.values() if city is None or v.city.lower() == city.lower()]

    @tool(read_only=True, returns=list[Event])
    def list_events(self, status: Optional[EventStatus] = None, venue_id: Optional[str] = None,
                    organizer_email: Optional[Email] = None) -> list[dict]:
        """List events by start, with tickets sold and remaining.

        Args:
            status: draft, live, ended or canceled.
            venue_id: only events at this venue.
            organizer_email: only events this staff member organises.
        """
        rows = [e for e in self.state.events.values() if (status is None or e.status == status)
                and (venue_id is None or e.venue_id == venue_id)
                and (organizer_email is None or e.organizer_email.lower() == organizer_email.lower())]
        return [self._event_view(e) for e in sorted(rows, key=lambda e: (e.start, e.id))]

    @tool(read_only=True, returns=Event)
    def get_event(self, event_id: Id("ticketed_event")) -> dict:
        """Get an event with its venue, ticket classes and remaining capacity.

        Args:
            event_id: the event id, e.g. TEV-0001.
        """
        ev = self._event(event_id)
        return {**self._event_view(ev), "ticket_classes": self.list_ticket_classes(event_id)}

    @tool(read_only=True, returns=list[TicketClass])
    def list_ticket_classes(self, event_id: Id("ticketed_event")) -> list[dict]:
        """List an event's ticket classes with price, fee, quantities and sales window.

        Args:
            event_id: the event.
        """
        self._event(event_id)
        return [{**t.model_dump(), "quantity_remaining": t.quantity_total - t.quantity_sold}
                for t in self.state.ticket_classes.values() if t.event_id == event_id]

    @tool(read_only=True, returns=list[Order])
    def list_orders(self, event_id: Optional[Id("ticketed_event")] = None, email: Optional[Email] = None,
                    status: Optional[OrderStatus] = None) -> list[dict]:
        """List orders (newest first) of an event or of a buyer email (give at least one).

        Args:
            event_id: the event's orders.
            email: the buyer's orders.
            status: placed, partially_refunded or refunded.
        """
        if event_id is None and email is None:
            raise InvalidArgument("give event_id or email (or both).")
        rows = [o for o in self.state.orders.values() if (event_id is None or o.event_id == event_id)
                and (email is None or o.email.lower() == email.lower()) and (status is None or o.status == status)]
        return [self._order_view(o) for o in sorted(rows, key=lambda o: (o.created, o.id), reverse=True)]

    @tool(read_only=True, returns=Order)
    def get_order(self, order_id: Id("ticket_order")) -> dict:
        """Get an order with its event summary and attendees.

        Args:
            order_id: the order id, e.g. TKO-0001.
        """
        return self._order_view(self._order(order_id))

    @tool(read_only=True, returns=list[Attendee])
    def list_attendees(self, event_id: Id("ticketed_event"), status: Optional[AttendeeStatus] = None,
                       email: Optional[Email] = None) -> list[dict]:
        """List an event's attendees (one per ticket).

        Args:
            event_id: the event.
            status: attending, checked_in or refunded.
            email: only this ticket holder.
        """
        self._event(event_id)
        return [a.model_dump() for a in self.state.attendees.values() if a.event_id == event_id
                and (status is None or a.status == status) and (email is None or a.email.lower() == email.lower())]

    @tool(read_only=True, returns=Attendee)
    def get_attendee(self, attendee_id: Id("attendee")) -> dict:
        """Get an attendee.

        Args:
            attendee_id: the attendee id, e.g. ATD-0001.
        """
        return self._attendee(attendee_id).model_dump()

    # ----------------------------------------------------------------- events
    @tool(read_only=False, returns=Event)
    def create_event(self, name: str = Field(min_length=3, max_length=140), venue_id: str = Field(min_length=1),
                     start: DateTime = Field(), end: DateTime = Field(), capacity: int = Field(ge=1, le=100000),
                     organizer_email: Email = Field()) -> dict:
        """Create a draft event at a venue.

        Args:
            name: event name.
            venue_id: the venue, e.g. VEN-0001.
            start: start (ISO 8601), in the future.
            end: end, after start.
            capacity: most tickets, at most the venue's capacity (422).
            organizer_email: the staff member running it.
        """
        venue = self.lookup(self.state.venues, venue_id, "venue")
        if start <= self.now() or end <= start:
            raise Unprocessable("start must be in the future and end after start.")
        if capacity > venue.capacity:
            raise Unprocessable(f"capacity {capacity} exceeds venue {venue.id}'s capacity ({venue.capacity}).")
        ev = Event(id=self.new_id("TEV"), name=name, venue_id=venue.id, start=start, end=end, capacity=capacity,
                   status="draft", organizer_email=organizer_email.lower())
        self.state.events[ev.id] = ev
        return self._event_view(ev)

    @tool(read_only=False, returns=Event)
    def publish_event(self, event_id: Id("ticketed_event")) -> dict:
        """Publish a draft event (it goes live and tickets can sell); it needs a ticket class (422).

        Args:
            event_id: the draft event.
        """
        ev = self._event(event_id)
        if ev.status != "draft":
            raise Conflict(f"event {ev.id} is {ev.status}; only a draft can be published.")
        if not any(t.event_id == ev.id for t in self.state.ticket_classes.values()):
            raise Unprocessable(f"event {ev.id} has no ticket class; create one first.")
        ev.status = "live"
        return self._event_view(ev)

    @tool(read_only=False, returns=Event)
    def cancel_event(self, event_id: Id("ticketed_event")) -> dict:
        """Cancel a draft or live event; refused (409) while it has orders not fully refunded.

        Args:
            event_id: the event.
        """
        ev = self._event(event_id)
        if ev.status not in ("draft", "live"):
            raise Conflict(f"event {ev.id} is {ev.status}; only a draft or live event can be cancelled.")
        open_orders = [o.id for o in self.state.orders.values() if o.event_id == ev.id and o.status != "refunded"]
        if open_orders:
            raise Conflict(f"event {ev.id} has {len(open_orders)} orders not refunded ({', '.join(open_orders[:5])}); "
                           "refund them first.")
        ev.status = "canceled"
        return self._event_view(ev)

    @tool(read_only=False, returns=TicketClass)
    def create_ticket_class(self, event_id: Id("ticketed_event"), name: str = Field(min_length=1, max_length=80),
                            cost: Money = Field(ge=0, le=100000), quantity_total: int = Field(ge=1, le=100000),
                            sales_end: Optional[DateTime] = None,
                            maximum_quantity_per_order: int = Field(default=10, ge=1, le=100)) -> dict:
        """Add a ticket class to a draft or live event; sales open now.

        Args:
            event_id: the event.
            name: e.g. General Admission.
            cost: price per ticket in USD (0 for free); the service fee is added per ticket.
            quantity_total: tickets of this class.
            sales_end: when sales close (default and latest: the event start).
            maximum_quantity_per_order: most tickets in one order.
        """
        ev = self._event(event_id)
        if ev.status not in ("draft", "live"):
            raise Conflict(f"event {ev.id} is {ev.status}; ticket classes belong to draft or live events.")
        if sales_end is not None and sales_end > ev.start:
            raise Unprocessable(f"sales_end must not be after the event start ({ev.start.isoformat()}).")
        t = TicketClass(id=self.new_id("TCL"), event_id=ev.id, name=name, cost=money(cost), fee=ticket_fee(money(cost)),
                        quantity_total=quantity_total, sales_start=self.now(), sales_end=sales_end or ev.start,
                        maximum_quantity_per_order=maximum_quantity_per_order)
        self.state.ticket_classes[t.id] = t
        return {**t.model_dump(), "quantity_remaining": t.quantity_total}

    @tool(read_only=False, returns=TicketClass)
    def update_ticket_class(self, ticket_class_id: str = Field(min_length=1),
                            quantity_total: Optional[int] = Field(default=None, ge=1, le=100000),
                            sales_end: Optional[DateTime] = None,
                            cost: Optional[Money] = Field(default=None, ge=0, le=100000)) -> dict:
        """Change a ticket class's quantity, sales end or price (omitted fields stay).

        Args:
            ticket_class_id: the ticket class, e.g. TCL-0001.
            quantity_total: new quantity, not below the tickets sold (422).
            sales_end: new sales end, not after the event start (422).
            cost: new price; refused (409) once tickets of the class have sold.
        """
        t = self._class(ticket_class_id)
        ev = self.state.events[t.event_id]
        if quantity_total is not None and quantity_total < t.quantity_sold:
            raise Unprocessable(f"{t.quantity_sold} tickets of {t.id} are sold; quantity_total cannot be lower.")
        if sales_end is not None and sales_end > ev.start:
            raise Unprocessable(f"sales_end must not be after the event start ({ev.start.isoformat()}).")
        if cost is not None and t.quantity_sold > 0:
            raise Conflict(f"tickets of {t.id} have sold; its price can no longer change.")
        t.quantity_total = quantity_total or t.quantity_total
        t.sales_end = sales_end or t.sales_end
        if cost is not None:
            t.cost, t.fee = money(cost), ticket_fee(money(cost))
        return {**t.model_dump(), "quantity_remaining": t.quantity_total - t.quantity_sold}

    # ----------------------------------------------------------------- orders
    @tool(read_only=False, returns=Order)
    def create_order(self, event_id: Id("ticketed_event"), ticket_class_id: str = Field(min_length=1),
                     quantity: int = Field(ge=1, le=100), email: Email = Field(),
                     name: PersonName = Field(min_length=1, max_length=120),
                     attendee_names: Optional[list[PersonName]] = None) -> dict:
        """Buy tickets of one class; every ticket gets an attendee (the buyer unless names are given).

        Args:
            event_id: a live event.
            ticket_class_id: a class of that event, on sale now.
            quantity: tickets, within the class's remaining quantity, its per-order maximum and the event capacity.
            email: the buyer's email (also the attendees' unless they are named).
            name: the buyer's name.
            attendee_names: one name per ticket, if the holders differ from the buyer.
        """
        ev, t = self._event(event_id), self._class(ticket_class_id)
        if t.event_id != ev.id:
            raise Unprocessable(f"ticket class {t.id} belongs to event {t.event_id}, not {ev.id}.")
        if ev.status != "live":
            raise Conflict(f"event {ev.id} is {ev.status}; tickets sell only for a live event.")
        now = self.now()
        if not t.sales_start <= now <= t.sales_end:
            raise Unprocessable(f"sales of {t.id} run {t.sales_start.isoformat()} to {t.sales_end.isoformat()}.")
        if quantity > t.maximum_quantity_per_order:
            raise Unprocessable(f"at most {t.maximum_quantity_per_order} tickets of {t.id} per order.")
        if quantity > t.quantity_total - t.quantity_sold:
            raise Unprocessable(f"only {t.quantity_total - t.quantity_sold} tickets of {t.id} are left.")
        if quantity > ev.capacity - self._sold(ev.id):
            raise Unprocessable(f"event {ev.id} has {ev.capacity - self._sold(ev.id)} places left.")
        if attendee_names is not None and len(attendee_names) != quantity:
            raise InvalidArgument(f"attendee_names must hold {quantity} names, one per ticket.")
        base, fee = money(quantity * t.cost), money(quantity * t.fee)
        o = Order(id=self.new_id("TKO"), event_id=ev.id, ticket_class_id=t.id, quantity=quantity, name=name,
                  email=email.lower(), base_price=base, fee=fee, gross=money(base + fee), status="placed", created=now)
        self.state.orders[o.id] = o
        t.quantity_sold += quantity
        for holder in attendee_names or [name] * quantity:
            a = Attendee(id=self.new_id("ATD"), order_id=o.id, event_id=ev.id, ticket_class_id=t.id, name=holder,
                         email=o.email, status="attending")
            self.state.attendees[a.id] = a
        return self._order_view(o)

    @tool(read_only=False, returns=Order)
    def refund_order(self, order_id: Id("ticket_order"), reason: str = Field(min_length=3, max_length=300),
                     amount: Optional[Money] = Field(default=None, ge=0.01, le=1_000_000)) -> dict:
        """Refund an order, in full (default) or in part; refunds total at most the amount paid (422).

        A full refund releases its tickets (attendees become refunded).

        Args:
            order_id: the order.
            reason: why it is refunded.
            amount: USD to refund now; omit to refund everything not yet refunded.
        """
        o = self._order(order_id)
        left = money(o.gross - o.refunded_amount)
        if o.status == "refunded" or left <= 0:
            raise Conflict(f"order {o.id} is already fully refunded.")
        amount = left if amount is None else money(amount)
        if amount > left:
            raise Unprocessable(f"amount {amount:.2f} exceeds what is left to refund on {o.id} ({left:.2f}).")
        o.refunded_amount, o.refund_reason = money(o.refunded_amount + amount), reason
        o.status = "refunded" if o.refunded_amount >= o.gross else "partially_refunded"
        if o.status == "refunded":
            self.state.ticket_classes[o.ticket_class_id].quantity_sold -= o.quantity
            for a in self.state.attendees.values():
                if a.order_id == o.id:
                    a.status = "refunded"
        return self._order_view(o)

    @tool(read_only=False, returns=Attendee)
    def check_in_attendee(self, attendee_id: Id("attendee")) -> dict:
        """Check a ticket holder in at the door, on the event's day (422 on another day).

        Args:
            attendee_id: the attendee.
        """
        a = self._attendee(attendee_id)
        ev = self.state.events[a.event_id]
        if a.status != "attending":
            raise Conflict(f"attendee {a.id} is {a.status}; only an attending ticket holder can check in.")
        if ev.status != "live" or not ev.start.date() <= self.today <= ev.end.date():
            raise Unprocessable(f"check-in for event {ev.id} is open on {ev.start.date()} while it is live.")
        a.status, a.checked_in_at = "checked_in", self.now()
        return a.model_dump()

    @tool(read_only=False, returns=Attendee)
    def update_attendee(self, attendee_id: Id("attendee"),
                        name: Optional[PersonName] = Field(default=None, min_length=1),
                        email: Optional[Email] = None) -> dict:
        """Transfer a ticket to another holder (new name and/or email) before check-in.

        Args:
            attendee_id: the attendee.
            name: the new holder's name.
            email: the new holder's email.
        """
        a = self._attendee(attendee_id)
        if a.status != "attending":
            raise Conflict(f"attendee {a.id} is {a.status}; only an attending ticket can be transferred.")
        if name is None and email is None:
            raise InvalidArgument("give name or email.")
        a.name, a.email = name or a.name, email.lower() if email else a.email
        return a.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> EventTicketingState:
        return build_seed(fake, rng, today)

