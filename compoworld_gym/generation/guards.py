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

import functools
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


def _of_records(coll: Any) -> bool:
    """Whether a state field is a collection of records (a non-empty dict of dicts)."""
    return isinstance(coll, dict) and bool(coll) and isinstance(next(iter(coll.values())), dict)


@functools.lru_cache(maxsize=512)
def _heads(state: bytes) -> dict[str, bytes]:
    """``{collection: its JSON without the closing brace}`` of a seeded
    state's record collections (seeded states are shared by many tasks, as
    the same bytes object)."""
    return {name: orjson.dumps(coll)[:-1] for name, coll in orjson.loads(state).items() if _of_records(coll)}


@functools.lru_cache(maxsize=1024)
def _base_found(state: bytes, shape: str) -> dict[str, tuple[bytes, tuple[bytes, ...]]]:
    """``{collection: (its head, the matches of shape in it)}`` (see :func:`_heads`)."""
    rx = SHAPES[shape]
    return {name: (head, tuple(rx.findall(head))) for name, head in _heads(state).items()}


def _found(rx: re.Pattern[bytes], blob: bytes, base: Optional[tuple[bytes, tuple[bytes, ...]]]) -> list[bytes]:
    """``rx.findall(blob)``, reusing the matches of the seeded collection
    ``blob`` extends (planting appends records). That head ends with its last
    record's closing brace and the rest starts with the collection's closing
    brace or a comma: no match of a shape spans braces or commas outside
    quotes, so the matches of the whole are the head's, then the rest's."""
    if base is not None and blob.startswith(base[0]):
        return [*base[1], *rx.findall(blob, len(base[0]))]
    return rx.findall(blob)


def shaped(states: dict[str, Any], shape: str, skip: set[str], base: Optional[dict[str, Any]] = None) -> list[Any]:
    """Every value of ``shape`` held by a record of the states, in state
    order, leaving out the records in ``skip`` (records the task writes).

    ``base``: the states' seeded states (JSON bytes), whose matches are
    reused where planting only added records (see :func:`_found`).
    """
    rx = SHAPES[shape]
    out: dict[Any, None] = {}
    for service, state in states.items():
        seeded = (base or {}).get(service)
        known = _base_found(seeded, shape) if isinstance(seeded, bytes) else {}
        for name, coll in state.items():
            if not _of_records(coll):
                continue
            if skip.intersection(coll):
                coll = {k: v for k, v in coll.items() if k not in skip}
            found = _found(rx, orjson.dumps(coll), known.get(name))
            out.update(dict.fromkeys(map(float, found) if shape == "money" else map(bytes.decode, found)))
    return list(out)


__all__ = ["MIN_EXCLUDED_CHARS", "SHAPES", "merge_where", "shape_of", "shaped"]
