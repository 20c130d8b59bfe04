"""Task hook of hotels: a reservation's guest email, check-in date and price
as facts; moving another reservation's dates as a sink."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook, clone, record_sink


def _reservation(ctx: Ctx, guest: str, opts: dict[str, Any], **fields: Any) -> tuple[str, dict[str, Any]]:
    rid = ctx.new_id("hotels", "RSV")
    hotel = ctx.state("hotels")["hotels"][min(ctx.state("hotels")["hotels"])]
    check_in = fields.pop("check_in", ctx.day(30 + opts.get("when", 2)))
    out = (dt.date.fromisoformat(check_in) + dt.timedelta(days=2)).isoformat()
    record = clone(ctx, "hotels", "reservations", rid, hotel_id=hotel["id"], hotel_name=hotel["name"],
                   city=hotel["city"], room_type="standard", rooms=1, guests=1, guest_name=guest,
                   guest_email=ctx.person()[1], check_in=check_in, check_out=out,
                   total_price=round(ctx.rng.randint(20000, 90000) / 100, 2),
                   status="cancelled" if opts.get("closed") else "confirmed", cancellation_fee=0.0,
                   special_requests=[], created_on=ctx.day(-opts.get("when", 2)))
    record.update(fields)
    return rid, record


def _source(etype: str, field: str, noun: str, variants: set[str]) -> RecordSource:
    def plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return _reservation(ctx, cue, opts, **{field: value})

    return RecordSource(
        type=etype, tool="list_reservations", collection="reservations", noun=noun,
        locate="of the hotel reservation for guest {cue}", plant=plant, read_args=lambda cue: {"limit": 200},
        cue=lambda ctx: f"{ctx.first_name()} {ctx.last_name()}", variants=frozenset(variants),
        plural="reservations", decoy_rule="Cancelled reservations are void; use {cue}'s confirmed reservation.")


def _sink_date(ctx: Ctx, fact: Fact) -> SinkStep:
    name = ctx.client()
    rid, record = _reservation(ctx, name, {"when": 40})
    ctx.state("hotels")["reservations"][rid] = record
    out = (dt.date.fromisoformat(fact.value) + dt.timedelta(days=2)).isoformat()
    return record_sink(
        ctx, fact, service="hotels", tool="modify_reservation", value_arg="check_in", collection="reservations",
        field_path="check_in", record_id=rid, where={"reservation_id": rid},
        calls=[call("get_reservation", reservation_id=rid),
               call("modify_reservation", reservation_id=rid, check_in=fact.value, check_out=out)],
        phrase=f"move hotel reservation {rid} ({name}) to check in on {{ref}}, keeping the two-night stay",
        label=f"the date change of reservation {rid}")


HOOK = ServiceHook(
    service="hotels",
    label="hotel reservations",
    sources={"email": _source("email", "guest_email", "the guest's email address", {"decoy"}),
             "date": _source("date", "check_in", "the check-in date", {"decoy"}),
             "money": _source("money", "total_price", "the reservation total", {"decoy", "sum"})},
    sinks={"date": ("modify_reservation", _sink_date)},
)
