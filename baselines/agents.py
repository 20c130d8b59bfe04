"""Baseline agents: text in, text action out.

Every agent implements :class:`Agent`: ``reset(observation, task=None)`` at
the start of an episode, then ``act(observation) -> action text`` until the
episode ends. Only oracle agents (``needs_task = True``) are given the task;
all others see nothing but observations.
"""

from __future__ import annotations

import random
from typing import Any, Optional

import orjson

from compoworld_gym.tasks import Task


class Agent:
    """Base class of baseline agents.

    Attributes:
        name: short name used in reports (``"random"``, ``"reference"``, ...).
        needs_task: True for oracle agents that read the task (reference).
    """

    name = "agent"
    needs_task = False

    def reset(self, observation: str, task: Optional[Task] = None) -> None:
        """Start an episode from the reset observation (JSON prompt)."""

    def act(self, observation: str) -> str:
        """The next action text given the last observation."""
        raise NotImplementedError


class ReferenceAgent(Agent):
    """Replays the task's reference solution, then its reference answer (an oracle)."""

    name = "reference"
    needs_task = True

    def reset(self, observation: str, task: Optional[Task] = None) -> None:
        if task is None:
            raise ValueError("ReferenceAgent needs the task (it replays the reference solution)")
        self._actions = [c.action() for c in task.reference]
        self._actions.append(orjson.dumps({"final_answer": task.reference_answer or "Done."}).decode())
        self._i = 0

    def act(self, observation: str) -> str:
        action = self._actions[min(self._i, len(self._actions) - 1)]
        self._i += 1
        return action


class RandomAgent(Agent):
    """Valid-looking random meta-tool calls built only from what it observed.

    It lists services, lists tools of random services, describes random tools
    and calls them with arguments of the right JSON types (random values, or
    ids and emails it has seen in earlier results), and answers after a
    random number of steps.

    Args:
        seed: seed of the agent's own RNG (deterministic given the seed).
        max_actions: it answers after at most this many actions.
    """

    name = "random"

    def __init__(self, seed: int = 0, max_actions: int = 12) -> None:
        self.rng = random.Random(seed)
        self.max_actions = max_actions

    def reset(self, observation: str, task: Optional[Task] = None) -> None:
        self._services: list[str] = []
        self._tools: dict[str, dict[str, Any]] = {}
        self._seen: list[Any] = []
        self._budget = self.rng.randint(2, self.max_actions)
        self._last: Optional[tuple[str, Any]] = None

    def _learn(self, observation: str) -> None:
        try:
            obs = orjson.loads(observation)
        except orjson.JSONDecodeError:
            return
        if isinstance(obs, dict) and "services" in obs:
            self._services = [s["name"] for s in obs["services"]]
        elif isinstance(obs, dict) and "tools" in obs and "service" in obs:
            for t in obs["tools"]:
                self._tools.setdefault(t["name"], {})
        elif isinstance(obs, dict) and "parameters" in obs and "name" in obs:
            self._tools[obs["name"]] = obs["parameters"]
        elif isinstance(obs, dict) and obs.get("success") and obs.get("data") is not None:
            self._harvest(obs["data"])

    def _harvest(self, data: Any, depth: int = 0) -> None:
        if depth > 3:
            return
        if isinstance(data, dict):
            for v in list(data.values())[:20]:
                self._harvest(v, depth + 1)
        elif isinstance(data, list):
            for v in data[:10]:
                self._harvest(v, depth + 1)
        elif isinstance(data, str) and len(data) < 60:
            self._seen.append(data)
            del self._seen[:-200]

    def _value(self, schema: dict[str, Any]) -> Any:
        schema = next((s for s in schema.get("anyOf", []) if s.get("type") != "null"), schema)
        if "enum" in schema:
            return self.rng.choice(schema["enum"])
        kind = schema.get("type", "string")
        if kind == "integer":
            return self.rng.randint(0, 20)
        if kind == "number":
            return round(self.rng.uniform(0, 500), 2)
        if kind == "boolean":
            return self.rng.random() < 0.5
        if kind == "array":
            return [self._value(schema.get("items", {}))] if self.rng.random() < 0.5 else []
        if kind == "object":
            return {}
        if schema.get("format") == "date":
            return f"2026-01-{self.rng.randint(1, 28):02d}"
        if self._seen and self.rng.random() < 0.7:
            return self.rng.choice(self._seen)
        return self.rng.choice(["test", "hello", "urgent", "example@example.com"])

    def _call(self, name: str, **arguments: Any) -> str:
        return orjson.dumps({"name": name, "arguments": arguments}).decode()

    def act(self, observation: str) -> str:
        self._learn(observation)
        self._budget -= 1
        if self._budget <= 0:
            return orjson.dumps({"final_answer": "I have finished the task."}).decode()
        if not self._services:
            return self._call("list_services")
        roll = self.rng.random()
        if not self._tools or roll < 0.2:
            return self._call("list_tools", service=self.rng.choice(self._services))
        tool = self.rng.choice(sorted(self._tools))
        schema = self._tools[tool]
        if not schema or roll < 0.35:
            return self._call("describe_tool", tool=tool)
        props = schema.get("properties", {})
        required = schema.get("required", [])
        args = {k: self._value(v) for k, v in props.items() if k in required or self.rng.random() < 0.3}
        return self._call("call_tool", tool_name=tool, arguments=args)


AGENTS = {"random": RandomAgent, "reference": ReferenceAgent}


def make_agent(name: str, **kwargs: Any) -> Agent:
    """An agent by name (``"random"``, ``"reference"``).

    Raises:
        ValueError: unknown agent name.
    """
    try:
        return AGENTS[name](**kwargs)
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; choose from {', '.join(sorted(AGENTS))}") from None
