"""Parsing the env's text actions into meta-tool calls or a final answer.

Accepted action texts (``CompoWorldEnv.step``):

* a meta-tool call: ``{"name": "call_tool", "arguments": {"tool_name": ..., "arguments": {...}}}``
  (also ``list_services``, ``list_tools``, ``describe_tool``);
* several calls in one turn: a JSON array of such objects;
* a final answer: ``{"final_answer": "..."}``, or plain text that is not JSON
  (the agent answered without a tool call).

Text that starts like JSON (``{`` or ``[``) but is malformed, JSON of the
wrong shape, an action longer than :data:`MAX_ACTION_CHARS` or nested deeper
than :data:`MAX_DEPTH` is an error (400), never an exception.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from compoworld_gym.errors import error_envelope

#: Longest accepted action text, in characters.
MAX_ACTION_CHARS = 65_536
#: Deepest accepted JSON nesting of an action.
MAX_DEPTH = 32
#: Most meta-tool calls accepted in one action.
MAX_CALLS_PER_ACTION = 16


@dataclass
class ParsedAction:
    """The result of :func:`parse_action`.

    Exactly one of ``calls`` (non-empty), ``final_answer`` or ``error`` is set.

    Attributes:
        calls: ``[(meta-tool name, arguments), ...]`` in order.
        final_answer: the agent's final answer text.
        error: an error envelope describing why the action was rejected.
    """

    calls: list[tuple[str, Any]] = field(default_factory=list)
    final_answer: str | None = None
    error: dict[str, Any] | None = None


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of a JSON value, stopping early past ``limit``."""
    best, stack = 0, [(value, 1)]
    while stack:
        node, d = stack.pop()
        if isinstance(node, (dict, list)):
            best = max(best, d)
            if best > limit:
                return best
            children = node.values() if isinstance(node, dict) else node
            stack.extend((c, d + 1) for c in children)
    return best


def _bad(message: str) -> ParsedAction:
    return ParsedAction(error=error_envelope(400, message))


_SHAPE_HINT = ('expected {"name": <meta-tool>, "arguments": {...}}, a JSON array of those, '
               'or {"final_answer": "..."}')


_CALL_KEYS = frozenset({"name", "arguments", "id", "type"})


def _one_call(obj: Any) -> tuple[str, Any] | str:
    if not isinstance(obj, dict):
        return f"each call must be a JSON object; {_SHAPE_HINT}."
    name = obj.get("name")
    if not isinstance(name, str):
        return f"a call needs a string 'name'; {_SHAPE_HINT}."
    if not obj.keys() <= _CALL_KEYS:
        extra = sorted(set(obj) - _CALL_KEYS)
        return f"unexpected key(s) {', '.join(map(repr, extra))} in a call; {_SHAPE_HINT}."
    return name, obj.get("arguments", {})


def lone_surrogate_at(text: str) -> int | None:
    """The index of the first lone surrogate in ``text``, or None.

    A lone surrogate (e.g. ``"\ud800"`` from a broken decode) cannot be
    encoded as UTF-8, so no JSON observation or transcript could hold it:
    every parser of agent text rejects it before storing anything.
    """
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def parse_action(action: Any) -> ParsedAction:
    """Parse an env action (text) into calls, a final answer or an error.

    Never raises: every malformed input becomes ``ParsedAction(error=...)``.
    """
    if not isinstance(action, str):
        return _bad(f"an action must be a string, got {type(action).__name__}.")
    if len(action) > MAX_ACTION_CHARS:
        return _bad(f"action is {len(action)} characters long; the limit is {MAX_ACTION_CHARS}.")
    bad_at = lone_surrogate_at(action)
    if bad_at is not None:
        return _bad(f"action has an invalid character (lone surrogate) at index {bad_at}; send valid UTF-8 text.")
    text = action.strip()
    if not text.startswith(("{", "[")):
        return ParsedAction(final_answer=action)
    try:
        obj = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        return _bad(f"action is not valid JSON ({exc}); {_SHAPE_HINT}.")
    # Nesting needs brackets: with few of them the exact depth walk is unnecessary.
    if text.count("{") + text.count("[") > MAX_DEPTH and _depth(obj, MAX_DEPTH) > MAX_DEPTH:
        return _bad(f"action is nested deeper than {MAX_DEPTH} levels.")
    if isinstance(obj, dict) and "final_answer" in obj:
        if set(obj) != {"final_answer"} or not isinstance(obj["final_answer"], str):
            return _bad('a final answer must be exactly {"final_answer": "<text>"}.')
        return ParsedAction(final_answer=obj["final_answer"])
    items = obj if isinstance(obj, list) else [obj]
    if not items:
        return _bad(f"empty list of calls; {_SHAPE_HINT}.")
    if len(items) > MAX_CALLS_PER_ACTION:
        return _bad(f"{len(items)} calls in one action; the limit is {MAX_CALLS_PER_ACTION}.")
    calls = []
    for item in items:
        parsed = _one_call(item)
        if isinstance(parsed, str):
            return _bad(parsed)
        calls.append(parsed)
    return ParsedAction(calls=calls)
