"""Read tools of the flashcards service (AnkiConnect's deck, model, search and info actions).

A mixin of :class:`compoworld_gym.envs.services.flashcards.Flashcards`; its
methods become tools, and its lookups and record views are shared by the
write tools.
"""

from __future__ import annotations

from pydantic import Field

from compoworld_gym.envs.services._flashcards_models import CARD_TYPES, Card, Deck, Note, NoteModel
from compoworld_gym.envs.services._flashcards_rules import deck_stats, render, search
from compoworld_gym.errors import NotFound
from compoworld_gym.service import tool

Ids = list[str]


class FlashcardsReads:
    """Lookups, views and the read tools."""

    # ---------------------------------------------------------------- helpers
    def _deck_named(self, name: str) -> Deck:
        key = name.strip().lower()
        deck = next((d for d in self.state.decks.values() if d.name.lower() == key), None)
        if deck is None:
            raise NotFound(f"deck was not found: {name!r}; call listDecks.")
        return deck

    def _model(self, name: str) -> NoteModel:
        model = self.state.models.get(name) or next(
            (m for m in self.state.models.values() if m.name.lower() == name.strip().lower()), None)
        if model is None:
            raise NotFound(f"model was not found: {name!r}; call listModels.")
        return model

    def _notes(self, ids: Ids) -> list[Note]:
        missing = [i for i in ids if i not in self.state.notes]
        if missing:
            raise NotFound(f"note(s) not found: {missing}; find notes with findNotes.")
        return [self.state.notes[i] for i in dict.fromkeys(ids)]

    def _cards(self, ids: Ids) -> list[Card]:
        missing = [i for i in ids if i not in self.state.cards]
        if missing:
            raise NotFound(f"card(s) not found: {missing}; find cards with findCards.")
        return [self.state.cards[i] for i in dict.fromkeys(ids)]

    def _note_view(self, n: Note) -> dict:
        model = self.state.models[n.model_name]
        decks = sorted({self.state.decks[self.state.cards[c].deck_id].name for c in n.cards})
        return {"noteId": n.id, "modelName": n.model_name, "tags": list(n.tags),
                "fields": {f: {"value": n.fields.get(f, ""), "order": k} for k, f in enumerate(model.fields)},
                "cards": list(n.cards), "decks": decks, "mod": n.mod}

    def _card_view(self, c: Card) -> dict:
        note = self.state.notes[c.note_id]
        model = self.state.models[note.model_name]
        q, a = render(model, note, c.ord)
        return {"cardId": c.id, "note": c.note_id, "deckName": self.state.decks[c.deck_id].name,
                "modelName": model.name, "template": model.templates[min(c.ord, len(model.templates) - 1)].name,
                "ord": c.ord, "question": q, "answer": a, "type": c.type, "type_name": CARD_TYPES[c.type],
                "queue": c.queue, "suspended": c.queue == -1, "due": c.due, "interval": c.interval,
                "factor": c.factor, "reps": c.reps, "lapses": c.lapses, "mod": c.mod}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def listDecks(self) -> list[str]:
        """The names of all decks, sorted (``::`` separates a subdeck from its parent)."""
        return sorted(d.name for d in self.state.decks.values())

    @tool(read_only=True)
    def listModels(self) -> list[str]:
        """The names of all note types (models)."""
        return sorted(self.state.models)

    @tool(read_only=True, returns=NoteModel)
    def getModel(self, modelName: str = Field(min_length=1, max_length=100)) -> dict:
        """A note type with its fields, card templates and styling.

        Args:
            modelName: Name of the model to get, e.g. Basic or Cloze.
        """
        return self._model(modelName).model_dump()

    @tool(read_only=True)
    def deckNamesAndIds(self) -> dict:
        """Every deck's name with its id."""
        return {d.name: d.id for d in sorted(self.state.decks.values(), key=lambda d: d.name)}

    @tool(read_only=True)
    def getDeckStats(self, decks: Ids = Field(min_length=1, max_length=50)) -> dict:
        """Per deck (subdecks included): cards new today, in learning and due for review today, total and
        suspended counts, the LMS course it serves and its maintainer, keyed by deck id.

        Args:
            decks: deck names.
        """
        found = [self._deck_named(n) for n in decks]
        return {d.id: deck_stats(d, self.state.decks, self.state.cards.values(), self.today) for d in found}

    @tool(read_only=True)
    def findNotes(self, query: str = Field(min_length=1, max_length=500)) -> list[str]:
        """Ids of the notes matching an Anki search, e.g. 'deck:"Academy::BIL-150*" tag:leech'.

        Args:
            query: Anki search: deck:, tag:, note:, is:new|learn|review|due|suspended, nid:, cid:, field:value,
                bare words; terms are ANDed, '-' negates, '*' is a wildcard.
        """
        cards = search(query, self.state.notes, self.state.cards, self.state.decks, self.today)
        return list(dict.fromkeys(c.note_id for c in cards))

    @tool(read_only=True)
    def findCards(self, query: str = Field(min_length=1, max_length=500)) -> list[str]:
        """Ids of the cards matching an Anki search (see findNotes for the syntax).

        Args:
            query: Anki search, e.g. 'deck:"Academy::API-220 API Integration Workshop" is:suspended'.
        """
        return [c.id for c in search(query, self.state.notes, self.state.cards, self.state.decks, self.today)]

    @tool(read_only=True, returns=list[Note])
    def notesInfo(self, notes: Ids = Field(min_length=1, max_length=100)) -> list[dict]:
        """Notes with their note type, fields (value and order), tags, cards and decks.

        Args:
            notes: note ids, e.g. ["NOTE-0007"].
        """
        return [self._note_view(n) for n in self._notes(notes)]

    @tool(read_only=True, returns=list[Card])
    def cardsInfo(self, cards: Ids = Field(min_length=1, max_length=200)) -> list[dict]:
        """Cards with their deck, note, rendered question and answer, and scheduling (type, queue, due,
        interval, ease factor, reviews, lapses).

        Args:
            cards: card ids, e.g. ["CARD-0012"].
        """
        return [self._card_view(c) for c in self._cards(cards)]
