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
from compoworld_gym.importer.filters import FILTER_WORDS, SORTS_WORDS, filter_groups, sort_records
from compoworld_gym.importer.keys import SCOPE_WORDS, is_auth
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


def _store_key(key: Any) -> str:
    # A JSON number id (``objectId: 3.0``) names the record stored under "3".
    return str(int(key)) if isinstance(key, float) and key.is_integer() else str(key)


def _find(service: Any, coll: Collection, key: Any) -> dict[str, Any]:
    record = _store(service, coll).get(_store_key(key))
    if record is None:
        raise NotFound(f"{coll.name} {key!r} not found; list or search {coll.name} records to find valid ids.")
    return record.model_dump(mode="json")


def find_by_fields(service: Any, coll: Collection, wanted: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The first record (in store order) whose fields match ``wanted``, as ``(store key, JSON)``, or None."""
    for key, model in _store(service, coll).items():
        record = model.model_dump(mode="json")
        if all(_matches(record, name, value) for name, value in wanted.items()):
            return key, record
    return None


def locate(service: Any, op: ResourceOp, coll: Collection, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The record a keyed tool acts on, as ``(store key, JSON)``: by the id
    parameter (the key parameters must then match too), by the key
    parameters' field match, or a singleton's one record.

    Raises:
        InvalidArgument: the (optional) parameters that name the record are all missing.
        NotFound: no record matches (the message names the key).
    """
    wanted = {k: args[k] for k in op.keys if k in args}
    if op.id_param:
        if args.get(op.id_param) is None:
            raise InvalidArgument(f"missing argument '{op.id_param}': it names the {coll.name} record.")
        key = args[op.id_param]
        record = _find(service, coll, key)
        if not all(_matches(record, name, value) for name, value in wanted.items()):
            named = ", ".join(f"{k}={v!r}" for k, v in wanted.items())
            raise NotFound(f"{coll.name} {key!r} not found with {named}.")
        return _store_key(key), record
    if op.keys and not wanted:
        raise InvalidArgument(f"missing argument: one of {', '.join(repr(k) for k in op.keys)} names the "
                              f"{coll.name} record.")
    found = find_by_fields(service, coll, wanted)
    if found is None:
        named = ", ".join(f"{k}={v!r}" for k, v in wanted.items()) or "the record"
        raise NotFound(f"{coll.name} with {named} not found; list or search {coll.name} records to find "
                       f"valid values.")
    return found


def _check_unique(service: Any, coll: Collection, record: dict[str, Any], own: str | None) -> None:
    for fields in coll.unique:
        if not all(record.get(f) is not None for f in fields):
            continue
        found = find_by_fields(service, coll, {f: record[f] for f in fields})
        if found is not None and found[0] != own:
            named = ", ".join(f"{f}={record[f]!r}" for f in fields)
            raise Conflict(f"{coll.name} with {named} already exists (id {found[1]['id']!r}); update it instead.")


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
        Conflict: a record with ``key`` exists, or one with the same unique
            key fields (``coll.unique``).
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
    _check_unique(service, coll, model.model_dump(mode="json"), None)
    store[str(key)] = model
    return model.model_dump(mode="json")


def _create(service: Any, op: ResourceOp, coll: Collection, args: dict[str, Any]) -> Any:
    _check_parents(service, op, args, None)
    key = args.get(op.id_param) if op.id_param else None
    data = {k: v for k, v in args.items() if k != op.id_param}
    return insert(service, coll, data, key=key)


def _get(service: Any, op: ResourceOp, coll: Collection, args: dict[str, Any]) -> Any:
    _, record = locate(service, op, coll, args)
    _check_parents(service, op, args, record)
    return record


def store_changed(service: Any, coll: Collection, key: str, record: dict[str, Any]) -> dict[str, Any]:
    """Validate a changed record and put it back under ``key``; returns it as JSON.

    Raises:
        InvalidArgument: a value does not fit the record type (nothing is stored).
        Conflict: the change gives it the key fields of another record.
    """
    model = _validated(service, coll, record)
    data = model.model_dump(mode="json")
    _check_unique(service, coll, data, key)
    _store(service, coll)[key] = model
    return data


def merge_fields(record: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``record`` with ``changes`` applied; partial objects (e.g. a CRM
    "properties" bag) merge into what is stored."""
    out = dict(record)
    for name, value in changes.items():
        old = out.get(name)
        out[name] = {**old, **value} if isinstance(old, dict) and isinstance(value, dict) else value
    return out


def _update(service: Any, op: ResourceOp, coll: Collection, args: dict[str, Any]) -> Any:
    key, record = locate(service, op, coll, args)
    _check_parents(service, op, args, record)
    changes = {k: v for k, v in args.items() if k != op.id_param and k not in op.parents and k not in op.keys}
    return store_changed(service, coll, key, merge_fields(record, changes))


def _delete(service: Any, op: ResourceOp, coll: Collection, args: dict[str, Any]) -> Any:
    key, record = locate(service, op, coll, args)
    _check_parents(service, op, args, record)
    del _store(service, coll)[key]
    return {"id": record["id"], "deleted": True}


def _matches(record: dict[str, Any], name: str, value: Any) -> bool:
    have = record.get(name)
    if isinstance(have, list):
        return value in have if not isinstance(value, list) else all(v in have for v in value)
    if isinstance(value, list):
        return have in value
    if isinstance(have, str) and isinstance(value, str):
        if _is_path(name) and have.startswith(value.rstrip("/") + "/"):
            return True  # a directory path matches the records under it
        return have.casefold() == value.casefold()
    return have == value


def _is_path(name: str) -> bool:
    return name.lower().endswith(("path", "dir", "directory", "folder"))


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


def _scoped_text(record: dict[str, Any], scope: list[str]) -> str:
    """The text a query searches: all of it, or the scoped fields (a ``title``
    flag on records whose title is stored as ``name`` searches the name)."""
    if not scope:
        return _text_of(record)
    fields = [f for f in scope if f in record] or [f for f in ("name", "title") if f in record]
    return _text_of([record.get(f) for f in fields])


def list_records(service: Any, op: ResourceOp, coll: Collection, args: dict[str, Any]) -> list[dict[str, Any]]:
    """The records matching a list/search call's filters, text query, sort and page (JSON dicts)."""
    records = [r.model_dump(mode="json") for r in _store(service, coll).values()]
    limit, offset, sort_key, descending = DEFAULT_LIMIT, 0, None, False
    page, sorts = None, None
    # ``title: true`` on a search scopes its text query to the titles.
    scope = [n for n, v in args.items() if v is True and n in SCOPE_WORDS and n not in coll.properties]
    for name, value in args.items():
        word = squash(name)
        if value is None:
            continue
        if name in coll.properties or name in op.parents:
            records = [r for r in records if _matches(r, name, value)]
        elif is_auth(name):
            continue
        elif word in FILTER_WORDS:
            records = filter_groups(records, value)
        elif word in SORTS_WORDS:
            sorts = value
        elif word in QUERY_WORDS:
            needle = str(value).casefold()
            records = [r for r in records if needle in _scoped_text(r, scope).casefold()]
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
    if sorts:
        records = sort_records(records, sorts)
    if page is not None:
        offset = (page - 1) * limit
    return records[offset:offset + limit]


#: The CRUD handlers, ``handler(service, op, collection, arguments)``.
BASE_HANDLERS: dict[str, Callable[..., Any]] = {
    "create": _create, "send": _create, "get": _get, "update": _update, "delete": _delete,
    "list": list_records, "search": list_records,
}
