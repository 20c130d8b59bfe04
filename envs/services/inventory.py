"""Inventory: stock per SKU per warehouse, reservations, adjustments and reorder points.

No inventory server is in ``compoworld_gym/data/mcp_servers.jsonl``; the interface
is designed the way Shopify's InventoryLevel API and warehouse systems look:
``on_hand`` and ``reserved`` quantities per SKU and location (``available``
is their difference), reservations held for orders, adjustments that always
carry a reason, and per-location reorder points. Stock can never go
negative and never below what is reserved (409).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import City, Date, Id, Sku
from compoworld_gym.envs.services._commerce import PRODUCTS, order_book
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

AdjustReason = Literal["received", "damaged", "lost", "returned", "cycle_count", "correction", "transfer"]
ReservationStatus = Literal["active", "released", "fulfilled"]
#: Most units one call may add, remove, move, reserve or set as a reorder level (counts stay JSON-safe).
MAX_UNITS = 1_000_000
_SEED_NOTES = {"received": "Supplier delivery checked in.", "damaged": "Crushed cartons found during picking.",
               "cycle_count": "Quarterly cycle count correction.", "returned": "Customer return, restocked as new."}


class Warehouse(Record):
    """A stocking location."""

    id: Id("warehouse") = Field(description="Warehouse code, e.g. WH-EAST.")
    name: str = Field(description="Warehouse name.")
    city: City = Field(description="City of the warehouse.")


class StockLevel(Record):
    """Stock of one SKU at one warehouse."""

    sku: Sku = Field(description="The stocked SKU.")
    warehouse_id: Id("warehouse") = Field(description="Where the stock is.")
    on_hand: int = Field(ge=0, description="Units physically present.")
    reserved: int = Field(ge=0, description="Units held for orders (<= on_hand).")
    reorder_point: int = Field(ge=0, description="Reorder when available units fall to or below this.")
    reorder_quantity: int = Field(ge=0, description="Units to order when restocking.")


class Reservation(Record):
    """Units of a SKU held at a warehouse for an order."""

    id: str = Field(description="Reservation id, e.g. RSV-0001.")
    sku: Sku = Field(description="Reserved SKU.")
    warehouse_id: Id("warehouse") = Field(description="Warehouse holding the units.")
    quantity: int = Field(gt=0, description="Units held.")
    order_id: Id("order") = Field(description="Order the units are held for.")
    status: ReservationStatus = Field(description="active, released (returned to stock) or fulfilled (shipped).")
    created_on: Date = Field(description="Date of the reservation.")


class Adjustment(Record):
    """A change of on-hand stock with its reason."""

    id: str = Field(description="Adjustment id, e.g. ADJ-0001.")
    sku: Sku = Field(description="Adjusted SKU.")
    warehouse_id: Id("warehouse") = Field(description="Adjusted warehouse.")
    delta: int = Field(description="Change of on-hand units (negative removes stock).")
    reason: AdjustReason = Field(description="Why the stock changed.")
    note: str = Field(default="", description="Free-text note.")
    on: Date = Field(description="Date of the adjustment.")


class InventoryState(ServiceState):
    """Warehouses, stock levels, reservations and the adjustment log."""

    warehouses: dict[str, Warehouse] = Field(default_factory=dict, description="Warehouses by code.")
    stock: dict[str, StockLevel] = Field(default_factory=dict, description="Stock levels by 'WAREHOUSE/SKU'.")
    reservations: dict[str, Reservation] = Field(default_factory=dict, description="Reservations by id.")
    adjustments: dict[str, Adjustment] = Field(default_factory=dict, description="Adjustments by id.")


def _view(level: StockLevel) -> dict:
    return {**level.model_dump(), "available": level.on_hand - level.reserved,
            "needs_reorder": level.on_hand - level.reserved <= level.reorder_point}


class Inventory(Service):
    """Stock levels per SKU and warehouse with reservations and reasoned adjustments."""

    name = "inventory"
    description = ("Warehouse inventory: stock per SKU and location, reservations for orders, "
                   "adjustments, reorder points.")
    domain = "commerce"
    spec_source = None
    State = InventoryState

    def _level(self, sku: str, warehouse_id: str) -> StockLevel:
        self.lookup(self.state.warehouses, warehouse_id, "warehouse")
        level = self.state.stock.get(f"{warehouse_id}/{sku.upper()}")
        if level is None:
            raise NotFound(f"SKU {sku!r} is not stocked at {warehouse_id}; call get_stock to see where it is.")
        return level

    def _log(self, level: StockLevel, delta: int, reason: str, note: str) -> Adjustment:
        adj = Adjustment(id=self.new_id("ADJ"), sku=level.sku, warehouse_id=level.warehouse_id,
                         delta=delta, reason=reason, note=note, on=self.today)
        self.state.adjustments[adj.id] = adj
        return adj

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Warehouse])
    def list_warehouses(self) -> list[dict]:
        """List warehouses with their codes and cities."""
        return [w.model_dump() for w in self.state.warehouses.values()]

    @tool(read_only=True, returns=list[StockLevel])
    def get_stock(self, sku: Sku, warehouse_id: Optional[Id("warehouse")] = None) -> dict:
        """Stock of a SKU per warehouse (on_hand, reserved, available) and totals over warehouses.

        Args:
            sku: the SKU, e.g. KB-MECH-01 (case-insensitive).
            warehouse_id: only this warehouse.
        """
        if warehouse_id is not None:
            self.lookup(self.state.warehouses, warehouse_id, "warehouse")
        key = sku.upper()
        levels = [_view(lv) for lv in self.state.stock.values()
                  if lv.sku == key and (warehouse_id is None or lv.warehouse_id == warehouse_id)]
        if not levels:
            raise NotFound(f"SKU {sku!r} has no stock record{' at ' + warehouse_id if warehouse_id else ''}.")
        return {"sku": key, "levels": levels, "total_on_hand": sum(x["on_hand"] for x in levels),
                "total_available": sum(x["available"] for x in levels)}

    @tool(read_only=True, returns=list[StockLevel])
    def list_stock(self, warehouse_id: Optional[Id("warehouse")] = None, needs_reorder: Optional[bool] = None,
                   limit: int = Field(default=100, ge=1, le=500)) -> list[dict]:
        """List stock levels, optionally of one warehouse or only those at/below their reorder point.

        Args:
            warehouse_id: only this warehouse.
            needs_reorder: true for levels whose available units are at or below the reorder point.
            limit: maximum number of rows (1-500).
        """
        out = []
        for lv in self.state.stock.values():
            if warehouse_id is not None and lv.warehouse_id != warehouse_id:
                continue
            row = _view(lv)
            if needs_reorder is not None and row["needs_reorder"] != needs_reorder:
                continue
            out.append(row)
        return out[:limit]

    @tool(read_only=True, returns=list[Reservation])
    def list_stock_reservations(self, order_id: Optional[Id("order")] = None, sku: Optional[Sku] = None,
                          status: Optional[ReservationStatus] = None) -> list[dict]:
        """List reservations by order, SKU or status.

        Args:
            order_id: only reservations for this order.
            sku: only this SKU.
            status: active, released or fulfilled.
        """
        key = sku.upper() if sku else None
        return [r.model_dump() for r in self.state.reservations.values()
                if (order_id is None or r.order_id == order_id) and (key is None or r.sku == key)
                and (status is None or r.status == status)]

    @tool(read_only=True, returns=list[Adjustment])
    def list_adjustments(self, sku: Optional[Sku] = None, warehouse_id: Optional[Id("warehouse")] = None,
                         reason: Optional[AdjustReason] = None,
                         limit: int = Field(default=50, ge=1, le=500)) -> list[dict]:
        """List stock adjustments, newest first.

        Args:
            sku: only this SKU.
            warehouse_id: only this warehouse.
            reason: only adjustments with this reason.
            limit: maximum number of rows (1-500).
        """
        key = sku.upper() if sku else None
        out = [a.model_dump() for a in reversed(self.state.adjustments.values())
               if (key is None or a.sku == key) and (warehouse_id is None or a.warehouse_id == warehouse_id)
               and (reason is None or a.reason == reason)]
        return out[:limit]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Adjustment)
    def adjust_stock(self, sku: Sku, warehouse_id: Id("warehouse"),
                     quantity_delta: int = Field(ge=-MAX_UNITS, le=MAX_UNITS), reason: AdjustReason = Field(),
                     note: str = "") -> dict:
        """Add (positive delta) or remove (negative delta) on-hand units, with a reason.

        On-hand units may not drop below zero or below the reserved units (409).

        Args:
            sku: the SKU to adjust.
            warehouse_id: the warehouse to adjust.
            quantity_delta: units to add (>0) or remove (<0); never 0.
            reason: received, damaged, lost, returned, cycle_count, correction or transfer.
            note: free-text explanation.
        """
        if quantity_delta == 0:
            raise InvalidArgument("quantity_delta must not be 0.")
        level = self._level(sku, warehouse_id)
        after = level.on_hand + quantity_delta
        if after < level.reserved:
            raise Conflict(f"removing {-quantity_delta} units of {level.sku} at {warehouse_id} would leave "
                           f"{after} on hand but {level.reserved} are reserved (max removable: "
                           f"{level.on_hand - level.reserved}).")
        level.on_hand = after
        return {**self._log(level, quantity_delta, reason, note).model_dump(), "on_hand": after}

    @tool(read_only=False, returns=list[Adjustment])
    def transfer_stock(self, sku: Sku, from_warehouse_id: Id("warehouse"), to_warehouse_id: Id("warehouse"),
                       quantity: int = Field(gt=0, le=MAX_UNITS)) -> dict:
        """Move available units of a SKU between warehouses (409 if not enough available).

        Args:
            sku: the SKU to move.
            from_warehouse_id: source warehouse.
            to_warehouse_id: destination warehouse (a stock row is created if missing).
            quantity: units to move.
        """
        if from_warehouse_id == to_warehouse_id:
            raise InvalidArgument("from_warehouse_id and to_warehouse_id must differ.")
        src = self._level(sku, from_warehouse_id)
        self.lookup(self.state.warehouses, to_warehouse_id, "warehouse")
        if src.on_hand - src.reserved < quantity:
            raise Conflict(f"only {src.on_hand - src.reserved} units of {src.sku} available at {from_warehouse_id}.")
        dst = self.state.stock.setdefault(f"{to_warehouse_id}/{src.sku}", StockLevel(
            sku=src.sku, warehouse_id=to_warehouse_id, on_hand=0, reserved=0, reorder_point=0, reorder_quantity=0))
        src.on_hand -= quantity
        dst.on_hand += quantity
        note = f"{from_warehouse_id} -> {to_warehouse_id}"
        return {"out": self._log(src, -quantity, "transfer", note).model_dump(),
                "in": self._log(dst, quantity, "transfer", note).model_dump()}

    @tool(read_only=False, returns=Reservation)
    def reserve_stock(self, sku: Sku, warehouse_id: Id("warehouse"), quantity: int = Field(gt=0, le=MAX_UNITS),
                      order_id: Id("order") = Field(min_length=1)) -> dict:
        """Hold available units of a SKU for an order (409 if fewer units are available).

        Args:
            sku: the SKU to hold.
            warehouse_id: the warehouse to hold it at.
            quantity: units to hold.
            order_id: the order the units are for, e.g. ORD-0007.
        """
        level = self._level(sku, warehouse_id)
        available = level.on_hand - level.reserved
        if available < quantity:
            raise Conflict(f"only {available} units of {level.sku} available at {warehouse_id}; "
                           "reserve fewer or transfer stock first.")
        level.reserved += quantity
        r = Reservation(id=self.new_id("RSV"), sku=level.sku, warehouse_id=warehouse_id, quantity=quantity,
                        order_id=order_id, status="active", created_on=self.today)
        self.state.reservations[r.id] = r
        return r.model_dump()

    def _close_reservation(self, reservation_id: str, status: str) -> tuple[Reservation, StockLevel]:
        r = self.lookup(self.state.reservations, reservation_id, "reservation")
        if r.status != "active":
            raise Conflict(f"reservation {reservation_id} is already {r.status}.")
        level = self._level(r.sku, r.warehouse_id)
        level.reserved -= r.quantity
        r.status = status
        return r, level

    @tool(read_only=False, returns=Reservation)
    def release_reservation(self, reservation_id: str) -> dict:
        """Cancel an active reservation and return its units to available stock.

        Args:
            reservation_id: the reservation, e.g. RSV-0001.
        """
        r, level = self._close_reservation(reservation_id, "released")
        return {**r.model_dump(), "available": level.on_hand - level.reserved}

    @tool(read_only=False, returns=Reservation)
    def fulfill_reservation(self, reservation_id: str) -> dict:
        """Ship an active reservation: its units leave on-hand stock.

        Args:
            reservation_id: the reservation, e.g. RSV-0001.
        """
        r, level = self._close_reservation(reservation_id, "fulfilled")
        level.on_hand -= r.quantity
        return {**r.model_dump(), "on_hand": level.on_hand}

    @tool(read_only=False, idempotent=True, returns=StockLevel)
    def set_reorder_point(self, sku: Sku, warehouse_id: Id("warehouse"),
                          reorder_point: int = Field(ge=0, le=MAX_UNITS),
                          reorder_quantity: Optional[int] = Field(None, gt=0, le=MAX_UNITS)) -> dict:
        """Set the reorder point (and optionally reorder quantity) of a SKU at a warehouse.

        Args:
            sku: the SKU.
            warehouse_id: the warehouse.
            reorder_point: reorder when available units are at or below this.
            reorder_quantity: units to order when restocking.
        """
        level = self._level(sku, warehouse_id)
        if reorder_quantity is not None and reorder_quantity <= reorder_point // 2:
            raise Unprocessable(f"reorder_quantity {reorder_quantity} is too small for reorder point "
                                f"{reorder_point}; use more than half of the reorder point.")
        level.reorder_point = reorder_point
        if reorder_quantity is not None:
            level.reorder_quantity = reorder_quantity
        return _view(level)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> InventoryState:
        state = InventoryState()
        for wid, name, city in (("WH-EAST", "East Coast DC", "Newark"), ("WH-WEST", "West Coast DC", "Reno"),
                                ("WH-CENT", "Central DC", "Columbus")):
            state.warehouses[wid] = Warehouse(id=wid, name=name, city=city)
        for p in PRODUCTS:
            for wid in state.warehouses:
                if wid == "WH-CENT" and p.category == "furniture":
                    continue  # the central DC has no bulky-goods racking
                point = rng.choice((5, 10, 20))
                state.stock[f"{wid}/{p.sku}"] = StockLevel(
                    sku=p.sku, warehouse_id=wid, on_hand=rng.randint(0, 60), reserved=0,
                    reorder_point=point, reorder_quantity=point * 3)
        n = 1
        for order in order_book(today):
            if order.status != "paid":
                continue
            for line in order.lines:
                level = state.stock[f"WH-EAST/{line.sku}"]
                level.on_hand = max(level.on_hand, level.reserved + line.quantity + rng.randint(0, 5))
                level.reserved += line.quantity
                rid = f"RSV-{n:04d}"
                state.reservations[rid] = Reservation(
                    id=rid, sku=line.sku, warehouse_id="WH-EAST", quantity=line.quantity, order_id=order.id,
                    status="active", created_on=order.placed_on)
                n += 1
        for i in range(1, 7):
            level = rng.choice(list(state.stock.values()))
            reason = rng.choice(("received", "damaged", "cycle_count", "returned"))
            delta = rng.randint(1, 4) * (-1 if reason == "damaged" else 1)
            if level.on_hand + delta < level.reserved:
                reason, delta = "received", -delta
            level.on_hand += delta
            aid = f"ADJ-{i:04d}"
            state.adjustments[aid] = Adjustment(id=aid, sku=level.sku, warehouse_id=level.warehouse_id, delta=delta,
                                                reason=reason, note=_SEED_NOTES[reason],
                                                on=today - dt.timedelta(days=20 - 3 * i))
        state.counters.update({"RSV": n, "ADJ": 7})
        return state
