"""HubSpot CRM search semantics and association types, for the crm service.

Search follows HubSpot's CRM search API: ``filterGroups`` are ORed, the
filters inside a group are ANDed; ``sorts`` order the results; ``after`` is
the offset returned as ``paging.next.after``. Values compare as numbers when
both sides are numeric, else as case-insensitive strings (dates as ISO
strings, which order correctly).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, WithJsonSchema

from compoworld_gym.entities import Id
from compoworld_gym.errors import InvalidArgument

Operator = Literal["EQ", "NEQ", "LT", "LTE", "GT", "GTE", "BETWEEN", "IN", "NOT_IN", "HAS_PROPERTY",
                   "NOT_HAS_PROPERTY", "CONTAINS_TOKEN", "NOT_CONTAINS_TOKEN"]

#: (from type, association type id) -> to type, for HubSpot's default ("HUBSPOT_DEFINED") types.
TYPE_TARGET: dict[tuple[str, int], str] = {
    ("contacts", 279): "companies", ("contacts", 1): "companies", ("companies", 280): "contacts",
    ("companies", 2): "contacts", ("deals", 3): "contacts", ("contacts", 4): "deals",
    ("deals", 341): "companies", ("deals", 5): "companies", ("companies", 342): "deals", ("companies", 6): "deals",
    ("notes", 202): "contacts", ("notes", 190): "companies", ("notes", 214): "deals",
}
#: association type id -> the id of the same association read from the other side.
INVERSE: dict[int, int] = {279: 280, 280: 279, 1: 2, 2: 1, 3: 4, 4: 3, 341: 342, 342: 341, 5: 6, 6: 5,
                           202: 201, 190: 189, 214: 213}
LABELS: dict[int, Optional[str]] = {1: "Primary", 2: "Primary", 5: "Primary", 6: "Primary"}

#: The id of a company, contact or deal; the object type given with it says
#: which. Validated as a plain string; its JSON Schema lists the three id
#: entity types, so the dependency graph and state-pool argument draws (the
#: fuzzer's) see a record id, not free text.
ObjectId = Annotated[str, WithJsonSchema(
    {"anyOf": [TypeAdapter(Id(kind)).json_schema() for kind in ("company", "contact", "deal")]})]


class Filter(BaseModel):
    """One search condition."""

    model_config = ConfigDict(extra="forbid")
    propertyName: str = Field(description="Property to test, e.g. 'email'.")
    operator: Operator = Field(description="Comparison operator.")
    value: Any = Field(default=None, description="Value; a list for IN/NOT_IN and [low, high] for BETWEEN.")


class FilterGroup(BaseModel):
    """Filters that must all hold."""

    model_config = ConfigDict(extra="forbid")
    filters: list[Filter] = Field(description="Filters ANDed together.")


class Sort(BaseModel):
    """A sort key."""

    model_config = ConfigDict(extra="forbid")
    propertyName: str = Field(description="Property to sort by.")
    direction: Literal["ASCENDING", "DESCENDING"] = Field(description="Sort order.")


class AssociationTypeSpec(BaseModel):
    """An association type, e.g. {associationCategory: HUBSPOT_DEFINED, associationTypeId: 279}."""

    model_config = ConfigDict(extra="forbid")
    associationCategory: str = Field(description="HUBSPOT_DEFINED for the default types.")
    associationTypeId: int = Field(description="Type id, e.g. 279 contact->company.")


class AssociationTarget(BaseModel):
    """The object to associate with."""

    model_config = ConfigDict(extra="forbid")
    id: ObjectId = Field(description="Id of the object to associate with.")


class AssociationInput(BaseModel):
    """An association created together with a new object."""

    model_config = ConfigDict(extra="forbid")
    to: AssociationTarget = Field(description="The object to associate with.")
    types: list[AssociationTypeSpec] = Field(min_length=1, description="Association types.")


def _num(x: Any) -> Optional[float]:
    if isinstance(x, bool):
        return None
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def _cmp_key(x: Any) -> Any:
    n = _num(x)
    return (0, n) if n is not None else (1, str(x).casefold())


def _as_list(value: Any) -> list:
    if isinstance(value, list):
        return value
    if isinstance(value, str):
        return [v.strip() for v in value.split(",")]
    return [value]


def _eq(a: Any, b: Any) -> bool:
    return a is not None and _cmp_key(a) == _cmp_key(b)


def _test(actual: Any, f: Filter) -> bool:
    op, v = f.operator, f.value
    if op == "HAS_PROPERTY":
        return actual not in (None, "")
    if op == "NOT_HAS_PROPERTY":
        return actual in (None, "")
    if op in ("CONTAINS_TOKEN", "NOT_CONTAINS_TOKEN"):
        found = actual is not None and str(v).strip("*").casefold() in str(actual).casefold()
        return found if op == "CONTAINS_TOKEN" else not found
    if op == "EQ":
        return _eq(actual, v)
    if op == "NEQ":
        return not _eq(actual, v)
    if op == "IN":
        return any(_eq(actual, x) for x in _as_list(v))
    if op == "NOT_IN":
        return not any(_eq(actual, x) for x in _as_list(v))
    if actual is None:
        return False
    if op == "BETWEEN":
        bounds = _as_list(v)
        if len(bounds) != 2:
            raise InvalidArgument("BETWEEN needs value [low, high].")
        return _cmp_key(bounds[0]) <= _cmp_key(actual) <= _cmp_key(bounds[1])
    a, b = _cmp_key(actual), _cmp_key(v)
    if a[0] != b[0]:
        return False
    return {"LT": a < b, "LTE": a <= b, "GT": a > b, "GTE": a >= b}[op]


def search(rows: list[dict], groups: list[FilterGroup], sorts: list[Sort], known: set[str]) -> list[dict]:
    """Filter and sort property dicts (HubSpot semantics).

    Raises:
        InvalidArgument: a filter or sort names an unknown property, or a
            BETWEEN value is not a pair.
    """
    for name in [f.propertyName for g in groups for f in g.filters] + [s.propertyName for s in sorts]:
        if name not in known:
            raise InvalidArgument(f"unknown property {name!r}; valid: {', '.join(sorted(known))}.")
    out = [r for r in rows if not groups or any(all(_test(r.get(f.propertyName), f) for f in g.filters)
                                                for g in groups)]
    for s in reversed(sorts):
        present = [r for r in out if r.get(s.propertyName) is not None]
        missing = [r for r in out if r.get(s.propertyName) is None]
        present.sort(key=lambda r: _cmp_key(r[s.propertyName]), reverse=s.direction == "DESCENDING")
        out = present + missing
    return out


def page(items: list, after: Optional[str], limit: int) -> tuple[list, Optional[dict]]:
    """Slice ``items`` from offset ``after``; returns (page, paging or None).

    Raises:
        InvalidArgument: ``after`` is not a non-negative integer string.
    """
    start = 0
    if after:
        if not after.isdigit():
            raise InvalidArgument(f"invalid 'after' {after!r}; pass paging.next.after from the previous page.")
        start = int(after)
    chunk = items[start:start + limit]
    nxt = start + limit
    return chunk, ({"next": {"after": str(nxt)}} if nxt < len(items) else None)
