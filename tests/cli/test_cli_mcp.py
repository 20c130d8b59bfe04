"""``compoworld serve`` stops on signals; ``compoworld import-mcp`` reports a dead live source in one line."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("mcp")
from mcp import MCPError  # noqa: E402
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from compoworld_gym.cli import app  # noqa: E402
from compoworld_gym.importer.specs import describe_live_failure  # noqa: E402

runner = CliRunner()
CLI = [sys.executable, "-m", "compoworld_gym.cli"]
#: A handshake-era protocol version the SDK's server accepts in ``initialize``.
PROTOCOL = "2025-06-18"


def _initialised_server() -> subprocess.Popen:
    """``compoworld serve`` with stdin a pipe kept open, after the ``initialize`` round trip."""
    proc = subprocess.Popen([*CLI, "serve", "--task", "builtin-chargeback"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL, "capabilities": {},
                       "clientInfo": {"name": "test", "version": "0"}}}
    proc.stdin.write((json.dumps(init) + "\n").encode())
    proc.stdin.flush()
    reply = json.loads(proc.stdout.readline())
    assert reply["id"] == 1 and reply["result"]["serverInfo"]["name"] == "compoworld-builtin-chargeback"
    assert set(reply["result"]["capabilities"]) >= {"tools", "prompts", "resources"}
    return proc


def _wait(proc: subprocess.Popen, seconds: float = 5.0) -> tuple[int, float, str]:
    start = time.monotonic()
    try:
        proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"compoworld serve did not stop within {seconds} s")
    finally:
        proc.stdin.close()
        proc.stdout.close()
    elapsed = time.monotonic() - start
    err = proc.stderr.read().decode()
    proc.stderr.close()
    return proc.returncode, elapsed, err


def test_serve_exits_130_on_ctrl_c_with_one_line():
    proc = _initialised_server()
    proc.send_signal(signal.SIGINT)
    code, elapsed, err = _wait(proc)
    assert code == 130 and elapsed < 5.0
    assert err == "error: interrupted\n"


def test_serve_exits_0_on_sigterm_silently():
    proc = _initialised_server()
    proc.send_signal(signal.SIGTERM)
    code, elapsed, err = _wait(proc)
    assert (code, err) == (0, "") and elapsed < 5.0


def _one_error_line(out) -> str:
    assert out.exit_code == 2, out.output
    lines = out.output.strip().splitlines()
    assert len(lines) == 1, out.output
    assert not any(word in out.output for word in ("Traceback", "ExceptionGroup", "TaskGroup"))
    return " ".join(lines[0].split())


def test_import_mcp_of_an_exiting_process_names_source_and_cause(tmp_path):
    missing = tmp_path / "missing.py"
    source = f"{sys.executable} {missing}"
    line = _one_error_line(runner.invoke(app, ["import-mcp", source]))
    assert line.startswith(f"error: could not list tools of MCP server {source!r}: ")
    assert "the server closed the connection before answering" in line
    # The child's own stderr is quoted in the line, not printed beside it.
    assert "server stderr:" in line and "missing.py" in line.split("server stderr:")[1]


def test_import_mcp_of_a_missing_command():
    line = _one_error_line(runner.invoke(app, ["import-mcp", "compoworld-no-such-command --flag"]))
    assert line == ("error: could not list tools of MCP server 'compoworld-no-such-command --flag': "
                    "command 'compoworld-no-such-command' not found")


def test_import_mcp_of_a_refused_http_url():
    with socket.socket() as sock:  # a port nobody listens on: bound, then released
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/mcp"
    line = _one_error_line(runner.invoke(app, ["import-mcp", url]))
    assert line.startswith(f"error: could not list tools of MCP server {url!r}: connection refused (")


def test_import_mcp_failure_is_one_line_on_the_real_stderr(tmp_path):
    """The issue's own case, as a user runs it: ``compoworld import-mcp "python missing.py"``."""
    done = subprocess.run([*CLI, "import-mcp", f"{sys.executable} missing.py"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("error: could not list tools of MCP server ")
    assert "ExceptionGroup" not in done.stderr and "can't open file" in done.stderr


def test_a_timeout_names_the_timeout():
    # A live silent server costs the SDK's fixed 10 s discovery probe before the timed
    # request: the message is built from the same error, made here directly.
    timed_out = MCPError(REQUEST_TIMEOUT, "Request 'initialize' timed out")
    group = ExceptionGroup("unhandled errors in a TaskGroup", [ExceptionGroup("inner", [timed_out])])
    assert describe_live_failure(group, 1.0) == "no answer within 1 s (Request 'initialize' timed out)"
    closed = MCPError(CONNECTION_CLOSED, "Connection closed")
    assert describe_live_failure(closed, 30.0, "boom") == (
        "the server closed the connection before answering (did its process exit?); server stderr: boom")


def test_describe_live_failure_unwraps_nested_groups_to_the_first_real_error():
    inner = ValueError("bad frame")
    group = ExceptionGroup("unhandled errors in a TaskGroup", [
        ExceptionGroup("unhandled errors in a TaskGroup", [inner, KeyError("later")])])
    assert describe_live_failure(group, 30.0) == "ValueError: bad frame"
    try:
        try:
            raise ConnectionResetError(104, "Connection reset by peer")
        except OSError as exc:
            raise RuntimeError("stream broke") from exc
    except RuntimeError as wrapped:
        text = describe_live_failure(ExceptionGroup("g", [wrapped]), 30.0, "last words")
    assert text == ("RuntimeError: stream broke (ConnectionResetError: [Errno 104] Connection reset "
                    "by peer); server stderr: last words")
