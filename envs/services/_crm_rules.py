"""Record rules and views of the crm service: which property models each object type has, how
properties are validated, which association types link what, and the HubSpot read shape.

Pure functions over the state's collections, so the tools stay a thin layer
of lookups and writes in ``crm.py``.
"""

from __future__ import annotations

from typing import Any, Optional

from pydantic import BaseModel, ValidationError

from compoworld_gym.envs.services import _crm_models as m
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._hubspot import INVERSE, TYPE_TARGET, FilterGroup, Sort, search
from compoworld_gym.errors import Conflict, InvalidArgument

#: object type -> (state collection, record model, property-input model, id prefix).
META = {"contacts": ("contacts", m.Contact, m.ContactProperties, "CON"),
        "companies": ("companies", m.Company, m.CompanyProperties, "COMP"),
        "deals": ("deals", m.Deal, m.DealProperties, "DEAL")}
#: The property each object type must be created with.
REQUIRED = {"contacts": "email", "companies": "name", "deals": "dealname"}
#: The property no two records of a type may share (case-insensitively).
UNIQUE = {"contacts": "email", "companies": "domain"}
_STAFF_EMAILS = {s.email for s in STAFF}
#: Record fields that are not HubSpot properties.
NOT_PROPS = {"id", "archived"}
SINGULAR = {"contacts": "contact", "companies": "company", "deals": "deal", "notes": "note", "tickets": "ticket",
            "calls": "call", "emails": "email", "meetings": "meeting"}


def parse_props(otype: str, raw: dict[str, Any]) -> BaseModel:
    """``raw`` as the property-input model of ``otype``; InvalidArgument names the first bad property."""
    try:
        return META[otype][2].model_validate(raw)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(x) for x in first["loc"])
        raise InvalidArgument(f"invalid {otype} property '{where}': {first['msg']}; valid properties: "
                              f"{', '.join(META[otype][2].model_fields)}.") from None


def check_props(otype: str, values: dict[str, Any], own_id: Optional[str], records: dict[str, Any]) -> None:
    """Raise unless ``owner_email`` is a staff member and the unique property is free among ``records``.

    Raises:
        InvalidArgument: the owner is not a company user.
        Conflict: another record (not ``own_id``) already has the unique property's value.
    """
    owner = values.get("owner_email")
    if owner is not None and owner.lower() not in _STAFF_EMAILS:
        raise InvalidArgument(f"owner_email {owner!r} is not a company user; owners are @company.example staff.")
    key = UNIQUE.get(otype)
    if key and values.get(key) is not None:
        for r in records.values():
            if r.id != own_id and (getattr(r, key) or "").lower() == str(values[key]).lower():
                raise Conflict(f"{SINGULAR.get(otype, otype)} {r.id} already has {key} {values[key]!r}.")


def check_clearable(otype: str, values: dict[str, Any]) -> None:
    """InvalidArgument when an update blanks a property that is required or has a default."""
    fields = META[otype][1].model_fields
    for key, value in values.items():
        if value in (None, "") and (fields[key].is_required() or fields[key].default is not None):
            raise InvalidArgument(f"{key} cannot be cleared.")


def check_type(from_type: str, type_id: int, to_type: str) -> None:
    """InvalidArgument unless association type ``type_id`` links ``from_type`` to ``to_type``."""
    if TYPE_TARGET.get((from_type, type_id)) != to_type:
        valid = sorted(t for (f, t), dest in TYPE_TARGET.items() if f == from_type and dest == to_type)
        raise InvalidArgument(f"association type {type_id} does not link {from_type} to {to_type}; "
                              f"valid ids: {valid}.")


def render(rec: Any, properties: Optional[list[str]], associations: Optional[list[str]],
           links: dict[str, m.Association]) -> dict:
    """``rec`` in HubSpot's read shape ``{id, properties, createdAt, updatedAt, archived}``.

    Args:
        rec: a contact, company, deal or note.
        properties: property names to keep (None or []: all).
        associations: object types whose associated ids to add under ``associations``.
        links: the state's associations, by key.
    """
    props = rec.model_dump(mode="json", exclude=NOT_PROPS)
    if properties:
        props = {k: v for k, v in props.items() if k in properties}
    out = {"id": rec.id, "properties": props, "createdAt": rec.createdate.isoformat(),
           "updatedAt": rec.lastmodifieddate.isoformat(), "archived": rec.archived}
    if associations:
        otype = next((t for t, meta in META.items() if isinstance(rec, meta[1])), "notes")
        mine = [a for a in links.values() if a.from_type == otype and a.from_id == rec.id]
        out["associations"] = {t: {"results": [
            {"id": a.to_id, "type": f"{SINGULAR[otype]}_to_{SINGULAR.get(t, t)}"}
            for a in mine if a.to_type == t]} for t in associations}
    return out


def association_target(from_type: str, type_ids: list[int]) -> str:
    """The one object type that association types ``type_ids`` of a ``from_type`` record point to.

    Raises:
        InvalidArgument: an id is not a ``from_type`` association, or the ids point to different types.
    """
    targets = {TYPE_TARGET.get((from_type, t)) for t in type_ids}
    if None in targets or len(targets) != 1:
        raise InvalidArgument(f"association types {type_ids} are not "
                              f"valid {from_type} associations to one object type.")
    return targets.pop()


def link(links: dict[str, m.Association], ft: str, fid: str, tt: str, tid: str, types: list[int]) -> None:
    """Record in ``links`` that ``ft:fid`` is associated with ``tt:tid`` by ``types``, and the inverse
    link, merging with the type ids either already has (HubSpot links read from both sides)."""
    for a_t, a_id, b_t, b_id, ids in ((ft, fid, tt, tid, types), (tt, tid, ft, fid, [INVERSE[t] for t in types])):
        key = f"{a_t}:{a_id}->{b_t}:{b_id}"
        old = links.get(key)
        merged = sorted(set(ids) | set(old.type_ids if old else []))
        links[key] = m.Association(from_type=a_t, from_id=a_id, to_type=b_t, to_id=b_id, type_ids=merged)


def find(otype: str, records: dict[str, Any], groups: list[FilterGroup], sorts: list[Sort]) -> list[Any]:
    """The live records of ``otype`` matching ``groups``, in ``sorts`` order (HubSpot search semantics;
    ``hs_object_id`` is searchable too). Raises InvalidArgument on an unknown property."""
    recs = {r.id: r for r in records.values() if not r.archived}
    rows = [{**render(r, None, None, {})["properties"], "hs_object_id": r.id} for r in recs.values()]
    known = set(META[otype][1].model_fields) - NOT_PROPS | {"hs_object_id"}
    return [recs[r["hs_object_id"]] for r in search(rows, groups, sorts, known)]
