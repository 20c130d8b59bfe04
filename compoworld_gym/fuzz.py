"""The reliability fuzz behind ``compoworld fuzz --examples N | --minutes M [--log F | --resume F]``.

Runs the state machine of :mod:`compoworld_gym.testing` over every built-in
service, random compositions (random walks over the dependency graph, with
distractors), generated chained tasks (their rubric-integrity guards
included) and the built-in task set. The work is cut into batches, one
``(target, round)`` each: ``examples`` splits ``N`` runs over the targets in
one round; ``minutes`` gives every target :data:`BATCH_RUNS` runs per
round, each round on a round-derived seed, until the time is up (a batch
started before the deadline finishes; the first round is the memory
warm-up, see :func:`~compoworld_gym.fuzz_plan.plan_batches`). The result is a JSON-able summary:
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

import hashlib
import os
import signal
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import replace
from pathlib import Path
from types import EllipsisType
from typing import Any, Callable, Iterator, Optional, Sequence

from compoworld_gym.fuzz_log import (  # noqa: F401  (FuzzLogError, BatchRecord re-exported)
    BatchFailure, BatchRecord, FuzzLogError, LogWriter, check_settings, logged_timeout, read_log,
)
from compoworld_gym.fuzz_plan import (  # noqa: F401  (the plan's names re-exported)
    BATCH_RUNS, KINDS, MAX_BATCH_RUNS, Batch, Target, plan_batches, plan_targets, random_compositions,
)
from compoworld_gym.testing.runner import DEEP, FuzzProfile, run_machine

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
    runs, actions, digest = 0, 0, None
    found: Optional[BatchFailure] = None
    try:
        stats, failure = run_machine(target.factory(), profile=profile, seed=batch.seed, quiet=True)
        runs, actions, digest = stats.runs, stats.actions, stats.digest
        if failure is not None:
            found = BatchFailure(invariant=failure.invariant, message=str(failure))
    except Exception as exc:  # noqa: BLE001 - a crash of the harness or of a target is a finding too
        found = BatchFailure(invariant="crash", message=f"{type(exc).__name__}: {exc}")
    return BatchRecord(target=target.label, index=batch.index, round=batch.round, seed=batch.seed,
                       planned=batch.runs, runs=runs, actions=actions, digest=digest,
                       failures=int(found is not None),
                       failure=found, seconds=round(time.perf_counter() - started, 3),
                       rss_mb=_rss_mb()).model_dump()


# ------------------------------------------------------------------------------------------- run
#: Set by :func:`request_stop` (the CLI's SIGINT/SIGTERM handler): the campaign stops before its next
#: batch even if the ``KeyboardInterrupt`` raised with it was lost (Python drops an exception raised
#: inside a garbage-collector callback, such as Hypothesis's gc timer).
STOP = threading.Event()


def request_stop() -> None:
    """Ask a running :func:`run_fuzz` to stop after its current batch (as Ctrl-C does)."""
    STOP.set()


def _execute(jobs: Iterator[tuple[Target, FuzzProfile, Batch]], workers: int, deadline: Optional[float],
             finished: Callable[[dict[str, Any]], None]) -> None:
    """Run ``jobs`` until they or the time run out, calling ``finished`` with each record.

    Raises:
        KeyboardInterrupt: Ctrl-C, or :func:`request_stop` was called.
    """
    def take() -> Optional[tuple[Target, FuzzProfile, Batch]]:
        if STOP.is_set():
            raise KeyboardInterrupt
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
    """Workers leave Ctrl-C to the parent, which stops the campaign and reports once; a SIGTERM
    (the parent's handler is inherited through fork) ends a worker at once, as it would any process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


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
            "targets_reached": sum(e["batches"] > 0 for e in per_target),
            "batches": len(records), "rounds": 1 + max((r["round"] for r in records), default=-1),
            "rss_mb_max": max(rss, default=None), "digest": _digest(records), "failed": failed, "notes": notes,
            "per_target": per_target}


def _digest(records: list[dict[str, Any]]) -> str:
    """BLAKE2b-128 over the batches' digests in plan order (whatever order workers finished them in):
    two campaigns with the same settings drew the same actions iff their digests agree."""
    h = hashlib.blake2b(digest_size=16)
    for r in sorted(records, key=lambda r: (r["round"], r["index"])):
        h.update(f"{r['index']}:{r['round']}:{r.get('digest')}\n".encode())
    return h.hexdigest()


def run_fuzz(examples: Optional[int] = None, seed: Optional[int] = None, *, steps: Optional[int] = None,
             workers: int = 1, include: Optional[Sequence[str]] = None, services: Optional[Sequence[str]] = None,
             progress: Optional[FuzzProgress] = None, minutes: Optional[float] = None,
             batch: Optional[int] = None, log: Optional[Path] = None, resume: bool = False,
             action_timeout: Optional[float] | EllipsisType = ...) -> dict[str, Any]:
    """Fuzz the built-in suite: ``examples`` runs in total, or rounds of batches for ``minutes``.

    Args:
        examples: total runs, split evenly over the targets (each gets >= 1).
            Default 1000 when neither it nor ``minutes`` is given.
        seed: campaign seed; None draws one from the OS (reported in the
            result, so the campaign can be repeated).
        steps: steps per run, the run's first reset included (>= 2; default:
            the deep profile's).
        workers: processes to run batches in parallel.
        include: target kinds (:data:`KINDS`; default all, or service and
            composition when ``services`` is given).
        services: restrict service targets and compositions to these names.
        progress: a :data:`FuzzProgress`, called once per batch as it
            finishes (in completion order when ``workers`` > 1).
        minutes: run rounds until this much wall time has passed (counting
            the time a resumed log already spent).
        batch: runs per target per round with ``minutes`` (:data:`BATCH_RUNS`).
        log: append the header and one JSON line per finished batch here.
        resume: continue the campaign of ``log``: its settings fill the
            ones left None (``examples`` and ``minutes`` as a pair), its
            batches are skipped and counted in the totals.
        action_timeout: seconds one reset or step may take before it is a
            ``hang`` finding (None: no limit). ``...`` (the default): the
            deep profile's 10 s, or with ``resume`` the limit the log was
            started with. The log's header records it, but it is not one of
            the settings a resume must repeat.

    Returns:
        ``{"examples": runs executed, "actions": resets and steps executed,
        "failures": int, "seconds": float, "seed", "steps", "minutes",
        "targets" (planned), "targets_reached" (with a finished batch), "batches",
        "digest" (of every action drawn; equal for equal settings), "rounds", "rss_mb_max", "failed": [{"target",
        "round", "invariant", "message"}], "notes": [str], "per_target":
        [{"target", "planned", "runs", "actions", "batches", "failures",
        "failure", "seconds"}]}`` (``per_target`` in plan order).

    Raises:
        ValueError: a count < 1, steps < 2, a negative seed or action
            timeout, both examples and minutes, an unknown service or target
            kind, or settings that plan no target at all.
        FuzzLogError: ``resume`` of a log that is damaged, locked by a running
            campaign or of other settings, or a new ``log`` over a file that
            already holds one.
        FuzzInterrupted: Ctrl-C; its ``report`` covers what finished.
    """
    if workers < 1:
        raise ValueError(f"workers must be >= 1; got {workers}")
    if action_timeout is not ... and action_timeout is not None and action_timeout < 0:
        raise ValueError(f"action_timeout must be >= 0 seconds (None: no limit); got {action_timeout}")
    if isinstance(include, str) or isinstance(services, str):
        raise ValueError("include and services take lists of names, not one string")
    STOP.clear()
    if resume and log is None:
        raise ValueError("resume needs the log to continue (log=path)")
    given = {"seed": seed, "steps": steps, "include": None if include is None else list(include),
             "services": None if services is None else list(services), "examples": examples,
             "minutes": minutes, "batch": batch}
    header, previous, notes, keep = read_log(Path(log)) if resume else ({}, [], [], None)
    if action_timeout is ...:
        action_timeout = logged_timeout(Path(log), header) if resume else DEEP.machine.action_timeout
    # examples and minutes are one choice: giving either replaces the log's pair (and a
    # differing one is then named by check_settings), instead of mixing them
    pair = ("examples", "minutes") if examples is not None or minutes is not None else ()
    settings = _defaults({k: header.get(k) if v is None and k not in pair else v for k, v in given.items()})
    targets = plan_targets(settings["seed"], settings["include"], settings["services"])
    if not targets:
        raise ValueError(f"these settings plan no target (kinds {', '.join(settings['include'])}"
                         f"{' over ' + ', '.join(settings['services']) if settings['services'] else ''}); "
                         "a composition needs 2 or more services")
    labels = [t.label for t in targets]
    if resume:
        planned = None if settings["examples"] is None else {
            (b.index, b.round) for b in plan_batches(len(targets), settings["seed"], settings["examples"], 1)}
        check_settings(Path(log), header, settings, labels, previous, planned)
    started = time.monotonic()
    spent = max((r.get("elapsed", 0.0) for r in previous), default=0.0)
    deadline = None if settings["minutes"] is None else started + settings["minutes"] * 60 - spent
    records = list(previous)
    done_keys = {(r["index"], r["round"]) for r in previous}
    dropped = {r["index"] for r in previous if r["failure"]}  # a failed target is not fuzzed again
    profile = replace(DEEP, steps=settings["steps"], machine=replace(DEEP.machine, action_timeout=action_timeout))
    batches = plan_batches(len(targets), settings["seed"], settings["examples"], settings["batch"])
    total = None if settings["examples"] is None else sum(
        b.runs for b in plan_batches(len(targets), settings["seed"], settings["examples"], 1))
    jobs = _pending(targets, profile, batches, done_keys, dropped)
    runs_done = sum(r["planned"] for r in previous)
    writer = None if log is None else LogWriter(Path(log), {**settings, "action_timeout": action_timeout},
                                                 labels, keep)

    def finished(entry: dict[str, Any]) -> None:
        nonlocal runs_done
        entry["elapsed"] = round(spent + time.monotonic() - started, 3)
        records.append(entry)
        runs_done += entry["planned"]
        if entry["failure"]:
            dropped.add(entry["index"])
        if writer is not None:
            writer.write(entry)
        if progress:
            progress(entry, runs_done, total)

    try:
        _execute(jobs, workers, deadline, finished)
    except KeyboardInterrupt:
        raise FuzzInterrupted(_summary(targets, records, settings, spent + time.monotonic() - started,
                                       notes)) from None
    finally:
        if writer is not None:
            writer.close()
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
    if s["seed"] < 0:
        raise ValueError(f"seed must be >= 0; got {s['seed']}")
    if s["services"] is not None:
        s["services"] = list(dict.fromkeys(s["services"]))  # a name given twice is one service
    s["steps"] = DEEP.steps if s["steps"] is None else int(s["steps"])
    if s["include"] is None:  # a user naming services means those, not 15-service generated worlds
        s["include"] = ["service", "composition"] if s["services"] is not None else list(KINDS)
    s["include"] = list(s["include"])
    unknown = [k for k in s["include"] if k not in KINDS]
    if unknown:
        raise ValueError(f"unknown target kind(s) {', '.join(map(repr, unknown))}; use {', '.join(KINDS)}")
    for name in ("examples", "batch"):
        if s[name] is not None and s[name] < 1:
            raise ValueError(f"{name} must be >= 1; got {s[name]}")
    if s["steps"] < 2:
        raise ValueError(f"steps must be >= 2 (a run's first step is its reset); got {s['steps']}")
    if s["minutes"] is not None and not s["minutes"] > 0:
        raise ValueError(f"minutes must be > 0; got {s['minutes']}")
    return s
