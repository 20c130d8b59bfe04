"""The four meta-tools, declared once as the typed methods of :class:`MetaTools`.

The agent does not get a flat tool list; it discovers the world through
``list_services``, ``list_tools``, ``describe_tool`` and ``call_tool``
(paper §2.3). Each method's signature and Google docstring are the whole
declaration. Everything else derives from them, through the same machinery
that turns service methods into tools (:mod:`compoworld_gym.schema`):

- :func:`meta_tool_definitions`: the OpenAI function definitions that every
  observation, chat template and trajectory record carries;
- :func:`dispatch`: arguments are validated against the signature, so a
  missing, extra or mistyped argument is a 400 that names it, exactly as the
  definitions promise;
- the TRL adapter (:mod:`compoworld_gym.baselines.trl_env`) and the MCP
  bridge (:mod:`compoworld_gym.mcp_bridge`) expose these methods.

Format (the paper's published trajectories, ``compoworld_example_data_20.jsonl``):
``call_tool`` requires only ``tool_name`` (``arguments`` defaults to ``{}``);
``list_services`` returns bare names. One deliberate difference: the paper
lists the task's own services first, which gives the task away; here the
order is by name, with distractors mixed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import orjson
from pydantic import BaseModel

from compoworld_gym.errors import InvalidArgument, error_envelope
from compoworld_gym.schema import clean_schema, parse_docstring, signature_model, validate_arguments
from compoworld_gym.world import World


class MetaTools:
    """The four meta-tools of one world.

    Each method is one meta-tool and returns its JSON result: a JSON-able dict,
    or an error envelope ``{"success": false, "error": {"code", "message"}}``
    (404 for an unknown service or tool). Calling the methods directly skips
    argument validation; :func:`dispatch` validates first.

    Args:
        world: the mounted services to act on.
        as_fragment: passed to :meth:`World.call_tool` (a successful tool
            result's ``data`` as an ``orjson.Fragment`` of its JSON text).
    """

    def __init__(self, world: World, *, as_fragment: bool = False) -> None:
        self.world = world
        self.as_fragment = as_fragment

    def list_services(self) -> dict[str, Any]:
        """List the services (applications) available in this workspace.

        Returns:
            {"services": [service name, ...]}, sorted by name.
        """
        return self.world.list_services()

    def list_tools(self, service: str) -> dict[str, Any]:
        """List the tools of one service: names and one-line descriptions.

        Args:
            service: Service name from list_services.

        Returns:
            {"service": ..., "tools": [{"name", "description"}, ...]}.
        """
        return self.world.list_tools(service)

    def describe_tool(self, tool: str) -> dict[str, Any]:
        """Show a tool's full description and the JSON Schema of its parameters.

        Args:
            tool: Tool name from list_tools.

        Returns:
            {"name", "description", "parameters"}.
        """
        return self.world.describe_tool(tool)

    def call_tool(self, tool_name: str, arguments: Optional[dict[str, Any]] = None) -> dict[str, Any]:
        """Call a tool with arguments. Returns {"success": true, "data": ...} or {"success": false, "error": {"code", "message"}}.

        Args:
            tool_name: Tool name from list_tools.
            arguments: The tool's arguments as a JSON object (default: none).

        Returns:
            The tool's result envelope.
        """
        call_args: Any = {} if arguments is None else arguments
        if self.as_fragment:
            return self.world.call_tool(tool_name, call_args, as_fragment=True)
        return self.world.call_tool(tool_name, call_args)


META_TOOL_NAMES = ("list_services", "list_tools", "describe_tool", "call_tool")


@dataclass(frozen=True)
class _Declared:
    """One meta-tool as derived from its method: validator model, schema, definition."""

    model: type[BaseModel]
    schema: dict[str, Any]
    definition: dict[str, Any]


def _declare(name: str) -> _Declared:
    method = getattr(MetaTools, name)
    description, arg_docs = parse_docstring(method.__doc__)
    model = signature_model(method, arg_docs)
    schema = clean_schema(model.model_json_schema())
    schema.pop("additionalProperties", None)
    schema.setdefault("properties", {})
    schema.setdefault("required", [])
    for prop in schema["properties"].values():
        prop.pop("default", None)  # optional is said by "required"; a null default only adds noise
        if prop.get("anyOf") and {"type": "null"} in prop["anyOf"]:  # Optional[X]: show X
            prop.update(next(p for p in prop.pop("anyOf") if p != {"type": "null"}))
    parameters = {"type": "object", "properties": schema["properties"], "required": schema["required"]}
    definition = {"type": "function", "function": {"name": name, "description": description,
                                                   "parameters": parameters}}
    return _Declared(model=model, schema=schema, definition=definition)


_DECLARED: dict[str, _Declared] = {name: _declare(name) for name in META_TOOL_NAMES}
_DEFINITIONS_JSON = orjson.dumps([d.definition for d in _DECLARED.values()]).decode()


def meta_tool_definitions() -> list[dict[str, Any]]:
    """The four meta-tools as OpenAI function definitions (a fresh copy each call).

    Returns:
        ``[{"type": "function", "function": {"name", "description", "parameters"}}, ...]``
        in the order of :data:`META_TOOL_NAMES`, derived from :class:`MetaTools`.
    """
    return orjson.loads(_DEFINITIONS_JSON)


def meta_tool_definitions_json() -> str:
    """The four definitions as compact JSON text (built once; for observations)."""
    return _DEFINITIONS_JSON


def _decoded_call_arguments(arguments: dict[str, Any]) -> dict[str, Any]:
    """``arguments`` with a JSON-encoded ``call_tool`` argument object decoded
    (some models send ``"arguments": "{...}"``, as OpenAI's own wire format does).

    Raises:
        InvalidArgument: the string is not valid JSON.
    """
    inner = arguments.get("arguments")
    if not isinstance(inner, str):
        return arguments
    try:
        decoded = orjson.loads(inner) if inner.strip() else {}
    except orjson.JSONDecodeError:
        raise InvalidArgument("call_tool 'arguments' is a string that is not valid JSON; pass a JSON object.") from None
    return {**arguments, "arguments": decoded}


def dispatch(world: World, name: str, arguments: Any, *, as_fragment: bool = False) -> dict[str, Any]:
    """Run meta-tool ``name`` with ``arguments`` on ``world``.

    Args:
        world: the world to act on.
        name: the meta-tool name.
        arguments: its arguments (a JSON object; None means none).
        as_fragment: see :class:`MetaTools`.

    Returns:
        The meta-tool's JSON result, or an error envelope: 400 for arguments
        that do not match the method's signature (the message names the
        meta-tool and the field), 404 for an unknown meta-tool. Never raises.
    """
    declared = _DECLARED.get(name)
    if declared is None:
        return error_envelope(404, f"unknown meta-tool {name!r}; use one of {', '.join(META_TOOL_NAMES)}.")
    try:
        if name == "call_tool" and isinstance(arguments, dict):
            arguments = _decoded_call_arguments(arguments)
        kwargs = validate_arguments(declared.model, declared.schema, {} if arguments is None else arguments)
    except InvalidArgument as exc:
        return error_envelope(400, f"{name}: {exc}")
    return getattr(MetaTools(world, as_fragment=as_fragment), name)(**kwargs)

