"""The four meta-tools: definitions and dispatch.

The agent does not get a flat tool list; it discovers the world through
``list_services``, ``list_tools``, ``describe_tool`` and ``call_tool``
(paper §2.3; names and arguments follow the paper's published trajectories).
"""

from __future__ import annotations

import copy
from typing import Any

import orjson

from compoworld_gym.errors import error_envelope
from compoworld_gym.world import World

META_TOOL_NAMES = ("list_services", "list_tools", "describe_tool", "call_tool")

_DEFINITIONS: list[dict[str, Any]] = [
    {"type": "function", "function": {
        "name": "list_services",
        "description": "List the services (applications) available in this workspace.",
        "parameters": {"type": "object", "properties": {}, "required": []}}},
    {"type": "function", "function": {
        "name": "list_tools",
        "description": "List the tools of one service: names and one-line descriptions.",
        "parameters": {"type": "object", "properties": {
            "service": {"type": "string", "description": "Service name from list_services."}},
            "required": ["service"]}}},
    {"type": "function", "function": {
        "name": "describe_tool",
        "description": "Show a tool's full description and JSON Schema of its parameters.",
        "parameters": {"type": "object", "properties": {
            "tool": {"type": "string", "description": "Tool name from list_tools."}},
            "required": ["tool"]}}},
    {"type": "function", "function": {
        "name": "call_tool",
        "description": "Call a tool with arguments. Returns {\"success\": true, \"data\": ...} or "
                       "{\"success\": false, \"error\": {\"code\", \"message\"}}.",
        "parameters": {"type": "object", "properties": {
            "tool_name": {"type": "string", "description": "Tool name from list_tools."},
            "arguments": {"type": "object", "description": "Arguments as a JSON object."}},
            "required": ["tool_name", "arguments"]}}},
]


def meta_tool_definitions() -> list[dict[str, Any]]:
    """The four meta-tools as OpenAI function definitions (a fresh copy)."""
    return copy.deepcopy(_DEFINITIONS)


_DEFINITIONS_JSON = orjson.dumps(_DEFINITIONS).decode()


def meta_tool_definitions_json() -> str:
    """The four definitions as compact JSON text (built once; for observations)."""
    return _DEFINITIONS_JSON


_REQUIRED = {"list_services": (), "list_tools": ("service",), "describe_tool": ("tool",),
             "call_tool": ("tool_name",)}
#: Argument names each meta-tool accepts (checked on every step: precomputed).
_ALLOWED = {name: frozenset(required) | ({"arguments"} if name == "call_tool" else set())
            for name, required in _REQUIRED.items()}


def dispatch(world: World, name: str, arguments: Any, *, as_fragment: bool = False) -> dict[str, Any]:
    """Run meta-tool ``name`` with ``arguments`` on ``world``.

    Args:
        world: the world to act on.
        name: the meta-tool name.
        arguments: its arguments (a JSON object; None means none).
        as_fragment: passed to :meth:`World.call_tool` (a successful tool
            result's ``data`` as an ``orjson.Fragment`` of its JSON text).

    Returns:
        The meta-tool's JSON result, or an error envelope (400 for bad
        arguments, 404 for an unknown meta-tool). Never raises.
    """
    if name not in _REQUIRED:
        return error_envelope(404, f"unknown meta-tool {name!r}; use one of {', '.join(META_TOOL_NAMES)}.")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        return error_envelope(400, f"arguments of {name} must be a JSON object, got {type(arguments).__name__}.")
    for key in _REQUIRED[name]:
        if not isinstance(arguments.get(key), str):
            return error_envelope(400, f"{name} needs argument '{key}' (a string).")
    allowed = _ALLOWED[name]
    if not arguments.keys() <= allowed:
        extra = sorted(set(arguments) - allowed)
        return error_envelope(400, f"unexpected argument(s) {', '.join(map(repr, extra))} for {name}; "
                                   f"allowed: {', '.join(sorted(allowed)) or 'none'}.")
    if name == "call_tool":
        call_args = arguments.get("arguments", {})
        if isinstance(call_args, str):  # some models send the arguments JSON-encoded
            try:
                call_args = orjson.loads(call_args) if call_args.strip() else {}
            except orjson.JSONDecodeError:
                return error_envelope(400, "call_tool 'arguments' is a string that is not valid JSON; "
                                           "pass a JSON object.")
        if as_fragment:
            return world.call_tool(arguments["tool_name"], call_args, as_fragment=True)
        return world.call_tool(arguments["tool_name"], call_args)
    if name == "list_services":
        return world.list_services()
    if name == "list_tools":
        return world.list_tools(arguments["service"])
    return world.describe_tool(arguments["tool"])
