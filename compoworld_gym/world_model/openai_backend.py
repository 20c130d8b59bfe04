"""World model behind any OpenAI-compatible chat-completions endpoint.

Works with a vLLM server (``vllm serve MODEL``), OpenAI itself, or anything
that speaks ``POST /v1/chat/completions``. Uses the official ``openai``
client (``pip install 'compoworld-gym[openai]'``), imported lazily.
"""

from __future__ import annotations

from typing import Any, Optional

from compoworld_gym.world_model.base import Simulation, SimulationError, SimulationRequest, build_messages, parse_simulation


class OpenAIWorldModel:
    """Simulate tools with a chat model served over the OpenAI API.

    Args:
        model: the served model name, e.g. ``"Qwen/Qwen3-8B"``.
        base_url: the endpoint, e.g. ``"http://localhost:8000/v1"``
            (None: the ``openai`` default / ``OPENAI_BASE_URL``).
        api_key: the key (vLLM accepts any string).
        temperature: sampling temperature (0 for repeatable answers).
        max_tokens: longest reply, in tokens.
        timeout: seconds per request.
        json_mode: ask for ``response_format={"type": "json_object"}``.
        client: an existing ``openai.OpenAI`` client to use instead.

    Raises:
        ImportError: the ``openai`` package is not installed.
    """

    def __init__(self, model: str, *, base_url: Optional[str] = None, api_key: str = "EMPTY",
                 temperature: float = 0.0, max_tokens: int = 1024, timeout: float = 60.0,
                 json_mode: bool = False, client: Any = None) -> None:
        if client is None:
            from openai import OpenAI

            client = OpenAI(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=1)
        self.client = client
        self.model = model
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.json_mode = json_mode
        self.name = f"openai:{model}"

    def simulate(self, request: SimulationRequest) -> Simulation:
        """Ask the endpoint for a simulation of one call.

        Raises:
            SimulationError: the request failed or the reply is not a valid
                simulation object.
        """
        import openai

        kwargs: dict[str, Any] = {"model": self.model, "messages": build_messages(request),
                                  "temperature": self.temperature, "max_tokens": self.max_tokens,
                                  "seed": request.seed}
        if self.json_mode:
            kwargs["response_format"] = {"type": "json_object"}
        try:
            response = self.client.chat.completions.create(**kwargs)
        except openai.OpenAIError as exc:
            raise SimulationError(f"endpoint error: {type(exc).__name__}: {str(exc)[:200]}") from None
        choices = getattr(response, "choices", None) or []
        if not choices:
            raise SimulationError("the endpoint returned no choices")
        return parse_simulation(choices[0].message.content)
