"""Read tools of the conference_program service (Pretalx ``/events``, ``/submissions``, ``/speakers``,
``/rooms`` and ``/talks``).

A mixin of :class:`compoworld_gym.envs.services.conference_program.ConferenceProgram`;
its methods become tools, and its lookups and views are shared by the write tools.
"""

from __future__ import annotations

import datetime as dt
from typing import Optional

from pydantic import Field

from compoworld_gym.entities import Email, Id
from compoworld_gym.envs.services._blocks import eq, select, text
from compoworld_gym.envs.services._conference_program_models import (
    ConferenceEvent, Room, Speaker, Submission, SubmissionState,
)
from compoworld_gym.errors import NotFound
from compoworld_gym.service import DAY_START, tool

Slug = str


class ConferenceReads:
    """Lookups, views and the read tools."""

    # ---------------------------------------------------------------- helpers
    def _clock(self) -> dt.datetime:
        """The logical time now, without advancing it."""
        return dt.datetime.combine(self.today, DAY_START) + dt.timedelta(minutes=self.state.clock)

    def _event(self, slug: str) -> ConferenceEvent:
        return self.lookup(self.state.events, slug, "event")

    def _sub(self, slug: str, code: str) -> Submission:
        self._event(slug)
        sub = self.state.submissions.get(code)
        if sub is None or sub.event != slug:
            raise NotFound(f"event {slug} has no submission {code!r}; call list_submissions.")
        return sub

    def _event_view(self, ev: ConferenceEvent) -> dict:
        out = ev.model_dump()
        out["cfp_open"] = self._clock() <= ev.cfp_deadline
        out["schedule_version"] = ev.schedules[-1].version if ev.schedules else None
        del out["schedules"]
        return out

    def _sub_view(self, sub: Submission) -> dict:
        out = {"id": sub.code, **sub.model_dump()}
        ev = self.state.events[sub.event]
        out["speakers"] = [{"code": c, "name": self.state.speakers[c].name, "email": self.state.speakers[c].email}
                           for c in sub.speakers]
        out["speaker_email"] = out["speakers"][0]["email"]
        out["speaker_name"] = out["speakers"][0]["name"]
        out["ticketed_event_id"], out["venue_event_id"] = ev.ticketed_event_id, ev.venue_event_id
        if sub.slot is not None:
            out["slot"]["room_name"] = self.state.rooms[sub.slot.room].name
        out["review_score"] = (round(sum(r.score for r in sub.reviews) / len(sub.reviews), 2)
                               if sub.reviews else None)
        return out

    def _speaker_view(self, sp: Speaker, slug: Optional[str]) -> dict:
        subs = [s.code for s in self.state.submissions.values()
                if sp.code in s.speakers and (slug is None or s.event == slug)]
        return {**sp.model_dump(), "submissions": subs}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[ConferenceEvent])
    def list_events(self, ticketed_event_id: Optional[Id("ticketed_event")] = None,
                    venue_event_id: Optional[Id("venue_event")] = None) -> list[dict]:
        """List events with their dates, CFP deadline (and whether it is open), ticketing and venue bookings.

        Args:
            ticketed_event_id: only the event sold as this ticketed event, e.g. TEV-0001.
            venue_event_id: only the event held at this venue booking, e.g. VEV-0007.
        """
        return [self._event_view(e) for e in select(self.state.events.values(),
                                                    eq("ticketed_event_id", ticketed_event_id),
                                                    eq("venue_event_id", venue_event_id))]

    @tool(read_only=True, returns=ConferenceEvent)
    def get_event(self, event: Slug) -> dict:
        """Get an event: dates, room hours, CFP deadline, submission types and durations, tracks, teams.

        Args:
            event: the event slug, e.g. customer-summit-2026.
        """
        return self._event_view(self._event(event))

    @tool(read_only=True, returns=list[Submission])
    def list_submissions(self, event: Slug, state: Optional[SubmissionState] = None,
                         speaker: Optional[Id("speaker")] = None, speaker_email: Optional[Email] = None,
                         track: Optional[str] = None, q: Optional[str] = Field(default=None, max_length=100),
                         limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List an event's submissions by state, speaker (code or email), track or text in the title.

        Args:
            event: the event slug.
            state: submitted, accepted, rejected, confirmed, withdrawn or canceled.
            speaker: a speaker code, e.g. SPK-0004.
            speaker_email: a speaker's email (case-insensitive).
            track: the track name.
            q: text in the title (case-insensitive).
            limit: maximum number of submissions (1-200).
        """
        self._event(event)
        by_mail = None
        if speaker_email is not None:
            e = speaker_email.lower()
            by_mail = lambda s: any(self.state.speakers[c].email.lower() == e for c in s.speakers)  # noqa: E731
        rows = select(self.state.submissions.values(), eq("event", event), eq("state", state),
                      (lambda s: speaker in s.speakers) if speaker else None, by_mail, eq("track", track),
                      text(q, "title"), limit=limit)
        return [self._sub_view(s) for s in rows]

    @tool(read_only=True, returns=Submission)
    def get_submission(self, event: Slug, code: Id("conference_session")) -> dict:
        """Get a submission: speakers, type, duration, state, slot, reviews and their mean score.

        Args:
            event: the event slug.
            code: the submission code, e.g. SES-0005.
        """
        return self._sub_view(self._sub(event, code))

    @tool(read_only=True, returns=list[Speaker])
    def list_speakers(self, event: Slug, q: Optional[str] = Field(default=None, max_length=100),
                      email: Optional[Email] = None) -> list[dict]:
        """List the event's speakers (everyone with a submission to it), by name text or email.

        Args:
            event: the event slug.
            q: text in the speaker's name (case-insensitive).
            email: the speaker's email (case-insensitive).
        """
        self._event(event)
        codes = {c for s in self.state.submissions.values() if s.event == event for c in s.speakers}
        rows = select((self.state.speakers[c] for c in sorted(codes)), text(q, "name"),
                      (lambda sp: sp.email.lower() == email.lower()) if email else None)
        return [self._speaker_view(sp, event) for sp in rows]

    @tool(read_only=True, returns=Speaker)
    def get_speaker(self, event: Slug, code: Id("speaker")) -> dict:
        """Get a speaker with their submissions to the event.

        Args:
            event: the event slug.
            code: the speaker code, e.g. SPK-0002.
        """
        self._event(event)
        sp = self.lookup(self.state.speakers, code, "speaker")
        return self._speaker_view(sp, event)

    @tool(read_only=True, returns=list[Room])
    def list_rooms(self, event: Slug) -> list[dict]:
        """List the event's rooms in schedule order, with capacity and the venue space each one is.

        Args:
            event: the event slug.
        """
        self._event(event)
        return [r.model_dump() for r in sorted((r for r in self.state.rooms.values() if r.event == event),
                                               key=lambda r: r.position)]

    @tool(read_only=True)
    def list_talks(self, event: Slug) -> dict:
        """The public schedule: talks of the latest released schedule version (changes since are not in it).

        Args:
            event: the event slug.
        """
        ev = self._event(event)
        if not ev.schedules:
            return {"version": None, "published": None, "talks": []}
        last = ev.schedules[-1]
        return {"version": last.version, "published": last.published, "talks": last.talks}
