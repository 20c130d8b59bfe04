"""The calendar in chained tasks: a meeting names the customer it is with and
its day; a person's most recently scheduled meeting is found by their email;
the case's people are invited to a follow-up."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists
from compoworld_gym.envs.services._company import OPS_EMAIL, staff_of
from compoworld_gym.envs.services.google_calendar import Event
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    next_id,
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest,
)

DATE_RX = r"\d{4}-\d{2}-\d{2}"
_HOURS = (9, 10, 11, 13, 14, 15, 16)


def next_event_id(state: dict[str, Any]) -> str:
    """Take the next free event id from the calendar's counters."""
    return next_id(state, "EVT")


def plant_event(state: dict[str, Any], event_id: str, **fields: Any) -> str:
    """Add an :class:`Event` (validated) under ``event_id``; returns the id.

    Raises:
        pydantic.ValidationError: the fields do not make a valid event.
    """
    base = {"description": "", "location": "", "attendees": [], "organizer": OPS_EMAIL, "status": "confirmed"}
    record = Event.model_validate({**base, **fields, "id": event_id})
    state["events"][event_id] = record.model_dump(mode="json")
    return event_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state("calendar")
    eid = key if by_id else next_event_id(state)
    guest = (outs.get("email") or ctx.person()[1]) if by_id else key
    day = outs.get("date") or ctx.day(ctx.rng.randint(2, 12))
    start = dt.datetime.fromisoformat(f"{day}T{ctx.rng.choice(_HOURS):02d}:00:00")
    people = [{"email": guest, "responseStatus": "accepted"}]
    if by_id:  # the account manager hosts the customer's meeting (a by-email key may be staff: keep it alone)
        host = ctx.rng.choice(staff_of("customer_success")).email
        people.append({"email": host, "responseStatus": ctx.rng.choice(("accepted", "tentative"))})
    topic = ctx.rng.choice(("Account review", "Follow-up call", "Onboarding check-in", "Renewal call"))
    return plant_event(
        state, eid, summary=topic, location="Zoom", start=start.isoformat(),
        end=(start + dt.timedelta(minutes=30)).isoformat(), attendees=people,
        description="Cancelled at the customer's request." if stale else "Agenda shared by email.",
        status="cancelled" if stale else "confirmed", updated=ctx.at(0 if stale else -1, 8))


def _meeting_with(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read("calendar", "list_events", maxResults=250)
    hits = [e for e in rows if any(a["email"].lower() == str(key).lower() for a in e["attendees"])]
    return latest(hits, "updated")


_DAY = Give("date", "start", "the day of the meeting", pattern=DATE_RX)

MEETING = Relay(
    service="calendar", name="meeting", key="event_id",
    gives=(Give("email", "attendees.0.email", "the customer's email address", "the customer"), _DAY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True),
    find=lambda reader, key: reader.read("calendar", "get_event", eventId=key),
    where="The calendar event names the customer it is with and the day it takes place.",
    alloc=lambda ctx: next_event_id(ctx.state("calendar")), entry=lambda key: f"calendar event {key}")

MEETING_WITH = Relay(
    service="calendar", name="upcoming meeting", key="email",
    gives=(Give("event_id", "id", "the upcoming meeting"), _DAY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_meeting_with,
    where="The calendar lists each person's upcoming meetings; the one scheduled most recently is the live one.",
    truth="A cancelled meeting does not count; only the confirmed one does.")


def _invite(reader: Reader, args: dict[str, Found]) -> Write:
    to, mention = args["to"].value, args["mention"]
    first = reader.read("calendar", "list_events", maxResults=1)
    if not first:
        raise SolveError("the calendar has no upcoming day to schedule on")
    slots = reader.read("calendar", "find_free_slots", date=first[0]["start"][:10], duration_minutes=30,
                        attendees=[to])
    if not slots:
        raise SolveError(f"no free half hour with {to}")
    summary = f"Follow-up on {args['case'].value}: {mention.noun} is {mention.display}"
    where = {"status": "confirmed", "attendees": {"$any": {"email": {"$ieq": to}}},
             "summary": {"$contains": mention.display}}
    return Write(
        calls=[call("create_event", summary=summary, start=slots[-1]["start"], end=slots[-1]["end"], attendees=[to])],
        checks=[RecordExists(id="_", service="calendar", collection="events", where=where,
                             description="The right person is invited to a follow-up whose title quotes the value.")],
        # An invitation is a message too: nobody but the right invitee.
        scope=[OnlyChanged(id="_", service="calendar", collection="events",
                           allow_new={"attendees": {"$each": {"email": {"$ieq": to}}}},
                           description="No other event was changed, and nobody else was invited.")],
        tool="create_event", where={"attendees": {"$contains": to}},
        label=f"the invitation to {args['to'].who or 'them'}")


LINKS = ServiceLinks(
    service="calendar", label="the calendar",
    relays=(MEETING, MEETING_WITH),
    actions=(Action(service="calendar", name="invite", needs=(Need("to", "email"),), build=_invite,
                    goal="invite {to} to a 30-minute follow-up meeting whose title quotes {mention}"),),
)

__all__ = ["DATE_RX", "LINKS", "next_event_id", "plant_event"]
