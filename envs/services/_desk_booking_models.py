"""Records of the desk booking service (Robin Powered API style).

Robin's resources keep their names, snake_cased: locations
(``/v1.0/locations``: ``name``, ``address``, open days), seats (``/v1.0/seats``
in a ``zone``, the neighborhood: ``name``, ``reservation_type`` hoteled or
assigned, ``assignee``, ``is_disabled``), seat reservations
(``/v1.0/reservations/seats``: ``seat_id``, ``reservee.email``, ``start``,
``end``, ``confirmation.status``, check-in) and users with their presence.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Address, City, Date, DateTime, Email, Id, PersonName
from compoworld_gym.service import Record, ServiceState

ReservationStatus = Literal["booked", "checked_in", "cancelled"]
SeatType = Literal["hoteled", "assigned"]


class DeskLocation(Record):
    """An office (Robin ``location``) with the weekdays it opens."""

    id: str = Field(description="Location id, e.g. LOC-0001.")
    name: str = Field(description="Office name, e.g. 'San Francisco HQ'.")
    address: Address = Field(description="Street address.")
    city: City = Field(description="City.")
    open_days: list[int] = Field(description="Weekdays the office opens (0 = Monday).")
    opens_hour: int = Field(ge=0, le=23, description="Hour the office opens (local).")
    closes_hour: int = Field(ge=1, le=24, description="Hour the office closes (local).")


class Desk(Record):
    """A desk (Robin ``seat``) in a neighborhood (``zone``) of a location."""

    id: Id("desk") = Field(description="Desk id, e.g. DSK-0001.")
    name: str = Field(description="Desk name, e.g. 'SF-3-A12'.")
    location_id: str = Field(description="The desk's location.")
    location_name: str = Field(description="The location's name.")
    neighborhood: str = Field(description="Neighborhood (zone) of the floor, e.g. 'Engineering'.")
    floor: int = Field(ge=1, description="Floor.")
    reservation_type: SeatType = Field(description="hoteled (anyone books) or assigned (only its assignee).")
    assignee_email: Optional[Email] = Field(default=None, description="Assigned desk's owner.")
    is_disabled: bool = Field(default=False, description="Disabled desks take no reservations.")


class DeskUser(Record):
    """A Robin user: an employee of the shared roster."""

    id: Id("employee") = Field(description="Employee id, e.g. EMP-0004.")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work email.")
    department: str = Field(description="Department.")
    home_location_id: str = Field(description="The employee's home office.")


class DeskReservation(Record):
    """A desk reservation (Robin seat ``reservation``)."""

    id: Id("desk_reservation") = Field(description="Reservation id, e.g. DRS-0001.")
    desk_id: Id("desk") = Field(description="The desk.")
    desk_name: str = Field(description="The desk's name.")
    location_id: str = Field(description="The desk's location.")
    location_name: str = Field(description="The location's name.")
    reservee_email: Email = Field(description="Who the desk is for.")
    reservee_name: PersonName = Field(description="Their name.")
    date: Date = Field(description="The day reserved.")
    start: DateTime = Field(description="Start (local time).")
    end: DateTime = Field(description="End (local time), the same day.")
    status: ReservationStatus = Field(description="booked, checked_in or cancelled.")
    checked_in_at: Optional[DateTime] = Field(default=None, description="When checked in.")
    cancelled_at: Optional[DateTime] = Field(default=None, description="When cancelled.")
    cancel_reason: str = Field(default="", max_length=500, description="Why it was cancelled.")


class DeskBookingState(ServiceState):
    locations: dict[str, DeskLocation] = Field(default_factory=dict, description="Locations by id.")
    desks: dict[str, Desk] = Field(default_factory=dict, description="Desks by id.")
    users: dict[str, DeskUser] = Field(default_factory=dict, description="Users by employee id.")
    reservations: dict[str, DeskReservation] = Field(default_factory=dict, description="Reservations by id.")
