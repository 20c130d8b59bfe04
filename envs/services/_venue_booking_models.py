"""Records and state of the venue booking service (Tripleseat API shapes; see ``venue_booking.py``).

Records mirror Tripleseat's objects: locations and their rooms (spaces with
a capacity), leads (inquiries from a company's contact), events (status
prospect/tentative/definite/closed/lost, rooms, start and end, guest count,
the account and contact), banquet event orders (BEOs: the menu items of an
event with their service charge, tax and grand total) and payments
(deposits and payments against the event). The house menu and the money
rules (service charge, tax, the 25% deposit) live here too.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal, NamedTuple, Optional

from pydantic import Field

from compoworld_gym.entities import Address, City, CompanyName, Date, DateTime, Email, Id, Money, PersonName, Phone
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.service import Record, ServiceState

EventStatus = Literal["prospect", "tentative", "definite", "closed", "lost"]
LeadStatus = Literal["new", "contacted", "converted", "lost"]
ItemCategory = Literal["food", "beverage", "rental"]
PaymentKind = Literal["deposit", "payment"]
PaymentMethod = Literal["credit_card", "ach", "check", "wire"]

#: Sales tax on food, beverage and the service charge (rentals are not taxed).
TAX_RATE = 0.0875
#: Default service charge on food and beverage.
SERVICE_CHARGE = 0.20
#: Share of the BEO grand total that must be paid as deposits before an event is definite.
DEPOSIT_RATE = 0.25


class MenuEntry(NamedTuple):
    """A standard item of the house menu: name, category and unit price (USD, per guest or per unit)."""

    name: str
    category: str
    unit_price: float


MENU: dict[str, MenuEntry] = {m.name.lower(): m for m in (
    MenuEntry("Continental breakfast", "food", 18.5), MenuEntry("Plated lunch", "food", 42.0),
    MenuEntry("Plated dinner - chicken", "food", 58.0), MenuEntry("Plated dinner - salmon", "food", 64.0),
    MenuEntry("Hors d'oeuvres reception", "food", 32.0), MenuEntry("Dessert station", "food", 14.0),
    MenuEntry("Coffee and tea service", "beverage", 6.5), MenuEntry("Hosted bar - beer and wine", "beverage", 28.0),
    MenuEntry("Premium open bar", "beverage", 45.0), MenuEntry("AV package", "rental", 650.0),
    MenuEntry("Dance floor", "rental", 400.0), MenuEntry("Stage and lectern", "rental", 350.0),
)}


class Location(Record):
    """A venue site."""

    id: str = Field(description="Location id, e.g. LOC-0001.")
    name: str = Field(description="Venue name.")
    address: Address = Field(description="Street address.")
    city: City = Field(description="City.")


class Room(Record):
    """A bookable space of a location."""

    id: str = Field(description="Room (space) id, e.g. SPC-0001.")
    location_id: str = Field(description="The location.")
    name: str = Field(description="Room name.")
    capacity: int = Field(ge=1, description="Most guests the room holds.")


class Lead(Record):
    """An inquiry from a prospective client."""

    id: Id("venue_lead") = Field(description="Lead id, e.g. VLD-0001.")
    first_name: str = Field(description="Contact's first name.")
    last_name: str = Field(description="Contact's last name.")
    email_address: Email = Field(description="Contact's email.")
    phone_number: Phone = Field(description="Contact's phone.")
    company: CompanyName = Field(description="The client company.")
    event_description: str = Field(description="What they want to hold.")
    event_start: DateTime = Field(description="Requested start.")
    event_end: DateTime = Field(description="Requested end.")
    guest_count: int = Field(ge=1, description="Expected guests.")
    location_id: str = Field(description="Location asked for.")
    status: LeadStatus = Field(description="new, contacted, converted (to an event) or lost.")
    event_id: Optional[Id("venue_event")] = Field(default=None, description="The event it was converted to.")
    lost_reason: Optional[str] = Field(default=None, description="Why it was lost.")
    created_at: DateTime = Field(description="When the inquiry came in.")


class VenueEvent(Record):
    """A booked (or pencilled-in) event."""

    id: Id("venue_event") = Field(description="Event id, e.g. VEV-0001.")
    name: str = Field(description="Event name.")
    status: EventStatus = Field(description="prospect, tentative, definite, closed or lost.")
    lead_id: Optional[Id("venue_lead")] = Field(default=None, description="The lead it came from.")
    company: CompanyName = Field(description="The client account.")
    contact_name: PersonName = Field(description="Client contact.")
    contact_email: Email = Field(description="Client contact's email.")
    contact_phone: Phone = Field(description="Client contact's phone.")
    location_id: str = Field(description="The location.")
    room_ids: list[str] = Field(min_length=1, description="Rooms booked (space ids).")
    event_start: DateTime = Field(description="Start (local time).")
    event_end: DateTime = Field(description="End (local time).")
    guest_count: int = Field(ge=1, description="Guests expected.")
    event_style: str = Field(description="e.g. Plated Dinner, Reception, Conference.")
    owner_email: Email = Field(description="The venue's sales manager for the event.")
    ticketed_event_id: Optional[Id("ticketed_event")] = Field(
        default=None, description="The ticketed event (ticketing system) this booking hosts, if any.")
    lost_reason: Optional[str] = Field(default=None, description="Why it was lost.")
    notes: list[str] = Field(default_factory=list, description="Notes, oldest first.")
    created_at: DateTime = Field(description="When it was booked.")


class MenuItem(Record):
    """One line of a BEO."""

    name: str = Field(description="Item name.")
    category: ItemCategory = Field(description="food, beverage or rental.")
    quantity: int = Field(ge=1, description="Guests or units.")
    unit_price: Money = Field(ge=0, description="Price per guest or unit (USD).")
    amount: Money = Field(ge=0, description="quantity x unit_price (USD).")


class BanquetOrder(Record):
    """A banquet event order: what is served and what it costs."""

    id: Id("banquet_order") = Field(description="BEO id, e.g. BEO-0001.")
    event_id: Id("venue_event") = Field(description="The event.")
    title: str = Field(description="e.g. Dinner BEO.")
    items: list[MenuItem] = Field(min_length=1, description="Lines.")
    service_charge_rate: float = Field(ge=0, le=0.3, description="Service charge on food and beverage.")
    tax_rate: float = Field(ge=0, le=0.2, description="Tax on food, beverage and service charge.")
    subtotal: Money = Field(ge=0, description="Sum of line amounts (USD).")
    service_charge: Money = Field(ge=0, description="Service charge (USD).")
    tax: Money = Field(ge=0, description="Tax (USD).")
    grand_total: Money = Field(ge=0, description="subtotal + service charge + tax (USD).")
    revision: int = Field(default=1, ge=1, description="Revision number (1 when issued).")
    updated_at: DateTime = Field(description="Last change.")


class Payment(Record):
    """A deposit or payment against an event."""

    id: str = Field(description="Payment id, e.g. VPY-0001.")
    event_id: Id("venue_event") = Field(description="The event.")
    kind: PaymentKind = Field(description="deposit or payment.")
    amount: Money = Field(gt=0, description="Amount (USD).")
    method: PaymentMethod = Field(description="credit_card, ach, check or wire.")
    reference: str = Field(default="", description="Payer's reference.")
    paid_on: Date = Field(description="Date received.")


class VenueBookingState(ServiceState):
    """Locations, rooms, leads, events, BEOs and payments."""

    locations: dict[str, Location] = Field(default_factory=dict, description="Locations by id.")
    rooms: dict[str, Room] = Field(default_factory=dict, description="Rooms by id.")
    leads: dict[str, Lead] = Field(default_factory=dict, description="Leads by id.")
    events: dict[str, VenueEvent] = Field(default_factory=dict, description="Events by id.")
    banquet_orders: dict[str, BanquetOrder] = Field(default_factory=dict, description="BEOs by id.")
    payments: dict[str, Payment] = Field(default_factory=dict, description="Payments by id.")


def priced(order: BanquetOrder) -> BanquetOrder:
    """``order`` with its subtotal, service charge, tax and grand total computed from its lines and rates."""
    sub = money(sum(i.amount for i in order.items))
    fb = money(sum(i.amount for i in order.items if i.category != "rental"))
    charge = money(fb * order.service_charge_rate)
    tax = money((fb + charge) * order.tax_rate)
    return order.model_copy(update={"subtotal": sub, "service_charge": charge, "tax": tax,
                                    "grand_total": money(sub + charge + tax)})


def overlaps(a_start: dt.datetime, a_end: dt.datetime, b_start: dt.datetime, b_end: dt.datetime) -> bool:
    """Whether two time ranges share any minute (back-to-back ranges do not)."""
    return a_start < b_end and b_start < a_end


def financials(state: VenueBookingState, event_id: str) -> dict[str, float]:
    """``grand_total`` (its BEOs), ``deposit_required`` (25%), ``deposits_paid``, ``amount_paid``, ``amount_due``."""
    total = money(sum(b.grand_total for b in state.banquet_orders.values() if b.event_id == event_id))
    pays = [p for p in state.payments.values() if p.event_id == event_id]
    paid = money(sum(p.amount for p in pays))
    return {"grand_total": total, "deposit_required": money(total * DEPOSIT_RATE),
            "deposits_paid": money(sum(p.amount for p in pays if p.kind == "deposit")), "amount_paid": paid,
            "amount_due": money(total - paid)}
