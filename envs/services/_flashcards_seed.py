"""Seed data of the flashcards service: the academy's shared Anki collection.

Built on learning_management's seeded state for the same seed
(:func:`seed_for`): one study deck per LMS course, ``Academy::<code> <name>``,
maintained by the course's instructor and naming the course, with a
Refunds subdeck under billing; Anki's stock note types plus the academy's
"Academy Term"; twenty notes of real course content whose cards are new,
learning, due or scheduled ahead, and three leeches (eight lapses, tagged
``leech``, their card suspended) in the billing, privacy and API decks.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker

from compoworld_gym.envs.services._blocks import day_start, seed_id
from compoworld_gym.envs.services._flashcards_models import (
    LEECH_LAPSES, LEECH_TAG, Card, Deck, FlashcardsState, Note, NoteModel, Template,
)
from compoworld_gym.envs.services._flashcards_rules import card_ords
from compoworld_gym.envs.services._learning_management_models import LearningManagementState
from compoworld_gym.envs.services.learning_management import LearningManagement

_BACK = "{{FrontSide}}<hr id=answer>"
#: Note types: (name, type, fields, templates (name, front, back)).
MODELS = (
    ("Basic", "standard", ["Front", "Back"], [("Card 1", "{{Front}}", _BACK + "{{Back}}")]),
    ("Basic (and reversed card)", "standard", ["Front", "Back"],
     [("Card 1", "{{Front}}", _BACK + "{{Back}}"), ("Card 2", "{{Back}}", _BACK + "{{Front}}")]),
    ("Basic (type in the answer)", "standard", ["Front", "Back"],
     [("Card 1", "{{Front}}<br>{{type:Back}}", _BACK + "{{type:Back}}")]),
    ("Cloze", "cloze", ["Text", "Back Extra"], [("Cloze", "{{cloze:Text}}", "{{cloze:Text}}<br>{{Back Extra}}")]),
    ("Academy Term", "standard", ["Term", "Definition", "Example", "Notes"],
     [("Recognition", "{{Term}}", _BACK + "{{Definition}}<br><i>{{Example}}</i>")]),
)
_B, _R, _T, _C, _A = "Basic", "Basic (and reversed card)", "Basic (type in the answer)", "Cloze", "Academy Term"
#: Notes by course code: (model, field values in order, tags, leech?, subdeck or None).
NOTES: dict[str, tuple] = {
    "ADM-101": ((_B, ("What does SSO stand for?", "Single sign-on"), ("admin", "auth"), False, None),
                (_A, ("Role-based access control", "Permissions granted through roles, not to individual users",
                      "Support agents get the Agent role", ""), ("admin",), False, None),
                (_C, ("An admin API key is shown {{c1::once}}, at creation; rotate it every {{c2::90}} days.", ""),
                 ("admin", "api_keys"), False, None)),
    "BIL-150": ((_A, ("Proration", "Charging only for the part of the period a plan was active",
                      "Upgrade on day 10 of 30: two thirds of the difference", ""), ("billing",), False, None),
                (_B, ("After how many failed retries does dunning cancel a subscription?", "Four retries over 21 days"),
                 ("billing", "dunning"), False, None),
                (_R, ("Credit note", "A document that reduces an issued invoice's balance"), ("billing",), False,
                 None),
                (_C, ("A refund returns money to the {{c1::original payment method}}; a credit note reduces the "
                      "{{c2::invoice balance}}.", "Refunds over $500 need a second approver."),
                 ("billing::refunds",), True, "Refunds")),
    "PRV-105": ((_B, ("Within what time must a data subject access request be answered?",
                      "One month, extendable by two months for complex requests"), ("privacy", "gdpr"), False, None),
                (_A, ("Data minimisation", "Collect and keep only the personal data a purpose needs",
                      "No date of birth on a newsletter signup", ""), ("privacy",), False, None),
                (_T, ("Which GDPR article grants the right to erasure?", "Article 17"), ("privacy", "gdpr"), True,
                 None)),
    "SEC-130": ((_B, ("What is credential stuffing?", "Trying leaked username/password pairs on another site"),
                 ("security",), False, None),
                (_C, ("Enforce {{c1::multi-factor authentication}} on every admin account.", ""), ("security",),
                 False, None)),
    "API-220": ((_B, ("Which HTTP status means the client is rate limited?", "429 Too Many Requests"), ("api",), True,
                 None),
                (_A, ("Idempotency key", "A client-chosen key that makes a retried request take effect once",
                      "POST /payments with Idempotency-Key: ord-1042", ""), ("api",), False, None),
                (_R, ("Webhook", "An HTTP callback the server sends when an event happens"), ("api", "events"),
                 False, None)),
    "RPT-210": ((_B, ("What does a funnel report show?", "Conversion between ordered steps"), ("reporting",), False,
                 None),),
    "LOG-240": ((_B, ("What does the Incoterm DDP mean?", "Delivered Duty Paid: the seller pays duties and delivers"),
                 ("logistics", "incoterms"), False, None),
                (_A, ("Dimensional weight", "Billable weight from a parcel's size: L x W x H / divisor",
                      "40x30x30 cm / 5000 = 7.2 kg", ""), ("logistics",), False, None)),
    "CSM-120": ((_B, ("What is net revenue retention?",
                      "Revenue kept from existing customers, with expansion, less churn and contraction"),
                 ("customer_success",), False, None),
                (_C, ("A QBR is a {{c1::quarterly business review}}.", ""), ("customer_success",), False, None)),
}


def seed_for(seed: int, today: dt.date) -> FlashcardsState:
    """The seeded collection for ``seed``, on learning_management's seeded state for the same seed."""
    lms = LearningManagement.seed_state(seed, today)
    rng = random.Random(f"flashcards:{seed}")
    fake = Faker("en_US")
    fake.seed_instance(rng.getrandbits(32))
    return build_state(fake, rng, today, lms)


def deck_name(code: str, name: str) -> str:
    """The study deck of course ``code`` ``name``."""
    return f"Academy::{code} {name}"


def make_deck(state: FlashcardsState, deck_id: str, name: str, when: dt.datetime, *, course_id: Optional[str] = None,
              code: Optional[str] = None, course_name: str = "", maintainer: Optional[str] = None) -> Deck:
    """A deck (added to ``state``); a course's deck names the course and its maintainer in its description."""
    desc = f"Study deck for {code} {course_name} (LMS course {course_id})." if course_id else ""
    d = Deck(id=deck_id, name=name, description=desc, course_id=course_id, course_code=code,
             maintainer_email=maintainer, created=when, modified=when)
    state.decks[d.id] = d
    return d


def add_note(state: FlashcardsState, note_id: str, model: NoteModel, values: dict[str, str], tags: list[str],
             deck: Deck, when: dt.datetime, today: dt.date, rng: Optional[random.Random] = None,
             leech: bool = False) -> Note:
    """A note with its cards (added to ``state``): new cards, or with ``rng`` seeded review history;
    a ``leech`` note's first card lapsed eight times and is suspended."""
    note = Note(id=note_id, model_name=model.name, fields=values, tags=list(tags) + ([LEECH_TAG] if leech else []),
                created=when, mod=when)
    for k, ord_ in enumerate(card_ords(model, values)):
        c = Card(id=seed_id(state, "CARD"), note_id=note.id, deck_id=deck.id, ord=ord_, type=0, queue=0, mod=when)
        if rng is not None and rng.random() < 0.8:
            c.type = c.queue = 2
            c.interval, c.reps = rng.choice((3, 7, 12, 21, 35)), rng.randint(3, 12)
            c.due, c.factor = today + dt.timedelta(days=rng.randint(-3, 20)), rng.choice((2050, 2350, 2500, 2650))
        if leech and k == 0:
            c.type, c.queue, c.lapses, c.reps, c.factor = 2, -1, LEECH_LAPSES, 19, 1300
            c.interval, c.due = 1, today - dt.timedelta(days=2)
        state.cards[c.id] = c
        note.cards.append(c.id)
    state.notes[note.id] = note
    return note


def build_state(fake: Faker, rng: random.Random, today: dt.date, lms: LearningManagementState) -> FlashcardsState:
    """Note types, decks per LMS course and their notes and cards.

    Args:
        fake: seeded Faker (the factory's signature; content is fixed, people come from ``lms``).
        rng: seeded random stream (review history).
        today: the task's date.
        lms: learning_management's seeded state for the same seed.
    """
    state = FlashcardsState()
    for name, kind, fields, templates in MODELS:
        state.models[name] = NoteModel(id=seed_id(state, "MODEL"), name=name, type=kind, fields=fields,
                                       templates=[Template(name=n, qfmt=q, afmt=a) for n, q, a in templates])
    start = day_start(today) - dt.timedelta(days=200)
    make_deck(state, seed_id(state, "DECK"), "Default", start)
    make_deck(state, seed_id(state, "DECK"), "Academy", start)
    for c in lms.courses.values():
        state.course_codes[c.course_code] = c.id
        state.instructors[c.id] = c.instructor_email
        made = c.start_at - dt.timedelta(days=21)
        deck = make_deck(state, seed_id(state, "DECK"), deck_name(c.course_code, c.name), made, course_id=c.id,
                         code=c.course_code, course_name=c.name, maintainer=c.instructor_email)
        sub = None
        for k, (model, values, tags, leech, child) in enumerate(NOTES.get(c.course_code, ())):
            if child and sub is None:
                sub = make_deck(state, seed_id(state, "DECK"), f"{deck.name}::{child}", made)
            m = state.models[model]
            when = made + dt.timedelta(days=k, hours=rng.randint(0, 8))
            add_note(state, seed_id(state, "NOTE"), m, dict(zip(m.fields, values)), list(tags),
                     sub if child else deck, when, today, rng, leech)
            deck.modified = max(deck.modified, when)
    return state


__all__ = ["MODELS", "NOTES", "add_note", "build_state", "deck_name", "make_deck", "seed_for"]
