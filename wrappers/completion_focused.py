"""``CompletionFocusedReward``: the paper's group reward over grouped rollouts."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
from gymnasium.vector import VectorWrapper

from compoworld_gym.rewards import RubricRow, WeightFn, completion_focused_reward, rubric_row


def _group_size(env: Any) -> int:
    """The ``group_size`` of the nearest :class:`GroupRollouts` below."""
    node = env
    while node is not None:
        if hasattr(node, "group_size") and hasattr(node, "ended"):
            return node.group_size
        node = getattr(node, "env", None)
    raise ValueError("CompletionFocusedReward must wrap a GroupRollouts vector env "
                     "(use make_grouped_vector_env)")


class CompletionFocusedReward(VectorWrapper):
    """Assign each group's completion-focused rubric rewards when it finishes.

    Sub-env ``i`` is in group ``i // G``. When a sub-env's episode ends, its
    rubric (``info["rubric"]``) is kept as one row of the group's pass
    matrix; the step reward is 0.0. On the step at which the *last* of the
    ``G`` episodes of a group ends, every member of that group receives its
    reward from :func:`compoworld_gym.rewards.completion_focused_reward`
    (item weights from the group's pass rates), and ``info`` gains, for the
    members of each group finished on that step (with ``_key`` masks):

    * ``"completion_reward"``: the member's reward (float);
    * ``"item_weights"``: ``{item id: weight}`` of its group;
    * ``"pass_rates"``: ``{item id: pass rate}`` of its group.

    The env's own end-of-episode reward is replaced, so the sum of a
    sub-env's rewards over an episode is exactly its completion-focused
    reward. ``group_rewards`` holds the ``(B, G)`` rewards of the batch so
    far (NaN for groups not finished).

    Args:
        env: a :class:`~compoworld_gym.wrappers.grouped.GroupRollouts`.
        weight_fn: pass rates ``(K,)`` → raw weights; default ``1 − p + 0.1``.

    Raises:
        ValueError: ``env`` is not grouped; at run time, a finished episode
            without a rubric in its ``info``.
    """

    def __init__(self, env: Any, weight_fn: Optional[WeightFn] = None) -> None:
        super().__init__(env)
        self.group_size = _group_size(env)
        self.num_groups = self.num_envs // self.group_size
        self.weight_fn = weight_fn
        self._clear()

    def _clear(self) -> None:
        self._rows: list[Optional[RubricRow]] = [None] * self.num_envs
        self.group_rewards = np.full((self.num_groups, self.group_size), np.nan)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
              ) -> tuple[Any, dict[str, Any]]:
        """Reset every group and forget the previous batch's rubrics."""
        obs, info = self.env.reset(seed=seed, options=options)
        self._clear()
        return obs, info

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step; reward groups whose last episode ended on this step."""
        obs, _, terms, truncs, info = self.env.step(actions)
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        done = np.asarray(terms) | np.asarray(truncs)
        finished = []
        for i in np.flatnonzero(done):
            if self._rows[i] is None:
                self._rows[i] = self._row(info, i)
                g = i // self.group_size
                members = range(g * self.group_size, (g + 1) * self.group_size)
                if all(self._rows[j] is not None for j in members):
                    finished.append(g)
        if finished:
            info = dict(info)
            keys = ("completion_reward", "item_weights", "pass_rates")
            arrays = {"completion_reward": np.zeros(self.num_envs),
                      "item_weights": np.full(self.num_envs, None, dtype=object),
                      "pass_rates": np.full(self.num_envs, None, dtype=object)}
            mask = np.zeros(self.num_envs, dtype=np.bool_)
            for g in finished:
                self._reward_group(g, rewards, arrays, mask)
            for key in keys:
                info[key], info[f"_{key}"] = arrays[key], mask.copy()
        return obs, rewards, terms, truncs, info

    def _row(self, info: dict[str, Any], i: int) -> RubricRow:
        rubric = info.get("rubric")
        present = info.get("_rubric")
        if rubric is None or present is None or not present[i] or not rubric[i]:
            raise ValueError(f"sub-env {i} ended without info['rubric']; the completion-focused "
                             "reward needs rubric results (CompoWorldEnv provides them)")
        return rubric_row(rubric[i])

    def _reward_group(self, g: int, rewards: np.ndarray, arrays: dict[str, np.ndarray],
                      mask: np.ndarray) -> None:
        members = list(range(g * self.group_size, (g + 1) * self.group_size))
        ids = self._rows[members[0]].ids
        if any(self._rows[j].ids != ids for j in members):
            raise ValueError(f"group {g} mixes tasks with different rubrics; "
                             "each group must run one task")
        result = completion_focused_reward([self._rows[j].passes for j in members], self.weight_fn,
                                           guards=self._rows[members[0]].guards)
        weights = dict(zip(ids, result.weights.tolist()))
        rates = dict(zip(ids, result.pass_rates.tolist()))
        for k, j in enumerate(members):
            rewards[j] = result.rewards[k]
            arrays["completion_reward"][j] = result.rewards[k]
            arrays["item_weights"][j] = dict(weights)
            arrays["pass_rates"][j] = dict(rates)
            mask[j] = True
        self.group_rewards[g] = result.rewards
