"""Records and state of the event ticketing service (Eventbrite API v3 shapes; see ``event_ticketing.py``).

Records mirror Eventbrite's objects: venues, events (draft, live, ended,
canceled) with a capacity, ticket classes with cost, quantity and sales
window, orders with base price, fee and gross, and one attendee per ticket.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Address, City, DateTime, Email, Id, Money, PersonName
from compoworld_gym.service import Record, ServiceState

EventStatus = Literal["draft", "live", "ended", "canceled"]
OrderStatus = Literal["placed", "partially_refunded", "refunded"]
AttendeeStatus = Literal["attending", "checked_in", "refunded"]


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
