"""The ``environment_factory`` adapter for TRL's own tool loop."""

from __future__ import annotations

import inspect

import orjson
import pytest

from compoworld_gym.baselines.trl_env import CompoWorldToolEnv, make_environment_factory, record_final_answers


def test_public_methods_are_exactly_the_four_meta_tools():
    public = [n for n, _ in inspect.getmembers(CompoWorldToolEnv, predicate=inspect.isfunction)
              if not n.startswith("_") and n not in ("reset", "get_reward")]
    assert public == ["call_tool", "describe_tool", "list_services", "list_tools"]


def test_methods_have_tool_schemas():
    pytest.importorskip("transformers")
    from transformers.utils import get_json_schema

    schema = get_json_schema(CompoWorldToolEnv.call_tool)["function"]
    assert schema["name"] == "call_tool" and schema["parameters"]["required"] == ["tool_name", "arguments"]
    assert schema["parameters"]["properties"]["arguments"]["type"] == "object"


def test_reference_calls_then_final_answer_score_one_and_reset_clears(easy_tasks):
    task = easy_tasks[0]
    env = make_environment_factory(easy_tasks, max_steps=20)()
    assert env.reset(task_id=task.id, prompt=[]) is None
    assert "services" in orjson.loads(env.list_services())
    for call in task.reference:
        action = orjson.loads(call.action())
        if action["name"] == "call_tool":
            assert orjson.loads(env.call_tool(**action["arguments"]))["success"] is True
    record_final_answers([[{"role": "assistant", "content": task.reference_answer}]], [env])
    assert env.get_reward() == 1.0
    env.reset(task_id=task.id)
    assert env.get_reward() == 0.0  # fresh episode: nothing done, no answer


def test_step_limit_and_bad_rows(easy_tasks):
    env = CompoWorldToolEnv(easy_tasks, max_steps=1)
    with pytest.raises(ValueError, match="task_id"):
        env.reset(prompt=[])
    env.reset(task_id=easy_tasks[0].id)
    env.list_services()
    assert orjson.loads(env.list_services())["error"]["code"] == 409
    with pytest.raises(ValueError, match="at least one task"):
        make_environment_factory([])
