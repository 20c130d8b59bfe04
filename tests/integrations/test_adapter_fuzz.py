"""Hypothesis fuzzing of the adapters' surfaces: TRL's tool env and SkyRL's text env.

Whatever a model sends through an adapter (any meta-tool, any argument of any
type, any text), the adapter answers with a structured result and never
raises; a failed call leaves the world exactly as it was; the episode ends
within its step limit and, once ended, refuses every further call with a 409.
"""

from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compoworld_gym.baselines.trl_env import CompoWorldToolEnv
from compoworld_gym.builtin_tasks import builtin_tasks

TASK_IDS = [t.id for t in builtin_tasks()]
MAX_STEPS = 6
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                derandomize=True)

#: Values a model might put anywhere: the right type, the wrong type, or junk.
junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30)
    | st.sampled_from(["helpdesk", "search_tickets", "TCK-0013", "list_tickets", "gmail"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6)
METHODS = ["list_services", "list_tools", "describe_tool", "call_tool", "answer"]
calls = st.lists(st.tuples(st.sampled_from(METHODS), st.dictionaries(
    st.sampled_from(["service", "tool", "tool_name", "arguments", "text", "colour"]), junk, max_size=3)),
    min_size=1, max_size=MAX_STEPS + 3)


@pytest.fixture(scope="module")
def trl_env():
    return CompoWorldToolEnv(max_steps=MAX_STEPS)


@FUZZ
@given(task_id=st.sampled_from(TASK_IDS), script=calls)
def test_trl_tool_env_answers_anything_and_ends_within_its_limit(trl_env, task_id, script):
    env = trl_env
    env.reset(task_id=task_id)
    made = 0  # calls that reached the env (each is one step)
    for method, kwargs in script:
        world = env._env.world
        before = world.states()
        try:
            out = getattr(env, method)(**kwargs)
        except TypeError:  # a Python-level call with unknown keywords: TRL never makes one
            continue
        made += 1
        result = orjson.loads(out)
        assert isinstance(result, (dict, list))
        failed = isinstance(result, dict) and result.get("success") is False
        if failed:
            assert result["error"]["code"] in (400, 404, 409, 422), result
            assert world.states() == before  # a failed call changes nothing
        if env.ended:
            assert 0.0 <= env.score <= 1.0
    assert env.ended or made < MAX_STEPS
    if env.ended:
        refused = orjson.loads(env.list_services())
        assert refused["error"]["code"] == 409


texts = st.one_of(
    st.text(max_size=200),
    st.text(st.characters(categories=["Cs", "L"]), max_size=20),  # lone surrogates too: broken decodes
    st.builds(lambda body: f"<tool_call>{body}</tool_call>", st.text(max_size=80)),
    st.builds(lambda name, args: "<tool_call>" + json.dumps({"name": name, "arguments": args})
              + "</tool_call>", st.sampled_from(METHODS + ["teleport"]), junk),
)


@FUZZ
@given(task_id=st.sampled_from(TASK_IDS), turns=st.lists(texts, min_size=1, max_size=MAX_STEPS + 2))
def test_skyrl_text_env_steps_any_text(task_id, turns):
    pytest.importorskip("skyrl_gym")
    from compoworld_gym.integrations.skyrl import CompoWorldTextEnv

    env = CompoWorldTextEnv(env_config={"max_steps": MAX_STEPS}, extras={"task_id": task_id})
    env.init([])
    done = False
    for n, text in enumerate(turns, start=1):
        out = env.step(text)
        assert isinstance(out["observations"], list) and 0.0 <= out["reward"] <= 1.0
        if out["done"]:
            done = True
            assert "rubric_score" in out["metadata"] and n <= MAX_STEPS
            break
        assert out["reward"] == 0.0
    assert done or len(turns) < MAX_STEPS
