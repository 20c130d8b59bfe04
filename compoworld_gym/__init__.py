"""compoworld-gym: Gymnasium environments over composed, verified services.

Importing the package registers ``CompoWorld-v0`` with Gymnasium::

    import gymnasium as gym
    import compoworld_gym  # noqa: F401  (registers the env ids)
    env = gym.make("CompoWorld-v0")
"""

from __future__ import annotations

__version__ = "0.1.0"

import os as _os

# A checkout keeps envs/, wrappers/, baselines/ and benchmarks/ beside this package; pyproject's
# package-dir maps them in as subpackages. Python imports this package from the checkout itself
# when run in its root (`python -m compoworld_gym.baselines...` after a plain `pip install .`),
# and then no mapping is in force: the checkout's root on __path__ finds them (the same files).
_ROOT = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
if (not _os.path.isdir(_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "envs"))
        and _os.path.isfile(_os.path.join(_ROOT, "envs", "__init__.py"))):
    __path__.append(_ROOT)

from compoworld_gym.envs.registration import register_envs as _register_envs

_register_envs()

__all__ = ["__version__"]
