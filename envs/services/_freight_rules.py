"""Rules of the freight service: container numbers, ports, lanes, legs and charges.

Container numbers follow ISO 6346 (owner code, category U/J/Z, six-digit
serial, check digit from the letter values 10-38 that skip multiples of 11,
weighted by powers of two, mod 11, mod 10). Transit times and charges are a
fixed tariff, so a confirmed booking's legs, ETA and invoice are
deterministic functions of its lane, mode, dates and cargo.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import string

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._freight_models import (
    MODE_FUNCTION, PORTS, SEA_ONLY_INCOTERMS, STATUS_AFTER, Booking, Container, FreightInvoice, InvoiceItem, Milestone,
    Port, Shipment, ShipmentLeg,
)
from compoworld_gym.errors import InvalidArgument, NotFound, Unprocessable

_LOCODE = re.compile(r"^[A-Z]{2}[A-Z2-9]{3}$")
_CONTAINER = re.compile(r"^[A-Z]{3}[UJZ]\d{7}$")


def _letter_values() -> dict[str, int]:
    values, n = {}, 10
    for ch in string.ascii_uppercase:
        if n % 11 == 0:  # 11, 22 and 33 are skipped by the standard
            n += 1
        values[ch] = n
        n += 1
    return values


_LETTERS = _letter_values()


def iso6346_check_digit(code: str) -> int:
    """The ISO 6346 check digit of the first ten characters of a container number.

    Example:
        >>> iso6346_check_digit("CSQU305438")
        3
    """
    total = sum((_LETTERS[c] if c.isalpha() else int(c)) * 2 ** i for i, c in enumerate(code[:10]))
    return total % 11 % 10


def container_number(owner: str, serial: int) -> str:
    """A valid ISO 6346 number for a four-letter owner/category prefix and a serial (0-999999)."""
    head = f"{owner}{serial:06d}"
    return head + str(iso6346_check_digit(head))


def check_container_number(number: str) -> str:
    """The number in upper case, or an error saying what is wrong with it.

    Raises:
        InvalidArgument: 400, not of the form ``ABCU1234567``.
        Unprocessable: 422, the check digit does not match.
    """
    n = number.strip().upper().replace(" ", "")
    if not _CONTAINER.match(n):
        raise InvalidArgument(f"container number {number!r} must be 3 owner letters, U/J/Z, 6 digits and a check "
                              "digit, e.g. MSCU1234566.")
    want = iso6346_check_digit(n)
    if int(n[10]) != want:
        raise Unprocessable(f"container number {n} fails the ISO 6346 check: its check digit should be {want}.")
    return n


def port(code: str, mode: str, role: str) -> Port:
    """The port of UN/LOCODE ``code``, which must handle ``mode``.

    Raises:
        InvalidArgument: 400, not a UN/LOCODE.
        NotFound: 404, not a location Flexport serves (call list_ports).
        Unprocessable: 422, the location has no terminal for the mode (an ocean booking to an inland city).
    """
    c = code.strip().upper()
    if not _LOCODE.match(c):
        raise InvalidArgument(f"{role} {code!r} is not a UN/LOCODE (2-letter country + 3 characters, e.g. CNSHA).")
    p = PORTS.get(c)
    if p is None:
        raise NotFound(f"{role} {c} is not a location in the Flexport network; call list_ports.")
    if MODE_FUNCTION[mode] not in p.functions:
        kind = {"ocean": "seaport", "air": "airport", "truck": "road terminal"}[mode]
        raise Unprocessable(f"{p.name} ({c}) has no {kind}; choose another {role} for a {mode} booking.")
    return p


def check_lane(mode: str, origin: str, destination: str, incoterm: str) -> tuple[Port, Port]:
    """Validate a booking's lane: known ports for the mode, different places, an incoterm fit for the mode.

    Raises:
        InvalidArgument, NotFound, Unprocessable: see :func:`port`; 422 also for a sea-only incoterm
        (FAS, FOB, CFR, CIF) on an air or truck booking, or origin equal to destination.
    """
    o, d = port(origin, mode, "origin_port"), port(destination, mode, "destination_port")
    if o.unlocode == d.unlocode:
        raise Unprocessable("origin_port and destination_port are the same place.")
    if d.country != "US":
        raise Unprocessable(f"{d.name} is not a US location: this account books imports into the US only.")
    if mode != "ocean" and incoterm in SEA_ONLY_INCOTERMS:
        raise Unprocessable(f"{incoterm} is a sea-only Incoterm; use FCA, CPT, CIP, DAP, DPU or DDP for {mode}.")
    return o, d


#: Ocean transit days by (origin region, destination region).
_OCEAN_DAYS = {("asia", "us_west"): 16, ("asia", "us_east"): 32, ("india", "us_east"): 26,
               ("india", "us_west"): 30, ("europe", "us_east"): 11, ("europe", "us_west"): 25}
#: Days from cargo ready to departure by mode (pickup, export clearance, cut-off).
DEPARTURE_LEAD = {"ocean": 4, "air": 1, "truck": 1}
#: Region of each delivery warehouse (Newark, Reno, Columbus).
WAREHOUSE_REGION = {"WH-EAST": "us_east", "WH-WEST": "us_west", "WH-CENT": "us_central"}
WAREHOUSE_CITY = {"WH-EAST": "USEWR", "WH-WEST": "USRNO", "WH-CENT": "USCMH"}
CARRIERS = {"ocean": ("Maersk", "MSC", "CMA CGM", "Hapag-Lloyd"), "air": ("Cathay Cargo", "Lufthansa Cargo"),
            "truck": ("J.B. Hunt", "Estafeta")}


def main_transit_days(mode: str, origin: Port, destination: Port) -> int:
    """Days of the main carriage from origin to destination port."""
    if mode == "air":
        return 3
    if mode == "truck":
        return 2 if origin.region == "mexico" else 4
    return _OCEAN_DAYS.get((origin.region, destination.region), 28)


def delivery_days(destination: str, warehouse: str) -> int:
    """Days of final delivery by truck from the arrival port to the warehouse."""
    if WAREHOUSE_CITY[warehouse] == destination:
        return 1
    return 2 if PORTS[destination].region == WAREHOUSE_REGION[warehouse] else 5


def plan_legs(mode: str, origin: str, destination: str, warehouse: str, cargo_ready: dt.date,
              carrier: str) -> list[ShipmentLeg]:
    """The two legs of a shipment confirmed for a lane: main carriage, then final delivery by truck."""
    depart = cargo_ready + dt.timedelta(days=DEPARTURE_LEAD[mode])
    arrive = depart + dt.timedelta(days=main_transit_days(mode, PORTS[origin], PORTS[destination]))
    deliver = arrive + dt.timedelta(days=delivery_days(destination, warehouse))
    return [ShipmentLeg(origin=origin, destination=destination, transportation_mode=mode, carrier_name=carrier,
                        estimated_departure_date=depart, estimated_arrival_date=arrive),
            ShipmentLeg(origin=destination, destination=warehouse, transportation_mode="truck",
                        carrier_name="Flexport Trucking", estimated_departure_date=arrive,
                        estimated_arrival_date=deliver)]


def master_bill(mode: str, carrier: str, n: int) -> str:
    """The carrier's master bill number for shipment number ``n``: SCAC + 9 digits, AWB or PRO."""
    if mode == "air":
        prefix = {"Cathay Cargo": "160", "Lufthansa Cargo": "020"}.get(carrier, "176")
        return f"{prefix}-{(n * 7919) % 10**8:08d}"
    if mode == "truck":
        return f"PRO{(n * 104729) % 10**9:09d}"
    scac = {"Maersk": "MAEU", "MSC": "MSCU", "CMA CGM": "CMDU", "Hapag-Lloyd": "HLCU"}.get(carrier, "MAEU")
    return f"{scac}{(n * 2654435761) % 10**9:09d}"


def charges(b: Booking) -> list[InvoiceItem]:
    """The tariff charges of a booking (USD): main freight, origin handling, delivery, customs brokerage."""
    if b.transportation_mode == "ocean":
        freight = max(1200.0, 95.0 * b.total_volume_cbm)
        delivery = 450.0
    elif b.transportation_mode == "air":
        chargeable = max(b.total_weight_kg, b.total_volume_cbm * 167)  # IATA volumetric kg
        freight, delivery = 4.8 * chargeable, 220.0
    else:
        freight, delivery = max(900.0, 2.1 * b.total_weight_kg), 0.0
    items = [InvoiceItem(name=f"{b.transportation_mode.capitalize()} freight", category="freight",
                         amount=money(freight)),
             InvoiceItem(name="Origin handling", category="origin", amount=185.0)]
    if delivery:
        items.append(InvoiceItem(name="Destination delivery", category="destination", amount=delivery))
    if b.wants_import_customs_service:
        items.append(InvoiceItem(name="Customs brokerage", category="customs", amount=125.0))
    return items


def containers_needed(volume_cbm: float, capacity_cbm: float) -> int:
    """Containers of ``capacity_cbm`` needed for ``volume_cbm`` of cargo (at 85% fill)."""
    return max(1, math.ceil(volume_cbm / (capacity_cbm * 0.85)))


def make_shipment(b: Booking, sid: str) -> Shipment:
    """The shipment a booking is confirmed into, under id ``sid`` (``FLX-0001``): the carrier rotates
    with the shipment number, the legs and ETAs follow the lane's tariff transit times."""
    n = int(sid.split("-")[1])
    carrier = CARRIERS[b.transportation_mode][n % len(CARRIERS[b.transportation_mode])]
    legs = plan_legs(b.transportation_mode, b.origin_port, b.destination_port, b.destination_warehouse,
                     b.cargo_ready_date, carrier)
    return Shipment(id=sid, name=b.name, booking_id=b.id, status="booked", transportation_mode=b.transportation_mode,
                    incoterm=b.incoterm, shipper_name=b.shipper_name, purchase_order_ids=list(b.purchase_order_ids),
                    master_bill_number=master_bill(b.transportation_mode, carrier, n), origin_port=b.origin_port,
                    destination_port=b.destination_port, destination_warehouse=b.destination_warehouse,
                    cargo_ready_date=b.cargo_ready_date, estimated_departure_date=legs[0].estimated_departure_date,
                    estimated_arrival_date=legs[0].estimated_arrival_date,
                    estimated_delivery_date=legs[-1].estimated_arrival_date, legs=legs)


def make_invoice(b: Booking, s: Shipment, invoice_id: str, issued_on: dt.date) -> FreightInvoice:
    """The outstanding tariff invoice of a confirmed booking's shipment, due 30 days after issue."""
    items = charges(b)
    n = int(s.id.split("-")[1])
    return FreightInvoice(id=invoice_id, name=f"INV-FX{n:06d}", shipment_id=s.id, status="outstanding", items=items,
                          total=money(sum(i.amount for i in items)), issued_on=issued_on,
                          due_date=issued_on + dt.timedelta(days=30))


def apply_milestone(s: Shipment, boxes: list[Container], milestone: str, day: dt.date, at: dt.datetime) -> None:
    """Record a (validated) milestone on ``s``: actual leg dates, container arrival and delivery, status."""
    main, final = s.legs[0], s.legs[-1]
    where = {"departed": s.origin_port, "arrived": s.destination_port, "customs_cleared": s.destination_port,
             "delivered": s.destination_warehouse}[milestone]
    if milestone == "departed":
        main.actual_departure_date = day
    elif milestone == "arrived":
        main.actual_arrival_date = day
        s.estimated_delivery_date = day + dt.timedelta(days=delivery_days(s.destination_port, s.destination_warehouse))
        final.estimated_arrival_date = s.estimated_delivery_date
        for c in boxes:
            c.actual_arrival_date = day
    elif milestone == "customs_cleared":
        final.actual_departure_date = day
    else:
        final.actual_arrival_date = day
        for c in boxes:
            c.delivered_on = day
    s.milestones.append(Milestone(name=milestone, occurred_on=day, location=where, recorded_at=at))
    s.status = STATUS_AFTER[milestone]
