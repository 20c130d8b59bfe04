"""The CompoWorld OpenEnv app: configuration, FastAPI app, uvicorn runner and CLI.

``python -m compoworld_gym.integrations.openenv --host 127.0.0.1 --port 8000``
serves HTTP (``/reset``, ``/step``, ``/state``, ``/schema``, ``/metadata``,
``/health``) and the ``/ws`` WebSocket, where each connection holds one
session (its own :class:`CompoWorldEnvironment`). ``/compoworld/sessions``
reports how many environments are open.

The app is built with OpenEnv's ``create_app`` and a
``ConcurrencyConfig(max_concurrent_envs, session_timeout)``: with a bare
``max_concurrent_envs`` OpenEnv's idle reaper does not run, and abandoned
sessions would hold their slots for ever. OpenEnv's reaper wakes every
``max(session_timeout / 4, 5)`` seconds, so a session is freed between
``session_timeout`` and ``session_timeout + max(session_timeout / 4, 5)``
seconds after its last message.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import socket
import threading
import time
import typing
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from openenv.core.env_server.http_server import create_app
from openenv.core.env_server.types import ConcurrencyConfig

from compoworld_gym.integrations.openenv_environment import CompoWorldEnvironment, open_environments
from compoworld_gym.integrations.openenv_models import (
    CompoWorldAction, CompoWorldObservation, CompoWorldState)

#: Path of the extra route reporting open sessions.
SESSIONS_PATH = "/compoworld/sessions"


@dataclass(frozen=True)
class ServerConfig:
    """Settings of one server; the command line is generated from the fields' help.

    Raises:
        ValueError: a setting out of range (the message says which).
    """

    host: str = field(default="127.0.0.1", metadata={"help": "address to bind"})
    port: int = field(default=8000, metadata={"help": "TCP port (0 picks a free one)"})
    task_file: Optional[str] = field(default=None, metadata={
        "help": "JSONL task file of the pool (default: $COMPOWORLD_TASK_FILE, else the 12 built-in tasks)"})
    max_steps: Optional[int] = field(default=None, metadata={
        "help": "step limit per episode (default: $COMPOWORLD_MAX_STEPS, else 40)"})
    max_sessions: int = field(default=64, metadata={"help": "most WebSocket sessions held at once"})
    session_timeout: float = field(default=300.0, metadata={
        "help": "seconds a session may stay idle before the reaper frees it"})
    max_message_bytes: int = field(default=1 << 20, metadata={
        "help": "largest WebSocket message or HTTP body accepted, in bytes"})

    def __post_init__(self) -> None:
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port must be in 0..65535, got {self.port}")
        if self.max_steps is not None and self.max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, got {self.max_steps}")
        if self.max_sessions < 1:
            raise ValueError(f"max_sessions must be at least 1, got {self.max_sessions}")
        if not self.session_timeout > 0:
            raise ValueError(f"session_timeout must be > 0 seconds, got {self.session_timeout} "
                             "(OpenEnv's reaper frees idle sessions only with a timeout)")
        if self.max_message_bytes < 4096:
            raise ValueError(f"max_message_bytes must be at least 4096, got {self.max_message_bytes}")


class _BodyLimit:
    """ASGI middleware: a 413 JSON error for an HTTP body over ``limit`` bytes.

    A declared Content-Length over the limit is refused before anything is
    read. Otherwise the body is read here, counting bytes as they arrive, so a
    chunked body (no Content-Length) is refused too; a body within the limit
    is handed to the app as it came. (The app itself cannot be stopped
    mid-read: FastAPI turns any error while reading a body into a 400.)
    """

    def __init__(self, app: Any, limit: int) -> None:
        self.app, self.limit = app, limit

    def _refusal(self, size: str) -> JSONResponse:
        return JSONResponse(status_code=413, content={"detail": {
            "code": 413, "message": f"request body of {size} bytes; the limit is {self.limit}."}})

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refusal(declared.decode("latin-1"))(scope, receive, send)
            return
        messages, received = [], 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            received += len(message.get("body", b""))
            if received > self.limit:
                await self._refusal(f"more than {self.limit}")(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        pending = iter(messages)

        async def replay() -> dict[str, Any]:
            return next(pending, None) or await receive()

        await self.app(scope, replay, send)


class _FrameGuard:
    """ASGI middleware: WebSocket frames OpenEnv cannot survive get an error frame instead.

    OpenEnv 0.10 calls ``.get("type")`` on whatever ``json.loads`` returns and
    reads ``message["text"]``, so a frame that is JSON but not an object
    (``null``, ``[1, 2]``) or a binary frame ended the whole session. Such a
    frame is answered here with OpenEnv's own error shape (code
    ``INVALID_JSON``) and never reaches it; the session carries on. Frames
    that start with ``{`` (nearly all) pass untouched, and invalid JSON is left
    to OpenEnv, which already answers it.
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return

        async def guarded_receive() -> dict[str, Any]:
            while True:
                message = await receive()
                problem = _frame_problem(message)
                if problem is None:
                    return message
                await send({"type": "websocket.send", "text": json.dumps(
                    {"type": "error", "data": {"message": problem, "code": "INVALID_JSON"}})})

        await self.app(scope, guarded_receive, send)


def _frame_problem(message: dict[str, Any]) -> Optional[str]:
    """Why OpenEnv would drop the session on this ASGI message, or None."""
    if message["type"] != "websocket.receive":
        return None
    text = message.get("text")
    if text is None:
        return "binary frames are not accepted; send a JSON object as a text frame."
    if text.lstrip()[:1] == "{":
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None  # invalid JSON: OpenEnv answers INVALID_JSON itself
    return f"a message must be a JSON object with a 'type', got {type(value).__name__}."


def create_compoworld_app(config: ServerConfig = ServerConfig()) -> FastAPI:
    """The FastAPI app serving :class:`CompoWorldEnvironment` sessions.

    The task pool is loaded once here, so a bad task file fails at start-up
    rather than at the first session.

    Raises:
        ValueError, compoworld_gym.tasks.TaskFileError, FileNotFoundError: a bad task
            file or ``max_steps`` (from the config or the environment variables).
    """
    factory = functools.partial(CompoWorldEnvironment, task_file=config.task_file, max_steps=config.max_steps)
    factory().close()  # validates the pool and the step limit now
    app = create_app(factory, CompoWorldAction, CompoWorldObservation, env_name="compoworld",
                     state_cls=CompoWorldState,
                     concurrency_config=ConcurrencyConfig(max_concurrent_envs=config.max_sessions,
                                                          session_timeout=config.session_timeout))
    app.add_middleware(_BodyLimit, limit=config.max_message_bytes)
    app.add_middleware(_FrameGuard)

    @app.get(SESSIONS_PATH, tags=["Health"], summary="Open CompoWorld environments")
    def sessions() -> dict[str, Any]:
        """``{"open", "max_sessions", "session_timeout_s"}``: environments open in this process
        (WebSocket sessions, plus any HTTP request in flight)."""
        return {"open": open_environments(), "max_sessions": config.max_sessions,
                "session_timeout_s": config.session_timeout}

    return app


def uvicorn_config(config: ServerConfig, app: Optional[FastAPI] = None) -> uvicorn.Config:
    """The uvicorn settings of ``config`` (WebSocket messages capped at ``max_message_bytes``)."""
    return uvicorn.Config(app or create_compoworld_app(config), host=config.host, port=config.port,
                          ws_max_size=config.max_message_bytes, log_level="warning", access_log=False)


class BackgroundServer:
    """The server on a daemon thread of this process (tests, notebooks, benchmarks).

    Binds before starting, so ``port=0`` gets a free port with no race;
    ``url`` is ``http://host:port``. Use as a context manager.

    Raises:
        RuntimeError: the server did not start within ``start_timeout_s``.

    Example:
        >>> with BackgroundServer(ServerConfig(port=0)) as server:  # doctest: +SKIP
        ...     server.url.startswith("http://127.0.0.1:")
        True
    """

    def __init__(self, config: ServerConfig = ServerConfig(port=0), start_timeout_s: float = 30.0) -> None:
        self.config = config
        self._sock = socket.create_server((config.host, config.port))
        self.port: int = self._sock.getsockname()[1]
        self.url = f"http://{config.host}:{self.port}"
        self._server = uvicorn.Server(uvicorn_config(config))
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]},
                                        name=f"compoworld-openenv-{self.port}", daemon=True)
        self._timeout = start_timeout_s

    def __enter__(self) -> "BackgroundServer":
        self._thread.start()
        deadline = time.monotonic() + self._timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the OpenEnv server on {self.url} did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def stop(self) -> None:
        """Shut down and wait for the thread (at most 10 s)."""
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout=10)
        self._sock.close()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m compoworld_gym.integrations.openenv",
                                     description="Serve CompoWorld episodes over OpenEnv (HTTP + WebSocket).")
    hints = typing.get_type_hints(ServerConfig)
    for f in dataclasses.fields(ServerConfig):
        # Optional[int] -> int: argparse converts with the non-None member.
        kind = next((t for t in typing.get_args(hints[f.name]) if t is not type(None)), hints[f.name])
        parser.add_argument("--" + f.name.replace("_", "-"), dest=f.name, type=kind, default=f.default,
                            help=f.metadata["help"] + ("" if f.default is None else f" (default: {f.default})"))
    return parser


def parse_config(argv: Optional[Sequence[str]] = None) -> ServerConfig:
    """A :class:`ServerConfig` from command-line arguments.

    Raises:
        SystemExit: bad arguments (argparse's message, exit status 2).
    """
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return ServerConfig(**vars(args))
    except ValueError as exc:
        parser.error(str(exc))
        raise  # unreachable: parser.error exits


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Command-line entry point: serve until interrupted.

    Raises:
        SystemExit: bad arguments or an unreadable task file (exit status 2).
    """
    config = parse_config(argv)
    try:
        app = create_compoworld_app(config)
    except (ValueError, OSError) as exc:
        _parser().error(f"cannot serve: {exc}")
    uvicorn.Server(uvicorn_config(config, app)).run()


__all__ = ["BackgroundServer", "SESSIONS_PATH", "ServerConfig", "create_compoworld_app", "main",
           "parse_config", "uvicorn_config"]
