"""The summary beside a task file: how many tasks, their digest, and whether the run finished.

``compoworld generate --out tasks.jsonl`` writes ``tasks.jsonl.summary.json``
beside the task file (atomically, after the file itself). Loading a task
file checks its summary when one exists, so a file cut short or changed
after it was written is an error instead of a smaller task pool, and a file
an interrupted run kept is known as partial::

    {"format": "compoworld-task-summary", "version": 1, "tasks": 1000,
     "sha256": "9113cbb6...", "complete": true, "requested": 1000, ...}
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from compoworld_gym.jsonl import atomic_writer

SUFFIX = ".summary.json"


class TaskFileSummary(BaseModel):
    """What a task file's writer says about it.

    Attributes:
        tasks: number of tasks (non-blank lines) in the file.
        sha256: hex SHA-256 of the file's bytes.
        complete: False for the tasks an interrupted run kept.
        requested: how many tasks the run was asked for (None if unknown).
        extra: the writer's statistics (seed, generator version, rejections...).
    """

    model_config = ConfigDict(extra="forbid")
    format: str = "compoworld-task-summary"
    version: int = 1
    tasks: int = Field(ge=0)
    sha256: str
    complete: bool = True
    requested: Optional[int] = None
    extra: dict[str, Any] = Field(default_factory=dict)


class SummaryMismatch(ValueError):
    """A task file does not match its summary (cut short or edited after it was written)."""


def summary_path(path: str | Path) -> Path:
    """``tasks.jsonl`` → ``tasks.jsonl.summary.json``."""
    path = Path(path)
    return path.with_name(path.name + SUFFIX)


def digest(data: bytes) -> tuple[int, str]:
    """``(task count, sha256 hex)`` of a task file's bytes (blank lines are not tasks)."""
    return sum(1 for line in data.splitlines() if line.strip()), hashlib.sha256(data).hexdigest()


def write_summary(path: str | Path, *, complete: bool = True, requested: Optional[int] = None,
                  extra: Optional[dict[str, Any]] = None, known: Optional[tuple[int, str]] = None
                  ) -> TaskFileSummary:
    """Write the summary of the task file at ``path`` (atomic).

    ``known`` is the file's ``(task count, sha256)`` when the writer already
    has it (:class:`TaskFileWriter` hashes as it writes); otherwise the file
    is read back.

    Raises:
        OSError: the file cannot be read or the summary cannot be written.
    """
    count, sha = known if known is not None else digest(Path(path).read_bytes())
    summary = TaskFileSummary(tasks=count, sha256=sha, complete=complete, requested=requested,
                              extra=dict(extra or {}))
    with atomic_writer(summary_path(path)) as fh:
        fh.write(summary.model_dump_json(indent=2) + "\n")
    return summary


def check_summary(path: str | Path, data: bytes) -> Optional[TaskFileSummary]:
    """The summary of the task file at ``path`` whose bytes are ``data``, checked; None if it has none.

    Raises:
        SummaryMismatch: the file holds another number of tasks or other
            bytes than its summary says, or the summary is unreadable.
    """
    side = summary_path(path)
    try:
        raw = side.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise SummaryMismatch(f"{side}: cannot read the summary ({exc})") from None
    try:
        summary = TaskFileSummary.model_validate(json.loads(raw))
    except (ValueError, ValidationError) as exc:
        raise SummaryMismatch(f"{side}: not a task-file summary ({' '.join(str(exc).split())[:200]})") from None
    count, sha = digest(data)
    if count != summary.tasks or sha != summary.sha256:
        what = (f"holds {count} tasks but its summary {side.name} lists {summary.tasks}"
                if count != summary.tasks else f"does not match its summary {side.name} (edited after it was written)")
        raise SummaryMismatch(f"{path} {what}: the file was cut short or changed; "
                              f"regenerate it, or delete {side.name} to use it as it is")
    return summary


class TaskFileWriter:
    """Stream tasks to ``<out>.partial``; on success rename it to ``out`` and write the summary.

    A run that ends early (Ctrl-C, SIGTERM, an error) never touches ``out``:
    :meth:`keep_partial` leaves the tasks written so far in ``<out>.partial``
    with a summary that says ``complete: false``, and :meth:`discard` removes
    them. Tasks are on disk as soon as they are written, so memory does not
    grow with the run.

    Raises:
        OSError: the partial file cannot be created.
    """

    def __init__(self, out: str | Path, requested: Optional[int] = None) -> None:
        self.out = Path(out)
        self.partial = self.out.with_name(self.out.name + ".partial")
        self.requested = requested
        self.written = 0
        self._sha = hashlib.sha256()  # hashed as written: the summary never reads the file back
        self._fh = open(self.partial, "wb")

    def write(self, line: str) -> None:
        """Append one task's JSON line (without its newline)."""
        data = line.encode("utf-8") + b"\n"
        self._fh.write(data)
        self._sha.update(data)
        self.written += 1

    def _close(self) -> None:
        if not self._fh.closed:
            self._fh.flush()
            os.fsync(self._fh.fileno())
            self._fh.close()

    def commit(self, extra: Optional[dict[str, Any]] = None) -> TaskFileSummary:
        """Move the finished file into place (atomic rename), then write its summary."""
        self._close()
        with contextlib.suppress(FileNotFoundError):
            summary_path(self.out).unlink()  # the old summary must never vouch for the new file
        os.replace(self.partial, self.out)
        return write_summary(self.out, complete=True, requested=self.requested, extra=extra, known=self._known())

    def keep_partial(self, extra: Optional[dict[str, Any]] = None) -> int:
        """Keep what was written in ``<out>.partial``, summarised as incomplete; returns the task count."""
        self._close()
        write_summary(self.partial, complete=False, requested=self.requested, extra=extra, known=self._known())
        return self.written

    def _known(self) -> tuple[int, str]:
        return self.written, self._sha.hexdigest()

    def discard(self) -> None:
        """Remove the partial file (``out`` is untouched)."""
        self._close()
        with contextlib.suppress(FileNotFoundError):
            self.partial.unlink()
