"""Records and seed data of the fleet service: vehicles, drivers and delivery routes.

Final-mile routes deliver parcels of the shared order book (same order ids,
tracking numbers and customer addresses as ``orders`` and ``shipping``),
padded with Faker recipients in the same city. Everything is drawn from the
service's seeded ``rng`` / ``fake``; ``today`` only moves the dates.
"""

from __future__ import annotations

import datetime as dt
import random
import string
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.envs.services._commerce import book_tracking_number, order_book
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.entities import Address, City, Date, DateTime, Email, Id, PersonName, Phone, TrackingNumber
from compoworld_gym.service import Record, ServiceState

VehicleStatus = Literal["in_service", "out_of_service"]
RouteStatus = Literal["planned", "dispatched", "in_progress", "completed", "cancelled"]
StopStatus = Literal["scheduled", "arrived", "completed", "skipped"]
#: FMCSA property-carrying limits: driving hours a day and on-duty hours per 8 days.
DRIVE_LIMIT_HOURS = 11.0
CYCLE_LIMIT_HOURS = 70.0
#: Route statuses while a driver and vehicle are committed to it.
LIVE_STATUSES: tuple[str, ...] = ("dispatched", "in_progress")


class Vehicle(Record):
    """A van or truck of the fleet."""

    id: Id("vehicle") = Field(description="Vehicle id, e.g. VEH-0001.")
    name: str = Field(description="Fleet name painted on the van, e.g. 'Van 101'.")
    vin: str = Field(pattern=r"^[A-HJ-NPR-Z0-9]{17}$", description="17-character VIN.")
    license_plate: str = Field(description="Licence plate.")
    make: str = Field(description="Manufacturer.")
    model: str = Field(description="Model.")
    year: int = Field(ge=1990, le=2100, description="Model year.")
    odometer_miles: int = Field(ge=0, description="Odometer reading (miles).")
    status: VehicleStatus = Field(description="Whether it may be dispatched.")
    status_reason: Optional[str] = Field(default=None, description="Why it is out of service.")
    last_inspection: Date = Field(description="Date of the last DVIR inspection.")


class Driver(Record):
    """A driver with their licence and hours-of-service totals."""

    id: Id("driver") = Field(description="Driver id, e.g. DRV-0001.")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work email.")
    phone: Phone = Field(description="Mobile phone the driver app runs on.")
    license_number: str = Field(description="Commercial driver's licence number.")
    license_state: str = Field(description="Issuing state (2 letters).")
    license_expires: Date = Field(description="Last day the licence is valid.")
    status: Literal["active", "deactivated"] = Field(description="Deactivated drivers cannot be dispatched.")
    hours_driven_today: float = Field(ge=0, le=24, description="Hours driven today (HOS log).")
    cycle_hours: float = Field(ge=0, le=80, description="On-duty hours in the last 8 days.")


class Stop(Record):
    """One stop of a route, served in sequence order."""

    id: str = Field(description="Stop id, e.g. STP-0001.")
    sequence: int = Field(ge=1, description="1-based position in delivery order.")
    address: Address = Field(description="Street address.")
    city: City = Field(description="City.")
    postal_code: str = Field(description="Postal code.")
    recipient_name: PersonName = Field(description="Who receives the parcel.")
    tracking_number: Optional[TrackingNumber] = Field(default=None, description="Parcel tracking number.")
    order_id: Optional[Id("order")] = Field(default=None, description="Store order the parcel belongs to.")
    status: StopStatus = Field(description="scheduled, arrived, completed or skipped.")
    arrived_at: Optional[DateTime] = Field(default=None, description="When the driver arrived.")
    completed_at: Optional[DateTime] = Field(default=None, description="When the delivery was completed.")
    signed_by: Optional[PersonName] = Field(default=None, description="Who signed for the parcel.")
    skip_reason: Optional[str] = Field(default=None, description="Why the stop was skipped.")
    notes: list[str] = Field(default_factory=list, description="Driver or dispatcher notes, oldest first.")


class Route(Record):
    """A delivery route for one day."""

    id: Id("delivery_route") = Field(description="Route id, e.g. RTE-0001.")
    name: str = Field(description="Route name.")
    scheduled_date: Date = Field(description="Day the route runs.")
    depot: str = Field(description="Depot the route starts from.")
    status: RouteStatus = Field(description="planned, dispatched, in_progress, completed or cancelled.")
    driver_id: Optional[Id("driver")] = Field(default=None, description="Assigned driver.")
    vehicle_id: Optional[Id("vehicle")] = Field(default=None, description="Assigned vehicle.")
    planned_drive_hours: float = Field(gt=0, le=14, description="Planned driving time (hours).")
    stops: list[Stop] = Field(default_factory=list, description="Stops in sequence order.")
    notes: list[str] = Field(default_factory=list, description="Dispatcher notes, oldest first.")
    cancel_reason: Optional[str] = Field(default=None, description="Why it was cancelled.")


class FleetState(ServiceState):
    """Vehicles, drivers and routes."""

    vehicles: dict[str, Vehicle] = Field(default_factory=dict, description="Vehicles by id.")
    drivers: dict[str, Driver] = Field(default_factory=dict, description="Drivers by id.")
    routes: dict[str, Route] = Field(default_factory=dict, description="Routes by id.")

#: Vehicle models of the fleet: (make, model, gross vehicle weight class).
MODELS = (("Ford", "Transit 250"), ("Mercedes-Benz", "Sprinter 2500"), ("Ram", "ProMaster 3500"),
          ("Isuzu", "NPR-HD"))
#: Cross-docks the routes start from, by city.
DEPOTS = {"Portland": "Portland cross-dock", "Boston": "Boston South depot", "Austin": "Austin North hub",
          "Denver": "Denver Stapleton depot", "San Diego": "San Diego Otay hub", "Philadelphia": "Philly Navy Yard",
          "Chicago": "Chicago West Loop depot", "Seattle": "Seattle SoDo depot"}
_VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"  # no I, O or Q in a VIN
_VIN_VALUES = {**{str(d): d for d in range(10)},
               **dict(zip("ABCDEFGH", range(1, 9))), **dict(zip("JKLMN", range(1, 6))), "P": 7, "R": 9,
               **dict(zip("STUVWXYZ", range(2, 10)))}
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)


def vin(rng: random.Random, year: int) -> str:
    """A 17-character North American VIN with a valid check digit (position 9).

    Example:
        >>> v = vin(random.Random(1), 2022); len(v), v[9]
        (17, 'N')
    """
    chars = [rng.choice(_VIN_CHARS) for _ in range(17)]
    chars[9] = "ABCDEFGHJKLMNPRSTVWXY123456789"[(year - 2010) % 30]  # model-year code
    total = sum(_VIN_VALUES[c] * w for c, w in zip(chars, _VIN_WEIGHTS))
    chars[8] = "X" if total % 11 == 10 else str(total % 11)
    return "".join(chars)


def plate(rng: random.Random) -> str:
    """A commercial licence plate, e.g. ``'7KXR214'``."""
    return f"{rng.randint(1, 9)}{''.join(rng.choices(string.ascii_uppercase, k=3))}{rng.randint(100, 999)}"


def seed_vehicles(rng: random.Random, today: dt.date) -> list[dict]:
    """Eight vans and trucks; VEH-0004 and VEH-0007 are out of service."""
    out = []
    for i in range(1, 9):
        make, model = MODELS[i % len(MODELS)]
        year = 2019 + i % 6
        down = i in (4, 7)
        out.append({"id": f"VEH-{i:04d}", "name": f"Van {100 + i}", "vin": vin(rng, year), "license_plate": plate(rng),
                    "make": make, "model": model, "year": year, "odometer_miles": rng.randint(12000, 148000),
                    "status": "out_of_service" if down else "in_service",
                    "status_reason": ("Brake pads below minimum at DVIR" if i == 4 else "Transmission repair")
                    if down else None,
                    "last_inspection": (today - dt.timedelta(days=rng.randint(3, 80))).isoformat()})
    return out


def seed_drivers(fake: Faker, rng: random.Random, today: dt.date) -> list[dict]:
    """Ten drivers: DRV-0008's licence has lapsed, DRV-0009 is near the
    11-hour driving limit today, DRV-0010 is deactivated."""
    out = []
    for i in range(1, 11):
        name = f"{fake.first_name()} {fake.last_name()}"
        lapsed = i == 8
        expires = today - dt.timedelta(days=9) if lapsed else today + dt.timedelta(days=rng.randint(60, 1400))
        out.append({"id": f"DRV-{i:04d}", "name": name, "email": email_for(name, DOMAIN),
                    "phone": f"+1-{rng.randint(200, 989)}-555-{rng.randint(1000, 9999)}",
                    "license_number": f"CDL{rng.randint(10**7, 10**8 - 1)}",
                    "license_state": rng.choice(("OR", "MA", "TX", "CO", "CA", "PA", "IL", "WA")),
                    "license_expires": expires.isoformat(),
                    "status": "deactivated" if i == 10 else "active",
                    "hours_driven_today": 9.5 if i == 9 else round(rng.choice((0.0, 0.0, 1.5, 2.0)), 1),
                    "cycle_hours": round(rng.uniform(20, 45), 1) if i != 9 else 62.0})
    return out


def _stops(fake: Faker, rng: random.Random, today: dt.date, city: str, n: int, status: str) -> list[dict]:
    # A delivered book order sits on a completed route; a shipped (fulfilled) one on a live route.
    wanted = "delivered" if status == "completed" else "fulfilled"
    book = [o for o in order_book(today) if o.customer.city == city and o.status == wanted]
    stops = []
    for k in range(n):
        if k < len(book):
            o = book[k]
            who, addr, postal, oid, trk = (o.customer.name, o.customer.address, o.customer.postal_code, o.id,
                                           book_tracking_number(o.id))
        else:
            who, addr, postal = f"{fake.first_name()} {fake.last_name()}", fake.street_address(), fake.postcode()
            oid, trk = None, f"1Z{rng.randint(10**9, 10**10 - 1)}{rng.randint(10, 99)}"
        stops.append({"sequence": k + 1, "address": addr, "city": city, "postal_code": postal,
                      "recipient_name": who, "tracking_number": trk, "order_id": oid, "status": status})
    return stops


#: Seeded routes: (day offset, city, status, driver, vehicle, stops).
_ROUTES = ((-1, "Denver", "completed", "DRV-0006", "VEH-0001", 3), (0, "Boston", "in_progress", "DRV-0007",
           "VEH-0002", 4), (0, "Austin", "dispatched", "DRV-0006", "VEH-0003", 3),
           (1, "Seattle", "planned", None, None, 4), (1, "Chicago", "planned", None, None, 3),
           (2, "Portland", "planned", None, None, 3), (0, "Philadelphia", "cancelled", None, None, 2))


def seed_routes(fake: Faker, rng: random.Random, today: dt.date) -> list[dict]:
    """Seven routes from yesterday to the day after tomorrow, each stop numbered STP-0001 on."""
    routes, n = [], 0
    for i, (offset, city, status, driver, vehicle, count) in enumerate(_ROUTES, start=1):
        day = today + dt.timedelta(days=offset)
        stop_status = {"completed": "completed", "cancelled": "skipped"}.get(status, "scheduled")
        stops = _stops(fake, rng, today, city, count, stop_status)
        if status == "in_progress":
            stops[0]["status"] = "completed"
            stops[1]["status"] = "arrived"
        for s in stops:
            n += 1
            s["id"] = f"STP-{n:04d}"
            if s["status"] in ("arrived", "completed"):
                s["arrived_at"] = f"{day}T{8 + s['sequence']:02d}:10:00"
            if s["status"] == "completed":
                s["completed_at"] = f"{day}T{8 + s['sequence']:02d}:18:00"
                s["signed_by"] = s["recipient_name"]
            if status == "cancelled":
                s["skip_reason"] = "Route cancelled: van unavailable"
        routes.append({"id": f"RTE-{i:04d}", "name": f"{city} final-mile {'AM' if i % 2 else 'PM'}",
                       "scheduled_date": day.isoformat(), "depot": DEPOTS[city], "status": status,
                       "driver_id": driver, "vehicle_id": vehicle, "planned_drive_hours": round(1.5 + 0.5 * count, 1),
                       "stops": stops, "cancel_reason": "Van unavailable" if status == "cancelled" else None})
    return routes
