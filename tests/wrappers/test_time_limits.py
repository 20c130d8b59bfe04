"""Every way an episode is cut short scores it as the env's own step limit does (issue 14).

Before ``ScoreOnTruncation``, ``gym.make(..., max_episode_steps=N)`` truncated
outside the env and a solved task scored 0.0.
"""

from __future__ import annotations

import gymnasium as gym
import pytest
from gymnasium.wrappers import TimeLimit

import compoworld_gym  # noqa: F401
from compoworld_gym.builtin_tasks import builtin_tasks
from compoworld_gym.envs.compoworld_env import CompoWorldEnv
from compoworld_gym.wrappers import RubricReward, ScoreOnTruncation

TASK = "builtin-chargeback"


def _work(task_id: str = TASK) -> list[str]:
    """The reference's calls (no final answer), then one more harmless step."""
    task = next(t for t in builtin_tasks() if t.id == task_id)
    return [mc.action() for mc in task.reference] + ['{"name": "list_services"}']


def _play(env: gym.Env, actions: list[str]) -> tuple[float, bool, dict]:
    env.reset(seed=0, options={"task": TASK})
    for action in actions:
        _, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return reward, truncated, info
    raise AssertionError("the episode did not end")


def _own_limit() -> tuple[float, dict]:
    actions = _work()
    reward, truncated, info = _play(CompoWorldEnv(max_steps=len(actions)), actions)
    assert truncated and reward > 0.5  # the writes earn their items; the missing answer costs its item
    return reward, info


def test_max_episode_steps_scores_like_max_steps():
    expected, own = _own_limit()
    actions = _work()
    reward, truncated, info = _play(gym.make("CompoWorld-v0", max_episode_steps=len(actions)), actions)
    assert truncated and reward == expected
    assert info["rubric"] == own["rubric"] and info["rubric_score"] == expected


def test_make_from_spec_keeps_the_scoring_wrapper():
    expected, _ = _own_limit()
    actions = _work()
    env = gym.make(gym.make("CompoWorld-v0", max_episode_steps=len(actions)).spec)
    assert [w.name for w in env.spec.additional_wrappers] == ["ScoreOnTruncation"]
    assert _play(env, actions)[0] == expected


@pytest.mark.parametrize("order", ["rubric_outside", "score_outside"])
def test_hand_wrapped_time_limit(order):
    expected, _ = _own_limit()
    actions = _work()
    inner = TimeLimit(CompoWorldEnv(), len(actions))
    env = RubricReward(inner, mode="fraction") if order == "rubric_outside" else ScoreOnTruncation(inner)
    reward, truncated, info = _play(env, actions)
    assert truncated and reward == expected and info["rubric_score"] == expected


def test_vector_env_autoreset_gives_the_score():
    expected, _ = _own_limit()
    actions = _work()
    envs = gym.make_vec("CompoWorld-v0", num_envs=2, vectorization_mode="sync",
                        max_episode_steps=len(actions))
    envs.reset(seed=0, options={"task": TASK})
    for k, action in enumerate(actions):
        _, rewards, terminated, truncated, _ = envs.step([action, action])
    assert truncated.tolist() == [True, True] and rewards.tolist() == [expected, expected]
    envs.close()


def test_end_episode_is_idempotent_and_needs_reset():
    env = CompoWorldEnv()
    with pytest.raises(RuntimeError):
        env.end_episode()
    env.reset(seed=0, options={"task": TASK})
    first = env.end_episode()
    assert first == env.end_episode() and "rubric" in first[1]
    assert env.step('{"name": "list_services"}')[2] is True  # the episode has ended


@pytest.mark.parametrize("wrap", ["chat", "flat", "rubric"])
def test_wrapped_envs_are_rebuilt_from_their_spec(wrap):
    from compoworld_gym.wrappers import ChatFormat, FlatTools

    base = gym.make("CompoWorld-v0", max_episode_steps=7)
    env = {"chat": ChatFormat, "flat": FlatTools, "rubric": lambda e: RubricReward(e, mode="binary")}[wrap](base)
    again = gym.make(env.spec)
    assert type(again) is type(env) and again.spec.max_episode_steps == 7
    assert [w.name for w in again.spec.additional_wrappers][-2:] == ["ScoreOnTruncation", type(env).__name__]
    if wrap == "rubric":
        assert again.mode == "binary"
