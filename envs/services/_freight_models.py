"""Records of the freight service (Flexport API v2 style) and its reference tables.

Ports are named by UN/LOCODE (two-letter country, three-character location)
with the UN/LOCODE function a booking's mode needs (1 seaport, 3 road
terminal, 4 airport). Bookings, shipments (with legs and milestones), ocean
containers and freight invoices keep Flexport's resource and field names,
snake_cased as the API itself writes them.
"""

from __future__ import annotations

from typing import Literal, NamedTuple, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, DateTime, Id, Money, Sku, TrackingNumber
from compoworld_gym.service import Record, ServiceState

Mode = Literal["ocean", "air", "truck"]
Incoterm = Literal["EXW", "FCA", "FAS", "FOB", "CFR", "CIF", "CPT", "CIP", "DAP", "DPU", "DDP"]
BookingStatus = Literal["submitted", "confirmed", "cancelled"]
ShipmentStatus = Literal["booked", "in_transit", "arrived", "customs_cleared", "delivered"]
MilestoneName = Literal["departed", "arrived", "customs_cleared", "delivered"]
ContainerType = Literal["20GP", "40GP", "40HC"]
InvoiceStatus = Literal["outstanding", "paid", "void"]
Warehouse = Literal["WH-EAST", "WH-WEST", "WH-CENT"]

#: Milestones of every shipment, in the order they must be recorded.
MILESTONES: tuple[str, ...] = ("departed", "arrived", "customs_cleared", "delivered")
#: Shipment status once each milestone is recorded.
STATUS_AFTER: dict[str, str] = {"departed": "in_transit", "arrived": "arrived",
                                "customs_cleared": "customs_cleared", "delivered": "delivered"}
#: Incoterms 2020 rules for sea and inland waterway transport only.
SEA_ONLY_INCOTERMS = frozenset({"FAS", "FOB", "CFR", "CIF"})
#: The UN/LOCODE function a mode needs: 1 port, 4 airport, 3 road terminal.
MODE_FUNCTION: dict[str, str] = {"ocean": "1", "air": "4", "truck": "3"}
#: Container types (ISO 6346 size-type codes 22G1, 42G1, 45G1): capacity in cubic metres, max payload kg.
CONTAINER_SPECS: dict[str, tuple[float, int]] = {"20GP": (33.2, 28200), "40GP": (67.7, 26700), "40HC": (76.4, 26500)}


class Port(NamedTuple):
    """A UN/LOCODE location: code, name, ISO country, region (for transit times) and function digits."""

    unlocode: str
    name: str
    country: str
    region: str
    functions: str


PORTS: dict[str, Port] = {p.unlocode: p for p in (
    Port("CNSHA", "Shanghai", "CN", "asia", "1234"),
    Port("CNYTN", "Yantian (Shenzhen)", "CN", "asia", "1"),
    Port("CNSZX", "Shenzhen", "CN", "asia", "134"),
    Port("HKHKG", "Hong Kong", "HK", "asia", "134"),
    Port("VNSGN", "Ho Chi Minh City", "VN", "asia", "134"),
    Port("VNHPH", "Haiphong", "VN", "asia", "1"),
    Port("TWKHH", "Kaohsiung", "TW", "asia", "134"),
    Port("KRPUS", "Busan", "KR", "asia", "134"),
    Port("INNSA", "Nhava Sheva", "IN", "india", "1"),
    Port("INBOM", "Mumbai", "IN", "india", "134"),
    Port("DEHAM", "Hamburg", "DE", "europe", "134"),
    Port("NLRTM", "Rotterdam", "NL", "europe", "13"),
    Port("MXMTY", "Monterrey", "MX", "mexico", "34"),
    Port("USLAX", "Los Angeles", "US", "us_west", "134"),
    Port("USLGB", "Long Beach", "US", "us_west", "1"),
    Port("USOAK", "Oakland", "US", "us_west", "13"),
    Port("USNYC", "New York", "US", "us_east", "134"),
    Port("USEWR", "Newark", "US", "us_east", "134"),
    Port("USSAV", "Savannah", "US", "us_east", "13"),
    Port("USCHI", "Chicago", "US", "us_central", "34"),
    Port("USCMH", "Columbus", "US", "us_central", "34"),
    Port("USRNO", "Reno", "US", "us_west", "34"),
    Port("USLRD", "Laredo", "US", "us_central", "34"),
)}


class Milestone(Record):
    """A shipment event (Flexport ``/shipment_events``: departed, arrived, customs cleared, delivered)."""

    name: MilestoneName = Field(description="departed, arrived, customs_cleared or delivered.")
    occurred_on: Date = Field(description="Day it happened.")
    location: str = Field(description="UN/LOCODE or warehouse where it happened.")
    recorded_at: DateTime = Field(description="When it was recorded (logical clock).")


class ShipmentLeg(Record):
    """One leg of a shipment (Flexport ``ShipmentLeg``): main carriage, then final delivery."""

    origin: str = Field(description="Where the leg starts: UN/LOCODE (or warehouse code).")
    destination: str = Field(description="Where the leg ends: UN/LOCODE or warehouse code.")
    transportation_mode: Mode = Field(description="ocean, air or truck.")
    carrier_name: str = Field(description="Carrier operating the leg.")
    estimated_departure_date: Date = Field(description="Planned departure.")
    estimated_arrival_date: Date = Field(description="Planned arrival.")
    actual_departure_date: Optional[Date] = Field(default=None, description="Actual departure.")
    actual_arrival_date: Optional[Date] = Field(default=None, description="Actual arrival.")


class Booking(Record):
    """A freight booking (Flexport ``/bookings``): cargo a shipper hands over for one lane."""

    id: Id("freight_booking") = Field(description="Booking id, e.g. FB-0001.")
    name: str = Field(description="Booking name shown in the Flexport app.")
    status: BookingStatus = Field(description="submitted, confirmed (a shipment exists) or cancelled.")
    transportation_mode: Mode = Field(description="ocean, air or truck.")
    incoterm: Incoterm = Field(description="Incoterms 2020 rule of the sale.")
    shipper_name: CompanyName = Field(description="The supplier shipping the goods (procurement's vendor).")
    consignee_name: CompanyName = Field(description="Who receives the goods (the company).")
    origin_port: str = Field(description="UN/LOCODE where the cargo is picked up, e.g. CNSHA.")
    destination_port: str = Field(description="UN/LOCODE of the port/airport/terminal of arrival, e.g. USNYC.")
    destination_warehouse: Warehouse = Field(description="Warehouse the cargo is delivered to.")
    cargo_ready_date: Date = Field(description="Day the cargo is ready for pickup at origin.")
    purchase_order_ids: list[Id("purchase_order")] = Field(default_factory=list,
                                                           description="Procurement purchase orders shipped.")
    skus: list[Sku] = Field(default_factory=list, description="SKUs of the goods.")
    cargo_description: str = Field(description="What the cargo is.")
    total_weight_kg: float = Field(gt=0, description="Gross weight, kg.")
    total_volume_cbm: float = Field(gt=0, description="Volume, cubic metres.")
    wants_import_customs_service: bool = Field(default=True, description="Flexport files the import entry.")
    shipment_id: Optional[Id("shipment")] = Field(default=None, description="The shipment once confirmed.")
    created_on: Date = Field(description="Day submitted.")
    confirmed_on: Optional[Date] = Field(default=None, description="Day confirmed.")
    cancel_reason: Optional[str] = Field(default=None, description="Why it was cancelled.")


class Shipment(Record):
    """A shipment (Flexport ``/shipments``) with its legs and milestones."""

    id: Id("shipment") = Field(description="Shipment id, e.g. FLX-0001.")
    name: str = Field(description="Shipment name.")
    booking_id: Id("freight_booking") = Field(description="The booking it was confirmed from.")
    status: ShipmentStatus = Field(description="booked, in_transit, arrived, customs_cleared or delivered.")
    transportation_mode: Mode = Field(description="ocean, air or truck.")
    incoterm: Incoterm = Field(description="Incoterms 2020 rule.")
    shipper_name: CompanyName = Field(description="The supplier shipping the goods.")
    purchase_order_ids: list[Id("purchase_order")] = Field(default_factory=list, description="Purchase orders.")
    master_bill_number: TrackingNumber = Field(description="Carrier's master bill of lading / air waybill / PRO.")
    origin_port: str = Field(description="UN/LOCODE of origin.")
    destination_port: str = Field(description="UN/LOCODE of arrival.")
    destination_warehouse: Warehouse = Field(description="Final delivery warehouse.")
    cargo_ready_date: Date = Field(description="Cargo ready day.")
    estimated_departure_date: Date = Field(description="Planned departure from origin.")
    estimated_arrival_date: Date = Field(description="Planned arrival at the destination port.")
    estimated_delivery_date: Date = Field(description="Planned delivery at the warehouse.")
    legs: list[ShipmentLeg] = Field(min_length=1, description="Legs in order.")
    milestones: list[Milestone] = Field(default_factory=list, description="Recorded milestones, in order.")
    reroutes: list[str] = Field(default_factory=list, description="Reroute history, oldest first.")


class Container(Record):
    """An ocean container on a shipment (Flexport ``/ocean/shipment_containers``)."""

    id: Id("container") = Field(description="Container record id, e.g. CNT-0001.")
    container_number: str = Field(description="ISO 6346 number: owner code, U, 6 digits, check digit.")
    container_type: ContainerType = Field(description="20GP, 40GP or 40HC.")
    seal_number: str = Field(description="Carrier seal.")
    shipment_id: Id("shipment") = Field(description="The shipment.")
    estimated_arrival_date: Date = Field(description="ETA at the destination port.")
    actual_arrival_date: Optional[Date] = Field(default=None, description="Day it was discharged at the port.")
    delivered_on: Optional[Date] = Field(default=None, description="Day it was delivered to the warehouse.")


class InvoiceItem(Record):
    """A line of a freight invoice."""

    name: str = Field(description="Charge name, e.g. Ocean freight.")
    category: Literal["freight", "origin", "destination", "customs"] = Field(description="Charge category.")
    amount: Money = Field(description="Amount (USD).")


class FreightInvoice(Record):
    """A Flexport invoice (``/invoices``) for one shipment's charges."""

    id: Id("invoice") = Field(description="Invoice id, e.g. FIN-0001.")
    name: str = Field(description="Invoice number as printed.")
    shipment_id: Id("shipment") = Field(description="The shipment billed.")
    status: InvoiceStatus = Field(description="outstanding, paid or void.")
    items: list[InvoiceItem] = Field(min_length=1, description="Charges.")
    total: Money = Field(description="Sum of the items (USD).")
    currency_code: Literal["USD"] = Field(default="USD", description="Invoice currency.")
    issued_on: Date = Field(description="Issue day.")
    due_date: Date = Field(description="Payment due day.")


class FreightState(ServiceState):
    """Bookings, shipments, containers and freight invoices."""

    bookings: dict[str, Booking] = Field(default_factory=dict, description="Bookings by id.")
    shipments: dict[str, Shipment] = Field(default_factory=dict, description="Shipments by id.")
    containers: dict[str, Container] = Field(default_factory=dict, description="Containers by id.")
    invoices: dict[str, FreightInvoice] = Field(default_factory=dict, description="Freight invoices by id.")
