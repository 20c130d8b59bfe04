"""Seed data of the vehicle_registration service.

The company's delivery fleet is registered under the fleet program: one
registration per van of the ``fleet`` service, filed under the fleet's own
unit number (VEH-0001...) with the same make, model and model year as the
fleet seeds them (the fleet draws VINs and plates from its own random
stream, so the hook copies the fleet's VIN and plate when both services are
mounted). The registered owner is the company, and the registration contact
is the logistics team's fleet coordinator (``_company.STAFF``). Private
registrations belong to made-up residents of the permits' city. Records
cover an open toll hold, an open parking hold, an active lien, a smog check
due, a late renewal and a cancelled registration.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._blocks import seed_id
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._company import staff_of
from compoworld_gym.envs.services._fleet_seed import MODELS, plate, vin
from compoworld_gym.envs.services._permits_seed import CITY
from compoworld_gym.envs.services._vehicle_registration_models import (
    Hold, Registration, SmogCertificate, Vehicle, VehicleRegistrationState,
)

#: The company that owns the fleet, its registration contact and mailing address.
FLEET_OWNER = "Acme Inc."
FLEET_CONTACT = staff_of("logistics")[0].email
FLEET_ADDRESS, FLEET_CITY = "100 Market Street", "San Francisco"
#: Unladen weight (lbs), fuel and body type of the fleet's van models.
FLEET_SPECS = {"Transit 250": (5000, "gasoline", "VN"), "Sprinter 2500": (5500, "gasoline", "VN"),
               "ProMaster 3500": (5100, "gasoline", "VN"), "NPR-HD": (7600, "diesel", "TK")}
#: Days to expiry of fleet units VEH-0001..VEH-0008.
_UNIT_EXPIRY = (25, 12, 60, -8, 200, 40, 150, 75)
#: Private vehicles: (make, model, year, class, fuel, body, lbs, days to expiry, status).
_PRIVATE = (("Toyota", "Camry", 2017, "passenger", "gasoline", "SD", 3300, 30, "active"),
            ("Honda", "Civic", 2022, "passenger", "gasoline", "SD", 2900, 15, "active"),
            ("Tesla", "Model 3", 2021, "passenger", "electric", "SD", 3600, 50, "active"),
            ("Harley-Davidson", "Street Glide", 2018, "motorcycle", "gasoline", "MC", 800, -20, "active"),
            ("Ford", "F-150", 2015, "passenger", "gasoline", "PK", 4400, -100, "cancelled"))
STATIONS = ("Riverton Smog & Tune", "STAR Smog Center", "Bayshore Test-Only Smog")
TOLL_AGENCY, PARKING_AGENCY = "FasTrak (Bay Area Toll Authority)", f"City of {CITY} Parking Services"


def fleet_unit(n: int) -> tuple[str, str, int]:
    """Make, model and model year of fleet van ``n`` (1-based), as the fleet service seeds it."""
    make, model = MODELS[n % len(MODELS)]
    return make, model, 2019 + n % 6


def _vehicle(rng: random.Random, today: dt.date, make: str, model: str, year: int, cls: str, fuel: str, body: str,
             lbs: int, lien: str | None = None, lien_status: str = "none") -> Vehicle:
    age = max(today.year - year, 0)
    vid = vin(rng, year)
    value = float(rng.randrange(9000, 48000, 250) * 0.9 ** age // 1)  # about 10% less a year
    return Vehicle(vin=vid, make=make, model=model, year=year, body_type=body, vehicle_class=cls,
                   fuel=fuel, unladen_weight_lbs=lbs, market_value=value,
                   odometer=rng.randint(6000, 14000) * (age + 1), title_number=f"{rng.randint(10**7, 10**8 - 1)}",
                   title_issued_on=dt.date(year, rng.randint(1, 12), rng.randint(1, 28)), lienholder=lien,
                   lien_status=lien_status,
                   lien_released_on=today - dt.timedelta(days=300) if lien_status == "released" else None)


def _register(state: VehicleRegistrationState, rng: random.Random, today: dt.date, v: Vehicle, days: int,
              **owner: object) -> Registration:
    expires = today + dt.timedelta(days=days)
    reg = Registration(id=seed_id(state, "REG"), vin=v.vin, plate=plate(rng), issued_on=v.title_issued_on,
                       expires_on=expires, **owner)
    state.vehicles[v.vin], state.registrations[reg.id] = v, reg
    return reg


def _hold(state: VehicleRegistrationState, rng: random.Random, today: dt.date, reg: Registration, kind: str,
          amount: float, cleared: bool = False) -> None:
    hid = seed_id(state, "HLD")
    state.holds[hid] = Hold(id=hid, registration_id=reg.id, kind=kind,
                            agency=TOLL_AGENCY if kind == "toll" else PARKING_AGENCY,
                            citation_number=f"{'T' if kind == 'toll' else 'P'}{rng.randint(10**6, 10**7 - 1)}",
                            amount=amount, status="cleared" if cleared else "open",
                            placed_on=today - dt.timedelta(days=rng.randint(20, 70)),
                            cleared_on=today - dt.timedelta(days=5) if cleared else None,
                            reference="Paid online" if cleared else "")


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> VehicleRegistrationState:
    """Eight fleet registrations (REG-0001..0008 = units VEH-0001..0008) and five private ones."""
    state = VehicleRegistrationState()
    fleet = {"registered_owner": FLEET_OWNER, "owner_email": FLEET_CONTACT, "owner_company": FLEET_OWNER,
             "mailing_address": FLEET_ADDRESS, "city": FLEET_CITY, "status": "active"}
    for n, days in enumerate(_UNIT_EXPIRY, start=1):
        make, model, year = fleet_unit(n)
        lbs, fuel, body = FLEET_SPECS[model]
        lien = ("Ally Financial", "active") if n == 3 else (None, "none")
        v = _vehicle(rng, today, make, model, year, "commercial", fuel, body, lbs, *lien)
        reg = _register(state, rng, today, v, days, unit_number=f"VEH-{n:04d}", **fleet)
        if n == 2:
            _hold(state, rng, today, reg, "toll", 18.5)
    for k, (make, model, year, cls, fuel, body, lbs, days, status) in enumerate(_PRIVATE):
        lien = {0: ("Toyota Financial Services", "released"), 1: ("Golden 1 Credit Union", "active")}.get(k,
                                                                                                        (None, "none"))
        v = _vehicle(rng, today, make, model, year, cls, fuel, body, lbs, *lien)
        if k == 0:
            v.smog_certificates.append(SmogCertificate(certificate_number=f"SC{rng.randint(10**6, 10**7 - 1)}",
                                                       station=STATIONS[0], tested_on=today - dt.timedelta(days=20),
                                                       result="passed", odometer=v.odometer))
        name = f"{fake.first_name()} {fake.last_name()}"
        reg = _register(state, rng, today, v, days, registered_owner=name,
                        owner_email=email_for(name, fake.free_email_domain()), mailing_address=fake.street_address(),
                        city=CITY, status=status, cancel_reason="Vehicle sold and registered out of state."
                        if status == "cancelled" else None)
        if k == 1:
            _hold(state, rng, today, reg, "parking", 65.0)
        if k == 2:
            _hold(state, rng, today, reg, "parking", 45.0, cleared=True)
    return state
