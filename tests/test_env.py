"""CompoWorldEnv: Gymnasium contract, determinism, isolation, honesty."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import compoworld_gym  # noqa: F401  (registers the env ids)
from compoworld_gym.builtin_tasks import builtin_tasks
from compoworld_gym.envs.compoworld_env import CompoWorldEnv

TASKS = builtin_tasks()


def run_reference(env, task, seed=0):
    obs, info = env.reset(seed=seed, options={"task": task.id})
    trace = [obs]
    for step in task.reference:
        obs, reward, terminated, truncated, info = env.step(step.action())
        trace.append(obs)
        assert reward == 0.0 and not terminated and not truncated
    obs, reward, terminated, truncated, info = env.step(json.dumps({"final_answer": task.reference_answer}))
    trace.append(obs)
    return trace, reward, terminated, info


def test_make_without_arguments_and_check_env():
    env = gym.make("CompoWorld-v0")
    check_env(env.unwrapped)
    obs, info = env.reset(seed=0)
    prompt = json.loads(obs)
    assert [m["role"] for m in prompt["messages"]] == ["system", "user"]
    assert "Today's date is 2026-01-15." in prompt["messages"][0]["content"]
    assert [t["function"]["name"] for t in prompt["tools"]] == [
        "list_services", "list_tools", "describe_tool", "call_tool"]
    assert info["task_id"] in {t.id for t in TASKS}


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_reference_scores_one_through_the_env(task):
    _, reward, terminated, info = run_reference(CompoWorldEnv(), task)
    assert terminated and reward == 1.0 and info["rubric_score"] == 1.0
    assert all(r["passed"] for r in info["rubric"])


def test_determinism_same_seed_same_actions_same_bytes():
    task = TASKS[0]
    a_env, b_env = CompoWorldEnv(), CompoWorldEnv()
    a = run_reference(a_env, task)
    b = run_reference(b_env, task)
    assert a == b
    assert a_env.unwrapped.world.states() == b_env.unwrapped.world.states()


def test_nothing_survives_reset():
    env = CompoWorldEnv()
    task = TASKS[0]
    env.reset(seed=3, options={"task": task.id})
    fresh = env.world.states()
    run_reference(env, task, seed=3)
    assert env.world.states() != fresh
    env.reset(seed=3, options={"task": task.id})
    assert env.world.states() == fresh and env.world.call_log == []


def test_malformed_actions_are_error_observations():
    env = CompoWorldEnv()
    env.reset(seed=0)
    for action in ["{", "[]", '{"name": 5}', '{"name": "call_tool", "arguments": {"tool_name": "nope"}}', "x" * 70000]:
        obs, reward, terminated, truncated, info = env.step(action)
        body = json.loads(obs)
        assert body["success"] is False and body["error"]["code"] in (400, 404)
        assert not terminated


def test_truncation_scores_the_final_state():
    env = CompoWorldEnv(max_steps=2)
    env.reset(seed=0, options={"task": 0})
    assert env.step('{"name": "list_services"}')[3] is False
    obs, reward, terminated, truncated, info = env.step('{"name": "list_services"}')
    assert truncated and not terminated and info["final_answer"] is None
    assert reward == info["rubric_score"] < 1.0
    assert not any(r["passed"] for r in info["rubric"] if r["kind"] in ("record_exists", "answer_contains"))
    obs, reward, terminated, *_ = env.step('{"name": "list_services"}')
    assert json.loads(obs)["error"]["code"] == 409 and terminated


def test_info_is_fresh_and_deterministic():
    env = CompoWorldEnv()
    _, i1 = env.reset(seed=1)
    _, i2 = env.reset(seed=1)
    assert i1 == i2 and i1 is not i2


def test_several_calls_in_one_step_return_a_list():
    env = CompoWorldEnv()
    env.reset(seed=0, options={"task": 0})
    obs, *_, info = env.step('[{"name": "list_services"}, {"name": "list_tools", "arguments": {"service": "helpdesk"}}]')
    body = json.loads(obs)
    assert isinstance(body, list) and len(body) == 2 and "services" in body[0]
    assert info["n_tool_calls"] == 2


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_no_check_or_reference_is_observable(task):
    """Walk every discovery meta-tool; nothing of the rubric or reference appears."""
    env = CompoWorldEnv(max_steps=100_000)
    obs, _ = env.reset(seed=0, options={"task": task.id})
    seen = [obs]
    services = json.loads(env.step('{"name": "list_services"}')[0])["services"]
    for s in services:
        tools = json.loads(env.step(json.dumps({"name": "list_tools", "arguments": {"service": s}}))[0])
        seen.append(json.dumps(tools))
        for t in tools["tools"]:
            seen.append(env.step(json.dumps({"name": "describe_tool", "arguments": {"tool": t["name"]}}))[0])
    text = "\n".join(seen)
    for check in task.checks:
        if check.description:
            assert check.description not in text
    if task.reference_answer:
        assert task.reference_answer not in text
    for key in ('"checks"', '"rubric"', '"reference"'):
        assert key not in text


def test_render_ansi_transcript():
    env = CompoWorldEnv(render_mode="ansi")
    env.reset(seed=0, options={"task": 0})
    env.step('{"name": "list_services"}')
    text = env.render()
    assert text.startswith("[system] ") and '[agent] {"name": "list_services"}' in text
    assert CompoWorldEnv().render() is None
    with pytest.raises(ValueError, match="render_mode"):
        CompoWorldEnv(render_mode="human")


def test_bad_constructor_arguments():
    with pytest.raises(ValueError, match="max_steps"):
        CompoWorldEnv(max_steps=0)
    with pytest.raises(ValueError, match="unknown task"):
        CompoWorldEnv(task="no-such-task")
    with pytest.raises(RuntimeError, match="reset"):
        CompoWorldEnv().step("{}")


def test_oversized_results_are_withheld_but_writes_stay_applied(monkeypatch):
    import compoworld_gym.envs.compoworld_env as mod

    monkeypatch.setattr(mod, "MAX_OBSERVATION_CHARS", 3000)
    env = CompoWorldEnv(max_steps=100)
    env.reset(seed=0, options={"task": "builtin-chargeback"})
    write = {"name": "call_tool", "arguments": {"tool_name": "update_ticket",
                                                "arguments": {"ticket_id": "TCK-0001", "priority": "high"}}}
    read = {"name": "call_tool", "arguments": {"tool_name": "search_tickets", "arguments": {}}}
    obs, *_ = env.step(json.dumps([write, read, read]))
    body = json.loads(obs)
    assert body[0]["success"] is True and body[0]["data"]["priority"] == "high"
    assert body[1] == {"success": True, "data": None, "truncated": True, "message": body[1]["message"]}
    assert "too large" in body[1]["message"]
    assert env.world.services["helpdesk"].state.tickets["TCK-0001"].priority == "high"
