"""The SQLite engine behind the ``database`` service: limits, identifier
quoting, DDL, error mapping, and a fresh in-memory engine loaded from the
typed tables whose clock functions read the task's logical today.

Engine callbacks hold their :class:`Owner` (the service) only through a weak
reference: sqlite3 hides the references it keeps from the garbage collector,
so a bound method there made every service (and its engine) immortal.
"""

from __future__ import annotations

import re
import sqlite3
import weakref
from typing import Any, Protocol

from compoworld_gym.envs.services._database_models import Table
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable

_STRICT = " STRICT" if sqlite3.sqlite_version_info >= (3, 37) else ""
#: Most columns create_table accepts (SQLite's own limit is 2000).
MAX_COLUMNS = 100
#: Most SQLite VM steps one statement may run, in thousands: a runaway recursive CTE is
#: stopped after this much work (counted, not timed, so the cut-off is reproducible).
MAX_STEPS_K = 10_000
#: Longest string or blob a statement may build (characters/bytes), e.g. zeroblob(1e9).
MAX_VALUE_LENGTH = 1_000_000
#: Integers SQLite can store (64-bit signed); Python ints beyond raise OverflowError in sqlite3.
INT64 = (-(2**63), 2**63 - 1)
#: Most rows one ``query`` returns.
MAX_ROWS = 200
_CLOCK_FUNCS = ("date", "time", "datetime", "julianday", "strftime")
#: Quoted strings and identifiers (kept) or CURRENT_DATE/TIME/TIMESTAMP (replaced by the logical clock).
CURRENT = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\bCURRENT_(DATE|TIMESTAMP|TIME)\b", re.I)
RANDOM = re.compile(r"\brandom(blob)?\s*\(", re.I)
#: Authorizer actions a read-only statement may take.
READ_ACTIONS = frozenset({sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION,
                          sqlite3.SQLITE_RECURSIVE})
#: Authorizer actions that change rows (allowed on existing tables by the write tools).
WRITE_ACTIONS = {sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE}


class Owner(Protocol):
    """What the engine's callbacks read of the service that owns it."""

    _now: str  # 'YYYY-MM-DD 09:00:00' of the task's today
    _clock: sqlite3.Connection  # a plain engine that evaluates the real clock functions

    def _tick(self) -> int:
        """Non-zero to interrupt the running statement."""


def check_ints(where: str, values: Any) -> None:
    """400 naming the place of the first integer SQLite cannot store (outside 64 bits).

    Args:
        where: the argument path, e.g. ``"params"`` or ``"rows.0"``.
        values: a list (indexed) or dict (keyed) of scalars.
    """
    items = values.items() if isinstance(values, dict) else enumerate(values)
    for key, v in items:
        if isinstance(v, int) and not isinstance(v, bool) and not INT64[0] <= v <= INT64[1]:
            raise InvalidArgument(f"invalid argument '{where}.{key}': {v} is outside SQLite's 64-bit integer "
                                  f"range [{INT64[0]}, {INT64[1]}]; store it as REAL or TEXT.")


def quote(ident: str) -> str:
    """``ident`` as a double-quoted SQL identifier."""
    return '"' + ident.replace('"', '""') + '"'


def ddl(t: Table) -> str:
    """The ``CREATE TABLE`` statement of ``t`` (STRICT where SQLite supports it)."""
    cols = ", ".join(f"{quote(c.name)} {c.type}{' PRIMARY KEY' if c.primary_key else ''}"
                     f"{' NOT NULL' if c.not_null else ''}" for c in t.columns)
    return f"CREATE TABLE {quote(t.name)} ({cols}){_STRICT}"


def sql_error(exc: sqlite3.Error) -> Exception:
    """The tool error for an SQLite error: 422 step limit, 409 duplicate key, else 400."""
    msg = str(exc)
    if msg == "interrupted":  # by Database._tick
        return Unprocessable(f"the statement was stopped after {MAX_STEPS_K * 1000} SQLite steps; "
                             "bound recursive CTEs (e.g. WHERE x < 1000) and add LIMIT.")
    if isinstance(exc, sqlite3.IntegrityError) and ("UNIQUE" in msg or "PRIMARY KEY" in msg):
        return Conflict(f"SQL constraint failed: {msg}; the key already exists.")
    return InvalidArgument(f"SQL error: {msg}.")


def tick_of(ref: weakref.ref[Owner]) -> int:
    """The progress handler's answer: the owner's tick, or stop (1) once the owner is gone."""
    db = ref()
    return 1 if db is None else db._tick()


def clock_func(ref: weakref.ref[Owner], name: str) -> Any:
    """SQLite function ``name`` (date, time, ...) reading the owner's logical clock for 'now'."""
    # Built-in clock functions are overridden; the real one runs on a
    # separate connection with 'now' replaced by the logical clock.
    def fn(*args: Any) -> Any:
        db = ref()
        if db is None:
            raise sqlite3.OperationalError("the database service is gone")
        # 'localtime'/'utc' modifiers would read the machine's time zone: dropped.
        args = tuple(db._now if isinstance(a, str) and a.lower() == "now" else a for i, a in enumerate(args)
                     if not (i and isinstance(a, str) and a.lower() in ("localtime", "utc")))
        if not args and name != "strftime":
            args = (db._now,)
        return db._clock.execute(f"SELECT {name}({','.join('?' * len(args))})", args).fetchone()[0]
    return fn


def _no_random(*args: Any) -> Any:
    raise ValueError("random() is disabled")


def open_engine(ref: weakref.ref[Owner], tables: list[Table]) -> sqlite3.Connection:
    """A new in-memory engine holding ``tables``, with the step limit, the logical clock and no random()."""
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    if hasattr(conn, "setlimit"):  # Python >= 3.11
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_LENGTH)
    conn.set_progress_handler(lambda: tick_of(ref), 1000)
    for name in _CLOCK_FUNCS:
        conn.create_function(name, -1, clock_func(ref, name), deterministic=True)
    for name in ("random", "randomblob"):
        conn.create_function(name, -1, _no_random)
    for t in tables:
        conn.execute(ddl(t))
        cols = [c.name for c in t.columns]
        conn.executemany(f"INSERT INTO {quote(t.name)} VALUES ({','.join('?' * len(cols))})",
                         [[r[c] for c in cols] for r in t.rows])
    return conn
