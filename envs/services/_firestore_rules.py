"""Pure Firestore rules of the firestore service: paths, field paths, where
clauses and ordering, as the Cloud Firestore API applies them.

* A collection path has an odd number of segments, a document path an even
  number; no segment is empty, ``.``, ``..`` or ``__x__``.
* Field paths use dots to reach into maps (``address.city``).
* Inequality filters (``<``, ``<=``, ``>``, ``>=``) only match values of the
  filter value's type (numbers with numbers, strings with strings);
  ``!=`` and ``not-in`` never match documents lacking the field.
* ``in``, ``not-in`` and ``array-contains-any`` need a non-empty array of at
  most 30 (``not-in``: 10) values; a query has at most one
  ``array-contains``/``array-contains-any`` and at most one ``not-in``, and
  ``not-in`` does not combine with ``!=``, ``in`` or ``array-contains-any``.
* Ordering by a field leaves out documents lacking it; ties (and unordered
  queries) go by document path.
"""

from __future__ import annotations

import re
from typing import Any, Optional, Sequence

from compoworld_gym.envs.services._firestore_models import FsDocument, OrderBy, QueryFilter
from compoworld_gym.errors import InvalidArgument

_BAD_SEGMENT = re.compile(r"^(\.|\.\.|__.*__)$")
_MISSING = object()


def segments(path: str, kind: str) -> list[str]:
    """The segments of a collection (``kind="collection"``) or document path.

    Raises:
        InvalidArgument: 400 when the path is malformed or has the wrong parity.
    """
    parts = path.strip("/").split("/") if path.strip("/") else []
    if not parts or any(not p or _BAD_SEGMENT.match(p) for p in parts):
        raise InvalidArgument(f"INVALID_ARGUMENT: {path!r} is not a valid {kind} path.")
    want_odd = kind == "collection"
    if (len(parts) % 2 == 1) != want_odd:
        raise InvalidArgument(f"INVALID_ARGUMENT: {path!r} is a {'document' if want_odd else 'collection'} path; "
                              f"a {kind} path has an {'odd' if want_odd else 'even'} number of segments.")
    return parts


def get_field(data: dict[str, Any], field: str) -> Any:
    """The value at a dotted field path, or ``_MISSING``."""
    node: Any = data
    for part in field.split("."):
        if not isinstance(node, dict) or part not in node:
            return _MISSING
        node = node[part]
    return node


def has_field(data: dict[str, Any], field: str) -> bool:
    """Whether the dotted field path exists in ``data``."""
    return get_field(data, field) is not _MISSING


def set_field(data: dict[str, Any], field: str, value: Any) -> None:
    """Set a dotted field path, creating (or replacing non-map) parents."""
    parts = field.split(".")
    node = data
    for part in parts[:-1]:
        if not isinstance(node.get(part), dict):
            node[part] = {}
        node = node[part]
    node[parts[-1]] = value


def delete_field(data: dict[str, Any], field: str) -> None:
    """Remove a dotted field path if present."""
    parts = field.split(".")
    node = get_field(data, ".".join(parts[:-1])) if len(parts) > 1 else data
    if isinstance(node, dict):
        node.pop(parts[-1], None)


def _kind(v: Any) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    return type(v).__name__


def _test(f: QueryFilter, have: Any) -> bool:
    op, want = f.operator, f.value
    if have is _MISSING:
        return False
    if op == "==":
        return have == want and _kind(have) == _kind(want)
    if op == "!=":
        return not (have == want and _kind(have) == _kind(want))
    if op in ("<", "<=", ">", ">="):
        if _kind(have) != _kind(want) or _kind(want) not in ("number", "str"):
            return False
        return {"<": have < want, "<=": have <= want, ">": have > want, ">=": have >= want}[op]
    if op == "array-contains":
        return isinstance(have, list) and want in have
    if op == "array-contains-any":
        return isinstance(have, list) and any(w in have for w in want)
    if op == "in":
        return any(have == w and _kind(have) == _kind(w) for w in want)
    return not any(have == w and _kind(have) == _kind(w) for w in want)  # not-in


def _sort_key(v: Any) -> tuple[str, Any]:
    """Values group by type (as Firestore orders types), then by value; maps and arrays by their text."""
    kind = _kind(v)
    return kind, v if kind in ("number", "str", "bool") else str(v)


def check_filters(filters: Sequence[QueryFilter]) -> None:
    """Refuse the query shapes Firestore refuses (see the module docstring).

    Raises:
        InvalidArgument: 400 ``INVALID_ARGUMENT`` naming the broken rule.
    """
    ops = [f.operator for f in filters]
    for f in filters:
        if f.operator in ("in", "not-in", "array-contains-any"):
            cap = 10 if f.operator == "not-in" else 30
            if not isinstance(f.value, list) or not f.value or len(f.value) > cap:
                raise InvalidArgument(f"INVALID_ARGUMENT: '{f.operator}' on {f.field!r} needs a non-empty array of "
                                      f"at most {cap} values.")
    if sum(op in ("array-contains", "array-contains-any") for op in ops) > 1:
        raise InvalidArgument("INVALID_ARGUMENT: a query may use at most one array-contains or array-contains-any.")
    if ops.count("not-in") > 1 or ("not-in" in ops and any(op in ("!=", "in", "array-contains-any") for op in ops)):
        raise InvalidArgument("INVALID_ARGUMENT: 'not-in' cannot be combined with another not-in, '!=', 'in' or "
                              "'array-contains-any'.")


def run_query(docs: Sequence[FsDocument], filters: Sequence[QueryFilter], order: Optional[OrderBy],
              limit: Optional[int]) -> list[FsDocument]:
    """The documents passing every filter, ordered and cut to ``limit``.

    Raises:
        InvalidArgument: 400 for a query shape Firestore refuses.
    """
    check_filters(filters)
    hits = [d for d in sorted(docs, key=lambda d: d.path) if all(_test(f, get_field(d.data, f.field)) for f in filters)]
    if order is not None:
        hits = [d for d in hits if has_field(d.data, order.field)]
        hits.sort(key=lambda d: _sort_key(get_field(d.data, order.field)), reverse=order.direction == "desc")
    return hits if limit is None else hits[:limit]
