"""The reliability fuzz behind ``compoworld fuzz --examples N [--json]``.

Runs the state machine of :mod:`compoworld_gym.testing` over every built-in
service, random compositions (random walks over the dependency graph, with
distractors), generated tasks and the built-in task set, splitting ``N``
state-machine runs over those targets. The result is a JSON-able summary:
``examples`` (runs executed), ``failures``, ``seconds`` and one entry per
failure with its invariant and shrunk reproducing trace.

Example:
    >>> from compoworld_gym.fuzz import run_fuzz
    >>> report = run_fuzz(examples=4, seed=0, include=("service",), services=["helpdesk"])
    >>> report["failures"], report["examples"] >= 4
    (0, True)
"""

from __future__ import annotations

import os
import random
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from typing import Any, Callable, Optional, Sequence

import gymnasium as gym

from compoworld_gym.testing.runner import DEEP, FuzzProfile, fuzz_env, probe_task, tasks_env_factory
from compoworld_gym.testing.state_machine import FuzzFailure

#: Target kinds, in the order they are listed.
KINDS = ("service", "composition", "generated", "builtin")

#: Called as each target finishes: ``(entry, runs_done, runs_total)``. ``entry`` is the target's
#: ``per_target`` record (``target``, ``planned``, ``runs``, ``failure``, ``seconds``);
#: ``runs_done`` sums ``planned`` over the finished targets, so it reaches ``runs_total`` at the end
#: even when a crash cut a target short.
FuzzProgress = Callable[[dict[str, Any], int, int], None]


@dataclass(frozen=True)
class Target:
    """One thing to fuzz (picklable, so workers can rebuild it).

    Attributes:
        kind: ``"service"``, ``"composition"``, ``"generated"`` or ``"builtin"``.
        services: the services mounted (service and composition targets).
        distractors: distractor services (composition targets).
        seed: seed of the generated tasks (generated targets).
    """

    kind: str
    services: tuple[str, ...] = ()
    distractors: tuple[str, ...] = ()
    seed: int = 0

    @property
    def label(self) -> str:
        """A short name, e.g. ``service:helpdesk`` or ``composition:crm+gmail``."""
        if self.kind in ("service", "composition"):
            return f"{self.kind}:{'+'.join(self.services)}"
        return f"{self.kind}:{self.seed}" if self.kind == "generated" else self.kind

    def factory(self) -> Callable[[], gym.Env]:
        """The env factory of this target."""
        from compoworld_gym.catalog import get_service

        if self.kind in ("service", "composition"):
            classes = [get_service(n) for n in self.services]
            return tasks_env_factory([probe_task(classes, seed=s, distractors=self.distractors) for s in (0, 1)])
        if self.kind == "generated":
            from compoworld_gym.generation import generate_tasks

            return tasks_env_factory(generate_tasks(3, seed=self.seed))
        if self.kind == "builtin":
            from compoworld_gym.builtin_tasks import builtin_tasks

            return tasks_env_factory(builtin_tasks())
        raise ValueError(f"unknown target kind {self.kind!r}; use one of {', '.join(KINDS)}")


def random_compositions(n: int, rng: random.Random, names: Sequence[str]) -> list[Target]:
    """``n`` compositions of 2-4 services by random walk on the dependency graph,
    each with 2 distractors (random subsets where the walk gets stuck)."""
    from compoworld_gym.composition import WalkError, random_walk
    from compoworld_gym.graph import build_graph

    graph = build_graph()
    out = []
    for _ in range(n):
        k = rng.randint(2, min(4, len(names)))
        try:
            services = list(random_walk(graph, rng, k).services)
        except WalkError:
            services = rng.sample(sorted(names), k)
        rest = sorted(set(names) - set(services))
        out.append(Target("composition", tuple(services), tuple(rng.sample(rest, min(2, len(rest))))))
    return out


def plan_targets(seed: int, include: Sequence[str] = KINDS, services: Optional[Sequence[str]] = None,
                 compositions: int = 8, generated: int = 2) -> list[Target]:
    """The targets of one fuzz campaign (deterministic for a seed).

    Args:
        seed: campaign seed (compositions and generated-task seeds).
        include: target kinds to include.
        services: restrict service targets to these names (default: all built-ins).
        compositions: number of random compositions.
        generated: number of generated-task pools (3 tasks each).
    """
    from compoworld_gym.catalog import service_names

    names = list(services) if services is not None else service_names()
    rng = random.Random(f"fuzz:{seed}")
    targets: list[Target] = []
    if "service" in include:
        targets += [Target("service", (n,)) for n in names]
    if "composition" in include and len(names) >= 2:
        targets += random_compositions(compositions, rng, service_names())
    if "generated" in include:
        targets += [Target("generated", seed=rng.randrange(2**31)) for _ in range(generated)]
    if "builtin" in include:
        targets.append(Target("builtin"))
    return targets


def _run_target(job: tuple[Target, FuzzProfile, int]) -> dict[str, Any]:
    target, profile, seed = job
    started = time.perf_counter()
    entry: dict[str, Any] = {"target": target.label, "planned": profile.runs, "runs": 0, "failure": None}
    try:
        entry["runs"] = fuzz_env(target.factory(), profile=profile, seed=seed, quiet=True)
    except FuzzFailure as exc:
        entry["failure"] = {"invariant": exc.invariant, "message": str(exc)}
        entry["runs"] = profile.runs
    except Exception as exc:  # noqa: BLE001 - a crash of the harness or of a target is a finding too
        entry["failure"] = {"invariant": "crash", "message": f"{type(exc).__name__}: {exc}"}
    entry["seconds"] = round(time.perf_counter() - started, 3)
    return entry


def run_fuzz(examples: int, seed: Optional[int] = None, *, steps: int = DEEP.steps, workers: int = 1,
             include: Sequence[str] = KINDS, services: Optional[Sequence[str]] = None,
             progress: Optional[FuzzProgress] = None) -> dict[str, Any]:
    """Fuzz the built-in suite with ``examples`` state-machine runs in total.

    Args:
        examples: total runs, split evenly over the targets (each gets >= 1).
        seed: campaign seed; None draws one from the OS (reported in the
            result, so the campaign can be repeated).
        steps: steps per run (the deep profile's default).
        workers: processes to run targets in parallel.
        include: target kinds (:data:`KINDS`).
        services: restrict service targets to these service names.
        progress: a :data:`FuzzProgress`, called once per target as it
            finishes (in completion order when ``workers`` > 1).

    Returns:
        ``{"examples": runs executed, "failures": int, "seconds": float,
        "seed", "steps", "targets": int, "failed": [{"target", "invariant",
        "message"}], "per_target": [...]}`` (``per_target`` in plan order,
        whatever order the targets finished in).

    Raises:
        ValueError: ``examples`` < 1, ``steps`` < 1 or ``workers`` < 1.
    """
    if examples < 1 or steps < 1 or workers < 1:
        raise ValueError(f"examples, steps and workers must be >= 1; got {examples}, {steps}, {workers}")
    seed = int.from_bytes(os.urandom(4), "little") if seed is None else int(seed)
    started = time.perf_counter()
    targets = plan_targets(seed, include, services)
    base, extra = divmod(examples, len(targets)) if targets else (0, 0)
    jobs = [(t, replace(DEEP, runs=max(1, base + (i < extra)), steps=steps), seed + i)
            for i, t in enumerate(targets)]
    total, done = sum(job[1].runs for job in jobs), 0
    entries: list[dict[str, Any]] = [{} for _ in jobs]

    def finished(i: int, entry: dict[str, Any]) -> None:
        nonlocal done
        entries[i] = entry
        done += entry["planned"]
        if progress:
            progress(entry, done, total)

    if workers == 1:
        for i, job in enumerate(jobs):
            finished(i, _run_target(job))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            # as_completed, not map: progress follows the work, not the slowest early target.
            futures = {pool.submit(_run_target, job): i for i, job in enumerate(jobs)}
            for future in as_completed(futures):
                finished(futures[future], future.result())
    failed = [{"target": e["target"], **e["failure"]} for e in entries if e["failure"]]
    return {"examples": sum(e["runs"] for e in entries), "failures": len(failed),
            "seconds": round(time.perf_counter() - started, 2), "seed": seed, "steps": steps,
            "targets": len(targets), "failed": failed, "per_target": entries}
