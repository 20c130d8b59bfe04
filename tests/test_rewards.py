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
