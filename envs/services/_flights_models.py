"""State records of the flights service: passengers and bookings (the timetable is ``_timetable``).

Kept apart from the tools so that hooks and tests can build bookings without
importing the service; fares and seat counts are in :mod:`._flights_rules`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from compoworld_gym.entities import City, Date, DateTime, Email, Id, Money, PersonName
from compoworld_gym.service import Record, ServiceState

FareClass = Literal["basic", "standard", "flex"]


def _has_text(name: str) -> str:
    # The last word is the ticket's surname (update_passenger); a blank name has none.
    if not name.split():
        raise ValueError("a passenger name must not be empty or blank")
    return name


#: A passenger's full name: not blank. The pattern says in the JSON Schema what
#: ``_has_text`` checks (a non-space character somewhere; anchored, so generators
#: that read a pattern as a full match agree); the validator gives the clear message.
FullName = Annotated[PersonName, AfterValidator(_has_text),
                     Field(json_schema_extra={"pattern": r"^\s*\S[\s\S]*$"})]


class Passenger(Record):
    """A traveller on a booking."""

    name: FullName = Field(description="Full name as on the passport (not blank).",
                           json_schema_extra={"minLength": 1})
    email: Email = Field(description="Passenger's email for notifications.")


class FlightBooking(Record):
    """A flight booking (order)."""

    id: Id("booking") = Field(description="Booking id, e.g. FB-0001.")
    flight_id: Id("flight") = Field(description="Flight id, e.g. PA101-20260120.")
    flight_number: str = Field(description="Marketing flight number.")
    origin: str = Field(description="Origin airport IATA code.")
    destination: str = Field(description="Destination airport IATA code.")
    origin_city: City = Field(description="Origin city.")
    destination_city: City = Field(description="Destination city.")
    departure: DateTime = Field(description="Local departure time at the origin.")
    arrival: DateTime = Field(description="Local arrival time at the destination.")
    fare_class: FareClass = Field(description="basic, standard or flex.")
    passengers: list[Passenger] = Field(min_length=1, description="Travellers.")
    contact_email: Email = Field(description="Who receives booking emails.")
    price_per_passenger: Money = Field(description="USD fare per traveller.")
    total_paid: Money = Field(description="USD charged so far (fares plus change fees).")
    status: Literal["confirmed", "cancelled"] = Field(description="Booking status.")
    refund_amount: Money = Field(default=0.0, description="USD refunded on cancellation.")
    booked_on: Date = Field(description="Date booked.")
    history: list[str] = Field(default_factory=list, description="Changes, oldest first.")


class FlightsState(ServiceState):
    """Bookings plus the seed of the timetable's background seat load."""

    bookings: dict[str, FlightBooking] = Field(default_factory=dict, description="Bookings by id.")
    load_salt: int = Field(default=0, description="Seeds how full each flight is before these bookings.")
