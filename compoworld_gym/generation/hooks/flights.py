"""Flights in chained tasks: a flight booking names the traveller, their email
and the amount paid; a customer's live booking is found by their email; the
customer's booking is cancelled under its fare rules.

No relay gives a ``booking_id``: the room-booking system uses the same entity
type for its own ids, so a flight booking's id would chain into a room lookup.
The cancellation finds the customer's booking by their email instead."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._timetable import AIRPORTS, SCHEDULES
from compoworld_gym.envs.services._flights_models import FlightBooking
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick, next_id


def next_booking_id(state: dict[str, Any]) -> str:
    """Take the next free booking id from the flights counters (as ``new_id("FB")``)."""
    return next_id(state, "FB")


def plant_booking(state: dict[str, Any], booking_id: str, *, flight_number: str, date: dt.date,
                  passenger: str, email: str, total: float, **fields: Any) -> str:
    """Add a one-passenger :class:`FlightBooking` (validated) on timetable
    flight ``flight_number`` departing on ``date``, paid ``total``; returns the id.

    Raises:
        pydantic.ValidationError: the fields do not make a valid booking.
    """
    s = SCHEDULES[flight_number]
    dep = dt.datetime.combine(date, s.depart)
    shift = AIRPORTS[s.destination].utc_offset - AIRPORTS[s.origin].utc_offset
    arr = dep + dt.timedelta(minutes=s.minutes, hours=shift)
    base = {"flight_id": f"{s.flight_number}-{date:%Y%m%d}", "flight_number": s.flight_number, "origin": s.origin,
            "destination": s.destination, "origin_city": AIRPORTS[s.origin].city,
            "destination_city": AIRPORTS[s.destination].city, "departure": dep.isoformat(),
            "arrival": arr.isoformat(), "fare_class": "standard", "passengers": [{"name": passenger, "email": email}],
            "contact_email": email, "price_per_passenger": total, "total_paid": total, "status": "confirmed",
            "refund_amount": 0.0, "booked_on": date.isoformat(), "history": []}
    booking = FlightBooking.model_validate({**base, **fields, "id": booking_id})
    state["bookings"][booking_id] = booking.model_dump(mode="json")
    return booking_id


def _flight(ctx: Ctx) -> tuple[str, dt.date]:
    """A timetable flight operating on a day 6 to 40 days ahead."""
    numbers = sorted(SCHEDULES)
    while True:
        s = SCHEDULES[ctx.rng.choice(numbers)]
        day = ctx.today + dt.timedelta(days=ctx.rng.randint(6, 40))
        if day.weekday() in s.weekdays:
            return s.flight_number, day


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state("flights")
    bid = key if by_id else next_booking_id(state)
    email = (outs.get("email") or ctx.person()[1]) if by_id else key
    total = outs.get("money") or round(ctx.rng.randint(15000, 160000) / 100, 2)
    number, day = _flight(ctx)
    booked = ctx.day(-ctx.rng.randint(40, 80) if stale else -ctx.rng.randint(2, 20))
    extra: dict[str, Any] = {"fare_class": ctx.rng.choice(("standard", "flex")), "booked_on": booked}
    if stale:
        extra.update(status="cancelled", fare_class="flex", refund_amount=total,
                     history=[f"{ctx.day(-30)}: cancelled, refund {total:.2f} USD"])
    return plant_booking(state, bid, flight_number=number, date=day, passenger=outs.get("person_name") or ctx.client(),
                         email=email, total=total, **extra)


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read("flights", "get_flight_booking", booking_id=key)


def _by_customer(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read("flights", "list_flight_bookings", email=key, status="confirmed", limit=200)
    return pick(rows, contact_email=key)


_MONEY = Give("money", "total_paid", "the amount paid for the flight booking")

BOOKING = Relay(
    service="flights", name="flight booking", key="booking_id",
    gives=(Give("email", "contact_email", "the traveller's email address", "the customer"),
           Give("person_name", "passengers.0.name", "the traveller's name", "the customer"), _MONEY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_by_id,
    where="The flight booking names the traveller, their contact email and the amount paid.",
    alloc=lambda ctx: next_booking_id(ctx.state("flights")), entry=lambda key: f"flight booking {key}")

CUSTOMER_BOOKING = Relay(
    service="flights", name="customer's flight booking", key="email",
    gives=(_MONEY, Give("person_name", "passengers.0.name", "the traveller's name", "the customer")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_by_customer,
    where="Flight bookings are filed under the traveller's contact email in the flight system.",
    truth="A cancelled flight booking is history; only the customer's confirmed booking counts.")


def _prepare(ctx: Ctx, values: dict[str, Any]) -> None:
    """Book a flight for the customer if the chain planted none."""
    email = values["customer"]
    if not any(b["contact_email"].lower() == str(email).lower() and b["status"] == "confirmed"
               for b in ctx.state("flights")["bookings"].values()):
        _plant(ctx, email, {}, False, False)


def _cancel(reader: Reader, args: dict[str, Found]) -> Write:
    bid = _by_customer(reader, args["customer"].value)["id"]
    return Write(
        calls=[call("cancel_flight_booking", booking_id=bid)],
        checks=[RecordMatches(id="_", service="flights", collection="bookings", record_id=bid,
                              where={"status": "cancelled"},
                              description="The customer's confirmed flight booking is cancelled.")],
        scope=[OnlyChanged(id="_", service="flights", collection="bookings", allow_ids=[bid],
                           description="No other flight booking was changed or created.")],
        tool="cancel_flight_booking", where={"booking_id": bid}, label="the flight cancellation", moves_money=True)


LINKS = ServiceLinks(
    service="flights", label="the flight system",
    relays=(BOOKING, CUSTOMER_BOOKING),
    actions=(Action(service="flights", name="cancel", needs=(Need("customer", "email", ("the customer",)),),
                    build=_cancel, prepare=_prepare, goal="cancel the confirmed flight booking of {customer}"),),
)

__all__ = ["LINKS", "next_booking_id", "plant_booking"]
