"""Tasks: one verified piece of cross-service work, serialised as JSONL.

A task (paper §2.4, "submit") keeps the instruction, the initial state of
each service, the rubric checks and a reference solution. Task files are
JSON Lines, one task per line, each with ``schema_version``.
"""

from __future__ import annotations

import datetime as dt
import functools
import weakref
from pathlib import Path
from typing import Any, Iterable, Literal, Optional

import orjson
from pydantic import BaseModel, ConfigDict, Field, model_validator

from compoworld_gym.catalog import get_service
from compoworld_gym.jsonl import parse_record
from compoworld_gym.checks import Check, CheckResult, evaluate_checks, guard_multiplier
from compoworld_gym.service import Service
from compoworld_gym.world import LazyService, World

SCHEMA_VERSION = 1


class MetaCall(BaseModel):
    """One meta-tool call of a reference solution."""

    model_config = ConfigDict(extra="forbid")
    name: Literal["list_services", "list_tools", "describe_tool", "call_tool"]
    arguments: dict[str, Any] = Field(default_factory=dict)

    def action(self) -> str:
        """The call as an env action text (JSON)."""
        return orjson.dumps({"name": self.name, "arguments": self.arguments}).decode()


class Task(BaseModel):
    """A task: services, initial state, instruction, rubric and reference.

    Attributes:
        schema_version: the task-file format version (currently 1).
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
    """

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = SCHEMA_VERSION
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
    meta: dict[str, Any] = Field(default_factory=dict)

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


class TaskFileError(ValueError):
    """A task file could not be read; the message names the file and line."""


def load_tasks(path: str | Path) -> list[Task]:
    """Read a JSONL task file.

    Raises:
        TaskFileError: a line is not JSON or not a valid task; the message
            gives ``path:line`` and the first problem.
        FileNotFoundError: the file does not exist.
    """
    tasks = []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            tasks.append(parse_task_line(line, f"{path}:{lineno}"))
    return tasks


def parse_task_line(line: str, where: str = "<task>") -> Task:
    """Parse one JSONL line into a :class:`Task`; errors name ``where``.

    Raises:
        TaskFileError: not JSON, or not a valid task.
    """
    return parse_record(line, Task, where, TaskFileError, "task")


def save_tasks(tasks: Iterable[Task], path: str | Path) -> int:
    """Write tasks as JSONL; returns how many were written."""
    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        for task in tasks:
            fh.write(task.to_json() + "\n")
            n += 1
    return n


@functools.lru_cache(maxsize=4096)
def _seed_state_json(service: str, seed: int, today: dt.date) -> bytes:
    cls = get_service(service)
    return orjson.dumps(cls.seed_state(seed, today).model_dump(mode="json"))


def initial_state_of(task: Task, service: str) -> dict[str, Any]:
    """The initial state JSON of one mounted service (a fresh dict)."""
    if service in task.initial_state:
        return orjson.loads(orjson.dumps(task.initial_state[service]))
    return orjson.loads(_seed_state_json(service, task.seed, task.today))


# Per-task runtime caches, keyed by id(task) and dropped when the task is
# garbage-collected (Task is unhashable, and a private attribute would take
# part in Task equality). A task must not be changed in place once mounted;
# replacing a service's initial-state dict or the instruction is detected.
_RUNTIME: dict[int, dict[Any, Any]] = {}


def _runtime(task: Task) -> dict[Any, Any]:
    key = id(task)
    cache = _RUNTIME.get(key)
    if cache is None:
        cache = _RUNTIME[key] = {}
        weakref.finalize(task, _RUNTIME.pop, key, None)
    return cache


def _normalised(cls: type[Service], raw: bytes, today: dt.date) -> bytes:
    # Exactly what a service built from the raw state dumps (defaults filled in,
    # values coerced): an untouched lazily mounted service must read the same.
    return orjson.dumps(cls(orjson.loads(raw), today=today).state_dict())


@functools.lru_cache(maxsize=4096)
def _seeded_normalised(service: str, seed: int, today: dt.date) -> bytes:
    return _normalised(get_service(service), _seed_state_json(service, seed, today), today)


def initial_state_json(task: Task, service: str) -> bytes:
    """The normalised initial state of one mounted service as JSON bytes.

    Normalised means as the service's ``state_dict()`` dumps it right after
    mounting. Cached per task (task services) or per ``(service, seed,
    today)`` (seeded distractors), so repeated resets re-serialise nothing.

    Raises:
        compoworld_gym.catalog.UnknownService: the service is not in the catalog.
    """
    raw = task.initial_state.get(service)
    if raw is None:
        return _seeded_normalised(service, task.seed, task.today)
    cache = _runtime(task)
    hit = cache.get(("state", service))
    if hit is None or hit[0] is not raw:
        hit = cache[("state", service)] = (raw, _normalised(get_service(service), orjson.dumps(raw), task.today))
    return hit[1]


def mount(task: Task) -> World:
    """A fresh world with the task's services and distractors on their initial states.

    Services are mounted lazily (:class:`~compoworld_gym.world.LazyService`):
    a service's state is built on its first tool call, so reset costs the
    same whatever the number of distractors.

    Raises:
        pydantic.ValidationError: an initial state does not fit its service's
            state model (checked on the first mount of the task).
        compoworld_gym.catalog.UnknownService: a service is not in the catalog.
    """
    today = task.today
    for name in task.initial_state:  # a broken initial state fails here (cached after once), not mid-episode
        initial_state_json(task, name)
    return World(lazy=[LazyService(get_service(n), today, functools.partial(initial_state_json, task, n))
                       for n in [*task.services, *task.distractors]])


def state_check_services(task: Task) -> tuple[str, ...]:
    """The services whose state the task's checks read (final or initial)."""
    return tuple(sorted({c.service for c in task.checks if hasattr(c, "collection")}))


def evaluate(task: Task, final_states: dict[str, Any], answer: Optional[str],
             call_log: list[dict[str, Any]], initial_states: Optional[dict[str, Any]] = None
             ) -> list[CheckResult]:
    """Score a finished episode: one result per rubric item.

    ``initial_states`` defaults to the task's initial state, normalised
    through each service's model (so it compares equal to ``state_dict()``);
    only the services that ``record_unchanged``/``only_changed`` checks read are loaded.
    """
    if initial_states is None:
        mounted = {*task.services, *task.distractors}
        needed = {c.service for c in task.checks if c.kind in ("record_unchanged", "only_changed")} & mounted
        initial_states = {n: orjson.loads(initial_state_json(task, n)) for n in sorted(needed)}
    return evaluate_checks(task.checks, final_states, answer, call_log, initial_states)


def score(results: list[CheckResult]) -> float:
    """The default reward in [0, 1]: work done, halved for every guard broken.

    With ``P`` the positive items (work to do) and ``b`` the number of
    failed guards (``negative`` items: nothing else touched, no mail to
    anyone else, no wrong id in the answer)::

        score = (passed P / |P|) × 0.5 ** b        (work factor 1 when P is empty)

    Guards hold in the initial state, so counting them as earned items would
    pay an agent for doing nothing; as a factor they cost reward when broken
    but never earn it. The reference solution scores 1.0; doing nothing
    scores 0.0. :func:`compoworld_gym.checks.guard_multiplier` is the factor.
    """
    if not results:
        return 0.0
    pos = [r.passed for r in results if not r.negative]
    broken = sum(1 for r in results if r.negative and not r.passed)
    work = sum(pos) / len(pos) if pos else 1.0
    return work * guard_multiplier(broken)
