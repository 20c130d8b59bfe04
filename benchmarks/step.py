"""Step latency: ``call_tool`` read and write steps and every meta-tool,
each through ``env.step`` with a JSON action (parsing, dispatch, the tool,
serialising the observation and building ``info`` all included).

Run: ``python -m compoworld_gym.benchmarks.step [--json] [--quick]``.

Every read-only and every mutating ``call_tool`` of the benchmark task's
reference solution is timed in the state where the reference makes it.
Latencies are steady-state: the tool's service has already been built in
the episode (the first call of a service also builds its state from the
task; that one-off cost is reported as ``first_call_us`` and is part of
``episode_ms`` in :mod:`.episode`).
"""

from __future__ import annotations

import json
import time
from typing import Any

from compoworld_gym.benchmarks._common import bench_task, cli, summarise_ns, time_calls
from compoworld_gym.envs.compoworld_env import CompoWorldEnv


def _action(name: str, **arguments: Any) -> str:
    return json.dumps({"name": name, "arguments": arguments})


def reference_calls(task: Any, env: CompoWorldEnv) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first read-only and the first mutating ``call_tool`` arguments of the reference.

    Raises:
        ValueError: the reference has no read or no write call.
    """
    steps = classify(task, env)
    reads = [task.reference[i].arguments for i, w in steps if not w]
    writes = [task.reference[i].arguments for i, w in steps if w]
    if not reads or not writes:
        raise ValueError(f"task {task.id} has no read and write call in its reference")
    return reads[0], writes[0]


def classify(task: Any, env: CompoWorldEnv) -> list[tuple[int, bool]]:
    """``[(reference index, is a write)]`` of the reference's routable ``call_tool`` steps."""
    env.reset(options={"task": task})
    out = []
    for i, mc in enumerate(task.reference):
        found = route(env.world, mc.arguments.get("tool_name", "")) if mc.name == "call_tool" else None
        if found is not None:
            out.append((i, not found[1].read_only))
    return out


def route(world: Any, tool_name: str) -> tuple[str, Any] | None:
    """(service name, spec) of a tool name; works on worlds without lazy mounting too."""
    if hasattr(world, "resolve_spec"):
        return world.resolve_spec(tool_name)
    found = world.resolve(tool_name)
    return None if found is None else (found[0].name, found[1])


def _replay(env: CompoWorldEnv, task: Any, upto: int) -> None:
    """Reset, replay reference steps ``[0, upto)``, and build the service of step ``upto``."""
    env.reset(options={"task": task})
    for mc in task.reference[:upto]:
        env.step(mc.action())
    env.world.services[route(env.world, task.reference[upto].arguments["tool_name"])[0]]  # noqa: B018


def _pooled(samples: dict[str, list[int]]) -> dict[str, float]:
    return summarise_ns([x for xs in samples.values() for x in xs])


def run(quick: bool = False) -> dict[str, Any]:
    """Measure step latencies.

    Every ``call_tool`` step of the reference solution is timed in its
    episode context: reads repeatedly after replaying the steps before them,
    writes once per fresh replay (so each write meets the state it was
    designed for). ``step_read_us``/``step_write_us`` are the medians over
    all read/write samples pooled; ``per_tool`` gives each call's median.
    """
    read_reps, write_reps = (100, 10) if quick else (1500, 150)
    task, source = bench_task()
    env = CompoWorldEnv(tasks=[task], max_steps=10**9)
    steps = classify(task, env)
    clock = time.perf_counter_ns
    reads: dict[str, list[int]] = {}
    writes: dict[str, list[int]] = {}
    failures = 0
    for i, is_write in steps:
        action = task.reference[i].action()
        key = f"{i}:{task.reference[i].arguments['tool_name']}"
        bucket = (writes if is_write else reads).setdefault(key, [])
        if not is_write:
            _replay(env, task, i)
            for _ in range(read_reps // 10):  # warm-up
                env.step(action)
        for _ in range(write_reps if is_write else read_reps):
            if is_write:
                _replay(env, task, i)
            t0 = clock()
            obs = env.step(action)[0]
            bucket.append(clock() - t0)
        failures += not json.loads(obs)["success"]
    if not reads or not writes:
        raise ValueError(f"task {task.id} has no read and write call in its reference")
    step_read, step_write = _pooled(reads), _pooled(writes)
    first_read = next(i for i, w in steps if not w)

    def reset_only() -> None:
        env.reset(options={"task": task})
        for mc in task.reference[:first_read]:
            if mc.name != "call_tool":
                env.step(mc.action())

    first_call = time_calls(lambda: env.step(task.reference[first_read].action()), write_reps, 3,
                            setup=reset_only)
    service = route(env.world, task.reference[steps[0][0]].arguments["tool_name"])[0]
    tool = task.reference[steps[0][0]].arguments["tool_name"]
    env.reset(options={"task": task})
    n = read_reps
    meta = {
        "list_services": time_calls(lambda: env.step(_action("list_services")), n, n // 10),
        "list_tools": time_calls(lambda: env.step(_action("list_tools", service=service)), n, n // 10),
        "describe_tool": time_calls(lambda: env.step(_action("describe_tool", tool=tool)), n, n // 10),
        "call_tool_read": step_read, "call_tool_write": step_write,
        "final_answer": time_calls(lambda: env.step('{"final_answer": "done"}'), write_reps, 3,
                                   setup=lambda: env.reset(options={"task": task})),
    }
    median = lambda xs: summarise_ns(xs)["median_us"]  # noqa: E731
    return {
        "task": task.id, "task_source": source,
        "step_read_us": step_read["median_us"], "step_read_p99_us": step_read["p99_us"],
        "step_write_us": step_write["median_us"], "step_write_p99_us": step_write["p99_us"],
        "failed_reference_calls": failures, "first_call_us": first_call["median_us"],
        "per_tool": {"read": {k: median(v) for k, v in reads.items()},
                     "write": {k: median(v) for k, v in writes.items()}},
        "meta_tools": meta,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command-line entry point."""
    return cli("step latency (env.step, JSON action)", run, argv)


if __name__ == "__main__":
    main()
