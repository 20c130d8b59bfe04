"""Flashcards (Anki) in chained tasks: each academy course has a study deck
whose stats name the LMS course it serves and its maintainer (the course
instructor); a course leads to its deck, and a deck to its course. Writes on
the case's deck: bring its leech card back (unsuspend it and drop the leech
tag), or tag the leech note with the case for its maintainer."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._blocks import seed_id
from compoworld_gym.envs.services._flashcards_models import FlashcardsState
from compoworld_gym.envs.services._flashcards_rules import in_deck
from compoworld_gym.envs.services._flashcards_seed import add_note, deck_name, make_deck
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import employee_email
from compoworld_gym.generation.hooks.learning_management import plant_course
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id, pick,
)

SERVICE = "flashcards"
LMS = "learning_management"
#: Leech notes a planted course deck gets, by turn: (front, back).
_LEECHES = (("What does a 409 Conflict response mean?", "The request clashes with the resource's current state"),
            ("What is a service-level objective?", "A target level for a measured service indicator"),
            ("What does RPO measure?", "How much data loss (as time) recovery may accept"),
            ("What is a runbook?", "Step-by-step instructions for a routine or emergency operation"))


def next_deck_id(state: dict[str, Any]) -> str:
    """Take the next free deck id from the flashcards counters (as ``new_id("DECK")``)."""
    return next_id(state, "DECK")


def course_key(ctx: Ctx) -> str:
    """An LMS course id: the LMS's next one when it is mounted, else one past the seeded courses."""
    if LMS in ctx.states:
        return next_id(ctx.state(LMS), "CRS")
    return next_id(ctx.state(SERVICE), "CRS", start=100)


def _course(ctx: Ctx, course_id: str) -> tuple[str, str, Optional[str]]:
    """``(code, name, instructor)`` of the LMS course, or what the LMS hook plants for that id."""
    rec = ctx.states.get(LMS, {}).get("courses", {}).get(course_id)
    if rec is not None:
        return rec["course_code"], rec["name"], rec["instructor_email"]
    return f"CRT-{300 + int(course_id.split('-')[1])}", "Platform Certification Bootcamp", None


def _new_course(ctx: Ctx, instructor: str) -> str:
    """A new course id for a planted deck; the course is planted in the LMS too when it is mounted."""
    cid = course_key(ctx)
    if LMS in ctx.states:
        plant_course(ctx.state(LMS), cid, instructor_email=instructor, start=ctx.day(-ctx.rng.randint(10, 30)))
    return cid


def plant_deck(ctx: Ctx, deck_id: str, *, course_id: str, maintainer: Optional[str] = None) -> str:
    """Add (or re-use) the study deck of LMS course ``course_id``, maintained by ``maintainer``, with two
    notes of which one is a leech (its card suspended after eight lapses); returns the deck id."""
    raw = ctx.state(SERVICE)
    state = FlashcardsState.model_validate(raw)
    code, cname, teacher = _course(ctx, course_id)
    old = next((d for d in state.decks.values() if d.course_id == course_id), None)
    made = dt.datetime.combine(ctx.today - dt.timedelta(days=30), dt.time(10, 0))
    if old is None:
        deck = make_deck(state, deck_id, deck_name(code, cname), made, course_id=course_id, code=code,
                         course_name=cname, maintainer=maintainer or teacher or employee_email(ctx))
    else:
        deck = old
        deck.maintainer_email = maintainer or deck.maintainer_email
    state.course_codes.setdefault(code, course_id)
    state.instructors[course_id] = deck.maintainer_email
    state.counters.update(raw["counters"])
    if not any("leech" in n.tags and any(in_deck(state.decks[state.cards[c].deck_id], deck.name) for c in n.cards)
               for n in state.notes.values()):
        front, back = _LEECHES[int(deck.id.split("-")[1]) % len(_LEECHES)]
        basic = state.models["Basic"]
        add_note(state, seed_id(state, "NOTE"), basic, {"Front": f"{code}: {front}", "Back": back}, ["academy"], deck,
                 made, ctx.today, leech=True)
        add_note(state, seed_id(state, "NOTE"), basic, {"Front": f"{code}: what is covered in week 1?",
                                                      "Back": f"The {cname} overview and setup"}, ["academy"],
                 deck, made, ctx.today)
    deck.modified = dt.datetime.combine(ctx.today - dt.timedelta(days=1), dt.time(16, 0))
    dumped = state.model_dump(mode="json")
    for coll in ("decks", "notes", "cards", "course_codes", "instructors", "counters"):
        raw[coll] = dumped[coll]
    return deck.id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    if by in ("id", "maintainer"):
        maintainer = str(key) if by == "maintainer" else outs.get("email") or employee_email(ctx)
        return plant_deck(ctx, str(key) if by == "id" else next_deck_id(state),
                          course_id=outs.get("course_id") or _new_course(ctx, maintainer), maintainer=maintainer)
    return plant_deck(ctx, next_deck_id(state), course_id=str(key), maintainer=outs.get("email"))


def _stats(reader: Reader, names: list[str]) -> dict[str, Any]:
    return reader.read(SERVICE, "getDeckStats", decks=names)


def _by_id(reader: Reader, deck_id: Any) -> dict[str, Any]:
    ids = reader.read(SERVICE, "deckNamesAndIds")
    name = next((n for n, i in ids.items() if i == deck_id), None)
    if name is None:
        raise SolveError(f"no deck {deck_id}")
    return _stats(reader, [name])[deck_id]


def _by_course(reader: Reader, course_id: Any) -> dict[str, Any]:
    names = reader.read(SERVICE, "listDecks")
    return pick(list(_stats(reader, names).values()), course_id=course_id)


def _by_maintainer(reader: Reader, email: Any) -> dict[str, Any]:
    names = reader.read(SERVICE, "listDecks")
    return latest(list(_stats(reader, names).values()), "modified", maintainer_email=email)


#: Who maintains an academy's study decks: its teachers and course instructors, nobody else on staff.
MAINTAINERS = frozenset({"the instructor", "the homeroom teacher", "the course teacher", "the section teacher"})

_MAINTAINER = Give("email", "maintainer_email", "the email of the instructor who maintains the study deck",
                   "the instructor", draw=employee_email)

DECK = Relay(
    service=SERVICE, name="Anki study deck", key="deck_id",
    gives=(Give("course_id", "course_id", "the LMS course the study deck serves"), _MAINTAINER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_by_id,
    where="Each Anki study deck of the academy names, in its stats, the LMS course it serves and its maintainer.",
    alloc=lambda ctx: next_deck_id(ctx.state(SERVICE)), entry=lambda key: f"Anki study deck {key}")

COURSE_DECK = Relay(
    service=SERVICE, name="course's Anki study deck", key="course_id",
    gives=(Give("deck_id", "id", "the course's Anki study deck"), _MAINTAINER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "course"), find=_by_course,
    where="Every academy course has one Anki study deck; the deck's stats name the course and the deck's maintainer.",
    alloc=course_key)

MAINTAINER_DECK = Relay(
    service=SERVICE, name="study deck the instructor maintains", key="email",
    gives=(Give("deck_id", "id", "the Anki study deck the instructor maintains"),
           Give("course_id", "course_id", "the LMS course of the instructor's study deck")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "maintainer"), find=_by_maintainer,
    where="Anki deck stats name each study deck's maintainer; an instructor's current deck is the one changed most "
          "recently.", key_role="staff", key_who=MAINTAINERS)


def _leech(reader: Reader, deck_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The deck's stats and its one leech note."""
    deck = _by_id(reader, deck_id)
    notes = reader.read(SERVICE, "findNotes", query=f'deck:"{deck["name"]}" tag:leech')
    if len(notes) != 1:
        raise SolveError(f"deck {deck_id} has {len(notes)} leech notes")
    return deck, reader.read(SERVICE, "notesInfo", notes=notes)[0]


def _prepare(ctx: Ctx, values: dict[str, Any]) -> None:
    """The case's deck has its leech (planted decks do; a seeded deck may not)."""
    raw, did = ctx.state(SERVICE), values.get("deck")
    if did in raw["decks"] and raw["decks"][did].get("course_id"):
        plant_deck(ctx, did, course_id=raw["decks"][did]["course_id"])


def _scope(note_id: str, cards: list[str]) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="notes", allow_ids=[note_id],
                        description="No other note was changed, added or deleted."),
            OnlyChanged(id="_", service=SERVICE, collection="cards", allow_ids=cards,
                        description="No other card was changed, added or deleted.")]


def _unsuspend(reader: Reader, args: dict[str, Found]) -> Write:
    deck, note = _leech(reader, args["deck"].value)
    cards = [c["cardId"] for c in reader.read(SERVICE, "cardsInfo", cards=note["cards"]) if c["suspended"]]
    if not cards:
        raise SolveError(f"the leech note {note['noteId']} has no suspended card")
    keep = [t for t in note["tags"] if t.lower() != "leech"]
    return Write(
        calls=[call("unsuspend", cards=cards), call("removeTags", notes=[note["noteId"]], tags="leech")],
        checks=[*(RecordMatches(id="_", service=SERVICE, collection="cards", record_id=c, where={"queue": 2},
                                description="The leech card is back in the review queue.") for c in cards),
                RecordMatches(id="_", service=SERVICE, collection="notes", record_id=note["noteId"],
                              where={"tags": {"$subset": keep}, "fields": note_fields(note)},
                              description="The note lost its leech tag and kept its other tags and its content.")],
        scope=_scope(note["noteId"], cards), tool="unsuspend", where={"cards": cards},
        label="the leech card restored")


def note_fields(note: dict[str, Any]) -> dict[str, Any]:
    """A where-matcher: the note's field values unchanged."""
    return {k: v["value"] for k, v in note["fields"].items()}


def _tag(reader: Reader, args: dict[str, Found]) -> Write:
    deck, note = _leech(reader, args["deck"].value)
    tag = args["case"].value.strip().replace(" ", "::")
    return Write(
        calls=[call("addTags", notes=[note["noteId"]], tags=tag)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="notes", record_id=note["noteId"],
                              where={"tags": {"$all": [{"$contains": tag}, {"$contains": "leech"}]}},
                              description="The leech note carries the case tag and still its leech tag.")],
        scope=_scope(note["noteId"], []), tool="addTags", where={"notes": [note["noteId"]]},
        label="the case tag on the leech note")


_NEED = (Need("deck", "deck_id"),)

LINKS = ServiceLinks(
    service=SERVICE, label="the academy's Anki collection",
    relays=(DECK, COURSE_DECK, MAINTAINER_DECK),
    actions=(
        Action(service=SERVICE, name="unsuspend", needs=_NEED, build=_unsuspend, prepare=_prepare,
               goal="put the study deck's leech card back into review: unsuspend it and remove the leech tag from its "
                    "note"),
        Action(service=SERVICE, name="tag", needs=_NEED, build=_tag, prepare=_prepare,
               goal="tag the study deck's leech note with the case (as case::<reference>) for its maintainer"),
    ),
)

__all__ = ["LINKS", "course_key", "next_deck_id", "plant_deck"]
