"""The generic resource engine: deterministic create/get/list/search/update/
delete/send over the collections of an imported service.

Handlers work on records as JSON dicts and re-validate every written record
against its pydantic model, so a value that does not fit the inferred type
is a 400 naming the field and the state is left as it was.
"""

from __future__ import annotations

from typing import Any, Callable

from pydantic import ValidationError

from compoworld_gym.errors import Conflict, InvalidArgument, NotFound
from compoworld_gym.importer.patterns import (
    CURSOR_WORDS,
    DIRECTION_WORDS,
    LIMIT_WORDS,
    OFFSET_WORDS,
    PAGE_WORDS,
    QUERY_WORDS,
    SORT_WORDS,
    Collection,
    ResourceOp,
    squash,
)

DEFAULT_LIMIT = 50
MAX_LIMIT = 500


def _store(service: Any, coll: Collection) -> dict[str, Any]:
    return getattr(service.state, coll.field)


def _validated(service: Any, coll: Collection, data: dict[str, Any]) -> Any:
    model = service.record_models[coll.name]
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(x) for x in first.get("loc", ())) or coll.name
        raise InvalidArgument(f"invalid argument '{where}': {first['msg']} (does not fit the "
                              f"{coll.name} record type).") from None


def _find(service: Any, coll: Collection, key: Any) -> dict[str, Any]:
    record = _store(service, coll).get(str(key))
    if record is None:
        raise NotFound(f"{coll.name} {key!r} not found; list or search {coll.name} records to find valid ids.")
    return record.model_dump(mode="json")


def _check_parents(service: Any, op: ResourceOp, args: dict[str, Any], record: dict[str, Any] | None) -> None:
    for param, target in op.parents.items():
        value = args.get(param)
        if value is None:
            continue
        if record is None:
            parent = service.collections[target]
            if str(value) not in _store(service, parent):
                raise NotFound(f"{target} {value!r} not found (argument '{param}'); list {target} records "
                               f"to find valid ids.")
        elif param in record and record[param] != value:
            coll = op.collection
            raise NotFound(f"{coll} {args.get(op.id_param)!r} not found under {param}={value!r}.")


def _new_key(service: Any, coll: Collection) -> Any:
    if coll.integer_ids:
        n = service.state.counters.get(coll.name, 1)
        service.state.counters[coll.name] = n + 1
        return n
    prefix = "".join(w[:4] for w in coll.noun).upper()
    return service.new_id(prefix)


def insert(service: Any, coll: Collection, data: dict[str, Any], *, key: Any = None,
           created_at: str | None = None) -> dict[str, Any]:
    """Validate and store a new record; returns it as JSON.

    Raises:
        Conflict: a record with ``key`` exists.
        InvalidArgument: a value does not fit the record type.
    """
    store = _store(service, coll)
    if key is not None and str(key) in store:
        raise Conflict(f"{coll.name} {key!r} already exists; use a new id or update the existing record.")
    key = _new_key(service, coll) if key is None else key
    record = {k: v for k, v in data.items() if k != "id"}
    for name, schema in coll.properties.items():
        if name not in record and isinstance(schema, dict) and "default" in schema:
            record[name] = schema["default"]
    record["id"] = key
    if "created_at" not in coll.properties:
        record["created_at"] = created_at or service.now().isoformat()
    model = _validated(service, coll, record)
    store[str(key)] = model
    return model.model_dump(mode="json")


def _create(service: Any, op: ResourceOp, coll: Collection, args: dict[str, Any]) -> Any:
    _check_parents(service, op, args, None)
    key = args.get(op.id_param) if op.id_param else None
    data = {k: v for k, v in args.items() if k != op.id_param}
    return insert(service, coll, data, key=key)


def _get(service: Any, op: ResourceOp, coll: Collection, args: dict[str, Any]) -> Any:
    record = _find(service, coll, args[op.id_param])
    _check_parents(service, op, args, record)
    return record


def _update(service: Any, op: ResourceOp, coll: Collection, args: dict[str, Any]) -> Any:
    key = args[op.id_param]
    record = _find(service, coll, key)
    _check_parents(service, op, args, record)
    for name, value in args.items():
        if name == op.id_param or name in op.parents:
            continue
        old = record.get(name)
        # Partial objects (e.g. a CRM "properties" bag) merge into what is stored.
        record[name] = {**old, **value} if isinstance(old, dict) and isinstance(value, dict) else value
    model = _validated(service, coll, record)
    _store(service, coll)[str(key)] = model
    return model.model_dump(mode="json")


def _delete(service: Any, op: ResourceOp, coll: Collection, args: dict[str, Any]) -> Any:
    key = args[op.id_param]
    record = _find(service, coll, key)
    _check_parents(service, op, args, record)
    del _store(service, coll)[str(key)]
    return {"id": record["id"], "deleted": True}


def _matches(record: dict[str, Any], name: str, value: Any) -> bool:
    have = record.get(name)
    if isinstance(have, list):
        return value in have if not isinstance(value, list) else all(v in have for v in value)
    if isinstance(value, list):
        return have in value
    if isinstance(have, str) and isinstance(value, str):
        return have.casefold() == value.casefold()
    return have == value


def _text_of(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return " ".join(_text_of(v) for v in value.values())
    if isinstance(value, list):
        return " ".join(_text_of(v) for v in value)
    return ""


def _as_int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _list(service: Any, op: ResourceOp, coll: Collection, args: dict[str, Any]) -> Any:
    records = [r.model_dump(mode="json") for r in _store(service, coll).values()]
    limit, offset, sort_key, descending = DEFAULT_LIMIT, 0, None, False
    page = None
    for name, value in args.items():
        word = squash(name)
        if value is None:
            continue
        if name in coll.properties or name in op.parents:
            records = [r for r in records if _matches(r, name, value)]
        elif word in QUERY_WORDS:
            needle = str(value).casefold()
            records = [r for r in records if needle in _text_of(r).casefold()]
        elif word in LIMIT_WORDS:
            limit = max(1, min(_as_int(value, DEFAULT_LIMIT), MAX_LIMIT))
        elif word in OFFSET_WORDS or word in CURSOR_WORDS:
            offset = max(0, _as_int(value, 0))
        elif word in PAGE_WORDS:
            page = max(_as_int(value, 1), 1)
        elif word in SORT_WORDS and isinstance(value, str):
            field, _, direction = value.partition(":")
            sort_key = field.strip().lstrip("-+") or None
            descending = value.startswith("-") or direction.strip().lower().startswith("desc")
        elif word in DIRECTION_WORDS:
            descending = str(value).lower().startswith("desc") or value is False
    if sort_key is not None and any(sort_key in r for r in records):
        records.sort(key=lambda r: (r.get(sort_key) is None, str(r.get(sort_key))), reverse=descending)
    if page is not None:
        offset = (page - 1) * limit
    return records[offset:offset + limit]


_VERBS: dict[str, Callable[..., Any]] = {
    "create": _create, "send": _create, "get": _get, "update": _update, "delete": _delete,
    "list": _list, "search": _list,
}


def make_handler(op: ResourceOp) -> Callable[..., Any]:
    """The ``handler(service, **arguments)`` of an engine-run tool."""
    run = _VERBS[op.verb]

    def handler(*positional: Any, **arguments: Any) -> Any:
        # The service comes positionally: a tool may have a parameter called "service".
        service = positional[0]
        coll = service.collections[op.collection]
        return run(service, op, coll, arguments)

    return handler
