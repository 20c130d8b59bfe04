"""Seed data of the desk booking service: the roster's offices, desks and reservations in Robin.

One location per office of the workforce roster (San Francisco HQ and the
Austin Office have the visitors service's names and addresses), three desks
each in department neighborhoods (one assigned to a roster employee, one
disabled in Chicago), and reservations of roster employees at their home
office on open days: today's (booked, one checked in), upcoming ones and a
cancelled one.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._blocks import seed_id
from compoworld_gym.envs.services._desk_booking_models import (
    Desk, DeskBookingState, DeskLocation, DeskReservation, DeskUser,
)
from compoworld_gym.envs.services._workforce import Person

#: (name, address, roster city, code, open weekdays).
LOCATIONS = (("San Francisco HQ", "500 Howard Street", "San Francisco", "SF", [0, 1, 2, 3, 4]),
             ("Austin Office", "301 Congress Avenue", "Austin", "AUS", [0, 1, 2, 3]),
             ("New York Office", "85 Broad Street", "New York", "NYC", [0, 1, 2, 3, 4]),
             ("Chicago Office", "222 West Adams Street", "Chicago", "CHI", [1, 2, 3]))


def open_day(loc: DeskLocation, day: dt.date, step: int = 1) -> dt.date:
    """``day`` or the next day (``step`` 1) / previous (-1) the location opens."""
    while day.weekday() not in loc.open_days:
        day += dt.timedelta(days=step)
    return day


def reservation(rid: str, desk: Desk, user: DeskUser, day: dt.date, start_h: int = 9, end_h: int = 17,
                status: str = "booked") -> DeskReservation:
    """A reservation of ``desk`` for ``user`` on ``day`` from ``start_h`` to ``end_h``."""
    return DeskReservation(id=rid, desk_id=desk.id, desk_name=desk.name, location_id=desk.location_id,
                           location_name=desk.location_name, reservee_email=user.email, reservee_name=user.name,
                           date=day, start=dt.datetime.combine(day, dt.time(start_h)),
                           end=dt.datetime.combine(day, dt.time(end_h)), status=status)


def seed_desks(roster: tuple[Person, ...], rng: random.Random, today: dt.date) -> DeskBookingState:
    """The seeded state for ``roster`` (the workforce roster of the same seed)."""
    state = DeskBookingState()
    by_city: dict[str, DeskLocation] = {}
    for name, addr, city, _code, days in LOCATIONS:
        loc = DeskLocation(id=seed_id(state, "LOC"), name=name, address=addr, city=city, open_days=days,
                           opens_hour=7, closes_hour=20)
        state.locations[loc.id] = by_city[city] = loc
    for p in roster:
        state.users[p.employee_id] = DeskUser(id=p.employee_id, name=p.name, email=p.email,
                                              department=p.department, home_location_id=by_city[p.location].id)
    users = list(state.users.values())
    for name, _addr, city, code, _days in LOCATIONS:
        loc = by_city[city]
        depts = sorted({u.department for u in users if u.home_location_id == loc.id}) or ["Open Seating"]
        for n in range(3):
            floor = 2 + n // 2
            d = Desk(id=seed_id(state, "DSK"), name=f"{code}-{floor}-{'ABC'[n]}{10 + n}", location_id=loc.id,
                     location_name=loc.name, neighborhood=depts[n % len(depts)], floor=floor,
                     reservation_type="hoteled")
            state.desks[d.id] = d
    desks = list(state.desks.values())
    # the first desk of San Francisco is its engineering lead's assigned desk; one Chicago desk is disabled
    sf_people = [u for u in users if u.home_location_id == desks[0].location_id]
    desks[0].reservation_type, desks[0].assignee_email = "assigned", sf_people[-1].email
    desks[-1].is_disabled = True
    n = 0
    for loc in state.locations.values():
        mine = [u for u in users if u.home_location_id == loc.id]
        free = [d for d in desks if d.location_id == loc.id and d.reservation_type == "hoteled" and not d.is_disabled]
        for k, u in enumerate(mine[:len(free) + 1]):
            desk = free[k % len(free)]
            day = open_day(loc, today + dt.timedelta(days=k // len(free) * 1 + (0 if k < len(free) else 1)))
            r = reservation(seed_id(state, "DRS"), desk, u, day, start_h=9, end_h=17 + rng.randint(0, 1))
            if n == 0 and day == today:
                r.status, r.checked_in_at = "checked_in", dt.datetime.combine(today, dt.time(8, 55))
            if n == 4:
                r.status, r.cancelled_at = "cancelled", dt.datetime.combine(today - dt.timedelta(days=1), dt.time(16))
                r.cancel_reason = "Working from home"
            state.reservations[r.id] = r
            n += 1
    assignee = sf_people[-1]
    day = open_day(state.locations[desks[0].location_id], today + dt.timedelta(days=1))
    if not any(r.reservee_email == assignee.email and r.date == day for r in state.reservations.values()):
        rid = seed_id(state, "DRS")
        state.reservations[rid] = reservation(rid, desks[0], assignee, day)
    return state
