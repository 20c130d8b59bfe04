"""Guards and answer look-alikes of generated tasks: nothing else touched,
nothing done twice, nothing wrong reported.

Guards are rubric items that hold at reset and can only be broken (each
broken guard halves the reward: :func:`compoworld_gym.rewards.score`), so
they cost a gaming agent reward without paying a lazy one:

* one ``only_changed`` item per collection a task writes, allowing exactly
  the reference's writes (:func:`merge_where` joins what several writes may
  create), which catches vandalism and spam; after verification they are
  capped at the reference's footprint and a ``writes_confined`` guard is
  added (:mod:`compoworld_gym.footprint`);
* the report item's candidates: the planted look-alikes and every other
  value of the reported value's shape (an email, a date, an amount) held by
  the task's records (:func:`shaped`), so that a final answer that dumps
  everything seen fails.
"""

from __future__ import annotations

import re
from typing import Any, Optional

import orjson

_EMAIL = r'[^"@\s\\]+@[^"@\s\\]+\.[A-Za-z]{2,}'
_DATE = r"\d{4}-\d\d-\d\d"
#: Values shaped like an email or an ISO date, whole.
_WHOLE = {"email": re.compile(_EMAIL), "date": re.compile(_DATE)}
#: The same as whole JSON values (and amounts as JSON floats), found by one
#: regex pass over a dumped collection: far cheaper than walking records.
SHAPES = {"email": re.compile(f'"({_EMAIL})"'.encode()), "date": re.compile(f'"({_DATE})"'.encode()),
          "money": re.compile(rb"[:,\[](-?\d+\.\d+)(?=[,\]}])")}
#: Shorter excluded values ("US", "12.5") would match inside honest text.
MIN_EXCLUDED_CHARS = 5


def _merge_matchers(matchers: list[Any]) -> Optional[Any]:
    """One matcher accepting each of ``matchers``' values, or None (drop the field)."""
    if all(m == matchers[0] for m in matchers):
        return matchers[0]
    texts = [m if isinstance(m, str) else m.get("$ieq") if isinstance(m, dict) and len(m) == 1 else None
             for m in matchers]
    if all(isinstance(t, str) for t in texts):
        # $in compares exactly: accept the given spelling and its lower case.
        return {"$in": sorted({v for t in texts for v in (t, t.lower())})}
    if all(isinstance(m, dict) and set(m) == {"$subset"} for m in matchers):
        return {"$subset": sorted({v for m in matchers for v in m["$subset"]})}
    return None


def merge_where(wheres: list[dict[str, Any]]) -> dict[str, Any]:
    """A where-clause matching every record any of ``wheres`` matches.

    Fields not common to all clauses, or whose matchers cannot be joined
    (e.g. two different amount ranges), are dropped: the result is looser,
    never stricter, than the union.
    """
    if len(wheres) == 1:
        return dict(wheres[0])
    out = {}
    for path in wheres[0]:
        if all(path in w for w in wheres[1:]):
            merged = _merge_matchers([w[path] for w in wheres])
            if merged is not None:
                out[path] = merged
    return out


def shape_of(value: Any) -> Optional[str]:
    """``"money"``, ``"email"`` or ``"date"`` when ``value`` has that shape, else None."""
    if isinstance(value, float):
        return "money"
    if isinstance(value, str):
        return next((name for name, rx in _WHOLE.items() if rx.fullmatch(value)), None)
    return None


def shaped(states: dict[str, Any], shape: str, skip: set[str]) -> list[Any]:
    """Every value of ``shape`` held by a record of the states, in state
    order, leaving out the records in ``skip`` (records the task writes)."""
    rx = SHAPES[shape]
    out: dict[Any, None] = {}
    for state in states.values():
        for coll in state.values():
            if not isinstance(coll, dict) or not coll or not isinstance(next(iter(coll.values())), dict):
                continue
            if skip.intersection(coll):
                coll = {k: v for k, v in coll.items() if k not in skip}
            found = rx.findall(orjson.dumps(coll))
            out.update((float(v) if shape == "money" else v.decode(), None) for v in found)
    return list(out)


__all__ = ["MIN_EXCLUDED_CHARS", "SHAPES", "merge_where", "shape_of", "shaped"]
