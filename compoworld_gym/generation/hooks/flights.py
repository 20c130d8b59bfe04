"""Task hook of flights: a booking's contact email and fare as facts; a
passenger's email correction as a sink."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook, clone, record_sink


def _booking(ctx: Ctx, passenger: str, opts: dict[str, Any], **fields: Any) -> tuple[str, dict[str, Any]]:
    bid = ctx.new_id("flights", "FB")
    email = ctx.person()[1]
    price = round(ctx.rng.randint(12000, 90000) / 100, 2)
    record = clone(ctx, "flights", "bookings", bid, passengers=[{"name": passenger, "email": email}],
                   contact_email=email, price_per_passenger=price, total_paid=price,
                   status="cancelled" if opts.get("closed") else "confirmed", refund_amount=0.0,
                   booked_on=ctx.day(-opts.get("when", 2)), history=[])
    record.update(fields)
    return bid, record


def _source(etype: str, field: str, noun: str, variants: set[str]) -> RecordSource:
    def plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return _booking(ctx, cue, opts, **{field: value})

    return RecordSource(
        type=etype, tool="list_flight_bookings", collection="bookings", noun=noun,
        locate="of the flight booking for passenger {cue}", plant=plant, read_args=lambda cue: {"limit": 200},
        cue=lambda ctx: f"{ctx.first_name()} {ctx.last_name()}", variants=frozenset(variants),
        plural="bookings", decoy_rule="A cancelled booking is history; use {cue}'s confirmed booking.")


def _sink_email(ctx: Ctx, fact: Fact) -> SinkStep:
    name = ctx.client()
    bid, record = _booking(ctx, name, {"when": 4})
    ctx.state("flights")["bookings"][bid] = record
    return record_sink(
        ctx, fact, service="flights", tool="update_passenger", value_arg="email", collection="bookings",
        field_path="passengers", nest="email", record_id=bid, where={"booking_id": bid},
        calls=[call("get_flight_booking", booking_id=bid),
               call("update_passenger", booking_id=bid, passenger_index=0, email=fact.value)],
        phrase=f"on flight booking {bid}, change passenger {name}'s email to {{ref}}",
        label=f"the passenger update on {bid}")


HOOK = ServiceHook(
    service="flights",
    label="flight bookings",
    sources={"email": _source("email", "contact_email", "the booking's contact email", {"decoy"}),
             "money": _source("money", "total_paid", "the amount paid", {"decoy", "sum"})},
    sinks={"email": ("update_passenger", _sink_email)},
)
