"""Records of the conference_program service (Pretalx REST API resources).

Pretalx's objects with its field names: events (``slug``, ``name``,
``date_from``, ``date_to``, the CFP deadline, submission types with a
``default_duration``, tracks), rooms (``name``, ``capacity``, ``position``),
speakers (``code``, ``name``, ``biography``, ``email``), submissions
(``code``, ``title``, ``speakers``, ``submission_type``, ``track``,
``state`` submitted / accepted / rejected / confirmed / withdrawn /
canceled, ``abstract``, ``duration``, ``slot`` with ``room``, ``start`` and
``end``, ``internal_notes``), reviews (``score``, ``text``, ``user``) and
released schedules (``version``, ``published``, their talks).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id, PersonName
from compoworld_gym.service import Record, ServiceState

SubmissionState = Literal["submitted", "accepted", "rejected", "confirmed", "withdrawn", "canceled"]
#: Pretalx's SubmissionStates.valid_next_states (the transitions the organiser or speaker may make).
NEXT_STATES: dict[str, tuple[str, ...]] = {
    "submitted": ("accepted", "rejected", "withdrawn"),
    "rejected": ("accepted", "submitted"),
    "accepted": ("confirmed", "rejected", "canceled", "withdrawn", "submitted"),
    "confirmed": ("accepted", "canceled", "withdrawn"),
    "canceled": ("accepted", "confirmed"),
    "withdrawn": (),
}
#: States whose talks belong on the schedule.
SCHEDULABLE = ("accepted", "confirmed")


class SubmissionType(Record):
    """A submission type of an event (Pretalx ``submission_types``)."""

    name: str = Field(description="e.g. Talk, Keynote, Workshop, Lightning Talk.")
    default_duration: int = Field(ge=5, le=480, description="Minutes a talk of this type lasts.")


class ScheduleRelease(Record):
    """A released schedule version (Pretalx ``schedules``), with its talks as released."""

    version: str = Field(description="Version name, e.g. 1.0.")
    published: DateTime = Field(description="When released.")
    talks: list[dict] = Field(default_factory=list, description="Talks as released: code, title, speakers, room, "
                                                                "start, end.")


class ConferenceEvent(Record):
    """A Pretalx event: one conference with its call for papers and schedule."""

    slug: str = Field(description="Event slug (the {event} of the API), e.g. customer-summit-2026.")
    name: str = Field(description="Event name.")
    date_from: Date = Field(description="First day.")
    date_to: Date = Field(description="Last day.")
    timezone: str = Field(default="America/New_York", description="Time zone of the schedule.")
    day_start: int = Field(default=9, ge=0, le=23, description="Hour the rooms open each day.")
    day_end: int = Field(default=18, ge=1, le=24, description="Hour the rooms close each day.")
    cfp_deadline: DateTime = Field(description="Call for papers closes.")
    submission_types: list[SubmissionType] = Field(min_length=1, description="Submission types.")
    tracks: list[str] = Field(default_factory=list, description="Tracks.")
    organizer_email: Email = Field(description="The program chair (organiser team).")
    reviewers: list[Email] = Field(default_factory=list, description="The program committee (review team).")
    ticketed_event_id: Optional[Id("ticketed_event")] = Field(default=None, description="The event's tickets in "
                                                                                      "the ticketing system.")
    venue_event_id: Optional[Id("venue_event")] = Field(default=None, description="The venue booking hosting it.")
    schedules: list[ScheduleRelease] = Field(default_factory=list, description="Released schedules, oldest first.")


class Room(Record):
    """A room of an event (Pretalx ``rooms``)."""

    id: str = Field(description="Room id, e.g. ROOM-0002.")
    event: str = Field(description="Event slug.")
    name: str = Field(description="Room name.")
    capacity: int = Field(ge=1, description="Seats.")
    position: int = Field(ge=0, description="Order in the schedule grid.")
    venue_space: Optional[str] = Field(default=None, description="The venue booking's space id, e.g. SPC-0001.")


class Speaker(Record):
    """A speaker (Pretalx ``speakers``): one person across events."""

    code: Id("speaker") = Field(description="Speaker code, e.g. SPK-0004.")
    name: PersonName = Field(description="Public name.")
    email: Email = Field(description="Email (organiser view).")
    biography: str = Field(default="", description="Biography.")
    company: str = Field(default="", description="Company or organisation.")


class Slot(Record):
    """A talk's place on the schedule."""

    room: str = Field(description="Room id.")
    start: DateTime = Field(description="Start (local time).")
    end: DateTime = Field(description="End (local time).")


class Review(Record):
    """A review of a submission (Pretalx ``reviews``)."""

    id: str = Field(description="Review id, e.g. RVW-0001.")
    user: Email = Field(description="Reviewer (program committee member).")
    score: int = Field(ge=0, le=3, description="0 no, 1 weak, 2 good, 3 must have.")
    text: str = Field(default="", description="Review text.")
    created: DateTime = Field(description="When written.")


class Submission(Record):
    """A submission (Pretalx ``submissions``); accepted or confirmed with a slot it is a talk."""

    code: Id("conference_session") = Field(description="Submission code, e.g. SES-0003.")
    event: str = Field(description="Event slug.")
    title: str = Field(description="Title.")
    speakers: list[Id("speaker")] = Field(min_length=1, description="Speaker codes.")
    submission_type: str = Field(description="Submission type name.")
    track: Optional[str] = Field(default=None, description="Track.")
    state: SubmissionState = Field(description="submitted, accepted, rejected, confirmed, withdrawn or canceled.")
    abstract: str = Field(description="Abstract.")
    duration: int = Field(ge=5, le=480, description="Minutes.")
    slot: Optional[Slot] = Field(default=None, description="Where and when it is scheduled.")
    reviews: list[Review] = Field(default_factory=list, description="Reviews.")
    internal_notes: str = Field(default="", description="Organiser-only notes.")
    created: DateTime = Field(description="When submitted.")
    state_changed: Optional[DateTime] = Field(default=None, description="Last state change.")


class ConferenceProgramState(ServiceState):
    """Events, rooms, speakers and submissions of the organiser's Pretalx instance."""

    events: dict[str, ConferenceEvent] = Field(default_factory=dict, description="Events by slug.")
    rooms: dict[str, Room] = Field(default_factory=dict, description="Rooms by id.")
    speakers: dict[str, Speaker] = Field(default_factory=dict, description="Speakers by code.")
    submissions: dict[str, Submission] = Field(default_factory=dict, description="Submissions by code.")
