"""Meeting rooms in chained tasks: a room booking names its organizer and its
day; a room is booked on a discovered day for a meeting with a discovered
person."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists
from compoworld_gym.envs.services._company import OPS_EMAIL, STAFF
from compoworld_gym.envs.services.meeting_rooms import RoomBooking
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import employee_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id,
)

DATE_RX = r"\d{4}-\d{2}-\d{2}"
_TITLES = ("Project review", "Vendor meeting", "Quarterly planning", "Hiring debrief", "Budget review")
#: Hours a reference booking tries, in order (rooms open 07:00-21:00).
_HOURS = (10, 11, 14, 15, 16, 9, 13, 17)


def next_booking_id(state: dict[str, Any]) -> str:
    """Take the next free booking id from the room system's counters."""
    return next_id(state, "BKG")


def plant_booking(state: dict[str, Any], booking_id: str, **fields: Any) -> str:
    """Add a confirmed :class:`RoomBooking` (validated) under ``booking_id``; returns the id.

    Raises:
        pydantic.ValidationError: the fields do not make a valid booking.
    """
    record = RoomBooking.model_validate({"attendees": [], "status": "confirmed", **fields, "id": booking_id})
    state["bookings"][booking_id] = record.model_dump(mode="json")
    return booking_id


def _free_room(state: dict[str, Any], start: str, end: str) -> str:
    """A bookable room with no confirmed booking overlapping ``start``-``end``."""
    for rid, room in sorted(state["rooms"].items()):
        clash = any(b["room_id"] == rid and b["status"] == "confirmed" and b["start"] < end and start < b["end"]
                    for b in state["bookings"].values())
        if not room["out_of_service"] and room["capacity"] >= 4 and not clash:
            return rid
    raise ValueError(f"no free room from {start} to {end}")


def _room_free(state: dict[str, Any], rid: str, start: str, end: str) -> bool:
    return not any(b["room_id"] == rid and b["status"] == "confirmed" and b["start"] < end and start < b["end"]
                   for b in state["bookings"].values())


def _slot(ctx: Ctx, state: dict[str, Any], day: str, room: Any) -> tuple[str, str, str]:
    """(room id, start, end) of a one-hour booking on ``day``: in ``room`` when the
    chain names one (the first hour it is free), else any free room."""
    if room is None:
        start = dt.datetime.fromisoformat(f"{day}T{ctx.rng.choice(_HOURS[:5]):02d}:00:00")
        s, e = start.isoformat(), (start + dt.timedelta(hours=1)).isoformat()
        return _free_room(state, s, e), s, e
    for hour in _HOURS[:5]:
        start = dt.datetime.fromisoformat(f"{day}T{hour:02d}:00:00")
        s, e = start.isoformat(), (start + dt.timedelta(hours=1)).isoformat()
        if room in state["rooms"] and _room_free(state, room, s, e):
            return room, s, e
    raise ValueError(f"room {room} is not free on {day}")


def _real_room(ctx: Ctx) -> str:
    rooms = ctx.state("meeting_rooms")["rooms"]
    return ctx.rng.choice(sorted(r for r, v in rooms.items() if not v["out_of_service"] and v["capacity"] >= 4))


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state("meeting_rooms")
    day = outs.get("date") or ctx.day(ctx.rng.randint(2, 12))
    room, s, e = _slot(ctx, state, str(day)[:10], outs.get("room_id"))
    organizer = outs.get("email") or employee_email(ctx)
    guests = [m.email for m in ctx.rng.sample(STAFF, 2) if m.email != organizer]
    return plant_booking(state, key, room_id=room, title=ctx.rng.choice(_TITLES),
                         organizer_email=organizer, start=s, end=e, attendees=guests)


BOOKING = Relay(
    service="meeting_rooms", name="room booking", key="booking_id",
    gives=(Give("email", "organizer_email", "the organizer's work email", "the employee", draw=employee_email),
           Give("date", "start", "the day of the booked meeting", pattern=DATE_RX),
           Give("room_id", "room_id", "the booked meeting room", draw=_real_room)),
    plant=_plant, find=lambda reader, key: reader.read("meeting_rooms", "get_room_booking", booking_id=key),
    where="Each room booking names the employee who organized it and the day of the meeting.",
    alloc=lambda ctx: next_booking_id(ctx.state("meeting_rooms")), entry=lambda key: f"room booking {key}")


def _book(reader: Reader, args: dict[str, Found]) -> Write:
    day, guest, mention = args["day"].value, args["guest"].value, args["mention"]
    for hour in _HOURS:
        start = dt.datetime.fromisoformat(f"{day}T{hour:02d}:00:00")
        end = (start + dt.timedelta(minutes=30)).isoformat()
        rooms = reader.read("meeting_rooms", "find_available_rooms", start=start.isoformat(), end=end, min_capacity=2)
        if rooms:
            break
    else:
        raise SolveError(f"no room is free on {day}")
    title = f"{args['case'].value}: {mention.noun} is {mention.display}"[:200]
    where = {"status": "confirmed", "start": {"$contains": day}, "attendees": {"$contains": guest},
             "title": {"$contains": mention.display}}
    return Write(
        calls=[call("book_room", room_id=rooms[0]["id"], title=title, organizer_email=OPS_EMAIL,
                    start=start.isoformat(), end=end, attendees=[guest])],
        checks=[RecordExists(id="_", service="meeting_rooms", collection="bookings", where=where,
                             description="A room is booked on the right day for the right person, quoting the value.")],
        scope=[OnlyChanged(id="_", service="meeting_rooms", collection="bookings",
                           allow_new={"start": {"$contains": day}, "attendees": {"$subset": [guest]}},
                           description="No other booking was changed, and nobody else was invited.")],
        tool="book_room", where={"attendees": {"$contains": guest}}, label="the room booking")


LINKS = ServiceLinks(
    service="meeting_rooms", label="the room booking system",
    relays=(BOOKING,),
    # Only meeting days (not a leave's first day, not a sign-up date) are days to meet on.
    actions=(Action(service="meeting_rooms", name="book", needs=(Need("day", "date", ("",)), Need("guest", "email")),
                    build=_book,
                    goal="book a meeting room on {day} for a 30-minute meeting with {guest}, its title quoting "
                         "{mention}"),),
)

__all__ = ["LINKS", "next_booking_id", "plant_booking"]
