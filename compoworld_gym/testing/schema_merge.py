"""Merging the members of a JSON Schema ``allOf`` into one schema to draw from.

A value satisfies ``allOf`` when it satisfies every member, so the members'
constraints are combined: types intersected, ``properties`` and ``required``
united (shared properties become an ``allOf`` of both, merged in turn when
they are drawn), the tightest length, item and number bounds kept, ``enum``
and ``const`` intersected, ``additionalProperties`` applied to the other
members' properties. What cannot be expressed in one schema (two different
``pattern``s, two ``anyOf`` lists, keywords the strategies do not honour) is
reported as inexact: the caller then checks each drawn value against the
original schema with jsonschema.

Example:
    >>> merged, exact = merge_all_of({"allOf": [
    ...     {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
    ...     {"properties": {"b": {"type": "string"}}, "required": ["b"]}]})
    >>> merged["required"], sorted(merged["properties"]), exact
    (['a', 'b'], ['a', 'b'], True)
    >>> merge_all_of({"allOf": [{"type": "integer"}, {"type": "string"}]})
    (None, True)
"""

from __future__ import annotations

from typing import Any, Optional


from compoworld_gym.testing.schema_rules import by_identity, json_in, json_key, validator

#: Keywords that only describe (kept from the first member that has them).
_ANNOTATIONS = frozenset({"title", "description", "default", "examples", "$comment", "$schema", "$id",
                          "readOnly", "writeOnly", "deprecated", "contentMediaType", "contentEncoding"})
_LOWER = ("minLength", "minItems", "minProperties")
_UPPER = ("maxLength", "maxItems", "maxProperties")
#: Keywords the strategies draw values for; any other constraint makes a merge inexact.
_HONOURED = frozenset({"type", "enum", "const", "anyOf", "oneOf", "minimum", "maximum", "exclusiveMinimum",
                       "exclusiveMaximum", "pattern", "format", "items", "uniqueItems", "properties",
                       "required", "additionalProperties", *_LOWER, *_UPPER})
#: Marks an unsatisfiable merge (no value satisfies every member).
_EMPTY = object()
#: ``{id(schema): (schema, merge_all_of(schema))}``.
_MERGED: dict[int, tuple[dict[str, Any], tuple[Optional[dict[str, Any]], bool]]] = {}


def merged_all_of(schema: dict[str, Any]) -> tuple[Optional[dict[str, Any]], bool]:
    """:func:`merge_all_of`, computed once per schema object (the same merged object each time)."""
    return by_identity(_MERGED, schema, lambda: merge_all_of(schema))


def merge_all_of(schema: dict[str, Any]) -> tuple[Optional[dict[str, Any]], bool]:
    """Merge ``schema``'s ``allOf`` members (nested ``allOf`` too) with its own keywords.

    Returns:
        ``(merged, exact)``: ``merged`` has no top-level ``allOf`` (None when no
        value can satisfy the members, e.g. ``integer`` and ``string``);
        ``exact`` is False when some values of ``merged`` may still violate
        ``schema`` (then validate each drawn value against ``schema``).
    """
    members = _flatten(schema)
    if any(m is False for m in members):
        return None, True
    members = [m for m in members if isinstance(m, dict)]
    merged: dict[str, Any] = {}
    exact = True
    for member in members:
        exact &= _merge_into(merged, _draft6_bounds(member))
    exact &= _apply_additional(merged, members)
    if _EMPTY in merged.values():
        return None, True
    _distribute_branches(merged)
    if "const" in merged:  # drawn as an enum, so that the check below applies to it too
        const = merged.pop("const")
        merged["enum"] = [v for v in merged.get("enum", [const]) if json_key(v) == json_key(const)]
    if "enum" in merged:  # enum values are drawn as they are: keep those valid for everything
        check = validator(schema)
        merged["enum"] = [v for v in merged["enum"] if check.is_valid(v)]
        if not merged["enum"]:
            return None, True
    return merged, exact and not (set(merged) - _HONOURED - _ANNOTATIONS - _extensions(merged))


def _extensions(schema: dict[str, Any]) -> set[str]:
    return {k for k in schema if k.startswith("x-")}


def _flatten(schema: Any) -> list[Any]:
    """The schema without ``allOf`` plus every (nested) ``allOf`` member, in order."""
    if not isinstance(schema, dict) or "allOf" not in schema:
        return [schema]
    own = {k: v for k, v in schema.items() if k != "allOf"}
    out: list[Any] = [own] if own else []
    for member in schema["allOf"] or ():
        out += _flatten(member)
    return out


def _draft6_bounds(schema: dict[str, Any]) -> dict[str, Any]:
    """Draft-4 boolean ``exclusiveMinimum``/``exclusiveMaximum`` rewritten as numbers (so that
    bounds of several members combine by max/min)."""
    out = dict(schema)
    for ex, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if isinstance(out.get(ex), bool):
            if out.pop(ex) and bound in out:
                out[ex] = out.pop(bound)
    return out


def _merge_into(merged: dict[str, Any], member: dict[str, Any]) -> bool:
    """Fold one member into ``merged`` in place; False where the result is inexact."""
    exact = True
    for key, value in member.items():
        if key not in merged:
            merged[key] = value
        elif key in _ANNOTATIONS or key.startswith("x-"):
            continue
        else:
            combined = _combine(key, merged[key], value)
            if combined is None:  # cannot be said in one schema: keep the first, check later
                exact = False
            else:
                merged[key] = combined
    return exact


def _combine(key: str, a: Any, b: Any) -> Any:
    """The merge of two values of one keyword; None when inexpressible, ``_EMPTY`` when unsatisfiable."""
    if json_key(a) == json_key(b):
        return a
    if key == "type":
        return _intersect_types(a, b)
    numbers = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b))
    if key in ("minimum", "exclusiveMinimum", *_LOWER):
        return max(a, b) if numbers else None
    if key in ("maximum", "exclusiveMaximum", *_UPPER):
        return min(a, b) if numbers else None
    if key == "required":
        return list(dict.fromkeys([*a, *b])) if isinstance(a, list) and isinstance(b, list) else None
    if key == "uniqueItems":
        return bool(a or b)
    if key == "enum" and isinstance(a, list) and isinstance(b, list):
        return [v for v in a if json_in(v, b)] or _EMPTY
    if key == "const":
        return _EMPTY  # two different constants
    if key == "properties" and isinstance(a, dict) and isinstance(b, dict):
        return {k: _both(a[k], b[k]) if k in a and k in b else a.get(k, b.get(k)) for k in {**a, **b}}
    if key in ("items", "additionalProperties") and not isinstance(a, list) and not isinstance(b, list):
        return False if a is False or b is False else _both(a, b)
    return None


def _both(a: Any, b: Any) -> Any:
    """A subschema satisfying ``a`` and ``b`` (merged lazily, when it is drawn)."""
    if a is True or a == {}:
        return b
    if b is True or b == {}:
        return a
    return {"allOf": [a, b]}


def _intersect_types(a: Any, b: Any) -> Any:
    if not all(isinstance(x, str) or (isinstance(x, list) and all(isinstance(k, str) for k in x)) for x in (a, b)):
        return None
    kinds_a, kinds_b = ({a} if isinstance(a, str) else set(a)), ({b} if isinstance(b, str) else set(b))
    both = kinds_a & kinds_b
    if ("integer" in kinds_a and "number" in kinds_b) or ("integer" in kinds_b and "number" in kinds_a):
        both.add("integer")  # every integer is a number
    if not both:
        return _EMPTY
    ordered = [k for k in (a if isinstance(a, list) else [a]) if k in both] + sorted(both - kinds_a)
    return ordered[0] if len(ordered) == 1 else ordered


def _apply_additional(merged: dict[str, Any], members: list[dict[str, Any]]) -> bool:
    """Each member's ``additionalProperties`` also governs the properties the *other* members declare.

    A property forbidden by one member (``additionalProperties: false``) is
    dropped; if it is required, nothing satisfies the merge. False where
    ``patternProperties`` make the result inexact.
    """
    props = merged.get("properties")
    if not isinstance(props, dict):
        return True
    props = dict(props)
    exact = True
    for member in members:
        extra = member.get("additionalProperties", True)
        if extra is True or extra == {}:
            continue
        exact &= "patternProperties" not in member
        own = member.get("properties", {})
        for name in [k for k in props if k not in own]:
            if extra is False:
                del props[name]
                if name in merged.get("required", ()):
                    merged["properties"] = _EMPTY
                    return True
            else:
                props[name] = _both(props[name], extra)
    merged["properties"] = props
    return exact


def _distribute_branches(merged: dict[str, Any]) -> None:
    """Push the merged constraints into each branch of the first ``anyOf``/``oneOf`` (the
    strategies draw a branch on its own). A second branch list goes along with the rest,
    so it is distributed in turn when a branch is merged."""
    key = next((k for k in ("anyOf", "oneOf") if isinstance(merged.get(k), list)), None)
    if key is None:
        return
    branches = merged.pop(key)
    rest = {k: merged.pop(k) for k in list(merged) if k not in _ANNOTATIONS and not k.startswith("x-")}
    merged[key] = [{"allOf": [rest, b]} if rest else b for b in branches]
