"""Meta-tools over a world: discovery, name collisions, the call log."""

from __future__ import annotations

import pytest

import datetime as dt

from pydantic import Field

from compoworld_gym.envs.services.helpdesk import Helpdesk
from compoworld_gym.metatools import dispatch, meta_tool_definitions
from compoworld_gym.service import Service, ServiceState, tool
from compoworld_gym.world import World

TODAY = dt.date(2026, 1, 15)


class Other(Service):
    name = "other_desk"
    description = "Another desk with a clashing tool name."
    domain = "test"
    State = ServiceState

    @tool(read_only=True)
    def get_ticket(self, ticket_id: str = Field(min_length=1)) -> dict:
        """Get a ticket from the other desk.

        Args:
            ticket_id: any id.
        """
        return {"other": ticket_id}


def world() -> World:
    return World([Other(today=TODAY), Helpdesk.seeded(0, TODAY)])


def test_meta_tool_definitions_are_openai_functions():
    defs = meta_tool_definitions()
    assert [d["function"]["name"] for d in defs] == ["list_services", "list_tools", "describe_tool", "call_tool"]
    # As in the paper's published trajectories: only tool_name is required.
    assert defs[3]["function"]["parameters"]["required"] == ["tool_name"]
    assert defs[3]["function"]["parameters"]["properties"]["arguments"]["type"] == "object"


@pytest.mark.parametrize("definition", meta_tool_definitions(), ids=lambda d: d["function"]["name"])
def test_dispatch_accepts_exactly_what_the_definition_declares(definition):
    """The definitions and the 400s derive from one signature: they cannot disagree.

    Before, the schema required call_tool's 'arguments' while dispatch ran a
    call without it."""
    w = world()
    name, params = definition["function"]["name"], definition["function"]["parameters"]
    value = {"string": "helpdesk", "object": {}}
    minimal = {k: value[params["properties"][k]["type"]] for k in params["required"]}
    full = {k: value[p["type"]] for k, p in params["properties"].items()}
    for args in (minimal, full):
        result = dispatch(w, name, args)
        assert result.get("error", {}).get("code") != 400, (args, result)
    for missing in params["required"]:
        result = dispatch(w, name, {k: v for k, v in full.items() if k != missing})
        assert result["error"] == {"code": 400, "message": result["error"]["message"]}
        assert f"missing required argument '{missing}'" in result["error"]["message"]
    extra = dispatch(w, name, {**full, "colour": "red"})
    assert extra["error"]["code"] == 400 and "unexpected argument 'colour'" in extra["error"]["message"]


def test_list_services_sorted_and_list_tools_without_schemas():
    w = world()
    assert w.list_services() == {"services": ["helpdesk", "other_desk"]}  # bare names, as in the paper
    tools = w.list_tools("helpdesk")
    assert tools["service"] == "helpdesk"
    assert set(tools["tools"][0]) == {"name", "description"}
    assert w.list_tools("nope")["error"]["code"] == 404


def test_clashing_names_are_qualified():
    w = world()
    names = {t["name"] for t in w.list_tools("helpdesk")["tools"]}
    assert "helpdesk__get_ticket" in names and "search_tickets" in names and "get_ticket" not in names
    assert w.call_tool("get_ticket", {"ticket_id": "TCK-0001"})["error"]["code"] == 404
    assert w.call_tool("other_desk__get_ticket", {"ticket_id": "X"}) == {"success": True, "data": {"other": "X"}}
    assert w.describe_tool("helpdesk__get_ticket")["parameters"]["required"] == ["ticket_id"]


def test_call_log_records_real_calls_only():
    w = world()
    dispatch(w, "list_services", {})
    dispatch(w, "call_tool", {"tool_name": "search_tickets", "arguments": {"status": "open"}})
    dispatch(w, "call_tool", {"tool_name": "update_ticket", "arguments": '{"ticket_id": "TCK-9999", "status": "open"}'})
    dispatch(w, "call_tool", {"tool_name": "no_such_tool", "arguments": {}})
    assert [(e["tool"], e["success"], e["code"]) for e in w.call_log] == [
        ("search_tickets", True, None), ("update_ticket", False, 404)]


def test_meta_tool_argument_errors():
    w = world()
    assert dispatch(w, "list_tools", {})["error"]["message"] == (
        "list_tools: missing required argument 'service' (a string).")
    assert dispatch(w, "list_tools", {"service": 7})["error"]["message"].startswith(
        "list_tools: invalid argument 'service'")
    assert dispatch(w, "teleport", {})["error"]["code"] == 404
    assert dispatch(w, "list_services", {"x": 1})["error"]["code"] == 400
    assert dispatch(w, "call_tool", {"tool_name": "search_tickets", "arguments": "{bad"})["error"]["code"] == 400
