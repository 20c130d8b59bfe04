"""Seeded collections and keyed operations: the resource engine's plan.

A collection no tool creates (a museum's objects, a chain's transactions,
a memory bank's files) is still deterministic when tools read or write it:
its records are *seeded*, with fields inferred from those tools' input
schemas (the keys of the getters, the filters of the listers, the values
of the setters), and, when no schema says more, a ``name`` and a
``description``. Records are keyed by id where an id parameter exists and
by the key fields otherwise (``get_user(username)``, ``get_repo(owner,
repo)``). :func:`keyed_op` decides how a get/update/delete/action/upsert
finds its record, or why the engine cannot serve the tool.
"""

from __future__ import annotations

from typing import Any, Optional

from compoworld_gym.importer.filters import FILTER_WORDS, SORTS_WORDS
from compoworld_gym.importer.keys import is_auth, is_control, is_key, is_scalar, is_scope_flag, record_fields
from compoworld_gym.importer.patterns import Collection, ResourceOp, ToolShape, id_param_for, parent_params, squash
from compoworld_gym.importer.verbs import FIELD_ACTIONS, READ_VERBS, STATUS_OF, is_action

#: Fields a seeded record gets when the schemas name no descriptive field.
GENERIC_FIELDS: dict[str, Any] = {
    "name": {"type": "string", "description": "Display name."},
    "description": {"type": "string", "description": "What the record is."},
}
STATUS_FIELD = {"type": "string", "description": "Lifecycle status set by the server's actions."}
_DESCRIPTIVE = frozenset({"name", "title", "label", "subject", "summary", "content", "text", "body"})

# Why an engine cannot serve a tool (see ServerPlan.reasons).
NO_PATTERN = "no_resource_pattern"
UNKEYED = "no_record_key"
PARAMETERLESS = "parameterless_read"
SEARCH_ONLY = "search_only_collection"
OUTSIDE_NOUN = "paired_with_outside_world_tool"
UNSUPPORTED = "unsupported_parameters"
BATCH = "batch_operation"
NOT_STORED = "no_stored_collection"


def _props(schema: dict[str, Any]) -> dict[str, Any]:
    props = schema.get("properties")
    return props if isinstance(props, dict) else {}


def _required(schema: dict[str, Any]) -> set[str]:
    req = schema.get("required")
    return {r for r in req if isinstance(r, str)} if isinstance(req, list) else set()


def _keys_of(schema: dict[str, Any], own_id: Optional[str]) -> list[str]:
    props, required = _props(schema), _required(schema)
    return [p for p in props if p in required and p != own_id and is_key(p, props[p])]


def _optional_keys(schema: dict[str, Any]) -> list[str]:
    """Key parameters a tool takes without requiring them (``get_campaign(campaign_name=None)``)."""
    props = _props(schema)
    return [p for p in props if p not in _required(schema) and is_key(p, props[p])]


def seeds_collection(shape: ToolShape, schema: dict[str, Any]) -> bool:
    """True when a tool is evidence of a stored collection: a read, a keyed
    write (``write_file(path, ...)``) or a setter of a singleton."""
    if shape.verb in READ_VERBS:
        return True
    if shape.verb == "upsert" or is_action(shape.verb):
        return bool(id_param_for(shape.noun, schema) or _keys_of(schema, None)) or not _required(schema)
    return False


def add_seeded(collections: dict[str, Collection], shapes: dict[str, Optional[ToolShape]],
               schemas: dict[str, dict[str, Any]]) -> None:
    """Add a seeded :class:`Collection` for every noun that is read or keyed-written
    but never created, with the fields its tools' schemas imply (mutates ``collections``)."""
    for name, shape in shapes.items():
        if shape is None or shape.collection in collections or not seeds_collection(shape, schemas[name]):
            continue
        collections[shape.collection] = Collection(name=shape.collection, field="", noun=shape.noun, seeded=True,
                                                   open=False)
    for name, shape in shapes.items():
        coll = collections.get(shape.collection) if shape is not None else None
        if coll is None or not coll.seeded:
            continue
        schema = schemas[name]
        own_id = id_param_for(coll.noun, schema)
        if shape.verb in ("get", "delete"):
            fields = {k: v for k, v in _props(schema).items() if k in _keys_of(schema, own_id)}
            if not shape.many:
                key = tuple(sorted(fields))
                if key and key not in coll.unique:
                    coll.unique.append(key)  # seeded records always get these; see service.py
        else:
            fields = record_fields(schema, {own_id} if own_id else set())
        if shape.verb in ("list", "search", "count") or (shape.verb == "get" and shape.many):
            fields = {k: v for k, v in fields.items() if _is_filter_field(k, v)}
        for k, v in fields.items():
            coll.properties.setdefault(k, v)
        if shape.verb in STATUS_OF and "status" not in coll.properties:
            coll.properties["status"] = STATUS_FIELD
        if shape.verb in FIELD_ACTIONS:
            coll.properties.setdefault(FIELD_ACTIONS[shape.verb], {"type": "string"})
    for coll in collections.values():
        if coll.seeded:
            coll.singleton = not coll.unique and _only_unkeyed(coll, shapes, schemas)
            described = {k for k, v in coll.properties.items() if k in _DESCRIPTIVE and v.get("type") == "string"}
            if not described and not coll.singleton:
                for k, v in GENERIC_FIELDS.items():
                    coll.properties.setdefault(k, v)


def _scalar_items(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "array" and is_scalar(schema.get("items"))


def _is_filter_field(name: str, schema: Any) -> bool:
    """A list parameter that filters on a stored field: a scalar or a list of
    scalars, but not a query language (``filters: [{field, operator}]``) nor a
    search-scope flag (``title: true``: search the titles only)."""
    if is_scope_flag(name, schema):
        return False
    return is_scalar(schema) or _scalar_items(schema)


def _only_unkeyed(coll: Collection, shapes: dict[str, Optional[ToolShape]],
                  schemas: dict[str, dict[str, Any]]) -> bool:
    """A setting: read without parameters, written by a setter, never listed."""
    tools = [(n, s) for n, s in shapes.items() if s is not None and s.collection == coll.name]
    if any(s.many or s.verb in ("list", "search", "count") for _, s in tools):
        return False
    if any(id_param_for(coll.noun, schemas[n]) for n, _ in tools):
        return False
    return any(s.verb in ("upsert", "update") or is_action(s.verb) for _, s in tools)


def _extras_ok(schema: dict[str, Any], coll: Collection, used: set[str], verb: str) -> bool:
    """Every other parameter is a field the verb may write (writes), or optional (reads)."""
    for pname, prop in _props(schema).items():
        if pname in used or is_auth(pname):
            continue
        if verb in ("get", "delete"):
            if pname in _required(schema) and not is_control(pname):
                return False
        elif pname not in coll.properties:
            return False
    return True


def _record_keys(schema: dict[str, Any], coll: Collection, id_param: Optional[str], parents: dict[str, str],
                 writes: bool) -> tuple[str, ...]:
    """The parameters that name the record by field match.

    A read matches every required key parameter (with an id, the others
    narrow it: ``get_message(session, messageId)``). A write names the record
    by its id or by one of the collection's unique keys, so that
    ``update-index(indexUid, primaryKey)`` changes ``primaryKey`` rather than
    looking a record up by it.
    """
    found = [k for k in _keys_of(schema, id_param) if k not in parents and k in coll.properties]
    if not writes:
        return tuple(found)
    if id_param is not None:
        return ()
    unique = next((key for key in coll.unique if set(key) <= set(found)), None)
    return unique if unique is not None else tuple(found)


def keyed_op(tool: str, shape: ToolShape, coll: Collection, schema: dict[str, Any],
             collections: dict[str, Collection]) -> tuple[Optional[ResourceOp], Optional[str]]:
    """How the engine serves a get/update/delete/action/upsert, or why it cannot.

    The record is found by the id parameter, else by the key parameters
    (every one a field of the collection), else, on a singleton, it is the
    one record.

    Returns:
        ``(op, None)`` or ``(None, reason)``.
    """
    verb = "action" if is_action(shape.verb) else shape.verb
    required = _required(schema)
    id_param = id_param_for(coll.noun, schema)
    parents = parent_params(schema, collections, coll.name, id_param)
    keys = _record_keys(schema, coll, id_param, parents, writes=verb in ("update", "upsert", "action"))
    if id_param is None and not keys and verb != "upsert":
        keys = tuple(k for k in _optional_keys(schema) if k not in parents and k in coll.properties)
    if id_param is None and not keys and not coll.singleton:
        return None, (PARAMETERLESS if not _props(schema) else UNKEYED)
    status = STATUS_OF.get(shape.verb)
    status_schema = coll.properties.get("status")
    allowed = status_schema.get("enum") if isinstance(status_schema, dict) else None
    if status is not None and isinstance(allowed, list) and status not in allowed:
        return None, UNSUPPORTED
    used = {id_param, *keys, *parents}
    if not _extras_ok(schema, coll, used, verb):
        return None, UNSUPPORTED
    op = ResourceOp(verb, coll.name, id_param, parents, keys)
    if verb == "action":
        target = FIELD_ACTIONS.get(shape.verb)
        value = next((p for p in _props(schema) if p not in used and not is_auth(p)), None)
        if target is not None and shape.verb != "unassign" and value is None:
            return None, UNSUPPORTED
        op = ResourceOp(verb, coll.name, id_param, parents, keys, status=status,
                        target_field=target, value_param=value if target else None)
    return op, None


def list_op(shape: ToolShape, coll: Collection, schema: dict[str, Any],
            collections: dict[str, Collection]) -> tuple[Optional[ResourceOp], Optional[str]]:
    """A list/search/count (or a plural ``get_transactions_by_address``): every
    parameter is a record field, a parent id, a control or a credential."""
    parents = parent_params(schema, collections, coll.name, None)
    for pname, prop in _props(schema).items():
        known = (pname in coll.properties or pname in parents or is_control(pname) or is_auth(pname)
                 or (shape.verb == "search" and is_scope_flag(pname, prop))
                 or squash(pname) in FILTER_WORDS | SORTS_WORDS)
        if not known:
            return None, UNSUPPORTED
        if pname in coll.properties and not (is_scalar(prop) or _scalar_items(prop) or pname in parents):
            if not is_control(pname):
                return None, UNSUPPORTED
    verb = "count" if shape.verb == "count" else ("search" if shape.verb == "search" else "list")
    return ResourceOp(verb, coll.name, None, parents), None
