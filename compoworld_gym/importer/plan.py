"""Planning one server: its collections and which tools the engine runs.

See :mod:`compoworld_gym.importer.patterns` for the rules. Tools not in
:attr:`ServerPlan.ops` are simulated by the world model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from compoworld_gym.importer.batch import add_batch_ops
from compoworld_gym.importer.functions import function_for
from compoworld_gym.importer.journal import add_journal_ops
from compoworld_gym.importer.keys import is_key, is_scalar, record_fields
from compoworld_gym.importer.names import identifier, plural, tokens
from compoworld_gym.importer.outside import outside_world_reason
from compoworld_gym.importer.patterns import (
    CREATORS,
    Collection,
    ResourceOp,
    id_param_for,
    parent_params,
)
from compoworld_gym.importer.resources import (
    BATCH,
    NO_PATTERN,
    NOT_STORED,
    OUTSIDE_NOUN,
    PARAMETERLESS,
    SEARCH_ONLY,
    STATUS_FIELD,
    UNKEYED,
    UNSUPPORTED,
    add_seeded,
    keyed_op,
    list_op,
)
from compoworld_gym.importer.state import RESERVED_FIELDS
from compoworld_gym.importer.verbs import FIELD_ACTIONS, STATUS_OF, full_shape, implied_shape, is_action


@dataclass
class ServerPlan:
    """Collections and deterministic tools of one imported server.

    Attributes:
        collections: ``{collection name: Collection}``.
        ops: ``{tool name: ResourceOp}`` for tools the engine implements.
        reasons: ``{tool name: why it is simulated}`` for every other tool (an
            outside-world reason of :mod:`~compoworld_gym.importer.outside`,
            or one of :mod:`~compoworld_gym.importer.resources`).
    """

    collections: dict[str, Collection] = field(default_factory=dict)
    ops: dict[str, ResourceOp] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)


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


def _collect(schemas: dict[str, dict[str, Any]], shapes: dict[str, Any]) -> dict[str, Collection]:
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
    return collections


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
    """The op of a creating tool, or None for a batch create (left to the world model)."""
    if tool not in coll.creators:
        return None
    id_param = id_param_for(coll.noun, schema)
    return ResourceOp(verb, coll.name, id_param, parent_params(schema, collections, coll.name, id_param))


def _widen(collections: dict[str, Collection], shapes: dict[str, Any], schemas: dict[str, dict[str, Any]]) -> None:
    """Updates, upserts, actions and list filters widen the fields of created collections."""
    for name, shape in shapes.items():
        coll = collections.get(shape.collection) if shape is not None else None
        if coll is None or coll.seeded:
            continue
        own_id = id_param_for(coll.noun, schemas[name])
        fields = record_fields(schemas[name], {own_id} if own_id else set())
        if shape.verb in ("list", "search", "count") or (shape.verb == "get" and shape.many):
            # A filter names a field records may have; created records leave it empty.
            fields = {k: v for k, v in fields.items() if is_scalar(v)}
        elif shape.verb in ("get", "delete"):
            # A name key (``get_transaction(hash)``) is a field too; seeded records carry it.
            required = set(schemas[name].get("required") or [])
            fields = {k: v for k, v in fields.items() if k in required and is_key(k, v)}
        elif not (shape.verb in ("update", "upsert") or is_action(shape.verb)):
            continue
        for k, v in fields.items():
            coll.properties.setdefault(k, v)
        if shape.verb in STATUS_OF:
            coll.properties.setdefault("status", STATUS_FIELD)
        if shape.verb in FIELD_ACTIONS:
            coll.properties.setdefault(FIELD_ACTIONS[shape.verb], {"type": "string"})


def _decide(tool: str, shape: Any, coll: Collection, schema: dict[str, Any],
            collections: dict[str, Collection]) -> tuple[ResourceOp | None, str | None]:
    if shape.verb in CREATORS:
        op = _op_for(tool, shape.verb, coll, schema, collections)
        return (op, None) if op is not None else (None, BATCH)
    if shape.verb in ("list", "search", "count"):
        return list_op(shape, coll, schema, collections)
    if shape.verb == "get" and shape.many and id_param_for(coll.noun, schema) not in _required(schema):
        return list_op(shape, coll, schema, collections)
    return keyed_op(tool, shape, coll, schema, collections)


def _integer_references(collections: dict[str, Collection], shapes: dict[str, Any],
                        schemas: dict[str, dict[str, Any]]) -> None:
    """A seeded collection that other tools name by a number (``departmentId:
    integer``) gets integer ids, so seeded references can point at its records."""
    for name, shape in shapes.items():
        if shape is None or shape.collection not in collections:
            continue
        for param, target in parent_params(schemas[name], collections, shape.collection, None).items():
            prop = _props(schemas[name])[param]
            kind = prop.get("type") if isinstance(prop, dict) else None
            if kind in ("integer", "number") and collections[target].seeded:
                collections[target].integer_ids = True


def _drop_unfounded(plan: ServerPlan, schemas: dict[str, dict[str, Any]], outside_nouns: set[str]) -> None:
    """Leave a seeded collection to the world model when seeded records would
    not be a faithful stand-in: a search of the outside world serves the same
    noun (its simulated ids would never resolve here), or the only tools are
    searches with required conditions (``airbnb_search(location, checkin)``:
    a query of a live marketplace, not a store of records)."""
    for coll in plan.collections.values():
        if not coll.seeded:
            continue
        mine = {n: op for n, op in plan.ops.items() if op.collection == coll.name}
        keyed = any(op.id_param or op.keys or op.verb in ("upsert", "action") for op in mine.values())
        open_list = any(op.verb in ("list", "count") and not _required(schemas[n]) for n, op in mine.items())
        why = OUTSIDE_NOUN if coll.name in outside_nouns else (None if keyed or open_list else SEARCH_ONLY)
        if why is None:
            continue
        for name in mine:
            del plan.ops[name]
            plan.reasons[name] = why


def plan_server(schemas: dict[str, dict[str, Any]], descriptions: dict[str, str] | None = None) -> ServerPlan:
    """Decide the collections and the engine-run tools of one server.

    Args:
        schemas: ``{tool name: inputSchema}`` for tools whose schema is valid.
        descriptions: ``{tool name: description}``, read by the outside-world
            classifier (:mod:`compoworld_gym.importer.outside`).

    Returns:
        The :class:`ServerPlan`; tools left out of ``ops`` are simulated, each
        with its reason in ``reasons``.
    """
    descriptions = descriptions or {}
    outside = {n: outside_world_reason(n, descriptions.get(n, ""), s) for n, s in schemas.items()}
    shapes = {n: (full_shape(n) if outside[n] is None else None) for n in schemas}
    collections = _collect(schemas, shapes)
    _widen(collections, shapes, schemas)
    add_seeded(collections, shapes, schemas)
    for name, shape in shapes.items():
        if shape is not None and shape.collection in collections:
            own_id = id_param_for(shape.noun, schemas[name])
            if own_id and _props(schemas[name])[own_id].get("type") in ("integer", "number"):
                collections[shape.collection].integer_ids = True
    _integer_references(collections, shapes, schemas)
    for name, shape in list(shapes.items()):
        implied = implied_shape(name) if shape is None and outside[name] is None else None
        if implied is not None and implied.collection in collections:
            shapes[name] = implied  # ``drive_file_metadata(fileId)``: a get of the server's files
    plan = ServerPlan(collections=collections)
    for name, shape in shapes.items():
        function = function_for(name, schemas[name])
        if function is not None:
            plan.ops[name] = ResourceOp("function", "", function=function)
        elif outside[name] is not None or shape is None:
            plan.reasons[name] = outside[name] or NO_PATTERN
        elif shape.collection not in collections:
            plan.reasons[name] = NOT_STORED
        else:
            op, why = _decide(name, shape, collections[shape.collection], schemas[name], collections)
            if op is None:
                plan.reasons[name] = why or UNSUPPORTED
            else:
                plan.ops[name] = op
    _drop_unfounded(plan, schemas, {full_shape(n).collection for n in schemas if outside[n] and full_shape(n)})
    add_batch_ops(plan.ops, plan.reasons, schemas)
    add_journal_ops(collections, plan.ops, plan.reasons, schemas, descriptions,
                    {n for n, why in plan.reasons.items() if why in (NO_PATTERN, UNKEYED, PARAMETERLESS)})
    used = {op.collection for op in plan.ops.values()} | {t for op in plan.ops.values() for t in op.parents.values()}
    plan.collections = {n: c for n, c in collections.items() if n in used or not c.seeded}
    _name_fields(plan.collections)
    return plan
