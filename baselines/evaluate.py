"""Evaluation: run agents over tasks and aggregate rubric results.

Metrics (per agent):

* ``success_rate`` — strict success: every rubric item passed;
* ``mean_rubric_score`` — mean rubric score (partial credit: the env's
  reward, :func:`compoworld_gym.rewards.score`);
* ``pass_at_k`` — share of tasks solved in at least one of ``k`` runs;
* ``pass_hat_k`` — share of tasks solved in all ``k`` runs (τ-bench's pass^k);
* ``per_capability`` and ``per_item`` pass rates;
* ``turns``, ``parse_failures`` and ``parse_failure_share`` — agent turns,
  turns whose action the env could not parse (a model turn the
  :class:`~compoworld_gym.baselines.agents.ChatAgent` cannot parse is sent
  as ``[]``, which the env rejects), and their share of all turns;
* ``error_codes`` — ``{"404": n, ...}``: the codes of failed tool results
  (meta-tool or, in flat mode, service-tool calls that ran and failed),
  most common first.

``evaluate_agent(..., tools="flat")`` runs the same tasks through
:class:`~compoworld_gym.wrappers.FlatTools` (every mounted tool offered
directly instead of the four meta-tools).
"""

from __future__ import annotations

import contextlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Literal, Optional, get_args

import gymnasium as gym
import orjson

from compoworld_gym.actions import parse_action
from compoworld_gym.envs.compoworld_env import CompoWorldEnv
from compoworld_gym.jsonl import atomic_writer
from compoworld_gym.tasks import Task

from compoworld_gym.baselines.agents import Agent

#: How the agent sees the tools: the four meta-tools, or every mounted tool
#: directly (:class:`~compoworld_gym.wrappers.FlatTools`).
ToolsMode = Literal["meta", "flat"]
TOOLS_MODES: tuple[str, ...] = get_args(ToolsMode)


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
        transcript: ``[(action, observation)]`` per step.
        turns: agent turns (actions sent; equals ``steps``).
        parse_failures: turns whose action the env rejected whole because it
            could not parse it (:func:`compoworld_gym.actions.parse_action`).
        error_codes: codes of the failed tool results, in call order
            (``[404, 400, ...]``; a rejected action adds none).
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
    turns: int = 0
    parse_failures: int = 0
    error_codes: list[int] = field(default_factory=list)


def failed_result_codes(action: str, observation: str) -> Optional[list[int]]:
    """The error codes of the failed tool results of one step, or None if the
    env rejected ``action`` as unparsable.

    ``action`` is parsed as the env parses it; the observation of ``n`` calls
    is their ``n`` results (one object for one call, a list for several). A
    final answer has no results (``[]``).
    """
    parsed = parse_action(action)
    if parsed.error is not None:
        return None
    if not parsed.calls:
        return []
    try:
        value = orjson.loads(observation)
    except orjson.JSONDecodeError:
        return []
    results = value if len(parsed.calls) > 1 and isinstance(value, list) else [value]
    return [r["error"]["code"] for r in results
            if isinstance(r, dict) and r.get("success") is False and isinstance(r.get("error"), dict)
            and isinstance(r["error"].get("code"), int)]


def run_episode(env: gym.Env, agent: Agent, task: Task, seed: int = 0) -> EpisodeResult:
    """Run ``agent`` on ``task`` in ``env`` (a ``CompoWorldEnv``, possibly
    wrapped, e.g. by ``RecordTrajectory``) until the episode ends."""
    obs, info = env.reset(seed=seed, options={"task": task})
    agent.reset(obs, task=task if agent.needs_task else None)
    transcript = []
    parse_failures, codes = 0, []
    while True:
        action = agent.act(obs)
        obs, _reward, terminated, truncated, info = env.step(action)
        transcript.append((action, obs))
        step_codes = failed_result_codes(action, obs)
        if step_codes is None:
            parse_failures += 1
        else:
            codes.extend(step_codes)
        if terminated or truncated:
            break
    return EpisodeResult(
        task_id=task.id, score=info["rubric_score"],
        success=all(r["passed"] for r in info["rubric"]), rubric=info["rubric"],
        steps=info["steps"], n_tool_calls=info["n_tool_calls"],
        n_real_tool_calls=info["n_real_tool_calls"],
        finish_reason="answer" if terminated else "max_steps", transcript=transcript,
        turns=len(transcript), parse_failures=parse_failures, error_codes=codes,
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
    turns = sum(r.turns for r in flat)
    parse_failures = sum(r.parse_failures for r in flat)
    codes = Counter(c for r in flat for c in r.error_codes)
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
        "turns": turns,
        "parse_failures": parse_failures,
        "parse_failure_share": parse_failures / (turns or 1),
        # String keys, so the metrics survive a JSON round trip unchanged; ties by code.
        "error_codes": {str(c): n for c, n in sorted(codes.items(), key=lambda cn: (-cn[1], cn[0]))},
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
    tools: ToolsMode = "meta",
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
        tools: ``"meta"`` (the four meta-tools) or ``"flat"`` (the env
            wrapped in :class:`~compoworld_gym.wrappers.FlatTools`: the
            reset prompt offers every mounted tool and actions call them by
            name; the recorded trajectories carry those tools).

    Returns:
        ``(metrics, {task_id: [EpisodeResult, ...]})``.

    Raises:
        ValueError: ``k < 1`` or an unknown ``tools`` mode.
        OSError: ``record_path``'s directory cannot be written.
    """
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    if tools not in TOOLS_MODES:
        raise ValueError(f"tools must be one of {', '.join(TOOLS_MODES)}; got {tools!r}")
    tasks = list(tasks)
    runs: dict[str, list[EpisodeResult]] = {}
    with contextlib.ExitStack() as stack:
        sink = stack.enter_context(atomic_writer(record_path)) if record_path is not None else None
        env: gym.Env = CompoWorldEnv(tasks=tasks, max_steps=max_steps)
        if tools == "flat":
            from compoworld_gym.wrappers.flat_tools import FlatTools

            env = FlatTools(env)
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
