"""Seed data of the maintenance service: equipment at the company's warehouses and offices.

Sites are the warehouses ``inventory``, ``shipping`` and ``freight`` deliver
to (WH-EAST Newark, WH-WEST Reno, WH-CENT Columbus) and the offices of
``meeting_rooms`` (SF-HQ, NY-01, AUS-01); fan coil units serve meeting rooms
by their booking ids and are driven by the rooms' Home Assistant
thermostats. Assignable users are ``field_service``'s technicians (same ids,
names and trades for the same seed) and the logistics employees of the HR
roster (same employee ids), so a task can carry a technician or an employee
from one service to the other.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._blocks import seed_id
from compoworld_gym.envs.services._field_service_models import LABOR_RATE, FieldServiceState
from compoworld_gym.envs.services._field_service_seed import seed_field_service
from compoworld_gym.envs.services._maintenance_models import (
    Equipment, LaborEntry, Location, MaintenanceState, Meter, Part, PartUsage, PMSchedule, Reading, Technician,
)
from compoworld_gym.envs.services._maintenance_rules import new_work_order, recost
from compoworld_gym.envs.services._workforce import roster
from compoworld_gym.envs.services.field_service import FieldService
from compoworld_gym.envs.services.meeting_rooms import SITES

#: USD per hour of an in-house employee's maintenance work.
EMPLOYEE_RATE = 42.0
WAREHOUSE_SITES = (("WH-EAST", "East Coast DC", "1 Port St, Newark, NJ 07114"),
                   ("WH-WEST", "West Coast DC", "450 Lillard Dr, Reno, NV 89502"),
                   ("WH-CENT", "Central DC", "2800 Creekside Pkwy, Columbus, OH 43217"))
#: Meeting rooms with a fan coil unit: (room id, room name, site) as the room booking system has them.
ROOMS = (("RM-0001", "Redwood", "SF-HQ"), ("RM-0002", "Sequoia", "SF-HQ"), ("RM-0005", "Hudson", "NY-01"),
         ("RM-0009", "Bluebonnet", "AUS-01"))
#: (name, category, model, site, room, status, serial prefix).
_EQUIPMENT = (
    ("Forklift FL-01", "material_handling", "Toyota 8FGU25", "WH-EAST", None, "operational", "8FGU25-"),
    ("Dock leveler door 4", "material_handling", "Rite-Hite HL-6000", "WH-EAST", None, "down", "RH6K-"),
    ("Air compressor", "compressed_air", "Atlas Copco GA15", "WH-EAST", None, "operational", "API"),
    ("Conveyor line A", "material_handling", "Hytrol E24", "WH-CENT", None, "operational", "E24-"),
    ("Forklift FL-07", "material_handling", "Toyota 8FGU25", "WH-WEST", None, "operational", "8FGU25-"),
    ("Pallet wrapper", "material_handling", "Lantech Q-300", "WH-WEST", None, "decommissioned", "Q300-"),
    ("Rooftop unit RTU-1", "hvac", "Carrier 48TC", "SF-HQ", None, "operational", "4819G"),
    ("Fan coil unit - Redwood", "hvac", "Daikin FXFQ", "SF-HQ", "RM-0001", "operational", "E0"),
    ("Fan coil unit - Sequoia", "hvac", "Daikin FXFQ", "SF-HQ", "RM-0002", "operational", "E0"),
    ("Fan coil unit - Hudson", "hvac", "Daikin FXFQ", "NY-01", "RM-0005", "operational", "E0"),
    ("Passenger elevator", "building", "Otis Gen2", "NY-01", None, "operational", "OT-"),
    ("Fan coil unit - Bluebonnet", "hvac", "Daikin FXFQ", "AUS-01", "RM-0009", "operational", "E0"),
    ("Backup generator", "electrical", "Generac SG150", "AUS-01", None, "operational", "GN"),
)
PARTS = (("MP-FLT-2020", "Pleated air filter 20x20x2", 14.5), ("MP-BLT-B52", "V-belt B52", 18.9),
         ("MP-OIL-HYD", "Hydraulic oil 5 gal", 64.0), ("MP-SEAL-KIT", "Leveler cylinder seal kit", 129.0),
         ("MP-SEP-GA15", "Compressor oil separator", 212.0), ("MP-MTR-FCU", "Fan coil motor 1/4 hp", 186.0),
         ("MP-CTR-40A", "Contactor 40A", 47.5), ("MP-TIRE-FL", "Forklift cushion tire", 238.0),
         ("MP-CAP-45", "Run capacitor 45/5 uF", 22.0), ("MP-PLG-SG", "Generator spark plug", 9.75))
#: (equipment index, title, priority, status, category, assignee index, due offset, labor h, part index).
_WORK = (
    (7, "Fan coil not heating - room cold in the morning", "high", "open", "corrective", 0, 1, 0, None),
    (1, "Hydraulic leak on dock leveler", "high", "on_hold", "corrective", 8, 2, 1.0, None),
    (0, "Forklift 250-hour service", "medium", "in_progress", "preventive", 9, 0, 1.0, 2),
    (3, "Belt tracking off on conveyor A", "medium", "open", "corrective", None, 3, 0, None),
    (6, "Quarterly filter change", "medium", "complete", "preventive", 2, -5, 2.0, 0),
    (2, "High discharge temperature", "high", "open", "meter", None, 1, 0, None),
    (9, "Noisy fan in Hudson", "low", "complete", "corrective", 0, -9, 1.5, 5),
    (12, "Monthly generator load test", "medium", "in_progress", "inspection", 3, 0, 0.5, None),
    (10, "Door reopening slowly on floor 3", "low", "open", "corrective", None, 6, 0, None),
)
_FAKER = Faker("en_US")


def seed_for(seed: int, today: dt.date) -> MaintenanceState:
    """The seeded state for ``seed``, with field_service's technicians and the roster for the same seed."""
    crew = FieldService.seed_state(seed, today)
    rng = random.Random(f"maintenance:{seed}")
    _FAKER.seed_instance(rng.getrandbits(32))
    return build_state(_FAKER, rng, today, crew, seed)


def _people(state: MaintenanceState, crew: FieldServiceState, seed: int, today: dt.date) -> list[Technician]:
    out = []
    for t in crew.technicians.values():
        out.append(Technician(id=t.id, name=t.name, email=t.email, kind="contractor", skills=list(t.skills),
                              hourly_rate=max(LABOR_RATE[s] for s in t.skills), active=t.active))
    for p in roster(seed, today):
        if p.department == "Logistics":
            out.append(Technician(id=p.employee_id, name=p.name, email=p.email, kind="employee",
                                  skills=["general"], hourly_rate=EMPLOYEE_RATE))
    state.technicians = {t.id: t for t in out}
    return out


def build_state(fake: Faker, rng: random.Random, today: dt.date, crew: FieldServiceState | None = None,
                seed: int = 0) -> MaintenanceState:
    """Sites, thirteen pieces of equipment, the crew, parts, nine work orders, PM schedules and meters.

    Args:
        fake: seeded Faker (serial numbers' letters).
        rng: seeded random stream (serials, stock levels, readings).
        today: the task's date.
        crew: field_service's seeded state for the same seed (seeded from ``fake``/``rng`` when None).
        seed: the seed of the HR roster.
    """
    state = MaintenanceState()
    for code, name, address in WAREHOUSE_SITES:
        state.locations[code] = Location(id=code, name=name, kind="warehouse", address=address)
    for site in SITES:
        state.locations[site.code] = Location(id=site.code, name=site.name, kind="office", address=site.address)
    people = _people(state, crew or seed_field_service(fake, rng, today), seed, today)
    for name, cat, model, site, room, status, prefix in _EQUIPMENT:
        eid = seed_id(state, "EQ")
        room_name = next((n for r, n, _ in ROOMS if r == room), None)
        state.equipment[eid] = Equipment(
            id=eid, name=name, category=cat, model=model, serial=f"{prefix}{rng.randint(10**5, 10**6 - 1)}",
            location_id=site, room_id=room, status=status,
            device_entity_id=f"climate.{room_name.lower()}" if room_name else None,
            install_date=today - dt.timedelta(days=rng.randint(400, 3000)),
            decommission_reason="Replaced by the new stretch wrapper." if status == "decommissioned" else None)
    for sku, name, cost in PARTS:
        pid = seed_id(state, "PRT")
        state.parts[pid] = Part(id=pid, sku=sku, name=name, unit_cost=cost, quantity_on_hand=rng.randint(1, 12),
                                minimum_quantity=2)
    equipment, parts = list(state.equipment.values()), list(state.parts.values())
    for k, title, prio, status, cat, who, due, hours, part in _WORK:
        tech = people[who] if who is not None else None
        wo = new_work_order(seed_id(state, "WO"), equipment[k], title=title, priority=prio, category=cat,
                            due=today + dt.timedelta(days=due), today=today - dt.timedelta(days=max(3, 3 - due)),
                            tech=tech, requested_by="grace.okafor@company.example" if k < 6 else None)
        if hours:
            wo.labor.append(LaborEntry(technician_id=tech.id, hours=hours, rate=tech.hourly_rate,
                                       cost=round(hours * tech.hourly_rate, 2), logged_on=wo.created_on))
        if part is not None:
            p = parts[part]
            qty = 4 if part == 0 else 1
            wo.parts.append(PartUsage(part_id=p.id, sku=p.sku, quantity=qty, unit_cost=p.unit_cost,
                                      cost=round(qty * p.unit_cost, 2)))
        wo.status = status
        if status == "on_hold":
            wo.on_hold_reason = "Waiting for the cylinder seal kit."
        if status == "complete":
            wo.completed_on = wo.due_date
            wo.completion_note = "Replaced the worn part, tested under load, back in service."
        recost(wo)
        state.work_orders[wo.id] = wo
    _schedules(state, today)
    _meters(state, rng, today)
    return state


def _schedules(state: MaintenanceState, today: dt.date) -> None:
    """PM schedules: the forklift's is due with its last WO still open, the RTU's is due, the others later."""
    plan = (("EQ-0001", "Forklift 250-hour service", 30, -2, "medium", "EMP-0010", "WO-0003"),
            ("EQ-0007", "Quarterly filter change", 90, 0, "medium", "TEC-0003", "WO-0005"),
            ("EQ-0003", "Compressor oil and separator service", 90, 20, "medium", None, None),
            ("EQ-0008", "Fan coil coil cleaning", 180, -1, "low", "TEC-0001", None),
            ("EQ-0006", "Wrapper turntable lubrication", 30, -4, "low", None, None))
    for eq, title, days, due, prio, tech, last in plan:
        pid = seed_id(state, "PM")
        state.schedules[pid] = PMSchedule(id=pid, equipment_id=eq, title=title, interval_days=days,
                                          next_due_date=today + dt.timedelta(days=due), priority=prio,
                                          assigned_technician_id=tech if tech in state.technicians else None,
                                          last_work_order_id=last)
        if last:
            state.work_orders[last].source = f"pm:{pid}"


def _meters(state: MaintenanceState, rng: random.Random, today: dt.date) -> None:
    """Hour meters on the forklifts, the compressor's temperature, the Redwood filter's pressure drop."""
    plan = (("EQ-0001", "Hour meter", "hours", True, 2750.0, None, "Forklift hour-based service", 2460.0),
            ("EQ-0003", "Discharge temperature", "degF", False, 220.0, None, "High discharge temperature", 226.0),
            ("EQ-0008", "Filter differential pressure", "inWC", False, 0.8, None, "Replace clogged filter", 0.42),
            ("EQ-0005", "Hour meter", "hours", True, 4000.0, None, "Forklift hour-based service", 3610.0),
            ("EQ-0013", "Battery voltage", "V", False, None, 24.0, "Generator battery low", 26.8))
    start = dt.datetime.combine(today, dt.time(7, 0))
    for eq, name, units, cum, above, below, title, last in plan:
        mid = seed_id(state, "MTR")
        readings = [Reading(value=round(last - (3 - k) * (40.0 if cum else 0.0) - (0 if cum else rng.random() / 10),
                                        2), recorded_at=start - dt.timedelta(days=7 * (3 - k))) for k in range(4)]
        readings[-1].value = last
        state.meters[mid] = Meter(id=mid, equipment_id=eq, name=name, units=units, cumulative=cum,
                                  trigger_above=above, trigger_below=below, trigger_title=title, readings=readings)
    state.work_orders["WO-0006"].source = "meter:MTR-0002"
