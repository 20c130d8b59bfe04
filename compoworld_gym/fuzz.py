"""The reliability fuzz behind ``compoworld fuzz --examples N | --minutes M [--log F | --resume F]``.

Runs the state machine of :mod:`compoworld_gym.testing` over every built-in
service, random compositions (random walks over the dependency graph, with
distractors), generated chained tasks (their rubric-integrity guards
included) and the built-in task set. The work is cut into batches, one
``(target, round)`` each: ``examples`` splits ``N`` runs over the targets in
one round; ``minutes`` sweeps every target once, then gives every target
:data:`BATCH_RUNS` runs per round, each round on a round-derived seed, until
the time is up (a batch started before the deadline finishes). The result is a JSON-able summary:
``examples`` (runs executed), ``actions`` (resets and steps executed),
``failures``, ``seconds`` and one entry per failure with its invariant and
shrunk reproducing trace.

With a log, every finished batch appends one flushed JSON line (after a
header line with the campaign's settings), so an interrupted campaign keeps
what it did; resuming the log skips the batches already there.

Example:
    >>> from compoworld_gym.fuzz import run_fuzz
    >>> report = run_fuzz(examples=4, seed=0, include=("service",), services=["helpdesk"])
    >>> report["failures"], report["examples"] >= 4
    (0, True)
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import random
import signal
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any, Callable, Iterator, Optional, Sequence

import gymnasium as gym

from compoworld_gym.fuzz_log import FuzzLogError, check_settings, open_log, read_log  # noqa: F401  (FuzzLogError re-exported)
from compoworld_gym.testing.runner import DEEP, FuzzProfile, probe_task, run_machine, tasks_env_factory

#: Target kinds, in the order they are listed.
KINDS = ("service", "composition", "generated", "builtin")

#: Runs per target per round of a ``minutes`` campaign (about a second or two of work each).
BATCH_RUNS = 10
#: Most runs in one batch of an ``examples`` campaign (a larger share is cut into rounds).
MAX_BATCH_RUNS = 50

#: Called as each batch finishes: ``(entry, runs_done, runs_total)``. ``entry`` is the batch's log
#: record (``target``, ``index``, ``round``, ``seed``, ``planned``, ``runs``, ``actions``,
#: ``failures``, ``failure``, ``seconds``, ``rss_mb``); ``runs_done`` sums ``planned`` over the
#: finished batches (those a resumed log held included), so it reaches ``runs_total`` at the end even
#: when a crash cut a batch short; ``runs_total`` is None in a ``minutes`` campaign.
FuzzProgress = Callable[[dict[str, Any], int, Optional[int]], None]


class FuzzInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run_fuzz`; ``report`` covers the batches that finished (all logged)."""

    def __init__(self, report: dict[str, Any]) -> None:
        super().__init__("interrupted")
        self.report = report


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
        """The env factory of this target (its task pool is built once per process)."""
        return tasks_env_factory(_task_pool(self))


@functools.lru_cache(maxsize=64)  # a campaign has ~51 targets: its batches share their pools, bounded
def _task_pool(target: Target) -> tuple[Any, ...]:
    from compoworld_gym.catalog import get_service

    if target.kind in ("service", "composition"):
        classes = [get_service(n) for n in target.services]
        return tuple(probe_task(classes, seed=s, distractors=target.distractors) for s in (0, 1))
    if target.kind == "generated":
        from compoworld_gym.generation import generate_tasks

        return tuple(generate_tasks(3, seed=target.seed))
    if target.kind == "builtin":
        from compoworld_gym.builtin_tasks import builtin_tasks

        return tuple(builtin_tasks())
    raise ValueError(f"unknown target kind {target.kind!r}; use one of {', '.join(KINDS)}")


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


@dataclass(frozen=True)
class Batch:
    """One unit of a campaign: ``runs`` runs of target ``index`` in ``round``, on ``seed``."""

    index: int
    round: int
    runs: int
    seed: int


def plan_batches(n_targets: int, seed: int, examples: Optional[int], batch: int) -> Iterator[Batch]:
    """The batches of a campaign, in order.

    With ``examples``: the runs split over the targets (each gets >= 1),
    a target's share cut into rounds of at most :data:`MAX_BATCH_RUNS` (so
    no batch holds Hypothesis's record of hundreds of runs at once).
    Without (a ``minutes`` campaign): round 0 is a sweep of one run per
    target, so even a short campaign reaches every target (and every
    target's code and caches are warm early); then endless rounds of
    ``batch`` runs per target. Round ``r`` of target ``i`` runs on seed
    ``seed + i + r * 1000003``.
    """
    def seed_of(i: int, rnd: int) -> int:
        return (seed + i + rnd * 1_000_003) % 2**32

    if examples is not None:
        base, extra = divmod(examples, n_targets) if n_targets else (0, 0)
        shares = [max(1, base + (i < extra)) for i in range(n_targets)]
        for rnd in range(-(-max(shares, default=0) // MAX_BATCH_RUNS)):
            yield from (Batch(i, rnd, min(MAX_BATCH_RUNS, share - rnd * MAX_BATCH_RUNS), seed_of(i, rnd))
                        for i, share in enumerate(shares) if share > rnd * MAX_BATCH_RUNS)
        return
    for rnd in itertools.count():
        yield from (Batch(i, rnd, 1 if rnd == 0 else batch, seed_of(i, rnd)) for i in range(n_targets))


def _rss_mb() -> Optional[float]:
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            return round(int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)
    except (OSError, ValueError, IndexError):
        return None


def _run_batch(job: tuple[Target, FuzzProfile, Batch]) -> dict[str, Any]:
    """Run one batch (in this process or a worker) and return its log record."""
    target, profile, batch = job
    started = time.perf_counter()
    entry: dict[str, Any] = {"target": target.label, "index": batch.index, "round": batch.round,
                             "seed": batch.seed, "planned": batch.runs, "runs": 0, "actions": 0,
                             "failures": 0, "failure": None}
    try:
        stats, failure = run_machine(target.factory(), profile=profile, seed=batch.seed, quiet=True)
        entry["runs"], entry["actions"] = stats.runs, stats.actions
        if failure is not None:
            entry["failure"] = {"invariant": failure.invariant, "message": str(failure)}
    except Exception as exc:  # noqa: BLE001 - a crash of the harness or of a target is a finding too
        entry["failure"] = {"invariant": "crash", "message": f"{type(exc).__name__}: {exc}"}
    entry["failures"] = int(entry["failure"] is not None)
    entry["seconds"] = round(time.perf_counter() - started, 3)
    entry["rss_mb"] = _rss_mb()
    return entry


# ------------------------------------------------------------------------------------------- run
def _execute(jobs: Iterator[tuple[Target, FuzzProfile, Batch]], workers: int, deadline: Optional[float],
             finished: Callable[[dict[str, Any]], None]) -> None:
    """Run ``jobs`` until they or the time run out, calling ``finished`` with each record."""
    def take() -> Optional[tuple[Target, FuzzProfile, Batch]]:
        if deadline is not None and time.monotonic() >= deadline:
            return None
        return next(jobs, None)

    if workers == 1:
        while (job := take()) is not None:
            finished(_run_batch(job))
        return
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint)
    try:
        pending: set[Future] = set()
        while True:
            while len(pending) < workers and (job := take()) is not None:  # overrun: <= 1 batch each
                pending.add(pool.submit(_run_batch, job))
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:  # progress follows the work, not the slowest early batch
                finished(future.result())
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the parent, which stops the campaign and reports once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pending(targets: list[Target], profile: FuzzProfile, batches: Iterator[Batch],
             done: set[tuple[int, int]], dropped: set[int]) -> Iterator[tuple[Target, FuzzProfile, Batch]]:
    """The jobs of the batches not ``done``, skipping targets that failed (``dropped``, updated as the
    campaign runs); ends when every target has failed."""
    for b in batches:
        if len(dropped) >= len(targets):
            return
        if (b.index, b.round) not in done and (b.round == 0 or b.index not in dropped):
            yield targets[b.index], replace(profile, runs=b.runs), b


def _summary(targets: list[Target], records: list[dict[str, Any]], settings: dict[str, Any],
             seconds: float, notes: list[str]) -> dict[str, Any]:
    per_target = [{"target": t.label, "planned": 0, "runs": 0, "actions": 0, "batches": 0, "failures": 0,
                   "failure": None, "seconds": 0.0} for t in targets]
    failed = []
    for r in records:
        entry = per_target[r["index"]]
        for key in ("planned", "runs", "actions", "failures"):
            entry[key] += r[key]
        entry["batches"] += 1
        entry["seconds"] = round(entry["seconds"] + r["seconds"], 3)
        if r["failure"]:
            entry["failure"] = entry["failure"] or r["failure"]
            failed.append({"target": r["target"], "round": r["round"], **r["failure"]})
    rss = [r["rss_mb"] for r in records if r.get("rss_mb") is not None]
    return {"examples": sum(e["runs"] for e in per_target), "actions": sum(e["actions"] for e in per_target),
            "failures": len(failed), "seconds": round(seconds, 2), "seed": settings["seed"],
            "steps": settings["steps"], "minutes": settings["minutes"], "targets": len(targets),
            "batches": len(records), "rounds": 1 + max((r["round"] for r in records), default=-1),
            "rss_mb_max": max(rss, default=None), "failed": failed, "notes": notes, "per_target": per_target}


def run_fuzz(examples: Optional[int] = None, seed: Optional[int] = None, *, steps: Optional[int] = None,
             workers: int = 1, include: Optional[Sequence[str]] = None, services: Optional[Sequence[str]] = None,
             progress: Optional[FuzzProgress] = None, minutes: Optional[float] = None,
             batch: Optional[int] = None, log: Optional[Path] = None, resume: bool = False) -> dict[str, Any]:
    """Fuzz the built-in suite: ``examples`` runs in total, or rounds of batches for ``minutes``.

    Args:
        examples: total runs, split evenly over the targets (each gets >= 1).
            Default 1000 when neither it nor ``minutes`` is given.
        seed: campaign seed; None draws one from the OS (reported in the
            result, so the campaign can be repeated).
        steps: steps per run (default: the deep profile's).
        workers: processes to run batches in parallel.
        include: target kinds (:data:`KINDS`; default all).
        services: restrict service targets to these service names.
        progress: a :data:`FuzzProgress`, called once per batch as it
            finishes (in completion order when ``workers`` > 1).
        minutes: run rounds until this much wall time has passed (counting
            the time a resumed log already spent).
        batch: runs per target per round with ``minutes`` (:data:`BATCH_RUNS`).
        log: append the header and one JSON line per finished batch here.
        resume: continue the campaign of ``log``: its settings fill the
            ones left None, its batches are skipped and counted in the totals.

    Returns:
        ``{"examples": runs executed, "actions": resets and steps executed,
        "failures": int, "seconds": float, "seed", "steps", "minutes",
        "targets", "batches", "rounds", "rss_mb_max", "failed": [{"target",
        "round", "invariant", "message"}], "notes": [str], "per_target":
        [{"target", "planned", "runs", "actions", "batches", "failures",
        "failure", "seconds"}]}`` (``per_target`` in plan order).

    Raises:
        ValueError: a count < 1, or both or neither of examples/minutes.
        FuzzLogError: ``resume`` of a log that is damaged or of other settings, or a
            new ``log`` over a file that already holds one.
        FuzzInterrupted: Ctrl-C; its ``report`` covers what finished.
    """
    if workers < 1:
        raise ValueError(f"workers must be >= 1; got {workers}")
    if resume and log is None:
        raise ValueError("resume needs the log to continue (log=path)")
    given = {"seed": seed, "steps": steps, "include": None if include is None else list(include),
             "services": None if services is None else list(services), "examples": examples,
             "minutes": minutes, "batch": batch}
    header, previous, notes, keep = read_log(Path(log)) if resume else ({}, [], [], None)
    settings = _defaults({k: header.get(k) if v is None else v for k, v in given.items()})
    targets = plan_targets(settings["seed"], settings["include"], settings["services"])
    labels = [t.label for t in targets]
    if resume:
        check_settings(Path(log), header, settings, labels)
    started = time.monotonic()
    spent = max((r.get("elapsed", 0.0) for r in previous), default=0.0)
    deadline = None if settings["minutes"] is None else started + settings["minutes"] * 60 - spent
    records = list(previous)
    done_keys = {(r["index"], r["round"]) for r in previous}
    dropped = {r["index"] for r in previous if r["failure"]}  # a failed target is not fuzzed again
    profile = replace(DEEP, steps=settings["steps"])
    batches = plan_batches(len(targets), settings["seed"], settings["examples"], settings["batch"])
    total = None if settings["examples"] is None else sum(
        b.runs for b in plan_batches(len(targets), settings["seed"], settings["examples"], 1))
    jobs = _pending(targets, profile, batches, done_keys, dropped)
    runs_done = sum(r["planned"] for r in previous)
    fh: Optional[IO[str]] = None
    if log is not None:
        fh = open_log(Path(log), settings, labels, keep)

    def finished(entry: dict[str, Any]) -> None:
        nonlocal runs_done
        entry["elapsed"] = round(spent + time.monotonic() - started, 3)
        records.append(entry)
        runs_done += entry["planned"]
        if entry["failure"]:
            dropped.add(entry["index"])
        if fh is not None:
            fh.write(json.dumps(entry) + "\n")
            fh.flush()
        if progress:
            progress(entry, runs_done, total)

    try:
        _execute(jobs, workers, deadline, finished)
    except KeyboardInterrupt:
        raise FuzzInterrupted(_summary(targets, records, settings, spent + time.monotonic() - started,
                                       notes)) from None
    finally:
        if fh is not None:
            fh.close()
    return _summary(targets, records, settings, spent + time.monotonic() - started, notes)


def _defaults(given: dict[str, Any]) -> dict[str, Any]:
    """Settings with defaults filled in and checked."""
    s = dict(given)
    if s["examples"] is not None and s["minutes"] is not None:
        raise ValueError("give examples or minutes, not both")
    if s["minutes"] is None:
        s["examples"] = 1000 if s["examples"] is None else int(s["examples"])
        s["batch"] = None
    else:
        s["minutes"] = float(s["minutes"])
        s["batch"] = BATCH_RUNS if s["batch"] is None else int(s["batch"])
    s["seed"] = int.from_bytes(os.urandom(4), "little") if s["seed"] is None else int(s["seed"])
    s["steps"] = DEEP.steps if s["steps"] is None else int(s["steps"])
    s["include"] = list(KINDS) if s["include"] is None else list(s["include"])
    for name in ("examples", "steps", "batch"):
        if s[name] is not None and s[name] < 1:
            raise ValueError(f"{name} must be >= 1; got {s[name]}")
    if s["minutes"] is not None and not s["minutes"] > 0:
        raise ValueError(f"minutes must be > 0; got {s['minutes']}")
    return s
