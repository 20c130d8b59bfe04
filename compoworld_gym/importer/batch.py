"""Batch tools: one engine-run tool applied to many records in one call.

HubSpot's ``crm_batch_create_companies(inputs=[{properties}...])``,
``notes_batch_archive(noteIds=[...])`` or Gmail's
``batch_delete_messages(ids=[...])`` do what their single-record sibling
(``crm_create_company``, ``notes_archive``, ``delete_message``) does, once
per item. The engine runs them that way when the server has that sibling:
an object item is the sibling's arguments (its ``id`` names the record the
sibling's id parameter names), a scalar item is the record's id, and the
call's other arguments (``addLabelIds``) go with every item.

The whole batch is one tool call, so it is all or nothing: an item that
fails (an unknown id, a value that does not fit) fails the call, naming the
item, and the service's transaction leaves every record as it was.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from compoworld_gym.errors import InvalidArgument, ToolError
from compoworld_gym.importer.names import tokens
from compoworld_gym.importer.patterns import ResourceOp
from compoworld_gym.importer.verbs import STATUS_OF, full_shape, is_action

BATCH_WORDS = frozenset({"batch", "bulk"})
#: Most items one batch call takes (HubSpot's batch endpoints take 100).
MAX_ITEMS = 100


def batch_name_shape(tool: str) -> Any:
    """The (verb, collection) shape of a batch tool's name without its batch word, or None.

    Example:
        >>> batch_name_shape("crm_batch_create_companies").collection
        'company'
    """
    words = tokens(tool)
    if not BATCH_WORDS & set(words):
        return None
    return full_shape("_".join(w for w in words if w not in BATCH_WORDS))


def _items_param(schema: dict[str, Any]) -> Optional[str]:
    """The one required (or only) array parameter that carries the items."""
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    arrays = [n for n, p in props.items() if isinstance(p, dict) and p.get("type") == "array"]
    required = set(schema.get("required") or [])
    wanted = [n for n in arrays if n in required] or arrays
    return wanted[0] if len(wanted) == 1 else None


def _sibling(shape: Any, ops: dict[str, ResourceOp]) -> Optional[str]:
    """The single-record tool the batch repeats: same verb (an action: same
    resulting status) and collection, and one record per call (a create, or
    a tool naming its record by id)."""
    for name, op in sorted(ops.items()):
        if op.collection != shape.collection or op.batch_of is not None:
            continue
        if is_action(shape.verb):
            same = op.verb == "action" and op.status == STATUS_OF.get(shape.verb)
        else:
            same = op.verb == shape.verb
        if same and (op.verb in ("create", "send") or op.id_param):
            return name
    return None


def add_batch_ops(ops: dict[str, ResourceOp], reasons: dict[str, str],
                  schemas: dict[str, dict[str, Any]]) -> None:
    """Turn simulated batch tools into engine-run ones where a sibling exists (mutates both dicts)."""
    for tool in sorted(reasons):
        shape = batch_name_shape(tool)
        items = _items_param(schemas.get(tool, {})) if shape is not None else None
        sibling = _sibling(shape, ops) if items is not None else None
        if sibling is None:
            continue
        inner = ops[sibling]
        ops[tool] = ResourceOp(inner.verb, inner.collection, status=inner.status, batch_of=sibling,
                               items_param=items)
        del reasons[tool]


def _item_args(inner: ResourceOp, item: Any, shared: dict[str, Any]) -> dict[str, Any]:
    if isinstance(item, dict):
        args = dict(item)
        if inner.id_param and "id" in args and inner.id_param not in args:
            args[inner.id_param] = args.pop("id")
        return {**shared, **args}
    if inner.id_param is None:
        raise InvalidArgument(f"each item must be an object of {inner.collection} fields, got {item!r}.")
    return {**shared, inner.id_param: item}


def run_batch(service: Any, op: ResourceOp, run: Callable[..., Any], args: dict[str, Any]) -> dict[str, Any]:
    """Apply the sibling tool to every item; ``{"results": [...], "count": n}``.

    Raises:
        InvalidArgument: no items, or more than :data:`MAX_ITEMS`.
        ToolError: the first item that fails, with its index (the whole call is undone).
    """
    items = args.get(op.items_param)
    if not isinstance(items, list) or not items:
        raise InvalidArgument(f"invalid argument '{op.items_param}': give a non-empty list of items.")
    if len(items) > MAX_ITEMS:
        raise InvalidArgument(f"invalid argument '{op.items_param}': at most {MAX_ITEMS} items per call.")
    inner = service.ops[op.batch_of]
    coll = service.collections[inner.collection]
    shared = {k: v for k, v in args.items() if k != op.items_param}
    results = []
    for index, item in enumerate(items):
        try:
            results.append(run(service, inner, coll, _item_args(inner, item, shared)))
        except ToolError as exc:
            raise type(exc)(f"item {index} of '{op.items_param}': {exc.message}") from None
    return {"results": results, "count": len(results)}
