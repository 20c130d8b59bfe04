"""Whether a value taken from a live state's pool satisfies a field's schema.

Pooled values must be as valid as drawn ones: a pooled ``'20260115'`` is no
``format: date``, a pooled ``3`` is not above ``exclusiveMinimum: 3``. Pools
are re-read for every new state, so each schema is compiled once into a
predicate (kept by schema identity) and format verdicts are remembered.

Example:
    >>> fits({"type": "string", "format": "date"}, "20260115")
    False
    >>> fits({"type": "integer", "minimum": 1, "exclusiveMinimum": True}, 1)
    False
    >>> fits({"anyOf": [{"type": "string", "maxLength": 2}, {"type": "null"}]}, "ab")
    True
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable, Optional

from compoworld_gym.testing.schema_rules import by_identity, conforms, json_key, numeric_bounds

Predicate = Callable[[Any], bool]
#: ``{id(schema): (schema, predicate)}``.
_FITTERS: dict[int, tuple[Any, Predicate]] = {}


def fits(schema: Any, value: Any) -> bool:
    """Whether a pooled scalar (str, int or float) satisfies ``schema``.

    Checks ``const``, ``enum`` (JSON equality: ``1.0`` is in ``[1]``, ``true``
    is not), ``allOf``/``anyOf``/``oneOf`` members, the type, string length,
    ``pattern`` and ``format`` (:func:`~compoworld_gym.testing.schema_rules.conforms`),
    and numeric bounds (:func:`~compoworld_gym.testing.schema_rules.numeric_bounds`).
    A schema without a type fits strings by their string constraints, and
    numbers only through ``const``, ``enum`` or combinators (pools are filed
    by entity type, not by JSON type).
    """
    return fitter(schema)(value)


def fitter(schema: Any) -> Predicate:
    """The compiled predicate of :func:`fits` for ``schema`` (built once per schema object)."""
    if not isinstance(schema, dict):
        return _always if schema is not False else _never
    return by_identity(_FITTERS, schema, lambda: _compile(schema))


def _always(value: Any) -> bool:
    return True


def _never(value: Any) -> bool:
    return False


def _compile(schema: dict[str, Any]) -> Predicate:
    checks: list[Predicate] = []
    if "const" in schema:
        const = json_key(schema["const"])
        checks.append(lambda v: json_key(v) == const)
    if "enum" in schema:  # the enum decides the type (values are drawn as they are listed)
        keys = {json_key(e) for e in schema["enum"]} if isinstance(schema["enum"], list) else set()
        checks.append(lambda v: json_key(v) in keys)
        return _all(checks)
    checks += [fitter(m) for m in schema.get("allOf", ())]
    for key in ("anyOf", "oneOf"):
        if schema.get(key):
            options = [fitter(m) for m in schema[key]]
            checks.append(lambda v, options=options: any(o(v) for o in options))
    kinds = schema.get("type")
    if kinds is None:
        combined = bool(schema.get("allOf") or schema.get("anyOf") or schema.get("oneOf") or "const" in schema)
        string = _string(schema)
        checks.append(lambda v: string(v) if isinstance(v, str) else combined)
    else:
        options = [_kind(schema, k) for k in ([kinds] if isinstance(kinds, str) else kinds)]
        checks.append(options[0] if len(options) == 1 else (lambda v: any(o(v) for o in options)))
    return _all(checks)


def _all(checks: list[Predicate]) -> Predicate:
    if len(checks) == 1:
        return checks[0]
    return lambda v: all(c(v) for c in checks)


def _kind(schema: dict[str, Any], kind: Any) -> Predicate:
    if kind == "string":
        return _string(schema)
    if kind not in ("integer", "number"):
        return _never  # pools hold scalars: no bools, nulls, arrays or objects
    bounds, integer = numeric_bounds(schema), kind == "integer"

    def number(v: Any) -> bool:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return False
        return (not integer or isinstance(v, int) or float(v).is_integer()) and bounds.contains(v)

    return number


def _string(schema: dict[str, Any]) -> Predicate:
    lo, hi = schema.get("minLength", 0), schema.get("maxLength")
    pattern = schema.get("pattern")
    compiled = _regex(pattern) if isinstance(pattern, str) else None
    if pattern is not None and compiled is None:
        return _never  # an unreadable (e.g. ECMA-only) pattern: no pooled value is known to match
    fmt = schema.get("format")

    def string(v: Any) -> bool:
        if not isinstance(v, str) or len(v) < lo or (hi is not None and len(v) > hi):
            return False
        return (compiled is None or compiled.search(v) is not None) and (fmt is None or conforms(fmt, v))

    return string


@functools.lru_cache(maxsize=1024)
def _regex(pattern: str) -> Optional[re.Pattern[str]]:
    try:
        return re.compile(pattern)
    except re.error:
        return None
