"""Vector-env throughput: env steps per second through ``SyncVectorEnv``
and ``AsyncVectorEnv(shared_memory=False)`` with 1 to 64 sub-envs.

Run: ``python -m compoworld_gym.benchmarks.vector [--json] [--quick]``.

Every sub-env runs the benchmark task and each batch step sends every
sub-env the same read-only ``call_tool`` action (the first read of the
reference). Steps per second count sub-env steps (batch steps times the
number of sub-envs). Async workers are started with the platform's default
start method; worker start-up is not timed.
"""

from __future__ import annotations

import json
import time
from typing import Any

import gymnasium as gym

from compoworld_gym.benchmarks._common import bench_task, cli
from compoworld_gym.benchmarks.step import reference_calls
from compoworld_gym.envs.compoworld_env import CompoWorldEnv


class _Factory:
    """A picklable env constructor (AsyncVectorEnv pickles its factories)."""

    def __init__(self, task: Any) -> None:
        self.task = task

    def __call__(self) -> CompoWorldEnv:
        return CompoWorldEnv(task=self.task, tasks=[self.task], max_steps=10**6)


def _throughput(vec: gym.vector.VectorEnv, action: str, n: int, batches: int) -> float:
    vec.reset(seed=0)
    actions = (action,) * n
    for _ in range(max(1, batches // 10)):
        vec.step(actions)
    t0 = time.perf_counter()
    for _ in range(batches):
        vec.step(actions)
    return round(n * batches / (time.perf_counter() - t0), 1)


def run(quick: bool = False) -> dict[str, Any]:
    """Measure vector throughput; returns ``sync`` and ``async`` as
    ``{sub-envs: steps per second}`` and the single-env baseline."""
    task, source = bench_task()
    read, _ = reference_calls(task, CompoWorldEnv(tasks=[task]))
    action = json.dumps({"name": "call_tool", "arguments": read})
    factory = _Factory(task)
    sync_sizes = (1, 4, 16) if quick else (1, 2, 4, 8, 16, 32, 64)
    async_sizes = (1, 2) if quick else (1, 4, 16, 64)
    steps_total = 400 if quick else 8000
    sync: dict[str, float] = {}
    for n in sync_sizes:
        vec = gym.vector.SyncVectorEnv([factory] * n, autoreset_mode=gym.vector.AutoresetMode.DISABLED)
        sync[str(n)] = _throughput(vec, action, n, max(10, steps_total // n))
        vec.close()
    async_: dict[str, float] = {}
    for n in async_sizes:
        vec = gym.vector.AsyncVectorEnv([factory] * n, shared_memory=False,
                                        autoreset_mode=gym.vector.AutoresetMode.DISABLED)
        async_[str(n)] = _throughput(vec, action, n, max(10, (steps_total // 4) // n))
        vec.close()
    return {"task": task.id, "task_source": source, "action_tool": read["tool_name"],
            "sync_steps_per_s": sync, "async_steps_per_s": async_,
            "sync_best_steps_per_s": max(sync.values()), "async_best_steps_per_s": max(async_.values())}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command-line entry point."""
    return cli("vector env throughput", run, argv)


if __name__ == "__main__":
    main()
