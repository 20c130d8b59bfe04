"""The warehouse in chained tasks: an inbound shipment names its purchase
order, the freight tracking number, the vendor and the SKU expected; a
purchase order's (or a tracking number's) inbound shipment is found by that
number; a store order released to the warehouse names the SKU it ships and
the recipient. Writes: receive the inbound shipment into the receiving dock,
make the order's pick list, or write off a damaged unit of a SKU."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._warehouse_models import Bin, BinStock, FulfillmentOrder, InboundShipment
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.customs import po_ref
from compoworld_gym.generation.hooks.invoicing import order_ref
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id,
)

SERVICE = "warehouse"
_DOCK = "WH-EAST"


def next_inbound_id(state: dict[str, Any]) -> str:
    """Take the next free inbound shipment id from the warehouse counters."""
    return next_id(state, "IB")


def plant_stock(state: dict[str, Any], sku: str, units: int, warehouse_id: str = _DOCK) -> str:
    """Make ``sku`` held in a pick bin of ``warehouse_id`` with at least ``units`` units no open pick
    list takes (a new bin on the next aisle when no bin holds it); returns the bin id."""
    sku = sku.upper()
    held = sorted((s for s in state["stock"].values() if s["sku"] == sku and s["warehouse_id"] == warehouse_id
                   and state["bins"][s["bin_id"]]["pickable"]), key=lambda s: s["bin_id"])
    if held:
        bid = held[0]["bin_id"]
    else:
        bid = next_id(state, "BIN")
        aisle = 1 + sum(b["warehouse_id"] == warehouse_id and b["type"] == "pick" for b in state["bins"].values())
        state["bins"][bid] = Bin(id=bid, warehouse_id=warehouse_id, name=f"B-{aisle:02d}-1", type="pick",
                                 pickable=True).model_dump(mode="json")
    key = f"{bid}/{sku}"
    taken = sum(ln["quantity"] for pl in state["pick_lists"].values() if pl["status"] == "open"
                for ln in pl["lines"] if ln["bin_id"] == bid and ln["sku"] == sku)
    have = state["stock"].get(key, {}).get("quantity", 0)
    state["stock"][key] = BinStock(bin_id=bid, warehouse_id=warehouse_id, sku=sku,
                                   quantity=max(have, taken + units)).model_dump(mode="json")
    return bid


def plant_inbound(ctx: Ctx, inbound_id: str, *, po: str, vendor: str, tracking: str, sku: str,
                  canceled: bool = False) -> str:
    """Add a pending inbound shipment (validated) of one ``sku`` line for purchase order ``po`` to the
    East Coast DC (a ``canceled`` one will never arrive). Returns the id."""
    state = ctx.state(SERVICE)
    inbound = InboundShipment(
        id=inbound_id, purchase_order_id=po, vendor=vendor, warehouse_id=_DOCK, tracking_number=tracking,
        expected_date=ctx.day(-20 if canceled else ctx.rng.randint(0, 5)), status="canceled" if canceled else "pending",
        lines=[{"sku": sku.upper(), "expected_quantity": ctx.rng.choice((12, 20, 24, 40, 60))}])
    state["inbound_shipments"][inbound_id] = inbound.model_dump(mode="json")
    return inbound_id


def plant_order(ctx: Ctx, order_id: str, *, sku: str, name: str) -> str:
    """Add a pending fulfilment order of one ``sku`` line for ``name`` (validated), stocked for picking."""
    state = ctx.state(SERVICE)
    qty = ctx.rng.randint(1, 3)
    plant_stock(state, sku, qty + ctx.rng.randint(2, 10))
    state["orders"][order_id] = FulfillmentOrder(
        id=order_id, warehouse_id=_DOCK, ship_to_name=name, ship_to_city=ctx.fresh("city"),
        lines=[{"sku": sku.upper(), "quantity": qty}], status="pending",
        released_on=ctx.day(-ctx.rng.randint(0, 2))).model_dump(mode="json")
    return order_id


def _plant_inbound(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    iid = key if by == "id" else next_inbound_id(state)
    vendor = outs.get("company") or f"{ctx.last_name()} {ctx.rng.choice(('Trading Co', 'Supply', 'Industrial'))}"
    tracking = key if by == "tracking" else outs.get("tracking_number") or ctx.fresh("tracking_number")
    return plant_inbound(ctx, iid, po=key if by == "po" else outs.get("purchase_order_id") or po_ref(ctx),
                         vendor=vendor, sku=outs.get("sku") or ctx.fresh("sku"), tracking=tracking, canceled=stale)


def _inbound(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_inbound_shipment", inbound_id=key)


def _live_inbound(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_inbound_shipments", **where)
    return _inbound(reader, latest([r for r in rows if r["status"] != "canceled"], "expected_date")["id"])


_SKU = Give("sku", "lines.0.sku", "the SKU expected on the inbound shipment")
_TRACKING = Give("tracking_number", "tracking_number", "the inbound freight's tracking number")
_TRUTH = "A canceled inbound shipment will never arrive; only the live one counts."

INBOUND = Relay(
    service=SERVICE, name="inbound shipment", key="inbound_shipment_id",
    gives=(Give("purchase_order_id", "purchase_order_id", "the purchase order being delivered"), _TRACKING,
           Give("company", "vendor", "the vendor shipping the goods", party="vendor"), _SKU),
    plant=lambda ctx, key, outs, stale: _plant_inbound(ctx, key, outs, stale, "id"), find=_inbound,
    where="Each inbound shipment at the warehouse names its purchase order, freight tracking number, vendor and SKU.",
    alloc=lambda ctx: next_inbound_id(ctx.state(SERVICE)), entry=lambda key: f"inbound shipment {key}")

PO_INBOUND = Relay(
    service=SERVICE, name="purchase order's inbound shipment", key="purchase_order_id",
    gives=(Give("inbound_shipment_id", "id", "the purchase order's inbound shipment"), _TRACKING, _SKU),
    plant=lambda ctx, key, outs, stale: _plant_inbound(ctx, key, outs, stale, "po"),
    find=lambda reader, key: _live_inbound(reader, purchase_order_id=key), alloc=po_ref,
    where="The warehouse expects each purchase order's goods as an inbound shipment under the PO number.",
    entry=lambda key: f"the inbound shipment of purchase order {key}", truth=_TRUTH)

TRACKING_INBOUND = Relay(
    service=SERVICE, name="freight's inbound shipment", key="tracking_number",
    gives=(Give("inbound_shipment_id", "id", "the inbound shipment of the freight"),
           Give("purchase_order_id", "purchase_order_id", "the purchase order being delivered"), _SKU),
    plant=lambda ctx, key, outs, stale: _plant_inbound(ctx, key, outs, stale, "tracking"),
    find=lambda reader, key: _live_inbound(reader, tracking_number=key),
    where="The warehouse files inbound shipments under the freight's tracking number.", truth=_TRUTH)

ORDER_FULFILLMENT = Relay(
    service=SERVICE, name="warehouse order", key="order_id",
    gives=(Give("sku", "lines.0.sku", "the SKU the order ships"),
           Give("person_name", "ship_to_name", "the recipient's name", "the customer")),
    plant=lambda ctx, key, outs, stale: plant_order(ctx, key, sku=outs.get("sku") or ctx.fresh("sku"),
                                                    name=outs.get("person_name") or ctx.client()),
    find=lambda reader, key: reader.read(SERVICE, "get_order", order_id=key),
    where="Store orders released to the warehouse name the SKU they ship and the recipient.",
    alloc=lambda ctx: order_ref(ctx, SERVICE), entry=lambda key: f"the warehouse order {key}")


def _receive(reader: Reader, args: dict[str, Found]) -> Write:
    iid, case = args["inbound"].value, args["case"].value
    inbound = _inbound(reader, iid)
    if inbound["status"] not in ("pending", "partially_received"):
        raise SolveError(f"inbound shipment {iid} is {inbound['status']}")
    dock = reader.read(SERVICE, "list_bins", warehouse_id=inbound["warehouse_id"], type="receiving")[0]["id"]
    items = [{"sku": ln["sku"], "quantity": ln["expected_quantity"] - ln["received_quantity"], "bin_id": dock}
             for ln in inbound["lines"] if ln["expected_quantity"] > ln["received_quantity"]]
    return Write(
        calls=[call("receive_inbound", inbound_id=iid, items=items, note=f"Received for {case}")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="inbound_shipments", record_id=iid,
                              where={"status": "received", "receipts": {"$any": {"bin_id": dock,
                                                                                 "note": {"$contains": case}}}},
                              description="The inbound shipment is received in full into the receiving dock, "
                                          "the receipt quoting the case.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="inbound_shipments", allow_ids=[iid],
                           description="No other inbound shipment was changed."),
               OnlyChanged(id="_", service=SERVICE, collection="stock",
                           allow_ids=[f"{dock}/{i['sku']}" for i in items], allow_new={"bin_id": dock},
                           description="Only the receiving dock's stock changed.")],
        tool="receive_inbound", where={"inbound_id": iid}, label="the receipt of the inbound shipment")


def _prepare_pick(ctx: Ctx, values: dict[str, Any]) -> None:
    """The order's SKU is on the shelf: enough units in a pick bin for the whole order."""
    state = ctx.state(SERVICE)
    order = state["orders"].get(values["order"])
    if order is not None and order["status"] == "pending":
        for ln in order["lines"]:
            plant_stock(state, ln["sku"], ln["quantity"], order["warehouse_id"])


def _pick(reader: Reader, args: dict[str, Found]) -> Write:
    oid = args["order"].value
    if reader.read(SERVICE, "get_order", order_id=oid)["status"] != "pending":
        raise SolveError(f"warehouse order {oid} is not pending")
    return Write(
        calls=[call("create_pick_list", order_id=oid)],
        checks=[RecordExists(id="_", service=SERVICE, collection="pick_lists", where={"order_id": oid,
                                                                                      "status": "open"},
                             description="The right order has an open pick list."),
                RecordMatches(id="_", service=SERVICE, collection="orders", record_id=oid,
                              where={"status": "picking"}, description="The order is being picked.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="pick_lists", allow_new={"order_id": oid}, max_new=1,
                           description="No other pick list was made or changed."),
               OnlyChanged(id="_", service=SERVICE, collection="orders", allow_ids=[oid],
                           description="No other warehouse order was changed.")],
        tool="create_pick_list", where={"order_id": oid}, label="the pick list for the order")


def _prepare_stock(ctx: Ctx, values: dict[str, Any]) -> None:
    plant_stock(ctx.state(SERVICE), str(values["sku"]), ctx.rng.randint(4, 20))


def _write_off(reader: Reader, args: dict[str, Found]) -> Write:
    sku, mention = str(args["sku"].value).upper(), args["mention"]
    bins = [b for b in reader.read(SERVICE, "get_product_inventory", sku=sku)["bins"] if b["pickable"]]
    if not bins:
        raise SolveError(f"no pick bin holds {sku}")
    best = max(bins, key=lambda b: b["quantity"] - b["allocated"])
    note = f"{args['case'].value}: damaged unit written off; {mention.noun} is {mention.display}."
    where = {"sku": sku, "bin_id": best["bin_id"], "delta": -1, "reason": "damaged"}
    return Write(
        calls=[call("adjust_inventory", sku=sku, bin_id=best["bin_id"], quantity_delta=-1, reason="damaged",
                    note=note)],
        checks=[RecordExists(id="_", service=SERVICE, collection="inventory_changes",
                             where={"sku": sku, "delta": -1, "reason": "damaged",
                                    "note": {"$contains": mention.display}},
                             description="A damaged unit of the right SKU is written off in the warehouse, quoting "
                                         "the right value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="stock", allow_ids=[f"{best['bin_id']}/{sku}"],
                           description="No other bin's stock changed."),
               OnlyChanged(id="_", service=SERVICE, collection="inventory_changes", allow_new={"sku": sku},
                           max_new=1, description="No other inventory change was made.")],
        tool="adjust_inventory", where={"sku": sku}, label="the warehouse write-off")


LINKS = ServiceLinks(
    service=SERVICE, label="the warehouse management system",
    relays=(INBOUND, PO_INBOUND, TRACKING_INBOUND, ORDER_FULFILLMENT),
    actions=(
        Action(service=SERVICE, name="receive", needs=(Need("inbound", "inbound_shipment_id"),), build=_receive,
               goal="receive every expected unit of the inbound shipment into the warehouse's receiving dock, "
                    "noting the case on the receipt"),
        Action(service=SERVICE, name="pick", needs=(Need("order", "order_id"),), build=_pick, prepare=_prepare_pick,
               goal="create the pick list for the warehouse order"),
        Action(service=SERVICE, name="write_off", needs=(Need("sku", "sku"),), build=_write_off,
               prepare=_prepare_stock,
               goal="write off one damaged unit of the SKU from its fullest pick bin in the warehouse, "
                    "quoting {mention}"),
    ),
)

__all__ = ["LINKS", "next_inbound_id", "plant_inbound", "plant_order", "plant_stock"]
