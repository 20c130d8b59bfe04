"""Rubric rewards over a G × K pass matrix: hand-computed values."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compoworld_gym.rewards import (
    binary_reward,
    completion_focused_reward,
    equal_weights,
    fraction_reward,
    inverse_pass_rate_weights,
    pass_rates,
    weighted_reward,
)

GROUP = [[1, 0, 1], [1, 1, 1], [0, 0, 0], [1, 0, 0]]


def test_binary_and_fraction():
    assert binary_reward(GROUP).tolist() == [0.0, 1.0, 0.0, 0.0]
    assert fraction_reward(GROUP) == pytest.approx([2 / 3, 1.0, 0.0, 1 / 3])
    assert pass_rates(GROUP).tolist() == [0.75, 0.25, 0.5]


def test_weighted_reward_normalises():
    assert weighted_reward(GROUP, [2, 1, 1]) == pytest.approx([0.75, 1.0, 0.0, 0.5])


def test_paper_story_notification_weighs_most():
    # Items: (update the record, send the notification). Most rollouts
    # update the record; only one also sends the notification.
    out = completion_focused_reward([[1, 0], [1, 0], [1, 0], [1, 1]])
    # p = (1, 0.25); raw = (0.1, 0.85); w = raw / 0.95
    assert out.pass_rates.tolist() == [1.0, 0.25]
    assert out.weights == pytest.approx([0.1 / 0.95, 0.85 / 0.95])
    assert out.weights[1] > out.weights[0]
    assert out.rewards == pytest.approx([0.1 / 0.95] * 3 + [1.0])
    assert int(np.argmax(out.rewards)) == 3


def test_mixed_group_hand_values():
    out = completion_focused_reward([[1, 0], [1, 0], [1, 1], [0, 0]])
    # p = (0.75, 0.25); raw = (0.35, 0.85); sum 1.2
    assert out.weights == pytest.approx([0.35 / 1.2, 0.85 / 1.2])
    assert out.rewards == pytest.approx([0.35 / 1.2, 0.35 / 1.2, 1.0, 0.0])
    # fraction would give the record-only rollouts 0.5; here they get 0.2917
    assert out.rewards[0] == pytest.approx(0.2916667, abs=1e-6)


def test_corner_all_pass_and_none_pass():
    all_pass = completion_focused_reward(np.ones((3, 4)))
    assert all_pass.weights.tolist() == [0.25] * 4 and all_pass.rewards.tolist() == [1.0] * 3
    none = completion_focused_reward(np.zeros((3, 4)))
    assert none.weights.tolist() == [0.25] * 4 and none.rewards.tolist() == [0.0] * 3


def test_corner_single_rollout():
    out = completion_focused_reward([[1, 1, 1, 0]])
    # n = 3 of K = 4 passed: 3·0.1 / (3·0.1 + 1·1.1)
    assert out.rewards == pytest.approx([0.3 / 1.4])
    assert out.weights == pytest.approx([0.1 / 1.4] * 3 + [1.1 / 1.4])


def test_corner_single_item_is_binary():
    out = completion_focused_reward([[1], [0], [1]])
    assert out.weights.tolist() == [1.0]
    assert out.rewards.tolist() == [1.0, 0.0, 1.0]


def test_weighting_function_is_a_parameter():
    assert completion_focused_reward(GROUP, equal_weights).rewards == pytest.approx(fraction_reward(GROUP))
    steep = functools.partial(inverse_pass_rate_weights, eps=0.5)
    out = completion_focused_reward([[1, 0], [1, 1]], steep)
    # p = (1, 0.5); raw = (0.5, 1.0)
    assert out.weights == pytest.approx([1 / 3, 2 / 3])
    assert out.rewards == pytest.approx([1 / 3, 1.0])


@pytest.mark.parametrize("bad", [[1, 0], [[2, 0]], [[np.nan]], np.zeros((0, 2)), np.zeros((2, 0)), "ab"])
def test_bad_pass_matrix(bad):
    with pytest.raises(ValueError):
        completion_focused_reward(bad)


@pytest.mark.parametrize("fn", [lambda p: -np.ones_like(p), lambda p: np.ones(7), lambda p: np.zeros_like(p)])
def test_bad_weight_fn(fn):
    with pytest.raises(ValueError, match="weight"):
        completion_focused_reward(GROUP, fn)


def test_bad_eps():
    with pytest.raises(ValueError, match="eps"):
        inverse_pass_rate_weights(np.array([0.5]), eps=0)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6).flatmap(lambda k: st.lists(
    st.lists(st.booleans(), min_size=k, max_size=k), min_size=1, max_size=8)))
def test_properties(rows):
    out = completion_focused_reward(rows)
    arr = np.array(rows, dtype=float)
    assert out.weights.sum() == pytest.approx(1.0)
    assert np.all(out.weights > 0)
    assert np.all((out.rewards >= 0) & (out.rewards <= 1 + 1e-12))
    for g, row in enumerate(arr):
        if row.all():
            assert out.rewards[g] == pytest.approx(1.0)
        for h, other in enumerate(arr):  # passing a superset never earns less
            if np.all(row >= other):
                assert out.rewards[g] >= out.rewards[h] - 1e-12


def test_guards_scale_but_never_earn():
    """Items 0-1 are work, item 2 is a guard (holds at reset)."""
    import numpy as np

    from compoworld_gym.rewards import completion_focused_reward, fraction_reward, weighted_reward

    passes = np.array([[0, 0, 1],   # did nothing
                       [1, 0, 1],   # half the work, guard kept
                       [1, 1, 0],   # all the work, guard broken: halved
                       [1, 1, 1]])  # everything
    guards = [False, False, True]
    assert fraction_reward(passes, guards).tolist() == [0.0, 0.5, 0.5, 1.0]
    assert weighted_reward(passes, [3, 1, 5], guards).tolist() == [0.0, 0.75, 0.5, 1.0]
    out = completion_focused_reward(passes, guards=guards)
    # pass rates of the work items: 0.75 and 0.5 -> raw 0.35, 0.6 -> weights 0.3684, 0.6316
    assert [round(float(w), 4) for w in out.weights] == [0.3684, 0.6316, 0.0]
    assert [round(float(r), 4) for r in out.rewards] == [0.0, 0.3684, 0.5, 1.0]


def _results():
    """2 of 3 positives passed, 1 of 2 guards broken."""
    from compoworld_gym.checks import CheckResult

    spec = [("a", True, False), ("b", False, False), ("c", True, False),
            ("g1", True, True), ("g2", False, True)]
    return [CheckResult(id=i, kind="record_exists", passed=p, guard=g) for i, p, g in spec]


def test_score_hand_values():
    from compoworld_gym.rewards import GUARD_PENALTY, guard_multiplier, score

    results = _results()
    assert score(results) == pytest.approx(2 / 3 * 0.5)
    assert score([r.model_dump() for r in results]) == pytest.approx(2 / 3 * 0.5)  # info["rubric"] dicts
    assert score(results[3:]) == 0.5   # no positives: work factor 1
    assert score([]) == 0.0
    assert GUARD_PENALTY == 0.5 and guard_multiplier(0) == 1.0 and guard_multiplier(3) == 0.125


def test_rubric_row_objects_and_dicts():
    from compoworld_gym.rewards import rubric_row

    results = _results()
    for rubric in (results, [r.model_dump() for r in results]):
        row = rubric_row(rubric)
        assert row.ids == ("a", "b", "c", "g1", "g2")
        assert row.passes.dtype == np.float64 and row.passes.tolist() == [1.0, 0.0, 1.0, 1.0, 0.0]
        assert row.guards.dtype == np.bool_ and row.guards.tolist() == [False, False, False, True, True]
    row = rubric_row([{"id": "x", "kind": "k", "passed": True}])  # a missing guard reads False
    assert row.guards.tolist() == [False] and row.passes.tolist() == [1.0]


def test_score_equals_fraction_reward_of_its_row():
    from compoworld_gym.checks import CheckResult
    from compoworld_gym.rewards import rubric_row, score

    rng = np.random.default_rng(0)
    for _ in range(50):
        k = int(rng.integers(1, 8))
        passed, guard = rng.random(k) < 0.5, rng.random(k) < 0.4
        results = [CheckResult(id=f"i{j}", kind="k", passed=bool(passed[j]), guard=bool(guard[j]))
                   for j in range(k)]
        row = rubric_row(results)
        assert score(results) == pytest.approx(float(fraction_reward(row.passes[None], row.guards)[0]))


def test_one_home_for_the_rule():
    import compoworld_gym.checks as checks
    import compoworld_gym.episode as episode
    import compoworld_gym.rewards as rewards

    assert not hasattr(checks, "guard_multiplier") and not hasattr(checks, "GUARD_PENALTY")
    assert episode.score is rewards.score
