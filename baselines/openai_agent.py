"""An agent for any OpenAI-compatible chat-completions endpoint with tool calling.

Works with a vLLM server (``vllm serve MODEL --enable-auto-tool-choice
--tool-call-parser hermes``), or any hosted API, through the official
``openai`` client. The four meta-tools are sent as ``tools``; the reply's
``tool_calls`` become env actions. A reply without ``tool_calls`` whose
text still carries a call (servers without a tool parser return Hermes
``<tool_call>`` text) goes through the tolerant parser; plain text is the
final answer.

Needs the ``openai`` extra.

Example:
    >>> agent = OpenAIAgent(model="Qwen/Qwen3-8B", base_url="http://localhost:8000/v1")  # doctest: +SKIP
"""

from __future__ import annotations

import os
from typing import Any, Optional

import orjson

from compoworld_gym.baselines.agents import ChatAgent
from compoworld_gym.toolcall_parser import ParsedTurn, ToolCall, parse_tool_calls


def _wire_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages as the API wants them: tool-call arguments as JSON strings."""
    out = []
    for m in messages:
        m = dict(m)
        if m.get("tool_calls"):
            m["tool_calls"] = [{**c, "function": {"name": c["function"]["name"],
                                                  "arguments": orjson.dumps(c["function"]["arguments"]).decode()}}
                               for c in m["tool_calls"]]
        out.append(m)
    return out


class OpenAIAgent(ChatAgent):
    """A chat-completions model acting through the meta-tools.

    Args:
        model: model name on the endpoint.
        base_url: endpoint, e.g. ``http://localhost:8000/v1`` (default: the
            ``OPENAI_BASE_URL`` environment variable, else OpenAI's).
        api_key: API key (default: ``OPENAI_API_KEY``, else ``"EMPTY"``,
            which local servers such as vLLM accept).
        temperature: sampling temperature.
        max_tokens: completion tokens per turn.
        seed: sent as the request's ``seed`` (servers may ignore it).
        timeout: seconds per request; max_retries: client retries.
        client: a ready ``openai.OpenAI`` client (overrides the above).

    Raises:
        ValueError: an empty model name.
        ImportError: the ``openai`` package is missing.
    """

    name = "openai"

    def __init__(self, model: str = "", base_url: Optional[str] = None, api_key: Optional[str] = None,
                 temperature: float = 0.0, max_tokens: int = 1024, seed: int = 0, timeout: float = 120.0,
                 max_retries: int = 2, client: Any = None) -> None:
        if not isinstance(model, str) or not model:
            raise ValueError("the openai agent needs a model name (--model)")
        if client is None:
            from openai import OpenAI

            client = OpenAI(base_url=base_url or os.environ.get("OPENAI_BASE_URL"),
                            api_key=api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY",
                            timeout=timeout, max_retries=max_retries)
        self.client = client
        self.model = model
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.seed = seed
        self.usage = {"prompt_tokens": 0, "completion_tokens": 0, "requests": 0}

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> ParsedTurn:
        """One chat-completions request; its message as a parsed turn.

        Raises:
            openai.APIError: the endpoint failed after the client's retries.
        """
        response = self.client.chat.completions.create(
            model=self.model, messages=_wire_messages(messages), tools=tools, tool_choice="auto",
            temperature=self.temperature, max_tokens=self.max_tokens, seed=self.seed)
        self.usage["requests"] += 1
        if response.usage is not None:
            self.usage["prompt_tokens"] += response.usage.prompt_tokens or 0
            self.usage["completion_tokens"] += response.usage.completion_tokens or 0
        message = response.choices[0].message
        content = message.content or ""
        if not message.tool_calls:
            turn = parse_tool_calls(content)
            if turn.error is not None:
                turn.content = content
            return turn
        calls = []
        for call in message.tool_calls:
            try:
                args = orjson.loads(call.function.arguments or "{}")
            except orjson.JSONDecodeError as exc:
                return ParsedTurn(content=content, error=f"tool call {call.function.name!r}: arguments are "
                                  f"not valid JSON ({exc}); send arguments as a JSON object.")
            if not isinstance(args, dict):
                return ParsedTurn(content=content, error=f"tool call {call.function.name!r}: arguments must "
                                  "be a JSON object.")
            calls.append(ToolCall(name=call.function.name, arguments=args, id=call.id))
        return ParsedTurn(calls=calls, content=content.strip())


__all__ = ["OpenAIAgent"]
