"""Mounting and scoring a task: the one-off functions and TaskRuntime agree."""

from __future__ import annotations

import orjson
import pydantic
import pytest

from compoworld_gym import episode
from compoworld_gym.builtin_tasks import builtin_tasks
from compoworld_gym.envs.compoworld_env import CompoWorldEnv
from compoworld_gym.episode import TaskRuntime, evaluate, initial_state_json, mount, score
from compoworld_gym.metatools import dispatch

TASKS = builtin_tasks()


def _replay(world, task):
    for step in task.reference:
        assert dispatch(world, step.name, step.arguments).get("success", True) is True, step
    return world


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_runtime_mounts_and_scores_like_the_one_off_functions(task):
    runtime = TaskRuntime(task)
    assert runtime.task is task
    assert runtime.mount().states() == mount(task).states()
    for name in [*task.services, *task.distractors]:
        assert runtime.initial_state_json(name) == initial_state_json(task, name)
    world = _replay(runtime.mount(), task)
    final = world.states(runtime.state_check_services)
    ours = runtime.evaluate(final, task.reference_answer, world.call_log)
    assert ours == evaluate(task, final, task.reference_answer, world.call_log)
    assert score(ours) == 1.0
    idle = runtime.mount()
    assert score(runtime.evaluate(idle.states(), None, idle.call_log)) < 1.0


def test_runtime_normalises_initial_states_once(monkeypatch):
    task = TASKS[0]
    calls = []
    real = episode._normalised
    own = set(task.initial_state)  # seeded distractors are cached by value, not counted here

    def counting(cls, raw, today):
        if cls.name in own:
            calls.append(cls.name)
        return real(cls, raw, today)

    monkeypatch.setattr(episode, "_normalised", counting)
    runtime = TaskRuntime(task)
    assert sorted(calls) == sorted(task.initial_state)
    for _ in range(3):
        world = runtime.mount()
        world.states()  # builds every lazily mounted service
        runtime.evaluate(world.states(runtime.state_check_services), None, world.call_log)
    assert sorted(calls) == sorted(task.initial_state)
    initial_state_json(task, task.services[0])  # the one-off function caches nothing per task
    assert len(calls) == len(task.initial_state) + 1


def test_runtime_rejects_a_broken_initial_state_at_once():
    task = TASKS[0]
    name = next(iter(task.initial_state))
    broken = task.model_copy(update={"initial_state": {**task.initial_state, name: {"nonsense": 1}}})
    with pytest.raises(pydantic.ValidationError):
        TaskRuntime(broken)
    with pytest.raises(TypeError, match="needs a Task"):
        TaskRuntime(task.model_dump())  # type: ignore[arg-type]


def test_env_keeps_one_runtime_per_task_it_serves():
    env = CompoWorldEnv(tasks=TASKS[:2])
    env.reset(options={"task": 0})
    first = env._runtime
    env.reset(options={"task": 1})
    env.reset(options={"task": 0})
    assert env._runtime is first and len(env._runtimes) == 2
    # a changed copy of a task is another task: it gets its own runtime
    other = TASKS[0].model_copy(update={"instruction": "Another instruction."})
    env.reset(options={"task": other})
    assert env._runtime is not first and env._runtime.task is other
    obs, reward, terminated, _, info = env.step('{"final_answer": "done"}')
    assert terminated and reward == info["rubric_score"] and all("guard" in r for r in info["rubric"])


def test_untouched_lazy_service_reads_its_normalised_initial_state():
    task = TASKS[0]
    runtime = TaskRuntime(task)
    world = runtime.mount()
    for name in task.services:
        assert world.states([name])[name] == orjson.loads(runtime.initial_state_json(name))


def test_evaluate_world_matches_evaluate_and_reads_only_touched_services():
    from compoworld_gym.builtin_tasks import builtin_tasks
    from compoworld_gym.metatools import dispatch

    for task in builtin_tasks():
        runtime = TaskRuntime(task)
        idle = runtime.mount()
        assert runtime.evaluate_world(idle, "done") == runtime.evaluate(
            idle.states(runtime.state_check_services), "done", [])
        world = runtime.mount()
        for mc in task.reference:
            dispatch(world, mc.name, mc.arguments)
        expected = runtime.evaluate(world.states(runtime.state_check_services), task.reference_answer,
                                    world.call_log)
        assert runtime.evaluate_world(world, task.reference_answer) == expected
        assert score(expected) == 1.0, task.id
        # A distractor written behind the rubric's back is seen once it is built.
        victim = next(n for n in task.distractors if n in runtime.state_check_services)
        world.services[victim].state.counters["X"] = 1
        assert score(runtime.evaluate_world(world, task.reference_answer)) == 0.5, task.id
