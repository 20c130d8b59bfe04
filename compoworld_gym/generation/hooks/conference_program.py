"""Conference program (Pretalx) in chained tasks: a session names its
speaker (email and name, a customer who may also hold tickets), the day it
is scheduled and the ticketed event the conference is sold as; a speaker's
email finds their accepted talk; a ticketed event (a venue booking names
one) leads to its conference programme, which names the program chair, the
first day and the venue booking hosting it. Writes on the case's session:
confirm it for the speaker, cancel it, or note a discovered value in its
internal notes."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._conference_program_models import (
    ConferenceEvent, ConferenceProgramState, Room, Slot, Speaker, Submission, SubmissionType,
)
from compoworld_gym.envs.services._conference_program_rules import room_clash
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "conference_program"
TICKETING, VENUES = "event_ticketing", "venue_booking"
DATE_RX = r"\d{4}-\d{2}-\d{2}"
_NAMES = ("Partner Day", "Customer Roadshow", "Developer Day", "Regional User Group")
_TITLES = ("Lessons From Our First Year on the Platform", "Automating the Boring Parts", "Scaling Support Without "
           "Scaling Headcount", "What We Learned Migrating Our Data", "Building a Reporting Culture")
_CHAIRS = tuple(s.email for s in STAFF if s.team in ("customer_success", "support"))


def next_session_id(state: dict[str, Any]) -> str:
    """Take the next free submission code from the counters (as ``new_id("SES")``)."""
    return next_id(state, "SES")


def ticketed_key(ctx: Ctx) -> str:
    """A ticketed event id: event_ticketing's next one when it is mounted, else one past its seed."""
    if TICKETING in ctx.states:
        return next_id(ctx.state(TICKETING), "TEV")
    return next_id(ctx.state(SERVICE), "TEV", start=100)


def venue_key(ctx: Ctx) -> str:
    """A venue event id: venue_booking's next one when it is mounted, else one past its seed."""
    if VENUES in ctx.states:
        return next_id(ctx.state(VENUES), "VEV")
    return next_id(ctx.state(SERVICE), "VEV", start=100)


def _chair(ctx: Ctx) -> str:
    return ctx.rng.choice(_CHAIRS)


def _conference(ctx: Ctx, state: ConferenceProgramState, day: dt.date, ticketed: Optional[str],
                venue: Optional[str] = None, chair: Optional[str] = None) -> ConferenceEvent:
    """The planted conference on ``day`` sold as ``ticketed`` (made, with two rooms, when new)."""
    for ev in state.events.values():
        if ev.slug in ("customer-summit-2026", "data-workshop-2026"):
            continue
        if (venue is None and ev.date_from == day and ev.ticketed_event_id == ticketed) or (
                venue is not None and ev.venue_event_id == venue):
            return ev
    n = state.counters.get("CONF", 1)
    state.counters["CONF"] = n + 1
    name = f"{_NAMES[n % len(_NAMES)]} {day.year}"
    ev = ConferenceEvent(slug=f"{name.lower().replace(' ', '-')}-{n}", name=name, date_from=day, date_to=day,
                         day_start=9, day_end=17,
                         cfp_deadline=dt.datetime.combine(min(day, ctx.today) - dt.timedelta(days=30), dt.time(23, 59)),
                         submission_types=[SubmissionType(name="Talk", default_duration=30)],
                         tracks=["Customer Stories"], organizer_email=chair or _chair(ctx),
                         reviewers=[_chair(ctx)], ticketed_event_id=ticketed, venue_event_id=venue)
    state.events[ev.slug] = ev
    for k, (room, cap) in enumerate((("Main Stage", 300), ("Room B", 60))):
        rid = f"ROOM-{state.counters.get('ROOM', 1):04d}"
        state.counters["ROOM"] = state.counters.get("ROOM", 1) + 1
        state.rooms[rid] = Room(id=rid, event=ev.slug, name=room, capacity=cap, position=k)
    return ev


def plant_session(ctx: Ctx, code: str, *, speaker_email: str, speaker_name: str, day: str,
                  ticketed: Optional[str] = None, state_name: str = "accepted") -> str:
    """Add a talk by ``speaker_email`` (speaker reused or created) to the conference on ``day``, accepted and
    scheduled in the first free 30-minute slot of its main room (a ``withdrawn`` one has no slot); returns
    its code."""
    raw = ctx.state(SERVICE)
    state = ConferenceProgramState.model_validate(raw)
    ev = _conference(ctx, state, dt.date.fromisoformat(day[:10]), ticketed)
    sp = next((s for s in state.speakers.values() if s.email.lower() == speaker_email.lower()), None)
    if sp is None:
        n = state.counters.get("SPK", 1)
        state.counters["SPK"] = n + 1
        sp = Speaker(code=f"SPK-{n:04d}", name=speaker_name, email=speaker_email, biography="Customer speaker.")
        state.speakers[sp.code] = sp
    sub = Submission(code=code, event=ev.slug, title=ctx.rng.choice(_TITLES), speakers=[sp.code],
                     submission_type="Talk", track="Customer Stories", state=state_name,
                     abstract="A customer's story: what changed, what worked, what is next.", duration=30,
                     created=ev.cfp_deadline - dt.timedelta(days=5), state_changed=ev.cfp_deadline)
    if state_name == "accepted":
        main = min((r for r in state.rooms.values() if r.event == ev.slug), key=lambda r: r.position)
        begin = dt.datetime.combine(ev.date_from, dt.time(ev.day_start, 0))
        while room_clash(sub, main.id, begin, begin + dt.timedelta(minutes=30), state.submissions.values()):
            begin += dt.timedelta(minutes=30)
        sub.slot = Slot(room=main.id, start=begin, end=begin + dt.timedelta(minutes=30))
    state.submissions[code] = sub
    dumped = state.model_dump(mode="json")
    for coll in ("events", "rooms", "speakers", "submissions", "counters"):
        raw[coll] = dumped[coll]
    return code


def plant_conference(ctx: Ctx, ticketed: Optional[str], *, day: str, chair: Optional[str],
                     venue: Optional[str]) -> str:
    """Add the conference programme sold as ticketed event ``ticketed`` and hosted by venue booking ``venue`` on
    ``day``; returns its slug."""
    raw = ctx.state(SERVICE)
    state = ConferenceProgramState.model_validate(raw)
    ev = _conference(ctx, state, dt.date.fromisoformat(day[:10]), ticketed, venue, chair)
    ev.organizer_email, ev.venue_event_id = chair or ev.organizer_email, venue
    dumped = state.model_dump(mode="json")
    for coll in ("events", "rooms", "counters"):
        raw[coll] = dumped[coll]
    return ev.slug


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    code = key if by == "id" else next_session_id(state)
    email = str(key) if by == "speaker" else outs.get("email") or ctx.person()[1]
    name = outs.get("person_name") or name_from_email(email)
    day = outs.get("date") or ctx.day(ctx.rng.randint(15, 60))
    return plant_session(ctx, code, speaker_email=email, speaker_name=name, day=day,
                         ticketed=outs.get("ticketed_event_id"), state_name="withdrawn" if stale else "accepted")


def _session(reader: Reader, code: str) -> dict[str, Any]:
    for ev in reader.read(SERVICE, "list_events"):
        rows = reader.read(SERVICE, "list_submissions", event=ev["slug"], limit=200)
        if any(r["code"] == code for r in rows):
            return reader.read(SERVICE, "get_submission", event=ev["slug"], code=code)
    raise SolveError(f"no session {code}")


def _speaker_talk(reader: Reader, email: Any) -> dict[str, Any]:
    talks = []
    for ev in reader.read(SERVICE, "list_events"):
        rows = reader.read(SERVICE, "list_submissions", event=ev["slug"], speaker_email=email, limit=200)
        talks += [r for r in rows if r["state"] in ("accepted", "confirmed")]
    hit = pick(talks)
    return reader.read(SERVICE, "get_submission", event=hit["event"], code=hit["code"])


def _programme(reader: Reader, ticketed: Any) -> dict[str, Any]:
    ev = pick(reader.read(SERVICE, "list_events", ticketed_event_id=ticketed))
    return reader.read(SERVICE, "get_event", event=ev["slug"])


def _hosted(reader: Reader, venue_event: Any) -> dict[str, Any]:
    ev = pick(reader.read(SERVICE, "list_events", venue_event_id=venue_event))
    return reader.read(SERVICE, "get_event", event=ev["slug"])


_CHAIR = Give("email", "organizer_email", "the program chair's email address", "the program chair", draw=_chair)
_FIRST = Give("date", "date_from", "the conference's first day")
_DAY = Give("date", "slot.start", "the day the session is scheduled", pattern=DATE_RX)
_TICKETED = Give("ticketed_event_id", "ticketed_event_id", "the ticketed event the conference is sold as")

SESSION = Relay(
    service=SERVICE, name="conference session", key="conference_session_id",
    gives=(Give("email", "speaker_email", "the speaker's email address", "the customer"),
           Give("person_name", "speaker_name", "the speaker's name", "the customer"), _DAY, _TICKETED),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_session,
    where="Each session (submission) in Pretalx names its speakers, its slot and the ticketed event of its "
          "conference.",
    alloc=lambda ctx: next_session_id(ctx.state(SERVICE)), entry=lambda key: f"conference session {key}")

SPEAKER_TALK = Relay(
    service=SERVICE, name="speaker's accepted talk", key="email",
    gives=(Give("conference_session_id", "id", "the speaker's accepted talk"), _DAY, _TICKETED),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "speaker"), find=_speaker_talk,
    where="Pretalx lists each conference's submissions by the speaker's email; an accepted or confirmed one is "
          "on the programme.",
    truth="A withdrawn proposal is off the programme; only the speaker's accepted talk counts.")

PROGRAMME = Relay(
    service=SERVICE, name="conference programme", key="ticketed_event_id",
    gives=(_CHAIR, _FIRST, Give("venue_event_id", "venue_event_id", "the venue booking hosting the conference")),
    plant=lambda ctx, key, outs, stale: plant_conference(ctx, str(key), day=outs.get("date") or ctx.day(30),
                                                         chair=outs.get("email"), venue=outs.get("venue_event_id")),
    find=_programme, alloc=ticketed_key,
    where="Each conference in Pretalx names the ticketed event it is sold as, its program chair, its dates and the "
          "venue booking hosting it.")

HOSTED_PROGRAMME = Relay(
    service=SERVICE, name="conference a venue booking hosts", key="venue_event_id",
    gives=(_CHAIR, _FIRST, _TICKETED),
    plant=lambda ctx, key, outs, stale: plant_conference(ctx, outs.get("ticketed_event_id"), day=outs.get("date")
                                                         or ctx.day(30), chair=outs.get("email"), venue=str(key)),
    find=_hosted, alloc=venue_key,
    where="Each conference in Pretalx names the venue booking hosting it, its program chair, its dates and the "
          "ticketed event it is sold as.")


def _scope(code: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="submissions", allow_ids=[code],
                        description="No other submission was changed or created.")]


def _live(reader: Reader, args: dict[str, Found], states: tuple[str, ...]) -> dict[str, Any]:
    sub = _session(reader, args["session"].value)
    if sub["state"] not in states:
        raise SolveError(f"session {sub['code']} is {sub['state']}")
    return sub


def _confirm(reader: Reader, args: dict[str, Found]) -> Write:
    sub = _live(reader, args, ("accepted",))
    return Write(
        calls=[call("confirm_submission", event=sub["event"], code=sub["code"])],
        checks=[RecordMatches(id="_", service=SERVICE, collection="submissions", record_id=sub["code"],
                              where={"state": "confirmed", "slot.start": sub["slot"]["start"]},
                              description="The talk is confirmed and keeps its slot.")],
        scope=_scope(sub["code"]), tool="confirm_submission", where={"code": sub["code"]},
        label="the confirmed talk")


def _cancel(reader: Reader, args: dict[str, Found]) -> Write:
    sub = _live(reader, args, ("accepted", "confirmed"))
    return Write(
        calls=[call("cancel_submission", event=sub["event"], code=sub["code"])],
        checks=[RecordMatches(id="_", service=SERVICE, collection="submissions", record_id=sub["code"],
                              where={"state": "canceled", "slot": None},
                              description="The talk is canceled and off the schedule.")],
        scope=_scope(sub["code"]), tool="cancel_submission", where={"code": sub["code"]},
        label="the canceled talk")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    sub, mention, case = _session(reader, args["session"].value), args["mention"], args["case"].value
    line = f"{case}: {mention.noun} is {mention.display}."
    notes = f"{sub['internal_notes']}\n{line}" if sub["internal_notes"] else line
    keep = [{"$contains": sub["internal_notes"]}] if sub["internal_notes"] else []
    return Write(
        calls=[call("update_submission", event=sub["event"], code=sub["code"], internal_notes=notes)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="submissions", record_id=sub["code"],
                              where={"internal_notes": {"$all": [{"$contains": case}, {"$contains": mention.display},
                                                                 *keep]}},
                              description="The session's internal notes quote the case and the value.")],
        scope=_scope(sub["code"]), tool="update_submission", where={"code": sub["code"]},
        label="the internal note on the session")


_NEED = (Need("session", "conference_session_id"),)

LINKS = ServiceLinks(
    service=SERVICE, label="the conference programme in Pretalx",
    relays=(SESSION, SPEAKER_TALK, PROGRAMME, HOSTED_PROGRAMME),
    actions=(
        Action(service=SERVICE, name="confirm", needs=_NEED, build=_confirm,
               goal="confirm the speaker's accepted talk in Pretalx on their behalf"),
        Action(service=SERVICE, name="cancel", needs=_NEED, build=_cancel,
               goal="cancel the speaker's talk in Pretalx"),
        Action(service=SERVICE, name="note", needs=_NEED, build=_note,
               goal="add a line to the session's internal notes in Pretalx quoting {mention}"),
    ),
)

__all__ = ["LINKS", "next_session_id", "plant_conference", "plant_session", "ticketed_key"]
