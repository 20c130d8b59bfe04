"""Seed data of the freight service: procurement's purchase orders, booked and shipped.

The seeded state is built on procurement's own seeded state for the same
seed (:func:`seed_for`), so a booking ships a real purchase order (PO-0005,
PO-0006, PO-0007, PO-0009 are the ones on order or received, PO-0004 is
approved, PO-0010 cancelled) from that PO's vendor, with its SKUs, to its
``ship_to`` warehouse; bookings without a PO carry a vendor's samples. Every
stage of the lifecycle is present: submitted (one with a cargo ready date
already past), cancelled, booked, in transit, arrived, customs cleared and
delivered, by ocean, air and truck.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker

from compoworld_gym.envs.services._blocks import seed_id
from compoworld_gym.envs.services._commerce import PRODUCTS_BY_SKU
from compoworld_gym.envs.services._freight_models import (
    CONTAINER_SPECS, MILESTONES, PORTS, Booking, Container, FreightState,
)
from compoworld_gym.envs.services._freight_rules import (
    DEPARTURE_LEAD, apply_milestone, container_number, containers_needed, delivery_days, main_transit_days,
    make_invoice, make_shipment,
)
from compoworld_gym.envs.services.procurement import Procurement, ProcurementState

#: The consignee of every booking: the company importing the goods.
CONSIGNEE = "CompoWorld Retail Inc."
#: Ocean / air arrival port by delivery warehouse.
ARRIVAL_PORT = {"ocean": {"WH-EAST": "USNYC", "WH-WEST": "USOAK", "WH-CENT": "USSAV"},
                "air": {"WH-EAST": "USEWR", "WH-WEST": "USLAX", "WH-CENT": "USCHI"},
                "truck": {"WH-EAST": "USLRD", "WH-WEST": "USLRD", "WH-CENT": "USLRD"}}
#: Container owner codes (ISO 6346 prefix, category U) of each ocean carrier.
OWNER_CODES = {"Maersk": "MSKU", "MSC": "MSCU", "CMA CGM": "CMAU", "Hapag-Lloyd": "HLXU"}
#: (purchase order or None, stage, mode, origin, incoterm, day offset): the offset is the arrival day
#: at the destination port for shipped stages, the cargo ready day otherwise (relative to today).
_PLAN = (
    ("PO-0007", "delivered", "ocean", "CNYTN", "FOB", -12),
    ("PO-0006", "customs_cleared", "ocean", "VNSGN", "FOB", -2),
    ("PO-0005", "departed", "ocean", "CNSHA", "CIF", 3),
    ("PO-0009", "booked", "ocean", "KRPUS", "FOB", 2),
    ("PO-0004", "submitted", "ocean", "DEHAM", "FCA", 9),
    (None, "submitted", "air", "HKHKG", "FCA", -3),
    ("PO-0010", "cancelled", "ocean", "INNSA", "FOB", 5),
    (None, "arrived", "air", "TWKHH", "CPT", -1),
    (None, "departed", "truck", "MXMTY", "DAP", 1),
)
_SAMPLE_SKUS = {"electronics": ("WC-HD-12", "MS-WL-02"), "furniture": ("LP-LED-07", "CH-ERG-05"),
                "stationery": ("NB-A5-08", "PN-GEL-09"), "accessories": ("BP-LAP-10", "CB-HDMI-11")}
_FAKER = Faker("en_US")


def seed_for(seed: int, today: dt.date) -> FreightState:
    """The seeded state for ``seed``: on procurement's seeded state for the same seed."""
    source = Procurement.seed_state(seed, today)
    rng = random.Random(f"freight:{seed}")
    _FAKER.seed_instance(rng.getrandbits(32))
    return build_state(_FAKER, rng, today, source)


def _cargo_ready(mode: str, origin: str, dest: str, stage: str, offset: int, today: dt.date) -> dt.date:
    if stage in ("submitted", "cancelled", "booked"):
        return today + dt.timedelta(days=offset)
    transit = main_transit_days(mode, PORTS[origin], PORTS[dest]) + DEPARTURE_LEAD[mode]
    return today + dt.timedelta(days=offset - transit)


def _milestone_days(stage: str, s, today: dt.date) -> list[tuple[str, dt.date]]:
    """The milestones a seeded shipment at ``stage`` has been through, with their days (none after today)."""
    if stage in ("booked", "submitted", "cancelled"):
        return []
    arrive = s.estimated_arrival_date
    days = {"departed": s.estimated_departure_date, "arrived": arrive,
            "customs_cleared": arrive + dt.timedelta(days=1),
            "delivered": arrive + dt.timedelta(days=1 + delivery_days(s.destination_port, s.destination_warehouse))}
    upto = MILESTONES.index(stage) + 1
    return [(m, min(days[m], today)) for m in MILESTONES[:upto]]


def _cargo(skus: list[str], units: list[int], mode: str) -> tuple[float, float, str]:
    weight = sum(PRODUCTS_BY_SKU[s].weight_kg * u for s, u in zip(skus, units)) if skus else 180.0
    weight = round(max(weight, 40.0), 1)
    volume = round(weight / (260.0 if mode == "air" else 150.0) + 1.5, 1)
    names = ", ".join(PRODUCTS_BY_SKU[s].name for s in skus) or "Product samples"
    return weight, volume, names


def build_state(fake: Faker, rng: random.Random, today: dt.date, source: Optional[ProcurementState]) -> FreightState:
    """Nine bookings of procurement's purchase orders (``source``; seeded from ``rng`` when None).

    Args:
        fake: seeded Faker (seal numbers' owners, spare vendor names).
        rng: seeded random stream (container serials, seals).
        today: the task's date.
        source: procurement's seeded state for the same seed.
    """
    source = source or Procurement.build_seed_state(fake, rng, today)
    state = FreightState()
    vendors = [v for v in source.vendors.values() if v.active]
    for n, (po_id, stage, mode, origin, incoterm, offset) in enumerate(_PLAN):
        po = source.purchase_orders.get(po_id or "")
        vendor = source.vendors[po.vendor_id] if po else vendors[n % len(vendors)]
        warehouse = po.ship_to if po else ("WH-WEST", "WH-CENT")[n % 2]
        skus = [ln.sku for ln in po.lines] if po else list(_SAMPLE_SKUS.get(vendor.category, ("WC-HD-12",)))
        units = [ln.quantity for ln in po.lines] if po else [rng.choice((20, 40, 60)) for _ in skus]
        weight, volume, what = _cargo(skus, units, mode)
        dest = ARRIVAL_PORT[mode][warehouse]
        ready = _cargo_ready(mode, origin, dest, stage, offset, today)
        b = Booking(id=seed_id(state, "FB"), name=f"{vendor.name} {origin}-{dest}", status="submitted",
                    transportation_mode=mode, incoterm=incoterm, shipper_name=vendor.name, consignee_name=CONSIGNEE,
                    origin_port=origin, destination_port=dest, destination_warehouse=warehouse,
                    cargo_ready_date=ready, purchase_order_ids=[po.id] if po else [], skus=skus,
                    cargo_description=what, total_weight_kg=weight, total_volume_cbm=volume,
                    wants_import_customs_service=mode != "truck" or n % 2 == 0,
                    created_on=min(today, ready) - dt.timedelta(days=10))
        state.bookings[b.id] = b
        if stage == "cancelled":
            b.status, b.cancel_reason = "cancelled", "Purchase order cancelled by procurement."
        if stage in ("submitted", "cancelled"):
            continue
        _ship(state, b, stage, rng, today)
    return state


def _ship(state: FreightState, b: Booking, stage: str, rng: random.Random, today: dt.date) -> None:
    """Confirm a seeded booking into its shipment, containers, invoice and milestones."""
    s = make_shipment(b, seed_id(state, "FLX"))
    b.status, b.shipment_id = "confirmed", s.id
    b.confirmed_on = min(today, b.cargo_ready_date) - dt.timedelta(days=7)
    state.shipments[s.id] = s
    boxes: list[Container] = []
    if b.transportation_mode == "ocean":
        ctype = "20GP" if b.total_volume_cbm < 25 else "40HC"
        owner = OWNER_CODES.get(s.legs[0].carrier_name, "MSKU")
        for _ in range(containers_needed(b.total_volume_cbm, CONTAINER_SPECS[ctype][0])):
            c = Container(id=seed_id(state, "CNT"), container_number=container_number(owner, rng.randrange(10**6)),
                          container_type=ctype, seal_number=f"{owner[:2]}{rng.randint(100000, 999999)}",
                          shipment_id=s.id, estimated_arrival_date=s.estimated_arrival_date)
            state.containers[c.id] = c
            boxes.append(c)
    inv = make_invoice(b, s, seed_id(state, "FIN"), b.confirmed_on)
    state.invoices[inv.id] = inv
    for m, day in _milestone_days(stage, s, today):
        apply_milestone(s, boxes, m, day, dt.datetime.combine(day, dt.time(10, 0)))
    if s.status == "delivered":
        inv.status = "paid"
    if stage == "arrived":  # an invoice keyed twice by the forwarder, voided
        dup = make_invoice(b, s, seed_id(state, "FIN"), b.confirmed_on)
        dup.status = "void"
        state.invoices[dup.id] = dup
