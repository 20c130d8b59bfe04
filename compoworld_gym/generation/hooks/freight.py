"""Freight in chained tasks: a Flexport booking names the purchase order it
ships, the supplier and the cargo ready date; a purchase order (or the
carrier's bill number that customs and the warehouse track freight by) leads
to its shipment under way, which names the master bill number, the supplier
and the container's estimated arrival date. Writes: confirm the case's
booking, record its containers' arrival at the port, or have the shipment
delivered to the warehouse a policy names."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._freight_models import Booking, Container
from compoworld_gym.envs.services._freight_rules import (
    DEPARTURE_LEAD, apply_milestone, container_number, make_invoice, make_shipment,
)
from compoworld_gym.envs.services._freight_seed import CONSIGNEE
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "freight"
#: The lane of planted freight: Shanghai to Savannah by ocean (32 days), for the Columbus warehouse.
_ORIGIN, _PORT, _HOME, _TRANSIT = "CNSHA", "USSAV", "WH-CENT", 32
#: Warehouses a policy can send a shipment to (never the planted destination, WH-CENT).
REROUTE_TO = ("WH-EAST", "WH-WEST")


def next_booking_id(state: dict[str, Any]) -> str:
    """Take the next free booking id from the freight counters (as ``new_id("FB")``)."""
    return next_id(state, "FB")


def po_key(ctx: Ctx) -> str:
    """A purchase order id: procurement's next one when it is mounted, else one past the
    largest PO counter of freight, customs and warehouse (all set past it, so they agree)."""
    if "procurement" in ctx.states:
        return next_id(ctx.state("procurement"), "PO")
    present = [ctx.state(s) for s in (SERVICE, "customs", "warehouse") if s in ctx.states]
    counted = [s["counters"]["PO"] for s in present if "PO" in s["counters"]]
    n = max(counted) if counted else 11 + ctx.rng.randrange(25)
    for s in present:
        s["counters"]["PO"] = n + 1
    return f"PO-{n:04d}"


def _booking(ctx: Ctx, bid: str, *, po: str, shipper: str, ready: dt.date) -> Booking:
    return Booking(id=bid, name=f"{shipper} {_ORIGIN}-{_PORT}", status="submitted", transportation_mode="ocean",
                   incoterm="FOB", shipper_name=shipper, consignee_name=CONSIGNEE, origin_port=_ORIGIN,
                   destination_port=_PORT, destination_warehouse=_HOME, cargo_ready_date=ready,
                   purchase_order_ids=[po], skus=["KB-MECH-01"], cargo_description="Mechanical keyboards",
                   total_weight_kg=float(ctx.rng.randrange(800, 4000, 50)), total_volume_cbm=22.0,
                   created_on=min(ready, ctx.today) - dt.timedelta(days=9))


def plant_booking(ctx: Ctx, bid: str, *, po: str, shipper: str, ready: str) -> str:
    """Add a submitted ocean booking of ``po`` from ``shipper`` with cargo ready on ``ready``; returns its id."""
    b = _booking(ctx, bid, po=po, shipper=shipper, ready=dt.date.fromisoformat(ready))
    ctx.state(SERVICE)["bookings"][bid] = b.model_dump(mode="json")
    return bid


def plant_shipment(ctx: Ctx, *, po: str, shipper: str, eta: str, master_bill: str, delivered: bool = False) -> str:
    """Add a confirmed booking of ``po`` and its ocean shipment to WH-CENT, sailed at least six days
    ago and due at the port on ``eta`` (the carrier's latest estimate) under ``master_bill``, with one
    container (a ``delivered`` one came weeks ago); returns the shipment id."""
    state = ctx.state(SERVICE)
    arrive = dt.date.fromisoformat(eta)
    ready = min(arrive - dt.timedelta(days=_TRANSIT + DEPARTURE_LEAD["ocean"]), ctx.today - dt.timedelta(days=10))
    b = _booking(ctx, next_booking_id(state), po=po, shipper=shipper, ready=ready)
    s = make_shipment(b, next_id(state, "FLX"))
    delivery = s.legs[-1].estimated_arrival_date - s.legs[-1].estimated_departure_date
    s.legs[0].estimated_arrival_date = s.legs[-1].estimated_departure_date = arrive
    s.legs[-1].estimated_arrival_date = arrive + delivery
    s = s.model_copy(update={"master_bill_number": master_bill, "estimated_arrival_date": arrive,
                             "estimated_delivery_date": arrive + delivery})
    b.status, b.shipment_id, b.confirmed_on = "confirmed", s.id, b.created_on + dt.timedelta(days=2)
    box = Container(id=next_id(state, "CNT"), container_number=container_number("HLXU", ctx.rng.randrange(10**6)),
                    container_type="40HC", seal_number=f"HL{ctx.rng.randint(100000, 999999)}", shipment_id=s.id,
                    estimated_arrival_date=s.estimated_arrival_date)
    steps = ("departed", "arrived", "customs_cleared", "delivered") if delivered else ("departed",)
    for k, m in enumerate(steps):
        day = s.estimated_departure_date if m == "departed" else arrive + dt.timedelta(days=k - 1)
        if day < ctx.today:
            apply_milestone(s, [box], m, day, dt.datetime.combine(day, dt.time(10, 0)))
    inv = make_invoice(b, s, next_id(state, "FIN"), b.confirmed_on)
    state["bookings"][b.id] = b.model_dump(mode="json")
    state["shipments"][s.id] = s.model_dump(mode="json")
    state["containers"][box.id] = box.model_dump(mode="json")
    state["invoices"][inv.id] = inv.model_copy(update={"status": "paid" if delivered else "outstanding"}
                                               ).model_dump(mode="json")
    return s.id


def _plant_booking(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return plant_booking(ctx, key, po=outs.get("purchase_order_id") or po_key(ctx),
                         shipper=outs.get("company") or ctx.fresh("company"), ready=outs.get("date") or ctx.fresh("date"))


def _plant_shipment(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    eta = outs.get("date") or ctx.fresh("date")
    if stale:  # the purchase order's first, delivered shipment
        eta = ctx.day(-ctx.rng.randint(20, 40))
    return plant_shipment(ctx, po=key if by == "po" else outs.get("purchase_order_id") or po_key(ctx),
                          shipper=outs.get("company") or ctx.fresh("company"), eta=eta,
                          master_bill=key if by == "tracking" else outs.get("tracking_number") or ctx.fresh(
                              "tracking_number"), delivered=stale)


def _shipment_of(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_shipments", limit=200, **where)
    sid = pick([r for r in rows if r["status"] != "delivered"])["id"]
    return reader.read(SERVICE, "get_shipment", shipment_id=sid)


_SHIPPER = Give("company", "shipper_name", "the supplier shipping the goods", party="vendor")
_ETA = Give("date", "estimated_arrival_date", "the container's estimated arrival date at the port")

BOOKING = Relay(
    service=SERVICE, name="freight booking", key="freight_booking_id",
    gives=(Give("purchase_order_id", "purchase_order_ids.0", "the purchase order the booking ships"), _SHIPPER,
           Give("date", "cargo_ready_date", "the booking's cargo ready date")),
    plant=_plant_booking, find=lambda reader, key: reader.read(SERVICE, "get_booking", booking_id=key),
    where="Each Flexport freight booking names the purchase order it ships, the supplier and the cargo ready date.",
    alloc=lambda ctx: next_booking_id(ctx.state(SERVICE)), entry=lambda key: f"freight booking {key}")

TRACKING_SHIPMENT = Relay(
    service=SERVICE, name="freight shipment by bill number", key="tracking_number",
    gives=(Give("shipment_id", "id", "the Flexport shipment"),
           Give("purchase_order_id", "purchase_order_ids.0", "the purchase order the shipment carries"),
           _SHIPPER, _ETA),
    plant=lambda ctx, key, outs, stale: _plant_shipment(ctx, key, outs, stale, "tracking"),
    find=lambda reader, key: _shipment_of(reader, master_bill_number=key),
    where="Flexport files each shipment under the carrier's master bill number, the tracking number customs "
          "and the warehouse use.",
    entry=lambda key: f"the freight shipment with bill number {key}")

PO_SHIPMENT = Relay(
    service=SERVICE, name="purchase order's freight shipment", key="purchase_order_id",
    gives=(Give("shipment_id", "id", "the purchase order's shipment under way"),
           Give("tracking_number", "master_bill_number", "the shipment's master bill number"), _SHIPPER, _ETA),
    plant=lambda ctx, key, outs, stale: _plant_shipment(ctx, key, outs, stale, "po"),
    find=lambda reader, key: _shipment_of(reader, purchase_order_id=key), alloc=po_key,
    where="Flexport shipments name the purchase order whose goods they carry.",
    entry=lambda key: f"the freight shipment of purchase order {key}",
    truth="A delivered shipment is complete; only the purchase order's shipment still under way counts.")


def _confirm(reader: Reader, args: dict[str, Found]) -> Write:
    bid = args["booking"].value
    b = reader.read(SERVICE, "get_booking", booking_id=bid)
    if b["status"] != "submitted":
        raise SolveError(f"booking {bid} is {b['status']}, not awaiting confirmation")
    return Write(
        calls=[call("confirm_booking", booking_id=bid)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="bookings", record_id=bid,
                              where={"status": "confirmed"}, description="The freight booking is confirmed."),
                RecordExists(id="_", service=SERVICE, collection="shipments", where={"booking_id": bid},
                             description="The confirmed booking has its shipment.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="bookings", allow_ids=[bid],
                           description="No other booking was changed or created."),
               OnlyChanged(id="_", service=SERVICE, collection="shipments", allow_new={"booking_id": bid}, max_new=1,
                           description="No other shipment was booked or changed."),
               OnlyChanged(id="_", service=SERVICE, collection="invoices", allow_new={"status": "outstanding"},
                           max_new=1, description="No other freight invoice was issued or changed.")],
        tool="confirm_booking", where={"booking_id": bid}, label="the booking confirmation")


def _shipment(reader: Reader, sid: str) -> dict[str, Any]:
    s = reader.read(SERVICE, "get_shipment", shipment_id=sid)
    if s["status"] == "delivered":
        raise SolveError(f"shipment {sid} is delivered")
    return s


def _arrive(reader: Reader, args: dict[str, Found]) -> Write:
    sid = args["shipment"].value
    s = _shipment(reader, sid)
    if s["next_milestone"] != "arrived":
        raise SolveError(f"shipment {sid} is {s['status']}, not sailing")
    boxes = [c["id"] for c in s["containers"]]
    return Write(
        calls=[call("record_milestone", shipment_id=sid, milestone="arrived")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="shipments", record_id=sid,
                              where={"status": "arrived", "milestones": {"$any": {"name": "arrived"}}},
                              description="The shipment's arrival at the port is recorded.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="shipments", allow_ids=[sid],
                           description="No other shipment was changed."),
               OnlyChanged(id="_", service=SERVICE, collection="containers", allow_ids=boxes,
                           description="Only the shipment's own containers changed.")],
        tool="record_milestone", where={"shipment_id": sid}, label="the arrival milestone")


def _reroute(reader: Reader, args: dict[str, Found]) -> Write:
    sid, wh, case = args["shipment"].value, str(args["warehouse"].value), args["case"].value
    s = _shipment(reader, sid)
    if s["destination_warehouse"] == wh:
        raise SolveError(f"shipment {sid} already goes to {wh}")
    return Write(
        calls=[call("reroute_shipment", shipment_id=sid, destination_warehouse=wh, reason=f"{case}: policy routing")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="shipments", record_id=sid,
                              where={"destination_warehouse": wh},
                              description="The shipment is delivered to the warehouse the policy names.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="shipments", allow_ids=[sid],
                           description="No other shipment was rerouted or changed."),
               OnlyChanged(id="_", service=SERVICE, collection="bookings", allow_ids=[s["booking_id"]],
                           description="No other booking was changed.")],
        tool="reroute_shipment", where={"shipment_id": sid}, label="the shipment reroute")


def _warehouses(ctx: Ctx) -> tuple[str, str]:
    a, b = ctx.rng.sample(REROUTE_TO, 2)
    return a, b


LINKS = ServiceLinks(
    service=SERVICE, label="Flexport",
    relays=(BOOKING, TRACKING_SHIPMENT, PO_SHIPMENT),
    actions=(
        Action(service=SERVICE, name="confirm", needs=(Need("booking", "freight_booking_id"),), build=_confirm,
               goal="confirm the freight booking with Flexport"),
        Action(service=SERVICE, name="arrive", needs=(Need("shipment", "shipment_id"),), build=_arrive,
               goal="record that the shipment's containers arrived at the destination port today"),
        Action(service=SERVICE, name="reroute",
               needs=(Need("warehouse", "warehouse_id", noun="warehouse"), Need("shipment", "shipment_id")),
               build=_reroute, routable=True, goal="have the shipment delivered to {warehouse} instead"),
    ),
    route_values={"warehouse_id": _warehouses},
)

__all__ = ["LINKS", "REROUTE_TO", "next_booking_id", "plant_booking", "plant_shipment", "po_key"]
