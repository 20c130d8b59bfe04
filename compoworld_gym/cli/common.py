"""Shared pieces of the command line: the consoles, error exits, task loading, output checks."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Annotated, Iterator, Optional

import rich.markup
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

console = Console()
errors = Console(stderr=True, soft_wrap=True)


def fail(message: str, code: int = 2) -> "typer.Exit":
    """Print ``error: message`` on stderr (unwrapped) and return the Exit to raise."""
    errors.print(f"[red]error:[/red] {rich.markup.escape(message)}", highlight=False)
    return typer.Exit(code)


def print_json(obj: object) -> None:
    """Print ``obj`` as indented JSON on stdout (the only thing ``--json`` commands print there)."""
    sys.stdout.write(json.dumps(obj, indent=2, sort_keys=False, default=str) + "\n")


def load_task_pool(tasks_file: Optional[Path]):
    """The built-in tasks, or the tasks of ``tasks_file``; a bad or empty file exits 2 with one line."""
    from compoworld_gym.builtin_tasks import builtin_tasks
    from compoworld_gym.tasks import TaskFileError, load_tasks

    if tasks_file is None:
        return builtin_tasks()
    if tasks_file.is_dir():
        raise fail(f"{tasks_file} is a directory, not a JSONL task file")
    if not tasks_file.exists():
        raise fail(f"task file {tasks_file} does not exist")
    try:
        tasks = load_tasks(tasks_file)
    except (TaskFileError, OSError) as exc:
        raise fail(f"{exc}") from None
    if not tasks:
        raise fail(f"{tasks_file} holds no tasks")
    _note_partial(tasks_file)
    return tasks


def _note_partial(tasks_file: Path) -> None:
    """One line on stderr when the file is what an interrupted ``generate`` kept."""
    from compoworld_gym.task_summary import TaskFileSummary, summary_path

    try:
        summary = TaskFileSummary.model_validate_json(summary_path(tasks_file).read_bytes())
    except (OSError, ValueError):
        return
    if not summary.complete:
        errors.print(f"note: {tasks_file} is a partial run: {summary.tasks} of {summary.requested} "
                     "requested tasks (an interrupted generate kept them)", highlight=False, markup=False)


def check_out(path: Path) -> Path:
    """Fail early (before any work) when ``path`` cannot be written as a file.

    Checks that ``path`` is not a directory, that its directory exists, and
    that a file can really be created there (a read-only directory or file
    fails here, not after an hour of work). Nothing is left behind.
    """
    if path.is_dir():
        raise fail(f"{path} is a directory; give a file path")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.exists():
        raise fail(f"directory {parent} does not exist")
    if path.exists() and not os.access(path, os.W_OK):
        raise fail(f"{path} is not writable")
    try:
        with tempfile.NamedTemporaryFile(dir=parent, prefix=f".{path.name}.", suffix=".check"):
            pass
    except OSError as exc:
        raise fail(f"cannot write in {parent}: {exc.strerror or exc}") from None
    return path


def check_out_dir(path: Path) -> Path:
    """Create ``path`` (a directory for outputs) now, or fail with one line before any work."""
    if path.exists() and not path.is_dir():
        raise fail(f"{path} is a file; --out takes a directory (its files are written inside it)")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".compoworld.", suffix=".check"):
            pass
    except OSError as exc:
        raise fail(f"cannot write in {path}: {exc.strerror or exc}") from None
    return path


@contextlib.contextmanager
def progress(description: str, total: Optional[int]) -> Iterator["ProgressBar"]:
    """A progress bar on stderr, drawn only when stderr is a terminal.

    Never drawn into a pipe or a file, so ``--json`` output stays clean.
    Yields a :class:`ProgressBar`; ``advance(n)`` and ``update(completed=)``
    work whether or not it is drawn.
    """
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=errors, transient=True, disable=not errors.is_terminal)
    with bar:
        yield ProgressBar(bar, bar.add_task(description, total=total))


class ProgressBar:
    """One task of a rich ``Progress`` (see :func:`progress`)."""

    def __init__(self, bar: Progress, task_id: object) -> None:
        self._bar, self._id = bar, task_id

    def advance(self, n: float = 1) -> None:
        """Count ``n`` more units done."""
        self._bar.advance(self._id, n)  # type: ignore[arg-type]

    def update(self, **fields: object) -> None:
        """Set fields of the task (``completed=``, ``total=``, ``description=``)."""
        self._bar.update(self._id, **fields)  # type: ignore[arg-type]


#: The Ray cluster options that ``generate`` and ``eval`` share (both imply ``--ray``).
def _nonempty_address(value: Optional[str]) -> Optional[str]:
    # An empty $HEAD in a script must not quietly fall back to one process.
    if value is not None and not value.strip():
        raise typer.BadParameter("is empty; give auto, HOST:6379 or ray://HOST:10001 (or leave it out)")
    return value


RayAddress = Annotated[Optional[str], typer.Option(
    "--ray-address", callback=_nonempty_address,
    help="Ray cluster to join (auto, HOST:6379, ray://HOST:10001); implies --ray.")]
RayWorkers = Annotated[Optional[int], typer.Option(
    "--ray-workers", min=1, help="Ray worker actors (default: the cluster's CPUs); implies --ray.")]
