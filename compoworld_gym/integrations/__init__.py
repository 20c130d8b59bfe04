"""Adapters that plug CompoWorld into other RL stacks.

One module per library, each behind its own extra and imported only on
demand (``import compoworld_gym`` never imports any of them):

- :mod:`compoworld_gym.integrations.openenv`: an OpenEnv server (``[openenv]``);
- :mod:`compoworld_gym.integrations.verifiers`: a verifiers v1 ``Taskset`` (``[verifiers]``);
- :mod:`compoworld_gym.integrations.skyrl`: a SkyRL-Gym ``BaseTextEnv`` (``[skyrl]``);
- :mod:`compoworld_gym.integrations.ray`: generation and evaluation over a Ray cluster (``[ray]``).
"""
