"""FlatTools: the mounted tools as plain function tools."""

from __future__ import annotations

import orjson
from gymnasium.utils.env_checker import check_env

from compoworld_gym.envs.services.helpdesk import Helpdesk
from compoworld_gym.wrappers import FlatTools

# The helpdesk service may grow; the flat list must follow it exactly.
HELPDESK_TOOLS = list(Helpdesk.tools)


def test_reset_offers_every_tool_with_schema(make_env):
    env = FlatTools(make_env())
    obs, info = env.reset(seed=0, options={"task": "t-escalate"})
    prompt = orjson.loads(obs)
    names = [t["function"]["name"] for t in prompt["tools"]]
    assert names == HELPDESK_TOOLS
    assert {"get_ticket", "update_ticket", "add_comment"} <= set(names)
    update = prompt["tools"][names.index("update_ticket")]
    assert update["type"] == "function"
    assert update["function"]["parameters"] == Helpdesk.tools["update_ticket"].input_schema
    system = prompt["messages"][0]["content"]
    assert "Today's date is 2026-01-15." in system and "list_services" not in system
    assert prompt["messages"][1]["content"].startswith("Escalate the overdue ticket")
    assert info["task_id"] == "t-escalate"


def test_calls_map_onto_call_tool(make_env, acts):
    env = FlatTools(make_env())
    env.reset(seed=0, options={"task": "t-escalate"})
    obs, reward, term, _, info = env.step('{"name": "get_ticket", "arguments": {"ticket_id": "TCK-0013"}}')
    assert orjson.loads(obs)["data"]["priority"] == "normal"
    assert (reward, term, info["n_tool_calls"], info["n_real_tool_calls"]) == (0.0, False, 1, 1)
    two = orjson.dumps([
        {"name": "update_ticket", "arguments": {"ticket_id": "TCK-0013", "priority": "urgent"}},
        {"name": "add_comment", "arguments": {"ticket_id": "TCK-0013", "body": "On it.", "public": True}}]).decode()
    obs, *_ = env.step(two)
    results = orjson.loads(obs)
    assert [r["success"] for r in results] == [True, True]
    assert results[0]["data"]["priority"] == "urgent"
    _, reward, term, _, info = env.step("Escalated TCK-0013.")
    assert (reward, term, info["rubric_score"], info["n_real_tool_calls"]) == (1.0, True, 1.0, 3)


def test_unknown_and_meta_tool_names_get_flat_404(make_env):
    env = FlatTools(make_env())
    env.reset(seed=0)
    obs, *_ = env.step('[{"name": "list_services"}, {"name": "get_ticket", "arguments": {"ticket_id": "TCK-0014"}}]')
    bad, good = orjson.loads(obs)
    assert bad == {"success": False, "error": {"code": 404, "message":
                   f"tool 'list_services' not found; call one of the tools listed in the prompt "
                   f"({len(HELPDESK_TOOLS)} available)."}}
    assert good["data"]["subject"] == "Package never arrived"


def test_malformed_action_passes_inner_error(make_env):
    env = FlatTools(make_env())
    env.reset(seed=0)
    obs, reward, term, trunc, info = env.step('{"name": ')
    assert orjson.loads(obs)["error"]["code"] == 400
    assert (reward, term, trunc, info["steps"]) == (0.0, False, False, 1)


def test_check_env(make_env):
    check_env(FlatTools(make_env()), skip_render_check=True)


def test_flat_mode_prompt_keeps_the_grading_rules_and_drops_the_meta_tools():
    """The flat prompt was a second copy that lacked the "do each piece of work
    once" and answer-grading rules the rubric applies in both modes."""
    import gymnasium as gym

    from compoworld_gym.wrappers import FlatTools

    env = FlatTools(gym.make("CompoWorld-v0"))
    system = orjson.loads(env.reset(seed=0)[0])["messages"][0]["content"]
    assert "Today's date is 2026-01-15." in system
    assert "Do each piece of work once" in system and "counts as a wrong answer" in system
    assert "meta-tool" not in system and "list_services" not in system
