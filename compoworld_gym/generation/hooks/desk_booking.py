"""Desk booking (Robin) in chained tasks: an employee's work email (from the
HR directory, a leave request or a visitor invite's host) leads to their
booked desk reservation, which names the day reserved; a reservation, by id,
names the employee and the day. Write: cancel the case's desk reservation
(the person will be out), noting a discovered value."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._desk_booking_models import DeskUser
from compoworld_gym.envs.services._desk_booking_seed import reservation
from compoworld_gym.envs.services._desk_booking_models import Desk, DeskBookingState
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import employee_email, name_from_email, person_of
from compoworld_gym.generation.links import (
    Action, Found, Give, Reader, Relay, ServiceLinks, SolveError, Write, Need, next_id, pick,
)

SERVICE = "desk_booking"
_HQ = "LOC-0001"


def desk_day(ctx: Ctx) -> str:
    """A weekday 1 to 20 days ahead (ISO), when San Francisco HQ is open."""
    day = ctx.today + dt.timedelta(days=ctx.rng.randint(1, 20))
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return day.isoformat()


def _user(ctx: Ctx, state: DeskBookingState, email: str) -> DeskUser:
    hit = next((u for u in state.users.values() if u.email.lower() == email.lower()), None)
    if hit is not None:
        return hit
    known = person_of(ctx, email=email) or {}
    uid = known.get("id") if known.get("id") and known.get("id") not in state.users else None
    uid = uid or next_id(ctx.state(SERVICE), "EMP", start=len(state.users) + 1)
    u = DeskUser(id=uid, name=known.get("name") or name_from_email(email), email=email,
                 department=known.get("department") or "Customer Support", home_location_id=_HQ)
    state.users[uid] = u
    return u


def plant_desk_reservation(ctx: Ctx, rid: str, email: str, *, day: Optional[str] = None,
                           cancelled: bool = False) -> str:
    """A booked 9-17 reservation (or a ``cancelled`` one) of a hot desk for ``email`` on ``day`` at their
    home office (San Francisco HQ when theirs is closed that day); returns ``rid``."""
    raw = ctx.state(SERVICE)
    state = DeskBookingState.model_validate(raw)
    user = _user(ctx, state, email)
    when = dt.date.fromisoformat(day or desk_day(ctx))
    loc = state.locations[user.home_location_id]
    if when.weekday() not in loc.open_days:
        loc = state.locations[_HQ]
    if not cancelled:  # one desk a day: the person's other bookings that day go
        for k in [k for k, r in state.reservations.items() if r.reservee_email.lower() == email.lower()
                  and r.status != "cancelled"]:
            del state.reservations[k]
    desks = [d for d in state.desks.values() if d.location_id == loc.id and d.reservation_type == "hoteled"
             and not d.is_disabled]
    busy = {r.desk_id for r in state.reservations.values() if r.date == when and r.status != "cancelled"}
    desk = next((d for d in desks if d.id not in busy), None)
    if desk is None:
        desk = Desk(id=next_id(raw, "DSK"), name=f"{loc.name[:3].upper()}-4-D{len(state.desks) + 10}",
                    location_id=loc.id, location_name=loc.name, neighborhood="Open Seating", floor=4,
                    reservation_type="hoteled")
        state.desks[desk.id] = desk
    r = reservation(rid, desk, user, when)
    if cancelled:
        r.status, r.cancelled_at = "cancelled", dt.datetime.combine(ctx.today - dt.timedelta(days=1), dt.time(17))
        r.cancel_reason = "Plans changed"
    state.reservations[rid] = r
    dumped = state.model_dump(mode="json")
    for coll in ("users", "desks", "reservations"):
        raw[coll] = dumped[coll]
    return rid


def _booked(reader: Reader, email: str) -> dict[str, Any]:
    return pick(reader.read(SERVICE, "list_reservations", reservee_email=email, status="booked", limit=200))


_DAY = Give("date", "date", "the day the desk is reserved", "the desk reservation", draw=desk_day)

EMPLOYEE_DESK = Relay(
    service=SERVICE, name="desk reservation", key="email",
    gives=(Give("desk_reservation_id", "id", "the employee's desk reservation"), _DAY),
    plant=lambda ctx, key, outs, stale: plant_desk_reservation(ctx, next_id(ctx.state(SERVICE), "DRS"), key,
                                                               day=outs.get("date"), cancelled=stale),
    find=lambda reader, key: _booked(reader, key),
    where="Robin holds each employee's desk reservations under their work email, with the desk, office and day.",
    truth="A cancelled desk reservation holds no desk; only the booked one counts.", key_role="staff")

RESERVATION = Relay(
    service=SERVICE, name="desk reservation record", key="desk_reservation_id",
    gives=(Give("email", "reservee_email", "the work email of the employee the desk is for", "the employee",
                draw=employee_email), _DAY),
    plant=lambda ctx, key, outs, stale: plant_desk_reservation(ctx, key, outs.get("email") or employee_email(ctx),
                                                               day=outs.get("date")),
    find=lambda reader, key: reader.read(SERVICE, "get_reservation", reservation_id=key),
    where="Each Robin desk reservation names the employee it is for (work email), the desk, the office and the day.",
    alloc=lambda ctx: next_id(ctx.state(SERVICE), "DRS"), entry=lambda key: f"desk reservation {key}")


def _cancel(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention = args["reservation"].value, args["mention"]
    r = reader.read(SERVICE, "get_reservation", reservation_id=rid)
    if r["status"] != "booked":
        raise SolveError(f"desk reservation {rid} is not booked")
    note = f"{args['case'].value}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("cancel_reservation", reservation_id=rid, reason=note)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="reservations", record_id=rid,
                              where={"status": "cancelled", "cancel_reason": {"$contains": mention.display}},
                              description="The desk reservation is cancelled, its reason quoting the value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="reservations", allow_ids=[rid],
                           description="No other desk reservation was changed or made.")],
        tool="cancel_reservation", where={"reservation_id": rid}, label="the cancelled desk reservation")


LINKS = ServiceLinks(
    service=SERVICE, label="Robin desk booking",
    relays=(EMPLOYEE_DESK, RESERVATION),
    actions=(Action(service=SERVICE, name="cancel desk", needs=(Need("reservation", "desk_reservation_id"),),
                    build=_cancel, goal="cancel the employee's desk reservation in Robin, noting {mention}"),),
)

__all__ = ["LINKS", "desk_day", "plant_desk_reservation"]
