"""The subset of Gmail's search-box syntax understood by the gmail service.

Supported: ``from:`` ``to:`` (any recipient) ``cc:`` ``subject:`` ``label:``
(name or id) ``in:inbox|sent|trash|spam|drafts|anywhere``
``is:unread|read|starred|important`` ``after:`` / ``before:`` (``YYYY/MM/DD``
or ``YYYY-MM-DD``; after is inclusive) ``newer_than:`` / ``older_than:``
(``Nd``, ``Nm``, ``Ny``), ``"quoted phrases"`` and plain words. All terms must
hold; text matches case-insensitively. Unknown ``key:value`` tokens are plain
text, as in Gmail.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, Optional

from compoworld_gym.errors import InvalidArgument

_TOKEN = re.compile(r'(\w+):"([^"]*)"|(\w+):(\S+)|"([^"]*)"|(\S+)')
_KEYS = {"from", "to", "cc", "subject", "label", "in", "is", "after", "before", "newer_than", "older_than"}
_IN = {"inbox": "INBOX", "sent": "SENT", "trash": "TRASH", "spam": "SPAM", "drafts": "DRAFT", "anywhere": None}
_IS = {"unread", "read", "starred", "important"}
_UNIT_DAYS = {"d": 1, "m": 30, "y": 365}

Term = tuple[str, Any]


def _date(value: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value.replace("/", "-"))
    except ValueError:
        raise InvalidArgument(f"bad date {value!r} in query; use YYYY/MM/DD.") from None


def _age(value: str) -> int:
    m = re.fullmatch(r"(\d{1,6})([dmy])", value.lower())  # 6 digits: int() of 5000 digits is a ValueError
    if not m:
        raise InvalidArgument(f"bad age {value!r} in query; use e.g. 7d, 2m or 1y (at most 6 digits).")
    return int(m.group(1)) * _UNIT_DAYS[m.group(2)]


def _term(key: str, value: str) -> Term:
    key = key.lower()
    if key == "in":
        if value.lower() not in _IN:
            raise InvalidArgument(f"unknown in:{value}; use one of {', '.join(_IN)}.")
        return key, value.lower()
    if key == "is":
        if value.lower() not in _IS:
            raise InvalidArgument(f"unknown is:{value}; use one of {', '.join(sorted(_IS))}.")
        return key, value.lower()
    if key in ("after", "before"):
        return key, _date(value)
    if key in ("newer_than", "older_than"):
        return key, _age(value)
    return key, value.lower()


def parse_query(q: Optional[str]) -> list[Term]:
    """Parse a search string into ``[(key, value), ...]``; key ``""`` is free text.

    Raises:
        InvalidArgument: a date, age, ``in:`` or ``is:`` value is malformed.
    """
    terms: list[Term] = []
    for m in _TOKEN.finditer(q or ""):
        key, value = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if key and key.lower() in _KEYS:
            terms.append(_term(key, value))
        else:
            terms.append(("", (m.group(5) if m.group(5) is not None else m.group(0)).lower()))
    return terms


def _holds(msg: Any, key: str, value: Any, today: dt.date, label_names: dict[str, str]) -> bool:
    labels = msg.label_ids
    if key == "from":
        return value in msg.sender.lower()
    if key == "to":
        return any(value in a.lower() for a in (*msg.to, *msg.cc, *msg.bcc))
    if key == "cc":
        return any(value in a.lower() for a in msg.cc)
    if key == "subject":
        return value in msg.subject.lower()
    if key == "label":
        wanted = label_names.get(value) or label_names.get(value.replace("-", " ")) or value.upper()
        return wanted in labels or value in (x.lower() for x in labels)
    if key == "in":
        return _IN[value] is None or _IN[value] in labels
    if key == "is":
        flag = {"unread": "UNREAD", "read": "UNREAD", "starred": "STARRED", "important": "IMPORTANT"}[value]
        return (flag not in labels) if value == "read" else (flag in labels)
    day = msg.date.date()
    if key == "after":
        return day >= value
    if key == "before":
        return day < value
    if key in ("newer_than", "older_than"):
        # An age reaching past 0001-01-01: every message is newer than that, none older.
        cutoff = today - dt.timedelta(days=value) if value < (today - dt.date.min).days else dt.date.min
        return day > cutoff if key == "newer_than" else day <= cutoff
    text = " ".join((msg.subject, msg.body, msg.sender, *msg.to, *msg.cc)).lower()
    return value in text


def message_matches(msg: Any, terms: list[Term], today: dt.date,
                    label_names: Optional[dict[str, str]] = None) -> bool:
    """Whether a message (fields sender, to, cc, bcc, subject, body, label_ids,
    date) satisfies every term. ``label_names`` maps lower-case label names to ids."""
    return all(_holds(msg, k, v, today, label_names or {}) for k, v in terms)
