"""Memory per live env: RSS growth and tracemalloc with 1, 100 and 1,000
live envs, each reset on the benchmark task.

Run: ``python -m compoworld_gym.benchmarks.memory [--json] [--quick]``.

RSS is read from ``/proc/self/statm`` (Linux; ``psutil`` elsewhere when
installed). One env is built and reset first so imports, caches and the
task itself are not charged to the envs. ``env_kib`` is the larger of the
two per-env figures at the largest count (a conservative reading).
``after_episode`` also reports envs that played the reference solution
(their services then hold their working state).
"""

from __future__ import annotations

import gc
import os
import tracemalloc
from typing import Any, Optional

from compoworld_gym.benchmarks._common import bench_task, cli
from compoworld_gym.envs.compoworld_env import CompoWorldEnv


def rss_bytes() -> Optional[int]:
    """Resident set size of this process in bytes, or None if unknown."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        try:
            import psutil  # optional

            return int(psutil.Process().memory_info().rss)
        except Exception:  # noqa: BLE001 - no way to read RSS here
            return None


def _make(task: Any, n: int, play: bool) -> list[CompoWorldEnv]:
    envs = []
    actions = [mc.action() for mc in task.reference] if play else []
    for _ in range(n):
        env = CompoWorldEnv(tasks=[task])
        env.reset(options={"task": task})
        for action in actions:
            env.step(action)
        envs.append(env)
    return envs


def _measure(task: Any, n: int, play: bool) -> dict[str, Any]:
    gc.collect()
    before = rss_bytes()
    envs = _make(task, n, play)
    gc.collect()
    after = rss_bytes()
    rss_kib = None if before is None or after is None else round((after - before) / n / 1024, 1)
    del envs
    gc.collect()
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    envs = _make(task, n, play)
    gc.collect()
    traced = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    del envs
    gc.collect()
    return {"envs": n, "rss_kib_per_env": rss_kib, "traced_kib_per_env": round(traced / n / 1024, 1)}


def run(quick: bool = False) -> dict[str, Any]:
    """Measure memory per env; returns ``env_kib`` and per-count details."""
    task, source = bench_task()
    _make(task, 1, True)  # imports, caches, lazily built shared tables
    counts = (1, 100) if quick else (1, 100, 1000)
    rows = [_measure(task, n, play=False) for n in counts]
    played = _measure(task, 20 if quick else 100, play=True)
    last = rows[-1]
    candidates = [v for v in (last["rss_kib_per_env"], last["traced_kib_per_env"]) if v is not None]
    return {"task": task.id, "task_source": source, "env_kib": max(candidates), "after_reset": rows,
            "after_episode": played}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command-line entry point."""
    return cli("memory per live env", run, argv)


if __name__ == "__main__":
    main()
