"""Car rental in chained tasks: a rental agreement, found by its number or
as the traveller's live reservation (by email), names the traveller, the
pickup city and day and the rental total; the case's reservation is
cancelled with a reason, or its return is moved to a discovered day."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._car_rental_models import RentalAgreement, overlaps, price
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id,
)

SERVICE = "car_rental"


def next_agreement_id(state: dict[str, Any]) -> str:
    """Take the next free rental agreement id from the service's counters (as the service does)."""
    return next_id(state, "RA")


def _free_car(ctx: Ctx, state: dict[str, Any], start: dt.date, end: dt.date) -> dict[str, Any]:
    """A seeded in-service car with no live agreement overlapping ``[start, end)``."""
    live = [RentalAgreement.model_validate(a) for a in state["agreements"].values()]
    cars = [c for k, c in sorted(state["cars"].items()) if c["in_service"]
            and not any(a.car_id == k and overlaps(a, start, end) for a in live)]
    return ctx.rng.choice(cars)


def plant_agreement(ctx: Ctx, agreement_id: str, *, email: str, name: str, pickup: str, days: int,
                    stale: bool) -> str:
    """Add a validated :class:`RentalAgreement`: reserved from ``pickup`` for ``days`` days (or cancelled)."""
    state = ctx.state(SERVICE)
    start = dt.date.fromisoformat(pickup)
    car = _free_car(ctx, state, start, start + dt.timedelta(days=days))
    age = ctx.rng.choice((23, 31, 38, 46))
    rate, fee, total = price(car["car_class"], days, age)
    loc = state["locations"][car["location_id"]]
    extra = {"cancelled_on": ctx.day(-3), "cancel_reason": "Booked twice by mistake.", "total": 0.0} if stale else {}
    a = RentalAgreement.model_validate({
        "id": agreement_id, "car_id": car["id"], "car_class": car["car_class"], "location_id": loc["id"],
        "city": loc["city"], "driver_name": name, "driver_email": email, "driver_age": age, "pickup_date": start,
        "pickup_time": "12:00", "return_date": start + dt.timedelta(days=days), "days": days, "daily_rate": rate,
        "young_driver_fee": fee, "total": total, "status": "cancelled" if stale else "reserved",
        "created_on": ctx.day(-10), **extra})
    state["agreements"][agreement_id] = a.model_dump(mode="json")
    return agreement_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state(SERVICE)
    person = ctx.person()
    pickup = outs.get("date") or ctx.day(ctx.rng.randint(3, 30))
    if dt.date.fromisoformat(pickup) < ctx.today:
        pickup = ctx.day(ctx.rng.randint(3, 30))  # a reservation is always ahead
    return plant_agreement(ctx, key if by_id else next_agreement_id(state),
                           email=(outs.get("email") or person[1]) if by_id else str(key),
                           name=outs.get("person_name") or person[0], pickup=pickup,
                           days=ctx.rng.randint(2, 6), stale=stale)


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_rental_agreement", agreement_id=key)


def _live(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_rental_agreements", driver_email=key, status="reserved")
    return latest(rows, "pickup_date")


_NAME = Give("person_name", "driver_name", "the traveller's name", "the traveller")
_PICKUP = Give("date", "pickup_date", "the car pickup date")

AGREEMENT = Relay(
    service=SERVICE, name="rental agreement", key="rental_agreement_id",
    gives=(Give("email", "driver_email", "the traveller's email address", "the traveller"), _NAME, _PICKUP),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_by_id,
    where="Each rental agreement in the car rental system names the traveller, their email and the pickup date.",
    alloc=lambda ctx: next_agreement_id(ctx.state(SERVICE)), entry=lambda key: f"car rental agreement {key}")

TRAVELLER_RENTAL = Relay(
    service=SERVICE, name="traveller's car reservation", key="email",
    gives=(Give("rental_agreement_id", "id", "the traveller's car reservation"), _NAME, _PICKUP),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_live,
    where="Car reservations are filed under the traveller's email; the latest reserved one is the live one.",
    truth="A cancelled car reservation is history; only the traveller's live reservation counts.")


def _scope(aid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="agreements", allow_ids=[aid],
                        description="No other rental agreement was changed or created.")]


def _cancel(reader: Reader, args: dict[str, Found]) -> Write:
    aid, mention, case = args["rental"].value, args["mention"], args["case"].value
    a = _by_id(reader, aid)
    if a["status"] != "reserved":
        raise SolveError(f"agreement {aid} is not a live reservation")
    reason = f"{case}: {mention.display}"
    if len(reason) > 300:
        raise SolveError(f"{mention.noun} does not fit in a cancellation reason")
    return Write(
        calls=[call("cancel_rental_agreement", agreement_id=aid, reason=reason)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="agreements", record_id=aid,
                              where={"status": "cancelled", "cancel_reason": {"$contains": mention.display}},
                              description="The case's car reservation is cancelled, its reason quoting the value.")],
        scope=_scope(aid), tool="cancel_rental_agreement", where={"agreement_id": aid},
        label="the car reservation cancellation")


def _extend(reader: Reader, args: dict[str, Found]) -> Write:
    aid, until = args["rental"].value, args["until"].value
    a = _by_id(reader, aid)
    days = (dt.date.fromisoformat(until) - dt.date.fromisoformat(a["pickup_date"])).days
    if a["status"] != "reserved" or not 1 <= days <= 30 or until == a["return_date"]:
        raise SolveError(f"agreement {aid} cannot be returned on {until}")
    car = reader.read(SERVICE, "get_car", car_id=a["car_id"])
    if any(b["agreement_id"] != aid and b["pickup_date"] < until and a["pickup_date"] < b["return_date"]
           for b in car["booked"]):
        raise SolveError(f"car {a['car_id']} is booked before {until}")
    return Write(
        calls=[call("modify_rental_agreement", agreement_id=aid, return_date=until)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="agreements", record_id=aid,
                              where={"status": "reserved", "return_date": until, "days": days},
                              description="The case's car reservation now ends on the right day.")],
        scope=_scope(aid), tool="modify_rental_agreement", where={"agreement_id": aid},
        label="the car reservation's new return date")


LINKS = ServiceLinks(
    service=SERVICE, label="the car rental system",
    relays=(AGREEMENT, TRAVELLER_RENTAL),
    actions=(Action(service=SERVICE, name="cancel", needs=(Need("rental", "rental_agreement_id"),), build=_cancel,
                    goal="cancel the car reservation, quoting {mention} in the cancellation reason"),
             # Only plain days (a check-out, an event day), not a person's leave or birthday.
             Action(service=SERVICE, name="extend",
                    needs=(Need("rental", "rental_agreement_id"), Need("until", "date", ("",))), build=_extend,
                    goal="move the car reservation's return to {until}")),
)

__all__ = ["LINKS", "next_agreement_id", "plant_agreement"]
