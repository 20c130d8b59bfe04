"""Tasks: one verified piece of cross-service work, serialised as JSONL.

A task (paper §2.4, "submit") keeps the instruction, the initial state of
each service, the rubric checks and a reference solution. Task files are
JSON Lines, one task per line, each with ``schema_version``. Mounting and
scoring a task live in :mod:`compoworld_gym.episode`.

Version history:

* 5 — a decoy lists the writes that taking it rules out (``Decoy.unmade``:
  a rate lock that already runs past the decoy's day is not extended).
  Version 4 is read as is.
* 4 — a decoy lists the write arguments that taking it implies
  (``Decoy.implies``: a rate-lock extension in days, say, derived from a
  date). Version 3 is read as is.
* 3 — a task lists its ``decoys`` (planted values an agent could take for
  the truth); ``only_changed`` caps new records and list growth
  (``max_new``, ``max_added``); the ``writes_confined`` guard; answer items
  list their ``candidates``. Versions 1 and 2 are still read.
* 2 — a rubric item's guard flag is ``guard`` (was ``negative``).
* 1 — first format. Still read: each check's ``negative`` loads as ``guard``,
  and the task is upgraded to the current version (so it is saved as such).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, Iterable, Iterator, Literal, Optional, Union

import orjson
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, model_validator

from compoworld_gym.catalog import get_service
from compoworld_gym.jsonl import atomic_writer, parse_record
from compoworld_gym.checks import Check
from compoworld_gym.service import Service

#: A scalar argument of a tool call, as JSON keeps it (an int stays an int).
Leaf = Union[StrictBool, StrictInt, StrictFloat, str]

#: The task-file format written by :func:`save_tasks` (see the version history above).
SCHEMA_VERSION = 5


class MetaCall(BaseModel):
    """One meta-tool call of a reference solution."""

    model_config = ConfigDict(extra="forbid")
    name: Literal["list_services", "list_tools", "describe_tool", "call_tool"]
    arguments: dict[str, Any] = Field(default_factory=dict)

    def action(self) -> str:
        """The call as an env action text (JSON)."""
        return orjson.dumps({"name": self.name, "arguments": self.arguments}).decode()

    def flat_action(self) -> Optional[str]:
        """The call as an action of flat-tools mode (:class:`~compoworld_gym.wrappers.FlatTools`):
        ``call_tool(t, a)`` becomes ``t(a)``; discovery calls have no flat form (None), since
        flat mode offers every tool up front."""
        if self.name != "call_tool":
            return None
        return orjson.dumps({"name": self.arguments.get("tool_name"),
                             "arguments": self.arguments.get("arguments", {})}).decode()


class Decoy(BaseModel):
    """A planted value an agent could take for the truth.

    Attributes:
        kind: ``"stale"`` (an outdated copy of the record), ``"archived"`` (a
            superseded rule or its value), ``"other-record"`` (the look-alike
            record of another person or case) or ``"other-branch"`` (the
            destination of the rule's branch not taken).
        truth: the value the task's reference uses.
        decoy: the planted value it could be confused with.
        what: what the value is, for people ("the order's refund amount").
        implies: ``(truth leaf, decoy leaf)`` pairs of the write arguments
            that the reference derives from the value, as an agent that took
            the decoy would write them (the days of a rate-lock extension that
            runs through a date); empty when every write carries the value as
            it is.
        unmade: ``(service, tool)`` of the reference's writes that such an
            agent could not make at all (schema 5): a rate lock that already
            runs past the decoy's day cannot be extended to it.

    The attack suite (:mod:`compoworld_gym.testing.attacks`) swaps each
    decoy in for its truth in the reference: the swapped run must score
    below 1.0.
    """

    model_config = ConfigDict(extra="forbid")
    kind: Literal["stale", "archived", "other-record", "other-branch"]
    truth: Union[str, float]
    decoy: Union[str, float]
    what: str = ""
    implies: list[tuple[Leaf, Leaf]] = Field(default_factory=list)
    unmade: list[tuple[str, str]] = Field(default_factory=list)


class Task(BaseModel):
    """A task: services, initial state, instruction, rubric and reference.

    Attributes:
        schema_version: the task-file format version (currently 5; 1 to 4 are read and upgraded).
        id: unique task id.
        services: services the task needs (mounted with ``initial_state``).
        distractors: services listed but not needed; mounted on their seeded
            state for ``seed`` unless ``initial_state`` has them.
        today: the fixed date given in the system prompt.
        seed: seed of the distractors' initial states.
        initial_state: ``{service: state JSON}``.
        instruction: the user message (goal, house rules, report wanted).
        checks: the rubric items.
        reference: a solution as meta-tool calls; ``reference_answer`` ends it.
        domain: business domain label, e.g. ``"support"``.
        capabilities: interaction structures, e.g. ``"sequential-dependency"``.
        composition: optional composition record (id, edges) from the generator.
        decoys: the planted values an agent could take for the truth (see :class:`Decoy`).
    """

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1, 2, 3, 4, 5] = SCHEMA_VERSION
    id: str = Field(min_length=1)
    services: list[str] = Field(min_length=1)
    distractors: list[str] = Field(default_factory=list)
    today: dt.date
    seed: int = 0
    initial_state: dict[str, dict[str, Any]] = Field(default_factory=dict)
    instruction: str = Field(min_length=1)
    checks: list[Check] = Field(min_length=1)
    reference: list[MetaCall] = Field(default_factory=list)
    reference_answer: Optional[str] = None
    domain: str = "general"
    capabilities: list[str] = Field(default_factory=list)
    composition: Optional[dict[str, Any]] = None
    decoys: list[Decoy] = Field(default_factory=list)
    meta: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _upgrade(cls, data: Any) -> Any:
        """Read older formats: a version-1 task's checks say ``negative`` for ``guard``."""
        if not isinstance(data, dict):
            return data
        version = data.get("schema_version", SCHEMA_VERSION)
        checks = data.get("checks")
        if version == 1:
            if isinstance(checks, list):
                checks = [_v1_check(c) for c in checks]
            return {**data, "schema_version": SCHEMA_VERSION, "checks": checks}
        if isinstance(checks, list) and any(isinstance(c, dict) and "negative" in c for c in checks):
            raise ValueError(f"a check has 'negative', which schema_version {version} calls 'guard': "
                             "rename the key, or set schema_version 1 for a version-1 task")
        if version in (2, 3, 4):  # subsets of version 5
            return {**data, "schema_version": SCHEMA_VERSION}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> "Task":
        overlap = set(self.services) & set(self.distractors)
        if overlap:
            raise ValueError(f"services and distractors overlap: {sorted(overlap)}")
        ids = [c.id for c in self.checks]
        if len(ids) != len(set(ids)):
            raise ValueError("rubric item ids must be unique")
        return self

    def to_json(self) -> str:
        """One JSONL line (no trailing newline)."""
        return orjson.dumps(self.model_dump(mode="json")).decode()

    def service_classes(self) -> list[type[Service]]:
        """Classes of every mounted service (task services then distractors)."""
        return [get_service(n) for n in [*self.services, *self.distractors]]


def _v1_check(check: Any) -> Any:
    """A version-1 check dict with ``negative`` renamed ``guard`` (anything else unchanged)."""
    if not isinstance(check, dict) or "negative" not in check:
        return check
    if "guard" in check:
        raise ValueError("a version-1 check may not have both 'negative' and 'guard'")
    out = dict(check)
    out["guard"] = out.pop("negative")
    return out


class TaskFileError(ValueError):
    """A task file could not be read; the message names the file and line."""


def load_tasks(path: str | Path) -> list[Task]:
    """Read a JSONL task file (UTF-8, one task per line; blank lines are skipped).

    A summary written beside the file (``<file>.summary.json``, see
    :mod:`compoworld_gym.task_summary`) is checked too: a file cut short or
    changed since is an error, not a smaller pool. A line that does not
    parse is named first, with the summary's verdict after it.

    Raises:
        TaskFileError: a line is not UTF-8, not JSON or not a valid task, two
            tasks share an id, or the file does not match its summary; the
            message gives ``path:line`` and the first problem.
        FileNotFoundError: the file does not exist.
    """
    from compoworld_gym.task_summary import SummaryMismatch, check_summary

    data = Path(path).read_bytes()
    try:
        check_summary(path, data)
        mismatch = None
    except SummaryMismatch as exc:
        mismatch = str(exc)
    tasks: list[Task] = []
    first_line: dict[str, int] = {}
    try:
        for lineno, raw in enumerate(data.splitlines(), 1):
            if not raw.strip():
                continue
            where = f"{path}:{lineno}"
            task = parse_task_line(_utf8(raw, where), where)
            if task.id in first_line:
                raise TaskFileError(f"{where}: duplicate task id {task.id!r} (first at line {first_line[task.id]})")
            first_line[task.id] = lineno
            tasks.append(task)
    except TaskFileError as exc:
        # The line that broke first, and the summary's verdict beside it (a cut-short file's last line).
        raise TaskFileError(f"{exc}; and {mismatch}" if mismatch else str(exc)) from None
    if mismatch:
        raise TaskFileError(mismatch)
    return tasks


def iter_task_file(path: str | Path) -> Iterator[Task]:
    """The tasks of a JSONL task file one at a time (constant memory; no summary or duplicate check).

    Raises:
        TaskFileError: a line is not UTF-8, not JSON or not a valid task.
    """
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            if raw.strip():
                yield parse_task_line(_utf8(raw, f"{path}:{lineno}"), f"{path}:{lineno}")


def _utf8(raw: bytes, where: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TaskFileError(f"{where}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at column "
                            f"{exc.start + 1}); task files are UTF-8 JSON Lines") from None


_SHARED: dict[tuple[str, int, int], tuple[Task, ...]] = {}


def shared_tasks(path: str | Path) -> tuple[Task, ...]:
    """The tasks of ``path``, parsed once per process and shared (do not mutate them).

    Envs made from the same file (vector sub-envs, one ``CompoWorld/<slug>-v0``
    id per composition) share one parsed pool instead of one copy each. The
    cache is keyed by the file's real path, modification time and size, so
    a rewritten file is read again; it keeps the 4 most recent files.

    Raises:
        TaskFileError, FileNotFoundError: as :func:`load_tasks`.
    """
    real = Path(path).resolve()
    st = real.stat()
    key = (str(real), st.st_mtime_ns, st.st_size)
    hit = _SHARED.get(key)
    if hit is None:
        hit = tuple(load_tasks(path))
        while len(_SHARED) >= 4:
            _SHARED.pop(next(iter(_SHARED)))
        _SHARED[key] = hit
    return hit


def parse_task_line(line: str, where: str = "<task>") -> Task:
    """Parse one JSONL line into a :class:`Task`; errors name ``where``.

    Raises:
        TaskFileError: not JSON, or not a valid task.
    """
    return parse_record(line, Task, where, TaskFileError, "task")


def save_tasks(tasks: Iterable[Task], path: str | Path) -> int:
    """Write tasks as JSONL (current :data:`SCHEMA_VERSION`); returns how many were written.

    The write is atomic (:func:`compoworld_gym.jsonl.atomic_writer`): if
    anything fails midway, including ``tasks`` raising while it is iterated,
    ``path`` keeps its old content (or stays absent).

    Raises:
        OSError: the file cannot be written.
    """
    n = 0
    with atomic_writer(path) as fh:
        for task in tasks:
            fh.write(task.to_json() + "\n")
            n += 1
    return n
