"""Records of the warehouse service (ShipHero WMS shapes; see ``warehouse.py``).

Warehouses, bins (ShipHero ``locations``), stock per SKU per bin (ShipHero
``item_locations``), inbound shipments (ShipHero ``purchase_orders`` with
``line_items`` of ``quantity`` and ``quantity_received``), fulfilment orders
with their pick lists, packing and shipment, and the log of inventory
changes (receipts, picks, transfers, adjustments, cycle counts).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import City, CompanyName, Date, DateTime, Id, PersonName, Sku, TrackingNumber
from compoworld_gym.service import Record, ServiceState

BinType = Literal["pick", "reserve", "receiving"]
InboundStatus = Literal["pending", "partially_received", "received", "closed", "canceled"]
OrderStatus = Literal["pending", "picking", "picked", "packed", "shipped", "cancelled"]
PickStatus = Literal["open", "picked", "cancelled"]
ChangeReason = Literal["received", "picked", "transfer", "damaged", "lost", "found", "correction", "cycle_count"]
Carrier = Literal["ups", "fedex", "usps", "dhl"]
#: Most units one call may receive, pick, move or count (counts stay JSON-safe).
MAX_UNITS = 1_000_000


class Warehouse(Record):
    """A warehouse (ShipHero ``warehouse``)."""

    id: Id("warehouse") = Field(description="Warehouse identifier, e.g. WH-EAST.")
    name: str = Field(description="Warehouse name.")
    city: City = Field(description="City.")


class Bin(Record):
    """A bin / location in a warehouse (ShipHero ``location``)."""

    id: Id("bin") = Field(description="Bin id, e.g. BIN-0001.")
    warehouse_id: Id("warehouse") = Field(description="Warehouse of the bin.")
    name: str = Field(description="Location name: zone-aisle-shelf, e.g. A-03-2.")
    type: BinType = Field(description="pick (pickable), reserve (overstock) or receiving (dock).")
    pickable: bool = Field(description="Whether pickers may pick from it.")


class BinStock(Record):
    """Units of one SKU in one bin (ShipHero ``item_location``)."""

    bin_id: Id("bin") = Field(description="The bin.")
    warehouse_id: Id("warehouse") = Field(description="Warehouse of the bin.")
    sku: Sku = Field(description="The SKU.")
    quantity: int = Field(ge=0, description="Units on hand in the bin.")


class InboundLine(Record):
    """A line of an inbound shipment."""

    sku: Sku = Field(description="SKU expected.")
    expected_quantity: int = Field(gt=0, description="Units expected (ordered).")
    received_quantity: int = Field(default=0, ge=0, description="Units received so far.")


class Receipt(Record):
    """One receiving event of an inbound shipment."""

    sku: Sku = Field(description="SKU received.")
    quantity: int = Field(gt=0, description="Units received.")
    bin_id: Id("bin") = Field(description="Bin the units were put in.")
    over_receipt: bool = Field(default=False, description="Whether it exceeded the expected quantity.")
    received_on: Date = Field(description="Date received.")
    note: str = Field(default="", description="Receiver's note.")


class InboundShipment(Record):
    """A purchase order's goods expected at a warehouse (ShipHero ``purchase_order``)."""

    id: Id("inbound_shipment") = Field(description="Inbound shipment id, e.g. IB-0001.")
    purchase_order_id: Id("purchase_order") = Field(description="The purchase order (procurement PO number).")
    vendor: CompanyName = Field(description="Vendor shipping the goods.")
    warehouse_id: Id("warehouse") = Field(description="Receiving warehouse.")
    tracking_number: Optional[TrackingNumber] = Field(default=None, description="Freight tracking number.")
    expected_date: Date = Field(description="Expected arrival date.")
    status: InboundStatus = Field(description="pending, partially_received, received, closed or canceled.")
    lines: list[InboundLine] = Field(min_length=1, description="Lines.")
    receipts: list[Receipt] = Field(default_factory=list, description="Receiving events, oldest first.")


class OrderLine(Record):
    """A line of a fulfilment order."""

    sku: Sku = Field(description="SKU ordered.")
    quantity: int = Field(gt=0, description="Units to ship.")


class FulfillmentOrder(Record):
    """A store order released to the warehouse for fulfilment (ShipHero ``order``)."""

    id: Id("order") = Field(description="Store order number, e.g. ORD-0005.")
    warehouse_id: Id("warehouse") = Field(description="Fulfilling warehouse.")
    ship_to_name: PersonName = Field(description="Recipient's name.")
    ship_to_city: City = Field(description="Recipient's city.")
    lines: list[OrderLine] = Field(min_length=1, description="Lines.")
    status: OrderStatus = Field(description="pending, picking, picked, packed, shipped or cancelled.")
    pick_list_id: Optional[Id("pick_list")] = Field(default=None, description="Its current pick list.")
    package_weight_kg: Optional[float] = Field(default=None, description="Packed weight (kg).")
    carrier: Optional[Carrier] = Field(default=None, description="Carrier, once shipped.")
    tracking_number: Optional[TrackingNumber] = Field(default=None, description="Tracking number, once shipped.")
    shipped_on: Optional[Date] = Field(default=None, description="Date shipped.")
    released_on: Date = Field(description="Date released to the warehouse.")


class PickLine(Record):
    """Units of one SKU to pick from one bin."""

    sku: Sku = Field(description="SKU to pick.")
    bin_id: Id("bin") = Field(description="Bin to pick from.")
    bin_name: str = Field(description="The bin's location name.")
    quantity: int = Field(gt=0, description="Units to pick.")


class PickInput(Record):
    """A requested pick: SKU, bin and units."""

    sku: Sku = Field(description="SKU to pick.")
    bin_id: Id("bin") = Field(description="Bin to pick from.")
    quantity: int = Field(gt=0, le=MAX_UNITS, description="Units to pick (at most the bin holds).")


class PickList(Record):
    """A pick list for an order."""

    id: Id("pick_list") = Field(description="Pick list id, e.g. PL-0001.")
    order_id: Id("order") = Field(description="The order picked.")
    warehouse_id: Id("warehouse") = Field(description="Warehouse.")
    lines: list[PickLine] = Field(min_length=1, description="Picks, in walking order.")
    status: PickStatus = Field(description="open, picked or cancelled.")
    picker: str = Field(default="", description="Who picks it.")
    created_at: DateTime = Field(description="When created (logical clock).")
    picked_at: Optional[DateTime] = Field(default=None, description="When confirmed picked.")


class InventoryChange(Record):
    """A change of units in a bin with its reason."""

    id: str = Field(description="Change id, e.g. CHG-0001.")
    sku: Sku = Field(description="SKU.")
    bin_id: Id("bin") = Field(description="Bin.")
    delta: int = Field(description="Change of units (negative removes).")
    reason: ChangeReason = Field(description="Why the units changed.")
    reference: str = Field(default="", description="Pick list, inbound shipment or count it belongs to.")
    note: str = Field(default="", description="Free-text note.")
    on: Date = Field(description="Date of the change.")


class ReceiveInput(Record):
    """Units of one SKU received into a bin."""

    sku: Sku = Field(description="SKU received.")
    quantity: int = Field(gt=0, le=MAX_UNITS, description="Units received.")
    bin_id: Id("bin") = Field(description="Bin they are put in (of the receiving warehouse).")


class CountInput(Record):
    """A counted quantity of one SKU in the counted bin."""

    sku: Sku = Field(description="SKU counted.")
    counted: int = Field(ge=0, le=MAX_UNITS, description="Units found.")


class WarehouseState(ServiceState):
    """Warehouses, bins, bin stock, inbound shipments, orders, pick lists and inventory changes."""

    warehouses: dict[str, Warehouse] = Field(default_factory=dict, description="Warehouses by id.")
    bins: dict[str, Bin] = Field(default_factory=dict, description="Bins by id.")
    stock: dict[str, BinStock] = Field(default_factory=dict, description="Bin stock by 'BIN-ID/SKU'.")
    inbound_shipments: dict[str, InboundShipment] = Field(default_factory=dict, description="Inbound by id.")
    orders: dict[str, FulfillmentOrder] = Field(default_factory=dict, description="Fulfilment orders by id.")
    pick_lists: dict[str, PickList] = Field(default_factory=dict, description="Pick lists by id.")
    inventory_changes: dict[str, InventoryChange] = Field(default_factory=dict, description="Changes by id.")
