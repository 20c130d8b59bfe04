"""Bounded inputs: oversized and deep actions, bad unicode, malformed task files, dying vector workers."""

from __future__ import annotations

import multiprocessing
import os
import time
import tracemalloc

import gymnasium as gym
import numpy as np
import orjson
import pytest
from gymnasium.vector import AsyncVectorEnv

import compoworld_gym  # noqa: F401 - registers CompoWorld-v0
from compoworld_gym.actions import MAX_ACTION_CHARS, MAX_DEPTH, parse_action
from compoworld_gym.tasks import TaskFileError, load_tasks


@pytest.fixture
def env():
    e = gym.make("CompoWorld-v0")
    e.reset(seed=0)
    yield e
    e.close()


def _error(obs: str) -> dict:
    result = orjson.loads(obs)
    assert result["success"] is False
    return result["error"]


def test_an_action_over_the_length_limit_is_a_400_without_parsing(env):
    action = '{"final_answer": "' + "x" * MAX_ACTION_CHARS + '"}'
    obs, reward, terminated, truncated, _ = env.step(action)
    error = _error(obs)
    assert error["code"] == 400
    assert str(MAX_ACTION_CHARS) in error["message"] and str(len(action)) in error["message"]
    assert (reward, terminated, truncated) == (0.0, False, False)


def test_a_huge_action_costs_no_memory_spike():
    action = "[" * 5_000_000  # 5 MB: rejected on length before any parsing
    tracemalloc.start()
    try:
        result = parse_action(action)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.error["error"]["code"] == 400
    assert peak < 100_000  # bytes: no copy of the action, no parse tree


def test_an_action_at_the_length_limit_is_parsed(env):
    filler = "y" * (MAX_ACTION_CHARS - len('{"final_answer": ""}'))
    obs, _, terminated, _, _ = env.step('{"final_answer": "' + filler + '"}')
    assert terminated is True
    assert orjson.loads(obs) == {"final_answer": filler}


@pytest.mark.parametrize("depth, code", [(MAX_DEPTH, 404), (MAX_DEPTH + 1, 400), (10_000, 400)])
def test_nesting_deeper_than_the_limit_is_a_400(env, depth, code):
    # The call object, its "arguments" object and the tool's arguments object are the first three levels.
    inner = depth - 3
    action = ('{"name": "call_tool", "arguments": {"tool_name": "x", "arguments": {"k": '
              + "[" * inner + "]" * inner + "}}}")
    error = _error(env.step(action)[0])
    assert error["code"] == code  # 404: parsed, and tool "x" is unknown
    if code == 400:
        assert f"deeper than {MAX_DEPTH}" in error["message"] or "not valid JSON" in error["message"]


def test_deep_nesting_in_an_array_is_a_400(env):
    error = _error(env.step("[" * 30_000 + "]" * 30_000)[0])  # within the length limit
    assert error["code"] == 400
    assert "deeper" in error["message"] or "not valid JSON" in error["message"]


@pytest.mark.parametrize("action", ["\ud800", "hello \udfff world", '{"final_answer": "a"}\ud83d',
                                    '{"name": "list_tools", "arguments": {"service": "\ud800"}}'])
def test_lone_surrogates_are_a_400_not_an_exception(env, action):
    # regression: a plain-text final answer with a lone surrogate crashed step() in orjson.dumps
    obs, _, terminated, _, _ = env.step(action)
    error = _error(obs)
    assert error["code"] == 400 and "surrogate" in error["message"]
    assert terminated is False


def test_valid_unicode_answers_still_terminate(env):
    obs, _, terminated, _, _ = env.step("Réponse: 漢字 🙂 \u200b done")
    assert terminated is True
    assert orjson.loads(obs) == {"final_answer": "Réponse: 漢字 🙂 \u200b done"}


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e309"])
def test_non_finite_numbers_are_invalid_json(env, literal):
    action = '{"name": "call_tool", "arguments": {"tool_name": "search_tickets", "arguments": {"limit": %s}}}'
    error = _error(env.step(action % literal)[0])
    assert error["code"] == 400 and "not valid JSON" in error["message"]


# ------------------------------------------------------------------ task files
def test_a_malformed_task_file_names_the_file_and_line(tmp_path):
    from compoworld_gym.builtin_tasks import builtin_tasks

    first, second = (t.to_json() for t in builtin_tasks()[:2])  # two ids: a repeated id is its own error
    path = tmp_path / "tasks.jsonl"
    path.write_text(first + "\n\n" + second + "\n" + '{"id": "broken", "services": [' + "\n")
    with pytest.raises(TaskFileError) as info:
        load_tasks(path)
    assert f"{path}:4" in str(info.value) and "not valid JSON" in str(info.value)


def test_a_task_line_of_the_wrong_shape_names_the_field(tmp_path):
    path = tmp_path / "tasks.jsonl"
    path.write_text('{"id": "t1", "services": [], "today": "2026-01-15", "instruction": "x", "checks": []}\n')
    with pytest.raises(TaskFileError) as info:
        load_tasks(path)
    assert f"{path}:1" in str(info.value) and "services" in str(info.value)


def test_the_env_reports_a_malformed_task_file(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text("not json at all\n")
    with pytest.raises(TaskFileError, match=r"bad\.jsonl:1"):
        gym.make("CompoWorld-v0", task_file=str(path))


# ------------------------------------------------------------- vector workers
class DyingEnv(gym.Env):
    """Kills its own worker process on action 1; hangs on action 2."""

    observation_space = gym.spaces.Discrete(2)
    action_space = gym.spaces.Discrete(3)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        return 0, {}

    def step(self, action):
        if action == 1:
            os._exit(3)
        if action == 2:
            time.sleep(60)
        return 0, 0.0, False, False, {}


def _vector(n: int = 2) -> AsyncVectorEnv:
    return AsyncVectorEnv([DyingEnv] * n, shared_memory=False, context="fork")


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")
def test_a_dead_worker_raises_promptly_instead_of_hanging():
    # gymnasium 1.4: the parent's recv() sees EOF when the worker's pipe closes and
    # raises EOFError; the timeout bounds the wait in case that ever changes.
    venv = _vector()
    try:
        venv.reset(seed=0)
        start = time.monotonic()
        venv.step_async(np.array([0, 1]))
        with pytest.raises((EOFError, BrokenPipeError, ConnectionResetError)):
            venv.step_wait(timeout=20)
        assert time.monotonic() - start < 10
        assert venv.processes[1].join(5) is None and venv.processes[1].exitcode == 3
    finally:
        venv.close(terminate=True)


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")
def test_a_killed_worker_raises_on_the_next_step():
    venv = AsyncVectorEnv([lambda: gym.make("CompoWorld-v0")] * 2, shared_memory=False, context="fork")
    try:
        venv.reset(seed=0)
        venv.processes[0].kill()
        venv.processes[0].join(5)
        with pytest.raises((EOFError, BrokenPipeError, ConnectionResetError)):
            venv.step_async(['{"name": "list_services"}'] * 2)
            venv.step_wait(timeout=20)
    finally:
        venv.close(terminate=True)


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")
def test_a_hung_worker_times_out_with_step_wait_timeout():
    venv = _vector()
    try:
        venv.reset(seed=0)
        venv.step_async(np.array([0, 2]))
        start = time.monotonic()
        with pytest.raises(multiprocessing.TimeoutError):
            venv.step_wait(timeout=0.5)
        assert time.monotonic() - start < 5
    finally:
        venv.close(terminate=True)
