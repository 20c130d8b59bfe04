"""``compoworld import-mcp`` and ``compoworld serve``."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Iterator, Optional

import typer

from compoworld_gym.cli.app import app
from compoworld_gym.cli.common import fail, load_task_pool, print_json, console


@app.command("import-mcp")
def import_mcp_cmd(
    source: Optional[str] = typer.Argument(None, help="JSONL file of MCP server specs, an http(s):// URL of "
                                                      "a streamable-HTTP server, or a stdio command line "
                                                      "(default: the bundled 420-server spec file)."),
    as_json: bool = typer.Option(False, "--json", help="Print the import figures as JSON."),
) -> None:
    """Import MCP servers as services: deterministic resource tools, the rest simulated."""
    from compoworld_gym.importer import import_mcp
    from compoworld_gym.importer.specs import SpecSourceError
    from compoworld_gym.specs import SPECS_PATH

    try:
        report = import_mcp(source or str(SPECS_PATH))
    except (SpecSourceError, FileNotFoundError) as exc:
        raise fail(f"{exc}") from None
    if not report["servers"]:
        raise fail(f"no MCP servers found in {source or SPECS_PATH}")
    report = {k: v for k, v in report.items() if k != "services"}
    if as_json:
        print_json(report)
        return
    console.print(f"imported {report['servers']} servers, {report['tools']} tools: "
                  f"{report['deterministic_tools']} deterministic ({report['deterministic_share']:.1%}), "
                  f"{report['simulated_tools']} simulated, {report['invalid_schemas']} invalid schemas, "
                  f"{report['seconds']:.1f} s")
    if report["simulated_reasons"]:
        console.print("simulated because: " + ", ".join(f"{reason} {n}" for reason, n
                                                        in report["simulated_reasons"].items()))


@contextlib.contextmanager
def _stop_at_once_on_signals() -> Iterator[None]:
    """While inside, SIGINT exits 130 with one ``error: interrupted`` line and SIGTERM exits 0 silently.

    Both leave at once (``os._exit``). A graceful stop cannot work: the SDK's
    stdio transport reads stdin in a worker thread that no cancellation
    reaches, so asyncio's own Ctrl-C handling cancels the server and then
    waits for that read until the client closes stdin (Ctrl-C seemed
    ignored), and interpreter exit would wait for the thread as well.
    Nothing is lost: the episode lives in memory only, and every response
    is flushed when written. SIGTERM is how clients and supervisors stop a
    server, a requested stop, hence exit 0.
    """

    def stop(signum: int, frame: object) -> None:
        if signum == signal.SIGINT:
            fail("interrupted", 130)
        sys.stderr.flush()
        os._exit(130 if signum == signal.SIGINT else 0)

    if threading.current_thread() is not threading.main_thread():  # only the main thread may set handlers
        yield
        return
    # Installed before the event loop starts: asyncio then keeps its hands off SIGINT.
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:  # a caller in the same process (a test's CliRunner) gets its own handlers back
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@app.command()
def serve(
    task: Optional[str] = typer.Option(None, "--task", help="Task id (default: the first task)."),
    tasks_file: Optional[Path] = typer.Option(None, "--tasks", help="JSONL task file (default: built-in)."),
    mode: str = typer.Option("meta", "--mode", help="'meta' (four meta-tools) or 'flat' (every tool); "
                                                     "both add submit_answer."),
) -> None:
    """Serve one episode of a task over stdio as an MCP server.

    The client gets the task as the prompt 'task' and the resource
    compoworld://task/<id>/instruction, acts through the tools, and ends the
    episode with the submit_answer tool, which returns the reward and the
    rubric. Ctrl-C exits 130; SIGTERM exits 0.
    """
    from compoworld_gym.mcp_bridge import serve_stdio

    pool = load_task_pool(tasks_file)
    chosen = next((t for t in pool if t.id == task), None) if task else pool[0]
    if chosen is None:
        raise fail(f"unknown task {task!r}")
    if mode not in ("meta", "flat"):
        raise fail(f"--mode must be 'meta' or 'flat', got {mode!r}")
    with _stop_at_once_on_signals():
        serve_stdio(chosen, mode)  # type: ignore[arg-type]
