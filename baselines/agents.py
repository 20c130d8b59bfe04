"""Baseline agents: text in, text action out.

Every agent implements :class:`Agent`: ``reset(observation, task=None)`` at
the start of an episode, then ``act(observation) -> action text`` until the
episode ends. Only oracle agents (``needs_task = True``) are given the task;
all others see nothing but observations. Model-backed agents
(:class:`ChatAgent`: ``hf`` in :mod:`.hf_agent`, ``openai`` in
:mod:`.openai_agent`) are imported lazily by :func:`make_agent`.
"""

from __future__ import annotations

import importlib
import random
from typing import Any, Optional

import orjson

from compoworld_gym.tasks import Task
from compoworld_gym.toolcall_parser import ParsedTurn
from compoworld_gym.trajectory import assistant_message, tool_call_id, tool_message


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
        if _offers_meta_tools(observation):
            self._actions = [c.action() for c in task.reference]
        else:  # flat tools (FlatTools): the service calls themselves
            self._actions = [a for a in (c.flat_action() for c in task.reference) if a is not None]
        self._actions.append(orjson.dumps({"final_answer": task.reference_answer or "Done."}).decode())
        self._i = 0

    def act(self, observation: str) -> str:
        action = self._actions[min(self._i, len(self._actions) - 1)]
        self._i += 1
        return action


def _offers_meta_tools(observation: str) -> bool:
    """Whether a reset observation offers the four meta-tools (not flat tools)."""
    from compoworld_gym.metatools import META_TOOL_NAMES

    try:
        offered = {t["function"]["name"] for t in orjson.loads(observation).get("tools", [])}
    except (orjson.JSONDecodeError, AttributeError, KeyError, TypeError):
        return True
    return offered == set(META_TOOL_NAMES)


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
            self._services = list(obs["services"])
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


class ChatAgent(Agent):
    """Base of model-backed agents: keeps the chat, maps model turns to env actions.

    The env speaks JSON actions; a model speaks chat messages. This class
    holds the conversation in the paper's trajectory format (see
    :mod:`compoworld_gym.trajectory`): the reset prompt's system and user
    messages, then per turn the assistant message
    (``tool_calls`` with ids ``call_NNNN``) and one ``tool`` message per
    call, filled from the env's next observation. Subclasses implement
    :meth:`complete`, one model turn given the conversation and the tools.

    A turn that does not parse costs one step: the env receives ``[]`` (a
    no-op it rejects with 400) and the model sees a ``user`` message saying
    what was wrong, as with :class:`compoworld_gym.wrappers.ChatFormat`.
    """

    def reset(self, observation: str, task: Optional[Task] = None) -> None:
        prompt = orjson.loads(observation)
        self.messages: list[dict[str, Any]] = list(prompt["messages"])
        self.tools: list[dict[str, Any]] = prompt["tools"]
        self._pending: list[tuple[str, str]] = []
        self._pending_error: Optional[str] = None
        self._n_ids = 0

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> ParsedTurn:
        """One model turn: calls, a final answer, or a parse error."""
        raise NotImplementedError

    def _absorb(self, observation: str) -> None:
        """Turn the env's result of the previous action into chat messages."""
        if self._pending_error is not None:
            self.messages.append({"role": "user", "content": orjson.dumps(
                {"success": False, "error": {"code": 400, "message": self._pending_error}}).decode()})
        elif self._pending:
            try:
                value = orjson.loads(observation)
            except orjson.JSONDecodeError:
                value = {"success": False, "error": {"code": 500, "message": "non-JSON observation"}}
            n = len(self._pending)
            results = value if n > 1 and isinstance(value, list) and len(value) == n else [value] * n
            self.messages.extend(tool_message(cid, name, r) for (cid, name), r in zip(self._pending, results))
        self._pending, self._pending_error = [], None

    def act(self, observation: str) -> str:
        self._absorb(observation)
        turn = self.complete(self.messages, self.tools)
        if turn.error is not None:
            self.messages.append({"role": "assistant", "content": turn.content or ""})
            self._pending_error = turn.error
            return "[]"
        if turn.final_answer is not None:
            self.messages.append({"role": "assistant", "content": turn.final_answer})
            return orjson.dumps({"final_answer": turn.final_answer}).decode()
        ids = [tool_call_id(self._n_ids + i) for i in range(len(turn.calls))]
        self._n_ids += len(ids)
        self.messages.append(assistant_message(turn.content, [(i, c.name, c.arguments)
                                                              for i, c in zip(ids, turn.calls)]))
        self._pending = [(i, c.name) for i, c in zip(ids, turn.calls)]
        return orjson.dumps([{"name": c.name, "arguments": c.arguments} for c in turn.calls]).decode()


#: Agents by name: a class, or a ``"module:Class"`` string imported on first
#: use, so that ``compoworld eval`` imports torch / openai only when asked to.
AGENTS: dict[str, Any] = {
    "random": RandomAgent,
    "reference": ReferenceAgent,
    "hf": "compoworld_gym.baselines.hf_agent:HFAgent",
    "openai": "compoworld_gym.baselines.openai_agent:OpenAIAgent",
}

#: ``(extra, modules)`` a model-backed agent needs. Its module imports them
#: only when the agent is built, so :func:`agent_class` imports them up front:
#: a missing extra is then one clear error before any work, not a failure
#: deep inside model loading.
AGENT_EXTRAS: dict[str, tuple[str, tuple[str, ...]]] = {
    "hf": ("train", ("torch", "transformers")),
    "openai": ("openai", ("openai",)),
}


def agent_class(name: str) -> type[Agent]:
    """The agent class registered as ``name`` (importing it if needed).

    Raises:
        ValueError: unknown agent name.
        ImportError: the agent's optional dependencies are missing; the
            message is one line naming the extra to install, e.g. ``agent
            'hf' needs the [train] extra: pip install "compoworld-gym[train]"
            (cannot import torch)``.
    """
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; choose from {', '.join(sorted(AGENTS))}")
    extra, modules = AGENT_EXTRAS.get(name, ("", ()))
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise ImportError(f'agent {name!r} needs the [{extra}] extra: pip install "compoworld-gym[{extra}]" '
                              f"(cannot import {module})", name=module) from exc
    entry = AGENTS[name]
    if isinstance(entry, str):
        module, _, attr = entry.partition(":")
        entry = getattr(importlib.import_module(module), attr)
    return entry


def make_agent(name: str, **kwargs: Any) -> Agent:
    """An agent by name (``"random"``, ``"reference"``, ``"hf"``, ``"openai"``).

    Raises:
        ValueError: unknown agent name or bad arguments for it.
        ImportError: the agent's optional dependencies are missing.
    """
    return agent_class(name)(**kwargs)
