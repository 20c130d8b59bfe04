"""The read side of the venue booking service (see ``venue_booking.py``).

:class:`VenueRecords` sets no ``name``, so it is not a service of its own;
:class:`~compoworld_gym.envs.services.venue_booking.VenueBooking` adds the
writes and the seed.
"""

from __future__ import annotations

import datetime as dt
from typing import Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, DateTime, Email, Id
from compoworld_gym.envs.services._blocks import day_start
from compoworld_gym.envs.services._venue_booking_models import (
    MENU, BanquetOrder, EventStatus, Lead, LeadStatus, Location, VenueBookingState, VenueEvent, financials,
)
from compoworld_gym.envs.services._venue_booking_rules import check_times, conflicts
from compoworld_gym.service import Service, tool


class VenueRecords(Service):
    """Tripleseat-style reads: locations and rooms, the menu, availability, leads, events and BEOs."""

    State = VenueBookingState

    # ---------------------------------------------------------------- helpers
    def _clock(self) -> dt.datetime:
        """The logical time now, without advancing it."""
        return day_start(self.today) + dt.timedelta(minutes=self.state.clock)

    def _event(self, event_id: str) -> VenueEvent:
        return self.lookup(self.state.events, event_id, "event")

    def _lead(self, lead_id: str) -> Lead:
        return self.lookup(self.state.leads, lead_id, "lead")

    def _beo(self, banquet_order_id: str) -> BanquetOrder:
        return self.lookup(self.state.banquet_orders, banquet_order_id, "banquet order")

    def _event_view(self, ev: VenueEvent) -> dict:
        beos = [b for b in self.state.banquet_orders.values() if b.event_id == ev.id]
        return {**ev.model_dump(), "location": self.state.locations[ev.location_id].name,
                "rooms": [{"id": r, "name": self.state.rooms[r].name, "capacity": self.state.rooms[r].capacity}
                          for r in ev.room_ids],
                "banquet_orders": [{"id": b.id, "title": b.title, "grand_total": b.grand_total,
                                    "revision": b.revision} for b in beos],
                "payments": [p.model_dump() for p in self.state.payments.values() if p.event_id == ev.id],
                "financials": financials(self.state, ev.id)}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Location])
    def list_locations(self) -> list[dict]:
        """The venue's locations with their rooms and capacities."""
        return [{**loc.model_dump(), "rooms": [r.model_dump() for r in self.state.rooms.values()
                                               if r.location_id == loc.id]} for loc in self.state.locations.values()]

    @tool(read_only=True)
    def list_menu(self) -> list[dict]:
        """The house menu: item name, category (food, beverage, rental) and unit price (USD)."""
        return [m._asdict() for m in MENU.values()]

    @tool(read_only=True)
    def check_availability(self, event_start: DateTime, event_end: DateTime,
                           guest_count: Optional[int] = Field(default=None, ge=1),
                           location_id: Optional[str] = None) -> list[dict]:
        """Which rooms are free for a time range (and big enough for a guest count).

        Args:
            event_start: start (ISO date-time).
            event_end: end.
            guest_count: guests to fit.
            location_id: only rooms of this location.
        """
        start, end = event_start.replace(tzinfo=None), event_end.replace(tzinfo=None)
        check_times(start, end, None)
        if location_id is not None:
            self.lookup(self.state.locations, location_id, "location")
        out = []
        for r in self.state.rooms.values():
            if location_id is None or r.location_id == location_id:
                busy = [e.id for e in conflicts(self.state, r.id, start, end)]
                out.append({**r.model_dump(), "available": not busy, "booked_by": busy,
                            "fits": guest_count is None or guest_count <= r.capacity})
        return out

    @tool(read_only=True, returns=list[Lead])
    def list_leads(self, status: Optional[LeadStatus] = None, company: Optional[CompanyName] = None,
                   email_address: Optional[Email] = None) -> list[dict]:
        """List leads (newest first) by status, client company or contact email.

        Args:
            status: new, contacted, converted or lost.
            company: the client company (case-insensitive).
            email_address: the contact's email.
        """
        rows = [ld for ld in self.state.leads.values() if (status is None or ld.status == status)
                and (company is None or ld.company.lower() == company.lower())
                and (email_address is None or ld.email_address.lower() == email_address.lower())]
        return [ld.model_dump() for ld in sorted(rows, key=lambda ld: (ld.created_at, ld.id), reverse=True)]

    @tool(read_only=True, returns=Lead)
    def get_lead(self, lead_id: Id("venue_lead")) -> dict:
        """Get one lead, with the event it was converted to.

        Args:
            lead_id: the lead id, e.g. VLD-0003.
        """
        return self._lead(lead_id).model_dump()

    @tool(read_only=True, returns=list[VenueEvent])
    def list_events(self, status: Optional[EventStatus] = None, company: Optional[CompanyName] = None,
                    contact_email: Optional[Email] = None, room_id: Optional[str] = None,
                    ticketed_event_id: Optional[Id("ticketed_event")] = None,
                    start_date: Optional[Date] = None, end_date: Optional[Date] = None) -> list[dict]:
        """List events by start time, filtered by status, company, contact, room, ticketed event or dates.

        Args:
            status: prospect, tentative, definite, closed or lost.
            company: the client account (case-insensitive).
            contact_email: the client contact's email.
            room_id: only events in this room.
            ticketed_event_id: the ticketing system's event the booking hosts.
            start_date: events starting on or after this day.
            end_date: events starting on or before this day.
        """
        rows = [e for e in self.state.events.values() if (status is None or e.status == status)
                and (company is None or e.company.lower() == company.lower())
                and (contact_email is None or e.contact_email.lower() == contact_email.lower())
                and (room_id is None or room_id in e.room_ids)
                and (ticketed_event_id is None or e.ticketed_event_id == ticketed_event_id)
                and (start_date is None or e.event_start.date() >= start_date)
                and (end_date is None or e.event_start.date() <= end_date)]
        return [self._event_view(e) for e in sorted(rows, key=lambda e: (e.event_start, e.id))]

    @tool(read_only=True, returns=VenueEvent)
    def get_event(self, event_id: Id("venue_event")) -> dict:
        """Get an event with its rooms, BEOs, payments and financials (grand total, 25% deposit required,
        deposits paid, amount paid and due).

        Args:
            event_id: the event id, e.g. VEV-0001.
        """
        return self._event_view(self._event(event_id))

    @tool(read_only=True, returns=BanquetOrder)
    def get_banquet_order(self, banquet_order_id: Id("banquet_order")) -> dict:
        """Get a banquet event order: lines, service charge, tax, grand total and its event's name and status.

        Args:
            banquet_order_id: the BEO id, e.g. BEO-0002.
        """
        beo = self._beo(banquet_order_id)
        ev = self.state.events[beo.event_id]
        return {**beo.model_dump(), "event": {"id": ev.id, "name": ev.name, "status": ev.status,
                                              "company": ev.company, "event_start": ev.event_start}}
