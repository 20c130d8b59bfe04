"""HubSpot-style structured search: ``filterGroups`` and ``sorts``.

The CRM search endpoints (``POST /crm/v3/objects/{type}/search``) take
``filterGroups: [{filters: [{propertyName, operator, value}]}]``: the
filters of a group must all hold, and a record matches when any group
does. Operators (HubSpot CRM search API reference): EQ, NEQ, LT, LTE, GT,
GTE, BETWEEN (``value`` and ``highValue``), IN / NOT_IN (``values``),
HAS_PROPERTY, NOT_HAS_PROPERTY, CONTAINS_TOKEN / NOT_CONTAINS_TOKEN (a
whole word of the value, ``*`` wildcards allowed). ``sorts`` is
``[{propertyName, direction: ASCENDING|DESCENDING}]``. A property is read
from the record's ``properties`` object, where HubSpot keeps it, else from
the record itself.
"""

from __future__ import annotations

import fnmatch
from typing import Any, Callable

from compoworld_gym.errors import InvalidArgument

FILTER_WORDS = frozenset({"filtergroups"})
SORTS_WORDS = frozenset({"sorts"})


def _value(record: dict[str, Any], prop: str) -> Any:
    bag = record.get("properties")
    if isinstance(bag, dict) and prop in bag:
        return bag[prop]
    return record.get(prop)


def _ordered(a: Any, b: Any) -> tuple[Any, Any]:
    """Both as numbers when both read as numbers, else both as case-folded text (ISO dates order as text)."""
    try:
        return float(a), float(b)
    except (TypeError, ValueError):
        return str(a).casefold(), str(b).casefold()


def _same(a: Any, b: Any) -> bool:
    left, right = _ordered(a, b)
    return left == right


def _tokens(value: Any) -> list[str]:
    return str(value or "").casefold().replace(",", " ").split()


def _between(have: Any, f: dict[str, Any]) -> bool:
    low, _ = _ordered(f.get("value"), have)
    high, value = _ordered(f.get("highValue"), have)
    return low <= value <= high


def _compare(test: Callable[[Any, Any], bool]) -> Callable[[Any, dict[str, Any]], bool]:
    def run(have: Any, f: dict[str, Any]) -> bool:
        if have is None:
            return False
        left, right = _ordered(have, f.get("value"))
        return test(left, right)
    return run


_OPS: dict[str, Callable[[Any, dict[str, Any]], bool]] = {
    "EQ": lambda have, f: have is not None and _same(have, f.get("value")),
    "NEQ": lambda have, f: have is None or not _same(have, f.get("value")),
    "LT": _compare(lambda a, b: a < b), "LTE": _compare(lambda a, b: a <= b),
    "GT": _compare(lambda a, b: a > b), "GTE": _compare(lambda a, b: a >= b),
    "BETWEEN": lambda have, f: have is not None and _between(have, f),
    "IN": lambda have, f: have is not None and any(_same(have, v) for v in _listed(f)),
    "NOT_IN": lambda have, f: have is None or not any(_same(have, v) for v in _listed(f)),
    "HAS_PROPERTY": lambda have, f: have not in (None, ""),
    "NOT_HAS_PROPERTY": lambda have, f: have in (None, ""),
    "CONTAINS_TOKEN": lambda have, f: any(fnmatch.fnmatchcase(t, str(f.get("value", "")).casefold())
                                          for t in _tokens(have)),
    "NOT_CONTAINS_TOKEN": lambda have, f: not any(fnmatch.fnmatchcase(t, str(f.get("value", "")).casefold())
                                                  for t in _tokens(have)),
}


def _listed(f: dict[str, Any]) -> list[Any]:
    values = f.get("values", f.get("value"))
    return values if isinstance(values, list) else [values]


def _holds(record: dict[str, Any], f: Any) -> bool:
    if not isinstance(f, dict) or not isinstance(f.get("propertyName"), str):
        raise InvalidArgument("invalid argument 'filterGroups': each filter needs a propertyName and an operator.")
    op = str(f.get("operator", "EQ")).upper()
    if op not in _OPS:
        raise InvalidArgument(f"invalid argument 'filterGroups': unknown operator {op!r} "
                              f"(one of {', '.join(_OPS)}).")
    return _OPS[op](_value(record, f["propertyName"]), f)


def filter_groups(records: list[dict[str, Any]], groups: Any) -> list[dict[str, Any]]:
    """The records matching any group of ANDed filters (every record for no groups).

    Raises:
        InvalidArgument: a group or filter of the wrong shape, or an unknown operator.
    """
    if not groups:
        return records
    if not isinstance(groups, list) or not all(isinstance(g, dict) for g in groups):
        raise InvalidArgument("invalid argument 'filterGroups': a list of {filters: [...]} objects.")
    return [r for r in records if any(all(_holds(r, f) for f in g.get("filters") or []) for g in groups)]


def sort_records(records: list[dict[str, Any]], sorts: Any) -> list[dict[str, Any]]:
    """``records`` ordered by ``sorts`` (``[{propertyName, direction}]`` or property names; stable).

    Raises:
        InvalidArgument: a sort of the wrong shape.
    """
    for spec in reversed(sorts if isinstance(sorts, list) else [sorts]):
        if isinstance(spec, str):
            spec = {"propertyName": spec.lstrip("-"), "direction": "DESCENDING" if spec.startswith("-") else ""}
        if not isinstance(spec, dict) or not isinstance(spec.get("propertyName"), str):
            raise InvalidArgument("invalid argument 'sorts': give [{propertyName, direction}].")
        prop, descending = spec["propertyName"], str(spec.get("direction", "")).upper().startswith("DESC")
        present = [r for r in records if _value(r, prop) is not None]
        missing = [r for r in records if _value(r, prop) is None]
        present.sort(key=lambda r: _sort_key(_value(r, prop)), reverse=descending)
        records = present + missing
    return records


def _sort_key(value: Any) -> tuple[int, Any]:
    """Numbers before text, each in its own order (a mixed column never compares a number with text)."""
    try:
        return (0, float(value)) if not isinstance(value, bool) else (1, str(value))
    except (TypeError, ValueError):
        return 1, str(value).casefold()
