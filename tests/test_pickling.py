"""Envs ship to worker processes: pickling at any point, and a fresh process's ``gym.make``.

Before the fix, ``pickle.dumps`` of a reset env raised ``AttributeError: Can't
pickle local object '_spec_from_method.<locals>.validate'`` (tool validators
are closures over models built at import): a Ray or multiprocessing worker could
only be given an env before its first ``reset``.
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import gymnasium as gym
import pytest

import compoworld_gym  # noqa: F401  (registers the env ids)
from compoworld_gym.builtin_tasks import builtin_tasks
from compoworld_gym.envs.compoworld_env import CompoWorldEnv
from compoworld_gym.wrappers import ChatFormat, FlatTools, RubricReward

TASKS = builtin_tasks()


def _finish(env, task, calls):
    """Play ``calls`` then the reference answer; every observation and the last step."""
    trace = [env.step(c.action())[0] for c in calls]
    last = env.step(json.dumps({"final_answer": task.reference_answer}))
    return trace, last[0], last[1], last[2], last[4]["rubric"]


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_an_env_pickled_mid_episode_finishes_like_the_original(task):
    env = CompoWorldEnv()
    env.reset(seed=5, options={"task": task.id})
    half = len(task.reference) // 2
    for c in task.reference[:half]:
        env.step(c.action())
    copy = pickle.loads(pickle.dumps(env))
    original = _finish(env, task, task.reference[half:])
    shipped = _finish(copy, task, task.reference[half:])
    assert shipped == original
    assert shipped[2] == 1.0  # the reference still scores 1.0 after the trip


def test_the_copy_is_independent_of_the_original():
    task = next(t for t in TASKS if t.id == "builtin-chargeback")
    env = CompoWorldEnv()
    env.reset(seed=0, options={"task": task.id})
    copy = pickle.loads(pickle.dumps(env))
    for c in task.reference:
        copy.step(c.action())
    untouched = CompoWorldEnv()
    untouched.reset(seed=0, options={"task": task.id})
    answer = json.dumps({"final_answer": task.reference_answer})
    # The copy did all the writes; the original did none: it scores as an env nobody touched.
    assert env.step(answer)[1] == untouched.step(answer)[1] < 1.0
    assert copy.step(answer)[1] == 1.0


@pytest.mark.parametrize("wrap", [lambda e: e, RubricReward, ChatFormat, FlatTools],
                         ids=["plain", "RubricReward", "ChatFormat", "FlatTools"])
def test_wrapped_gym_make_envs_pickle_after_reset(wrap):
    env = wrap(gym.make("CompoWorld-v0"))
    first = env.reset(seed=3)[0]
    copy = pickle.loads(pickle.dumps(env))
    assert copy.reset(seed=3)[0] == first


def test_a_fresh_process_makes_the_env_by_module_qualified_id():
    code = ("import gymnasium as gym; env = gym.make('compoworld_gym:CompoWorld-v0'); "
            "obs, info = env.reset(seed=0); print(info['task_id'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().startswith("builtin-")


def test_every_service_pickles_with_its_state():
    import datetime as dt

    from compoworld_gym.catalog import get_service, service_names

    import sys

    for name in service_names():
        cls = get_service(name)
        if getattr(sys.modules[cls.__module__], cls.__qualname__, None) is not cls:
            continue  # a class made at run time (the MCP importer's, other tests'): needs cloudpickle
        service = cls.seeded(0, dt.date(2026, 1, 15))
        copy = pickle.loads(pickle.dumps(service))
        assert copy.state == service.state, name


def test_a_pickled_database_rebuilds_its_engine_and_is_separate():
    import datetime as dt

    from compoworld_gym.catalog import get_service

    db = get_service("database").seeded(0, dt.date(2026, 1, 15))
    count = {"sql": "select count(*) as n from customers"}
    assert db.call("query", count)["data"]["rows"] == [{"n": 10}]  # the engine exists before the trip
    copy = pickle.loads(pickle.dumps(db))
    assert copy.call("execute", {"sql": "delete from customers where tier = 'gold'"})["success"]
    assert copy.call("query", count)["data"]["rows"] == [{"n": 7}]
    assert db.call("query", count)["data"]["rows"] == [{"n": 10}]


def test_a_recorder_pickles_and_its_copy_appends_to_the_same_file(tmp_path):
    from compoworld_gym.wrappers import RecordTrajectory

    path = tmp_path / "t.jsonl"
    env = RecordTrajectory(gym.make("CompoWorld-v0"), path)
    env.reset(seed=0)
    env.step(json.dumps({"final_answer": "done"}))
    env.reset(seed=1)
    copy = pickle.loads(pickle.dumps(env))  # before: TypeError: cannot pickle '_io.TextIOWrapper'
    copy.step(json.dumps({"final_answer": "done"}))
    copy.close()
    env.close()
    assert len(path.read_text().splitlines()) == 2


def test_a_recorder_into_a_callers_stream_says_why_it_cannot_be_pickled():
    import io

    from compoworld_gym.wrappers import RecordTrajectory

    env = RecordTrajectory(gym.make("CompoWorld-v0"), io.StringIO())
    with pytest.raises(TypeError, match="give it a file path"):
        pickle.dumps(env)
