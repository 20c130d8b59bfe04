"""The four-stage generator: compose → explore → design → verify → submit.

*Compose* plans the case chain (a random walk over relays, :mod:`.plan`);
*explore* mounts its services on seeded states (:mod:`.explore`); *design*
plants, solves, checks counterfactually and words the task (:mod:`.design`);
*verify* replays the reference through the real services (:mod:`.verify`);
*submit* builds the kept task (:mod:`.submit`). Each task index gets its own
random stream (``gen:<seed>:<index>:<attempt>``), so the same seed always
yields the same tasks, and a rejected attempt only moves that index to its
next attempt.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Optional

import orjson
from faker import Faker

from compoworld_gym.catalog import get_service, service_names
from compoworld_gym.composition import Composition, add_distractors
from compoworld_gym.answers import fit_answers, leaves, said_text, value_like
from compoworld_gym.entity_values import values_by_type
from compoworld_gym.footprint import fit_checks
from compoworld_gym.generation.config import TODAY, GenerationConfig
from compoworld_gym.generation.context import Ctx
from compoworld_gym.generation.design import DesignError, Designer, design
from compoworld_gym.generation.explore import seed_state_bytes
from compoworld_gym.generation.hooks import available_links
from compoworld_gym.generation.plan import PlanError, RelayGraph, plan
from compoworld_gym.generation.submit import build_task
from compoworld_gym.generation.verify import verify
from compoworld_gym.generation.wording import render
from compoworld_gym.tasks import Task

STAGES = ("compose", "explore", "design", "verify", "submit")


class GenerationError(RuntimeError):
    """The library cannot produce the requested tasks (too many rejections in a row)."""


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

    def reject(self, stage: str, reason: str) -> None:
        """Count one rejection at ``stage`` under its reason code (text before ':')."""
        self.rejected[stage] += 1
        self.reasons[f"{stage}: {reason.split(':', 1)[0]}"] += 1


_FAKE = Faker("en_US")


class _Timer:
    def __init__(self, stats: GenerationStats, stage: str) -> None:
        self.stats, self.stage = stats, stage

    def __enter__(self) -> None:
        self.t0 = time.perf_counter()

    def __exit__(self, *exc: Any) -> None:
        self.stats.seconds[self.stage] += time.perf_counter() - self.t0


@dataclass
class _Library:
    """What every attempt shares: declarations, names and tool-name counts."""

    links: dict
    names: list[str]
    graph: Any = None

    def tool_counts(self, services: list[str]) -> dict[str, int]:
        """How many of ``services`` define each bare tool name."""
        counts: Counter = Counter(t for s in services for t in _tool_names(s))
        return dict(counts)


@functools.lru_cache(maxsize=4096)
def _seeded_typed(service: str, seed: int, today: Any) -> dict[str, tuple[Any, ...]]:
    """The typed values of a distractor's seeded state, by entity type
    (:func:`~compoworld_gym.entity_values.values_by_type`; shared, read-only:
    answer candidates come from it)."""
    return values_by_type({service: orjson.loads(seed_state_bytes(service, seed, today))})


@functools.lru_cache(maxsize=None)
def _tool_names(service: str) -> tuple[str, ...]:
    return tuple(get_service(service).tools)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Automatic cyclic garbage collection off for the duration of one attempt.

    An attempt builds a working set (planted states, mounted services and
    their copies) that lives until the attempt ends and then goes by
    reference counting. Collections during the attempt free nothing of it
    but promote it to the oldest generation, whose full collections then
    traverse it again: a fifth of the generator's time. The few cycles an
    attempt leaves (a database service and its SQLite callbacks) go with the
    first young collection after it. A collector the caller turned off stays off.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _length(rng: random.Random, cfg: GenerationConfig) -> int:
    lengths = sorted(cfg.chain_lengths)
    return rng.choices(lengths, weights=[cfg.chain_lengths[n] for n in lengths])[0]


def _attempt(key: str, lib: _Library, cfg: GenerationConfig, stats: GenerationStats, task_id: str,
             designer: Designer) -> Optional[Task]:
    rng = random.Random(key)
    with _Timer(stats, "compose"):
        _FAKE.seed_instance(rng.getrandbits(32))
        try:
            spec = plan(rng, Ctx(rng, _FAKE, cfg.today, {}), lib.links, length=_length(rng, cfg),
                        p_rule=cfg.p_rule, p_stale=cfg.p_stale, max_actions=cfg.max_actions, seed_key=key,
                        graph=lib.graph, max_services=cfg.services[1] if cfg.services else 99)
        except PlanError as exc:
            stats.reject("compose", str(exc))
            return None
        services = spec.services
        if cfg.services is not None and not cfg.services[0] <= len(services) <= cfg.services[1]:
            stats.reject("compose", "size: the chain's services are outside the requested range")
            return None
    seed = rng.randrange(cfg.state_seeds)
    with _Timer(stats, "explore"):
        base = {s: seed_state_bytes(s, seed, cfg.today) for s in services}  # copied when planted
    with _Timer(stats, "design"):
        listed = add_distractors(Composition(services=services), lib.names, rng, cfg.listed)
        counts = lib.tool_counts([*services, *listed.distractors])
        tools = sorted({t for s in services for t in _tool_names(s)})
        try:
            others = {d: _seeded_typed(d, seed, cfg.today) for d in listed.distractors}
            plan_design = design(spec, base, cfg.today, _FAKE, rng, designer, counts, tools, others)
        except DesignError as exc:
            stats.reject("design", str(exc))
            return None
        plan_design.composition = plan_design.composition.model_copy(update={"distractors": listed.distractors})
    with _Timer(stats, "verify"):
        verdict = verify(plan_design.as_task(task_id, seed, cfg.today), plan_design.guards, plan_design.mounted)
    if not verdict.ok:
        stats.reject("verify", verdict.reason)
        return None
    with _Timer(stats, "submit"):
        # Guards fitted to what the verified reference wrote: nothing twice, nothing elsewhere.
        checks = fit_checks(plan_design.checks, verdict.footprint, [*services, *listed.distractors])
        # Answer items also list the other values the reference's reads returned (a dump names them);
        # flattened once, since both the index and the fitting walk them.
        seen = leaves(verdict.seen)
        plan_design.checks = fit_answers(checks, states=plan_design.initial_state, index=value_like(seen),
                                         seen=seen,
                                         decoys=plan_design.decoys, said=said_text(
                                             plan_design.instruction, plan_design.reference,
                                             plan_design.reference_answer))
        plan_design.guards = [c.id for c in plan_design.checks if c.is_guard]
        task = build_task(plan_design, task_id=task_id, seed=seed, today=cfg.today,
                          stage_stats={"checks": len(plan_design.checks),
                                       "reference_calls": len(plan_design.reference),
                                       "verify_replays": verdict.replays})
    return task


def gave_up(index: int, cfg: GenerationConfig, stats: GenerationStats) -> GenerationError:
    """The error of a run that gave up on task ``index``, naming the run's most common rejections."""
    return GenerationError(f"task {index}: {cfg.max_attempts_per_task} attempts rejected; "
                           f"most common reasons: {stats.reasons.most_common(3)}")


def iter_tasks(n: int, seed: int = 0, config: Optional[GenerationConfig] = None, *,
               stats: Optional[GenerationStats] = None, designer: Optional[Designer] = None,
               start: int = 0) -> Iterator[Task]:
    """Generate ``n`` verified tasks one at a time (constant memory).

    Args:
        n: number of tasks (>= 0).
        seed: the generation seed; same seed (and config) → same tasks.
        config: the options (default :class:`GenerationConfig`).
        stats: a :class:`GenerationStats` to fill (optional).
        designer: writes instructions from briefs (default: the offline
            templates of :func:`compoworld_gym.generation.wording.render`).
        start: the first task index (>= 0). Indices ``start .. start + n - 1``
            are the same tasks, ids included, as in a run from index 0, so
            workers can each make a slice of one run
            (:mod:`compoworld_gym.integrations.ray`).

    Raises:
        GenerationError: ``n < 0`` or ``start < 0``, or one index was
            rejected ``config.max_attempts_per_task`` times.
    """
    if n < 0:
        raise GenerationError(f"n must be >= 0, got {n}")
    if start < 0:
        raise GenerationError(f"start must be >= 0, got {start}")
    cfg = config or GenerationConfig()
    stats = GenerationStats() if stats is None else stats
    names = service_names() if cfg.library is None else list(cfg.library)
    links = {name: decl for name, decl in available_links().items() if name in names}
    lib = _Library(links=links, names=names, graph=RelayGraph(links))
    for index in range(start, start + n):
        task_id = f"gen-s{seed}-{index:05d}"
        for attempt in range(cfg.max_attempts_per_task):
            stats.attempts += 1
            with _collector_paused():
                task = _attempt(f"gen:{seed}:{index}:{attempt}", lib, cfg, stats, task_id, designer or render)
            if task is not None:
                break
        else:
            raise gave_up(index, cfg, stats)
        stats.kept += 1
        stats.compositions.add(task.meta["composition_id"])
        yield task


def generate_tasks(n: int, seed: int = 0, *, services: Optional[int | tuple[int, int]] = None,
                   config: Optional[GenerationConfig] = None, stats: Optional[GenerationStats] = None,
                   progress: Optional[Callable[[int], None]] = None,
                   designer: Optional[Designer] = None, **options: Any) -> list[Task]:
    """Generate ``n`` verified chained tasks from the built-in library.

    Args:
        n: number of tasks (>= 0).
        seed: the generation seed; same seed → same tasks.
        services: shorthand for ``config.services`` (an int or ``(lo, hi)``).
        config: the options (:class:`GenerationConfig`); ``options`` are its
            fields, for callers that pass a few keywords.
        stats: a :class:`GenerationStats` to fill (optional).
        progress: called with the number of tasks kept so far.
        designer: writes instructions from briefs (default: offline templates).

    Raises:
        GenerationError: see :func:`iter_tasks`.
        compoworld_gym.generation.config.ConfigError: a bad option.
    """
    if config is None:
        if services is not None:
            options["services"] = services
        config = GenerationConfig(**options)
    tasks: list[Task] = []
    for task in iter_tasks(n, seed, config, stats=stats, designer=designer):
        tasks.append(task)
        if progress is not None:
            progress(len(tasks))
    return tasks


__all__ = ["GenerationError", "GenerationStats", "STAGES", "TODAY", "generate_tasks", "iter_tasks"]
