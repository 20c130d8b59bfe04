"""ChatFormat: message-list observations, raw model text actions."""

from __future__ import annotations

import orjson
import pytest
from gymnasium.utils.env_checker import check_env

from compoworld_gym.wrappers import ChatFormat, FlatTools, MessageList


def hermes(name, arguments):
    return f"<tool_call>{orjson.dumps({'name': name, 'arguments': arguments}).decode()}</tool_call>"


GET_13 = hermes("call_tool", {"tool_name": "get_ticket", "arguments": {"ticket_id": "TCK-0013"}})


def test_reset_gives_system_and_user(make_env):
    env = ChatFormat(make_env())
    msgs, info = env.reset(seed=0, options={"task": "t-escalate"})
    assert [m["role"] for m in msgs] == ["system", "user"]
    assert "Today's date is 2026-01-15." in msgs[0]["content"]
    assert [t["function"]["name"] for t in info["tools"]] == ["list_services", "list_tools", "describe_tool",
                                                             "call_tool"]
    assert msgs in env.observation_space


def test_call_turn_appends_assistant_and_tool_messages(make_env):
    env = ChatFormat(make_env())
    env.reset(seed=0, options={"task": "t-escalate"})
    msgs, reward, term, trunc, info = env.step("Let me read it.\n" + GET_13)
    assistant, tool = msgs[2], msgs[3]
    assert assistant == {"role": "assistant", "content": "Let me read it.", "tool_calls": [
        {"id": "call_0000", "type": "function", "function": {"name": "call_tool", "arguments": {
            "tool_name": "get_ticket", "arguments": {"ticket_id": "TCK-0013"}}}}]}
    assert (tool["role"], tool["tool_call_id"], tool["name"]) == ("tool", "call_0000", "call_tool")
    result = orjson.loads(tool["content"])
    assert result["success"] is True and result["data"]["priority"] == "normal"
    assert (reward, term, trunc, info["n_real_tool_calls"]) == (0.0, False, False, 1)


def test_several_calls_in_one_turn_and_openai_ids(make_env):
    env = ChatFormat(make_env())
    env.reset(seed=0, options={"task": "t-escalate"})
    env.step(hermes("list_services", {}))
    turn = orjson.dumps({"tool_calls": [
        {"id": "abc", "type": "function", "function": {"name": "list_tools", "arguments": '{"service": "helpdesk"}'}},
        {"id": "abc", "type": "function", "function": {"name": "describe_tool", "arguments": {"tool": "nope"}}}],
    }).decode()
    msgs, *_ = env.step(turn)
    assert [c["id"] for c in msgs[4]["tool_calls"]] == ["abc", "call_0002"]  # duplicate id replaced
    assert [m["tool_call_id"] for m in msgs[5:]] == ["abc", "call_0002"]
    assert orjson.loads(msgs[5]["content"])["service"] == "helpdesk"
    assert orjson.loads(msgs[6]["content"])["error"]["code"] == 404


def test_unparseable_turn_is_an_error_message_and_uses_a_step(make_env):
    env = ChatFormat(make_env(max_steps=2))
    env.reset(seed=0)
    bad = '<tool_call>{"name": "call_tool", "arguments": {</tool_call>'
    msgs, reward, term, trunc, info = env.step(bad)
    assert msgs[2] == {"role": "assistant", "content": bad}
    error = orjson.loads(msgs[3]["content"])
    assert msgs[3]["role"] == "user" and error["error"]["code"] == 400
    assert error["error"]["message"].startswith("could not parse the tool call: tool call 1 is not valid JSON")
    assert (term, trunc, info["steps"], info["n_tool_calls"]) == (False, False, 1, 0)
    _, reward, term, trunc, info = env.step(bad)
    assert (term, trunc) == (False, True) and "rubric" in info


def test_final_answer_ends_episode_with_reward(make_env, acts):
    env = ChatFormat(make_env())
    env.reset(seed=0, options={"task": "t-escalate"})
    env.step(hermes("call_tool", {"tool_name": "update_ticket",
                                  "arguments": {"ticket_id": "TCK-0013", "priority": "urgent"}}))
    msgs, reward, term, trunc, info = env.step("<think>done?</think>Escalated TCK-0013.")
    assert msgs[-1] == {"role": "assistant", "content": "Escalated TCK-0013."}
    assert (reward, term, trunc, info["final_answer"]) == (0.75, True, False, "Escalated TCK-0013.")


def test_arguments_string_inside_call_tool(make_env):
    env = ChatFormat(make_env())
    env.reset(seed=0, options={"task": "t-escalate"})
    msgs, *_ = env.step(hermes("call_tool", {"tool_name": "get_ticket", "arguments": '{"ticket_id": "TCK-0014"}'}))
    assert orjson.loads(msgs[-1]["content"])["data"]["id"] == "TCK-0014"


def test_over_flat_tools(make_env):
    env = ChatFormat(FlatTools(make_env()))
    msgs, info = env.reset(seed=0, options={"task": "t-assign"})
    assert "get_ticket" in [t["function"]["name"] for t in info["tools"]]
    msgs, *_ = env.step('{"name": "get_ticket", "parameters": {"ticket_id": "TCK-0014"}}')  # Llama-3 style
    assert msgs[-1]["name"] == "get_ticket"
    assert orjson.loads(msgs[-1]["content"])["data"]["status"] == "new"


def test_observations_are_fresh_copies(make_env):
    env = ChatFormat(make_env())
    msgs, _ = env.reset(seed=0)
    msgs.append({"role": "user", "content": "tampered"})
    msgs2, *_ = env.step(hermes("list_services", {}))
    assert [m["role"] for m in msgs2] == ["system", "user", "assistant", "tool"]


def test_message_list_space():
    space = MessageList(seed=0)
    assert space.sample() in space and space == MessageList()
    assert not space.contains("text") and not space.contains([{"role": "user", "content": 3}])


def test_check_env(make_env):
    check_env(ChatFormat(make_env()), skip_render_check=True)
    check_env(ChatFormat(FlatTools(make_env())), skip_render_check=True)


@pytest.mark.parametrize("turn", ["final \ud800", '<tool_call>{"name": "list_services", "arguments": {"x": "\udfff"}}</tool_call>'],
                         ids=["answer", "in-a-call"])
def test_a_lone_surrogate_is_a_400_and_the_episode_goes_on(turn):
    """Before, the raw turn was stored in the transcript and every later step raised
    ``TypeError: str is not valid UTF-8`` from the transcript copy."""
    import gymnasium as gym

    import compoworld_gym  # noqa: F401

    env = ChatFormat(gym.make("CompoWorld-v0"))
    env.reset(seed=0)
    messages, reward, terminated, truncated, _ = env.step(turn)
    assert not terminated and reward == 0.0
    assert "lone surrogate" in messages[-1]["content"] and "400" in messages[-1]["content"]
    assert "\ud800" not in messages[-2]["content"] and "\udfff" not in messages[-2]["content"]
    messages, *_ = env.step('<tool_call>{"name": "list_services", "arguments": {}}</tool_call>')
    assert messages[-1]["role"] == "tool" and '"services"' in messages[-1]["content"]
