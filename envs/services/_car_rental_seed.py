"""Seed data of the car-rental service: branches in the gazetteer cities, a fleet, agreements.

Every gazetteer city gets an airport counter at its airport's address and a
downtown branch at a landmark's address, so a booking's city is a city the
maps, flights and hotels services know.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._blocks import fake_person, seed_id
from compoworld_gym.envs.services._car_rental_models import (
    ACRISS, CarRentalState, Location, RentalAgreement, RentalCar, price,
)
from compoworld_gym.envs.services._gazetteer import PLACES

_MODELS = {"economy": ("Kia Rio", "Mitsubishi Mirage"), "compact": ("Toyota Corolla", "Nissan Sentra"),
           "midsize": ("Hyundai Elantra", "Mazda 3"), "suv": ("Toyota RAV4", "Ford Escape"),
           "premium": ("BMW 3 Series", "Cadillac CT5"), "van": ("Chrysler Pacifica", "Kia Carnival")}
_SEATS = {"economy": 4, "compact": 5, "midsize": 5, "suv": 5, "premium": 5, "van": 7}
#: Classes each branch stocks (airports two cars of each).
_FLEET = ("economy", "compact", "midsize", "suv", "premium", "van")
#: (status, pickup offset days, length days, driver age) of the seeded agreements.
_FLOW = (("reserved", 3, 4, 34), ("reserved", 1, 2, 23), ("reserved", 10, 5, 41), ("picked_up", -2, 5, 29),
         ("returned", -9, 3, 52), ("cancelled", 6, 3, 37), ("reserved", 0, 3, 45), ("picked_up", -1, 1, 22))


def city_code(city: str) -> str:
    """A three-letter branch prefix: the city's initials, e.g. SFO for San Francisco, NYC, LON."""
    return {"San Francisco": "SFO", "New York": "NYC", "Chicago": "CHI", "Austin": "AUS", "Seattle": "SEA",
            "Boston": "BOS", "London": "LON"}.get(city, city[:3].upper())


def locations() -> dict[str, Location]:
    """Two branches per gazetteer city: the airport counter and a downtown branch."""
    out: dict[str, Location] = {}
    for city in dict.fromkeys(p.city for p in PLACES.values()):
        places = [p for p in PLACES.values() if p.city == city]
        airport = next(p for p in places if "airport" in p.types)
        downtown = next(p for p in places if "locality" not in p.types and "airport" not in p.types)
        code = city_code(city)
        out[f"{code}-A"] = Location(id=f"{code}-A", name=f"{airport.name} rental counter", city=city,
                                    address=airport.address, kind="airport")
        out[f"{code}-D"] = Location(id=f"{code}-D", name=f"{city} Downtown", city=city,
                                    address=downtown.address, kind="downtown")
    return out


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> CarRentalState:
    """Branches, one car per class downtown and two at airports (one SFO car in maintenance), eight agreements."""
    state = CarRentalState(locations=locations())
    for loc in state.locations.values():
        for cls in _FLEET:
            for k in range(2 if loc.kind == "airport" else 1):
                car = RentalCar(id=seed_id(state, "CAR"), location_id=loc.id, car_class=cls, acriss=ACRISS[cls],
                                make_model=_MODELS[cls][k], seats=_SEATS[cls],
                                plate=f"{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{rng.randint(100, 999)}"
                                      f"{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{rng.randint(10, 99)}")
                state.cars[car.id] = car
    state.cars["CAR-0012"].in_service = False  # SFO-A's second van is in the workshop
    cars = list(state.cars.values())
    for n, (status, offset, length, age) in enumerate(_FLOW):
        car = cars[(n * 7) % len(cars)]
        loc = state.locations[car.location_id]
        person = fake_person(fake)
        pickup = today + dt.timedelta(days=offset)
        rate, fee, total = price(car.car_class, length, age)
        a = RentalAgreement(id=seed_id(state, "RA"), car_id=car.id, car_class=car.car_class, location_id=loc.id,
                            city=loc.city, driver_name=person.name, driver_email=person.email, driver_age=age,
                            pickup_date=pickup, pickup_time=rng.choice(("09:30", "12:00", "15:45")),
                            return_date=pickup + dt.timedelta(days=length), days=length, daily_rate=rate,
                            young_driver_fee=fee, total=total, status=status,
                            created_on=min(today, pickup) - dt.timedelta(days=12))
        if status in ("picked_up", "returned"):
            a.picked_up_on = pickup
        if status == "returned":
            a.returned_on = a.return_date
        if status == "cancelled":
            a.cancelled_on, a.cancel_reason, a.total = today - dt.timedelta(days=2), "Trip postponed.", 0.0
        state.agreements[a.id] = a
    return state
