"""Serving a task's episode over MCP, spoken to by the official SDK's client (in process and over stdio)."""

from __future__ import annotations

import asyncio
import json
import sys

import pytest

pytest.importorskip("mcp")
from mcp import Client, MCPError, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

from compoworld_gym.builtin_tasks import builtin_tasks  # noqa: E402
from compoworld_gym.mcp_bridge import SUBMIT_TOOL, build_server, instruction_uri, system_uri  # noqa: E402
from compoworld_gym.prompts import system_prompt  # noqa: E402

TASK = next(t for t in builtin_tasks() if t.id == "builtin-chargeback")
#: A task whose reference writes to two services (helpdesk tickets and a notification).
LONG = next(t for t in builtin_tasks() if t.id == "builtin-overdue-billing-escalation")
META_TOOLS = ["list_services", "list_tools", "describe_tool", "call_tool"]


def run(coro):
    return asyncio.run(coro)


def payload(result) -> dict:
    return json.loads(result.content[0].text)


async def replay_reference(client, task, mode):
    """The task's reference calls: meta-tools in meta mode, the inner tool calls in flat mode."""
    for mc in task.reference:
        if mode == "meta":
            out = await client.call_tool(mc.name, mc.arguments)
        elif mc.name == "call_tool":
            out = await client.call_tool(mc.arguments["tool_name"], mc.arguments.get("arguments", {}))
        else:  # list_services / list_tools / describe_tool: flat mode lists everything up front
            continue
        assert out.is_error is False, payload(out)


def test_meta_mode_lists_meta_tools_and_submit_and_calls_through():
    server = build_server(TASK, mode="meta")

    async def go():
        async with Client(server) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            listed = await client.call_tool("list_services", {})
            called = await client.call_tool("call_tool", {"tool_name": "search_tickets",
                                                          "arguments": {"query": "chargeback"}})
            bad = await client.call_tool("call_tool", {"tool_name": "get_ticket",
                                                       "arguments": {"ticket_id": "X"}})
            return tools, listed, called, bad

    tools, listed, called, bad = run(go())
    assert list(tools) == [*META_TOOLS, SUBMIT_TOOL]
    assert tools[SUBMIT_TOOL].input_schema["required"] == ["answer"]
    assert tools[SUBMIT_TOOL].input_schema["properties"]["answer"]["type"] == "string"
    description = tools[SUBMIT_TOOL].description
    assert "final answer" in description and "ends the episode" in description
    services = payload(listed)["services"]
    assert "helpdesk" in services and "knowledge_base" in services
    assert [t["subject"] for t in payload(called)["data"]] == ["Chargeback notice from card issuer"]
    assert bad.is_error is True and payload(bad)["error"]["code"] == 404


def test_flat_mode_exposes_real_tools_with_annotations_and_mutates_state():
    server = build_server(TASK, mode="flat")

    async def go():
        async with Client(server) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            out = await client.call_tool("update_ticket", {"ticket_id": "TCK-0013", "priority": "high"})
            invalid = await client.call_tool("update_ticket", {"ticket_id": "TCK-0013", "priority": 7})
            return tools, out, invalid

    tools, out, invalid = run(go())
    assert SUBMIT_TOOL in tools and not set(META_TOOLS) & set(tools)
    assert tools["update_ticket"].annotations.read_only_hint is False
    assert tools["search_tickets"].annotations.read_only_hint is True
    assert tools["update_ticket"].input_schema["required"] == ["ticket_id"]
    assert out.is_error is False
    assert server.world.services["helpdesk"].state.tickets["TCK-0013"].priority == "high"
    assert invalid.is_error is True and "priority" in payload(invalid)["error"]["message"]


def test_listing_flat_tools_builds_no_service():
    server = build_server(LONG, mode="flat")
    assert len(server.episode.tool_entries) > 10
    assert not any(server.world.is_built(n) for n in server.world.classes)


@pytest.mark.parametrize("mode", ["meta", "flat"])
def test_prompt_and_resources_carry_the_task(mode):
    server = build_server(TASK, mode=mode)

    async def go():
        async with Client(server) as client:
            prompts = (await client.list_prompts()).prompts
            prompt = await client.get_prompt("task")
            resources = (await client.list_resources()).resources
            instruction = await client.read_resource(instruction_uri(TASK))
            system = await client.read_resource(system_uri(TASK))
            with pytest.raises(MCPError, match="unknown prompt"):
                await client.get_prompt("nope")
            with pytest.raises(MCPError, match="unknown resource"):
                await client.read_resource("compoworld://task/other/instruction")
            return client.instructions, prompts, prompt, resources, instruction, system

    instructions, prompts, prompt, resources, instruction, system = run(go())
    assert [p.name for p in prompts] == ["task"]
    assert [m.role for m in prompt.messages] == ["user", "user"]
    system_text, user_text = (m.content.text for m in prompt.messages)
    assert user_text == TASK.instruction
    assert system_text.startswith(system_prompt(TASK.today)) and "submit_answer" in system_text
    assert "2026-01-15" in system_text and ("meta-tools are not served" in system_text) == (mode == "flat")
    assert {r.uri: r.mime_type for r in resources} == {
        "compoworld://task/builtin-chargeback/instruction": "text/plain",
        "compoworld://task/builtin-chargeback/system": "text/plain"}
    assert [c.text for c in instruction.contents] == [TASK.instruction]
    assert instruction.contents[0].mime_type == "text/plain"
    assert system.contents[0].text == system_text == instructions


@pytest.mark.parametrize("mode", ["meta", "flat"])
@pytest.mark.parametrize("task", [TASK, LONG], ids=lambda t: t.id)
def test_replaying_the_reference_then_submitting_scores_one(task, mode):
    server = build_server(task, mode=mode)
    late_call = (("call_tool", {"tool_name": "search_tickets", "arguments": {"query": "x"}}) if mode == "meta"
                 else ("search_tickets", {"query": "x"}))

    async def go():
        async with Client(server) as client:
            await replay_reference(client, task, mode)
            done = await client.call_tool(SUBMIT_TOOL, {"answer": task.reference_answer})
            after = await client.call_tool(*late_call)
            again = await client.call_tool(SUBMIT_TOOL, {"answer": task.reference_answer})
            return done, after, again

    done, after, again = run(go())
    assert done.is_error is False
    data = payload(done)["data"]
    assert data["reward"] == 1.0 and data["passed"] is True
    assert len(data["rubric"]) == len(task.checks)
    assert {r["id"] for r in data["rubric"]} == {c.id for c in task.checks}
    assert all(r["passed"] is True and set(r) == {"id", "kind", "passed", "guard", "description"}
               for r in data["rubric"])
    assert done.structured_content == payload(done)
    for late in (after, again):
        assert late.is_error is True and payload(late)["success"] is False
        error = payload(late)["error"]
        assert error["code"] == 409 and "episode has ended" in error["message"]
    assert server.episode.result == data


def test_a_wrong_answer_on_a_fresh_server_scores_below_one():
    server = build_server(TASK, mode="meta")

    async def go():
        async with Client(server) as client:
            await replay_reference(client, TASK, "meta")
            return await client.call_tool(SUBMIT_TOOL, {"answer": "I could not find anything."})

    data = payload(run(go()))["data"]
    assert data["reward"] < 1.0 and data["passed"] is False
    failed = [r["id"] for r in data["rubric"] if not r["passed"]]
    assert failed and all(r["kind"] for r in data["rubric"])


def test_doing_nothing_scores_zero_and_bad_submissions_keep_the_episode_open():
    server = build_server(TASK, mode="flat")

    async def go():
        async with Client(server) as client:
            missing = await client.call_tool(SUBMIT_TOOL, {})
            typed = await client.call_tool(SUBMIT_TOOL, {"answer": 3})
            extra = await client.call_tool(SUBMIT_TOOL, {"answer": "done", "note": "x"})
            still = await client.call_tool("search_tickets", {"query": "chargeback"})
            done = await client.call_tool(SUBMIT_TOOL, {"answer": "done"})
            return missing, typed, extra, still, done

    missing, typed, extra, still, done = run(go())
    assert [payload(r)["error"]["code"] for r in (missing, typed, extra)] == [400, 400, 400]
    assert "'answer'" in payload(missing)["error"]["message"]
    assert "'note'" in payload(extra)["error"]["message"]
    assert still.is_error is False and server.episode.result is not None
    assert payload(done)["data"]["reward"] == 0.0 and payload(done)["data"]["passed"] is False


def test_bad_mode():
    with pytest.raises(ValueError, match="mode"):
        build_server(TASK, mode="both")


def test_compoworld_serve_over_stdio_is_a_whole_episode():
    """The real CLI as a subprocess, spoken to by the SDK's stdio client: read the task, solve it, submit."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "compoworld_gym.cli", "serve",
                                                                 "--task", TASK.id, "--mode", "flat"])

    async def go():
        async with Client(stdio_client(params)) as client:  # mcp 2.0 takes only a transport
            tools = [t.name for t in (await client.list_tools()).tools]
            prompt = await client.get_prompt("task")
            instruction = await client.read_resource(instruction_uri(TASK))
            found = await client.call_tool("search_tickets", {"query": "chargeback"})
            await replay_reference(client, TASK, "flat")
            done = await client.call_tool(SUBMIT_TOOL, {"answer": TASK.reference_answer})
            after = await client.call_tool("search_tickets", {"query": "chargeback"})
            return tools, prompt, instruction, found, done, after

    tools, prompt, instruction, found, done, after = run(go())
    assert {"search_tickets", "get_article", SUBMIT_TOOL} <= set(tools)
    assert prompt.messages[1].content.text == TASK.instruction
    assert instruction.contents[0].text == TASK.instruction
    assert payload(found)["data"][0]["subject"] == "Chargeback notice from card issuer"
    assert payload(done)["data"]["reward"] == 1.0 and payload(done)["data"]["passed"] is True
    assert after.is_error is True and payload(after)["error"]["code"] == 409
