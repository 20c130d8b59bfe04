"""Evaluation: run agents over tasks and aggregate rubric results.

Metrics (per agent):

* ``success_rate`` — strict success: every rubric item passed;
* ``mean_rubric_score`` — mean rubric score (partial credit: the env's
  reward, :func:`compoworld_gym.rewards.score`);
* ``pass_at_k`` — share of tasks solved in at least one of ``k`` runs;
* ``pass_hat_k`` — share of tasks solved in all ``k`` runs (τ-bench's pass^k);
* ``per_capability`` and ``per_item`` pass rates.
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

import gymnasium as gym

from compoworld_gym.envs.compoworld_env import CompoWorldEnv
from compoworld_gym.jsonl import atomic_writer
from compoworld_gym.tasks import Task

from compoworld_gym.baselines.agents import Agent


@dataclass
class EpisodeResult:
    """One finished episode.

    Attributes:
        task_id: the task.
        score: the rubric score, in [0, 1] (:func:`compoworld_gym.rewards.score`).
        success: every item passed.
        rubric: ``[{"id", "kind", "passed", "guard", "description"}]``.
        steps: env steps taken; n_tool_calls: meta-tool calls made.
        finish_reason: ``"answer"`` or ``"max_steps"``.
    """

    task_id: str
    score: float
    success: bool
    rubric: list[dict[str, Any]]
    steps: int
    n_tool_calls: int
    n_real_tool_calls: int
    finish_reason: str
    transcript: list[tuple[str, str]] = field(default_factory=list)


def run_episode(env: gym.Env, agent: Agent, task: Task, seed: int = 0) -> EpisodeResult:
    """Run ``agent`` on ``task`` in ``env`` (a ``CompoWorldEnv``, possibly
    wrapped, e.g. by ``RecordTrajectory``) until the episode ends."""
    obs, info = env.reset(seed=seed, options={"task": task})
    agent.reset(obs, task=task if agent.needs_task else None)
    transcript = []
    while True:
        action = agent.act(obs)
        obs, _reward, terminated, truncated, info = env.step(action)
        transcript.append((action, obs))
        if terminated or truncated:
            break
    return EpisodeResult(
        task_id=task.id, score=info["rubric_score"],
        success=all(r["passed"] for r in info["rubric"]), rubric=info["rubric"],
        steps=info["steps"], n_tool_calls=info["n_tool_calls"],
        n_real_tool_calls=info["n_real_tool_calls"],
        finish_reason="answer" if terminated else "max_steps", transcript=transcript,
    )


def aggregate(tasks: list[Task], runs: dict[str, list[EpisodeResult]]) -> dict[str, Any]:
    """Aggregate ``{task_id: [results of k runs]}`` into the metrics above."""
    flat = [r for rs in runs.values() for r in rs]
    n = len(flat) or 1
    by_cap: dict[str, list[bool]] = defaultdict(list)
    by_item: dict[str, list[bool]] = defaultdict(list)
    for task in tasks:
        for r in runs.get(task.id, []):
            for cap in task.capabilities:
                by_cap[cap].append(r.success)
            for item in r.rubric:
                by_item[f"{task.id}:{item['id']}"].append(item["passed"])
    t = len(runs) or 1
    return {
        "tasks": len(tasks),
        "episodes": len(flat),
        "success_rate": sum(r.success for r in flat) / n,
        "mean_rubric_score": sum(r.score for r in flat) / n,
        "pass_at_k": sum(any(r.success for r in rs) for rs in runs.values()) / t,
        "pass_hat_k": sum(all(r.success for r in rs) for rs in runs.values()) / t,
        "mean_steps": sum(r.steps for r in flat) / n,
        "per_capability": {c: sum(v) / len(v) for c, v in sorted(by_cap.items())},
        "per_item": {i: sum(v) / len(v) for i, v in sorted(by_item.items())},
    }


def evaluate_agent(
    agent_factory: Callable[[int], Agent],
    tasks: Iterable[Task],
    k: int = 1,
    max_steps: int = 40,
    seed: int = 0,
    on_episode: Optional[Callable[[EpisodeResult], None]] = None,
    record_path: Optional[str | Path] = None,
    source: str = "compoworld-gym",
) -> tuple[dict[str, Any], dict[str, list[EpisodeResult]]]:
    """Run ``k`` episodes per task; agent ``i`` of a task is ``agent_factory(seed + i)``.

    Args:
        agent_factory: seed → agent (may return the same agent each time).
        tasks: the tasks to run.
        k: runs per task (pass@k, pass^k).
        max_steps: step limit per episode.
        seed: seed of the first run's agent and env reset.
        on_episode: called with each finished episode (progress bars).
        record_path: write every episode to this JSONL file in the paper's
            trajectory format (:mod:`compoworld_gym.trajectory`). The file
            is written beside it under a temporary name and replaces
            ``record_path`` only when every episode has run: an error or
            Ctrl-C leaves the old file (or none), never a partial one.
        source: the trajectories' ``source`` field.

    Returns:
        ``(metrics, {task_id: [EpisodeResult, ...]})``.

    Raises:
        ValueError: ``k < 1``.
        OSError: ``record_path``'s directory cannot be written.
    """
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    tasks = list(tasks)
    runs: dict[str, list[EpisodeResult]] = {}
    with contextlib.ExitStack() as stack:
        sink = stack.enter_context(atomic_writer(record_path)) if record_path is not None else None
        env: gym.Env = CompoWorldEnv(tasks=tasks, max_steps=max_steps)
        if sink is not None:
            from compoworld_gym.wrappers.record_trajectory import RecordTrajectory

            env = RecordTrajectory(env, sink, source=source)
        stack.callback(env.close)  # runs before the writer commits: the stack unwinds in reverse
        for task in tasks:
            for i in range(k):
                result = run_episode(env, agent_factory(seed + i), task, seed=seed + i)
                runs.setdefault(task.id, []).append(result)
                if on_episode:
                    on_episode(result)
    metrics = aggregate(tasks, runs)
    metrics["k"] = k
    return metrics, runs
