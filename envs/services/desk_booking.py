"""Desk booking: office locations, desks in neighborhoods, desk reservations, check-in and presence.

No desk-booking server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Robin Powered API:
``GET /v1.0/organizations/{id}/locations`` and ``/locations/{id}`` (``name``,
``address``, open hours), ``GET /locations/{id}/seats`` and ``/seats/{id}``
(``name``, ``zone`` as the neighborhood, ``reservation_type``
hoteled/assigned, ``is_disabled``), ``GET /seats/{id}/reservations``,
``POST /reservations/seats`` (``seat_id``, ``reservee.email``, ``start``,
``end``), ``GET/DELETE /reservations/{id}`` with a reason,
``PUT /reservations/{id}/checkin``, and ``GET /users`` with presence
(``/locations/{id}/presence``). People are the shared workforce roster; the
San Francisco and Austin offices are the visitors service's locations.

Rules of the real product: a reservation lies within one day, the office's
open hours and open weekdays, and not in the past; a person holds at most one
desk a day; a desk holds one reservation at a time; an assigned desk is booked
only by its assignee and a disabled desk by nobody; check-in runs from 15
minutes before the start to an hour after it; only a booked reservation is
cancelled or checked in. Left out: rooms (meeting_rooms does those), maps,
health checkpoints, recurring reservations and visitor guest passes.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._desk_booking_models import (
    Desk, DeskBookingState, DeskLocation, DeskReservation, DeskUser, ReservationStatus,
)
from compoworld_gym.envs.services._desk_booking_rules import (
    check_desk, check_free, check_in_window, check_times, live,
)
from compoworld_gym.envs.services._desk_booking_seed import seed_desks
from compoworld_gym.envs.services._workforce import roster
from compoworld_gym.errors import Conflict, NotFound
from compoworld_gym.service import Service, tool


class DeskBooking(Service):
    """Robin-style hybrid-work desk booking."""

    name = "desk_booking"
    description = ("Desk booking (Robin): office locations and open days, desks in neighborhoods (hot or "
                   "assigned), desk reservations with check-in and cancellation, and who is in the office.")
    domain = "workplace"
    spec_source = None
    State = DeskBookingState

    def _loc(self, location_id: str) -> DeskLocation:
        return self.lookup(self.state.locations, location_id, "location")

    def _desk(self, desk_id: str) -> Desk:
        return self.lookup(self.state.desks, desk_id, "desk")

    def _res(self, reservation_id: str) -> DeskReservation:
        return self.lookup(self.state.reservations, reservation_id, "desk reservation")

    def _user(self, email: str) -> DeskUser:
        hit = next((u for u in self.state.users.values() if u.email.lower() == email.strip().lower()), None)
        if hit is None:
            raise NotFound(f"{email!r} is no Robin user; look people up with list_users.")
        return hit

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[DeskLocation])
    def list_locations(self) -> list[dict]:
        """List the office locations with their open days and hours."""
        return [loc.model_dump() for loc in self.state.locations.values()]

    @tool(read_only=True, returns=DeskLocation)
    def get_location(self, location_id: str = Field(pattern=r"^LOC-\d{4}$")) -> dict:
        """Get one location with its desk count.

        Args:
            location_id: the location id, e.g. LOC-0001.
        """
        loc = self._loc(location_id)
        return {**loc.model_dump(), "desk_count": sum(1 for d in self.state.desks.values() if d.location_id == loc.id)}

    @tool(read_only=True, returns=list[DeskUser])
    def list_users(self, email: Optional[Email] = None, location_id: Optional[str] = None) -> list[dict]:
        """List Robin users by work email or home office.

        Args:
            email: the user's work email (case-insensitive).
            location_id: only people whose home office is this location.
        """
        return [u.model_dump() for u in select(self.state.users.values(), ieq("email", email),
                                               eq("home_location_id", location_id))]

    @tool(read_only=True, returns=list[Desk])
    def list_desks(self, location_id: Optional[str] = None, neighborhood: Optional[str] = None,
                   available_on: Optional[Date] = None) -> list[dict]:
        """List desks by location or neighborhood; with available_on, only bookable desks free all that day.

        Args:
            location_id: the location, e.g. LOC-0001.
            neighborhood: the neighborhood (zone) name, case-insensitive.
            available_on: a day: only enabled hot desks with no reservation that day.
        """
        rows = select(self.state.desks.values(), eq("location_id", location_id), ieq("neighborhood", neighborhood))
        if available_on is not None:
            taken = {r.desk_id for r in live(self.state.reservations.values()) if r.date == available_on}
            rows = [d for d in rows if d.reservation_type == "hoteled" and not d.is_disabled and d.id not in taken]
        return [d.model_dump() for d in rows]

    @tool(read_only=True, returns=Desk)
    def get_desk(self, desk_id: Id("desk")) -> dict:
        """Get one desk.

        Args:
            desk_id: the desk id, e.g. DSK-0004.
        """
        return self._desk(desk_id).model_dump()

    @tool(read_only=True, returns=list[DeskReservation])
    def list_reservations(self, reservee_email: Optional[Email] = None, desk_id: Optional[Id("desk")] = None,
                          location_id: Optional[str] = None, date: Optional[Date] = None,
                          status: Optional[ReservationStatus] = None,
                          limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List desk reservations by person, desk, location, day or status, earliest first.

        Args:
            reservee_email: whose reservations (work email).
            desk_id: the desk.
            location_id: the location.
            date: the day reserved.
            status: booked, checked_in or cancelled.
            limit: maximum number of reservations (1-200).
        """
        rows = select(sorted(self.state.reservations.values(), key=lambda r: (r.start, r.id)),
                      ieq("reservee_email", reservee_email), eq("desk_id", desk_id), eq("location_id", location_id),
                      eq("date", date), eq("status", status), limit=limit)
        return [r.model_dump() for r in rows]

    @tool(read_only=True, returns=DeskReservation)
    def get_reservation(self, reservation_id: Id("desk_reservation")) -> dict:
        """Get one desk reservation.

        Args:
            reservation_id: the reservation id, e.g. DRS-0003.
        """
        return self._res(reservation_id).model_dump()

    @tool(read_only=True)
    def get_presence(self, location_id: str, date: Date) -> dict:
        """Who is in a location on a day: people with a live reservation, and who checked in.

        Args:
            location_id: the location.
            date: the day.
        """
        loc = self._loc(location_id)
        rows = [r for r in live(self.state.reservations.values()) if r.location_id == loc.id and r.date == date]
        return {"location_id": loc.id, "location_name": loc.name, "date": date,
                "people": [{"email": r.reservee_email, "name": r.reservee_name, "desk_name": r.desk_name,
                            "checked_in": r.status == "checked_in"} for r in rows]}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=DeskReservation)
    def reserve_desk(self, desk_id: Id("desk"), reservee_email: Email, start: DateTime, end: DateTime) -> dict:
        """Reserve a desk for someone from start to end on one day.

        Args:
            desk_id: the desk (enabled; an assigned desk only for its assignee).
            reservee_email: who sits there (a Robin user); they hold one desk a day.
            start: start, local time, e.g. 2026-01-16T09:00:00.
            end: end, the same day, e.g. 2026-01-16T17:00:00.
        """
        desk, user = self._desk(desk_id), self._user(reservee_email)
        loc = self.state.locations[desk.location_id]
        check_times(loc, start, end, self.today)
        check_desk(desk, user.email)
        check_free(self.state.reservations.values(), desk, user.email, start, end)
        r = DeskReservation(id=self.new_id("DRS"), desk_id=desk.id, desk_name=desk.name, location_id=loc.id,
                            location_name=loc.name, reservee_email=user.email, reservee_name=user.name,
                            date=start.date(), start=start, end=end, status="booked")
        self.state.reservations[r.id] = r
        return r.model_dump()

    @tool(read_only=False, returns=DeskReservation)
    def update_reservation(self, reservation_id: Id("desk_reservation"), start: DateTime, end: DateTime) -> dict:
        """Change a booked reservation's times (same desk; the day may change).

        Args:
            reservation_id: a booked reservation.
            start: new start.
            end: new end, the same day.
        """
        r = self._res(reservation_id)
        if r.status != "booked":
            raise Conflict(f"reservation {r.id} is {r.status}; only a booked reservation changes.")
        desk = self.state.desks[r.desk_id]
        check_times(self.state.locations[r.location_id], start, end, self.today)
        check_free(self.state.reservations.values(), desk, r.reservee_email, start, end, skip=r.id)
        r.start, r.end, r.date = start, end, start.date()
        return r.model_dump()

    @tool(read_only=False, returns=DeskReservation)
    def check_in(self, reservation_id: Id("desk_reservation")) -> dict:
        """Check in to a booked reservation (15 minutes before its start to an hour after).

        Args:
            reservation_id: the reservation.
        """
        r = self._res(reservation_id)
        now = self.now()
        check_in_window(r, now)
        r.status, r.checked_in_at = "checked_in", now
        return r.model_dump()

    @tool(read_only=False, destructive=True, returns=DeskReservation)
    def cancel_reservation(self, reservation_id: Id("desk_reservation"),
                           reason: str = Field(default="", max_length=500)) -> dict:
        """Cancel a booked reservation, freeing the desk.

        Args:
            reservation_id: a booked (not checked-in or cancelled) reservation.
            reason: why, e.g. the leave request that keeps the person out.
        """
        r = self._res(reservation_id)
        if r.status != "booked":
            raise Conflict(f"reservation {r.id} is {r.status}; only a booked reservation is cancelled.")
        r.status, r.cancelled_at, r.cancel_reason = "cancelled", self.now(), reason
        return r.model_dump()

    @tool(read_only=False, returns=Desk)
    def assign_desk(self, desk_id: Id("desk"), assignee_email: Optional[Email] = None) -> dict:
        """Make a desk assigned to one person, or (no assignee) a hot desk again.

        Args:
            desk_id: the desk.
            assignee_email: the new assignee (a Robin user); omit to unassign.
        """
        desk = self._desk(desk_id)
        if assignee_email is None:
            desk.reservation_type, desk.assignee_email = "hoteled", None
            return desk.model_dump()
        user = self._user(assignee_email)
        others = [r.id for r in live(self.state.reservations.values()) if r.desk_id == desk.id
                  and r.date >= self.today and r.reservee_email.lower() != user.email.lower()]
        if others:
            raise Conflict(f"desk {desk.name} has upcoming reservations of others ({', '.join(others)}); "
                           "cancel them first.")
        desk.reservation_type, desk.assignee_email = "assigned", user.email
        return desk.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> DeskBookingState:
        """Seeded state on the workforce roster of the same seed."""
        return seed_desks(roster(seed, today), random.Random(f"{cls.name}:{seed}"), today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> DeskBookingState:
        return seed_desks(roster(rng.randrange(2**31), today), rng, today)


__all__ = ["DeskBooking"]
