"""Records, state and pure pricing rules of the car-rental service.

Locations are an airport and a downtown branch in each gazetteer city
(``envs/services/_gazetteer.py``); cars belong to one location and one
class with a daily rate; a rental agreement books one car for a traveller
from a pickup date and time to a return date.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Address, City, Date, Email, Id, Money, PersonName
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.service import Record, ServiceState

CarClass = Literal["economy", "compact", "midsize", "suv", "premium", "van"]
AgreementStatus = Literal["reserved", "picked_up", "returned", "cancelled"]
#: Daily rate per car class (USD) and the class's ACRISS code.
DAILY_RATES: dict[str, float] = {"economy": 39.0, "compact": 45.0, "midsize": 54.0, "suv": 72.0,
                                 "premium": 95.0, "van": 88.0}
ACRISS: dict[str, str] = {"economy": "ECAR", "compact": "CCAR", "midsize": "ICAR", "suv": "IFAR",
                          "premium": "PCAR", "van": "MVAR"}
#: Drivers must be at least this old; drivers under YOUNG_DRIVER_AGE pay the surcharge per day.
MIN_AGE, YOUNG_DRIVER_AGE, YOUNG_DRIVER_FEE = 21, 25, 25.0
#: Refuelling charge (USD) when a car comes back without a full tank.
REFUEL_FEE = 60.0
#: Cancelling less than this many hours before pickup costs one day's charge.
FREE_CANCEL_HOURS = 24
MAX_DAYS = 30


class Location(Record):
    """A rental branch."""

    id: str = Field(description="Location code, e.g. SFO-A (airport) or SFO-D (downtown).")
    name: str = Field(description="Branch name.")
    city: City = Field(description="City.")
    address: Address = Field(description="Street address.")
    kind: Literal["airport", "downtown"] = Field(description="Airport counter or downtown branch.")


class RentalCar(Record):
    """A car of the fleet."""

    id: Id("rental_car") = Field(description="Car id, e.g. CAR-0001.")
    location_id: str = Field(description="Home branch.")
    car_class: CarClass = Field(description="Rate class.")
    acriss: str = Field(description="ACRISS code of the class, e.g. CCAR.")
    make_model: str = Field(description="Make and model, e.g. 'Toyota Corolla'.")
    plate: str = Field(description="Licence plate.")
    seats: int = Field(ge=2, le=9, description="Seats.")
    in_service: bool = Field(default=True, description="False while in maintenance (not rentable).")


class RentalAgreement(Record):
    """A rental agreement (reservation, then open rental, then closed)."""

    id: Id("rental_agreement") = Field(description="Agreement id, e.g. RA-0001.")
    car_id: Id("rental_car") = Field(description="The car booked.")
    car_class: CarClass = Field(description="Its class.")
    location_id: str = Field(description="Pickup and return branch.")
    city: City = Field(description="City of the branch.")
    driver_name: PersonName = Field(description="Main driver.")
    driver_email: Email = Field(description="Traveller's email.")
    driver_age: int = Field(ge=MIN_AGE, le=99, description="Driver's age at pickup.")
    pickup_date: Date = Field(description="Pickup day.")
    pickup_time: str = Field(description="Pickup time HH:MM.")
    return_date: Date = Field(description="Return day (same time as pickup).")
    days: int = Field(ge=1, description="Rental days charged.")
    daily_rate: Money = Field(description="Class rate per day (USD).")
    young_driver_fee: Money = Field(default=0.0, description="Young-driver surcharge in total (USD).")
    extra_charges: Money = Field(default=0.0, description="Refuelling and late-return charges (USD).")
    total: Money = Field(description="Amount charged or to charge (USD).")
    status: AgreementStatus = Field(description="reserved, picked_up, returned or cancelled.")
    flight_number: Optional[str] = Field(default=None, description="Arriving flight, for airport pickups.")
    created_on: Date = Field(description="Date booked.")
    picked_up_on: Optional[Date] = Field(default=None, description="Date the car left.")
    returned_on: Optional[Date] = Field(default=None, description="Date the car came back.")
    cancelled_on: Optional[Date] = Field(default=None, description="Date cancelled.")
    cancel_reason: Optional[str] = Field(default=None, description="Why it was cancelled.")
    cancellation_fee: Money = Field(default=0.0, description="Late-cancellation fee (USD).")


class CarRentalState(ServiceState):
    """Branches, fleet and agreements."""

    locations: dict[str, Location] = Field(default_factory=dict, description="Branches by code.")
    cars: dict[str, RentalCar] = Field(default_factory=dict, description="Cars by id.")
    agreements: dict[str, RentalAgreement] = Field(default_factory=dict, description="Agreements by id.")


def price(car_class: str, days: int, age: int) -> tuple[float, float, float]:
    """``(daily rate, young-driver fee, total)`` in USD for ``days`` days of ``car_class`` at driver ``age``."""
    rate = DAILY_RATES[car_class]
    fee = money(YOUNG_DRIVER_FEE * days) if age < YOUNG_DRIVER_AGE else 0.0
    return rate, fee, money(rate * days + fee)


def overlaps(a: RentalAgreement, start: dt.date, end: dt.date) -> bool:
    """Whether a live agreement holds its car on any day of ``[start, end)`` (a return day frees the car)."""
    return a.status in ("reserved", "picked_up") and a.pickup_date < end and start < a.return_date


def pickup_at(a: RentalAgreement) -> dt.datetime:
    """The agreement's pickup moment (date and HH:MM time)."""
    hh, mm = (int(x) for x in a.pickup_time.split(":"))
    return dt.datetime.combine(a.pickup_date, dt.time(hh, mm))
