"""Freight forwarding: bookings, shipments with legs and milestones, ocean containers, freight invoices.

No freight-forwarding server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Flexport API v2:
``/bookings`` (``transportation_mode`` ocean/air/truck, ``incoterm``,
``cargo_ready_date``, ``origin_port``/``destination_port`` as UN/LOCODEs,
``shipper``/``consignee``, ``purchase_orders``, ``wants_import_customs_service``,
``shipment_id`` once confirmed), ``/shipments`` (``status``, ``legs`` with
estimated/actual departure and arrival dates, ``master_bill_number``,
shipment events as ``milestones``), ``/ocean/shipment_containers``
(``container_number``, ``container_type``, ``seal_number``) and ``/invoices``
(``status`` outstanding/paid/void, ``items``, ``total``, ``due_date``).
Bookings ship procurement's purchase orders from its vendors into the
company's warehouses (WH-EAST Newark, WH-WEST Reno, WH-CENT Columbus, where
``shipping`` sends parcels from); their shipments' bill numbers are what
``customs`` and ``warehouse`` track the freight by.

Rules of the real product: a booking is confirmed only while its cargo ready
date is still ahead; milestones are recorded in order (departed, arrived,
customs cleared, delivered), never in the future nor before the previous
one; an ocean shipment sails only with its containers, whose numbers must
pass the ISO 6346 check digit; a delivered shipment cannot be rerouted; a
purchase order is on one live booking at a time; sea-only Incoterms (FAS,
FOB, CFR, CIF) are refused for air and truck. Left out: quotes, documents,
commercial invoices and webhooks (no deterministic use in a task).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, Id, Sku, TrackingNumber
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._freight_models import (
    CONTAINER_SPECS, MILESTONES, MODE_FUNCTION, PORTS, Booking, BookingStatus, Container,
    ContainerType, FreightInvoice, FreightState, Incoterm, InvoiceStatus, MilestoneName, Mode, Shipment,
    ShipmentStatus, Warehouse,
)
from compoworld_gym.envs.services._freight_rules import (
    apply_milestone, check_container_number, check_lane, delivery_days, make_invoice, make_shipment,
)
from compoworld_gym.envs.services._freight_seed import CONSIGNEE, build_state, seed_for
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Service, tool


class Freight(Service):
    """Flexport-style freight forwarding for the company's inbound purchase orders."""

    name = "freight"
    description = ("Freight forwarding (Flexport): bookings of purchase orders on ocean, air or truck lanes, "
                   "shipments with legs and milestones, ocean containers and freight invoices.")
    domain = "logistics"
    spec_source = None
    State = FreightState

    # ---------------------------------------------------------------- helpers
    def _booking(self, booking_id: str) -> Booking:
        return self.lookup(self.state.bookings, booking_id, "booking")

    def _shipment(self, shipment_id: str) -> Shipment:
        return self.lookup(self.state.shipments, shipment_id, "shipment")

    def _containers_of(self, sid: str) -> list[Container]:
        return [c for c in self.state.containers.values() if c.shipment_id == sid]

    def _view_booking(self, b: Booking) -> dict:
        s = self.state.shipments.get(b.shipment_id or "")
        return {**b.model_dump(), "shipment_status": s.status if s else None,
                "master_bill_number": s.master_bill_number if s else None,
                "estimated_arrival_date": s.estimated_arrival_date if s else None,
                "estimated_delivery_date": s.estimated_delivery_date if s else None,
                "container_numbers": [c.container_number for c in self._containers_of(s.id)] if s else []}

    def _view_shipment(self, s: Shipment) -> dict:
        done = len(s.milestones)
        return {**s.model_dump(), "next_milestone": MILESTONES[done] if done < len(MILESTONES) else None,
                "containers": [c.model_dump() for c in self._containers_of(s.id)]}

    def _live_booking_of(self, po_id: str) -> Optional[Booking]:
        """The booking still moving ``po_id`` (a cancelled one, or one delivered in full, is done)."""
        for b in self.state.bookings.values():
            s = self.state.shipments.get(b.shipment_id or "")
            if b.status != "cancelled" and po_id in b.purchase_order_ids and (s is None or s.status != "delivered"):
                return b
        return None

    def _check_ready(self, day: dt.date, action: str) -> None:
        if day <= self.today:
            raise Unprocessable(f"cargo_ready_date {day} is not after today ({self.today}); {action} needs a "
                                "future cargo ready date: update the booking with the supplier's new date.")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_ports(self, query: Optional[str] = None, transportation_mode: Optional[Mode] = None) -> list[dict]:
        """Locations of the Flexport network by UN/LOCODE, optionally by name/code or by what they handle.

        Args:
            query: part of the name or UN/LOCODE (case-insensitive), e.g. 'shanghai'.
            transportation_mode: only locations with a seaport (ocean), airport (air) or road terminal (truck).
        """
        q = (query or "").lower()
        return [{"unlocode": p.unlocode, "name": p.name, "country": p.country,
                 "handles": [m for m, f in MODE_FUNCTION.items() if f in p.functions]}
                for p in PORTS.values() if (q in p.name.lower() or q in p.unlocode.lower())
                and (transportation_mode is None or MODE_FUNCTION[transportation_mode] in p.functions)]

    @tool(read_only=True, returns=list[Booking])
    def list_bookings(self, status: Optional[BookingStatus] = None,
                      purchase_order_id: Optional[Id("purchase_order")] = None,
                      shipper_name: Optional[CompanyName] = None,
                      limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List bookings by status, purchase order or shipper, with their shipment's bill number and ETA.

        Args:
            status: submitted, confirmed or cancelled.
            purchase_order_id: only bookings shipping this purchase order, e.g. PO-0005.
            shipper_name: the supplier (case-insensitive).
            limit: maximum number of bookings (1-200).
        """
        po = (lambda b: purchase_order_id.upper() in b.purchase_order_ids) if purchase_order_id else None
        rows = select(self.state.bookings.values(), eq("status", status), po, ieq("shipper_name", shipper_name),
                      limit=limit)
        return [self._view_booking(b) for b in rows]

    @tool(read_only=True, returns=Booking)
    def get_booking(self, booking_id: Id("freight_booking")) -> dict:
        """Get one booking with its shipment's status, master bill number, ETA and containers.

        Args:
            booking_id: the booking id, e.g. FB-0003.
        """
        return self._view_booking(self._booking(booking_id))

    @tool(read_only=True, returns=list[Shipment])
    def list_shipments(self, status: Optional[ShipmentStatus] = None,
                       purchase_order_id: Optional[Id("purchase_order")] = None,
                       master_bill_number: Optional[TrackingNumber] = None,
                       transportation_mode: Optional[Mode] = None,
                       limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List shipments (without legs) by status, purchase order, master bill number or mode.

        Args:
            status: booked, in_transit, arrived, customs_cleared or delivered.
            purchase_order_id: only shipments carrying this purchase order.
            master_bill_number: the carrier's bill of lading / air waybill / PRO number (case-insensitive).
            transportation_mode: ocean, air or truck.
            limit: maximum number of shipments (1-200).
        """
        po = (lambda s: purchase_order_id.upper() in s.purchase_order_ids) if purchase_order_id else None
        rows = select(self.state.shipments.values(), eq("status", status), po,
                      ieq("master_bill_number", master_bill_number), eq("transportation_mode", transportation_mode),
                      limit=limit)
        return [s.model_dump(exclude={"legs", "milestones"}) for s in rows]

    @tool(read_only=True, returns=Shipment)
    def get_shipment(self, shipment_id: Id("shipment")) -> dict:
        """Get one shipment with its legs, milestones, containers and the next milestone due.

        Args:
            shipment_id: the shipment id, e.g. FLX-0002.
        """
        return self._view_shipment(self._shipment(shipment_id))

    @tool(read_only=True, returns=list[Container])
    def list_containers(self, shipment_id: Optional[Id("shipment")] = None,
                        container_number: Optional[str] = None) -> list[dict]:
        """List ocean containers, by shipment or container number.

        Args:
            shipment_id: only this shipment's containers.
            container_number: one container number, e.g. MSCU1234566.
        """
        num = container_number.upper().replace(" ", "") if container_number else None
        return [c.model_dump() for c in select(self.state.containers.values(), eq("shipment_id", shipment_id),
                                               eq("container_number", num))]

    @tool(read_only=True)
    def validate_container_number(self, container_number: str = Field(min_length=1, max_length=20)) -> dict:
        """Check a container number against ISO 6346 (format and check digit) without changing anything.

        Args:
            container_number: e.g. CSQU3054383.
        """
        return {"container_number": check_container_number(container_number), "valid": True}

    @tool(read_only=True, returns=list[FreightInvoice])
    def list_freight_invoices(self, shipment_id: Optional[Id("shipment")] = None,
                              status: Optional[InvoiceStatus] = None) -> list[dict]:
        """List Flexport's freight invoices by shipment or status.

        Args:
            shipment_id: only this shipment's invoices.
            status: outstanding, paid or void.
        """
        return [i.model_dump() for i in select(self.state.invoices.values(), eq("shipment_id", shipment_id),
                                               eq("status", status))]

    @tool(read_only=True, returns=FreightInvoice)
    def get_freight_invoice(self, invoice_id: Id("invoice")) -> dict:
        """Get one freight invoice with its charges.

        Args:
            invoice_id: the invoice id, e.g. FIN-0002.
        """
        return self.lookup(self.state.invoices, invoice_id, "freight invoice").model_dump()

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Booking)
    def create_booking(self, transportation_mode: Mode, origin_port: str = Field(min_length=5, max_length=5),
                       destination_port: str = Field(min_length=5, max_length=5),
                       cargo_ready_date: Date = Field(), incoterm: Incoterm = "FOB",
                       shipper_name: CompanyName = Field(min_length=2, max_length=120),
                       destination_warehouse: Warehouse = "WH-EAST",
                       cargo_description: str = Field(min_length=3, max_length=200),
                       total_weight_kg: float = Field(gt=0, le=500000), total_volume_cbm: float = Field(gt=0, le=2000),
                       purchase_order_ids: list[Id("purchase_order")] = Field(default_factory=list, max_length=10),
                       skus: list[Sku] = Field(default_factory=list, max_length=30),
                       wants_import_customs_service: bool = True) -> dict:
        """Submit a booking for cargo on a lane; Flexport confirms it later (confirm_booking).

        Args:
            transportation_mode: ocean, air or truck.
            origin_port: UN/LOCODE of pickup, e.g. CNSHA (see list_ports).
            destination_port: UN/LOCODE of arrival in the US, e.g. USNYC.
            cargo_ready_date: day the supplier has the cargo ready (YYYY-MM-DD), not before today.
            incoterm: Incoterms 2020 rule; FAS/FOB/CFR/CIF only for ocean.
            shipper_name: the supplier shipping the goods.
            destination_warehouse: WH-EAST, WH-WEST or WH-CENT.
            cargo_description: what the cargo is.
            total_weight_kg: gross weight in kg.
            total_volume_cbm: volume in cubic metres.
            purchase_order_ids: purchase orders shipped, each on one live booking at a time (a delivered one is done).
            skus: SKUs of the goods.
            wants_import_customs_service: Flexport files the US import entry.
        """
        o, d = check_lane(transportation_mode, origin_port, destination_port, incoterm)
        if cargo_ready_date < self.today:
            raise Unprocessable(f"cargo_ready_date {cargo_ready_date} is in the past; give the supplier's date.")
        pos = list(dict.fromkeys(p.upper() for p in purchase_order_ids))
        for po in pos:
            other = self._live_booking_of(po)
            if other is not None:
                raise Conflict(f"purchase order {po} is already on live booking {other.id} ({other.status}).")
        b = Booking(id=self.new_id("FB"), name=f"{shipper_name} {o.unlocode}-{d.unlocode}", status="submitted",
                    transportation_mode=transportation_mode, incoterm=incoterm, shipper_name=shipper_name,
                    consignee_name=CONSIGNEE, origin_port=o.unlocode, destination_port=d.unlocode,
                    destination_warehouse=destination_warehouse, cargo_ready_date=cargo_ready_date,
                    purchase_order_ids=pos, skus=[s.upper() for s in skus], cargo_description=cargo_description,
                    total_weight_kg=total_weight_kg, total_volume_cbm=total_volume_cbm,
                    wants_import_customs_service=wants_import_customs_service, created_on=self.today)
        self.state.bookings[b.id] = b
        return self._view_booking(b)

    @tool(read_only=False, returns=Booking)
    def update_booking(self, booking_id: Id("freight_booking"), cargo_ready_date: Optional[Date] = None,
                       destination_warehouse: Optional[Warehouse] = None,
                       total_weight_kg: Optional[float] = Field(default=None, gt=0, le=500000),
                       total_volume_cbm: Optional[float] = Field(default=None, gt=0, le=2000)) -> dict:
        """Change a submitted booking (a confirmed one's shipment is rerouted with reroute_shipment instead).

        Args:
            booking_id: the submitted booking.
            cargo_ready_date: the supplier's new cargo ready date, not before today.
            destination_warehouse: WH-EAST, WH-WEST or WH-CENT.
            total_weight_kg: new gross weight, kg.
            total_volume_cbm: new volume, cubic metres.
        """
        b = self._booking(booking_id)
        if b.status != "submitted":
            raise Conflict(f"booking {b.id} is {b.status}; only a submitted booking can be changed"
                           + (f" (reroute shipment {b.shipment_id} instead)." if b.shipment_id else "."))
        if cargo_ready_date is not None and cargo_ready_date < self.today:
            raise Unprocessable(f"cargo_ready_date {cargo_ready_date} is in the past.")
        for field, value in (("cargo_ready_date", cargo_ready_date), ("destination_warehouse", destination_warehouse),
                             ("total_weight_kg", total_weight_kg), ("total_volume_cbm", total_volume_cbm)):
            if value is not None:
                setattr(b, field, value)
        return self._view_booking(b)

    @tool(read_only=False, returns=Booking)
    def confirm_booking(self, booking_id: Id("freight_booking")) -> dict:
        """Confirm a submitted booking: its shipment is booked with a carrier (legs, ETA, master bill) and invoiced.

        Args:
            booking_id: the submitted booking; its cargo ready date must still be ahead (422 otherwise).
        """
        b = self._booking(booking_id)
        if b.status != "submitted":
            raise Conflict(f"booking {b.id} is {b.status}; only a submitted booking can be confirmed.")
        self._check_ready(b.cargo_ready_date, "confirmation")
        s = make_shipment(b, self.new_id("FLX"))
        inv = make_invoice(b, s, self.new_id("FIN"), self.today)
        b.status, b.shipment_id, b.confirmed_on = "confirmed", s.id, self.today
        self.state.shipments[s.id] = s
        self.state.invoices[inv.id] = inv
        return self._view_booking(b)

    @tool(read_only=False, destructive=True, returns=Booking)
    def cancel_booking(self, booking_id: Id("freight_booking"), reason: str = Field(min_length=3, max_length=300)
                       ) -> dict:
        """Cancel a submitted booking (a confirmed one is booked with the carrier and cannot be cancelled here).

        Args:
            booking_id: the submitted booking.
            reason: why.
        """
        b = self._booking(booking_id)
        if b.status != "submitted":
            raise Conflict(f"booking {b.id} is {b.status}; only a submitted booking can be cancelled.")
        b.status, b.cancel_reason = "cancelled", reason
        return self._view_booking(b)

    @tool(read_only=False, returns=Shipment)
    def record_milestone(self, shipment_id: Id("shipment"), milestone: MilestoneName,
                         occurred_on: Optional[Date] = None) -> dict:
        """Record the shipment's next milestone (departed, arrived, customs_cleared, delivered), in that order.

        Args:
            shipment_id: the shipment.
            milestone: must be the shipment's next milestone (see get_shipment).
            occurred_on: the day it happened (default today); not in the future nor before the previous one.
        """
        s = self._shipment(shipment_id)
        done = len(s.milestones)
        if done == len(MILESTONES):
            raise Conflict(f"shipment {s.id} is delivered; it has no milestone left.")
        if milestone != MILESTONES[done]:
            raise Conflict(f"shipment {s.id}'s next milestone is {MILESTONES[done]}; milestones are recorded in order "
                           f"({', '.join(MILESTONES)}).")
        day = occurred_on or self.today
        if day > self.today:
            raise Unprocessable(f"{milestone} on {day} is in the future; record it when it happens.")
        previous = s.milestones[-1].occurred_on if s.milestones else s.cargo_ready_date
        if day < previous:
            raise Unprocessable(f"{milestone} on {day} is before the previous event ({previous}).")
        boxes = self._containers_of(s.id)
        if milestone == "departed" and s.transportation_mode == "ocean" and not boxes:
            raise Unprocessable(f"ocean shipment {s.id} has no containers; add them (add_container) before it sails.")
        apply_milestone(s, boxes, milestone, day, self.now())
        return self._view_shipment(s)

    @tool(read_only=False, returns=Shipment)
    def reroute_shipment(self, shipment_id: Id("shipment"), destination_warehouse: Warehouse,
                         reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Deliver a shipment to another warehouse (not once delivered); its delivery leg and ETA are re-planned.

        Args:
            shipment_id: the shipment (not delivered).
            destination_warehouse: WH-EAST, WH-WEST or WH-CENT.
            reason: why it is rerouted.
        """
        s = self._shipment(shipment_id)
        if s.status == "delivered":
            raise Conflict(f"shipment {s.id} was delivered to {s.destination_warehouse}; a delivered shipment "
                           "cannot be rerouted.")
        if s.destination_warehouse == destination_warehouse:
            raise Conflict(f"shipment {s.id} already goes to {destination_warehouse}.")
        arrival = s.legs[0].actual_arrival_date or s.estimated_arrival_date
        s.reroutes.append(f"{self.today}: {s.destination_warehouse} -> {destination_warehouse}: {reason}")
        s.destination_warehouse = s.legs[-1].destination = destination_warehouse
        s.estimated_delivery_date = arrival + dt.timedelta(days=delivery_days(s.destination_port,
                                                                              destination_warehouse))
        s.legs[-1].estimated_arrival_date = s.estimated_delivery_date
        self.state.bookings[s.booking_id].destination_warehouse = destination_warehouse
        return self._view_shipment(s)

    @tool(read_only=False, returns=Container)
    def add_container(self, shipment_id: Id("shipment"), container_number: str = Field(min_length=11, max_length=14),
                      container_type: ContainerType = "40HC", seal_number: str = Field(min_length=4, max_length=20)
                      ) -> dict:
        """Add a container to a booked ocean shipment (before it sails); the number must pass ISO 6346.

        Args:
            shipment_id: a booked ocean shipment.
            container_number: e.g. MSCU1234566 (owner code, U, 6 digits, check digit).
            container_type: 20GP, 40GP or 40HC.
            seal_number: the carrier's seal number.
        """
        s = self._shipment(shipment_id)
        if s.transportation_mode != "ocean":
            raise Unprocessable(f"shipment {s.id} goes by {s.transportation_mode}; only ocean shipments have containers.")
        if s.status != "booked":
            raise Conflict(f"shipment {s.id} is {s.status}; containers are fixed once it has sailed.")
        number = check_container_number(container_number)
        clash = next((c for c in self.state.containers.values() if c.container_number == number
                      and self.state.shipments[c.shipment_id].status != "delivered"), None)
        if clash is not None:
            raise Conflict(f"container {number} is already on shipment {clash.shipment_id}.")
        capacity, _ = CONTAINER_SPECS[container_type]
        c = Container(id=self.new_id("CNT"), container_number=number, container_type=container_type,
                      seal_number=seal_number.upper(), shipment_id=s.id, estimated_arrival_date=s.estimated_arrival_date)
        self.state.containers[c.id] = c
        return {**c.model_dump(), "capacity_cbm": capacity}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> FreightState:
        """Seeded state on procurement's purchase orders and vendors for the same seed."""
        return seed_for(seed, today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> FreightState:
        return build_state(fake, rng, today, None)


__all__ = ["Freight"]
