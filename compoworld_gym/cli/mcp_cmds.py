"""``compoworld import-mcp`` and ``compoworld serve``."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

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
    share = report["deterministic_tools"] / report["tools"] if report["tools"] else 0.0
    console.print(f"imported {report['servers']} servers, {report['tools']} tools: "
                  f"{report['deterministic_tools']} deterministic ({share:.1%}), "
                  f"{report['simulated_tools']} simulated, {report['invalid_schemas']} invalid schemas, "
                  f"{report['seconds']:.1f} s")


@app.command()
def serve(
    task: Optional[str] = typer.Option(None, "--task", help="Task id (default: the first task)."),
    tasks_file: Optional[Path] = typer.Option(None, "--tasks", help="JSONL task file (default: built-in)."),
    mode: str = typer.Option("meta", "--mode", help="'meta' (four meta-tools) or 'flat' (every tool)."),
) -> None:
    """Serve a task's composition as an MCP server over stdio."""
    from compoworld_gym.mcp_bridge import serve_stdio

    pool = load_task_pool(tasks_file)
    chosen = next((t for t in pool if t.id == task), None) if task else pool[0]
    if chosen is None:
        raise fail(f"unknown task {task!r}")
    if mode not in ("meta", "flat"):
        raise fail(f"--mode must be 'meta' or 'flat', got {mode!r}")
    serve_stdio(chosen, mode)  # type: ignore[arg-type]
