"""Registration of compoworld env ids with Gymnasium.

String entry points, so nothing heavy imports until ``gym.make``. Bulk
registration (one id per composition) inserts ``EnvSpec``s directly:
``gymnasium.register`` scans the whole registry on every call (measured:
registering 2,000 ids one by one is quadratic). Every id carries
:data:`SCORE_ON_TRUNCATION` so that ``max_episode_steps`` scores the episode.
"""

from __future__ import annotations

from typing import Any, Iterable

import gymnasium as gym
from gymnasium.envs.registration import EnvSpec, WrapperSpec

ENTRY_POINT = "compoworld_gym.envs.compoworld_env:CompoWorldEnv"
DEFAULT_ID = "CompoWorld-v0"
#: Applied outermost by ``gym.make`` (after ``TimeLimit``): a ``max_episode_steps``
#: cut is scored like the env's own ``max_steps`` instead of giving reward 0.
SCORE_ON_TRUNCATION = WrapperSpec(
    name="ScoreOnTruncation",
    entry_point="compoworld_gym.wrappers.score_on_truncation:ScoreOnTruncation", kwargs={})


def register_envs() -> None:
    """Register ``CompoWorld-v0`` (idempotent)."""
    if DEFAULT_ID not in gym.registry:
        gym.register(id=DEFAULT_ID, entry_point=ENTRY_POINT, kwargs={},
                     additional_wrappers=(SCORE_ON_TRUNCATION,))


def register_many(ids_and_kwargs: Iterable[tuple[str, dict[str, Any]]]) -> int:
    """Insert many env ids at once, e.g. ``("CompoWorld/<slug>-v0", {"task_file": ...})``.

    Kwargs must be small and deep-copyable (a task id, a file path, a
    seed) because ``gym.make`` deep-copies them; never a whole object.

    Returns:
        How many ids were added (existing ids are left alone).
    """
    added = 0
    for env_id, kwargs in ids_and_kwargs:
        if env_id in gym.registry:
            continue
        gym.registry[env_id] = EnvSpec(id=env_id, entry_point=ENTRY_POINT, kwargs=dict(kwargs),
                                       additional_wrappers=(SCORE_ON_TRUNCATION,))
        added += 1
    return added


def register_compositions(task_file: str, version: int = 0) -> list[str]:
    """Register one env id per composition found in a generated task file.

    Each id is ``CompoWorld/<composition slug>-v<version>`` and makes an env
    whose pool is that composition's tasks in ``task_file`` (kwargs hold the
    file path and the composition id only, as ``gym.make`` deep-copies them).

    Returns:
        The registered ids, sorted (ids already registered are included).

    Raises:
        compoworld_gym.tasks.TaskFileError: the file is malformed (file:line).
    """
    from pathlib import Path

    from compoworld_gym.tasks import shared_tasks

    path = str(Path(task_file).resolve())
    comps: dict[str, str] = {}
    for task in shared_tasks(path):
        comp = task.composition or {}
        if comp.get("id") and comp.get("slug"):
            comps.setdefault(f"CompoWorld/{comp['slug']}-v{version}", comp["id"])
    register_many((env_id, {"task_file": path, "composition": cid}) for env_id, cid in sorted(comps.items()))
    return sorted(comps)
