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
from typing import Any, Iterator

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


def _at(node: Any, path: Path) -> Iterator[Any]:
    if not path:
        yield node
        return
    head, rest = path[0], path[1:]
    if head == "*" and isinstance(node, dict):
        for value in node.values():
            yield from _at(value, rest)
    elif head == "[]" and isinstance(node, list):
        for value in node:
            yield from _at(value, rest)
    elif isinstance(node, dict) and head in node:
        yield from _at(node[head], rest)


def values_of_type(states: dict[str, Any], etype: str) -> list[Any]:
    """Every value of entity type ``etype`` held by ``states`` (``{service:
    state JSON}``), first occurrence first, in service then path order.

    Values are as the JSON holds them (amounts as numbers, dates as ISO
    text); None and empty strings are left out.
    """
    out: dict[Any, None] = {}
    for service, state in states.items():
        for path in entity_paths(service).get(etype, ()):
            for value in _at(state, path):
                if value not in (None, "") and not isinstance(value, (dict, list, bool)):
                    out.setdefault(value, None)
    return list(out)


def typed_values(states: dict[str, Any]) -> dict[Any, set[str]]:
    """``{value: entity types it is held under}`` for every typed value of ``states``."""
    out: dict[Any, set[str]] = {}
    for service, state in states.items():
        for etype, paths in entity_paths(service).items():
            for path in paths:
                for value in _at(state, path):
                    if value not in (None, "") and not isinstance(value, (dict, list, bool)):
                        out.setdefault(value, set()).add(etype)
    return out


__all__ = ["Path", "entity_paths", "typed_values", "values_of_type"]
