"""Rules of the flashcards service: Anki's search syntax, card generation, rendering and deck stats.

Pure functions on the records of ``_flashcards_models``. The search subset
follows Anki's manual ("Searching"): terms are ANDed, ``-`` negates,
``"..."`` quotes, ``*`` is a wildcard, ``deck:`` includes subdecks,
``tag:`` matches child tags (``tag:billing`` finds ``billing::refunds``),
``note:``, ``is:new|learn|review|due|suspended``, ``nid:``/``cid:`` lists,
``field:value`` on a field of the note, and bare text searches every field.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import re
import shlex
from typing import Callable, Iterable, Mapping

from compoworld_gym.envs.services._flashcards_models import Card, Deck, Note, NoteModel
from compoworld_gym.errors import InvalidArgument

CLOZE_RX = re.compile(r"\{\{c(\d+)::(.*?)(?:::(.*?))?\}\}", re.S)
_TAG_RX = re.compile(r"^[^\s\"]+$")
_IS = ("new", "learn", "review", "due", "suspended")


def card_ords(model: NoteModel, fields: Mapping[str, str]) -> list[int]:
    """The template ordinals a note of ``model`` with ``fields`` gets cards for (cloze: each cN once)."""
    if model.type == "cloze":
        return sorted({int(m.group(1)) - 1 for m in CLOZE_RX.finditer(fields.get(model.fields[0], ""))})
    return list(range(len(model.templates)))


def render(model: NoteModel, note: Note, ord_: int) -> tuple[str, str]:
    """``(question, answer)`` of the card ``ord_`` of ``note`` (plain substitution of ``{{Field}}``)."""
    if model.type == "cloze":
        text = note.fields.get(model.fields[0], "")
        q = CLOZE_RX.sub(lambda m: f"[{m.group(3) or '...'}]" if int(m.group(1)) == ord_ + 1 else m.group(2), text)
        a = CLOZE_RX.sub(lambda m: m.group(2), text)
        extra = note.fields.get(model.fields[1], "") if len(model.fields) > 1 else ""
        return q, a + (f"<br>{extra}" if extra else "")
    t = model.templates[ord_]
    sub = lambda fmt: re.sub(r"\{\{(?:type:)?([^}]+)\}\}", lambda m: note.fields.get(m.group(1), ""), fmt)  # noqa
    q = sub(t.qfmt)
    return q, sub(t.afmt.replace("{{FrontSide}}", q))


def check_tags(tags: Iterable[str]) -> list[str]:
    """The tags, stripped and without repeats (case-blind); a tag with a space or quote is refused.

    Raises:
        InvalidArgument: a tag holds whitespace or a quote (Anki separates tags by spaces).
    """
    out: list[str] = []
    for t in tags:
        t = t.strip()
        if not _TAG_RX.match(t):
            raise InvalidArgument(f"tag {t!r} is invalid: tags hold no spaces or quotes (use '_' or '::').")
        if t.lower() not in (x.lower() for x in out):
            out.append(t)
    return out


def split_tags(tags: str) -> list[str]:
    """AnkiConnect's space-separated ``tags`` string as a list."""
    return check_tags(tags.split())


def in_deck(deck: Deck, pattern: str) -> bool:
    """Whether ``deck`` is the deck ``pattern`` names (wildcards allowed) or one of its subdecks."""
    name, pat = deck.name.lower(), pattern.lower()
    return fnmatch.fnmatchcase(name, pat) or fnmatch.fnmatchcase(name, pat + "::*")


def _wild(value: str, pattern: str) -> bool:
    return fnmatch.fnmatchcase(re.sub(r"<[^>]+>", "", value).lower(), pattern.lower())


def _term(term: str, decks: Mapping[str, Deck], today: dt.date) -> Callable[[Note, Card], bool]:
    key, sep, val = term.partition(":")
    key = key.lower()
    if not sep or not val:
        return lambda n, c: any(term.lower() in v.lower() for v in n.fields.values())
    if key == "deck":
        return lambda n, c: in_deck(decks[c.deck_id], val)
    if key == "tag":
        return lambda n, c: any(_wild(t, val) or _wild(t, val + "::*") for t in n.tags)
    if key == "note":
        return lambda n, c: _wild(n.model_name, val)
    if key in ("nid", "cid"):
        ids = {v.strip() for v in val.split(",")}
        return (lambda n, c: n.id in ids) if key == "nid" else (lambda n, c: c.id in ids)
    if key == "is":
        if val not in _IS:
            raise InvalidArgument(f"is:{val} is not supported; use is:{', is:'.join(_IS)}.")
        return {"new": lambda n, c: c.type == 0, "learn": lambda n, c: c.type in (1, 3),
                "review": lambda n, c: c.type in (2, 3), "suspended": lambda n, c: c.queue == -1,
                "due": lambda n, c: c.queue in (1, 2) and c.due is not None and c.due <= today}[val]
    return lambda n, c: any(k.lower() == key and _wild(v, val) for k, v in n.fields.items())


def search(query: str, notes: Mapping[str, Note], cards: Mapping[str, Card], decks: Mapping[str, Deck],
           today: dt.date) -> list[Card]:
    """The cards matching ``query`` in Anki's search syntax (note terms hold for the card's note).

    Raises:
        InvalidArgument: unbalanced quotes or an unsupported ``is:`` term.
    """
    try:
        terms = shlex.split(query)
    except ValueError as exc:
        raise InvalidArgument(f"invalid search {query!r}: {exc}.") from None
    tests = []
    for t in terms:
        neg = t.startswith("-") and len(t) > 1
        f = _term(t[1:] if neg else t, decks, today)
        tests.append((lambda f: (lambda n, c: not f(n, c)))(f) if neg else f)
    return [c for c in cards.values() if all(f(notes[c.note_id], c) for f in tests)]


def deck_stats(deck: Deck, decks: Mapping[str, Deck], cards: Iterable[Card], today: dt.date) -> dict:
    """AnkiConnect ``getDeckStats`` for one deck (its subdecks' cards included)."""
    ids = {d.id for d in decks.values() if in_deck(d, deck.name)}
    mine = [c for c in cards if c.deck_id in ids]
    live = [c for c in mine if c.queue != -1]
    new = sum(c.type == 0 for c in live)
    due = sum(c.queue == 2 and c.due is not None and c.due <= today for c in live)
    return {"id": deck.id, "deck_id": deck.id, "name": deck.name, "new_count": min(new, deck.new_per_day),
            "learn_count": sum(c.queue == 1 for c in live), "review_count": min(due, deck.reviews_per_day),
            "total_in_deck": len(mine), "suspended_count": len(mine) - len(live), "course_id": deck.course_id,
            "course_code": deck.course_code, "maintainer_email": deck.maintainer_email,
            "description": deck.description, "modified": deck.modified}


def course_code_of(name: str, codes: Mapping[str, str]) -> tuple[str, str] | None:
    """``(course code, course id)`` when the deck's last name part starts with a catalogue course code."""
    leaf = name.split("::")[-1].strip().upper()
    for code, cid in codes.items():
        if leaf.startswith(code.upper()):
            return code, cid
    return None


__all__ = ["CLOZE_RX", "card_ords", "check_tags", "course_code_of", "deck_stats", "in_deck", "render", "search",
           "split_tags"]
