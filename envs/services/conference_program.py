"""Conference program: a conference's call for papers, speakers, reviews, rooms and schedule.

No conference-management server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Pretalx REST API:
``/api/events/{event}/`` (``slug``, ``name``, ``date_from``, ``date_to``),
``/events/{event}/submissions/`` (``code``, ``title``, ``speakers``,
``submission_type``, ``track``, ``state``, ``abstract``, ``duration``,
``slot``, ``internal_notes``) with the state actions ``accept``,
``reject``, ``confirm``, ``cancel`` and the speaker's ``withdraw``,
``/speakers/`` (``code``, ``name``, ``email``, ``biography``),
``/reviews/`` (``score``, ``text``, ``user``), ``/rooms/`` (``name``,
``capacity``, ``position``), slots (``room``, ``start``, ``end``), schedule
releases (``version``) and ``/talks/`` (the released schedule). Events are
the ticketing system's (event_ticketing) events, held at venue_booking's
booked venue events; rooms are that venue's spaces.

Rules of Pretalx: a submission moves only along SubmissionStates'
valid_next_states (submitted -> accepted / rejected / withdrawn, accepted ->
confirmed / rejected / canceled / withdrawn, confirmed -> canceled /
withdrawn, rejected -> accepted, canceled -> accepted; withdrawn is final),
and leaves the schedule when rejected, withdrawn or canceled; the CFP takes
submissions until its deadline, of the event's submission types (their
default duration) and tracks; only the review team reviews, once each, a
submission still under review and not their own; only accepted or
confirmed talks are scheduled, on the 5-minute grid, inside the event's
days and room hours, never overlapping another talk in the same room or
another talk of the same speaker; a schedule release needs a new version
name and a change since the last release, and ``/talks/`` shows the
released schedule only. Left out: questions and answers, speaker
availabilities, mail templates, teams and permissions, and media.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id, PersonName
from compoworld_gym.envs.services._conference_program_models import (
    SCHEDULABLE, ConferenceProgramState, Review, ScheduleRelease, Slot, Speaker, Submission,
)
from compoworld_gym.envs.services._conference_program_reads import ConferenceReads, Slug
from compoworld_gym.envs.services._conference_program_rules import (
    check_move, room_clash, scheduled, slot_problem, speaker_clash, talk_view,
)
from compoworld_gym.envs.services._conference_program_seed import build_state
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool


class ConferenceProgram(ConferenceReads, Service):
    """Pretalx-style conference programme: CFP submissions, speakers, reviews, rooms and schedule."""

    name = "conference_program"
    description = ("Conference programme (Pretalx): events' calls for papers, submissions and their states, "
                   "speakers, program-committee reviews, rooms, talk slots and released schedules.")
    domain = "events"
    spec_source = None
    State = ConferenceProgramState

    # ---------------------------------------------------------------- helpers
    def _move(self, event: str, code: str, new: str) -> dict:
        sub = self._sub(event, code)
        check_move(sub, new)
        sub.state, sub.state_changed = new, self.now()
        if new not in SCHEDULABLE:
            sub.slot = None
        return self._sub_view(sub)

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Submission)
    def create_submission(self, event: Slug, title: str = Field(min_length=3, max_length=200),
                          submission_type: str = Field(min_length=2, max_length=60),
                          abstract: str = Field(min_length=10, max_length=2000),
                          speaker_name: PersonName = Field(min_length=2, max_length=120),
                          speaker_email: Email = ..., track: Optional[str] = None,
                          duration: Optional[int] = Field(default=None, ge=5, le=480)) -> dict:
        """Submit a proposal to the event's open call for papers; the speaker is found by email or created.

        Args:
            event: the event slug.
            title: the proposal's title.
            submission_type: one of the event's submission types, e.g. Talk.
            abstract: the abstract.
            speaker_name: the speaker's name (used when the speaker is new).
            speaker_email: the speaker's email.
            track: one of the event's tracks.
            duration: minutes, if not the type's default duration.
        """
        ev = self._event(event)
        if self._clock() > ev.cfp_deadline:
            raise Unprocessable(f"the call for papers of {ev.name} closed on {ev.cfp_deadline:%Y-%m-%d %H:%M}.")
        kind = next((t for t in ev.submission_types if t.name.lower() == submission_type.strip().lower()), None)
        if kind is None:
            raise InvalidArgument(f"{submission_type!r} is not a submission type of {ev.slug}; use one of "
                                  f"{[t.name for t in ev.submission_types]}.")
        if track is not None and track not in ev.tracks:
            raise InvalidArgument(f"{track!r} is not a track of {ev.slug}; use one of {ev.tracks}.")
        sp = next((s for s in self.state.speakers.values() if s.email.lower() == speaker_email.lower()), None)
        if sp is None:
            sp = Speaker(code=self.new_id("SPK"), name=speaker_name, email=speaker_email.lower())
            self.state.speakers[sp.code] = sp
        sub = Submission(code=self.new_id("SES"), event=ev.slug, title=title, speakers=[sp.code],
                         submission_type=kind.name, track=track, state="submitted", abstract=abstract,
                         duration=duration or kind.default_duration, created=self.now())
        self.state.submissions[sub.code] = sub
        return self._sub_view(sub)

    @tool(read_only=False, returns=Submission)
    def update_submission(self, event: Slug, code: Id("conference_session"),
                          title: Optional[str] = Field(default=None, min_length=3, max_length=200),
                          abstract: Optional[str] = Field(default=None, min_length=10, max_length=2000),
                          track: Optional[str] = None,
                          internal_notes: Optional[str] = Field(default=None, max_length=4000)) -> dict:
        """Edit a submission's title, abstract, track or organiser-only internal notes (replaced as given).

        Args:
            event: the event slug.
            code: the submission code.
            title: new title.
            abstract: new abstract.
            track: new track (one of the event's).
            internal_notes: the new internal notes (give the old text too to keep it).
        """
        sub = self._sub(event, code)
        if title is None and abstract is None and track is None and internal_notes is None:
            raise InvalidArgument("give at least one of title, abstract, track or internal_notes.")
        ev = self.state.events[event]
        if track is not None and track not in ev.tracks:
            raise InvalidArgument(f"{track!r} is not a track of {ev.slug}; use one of {ev.tracks}.")
        if sub.state == "withdrawn":
            raise Conflict(f"submission {sub.code} was withdrawn by its speaker.")
        for field, value in (("title", title), ("abstract", abstract), ("track", track),
                             ("internal_notes", internal_notes)):
            if value is not None:
                setattr(sub, field, value)
        return self._sub_view(sub)

    @tool(read_only=False, returns=Submission)
    def accept_submission(self, event: Slug, code: Id("conference_session")) -> dict:
        """Accept a submission (from submitted, rejected or canceled); the speaker is asked to confirm.

        Args:
            event: the event slug.
            code: the submission code.
        """
        return self._move(event, code, "accepted")

    @tool(read_only=False, returns=Submission)
    def reject_submission(self, event: Slug, code: Id("conference_session")) -> dict:
        """Reject a submission (from submitted or accepted); it leaves the schedule.

        Args:
            event: the event slug.
            code: the submission code.
        """
        return self._move(event, code, "rejected")

    @tool(read_only=False, returns=Submission)
    def confirm_submission(self, event: Slug, code: Id("conference_session")) -> dict:
        """Confirm an accepted submission (the speaker's confirmation that they will give the talk).

        Args:
            event: the event slug.
            code: the submission code.
        """
        return self._move(event, code, "confirmed")

    @tool(read_only=False, destructive=True, returns=Submission)
    def withdraw_submission(self, event: Slug, code: Id("conference_session")) -> dict:
        """Withdraw a submission at its speaker's request (final); it leaves the schedule.

        Args:
            event: the event slug.
            code: a submitted, accepted or confirmed submission.
        """
        return self._move(event, code, "withdrawn")

    @tool(read_only=False, destructive=True, returns=Submission)
    def cancel_submission(self, event: Slug, code: Id("conference_session")) -> dict:
        """Cancel an accepted or confirmed talk (the organisers call it off); it leaves the schedule.

        Args:
            event: the event slug.
            code: the submission code.
        """
        return self._move(event, code, "canceled")

    @tool(read_only=False, returns=Review)
    def add_review(self, event: Slug, code: Id("conference_session"), user: Email,
                   score: int = Field(ge=0, le=3), text: str = Field(default="", max_length=2000)) -> dict:
        """Review a submission under review as a member of the event's review team (once each, not one's own).

        Args:
            event: the event slug.
            code: a submitted submission.
            user: the reviewer's email.
            score: 0 no, 1 weak, 2 good, 3 must have.
            text: the review.
        """
        sub, ev = self._sub(event, code), self.state.events[event]
        if user.lower() not in (r.lower() for r in ev.reviewers):
            raise Unprocessable(f"{user} is not on the review team of {ev.slug} ({', '.join(ev.reviewers)}).")
        if any(self.state.speakers[c].email.lower() == user.lower() for c in sub.speakers):
            raise Unprocessable(f"{user} is a speaker of {sub.code} and cannot review it.")
        if sub.state != "submitted":
            raise Conflict(f"submission {sub.code} is {sub.state}; only submissions under review are reviewed.")
        if any(r.user.lower() == user.lower() for r in sub.reviews):
            raise Conflict(f"{user} already reviewed {sub.code}.")
        rev = Review(id=self.new_id("RVW"), user=user.lower(), score=score, text=text, created=self.now())
        sub.reviews.append(rev)
        return rev.model_dump()

    @tool(read_only=False, returns=Submission)
    def schedule_submission(self, event: Slug, code: Id("conference_session"), room: str,
                            start: DateTime) -> dict:
        """Put an accepted or confirmed talk in a room at a start time (its end is start plus its duration).

        Args:
            event: the event slug.
            code: the submission code.
            room: a room id of the event, e.g. ROOM-0002.
            start: local start time, e.g. 2026-02-18T10:15:00, on the 5-minute grid.
        """
        sub, ev = self._sub(event, code), self.state.events[event]
        r = self.state.rooms.get(room)
        if r is None or r.event != event:
            raise NotFound(f"event {event} has no room {room!r}; call list_rooms.")
        if sub.state not in SCHEDULABLE:
            raise Conflict(f"submission {sub.code} is {sub.state}; only accepted or confirmed talks are scheduled.")
        end = start + dt.timedelta(minutes=sub.duration)
        problem = slot_problem(ev, start, end)
        if problem:
            raise Unprocessable(problem)
        clash = room_clash(sub, room, start, end, self.state.submissions.values())
        if clash is not None:
            raise Conflict(f"{r.name} is taken {clash.slot.start:%H:%M}-{clash.slot.end:%H:%M} by {clash.code} "
                           f"({clash.title!r}); pick another room or time.")
        both = speaker_clash(sub, start, end, self.state.submissions.values())
        if both is not None:
            other, who = both
            raise Conflict(f"speaker {who} ({self.state.speakers[who].name}) gives {other.code} "
                           f"{other.slot.start:%H:%M}-{other.slot.end:%H:%M}; a speaker cannot be in two talks.")
        sub.slot = Slot(room=room, start=start, end=end)
        return self._sub_view(sub)

    @tool(read_only=False, returns=Submission)
    def unschedule_submission(self, event: Slug, code: Id("conference_session")) -> dict:
        """Take a talk off the schedule (it stays accepted or confirmed).

        Args:
            event: the event slug.
            code: a scheduled submission.
        """
        sub = self._sub(event, code)
        if sub.slot is None:
            raise Conflict(f"submission {sub.code} is not scheduled.")
        sub.slot = None
        return self._sub_view(sub)

    @tool(read_only=False)
    def release_schedule(self, event: Slug, version: str = Field(min_length=1, max_length=40),
                         comment: str = Field(default="", max_length=500)) -> dict:
        """Release the current schedule under a new version name; /talks then shows it.

        Args:
            event: the event slug.
            version: the new version name, e.g. 1.1.
            comment: the changelog comment.
        """
        ev = self._event(event)
        if any(s.version.lower() == version.strip().lower() for s in ev.schedules):
            raise Conflict(f"schedule version {version!r} of {ev.slug} was already released.")
        talks = [talk_view(s, self.state.rooms, self.state.speakers)
                 for s in scheduled(self.state.submissions.values(), event)]
        if not talks:
            raise Unprocessable(f"nothing is scheduled for {ev.slug} yet.")
        if ev.schedules and ev.schedules[-1].talks == talks:
            raise Unprocessable(f"the schedule has not changed since version {ev.schedules[-1].version}.")
        rel = ScheduleRelease(version=version.strip(), published=self.now(), talks=talks)
        ev.schedules.append(rel)
        return {"version": rel.version, "published": rel.published, "talks": len(talks), "comment": comment}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> ConferenceProgramState:
        return build_state(fake, rng, today)


__all__ = ["ConferenceProgram"]
