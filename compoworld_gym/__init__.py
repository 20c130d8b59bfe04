"""compoworld-gym: Gymnasium environments over composed, verified services.

Importing the package registers ``CompoWorld-v0`` with Gymnasium::

    import gymnasium as gym
    import compoworld_gym  # noqa: F401  (registers the env ids)
    env = gym.make("CompoWorld-v0")
"""

from __future__ import annotations

__version__ = "0.1.0"

from compoworld_gym.envs.registration import register_envs as _register_envs

_register_envs()

__all__ = ["__version__"]
