"""Business rules of the desk booking service (Robin), as pure functions."""

from __future__ import annotations

import datetime as dt
from typing import Iterable, Optional

from compoworld_gym.envs.services._desk_booking_models import Desk, DeskLocation, DeskReservation
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable

#: Check-in opens this long before the start and closes this long after it.
CHECKIN_EARLY = dt.timedelta(minutes=15)
CHECKIN_LATE = dt.timedelta(hours=1)
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def check_times(loc: DeskLocation, start: dt.datetime, end: dt.datetime, today: dt.date) -> None:
    """A reservation is one day, inside the office's open hours, on an open day, not in the past."""
    if end <= start or end.date() != start.date() and end.time() != dt.time(0):
        raise InvalidArgument("end must be after start, on the same day.")
    if start.date() < today:
        raise InvalidArgument(f"{start.date()} is in the past.")
    if start.weekday() not in loc.open_days:
        raise Unprocessable(f"{loc.name} is closed on {_DAYS[start.weekday()]}s; it opens "
                            f"{', '.join(_DAYS[d] for d in loc.open_days)}.")
    if start.hour < loc.opens_hour or (end.hour + end.minute / 60) > loc.closes_hour or end.date() != start.date():
        raise Unprocessable(f"{loc.name} is open {loc.opens_hour}:00-{loc.closes_hour}:00.")


def check_desk(desk: Desk, email: str) -> None:
    """Disabled desks take nobody; an assigned desk only its assignee."""
    if desk.is_disabled:
        raise Conflict(f"desk {desk.name} is disabled.")
    if desk.reservation_type == "assigned" and (desk.assignee_email or "").lower() != email.lower():
        raise Unprocessable(f"desk {desk.name} is assigned to {desk.assignee_email}; only they can book it.")


def live(rows: Iterable[DeskReservation]) -> list[DeskReservation]:
    return [r for r in rows if r.status != "cancelled"]


def check_free(rows: Iterable[DeskReservation], desk: Desk, email: str, start: dt.datetime, end: dt.datetime,
               skip: Optional[str] = None) -> None:
    """One desk per person per day; a desk holds one reservation at a time."""
    for r in live(rows):
        if r.id == skip or r.date != start.date():
            continue
        if r.reservee_email.lower() == email.lower():
            raise Conflict(f"{email} already has desk {r.desk_name} on {r.date} ({r.id}); one desk per person a day.")
        if r.desk_id == desk.id and r.start < end and start < r.end:
            raise Conflict(f"desk {desk.name} is booked {r.start.time()}-{r.end.time()} on {r.date} ({r.id}).")


def check_in_window(r: DeskReservation, now: dt.datetime) -> None:
    """Check-in runs from 15 minutes before the start to an hour after it."""
    if r.status != "booked":
        raise Conflict(f"reservation {r.id} is {r.status}; only a booked reservation checks in.")
    if not r.start - CHECKIN_EARLY <= now <= r.start + CHECKIN_LATE:
        raise Unprocessable(f"check-in for {r.id} runs {(r.start - CHECKIN_EARLY).isoformat()} to "
                            f"{(r.start + CHECKIN_LATE).isoformat()}; it is {now.isoformat()}.")
