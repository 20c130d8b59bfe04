"""JSON Schema semantics the argument strategies need, without Hypothesis.

* :func:`json_key`: a hashable key with JSON Schema equality (``1 == 1.0``,
  ``true != 1``, object key order does not matter), for ``uniqueItems`` and
  ``enum``.
* :func:`numeric_bounds`: the effective bounds of a number schema, the
  tighter of ``minimum`` and ``exclusiveMinimum`` (and of the maxima),
  draft-4 boolean ``exclusiveMinimum``/``exclusiveMaximum`` included.
* :func:`conforms`: whether a string satisfies a ``format`` as strictly as
  the tools' own validation reads it (``'20260115'`` is not a ``date``).
* :func:`validator`: a jsonschema validator of the right draft.
* :func:`by_identity`: a cache keyed by the identity of a schema or strategy.

Example:
    >>> json_key(1) == json_key(1.0), json_key(True) == json_key(1)
    (True, False)
    >>> numeric_bounds({"minimum": 5, "exclusiveMinimum": 3})
    Bounds(low=5, low_open=False, high=None, high_open=False)
    >>> conforms("date", "20260115"), conforms("date", "2026-01-15")
    (False, True)
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import re
from typing import Any, Callable, NamedTuple, Optional

import jsonschema

#: jsonschema's checkers for every format it knows (some need optional packages; absent ones pass).
_FORMAT_CHECKER = jsonschema.FormatChecker()
#: Stricter shapes for the formats the services read: ISO forms only, never Python's
#: looser ``fromisoformat`` extras ('20260115', '2026-W03').
_SHAPES = {
    "date": re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII),
    "date-time": re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?([Zz]|[+-]\d{2}:\d{2})?",
                            re.ASCII),
    "time": re.compile(r"\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?([Zz]|[+-]\d{2}:\d{2})?", re.ASCII),
    "email": re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+"),
    "idn-email": re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+"),
    "uri": re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:\S+"),
    "iri": re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:\S+"),
    "uri-reference": re.compile(r"\S*"),
    "hostname": re.compile(r"(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                           r"(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*", re.ASCII),
}
_PARSERS = {"date": dt.date.fromisoformat, "date-time": dt.datetime.fromisoformat,
            "time": dt.time.fromisoformat}


def by_identity(cache: dict[int, tuple[Any, Any]], obj: Any, build: Callable[[], Any], limit: int = 20_000) -> Any:
    """``build()`` cached under the identity of ``obj`` (a schema, a tool spec), built once.

    Reusing strategy objects matters, since Hypothesis validates each new
    one. The entry keeps ``obj`` alive, so its ``id`` is never reused; the
    cache is emptied past ``limit`` entries.
    """
    hit = cache.get(id(obj))
    if hit is None or hit[0] is not obj:
        if len(cache) > limit:
            cache.clear()
        hit = cache[id(obj)] = (obj, build())
    return hit[1]


def json_key(value: Any) -> Any:
    """A hashable key equal for exactly the values JSON Schema calls equal.

    Numbers compare by value whatever their type (``1``, ``1.0``); booleans are
    not numbers; arrays compare in order, objects as key sets. Non-JSON values
    (tuples, dates) are keyed by ``repr``.
    """
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("number", value)  # hash(1) == hash(1.0) and 1 == 1.0
    if value is None:
        return ("null",)
    if isinstance(value, str):
        return ("string", value)
    if isinstance(value, list):
        return ("array", tuple(json_key(v) for v in value))
    if isinstance(value, dict):
        return ("object", frozenset((k, json_key(v)) for k, v in value.items()))
    return ("other", repr(value))


def json_in(value: Any, options: list[Any]) -> bool:
    """``value in options`` with JSON Schema equality (``True`` is not in ``[1]``)."""
    key = json_key(value)
    return any(json_key(o) == key for o in options)


class Bounds(NamedTuple):
    """Effective bounds of a number schema; None where unbounded."""

    low: Optional[float]
    low_open: bool
    high: Optional[float]
    high_open: bool

    def contains(self, x: float) -> bool:
        """Whether ``x`` lies within the bounds."""
        if self.low is not None and (x < self.low or (self.low_open and x == self.low)):
            return False
        return not (self.high is not None and (x > self.high or (self.high_open and x == self.high)))

    def integer_range(self) -> tuple[Optional[int], Optional[int]]:
        """The smallest and largest integers within the bounds (None: unbounded)."""
        lo = None if self.low is None else (
            math.floor(self.low) + 1 if self.low_open else math.ceil(self.low))
        hi = None if self.high is None else (
            math.ceil(self.high) - 1 if self.high_open else math.floor(self.high))
        return lo, hi


def _number(x: Any) -> Optional[float]:
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) else None


def _tighter(inclusive: Optional[float], exclusive: Optional[float], lower: bool) -> tuple[Optional[float], bool]:
    """The tighter of an inclusive and an exclusive bound (the exclusive one on a tie)."""
    if exclusive is None:
        return inclusive, False
    if inclusive is None:
        return exclusive, True
    if lower:
        return (exclusive, True) if exclusive >= inclusive else (inclusive, False)
    return (exclusive, True) if exclusive <= inclusive else (inclusive, False)


def numeric_bounds(schema: dict[str, Any]) -> Bounds:
    """The bounds of a number schema: ``minimum``/``maximum`` and ``exclusiveMinimum``/
    ``exclusiveMaximum`` combined, the tighter one winning.

    A boolean ``exclusiveMinimum``/``exclusiveMaximum`` (draft 4) makes
    ``minimum``/``maximum`` exclusive. Non-numeric or non-finite bounds are ignored.
    """
    lo, hi = _number(schema.get("minimum")), _number(schema.get("maximum"))
    ex_lo, ex_hi = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if isinstance(ex_lo, bool):
        low, low_open = lo, ex_lo and lo is not None
    else:
        low, low_open = _tighter(lo, _number(ex_lo), lower=True)
    if isinstance(ex_hi, bool):
        high, high_open = hi, ex_hi and hi is not None
    else:
        high, high_open = _tighter(hi, _number(ex_hi), lower=False)
    return Bounds(low, low_open, high, high_open)


def conforms(fmt: Any, value: str) -> bool:
    """Whether the string ``value`` satisfies JSON Schema ``format`` ``fmt``.

    Known formats are checked by shape (full match) and, for dates and
    times, by parsing; every format is also checked by jsonschema's
    :class:`~jsonschema.FormatChecker` (unknown formats pass, as in JSON Schema).
    """
    return _conforms(fmt, value) if isinstance(fmt, str) and isinstance(value, str) else True


@functools.lru_cache(maxsize=1 << 16)
def _conforms(fmt: str, value: str) -> bool:
    """:func:`conforms`, remembered: pools of successive states share most of their values."""
    shape = _SHAPES.get(fmt)
    if shape is not None and shape.fullmatch(value) is None:
        return False
    parser = _PARSERS.get(fmt)
    if parser is not None:
        try:
            parser(value)
        except ValueError:
            return False
    return _FORMAT_CHECKER.conforms(value, fmt)


def _draft4(schema: Any) -> bool:
    """Whether ``schema`` uses draft-4 boolean ``exclusiveMinimum``/``exclusiveMaximum`` anywhere."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("exclusiveMinimum"), bool) or isinstance(node.get("exclusiveMaximum"), bool):
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def validator(schema: dict[str, Any]) -> Any:
    """A jsonschema validator of ``schema`` (formats checked): its ``$schema``'s draft, draft 4
    where boolean exclusive bounds say so (later drafts would read ``true`` as the number 1),
    else the latest."""
    cls = jsonschema.Draft4Validator if "$schema" not in schema and _draft4(schema) else (
        jsonschema.validators.validator_for(schema))
    return cls(schema, format_checker=_FORMAT_CHECKER)
