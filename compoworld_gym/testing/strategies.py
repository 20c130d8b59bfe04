"""Hypothesis strategies for services, worlds and env actions.

Three families:

* **valid arguments** for any tool, derived from its JSON Schema
  (``ToolSpec.input_schema``, itself derived from the typed signature). We do
  not use hypothesis-jsonschema: 0.23.1 breaks on Hypothesis >= 6.170.10
  (measured). Values that exist in the current state (record ids,
  emails, dates, names ...) are mixed in, so most calls hit real records.
* **valid meta-tool calls** for a mounted :class:`~compoworld_gym.world.World`.
* **malformed actions**: junk, invalid JSON, wrong shapes and types, unknown
  services/tools/records, missing and extra arguments, oversized and deeply
  nested text, unicode and control characters, edge numbers.

Example:
    >>> import datetime as dt
    >>> from hypothesis import given
    >>> from compoworld_gym.envs.services.helpdesk import Helpdesk
    >>> svc = Helpdesk.seeded(0, dt.date(2026, 1, 15))
    >>> spec = svc.tools["get_ticket"]
    >>> @given(tool_arguments(spec, state_pools([svc])))
    ... def test(args):
    ...     assert svc.call("get_ticket", args)["success"] in (True, False)
    >>> test()
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as dt
import functools
import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Optional

import orjson
from hypothesis import strategies as st

from compoworld_gym.service import Service, ToolSpec

#: Longest random string drawn for a field without ``maxLength`` (characters).
DEFAULT_MAX_TEXT = 24
#: Range of random dates (the built-in tasks live in early 2026).
MIN_DATE, MAX_DATE = dt.date(2024, 1, 1), dt.date(2028, 12, 31)
#: Most values kept per pool (large states would make every draw slow).
_MAX_POOL = 150
#: Longest state string taken into a pool (long bodies add nothing).
_MAX_POOL_STRING = 200

_TEXT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=DEFAULT_MAX_TEXT)


# ----------------------------------------------------------------- pools
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

    def candidates(self, schema: dict[str, Any]) -> list[Any]:
        """The pooled values that satisfy ``schema`` (an entity-tagged or free-string field),
        computed once per schema object."""
        return by_identity(self._fitting, schema, lambda: _pool_candidates(schema, self))


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


# ------------------------------------------------------ schema -> values
def _fits(schema: dict[str, Any], value: Any) -> bool:
    """Whether a pooled value satisfies the constraints of a (non-union) schema."""
    kind = schema.get("type")
    if "enum" in schema:
        return value in schema["enum"]
    if kind == "string" or (kind is None and isinstance(value, str)):
        if not isinstance(value, str):
            return False
        if not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", math.inf):
            return False
        pattern = schema.get("pattern")
        if pattern is not None and _regex(pattern).search(value) is None:
            return False
        fmt = schema.get("format")
        return fmt not in ("date", "date-time") or _parses_as(fmt, value)
    if kind in ("integer", "number"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        if kind == "integer" and not isinstance(value, int):
            return False
        return (schema.get("minimum", -math.inf) <= value <= schema.get("maximum", math.inf)
                and schema.get("exclusiveMinimum", -math.inf) < value < schema.get("exclusiveMaximum", math.inf))
    return False


def _parses_as(fmt: str, value: str) -> bool:
    try:
        (dt.date if fmt == "date" else dt.datetime).fromisoformat(value)
    except ValueError:
        return False
    return True


@functools.lru_cache(maxsize=1024)
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


@functools.lru_cache(maxsize=1024)
def _pattern_strategy(pattern: str, min_len: int, max_len: float) -> st.SearchStrategy[str]:
    base = st.from_regex(pattern, fullmatch=True)
    return base.filter(lambda s: min_len <= len(s) <= max_len)


def _string_strategy(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    fmt = schema.get("format")
    if fmt == "date":
        return st.dates(MIN_DATE, MAX_DATE).map(dt.date.isoformat)
    if fmt == "date-time":
        return st.datetimes(dt.datetime.combine(MIN_DATE, dt.time()),
                            dt.datetime.combine(MAX_DATE, dt.time())).map(dt.datetime.isoformat)
    lo, hi = schema.get("minLength", 0), schema.get("maxLength", math.inf)
    if schema.get("pattern") is not None:
        return _pattern_strategy(schema["pattern"], lo, hi)
    if fmt == "email":
        return st.emails().filter(lambda s: lo <= len(s) <= hi)
    return st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)),
                   min_size=lo, max_size=int(min(hi, lo + DEFAULT_MAX_TEXT)))


def _number_strategy(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    lo, hi = schema.get("minimum"), schema.get("maximum")
    if "exclusiveMinimum" in schema:
        lo = schema["exclusiveMinimum"] + (1 if schema.get("type") == "integer" else 0)
    if "exclusiveMaximum" in schema:
        hi = schema["exclusiveMaximum"] - (1 if schema.get("type") == "integer" else 0)
    if schema.get("type") == "integer":
        # unbounded ints stay within what every JSON parser reads exactly
        return st.integers(-(2**53) if lo is None else int(math.ceil(lo)),
                           2**53 if hi is None else int(math.floor(hi)))
    return st.floats(min_value=-1e12 if lo is None else lo, max_value=1e12 if hi is None else hi,
                     allow_nan=False, allow_infinity=False,
                     exclude_min="exclusiveMinimum" in schema, exclude_max="exclusiveMaximum" in schema)


_SCALAR_JSON = st.none() | st.booleans() | st.integers(-1000, 1000) | _TEXT

#: The pools that draws of live strategies read (set by :func:`drawing_from`).
_LIVE_POOLS: contextvars.ContextVar[Optional[Pools]] = contextvars.ContextVar("compoworld_pools", default=None)


@contextlib.contextmanager
def drawing_from(pools: Optional[Pools]) -> Iterator[None]:
    """Make draws of the *live* strategies inside the block take existing values from ``pools``.

    The live strategies (:func:`live_tool_arguments`, and the action
    strategies of :mod:`compoworld_gym.testing.actions` built without pools)
    are built once per tool schema and read the pools at draw time, so one
    strategy object serves every state and every world: Hypothesis validates
    each new strategy object, and building them per state was ~40% of a
    campaign. Outside the block (or with None) they draw random values only.
    """
    token = _LIVE_POOLS.set(pools)
    try:
        yield
    finally:
        _LIVE_POOLS.reset(token)


def schema_values(schema: dict[str, Any], pools: Optional[Pools] = None) -> st.SearchStrategy[Any]:
    """Values valid for a JSON Schema (the subset pydantic emits).

    Supports ``enum``, ``const``, ``anyOf``/``oneOf``/``allOf``, type lists,
    strings (``minLength``, ``maxLength``, ``pattern``, ``format`` date,
    date-time, email), integers and numbers (inclusive and exclusive
    bounds), booleans, null, arrays (``items``, ``minItems``, ``maxItems``,
    ``uniqueItems``) and objects (``properties``, ``required``,
    ``additionalProperties``). Unknown keywords are ignored.

    Args:
        schema: a JSON Schema with ``$ref`` already inlined (as in
            ``ToolSpec.input_schema``).
        pools: values from live states; an entity-tagged field draws from
            the pool of its entity type first (the shrink target), then
            random values.

    Returns:
        A strategy of JSON-compatible Python values.
    """
    if pools is None:
        return _values(schema, live=False)
    return with_pools(_values(schema, live=True), pools)


@st.composite
def with_pools(draw: Any, strategy: st.SearchStrategy[Any], pools: Pools) -> Any:
    """A live strategy (e.g. :func:`live_tool_arguments`) bound to fixed ``pools``."""
    with drawing_from(pools):
        return draw(strategy)


def _values(schema: Any, *, live: bool) -> st.SearchStrategy[Any]:
    """The (cached) strategy of a schema: pool-free, or live (reading :func:`drawing_from`'s pools)."""
    if not isinstance(schema, dict) or not schema:
        return _SCALAR_JSON
    if not live:
        return by_identity(_RANDOM_CACHE, schema, lambda: _random_values(schema, live=False))
    return by_identity(_LIVE_CACHE, schema, lambda: _live_values(schema))


def _live_values(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    random_part = _random_values(schema, live=True) if _is_composite(schema) else _values(schema, live=False)
    return _pooled(schema, random_part) if _may_pool(schema) else random_part


def by_identity(cache: dict[int, tuple[Any, Any]], obj: Any, build: Callable[[], Any], limit: int = 20_000) -> Any:
    """``build()`` cached under the identity of ``obj`` (a schema, a tool spec), built once.

    Reusing strategy objects matters, since Hypothesis validates each new
    one. The entry keeps ``obj`` alive, so its ``id`` is never reused; the
    cache is emptied past ``limit`` entries.
    """
    hit = cache.get(id(obj))
    if hit is None or hit[0] is not obj:
        if len(cache) > limit:
            cache.clear()
        hit = cache[id(obj)] = (obj, build())
    return hit[1]


#: ``{id(schema): (schema, strategy)}`` (see :func:`by_identity`).
_RANDOM_CACHE: dict[int, tuple[dict[str, Any], st.SearchStrategy[Any]]] = {}
_LIVE_CACHE: dict[int, tuple[dict[str, Any], st.SearchStrategy[Any]]] = {}
_QUARTERS = st.integers(0, 3)


@st.composite
def _pooled(draw: Any, schema: dict[str, Any], random_part: st.SearchStrategy[Any]) -> Any:
    """3 draws in 4 take an existing value of the current pools, else ``random_part``.

    (``one_of`` would give each branch half.) Both the choice and the index
    shrink toward 0, i.e. toward existing values.
    """
    pools = _LIVE_POOLS.get()
    pooled = pools.candidates(schema) if pools is not None else ()
    if not pooled or draw(_QUARTERS) == 3:
        return draw(random_part)
    return pooled[draw(st.integers(0, len(pooled) - 1))]


def _is_composite(schema: dict[str, Any]) -> bool:
    return bool(schema.get("anyOf") or schema.get("oneOf") or schema.get("allOf")
                or schema.get("type") in ("array", "object") or "properties" in schema)


def _branches(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in schema.get("anyOf", schema.get("oneOf", [schema])) if isinstance(b, dict)]


def _may_pool(schema: dict[str, Any]) -> bool:
    """Whether any pool can hold values for the schema (an entity tag or a free string)."""
    return any(b.get("x-entity") or schema.get("x-entity")
               or (b.get("type") == "string" and "enum" not in b and not b.get("format"))
               for b in _branches(schema))


def _pool_candidates(schema: dict[str, Any], pools: Pools) -> list[Any]:
    out: list[Any] = []
    for branch in _branches(schema):
        tag = branch.get("x-entity") or schema.get("x-entity")
        if tag:
            source = pools.by_entity.get(tag, [])
        elif branch.get("type") == "string" and "enum" not in branch and not branch.get("format"):
            source = pools.strings
        else:
            continue
        out.extend(v for v in source if _fits(branch, v))
    return out


def _random_values(schema: dict[str, Any], *, live: bool) -> st.SearchStrategy[Any]:
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(list(schema["enum"]))
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return st.one_of([_values(b, live=live) for b in schema[key]])
    if "allOf" in schema and schema["allOf"]:
        return _values({**schema["allOf"][0], **{k: v for k, v in schema.items() if k != "allOf"}}, live=live)
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of([_values({**schema, "type": k}, live=live) for k in kind])
    if kind == "string":
        return _string_strategy(schema)
    if kind in ("integer", "number"):
        return _number_strategy(schema)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        return _array_strategy(schema, live)
    if kind == "object" or "properties" in schema:
        return _object_strategy(schema, live)
    return _SCALAR_JSON


def _array_strategy(schema: dict[str, Any], live: bool) -> st.SearchStrategy[Any]:
    lo = schema.get("minItems", 0)
    hi = min(schema.get("maxItems", lo + 4), lo + 4)
    items = schema.get("items")
    elements = _values(items, live=live)
    if schema.get("uniqueItems"):
        return st.lists(elements, min_size=lo, max_size=hi, unique_by=lambda v: orjson.dumps(v))
    return st.lists(elements, min_size=lo, max_size=hi)


def _object_strategy(schema: dict[str, Any], live: bool) -> st.SearchStrategy[Any]:
    props = schema.get("properties", {})
    required = set(schema.get("required", ()))
    # Optional keys are present 2 times in 3 (Hypothesis's own ``optional=`` draws them
    # less often) and shrink toward absent.
    fixed = st.fixed_dictionaries({
        k: _values(v, live=live) if k in required
        else st.tuples(_PRESENT, _values(v, live=live)).map(lambda t: _Optional(*t))
        for k, v in props.items()}).map(_drop_absent)
    extra = schema.get("additionalProperties")
    if not isinstance(extra, dict) or props:
        return fixed
    return st.dictionaries(_TEXT.filter(bool), _values(extra, live=live), max_size=3)


_PRESENT = st.integers(0, 2).map(bool)


@dataclass(frozen=True)
class _Optional:
    present: bool
    value: Any


def _drop_absent(drawn: dict[str, Any]) -> dict[str, Any]:
    return {k: v.value if isinstance(v, _Optional) else v for k, v in drawn.items()
            if not (isinstance(v, _Optional) and not v.present)}


def tool_arguments(spec: ToolSpec, pools: Optional[Pools] = None) -> st.SearchStrategy[dict[str, Any]]:
    """Valid argument objects for one tool, from its ``input_schema``.

    Args:
        spec: the tool (``Service.tools[name]``).
        pools: live-state values (:func:`state_pools`) for a good hit rate
            on existing records; None for purely random values.

    Returns:
        A strategy of JSON objects (dicts) that satisfy the schema; the tool
        may still reject them for semantic reasons (404, 409, 422).
    """
    return schema_values(spec.input_schema, pools)


def live_tool_arguments(spec: ToolSpec) -> st.SearchStrategy[dict[str, Any]]:
    """:func:`tool_arguments` reading the pools of the enclosing :func:`drawing_from` at draw time.

    One strategy object per tool, shared by every state and world that
    mounts it (the fuzzing state machine's hot path).
    """
    return _values(spec.input_schema, live=True)
