"""Building blocks shared by the hand-written services.

Most tools do the same few things: fetch records by key (a 404 that says how
to find valid keys), list records filtered by field values, search text in a
few fields, cut a page out of the result, refuse an action from the wrong
status (a 409 that names the statuses it needs), record an outgoing message,
and, in the seed factory, number records the way ``Service.new_id`` goes on
numbering them. Each is written once here, so a service file holds only its
state, its rules and its tools.

Filters are plain predicates ``record -> bool``. A filter builder returns
None when its value is None ("no filter"), and :func:`select` skips Nones, so
a tool passes its optional arguments straight through.

Example:
    >>> from compoworld_gym.service import Record
    >>> class Ticket(Record):
    ...     id: str
    ...     status: str
    ...     owner: str
    ...     subject: str
    >>> tickets = keyed([Ticket(id="T-1", status="open", owner="Ann@x.co", subject="Refund late"),
    ...                  Ticket(id="T-2", status="closed", owner="bob@x.co", subject="Wrong size")])
    >>> [t.id for t in select(tickets.values(), eq("status", None), ieq("owner", "ann@X.co"),
    ...                       text("refund", "subject"))]
    ['T-1']
    >>> LIFECYCLE = Lifecycle("ticket", {"close": ("open",), "reopen": ("closed",)})
    >>> LIFECYCLE.check("T-2", "closed", "close")
    Traceback (most recent call last):
    ...
    compoworld_gym.errors.Conflict: ticket T-2 is closed; close needs status open.
"""

from __future__ import annotations

import datetime as dt
import random
from itertools import islice
from operator import attrgetter
from typing import Any, Callable, Iterable, Literal, Mapping, NamedTuple, Optional, Sequence, TypeVar

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import DateTime, Email
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, ToolError
from compoworld_gym.service import DAY_START, Record, Service, ServiceState

R = TypeVar("R")
#: A predicate on one record: True keeps it.
Filter = Callable[[Any], bool]

# ------------------------------------------------------------------ lookups


def pick(collection: Mapping[str, R], keys: Iterable[str], kind: str, hint: str,
         error: type[ToolError] = NotFound) -> list[R]:
    """The records of ``keys``, in first-seen order without repeats; every unknown key is named at once.

    Args:
        collection: records by key (a state's dict field).
        keys: the keys asked for (repeats allowed).
        kind: the record kind for the message, e.g. ``"component"``.
        hint: how to find valid keys, e.g. ``"call list_components."``.
        error: the error raised (``NotFound`` 404, or ``Unprocessable`` 422 for a bad reference).

    Raises:
        ToolError: ``error("unknown <kind>(s) [<unknown keys>]; <hint>")``.
    """
    keys = list(keys)
    unknown = [k for k in keys if k not in collection]
    if unknown:
        raise error(f"unknown {kind}(s) {unknown}; {hint}")
    return [collection[k] for k in dict.fromkeys(keys)]


def keyed(records: Iterable[R], key: str = "id") -> dict[str, R]:
    """``{record.<key>: record}`` in the records' order (a state's dict field from a list)."""
    get = attrgetter(key)
    return {get(r): r for r in records}


# ------------------------------------------------------------------ filters


def select(records: Iterable[R], *filters: Optional[Filter], limit: Optional[int] = None) -> list[R]:
    """The records every filter keeps, in their order; None filters are skipped.

    Args:
        records: the records (e.g. ``state.tickets.values()``, or ``reversed(...)`` for newest first).
        filters: predicates; None means "no condition".
        limit: keep at most this many (the first ones); None keeps all.
    """
    # Chained C-level filter() objects: a record one filter rejects never reaches the next,
    # as with all(), but without a generator per record (3x faster on a few dozen records).
    hits: Iterable[R] = records
    for f in filters:
        if f is not None:
            hits = filter(f, hits)
    return list(hits if limit is None else islice(hits, limit))


def eq(field: str, value: Any) -> Optional[Filter]:
    """Keep records whose ``field`` equals ``value``; None when ``value`` is None (no filter)."""
    if value is None:
        return None
    get = attrgetter(field)
    return lambda r: get(r) == value


def ieq(field: str, value: Optional[str]) -> Optional[Filter]:
    """Keep records whose text ``field`` equals ``value`` ignoring case (emails, names); None when ``value`` is None."""
    if value is None:
        return None
    get, wanted = attrgetter(field), value.lower()
    return lambda r: get(r).lower() == wanted


def has(field: str, item: Any) -> Optional[Filter]:
    """Keep records whose list ``field`` contains ``item`` (a tag, a member); None when ``item`` is None."""
    if item is None:
        return None
    get = attrgetter(field)
    return lambda r: item in get(r)


def text(query: Optional[str], *fields: str) -> Optional[Filter]:
    """Keep records where ``query`` occurs, ignoring case, in the ``fields`` joined by spaces.

    None when ``query`` is None. The joined text is ``f"{a} {b} ..."``, so a
    query may span two adjacent fields, as a search box over a row would.
    """
    if query is None:
        return None
    values, q = _values(fields), query.lower()
    return lambda r: q in " ".join(map(str, values(r))).lower()


def text_in_any(query: Optional[str], *fields: str) -> Optional[Filter]:
    """Keep records where ``query`` occurs, ignoring case, in at least one of the ``fields`` on its own."""
    if query is None:
        return None
    values, q = _values(fields), query.lower()

    def keep(r: Any) -> bool:
        for v in values(r):
            if q in str(v).lower():
                return True
        return False
    return keep


def _values(fields: Sequence[str]) -> Callable[[Any], tuple]:
    """``record -> (record.<field>, ...)`` for one field or several (attrgetter gives a bare value for one)."""
    if not fields:
        raise ValueError("a text filter needs at least one field to search")
    get = attrgetter(*fields)
    return get if len(fields) > 1 else (lambda r: (get(r),))


# ------------------------------------------------------------------ paging


def paginate(items: Sequence[R], number: int, per_page: int) -> list[R]:
    """Page ``number`` (1-based) of ``items``, ``per_page`` items a page; past the end it is empty."""
    return list(items[(number - 1) * per_page: number * per_page])


def offset_page(items: Sequence[R], token: Optional[str], size: int) -> tuple[list[R], Optional[str]]:
    """One page of ``items`` in the Google-API style: ``(page, nextPageToken or None)``.

    The token is the decimal offset of the page's first item ("" or None is
    the first page), so tokens are stable and readable.

    Raises:
        InvalidArgument: 400 when ``token`` is not a token a previous page gave.
    """
    if token and not token.isdigit():
        raise InvalidArgument(f"pageToken {token!r} is invalid; pass the nextPageToken of the previous page.")
    start = int(token) if token else 0
    nxt = str(start + size) if start + size < len(items) else None
    return list(items[start:start + size]), nxt


# --------------------------------------------------------------- counters


def next_number(counters: dict[str, int], key: str) -> int:
    """The next plain number of the sequence ``key`` (1 first) in a state's ``counters``.

    For numbers that are not ``PREFIX-0001`` ids (``Service.new_id`` makes
    those): GitHub's per-repository issue numbers, comment ids.
    """
    n = counters.get(key, 1)
    counters[key] = n + 1
    return n


def seed_id(state: ServiceState, prefix: str, width: int = 4) -> str:
    """The next id ``PREFIX-0001``, ``PREFIX-0002``... while seeding, as ``Service.new_id`` gives them.

    The state's counter is left at the next number, so tools go on from the
    last seeded record without the seed factory setting ``counters`` itself.
    """
    return f"{prefix}-{next_number(state.counters, prefix):0{width}d}"


# -------------------------------------------------------------- statuses


def require_status(kind: str, key: str, status: str, allowed: Sequence[str], action: str) -> None:
    """Refuse ``action`` on a record whose ``status`` is not one of ``allowed``.

    Raises:
        Conflict: 409 ``"<kind> <key> is <status>; <action> needs status A or B."``.
    """
    if status not in allowed:
        raise Conflict(f"{kind} {key} is {status}; {action} needs status {' or '.join(allowed)}.")


def already(kind: str, key: str, what: str) -> Conflict:
    """The 409 for a change that is already in effect: ``"<kind> <key> is already <what>."`` (to raise)."""
    return Conflict(f"{kind} {key} is already {what}.")


class Lifecycle:
    """Which statuses each action of a record kind may start from.

    Args:
        kind: the record kind, e.g. ``"invoice"``.
        moves: ``{action: statuses it may start from}``, e.g. ``{"send": ("draft",)}``.

    Raises:
        ValueError: ``moves`` is empty or an action allows no status.

    Example:
        >>> INVOICE = Lifecycle("invoice", {"send": ("draft",), "pay": ("sent", "overdue")})
        >>> INVOICE.allows("overdue", "pay")
        True
    """

    def __init__(self, kind: str, moves: Mapping[str, Sequence[str]]) -> None:
        if not moves:
            raise ValueError(f"Lifecycle({kind!r}) needs at least one action, got no moves")
        empty = sorted(a for a, s in moves.items() if not s)
        if empty:
            raise ValueError(f"Lifecycle({kind!r}): action(s) {empty} allow no status; give each a tuple of statuses")
        self.kind = kind
        self.moves = {a: tuple(s) for a, s in moves.items()}

    def allows(self, status: str, action: str) -> bool:
        """Whether ``action`` may start from ``status``.

        Raises:
            KeyError: ``action`` is not one of the lifecycle's actions (a bug in the service).
        """
        return status in self.moves[action]

    def check(self, key: str, status: str, action: str) -> None:
        """Refuse ``action`` on record ``key`` in ``status`` unless the lifecycle allows it.

        Raises:
            Conflict: 409 naming the statuses ``action`` needs (see :func:`require_status`).
            KeyError: ``action`` is not one of the lifecycle's actions.
        """
        require_status(self.kind, key, status, self.moves[action], action)


# ----------------------------------------------------------------- outbox


class OutboxMessage(Record):
    """A message a service sent (an email, SMS or chat notice); checks read the outbox."""

    id: str = Field(description="Message id, e.g. OUT-0001.")
    channel: Literal["email", "sms", "chat"] = Field(description="How it was sent.")
    to: list[Email] = Field(min_length=1, description="Recipients.")
    subject: str = Field(description="Subject line (empty for SMS and chat).")
    body: str = Field(description="Message text.")
    sent_at: DateTime = Field(description="When it was sent (logical clock).")
    about: Optional[str] = Field(default=None, description="Id of the record the message is about, if any.")


def send(service: Service, outbox: dict[str, OutboxMessage], *, to: Sequence[str], body: str,
         subject: str = "", channel: Literal["email", "sms", "chat"] = "email",
         about: Optional[str] = None, prefix: str = "OUT") -> OutboxMessage:
    """Record an outgoing message in ``outbox`` with the next ``prefix`` id and the logical time.

    Args:
        service: the sending service (its id counter and clock advance).
        outbox: the state's outbox field, messages by id.
        to: recipients, repeats dropped (at least one).
        body: the text.
        subject: the subject line.
        channel: email, sms or chat.
        about: id of the record the message is about.
        prefix: id prefix of the outbox's messages.

    Raises:
        pydantic.ValidationError: no recipient or an invalid field (a bug in the calling tool: a 500).
    """
    msg = OutboxMessage(id=service.new_id(prefix), channel=channel, to=list(dict.fromkeys(to)), subject=subject,
                        body=body, sent_at=service.now(), about=about)
    outbox[msg.id] = msg
    return msg


def sent_to(outbox: Mapping[str, OutboxMessage], email: str) -> list[OutboxMessage]:
    """Messages in ``outbox`` with ``email`` among the recipients (ignoring case), oldest first."""
    wanted = email.lower()
    return [m for m in outbox.values() if any(t.lower() == wanted for t in m.to)]


# ------------------------------------------------------------------- seeds


class Person(NamedTuple):
    """A made-up person: name and a free-mail address derived from it."""

    name: str
    email: str


def fake_person(fake: Faker) -> Person:
    """A seeded made-up customer: ``fake.name()``, then an address at ``fake.free_email_domain()``."""
    name = fake.name()
    return Person(name, email_for(name, fake.free_email_domain()))


def day_start(today: dt.date) -> dt.datetime:
    """09:00 of ``today``: where the logical clock starts, the reference point of seeded times."""
    return dt.datetime.combine(today, DAY_START)


def stamp(today: dt.date, days_ago: int, rng: random.Random) -> dt.datetime:
    """A datetime ``days_ago`` days before ``today`` at a seeded working time (09:00-17:59)."""
    return dt.datetime.combine(today - dt.timedelta(days=days_ago), dt.time(rng.randint(9, 17), rng.randint(0, 59)))
