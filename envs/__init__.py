"""Gymnasium environments of compoworld-gym (installed as ``compoworld_gym.envs``).

Import env classes lazily through ``gym.make`` or explicitly::

    from compoworld_gym.envs.compoworld_env import CompoWorldEnv
"""

from __future__ import annotations

from compoworld_gym.envs.registration import DEFAULT_ID, register_envs

__all__ = ["DEFAULT_ID", "register_envs"]
