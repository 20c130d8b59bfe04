"""Flashcards: the academy's shared Anki collection (decks per LMS course, notes, cards, scheduling).

Follows the real MCP server ``@CamdenClark_anki-mcp-server`` (``spec_source``):
``listDecks``, ``listModels``, ``getModel``, ``addNote`` and ``addNotes``
with its exact parameters. That server is a thin layer over AnkiConnect;
AnkiConnect's other real actions are here too (``designed_tools``), with
their action and parameter names: ``deckNamesAndIds``, ``getDeckStats``,
``createDeck``, ``deleteDecks`` (``cardsToo``), ``changeDeck``,
``findNotes``/``findCards`` (Anki search syntax), ``notesInfo``,
``cardsInfo``, ``updateNoteFields`` (``note: {id, fields}``), ``addTags``/
``removeTags`` (a space-separated ``tags`` string), ``deleteNotes``,
``suspend`` and ``unsuspend``. Each LMS (learning_management) course has a
study deck ``Academy::<code> <name>`` whose description names the course.

Rules of Anki: a note needs an existing deck and note type and only that
type's fields; its first field must not be empty ("cannot create note
because it is empty"), a cloze note needs a cloze deletion, and a note whose
first field repeats one of the same type is a duplicate; a note makes one
card per template (a cloze note one per cloze number); tags hold no spaces;
``addNotes`` adds what it can and answers null for each note that failed;
creating an existing deck returns it, and creating ``A::B`` creates ``A``;
the Default deck cannot be deleted, and decks are deleted only with their
cards (``cardsToo``); a note left without cards is deleted; suspend and
unsuspend answer whether any card changed (an unsuspended card returns to
its queue). Left out: reviewing (answerCards, the scheduler), media, sync,
the GUI actions and deck option groups beyond their daily limits.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import ClassVar

from faker import Faker
from pydantic import Field

from compoworld_gym.envs.services._flashcards_models import (
    Card, Deck, FlashcardsState, Note, NoteIn, NoteModel, NoteUpdate,
)
from compoworld_gym.envs.services._flashcards_reads import FlashcardsReads, Ids
from compoworld_gym.envs.services._flashcards_rules import card_ords, check_tags, course_code_of, in_deck, split_tags
from compoworld_gym.envs.services._flashcards_seed import build_state, seed_for
from compoworld_gym.envs.services.learning_management import LearningManagement
from compoworld_gym.errors import Conflict, InvalidArgument, ToolError, Unprocessable
from compoworld_gym.service import Service, tool

_STRIP = str.maketrans("", "", "\u00a0")


def _plain(value: str) -> str:
    return re.sub(r"<[^>]+>", "", value).translate(_STRIP).strip()


class Flashcards(FlashcardsReads, Service):
    """AnkiConnect-backed Anki collection: decks, note types, notes and cards."""

    name = "flashcards"
    description = ("Anki flashcards (AnkiConnect): the academy's study decks per LMS course, note types, notes and "
                   "their cards, search, tags, suspension and deck stats.")
    domain = "education"
    spec_source = "@CamdenClark_anki-mcp-server"
    designed_tools: ClassVar[frozenset[str]] = frozenset({
        "deckNamesAndIds", "getDeckStats", "createDeck", "deleteDecks", "changeDeck", "findNotes", "findCards",
        "notesInfo", "cardsInfo", "updateNoteFields", "addTags", "removeTags", "deleteNotes", "suspend",
        "unsuspend"})
    State = FlashcardsState

    # ---------------------------------------------------------------- helpers
    def _touch(self, deck_ids: set[str], when: dt.datetime) -> None:
        for d in deck_ids:
            self.state.decks[d].modified = when

    def _validate(self, deck_name: str, model_name: str, fields: dict[str, str], tags: list[str],
                  pending: list[tuple[str, str]]) -> tuple[Deck, NoteModel, dict[str, str], list[str]]:
        deck, model = self._deck_named(deck_name), self._model(model_name)
        unknown = sorted(set(fields) - set(model.fields))
        if unknown:
            raise InvalidArgument(f"note type {model.name!r} has no field(s) {unknown}; its fields are {model.fields}.")
        values = {f: fields.get(f, "") for f in model.fields}
        first = _plain(values[model.fields[0]])
        if not first:
            raise Unprocessable(f"cannot create note because it is empty: {model.fields[0]!r} has no text.")
        if not card_ords(model, values):
            raise Unprocessable("cannot create note because it is empty: a Cloze note needs a {{c1::...}} deletion.")
        key = (model.name, first)
        if key in pending or any(n.model_name == model.name and _plain(n.fields[model.fields[0]]) == first
                                 for n in self.state.notes.values()):
            raise Conflict(f"cannot create note because it is a duplicate: a {model.name} note already has "
                           f"{model.fields[0]} {first!r}.")
        pending.append(key)
        return deck, model, values, check_tags(tags)

    def _add(self, deck: Deck, model: NoteModel, values: dict[str, str], tags: list[str]) -> Note:
        when = self.now()
        note = Note(id=self.new_id("NOTE"), model_name=model.name, fields=values, tags=tags, created=when, mod=when)
        for ord_ in card_ords(model, values):
            c = Card(id=self.new_id("CARD"), note_id=note.id, deck_id=deck.id, ord=ord_, type=0, queue=0, mod=when)
            self.state.cards[c.id] = c
            note.cards.append(c.id)
        self.state.notes[note.id] = note
        deck.modified = when
        return note

    def _make_deck(self, name: str) -> tuple[Deck, bool]:
        parts = [p.strip() for p in name.split("::")]
        if not all(parts):
            raise InvalidArgument(f"deck name {name!r} has an empty part; use Parent::Child.")
        made, deck = False, None
        for k in range(1, len(parts) + 1):
            full = "::".join(parts[:k])
            deck = next((d for d in self.state.decks.values() if d.name.lower() == full.lower()), None)
            if deck is None:
                when, hit = self.now(), course_code_of(full, self.state.course_codes)
                code, cid = hit if hit and k == len(parts) else (None, None)
                deck = Deck(id=self.new_id("DECK"), name=full, course_id=cid, course_code=code,
                            maintainer_email=self.state.instructors.get(cid) if cid else None,
                            description=f"Study deck for {code} (LMS course {cid})." if cid else "",
                            created=when, modified=when)
                self.state.decks[deck.id] = deck
                made = True
        return deck, made

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Note)
    def addNote(self, deckName: str = Field(min_length=1, max_length=200),
                modelName: str = Field(min_length=1, max_length=100), fields: dict[str, str] = Field(...),
                tags: list[str] = Field(default_factory=list, max_length=30)) -> dict:
        """Create a single note in a deck; it gets one new card per template (or cloze number).

        Args:
            deckName: Name of the deck to add note to, e.g. Academy::API-220 API Integration Workshop.
            modelName: Name of the note model/type to use, e.g. Basic.
            fields: Map of fields to the value in the note model being used, e.g. {"Front": "...", "Back": "..."}.
            tags: Tags to apply to the note (no spaces).
        """
        deck, model, values, clean = self._validate(deckName, modelName, fields, tags, [])
        return self._note_view(self._add(deck, model, values, clean))

    @tool(read_only=False)
    def addNotes(self, notes: list[NoteIn] = Field(min_length=1, max_length=100)) -> dict:
        """Create many notes; each that cannot be created (missing deck, empty, duplicate) is null in the result
        and its error listed, the others are added.

        Args:
            notes: Notes to create, each with deckName, modelName, fields and tags.
        """
        ids, errors, pending = [], [], []
        for k, n in enumerate(notes):
            try:
                deck, model, values, clean = self._validate(n.deckName, n.modelName, n.fields, n.tags, pending)
            except ToolError as exc:
                ids.append(None)
                errors.append({"index": k, "error": str(exc)})
                continue
            ids.append(self._add(deck, model, values, clean).id)
        return {"result": ids, "errors": errors}

    @tool(read_only=False)
    def createDeck(self, deck: str = Field(min_length=1, max_length=200)) -> dict:
        """Create a deck (and its missing parents); an existing deck is returned as it is. A deck named after an
        LMS course code (Academy::BIL-150 ...) is linked to the course.

        Args:
            deck: full deck name, e.g. Academy::RPT-210 Advanced Reporting and Dashboards::Week 1.
        """
        d, made = self._make_deck(deck)
        return {"id": d.id, "name": d.name, "created": made, "course_id": d.course_id}

    @tool(read_only=False, destructive=True)
    def deleteDecks(self, decks: Ids = Field(min_length=1, max_length=20), cardsToo: bool = False) -> dict:
        """Delete decks with their subdecks and all their cards (notes left without cards go too).

        Args:
            decks: deck names.
            cardsToo: must be true: decks are deleted only together with their cards.
        """
        found = [self._deck_named(n) for n in decks]
        if not cardsToo:
            raise Unprocessable("decks can only be deleted together with their cards: pass cardsToo=true.")
        if any(d.name == "Default" for d in found):
            raise Unprocessable("the Default deck cannot be deleted.")
        gone = {d.id for d in self.state.decks.values() if any(in_deck(d, f.name) for f in found)}
        cards = [c.id for c in self.state.cards.values() if c.deck_id in gone]
        notes = self._drop_cards(cards)
        for d in gone:
            del self.state.decks[d]
        return {"deleted_decks": sorted(gone), "deleted_cards": len(cards), "deleted_notes": notes}

    def _drop_cards(self, card_ids: list[str]) -> list[str]:
        """Delete cards; notes left with none are deleted (their ids returned)."""
        dead = []
        for cid in card_ids:
            c = self.state.cards.pop(cid)
            note = self.state.notes[c.note_id]
            note.cards.remove(cid)
            if not note.cards:
                del self.state.notes[note.id]
                dead.append(note.id)
        return dead

    @tool(read_only=False)
    def changeDeck(self, cards: Ids = Field(min_length=1, max_length=200),
                   deck: str = Field(min_length=1, max_length=200)) -> dict:
        """Move cards to a deck (created if it does not exist).

        Args:
            cards: card ids.
            deck: target deck name.
        """
        moving = self._cards(cards)
        target, made = self._make_deck(deck)
        when = self.now()
        self._touch({c.deck_id for c in moving} | {target.id}, when)
        for c in moving:
            c.deck_id, c.mod = target.id, when
        return {"deck_id": target.id, "deck_created": made, "cards": [c.id for c in moving]}

    @tool(read_only=False, returns=Note)
    def updateNoteFields(self, note: NoteUpdate) -> dict:
        """Set some fields of a note (the others are kept); a cloze note gains cards for new cloze numbers.

        Args:
            note: {"id": note id, "fields": {field: new value}}.
        """
        n = self._notes([note.id])[0]
        model = self.state.models[n.model_name]
        unknown = sorted(set(note.fields) - set(model.fields))
        if unknown:
            raise InvalidArgument(f"note type {model.name!r} has no field(s) {unknown}; its fields are {model.fields}.")
        values = {**n.fields, **note.fields}
        if not _plain(values[model.fields[0]]) or not card_ords(model, values):
            raise Unprocessable(f"the note would be empty: {model.fields[0]!r} needs text"
                                f"{' with a cloze deletion' if model.type == 'cloze' else ''}.")
        when = self.now()
        n.fields, n.mod = values, when
        have = {self.state.cards[c].ord for c in n.cards}
        deck_id = self.state.cards[n.cards[0]].deck_id
        for ord_ in card_ords(model, values):
            if ord_ not in have:
                c = Card(id=self.new_id("CARD"), note_id=n.id, deck_id=deck_id, ord=ord_, type=0, queue=0, mod=when)
                self.state.cards[c.id] = c
                n.cards.append(c.id)
        self._touch({self.state.cards[c].deck_id for c in n.cards}, when)
        return self._note_view(n)

    def _retag(self, notes: Ids, tags: str, add: bool) -> list[dict]:
        found, wanted = self._notes(notes), split_tags(tags)
        if not wanted:
            raise InvalidArgument("give at least one tag.")
        when = self.now()
        for n in found:
            low = {t.lower() for t in wanted}
            n.tags = ([*n.tags, *(t for t in wanted if t.lower() not in {x.lower() for x in n.tags})] if add
                      else [t for t in n.tags if t.lower() not in low])
            n.mod = when
        return [{"noteId": n.id, "tags": n.tags} for n in found]

    @tool(read_only=False)
    def addTags(self, notes: Ids = Field(min_length=1, max_length=200),
                tags: str = Field(min_length=1, max_length=300)) -> list[dict]:
        """Add tags to notes.

        Args:
            notes: note ids.
            tags: space-separated tags, e.g. "billing needs_review".
        """
        return self._retag(notes, tags, True)

    @tool(read_only=False)
    def removeTags(self, notes: Ids = Field(min_length=1, max_length=200),
                   tags: str = Field(min_length=1, max_length=300)) -> list[dict]:
        """Remove tags from notes (case-insensitive).

        Args:
            notes: note ids.
            tags: space-separated tags, e.g. "leech".
        """
        return self._retag(notes, tags, False)

    @tool(read_only=False, destructive=True)
    def deleteNotes(self, notes: Ids = Field(min_length=1, max_length=200)) -> dict:
        """Delete notes and all their cards.

        Args:
            notes: note ids.
        """
        found = self._notes(notes)
        cards = [c for n in found for c in n.cards]
        self._drop_cards(cards)
        return {"deleted_notes": [n.id for n in found], "deleted_cards": len(cards)}

    @tool(read_only=False)
    def suspend(self, cards: Ids = Field(min_length=1, max_length=200)) -> bool:
        """Suspend cards (they leave the review queues); true if at least one card was not suspended yet.

        Args:
            cards: card ids.
        """
        found, when = self._cards(cards), self.now()
        changed = [c for c in found if c.queue != -1]
        for c in changed:
            c.queue, c.mod = -1, when
        return bool(changed)

    @tool(read_only=False)
    def unsuspend(self, cards: Ids = Field(min_length=1, max_length=200)) -> bool:
        """Unsuspend cards (each returns to its queue: new, learning or review); true if any was suspended.

        Args:
            cards: card ids.
        """
        found, when = self._cards(cards), self.now()
        changed = [c for c in found if c.queue == -1]
        for c in changed:
            c.queue, c.mod = {0: 0, 1: 1, 2: 2, 3: 1}[c.type], when
        return bool(changed)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> FlashcardsState:
        """Seeded collection on learning_management's courses for the same seed."""
        return seed_for(seed, today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> FlashcardsState:
        return build_state(fake, rng, today, LearningManagement.build_seed_state(fake, rng, today))


__all__ = ["Flashcards"]
