"""Offline, programmatic task generation in four stages (paper §2.4).

``compose`` → ``explore`` → ``design`` → ``verify`` → ``submit``, each its
own module. A task follows one business case through several services: a
random walk over the services' relays (:mod:`.links`, declared per service
in :mod:`.hooks`) plans the chain, the design stage plants it, follows it by
real reads, checks counterfactually that every service's answer matters and
words a goal-level instruction; verify replays the reference.

Example:
    >>> from compoworld_gym.generation import generate_tasks
    >>> tasks = generate_tasks(2, seed=0)
    >>> len(tasks), tasks[0].meta["generator_version"]
    (2, '2.0')
"""

from __future__ import annotations

from compoworld_gym.generation.config import LIBRARY_V1, ConfigError, GenerationConfig
from compoworld_gym.generation.pipeline import (
    TODAY, GenerationError, GenerationStats, generate_tasks, iter_tasks,
)
from compoworld_gym.generation.submit import GENERATOR_VERSION, build_task, submit
from compoworld_gym.generation.verify import Verdict, verify


def generate_with_stats(n: int, seed: int = 0, **kwargs) -> tuple[list, dict]:
    """``generate_tasks`` plus its :meth:`GenerationStats.summary` (per-stage
    timings, rejections per stage and per reason, distinct compositions)."""
    stats = GenerationStats()
    tasks = generate_tasks(n, seed, stats=stats, **kwargs)
    return tasks, stats.summary()


__all__ = ["LIBRARY_V1", "ConfigError", "GENERATOR_VERSION", "GenerationConfig", "TODAY", "GenerationError", "GenerationStats",
           "Verdict", "build_task", "generate_tasks", "generate_with_stats", "iter_tasks", "submit", "verify"]
