"""Maintenance in chained tasks: a CMMS work order names the meeting room
whose fan coil unit it repairs, the assigned technician and its due date; a
meeting room (as a Home Assistant thermostat names it) leads to the open
work order on the room's equipment. Writes: complete the case's work order
(labor logged, a completion note), hand it to the field-service technician a
policy names, or add a note."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import staff_of
from compoworld_gym.envs.services._maintenance_models import (
    Equipment, LaborEntry, MaintenanceState, Technician, WorkOrder,
)
from compoworld_gym.envs.services._maintenance_rules import new_work_order, recost
from compoworld_gym.envs.services._maintenance_seed import EMPLOYEE_RATE
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.field_service import ROUTE_TECHS
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "maintenance"
ROOM_RX = r"RM-\d{4,}"
#: The offices of the room booking system's rooms RM-0001..RM-0012, four per site.
_SITES = ("SF-HQ", "NY-01", "AUS-01")
_FAULTS = ("Fan coil not heating", "Fan coil blowing warm air", "Fan coil rattling", "Condensate leak at fan coil")


def technician_email(ctx: Ctx) -> str:
    """An in-house logistics employee who takes maintenance work (in every seed's roster)."""
    return ctx.rng.choice(sorted(s.email for s in staff_of("logistics")))


def next_work_order_id(state: dict[str, Any]) -> str:
    """Take the next free work order id from the maintenance counters (as ``new_id("WO")``)."""
    return next_id(state, "WO")


def alloc_room(ctx: Ctx) -> str:
    """A meeting room the task does not use yet: one of Home Assistant's rooms when it is mounted
    (its areas' aliases), else one of the booking system's RM-0001..RM-0012, else a new one. Rooms
    are reserved on the context as Home Assistant's hook reserves them, so the two never clash."""
    taken = ctx.__dict__.setdefault("_ha_rooms", set())
    if "home_assistant" in ctx.states:
        pool = {x for a in ctx.state("home_assistant")["areas"].values() for x in a["aliases"]
                if re.fullmatch(ROOM_RX, x)}
    else:
        pool = {f"RM-{i:04d}" for i in range(1, 13)}
    free = sorted(pool - taken)
    room = ctx.rng.choice(free) if free else f"RM-{max([int(x[3:]) for x in taken | pool] + [12]) + 1:04d}"
    taken.add(room)
    return room


def _equipment(ctx: Ctx, state: MaintenanceState, room: str) -> Equipment:
    """The room's fan coil unit, added (at the room's office) if the room has none."""
    for e in state.equipment.values():
        if e.room_id == room and e.status != "decommissioned":
            return e
    n = int(room[3:])
    e = Equipment(id=next_id(ctx.state(SERVICE), "EQ"), name=f"Fan coil unit - {room}", category="hvac",
                  model="Daikin FXFQ", serial=f"E0{ctx.rng.randint(10**5, 10**6 - 1)}",
                  location_id=_SITES[(n - 1) // 4] if n <= 12 else "AUS-01", room_id=room, status="operational",
                  install_date=ctx.day(-ctx.rng.randint(400, 2500)))
    state.equipment[e.id] = e
    return e


def _technician(ctx: Ctx, state: MaintenanceState, email: str) -> Technician:
    """The active user with ``email``, added as an in-house employee if unknown."""
    for t in state.technicians.values():
        if t.email.lower() == email.lower() and t.active:
            return t
    name = email.split("@")[0].replace(".", " ").title()
    t = Technician(id=next_id(ctx.state(SERVICE), "USR"), name=name, email=email, kind="employee",
                   skills=["general"], hourly_rate=EMPLOYEE_RATE)
    state.technicians[t.id] = t
    return t


def plant_work_order(ctx: Ctx, wid: str, *, room: str, email: str, due: str, closed: bool = False) -> str:
    """Add a high-priority work order on ``room``'s fan coil unit (added if missing), assigned to the
    user with ``email``, due on ``due``: open or in progress, or (``closed``) completed a week ago."""
    raw = ctx.state(SERVICE)
    state = MaintenanceState.model_validate(raw)
    eq, tech = _equipment(ctx, state, room), _technician(ctx, state, email)
    wo = new_work_order(wid, eq, title=f"{ctx.rng.choice(_FAULTS)} in {room}", priority="high",
                        category="corrective", due=ctx.today, today=ctx.today, tech=tech,
                        requested_by="grace.okafor@company.example")
    wo = WorkOrder.model_validate({**wo.model_dump(), "due_date": due, "created_on": ctx.day(-3)})
    wo.status = "in_progress" if ctx.rng.random() < 0.5 else "open"
    if closed:
        wo.labor.append(LaborEntry(technician_id=tech.id, hours=1.0, rate=tech.hourly_rate, cost=tech.hourly_rate,
                                   logged_on=ctx.day(-7)))
        wo.status, wo.completed_on = "complete", ctx.today - dt.timedelta(days=7)
        wo.completion_note = "Reset the unit's controller; running normally."
        recost(wo)
    state.work_orders[wid] = wo
    dumped = state.model_dump(mode="json")
    for coll in ("equipment", "technicians", "work_orders"):
        raw[coll] = dumped[coll]
    return wid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    return plant_work_order(ctx, key if by == "id" else next_work_order_id(state),
                            room=key if by == "room" else outs.get("room_id") or alloc_room(ctx),
                            email=outs.get("email") or technician_email(ctx), due=outs.get("date") or ctx.fresh("date"),
                            closed=stale)


def _room_order(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_work_orders", room_id=key, limit=200)
    wid = pick([r for r in rows if r["status"] != "complete"])["id"]
    return reader.read(SERVICE, "get_work_order", work_order_id=wid)


_TECH = Give("email", "assigned_technician_email", "the assigned technician's email address", "the assigned technician",
             draw=technician_email)
_DUE = Give("date", "due_date", "the work order's due date")

WORK_ORDER = Relay(
    service=SERVICE, name="maintenance work order", key="work_order_id",
    gives=(Give("room_id", "room_id", "the meeting room whose equipment the work order repairs", pattern=ROOM_RX),
           _TECH, _DUE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"),
    find=lambda reader, key: reader.read(SERVICE, "get_work_order", work_order_id=key),
    where="Each maintenance work order names the meeting room its equipment serves, the assigned technician and "
          "the due date.",
    alloc=lambda ctx: next_work_order_id(ctx.state(SERVICE)), entry=lambda key: f"maintenance work order {key}")

ROOM_WORK_ORDER = Relay(
    service=SERVICE, name="meeting room's open work order", key="room_id",
    # No technician email: a room's repair is where the chain ends (complete it, hand it over, note it).
    gives=(Give("work_order_id", "id", "the open work order on the room's equipment"), _DUE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "room"), find=_room_order, alloc=alloc_room,
    where="In the maintenance system each meeting room's fan coil unit, with its work orders, is filed under the "
          "room's id in the room booking system.",
    entry=lambda key: f"the open maintenance work order of meeting room {key}",
    truth="A completed work order is closed; only the room's open work order counts.")


def _open(reader: Reader, wid: str) -> dict[str, Any]:
    wo = reader.read(SERVICE, "get_work_order", work_order_id=wid)
    if wo["status"] == "complete":
        raise SolveError(f"work order {wid} is complete")
    return wo


def _scope(wid: str, eq: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="work_orders", allow_ids=[wid],
                        description="No other work order was changed or created."),
            OnlyChanged(id="_", service=SERVICE, collection="equipment", allow_ids=[eq],
                        description="No other equipment was changed."),
            OnlyChanged(id="_", service=SERVICE, collection="parts", description="No part was taken from stock.")]


def _complete(reader: Reader, args: dict[str, Found]) -> Write:
    wid, mention, case = args["work_order"].value, args["mention"], args["case"].value
    wo = _open(reader, wid)
    tech = wo["assigned_technician_id"]
    if tech is None or wo["status"] == "on_hold":
        raise SolveError(f"work order {wid} cannot be started")
    note = f"{case}: fan coil repaired and tested; {mention.noun} is {mention.display}."
    calls = [] if wo["status"] == "in_progress" else [
        call("update_work_order_status", work_order_id=wid, status="in_progress")]
    calls += [call("log_labor", work_order_id=wid, technician_id=tech, hours=1.5),
              call("complete_work_order", work_order_id=wid, completion_note=note)]
    return Write(
        calls=calls,
        checks=[RecordMatches(id="_", service=SERVICE, collection="work_orders", record_id=wid,
                              where={"status": "complete", "labor_hours": {"$gt": 0},
                                     "completion_note": {"$all": [{"$contains": case}, {"$contains": mention.display}]}},
                              description="The work order is complete, with labor logged and a completion note "
                                          "quoting the case and the right value.")],
        scope=_scope(wid, wo["equipment_id"]), tool="complete_work_order", where={"work_order_id": wid},
        label="the completed work order")


def _assign(reader: Reader, args: dict[str, Found]) -> Write:
    wid, tech = args["work_order"].value, str(args["technician"].value)
    wo = _open(reader, wid)
    if wo["assigned_technician_id"] == tech:
        raise SolveError(f"work order {wid} is already assigned to {tech}")
    return Write(
        calls=[call("assign_work_order", work_order_id=wid, technician_id=tech)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="work_orders", record_id=wid,
                              where={"assigned_technician_id": tech},
                              description="The work order is assigned to the technician the policy names.")],
        scope=_scope(wid, wo["equipment_id"]), tool="assign_work_order", where={"work_order_id": wid},
        label="the work order assignment")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    wid, mention, case = args["work_order"].value, args["mention"], args["case"].value
    wo = reader.read(SERVICE, "get_work_order", work_order_id=wid)
    return Write(
        calls=[call("add_work_order_note", work_order_id=wid, note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="work_orders", record_id=wid,
                              where={"notes": {"$some": {"$all": [{"$contains": case},
                                                                  {"$contains": mention.display}]}}},
                              description="A note on the work order quotes the case and the right value.")],
        scope=_scope(wid, wo["equipment_id"]), tool="add_work_order_note", where={"work_order_id": wid},
        label="the note on the work order")


def _techs(ctx: Ctx) -> tuple[str, str]:
    a, b = ctx.rng.sample(ROUTE_TECHS, 2)
    return a, b


LINKS = ServiceLinks(
    service=SERVICE, label="the maintenance system (CMMS)",
    relays=(WORK_ORDER, ROOM_WORK_ORDER),
    actions=(
        Action(service=SERVICE, name="complete", needs=(Need("work_order", "work_order_id"),), build=_complete,
               goal="complete the maintenance work order: start it if needed, log 1.5 hours for its assigned "
                    "technician and close it with a completion note quoting {mention}"),
        Action(service=SERVICE, name="assign",
               needs=(Need("technician", "technician_id", noun="technician"), Need("work_order", "work_order_id")),
               build=_assign, routable=True, goal="assign the maintenance work order to {technician}"),
        Action(service=SERVICE, name="note", needs=(Need("work_order", "work_order_id"),), build=_note,
               goal="add a note to the maintenance work order, quoting {mention}"),
    ),
    route_values={"technician_id": _techs},
)

__all__ = ["LINKS", "alloc_room", "next_work_order_id", "plant_work_order", "technician_email"]
