"""Values found in live service states, filed by entity type, for the argument strategies.

A tool argument tagged ``x-entity: ticket_id`` is best drawn from the ticket
ids that exist now (the call then reaches a real record). :func:`state_pools`
walks each service's state alongside its schema and files every
entity-tagged scalar; :meth:`Pools.candidates` keeps those that satisfy a
field's schema (type, bounds, pattern, ``format``).

Some facts are stored whole but asked for in parts: GitHub keeps a
repository as ``'owner/name'`` (``repo_name``) while its tools take
``owner`` and a bare ``repo``. :meth:`Pools.links` finds such splits
generically: a ``'head/tail'`` value of one argument's entity type whose head
is a pooled value of a sibling argument's entity type.

Example:
    >>> pools = Pools(by_entity={"repo_name": ["acme/shop"], "username": ["acme", "bo"]})
    >>> schema = {"type": "object", "properties": {
    ...     "owner": {"type": "string", "x-entity": "username"},
    ...     "repo": {"type": "string", "x-entity": "repo_name"}}}
    >>> pools.links(schema)
    [Link(head='owner', tail='repo', pairs=[('acme', 'shop')])]
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Iterable, NamedTuple, Optional

from compoworld_gym.service import Service
from compoworld_gym.testing.schema_merge import merged_all_of
from compoworld_gym.testing.fitting import fits
from compoworld_gym.testing.schema_rules import by_identity

#: Most values kept per pool (large states would make every draw slow).
_MAX_POOL = 150
#: Longest state string taken into a pool (long bodies add nothing).
_MAX_POOL_STRING = 200


class Link(NamedTuple):
    """Two sibling arguments that together name one pooled ``'head/tail'`` value.

    Attributes:
        head: the property taking the part before the first ``/`` (e.g. ``owner``).
        tail: the property taking the rest (e.g. ``repo``).
        pairs: ``[(head value, tail value)]``, each fitting its property's schema.
    """

    head: str
    tail: str
    pairs: list[tuple[str, str]]


@dataclass
class Pools:
    """Values found in live service states, by entity type.

    Attributes:
        by_entity: ``{entity type: sorted values}``, e.g. ``{"ticket_id": ["TCK-0001", ...]}``.
        strings: every short string in the states (record keys included), sorted.
    """

    by_entity: dict[str, list[Any]] = field(default_factory=dict)
    strings: list[str] = field(default_factory=list)
    _fitting: dict[int, tuple[dict[str, Any], list[Any]]] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    _links: dict[int, tuple[dict[str, Any], list[Link]]] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    def candidates(self, schema: dict[str, Any]) -> list[Any]:
        """The pooled values that satisfy ``schema`` (an entity-tagged or free-string field),
        computed once per schema object."""
        return by_identity(self._fitting, schema, lambda: _pool_candidates(schema, self))

    def links(self, schema: dict[str, Any]) -> list[Link]:
        """The :class:`Link`\\ s among an object schema's properties, computed once per schema object."""
        return by_identity(self._links, schema, lambda: _find_links(schema, self))


# ------------------------------------------------------------ candidates
def branches(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The alternatives of a field: its ``anyOf``/``oneOf`` branches (``allOf`` merged), or itself."""
    out = []
    for branch in schema.get("anyOf", schema.get("oneOf", [schema])):
        if isinstance(branch, dict) and branch.get("allOf"):
            branch = merged_all_of(branch)[0]
        if isinstance(branch, dict):
            out.append(branch)
    return out


def _free_string(branch: dict[str, Any]) -> bool:
    return branch.get("type") == "string" and "enum" not in branch and not branch.get("format")


def may_pool(schema: dict[str, Any]) -> bool:
    """Whether any pool can hold values for the schema (an entity tag or a free string)."""
    return any(b.get("x-entity") or schema.get("x-entity") or _free_string(b) for b in branches(schema))


def entity_tag(schema: Any) -> Optional[str]:
    """The entity type of a field: its own ``x-entity`` or that of its first tagged branch."""
    if not isinstance(schema, dict):
        return None
    tag = schema.get("x-entity")
    if isinstance(tag, str):
        return tag
    return next((b["x-entity"] for b in branches(schema) if isinstance(b.get("x-entity"), str)), None)


def _pool_candidates(schema: dict[str, Any], pools: Pools) -> list[Any]:
    out: list[Any] = []
    for branch in branches(schema):
        tag = branch.get("x-entity") or schema.get("x-entity")
        if tag:
            source = pools.by_entity.get(tag, [])
        elif _free_string(branch):
            source = pools.strings
        else:
            continue
        out.extend(v for v in source if fits(branch, v))
    return out


def _find_links(schema: dict[str, Any], pools: Pools) -> list[Link]:
    """Links of ``schema``'s properties: tail tagged T holding a part of a pooled ``'head/tail'``
    value of T, head a sibling tagged H != T whose pool holds the head part."""
    props = schema.get("properties")
    if not isinstance(props, dict):
        return []
    tags = {name: entity_tag(sub) for name, sub in props.items()}
    links = []
    for tail, tail_tag in tags.items():
        whole = [v.split("/", 1) for v in pools.by_entity.get(tail_tag, []) if isinstance(v, str) and "/" in v]
        whole = [(h, t) for h, t in whole if h and t and fits(props[tail], t)]
        for head, head_tag in tags.items():
            if not whole or head == tail or head_tag in (None, tail_tag):
                continue
            heads = {h for h in pools.by_entity.get(head_tag, ()) if isinstance(h, str) and fits(props[head], h)}
            pairs = [(h, t) for h, t in whole if h in heads]
            if pairs:
                links.append(Link(head, tail, pairs))
    return links


# ------------------------------------------------------------ state walk
class _Node:
    """A state schema node compiled for fast walking (``$ref`` resolved once)."""

    __slots__ = ("tag", "branches", "props", "extra", "items")

    def __init__(self) -> None:
        self.tag: Optional[str] = None
        self.branches: list[_Node] = []
        self.props: dict[str, _Node] = {}
        self.extra: Optional[_Node] = None
        self.items: Optional[_Node] = None

    def empty(self) -> bool:
        return not (self.tag or self.branches or self.props or self.extra or self.items)


def _compile(schema: Any, defs: dict[str, Any], memo: dict[str, _Node]) -> Optional[_Node]:
    """Compile a JSON Schema into a :class:`_Node` tree; None where no entity tag can occur."""
    if not isinstance(schema, dict):
        return None
    ref = schema.get("$ref")
    if isinstance(ref, str):
        name = ref.split("/")[-1]
        if name not in memo:  # recursive models: the placeholder is filled in place
            memo[name] = _Node()
            built = _compile({**defs.get(name, {}), **{k: v for k, v in schema.items() if k != "$ref"}},
                             defs, memo)
            if built is not None:
                for slot in _Node.__slots__:
                    setattr(memo[name], slot, getattr(built, slot))
        return memo[name]
    node = _Node()
    tag = schema.get("x-entity")
    node.tag = tag if isinstance(tag, str) else None
    for key in ("anyOf", "oneOf", "allOf"):
        node.branches += [b for b in (_compile(x, defs, memo) for x in schema.get(key, ())) if b is not None]
    props = schema.get("properties", {})
    node.props = {k: n for k, n in ((k, _compile(v, defs, memo)) for k, v in props.items()) if n is not None}
    node.extra = _compile(schema.get("additionalProperties"), defs, memo)
    node.items = _compile(schema.get("items"), defs, memo)
    return None if node.empty() else node


def _collect(node: _Node, value: Any, by_entity: dict[str, set], depth: int = 0) -> None:
    """Walk a state value alongside its compiled schema, filing entity-tagged scalars."""
    if depth > 64:
        return
    if node.tag and isinstance(value, (str, int, float)) and not isinstance(value, bool):
        by_entity.setdefault(node.tag, set()).add(value)
    for branch in node.branches:
        _collect(branch, value, by_entity, depth + 1)
    if isinstance(value, dict):
        for key, item in value.items():
            child = node.props.get(key) or (None if key in node.props else node.extra)
            if child is not None:
                _collect(child, item, by_entity, depth + 1)
    elif isinstance(value, list) and node.items is not None:
        for item in value:
            _collect(node.items, item, by_entity, depth + 1)


def _strings(value: Any, out: set[str]) -> None:
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if len(node) <= _MAX_POOL_STRING:
                out.add(node)
        elif isinstance(node, dict):
            out.update(k for k in node if isinstance(k, str) and len(k) <= _MAX_POOL_STRING)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


@functools.lru_cache(maxsize=512)
def _state_walker(cls: type[Service]) -> Optional[_Node]:
    schema = cls.State.model_json_schema()
    return _compile(schema, schema.get("$defs", {}), {})


def state_pools(services: Iterable[Service]) -> Pools:
    """The entity-tagged values and short strings of the services' current states.

    Args:
        services: live service instances (e.g. ``world.services.values()``).

    Returns:
        A :class:`Pools`; values from all services are merged, so a tool of
        one service can be fed an email or id found in another (composition).
    """
    by_entity: dict[str, set] = {}
    strings: set[str] = set()
    for svc in services:
        walker = _state_walker(type(svc))
        data = svc.state_dict()
        if walker is not None:
            _collect(walker, data, by_entity)
        _strings(data, strings)
    return Pools(by_entity={k: _spread(sorted(v, key=repr)) for k, v in sorted(by_entity.items())},
                 strings=_spread(sorted(strings)))


def _spread(values: list[Any], limit: int = _MAX_POOL) -> list[Any]:
    """At most ``limit`` values, evenly spaced over the sorted list (deterministic)."""
    if len(values) <= limit:
        return values
    step = len(values) / limit
    return [values[int(i * step)] for i in range(limit)]
