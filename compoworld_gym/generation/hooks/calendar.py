"""Task hook of the calendar: an event's attendee as a fact; new events
(an invitee, or a day) as sinks."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook, record_sink


def _plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    eid = ctx.new_id("calendar", "EVT")
    day = ctx.day(12 - opts.get("when", 2))  # always ahead of today: list_events starts at today
    hour = 9 + opts.get("rank", 1) * 2
    return eid, {"id": eid, "summary": f"Review of {cue}", "description": "", "location": "",
                 "start": f"{day}T{hour:02d}:00:00", "end": f"{day}T{hour:02d}:30:00",
                 "attendees": [{"email": value, "responseStatus": "accepted"}], "organizer": "ops@company.example",
                 "status": "confirmed", "updated": f"{ctx.day(-opts.get('when', 2))}T08:00:00"}


def _sink_invite(ctx: Ctx, fact: Fact) -> SinkStep:
    summary = ctx.unique(f"Kick-off for {ctx.case()}")
    start, end = f"{ctx.day(2)}T14:00:00", f"{ctx.day(2)}T14:30:00"
    sink = record_sink(
        ctx, fact, service="calendar", tool="create_event", value_arg="attendees", collection="events",
        field_path="attendees", key={"summary": {"$ieq": summary}}, where={"summary": {"$ieq": summary}},
        list_arg=True, nest="email",
        calls=[call("create_event", summary=summary, start=start, end=end, attendees=[fact.value])],
        phrase=f"put a 30-minute event '{summary}' on the calendar on {ctx.day(2)} at 14:00 and invite {{ref}}",
        label=f"the '{summary}' event")
    # An invitation is a message too: nobody but the right invitee.
    sink.scope = {"events": {"allow_new": {"summary": {"$ieq": summary},
                                           "attendees": {"$each": {"email": {"$ieq": fact.value}}}}}}
    return sink


def _sink_day(ctx: Ctx, fact: Fact) -> SinkStep:
    summary = ctx.unique(f"Check-in on {ctx.case()}")
    return record_sink(
        ctx, fact, service="calendar", tool="create_event", value_arg="start", collection="events",
        field_path="start", key={"summary": {"$ieq": summary}}, where={"summary": {"$ieq": summary}}, text=True,
        calls=[call("create_event", summary=summary, start=f"{fact.value}T10:00:00", end=f"{fact.value}T10:30:00")],
        phrase=f"schedule a 30-minute calendar event '{summary}' at 10:00 on {{ref}}",
        label=f"the '{summary}' event")


HOOK = ServiceHook(
    service="calendar",
    label="the calendar",
    sources={"email": RecordSource(
        type="email", tool="list_events", collection="events", noun="the invitee's email address",
        locate="of the calendar event 'Review of {cue}'", plant=_plant, read_args=lambda cue: {"maxResults": 250},
        cue=lambda ctx: f"account {ctx.code()}", variants=frozenset({"latest"}),
        plural="events")},
    sinks={"email": ("create_event", _sink_invite), "date": ("create_event", _sink_day)},
    free_text={"create_event": "start"},  # a day is written inside the start date-time
)
