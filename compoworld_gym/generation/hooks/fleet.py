"""Fleet in chained tasks: a parcel's delivery stop, found by its tracking
number or by its order, names the order, the recipient, the delivery address
and the route; a dispatched route names its driver's phone and email; the
case's route is dispatched to the driver a policy names, the parcel's stop is
held back, or the driver gets a note on the route."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.envs.services._fleet_seed import DEPOTS, Driver, Route, Stop
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.invoicing import order_ref
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

#: Active, licensed drivers with hours to spare in every seed: the drivers a
#: policy may name (planted routes are driven by other, planted drivers).
POLICY_DRIVERS = ("DRV-0001", "DRV-0002", "DRV-0003", "DRV-0004", "DRV-0005")
_CITIES = ("Seattle", "Chicago", "Portland", "Denver", "Boston")


def next_route_id(state: dict[str, Any]) -> str:
    """Take the next free route id from the fleet counters (as ``new_id("RTE")``)."""
    return next_id(state, "RTE")


def driver_email(ctx: Ctx) -> str:
    """A fresh driver's work email at the company domain."""
    return f"{ctx.first_name()}.{ctx.last_name()}{ctx.rng.randint(10, 99)}@{DOMAIN}".lower().replace("'", "")


def plant_route(state: dict[str, Any], route_id: str, **fields: Any) -> str:
    """Add a planned :class:`Route` (validated) under ``route_id``; ``fields``
    override any field; returns the id.

    Raises:
        pydantic.ValidationError: the fields do not make a valid route.
    """
    base = {"status": "planned", "planned_drive_hours": 3.0, "stops": [], "notes": []}
    state["routes"][route_id] = Route.model_validate({**base, **fields, "id": route_id}).model_dump(mode="json")
    return route_id


def plant_stop(state: dict[str, Any], route_id: str, **fields: Any) -> str:
    """Append a scheduled :class:`Stop` (validated) to route ``route_id``; returns the stop id."""
    route = state["routes"][route_id]
    stop = Stop.model_validate({"status": "scheduled", **fields, "id": next_id(state, "STP"),
                                "sequence": len(route["stops"]) + 1})
    route["stops"].append(stop.model_dump(mode="json"))
    return stop.id


def _new_route(ctx: Ctx, status: str, offset: int, **fields: Any) -> str:
    state = ctx.state("fleet")
    city = ctx.rng.choice(_CITIES)
    return plant_route(state, next_route_id(state), name=f"{city} final-mile {ctx.rng.choice(('AM', 'PM'))}",
                       scheduled_date=ctx.day(offset), depot=DEPOTS[city], status=status,
                       cancel_reason="Van unavailable" if status == "cancelled" else None, **fields)


def _city(route: dict[str, Any]) -> str:
    return next((c for c, d in DEPOTS.items() if d == route["depot"]), "Seattle")


def _plant_stop(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state("fleet")
    rid = _new_route(ctx, "cancelled", -3) if stale else _new_route(ctx, "planned", ctx.rng.randint(1, 3))
    values = {"tracking_number": outs.get("tracking_number") or ctx.fresh("tracking_number"),
              "order_id": outs.get("order_id"), by: key}
    plant_stop(state, rid, address=outs.get("address") or ctx.fresh("address"), city=_city(state["routes"][rid]),
               postal_code=f"{ctx.rng.randint(10000, 99999)}", recipient_name=outs.get("person_name") or ctx.client(),
               status="skipped" if stale else "scheduled",
               skip_reason="Route cancelled: Van unavailable" if stale else None, **values)
    plant_stop(state, rid, address=ctx.fresh("address"), city=_city(state["routes"][rid]),
               postal_code=f"{ctx.rng.randint(10000, 99999)}", recipient_name=ctx.fresh("person_name"),
               tracking_number=ctx.fresh("tracking_number"), status="skipped" if stale else "scheduled")
    return rid


def _live_stop(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read("fleet", "list_route_stops", limit=200, **where)
    return pick([r for r in rows if r["route_status"] != "cancelled" and r["status"] != "skipped"], **where)


def _plant_route(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    """A route dispatched for tomorrow to a newly planted driver and a free van."""
    state = ctx.state("fleet")
    did = next_id(state, "DRV", start=len(state["drivers"]) + 1)
    email = outs.get("email") or driver_email(ctx)
    name = " ".join(p.capitalize() for p in email.split("@")[0].rstrip("0123456789").split(".")[:2])
    state["drivers"][did] = Driver(
        id=did, name=name, email=email, phone=outs.get("phone") or ctx.fresh("phone"),
        license_number=f"CDL{ctx.rng.randint(10**7, 10**8 - 1)}", license_state="WA",
        license_expires=ctx.day(400), status="active", hours_driven_today=0.0, cycle_hours=30.0,
    ).model_dump(mode="json")
    day = ctx.day(1)
    busy = {r["vehicle_id"] for r in state["routes"].values() if r["scheduled_date"] == day}
    van = next(v for v, rec in sorted(state["vehicles"].items()) if rec["status"] == "in_service" and v not in busy)
    plant_route(state, key, name=f"{ctx.rng.choice(_CITIES)} final-mile PM", scheduled_date=day,
                depot=DEPOTS[ctx.rng.choice(_CITIES)], status="dispatched", driver_id=did, vehicle_id=van)
    for _ in range(2):
        plant_stop(state, key, address=ctx.fresh("address"), city=_city(state["routes"][key]),
                   postal_code=f"{ctx.rng.randint(10000, 99999)}", recipient_name=ctx.fresh("person_name"),
                   tracking_number=ctx.fresh("tracking_number"))
    return key


def _route_with_driver(reader: Reader, key: Any) -> dict[str, Any]:
    route = reader.read("fleet", "get_route", route_id=key)
    if not route.get("driver_id"):
        raise SolveError(f"route {key} has no driver")
    return {**route, "driver": reader.read("fleet", "get_driver", driver_id=route["driver_id"])}


_ADDRESS = Give("address", "address", "the delivery address", "the customer")
_ROUTE = Give("delivery_route_id", "route_id", "the delivery route carrying the parcel")
_TRUTH = "A stop on a cancelled route never runs; only the parcel's stop on a live route counts."

PARCEL_STOP = Relay(
    service="fleet", name="parcel's delivery stop", key="tracking_number",
    gives=(Give("order_id", "order_id", "the order the parcel belongs to"),
           Give("person_name", "recipient_name", "the recipient's name", "the customer"), _ADDRESS, _ROUTE),
    plant=lambda ctx, key, outs, stale: _plant_stop(ctx, key, outs, stale, "tracking_number"),
    find=lambda reader, key: _live_stop(reader, tracking_number=key),
    where="Fleet routes list each parcel as a delivery stop under its tracking number, with the order, the "
          "recipient and the delivery address.",
    entry=lambda key: f"the delivery stop of parcel {key}", truth=_TRUTH)

ORDER_STOP = Relay(
    service="fleet", name="order's delivery stop", key="order_id",
    gives=(Give("tracking_number", "tracking_number", "the parcel's tracking number"), _ADDRESS, _ROUTE),
    plant=lambda ctx, key, outs, stale: _plant_stop(ctx, key, outs, stale, "order_id"),
    find=lambda reader, key: _live_stop(reader, order_id=key),
    where="Fleet delivery stops are filed under the store order they deliver, with the parcel's tracking number.",
    alloc=lambda ctx: order_ref(ctx, "fleet"), entry=lambda key: f"the delivery stop of order {key}", truth=_TRUTH)

ROUTE = Relay(
    service="fleet", name="dispatched route", key="delivery_route_id",
    gives=(Give("phone", "driver.phone", "the driver's mobile number", "the driver"),
           Give("email", "driver.email", "the driver's work email", "the driver", draw=driver_email)),
    plant=_plant_route, find=_route_with_driver,
    where="Each dispatched fleet route names its driver, whose profile holds their mobile number and email.",
    alloc=lambda ctx: next_route_id(ctx.state("fleet")), entry=lambda key: f"delivery route {key}")


def _scope(rid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="fleet", collection="routes", allow_ids=[rid],
                        description="No other route was changed or created.")]


def _prepare_dispatch(ctx: Ctx, values: dict[str, Any]) -> None:
    """Keep the policy's drivers dispatchable: active, licensed, rested."""
    drivers = values["driver"]
    for did in drivers if isinstance(drivers, tuple) else (drivers,):
        d = ctx.state("fleet")["drivers"].get(did)
        if d is not None:
            d.update(status="active", license_expires=ctx.day(365), hours_driven_today=0.0,
                     cycle_hours=min(d["cycle_hours"], 40.0))


def _dispatch(reader: Reader, args: dict[str, Found]) -> Write:
    rid, driver = args["route"].value, args["driver"].value
    route = reader.read("fleet", "get_route", route_id=rid)
    van = route["vehicle_id"]
    if van is None:  # the first in-service van not already out on a route that day
        busy = {r["vehicle_id"] for r in reader.read("fleet", "list_routes", scheduled_date=route["scheduled_date"])
                if r["status"] in ("dispatched", "in_progress")}
        van = next((v["id"] for v in reader.read("fleet", "list_vehicles", status="in_service")
                    if v["id"] not in busy), None)
        if van is None:
            raise SolveError(f"no van is free on {route['scheduled_date']}")
    return Write(
        calls=[call("dispatch_route", route_id=rid, driver_id=driver, vehicle_id=van)],
        checks=[RecordMatches(id="_", service="fleet", collection="routes", record_id=rid,
                              where={"status": "dispatched", "driver_id": driver},
                              description="The route is dispatched to the right driver.")],
        scope=_scope(rid), tool="dispatch_route", where={"route_id": rid}, label="the dispatch of the route")


def _prepare_hold(ctx: Ctx, values: dict[str, Any]) -> None:
    """Put the parcel on a planned route unless a live stop already carries it."""
    state, trk = ctx.state("fleet"), str(values["parcel"])
    live = any(s.get("tracking_number") == trk and s["status"] == "scheduled" and r["status"] in ("planned", "dispatched")
               for r in state["routes"].values() for s in r["stops"])
    if not live:
        _plant_stop(ctx, trk, {}, False, "tracking_number")


def _hold(reader: Reader, args: dict[str, Found]) -> Write:
    trk, mention, case = args["parcel"].value, args["mention"], args["case"].value
    stop = _live_stop(reader, tracking_number=trk)
    reason = f"{case}: parcel held back; {mention.noun} is {mention.display}."
    return Write(
        calls=[call("skip_stop", route_id=stop["route_id"], stop_id=stop["id"], reason=reason)],
        checks=[RecordMatches(id="_", service="fleet", collection="routes", record_id=stop["route_id"],
                              where={"stops": {"$any": {"id": stop["id"], "status": "skipped",
                                                        "skip_reason": {"$contains": mention.display}}}},
                              description="The parcel's stop is held back with a reason quoting the right value.")],
        scope=_scope(stop["route_id"]), tool="skip_stop", where={"stop_id": stop["id"]},
        label="the hold on the parcel's delivery stop")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["route"].value, args["mention"], args["case"].value
    reader.read("fleet", "get_route", route_id=rid)
    return Write(
        calls=[call("add_route_note", route_id=rid, note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service="fleet", collection="routes", record_id=rid,
                              where={"notes": {"$some": {"$all": [{"$contains": case},
                                                                  {"$contains": mention.display}]}}},
                              description="The route carries a dispatcher note quoting the right value.")],
        scope=_scope(rid), tool="add_route_note", where={"route_id": rid}, label="the note on the route")


def _drivers(ctx: Ctx) -> tuple[str, str]:
    a, b = ctx.rng.sample(POLICY_DRIVERS, 2)
    return a, b


LINKS = ServiceLinks(
    service="fleet", label="the fleet dispatch system",
    relays=(PARCEL_STOP, ORDER_STOP, ROUTE),
    actions=(
        Action(service="fleet", name="dispatch",
               needs=(Need("driver", "driver_id", noun="driver"), Need("route", "delivery_route_id")),
               build=_dispatch, prepare=_prepare_dispatch, routable=True,
               goal="assign {driver} to the delivery route and dispatch it"),
        Action(service="fleet", name="hold", needs=(Need("parcel", "tracking_number"),), build=_hold,
               prepare=_prepare_hold, goal="hold the parcel back from its delivery route, giving {mention} in the "
                                           "reason"),
        Action(service="fleet", name="note", needs=(Need("route", "delivery_route_id"),), build=_note,
               goal="leave the driver a note on the delivery route, quoting {mention}"),
    ),
    route_values={"driver_id": _drivers},
)

__all__ = ["LINKS", "POLICY_DRIVERS", "driver_email", "next_route_id", "plant_route", "plant_stop"]
