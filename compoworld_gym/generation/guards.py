"""Guards of generated tasks: nothing else touched, nothing wrong reported.

Guards are rubric items that hold at reset and can only be broken
(:func:`compoworld_gym.tasks.score` multiplies by the share kept), so they
cost a gaming agent reward without paying a lazy one:

* one ``only_changed`` item per collection a task writes: the records the
  reference updates may change, new records must match what the reference
  creates (its title, recipients, channel), nothing else may change — which
  catches vandalism (closing every other ticket) and spam (an extra email);
* one ``answer_excludes`` item for the report: the tempting wrong values the
  design planted (a stale value, an archived decoy, ranked losers, the parts
  of a sum) and a few same-field values of neighbouring records, so a final
  answer that dumps everything seen fails.
"""

from __future__ import annotations

import re
from typing import Any, Optional

import orjson

from compoworld_gym.generation.context import Fact

#: Most neighbouring records whose same-field values a report must not name.
N_PEERS = 60
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


def _scope(hop: Any) -> dict[str, dict[str, Any]]:
    """``{collection: {"ids": set, "new": [where]}}`` one hop's write may change."""
    out: dict[str, dict[str, Any]] = {}
    sink = hop.sink
    derived = sink.checks(hop.fact.value)
    for chk in derived:
        coll = chk.get("collection")
        if coll is None or chk.get("service", sink.service) != sink.service or coll in sink.scope:
            continue
        entry = out.setdefault(coll, {"ids": set(), "new": []})
        if not hop.write:
            continue  # a gated write must not happen: its collection is guarded, nothing allowed
        if chk["kind"] == "record_matches":
            entry["ids"].add(chk["record_id"])
        elif chk["kind"] == "record_exists":
            entry["new"].append(chk["where"])
    for coll, spec in sink.scope.items():
        entry = out.setdefault(coll, {"ids": set(), "new": []})
        if hop.write:
            entry["ids"] |= set(spec.get("allow_ids", ()))
            if spec.get("allow_new") is not None:
                entry["new"].append(spec["allow_new"])
    return out


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


def only_changed_guards(hops: list[Any]) -> list[dict[str, Any]]:
    """One ``only_changed`` guard per ``(service, collection)`` the hops write.

    A gated hop (``write=False``) guards its collection with nothing allowed.

    Returns:
        Check dicts without ids, sorted by service and collection.
    """
    scopes: dict[tuple[str, str], dict[str, Any]] = {}
    for hop in hops:
        for coll, part in _scope(hop).items():
            entry = scopes.setdefault((hop.sink.service, coll), {"ids": set(), "new": []})
            entry["ids"] |= part["ids"]
            entry["new"] += [w for w in part["new"] if w not in entry["new"]]
    out = []
    for (service, coll), entry in sorted(scopes.items()):
        out.append({"kind": "only_changed", "service": service, "collection": coll,
                    "allow_ids": sorted(entry["ids"]),
                    "allow_new": merge_where(entry["new"]) if entry["new"] else None,
                    "description": f"No other {service.replace('_', ' ')} {coll} were changed or created."})
    return out


def allowed_ids(guards: list[dict[str, Any]]) -> dict[tuple[str, str], set[str]]:
    """``{(service, collection): ids the task may change}`` of ``only_changed`` guards."""
    return {(g["service"], g["collection"]): set(g["allow_ids"]) for g in guards}


# ----------------------------------------------------------------- reports
def _forms(value: Any) -> list[str]:
    """How a value may be written in an answer (amounts in several notations)."""
    if isinstance(value, float):
        return list(dict.fromkeys([f"{value:.2f}", f"{value:,.2f}", repr(value)]))
    return [str(value)] if isinstance(value, (str, int)) and not isinstance(value, bool) else []


def _leaf_path(node: Any, targets: list[Any]) -> Optional[list[Any]]:
    """The path (keys and list indices) of the first leaf equal to one of ``targets``."""
    if isinstance(node, dict):
        items: Any = node.items()
    elif isinstance(node, list):
        items = enumerate(node)
    else:
        return [] if any(node == t and type(node) is type(t) for t in targets) else None
    for key, child in items:
        sub = _leaf_path(child, targets)
        if sub is not None:
            return [key, *sub]
    return None


def _leaf_at(node: Any, path: list[Any]) -> Any:
    for key in path:
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and isinstance(key, int) and key < len(node):
            node = node[key]
        else:
            return None
    return node


def peers(states: dict[str, Any], fact: Fact, skip: set[str]) -> list[Any]:
    """Same-field values of the records nearest (by key) to the fact's record.

    Args:
        states: the task's initial states.
        fact: the reported fact (``origin`` says where it is stored).
        skip: record ids the task writes (their values may be legitimately named).
    """
    if fact.origin is None:
        return []
    coll = (states.get(fact.service) or {}).get(fact.origin[0])
    rid = fact.origin[1]
    if not isinstance(coll, dict) or rid not in coll:
        return []
    raw = [fact.value if fact.found is None else fact.found, *fact.decoys]
    path = _leaf_path(coll[rid], raw)
    if not path:
        return []
    keys = sorted(coll)
    at = keys.index(rid)
    near = [k for _, k in sorted((abs(i - at), k) for i, k in enumerate(keys) if k != rid and k not in skip)]
    out: list[Any] = []
    for key in near:
        value = _leaf_at(coll[key], path)
        if value is not None and type(value) is type(raw[0]) and value not in raw and value not in out:
            out.append(value)
            if len(out) == N_PEERS:
                break
    return out


def _shape(value: Any) -> Optional[str]:
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


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def report_excludes(fact: Fact, states: dict[str, Any], skip: set[str], legit: list[Any],
                    said: list[str], today: str) -> list[str]:
    """Values a report of ``fact`` must not name: the planted wrong values,
    the same field of the neighbouring records and, for an email, a date or
    an amount, every other value of that shape in the task's records.

    Args:
        fact: the reported fact.
        states: the task's initial states (for neighbouring records).
        skip: record ids the task writes.
        legit: values the task legitimately uses (every hop's fact), never excluded.
        said: texts an honest answer may contain (the reference answer, the
            accepted report values, the instruction); a value inside one of
            them is not excluded.
        today: the task's date (ISO), never excluded: an answer may date itself.
    """
    allowed = {fact.value, fact.found, today, *legit}
    candidates = [*fact.decoys, *fact.wrong, *peers(states, fact, skip)]
    shape = _shape(fact.value)
    if shape is not None:
        candidates += shaped(states, shape, skip)
    said_text = "\x00".join(_norm(s) for s in said)  # one substring search per form
    out: dict[str, None] = {}
    for value in dict.fromkeys(v for v in candidates if v not in allowed):
        for form in _forms(value):
            norm = _norm(form)
            if len(norm) >= MIN_EXCLUDED_CHARS and norm not in said_text:
                out[form] = None
    return list(out)
