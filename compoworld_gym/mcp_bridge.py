"""Serve a task's world as an MCP server (official ``mcp`` 2.x SDK, low-level ``Server``).

Two modes:

* ``"meta"`` — the four meta-tools (``list_services``, ``list_tools``,
  ``describe_tool``, ``call_tool``), exactly the agent interface of the env;
* ``"flat"`` — every mounted tool under its exposed name with its own
  ``inputSchema`` and MCP annotations (the usual MCP setup).

Results are the framework's JSON envelopes as text content (also as
``structuredContent``); a failed call sets ``isError``. The low-level server
is used because our schemas are raw JSON Schema (``MCPServer`` derives them
from Python signatures), and arguments are validated by our own validators
(the SDK does not validate against a raw ``inputSchema``; DESIGN.md §3).

Example:
    >>> import asyncio
    >>> from mcp import Client
    >>> from compoworld_gym.builtin_tasks import builtin_tasks
    >>> server = build_server(builtin_tasks()[0], mode="meta")
    >>> async def main():
    ...     async with Client(server) as client:
    ...         tools = await client.list_tools()
    ...         return [t.name for t in tools.tools]
    >>> asyncio.run(main())
    ['list_services', 'list_tools', 'describe_tool', 'call_tool']
"""

from __future__ import annotations

from typing import Any, Literal

import orjson

from compoworld_gym.episode import mount
from compoworld_gym.metatools import dispatch, meta_tool_definitions
from compoworld_gym.tasks import Task
from compoworld_gym.world import World

Mode = Literal["meta", "flat"]


def _tool_entries(world: World, mode: Mode) -> list[dict[str, Any]]:
    if mode == "meta":
        return [{"name": d["function"]["name"], "description": d["function"]["description"],
                 "inputSchema": d["function"]["parameters"], "annotations": None}
                for d in meta_tool_definitions()]
    entries = []
    for svc_name, svc in world.services.items():
        for name, spec in svc.tools.items():
            entry = spec.mcp_definition()
            entry["name"] = world.exposed_name(svc_name, name)
            entries.append(entry)
    return entries


def handle_call(world: World, mode: Mode, name: str, arguments: dict[str, Any] | None) -> dict[str, Any]:
    """Run one MCP ``tools/call`` against ``world``; returns the JSON result (never raises)."""
    if mode == "meta":
        return dispatch(world, name, arguments or {})
    return world.call_tool(name, arguments or {})


def build_server(task: Task, mode: Mode = "meta", name: str | None = None) -> Any:
    """An MCP low-level ``Server`` serving a fresh world of ``task``.

    Args:
        task: the task whose services (and distractors) are mounted.
        mode: ``"meta"`` or ``"flat"`` (see module docstring).
        name: server name (default ``compoworld-<task id>``).

    Raises:
        ValueError: unknown mode.
        ImportError: the ``mcp`` extra is not installed.
    """
    if mode not in ("meta", "flat"):
        raise ValueError(f"mode must be 'meta' or 'flat', got {mode!r}")
    import mcp_types as types
    from mcp.server.lowlevel import Server

    world = mount(task)
    entries = _tool_entries(world, mode)

    async def on_list_tools(ctx: Any, params: Any) -> Any:
        tools = []
        for e in entries:
            ann = e.get("annotations")
            tools.append(types.Tool(
                name=e["name"], description=e["description"], input_schema=e["inputSchema"],
                annotations=types.ToolAnnotations(
                    read_only_hint=ann["readOnlyHint"], destructive_hint=ann["destructiveHint"],
                    idempotent_hint=ann["idempotentHint"], open_world_hint=ann["openWorldHint"]) if ann else None))
        return types.ListToolsResult(tools=tools)

    async def on_call_tool(ctx: Any, params: Any) -> Any:
        result = handle_call(world, mode, params.name, params.arguments)
        failed = result.get("success") is False
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=orjson.dumps(result).decode())],
            structured_content=result, is_error=failed)

    server = Server(name or f"compoworld-{task.id}", on_list_tools=on_list_tools, on_call_tool=on_call_tool)
    server.world = world  # type: ignore[attr-defined]  # for inspection in tests and tools
    return server


def serve_stdio(task: Task, mode: Mode = "meta") -> None:
    """Serve ``task`` over stdio until the client disconnects."""
    import anyio
    from mcp.server.stdio import stdio_server

    server = build_server(task, mode)

    async def main() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)
