"""``ScoreOnTruncation``: an episode cut short by any wrapper is scored as the env's own step limit scores it.

Gymnasium's :class:`~gymnasium.wrappers.TimeLimit` (``gym.make(...,
max_episode_steps=N)``) truncates *outside* the env, so the env never sees
that the episode ended and would give reward 0 for a solved task. Every
``CompoWorld`` env id is registered with this wrapper as its outermost
wrapper (after ``TimeLimit``, through ``EnvSpec.additional_wrappers``), and
:class:`~compoworld_gym.wrappers.RubricReward` applies the same rule: when a
step comes back ``truncated`` and the env has not scored the episode, the env
scores it now (:meth:`CompoWorldEnv.end_episode`), exactly as its own
``max_steps`` would (the final state, no final answer).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym


def score_if_cut(env: gym.Env, reward: Any, terminated: bool, truncated: bool,
                 info: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The step's ``(reward, info)``, scored now if a wrapper truncated an unscored episode.

    Args:
        env: any env whose ``unwrapped`` may be a ``CompoWorldEnv`` (others pass through).
        reward, terminated, truncated, info: the step's results.

    Returns:
        ``(reward, info)`` unchanged, or the env's end-of-episode reward and
        info (with ``"rubric"``, ``"rubric_score"``) when the episode was cut.
    """
    if not truncated or terminated or "rubric" in info:
        return reward, info
    end = getattr(env.unwrapped, "end_episode", None)
    if end is None:
        return reward, info
    return end()


class ScoreOnTruncation(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Score an episode that an inner wrapper (e.g. ``TimeLimit``) truncated.

    Registered ids apply it for you; wrap by hand only an env you built
    yourself and then cut with your own ``TimeLimit``:
    ``ScoreOnTruncation(TimeLimit(CompoWorldEnv(), 10))``.

    Example:
        >>> import gymnasium as gym, compoworld_gym
        >>> env = gym.make("CompoWorld-v0", max_episode_steps=1)
        >>> _ = env.reset(seed=0, options={"task": "builtin-chargeback"})
        >>> _, reward, terminated, truncated, info = env.step('{"name": "list_services"}')
        >>> truncated, "rubric" in info
        (True, True)
    """

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.Wrapper.__init__(self, env)

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        """Step the env; score the episode if it came back truncated and unscored."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        reward, info = score_if_cut(self.env, reward, terminated, truncated, info)
        return obs, reward, terminated, truncated, info
