"""Step latency: ``call_tool`` read and write steps and every meta-tool,
each through ``env.step`` with a JSON action (parsing, dispatch, the tool,
serialising the observation and building ``info`` all included).

Run: ``python -m compoworld_gym.benchmarks.step [--json] [--quick]``.

The read and write tools are the first read-only and the first mutating
``call_tool`` of the benchmark task's reference solution. Latencies are
steady-state: the tool's service has already served one call in the
episode (the first call of a service also builds its state from the task;
that one-off cost is reported as ``first_call_us`` and is part of
``episode_ms`` in :mod:`.episode`).
"""

from __future__ import annotations

import json
from typing import Any

from compoworld_gym.benchmarks._common import bench_task, cli, time_calls
from compoworld_gym.envs.compoworld_env import CompoWorldEnv


def _action(name: str, **arguments: Any) -> str:
    return json.dumps({"name": name, "arguments": arguments})


def reference_calls(task: Any, env: CompoWorldEnv) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first read-only and the first mutating ``call_tool`` arguments of the reference.

    Raises:
        ValueError: the reference has no read or no write call.
    """
    env.reset(options={"task": task})
    read = write = None
    for mc in task.reference:
        if mc.name != "call_tool":
            continue
        route = env.world.resolve(mc.arguments["tool_name"])
        if route is None:
            continue
        if route[1].read_only and read is None:
            read = mc.arguments
        elif not route[1].read_only and write is None:
            write = mc.arguments
    if read is None or write is None:
        raise ValueError(f"task {task.id} has no read and write call in its reference")
    return read, write


def run(quick: bool = False) -> dict[str, Any]:
    """Measure step latencies; returns ``step_read_us``, ``step_write_us``,
    ``first_call_us``, per-meta-tool latencies and the tools used."""
    reps = 300 if quick else 5000
    task, source = bench_task()
    env = CompoWorldEnv(tasks=[task], max_steps=10**9)
    read, write = reference_calls(task, env)
    read_action = _action("call_tool", **read)
    write_action = _action("call_tool", **write)
    service = env.world.resolve(write["tool_name"])[0].name

    env.reset(options={"task": task})
    obs = env.step(read_action)[0]
    assert json.loads(obs)["success"], obs
    step_read = time_calls(lambda: env.step(read_action), reps, reps // 10)

    # Each write runs on a fresh episode (so it succeeds and the state does
    # not grow); its service is materialised first, untimed.
    outcomes: list[bool] = []

    def fresh() -> None:
        env.reset(options={"task": task})
        env.world.services[service]  # noqa: B018 - touching it builds the service's state

    def do_write() -> None:
        outcomes.append(json.loads(env.step(write_action)[0])["success"])

    step_write = time_calls(do_write, reps // 5, reps // 50, setup=fresh)

    def reset_only() -> None:
        env.reset(options={"task": task})

    first_call = time_calls(lambda: env.step(read_action), reps // 5, reps // 50, setup=reset_only)

    env.reset(options={"task": task})
    meta = {
        "list_services": time_calls(lambda: env.step(_action("list_services")), reps, reps // 10),
        "list_tools": time_calls(lambda: env.step(_action("list_tools", service=service)), reps, reps // 10),
        "describe_tool": time_calls(lambda: env.step(_action("describe_tool", tool=write["tool_name"])),
                                    reps, reps // 10),
        "call_tool_read": step_read,
        "call_tool_write": step_write,
        "final_answer": time_calls(lambda: env.step('{"final_answer": "done"}'), reps // 5, reps // 50,
                                   setup=reset_only),
    }
    return {
        "task": task.id, "task_source": source, "read_tool": read["tool_name"], "write_tool": write["tool_name"],
        "step_read_us": step_read["median_us"], "step_read_p99_us": step_read["p99_us"],
        "step_write_us": step_write["median_us"], "step_write_p99_us": step_write["p99_us"],
        "write_success_rate": round(sum(outcomes) / len(outcomes), 3),
        "first_call_us": first_call["median_us"],
        "meta_tools": meta,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command-line entry point."""
    return cli("step latency (env.step, JSON action)", run, argv)


if __name__ == "__main__":
    main()
