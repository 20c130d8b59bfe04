"""Offline, programmatic task generation in four stages (paper §2.4).

``explore`` → ``design`` → ``verify`` → ``submit``, each its own module so a
language-model backend can replace a stage later. Per-service knowledge of
how to plant facts and check writes lives in :mod:`.hooks`.

Example:
    >>> from compoworld_gym.generation import generate_tasks
    >>> tasks = generate_tasks(2, seed=0)
    >>> len(tasks), tasks[0].meta["generator_version"]
    (2, '1.0')
"""

from __future__ import annotations

from compoworld_gym.generation.pipeline import TODAY, GenerationError, GenerationStats, generate_tasks
from compoworld_gym.generation.submit import GENERATOR_VERSION, build_task, submit
from compoworld_gym.generation.verify import Verdict, verify


def generate_with_stats(n: int, seed: int = 0, **kwargs) -> tuple[list, dict]:
    """``generate_tasks`` plus its :meth:`GenerationStats.summary` (per-stage
    timings, rejections per stage and per reason, distinct compositions)."""
    stats = GenerationStats()
    tasks = generate_tasks(n, seed, stats=stats, **kwargs)
    return tasks, stats.summary()


__all__ = ["GENERATOR_VERSION", "TODAY", "GenerationError", "GenerationStats", "Verdict", "build_task",
           "generate_tasks", "generate_with_stats", "submit", "verify"]
