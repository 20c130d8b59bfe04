"""``CompoWorldClient``: OpenEnv's WebSocket client, typed for CompoWorld.

One client is one server session (one WebSocket). It is async by default;
``.sync()`` gives OpenEnv's synchronous wrapper. ``step`` also takes a
plain string, sent as raw model text.

A protocol-level refusal (malformed message, capacity reached) raises
OpenEnv's ``RuntimeError("Server error: ... (code: ...)")``; a refused
reset or step comes back as an observation whose ``error`` is set.
"""

from __future__ import annotations

from typing import Any, Union

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient

from compoworld_gym.integrations.openenv_models import (
    CompoWorldAction, CompoWorldObservation, CompoWorldState)


class CompoWorldClient(EnvClient[CompoWorldAction, CompoWorldObservation, CompoWorldState]):
    """A session on a CompoWorld OpenEnv server.

    Args:
        base_url: ``http://host:port`` or ``ws://host:port`` of the server;
            the other keyword arguments are OpenEnv ``EnvClient``'s
            (``message_timeout_s``, ``max_message_size_mb``, ...).

    Example:
        >>> import asyncio
        >>> async def episode(url):  # doctest: +SKIP
        ...     async with CompoWorldClient(base_url=url) as env:
        ...         result = await env.reset(task_id="builtin-chargeback")
        ...         result = await env.step(CompoWorldAction.call("list_services"))
        ...         return result.observation.results[0]["services"]
    """

    def _step_payload(self, action: Union[CompoWorldAction, str]) -> dict[str, Any]:
        """The JSON body of a step message (a string becomes a raw-text action)."""
        if isinstance(action, str):
            action = CompoWorldAction(text=action)
        return action.model_dump(mode="json", exclude_none=True)

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[CompoWorldObservation]:
        """A server response's ``data`` (``{"observation", "reward", "done", ...}``) as a StepResult."""
        reward, done = payload.get("reward"), payload.get("done", False)
        observation = CompoWorldObservation.model_validate(
            {**payload.get("observation", {}), "reward": reward, "done": done})
        return StepResult(observation=observation, reward=reward, done=done, metadata=payload.get("metadata"))

    def _parse_state(self, payload: dict[str, Any]) -> CompoWorldState:
        """A state response's ``data`` as a :class:`CompoWorldState`."""
        return CompoWorldState.model_validate(payload)


__all__ = ["CompoWorldClient"]
