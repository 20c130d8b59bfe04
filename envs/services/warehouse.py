"""Warehouse: bins, stock per SKU per bin, receiving, picking, packing, shipping and cycle counts (ShipHero WMS).

No WMS server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the ShipHero GraphQL API:
``warehouses``, ``locations`` (bins, pickable or not), ``item_locations``
(units of a SKU in a bin), ``purchase_orders`` received into locations
(``line_items`` with ``quantity`` and ``quantity_received``), ``orders``
picked from locations, packed and shipped (``shipment_create`` with carrier
and tracking number), ``inventory_transfer``, ``inventory_add`` /
``inventory_remove`` with a reason, and cycle counts (``inventory_replace``
per location) that log their adjustments.

Rules: a pick can never exceed the units on hand in the bin that open pick
lists do not already take (422); an inbound line receives at most its
expected quantity unless the receipt is flagged ``allow_over_receipt``
(422); a shipped (or cancelled) order cannot be picked again (409); orders
go pending -> picking -> picked -> packed -> shipped in order (409). Left out:
totes and wave/batch picking, lot and expiry tracking, kits, returns.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Id, Sku, TrackingNumber
from compoworld_gym.envs.services import _warehouse_rules as rules
from compoworld_gym.envs.services._blocks import Lifecycle, eq, select
from compoworld_gym.envs.services._warehouse_inventory import WarehouseInventory
from compoworld_gym.envs.services._warehouse_models import (
    Carrier, FulfillmentOrder, InboundShipment, InboundStatus, OrderStatus, PickInput, PickList, ReceiveInput,
    Receipt, WarehouseState,
)
from compoworld_gym.envs.services._warehouse_seed import build_state
from compoworld_gym.errors import Conflict
from compoworld_gym.service import tool

#: Statuses each order step may start from.
ORDER_FLOW = Lifecycle("order", {"pick": ("pending",), "confirm": ("picking",), "pack": ("picked",),
                                 "ship": ("packed",)})


class WarehouseWms(WarehouseInventory):
    """ShipHero-style WMS: inbound receiving, pick lists, pack and ship (bins and bin stock: the base)."""

    name = "warehouse"
    description = ("Warehouse management (ShipHero-style): bins, stock per SKU per bin, receiving inbound purchase "
                   "orders, pick lists for orders, packing and shipping, transfers, adjustments and cycle counts.")
    domain = "logistics"
    spec_source = None
    State = WarehouseState

    # ---------------------------------------------------------------- helpers
    def _order(self, order_id: str) -> FulfillmentOrder:
        return self.lookup(self.state.orders, order_id, "order")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[InboundShipment])
    def list_inbound_shipments(self, status: Optional[InboundStatus] = None,
                               purchase_order_id: Optional[Id("purchase_order")] = None,
                               tracking_number: Optional[TrackingNumber] = None, sku: Optional[Sku] = None,
                               warehouse_id: Optional[Id("warehouse")] = None) -> list[dict]:
        """List inbound shipments (purchase orders to receive) by status, PO number, tracking number, SKU or warehouse.

        Args:
            status: pending, partially_received, received, closed or canceled.
            purchase_order_id: the purchase order number, e.g. PO-0005.
            tracking_number: the freight tracking number (case-insensitive).
            sku: only shipments with this SKU.
            warehouse_id: only this receiving warehouse.
        """
        track, want = (tracking_number or "").strip().upper(), (sku or "").upper()
        rows = select(self.state.inbound_shipments.values(), eq("status", status),
                      eq("purchase_order_id", purchase_order_id), eq("warehouse_id", warehouse_id),
                      (lambda i: (i.tracking_number or "").upper() == track) if track else None,
                      (lambda i: any(ln.sku == want for ln in i.lines)) if want else None)
        return [i.model_dump() for i in rows]

    @tool(read_only=True, returns=InboundShipment)
    def get_inbound_shipment(self, inbound_id: Id("inbound_shipment")) -> dict:
        """One inbound shipment with its lines (expected and received units) and receipts.

        Args:
            inbound_id: the inbound shipment id, e.g. IB-0002.
        """
        return self.lookup(self.state.inbound_shipments, inbound_id, "inbound shipment").model_dump()

    @tool(read_only=True, returns=list[FulfillmentOrder])
    def list_orders(self, status: Optional[OrderStatus] = None, warehouse_id: Optional[Id("warehouse")] = None,
                    sku: Optional[Sku] = None) -> list[dict]:
        """List fulfilment orders by status, warehouse or SKU.

        Args:
            status: pending, picking, picked, packed, shipped or cancelled.
            warehouse_id: only this warehouse.
            sku: only orders with this SKU.
        """
        want = (sku or "").upper()
        rows = select(self.state.orders.values(), eq("status", status), eq("warehouse_id", warehouse_id),
                      (lambda o: any(ln.sku == want for ln in o.lines)) if want else None)
        return [o.model_dump() for o in rows]

    @tool(read_only=True, returns=FulfillmentOrder)
    def get_order(self, order_id: Id("order")) -> dict:
        """One fulfilment order with its lines, status, pick list and shipment.

        Args:
            order_id: the store order number, e.g. ORD-0005.
        """
        return self._order(order_id).model_dump()

    @tool(read_only=True, returns=PickList)
    def get_pick_list(self, pick_list_id: Id("pick_list")) -> dict:
        """One pick list: which units to take from which bins.

        Args:
            pick_list_id: the pick list id, e.g. PL-0002.
        """
        return self.lookup(self.state.pick_lists, pick_list_id, "pick list").model_dump()

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=InboundShipment)
    def receive_inbound(self, inbound_id: Id("inbound_shipment"),
                        items: list[ReceiveInput] = Field(min_length=1, max_length=50),
                        allow_over_receipt: bool = False, note: str = Field(default="", max_length=300)) -> dict:
        """Receive units of an inbound shipment into bins of its warehouse; at most the expected units per line
        unless ``allow_over_receipt`` is set.

        Args:
            inbound_id: a pending or partially received inbound shipment.
            items: each {sku, quantity, bin_id}.
            allow_over_receipt: accept more than expected (the vendor over-shipped).
            note: receiver's note.
        """
        inbound = self.lookup(self.state.inbound_shipments, inbound_id, "inbound shipment")
        if inbound.status not in ("pending", "partially_received"):
            raise Conflict(f"inbound shipment {inbound.id} is {inbound.status}; nothing more can be received.")
        items = [ReceiveInput(sku=i.sku.upper(), quantity=i.quantity, bin_id=i.bin_id) for i in items]
        rules.check_receipt(inbound, items, self.state.bins, allow_over_receipt)
        lines = {ln.sku: ln for ln in inbound.lines}
        for item in items:
            line = lines[item.sku]
            over = line.received_quantity + item.quantity > line.expected_quantity
            line.received_quantity += item.quantity
            rules.add_units(self.state, self.state.bins[item.bin_id], item.sku, item.quantity)
            inbound.receipts.append(Receipt(sku=item.sku, quantity=item.quantity, bin_id=item.bin_id,
                                            over_receipt=over, received_on=self.today, note=note))
            self._log(item.sku, item.bin_id, item.quantity, "received", inbound.id, note)
        done = all(ln.received_quantity >= ln.expected_quantity for ln in inbound.lines)
        inbound.status = "received" if done else "partially_received"
        return inbound.model_dump()

    @tool(read_only=False, returns=InboundShipment)
    def close_inbound(self, inbound_id: Id("inbound_shipment"), cancel: bool = False) -> dict:
        """Close a partially received inbound shipment short, or cancel one with nothing received.

        Args:
            inbound_id: the inbound shipment.
            cancel: cancel it (only if nothing was received) instead of closing it.
        """
        inbound = self.lookup(self.state.inbound_shipments, inbound_id, "inbound shipment")
        got = any(ln.received_quantity for ln in inbound.lines)
        if cancel:
            if inbound.status != "pending" or got:
                raise Conflict(f"inbound shipment {inbound.id} is {inbound.status}; only a pending one with nothing "
                               "received can be canceled.")
            inbound.status = "canceled"
        else:
            if inbound.status != "partially_received":
                raise Conflict(f"inbound shipment {inbound.id} is {inbound.status}; only a partially received one "
                               "is closed short.")
            inbound.status = "closed"
        return inbound.model_dump()

    @tool(read_only=False, returns=PickList)
    def create_pick_list(self, order_id: Id("order"),
                         picks: Optional[list[PickInput]] = Field(default=None, min_length=1, max_length=50),
                         picker: str = Field(default="", max_length=80)) -> dict:
        """Make the pick list of a pending order: the given picks, or bins chosen in location order.

        A pick may not exceed the bin's units not already on open pick lists (422);
        a shipped or cancelled order is never picked again (409).

        Args:
            order_id: the pending order.
            picks: each {sku, bin_id, quantity}, together exactly the order's lines (default: allocated automatically).
            picker: who picks it.
        """
        order = self._order(order_id)
        if order.status in ("shipped", "cancelled"):
            raise Conflict(f"order {order.id} is {order.status}; a {order.status} order cannot be picked again.")
        ORDER_FLOW.check(order.id, order.status, "pick")
        if picks is None:
            lines = rules.auto_picks(self.state, order)
        else:
            lines = rules.explicit_picks(self.state, order, [PickInput(sku=p.sku.upper(), bin_id=p.bin_id,
                                                                       quantity=p.quantity) for p in picks])
        pl = PickList(id=self.new_id("PL"), order_id=order.id, warehouse_id=order.warehouse_id, lines=lines,
                      status="open", picker=picker, created_at=self.now())
        self.state.pick_lists[pl.id] = pl
        order.status, order.pick_list_id = "picking", pl.id
        return pl.model_dump()

    @tool(read_only=False, returns=PickList)
    def confirm_pick(self, pick_list_id: Id("pick_list")) -> dict:
        """Confirm an open pick list was picked: its units leave their bins and the order is picked.

        Args:
            pick_list_id: the open pick list.
        """
        pl = self.lookup(self.state.pick_lists, pick_list_id, "pick list")
        if pl.status != "open":
            raise Conflict(f"pick list {pl.id} is {pl.status}.")
        for ln in pl.lines:  # a count since the list was made may have found fewer units
            have = rules.on_hand(self.state, ln.bin_id, ln.sku) - rules.allocated(self.state, ln.bin_id, ln.sku,
                                                                                   skip=pl.id)
            if sum(x.quantity for x in pl.lines if (x.bin_id, x.sku) == (ln.bin_id, ln.sku)) > have:
                raise Conflict(f"bin {ln.bin_name} no longer holds {ln.quantity} of {ln.sku}; cancel the pick list "
                               "and make a new one.")
        for ln in pl.lines:
            rules.add_units(self.state, self.state.bins[ln.bin_id], ln.sku, -ln.quantity)
            self._log(ln.sku, ln.bin_id, -ln.quantity, "picked", pl.id)
        pl.status, pl.picked_at = "picked", self.now()
        self._order(pl.order_id).status = "picked"
        return pl.model_dump()

    @tool(read_only=False, returns=PickList)
    def cancel_pick_list(self, pick_list_id: Id("pick_list")) -> dict:
        """Cancel an open pick list; its order goes back to pending.

        Args:
            pick_list_id: the open pick list.
        """
        pl = self.lookup(self.state.pick_lists, pick_list_id, "pick list")
        if pl.status != "open":
            raise Conflict(f"pick list {pl.id} is {pl.status}; only an open one can be cancelled.")
        pl.status = "cancelled"
        order = self._order(pl.order_id)
        order.status, order.pick_list_id = "pending", None
        return pl.model_dump()

    @tool(read_only=False, returns=FulfillmentOrder)
    def pack_order(self, order_id: Id("order"), package_weight_kg: float = Field(gt=0, le=150)) -> dict:
        """Pack a picked order into its package.

        Args:
            order_id: the picked order.
            package_weight_kg: weight of the packed package (kg).
        """
        order = self._order(order_id)
        ORDER_FLOW.check(order.id, order.status, "pack")
        order.status, order.package_weight_kg = "packed", round(package_weight_kg, 3)
        return order.model_dump()

    @tool(read_only=False, returns=FulfillmentOrder)
    def ship_order(self, order_id: Id("order"), carrier: Carrier,
                   tracking_number: TrackingNumber = Field(min_length=6, max_length=40)) -> dict:
        """Ship a packed order with the carrier's label tracking number (shipment_create).

        Args:
            order_id: the packed order.
            carrier: ups, fedex, usps or dhl.
            tracking_number: the label's tracking number.
        """
        order = self._order(order_id)
        ORDER_FLOW.check(order.id, order.status, "ship")
        order.status, order.carrier, order.shipped_on = "shipped", carrier, self.today
        order.tracking_number = tracking_number.strip().upper()
        return order.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> WarehouseState:
        return build_state(fake, rng, today)
