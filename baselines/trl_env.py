"""An adapter for TRL's own tool loop: ``GRPOTrainer(environment_factory=...)``.

TRL turns every public method of the environment class (typed, with a
Google docstring) into a tool, calls ``reset(**row)`` with each dataset row
before a rollout, and, when the class has ``get_reward()``, uses it as a
reward source (TRL 1.16; see "TRL" in ``docs/design-notes.md``).
:class:`CompoWorldToolEnv` exposes exactly the four meta-tools. Instances
are pooled and reused, so ``reset`` starts a fresh episode every time.

Tool results are masked out of the loss by TRL (``tool_mask``). The model's
final answer never reaches the environment in TRL's loop; pass
:func:`record_final_answers` as the first reward function to hand it over
before ``get_reward()`` scores the episode (otherwise checks of the final
answer fail). For batched multi-turn rollouts over grouped vector envs and
the completion-focused reward, use :mod:`compoworld_gym.baselines.grpo`.

Example:
    >>> from trl import GRPOTrainer                                           # doctest: +SKIP
    >>> trainer = GRPOTrainer(model, reward_funcs=[record_final_answers],    # doctest: +SKIP
    ...     train_dataset=prompt_dataset(tasks), environment_factory=make_environment_factory(tasks))
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

import orjson

from compoworld_gym.envs.compoworld_env import CompoWorldEnv
from compoworld_gym.tasks import Task


class CompoWorldToolEnv:
    """One CompoWorld episode whose meta-tools are TRL tools.

    Args:
        tasks: the task pool (``reset`` picks one by ``task_id``).
        max_steps: tool calls allowed per episode.

    Raises:
        ValueError: an empty task pool.
    """

    def __init__(self, tasks: Sequence[Task], max_steps: int = 40) -> None:
        self._env = CompoWorldEnv(tasks=list(tasks), max_steps=max_steps)
        self._answer: Optional[str] = None
        self._reward: Optional[float] = None
        self._ended = True

    def reset(self, **row: Any) -> None:
        """Start the episode of ``row["task_id"]`` (the prompt already holds the task).

        Raises:
            ValueError: the row has no ``task_id`` or names no task of the pool.
        """
        if "task_id" not in row:
            raise ValueError("dataset rows need a 'task_id' column (see prompt_dataset)")
        self._env.reset(seed=0, options={"task": str(row["task_id"])})
        self._answer, self._reward, self._ended = None, None, False
        return None

    def _step(self, name: str, arguments: dict[str, Any]) -> str:
        if self._ended:
            return orjson.dumps({"success": False, "error": {
                "code": 409, "message": "the episode has ended (step limit reached); give your final answer."}}).decode()
        obs, _r, terminated, truncated, info = self._env.step(orjson.dumps({"name": name, "arguments": arguments}).decode())
        if terminated or truncated:
            self._ended = True
            self._reward = float(info["rubric_score"])
        return obs

    def list_services(self) -> str:
        """List the services (applications) available in this workspace.

        Returns:
            JSON text: {"services": [{"name", "description"}, ...]}.
        """
        return self._step("list_services", {})

    def list_tools(self, service: str) -> str:
        """List the tools of one service: names and one-line descriptions.

        Args:
            service: Service name from list_services.

        Returns:
            JSON text: {"service", "tools": [{"name", "description"}, ...]}.
        """
        return self._step("list_tools", {"service": service})

    def describe_tool(self, tool: str) -> str:
        """Show a tool's full description and the JSON Schema of its parameters.

        Args:
            tool: Tool name from list_tools.

        Returns:
            JSON text: {"name", "description", "parameters"}.
        """
        return self._step("describe_tool", {"tool": tool})

    def call_tool(self, tool_name: str, arguments: dict) -> str:
        """Call a tool with arguments.

        Args:
            tool_name: Tool name from list_tools.
            arguments: Arguments as a JSON object.

        Returns:
            JSON text: {"success": true, "data": ...} or {"success": false, "error": {"code", "message"}}.
        """
        return self._step("call_tool", {"tool_name": tool_name, "arguments": arguments})

    def get_reward(self) -> float:
        """End the episode (with the recorded final answer, if any) and return
        its rubric score in [0, 1] (:func:`compoworld_gym.rewards.score`)."""
        if not self._ended:
            _, _r, _t, _tr, info = self._env.step(orjson.dumps({"final_answer": self._answer or ""}).decode())
            self._ended = True
            self._reward = float(info["rubric_score"])
        return float(self._reward or 0.0)


def _final_text(completion: Any) -> str:
    """The text of the last assistant message of a TRL completion."""
    if isinstance(completion, str):
        return completion
    for message in reversed(completion or []):
        if message.get("role") == "assistant" and not message.get("tool_calls"):
            content = message.get("content")
            return content if isinstance(content, str) else ""
    return ""


def record_final_answers(completions: list[Any], environments: list[CompoWorldToolEnv], **kwargs: Any
                         ) -> list[None]:
    """A TRL reward function that only hands each rollout's final answer to
    its environment (returns ``None``: no reward of its own). List it before
    the environment's ``get_reward`` so that answer checks can pass."""
    for completion, env in zip(completions, environments):
        env._answer = _final_text(completion)
    return [None] * len(completions)


def make_environment_factory(tasks: Sequence[Task], max_steps: int = 40) -> Callable[[], CompoWorldToolEnv]:
    """A zero-argument factory for ``GRPOTrainer(environment_factory=...)``.

    Raises:
        ValueError: an empty task pool.
    """
    tasks = list(tasks)
    if not tasks:
        raise ValueError("the environment factory needs at least one task")
    return lambda: CompoWorldToolEnv(tasks, max_steps=max_steps)


def prompt_dataset(tasks: Sequence[Task]) -> Any:
    """A ``datasets.Dataset`` with ``prompt`` (system + user messages) and ``task_id``."""
    from datasets import Dataset

    from compoworld_gym.prompts import system_prompt

    return Dataset.from_dict({
        "prompt": [[{"role": "system", "content": system_prompt(t.today)},
                    {"role": "user", "content": t.instruction}] for t in tasks],
        "task_id": [t.id for t in tasks],
    })


__all__ = ["CompoWorldToolEnv", "make_environment_factory", "prompt_dataset", "record_final_answers"]
