"""The built-in airline timetable of the ``flights`` service.

Nine real airports and 18 routes flown in both directions twice a day (72
flight numbers). Airlines and flight numbers are fictional; block times and
base fares are realistic for the routes. ORD-LHR operates Mon/Wed/Fri/Sun.
"""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple


class Airport(NamedTuple):
    """An airport: IATA code, name, city, country and winter UTC offset (hours)."""

    code: str
    name: str
    city: str
    country: str
    utc_offset: int  # hours, winter time


AIRPORTS = {a.code: a for a in (
    Airport("SFO", "San Francisco International", "San Francisco", "US", -8),
    Airport("LAX", "Los Angeles International", "Los Angeles", "US", -8),
    Airport("SEA", "Seattle-Tacoma International", "Seattle", "US", -8),
    Airport("AUS", "Austin-Bergstrom International", "Austin", "US", -6),
    Airport("ORD", "Chicago O'Hare International", "Chicago", "US", -6),
    Airport("JFK", "John F. Kennedy International", "New York", "US", -5),
    Airport("BOS", "Boston Logan International", "Boston", "US", -5),
    Airport("LHR", "London Heathrow", "London", "GB", 0),
    Airport("CDG", "Paris Charles de Gaulle", "Paris", "FR", 1),
)}


class Schedule(NamedTuple):
    """A flight number's schedule: route, local departure, block minutes, weekdays, seats, base fare (USD)."""

    flight_number: str
    airline: str
    origin: str
    destination: str
    depart: dt.time
    minutes: int
    weekdays: tuple[int, ...]  # 0 = Monday
    capacity: int
    base_fare: float


_ROUTES = (  # origin, destination, block minutes, base fare USD
    ("SFO", "JFK", 330, 289.0), ("SFO", "ORD", 255, 219.0), ("SFO", "SEA", 125, 129.0), ("SFO", "AUS", 215, 189.0),
    ("SFO", "BOS", 340, 299.0), ("LAX", "JFK", 320, 279.0), ("LAX", "AUS", 190, 169.0), ("SEA", "ORD", 240, 209.0),
    ("AUS", "ORD", 150, 159.0), ("AUS", "JFK", 225, 219.0), ("ORD", "JFK", 135, 149.0), ("ORD", "BOS", 130, 159.0),
    ("JFK", "BOS", 75, 99.0), ("JFK", "LHR", 420, 549.0), ("BOS", "LHR", 390, 529.0), ("JFK", "CDG", 445, 569.0),
    ("ORD", "LHR", 480, 589.0), ("LHR", "CDG", 80, 119.0),
)
_AIRLINES = (("PA", "Pacific Air"), ("LS", "Lone Star Airways"), ("AJ", "Atlantic Jet"))


def _build_schedules() -> dict[str, Schedule]:
    out: dict[str, Schedule] = {}
    for i, (a, b, minutes, fare_usd) in enumerate(_ROUTES):
        code, airline = _AIRLINES[i % 3]
        intl = "LHR" in (a, b) or "CDG" in (a, b)
        days = (0, 2, 4, 6) if a == "ORD" and b == "LHR" else tuple(range(7))
        for d, (src, dst) in enumerate(((a, b), (b, a))):
            for k, hour in enumerate((7 + i % 3, 16 + i % 4)):
                num = f"{code}{100 + i * 4 + d * 2 + k}"
                out[num] = Schedule(num, airline, src, dst, dt.time(hour, (i * 15) % 60), minutes, days,
                                    280 if intl else 160, fare_usd)
    return out


#: The built-in timetable: flight number -> schedule (72 flights).
SCHEDULES: dict[str, Schedule] = _build_schedules()
#: (origin, destination) -> schedules, so a search touches one route only.
BY_ROUTE: dict[tuple[str, str], list[Schedule]] = {}
for _s in SCHEDULES.values():
    BY_ROUTE.setdefault((_s.origin, _s.destination), []).append(_s)
