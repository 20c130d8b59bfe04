"""The ``scaffold-service`` command: draft a new service from a real MCP server spec.

See :mod:`compoworld_gym.scaffold` and ``docs/scaffold.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from compoworld_gym.cli.app import app
from compoworld_gym.cli.common import console, fail


@app.command("scaffold-service")
def scaffold_service(
    slug: str = typer.Argument(..., help="Slug of a server in compoworld_gym/data/mcp_servers.jsonl, "
                                         "e.g. @chriscarrollsmith_taskqueue-mcp."),
    name: Optional[str] = typer.Option(None, "--name", help="Service name (snake_case); default: the slug "
                                                            "without its owner and 'mcp'/'server' words."),
    out: Path = typer.Option(Path("."), "--out", help="Directory the files are laid out under as in the "
                                                      "repository (default: the current one: run it in the "
                                                      "checkout root to put them in place)."),
    force: bool = typer.Option(False, "--force", help="Overwrite files that exist (otherwise refused)."),
) -> None:
    """Draft a service module, its tests and its generation hook from a real MCP server spec."""
    from compoworld_gym.scaffold import ScaffoldError, UnknownSlug, scaffold_service as write_drafts

    try:
        result = write_drafts(slug, name=name, out=out, force=force)
    except (UnknownSlug, ScaffoldError) as exc:
        raise fail(str(exc)) from None
    draft = result.draft
    console.print(f"drafted service {draft.name!r} ({draft.class_name}) from {draft.slug}: {len(draft.tools)} tools, "
                  f"{len(draft.plan.collections)} typed record collections", markup=False, highlight=False, soft_wrap=True)
    for path in result.files:
        console.print(f"  wrote {path}", markup=False, highlight=False, soft_wrap=True)
    for note in draft.notes:
        console.print(f"  note: {note}", markup=False, highlight=False, soft_wrap=True)
    console.print("next: write each tool (they raise NotImplementedError), the seed factory and the tests; "
                  "then LINKS in the hook. See docs/scaffold.md.", markup=False, highlight=False, soft_wrap=True)
