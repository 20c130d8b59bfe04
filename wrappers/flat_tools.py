"""``FlatTools``: the mounted services' tools as plain function tools.

The usual setup of other tool-use suites, and the ablation the paper's
meta-tool design implies: instead of discovering the world through
``list_services``/``list_tools``/``describe_tool``/``call_tool``, the agent
sees every mounted tool (task services and distractors) with its full schema
up front and calls it by name.
"""

from __future__ import annotations

import copy
from typing import Any, Optional

import gymnasium as gym
import orjson

from compoworld_gym.actions import parse_action
from compoworld_gym.errors import error_envelope
from compoworld_gym.prompts import system_prompt

def _dumps(obj: Any) -> str:
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


class FlatTools(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Expose every mounted tool directly instead of the four meta-tools.

    ## Observation
    After ``reset``: ``{"messages": [system, user], "tools": [...]}`` where
    ``tools`` holds one OpenAI function definition per mounted tool
    (``{"type": "function", "function": {"name", "description",
    "parameters"}}``; ``parameters`` is the tool's MCP ``inputSchema``;
    names clash-qualified as ``<service>__<tool>`` like ``list_tools``), and
    the system prompt describes direct tool use. After ``step``: the tool's
    result envelope (a JSON array for several calls).

    ## Action
    ``{"name": <tool>, "arguments": {...}}``, a JSON array of such calls,
    ``{"final_answer": "..."}`` or plain text. Each call becomes the inner
    env's ``call_tool(<tool>, arguments)``; a name that is not a mounted
    tool (meta-tool names included) gets a 404 naming the offered tools.

    Args:
        env: a ``CompoWorldEnv`` (possibly wrapped).

    Example:
        >>> import gymnasium as gym, compoworld_gym, orjson
        >>> env = FlatTools(gym.make("CompoWorld-v0"))
        >>> obs, _ = env.reset(seed=0)
        >>> tools = orjson.loads(obs)["tools"]
        >>> tools[0]["type"], sorted(tools[0]["function"])
        ('function', ['description', 'name', 'parameters'])
        >>> obs, *_ = env.step('{"name": "list_services", "arguments": {}}')
        >>> orjson.loads(obs)["error"]["code"]
        404
    """

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)  # so gym.make(env.spec) rebuilds it
        gym.Wrapper.__init__(self, env)
        if not hasattr(env.unwrapped, "world"):
            raise ValueError(f"FlatTools needs a CompoWorldEnv underneath, got {type(env.unwrapped).__name__}")
        self.tools: list[dict[str, Any]] = []

    def flat_tool_definitions(self) -> list[dict[str, Any]]:
        """The mounted tools as OpenAI function definitions (a fresh list).

        Raises:
            RuntimeError: before the first ``reset`` (nothing is mounted).
        """
        world = self.env.unwrapped.world
        if world is None:
            raise RuntimeError("call reset() first: no world is mounted yet")
        return [{"type": "function", "function": {
                    "name": world.exposed_name(svc.name, name), "description": spec.description,
                    "parameters": copy.deepcopy(spec.input_schema)}}
                for svc in world.services.values() for name, spec in svc.tools.items()]

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
              ) -> tuple[str, dict[str, Any]]:
        """Reset the inner env; the prompt carries the flat tool list."""
        obs, info = self.env.reset(seed=seed, options=options)
        prompt = orjson.loads(obs)
        self.tools = self.flat_tool_definitions()
        today = self.env.unwrapped.world.today
        prompt["messages"][0]["content"] = system_prompt(today, tools="flat")
        prompt["tools"] = self.tools
        return _dumps(prompt), info

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Map tool calls onto ``call_tool`` and step the inner env."""
        parsed = parse_action(action)
        if parsed.error is not None or parsed.final_answer is not None:
            # The inner env parses the same way: it reports the same error or
            # ends the episode, and counts the step.
            return self.env.step(action)
        world = self.env.unwrapped.world
        unknown = [world is None or world.resolve(name) is None for name, _ in parsed.calls]
        inner = [{"name": "call_tool", "arguments": {"tool_name": name, "arguments": args}}
                 for name, args in parsed.calls]
        obs, reward, terminated, truncated, info = self.env.step(_dumps(inner))
        if any(unknown):
            obs = self._rename_errors(obs, parsed.calls, unknown)
        return obs, reward, terminated, truncated, info

    def _rename_errors(self, obs: str, calls: list[tuple[str, Any]], unknown: list[bool]) -> str:
        """Replace the meta-tool wording of unknown-tool errors by flat wording."""
        try:
            results = orjson.loads(obs)
        except orjson.JSONDecodeError:
            return obs
        single = len(calls) == 1
        items = [results] if single else results
        if not isinstance(items, list) or len(items) != len(calls):
            return obs  # an action-level error: leave it as the env wrote it
        for i, ((name, _), bad) in enumerate(zip(calls, unknown)):
            if bad:
                items[i] = error_envelope(404, f"tool {name!r} not found; call one of the tools "
                                               f"listed in the prompt ({len(self.tools)} available).")
        return _dumps(items[0] if single else items)
