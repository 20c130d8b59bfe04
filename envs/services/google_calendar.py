"""Calendar: the operations team's Google Calendar (``ops@company.example``).

Follows ``@rishipradeep-think41_google-calendar-mcp`` (``list_events``,
``create_event``, ``update_event``, ``delete_event`` with the spec's
parameter names) and adds two designed tools, ``get_event`` and
``find_free_slots``, listed in :attr:`Calendar.designed_tools`.

Times are wall-clock times of the company (no time zone); a time given with
an offset (``...Z``, ``+02:00``) is converted to UTC and its offset dropped.
An event must end after it starts (422) and two confirmed events cannot hold
the same conference room (a location starting with "Room ") at overlapping
times (409). Deleting an event marks it
``cancelled`` (as Google does), so it no longer lists but can still be read.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import ClassVar, Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id
from compoworld_gym.envs.services._calendar_seed import seed_events
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

ResponseStatus = Literal["needsAction", "accepted", "declined", "tentative"]
WORK_START, WORK_END = dt.time(9, 0), dt.time(17, 0)


class Attendee(Record):
    """An invited person."""

    email: Email = Field(description="Attendee email.")
    responseStatus: ResponseStatus = Field(default="needsAction", description="Invitation answer.")


class Event(Record):
    """A calendar event."""

    id: Id("event") = Field(description="Event id, e.g. EVT-0001.")
    summary: str = Field(description="Title.")
    description: str = Field(default="", description="Details.")
    location: str = Field(default="", description="Room name or address; '' when none.")
    start: DateTime = Field(description="Start (company wall-clock time).")
    end: DateTime = Field(description="End (after start).")
    attendees: list[Attendee] = Field(default_factory=list, description="Invited people.")
    organizer: Email = Field(description="Who organised the event.")
    status: Literal["confirmed", "cancelled"] = Field(default="confirmed", description="cancelled once deleted.")
    updated: DateTime = Field(description="Last change (logical clock).")


class CalendarState(ServiceState):
    """The calendar owner and events."""

    owner_email: Email = Field(default=OPS_EMAIL, description="Whose calendar this is (organizer of new events).")
    events: dict[str, Event] = Field(default_factory=dict, description="Events by id.")


def _naive(value: dt.datetime) -> dt.datetime:
    if value.tzinfo is not None:
        value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return value.replace(microsecond=0)


def _dedupe(emails: list[str]) -> list[str]:
    return list(dict.fromkeys(e.strip() for e in emails))


class Calendar(Service):
    """A calendar: list, read, create, move and cancel events, and find free time."""

    name = "calendar"
    description = "Google Calendar of the operations team: events with attendees, rooms and times."
    domain = "productivity"
    spec_source = "@rishipradeep-think41_google-calendar-mcp"
    #: Tools designed here, not present in the spec server.
    designed_tools: ClassVar[frozenset[str]] = frozenset({"get_event", "find_free_slots"})
    State = CalendarState

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Event])
    def list_events(
        self,
        maxResults: int = Field(default=10, ge=1, le=250),  # noqa: N803 - spec name
        timeMin: Optional[DateTime] = None,  # noqa: N803
        timeMax: Optional[DateTime] = None,  # noqa: N803
    ) -> list[dict]:
        """List confirmed events that end after timeMin and start before timeMax, earliest first.

        Args:
            maxResults: maximum number of events (default 10).
            timeMin: ISO date-time lower bound (default: 00:00 today).
            timeMax: ISO date-time upper bound (default: none).
        """
        lo = _naive(timeMin) if timeMin else dt.datetime.combine(self.today, dt.time(0))
        hi = _naive(timeMax) if timeMax else None
        if hi is not None and hi <= lo:
            raise Unprocessable("timeMax must be after timeMin.")
        events = [e for e in self.state.events.values()
                  if e.status == "confirmed" and e.end > lo and (hi is None or e.start < hi)]
        events.sort(key=lambda e: (e.start, e.id))
        return [e.model_dump() for e in events[:maxResults]]

    @tool(read_only=True, returns=Event)
    def get_event(self, eventId: Id("event")) -> dict:  # noqa: N803
        """Get one event, including cancelled ones.

        Args:
            eventId: the event id, e.g. EVT-0001.
        """
        return self.lookup(self.state.events, eventId, "event").model_dump()

    @tool(read_only=True)
    def find_free_slots(
        self,
        date: Date,
        duration_minutes: int = Field(ge=15, le=480),
        attendees: list[Email] = Field(default_factory=list),
    ) -> list[dict]:
        """Find start times on a working day (09:00-17:00, 15-minute steps) when the calendar owner
        and every given attendee are free for the whole duration.

        Args:
            date: the day to search (YYYY-MM-DD).
            duration_minutes: meeting length in minutes (15-480).
            attendees: emails that must also be free (busy = organizer or attendee of a confirmed event).
        """
        people = {self.state.owner_email.lower(), *(a.lower() for a in attendees)}
        busy = [(e.start, e.end) for e in self.state.events.values() if e.status == "confirmed" and (
            e.organizer.lower() in people or any(a.email.lower() in people for a in e.attendees))]
        length = dt.timedelta(minutes=duration_minutes)
        cur, day_end = dt.datetime.combine(date, WORK_START), dt.datetime.combine(date, WORK_END)
        slots = []
        while cur + length <= day_end:
            if all(not (s < cur + length and cur < e) for s, e in busy):
                slots.append({"start": cur, "end": cur + length})
            cur += dt.timedelta(minutes=15)
        return slots

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Event)
    def create_event(
        self,
        summary: str = Field(min_length=1, max_length=300),
        start: DateTime = Field(),
        end: DateTime = Field(),
        location: str = "",
        description: str = "",
        attendees: list[Email] = Field(default_factory=list),
    ) -> dict:
        """Create an event on the calendar; attendees are invited (responseStatus needsAction).

        Args:
            summary: event title.
            start: start date-time, ISO format (e.g. 2026-01-16T10:00:00).
            end: end date-time, ISO format; must be after start.
            location: room or address; a room ('Room ...') cannot hold two overlapping events.
            description: details.
            attendees: attendee email addresses.
        """
        start, end = _naive(start), _naive(end)
        self._check_slot(None, start, end, location)
        event = Event(id=self.new_id("EVT"), summary=summary, description=description, location=location.strip(),
                      start=start, end=end, organizer=self.state.owner_email, updated=self.now(),
                      attendees=[Attendee(email=a) for a in _dedupe(attendees)])
        self.state.events[event.id] = event
        return event.model_dump()

    @tool(read_only=False, returns=Event)
    def update_event(
        self,
        eventId: Id("event"),  # noqa: N803
        summary: Optional[str] = Field(default=None, min_length=1, max_length=300),
        location: Optional[str] = None,
        description: Optional[str] = None,
        start: Optional[DateTime] = None,
        end: Optional[DateTime] = None,
        attendees: Optional[list[Email]] = None,
    ) -> dict:
        """Change an event; only the given fields change. attendees replaces the whole list
        (people kept keep their response).

        Args:
            eventId: the event to change.
            summary: new title.
            location: new room or address ('' to clear).
            description: new details.
            start: new start date-time (ISO).
            end: new end date-time (ISO); must stay after start.
            attendees: the new complete list of attendee emails.
        """
        ev = self.lookup(self.state.events, eventId, "event")
        if ev.status == "cancelled":
            raise Conflict(f"event {eventId} is cancelled; create a new event instead.")
        if all(v is None for v in (summary, location, description, start, end, attendees)):
            raise InvalidArgument("nothing to update: give at least one field to change.")
        new_start = _naive(start) if start else ev.start
        new_end = _naive(end) if end else ev.end
        new_loc = location.strip() if location is not None else ev.location
        self._check_slot(ev.id, new_start, new_end, new_loc)
        if attendees is not None:
            old = {a.email.lower(): a for a in ev.attendees}
            ev.attendees = [old.get(a.lower(), Attendee(email=a)) for a in _dedupe(attendees)]
        ev.start, ev.end, ev.location = new_start, new_end, new_loc
        ev.summary = summary if summary is not None else ev.summary
        ev.description = description if description is not None else ev.description
        ev.updated = self.now()
        return ev.model_dump()

    @tool(read_only=False, destructive=True, returns=Event)
    def delete_event(self, eventId: Id("event")) -> dict:  # noqa: N803
        """Cancel (delete) an event; it disappears from list_events.

        Args:
            eventId: the event to delete.
        """
        ev = self.lookup(self.state.events, eventId, "event")
        if ev.status == "cancelled":
            raise Conflict(f"event {eventId} is already deleted.")
        ev.status = "cancelled"
        ev.updated = self.now()
        return {"deleted": eventId}

    def _check_slot(self, own_id: Optional[str], start: dt.datetime, end: dt.datetime, location: str) -> None:
        if end <= start:
            raise Unprocessable(f"end ({end.isoformat()}) must be after start ({start.isoformat()}).")
        if end - start > dt.timedelta(days=14):
            raise Unprocessable("an event cannot last more than 14 days.")
        room = location.strip().lower()
        if not room.startswith("room "):
            return  # only conference rooms are exclusive; video links and addresses are not
        for e in self.state.events.values():
            if (e.id != own_id and e.status == "confirmed" and e.location.lower() == room
                    and e.start < end and start < e.end):
                raise Conflict(f"{location} is already booked by event {e.id} ({e.summary}, "
                               f"{e.start.isoformat()} to {e.end.isoformat()}); pick another time or room.")

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> CalendarState:
        state = CalendarState()
        for ev in seed_events(fake, rng, today, OPS_EMAIL):
            ev["attendees"] = [Attendee(**a) for a in ev["attendees"]]
            state.events[ev["id"]] = Event(**ev)
        state.counters["EVT"] = len(state.events) + 1
        return state
