"""Handlers of the keyed verbs: count, upsert and actions; and the handler factory.

* count: ``{"count": n}`` for the records a list call with the same
  arguments would match (paging aside).
* upsert: the record named by the key parameters (or the id, or the
  singleton) gets the call's field values; when there is none, a record
  with the keys and values is created.
* action: the record's ``status`` becomes the verb's (``close`` →
  ``closed``); ``assign``/``set`` style actions write one field, and any
  other argument that is a record field is written too.

Every write goes through the record's pydantic model; a value that does
not fit is a 400 and, the call being transactional, nothing changes.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

from compoworld_gym.errors import NotFound
from compoworld_gym.importer.batch import run_batch
from compoworld_gym.importer.functions import run_function
from compoworld_gym.importer.journal import append_entry, clear_entries
from compoworld_gym.importer.engine import (
    BASE_HANDLERS,
    insert,
    list_records,
    locate,
    merge_fields,
    store_changed,
)
from compoworld_gym.importer.keys import is_auth
from compoworld_gym.importer.patterns import LIMIT_WORDS, OFFSET_WORDS, PAGE_WORDS, Collection, ResourceOp, squash

_PAGING = LIMIT_WORDS | OFFSET_WORDS | PAGE_WORDS


def _count(service: Any, op: ResourceOp, coll: Collection, args: dict[str, Any]) -> Any:
    unpaged = {k: v for k, v in args.items() if squash(k) not in _PAGING}
    matched = list_records(service, op, coll, {**unpaged, "limit": 10 ** 9})
    return {"count": len(matched)}


def _changes(op: ResourceOp, args: dict[str, Any]) -> dict[str, Any]:
    skip = {op.id_param, *op.keys, *op.parents}
    return {k: v for k, v in args.items() if k not in skip and not is_auth(k)}


def _upsert(service: Any, op: ResourceOp, coll: Collection, args: dict[str, Any]) -> Any:
    try:
        key, record = locate(service, op, coll, args)
    except NotFound:
        data = {k: v for k, v in args.items() if k != op.id_param and not is_auth(k)}
        made = insert(service, coll, data, key=args.get(op.id_param) if op.id_param else None)
        return {**made, "created": True}
    return {**store_changed(service, coll, key, merge_fields(record, _changes(op, args))), "created": False}


def _action(service: Any, op: ResourceOp, coll: Collection, args: dict[str, Any]) -> Any:
    key, record = locate(service, op, coll, args)
    changes = _changes(op, args)
    if op.target_field is not None:
        changes.pop(op.value_param, None)
        changes[op.target_field] = args.get(op.value_param) if op.value_param else None
    if op.status is not None:
        changes["status"] = op.status
    return store_changed(service, coll, key, merge_fields(record, changes))


HANDLERS: dict[str, Callable[..., Any]] = {**BASE_HANDLERS, "count": _count, "upsert": _upsert,
                                           "action": _action, "journal_clear": clear_entries}


def make_handler(op: ResourceOp, tool: str = "", schema: dict[str, Any] | None = None) -> Callable[..., Any]:
    """The ``handler(service, **arguments)`` of the engine-run tool ``tool``
    (``schema``: its inputSchema, which a pure function reads its inputs by).

    Raises:
        KeyError: ``op.verb`` is not one of :data:`HANDLERS`, ``journal`` nor ``function``.
    """
    if op.verb == "function":
        return lambda *positional, **arguments: run_function(op.function, positional[0], arguments, schema or {})
    run = functools.partial(append_entry, tool=tool) if op.verb == "journal" else HANDLERS[op.verb]

    def handler(*positional: Any, **arguments: Any) -> Any:
        # The service comes positionally: a tool may have a parameter called "service".
        service = positional[0]
        if op.batch_of is not None:
            return run_batch(service, op, run, arguments)
        coll = service.collections[op.collection]
        return run(service, op, coll, arguments)

    return handler
