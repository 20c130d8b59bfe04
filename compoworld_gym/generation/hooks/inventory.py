"""Inventory in chained tasks: the stock reservation held for an order names
the SKU; a replacement unit is reserved for the case's order, or a damaged
unit of the case's SKU is written off."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordCount, RecordExists
from compoworld_gym.envs.services.inventory import Reservation, StockLevel
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.invoicing import order_ref
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick


def plant_stock(state: dict[str, Any], sku: str, warehouse_id: str, on_hand: int) -> str:
    """Make ``sku`` stocked at ``warehouse_id`` with at least ``on_hand``
    units free of reservations (a :class:`StockLevel`, validated); returns its key."""
    key = f"{warehouse_id}/{sku.upper()}"
    level = state["stock"].get(key) or {"sku": sku.upper(), "warehouse_id": warehouse_id, "on_hand": 0,
                                        "reserved": 0, "reorder_point": 10, "reorder_quantity": 30}
    level = {**level, "on_hand": max(level["on_hand"], level["reserved"] + on_hand)}
    state["stock"][key] = StockLevel.model_validate(level).model_dump(mode="json")
    return key


def plant_reservation(state: dict[str, Any], *, sku: str, warehouse_id: str, quantity: int, order_id: str,
                      status: str, created_on: str) -> str:
    """Add a :class:`Reservation` (validated) with the next free id, holding
    stock for an active one; returns its id."""
    plant_stock(state, sku, warehouse_id, quantity + 5)
    if status == "active":
        state["stock"][f"{warehouse_id}/{sku.upper()}"]["reserved"] += quantity
    n = state["counters"].get("RSV", 1)
    state["counters"]["RSV"] = n + 1
    rid = f"RSV-{n:04d}"
    state["reservations"][rid] = Reservation(
        id=rid, sku=sku.upper(), warehouse_id=warehouse_id, quantity=quantity, order_id=order_id, status=status,
        created_on=created_on).model_dump(mode="json")
    return rid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state("inventory")
    return plant_reservation(
        state, sku=outs.get("sku") or ctx.fresh("sku"), warehouse_id=ctx.rng.choice(sorted(state["warehouses"])),
        quantity=ctx.rng.randint(1, 3), order_id=key, status="released" if stale else "active",
        created_on=ctx.day(-15 if stale else -3))


def _find(reader: Reader, key: Any) -> dict[str, Any]:
    return pick(reader.read("inventory", "list_stock_reservations", order_id=key), status="active")


RESERVATION = Relay(
    service="inventory", name="stock reservation", key="order_id",
    gives=(Give("sku", "sku", "the SKU held for the order"),),
    plant=_plant, find=_find, alloc=lambda ctx: order_ref(ctx, "inventory"),
    where="Inventory holds stock for each order as a reservation naming the SKU.",
    entry=lambda key: f"the stock reservation for order {key}",
    truth="A released reservation no longer holds stock; only the order's active reservation counts.")


def _prepare(ctx: Ctx, values: dict[str, Any]) -> None:
    state, sku = ctx.state("inventory"), str(values["sku"]).upper()
    if not any(lv["sku"] == sku and lv["on_hand"] - lv["reserved"] >= 1 for lv in state["stock"].values()):
        plant_stock(state, sku, "WH-EAST", 12)


def _warehouse(reader: Reader, sku: str) -> str:
    """The warehouse with the most available units of ``sku`` (first in list order on ties)."""
    levels = reader.read("inventory", "get_stock", sku=sku)["levels"]
    return max(levels, key=lambda lv: lv["available"])["warehouse_id"]


def _stock_scope(wid: str, sku: str) -> OnlyChanged:
    return OnlyChanged(id="_", service="inventory", collection="stock", allow_ids=[f"{wid}/{sku}"],
                       description="No other stock level was changed.")


def _reserve(reader: Reader, args: dict[str, Found]) -> Write:
    sku, oid = str(args["sku"].value).upper(), args["order"].value
    wid = _warehouse(reader, sku)
    held = reader.read("inventory", "list_stock_reservations", order_id=oid, sku=sku, status="active")
    where = {"sku": sku, "order_id": oid, "status": "active"}
    return Write(
        calls=[call("reserve_stock", sku=sku, warehouse_id=wid, quantity=1, order_id=oid)],
        checks=[RecordCount(id="_", service="inventory", collection="reservations", where=where,
                            op="eq", value=len(held) + 1,
                            description="One more unit of the right SKU is held for the right order.")],
        scope=[_stock_scope(wid, sku),
               OnlyChanged(id="_", service="inventory", collection="reservations", allow_new=where,
                           description="No other reservation was changed or made.")],
        tool="reserve_stock", where={"order_id": oid}, label="the replacement reservation")


def _write_off(reader: Reader, args: dict[str, Found]) -> Write:
    sku, mention = str(args["sku"].value).upper(), args["mention"]
    wid = _warehouse(reader, sku)
    note = f"{args['case'].value}: damaged unit written off; {mention.noun} is {mention.display}."
    where = {"sku": sku, "delta": -1, "reason": "damaged"}
    return Write(
        calls=[call("adjust_stock", sku=sku, warehouse_id=wid, quantity_delta=-1, reason="damaged", note=note)],
        checks=[RecordExists(id="_", service="inventory", collection="adjustments",
                             where={**where, "note": {"$contains": mention.display}},
                             description="A damaged unit of the right SKU is written off, quoting the right value.")],
        scope=[_stock_scope(wid, sku),
               OnlyChanged(id="_", service="inventory", collection="adjustments", allow_new=where,
                           description="No other stock adjustment was made.")],
        tool="adjust_stock", where={"sku": sku}, label="the stock write-off")


LINKS = ServiceLinks(
    service="inventory", label="inventory",
    relays=(RESERVATION,),
    actions=(
        Action(service="inventory", name="reserve", needs=(Need("sku", "sku"), Need("order", "order_id")),
               build=_reserve, prepare=_prepare, goal="reserve one replacement unit of the SKU for the order"),
        Action(service="inventory", name="write_off", needs=(Need("sku", "sku"),), build=_write_off,
               prepare=_prepare, goal="write off one damaged unit of the SKU in inventory, quoting {mention}"),
    ),
)

__all__ = ["LINKS", "plant_reservation", "plant_stock"]
