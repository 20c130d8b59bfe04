"""The Unicode text space and vector envs."""

from __future__ import annotations

import gymnasium as gym
import pytest

import compoworld_gym  # noqa: F401
from compoworld_gym.envs.spaces import SharedMemoryUnsupported, Unicode


def test_unicode_space_contains_any_str():
    space = Unicode(20)
    assert space.contains('{"a": "é漢"}') and not space.contains("x" * 21) and not space.contains(3)
    assert space == Unicode(20) and space != Unicode(21) and hash(space) == hash(Unicode(20))
    assert isinstance(space.sample(), str)


def test_async_with_shared_memory_fails_clearly_and_works_without():
    with pytest.raises(SharedMemoryUnsupported, match="shared_memory=False"):
        gym.make_vec("CompoWorld-v0", num_envs=2, vectorization_mode="async")
    envs = gym.make_vec("CompoWorld-v0", num_envs=2, vectorization_mode="async",
                        vector_kwargs={"shared_memory": False})
    try:
        obs, info = envs.reset(seed=0)
        assert isinstance(obs, tuple) and all(o.startswith('{"messages"') for o in obs)
    finally:
        envs.close()
