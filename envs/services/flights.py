"""Flights: search a fixed airline timetable, book, change and cancel.

No flight-booking server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface is designed the way Amadeus / Duffel flight APIs look (offer
search by origin, destination, date and passenger count; orders with named
passengers; fare brands with change and refund conditions). The timetable is
a built-in constant (``_timetable.SCHEDULES``): flight ``PA101`` operating on
2026-01-20 has flight id ``PA101-20260120``. Seats already sold come from a
seeded load factor plus the bookings in the state. Fares: base fare x fare


class multiplier x advance-purchase factor (see :func:`fare`).
"""

from __future__ import annotations

import datetime as dt
import random
import zlib
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, Money
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._flights_models import FareClass, FlightBooking, FlightsState, FullName, Passenger
from compoworld_gym.envs.services._flights_rules import (
    CANCEL_FEE, CHANGE_FEE, CLASS_MULT, SEARCH_HORIZON_DAYS, fare, flight_times, seats_left)
from compoworld_gym.envs.services._flights_seed import seed_flights
from compoworld_gym.envs.services._timetable import AIRPORTS, BY_ROUTE, SCHEDULES, Airport, Schedule
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import DAY_START, Service, tool


class Flights(Service):
    """Flight search over a fixed timetable, bookings with named passengers, fare-rule changes and refunds."""

    name = "flights"
    description = "Airline flights: search a timetable, fares and seats, book passengers, change or cancel under fare rules."
    domain = "travel"
    spec_source = None
    State = FlightsState

    # ---------------------------------------------------------------- helpers
    def _airport(self, text: str) -> Airport:
        key = text.strip()
        if key.upper() in AIRPORTS:
            return AIRPORTS[key.upper()]
        for a in AIRPORTS.values():
            if a.city.lower() == key.lower():
                return a
        raise NotFound(f"no airport matches {text!r}; use list_airports (codes like SFO, or city names).")

    def _flight(self, flight_id: str) -> tuple[Schedule, dt.date]:
        num, _, day = flight_id.partition("-")
        s = SCHEDULES.get(num.upper())
        try:
            date = dt.datetime.strptime(day, "%Y%m%d").date()
        except ValueError:
            s = None
        if s is None or date.weekday() not in s.weekdays:
            raise NotFound(f"flight {flight_id!r} does not exist; ids look like PA101-20260120 (from search_flights).")
        return s, date

    def _times(self, s: Schedule, date: dt.date) -> tuple[dt.datetime, dt.datetime]:
        return flight_times(s, date)

    def _seats_left(self, s: Schedule, flight_id: str) -> int:
        return seats_left(s, flight_id, self.state.load_salt, self.state.bookings)

    def _clock(self) -> dt.datetime:
        # Read the logical clock without advancing it (reads must not change state).
        return dt.datetime.combine(self.today, DAY_START) + dt.timedelta(minutes=self.state.clock)

    def _offer(self, s: Schedule, date: dt.date, fare_class: str, passengers: int) -> dict:
        fid = f"{s.flight_number}-{date:%Y%m%d}"
        dep, arr = self._times(s, date)
        price = fare(s, fare_class, date, self.today)
        return {"flight_id": fid, "flight_number": s.flight_number, "airline": s.airline, "origin": s.origin,
                "destination": s.destination, "departure": dep, "arrival": arr, "duration_minutes": s.minutes,
                "seats_left": self._seats_left(s, fid), "fare_class": fare_class, "price_per_passenger": price,
                "total_price": money(price * passengers)}

    def _booking(self, booking_id: str) -> FlightBooking:
        return self.lookup(self.state.bookings, booking_id, "booking")

    def _bookable(self, s: Schedule, date: dt.date, fid: str, pax: int) -> None:
        dep, _ = self._times(s, date)
        if dep <= self._clock():
            raise Unprocessable(f"flight {fid} departs {dep}; it can no longer be booked.")
        if (date - self.today).days > SEARCH_HORIZON_DAYS:
            raise Unprocessable(f"bookings open {SEARCH_HORIZON_DAYS} days ahead; {date} is too far out.")
        left = self._seats_left(s, fid)
        if left < pax:
            raise Conflict(f"flight {fid} has {left} seats left, {pax} needed; search another flight.")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_airports(self, query: Optional[str] = None) -> list[dict]:
        """List served airports (IATA code, name, city, country), optionally filtered by text.

        Args:
            query: case-insensitive text in the code, name or city.
        """
        q = (query or "").lower()
        return [a._asdict() for a in AIRPORTS.values()
                if q in a.code.lower() or q in a.name.lower() or q in a.city.lower()]

    @tool(read_only=True)
    def search_flights(
        self,
        origin: str = Field(min_length=2),
        destination: str = Field(min_length=2),
        departure_date: Date = Field(),
        passengers: int = Field(default=1, ge=1, le=9),
        fare_class: FareClass = "standard",
        max_price: Optional[Money] = Field(default=None, gt=0, le=MONEY_MAX),
        sort_by: Literal["price", "departure", "duration"] = "departure",
    ) -> list[dict]:
        """Search direct flights on a date with enough free seats, with fares for a fare class.

        Args:
            origin: origin IATA code or city, e.g. 'SFO' or 'San Francisco'.
            destination: destination IATA code or city.
            departure_date: travel date (YYYY-MM-DD), today up to 330 days ahead.
            passengers: number of travellers (1-9).
            fare_class: basic (no changes/refunds), standard or flex (fully flexible).
            max_price: only offers at or below this USD price per passenger.
            sort_by: price, departure or duration.
        """
        a, b = self._airport(origin), self._airport(destination)
        if departure_date < self.today or (departure_date - self.today).days > SEARCH_HORIZON_DAYS:
            raise Unprocessable(f"departure_date must be between {self.today} and "
                                f"{self.today + dt.timedelta(days=SEARCH_HORIZON_DAYS)}.")
        now = self._clock()
        out = []
        for s in BY_ROUTE.get((a.code, b.code), ()):
            if departure_date.weekday() not in s.weekdays:
                continue
            o = self._offer(s, departure_date, fare_class, passengers)
            if o["seats_left"] >= passengers and o["departure"] > now and (
                    max_price is None or o["price_per_passenger"] <= max_price):
                out.append(o)
        key = {"price": "price_per_passenger", "departure": "departure", "duration": "duration_minutes"}[sort_by]
        return sorted(out, key=lambda o: (o[key], o["departure"]))

    @tool(read_only=True)
    def get_flight(self, flight_id: Id("flight")) -> dict:
        """Get one flight on one date: times, aircraft capacity, seats left and all fares.

        Args:
            flight_id: e.g. PA101-20260120 (flight number, dash, YYYYMMDD).
        """
        s, date = self._flight(flight_id)
        o = self._offer(s, date, "standard", 1)
        for k in ("fare_class", "price_per_passenger", "total_price"):
            o.pop(k)
        o["fares"] = {c: fare(s, c, date, self.today) for c in CLASS_MULT}
        o["origin_city"], o["destination_city"] = AIRPORTS[s.origin].city, AIRPORTS[s.destination].city
        return o

    @tool(read_only=True)
    def get_fare_rules(self) -> list[dict]:
        """The change and cancellation rules of each fare class (fees are USD per passenger)."""
        return [{"fare_class": c, "price_multiplier": CLASS_MULT[c], "changeable": CHANGE_FEE[c] is not None,
                 "change_fee": CHANGE_FEE[c], "refundable": CANCEL_FEE[c] is not None, "cancel_fee": CANCEL_FEE[c],
                 "note": "A change also costs any increase in fare; a lower fare is not refunded."}
                for c in CLASS_MULT]

    @tool(read_only=True, returns=FlightBooking)
    def get_flight_booking(self, booking_id: Id("booking")) -> dict:
        """Get one flight booking with passengers, price and history.

        Args:
            booking_id: the booking id, e.g. FB-0002.
        """
        return self._booking(booking_id).model_dump()

    @tool(read_only=True, returns=list[FlightBooking])
    def list_flight_bookings(
        self, email: Optional[Email] = None, status: Optional[Literal["confirmed", "cancelled"]] = None,
        limit: int = Field(default=50, ge=1, le=200),
    ) -> list[dict]:
        """List bookings, optionally those whose contact or a passenger has this email.

        Args:
            email: contact or passenger email.
            status: confirmed or cancelled.
            limit: maximum number of bookings (1-200).
        """
        low = email.lower() if email else None
        return [b.model_dump(exclude={"history"}) for b in self.state.bookings.values()
                if (status is None or b.status == status) and (low is None or b.contact_email.lower() == low
                                                               or any(p.email.lower() == low for p in b.passengers))][:limit]

    @tool(read_only=True)
    def get_flight_status(self, flight_id: Id("flight")) -> dict:
        """Get the operational status of a flight: scheduled, delayed, departed or landed.

        Args:
            flight_id: e.g. PA101-20260120.
        """
        s, date = self._flight(flight_id)
        dep, arr = self._times(s, date)
        h = zlib.crc32(f"status:{flight_id}".encode())
        delay = 15 * (h % 4 + 1) if h % 5 == 0 else 0
        now = self._clock()
        dep_est = dep + dt.timedelta(minutes=delay)
        status = ("landed" if arr + dt.timedelta(minutes=delay) <= now else "departed" if dep_est <= now
                  else "delayed" if delay else "scheduled")
        return {"flight_id": flight_id, "status": status, "delay_minutes": delay, "scheduled_departure": dep,
                "estimated_departure": dep_est, "estimated_arrival": arr + dt.timedelta(minutes=delay)}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=FlightBooking)
    def book_flight(
        self,
        flight_id: Id("flight"),
        passengers: list[Passenger] = Field(min_length=1, max_length=9),
        contact_email: Email = Field(min_length=3),
        fare_class: FareClass = "standard",
    ) -> dict:
        """Book seats on a flight for named passengers; the fare is charged at today's price.

        Args:
            flight_id: from search_flights, e.g. PA101-20260120.
            passengers: travellers, each {"name", "email"} (1-9).
            contact_email: who receives the confirmation.
            fare_class: basic, standard or flex (see get_fare_rules).
        """
        s, date = self._flight(flight_id)
        names = [p.name.lower() for p in passengers]
        if len(set(names)) != len(names):
            raise InvalidArgument("each passenger must be listed once.")
        self._bookable(s, date, flight_id, len(passengers))
        dep, arr = self._times(s, date)
        price = fare(s, fare_class, date, self.today)
        b = FlightBooking(
            id=self.new_id("FB"), flight_id=flight_id, flight_number=s.flight_number, origin=s.origin,
            destination=s.destination, origin_city=AIRPORTS[s.origin].city,
            destination_city=AIRPORTS[s.destination].city, departure=dep, arrival=arr, fare_class=fare_class,
            passengers=list(passengers), contact_email=contact_email, price_per_passenger=price,
            total_paid=money(price * len(passengers)), status="confirmed", booked_on=self.today)
        self.state.bookings[b.id] = b
        return b.model_dump()

    @tool(read_only=False, returns=FlightBooking)
    def change_flight_booking(self, booking_id: Id("booking"), new_flight_id: Id("flight")) -> dict:
        """Move a booking to another flight on the same route; pays the change fee and any fare increase.

        Args:
            booking_id: a confirmed booking.
            new_flight_id: the new flight (same origin and destination).
        """
        b = self._booking(booking_id)
        if b.status != "confirmed":
            raise Conflict(f"booking {booking_id} is {b.status}.")
        fee = CHANGE_FEE[b.fare_class]
        if fee is None:
            raise Conflict(f"booking {booking_id} is a basic fare: changes are not allowed. "
                           "Cancel is not refundable either; book a new flight instead.")
        if b.departure <= self._clock():
            raise Conflict(f"flight {b.flight_id} has departed; the booking can no longer change.")
        s, date = self._flight(new_flight_id)
        if (s.origin, s.destination) != (b.origin, b.destination):
            raise Unprocessable(f"{new_flight_id} flies {s.origin}-{s.destination}; the booking is "
                                f"{b.origin}-{b.destination}. Changes keep the route.")
        if new_flight_id == b.flight_id:
            raise InvalidArgument("new_flight_id is the booking's current flight.")
        pax = len(b.passengers)
        self._bookable(s, date, new_flight_id, pax)
        new_price = fare(s, b.fare_class, date, self.today)
        charge = money(pax * (fee + max(0.0, new_price - b.price_per_passenger)))
        dep, arr = self._times(s, date)
        b.history.append(f"{self.today}: changed {b.flight_id} -> {new_flight_id}, charged {charge:.2f} USD")
        b.flight_id, b.flight_number, b.departure, b.arrival = new_flight_id, s.flight_number, dep, arr
        b.price_per_passenger = max(b.price_per_passenger, new_price)
        b.total_paid = money(b.total_paid + charge)
        return {**b.model_dump(), "charged": charge}

    @tool(read_only=False, destructive=True, returns=FlightBooking)
    def cancel_flight_booking(self, booking_id: Id("booking")) -> dict:
        """Cancel a booking before departure; the refund follows the fare class rules.

        Args:
            booking_id: a confirmed booking.
        """
        b = self._booking(booking_id)
        if b.status != "confirmed":
            raise Conflict(f"booking {booking_id} is already {b.status}.")
        if b.departure <= self._clock():
            raise Conflict(f"flight {b.flight_id} has departed; it cannot be cancelled.")
        fee = CANCEL_FEE[b.fare_class]
        b.refund_amount = 0.0 if fee is None else money(max(0.0, b.total_paid - fee * len(b.passengers)))
        b.status = "cancelled"
        b.history.append(f"{self.today}: cancelled, refund {b.refund_amount:.2f} USD")
        return b.model_dump()

    @tool(read_only=False, returns=FlightBooking)
    def update_passenger(
        self, booking_id: Id("booking"), passenger_index: int = Field(ge=0, le=8),
        name: Optional[FullName] = Field(default=None, min_length=3), email: Optional[Email] = None,
    ) -> dict:
        """Correct a passenger's name spelling or email; tickets are not transferable (last name must stay).

        Args:
            booking_id: a confirmed booking.
            passenger_index: position in the passenger list, 0-based.
            name: corrected full name (same last name).
            email: new email.
        """
        b = self._booking(booking_id)
        if b.status != "confirmed":
            raise Conflict(f"booking {booking_id} is {b.status}.")
        if passenger_index >= len(b.passengers):
            raise NotFound(f"booking {booking_id} has {len(b.passengers)} passengers (index 0..{len(b.passengers) - 1}).")
        if name is None and email is None:
            raise InvalidArgument("give name or email to update.")
        p = b.passengers[passenger_index]
        if name is not None:
            if name.split()[-1].lower() != p.name.split()[-1].lower():
                raise Unprocessable(f"tickets are not transferable: the last name must stay "
                                    f"{p.name.split()[-1]!r}; cancel and rebook for another traveller.")
            b.history.append(f"{self.today}: name {p.name!r} -> {name!r}")
            p.name = name
        if email is not None:
            p.email = email
        return b.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> FlightsState:
        return seed_flights(fake, rng, today)
