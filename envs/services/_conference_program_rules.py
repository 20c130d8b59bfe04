"""Rules of the conference_program service: state transitions, slot checks and schedule releases.

Pure functions on the records of ``_conference_program_models``.
"""

from __future__ import annotations

import datetime as dt
from typing import Iterable, Mapping, Optional

from compoworld_gym.envs.services._conference_program_models import (
    NEXT_STATES, SCHEDULABLE, ConferenceEvent, Room, Speaker, Submission,
)
from compoworld_gym.errors import Conflict

#: Schedule grid, minutes: talks start on a multiple of it.
GRID = 5


def check_move(sub: Submission, new: str) -> None:
    """Refuse a state change Pretalx does not allow.

    Raises:
        Conflict: 409 naming the states ``new`` can be reached from.
    """
    if new not in NEXT_STATES[sub.state]:
        came = sorted(s for s, nxt in NEXT_STATES.items() if new in nxt)
        raise Conflict(f"submission {sub.code} is {sub.state}; it can become {new} only from "
                       f"{' or '.join(came)}.")


def slot_problem(ev: ConferenceEvent, start: dt.datetime, end: dt.datetime) -> Optional[str]:
    """Why ``start``-``end`` is not inside the event's days and room hours (a sentence), or None."""
    if start.minute % GRID or start.second:
        return f"talks start on the {GRID}-minute grid; {start:%H:%M} is off it."
    if not ev.date_from <= start.date() <= ev.date_to or end.date() != start.date():
        return f"{ev.name} runs {ev.date_from} to {ev.date_to}; {start:%Y-%m-%d} is outside it."
    if start.hour < ev.day_start or (end.hour, end.minute) > (ev.day_end, 0):
        return (f"rooms are open {ev.day_start:02d}:00-{ev.day_end:02d}:00; {start:%H:%M}-{end:%H:%M} does not "
                "fit.")
    return None


def overlaps(a_start: dt.datetime, a_end: dt.datetime, b_start: dt.datetime, b_end: dt.datetime) -> bool:
    """Whether two half-open intervals overlap (a talk may start when another ends)."""
    return a_start < b_end and b_start < a_end


def room_clash(sub: Submission, room: str, start: dt.datetime, end: dt.datetime,
               others: Iterable[Submission]) -> Optional[Submission]:
    """Another scheduled talk in ``room`` overlapping ``start``-``end``, if any."""
    return next((o for o in others if o.code != sub.code and o.slot is not None and o.slot.room == room
                 and o.state in SCHEDULABLE and overlaps(start, end, o.slot.start, o.slot.end)), None)


def speaker_clash(sub: Submission, start: dt.datetime, end: dt.datetime,
                  others: Iterable[Submission]) -> Optional[tuple[Submission, str]]:
    """``(other talk, speaker code)`` when a speaker of ``sub`` talks elsewhere at the same time."""
    mine = set(sub.speakers)
    for o in others:
        if o.code != sub.code and o.slot is not None and o.state in SCHEDULABLE and mine & set(o.speakers) \
                and overlaps(start, end, o.slot.start, o.slot.end):
            return o, sorted(mine & set(o.speakers))[0]
    return None


def talk_view(sub: Submission, rooms: Mapping[str, Room], speakers: Mapping[str, Speaker]) -> dict:
    """A talk as the schedule shows it (code, title, speakers' names, room, start, end)."""
    return {"code": sub.code, "title": sub.title, "submission_type": sub.submission_type, "track": sub.track,
            "state": sub.state, "speakers": [speakers[s].name for s in sub.speakers],
            "room": rooms[sub.slot.room].name, "room_id": sub.slot.room,
            "start": sub.slot.start.isoformat(), "end": sub.slot.end.isoformat()}


def scheduled(subs: Iterable[Submission], event: str) -> list[Submission]:
    """The event's accepted or confirmed submissions with a slot, by start then room."""
    rows = [s for s in subs if s.event == event and s.state in SCHEDULABLE and s.slot is not None]
    return sorted(rows, key=lambda s: (s.slot.start, s.slot.room))


__all__ = ["GRID", "check_move", "overlaps", "room_clash", "scheduled", "slot_problem", "speaker_clash",
           "talk_view"]
