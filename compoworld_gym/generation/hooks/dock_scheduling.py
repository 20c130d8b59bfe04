"""Dock scheduling in chained tasks: a purchase order, an inbound shipment or a
freight booking leads to the carrier's dock appointment (its reference
number is the PO, its custom fields name the inbound shipment and the
booking); the appointment gives its day, its door and the carrier. Writes:
cancel the appointment with a reason quoting a discovered value, or move it
one week later at the same time."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._dock_scheduling_models import DockSchedulingState
from compoworld_gym.envs.services._dock_scheduling_rules import overlapping
from compoworld_gym.envs.services._dock_scheduling_seed import CARRIERS, book
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id,
)

SERVICE = "dock_scheduling"
#: Planted appointments: palletized dry-van deliveries (LT-0002) at the East Coast DC's pallet doors.
_DOORS = ("DOOR-0002", "DOOR-0003")
_LIVE = ("Requested", "Scheduled")


def next_appointment_id(state: dict[str, Any]) -> str:
    """Take the next free appointment id (as ``new_id("APT")``)."""
    return next_id(state, "APT")


def po_alloc(ctx: Ctx) -> str:
    """A fresh purchase order id: procurement's next one when it is mounted, else one past the largest PO
    counter of the services that quote POs (all set past it, so they agree)."""
    if "procurement" in ctx.states:
        return next_id(ctx.state("procurement"), "PO")
    present = [ctx.state(s) for s in (SERVICE, "freight", "customs", "warehouse") if s in ctx.states]
    counted = [s["counters"]["PO"] for s in present if "PO" in s["counters"]]
    n = max(counted) if counted else 11 + ctx.rng.randrange(25)
    for s in present:
        s["counters"]["PO"] = n + 1
    return f"PO-{n:04d}"


def _other_id(ctx: Ctx, service: str, prefix: str) -> str:
    """The next id of ``service``'s ``prefix`` counter when it is mounted, else one from ours (past its seeds)."""
    if service in ctx.states:
        return next_id(ctx.state(service), prefix)
    return next_id(ctx.state(SERVICE), prefix, start=20 + ctx.rng.randrange(20))


def appointment_day(ctx: Ctx) -> str:
    """A weekday 2 to 20 days ahead, as an ISO date."""
    day = ctx.today + dt.timedelta(days=ctx.rng.randint(2, 20))
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return day.isoformat()


def plant_appointment(ctx: Ctx, *, ref: str, day: str, po: Optional[str] = None,
                      fields: tuple[tuple[str, str], ...] = (), cancelled: bool = False,
                      appointment_id: Optional[str] = None, carrier: Optional[str] = None) -> str:
    """Add a Scheduled (or ``cancelled``) pallet delivery for ``ref`` on ``day`` at WH-EAST, at the first
    free hour from 08:00 on a pallet door, booked 5 days ago; returns its id."""
    raw = ctx.state(SERVICE)
    state = DockSchedulingState.model_validate(raw)
    lt, date = state.load_types["LT-0002"], dt.date.fromisoformat(day)
    spot = None
    for hour in range(8, 17):
        start = dt.datetime.combine(date, dt.time(hour, 0))
        for door in _DOORS:
            if not overlapping(state.appointments.values(), door, start, start + dt.timedelta(hours=1)):
                spot = (state.docks[door], start)
                break
        if spot:
            break
    if spot is None:
        raise SolveError(f"no free pallet door on {day}")
    aid = appointment_id or next_appointment_id(raw)
    created = dt.datetime.combine(ctx.today - dt.timedelta(days=5), dt.time(11, 0))
    book(state, aid, spot[0], lt, spot[1], "Cancelled" if cancelled else "Scheduled", ref,
         _carrier(ctx, carrier), created, po=po, fields=fields,
         cancel_reason="Carrier could not make the slot; rebooked." if cancelled else None)
    raw["appointments"] = state.model_dump(mode="json")["appointments"]
    return aid


def _carrier(ctx: Ctx, name: Optional[str]) -> tuple[str, str]:
    """The carrier ``name`` (a dispatch address on its domain), or one of the seeded carriers."""
    if not name:
        return CARRIERS[ctx.rng.randrange(len(CARRIERS))]
    slug = "".join(ch for ch in name.lower() if ch.isalnum())[:20] or "carrier"
    return name, f"dispatch@{slug}.example"


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    day = outs.get("date") or appointment_day(ctx)
    po = key if by == "po" else outs.get("purchase_order_id") or (po_alloc(ctx) if by != "booking" else None)
    ref = po or (key if by == "booking" else f"BOL-{ctx.rng.randint(100000, 999999)}")
    fields = {"inbound": (("Inbound Shipment", key),), "booking": (("Freight Booking", key),)}.get(by, ())
    return plant_appointment(ctx, ref=ref, day=day, po=po, fields=fields, cancelled=stale,
                             appointment_id=key if by == "id" else None, carrier=outs.get("company"))


def _view(reader: Reader, aid: str) -> dict[str, Any]:
    a = reader.read(SERVICE, "get_appointment", appointment_id=aid)
    return {**a, "date": a["start"][:10]}


def _live(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = [a for a in reader.read(SERVICE, "search_appointments", limit=200, **where) if a["status"] in _LIVE]
    return _view(reader, latest(rows, "start")["id"])


_DATE = Give("date", "date", "the day of the dock appointment", draw=appointment_day)
_DOOR = Give("dock_door_id", "dock_id", "the dock door booked")
_CARRIER = Give("company", "carrier_name", "the trucking carrier booked for the appointment", party="vendor")
_APPT = Give("dock_appointment_id", "id", "the dock appointment")
_TRUTH = "A cancelled dock appointment holds no door; only the live appointment counts."

PO_APPOINTMENT = Relay(
    service=SERVICE, name="purchase order's dock appointment", key="purchase_order_id",
    gives=(_APPT, _DATE, _DOOR, _CARRIER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "po"),
    find=lambda reader, key: _live(reader, ref_number=key), alloc=po_alloc,
    where="Carriers book dock appointments at the warehouses under the purchase order number as reference.",
    truth=_TRUTH)

INBOUND_APPOINTMENT = Relay(
    service=SERVICE, name="inbound shipment's dock appointment", key="inbound_shipment_id",
    gives=(_APPT, _DATE, _DOOR, _CARRIER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "inbound"),
    find=lambda reader, key: _live(reader, search=key), alloc=lambda ctx: _other_id(ctx, "warehouse", "IB"),
    where="A dock appointment names the inbound shipment it delivers in its custom fields.", truth=_TRUTH)

BOOKING_APPOINTMENT = Relay(
    service=SERVICE, name="freight booking's dock appointment", key="freight_booking_id",
    gives=(_APPT, _DATE, _DOOR, _CARRIER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "booking"),
    find=lambda reader, key: _live(reader, search=key), alloc=lambda ctx: _other_id(ctx, "freight", "FB"),
    where="The final-mile truck of a freight booking has a dock appointment naming the booking in its custom "
          "fields.", truth=_TRUTH)

APPOINTMENT = Relay(
    service=SERVICE, name="dock appointment", key="dock_appointment_id",
    gives=(Give("purchase_order_id", "purchase_order_id", "the purchase order the appointment delivers"), _DATE,
           _DOOR, _CARRIER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, False, "id"),
    find=_view,
    where="Each dock appointment gives its day, door and the purchase order it delivers.",
    alloc=lambda ctx: next_appointment_id(ctx.state(SERVICE)), entry=lambda key: f"dock appointment {key}")


def _scope(aid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="appointments", allow_ids=[aid],
                        description="No other dock appointment was booked, moved or changed.")]


def _open(reader: Reader, aid: str) -> dict[str, Any]:
    a = _view(reader, aid)
    if a["status"] not in _LIVE:
        raise SolveError(f"dock appointment {aid} is {a['status']}")
    return a


def _cancel(reader: Reader, args: dict[str, Found]) -> Write:
    aid, mention = args["appointment"].value, args["mention"]
    _open(reader, aid)
    reason = f"{args['case'].value}: {mention.noun} is {mention.display}"
    if len(reason) > 300:
        raise SolveError("the reason does not fit")
    return Write(
        calls=[call("cancel_appointment", appointment_id=aid, reason=reason)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="appointments", record_id=aid,
                              where={"status": "Cancelled", "cancel_reason": {"$contains": mention.display}},
                              description="The dock appointment is cancelled, the reason quoting the value.")],
        scope=_scope(aid), tool="cancel_appointment", where={"appointment_id": aid},
        label="the cancelled dock appointment")


def _later(reader: Reader, args: dict[str, Found]) -> Write:
    aid = args["appointment"].value
    a = _open(reader, aid)
    start = dt.datetime.fromisoformat(a["start"]) + dt.timedelta(days=7)
    free = reader.read(SERVICE, "get_dock_availability", warehouse_id=a["warehouse_id"],
                       load_type_id=a["load_type_id"], date=start.date().isoformat())
    door = next((d for d in free["docks"] if d["dock_id"] == a["dock_id"]), None)
    if door is None or start.strftime("%H:%M") not in door["start_times"]:
        raise SolveError(f"the door of {aid} is not free a week later")
    iso = start.isoformat()
    return Write(
        calls=[call("reschedule_appointment", appointment_id=aid, start=iso)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="appointments", record_id=aid,
                              where={"start": iso, "dock_id": a["dock_id"], "status": a["status"]},
                              description="The dock appointment is moved one week later, same time and door.")],
        scope=_scope(aid), tool="reschedule_appointment", where={"appointment_id": aid},
        label="the rescheduled dock appointment")


_NEED = (Need("appointment", "dock_appointment_id"),)

LINKS = ServiceLinks(
    service=SERVICE, label="the dock scheduling system",
    relays=(APPOINTMENT, PO_APPOINTMENT, INBOUND_APPOINTMENT, BOOKING_APPOINTMENT),
    actions=(
        Action(service=SERVICE, name="cancel", needs=_NEED, build=_cancel,
               goal="cancel the carrier's dock appointment, the reason quoting {mention}"),
        Action(service=SERVICE, name="reschedule", needs=_NEED, build=_later, effect="neither",
               goal="move the dock appointment one week later, same time and door"),
    ),
)

__all__ = ["LINKS", "appointment_day", "next_appointment_id", "plant_appointment", "po_alloc"]
