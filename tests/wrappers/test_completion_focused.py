"""CompletionFocusedReward over grouped rollouts: exact group rewards, Sync == Async."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from compoworld_gym.rewards import equal_weights, inverse_pass_rate_weights
from compoworld_gym.wrappers import CompletionFocusedReward, make_grouped_vector_env

# Group 0 runs t-escalate, group 1 t-assign; four rollouts each.
GROUP0 = ["record_only", "record_only", "full", "nothing"]
GROUP1 = ["full", "assign_only", "assign_open", "nothing"]
# Hand-computed (rewards.py formula, ε = 0.1):
# group 0 passes (1010, 1010, 1111, 0000): p = (.75, .25, .75, .25),
#   raw = (.35, .85, .35, .85) / 2.4; record-only rollouts earn .7/2.4.
# group 1 passes (111, 100, 110, 000): p = (.75, .5, .25),
#   raw = (.35, .6, .85) / 1.8.
EXPECTED = [0.7 / 2.4, 0.7 / 2.4, 1.0, 0.0, 1.0, 0.35 / 1.8, 0.95 / 1.8, 0.0]
WEIGHTS0 = {"priority_urgent": 0.35 / 2.4, "public_reply": 0.85 / 2.4, "only_one_urgent": 0.35 / 2.4,
            "reports_id": 0.85 / 2.4}
WEIGHTS1 = {"assigned": 0.35 / 1.8, "opened": 0.6 / 1.8, "tagged": 0.85 / 1.8}


def scripts(acts):
    return ([acts.ESCALATE[n][0] for n in GROUP0] + [acts.ASSIGN_SCRIPTS[n][0] for n in GROUP1])


def rollout(venv, acts):
    """Step until every episode ended; per-step rewards, flags and infos."""
    plans = scripts(acts)
    venv.reset(seed=7, options={"tasks": ["t-escalate", "t-assign"]})
    steps = []
    for t in range(max(map(len, plans))):
        actions = tuple(p[t] if t < len(p) else "(ignored)" for p in plans)
        steps.append(venv.step(actions))
    return steps


def plain(value):
    """Infos as plain Python (numpy arrays to lists), for exact comparison."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in sorted(value.items())}
    if isinstance(value, (np.ndarray, list, tuple)):
        return [plain(v) for v in value]
    return value.item() if isinstance(value, np.generic) else value


def test_exact_group_rewards(task_file, acts):
    venv = make_grouped_vector_env(task_file=task_file, group_size=4)
    steps = rollout(venv, acts)
    rewards = np.array([s[1] for s in steps])
    # group 0 ends on step 3 (its full rollout), group 1 on step 4
    assert rewards[:2].tolist() == [[0.0] * 8] * 2
    assert rewards[2] == pytest.approx(EXPECTED[:4] + [0.0] * 4)
    assert rewards[3] == pytest.approx([0.0] * 4 + EXPECTED[4:])
    assert rewards.sum(axis=0) == pytest.approx(EXPECTED)
    assert np.nanmax(venv.group_rewards[0]) == venv.group_rewards[0][2]  # did both: highest
    info2, info3 = steps[2][4], steps[3][4]
    assert info2["_completion_reward"].tolist() == [True] * 4 + [False] * 4
    assert info2["item_weights"][0] == pytest.approx(WEIGHTS0)
    assert info2["pass_rates"][1] == {"priority_urgent": 0.75, "public_reply": 0.25,
                                      "only_one_urgent": 0.75, "reports_id": 0.25}
    assert info3["item_weights"][7] == pytest.approx(WEIGHTS1)
    assert info3["completion_reward"][4:] == pytest.approx(EXPECTED[4:])
    assert "completion_reward" not in steps[0][4] and "completion_reward" not in steps[1][4]
    assert venv.group_rewards == pytest.approx(np.array(EXPECTED).reshape(2, 4))
    terms = np.array([s[2] for s in steps])
    assert terms[0].tolist() == [False, False, False, True, False, False, False, True]
    assert terms[-1].all()
    venv.reset(seed=0)
    assert np.isnan(venv.group_rewards).all()
    venv.close()


def test_sync_and_async_give_identical_results(task_file, acts):
    results = {}
    for mode in ("sync", "async"):
        venv = make_grouped_vector_env(task_file=task_file, group_size=4, vectorization=mode)
        results[mode] = [(list(o), r.tolist(), te.tolist(), tr.tolist(), plain(i))
                         for _ in range(2)  # two batches: resets after finished episodes work
                         for o, r, te, tr, i in rollout(venv, acts)]
        venv.close()
    assert results["sync"] == results["async"]
    assert np.sum([s[1] for s in results["async"]], axis=0) == pytest.approx(2 * np.array(EXPECTED))


def test_custom_weight_fn(task_file, acts):
    venv = make_grouped_vector_env(task_file=task_file, group_size=4, weight_fn=equal_weights)
    total = np.sum([s[1] for s in rollout(venv, acts)], axis=0)
    assert total == pytest.approx([0.5, 0.5, 1.0, 0.0, 1.0, 1 / 3, 2 / 3, 0.0])  # = fraction reward
    venv.close()
    steep = functools.partial(inverse_pass_rate_weights, eps=1.0)
    venv = make_grouped_vector_env(task_file=task_file, group_size=4, weight_fn=steep)
    total = np.sum([s[1] for s in rollout(venv, acts)], axis=0)
    # group 0: raw = (1.25, 1.75, 1.25, 1.75) / 6 → record-only earns 2.5 / 6
    assert total[0] == pytest.approx(2.5 / 6)
    venv.close()


def test_needs_grouped_env(task_file):
    venv = make_grouped_vector_env(task_file=task_file, group_size=2, completion_focused=False)
    with pytest.raises(ValueError, match="GroupRollouts"):
        CompletionFocusedReward(venv.env)  # the bare vector env
    venv.close()
