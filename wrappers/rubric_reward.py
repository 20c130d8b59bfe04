"""``RubricReward``: choose how the rubric of a finished episode becomes a reward."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Optional, Union

import gymnasium as gym
import numpy as np

from compoworld_gym.rewards import binary_reward, fraction_reward, rubric_row, weighted_reward
from compoworld_gym.wrappers.score_on_truncation import score_if_cut

#: A custom reward: the episode's rubric (``[{"id", "kind", "passed",
#: "guard", "description"}, ...]``) to a float.
RubricFn = Callable[[list[dict[str, Any]]], float]

MODES = ("binary", "fraction", "weighted")


class RubricReward(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Replace the end-of-episode reward with a rubric reward of your choice.

    The wrapped env must put the per-item results in ``info["rubric"]`` when
    an episode ends (``CompoWorldEnv`` does; an episode an inner wrapper
    such as ``TimeLimit`` truncated is scored first, see
    :func:`~compoworld_gym.wrappers.score_on_truncation.score_if_cut`). Rewards of other steps pass
    through unchanged (0.0 for ``CompoWorldEnv``).

    Modes (guards scale the reward instead of earning it, as the rule in
    :mod:`compoworld_gym.rewards` states):
        * ``"binary"``: 1.0 only if every item passed, guards included;
        * ``"fraction"``: the fraction of positive items passed times the
          guard factor (the env's default, :func:`compoworld_gym.rewards.score`);
        * ``"weighted"``: ``Σ w_k·pass_k / Σ w_k`` over the positive items,
          times the guard factor, with ``weights`` ``{item id: weight}``;
          items not listed weigh ``default_weight``;
        * a callable ``rubric -> float``.

    At the end of an episode ``info`` gains ``"item_passed"``
    (``{item id: bool}``), ``"item_weights"`` (``{item id: normalised
    weight}``, or None for a callable) and ``"rubric_reward_mode"``.

    Args:
        env: the env to wrap.
        mode: one of ``"binary"``, ``"fraction"``, ``"weighted"`` or a callable.
        weights: item weights for ``"weighted"`` (non-negative numbers).
        default_weight: weight of items missing from ``weights``.

    Raises:
        ValueError: unknown mode, weights without ``"weighted"``, or negative
            weights.

    Example:
        >>> import gymnasium as gym, compoworld_gym
        >>> env = RubricReward(gym.make("CompoWorld-v0"), mode="binary")
        >>> _ = env.reset(seed=0)
        >>> _, reward, terminated, _, info = env.step("Nothing to do.")
        >>> reward, terminated, info["rubric_reward_mode"]
        (0.0, True, 'binary')
    """

    def __init__(self, env: gym.Env, mode: Union[str, RubricFn] = "fraction",
                 weights: Optional[Mapping[str, float]] = None, default_weight: float = 1.0) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, mode=mode, weights=weights, default_weight=default_weight)
        gym.Wrapper.__init__(self, env)
        if not callable(mode) and mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)} or a callable, got {mode!r}")
        if weights is not None and mode != "weighted":
            raise ValueError(f"weights are only used with mode='weighted', got mode={mode!r}")
        weights = dict(weights or {})
        bad = {k: w for k, w in weights.items() if not isinstance(w, (int, float)) or not w >= 0}
        if bad or not (isinstance(default_weight, (int, float)) and default_weight >= 0):
            raise ValueError(f"weights must be non-negative numbers, got {bad or default_weight!r}")
        self.mode = mode
        self.weights = weights
        self.default_weight = float(default_weight)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Step the env; at the end of an episode, recompute the reward."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        # An inner TimeLimit may have cut the episode before the env scored it.
        reward, info = score_if_cut(self.env, reward, terminated, truncated, info)
        rubric = info.get("rubric")
        if (terminated or truncated) and isinstance(rubric, list) and rubric:
            reward, item_weights = self._reward(rubric)
            info = dict(info)
            info["item_passed"] = {r["id"]: bool(r["passed"]) for r in rubric}
            info["item_weights"] = item_weights
            info["rubric_reward_mode"] = self.mode if isinstance(self.mode, str) else "custom"
        return obs, reward, terminated, truncated, info

    def _reward(self, rubric: list[dict[str, Any]]) -> tuple[float, Optional[dict[str, float]]]:
        if callable(self.mode):
            return float(self.mode(rubric)), None
        row = rubric_row(rubric)
        ids, passes, guards = list(row.ids), row.passes[None], row.guards
        n_pos = int((~guards).sum())
        if self.mode == "binary":
            return float(binary_reward(passes)[0]), None
        if self.mode == "fraction":
            weights = {i: (0.0 if guard else 1.0 / n_pos) for i, guard in zip(ids, guards)} if n_pos else None
            return float(fraction_reward(passes, guards)[0]), weights
        raw = np.array([0.0 if guard else float(self.weights.get(i, self.default_weight))
                        for i, guard in zip(ids, guards)])
        if raw.sum() <= 0:  # every positive item weighted 0: nothing can earn reward
            return 0.0, {i: 0.0 for i in ids}
        reward = float(weighted_reward(passes, np.where(guards, 1.0, raw), guards)[0])
        return reward, dict(zip(ids, (raw / raw.sum()).tolist()))
