"""CompoWorld as an OpenEnv environment (``pip install "compoworld-gym[openenv]"``).

OpenEnv (Hugging Face; ``openenv`` 0.10 on PyPI) serves environments over
HTTP and WebSocket to RL trainers such as TRL and SkyRL. This module is the
front door; the parts live beside it:

- :mod:`.openenv_models`: :class:`CompoWorldAction` (raw model text,
  structured meta-tool calls, or a final answer), :class:`CompoWorldObservation`,
  :class:`CompoWorldState`, :class:`ActionError`;
- :mod:`.openenv_environment`: :class:`CompoWorldEnvironment`, one episode
  per session over :class:`~compoworld_gym.wrappers.ChatFormat`;
- :mod:`.openenv_server`: :class:`ServerConfig`, :func:`create_compoworld_app`,
  :class:`BackgroundServer` and the command line;
- :mod:`.openenv_client`: :class:`CompoWorldClient`.

Serve: ``python -m compoworld_gym.integrations.openenv --host 127.0.0.1
--port 8000 [--task-file F] [--max-steps N] [--max-sessions N]
[--session-timeout S]``; or ``uvicorn compoworld_gym.integrations.openenv:app``
(the ``app`` attribute is built on first access, from ``ServerConfig()`` and
the ``COMPOWORLD_TASK_FILE``/``COMPOWORLD_MAX_STEPS`` variables).

Never imports ``mcp`` or :mod:`compoworld_gym.mcp_bridge`: OpenEnv pins
``fastmcp<4``, which needs ``mcp<2``, while ``compoworld-gym[mcp]`` needs
``mcp>=2``; the two extras live in separate environments.
"""

from __future__ import annotations

from typing import Any

from compoworld_gym.integrations.openenv_client import CompoWorldClient
from compoworld_gym.integrations.openenv_environment import (
    MAX_STEPS_ENV, TASK_FILE_ENV, CompoWorldEnvironment, open_environments)
from compoworld_gym.integrations.openenv_models import (
    ActionError, CompoWorldAction, CompoWorldObservation, CompoWorldState, MetaToolCall)
from compoworld_gym.integrations.openenv_server import (
    SESSIONS_PATH, BackgroundServer, ServerConfig, create_compoworld_app, main, parse_config, uvicorn_config)

_APP: Any = None


def __getattr__(name: str) -> Any:
    """``app``: the default app, built on first access (for ``uvicorn module:app`` and the manifest)."""
    global _APP
    if name == "app":
        if _APP is None:
            _APP = create_compoworld_app(ServerConfig())
        return _APP
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ActionError", "BackgroundServer", "CompoWorldAction", "CompoWorldClient", "CompoWorldEnvironment",
    "CompoWorldObservation", "CompoWorldState", "MAX_STEPS_ENV", "MetaToolCall", "SESSIONS_PATH",
    "ServerConfig", "TASK_FILE_ENV", "create_compoworld_app", "main", "open_environments", "parse_config",
    "uvicorn_config",
]

if __name__ == "__main__":
    main()
