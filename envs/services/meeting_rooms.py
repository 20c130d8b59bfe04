"""Meeting rooms: rooms per office site, bookings without double booking.

No room-booking server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface is designed the way Microsoft Graph's places / room-booking API and
Robin's look (rooms per building with capacity, equipment and accessibility;
schedules; "find a free room" for a time slot). Rules: a room has at most one
confirmed booking at any minute (409); bookings lie within 07:00-21:00 of one
day, last 15 minutes to 8 hours and cannot start in the past (422); attendees
must fit the room (422); an out-of-service room cannot be booked (409).
Times are the site's local time, without a timezone. Organizers are the
company's staff from ``_company``.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Address, City, Date, DateTime, Email, Id
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import DAY_START, Record, Service, ServiceState, tool

Equipment = Literal["display", "video_conference", "whiteboard", "projector", "phone"]
OPEN, CLOSE = dt.time(7, 0), dt.time(21, 0)
MIN_MINUTES, MAX_MINUTES = 15, 480


class Site(Record):
    """An office building."""

    code: str = Field(description="Site code, e.g. SF-HQ.")
    name: str = Field(description="Site name.")
    city: City = Field(description="City.")
    address: Address = Field(description="Street address.")


class Room(Record):
    """A bookable room."""

    id: Id("room") = Field(description="Room id, e.g. RM-0001.")
    name: str = Field(description="Room name.")
    site: str = Field(description="Site code.")
    floor: int = Field(description="Floor number.")
    capacity: int = Field(ge=1, description="Seats.")
    equipment: list[Equipment] = Field(description="Equipment in the room.")
    accessible: bool = Field(description="Wheelchair accessible.")
    out_of_service: bool = Field(default=False, description="True while the room cannot be booked.")
    issues: list[str] = Field(default_factory=list, description="Reported problems, oldest first.")


class RoomBooking(Record):
    """A booking of a room for a time slot."""

    id: Id("booking") = Field(description="Booking id, e.g. BKG-0001.")
    room_id: Id("room") = Field(description="The room.")
    title: str = Field(description="Meeting title.")
    organizer_email: Email = Field(description="Who booked it.")
    start: DateTime = Field(description="Start, site local time.")
    end: DateTime = Field(description="End, site local time.")
    attendees: list[Email] = Field(default_factory=list, description="Invited attendees (organizer excluded).")
    status: Literal["confirmed", "cancelled"] = Field(description="Booking status.")


class MeetingRoomsState(ServiceState):
    """Sites, rooms and bookings."""

    sites: dict[str, Site] = Field(default_factory=dict, description="Sites by code.")
    rooms: dict[str, Room] = Field(default_factory=dict, description="Rooms by id.")
    bookings: dict[str, RoomBooking] = Field(default_factory=dict, description="Bookings by id.")


SITES = (
    Site(code="SF-HQ", name="San Francisco HQ", city="San Francisco", address="101 Spear St, San Francisco, CA 94105"),
    Site(code="NY-01", name="New York Office", city="New York", address="250 Park Ave S, New York, NY 10003"),
    Site(code="AUS-01", name="Austin Hub", city="Austin", address="500 W 2nd St, Austin, TX 78701"),
)
_ROOM_NAMES = ("Redwood", "Sequoia", "Golden Gate", "Alcatraz", "Hudson", "Liberty", "Brooklyn", "Empire",
               "Bluebonnet", "Pecos", "Colorado", "Zilker")


class MeetingRooms(Service):
    """Meeting rooms per office: capacity and equipment, schedules, free-room search, bookings with no double booking."""

    name = "meeting_rooms"
    description = "Office meeting rooms: sites, room capacity and equipment, availability, bookings without double booking."
    domain = "workplace"
    spec_source = None
    State = MeetingRoomsState

    # ---------------------------------------------------------------- helpers
    def _slot(self, start: dt.datetime, end: dt.datetime) -> None:
        if start.tzinfo is not None or end.tzinfo is not None:
            raise InvalidArgument("give start and end as site local time without a timezone, e.g. 2026-01-16T10:00:00.")
        minutes = (end - start).total_seconds() / 60
        if minutes < MIN_MINUTES or minutes > MAX_MINUTES:
            raise Unprocessable(f"a booking lasts {MIN_MINUTES}-{MAX_MINUTES} minutes; got {minutes:g}.")
        if start.date() != end.date() or start.time() < OPEN or end.time() > CLOSE:
            raise Unprocessable(f"bookings must lie within {OPEN:%H:%M}-{CLOSE:%H:%M} of a single day.")
        if start < self._clock():
            raise Unprocessable(f"start {start} is in the past (now is {self._clock()}).")

    def _clock(self) -> dt.datetime:
        # Read the logical clock without advancing it (reads must not change state).
        return dt.datetime.combine(self.today, DAY_START) + dt.timedelta(minutes=self.state.clock)

    def _clash(self, room_id: str, start: dt.datetime, end: dt.datetime, exclude: str = "") -> Optional[RoomBooking]:
        for b in self.state.bookings.values():
            if (b.room_id == room_id and b.status == "confirmed" and b.id != exclude
                    and b.start < end and start < b.end):
                return b
        return None

    def _fits(self, room: Room, start: dt.datetime, end: dt.datetime, attendees: list[str], exclude: str = "") -> None:
        if room.out_of_service:
            raise Conflict(f"room {room.id} ({room.name}) is out of service; find_available_rooms for another.")
        if len(attendees) + 1 > room.capacity:
            raise Unprocessable(f"{room.name} seats {room.capacity}; {len(attendees) + 1} people (organizer included).")
        other = self._clash(room.id, start, end, exclude)
        if other is not None:
            raise Conflict(f"{room.name} is booked {other.start:%H:%M}-{other.end:%H:%M} ({other.id}); "
                           "choose another time or room (find_available_rooms).")

    def _booking(self, booking_id: str) -> RoomBooking:
        return self.lookup(self.state.bookings, booking_id, "booking")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Site])
    def list_sites(self) -> list[dict]:
        """List office sites with their city, address and number of rooms."""
        return [{**s.model_dump(), "rooms": sum(1 for r in self.state.rooms.values() if r.site == s.code)}
                for s in self.state.sites.values()]

    @tool(read_only=True, returns=list[Room])
    def list_rooms(
        self,
        site: Optional[str] = None,
        min_capacity: int = Field(default=1, ge=1, le=500),
        equipment: list[Equipment] = Field(default_factory=list),
        accessible: Optional[bool] = None,
    ) -> list[dict]:
        """List rooms, optionally by site, minimum capacity, equipment and accessibility.

        Args:
            site: site code, e.g. SF-HQ (see list_sites).
            min_capacity: at least this many seats.
            equipment: the room must have all of these.
            accessible: only wheelchair-accessible rooms when true.
        """
        return [r.model_dump() for r in self.state.rooms.values()
                if (site is None or r.site.lower() == site.lower()) and r.capacity >= min_capacity
                and set(equipment) <= set(r.equipment) and (accessible is None or r.accessible == accessible)]

    @tool(read_only=True, returns=Room)
    def get_room(self, room_id: Id("room")) -> dict:
        """Get one room with equipment, service state and reported issues.

        Args:
            room_id: the room id, e.g. RM-0004.
        """
        return self.lookup(self.state.rooms, room_id, "room").model_dump()

    @tool(read_only=True, returns=list[RoomBooking])
    def get_room_schedule(self, room_id: Id("room"), date: Date) -> dict:
        """Get a room's confirmed bookings on a date and its free gaps within opening hours.

        Args:
            room_id: the room.
            date: the day (YYYY-MM-DD).
        """
        r = self.lookup(self.state.rooms, room_id, "room")
        day = sorted((b for b in self.state.bookings.values()
                      if b.room_id == room_id and b.status == "confirmed" and b.start.date() == date),
                     key=lambda b: b.start)
        free, cursor = [], dt.datetime.combine(date, OPEN)
        for b in day:
            if b.start > cursor:
                free.append({"start": cursor, "end": b.start})
            cursor = max(cursor, b.end)
        if cursor < dt.datetime.combine(date, CLOSE):
            free.append({"start": cursor, "end": dt.datetime.combine(date, CLOSE)})
        return {"room_id": r.id, "name": r.name, "date": date, "out_of_service": r.out_of_service,
                "bookings": [b.model_dump() for b in day], "free": free}

    @tool(read_only=True, returns=list[Room])
    def find_available_rooms(
        self,
        start: DateTime,
        end: DateTime,
        site: Optional[str] = None,
        min_capacity: int = Field(default=1, ge=1, le=500),
        equipment: list[Equipment] = Field(default_factory=list),
    ) -> list[dict]:
        """List in-service rooms free for the whole slot, smallest fitting room first.

        Args:
            start: slot start, site local time (YYYY-MM-DDTHH:MM:SS).
            end: slot end, site local time.
            site: only this site code.
            min_capacity: at least this many seats.
            equipment: the room must have all of these.
        """
        self._slot(start, end)
        rooms = [r for r in self.state.rooms.values()
                 if not r.out_of_service and (site is None or r.site.lower() == site.lower())
                 and r.capacity >= min_capacity and set(equipment) <= set(r.equipment)
                 and self._clash(r.id, start, end) is None]
        return [r.model_dump(exclude={"issues"}) for r in sorted(rooms, key=lambda r: (r.capacity, r.id))]

    @tool(read_only=True, returns=RoomBooking)
    def get_room_booking(self, booking_id: Id("booking")) -> dict:
        """Get one room booking.

        Args:
            booking_id: the booking id, e.g. BKG-0003.
        """
        return self._booking(booking_id).model_dump()

    @tool(read_only=True, returns=list[RoomBooking])
    def list_room_bookings(
        self,
        organizer_email: Optional[Email] = None,
        room_id: Optional[Id("room")] = None,
        date: Optional[Date] = None,
        status: Optional[Literal["confirmed", "cancelled"]] = None,
        limit: int = Field(default=50, ge=1, le=200),
    ) -> list[dict]:
        """List bookings by organizer, room, date or status, earliest first.

        Args:
            organizer_email: who booked.
            room_id: only this room.
            date: only bookings on this day (YYYY-MM-DD).
            status: confirmed or cancelled.
            limit: maximum number of bookings (1-200).
        """
        low = organizer_email.lower() if organizer_email else None
        rows = [b for b in self.state.bookings.values()
                if (low is None or b.organizer_email.lower() == low) and (room_id is None or b.room_id == room_id)
                and (date is None or b.start.date() == date) and (status is None or b.status == status)]
        return [b.model_dump() for b in sorted(rows, key=lambda b: (b.start, b.id))][:limit]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=RoomBooking)
    def book_room(
        self,
        room_id: Id("room"),
        title: str = Field(min_length=1, max_length=200),
        organizer_email: Email = Field(min_length=3),
        start: DateTime = Field(),
        end: DateTime = Field(),
        attendees: list[Email] = Field(default_factory=list, max_length=200),
    ) -> dict:
        """Book a room for a slot; refused (409) if it overlaps another confirmed booking.

        Args:
            room_id: the room.
            title: meeting title.
            organizer_email: who books it.
            start: start, site local time (YYYY-MM-DDTHH:MM:SS).
            end: end, site local time, same day.
            attendees: invited attendees' emails (organizer not included).
        """
        r = self.lookup(self.state.rooms, room_id, "room")
        self._slot(start, end)
        self._fits(r, start, end, attendees)
        b = RoomBooking(id=self.new_id("BKG"), room_id=r.id, title=title, organizer_email=organizer_email,
                        start=start, end=end, attendees=list(attendees), status="confirmed")
        self.state.bookings[b.id] = b
        return {**b.model_dump(), "room_name": r.name, "site": r.site}

    @tool(read_only=False, returns=RoomBooking)
    def update_room_booking(
        self,
        booking_id: Id("booking"),
        room_id: Optional[Id("room")] = None,
        start: Optional[DateTime] = None,
        end: Optional[DateTime] = None,
        title: Optional[str] = Field(default=None, min_length=1, max_length=200),
        attendees: Optional[list[Email]] = None,
    ) -> dict:
        """Move a booking to another room or time, or change its title or attendees (same checks as book_room).

        Args:
            booking_id: a confirmed booking.
            room_id: new room.
            start: new start, site local time.
            end: new end, site local time.
            title: new title.
            attendees: new full attendee list.
        """
        b = self._booking(booking_id)
        if b.status != "confirmed":
            raise Conflict(f"booking {booking_id} is {b.status}.")
        if all(v is None for v in (room_id, start, end, title, attendees)):
            raise InvalidArgument("nothing to change: give room_id, start, end, title or attendees.")
        r = self.lookup(self.state.rooms, room_id or b.room_id, "room")
        s, e = start or b.start, end or b.end
        people = b.attendees if attendees is None else list(attendees)
        if room_id is not None or start is not None or end is not None:
            self._slot(s, e)
        self._fits(r, s, e, people, exclude=b.id)
        b.room_id, b.start, b.end, b.attendees = r.id, s, e, people
        if title is not None:
            b.title = title
        return {**b.model_dump(), "room_name": r.name, "site": r.site}

    @tool(read_only=False, destructive=True, returns=RoomBooking)
    def cancel_room_booking(self, booking_id: Id("booking")) -> dict:
        """Cancel a confirmed booking that has not ended.

        Args:
            booking_id: the booking.
        """
        b = self._booking(booking_id)
        if b.status != "confirmed":
            raise Conflict(f"booking {booking_id} is already {b.status}.")
        if b.end <= self._clock():
            raise Conflict(f"booking {booking_id} ended at {b.end}; past bookings stay on record.")
        b.status = "cancelled"
        return b.model_dump()

    @tool(read_only=False, returns=Room)
    def report_room_issue(
        self, room_id: Id("room"), issue: str = Field(min_length=3, max_length=300), out_of_service: bool = False
    ) -> dict:
        """Report a problem with a room; optionally take it out of service (its future bookings are listed to move).

        Args:
            room_id: the room.
            issue: what is wrong, e.g. 'display has no signal'.
            out_of_service: true to block new bookings until fixed.
        """
        r = self.lookup(self.state.rooms, room_id, "room")
        r.issues.append(issue)
        r.out_of_service = r.out_of_service or out_of_service
        now = self._clock()
        affected = [b.id for b in self.state.bookings.values()
                    if b.room_id == r.id and b.status == "confirmed" and b.end > now] if r.out_of_service else []
        return {**r.model_dump(), "affected_bookings": affected}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> MeetingRoomsState:
        st = MeetingRoomsState(sites={s.code: s for s in SITES})
        equipment = ("display", "video_conference", "whiteboard", "projector", "phone")
        for i, name in enumerate(_ROOM_NAMES, start=1):
            site = SITES[(i - 1) // 4].code
            cap = (4, 6, 10, 16)[(i - 1) % 4]
            kit = ["whiteboard"] + (["display", "video_conference"] if cap >= 6 else ["phone"])
            if cap >= 10:
                kit.append("projector")
            st.rooms[f"RM-{i:04d}"] = Room(id=f"RM-{i:04d}", name=name, site=site, floor=2 + (i - 1) % 4 // 2,
                                           capacity=cap, equipment=[e for e in equipment if e in kit],
                                           accessible=(i % 3 != 0))
        titles = ("Weekly sync", "Quarterly planning", "Customer call", "Interview loop", "Design review",
                  "1:1", "Incident postmortem", "Budget review")
        n = 0
        for k in range(16):
            room = f"RM-{rng.randint(1, len(_ROOM_NAMES)):04d}"
            day = today + dt.timedelta(days=rng.randint(0, 5))
            start = dt.datetime.combine(day, dt.time(rng.randint(9, 17), rng.choice((0, 30))))
            end = start + dt.timedelta(minutes=rng.choice((30, 60, 90)))
            if any(b.room_id == room and b.start < end and start < b.end for b in st.bookings.values()):
                continue
            n += 1
            org = STAFF[rng.randrange(len(STAFF))]
            guests = [s.email for s in rng.sample(STAFF, min(rng.randint(1, 3), st.rooms[room].capacity - 1))
                      if s.email != org.email]
            st.bookings[f"BKG-{n:04d}"] = RoomBooking(
                id=f"BKG-{n:04d}", room_id=room, title=titles[k % len(titles)], organizer_email=org.email,
                start=start, end=end, attendees=guests, status="cancelled" if k == 15 else "confirmed")
        st.counters["BKG"] = n + 1
        return st
