"""Booking rules of the venue booking service (see ``venue_booking.py``).

Each check raises the structured error a tool reports and changes nothing,
so a tool runs every check before it writes.
"""

from __future__ import annotations

import datetime as dt
from typing import Optional

from pydantic import Field

from compoworld_gym.entities import Money
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._venue_booking_models import (
    DEPOSIT_RATE, MENU, ItemCategory, MenuItem, Room, VenueBookingState, VenueEvent, financials, overlaps,
)
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Record

#: Status changes ``update_event_status`` allows.
TRANSITIONS: dict[str, tuple[str, ...]] = {"prospect": ("tentative", "lost"),
                                           "tentative": ("definite", "prospect", "lost"),
                                           "definite": ("closed", "lost"), "closed": (), "lost": ()}
#: Statuses whose events hold their rooms (a lost event frees them).
HOLDING = ("prospect", "tentative", "definite", "closed")
#: Longest event (hours).
MAX_HOURS = 72


class ItemInput(Record):
    """A BEO line as entered: a house-menu item by name, or an open item with its category and price."""

    name: str = Field(min_length=2, max_length=120, description="Menu item name (see list_menu) or an open item.")
    quantity: int = Field(ge=1, le=100000, description="Guests or units.")
    category: Optional[ItemCategory] = Field(default=None, description="Open items only: food, beverage or rental.")
    unit_price: Optional[Money] = Field(default=None, ge=0, le=MONEY_MAX,
                                        description="Open items only: price per guest or unit (USD).")


def lines(items: list[ItemInput]) -> list[MenuItem]:
    """BEO lines: menu items at the menu price; open items need a category and a unit price.

    Raises:
        Unprocessable: an open item without category or unit_price, or a menu item with another price.
    """
    out = []
    for it in items:
        m = MENU.get(it.name.strip().lower())
        if m is not None:
            if it.unit_price is not None and money(it.unit_price) != m.unit_price:
                raise Unprocessable(f"{m.name} is {m.unit_price:.2f} on the house menu; leave unit_price out.")
            name, category, price = m.name, m.category, m.unit_price
        elif it.category is None or it.unit_price is None:
            raise Unprocessable(f"{it.name!r} is not on the house menu (see list_menu); an open item needs a "
                                "category and a unit_price.")
        else:
            name, category, price = it.name.strip(), it.category, money(it.unit_price)
        out.append(MenuItem(name=name, category=category, quantity=it.quantity, unit_price=price,
                            amount=money(price * it.quantity)))
    return out


def rooms_of(state: VenueBookingState, room_ids: list[str]) -> list[Room]:
    """The rooms of ``room_ids`` (repeats dropped), all at one location.

    Raises:
        NotFound: an unknown room.
        Unprocessable: rooms of two locations.
    """
    rooms = []
    for rid in dict.fromkeys(room_ids):
        if rid not in state.rooms:
            raise NotFound(f"room {rid!r} not found; call list_locations for the rooms.")
        rooms.append(state.rooms[rid])
    if len({r.location_id for r in rooms}) > 1:
        raise Unprocessable("all rooms of one event must be at the same location.")
    return rooms


def check_times(start: dt.datetime, end: dt.datetime, now: Optional[dt.datetime]) -> None:
    """End after start, at most :data:`MAX_HOURS` long, and (with ``now``) starting in the future.

    Raises:
        Unprocessable: one of those fails.
    """
    if end <= start:
        raise Unprocessable(f"event_end {end.isoformat()} must be after event_start {start.isoformat()}.")
    if end - start > dt.timedelta(hours=MAX_HOURS):
        raise Unprocessable(f"an event lasts at most {MAX_HOURS} hours; book separate events.")
    if now is not None and start <= now:
        raise Unprocessable(f"event_start {start.isoformat()} is not in the future.")


def check_capacity(rooms: list[Room], guests: int) -> None:
    """The guest count fits the rooms booked (the sum of their capacities).

    Raises:
        Unprocessable: too many guests, naming the capacity.
    """
    cap = sum(r.capacity for r in rooms)
    if guests > cap:
        raise Unprocessable(f"{guests} guests exceed the capacity of {', '.join(r.name for r in rooms)} ({cap}); "
                            "book a larger room or more rooms.")


def conflicts(state: VenueBookingState, room_id: str, start: dt.datetime, end: dt.datetime,
              skip: str = "") -> list[VenueEvent]:
    """Events other than ``skip`` that hold ``room_id`` at an overlapping time."""
    return [e for e in state.events.values() if e.id != skip and e.status in HOLDING and room_id in e.room_ids
            and overlaps(start, end, e.event_start, e.event_end)]


def check_free(state: VenueBookingState, rooms: list[Room], start: dt.datetime, end: dt.datetime,
               skip: str = "") -> None:
    """No room is double-booked.

    Raises:
        Conflict: a room is held by another event at an overlapping time.
    """
    for r in rooms:
        hit = conflicts(state, r.id, start, end, skip)
        if hit:
            raise Conflict(f"{r.name} ({r.id}) is booked for {hit[0].id} ({hit[0].event_start:%Y-%m-%d %H:%M}-"
                           f"{hit[0].event_end:%H:%M}); pick another room or time (check_availability).")


def check_open(ev: VenueEvent, what: str) -> None:
    """A closed or lost event cannot change.

    Raises:
        Conflict: the event is closed or lost.
    """
    if ev.status == "closed":
        raise Conflict(f"event {ev.id} is closed; a closed event cannot change ({what}).")
    if ev.status == "lost":
        raise Conflict(f"event {ev.id} is lost; {what} is not possible on a lost event.")


def check_status(state: VenueBookingState, ev: VenueEvent, status: str, now: dt.datetime,
                 reason: Optional[str]) -> None:
    """The move of ``ev`` to ``status`` is allowed: the transition exists; lost needs a reason; definite
    needs a BEO and deposits of at least :data:`DEPOSIT_RATE` of its grand total; closed needs the event
    over and nothing due.

    Raises:
        Conflict: the transition does not exist (a closed event never changes).
        Unprocessable: a rule of the target status fails.
    """
    allowed = TRANSITIONS[ev.status]
    if status not in allowed:
        raise Conflict(f"event {ev.id} is {ev.status}; it can go to {', '.join(allowed) or 'no other status'}.")
    fin = financials(state, ev.id)
    if status == "lost" and not reason:
        raise Unprocessable("give the reason the event was lost.")
    if status == "definite":
        if fin["grand_total"] <= 0:
            raise Unprocessable(f"event {ev.id} has no banquet event order; create one before confirming.")
        if fin["deposits_paid"] < fin["deposit_required"]:
            raise Unprocessable(f"event {ev.id} needs deposits of {fin['deposit_required']:.2f} "
                                f"({DEPOSIT_RATE:.0%} of {fin['grand_total']:.2f}) to be definite; "
                                f"{fin['deposits_paid']:.2f} is paid.")
    if status == "closed":
        if ev.event_end > now:
            raise Unprocessable(f"event {ev.id} ends {ev.event_end.isoformat()}; close it once it is over.")
        if fin["amount_due"] > 0:
            raise Unprocessable(f"event {ev.id} still has {fin['amount_due']:.2f} due; record the payment first.")
