"""Reset and whole-episode latency for a 5-service task.

Run: ``python -m compoworld_gym.benchmarks.episode [--json] [--quick]``.

* ``reset_ms``: ``env.reset`` of the task (its 5 services plus its
  distractors on their initial states) and the prompt observation.
* ``episode_ms``: reset, the reference solution replayed action by action
  through ``env.step`` (JSON text actions), and the final answer, whose step
  runs the rubric evaluation. Every timed episode must score 1.0.
"""

from __future__ import annotations

from typing import Any

from compoworld_gym.benchmarks._common import bench_task, cli, final_answer_action, time_calls
from compoworld_gym.envs.compoworld_env import CompoWorldEnv


def run(quick: bool = False) -> dict[str, Any]:
    """Measure reset and episode latency; returns ``reset_ms``, ``episode_ms``
    (medians), their p99s and the task's shape."""
    task, source = bench_task()
    env = CompoWorldEnv(tasks=[task], max_steps=10**6)
    actions = [mc.action() for mc in task.reference]
    final = final_answer_action(task)
    rewards: list[float] = []

    def reset() -> None:
        env.reset(options={"task": task})

    def episode() -> None:
        env.reset(options={"task": task})
        for action in actions:
            env.step(action)
        rewards.append(env.step(final)[1])

    reset_t = time_calls(reset, 100 if quick else 2000, 10 if quick else 100, unit="ms")
    episode_t = time_calls(episode, 20 if quick else 400, 3 if quick else 20, unit="ms")
    if min(rewards) < 1.0:
        raise RuntimeError(f"the reference solution of {task.id} scored {min(rewards)} (expected 1.0)")
    return {
        "task": task.id, "task_source": source, "services": len(task.services),
        "distractors": len(task.distractors), "reference_steps": len(actions), "checks": len(task.checks),
        "reset_ms": reset_t["median_ms"], "reset_p99_ms": reset_t["p99_ms"],
        "episode_ms": episode_t["median_ms"], "episode_p99_ms": episode_t["p99_ms"],
        "episode_reward": min(rewards), "repetitions": {"reset": reset_t["n"], "episode": episode_t["n"]},
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command-line entry point."""
    return cli("reset and episode latency", run, argv)


if __name__ == "__main__":
    main()
