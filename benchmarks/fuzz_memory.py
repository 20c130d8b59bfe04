"""Memory of a long fuzz campaign: RSS at the start, after the first minute
and at every minute of a ``minutes``-long ``run_fuzz`` over every target.

Run: ``python -m compoworld_gym.benchmarks.fuzz_memory [--minutes M] [--json] [--quick]``
(default 10 minutes; ``--quick`` is 2).

The campaign runs in this process (``workers=1``), so its RSS is this
process's, read from ``/proc/self/statm`` (see
:func:`compoworld_gym.benchmarks.memory.rss_bytes`) by a sampling thread
once a minute and after every batch. ``flat`` says whether every reading
after the first minute stayed within 10% of the first-minute reading (the
goal of issue 18); ``growth_mb_per_min`` is the least-squares slope of the
per-minute readings. ``warm`` is when every target had run a full batch
(round 0 done: every round is a full one) and the RSS then;
``growth_pct_after_warm`` is the growth of the later per-minute readings
over it: the high-water mark of the heaviest batch is reached by then.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from typing import Any, Optional

from compoworld_gym.benchmarks._common import cli
from compoworld_gym.benchmarks.memory import rss_bytes

#: The first-minute reading every later one must stay within (a fraction of it).
TOLERANCE = 0.10


def _mb() -> Optional[float]:
    rss = rss_bytes()
    return None if rss is None else round(rss / 2**20, 1)


def _slope(points: list[tuple[float, float]]) -> Optional[float]:
    """Least-squares slope of ``(x, y)`` points (None for fewer than two)."""
    if len(points) < 2:
        return None
    n = len(points)
    mx, my = sum(x for x, _ in points) / n, sum(y for _, y in points) / n
    var = sum((x - mx) ** 2 for x, _ in points)
    return round(sum((x - mx) * (y - my) for x, y in points) / var, 2) if var else None


def _growth(warm: Optional[dict[str, Any]], later: list[dict[str, Any]]) -> Optional[float]:
    """Percent growth of the largest later reading over the reading when warm."""
    if not warm or not warm["rss_mb"] or not later:
        return None
    return round(100 * (max(s["rss_mb"] for s in later) - warm["rss_mb"]) / warm["rss_mb"], 1)


class _Sampler(threading.Thread):
    """Reads RSS every ``period`` seconds until stopped."""

    def __init__(self, period: float = 60.0) -> None:
        super().__init__(daemon=True)
        self.period, self.started = period, time.monotonic()
        self.samples: list[dict[str, Any]] = []
        self._stop_event = threading.Event()

    def run(self) -> None:
        minute = 1
        while not self._stop_event.wait(self.started + minute * self.period - time.monotonic()):
            self.samples.append({"minute": minute, "rss_mb": _mb()})
            minute += 1

    def stop(self) -> None:
        self._stop_event.set()
        self.join()


def run(quick: bool = False, minutes: Optional[float] = None, seed: int = 2026) -> dict[str, Any]:
    """Run a ``minutes``-long campaign (10, or 2 with ``quick``) and report its memory."""
    from compoworld_gym.fuzz import run_fuzz

    minutes = minutes or (2.0 if quick else 10.0)
    start = _mb()
    peak: dict[str, Any] = {"rss_mb": start or 0.0, "warm": None}

    def batch_done(entry: dict[str, Any], done: int, total: Optional[int]) -> None:
        peak["rss_mb"] = max(peak["rss_mb"], entry["rss_mb"] or 0.0)
        if peak["warm"] is None and entry["round"] >= 1:  # every target has run a full batch
            peak["warm"] = {"minute": round(entry["elapsed"] / 60, 2), "rss_mb": entry["rss_mb"]}

    sampler = _Sampler()
    sampler.start()
    try:
        report = run_fuzz(minutes=minutes, seed=seed, workers=1, progress=batch_done)
    finally:
        sampler.stop()
    samples = [s for s in sampler.samples if s["rss_mb"] is not None]
    first = samples[0]["rss_mb"] if samples else None
    later = [s["rss_mb"] for s in samples[1:]]
    worst = max(later, default=first)
    return {
        "minutes": minutes, "seed": seed, "runs": report["examples"], "actions": report["actions"],
        "batches": report["batches"], "rounds": report["rounds"], "targets": report["targets"],
        "failures": report["failures"], "seconds": report["seconds"],
        "rss_mb_start": start, "rss_mb_first_minute": first, "rss_mb_end": _mb(),
        "rss_mb_max_after_first_minute": worst, "rss_mb_peak_after_batch": peak["rss_mb"],
        "growth_pct_after_first_minute": None if not first else round(100 * (worst - first) / first, 1),
        "growth_mb_per_min": _slope([(s["minute"], s["rss_mb"]) for s in samples]),
        "flat": None if not first else worst <= first * (1 + TOLERANCE),
        "warm": peak["warm"],
        "growth_pct_after_warm": _growth(peak["warm"], [s for s in samples if peak["warm"]
                                                        and s["minute"] > peak["warm"]["minute"]]),
        "per_minute": samples,
        "failed": [{k: f[k] for k in ("target", "round", "invariant")} for f in report["failed"]],
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command-line entry point: :func:`~compoworld_gym.benchmarks._common.cli` plus ``--minutes`` and ``--seed``."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--minutes", type=float, default=None)
    pre.add_argument("--seed", type=int, default=2026)
    known, rest = pre.parse_known_args(sys.argv[1:] if argv is None else argv)
    return cli("memory of a fuzz campaign", lambda quick: run(quick, known.minutes, known.seed), rest)


if __name__ == "__main__":
    main()
