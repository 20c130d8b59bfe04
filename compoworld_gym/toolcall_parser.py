"""A tolerant parser for the tool-call formats language models actually emit.

:func:`parse_tool_calls` turns one assistant turn (raw text) into tool calls,
a final answer, or an error that says what was wrong. Accepted formats:

* Hermes / Qwen: ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``,
  several per turn, text around them allowed (a missing closing tag at the
  very end of the text is tolerated: generation often stops on it);
* OpenAI ``tool_calls`` JSON: ``{"tool_calls": [{"id", "type": "function",
  "function": {"name", "arguments": "<JSON string>"}}]}``, also as a bare list
  of such entries, or a whole assistant message carrying ``tool_calls``;
* Llama-3 JSON: ``{"name": ..., "parameters": {...}}``, optionally after
  ``<|python_tag|>``; Mistral: ``[TOOL_CALLS] [{...}, ...]``;
* a bare JSON object ``{"name": ..., "arguments": ...}`` or a JSON array of
  them, optionally in a ```` ```json ```` fence.

``arguments`` (or ``parameters``) may be a JSON object or a JSON string that
decodes to one; missing or null means ``{}``. ``<think>...</think>`` blocks
are ignored when looking for calls. Text with no tool-call marker and no
call-shaped JSON is the final answer (stripped, without ``<think>`` blocks). Text with a marker that does not parse
is an error; nothing of that turn runs. Never raises.

Example:
    >>> out = parse_tool_calls('Looking.<tool_call>{"name": "list_services", "arguments": {}}</tool_call>')
    >>> [(c.name, c.arguments) for c in out.calls], out.content
    ([('list_services', {})], 'Looking.')
    >>> parse_tool_calls("All done: TCK-0013.").final_answer
    'All done: TCK-0013.'
    >>> parse_tool_calls('<tool_call>{"name": "x", </tool_call>').error is not None
    True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional

import orjson

from compoworld_gym.actions import lone_surrogate_at

OPEN, CLOSE = "<tool_call>", "</tool_call>"
PYTHON_TAG = "<|python_tag|>"
MISTRAL_TAG = "[TOOL_CALLS]"
#: Most calls accepted in one turn.
MAX_CALLS = 16
#: Longest text parsed, in characters (longer text is an error, not a hang).
MAX_TEXT_CHARS = 262_144

_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL)
_FENCE = re.compile(r"\A```(?:json|JSON)?\s*(.*?)\s*```\Z", re.DOTALL)
_HINT = 'write <tool_call>{"name": "<tool>", "arguments": {...}}</tool_call> with valid JSON (double quotes)'


@dataclass
class ToolCall:
    """One parsed call.

    Attributes:
        name: the function name the model called.
        arguments: the decoded arguments (a dict).
        id: the call id the model gave (OpenAI format), else None.
    """

    name: str
    arguments: dict[str, Any]
    id: Optional[str] = None


@dataclass
class ParsedTurn:
    """The result of :func:`parse_tool_calls`.

    Exactly one of ``calls`` (non-empty), ``final_answer`` or ``error`` is set.

    Attributes:
        calls: the calls in order.
        content: the text outside the calls (stripped), for the assistant message.
        final_answer: the whole text when the turn has no tool call.
        error: what was wrong with an unparseable turn, for the model to read.
    """

    calls: list[ToolCall] = field(default_factory=list)
    content: str = ""
    final_answer: Optional[str] = None
    error: Optional[str] = None


class _Bad(Exception):
    """A call-shaped fragment that does not parse (internal)."""


def _loads(text: str, what: str) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise _Bad(f"{what} is not valid JSON ({exc})") from None


def _arguments(raw: Any, where: str) -> dict[str, Any]:
    if raw is None:
        return {}
    if isinstance(raw, str):
        if not raw.strip():
            return {}
        raw = _loads(raw, f"{where}: the arguments string")
    if not isinstance(raw, dict):
        raise _Bad(f"{where}: arguments must be a JSON object, got {type(raw).__name__}")
    return raw


def _call(obj: Any, where: str) -> ToolCall:
    """One call from any of the accepted object shapes."""
    if not isinstance(obj, dict):
        raise _Bad(f"{where} must be a JSON object, got {type(obj).__name__}")
    call_id = obj.get("id") if isinstance(obj.get("id"), str) else None
    if isinstance(obj.get("function"), dict):  # OpenAI tool_calls entry
        obj = obj["function"]
    name = obj.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _Bad(f"{where} needs a non-empty string 'name'")
    raw = obj["arguments"] if "arguments" in obj else obj.get("parameters")
    return ToolCall(name=name.strip(), arguments=_arguments(raw, where), id=call_id)


def _calls_from_json(value: Any, where: str) -> list[ToolCall]:
    if isinstance(value, dict) and "tool_calls" in value:
        value = value["tool_calls"]
        if not isinstance(value, list):
            raise _Bad(f"{where}: 'tool_calls' must be a list")
    items = value if isinstance(value, list) else [value]
    if not items:
        raise _Bad(f"{where}: empty list of calls")
    return [_call(item, f"{where}, call {i + 1}" if len(items) > 1 else where)
            for i, item in enumerate(items)]


def _unfence(text: str) -> str:
    m = _FENCE.match(text)
    return m.group(1) if m else text


def _hermes(text: str) -> tuple[list[ToolCall], str]:
    """Calls inside ``<tool_call>`` blocks, and the text outside them."""
    calls: list[ToolCall] = []
    outside: list[str] = []
    pos, n = 0, 0
    while True:
        start = text.find(OPEN, pos)
        if start < 0:
            outside.append(text[pos:])
            break
        outside.append(text[pos:start])
        end = text.find(CLOSE, start + len(OPEN))
        nxt = text.find(OPEN, start + len(OPEN))
        if end < 0 or (0 <= nxt < end):
            if nxt >= 0:
                raise _Bad(f"tool call {n + 1}: <tool_call> is not closed by </tool_call>")
            body, pos = text[start + len(OPEN):], len(text)  # generation stopped on the tag
        else:
            body, pos = text[start + len(OPEN):end], end + len(CLOSE)
        n += 1
        body = _unfence(body.strip())
        calls.extend(_calls_from_json(_loads(body, f"tool call {n}"), f"tool call {n}"))
    pieces = (p.replace(CLOSE, "").strip() for p in outside)
    return calls, "\n".join(p for p in pieces if p)


def _looks_like_call(value: Any) -> bool:
    """True for JSON that is meant as a call (so a bad shape is an error)."""
    if isinstance(value, list):
        return bool(value) and all(isinstance(v, dict) for v in value) and any(
            _looks_like_call(v) for v in value)
    return isinstance(value, dict) and (
        "tool_calls" in value or "function" in value
        or ("name" in value and ("arguments" in value or "parameters" in value or len(value) == 1)))


def _json_turn(body: str, marker: bool) -> Optional[list[ToolCall]]:
    """Calls from a whole-text JSON turn; None when it is not a call attempt."""
    body = _unfence(body.strip())
    if not body.startswith(("{", "[")):
        if marker:
            raise _Bad("expected JSON after the tool-call marker")
        return None
    try:
        value = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        if marker or '"name"' in body or '"tool_calls"' in body:
            raise _Bad(f"the tool call is not valid JSON ({exc})") from None
        return None
    if not marker and not _looks_like_call(value):
        return None
    return _calls_from_json(value, "tool call")


def _parse(text: str) -> ParsedTurn:
    visible = _THINK.sub("", text)
    if OPEN in visible or CLOSE in visible:
        if OPEN not in visible:
            raise _Bad("found </tool_call> without an opening <tool_call>")
        calls, content = _hermes(visible)
        return ParsedTurn(calls=calls, content=content)
    stripped = visible.strip()
    for tag in (PYTHON_TAG, MISTRAL_TAG):
        if tag in stripped:
            before, _, after = stripped.partition(tag)
            calls = _json_turn(after, marker=True) or []
            return ParsedTurn(calls=calls, content=before.strip())
    calls = _json_turn(stripped, marker=False)
    if calls:
        return ParsedTurn(calls=calls, content="")
    return ParsedTurn(final_answer=visible.strip())


def parse_tool_calls(text: Any) -> ParsedTurn:
    """Parse one assistant turn into calls, a final answer or an error.

    Args:
        text: the model's raw output for one turn.

    Returns:
        A :class:`ParsedTurn`; never raises.
    """
    if not isinstance(text, str):
        return ParsedTurn(error=f"a model turn must be text, got {type(text).__name__}")
    if len(text) > MAX_TEXT_CHARS:
        return ParsedTurn(error=f"the turn is {len(text)} characters long; the limit is {MAX_TEXT_CHARS}")
    bad_at = lone_surrogate_at(text)
    if bad_at is not None:
        return ParsedTurn(error=f"the turn has an invalid character (lone surrogate) at index {bad_at}; "
                                "send valid UTF-8 text")
    try:
        turn = _parse(text)
    except _Bad as exc:
        return ParsedTurn(error=f"could not parse the tool call: {exc}; {_HINT}.")
    except RecursionError:
        return ParsedTurn(error=f"could not parse the tool call: JSON nested too deeply; {_HINT}.")
    if turn.final_answer is None and len(turn.calls) > MAX_CALLS:
        return ParsedTurn(error=f"{len(turn.calls)} tool calls in one turn; the limit is {MAX_CALLS}.")
    return turn


__all__ = ["MAX_CALLS", "ParsedTurn", "ToolCall", "parse_tool_calls"]
