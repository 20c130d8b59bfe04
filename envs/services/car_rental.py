"""Car rental: branches by city, cars by class with daily rates, rental agreements.

No car-rental server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Hertz / Amadeus
car-rental booking APIs: locations searched by city, availability of
vehicles by ACRISS class for pickup and return dates, a booking (rental
agreement) for a traveller's email with pickup date and time, modification,
cancellation, pickup and return. Rules: a car is never booked twice on
overlapping days; drivers must be 21, and drivers under 25 pay a
young-driver surcharge per day; cancelling less than 24 hours before
pickup costs one day's charge; a car comes back refuelled or pays a
refuelling charge. Branch cities are the gazetteer's, so bookings chain
with flights and hotels by city, date and email.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import City, Date, Email, Id, PersonName
from compoworld_gym.envs.services._blocks import Lifecycle, eq, ieq, select
from compoworld_gym.envs.services._car_rental_models import (
    ACRISS, DAILY_RATES, FREE_CANCEL_HOURS, MAX_DAYS, MIN_AGE, REFUEL_FEE, YOUNG_DRIVER_AGE, YOUNG_DRIVER_FEE,
    AgreementStatus, CarClass, CarRentalState, Location, RentalAgreement, RentalCar, overlaps, pickup_at, price,
)
from compoworld_gym.envs.services._car_rental_seed import build_state
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Service, tool

LIFECYCLE = Lifecycle("rental agreement", {"modification": ("reserved",), "cancellation": ("reserved",),
                                           "pickup": ("reserved",), "return": ("picked_up",)})
_TIME = r"^([01]\d|2[0-3]):[0-5]\d$"


class CarRental(Service):
    """Rental branches, fleet by class, bookings with surcharges and cancellation fees."""

    name = "car_rental"
    description = ("Car rental (Hertz/Amadeus-style): branches by city, cars by class and daily rate, rental "
                   "agreements with young-driver surcharge, no double booking, late-cancellation fees.")
    domain = "travel"
    spec_source = None
    State = CarRentalState

    def _agreement(self, agreement_id: str) -> RentalAgreement:
        return self.lookup(self.state.agreements, agreement_id, "rental agreement")

    def _car(self, car_id: str) -> RentalCar:
        return self.lookup(self.state.cars, car_id, "rental car")

    def _free(self, car: RentalCar, start: dt.date, end: dt.date, skip: str = "") -> bool:
        return car.in_service and not any(
            a.car_id == car.id and a.id != skip and overlaps(a, start, end) for a in self.state.agreements.values())

    def _check_dates(self, start: dt.date, end: dt.date) -> int:
        if start < self.today:
            raise Unprocessable(f"pickup_date {start} is in the past.")
        days = (end - start).days
        if not 1 <= days <= MAX_DAYS:
            raise Unprocessable(f"return_date must be 1-{MAX_DAYS} days after the pickup date; got {days}.")
        return days

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Location])
    def list_locations(self, city: Optional[City] = None) -> list[dict]:
        """List rental branches, optionally in one city (airport counter and downtown branch).

        Args:
            city: city name, e.g. 'Chicago' (case-blind).
        """
        return [loc.model_dump() for loc in select(self.state.locations.values(), ieq("city", city))]

    @tool(read_only=True)
    def list_car_classes(self) -> list[dict]:
        """Car classes with ACRISS code and daily rate (USD), and the driver-age rules."""
        return [{"car_class": c, "acriss": ACRISS[c], "daily_rate": r, "min_driver_age": MIN_AGE,
                 "young_driver_under": YOUNG_DRIVER_AGE, "young_driver_fee_per_day": YOUNG_DRIVER_FEE}
                for c, r in DAILY_RATES.items()]

    @tool(read_only=True, returns=list[RentalCar])
    def search_available_cars(self, pickup_date: Date, return_date: Date, city: Optional[City] = None,
                              location_id: Optional[str] = None, car_class: Optional[CarClass] = None) -> list[dict]:
        """Cars free for the whole period at a branch or in a city, with the period's price for a 25+ driver.

        Args:
            pickup_date: first day (YYYY-MM-DD), today or later.
            return_date: return day, 1-30 days later.
            city: search every branch of this city.
            location_id: search one branch, e.g. CHI-A.
            car_class: only this class.
        """
        if city is None and location_id is None:
            raise InvalidArgument("give city or location_id; call list_locations for branches.")
        if location_id is not None:
            self.lookup(self.state.locations, location_id, "location")
        days = self._check_dates(pickup_date, return_date)
        where = {k for k, loc in self.state.locations.items() if city is None or loc.city.lower() == city.lower()}
        cars = select(self.state.cars.values(), eq("location_id", location_id), eq("car_class", car_class),
                      lambda c: c.location_id in where and self._free(c, pickup_date, return_date))
        return [{**c.model_dump(), "days": days, "estimated_total": price(c.car_class, days, 30)[2]} for c in cars]

    @tool(read_only=True, returns=RentalCar)
    def get_car(self, car_id: Id("rental_car")) -> dict:
        """Get one car with its bookings' dates.

        Args:
            car_id: the car id, e.g. CAR-0001.
        """
        car = self._car(car_id)
        busy = [{"agreement_id": a.id, "pickup_date": a.pickup_date, "return_date": a.return_date}
                for a in self.state.agreements.values() if a.car_id == car.id and a.status in ("reserved", "picked_up")]
        return {**car.model_dump(), "booked": busy}

    @tool(read_only=True, returns=list[RentalAgreement])
    def list_rental_agreements(self, driver_email: Optional[Email] = None, status: Optional[AgreementStatus] = None,
                               city: Optional[City] = None, pickup_date: Optional[Date] = None) -> list[dict]:
        """List rental agreements by traveller email, status, city or pickup date.

        Args:
            driver_email: the traveller's email.
            status: reserved, picked_up, returned or cancelled.
            city: branch city.
            pickup_date: pickup day (YYYY-MM-DD).
        """
        return [a.model_dump() for a in select(self.state.agreements.values(), ieq("driver_email", driver_email),
                                               eq("status", status), ieq("city", city), eq("pickup_date", pickup_date))]

    @tool(read_only=True, returns=RentalAgreement)
    def get_rental_agreement(self, agreement_id: Id("rental_agreement")) -> dict:
        """Get one rental agreement.

        Args:
            agreement_id: the agreement id, e.g. RA-0001.
        """
        return self._agreement(agreement_id).model_dump()

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=RentalAgreement)
    def create_rental_agreement(self, car_id: Id("rental_car"), driver_name: PersonName = Field(min_length=1),
                                driver_email: Email = Field(min_length=3), driver_age: int = Field(ge=16, le=99),
                                pickup_date: Date = Field(), return_date: Date = Field(),
                                pickup_time: str = Field(default="10:00", pattern=_TIME),
                                flight_number: Optional[str] = Field(default=None, max_length=10)) -> dict:
        """Book a car for a traveller (409 if the car is taken on any of the days or out of service).

        Drivers under 21 are refused (422); under 25 pay the young-driver fee per day.

        Args:
            car_id: a car from search_available_cars.
            driver_name: main driver's full name.
            driver_email: traveller's email.
            driver_age: driver's age at pickup.
            pickup_date: pickup day (YYYY-MM-DD), today or later.
            return_date: return day, 1-30 days later.
            pickup_time: pickup time HH:MM (the return is due at the same time).
            flight_number: arriving flight, e.g. UA1234.
        """
        car = self._car(car_id)
        if driver_age < MIN_AGE:
            raise Unprocessable(f"drivers must be at least {MIN_AGE}; got {driver_age}.")
        days = self._check_dates(pickup_date, return_date)
        if not self._free(car, pickup_date, return_date):
            raise Conflict(f"car {car.id} is not available {pickup_date} to {return_date}; "
                           "call search_available_cars.")
        loc = self.state.locations[car.location_id]
        rate, fee, total = price(car.car_class, days, driver_age)
        a = RentalAgreement(id=self.new_id("RA"), car_id=car.id, car_class=car.car_class, location_id=loc.id,
                            city=loc.city, driver_name=driver_name, driver_email=driver_email.lower(),
                            driver_age=driver_age, pickup_date=pickup_date, pickup_time=pickup_time,
                            return_date=return_date, days=days, daily_rate=rate, young_driver_fee=fee, total=total,
                            status="reserved", flight_number=flight_number, created_on=self.today)
        self.state.agreements[a.id] = a
        return a.model_dump()

    @tool(read_only=False, returns=RentalAgreement)
    def modify_rental_agreement(self, agreement_id: Id("rental_agreement"), pickup_date: Optional[Date] = None,
                                return_date: Optional[Date] = None,
                                pickup_time: Optional[str] = Field(default=None, pattern=_TIME)) -> dict:
        """Change the dates or pickup time of a reservation; repriced, same car (409 if it is taken then).

        Args:
            agreement_id: the reserved agreement.
            pickup_date: new pickup day.
            return_date: new return day.
            pickup_time: new pickup time HH:MM.
        """
        a = self._agreement(agreement_id)
        LIFECYCLE.check(a.id, a.status, "modification")
        start, end = pickup_date or a.pickup_date, return_date or a.return_date
        days = self._check_dates(start, end)
        if not self._free(self._car(a.car_id), start, end, skip=a.id):
            raise Conflict(f"car {a.car_id} is booked by someone else between {start} and {end}.")
        a.daily_rate, a.young_driver_fee, a.total = price(a.car_class, days, a.driver_age)
        a.pickup_date, a.return_date, a.days = start, end, days
        a.pickup_time = pickup_time or a.pickup_time
        return a.model_dump()

    @tool(read_only=False, returns=RentalAgreement)
    def cancel_rental_agreement(self, agreement_id: Id("rental_agreement"),
                                reason: str = Field(min_length=1, max_length=300)) -> dict:
        """Cancel a reservation; less than 24 hours before pickup it costs one day's charge.

        Args:
            agreement_id: the reserved agreement.
            reason: why it is cancelled.
        """
        a = self._agreement(agreement_id)
        LIFECYCLE.check(a.id, a.status, "cancellation")
        late = pickup_at(a) - self.now() < dt.timedelta(hours=FREE_CANCEL_HOURS)
        a.cancellation_fee = money(a.total / a.days) if late else 0.0
        a.status, a.cancelled_on, a.cancel_reason, a.total = "cancelled", self.today, reason, a.cancellation_fee
        return a.model_dump()

    @tool(read_only=False, returns=RentalAgreement)
    def pick_up_car(self, agreement_id: Id("rental_agreement")) -> dict:
        """Hand the car over on the pickup day (422 on any other day).

        Args:
            agreement_id: the reserved agreement.
        """
        a = self._agreement(agreement_id)
        LIFECYCLE.check(a.id, a.status, "pickup")
        if a.pickup_date != self.today:
            raise Unprocessable(f"agreement {a.id} is picked up on {a.pickup_date}, not today ({self.today}).")
        a.status, a.picked_up_on = "picked_up", self.today
        return a.model_dump()

    @tool(read_only=False, returns=RentalAgreement)
    def return_car(self, agreement_id: Id("rental_agreement"), fuel_full: bool = True) -> dict:
        """Close an open rental today: late days are charged at the daily rate, an unfilled tank costs 60 USD.

        Args:
            agreement_id: the picked-up agreement.
            fuel_full: whether the tank came back full.
        """
        a = self._agreement(agreement_id)
        LIFECYCLE.check(a.id, a.status, "return")
        late_days = max(0, (self.today - a.return_date).days)
        extra = late_days * (a.daily_rate + (YOUNG_DRIVER_FEE if a.driver_age < YOUNG_DRIVER_AGE else 0.0))
        a.extra_charges = money(extra + (0.0 if fuel_full else REFUEL_FEE))
        a.total = money(a.total + a.extra_charges)
        a.status, a.returned_on = "returned", self.today
        return a.model_dump()

    @tool(read_only=False, idempotent=True, returns=RentalCar)
    def set_car_in_service(self, car_id: Id("rental_car"), in_service: bool) -> dict:
        """Take a car out of service for maintenance or put it back (409 while it has live bookings).

        Args:
            car_id: the car.
            in_service: False to send it to the workshop, True when it is back.
        """
        car = self._car(car_id)
        if not in_service and any(a.car_id == car.id and a.status in ("reserved", "picked_up")
                                  for a in self.state.agreements.values()):
            raise Conflict(f"car {car.id} has live bookings; move or cancel them first.")
        car.in_service = in_service
        return car.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> CarRentalState:
        return build_state(fake, rng, today)


__all__ = ["CarRental", "LIFECYCLE"]
