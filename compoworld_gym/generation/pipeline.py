"""The four-stage generator: compose → explore → design → verify → submit.

Each task index gets its own random stream (``gen:<seed>:<index>:<attempt>``),
so the same seed always yields the same tasks, and a rejected attempt only
moves that index to its next attempt.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from faker import Faker

from compoworld_gym.catalog import service_names
from compoworld_gym.composition import WalkError, add_distractors, random_walk
from compoworld_gym.generation.context import Ctx
from compoworld_gym.generation.design import DesignError, design
from compoworld_gym.generation.explore import explore
from compoworld_gym.generation.hooks import ServiceHook, available_hooks, task_graph
from compoworld_gym.generation.submit import build_task
from compoworld_gym.generation.verify import verify
from compoworld_gym.tasks import Task

TODAY = dt.date(2026, 1, 15)
STAGES = ("compose", "explore", "design", "verify", "submit")


class GenerationError(RuntimeError):
    """The library cannot produce the requested tasks (too few hooked services,
    or too many rejections in a row)."""


@dataclass
class GenerationStats:
    """Counts and timings of one generation run.

    Attributes:
        attempts: candidate tasks tried.
        kept: tasks that passed verification.
        rejected: ``{stage: count}`` of rejections (compose, design, verify).
        reasons: ``{reason code: count}``.
        seconds: ``{stage: wall seconds}`` spent in each stage.
        compositions: distinct composition ids among kept tasks.
    """

    attempts: int = 0
    kept: int = 0
    rejected: Counter = field(default_factory=Counter)
    reasons: Counter = field(default_factory=Counter)
    seconds: dict[str, float] = field(default_factory=lambda: {s: 0.0 for s in STAGES})
    compositions: set[str] = field(default_factory=set)

    def summary(self) -> dict[str, Any]:
        """A JSON-able summary: ``tasks``, ``compositions``, ``attempts``,
        ``rejected`` (per stage), ``rejection_rate`` (per stage, of the
        attempts reaching it), ``reasons``, ``seconds`` (per stage and total)
        and ``tasks_per_second``."""
        total = sum(self.seconds.values())
        reached = self.attempts
        rates = {}
        for stage in ("compose", "design", "verify"):
            rates[stage] = round(self.rejected[stage] / reached, 4) if reached else 0.0
            reached -= self.rejected[stage]
        return {
            "tasks": self.kept, "compositions": len(self.compositions), "attempts": self.attempts,
            "rejected": {s: self.rejected[s] for s in ("compose", "design", "verify")},
            "rejection_rate": rates, "reasons": dict(sorted(self.reasons.items())),
            "seconds": {**{s: round(v, 3) for s, v in self.seconds.items()}, "total": round(total, 3)},
            "tasks_per_second": round(self.kept / total, 1) if total > 0 else 0.0,
        }


_FAKE = Faker("en_US")


def _k_range(services: Optional[int | tuple[int, int]], n_nodes: int) -> tuple[int, int]:
    if services is None:
        lo, hi = 3, 6
    elif isinstance(services, int):
        lo = hi = services
    else:
        lo, hi = services
    if lo < 2 or hi < lo:
        raise GenerationError(f"services must be >= 2 (and lo <= hi), got {services!r}")
    hi = min(hi, n_nodes)
    if hi < lo:
        raise GenerationError(f"only {n_nodes} services have task hooks; cannot compose {lo}")
    return lo, hi


class _Timer:
    def __init__(self, stats: GenerationStats, stage: str) -> None:
        self.stats, self.stage = stats, stage

    def __enter__(self) -> None:
        self.t0 = time.perf_counter()

    def __exit__(self, *exc: Any) -> None:
        self.stats.seconds[self.stage] += time.perf_counter() - self.t0


def _attempt(key: str, k_range: tuple[int, int], graph: Any, hooks: dict[str, ServiceHook],
             names: list[str], opts: dict[str, Any], stats: GenerationStats, task_id: str) -> Optional[Task]:
    rng = random.Random(key)
    with _Timer(stats, "compose"):
        try:
            comp = random_walk(graph, rng, rng.randint(*k_range), revisit_prob=opts["revisit_prob"])
        except WalkError:
            stats.rejected["compose"] += 1
            stats.reasons["walk-stuck"] += 1
            return None
        comp = add_distractors(comp, names, rng, opts["listed"])
    seed = rng.randrange(opts["state_seeds"])
    with _Timer(stats, "explore"):
        exploration = explore(comp, seed, opts["today"])
    with _Timer(stats, "design"):
        _FAKE.seed_instance(rng.getrandbits(32))
        try:
            plan = design(exploration, hooks, Ctx(rng, _FAKE, opts["today"], exploration.states))
        except DesignError as exc:
            stats.rejected["design"] += 1
            stats.reasons[f"design: {exc}"[:60]] += 1
            return None
    with _Timer(stats, "submit"):
        task = build_task(plan, task_id=task_id, seed=seed, today=opts["today"],
                          stage_stats={"explore_reads": exploration.n_reads, "checks": len(plan.checks),
                                       "reference_calls": len(plan.reference)})
    with _Timer(stats, "verify"):
        verdict = verify(task, plan.negatives)
    if not verdict.ok:
        stats.rejected["verify"] += 1
        stats.reasons[verdict.reason.split(":", 1)[0]] += 1
        return None
    task.meta["stages"]["verify_replays"] = verdict.replays
    return task


def generate_tasks(n: int, seed: int = 0, *, services: Optional[int | tuple[int, int]] = None,
                   today: dt.date = TODAY, listed: int = 15, revisit_prob: float = 0.3,
                   state_seeds: int = 8, stats: Optional[GenerationStats] = None,
                   progress: Optional[Callable[[int], None]] = None,
                   max_attempts_per_task: int = 50) -> list[Task]:
    """Generate ``n`` verified tasks from the built-in library.

    Args:
        n: number of tasks (>= 0).
        seed: the generation seed; same seed → same tasks.
        services: distinct services per task: an int, or ``(lo, hi)``
            (default 3–6, capped by the number of hooked services).
        today: the tasks' date.
        listed: services shown by ``list_services`` (needed + distractors).
        revisit_prob: chance that a walk contains a revisit step.
        state_seeds: number of distinct seeded base states per service.
        stats: a :class:`GenerationStats` to fill (optional).
        progress: called with the number of tasks kept so far.
        max_attempts_per_task: give up after this many rejections in a row.

    Raises:
        GenerationError: too few services have task hooks, or one index was
            rejected ``max_attempts_per_task`` times.
    """
    if n < 0:
        raise GenerationError(f"n must be >= 0, got {n}")
    stats = GenerationStats() if stats is None else stats
    hooks = available_hooks()
    graph = task_graph(hooks)
    k_range = _k_range(services, graph.number_of_nodes())
    opts = {"today": today, "listed": listed, "revisit_prob": revisit_prob, "state_seeds": state_seeds}
    names = service_names()
    tasks: list[Task] = []
    for index in range(n):
        task_id = f"gen-s{seed}-{index:05d}"
        for attempt in range(max_attempts_per_task):
            stats.attempts += 1
            task = _attempt(f"gen:{seed}:{index}:{attempt}", k_range, graph, hooks, names, opts, stats, task_id)
            if task is not None:
                break
        else:
            raise GenerationError(f"task {index}: {max_attempts_per_task} attempts rejected; "
                                  f"most common reasons: {stats.reasons.most_common(3)}")
        stats.kept += 1
        stats.compositions.add(task.meta["composition_id"])
        tasks.append(task)
        if progress is not None:
            progress(len(tasks))
    return tasks
