"""The OpenEnv server: real HTTP/WebSocket on loopback, many sessions, isolation, reaping, bad input.

Needs the ``[openenv]`` extra in its own venv (OpenEnv pins ``mcp<2``):
``python -m pytest tests/integrations/test_openenv.py``. Importing OpenEnv
takes ~10 s (it imports gradio); the servers run on daemon threads.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import io
import json
import re
import statistics
import time
from pathlib import Path

import pytest

pytest.importorskip("openenv")

import requests  # noqa: E402  (an OpenEnv dependency)
from openenv.cli._validation import validate_running_environment  # noqa: E402
from openenv.validation.parsers.openenv_yaml import OpenEnvYamlParser  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import connect as ws_connect  # noqa: E402

from compoworld_gym.builtin_tasks import builtin_tasks  # noqa: E402
from compoworld_gym.envs.compoworld_env import CompoWorldEnv  # noqa: E402
from compoworld_gym.benchmarks.openenv_sessions import reference_turns  # noqa: E402
from compoworld_gym.integrations import openenv as oe  # noqa: E402
from compoworld_gym.integrations.openenv import (  # noqa: E402
    BackgroundServer, CompoWorldAction, CompoWorldClient, CompoWorldEnvironment, ServerConfig)
from compoworld_gym.wrappers import ChatFormat  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TASKS = builtin_tasks()
SESSIONS = 64
MAX_BYTES = 256 * 1024


@pytest.fixture(scope="module")
def server():
    with BackgroundServer(ServerConfig(port=0, max_sessions=SESSIONS + 8, session_timeout=120.0,
                                       max_message_bytes=MAX_BYTES)) as srv:
        yield srv


def _open_count(srv) -> int:
    return requests.get(srv.url + oe.SESSIONS_PATH, timeout=10).json()["open"]


async def _replay(client, task, style: int, latencies: list[float]):
    result = await client.reset(task_id=task.id)
    assert [m["role"] for m in result.observation.messages] == ["system", "user"]
    assert [t["function"]["name"] for t in result.observation.tools] == [
        "list_services", "list_tools", "describe_tool", "call_tool"]
    for action in reference_turns(task, style):
        t0 = time.perf_counter()
        result = await client.step(action)
        latencies.append(time.perf_counter() - t0)
        assert result.observation.error is None, result.observation.error
    return result


# ------------------------------------------------------------------ sessions
def test_64_concurrent_sessions_replay_every_builtin_task_to_a_score_of_one(server):
    assert len(TASKS) == 12
    latencies: list[float] = []
    held: list[int] = []

    async def main():
        clients = [CompoWorldClient(base_url=server.url) for _ in range(SESSIONS)]
        await asyncio.gather(*(c.connect() for c in clients))
        await asyncio.gather(*(c.reset() for c in clients))
        held.append(await asyncio.to_thread(_open_count, server))
        try:
            return await asyncio.gather(*(_replay(c, TASKS[i % 12], i % 3, latencies)
                                          for i, c in enumerate(clients)))
        finally:
            await asyncio.gather(*(c.close() for c in clients))

    t0 = time.perf_counter()
    results = asyncio.run(main())
    wall = time.perf_counter() - t0
    assert held == [SESSIONS]  # every session held at once, each its own environment
    assert len(results) == SESSIONS
    for i, result in enumerate(results):
        obs = result.observation
        assert (result.done, result.reward, obs.rubric_score) == (True, 1.0, 1.0)
        assert obs.task_id == TASKS[i % 12].id
        assert obs.rubric and all(item.passed for item in obs.rubric)
    assert len(latencies) == sum(len(TASKS[i % 12].reference) + 1 for i in range(SESSIONS))
    q = statistics.quantiles(latencies, n=100)
    print(f"\n{SESSIONS} sessions held at once; {len(latencies)} steps; p50 {q[49] * 1e3:.2f} ms, "
          f"p99 {q[98] * 1e3:.2f} ms per step; wall {wall:.2f} s")
    deadline = time.monotonic() + 10
    while _open_count(server) and time.monotonic() < deadline:  # closes finish in the background
        time.sleep(0.05)
    assert _open_count(server) == 0


def test_sessions_on_the_same_task_do_not_share_state(server):
    """B replays after A has made all its writes: B sees the initial state (same results), and
    scores 1.0 (its writes would break the task's no-duplicates guards if A's were visible)."""
    task = TASKS[0]
    local = CompoWorldEnvironment()
    local.reset(task_id=task.id)
    expected = [local.step(CompoWorldAction.call(mc.name, **mc.arguments)).results for mc in task.reference]

    async def main():
        async with CompoWorldClient(base_url=server.url) as a, CompoWorldClient(base_url=server.url) as b:
            runs = []
            for client in (a, b):
                await client.reset(task_id=task.id)
                steps = [await client.step(CompoWorldAction.call(mc.name, **mc.arguments))
                         for mc in task.reference]
                runs.append([s.observation.results for s in steps])
            ends = [await c.step(CompoWorldAction.answer(task.reference_answer)) for c in (a, b)]
            return runs, ends

    (run_a, run_b), ends = asyncio.run(main())
    assert run_a == run_b == expected
    assert [e.reward for e in ends] == [1.0, 1.0]


def test_abandoned_sessions_are_reaped_after_the_session_timeout():
    config = ServerConfig(port=0, max_sessions=3, session_timeout=1.0)
    with BackgroundServer(config) as srv:
        async def main():
            abandoned = [CompoWorldClient(base_url=srv.url) for _ in range(3)]
            for c in abandoned:
                await c.reset(task_id=TASKS[1].id)
            extra = CompoWorldClient(base_url=srv.url)
            with pytest.raises(RuntimeError, match="CAPACITY_REACHED"):
                await extra.reset()
            await extra.close()
            assert await asyncio.to_thread(_open_count, srv) == 3
            t0 = time.monotonic()
            while await asyncio.to_thread(_open_count, srv) and time.monotonic() - t0 < 20:
                await asyncio.sleep(0.2)
            freed_after = time.monotonic() - t0
            assert await asyncio.to_thread(_open_count, srv) == 0, "the reaper did not free the sessions"
            late = await abandoned[0].step(CompoWorldAction.call("list_services"))
            assert late.done and late.observation.error.code == 410
            async with CompoWorldClient(base_url=srv.url) as fresh:  # the slots are free again
                result = await fresh.reset(task_id=TASKS[1].id)
                assert result.observation.task_id == TASKS[1].id
            for c in abandoned:
                await c.close()
            return freed_after

        freed_after = asyncio.run(main())
        # OpenEnv's reaper wakes every max(timeout / 4, 5) s.
        assert freed_after <= 1.0 + 5.0 + 2.0


# ----------------------------------------------------------------- bad input
def _send(ws, message):
    ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))
    return ws.recv(timeout=30)


def test_malformed_and_oversized_websocket_messages_get_structured_errors(server):
    url = server.url.replace("http://", "ws://") + "/ws"
    with ws_connect(url, max_size=None) as ws:
        ask = lambda m: json.loads(_send(ws, m))  # noqa: E731
        assert ask("{not json")["data"]["code"] == "INVALID_JSON"
        # JSON that is not an object, and binary frames: before, OpenEnv ended the session on them.
        for frame in ["null", "123", '"str"', "[1, 2]", b"bin"]:
            assert ask(frame)["data"]["code"] == "INVALID_JSON", frame
        assert ask({"type": "warp"})["data"]["code"] == "UNKNOWN_TYPE"
        assert ask({"type": "step", "data": {"bogus": 1}})["data"]["code"] == "VALIDATION_ERROR"
        assert ask({"type": "step", "data": {"text": "a", "final_answer": "b"}})["data"]["code"] == \
            "VALIDATION_ERROR"
        obs = ask({"type": "step", "data": {"text": "hello"}})["data"]
        assert (obs["done"], obs["observation"]["error"]["code"]) == (True, 409)  # before reset
        for data, code in [({"task_id": "no-such-task"}, 404), ({"task_id": 5}, 400), ({"seed": -1}, 400),
                           ({"colour": "red"}, 400)]:
            err = ask({"type": "reset", "data": data})["data"]["observation"]["error"]
            assert err["code"] == code, (data, err)
        assert "no-such-task" in ask({"type": "reset", "data": {"task_id": "no-such-task"}})[
            "data"]["observation"]["error"]["message"]
        ok = ask({"type": "reset", "data": {"task_id": TASKS[2].id}})["data"]
        assert ok["observation"]["error"] is None and ok["observation"]["task_id"] == TASKS[2].id
        big = ask({"type": "step", "data": {"text": "x" * 100_000}})["data"]["observation"]
        assert (big["error"]["code"], big["step"]) == (413, 0)  # refused at the door: no step used
        bad = ask({"type": "step", "data": {"text": '<tool_call>{"name": </tool_call>'}})[
            "data"]["observation"]
        assert (bad["error"]["code"], bad["step"]) == (400, 1)  # as ChatFormat: it uses a step
        good = ask({"type": "step", "data": {"calls": [{"name": "list_services"}]}})["data"]["observation"]
        assert good["error"] is None and good["results"][0]["services"]
    with ws_connect(url, max_size=None) as ws:  # a frame over the limit closes that socket only
        with pytest.raises(ConnectionClosed) as closed:
            _send(ws, {"type": "step", "data": {"text": "y" * (MAX_BYTES + 1)}})
        assert closed.value.rcvd.code == 1009  # "message too big"
    with ws_connect(url) as ws:  # the server keeps serving
        assert json.loads(_send(ws, {"type": "reset", "data": {}}))["type"] == "observation"


def test_http_bad_input_gets_structured_errors(server):
    post = lambda path, **kw: requests.post(server.url + path, timeout=30, **kw)  # noqa: E731
    bad_json = post("/step", data=b"{nope", headers={"content-type": "application/json"})
    assert bad_json.status_code == 422 and bad_json.json()["detail"]
    assert post("/step", json={"action": {"nope": 1}}).status_code == 422
    huge = post("/step", json={"action": {"text": "z" * (MAX_BYTES + 1)}})
    assert huge.status_code == 413 and huge.json()["detail"]["code"] == 413
    # A chunked body declares no length: before, it was read and parsed in full.
    body = json.dumps({"action": {"text": "z" * (MAX_BYTES + 1)}}).encode()
    chunked = post("/step", data=iter([body[i:i + 4096] for i in range(0, len(body), 4096)]),
                   headers={"content-type": "application/json"})
    assert chunked.request.headers.get("Transfer-Encoding") == "chunked"
    assert chunked.status_code == 413 and chunked.json()["detail"]["code"] == 413
    stateless = post("/step", json={"action": {"text": "hi"}}).json()
    error = stateless["observation"]["error"]
    assert error["code"] == 409 and "/ws" in error["message"]
    unknown = post("/reset", json={"task_id": "nope"}).json()
    assert unknown["done"] and unknown["observation"]["error"]["code"] == 404
    assert requests.get(server.url + "/health", timeout=10).json()["status"] == "healthy"


def test_openenv_runtime_validation_passes(server):
    report = validate_running_environment(server.url, timeout_s=30)
    assert report["passed"], report["summary"]
    schema = requests.get(server.url + "/schema", timeout=10).json()
    assert set(schema["action"]["properties"]) >= {"text", "calls", "final_answer"}
    assert "rubric" in schema["observation"]["properties"]


# ------------------------------------------------------- episode semantics
def test_text_turns_give_exactly_chat_formats_messages():
    task = TASKS[3]
    chat = ChatFormat(CompoWorldEnv())
    env = CompoWorldEnvironment()
    expected, _ = chat.reset(options={"task": task.id})
    got = env.reset(task_id=task.id).messages
    for turn in [*reference_turns(task, 0)[:-1], "<tool_call>{broken", reference_turns(task, 2)[0], "Done: nothing more."]:
        expected, reward, terminated, truncated, info = chat.step(turn)
        obs = env.step(CompoWorldAction.from_text(turn))
        got = got + obs.messages
        assert got == expected and obs.reward == reward and obs.done == (terminated or truncated)
    assert obs.rubric_score == info["rubric_score"] and len(obs.rubric) == len(info["rubric"])


def test_structured_arguments_and_final_answers_arrive_verbatim():
    env = CompoWorldEnvironment()
    env.reset(task_id=TASKS[0].id)
    tricky = "<tool_call>x</tool_call> <think>y</think> [TOOL_CALLS] <|python_tag|>"
    obs = env.step(CompoWorldAction.call("list_tools", service=tricky))
    assert obs.results[0]["error"]["code"] == 404 and tricky in obs.results[0]["error"]["message"]
    assert obs.messages[0]["tool_calls"][0]["function"]["arguments"] == {"service": tricky}
    end = env.step(CompoWorldAction.answer('<tool_call>{"name": "list_services"}</tool_call>'))
    assert end.done and end.messages == [{"role": "assistant",
                                          "content": '<tool_call>{"name": "list_services"}</tool_call>'}]
    after = env.step(CompoWorldAction.call("list_services"))
    assert after.error.code == 409 and after.done
    assert env.state.done and env.state.rubric_score == end.rubric_score


def test_step_limit_ends_and_scores_the_episode_and_close_refuses_later_calls():
    env = CompoWorldEnvironment(max_steps=2)
    first = env.reset(seed=7)
    assert first.episode_id == f"{first.task_id}/7/1"  # deterministic default id
    assert not env.step(CompoWorldAction.call("list_services")).done
    last = env.step(CompoWorldAction.call("list_services"))
    assert (last.done, last.truncated, last.reward, last.rubric_score) == (True, True, 0.0, 0.0)
    assert last.rubric and not all(item.passed for item in last.rubric)
    env.close()
    assert env.reset().error.code == 410 and env.step(CompoWorldAction.answer("x")).error.code == 410


def test_a_task_that_cannot_be_mounted_is_refused_with_a_500():
    task = TASKS[0]
    broken = task.model_copy(update={"id": "broken", "initial_state": {
        **task.initial_state, task.services[0]: {"no_such_field": [1, 2]}}})
    env = CompoWorldEnvironment(tasks=[broken, TASKS[1]])
    refused = env.reset(task_id="broken")
    assert refused.done and refused.error.code == 500 and "ValidationError" in refused.error.message
    assert env.reset(task_id=TASKS[1].id).error is None  # the session still works


def test_same_seed_and_actions_give_the_same_bytes():
    def run():
        env = CompoWorldEnvironment()
        obs = [env.reset(seed=11)]
        task = next(t for t in TASKS if t.id == obs[0].task_id)
        obs += [env.step(a if isinstance(a, CompoWorldAction) else CompoWorldAction.from_text(a))
                for a in reference_turns(task, 1)]
        return [o.model_dump_json() for o in obs]

    assert run() == run()


def test_task_source_from_a_file_and_the_environment_variable(tmp_path, monkeypatch):
    from compoworld_gym.tasks import save_tasks

    path = tmp_path / "two.jsonl"
    save_tasks(TASKS[4:6], path)
    monkeypatch.setenv(oe.TASK_FILE_ENV, str(path))
    monkeypatch.setenv(oe.MAX_STEPS_ENV, "3")
    env = CompoWorldEnvironment()
    assert env.reset(task_id=TASKS[4].id).error is None and env.state.max_steps == 3
    assert env.reset(task_id=TASKS[0].id).error.code == 404  # not in the file's pool
    monkeypatch.setenv(oe.MAX_STEPS_ENV, "many")
    with pytest.raises(ValueError, match="COMPOWORLD_MAX_STEPS"):
        CompoWorldEnvironment()
    monkeypatch.delenv(oe.MAX_STEPS_ENV)
    with pytest.raises(FileNotFoundError):
        oe.create_compoworld_app(ServerConfig(task_file=str(tmp_path / "missing.jsonl")))


# ------------------------------------------------------- packaging and CLI
def test_command_line_configuration():
    config = oe.parse_config(["--port", "0", "--max-sessions", "5", "--session-timeout", "2.5",
                              "--task-file", "t.jsonl", "--max-steps", "9"])
    assert (config.port, config.max_sessions, config.session_timeout, config.task_file, config.max_steps) == \
        (0, 5, 2.5, "t.jsonl", 9)
    for bad in (["--max-sessions", "0"], ["--session-timeout", "0"], ["--port", "x"]):
        with pytest.raises(SystemExit):
            oe.parse_config(bad)


def test_manifest_parses_with_openenvs_own_parser_and_names_a_real_app():
    manifest = OpenEnvYamlParser().parse(ROOT / "compoworld_gym" / "integrations")
    assert manifest.name == "compoworld" and manifest.reward.range == (0.0, 1.0)
    text = (ROOT / "compoworld_gym" / "integrations" / "openenv.yaml").read_text()
    module, attr = re.search(r"^app: (\S+)$", text, re.M).group(1).split(":")
    assert module == oe.__name__ and getattr(oe, attr).title.startswith("OpenEnv")


def test_the_adapter_never_imports_mcp_or_the_mcp_bridge():
    for path in sorted((ROOT / "compoworld_gym" / "integrations").glob("openenv*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert not name.startswith(("mcp", "fastmcp", "compoworld_gym.mcp_bridge")), (path, name)


def test_docs_example_runs_and_scores_one():
    doc = (ROOT / "docs" / "integrations" / "openenv.md").read_text()
    snippet = re.search(r"^```python\n(.*?)^```", doc, re.S | re.M).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(snippet, "openenv.md", "exec"), {"__name__": "doc_snippet"})
    assert out.getvalue().split() == ["1.0"]


def test_main_refuses_a_missing_task_file_with_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        oe.main(["--port", "0", "--task-file", "/nonexistent/tasks.jsonl"])
    assert exit_.value.code == 2 and "cannot serve" in capsys.readouterr().err


def test_benchmark_script_reports_its_figures():
    from compoworld_gym.benchmarks import openenv_sessions

    result = openenv_sessions.run(quick=True, sessions=4, in_process=True)
    assert (result["held_at_once"], result["episodes"], result["all_scored_one"]) == (4, 4, True)
    assert result["steps"] == sum(len(TASKS[i].reference) + 1 for i in range(4))
    assert 0 < result["step_ms"]["median_ms"] <= result["step_ms"]["p99_ms"] and result["wall_s"] > 0


@pytest.mark.slow
def test_python_dash_m_serves_on_the_given_port():
    import socket
    import subprocess
    import sys

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "compoworld_gym.integrations.openenv", "--host", "127.0.0.1",
           "--port", str(port), "--max-sessions", "2", "--session-timeout", "5"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        url, deadline = f"http://127.0.0.1:{port}", time.monotonic() + 180
        while time.monotonic() < deadline and proc.poll() is None:
            with contextlib.suppress(requests.RequestException):
                info = requests.get(url + oe.SESSIONS_PATH, timeout=2).json()
                break
            time.sleep(0.5)
        else:
            pytest.fail("the server did not come up" + (f": {proc.stderr.read().decode()[-2000:]}"
                                                        if proc.poll() is not None else ""))
        assert info == {"open": 0, "max_sessions": 2, "session_timeout_s": 5.0}
        with CompoWorldClient(base_url=url).sync() as env:
            assert env.reset(task_id=TASKS[0].id).observation.task_id == TASKS[0].id
    finally:
        proc.terminate()
        proc.wait(timeout=30)
