"""The catalog commands: ``services`` and ``tasks``."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from compoworld_gym.cli.app import app
from compoworld_gym.cli.common import check_out, print_json, console


@app.command()
def services(as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")) -> None:
    """List the services in the catalog, with tool counts and spec sources."""
    from compoworld_gym.catalog import get_service, service_names, service_summary

    rows = [service_summary(get_service(n)) for n in service_names()]
    if as_json:
        print_json(rows)
        return
    table = Table(title=f"{len(rows)} services, {sum(r['tools'] for r in rows)} tools")
    for col in ("name", "domain", "tools", "simulated", "spec_source"):
        table.add_column(col)
    for r in rows:
        table.add_row(r["name"], r["domain"], str(r["tools"]), str(r["simulated_tools"]), r["spec_source"] or "-")
    console.print(table)


@app.command()
def tasks(
    out: Optional[Path] = typer.Option(None, "--out", help="Write the built-in tasks as JSONL here."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON summary."),
) -> None:
    """List (or export) the built-in tasks."""
    from compoworld_gym.builtin_tasks import builtin_tasks
    from compoworld_gym.tasks import save_tasks

    task_list = builtin_tasks()
    if out is not None:
        n = save_tasks(task_list, check_out(out))
        console.print(f"wrote {n} tasks to {out}")
        return
    rows = [{"id": t.id, "services": t.services, "domain": t.domain, "capabilities": t.capabilities,
             "checks": len(t.checks)} for t in task_list]
    if as_json:
        print_json(rows)
        return
    table = Table(title=f"{len(rows)} built-in tasks")
    for col in ("id", "services", "domain", "checks", "capabilities"):
        table.add_column(col)
    for r in rows:
        table.add_row(r["id"], ", ".join(r["services"]), r["domain"], str(r["checks"]), ", ".join(r["capabilities"]))
    console.print(table)
