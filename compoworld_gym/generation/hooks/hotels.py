"""Hotels in chained tasks: a reservation names the lead guest, their email,
the check-in date and the stay's total; a guest's live reservation is found
by their email; the case's reservation gets a special request or is cancelled."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services.hotels import Reservation
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick, next_id


def next_reservation_id(state: dict[str, Any]) -> str:
    """Take the next free reservation id from the hotels counters (as ``new_id("RSV")``)."""
    return next_id(state, "RSV")


def plant_reservation(state: dict[str, Any], reservation_id: str, *, hotel_id: str, check_in: str, nights: int,
                      **fields: Any) -> str:
    """Add a :class:`Reservation` (validated) of one standard room at hotel
    ``hotel_id`` from ``check_in`` (ISO date) for ``nights``; returns the id.

    Raises:
        pydantic.ValidationError: the fields do not make a valid reservation.
        KeyError: no such hotel.
    """
    hotel = state["hotels"][hotel_id]
    out = (dt.date.fromisoformat(check_in) + dt.timedelta(days=nights)).isoformat()
    base = {"hotel_id": hotel_id, "hotel_name": hotel["name"], "city": hotel["city"], "room_type": "standard",
            "rooms": 1, "guests": 1, "check_in": check_in, "check_out": out, "status": "confirmed",
            "cancellation_fee": 0.0, "special_requests": []}
    res = Reservation.model_validate({**base, **fields, "id": reservation_id})
    state["reservations"][reservation_id] = res.model_dump(mode="json")
    return reservation_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state("hotels")
    rid = key if by_id else next_reservation_id(state)
    email = (outs.get("email") or ctx.person()[1]) if by_id else key
    hotel = ctx.rng.choice(sorted(state["hotels"]))
    return plant_reservation(
        state, rid, hotel_id=hotel, check_in=outs.get("date") or ctx.day(ctx.rng.randint(5, 40)),
        nights=ctx.rng.randint(2, 4), guest_name=outs.get("person_name") or ctx.client(), guest_email=email,
        total_price=outs.get("money") or round(ctx.rng.randint(30000, 190000) / 100, 2),
        status="cancelled" if stale else "confirmed", created_on=ctx.day(-ctx.rng.randint(35, 70) if stale else -3),
        special_requests=["Quiet room away from the lift"] if not stale else [])


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read("hotels", "get_reservation", reservation_id=key)


def _by_guest(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read("hotels", "list_reservations", guest_email=key, status="confirmed", limit=200)
    return pick(rows, guest_email=key)


_MONEY = Give("money", "total_price", "the hotel reservation total")
_DATE = Give("date", "check_in", "the hotel check-in date")

RESERVATION = Relay(
    service="hotels", name="hotel reservation", key="reservation_id",
    gives=(Give("reservation_id", "id", "the hotel reservation"),
           Give("email", "guest_email", "the guest's email address", "the customer"),
           Give("person_name", "guest_name", "the guest's name", "the customer"), _MONEY, _DATE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_by_id,
    where="The hotel reservation names the lead guest, their email, the check-in date and the stay's total.",
    alloc=lambda ctx: next_reservation_id(ctx.state("hotels")), entry=lambda key: f"hotel reservation {key}")

GUEST_RESERVATION = Relay(
    service="hotels", name="guest's reservation", key="email",
    gives=(Give("reservation_id", "id", "the guest's hotel reservation"), _MONEY, _DATE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_by_guest,
    where="Hotel reservations are filed under the lead guest's email address.",
    truth="A cancelled hotel reservation is void; only the guest's confirmed reservation counts.")


def _scope(rid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="hotels", collection="reservations", allow_ids=[rid],
                        description="No other hotel reservation was changed or created.")]


def _request(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["reservation"].value, args["mention"], args["case"].value
    _by_id(reader, rid)
    text = f"{case}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("add_special_request", reservation_id=rid, request=text)],
        checks=[RecordMatches(id="_", service="hotels", collection="reservations", record_id=rid,
                              where={"special_requests": {"$some": {"$all": [{"$contains": case},
                                                                             {"$contains": mention.display}]}}},
                              description="A request on the reservation quotes the case and the right value.")],
        scope=_scope(rid), tool="add_special_request", where={"reservation_id": rid},
        label="the note on the hotel reservation")


def _cancel(reader: Reader, args: dict[str, Found]) -> Write:
    rid = args["reservation"].value
    _by_id(reader, rid)
    return Write(
        calls=[call("cancel_reservation", reservation_id=rid)],
        checks=[RecordMatches(id="_", service="hotels", collection="reservations", record_id=rid,
                              where={"status": "cancelled"}, description="The case's hotel reservation is cancelled.")],
        scope=_scope(rid), tool="cancel_reservation", where={"reservation_id": rid},
        label="the hotel cancellation", moves_money=True)


LINKS = ServiceLinks(
    service="hotels", label="the hotel system",
    relays=(RESERVATION, GUEST_RESERVATION),
    actions=(
        Action(service="hotels", name="note", needs=(Need("reservation", "reservation_id"),), build=_request,
               goal="add a note to the guest's hotel reservation stating {mention}"),
        Action(service="hotels", name="cancel", needs=(Need("reservation", "reservation_id"),), build=_cancel,
               goal="cancel the guest's hotel reservation"),
    ),
)

__all__ = ["LINKS", "next_reservation_id", "plant_reservation"]
