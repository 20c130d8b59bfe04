"""Env ids: the default id and one id per generated composition."""

from __future__ import annotations

import gymnasium as gym
from gymnasium.utils.env_checker import check_env

import compoworld_gym  # noqa: F401
from compoworld_gym.envs.registration import register_compositions, register_many
from compoworld_gym.generation import generate_tasks
from compoworld_gym.tasks import save_tasks


def test_register_compositions_makes_one_id_per_composition(tmp_path):
    tasks = generate_tasks(4, seed=3)
    path = tmp_path / "gen.jsonl"
    save_tasks(tasks, path)
    ids = register_compositions(str(path))
    slugs = sorted({f"CompoWorld/{t.composition['slug']}-v0" for t in tasks})
    assert ids == slugs
    env = gym.make(ids[0])
    obs, info = env.reset(seed=0)
    task = next(t for t in tasks if f"CompoWorld/{t.composition['slug']}-v0" == ids[0])
    assert info["task_id"] == task.id
    check_env(env.unwrapped)


def test_register_many_is_idempotent_and_bulk():
    pairs = [(f"CompoWorldTest/bulk{i}-v0", {"max_steps": 5}) for i in range(2000)]
    assert register_many(pairs) == 2000
    assert register_many(pairs) == 0
    assert gym.spec("CompoWorldTest/bulk1999-v0").kwargs == {"max_steps": 5}
