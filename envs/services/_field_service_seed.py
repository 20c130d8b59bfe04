"""Seed factory of the field_service service: parts stock, eight technicians and twelve jobs.

The technicians' coverage is fixed (every trade and zone pair has an active
technician) so that any job a task plants can be dispatched; the jobs span
every status, scheduled ones on free technician windows.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._field_service_models import (
    CITY, LABOR_RATE, ZIPS, FieldServiceState, Job, Part, PartUse, Technician)

PARTS = (
    ("PRT-HV-001", "Furnace igniter", "hvac", 48.5), ("PRT-HV-002", "Capacitor 45/5 uF", "hvac", 22.0),
    ("PRT-HV-003", "Thermostat, programmable", "hvac", 89.0), ("PRT-PL-001", "Wax ring seal", "plumbing", 6.5),
    ("PRT-PL-002", "Water heater thermocouple", "plumbing", 18.75), ("PRT-PL-003", "Faucet cartridge", "plumbing", 27.0),
    ("PRT-EL-001", "GFCI outlet 20A", "electrical", 24.0), ("PRT-EL-002", "Circuit breaker 30A", "electrical", 31.5),
    ("PRT-AP-001", "Dryer heating element", "appliance", 54.0), ("PRT-AP-002", "Dishwasher drain pump", "appliance", 67.0),
)
TECH_COVERAGE = (
    (("hvac", "electrical"), ("north", "central")), (("plumbing", "appliance"), ("south", "central")),
    (("hvac", "plumbing"), ("east", "south")), (("electrical", "appliance"), ("west", "north")),
    (("hvac", "appliance"), ("west", "east")), (("plumbing", "electrical"), ("north", "east", "west")),
    (("hvac", "plumbing"), ("central", "south", "west")), (("electrical",), ("south", "east")),
)
ISSUES = {
    "hvac": ("Furnace not igniting", "AC blowing warm air", "Thermostat unresponsive"),
    "plumbing": ("Leaking toilet base", "No hot water", "Dripping kitchen faucet"),
    "electrical": ("Outlet sparks when used", "Breaker keeps tripping", "Flickering lights in hallway"),
    "appliance": ("Dryer not heating", "Dishwasher not draining", "Oven temperature off"),
}


def seed_field_service(fake: Faker, rng: random.Random, today: dt.date) -> FieldServiceState:
    """Stock of every part, the technicians of :data:`TECH_COVERAGE` (TEC-0007 off duty) and twelve jobs.

    Args:
        fake: the seeded Faker for technicians' and customers' names and addresses.
        rng: the seeded generator for stock levels, issues, dates and windows.
        today: the task's date; scheduled jobs fall on it or the next days, completed ones before it.
    """
    st = FieldServiceState()
    _stock_and_crew(st, fake, rng)
    _jobs(st, fake, rng, today)
    return st


def _stock_and_crew(st: FieldServiceState, fake: Faker, rng: random.Random) -> None:
    """Add every part of :data:`PARTS` (0-12 in stock) and the technicians."""
    for sku, name, cat, price in PARTS:
        st.parts[sku] = Part(sku=sku, name=name, category=cat, unit_price=price, stock=rng.randint(0, 12))
    # Fixed coverage so every (trade, zone) pair has an active technician.
    for i, (sk, zs) in enumerate(TECH_COVERAGE, start=1):
        name = fake.name()
        st.technicians[f"TEC-{i:04d}"] = Technician(
            id=f"TEC-{i:04d}", name=name, email=email_for(name, "fieldpro.example"),
            phone=f"+1512555{200 + i:04d}", skills=list(sk), zones=list(zs), active=i != 7)


def _jobs(st: FieldServiceState, fake: Faker, rng: random.Random, today: dt.date) -> None:
    """Add twelve jobs across the statuses; one that finds no free technician window stays unscheduled."""
    skills = ("hvac", "plumbing", "electrical", "appliance")
    zones = ("north", "south", "east", "west", "central")
    statuses = ("unscheduled", "unscheduled", "unscheduled", "scheduled", "scheduled", "scheduled", "scheduled",
                "scheduled", "in_progress", "completed", "completed", "cancelled")
    windows = ("08:00-12:00", "12:00-16:00", "16:00-20:00")
    for n, status in enumerate(statuses, start=1):
        cust = fake.name()
        zone, stype = zones[n % 5], skills[(n * 7) % 4]
        job = Job(
            id=f"JOB-{n:04d}", customer_name=cust, customer_phone=f"+1512555{3000 + n:04d}",
            customer_email=email_for(cust, fake.free_email_domain()),
            address=f"{fake.building_number()} {fake.street_name()}, {CITY}, TX {ZIPS[zone]}", city=CITY,
            zone=zone, service_type=stype, description=rng.choice(ISSUES[stype]),
            priority="urgent" if n % 5 == 0 else "normal", status=status)
        if status in ("scheduled", "in_progress", "completed"):
            techs = [t for t in st.technicians.values() if stype in t.skills and zone in t.zones and t.active]
            day = {"in_progress": 0, "completed": -rng.randint(1, 5)}.get(status, rng.randint(0, 4))
            date = today + dt.timedelta(days=day)
            free = [(t, w) for t in techs for w in windows if not any(
                o.technician_id == t.id and o.scheduled_date == date and o.time_window == w
                for o in st.jobs.values())]
            if free:
                t, w = free[rng.randrange(len(free))]
                job.technician_id, job.scheduled_date, job.time_window = t.id, date, w
            else:
                job.status = "unscheduled"
        if job.status == "completed":
            part = rng.choice([p for p in st.parts.values() if p.category == stype])
            job.parts.append(PartUse(sku=part.sku, quantity=1, unit_price=part.unit_price))
            job.labor_hours = 1.5
            job.invoice_total = money(part.unit_price + 1.5 * LABOR_RATE[stype])
            job.notes.append("Completed: replaced faulty part and tested.")
        st.jobs[job.id] = job
    st.counters["JOB"] = len(statuses) + 1
