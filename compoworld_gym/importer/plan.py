"""Planning one server: its collections and which tools the engine runs.

See :mod:`compoworld_gym.importer.patterns` for the rules. Tools not in
:attr:`ServerPlan.ops` are simulated by the world model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from compoworld_gym.importer.names import identifier, plural, tokens
from compoworld_gym.importer.patterns import (
    CREATORS,
    Collection,
    ResourceOp,
    id_param_for,
    parent_params,
    shape_of,
    understood_query_param,
)
from compoworld_gym.importer.state import RESERVED_FIELDS


@dataclass
class ServerPlan:
    """Collections and deterministic tools of one imported server.

    Attributes:
        collections: ``{collection name: Collection}``.
        ops: ``{tool name: ResourceOp}`` for tools the engine implements.
    """

    collections: dict[str, Collection] = field(default_factory=dict)
    ops: dict[str, ResourceOp] = field(default_factory=dict)


def _props(schema: dict[str, Any]) -> dict[str, Any]:
    props = schema.get("properties")
    return props if isinstance(props, dict) else {}


def _required(schema: dict[str, Any]) -> set[str]:
    req = schema.get("required")
    return {r for r in req if isinstance(r, str)} if isinstance(req, list) else set()


def _is_batch(shape_noun: tuple[str, ...], schema: dict[str, Any]) -> bool:
    """A create that takes an array of the records (``tasks: [...]``), or only an
    array, creates many records at once: the engine leaves it to the world model."""
    props = _props(schema)
    many = plural(shape_noun[-1])
    for name, prop in props.items():
        is_array = isinstance(prop, dict) and prop.get("type") == "array"
        if is_array and (len(props) == 1 or tokens(name)[-1:] == [many]):
            return True
    return False


def _collect(schemas: dict[str, dict[str, Any]]) -> tuple[dict[str, Collection], dict[str, Any]]:
    shapes = {name: shape_of(name) for name in schemas}
    collections: dict[str, Collection] = {}
    for name, shape in shapes.items():
        schema = schemas[name]
        if shape is None or shape.verb not in CREATORS or not _props(schema) or _is_batch(shape.noun, schema):
            continue
        coll = collections.setdefault(shape.collection, Collection(name=shape.collection, field="", noun=shape.noun))
        own_id = id_param_for(shape.noun, schema)
        fields = {k: v for k, v in _props(schema).items() if k not in (own_id, "id")}
        required = _required(schema) & set(fields)
        coll.required = required if not coll.creators else coll.required & required
        for k, v in fields.items():
            coll.properties.setdefault(k, v)
        coll.open = coll.open or schema.get("additionalProperties", True) is not False
        coll.creators.append(name)
    return collections, shapes


def _name_fields(collections: dict[str, Collection]) -> None:
    used = set(RESERVED_FIELDS)
    for coll in collections.values():
        base = identifier(plural(coll.name), fallback="c")
        name = base if base not in used else f"{base}_records"
        n = 2
        while name in used:
            name = f"{base}_{n}"
            n += 1
        coll.field = name
        used.add(name)


def _op_for(tool: str, verb: str, coll: Collection, schema: dict[str, Any],
            collections: dict[str, Collection]) -> ResourceOp | None:
    props, required = _props(schema), _required(schema)
    id_param = id_param_for(coll.noun, schema)
    if verb in CREATORS:
        if tool not in coll.creators:  # a batch create: left to the world model
            return None
        return ResourceOp(verb, coll.name, id_param, parent_params(schema, collections, coll.name, id_param))
    if verb in ("get", "update", "delete"):
        if id_param is None or id_param not in required:
            return None
        parents = parent_params(schema, collections, coll.name, id_param)
        allowed = {id_param, *parents} | (set(coll.properties) if verb == "update" else set())
        if not required <= allowed:
            return None
        return ResourceOp(verb, coll.name, id_param, parents)
    parents = parent_params(schema, collections, coll.name, None)
    if all(understood_query_param(p, coll, parents) for p in props):
        return ResourceOp(verb, coll.name, None, parents)
    return None


def plan_server(schemas: dict[str, dict[str, Any]]) -> ServerPlan:
    """Decide the collections and the engine-run tools of one server.

    Args:
        schemas: ``{tool name: inputSchema}`` for tools whose schema is valid.

    Returns:
        The :class:`ServerPlan`; tools left out of ``ops`` are simulated.
    """
    collections, shapes = _collect(schemas)
    for name, shape in shapes.items():  # updates widen the record fields
        if shape is not None and shape.verb == "update" and shape.collection in collections:
            coll = collections[shape.collection]
            own_id = id_param_for(coll.noun, schemas[name])
            for k, v in _props(schemas[name]).items():
                if k not in (own_id, "id"):
                    coll.properties.setdefault(k, v)
    for name, shape in shapes.items():
        if shape is not None and shape.collection in collections:
            own_id = id_param_for(shape.noun, schemas[name])
            if own_id and _props(schemas[name])[own_id].get("type") == "integer":
                collections[shape.collection].integer_ids = True
    _name_fields(collections)
    plan = ServerPlan(collections=collections)
    for name, shape in shapes.items():
        if shape is None or shape.collection not in collections:
            continue
        op = _op_for(name, shape.verb, collections[shape.collection], schemas[name], collections)
        if op is not None:
            plan.ops[name] = op
    return plan
