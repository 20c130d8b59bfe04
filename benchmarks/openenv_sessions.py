"""OpenEnv server sessions: many concurrent episodes over loopback WebSockets.

Run: ``python -m compoworld_gym.benchmarks.openenv_sessions [--sessions 64] [--in-process]
[--json] [--quick]`` (needs the ``[openenv]`` extra, in its own venv).

Starts ``python -m compoworld_gym.integrations.openenv`` in a subprocess
(``--in-process``: on a thread of this process, where client and server
share one GIL), opens ``--sessions`` WebSocket sessions at once, and replays
the reference solution of a built-in task in each (spread over all 12, as
raw Hermes text, structured calls and OpenAI ``tool_calls`` text in turn).
Reports the sessions the server held at once, the latency of one step as
the client sees it (send to reply) with every session stepping
concurrently and with one session alone, whether every episode scored 1.0,
and the wall time from the first connect to the last close.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from typing import Any, Iterator

from compoworld_gym.benchmarks._common import cli, summarise_ns


def reference_turns(task: Any, style: int) -> list[Any]:
    """The reference solution of ``task`` as one action per turn, then the answer.

    ``style`` 0: raw Hermes ``<tool_call>`` text; 1: structured calls
    (:class:`CompoWorldAction`); 2: OpenAI ``tool_calls`` JSON text.
    """
    from compoworld_gym.integrations.openenv import CompoWorldAction

    out: list[Any] = []
    for k, mc in enumerate(task.reference):
        if style == 0:
            out.append(f'<tool_call>{json.dumps({"name": mc.name, "arguments": mc.arguments})}</tool_call>')
        elif style == 1:
            out.append(CompoWorldAction.call(mc.name, **mc.arguments))
        else:
            out.append(json.dumps({"tool_calls": [{"id": f"c{k}", "type": "function", "function": {
                "name": mc.name, "arguments": json.dumps(mc.arguments)}}]}))
    out.append(task.reference_answer if style == 0 else CompoWorldAction.answer(task.reference_answer))
    return out


async def _episode(client: Any, task: Any, style: int, samples: list[int]) -> float:
    """Replay one reference episode; returns its reward (``samples`` gets each step's ns)."""
    await client.reset(task_id=task.id)
    result = None
    for action in reference_turns(task, style):
        t0 = time.perf_counter_ns()
        result = await client.step(action)
        samples.append(time.perf_counter_ns() - t0)
    return float(result.reward) if result.done else 0.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen | None, timeout_s: float = 180.0) -> None:
    import requests

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with status {proc.returncode}")
        with contextlib.suppress(requests.RequestException):
            if requests.get(url + "/health", timeout=2).ok:
                return
        time.sleep(0.2)
    raise RuntimeError(f"the server on {url} did not become healthy within {timeout_s} s")


def _cpu_s(pid: int | None) -> float | None:
    """CPU seconds (user + system) a process has used, from ``/proc`` (None where unreadable)."""
    if pid is None:
        return None
    try:
        fields = open(f"/proc/{pid}/stat").read().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def _server(sessions: int, in_process: bool) -> Iterator[tuple[str, int | None]]:
    """``(url, pid)`` of a running server (pid None on a thread), stopped on exit."""
    from compoworld_gym.integrations.openenv import BackgroundServer, ServerConfig

    if in_process:
        with BackgroundServer(ServerConfig(port=0, max_sessions=sessions, session_timeout=600)) as srv:
            yield srv.url, None
        return
    port = _free_port()
    cmd = [sys.executable, "-m", "compoworld_gym.integrations.openenv", "--port", str(port),
           "--max-sessions", str(sessions), "--session-timeout", "600"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=os.environ.copy())
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_healthy(url, proc)
        yield url, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


async def _concurrent(url: str, pid: int | None, tasks: list[Any], sessions: int) -> dict[str, Any]:
    import requests

    from compoworld_gym.integrations.openenv import SESSIONS_PATH, CompoWorldClient

    samples: list[int] = []
    t0, cpu0, server0 = time.perf_counter(), time.process_time(), _cpu_s(pid)
    clients = [CompoWorldClient(base_url=url) for _ in range(sessions)]
    try:
        await asyncio.gather(*(c.connect() for c in clients))
        await asyncio.gather(*(c.reset() for c in clients))
        held = (await asyncio.to_thread(requests.get, url + SESSIONS_PATH, timeout=30)).json()["open"]
        rewards = await asyncio.gather(*(_episode(c, tasks[i % len(tasks)], i % 3, samples)
                                         for i, c in enumerate(clients)))
    finally:
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    wall, client_cpu, server1 = time.perf_counter() - t0, time.process_time() - cpu0, _cpu_s(pid)
    per_step = lambda s: None if s is None else round(s * 1e3 / len(samples), 3)  # noqa: E731
    return {"held_at_once": held, "episodes": len(rewards), "all_scored_one": all(r == 1.0 for r in rewards),
            "steps": len(samples), "step_ms": summarise_ns(samples, "ms"), "wall_s": round(wall, 3),
            "steps_per_s": round(len(samples) / wall, 1),
            # Whole-phase CPU (connects, resets and closes included) over the steps: a per-step cost
            # that does not depend on how busy the machine is.
            "server_cpu_ms_per_step": per_step(None if server0 is None else server1 - server0),
            "client_cpu_ms_per_step": per_step(client_cpu)}


async def _alone(url: str, tasks: list[Any], episodes: int) -> dict[str, float]:
    from compoworld_gym.integrations.openenv import CompoWorldClient

    samples: list[int] = []
    async with CompoWorldClient(base_url=url) as client:
        for i in range(episodes):
            await _episode(client, tasks[i % len(tasks)], i % 3, samples)
    return summarise_ns(samples[len(tasks[0].reference) + 1:] or samples, "ms")  # first episode: warm-up


def run(quick: bool = False, sessions: int = 64, in_process: bool = False) -> dict[str, Any]:
    """Measure; see the module docstring.

    Args:
        quick: a smoke run (at most 8 sessions, 4 lone episodes).
        sessions: WebSocket sessions held at once (>= 1).
        in_process: serve on a thread of this process instead of a subprocess.

    Raises:
        ValueError: ``sessions`` < 1.
        RuntimeError: the server did not start.
    """
    if sessions < 1:
        raise ValueError(f"sessions must be at least 1, got {sessions}")
    from compoworld_gym.builtin_tasks import builtin_tasks

    sessions = min(sessions, 8) if quick else sessions
    tasks = builtin_tasks()
    t0 = time.perf_counter()
    with _server(sessions, in_process) as (url, pid):
        start_s = time.perf_counter() - t0
        asyncio.run(_alone(url, tasks, 2))  # warm-up: every code path built once
        concurrent = asyncio.run(_concurrent(url, pid, tasks, sessions))
        alone = asyncio.run(_alone(url, tasks, 4 if quick else 24))
    return {"sessions": sessions, "server": "thread" if in_process else "subprocess", "quick": quick,
            **concurrent, "single_session_step_ms": alone, "server_start_s": round(start_s, 2)}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command-line entry point: ``[--sessions N] [--in-process] [--json] [--quick]``."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--sessions", type=int, default=64)
    pre.add_argument("--in-process", action="store_true")
    known, rest = pre.parse_known_args(sys.argv[1:] if argv is None else argv)
    return cli("OpenEnv server sessions (loopback WebSocket)",
               lambda quick: run(quick, known.sessions, known.in_process), rest)


if __name__ == "__main__":
    main()
