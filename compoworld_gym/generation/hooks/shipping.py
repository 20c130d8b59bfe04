"""Shipping in chained tasks: a parcel, found by its tracking number or by the
order it ships, names the order, the recipient and the tracking number; a
delivery exception is logged on the case's shipment."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services.shipping import ORIGIN, Shipment
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.invoicing import order_ref
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick, next_id

#: The hubs a parcel from the East Coast warehouse is scanned at, in order.
_ROUTE = (("Newark", "Departed facility"), ("Columbus", "Arrived at hub"))


def next_shipment_id(state: dict[str, Any]) -> str:
    """Take the next free shipment id from the shipping counters (as the service does)."""
    return next_id(state, "SHP")


def plant_shipment(state: dict[str, Any], shipment_id: str, **fields: Any) -> str:
    """Add a labelled UPS ground :class:`Shipment` (validated) under
    ``shipment_id``; ``fields`` override any field; returns the id."""
    base = {"order_id": None, "from_warehouse": "WH-EAST", "to_country": "US", "weight_kg": 2.4, "carrier": "ups",
            "service": "ground", "rate": 11.14, "status": "label_purchased", "events": [],
            "label_url": f"https://labels.shipping.example/{shipment_id}.pdf"}
    shipment = Shipment.model_validate({**base, **fields, "id": shipment_id})
    state["shipments"][shipment_id] = shipment.model_dump(mode="json")
    return shipment_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_tracking: bool) -> str:
    state = ctx.state("shipping")
    sid = next_shipment_id(state)
    tracking = key if by_tracking else outs.get("tracking_number") or ctx.fresh("tracking_number")
    order = outs.get("order_id") if by_tracking else key
    ship = -12 if stale else -2
    events = [] if stale else [
        {"at": ctx.at(ship + k, 9 + 4 * k), "status": "in_transit", "location": city, "description": text}
        for k, (city, text) in enumerate(_ROUTE)]
    return plant_shipment(
        state, sid, order_id=order, to_name=outs.get("person_name") or ctx.client(), to_address=ctx.fresh("address"),
        to_city=ctx.fresh("city"), to_postal_code=f"{ctx.rng.randint(10000, 99999)}", tracking_number=tracking,
        ship_date=ctx.day(ship), estimated_delivery=ctx.day(ship + 5), events=events,
        status="cancelled" if stale else "in_transit")


def _by_tracking(reader: Reader, key: Any) -> dict[str, Any]:
    sid = reader.read("shipping", "track_shipment", tracking_number=key)["shipment_id"]
    return reader.read("shipping", "get_shipment", shipment_id=sid)


def _by_order(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read("shipping", "list_shipments", order_id=key, limit=200)
    return pick([r for r in rows if r["status"] != "cancelled"], order_id=key)


_RECIPIENT = Give("person_name", "to_name", "the recipient's name", "the customer")
_SHIPMENT = Give("shipment_id", "id", "the shipment number")

PARCEL = Relay(
    service="shipping", name="parcel", key="tracking_number",
    gives=(Give("order_id", "order_id", "the order the parcel ships"), _RECIPIENT, _SHIPMENT),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_by_tracking,
    where="Shipping tracks each parcel by its tracking number, with the order it ships and the recipient.",
    entry=lambda key: f"the parcel with tracking number {key}")

ORDER_SHIPMENT = Relay(
    service="shipping", name="order's shipment", key="order_id",
    gives=(Give("tracking_number", "tracking_number", "the parcel's tracking number"), _RECIPIENT, _SHIPMENT),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_by_order,
    where="Shipping files each shipment under the order it ships, with its tracking number and recipient.",
    alloc=lambda ctx: order_ref(ctx, "shipping"), entry=lambda key: f"the shipment of order {key}",
    truth="A cancelled shipment never left the warehouse; only the order's live shipment counts.")


def _exception(reader: Reader, args: dict[str, Found]) -> Write:
    sid, mention = args["shipment"].value, args["mention"]
    shipment = reader.read("shipping", "get_shipment", shipment_id=sid)
    where = shipment["events"][-1]["location"] if shipment["events"] else ORIGIN[shipment["from_warehouse"]]
    text = f"{args['case'].value}: held for customer service; {mention.noun} is {mention.display}."
    return Write(
        calls=[call("add_tracking_event", shipment_id=sid, status="exception", location=where, description=text)],
        checks=[RecordMatches(id="_", service="shipping", collection="shipments", record_id=sid,
                              where={"events": {"$any": {"status": "exception",
                                                         "description": {"$contains": mention.display}}}},
                              description="A delivery exception on the shipment quotes the right value.")],
        scope=[OnlyChanged(id="_", service="shipping", collection="shipments", allow_ids=[sid],
                           description="No other shipment was changed or created.")],
        tool="add_tracking_event", where={"shipment_id": sid}, label="the delivery exception")


LINKS = ServiceLinks(
    service="shipping", label="shipping",
    relays=(PARCEL, ORDER_SHIPMENT),
    actions=(Action(service="shipping", name="exception", needs=(Need("shipment", "shipment_id"),),
                    build=_exception, goal="log a delivery exception on the shipment, quoting {mention}"),),
)

__all__ = ["LINKS", "next_shipment_id", "plant_shipment"]
