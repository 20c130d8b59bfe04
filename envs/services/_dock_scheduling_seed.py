"""Seed data of the dock scheduling service: the three DCs' doors and their appointments.

Warehouses are the WMS's (``_warehouse_seed.WAREHOUSES``: WH-EAST East
Coast DC, WH-WEST West Coast DC, WH-CENT Central DC). Inbound appointments
deliver the WMS's inbound shipments for the same seed: the reference number
is the shipment's purchase order, a custom field names the inbound shipment
and, where freight ships that PO, the freight booking. Every status is
present: completed, in progress at a door today, scheduled (one today,
awaiting check-in), requested, cancelled with its reason, and a no-show.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from compoworld_gym.envs.services._blocks import seed_id
from compoworld_gym.envs.services._dock_scheduling_models import (
    TIMELINE_KEY, Appointment, CustomField, Dock, DockSchedulingState, DockWarehouse, LoadType, OpenHours,
)
from compoworld_gym.envs.services._freight_models import FreightState
from compoworld_gym.envs.services._warehouse_models import WarehouseState
from compoworld_gym.envs.services._warehouse_seed import WAREHOUSES

#: Trucking carriers: (name, dispatch email).
CARRIERS = (("J.B. Hunt Transport", "dispatch@jbhunt.example"), ("Schneider National", "loads@schneider.example"),
            ("Old Dominion Freight Line", "dock@odfl.example"), ("Werner Enterprises", "appts@werner.example"),
            ("XPO Logistics", "scheduling@xpo.example"))
_TZ = {"WH-EAST": "America/New_York", "WH-WEST": "America/Los_Angeles", "WH-CENT": "America/New_York"}
_LEAD = {"WH-EAST": 24, "WH-WEST": 12, "WH-CENT": 24}
_LOAD_TYPES = (("Floor-loaded container, live unload", "Inbound", "Live", "Container", 120),
               ("Palletized dry van, live unload", "Inbound", "Live", "Dry Van", 60),
               ("Reefer, live unload", "Inbound", "Live", "Reefer", 90),
               ("Outbound LTL pickup", "Outbound", "Live", "Dry Van", 45))
#: Status of the appointment of each inbound shipment status, and its hour.
_BY_INBOUND = {"received": ("Completed", 8), "partially_received": ("InProgress", 8), "pending": ("Scheduled", 10),
               "canceled": ("Cancelled", 13), "closed": ("Completed", 8)}
_STEPS = ("Requested", "Scheduled", "Arrived", "InProgress", "Completed")


def _hours(wid: str) -> dict[str, Optional[OpenHours]]:
    week = OpenHours(open="06:00", close="18:00") if wid == "WH-EAST" else OpenHours(open="07:00", close="17:00")
    sat = OpenHours(open="07:00", close="12:00") if wid != "WH-CENT" else None
    return {"monday": week, "tuesday": week, "wednesday": week, "thursday": week, "friday": week,
            "saturday": sat, "sunday": None}


def open_day(day: dt.date, wid: str) -> dt.date:
    """``day``, or the next day the warehouse is open."""
    while day.weekday() == 6 or (day.weekday() == 5 and wid == "WH-CENT"):
        day += dt.timedelta(days=1)
    return day


def book(state: DockSchedulingState, aid: str, dock: Dock, lt: LoadType, start: dt.datetime, status: str,
         ref: str, carrier: tuple[str, str], created: dt.datetime, *, po: Optional[str] = None,
         fields: tuple[tuple[str, str], ...] = (), cancel_reason: Optional[str] = None) -> Appointment:
    """Add an appointment with a status timeline consistent with ``status`` (no rule checks)."""
    a = Appointment(id=aid, warehouse_id=dock.warehouse_id, dock_id=dock.id, dock_name=dock.name,
                    load_type_id=lt.id, start=start, end=start + dt.timedelta(minutes=lt.duration_min),
                    status=status, ref_number=ref, purchase_order_id=po, carrier_name=carrier[0],
                    carrier_email=carrier[1], custom_fields=[CustomField(label=k, value=v) for k, v in fields],
                    cancel_reason=cancel_reason, created_at=created)
    a.status_timeline["requested"] = created
    if status in _STEPS:
        for n, step in enumerate(_STEPS[1:_STEPS.index(status) + 1]):
            a.status_timeline[TIMELINE_KEY[step]] = (created + dt.timedelta(hours=2) if n == 0
                                                     else start + dt.timedelta(minutes=10 + 30 * (n - 1)))
    else:
        a.status_timeline[TIMELINE_KEY[status]] = (start + dt.timedelta(hours=1) if status == "NoShow"
                                                   else created + dt.timedelta(days=1))
    state.appointments[a.id] = a
    return a


def build_state(rng: random.Random, today: dt.date, wms: WarehouseState, freight: FreightState) -> DockSchedulingState:
    """Warehouses, doors and appointments for ``wms``'s inbound shipments and ``freight``'s bookings."""
    state = DockSchedulingState()
    for wid, name, city in WAREHOUSES:
        state.warehouses[wid] = DockWarehouse(id=wid, name=name, city=city, timezone=_TZ[wid], schedule=_hours(wid),
                                              min_lead_time_hours=_LEAD[wid], max_lead_time_days=30,
                                              contact_email=f"dock.{wid[3:].lower()}@company.example")
    for name, direction, op, equip, minutes in _LOAD_TYPES:
        lt = LoadType(id=seed_id(state, "LT"), name=name, direction=direction, operation=op, equipment_type=equip,
                      duration_min=minutes)
        state.load_types[lt.id] = lt
    inbound_types = ["LT-0001", "LT-0002", "LT-0003"]
    for wid, _, _ in WAREHOUSES:
        for n in range(1, 4):
            types = inbound_types if n < 3 else ["LT-0002", "LT-0004"]
            d = Dock(id=seed_id(state, "DOOR"), warehouse_id=wid, name=f"Door {n}", door_number=n,
                     load_type_ids=types, is_active=not (wid == "WH-CENT" and n == 2))
            state.docks[d.id] = d
    first_door = {wid: next(d for d in state.docks.values() if d.warehouse_id == wid) for wid, _, _ in WAREHOUSES}
    booking_of = {po: b.id for b in freight.bookings.values() for po in b.purchase_order_ids}
    start_of_day = dt.datetime.combine(today, dt.time(9, 0))
    for n, ib in enumerate(wms.inbound_shipments.values()):
        status, hour = _BY_INBOUND[ib.status]
        wid, po = ib.warehouse_id, ib.purchase_order_id
        day = today if status == "InProgress" else open_day(ib.expected_date, wid)
        if status == "Scheduled" and ib.expected_date > today + dt.timedelta(days=5):
            status = "Requested"
        fields = [("Inbound Shipment", ib.id), ("Vendor", ib.vendor)]
        if po in booking_of:
            fields.append(("Freight Booking", booking_of[po]))
        fields.append(("Trailer Number", f"TRL{rng.randint(10000, 99999)}"))
        book(state, seed_id(state, "APT"), first_door[wid], state.load_types["LT-0001"],
             dt.datetime.combine(day, dt.time(hour, 0)), status, po, CARRIERS[n % len(CARRIERS)],
             start_of_day - dt.timedelta(days=12 - n), po=po, fields=tuple(fields),
             cancel_reason="Purchase order canceled by the vendor." if status == "Cancelled" else None)
    # A no-show two days ago for the first pending PO, today's pallet delivery at WH-WEST, tomorrow's pickup.
    pending = next((ib for ib in wms.inbound_shipments.values() if ib.status == "pending"), None)
    if pending is not None:
        noshow_day = open_day(today - dt.timedelta(days=2), pending.warehouse_id)
        book(state, seed_id(state, "APT"), first_door[pending.warehouse_id], state.load_types["LT-0001"],
             dt.datetime.combine(noshow_day, dt.time(7, 0)), "NoShow", pending.purchase_order_id, CARRIERS[4],
             start_of_day - dt.timedelta(days=9), po=pending.purchase_order_id,
             fields=(("Inbound Shipment", pending.id),))
    west = [d for d in state.docks.values() if d.warehouse_id == "WH-WEST"]
    sample = next((b for b in freight.bookings.values() if not b.purchase_order_ids and b.status == "confirmed"
                   and b.destination_warehouse == "WH-WEST"), None)
    ref = sample.id if sample else "BOL-778120"
    book(state, seed_id(state, "APT"), west[2], state.load_types["LT-0002"], dt.datetime.combine(today, dt.time(14, 0)),
         "Scheduled", ref, CARRIERS[1], start_of_day - dt.timedelta(days=3),
         fields=(("Freight Booking", ref),) if sample else ())
    east = [d for d in state.docks.values() if d.warehouse_id == "WH-EAST"]
    book(state, seed_id(state, "APT"), east[2], state.load_types["LT-0004"],
         dt.datetime.combine(open_day(today + dt.timedelta(days=1), "WH-EAST"), dt.time(15, 0)), "Scheduled",
         "ORD-0012", CARRIERS[2], start_of_day - dt.timedelta(days=1))
    return state
