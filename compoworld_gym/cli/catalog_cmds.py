"""The catalog commands: ``services`` and ``tasks``.

Both list names a user copies into other commands (``--task``, service
names), so the first column is never cut, at any terminal width: it is a
no-wrap column of a table where the terminal is wide enough for it plus a
few characters per other column, and one block per row (name, then
``column: value`` lines) where it is not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional, Sequence

import typer
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from compoworld_gym.cli.app import app
from compoworld_gym.cli.common import check_out, console, print_json

# Fewest characters an other column may shrink to (it folds) before the block layout is used.
_MIN_OTHER = 10
# Rich's default cell padding: one space either side.
_PADDING = 2


def _table_fits(width: int, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> bool:
    """Whether a table of ``rows`` fits ``width`` with its first column whole."""
    longest = [max([len(columns[i])] + [len(r[i]) for r in rows]) for i in range(len(columns))]
    need = longest[0] + _PADDING + sum(min(n, _MIN_OTHER) + _PADDING for n in longest[1:]) + len(columns) + 1
    return need <= width


def print_listing(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """Print ``rows`` (strings, first column a name or id) without ever cutting the first column.

    Other columns fold (wrap inside words) rather than end in ``…``; on a
    terminal too narrow for that, each row is printed as a block. Cell text
    is printed as is (no rich markup).
    """
    if _table_fits(console.width, columns, rows):
        table = Table(title=title)
        table.add_column(columns[0], no_wrap=True)
        for col in columns[1:]:
            table.add_column(col, overflow="fold")
        for row in rows:
            table.add_row(*row)
        console.print(table, markup=False, highlight=False)
        return
    console.print(title, markup=False, highlight=False)
    for row in rows:
        # soft_wrap: the terminal may wrap a long id, but rich never cuts or splits it
        console.print(row[0], markup=False, highlight=False, soft_wrap=True)
        for col, value in zip(columns[1:], row[1:]):
            console.print(Padding(Text(f"{col}: {value}", overflow="fold"), (0, 0, 0, 2), expand=False))


@app.command()
def services(as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")) -> None:
    """List the services in the catalog, with tool counts and spec sources."""
    from compoworld_gym.catalog import get_service, service_names, service_summary

    rows = [service_summary(get_service(n)) for n in service_names()]
    if as_json:
        print_json(rows)
        return
    print_listing(f"{len(rows)} services, {sum(r['tools'] for r in rows)} tools",
                  ("name", "domain", "tools", "simulated", "spec_source"),
                  [(r["name"], r["domain"], str(r["tools"]), str(r["simulated_tools"]), r["spec_source"] or "-")
                   for r in rows])


@app.command()
def tasks(
    out: Optional[Path] = typer.Option(None, "--out", help="Write the built-in tasks as JSONL here."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON summary."),
) -> None:
    """List (or export) the built-in tasks."""
    from compoworld_gym.builtin_tasks import builtin_tasks
    from compoworld_gym.task_summary import summary_path, write_summary
    from compoworld_gym.tasks import save_tasks

    task_list = builtin_tasks()
    if out is not None:
        check_out(out)
        summary_path(out).unlink(missing_ok=True)  # an old summary must never vouch for the new file
        n = save_tasks(task_list, out)
        write_summary(out, requested=n)  # count and digest, checked whenever the file is loaded
        console.print(f"wrote {n} tasks to {out}", markup=False, highlight=False)
        return
    rows = [{"id": t.id, "services": t.services, "domain": t.domain, "capabilities": t.capabilities,
             "checks": len(t.checks)} for t in task_list]
    if as_json:
        print_json(rows)
        return
    print_listing(f"{len(rows)} built-in tasks", ("id", "services", "domain", "checks", "capabilities"),
                  [(r["id"], ", ".join(r["services"]), r["domain"], str(r["checks"]), ", ".join(r["capabilities"]))
                   for r in rows])
