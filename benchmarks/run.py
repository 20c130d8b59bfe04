"""The standard benchmark set, as run by ``compoworld bench [--json]``.

Run: ``python -m compoworld_gym.benchmarks.run [--json] [--quick]``.

:func:`run_benchmarks` runs every family (step, episode, generation,
memory, vector, rollout) and returns one object whose top level carries the
headline figures next to the targets of the benchmark issue.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from compoworld_gym.benchmarks import episode, generation, memory, rollout, step, vector
from compoworld_gym.benchmarks._common import cli, machine

#: Targets on one core: ``{key: (comparison, bound)}``.
TARGETS: dict[str, tuple[str, float]] = {
    "episode_ms": ("<=", 5.0), "step_read_us": ("<=", 20.0), "step_write_us": ("<=", 40.0),
    "reset_ms": ("<=", 1.0), "tasks_per_s": (">=", 100.0), "env_kib": ("<=", 256.0),
}

FAMILIES: dict[str, Callable[[bool], dict[str, Any]]] = {
    "step": step.run, "episode": episode.run, "generation": generation.run,
    "memory": memory.run, "vector": vector.run, "rollout": rollout.run,
}


def targets_met(headline: dict[str, Any]) -> dict[str, bool | None]:
    """``{key: met}`` for every target (None when the figure is missing)."""
    out: dict[str, bool | None] = {}
    for key, (op, bound) in TARGETS.items():
        value = headline.get(key)
        out[key] = None if value is None else (value <= bound if op == "<=" else value >= bound)
    return out


def run_benchmarks(quick: bool = False, families: tuple[str, ...] | None = None) -> dict[str, Any]:
    """Run the standard set and return one JSON-able object.

    Args:
        quick: a smoke run with few repetitions (seconds, numbers noisy).
        families: subset of :data:`FAMILIES` to run (default all).

    Returns:
        ``step_read_us``, ``step_write_us``, ``reset_ms``, ``episode_ms``,
        ``tasks_per_s``, ``env_kib``, ``sync_steps_per_s``, ``env_share``
        (headline medians; None when a family was skipped or unavailable),
        ``targets`` and ``targets_met``, every family's full result under its
        name, ``seconds`` per family and ``machine``.

    Raises:
        KeyError: an unknown family name.
    """
    names = tuple(FAMILIES) if families is None else families
    results: dict[str, Any] = {}
    seconds: dict[str, float] = {}
    for name in names:
        t0 = time.perf_counter()
        results[name] = FAMILIES[name](quick)
        seconds[name] = round(time.perf_counter() - t0, 2)
    get = lambda fam, key: results.get(fam, {}).get(key)  # noqa: E731
    headline = {
        "step_read_us": get("step", "step_read_us"), "step_write_us": get("step", "step_write_us"),
        "reset_ms": get("episode", "reset_ms"), "episode_ms": get("episode", "episode_ms"),
        "tasks_per_s": get("generation", "tasks_per_s"), "env_kib": get("memory", "env_kib"),
        "sync_steps_per_s": get("vector", "sync_best_steps_per_s"), "env_share": get("rollout", "env_share"),
    }
    return {**headline, "quick": quick,
            "targets": {k: f"{op} {bound:g}" for k, (op, bound) in TARGETS.items()},
            "targets_met": targets_met(headline), **results,
            "seconds": {**seconds, "total": round(sum(seconds.values()), 2)}, "machine": machine()}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command-line entry point."""
    return cli("compoworld-gym benchmarks", run_benchmarks, argv)


if __name__ == "__main__":
    main()
