"""Seed data of the warehouse service: the three DCs, their bins and stock, inbound POs and store orders.

Warehouses are the ones ``inventory`` and ``shipping`` know (WH-EAST, WH-WEST,
WH-CENT); SKUs are the shared catalog's (``_commerce.PRODUCTS``); the orders
are the shared order book's paid and shipped orders (same ids, lines and
recipients, shipped ones with the tracking numbers ``shipping`` has); inbound
shipments carry the procurement book's purchase order numbers.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._blocks import day_start, seed_id
from compoworld_gym.envs.services._commerce import PRODUCTS, book_tracking_number, order_book
from compoworld_gym.envs.services._warehouse_models import (
    Bin, BinStock, FulfillmentOrder, InboundLine, InboundShipment, OrderLine, PickLine, PickList, Receipt, Warehouse,
    WarehouseState,
)
from compoworld_gym.envs.services._warehouse_rules import stock_key

WAREHOUSES = (("WH-EAST", "East Coast DC", "Newark"), ("WH-WEST", "West Coast DC", "Reno"),
              ("WH-CENT", "Central DC", "Columbus"))
#: Book order statuses the warehouse holds, and the fulfilment status each has here.
_ORDER_STATUS = {"ORD-0001": "shipped", "ORD-0002": "shipped", "ORD-0003": "shipped", "ORD-0004": "shipped",
                 "ORD-0005": "pending", "ORD-0006": "picking", "ORD-0007": "picked", "ORD-0010": "cancelled",
                 "ORD-0012": "packed"}
#: Inbound shipments: (PO number, status, warehouse, SKUs as (index into PRODUCTS, expected, received), days ahead).
_INBOUND = (("PO-0005", "pending", "WH-EAST", ((0, 40, 0), (11, 20, 0)), 3),
            ("PO-0006", "partially_received", "WH-EAST", ((4, 20, 20), (6, 60, 25)), -1),
            ("PO-0009", "pending", "WH-WEST", ((12, 40, 0),), 6),
            ("PO-0007", "received", "WH-CENT", ((7, 200, 200), (8, 150, 150)), -6),
            ("PO-0010", "canceled", "WH-EAST", ((9, 30, 0),), 9))


def _bins(state: WarehouseState) -> dict[str, dict[str, Bin]]:
    """Per warehouse: one pick bin per SKU it stocks (named by aisle), two reserve bins, a receiving dock."""
    out: dict[str, dict[str, Bin]] = {}
    for wid, _, _ in WAREHOUSES:
        skus = [p.sku for p in PRODUCTS if not (wid == "WH-CENT" and p.category == "furniture")]
        if wid != "WH-EAST":
            skus = skus[::2]
        per = {}
        for k, sku in enumerate(skus):
            bid = seed_id(state, "BIN")
            state.bins[bid] = per[sku] = Bin(id=bid, warehouse_id=wid, name=f"A-{k // 2 + 1:02d}-{k % 2 + 1}",
                                             type="pick", pickable=True)
        for name, kind in (("R-01-1", "reserve"), ("R-01-2", "reserve"), ("RCV-01", "receiving")):
            bid = seed_id(state, "BIN")
            state.bins[bid] = per[name] = Bin(id=bid, warehouse_id=wid, name=name, type=kind, pickable=False)
        out[wid] = per
    return out


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> WarehouseState:
    """Bins with stock, five inbound shipments in every status, nine book orders from pending to shipped."""
    state = WarehouseState()
    for wid, name, city in WAREHOUSES:
        state.warehouses[wid] = Warehouse(id=wid, name=name, city=city)
    bins = _bins(state)
    for wid, per in bins.items():
        for sku, b in per.items():
            if b.type == "pick":
                state.stock[stock_key(b.id, sku)] = BinStock(bin_id=b.id, warehouse_id=wid, sku=sku,
                                                             quantity=rng.randint(8, 60))
        for sku in sorted(per)[:2]:  # overstock of two SKUs on the reserve shelf
            if per[sku].type == "pick":
                state.stock[stock_key(per["R-01-1"].id, sku)] = BinStock(bin_id=per["R-01-1"].id, warehouse_id=wid,
                                                                         sku=sku, quantity=rng.randint(20, 80))
    _orders(state, bins, rng, today)
    for po, status, wid, lines, ahead in _INBOUND:
        iid = seed_id(state, "IB")
        inbound = InboundShipment(
            id=iid, purchase_order_id=po, vendor=fake.company(), warehouse_id=wid,
            tracking_number=f"{rng.choice(('MSCU', 'CMAU', 'MAEU'))}{rng.randint(10**6, 10**7 - 1)}",
            expected_date=today + dt.timedelta(days=ahead), status=status,
            lines=[InboundLine(sku=PRODUCTS[k].sku, expected_quantity=exp, received_quantity=got)
                   for k, exp, got in lines])
        for k, _, got in lines:
            if got:
                inbound.receipts.append(Receipt(sku=PRODUCTS[k].sku, quantity=got, bin_id=bins[wid]["RCV-01"].id,
                                                received_on=today + dt.timedelta(days=min(ahead, -1)),
                                                note="Put away to the pick bins."))
        state.inbound_shipments[iid] = inbound
    return state


def _orders(state: WarehouseState, bins: dict[str, dict[str, Bin]], rng: random.Random, today: dt.date) -> None:
    start = day_start(today)
    for order in order_book(today):
        status = _ORDER_STATUS.get(order.id)
        if status is None:
            continue
        shipped = status == "shipped"
        fo = FulfillmentOrder(
            id=order.id, warehouse_id="WH-EAST", ship_to_name=order.customer.name, ship_to_city=order.customer.city,
            lines=[OrderLine(sku=ln.sku, quantity=ln.quantity) for ln in order.lines], status=status,
            package_weight_kg=round(sum(p.weight_kg * ln.quantity for ln in order.lines for p in PRODUCTS
                                        if p.sku == ln.sku), 2) if status in ("packed", "shipped") else None,
            carrier="ups" if shipped else None, tracking_number=book_tracking_number(order.id) if shipped else None,
            shipped_on=order.placed_on + dt.timedelta(days=1) if shipped else None, released_on=order.placed_on)
        if status in ("picking", "picked", "packed", "shipped"):
            pid = seed_id(state, "PL")
            lines = [PickLine(sku=ln.sku, bin_id=bins["WH-EAST"][ln.sku].id, bin_name=bins["WH-EAST"][ln.sku].name,
                              quantity=ln.quantity) for ln in fo.lines]
            done = status != "picking"
            state.pick_lists[pid] = PickList(
                id=pid, order_id=fo.id, warehouse_id="WH-EAST", lines=lines, status="picked" if done else "open",
                picker=rng.choice(("Grace Okafor", "Daniel Cho")), created_at=start - dt.timedelta(hours=20),
                picked_at=start - dt.timedelta(hours=18) if done else None)
            fo.pick_list_id = pid
            if status == "picking":  # the open list's units must still be in their bins
                for ln in lines:
                    level = state.stock[stock_key(ln.bin_id, ln.sku)]
                    level.quantity = max(level.quantity, ln.quantity + rng.randint(0, 6))
        state.orders[fo.id] = fo
