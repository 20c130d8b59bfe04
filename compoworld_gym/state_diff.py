"""Differences between two states of a collection, for the footprint guard.

:class:`~compoworld_gym.checks.OnlyChanged` asks which records changed,
where inside a record (:func:`changed_paths`) and how much each list grew
(:func:`list_sizes`); these are its pure functions over state JSON.
"""

from __future__ import annotations

from typing import Any

from compoworld_gym.matching import get_path, matches, records


def _keyed(collection: Any) -> dict[str, Any]:
    if isinstance(collection, dict):
        return collection
    return {str(get_path(r, "id")): r for r in records(collection)}


def only_changed(check: Any, before: Any, after: Any) -> bool:
    """Whether a collection went from ``before`` to ``after`` as ``check`` (an
    :class:`~compoworld_gym.checks.OnlyChanged`) allows: records outside
    ``allow_ids`` as they were and none deleted, allowed records changed only at
    their ``allow_paths`` and grown within ``max_added``, new records matching
    ``allow_new`` and at most ``max_new`` of them."""
    if before is not None and (before is after or before == after):  # nothing changed: one C-level compare
        return True
    old, new = _keyed(before), _keyed(after)
    allowed = set(check.allow_ids)
    if any(key not in new or new[key] != rec for key, rec in old.items() if key not in allowed):
        return False
    touched = [key for key in allowed if key in old and new.get(key) != old[key]]
    paths = check.allow_paths
    # A record with allow_paths may grow no list but those in max_added; others only those.
    if any(key in new and _grew_too_much(old[key], new[key], check.max_added, strict=key in paths)
           for key in touched):
        return False
    if paths and any(key in paths and not changed_paths(old[key], new.get(key, GONE)) <= set(paths[key])
                     for key in touched):
        return False
    added = [rec for key, rec in new.items() if key not in old]
    if not added:
        return True
    if check.max_new is not None and len(added) > check.max_new:
        return False
    return check.allow_new is not None and all(matches(rec, check.allow_new) for rec in added)


def _grew_too_much(before: Any, after: Any, limits: dict[str, int], strict: bool = False) -> bool:
    """Whether a list of ``limits`` gained more items than allowed (with
    ``strict``, also whether any other list gained one)."""
    if not limits and not strict:
        return False
    was, now = list_sizes(before), list_sizes(after)
    paths = now if strict else limits
    return any(now.get(path, 0) - was.get(path, 0) > limits.get(path, 0) for path in paths)


#: A record that no longer exists (see :func:`changed_paths`).
GONE = object()


def changed_paths(before: Any, after: Any, prefix: str = "") -> set[str]:
    """The dotted paths (dict keys, list indexes) where ``after`` differs from
    ``before``; ``""`` when the whole value was replaced or deleted. Items
    appended to a list are not paths (:func:`list_sizes` counts them); a list
    that lost items is ``"<path>.-"``.

    Example:
        >>> sorted(changed_paths({"a": 1, "rows": [[1], [2]]}, {"a": 2, "rows": [[1], [3], [4]]}))
        ['a', 'rows.1.0']
    """
    if before == after:
        return set()
    if isinstance(before, dict) and isinstance(after, dict):
        out: set[str] = set()
        for key in before.keys() | after.keys():
            if key not in after or key not in before:
                out.add(f"{prefix}{key}")
            else:
                out |= changed_paths(before[key], after[key], f"{prefix}{key}.")
        return out
    if isinstance(before, list) and isinstance(after, list):
        out = {p for i, (x, y) in enumerate(zip(before, after)) for p in changed_paths(x, y, f"{prefix}{i}.")}
        if len(after) < len(before):
            out.add(f"{prefix}-")
        return out
    return {prefix.rstrip(".")}


def list_sizes(node: Any, prefix: str = "") -> dict[str, int]:
    """``{path: total items}`` of every list in a record, by field path.

    Lists of records are entered: the comments of every sheet of a
    spreadsheet are ``"sheets[].rows"``; lists of lists or of scalars are
    counted but not entered (a row's cells are part of the row).

    Example:
        >>> list_sizes({"tags": ["a"], "sheets": [{"rows": [[1, 2]]}, {"rows": []}]})
        {'tags': 1, 'sheets': 2, 'sheets[].rows': 1}
    """
    out: dict[str, int] = {}
    if not isinstance(node, dict):
        return out
    for key, value in node.items():
        path = f"{prefix}{key}"
        if isinstance(value, list):
            out[path] = out.get(path, 0) + len(value)
            for item in value:
                for sub, n in list_sizes(item, f"{path}[].").items():
                    out[sub] = out.get(sub, 0) + n
        elif isinstance(value, dict):
            for sub, n in list_sizes(value, f"{path}.").items():
                out[sub] = out.get(sub, 0) + n
    return out


__all__ = ["GONE", "changed_paths", "list_sizes", "only_changed"]
