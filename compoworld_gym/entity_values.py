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


@functools.lru_cache(maxsize=None)
def _trie(service: str, only: Optional[str] = None) -> dict[str, Any]:
    """The service's entity paths (of type ``only``, or all) as a trie:
    ``{step: subtrie}``, with the types tagged at a node under the key ``None``."""
    root: dict[Any, Any] = {}
    for etype, paths in entity_paths(service).items():
        if only is not None and etype != only:
            continue
        for path in paths:
            node = root
            for step in path:
                node = node.setdefault(step, {})
            node.setdefault(None, []).append(etype)
    return root


def _typed(service: str, state: Any, only: Optional[str] = None) -> Iterator[tuple[Any, list[str]]]:
    """``(value, its entity types)`` for every tagged value (of type
    ``only``, or any) of one state: one pass, whatever the number of types."""
    stack = [(state, _trie(service, only))]
    while stack:
        node, trie = stack.pop()
        types = trie.get(None)
        if types is not None and node not in (None, "") and not isinstance(node, (dict, list, bool)):
            yield node, types
        for step, sub in trie.items():
            if step is None:
                continue
            if step == "*":
                if isinstance(node, dict):
                    stack.extend((v, sub) for v in reversed(list(node.values())))
            elif step == "[]":
                if isinstance(node, list):
                    stack.extend((v, sub) for v in reversed(node))
            elif isinstance(node, dict) and step in node:
                stack.append((node[step], sub))


def typed_values(states: dict[str, Any]) -> dict[Any, set[str]]:
    """``{value: entity types it is held under}`` for every typed value of ``states``."""
    out: dict[Any, set[str]] = {}
    for service, state in states.items():
        for value, types in _typed(service, state):
            out.setdefault(value, set()).update(types)
    return out


def values_of_type(states: dict[str, Any], etype: str) -> list[Any]:
    """Every value of entity type ``etype`` held by ``states`` (``{service:
    state JSON}``), each once, in service order.

    Values are as the JSON holds them (amounts as numbers, dates as ISO
    text); None and empty strings are left out.
    """
    out: dict[Any, None] = {}
    for service, state in states.items():
        if etype in entity_paths(service):
            out.update((v, None) for v, _ in _typed(service, state, etype))
    return list(out)


__all__ = ["Path", "entity_paths", "typed_values", "values_of_type"]
