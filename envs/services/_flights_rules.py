"""Fare and seat rules of the flights service: prices, fees and how full a flight is.

Pure functions of the fixed timetable (``_timetable``), a date and the
state's values, so the seed factory prices and places its bookings exactly as
the tools do.
"""

from __future__ import annotations

import datetime as dt
import zlib
from typing import Mapping

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._flights_models import FlightBooking
from compoworld_gym.envs.services._timetable import AIRPORTS, Schedule

CLASS_MULT = {"basic": 1.0, "standard": 1.35, "flex": 1.9}
#: Per-passenger fees in USD; None = not allowed.
CHANGE_FEE = {"basic": None, "standard": 75.0, "flex": 0.0}
CANCEL_FEE = {"basic": None, "standard": 100.0, "flex": 0.0}
SEARCH_HORIZON_DAYS = 330


def fare(s: Schedule, fare_class: str, departure: dt.date, booked_on: dt.date) -> float:
    """Per-passenger fare in USD: base x class multiplier x advance factor
    (under 3 days 1.5, under 7 days 1.25, under 14 days 1.1, else 1.0)."""
    days = (departure - booked_on).days
    adv = 1.5 if days < 3 else 1.25 if days < 7 else 1.1 if days < 14 else 1.0
    return money(s.base_fare * CLASS_MULT[fare_class] * adv)


def flight_times(s: Schedule, date: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """Local (departure at the origin, arrival at the destination) of flight ``s`` on ``date``."""
    dep = dt.datetime.combine(date, s.depart)
    shift = AIRPORTS[s.destination].utc_offset - AIRPORTS[s.origin].utc_offset
    return dep, dep + dt.timedelta(minutes=s.minutes, hours=shift)


def seats_left(s: Schedule, flight_id: str, load_salt: int, bookings: Mapping[str, FlightBooking]) -> int:
    """Seats still for sale on ``flight_id``: capacity less a background load seeded by ``load_salt``
    (about 4% of flights sold out) and the confirmed passengers of ``bookings``."""
    h = zlib.crc32(f"{load_salt}:{flight_id}".encode())
    background = s.capacity if h % 23 == 0 else s.capacity - 4 - h % 60  # ~4% sold out
    mine = sum(len(b.passengers) for b in bookings.values()
               if b.flight_id == flight_id and b.status == "confirmed")
    return max(0, s.capacity - background - mine)
