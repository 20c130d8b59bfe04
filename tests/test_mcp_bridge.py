"""Serving a task's world over MCP (in-process client of the official SDK)."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("mcp")
from mcp import Client  # noqa: E402

from compoworld_gym.builtin_tasks import builtin_tasks  # noqa: E402
from compoworld_gym.mcp_bridge import build_server  # noqa: E402

TASK = next(t for t in builtin_tasks() if t.id == "builtin-chargeback")


def run(coro):
    return asyncio.run(coro)


def test_meta_mode_lists_four_tools_and_calls_through():
    server = build_server(TASK, mode="meta")

    async def go():
        async with Client(server) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            listed = await client.call_tool("list_services", {})
            called = await client.call_tool("call_tool", {"tool_name": "search_tickets",
                                                          "arguments": {"query": "chargeback"}})
            bad = await client.call_tool("call_tool", {"tool_name": "get_ticket", "arguments": {"ticket_id": "X"}})
            return names, listed, called, bad

    names, listed, called, bad = run(go())
    assert names == ["list_services", "list_tools", "describe_tool", "call_tool"]
    services = [s["name"] for s in json.loads(listed.content[0].text)["services"]]
    assert "helpdesk" in services and "knowledge_base" in services
    data = json.loads(called.content[0].text)["data"]
    assert [t["subject"] for t in data] == ["Chargeback notice from card issuer"]
    assert bad.is_error is True and json.loads(bad.content[0].text)["error"]["code"] == 404


def test_flat_mode_exposes_real_tools_with_annotations_and_mutates_state():
    server = build_server(TASK, mode="flat")

    async def go():
        async with Client(server) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            out = await client.call_tool("update_ticket", {"ticket_id": "TCK-0013", "priority": "high"})
            invalid = await client.call_tool("update_ticket", {"ticket_id": "TCK-0013", "priority": 7})
            return tools, out, invalid

    tools, out, invalid = run(go())
    assert tools["update_ticket"].annotations.read_only_hint is False
    assert tools["search_tickets"].annotations.read_only_hint is True
    assert tools["update_ticket"].input_schema["required"] == ["ticket_id"]
    assert out.is_error is False and server.world.services["helpdesk"].state.tickets["TCK-0013"].priority == "high"
    assert invalid.is_error is True and "priority" in json.loads(invalid.content[0].text)["error"]["message"]


def test_bad_mode():
    with pytest.raises(ValueError, match="mode"):
        build_server(TASK, mode="both")


def test_compoworld_serve_over_stdio():
    """The real CLI as a subprocess, spoken to by the SDK's stdio client."""
    import shutil
    import sys

    from mcp import StdioServerParameters

    exe = shutil.which("compoworld")
    command, args = (exe, []) if exe else (sys.executable, ["-m", "compoworld_gym.cli"])
    params = StdioServerParameters(command=command, args=[*args, "serve", "--task", TASK.id, "--mode", "flat"])

    async def go():
        async with Client(params) as client:
            tools = [t.name for t in (await client.list_tools()).tools]
            out = await client.call_tool("search_tickets", {"query": "chargeback"})
            return tools, out

    tools, out = run(go())
    assert "search_tickets" in tools and "get_article" in tools
    assert json.loads(out.content[0].text)["data"][0]["subject"] == "Chargeback notice from card issuer"
