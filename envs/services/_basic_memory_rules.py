"""Rules of the basic_memory service: timeframes, the search syntax, section
edits and how a note is rendered as a markdown file."""

from __future__ import annotations

import datetime as dt
import hashlib
import re

from compoworld_gym.envs.services._basic_memory_models import Note
from compoworld_gym.errors import Unprocessable

_AGO = re.compile(r"^(\d+)\s*(h|hr|hour|d|day|w|week|m|mo|month|y|year)s?(\s+ago)?$")
_DAYS = {"h": 1 / 24, "hr": 1 / 24, "hour": 1 / 24, "d": 1, "day": 1, "w": 7, "week": 7, "m": 30, "mo": 30,
         "month": 30, "y": 365, "year": 365}
#: Result types of search and recent activity.
RESULT_TYPES = ("entity", "observation", "relation")
_HEADER = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")


def since(timeframe: str, now: dt.datetime) -> dt.datetime:
    """The start of a timeframe: ``7d``, ``24h``, ``2 days ago``, ``last week``, ``today``, ``yesterday``,
    ``3 months ago``, or an ISO date.

    Raises:
        Unprocessable: 422 for a timeframe that cannot be read.
    """
    t = timeframe.strip().lower()
    if t == "today":
        return dt.datetime.combine(now.date(), dt.time())
    if t == "yesterday":
        return dt.datetime.combine(now.date() - dt.timedelta(days=1), dt.time())
    if t.startswith("last "):
        t = "1 " + t[5:]
    m = _AGO.match(t)
    if m:
        return now - dt.timedelta(days=int(m.group(1)) * _DAYS[m.group(2)])
    try:
        return dt.datetime.fromisoformat(t)
    except ValueError:
        raise Unprocessable(f"cannot read timeframe {timeframe!r}; use e.g. '7d', '24h', '2 days ago', "
                            "'last week', 'today' or 2026-01-01.") from None


def query_matcher(query: str):
    """A predicate ``text -> hits`` for Basic Memory's search syntax: terms are ANDed, ``OR`` joins
    alternatives, ``NOT term`` excludes, ``"quoted phrases"`` match whole; case-insensitive.

    Raises:
        Unprocessable: 422 for an empty query.
    """
    tokens = re.findall(r'"[^"]+"|\S+', query)
    if not tokens:
        raise Unprocessable("the search query is empty.")
    groups: list[list[tuple[bool, str]]] = [[]]
    negate = False
    for tok in tokens:
        if tok == "OR":
            groups.append([])
        elif tok == "AND":
            continue
        elif tok == "NOT":
            negate = True
        else:
            groups[-1].append((negate, tok.strip('"').lower()))
            negate = False

    def hits(text: str) -> int:
        low, best = text.lower(), 0
        for group in groups:
            if group and all((term in low) != neg for neg, term in group):
                best = max(best, sum(low.count(term) for neg, term in group if not neg) or 1)
        return best
    return hits


def replace_section(body: str, section: str, content: str) -> str:
    """``body`` with the text under the ``section`` header replaced (up to the next header of the same or a
    higher level); a missing section is added at the end as ``## section``.

    Raises:
        Unprocessable: 422 when several headers carry that title.
    """
    want = section.lstrip("#").strip().lower()
    lines = body.splitlines()
    found = [i for i, ln in enumerate(lines) if (m := _HEADER.match(ln)) and m.group(2).lower() == want]
    if len(found) > 1:
        raise Unprocessable(f"the note has {len(found)} sections titled {section!r}; edit it with find_replace.")
    if not found:
        return body.rstrip("\n") + f"\n\n## {section.lstrip('#').strip()}\n{content.rstrip()}\n"
    start = found[0]
    level = len(_HEADER.match(lines[start]).group(1))
    end = next((i for i in range(start + 1, len(lines)) if (m := _HEADER.match(lines[i])) and len(m.group(1)) <= level),
               len(lines))
    return "\n".join([*lines[:start + 1], content.rstrip(), *([""] if end < len(lines) else []), *lines[end:]]) + "\n"


def checksum(text: str) -> str:
    """The first 8 hex digits of the SHA-256 of ``text``."""
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def render(note: Note) -> str:
    """The file as it lies on disk: YAML frontmatter, then the body (a canvas is its JSON)."""
    if note.kind == "canvas":
        return note.content
    tags = "".join(f"\n- {t}" for t in note.tags)
    front = f"---\ntitle: {note.title}\ntype: {note.entity_type}\npermalink: {note.permalink}\n"
    return front + (f"tags:{tags}\n" if note.tags else "") + "---\n\n" + note.content


def summary(note: Note) -> dict:
    """A note as search and context results show it."""
    return {"type": "entity", "id": note.id, "title": note.title, "permalink": note.permalink,
            "file_path": note.file_path, "folder": note.folder, "entity_type": note.entity_type,
            "updated_at": note.updated_at}
