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

The JSON Schema semantics live beside it: :mod:`.schema_rules` (JSON
equality, combined bounds, formats), :mod:`.schema_merge` (``allOf``),
:mod:`.fitting` (which pooled values fit a field) and :mod:`.pools` (values
of live states, and ``'owner/name'`` values split across sibling arguments).

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
from dataclasses import dataclass
from typing import Any, Iterator, Optional, TypeVar

from hypothesis import reject
from hypothesis import strategies as st

from compoworld_gym.service import ToolSpec
from compoworld_gym.testing.pools import Pools, entity_tag, may_pool, state_pools
from compoworld_gym.testing.schema_merge import merged_all_of
from compoworld_gym.testing.schema_rules import by_identity, json_key, numeric_bounds, validator

#: Longest random string drawn for a field without ``maxLength`` (characters).
DEFAULT_MAX_TEXT = 24
#: Range of random dates (the built-in tasks live in early 2026).
MIN_DATE, MAX_DATE = dt.date(2024, 1, 1), dt.date(2028, 12, 31)
#: Draws tried for a value of an ``allOf`` that could not be merged exactly, before giving up.
_ALL_OF_TRIES = 10
#: Widest random number range of an unbounded side (integers stay exact in every JSON parser).
_INT_SPAN, _FLOAT_SPAN = 2**53, 1e12

_TEXT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=DEFAULT_MAX_TEXT)
_S = TypeVar("_S", bound=st.SearchStrategy)


# ------------------------------------------------------ schema -> values
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
    """Integers or floats within :func:`~compoworld_gym.testing.schema_rules.numeric_bounds`
    (nothing when the bounds leave no value)."""
    bounds = numeric_bounds(schema)
    if schema.get("type") == "integer":
        lo, hi = bounds.integer_range()
        lo, hi = _span(lo, hi, _INT_SPAN)
        return st.integers(int(lo), int(hi)) if lo <= hi else st.nothing()
    lo, hi = _span(bounds.low, bounds.high, _FLOAT_SPAN)
    if bounds.low is not None and bounds.low_open:
        lo = math.nextafter(lo, math.inf)
    if bounds.high is not None and bounds.high_open:
        hi = math.nextafter(hi, -math.inf)
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False) if lo <= hi else st.nothing()


def _span(lo: Optional[float], hi: Optional[float], span: float) -> tuple[float, float]:
    """Fill an unbounded side: ``±span``, or ``span`` beyond the other bound where that lies outside."""
    if lo is None:
        lo = -span if hi is None or hi >= -span else hi - span
    if hi is None:
        hi = span if lo <= span else lo + span
    return lo, hi


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
    Their ``.example()`` reads the pools of the block it is called in, too
    (see :func:`live`).
    """
    token = _LIVE_POOLS.set(pools)
    try:
        yield
    finally:
        _LIVE_POOLS.reset(token)


#: ``{id(live strategy): (strategy, {id(pools): (pools, strategy bound to them)})}``.
_EXAMPLES: dict[int, tuple[Any, dict[int, tuple[Any, st.SearchStrategy[Any]]]]] = {}
#: Stands for "no pools" in :data:`_EXAMPLES`.
_NO_POOLS = object()


def live(strategy: _S) -> _S:
    """Make a live strategy's ``.example()`` honour the enclosing :func:`drawing_from`.

    Hypothesis keeps a batch of ``.example()`` values on the strategy object
    and hands them out on later calls; for a live strategy that batch would
    carry the pools (or the lack of them) of the first call into later
    blocks. Here ``.example()`` draws from a copy bound to the current pools
    (one per pools object, the last 8 kept), so each block gets its own
    values. Draws by ``@given``/``data.draw`` are untouched (no extra layer):
    only the instance's ``example`` is replaced. Returns ``strategy``.
    """
    if "example" not in vars(strategy):
        strategy.example = functools.partial(_live_example, strategy)  # type: ignore[method-assign]
    return strategy


def _live_example(strategy: st.SearchStrategy[Any]) -> Any:
    pools = _LIVE_POOLS.get()
    per_pools = by_identity(_EXAMPLES, strategy, dict, limit=1000)
    bound = by_identity(per_pools, _NO_POOLS if pools is None else pools,
                        lambda: with_pools(strategy, pools), limit=8)
    return bound.example()


def schema_values(schema: dict[str, Any], pools: Optional[Pools] = None) -> st.SearchStrategy[Any]:
    """Values valid for a JSON Schema (the subset pydantic emits).

    Supports ``enum``, ``const``, ``anyOf``/``oneOf``, ``allOf`` (members
    merged; a value is checked against every member where they do not merge
    into one schema), type lists, strings (``minLength``, ``maxLength``,
    ``pattern``, ``format`` date, date-time, email), integers and numbers
    (``minimum``/``maximum`` with ``exclusiveMinimum``/``exclusiveMaximum``,
    the tighter bound winning; draft-4 boolean exclusive bounds), booleans,
    null, arrays (``items``, ``minItems``, ``maxItems``, ``uniqueItems`` with
    JSON Schema equality: ``1`` and ``1.0`` are the same item, ``true`` and
    ``1`` are not) and objects (``properties``, ``required``,
    ``additionalProperties``). Other keywords are ignored outside ``allOf``.

    Args:
        schema: a JSON Schema with ``$ref`` already inlined (as in
            ``ToolSpec.input_schema``).
        pools: values from live states; an entity-tagged field draws from
            the pool of its entity type first (the shrink target), then
            random values. Pooled values satisfy the field's schema,
            ``format`` included.

    Returns:
        A strategy of JSON-compatible Python values.
    """
    if pools is None:
        return _values(schema, live=False)
    return with_pools(_values(schema, live=True), pools)


@st.composite
def with_pools(draw: Any, strategy: st.SearchStrategy[Any], pools: Optional[Pools]) -> Any:
    """A live strategy (e.g. :func:`live_tool_arguments`) bound to fixed ``pools``."""
    with drawing_from(pools):
        return draw(strategy)


def _values(schema: Any, *, live: bool) -> st.SearchStrategy[Any]:
    """The (cached) strategy of a schema: pool-free, or live (reading :func:`drawing_from`'s pools)."""
    if not isinstance(schema, dict) or not schema:
        return _SCALAR_JSON
    return by_identity(_LIVE_CACHE if live else _RANDOM_CACHE, schema, lambda: _build(schema, live))


def _build(schema: dict[str, Any], live: bool) -> st.SearchStrategy[Any]:
    if schema.get("allOf"):
        return _all_of(schema, live)
    if not live:
        return _random_values(schema, live=False)
    random_part = _random_values(schema, live=True) if _is_composite(schema) else _values(schema, live=False)
    return _pooled(schema, random_part) if may_pool(schema) else random_part


def _all_of(schema: dict[str, Any], live: bool) -> st.SearchStrategy[Any]:
    """Values of the merged ``allOf`` members, checked against ``schema`` where the merge is inexact."""
    merged, exact = merged_all_of(schema)
    if merged is None:
        return st.nothing()
    inner = _values(merged, live=live)  # the cache entry keeps ``merged`` alive
    return inner if exact else _validated(inner, validator(schema).is_valid)


@st.composite
def _validated(draw: Any, strategy: st.SearchStrategy[Any], is_valid: Any) -> Any:
    """A value of ``strategy`` that ``is_valid`` accepts, from at most :data:`_ALL_OF_TRIES` draws
    (then the example is rejected, as ``.filter`` does)."""
    for _ in range(_ALL_OF_TRIES):
        value = draw(strategy)
        if is_valid(value):
            return value
    reject()


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


@st.composite
def _linked(draw: Any, schema: dict[str, Any], fixed: st.SearchStrategy[dict[str, Any]]) -> dict[str, Any]:
    """An object of ``fixed`` whose linked properties (:meth:`Pools.links`, e.g. ``owner`` and
    ``repo`` of one ``'owner/repo'`` in the pools) take one pooled pair together, 3 draws in 4."""
    value = draw(fixed)
    pools = _LIVE_POOLS.get()
    links = pools.links(schema) if pools is not None else ()
    if not links or draw(_QUARTERS) == 3:
        return value
    taken: set[str] = set()
    for link in links:
        if link.head not in taken and link.tail not in taken:
            value[link.head], value[link.tail] = link.pairs[draw(st.integers(0, len(link.pairs) - 1))]
            taken |= {link.head, link.tail}
    return value


def _is_composite(schema: dict[str, Any]) -> bool:
    return bool(schema.get("anyOf") or schema.get("oneOf") or schema.get("allOf")
                or schema.get("type") in ("array", "object") or "properties" in schema)


def _random_values(schema: dict[str, Any], *, live: bool) -> st.SearchStrategy[Any]:
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(list(schema["enum"]))
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return st.one_of([_values(b, live=live) for b in schema[key]])
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
        # JSON Schema equality, not Python's or JSON text's: 1 == 1.0, but true != 1
        return st.lists(elements, min_size=lo, max_size=hi, unique_by=json_key)
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
        # only objects with two tagged properties can hold a link (a split pooled value)
        if live and sum(entity_tag(v) is not None for v in props.values()) >= 2:
            return _linked(schema, fixed)
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
    mounts it (the fuzzing state machine's hot path). Its ``.example()``
    honours the enclosing block too (:func:`live`).
    """
    return live(_values(spec.input_schema, live=True))


__all__ = ["DEFAULT_MAX_TEXT", "MAX_DATE", "MIN_DATE", "Pools", "by_identity", "drawing_from", "live",
           "live_tool_arguments", "schema_values", "state_pools", "tool_arguments", "with_pools"]
