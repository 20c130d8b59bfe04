"""Records of the flashcards service (an Anki collection reached through AnkiConnect).

Anki's collection objects with AnkiConnect's field names, snake_cased where
stored: note types (``models``: fields, card templates, css, standard or
cloze), decks (``::`` nesting, the options group's daily limits, a
description), notes (``noteId``, ``modelName``, ``fields``, ``tags``) and
cards (``cardId``, the note, the deck, the template ``ord``, ``type`` 0 new /
1 learning / 2 review / 3 relearning, ``queue`` -1 suspended / 0 new / 1
learning / 2 review, ``due``, ``interval``, ``factor``, ``reps``,
``lapses``).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from compoworld_gym.entities import Date, DateTime, Email, Id
from compoworld_gym.service import Record, ServiceState

#: Card ``type`` codes (Anki).
CARD_TYPES = {0: "new", 1: "learning", 2: "review", 3: "relearning"}
#: The tag Anki puts on a note whose card lapsed ``LEECH_LAPSES`` times (and suspends the card).
LEECH_TAG, LEECH_LAPSES = "leech", 8


class Template(Record):
    """A card template of a note type."""

    name: str = Field(description="Template name, e.g. Card 1.")
    qfmt: str = Field(description="Front (question) format, e.g. {{Front}}.")
    afmt: str = Field(description="Back (answer) format.")


class NoteModel(Record):
    """A note type (Anki model)."""

    id: str = Field(description="Model id, e.g. MODEL-0001.")
    name: str = Field(description="Model name, e.g. Basic.")
    type: Literal["standard", "cloze"] = Field(description="standard, or cloze (one card per cloze number).")
    fields: list[str] = Field(min_length=1, description="Field names in order; the first is the sort/duplicate "
                                                        "field.")
    templates: list[Template] = Field(min_length=1, description="Card templates.")
    css: str = Field(default=".card { font-family: arial; font-size: 20px; text-align: center; }",
                     description="Styling of its cards.")


class Deck(Record):
    """A deck (``::`` in the name nests it under its parent)."""

    id: Id("deck") = Field(description="Deck id, e.g. DECK-0003.")
    name: str = Field(description="Full deck name, e.g. Academy::BIL-150 Billing Operations Certification.")
    description: str = Field(default="", description="Deck description shown on its overview screen.")
    course_id: Optional[Id("course")] = Field(default=None, description="The LMS course this study deck serves.")
    course_code: Optional[str] = Field(default=None, description="The LMS course code, e.g. BIL-150.")
    maintainer_email: Optional[Email] = Field(default=None, description="Who maintains the shared deck (the "
                                                                        "course instructor).")
    new_per_day: int = Field(default=20, ge=0, le=9999, description="Options group: new cards a day.")
    reviews_per_day: int = Field(default=200, ge=0, le=9999, description="Options group: reviews a day.")
    created: DateTime = Field(description="When created.")
    modified: DateTime = Field(description="Last change to the deck or its notes.")


class Note(Record):
    """A note: field values of one note type; it generates one card per template (or cloze)."""

    id: Id("flashcard") = Field(description="Note id, e.g. NOTE-0007.")
    model_name: str = Field(description="Its note type.")
    fields: dict[str, str] = Field(description="Field name -> value (HTML).")
    tags: list[str] = Field(default_factory=list, description="Tags (no spaces), e.g. leech, billing::refunds.")
    cards: list[str] = Field(default_factory=list, description="Ids of its cards.")
    created: DateTime = Field(description="When added.")
    mod: DateTime = Field(description="Last edit.")


class Card(Record):
    """A card of a note in a deck, with its scheduling."""

    id: str = Field(description="Card id, e.g. CARD-0011.")
    note_id: Id("flashcard") = Field(description="The note.")
    deck_id: Id("deck") = Field(description="The deck it is in.")
    ord: int = Field(ge=0, description="Template index (or cloze number - 1).")
    type: Literal[0, 1, 2, 3] = Field(description="0 new, 1 learning, 2 review, 3 relearning.")
    queue: Literal[-1, 0, 1, 2] = Field(description="-1 suspended, 0 new, 1 learning, 2 review.")
    due: Optional[Date] = Field(default=None, description="Review and learning cards: day due.")
    interval: int = Field(default=0, ge=0, description="Days between reviews.")
    factor: int = Field(default=2500, ge=1300, description="Ease factor in permille.")
    reps: int = Field(default=0, ge=0, description="Reviews so far.")
    lapses: int = Field(default=0, ge=0, description="Times forgotten after learning.")
    mod: DateTime = Field(description="Last change.")


class NoteIn(BaseModel):
    """A note to add (AnkiConnect ``addNote`` ``note``)."""

    model_config = ConfigDict(extra="forbid")
    deckName: str = Field(min_length=1, max_length=200, description="Name of the deck to add note to")
    modelName: str = Field(min_length=1, max_length=100, description="Name of the note model/type to use")
    fields: dict[str, str] = Field(description="Map of fields to the value in the note model being used")
    tags: list[str] = Field(default_factory=list, description="Tags to apply to the note")


class NoteUpdate(BaseModel):
    """AnkiConnect ``updateNoteFields``'s ``note``: the note id and the fields to set."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=40, description="The note id, e.g. NOTE-0007.")
    fields: dict[str, str] = Field(min_length=1, description="Field name -> new value; other fields are kept.")


class FlashcardsState(ServiceState):
    """The academy's shared Anki collection."""

    models: dict[str, NoteModel] = Field(default_factory=dict, description="Note types by name.")
    decks: dict[str, Deck] = Field(default_factory=dict, description="Decks by id.")
    notes: dict[str, Note] = Field(default_factory=dict, description="Notes by id.")
    cards: dict[str, Card] = Field(default_factory=dict, description="Cards by id.")
    course_codes: dict[str, str] = Field(default_factory=dict, description="LMS course code -> course id (the "
                                                                           "academy catalogue the decks follow).")
    instructors: dict[str, str] = Field(default_factory=dict, description="LMS course id -> instructor email.")
