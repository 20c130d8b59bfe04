"""Declarative record matching used by rubric checks.

A *where* clause is a JSON object ``{field path: matcher}``. A field path is
dotted (``"requester.email"``). A matcher is either a literal (equality) or
an operator object:

==============  ==========================================================
``$eq``          equal (same as a literal)
``$ieq``         equal ignoring case and surrounding whitespace (strings)
``$ne``          not equal
``$in``          equal to one of a list
``$contains``    substring, ignoring case (strings) or member (lists)
``$gt`` ...      ``$gt``, ``$gte``, ``$lt``, ``$lte``: ordered comparison
``$exists``      the path is present and not null (true) or absent/null
``$any``         some element of a list of objects matches a where clause
``$none``        no element of a list of objects matches a where clause
``$each``        every element of a list of objects matches a where clause
``$some``        some element of a list of values matches a matcher (a note text)
``$len``         the list/string length matches a matcher
``$all``         every matcher of a list holds (e.g. several ``$contains``)
``$subset``      a list whose every element is one of the given values (ignoring case)
==============  ==========================================================

Several operators in one object must all hold. Values compare as their JSON
forms (dates as ISO strings, which order correctly).
"""

from __future__ import annotations

from typing import Any

_MISSING = object()


def get_path(record: Any, path: str) -> Any:
    """The value at dotted ``path`` in nested dicts, or a sentinel if absent."""
    if "." not in path:  # one field (most paths): no split, no loop
        return record[path] if isinstance(record, dict) and path in record else _MISSING
    node = record
    for part in path.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return _MISSING
    return node


def _norm(value: Any) -> Any:
    return value.strip().casefold() if isinstance(value, str) else value


def _ordered(op: str, value: Any, target: Any) -> bool:
    try:
        if op == "$gt":
            return value > target
        if op == "$gte":
            return value >= target
        if op == "$lt":
            return value < target
        return value <= target
    except TypeError:
        return False


def _contains(value: Any, target: Any) -> bool:
    if isinstance(value, str) and isinstance(target, str):
        return _norm(target) in _norm(value)
    if isinstance(value, list):
        return any(_norm(v) == _norm(target) for v in value)
    return False


def match_value(value: Any, matcher: Any) -> bool:
    """Whether ``value`` (or the missing sentinel) satisfies ``matcher``."""
    if not (isinstance(matcher, dict) and matcher and all(k.startswith("$") for k in matcher)):
        return value is not _MISSING and value == matcher
    for op, target in matcher.items():
        if op == "$exists":
            present = value is not _MISSING and value is not None
            ok = present == bool(target)
        elif value is _MISSING:
            ok = op == "$none"
        elif op == "$eq":
            ok = value == target
        elif op == "$ieq":
            ok = _norm(value) == _norm(target)
        elif op == "$ne":
            ok = value != target
        elif op == "$in":
            ok = value in target
        elif op == "$contains":
            ok = _contains(value, target)
        elif op in ("$gt", "$gte", "$lt", "$lte"):
            ok = _ordered(op, value, target)
        elif op == "$any":
            ok = isinstance(value, list) and any(matches(v, target) for v in value)
        elif op == "$some":
            ok = isinstance(value, list) and any(match_value(v, target) for v in value)
        elif op == "$each":
            ok = isinstance(value, list) and all(matches(v, target) for v in value)
        elif op == "$none":
            ok = not (isinstance(value, list) and any(matches(v, target) for v in value))
        elif op == "$subset":
            allowed = {_norm(t) for t in target}
            ok = isinstance(value, list) and all(_norm(v) in allowed for v in value)
        elif op == "$all":
            ok = isinstance(target, list) and all(match_value(value, m) for m in target)
        elif op == "$len":
            ok = isinstance(value, (list, str, dict)) and match_value(len(value), target)
        else:
            raise ValueError(f"unknown matcher operator {op!r}")
        if not ok:
            return False
    return True


def matches(record: Any, where: dict[str, Any]) -> bool:
    """Whether a record (a dict) satisfies every clause of ``where``."""
    if not isinstance(record, dict):
        return False
    for path, m in where.items():  # a loop, not all(genexpr): called for every record of a collection
        if not match_value(get_path(record, path), m):
            return False
    return True


def records(collection: Any) -> list[Any]:
    """The records of a state collection (a dict keyed by id, or a list)."""
    if isinstance(collection, dict):
        return list(collection.values())
    if isinstance(collection, list):
        return list(collection)
    return []
