"""Venue booking: rooms and availability, leads, events, banquet event orders, deposits and payments.

No venue-sales server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Tripleseat API:
locations and their rooms (``/locations``, ``/rooms`` with a capacity),
``/leads`` (``first_name``, ``last_name``, ``email_address``,
``phone_number``, ``company``, ``event_description``, ``guest_count``;
converted to an event), ``/events`` (``status`` PROSPECT, TENTATIVE,
DEFINITE, CLOSED or LOST, ``room_ids``, ``event_start``/``event_end``,
``guest_count``, ``event_style``, the account and contact), the event's
documents (banquet event orders, BEOs: menu items, service charge, tax,
``grand_total``) and ``/payments`` (deposits and payments).

Rules (those of a venue's sales office, as Tripleseat enforces them): the
guest count never exceeds the capacity of the rooms booked (422); a room
is never double-booked: no two events that are not lost hold it at
overlapping times (409); an event becomes **definite only once deposits of
at least 25% of its BEO grand total are paid** (422); it is closed only
after it ends with nothing due (422); status moves prospect -> tentative ->
definite -> closed, with lost from any open status (a reason required) and
tentative back to prospect; **a closed event cannot change at all** (409),
nor can a lost one be rebooked or billed; payments never exceed the amount
due (422). BEO totals: food and beverage carry the service charge (20%
default) and 8.75% tax on both; rentals are neither charged nor taxed.
Left out: Tripleseat's sites, users, custom fields and document templates.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, DateTime, Email, Id, Money, PersonName, Phone
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._venue_booking_models import (
    SERVICE_CHARGE, TAX_RATE, BanquetOrder, Lead, Payment, PaymentKind, PaymentMethod, VenueBookingState,
    VenueEvent, financials, priced,
)
from compoworld_gym.envs.services._venue_booking_rules import (
    ItemInput, check_capacity, check_free, check_open, check_status, check_times, lines, rooms_of,
)
from compoworld_gym.envs.services._venue_booking_seed import SALES_MANAGERS, build_state
from compoworld_gym.envs.services._venue_booking_tools import VenueRecords
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import tool


class VenueBooking(VenueRecords):
    """Tripleseat-style venue sales: leads, events in rooms, BEOs, deposits and payments."""

    name = "venue_booking"
    description = ("Venue booking (Tripleseat-style): rooms with capacity and availability, leads from client "
                   "companies, events (prospect/tentative/definite/closed/lost), banquet event orders, deposits.")
    domain = "events"
    spec_source = None
    State = VenueBookingState

    # ------------------------------------------------------------------ leads
    @tool(read_only=False, returns=Lead)
    def create_lead(self, first_name: str = Field(min_length=1, max_length=60),
                    last_name: str = Field(min_length=1, max_length=60), email_address: Email = Field(),
                    phone_number: Phone = Field(min_length=7, max_length=30), company: CompanyName = Field(min_length=2),
                    event_description: str = Field(min_length=3, max_length=300), event_start: DateTime = Field(),
                    event_end: DateTime = Field(), guest_count: int = Field(ge=1, le=100000),
                    location_id: str = Field(min_length=1)) -> dict:
        """Record an inquiry from a prospective client.

        Args:
            first_name: contact's first name.
            last_name: contact's last name.
            email_address: contact's email.
            phone_number: contact's phone.
            company: the client company.
            event_description: what they want to hold.
            event_start: requested start (ISO date-time, in the future).
            event_end: requested end.
            guest_count: expected guests.
            location_id: the venue asked for, e.g. LOC-0001.
        """
        loc = self.lookup(self.state.locations, location_id, "location")
        start, end = event_start.replace(tzinfo=None), event_end.replace(tzinfo=None)
        check_times(start, end, self._clock())
        lead = Lead(id=self.new_id("VLD"), first_name=first_name, last_name=last_name, email_address=email_address,
                    phone_number=phone_number, company=company, event_description=event_description,
                    event_start=start, event_end=end, guest_count=guest_count, location_id=loc.id, status="new",
                    created_at=self.now())
        self.state.leads[lead.id] = lead
        return lead.model_dump()

    @tool(read_only=False, returns=Lead)
    def update_lead_status(self, lead_id: Id("venue_lead"), status: Literal["contacted", "lost"],
                           lost_reason: Optional[str] = Field(default=None, min_length=3, max_length=300)) -> dict:
        """Mark a lead contacted, or lost (with the reason). Converted leads do not change.

        Args:
            lead_id: the lead.
            status: contacted or lost.
            lost_reason: why it was lost (required for lost).
        """
        lead = self._lead(lead_id)
        if lead.status in ("converted", "lost"):
            raise Conflict(f"lead {lead.id} is {lead.status}; it cannot change.")
        if status == lead.status:
            raise Conflict(f"lead {lead.id} is already {status}.")
        if status == "lost" and not lost_reason:
            raise Unprocessable("give the lost_reason.")
        lead.status, lead.lost_reason = status, lost_reason if status == "lost" else None
        return lead.model_dump()

    @tool(read_only=False, returns=VenueEvent)
    def convert_lead(self, lead_id: Id("venue_lead"), room_ids: list[str] = Field(min_length=1, max_length=8),
                     name: Optional[str] = Field(default=None, min_length=2, max_length=150),
                     event_style: str = Field(default="Reception", min_length=2, max_length=60),
                     owner_email: Optional[Email] = None) -> dict:
        """Turn a new or contacted lead into a prospect event in the given rooms (capacity and availability checked).

        Args:
            lead_id: the lead.
            room_ids: rooms to book, at the lead's location.
            name: event name; default the lead's description.
            event_style: e.g. Reception, Plated Dinner, Conference.
            owner_email: the sales manager; default the first one.
        """
        lead = self._lead(lead_id)
        if lead.status in ("converted", "lost"):
            raise Conflict(f"lead {lead.id} is {lead.status}"
                           + (f" (event {lead.event_id})." if lead.event_id else "; it cannot be converted."))
        ev = self._book(name or lead.event_description, lead.company, f"{lead.first_name} {lead.last_name}".strip(),
                        lead.email_address, lead.phone_number, room_ids, lead.event_start, lead.event_end,
                        lead.guest_count, event_style, owner_email, None, lead.location_id)
        ev.lead_id = lead.id
        lead.status, lead.event_id = "converted", ev.id
        return self._event_view(ev)

    # ----------------------------------------------------------------- events
    def _book(self, name: str, company: str, contact: str, email: str, phone: str, room_ids: list[str],
              start: dt.datetime, end: dt.datetime, guests: int, style: str, owner: Optional[str],
              ticketed: Optional[str], location_id: Optional[str] = None) -> VenueEvent:
        rooms = rooms_of(self.state, room_ids)
        if location_id is not None and rooms[0].location_id != location_id:
            raise Unprocessable(f"the lead asked for {location_id}; book rooms of that location.")
        start, end = start.replace(tzinfo=None), end.replace(tzinfo=None)
        check_times(start, end, self._clock())
        check_capacity(rooms, guests)
        check_free(self.state, rooms, start, end)
        ev = VenueEvent(id=self.new_id("VEV"), name=name, status="prospect", company=company, contact_name=contact,
                        contact_email=email, contact_phone=phone, location_id=rooms[0].location_id,
                        room_ids=[r.id for r in rooms], event_start=start, event_end=end, guest_count=guests,
                        event_style=style, owner_email=owner or SALES_MANAGERS[0], ticketed_event_id=ticketed,
                        created_at=self.now())
        self.state.events[ev.id] = ev
        return ev

    @tool(read_only=False, returns=VenueEvent)
    def create_event(self, name: str = Field(min_length=2, max_length=150), company: CompanyName = Field(min_length=2),
                     contact_name: PersonName = Field(min_length=2), contact_email: Email = Field(),
                     contact_phone: Phone = Field(min_length=7, max_length=30),
                     room_ids: list[str] = Field(min_length=1, max_length=8), event_start: DateTime = Field(),
                     event_end: DateTime = Field(), guest_count: int = Field(ge=1, le=100000),
                     event_style: str = Field(default="Reception", min_length=2, max_length=60),
                     owner_email: Optional[Email] = None,
                     ticketed_event_id: Optional[Id("ticketed_event")] = None) -> dict:
        """Book a prospect event directly (no lead): rooms must fit the guests and be free at that time.

        Args:
            name: event name.
            company: the client account.
            contact_name: client contact.
            contact_email: contact's email.
            contact_phone: contact's phone.
            room_ids: rooms to book (one location).
            event_start: start (ISO date-time, in the future).
            event_end: end (at most 72 hours later).
            guest_count: guests expected.
            event_style: e.g. Reception, Plated Dinner, Conference.
            owner_email: the sales manager; default the first one.
            ticketed_event_id: the ticketing system's event this booking hosts, e.g. TEV-0001.
        """
        ev = self._book(name, company, contact_name, contact_email, contact_phone, room_ids, event_start, event_end,
                        guest_count, event_style, owner_email, ticketed_event_id)
        return self._event_view(ev)

    @tool(read_only=False, returns=VenueEvent)
    def update_event(self, event_id: Id("venue_event"),
                     name: Optional[str] = Field(default=None, min_length=2, max_length=150),
                     room_ids: Optional[list[str]] = Field(default=None, min_length=1, max_length=8),
                     event_start: Optional[DateTime] = None, event_end: Optional[DateTime] = None,
                     guest_count: Optional[int] = Field(default=None, ge=1, le=100000),
                     event_style: Optional[str] = Field(default=None, min_length=2, max_length=60)) -> dict:
        """Change an open event's name, rooms, times, guest count or style (capacity and availability re-checked).

        Args:
            event_id: the event (not closed or lost).
            name: event name.
            room_ids: the rooms (replaces the booked ones).
            event_start: new start (in the future).
            event_end: new end.
            guest_count: guests expected.
            event_style: e.g. Plated Dinner.
        """
        ev = self._event(event_id)
        if all(v is None for v in (name, room_ids, event_start, event_end, guest_count, event_style)):
            raise InvalidArgument("give at least one field to change.")
        check_open(ev, "update_event")
        rooms = rooms_of(self.state, room_ids if room_ids is not None else ev.room_ids)
        start = event_start.replace(tzinfo=None) if event_start is not None else ev.event_start
        end = event_end.replace(tzinfo=None) if event_end is not None else ev.event_end
        check_times(start, end, self._clock() if event_start is not None or event_end is not None else None)
        guests = guest_count if guest_count is not None else ev.guest_count
        check_capacity(rooms, guests)
        check_free(self.state, rooms, start, end, skip=ev.id)
        ev.name = name or ev.name
        ev.event_style = event_style or ev.event_style
        ev.room_ids, ev.location_id = [r.id for r in rooms], rooms[0].location_id
        ev.event_start, ev.event_end, ev.guest_count = start, end, guests
        return self._event_view(ev)

    @tool(read_only=False, returns=VenueEvent)
    def update_event_status(self, event_id: Id("venue_event"),
                            status: Literal["prospect", "tentative", "definite", "closed", "lost"],
                            reason: Optional[str] = Field(default=None, min_length=3, max_length=300)) -> dict:
        """Move an event along prospect -> tentative -> definite -> closed, or to lost (with a reason).

        Definite needs deposits of at least 25% of the BEO grand total (422);
        closed needs the event over and nothing due (422); a closed event never changes (409).

        Args:
            event_id: the event.
            status: the new status.
            reason: why (required for lost; added to the notes otherwise).
        """
        ev = self._event(event_id)
        check_status(self.state, ev, status, self._clock(), reason)
        ev.status = status
        if status == "lost":
            ev.lost_reason = reason
        elif reason:
            ev.notes.append(f"{status}: {reason}")
        return self._event_view(ev)

    @tool(read_only=False, returns=VenueEvent)
    def add_event_note(self, event_id: Id("venue_event"), note: str = Field(min_length=1, max_length=500)) -> dict:
        """Add a note to an event (not a closed one).

        Args:
            event_id: the event.
            note: the note.
        """
        ev = self._event(event_id)
        if ev.status == "closed":
            check_open(ev, "add_event_note")
        ev.notes.append(note)
        return self._event_view(ev)

    # ------------------------------------------------------------------- BEOs
    @tool(read_only=False, returns=BanquetOrder)
    def create_banquet_order(self, event_id: Id("venue_event"), items: list[ItemInput] = Field(min_length=1,
                                                                                              max_length=40),
                             title: str = Field(default="Banquet Event Order", min_length=2, max_length=120),
                             service_charge_rate: float = Field(default=SERVICE_CHARGE, ge=0, le=0.3)) -> dict:
        """Issue a banquet event order (BEO) for an open event: menu items by name (see list_menu) or open items.

        Args:
            event_id: the event (not closed or lost).
            items: lines, e.g. [{"name": "Plated lunch", "quantity": 90}, {"name": "Flowers", "quantity": 10,
                "category": "rental", "unit_price": 45}].
            title: e.g. Dinner BEO.
            service_charge_rate: service charge on food and beverage (0-0.3, default 0.20).
        """
        ev = self._event(event_id)
        check_open(ev, "create_banquet_order")
        order = priced(BanquetOrder(id=self.new_id("BEO"), event_id=ev.id, title=title, items=lines(items),
                                    service_charge_rate=service_charge_rate, tax_rate=TAX_RATE, subtotal=0,
                                    service_charge=0, tax=0, grand_total=0, updated_at=self.now()))
        self.state.banquet_orders[order.id] = order
        return {**order.model_dump(), "event_financials": financials(self.state, ev.id)}

    @tool(read_only=False, returns=BanquetOrder)
    def update_banquet_order(self, banquet_order_id: Id("banquet_order"),
                             items: Optional[list[ItemInput]] = Field(default=None, min_length=1, max_length=40),
                             title: Optional[str] = Field(default=None, min_length=2, max_length=120),
                             service_charge_rate: Optional[float] = Field(default=None, ge=0, le=0.3)) -> dict:
        """Revise a BEO of an open event (its lines replaced, totals recomputed, revision + 1).

        Args:
            banquet_order_id: the BEO.
            items: the new lines (replace all).
            title: new title.
            service_charge_rate: new service charge rate.
        """
        beo = self._beo(banquet_order_id)
        if items is None and title is None and service_charge_rate is None:
            raise InvalidArgument("give items, title or service_charge_rate to change.")
        check_open(self.state.events[beo.event_id], "update_banquet_order")
        new = beo.model_copy(update={"items": lines(items) if items is not None else beo.items,
                                     "title": title or beo.title, "revision": beo.revision + 1,
                                     "service_charge_rate": beo.service_charge_rate if service_charge_rate is None
                                     else service_charge_rate, "updated_at": self.now()})
        self.state.banquet_orders[beo.id] = priced(new)
        return {**self.state.banquet_orders[beo.id].model_dump(),
                "event_financials": financials(self.state, beo.event_id)}

    # --------------------------------------------------------------- payments
    @tool(read_only=False, returns=VenueEvent)
    def record_payment(self, event_id: Id("venue_event"), amount: Money = Field(ge=0.01, le=MONEY_MAX),
                       kind: PaymentKind = "deposit", method: PaymentMethod = "credit_card",
                       reference: str = Field(default="", max_length=120)) -> dict:
        """Record a deposit or payment against an open event's BEO total; never more than the amount due (422).

        Args:
            event_id: the event (not closed or lost).
            amount: amount received (USD).
            kind: deposit or payment.
            method: credit_card, ach, check or wire.
            reference: the payer's reference (invoice number, case).
        """
        ev = self._event(event_id)
        check_open(ev, "record_payment")
        due = financials(self.state, ev.id)["amount_due"]
        if money(amount) > due:
            raise Unprocessable(f"{money(amount):.2f} exceeds the {due:.2f} due on event {ev.id}"
                                + ("; it has no BEO yet." if due == 0 else "."))
        pay = Payment(id=self.new_id("VPY"), event_id=ev.id, kind=kind, amount=money(amount), method=method,
                      reference=reference, paid_on=self.today)
        self.state.payments[pay.id] = pay
        return self._event_view(ev)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> VenueBookingState:
        return build_state(fake, rng, today)


__all__ = ["VenueBooking"]
