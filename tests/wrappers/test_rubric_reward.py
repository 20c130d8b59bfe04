"""RubricReward: binary / fraction / weighted / custom end-of-episode rewards."""

from __future__ import annotations

import pytest
from gymnasium.utils.env_checker import check_env

from compoworld_gym.wrappers import RubricReward


def run(env, actions, task="t-escalate"):
    env.reset(seed=0, options={"task": task})
    rewards = []
    for a in actions:
        _, r, term, trunc, info = env.step(a)
        rewards.append(r)
    assert term or trunc
    return rewards, info


@pytest.mark.parametrize("mode, expected", [("binary", 0.0), ("fraction", 0.5)])
def test_builtin_modes_on_partial_episode(make_env, acts, mode, expected):
    rewards, info = run(RubricReward(make_env(), mode=mode), acts.ESCALATE["record_only"][0])
    assert rewards == [0.0, expected]
    assert info["item_passed"] == {"priority_urgent": True, "public_reply": False,
                                   "only_one_urgent": True, "reports_id": False}
    assert info["rubric_reward_mode"] == mode


def test_binary_full_episode_is_one(make_env, acts):
    rewards, info = run(RubricReward(make_env(), mode="binary"), acts.ESCALATE["full"][0])
    assert rewards == [0.0, 0.0, 1.0]
    assert info["item_weights"] is None


def test_weighted_mode(make_env, acts):
    env = RubricReward(make_env(), mode="weighted", weights={"public_reply": 3.0, "reports_id": 0.0})
    rewards, info = run(env, acts.ESCALATE["record_only"][0])
    # weights (1, 3, 1, 0) / 5; passed priority_urgent and only_one_urgent
    assert rewards[-1] == pytest.approx(0.4)
    assert info["item_weights"] == pytest.approx(
        {"priority_urgent": 0.2, "public_reply": 0.6, "only_one_urgent": 0.2, "reports_id": 0.0})
    _, info = run(env, acts.ESCALATE["reply_and_id"][0])
    assert info["rubric_score"] == 0.5


def test_custom_callable(make_env, acts):
    env = RubricReward(make_env(), mode=lambda rubric: 10.0 * sum(r["passed"] for r in rubric))
    rewards, info = run(env, acts.ASSIGN_SCRIPTS["assign_open"][0], task="t-assign")
    assert rewards[-1] == 20.0 and info["rubric_reward_mode"] == "custom"


def test_truncated_episode_is_scored(make_env, acts):
    env = RubricReward(make_env(max_steps=1), mode="fraction")
    rewards, info = run(env, [acts.URGENT])
    assert rewards == [0.5]  # priority and only-one-urgent pass, no answer


@pytest.mark.parametrize("kwargs, match", [
    ({"mode": "max"}, "mode must be"),
    ({"mode": "binary", "weights": {"a": 1}}, "only used with"),
    ({"mode": "weighted", "weights": {"a": -1}}, "non-negative"),
])
def test_bad_arguments(make_env, kwargs, match):
    with pytest.raises(ValueError, match=match):
        RubricReward(make_env(), **kwargs)


@pytest.mark.parametrize("mode", ["binary", "fraction", "weighted"])
def test_check_env(make_env, mode):
    check_env(RubricReward(make_env(), mode=mode).unwrapped, skip_render_check=True)
    check_env(RubricReward(make_env(), mode=mode), skip_render_check=True)
