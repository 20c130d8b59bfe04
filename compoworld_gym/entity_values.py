"""Where each entity type lives in a service's state, and the values it holds there.

Every state model tags its fields with entity types (``x-entity`` in the
JSON Schema, see :mod:`compoworld_gym.entities`). :func:`entity_paths` reads
those tags once per service into paths through the state JSON, and
:func:`values_of_type` collects every value of one type from mounted
states: the candidates an answer could be confused with (every email, every
order id, every amount the agent may have seen).

Example:
    >>> import datetime as dt
    >>> from compoworld_gym.catalog import get_service
    >>> state = get_service("helpdesk").seed_state(0, dt.date(2026, 1, 15)).model_dump(mode="json")
    >>> ids = values_of_type({"helpdesk": state}, "ticket_id")
    >>> ids[0].startswith("TCK-")
    True
"""

from __future__ import annotations

import functools
from typing import Any, Iterator, Optional

from compoworld_gym.catalog import get_service

#: A path through state JSON: field names, ``"*"`` for every value of a
#: dict (records keyed by id) and ``"[]"`` for every item of a list.
Path = tuple[str, ...]


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    return defs.get(ref.rsplit("/", 1)[-1], {}) if isinstance(ref, str) else node


def _walk(node: Any, defs: dict[str, Any], path: Path, seen: frozenset[str]) -> Iterator[tuple[str, Path]]:
    if not isinstance(node, dict):
        return
    tag = node.get("x-entity")
    if isinstance(tag, str):
        yield tag, path
    ref = node.get("$ref")
    if isinstance(ref, str):
        if ref in seen:  # a recursive model (a folder of folders): one level is enough
            return
        node, seen = _resolve(node, defs), seen | {ref}
        tag = node.get("x-entity")
        if isinstance(tag, str):
            yield tag, path
    for branch in node.get("anyOf", []) + node.get("allOf", []):
        yield from _walk(branch, defs, path, seen)
    for name, sub in (node.get("properties") or {}).items():
        yield from _walk(sub, defs, (*path, name), seen)
    if isinstance(node.get("additionalProperties"), dict):
        yield from _walk(node["additionalProperties"], defs, (*path, "*"), seen)
    if isinstance(node.get("items"), dict):
        yield from _walk(node["items"], defs, (*path, "[]"), seen)


@functools.lru_cache(maxsize=None)
def entity_paths(service: str) -> dict[str, tuple[Path, ...]]:
    """``{entity type: paths}`` of the fields of that type in ``service``'s state.

    Raises:
        compoworld_gym.catalog.UnknownService: the service is not in the catalog.
    """
    schema = get_service(service).State.model_json_schema()
    out: dict[str, list[Path]] = {}
    for tag, path in _walk(schema, schema.get("$defs", {}), (), frozenset()):
        if path not in out.setdefault(tag, []):
            out[tag].append(path)
    return {tag: tuple(paths) for tag, paths in out.items()}


#: A compiled trie node: ``(entity types tagged here or None, ((step, child), ...))``,
#: children in reverse declaration order (the order the walk has always visited them).
_Plan = tuple[Optional[tuple[str, ...]], tuple[tuple[str, Any], ...]]


@functools.lru_cache(maxsize=None)
def _plan(service: str, only: Optional[str] = None) -> _Plan:
    """The service's entity paths (of type ``only``, or all) as a compiled
    trie (:data:`_Plan`): paths that share a prefix are walked once."""
    root: dict[Any, Any] = {}
    for etype, paths in entity_paths(service).items():
        if only is not None and etype != only:
            continue
        for path in paths:
            node = root
            for step in path:
                node = node.setdefault(step, {})
            node.setdefault(None, []).append(etype)

    def compile_(trie: dict[Any, Any]) -> _Plan:
        types = tuple(trie[None]) if None in trie else None
        return types, tuple((step, compile_(sub)) for step, sub in reversed(trie.items()) if step is not None)

    return compile_(root)


def _collect(node: Any, plan: _Plan, out: list[tuple[Any, tuple[str, ...]]]) -> None:
    """Append ``(value, its entity types)`` for every tagged value under
    ``node``, depth first (a recursive walk: states are a few levels deep,
    and one call per node costs less than a stack of tuples)."""
    types, children = plan
    if types is not None and node is not None and node != "" and not isinstance(node, (dict, list, bool)):
        out.append((node, types))
    for step, sub in children:
        if step == "*":
            if isinstance(node, dict):
                for value in node.values():
                    _collect(value, sub, out)
        elif step == "[]":
            if isinstance(node, list):
                for value in node:
                    _collect(value, sub, out)
        elif isinstance(node, dict) and step in node:
            _collect(node[step], sub, out)


def _typed(service: str, state: Any, only: Optional[str] = None) -> list[tuple[Any, tuple[str, ...]]]:
    """``(value, its entity types)`` for every tagged value (of type
    ``only``, or any) of one state: one pass, whatever the number of types."""
    out: list[tuple[Any, tuple[str, ...]]] = []
    _collect(state, _plan(service, only), out)
    return out


def typed_values(states: dict[str, Any]) -> dict[Any, set[str]]:
    """``{value: entity types it is held under}`` for every typed value of ``states``."""
    out: dict[Any, set[str]] = {}
    for service, state in states.items():
        for value, types in _typed(service, state):
            out.setdefault(value, set()).update(types)
    return out


def values_by_type(states: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    """``{entity type: its values}`` of ``states``, each value once per type,
    in the order :func:`typed_values` lists them: one walk answers
    :func:`values_of_type` for every type (for states read again and again,
    such as the distractors' seeded states)."""
    out: dict[str, list[Any]] = {}
    for value, types in typed_values(states).items():
        for etype in types:
            out.setdefault(etype, []).append(value)
    return {etype: tuple(values) for etype, values in out.items()}


def values_of_type(states: dict[str, Any], etype: str) -> list[Any]:
    """Every value of entity type ``etype`` held by ``states`` (``{service:
    state JSON}``), each once, in service order.

    Values are as the JSON holds them (amounts as numbers, dates as ISO
    text); None and empty strings are left out.
    """
    out: dict[Any, None] = {}
    for service, state in states.items():
        if etype in entity_paths(service):
            out.update(dict.fromkeys(v for v, _ in _typed(service, state, etype)))
    return list(out)


__all__ = ["Path", "entity_paths", "typed_values", "values_by_type", "values_of_type"]
