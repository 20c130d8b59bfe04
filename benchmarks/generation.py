"""Task generation rate: verified tasks per second (one process) and time
per stage (compose, explore, design, verify, submit).

Run: ``python -m compoworld_gym.benchmarks.generation [--json] [--quick]``.

A warm-up run with another seed first builds the per-service seeded states
and read surveys (cached per process, as in any long generation run); the
measured run then generates fresh tasks.
"""

from __future__ import annotations

from typing import Any

from compoworld_gym.benchmarks._common import cli


def run(quick: bool = False) -> dict[str, Any]:
    """Measure generation; returns ``tasks_per_s``, per-stage milliseconds per
    kept task and the rejection counts. ``available`` is False (with a
    ``note``) when the generator cannot be imported."""
    try:
        from compoworld_gym.generation import generate_with_stats
    except ImportError as exc:
        return {"available": False, "note": f"generator unavailable: {exc}", "tasks_per_s": None}
    n = 10 if quick else 100
    generate_with_stats(3 if quick else 20, seed=10_000)  # warm the per-process seed-state caches
    tasks, summary = generate_with_stats(n, seed=1)
    seconds = summary["seconds"]
    kept = max(1, summary["tasks"])
    return {
        "available": True, "tasks": summary["tasks"], "attempts": summary["attempts"],
        "tasks_per_s": summary["tasks_per_second"],
        "ms_per_task": {stage: round(1000 * sec / kept, 3) for stage, sec in seconds.items()},
        "rejected": summary["rejected"],
        "mean_services": round(sum(len(t.services) for t in tasks) / kept, 2),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command-line entry point."""
    return cli("task generation", run, argv)


if __name__ == "__main__":
    main()
