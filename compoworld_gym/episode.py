"""Episodes of a task: mounting its world, and scoring the finished episode.

Two ways in, one behaviour:

* :class:`TaskRuntime` — for whoever mounts one task again and again (the
  env keeps one per task it serves): built once per task, it holds the
  task's normalised initial states as JSON bytes, so a reset re-serialises
  nothing.
* plain functions (:func:`mount`, :func:`evaluate`,
  :func:`initial_state_json`) — for one-off callers; they cache nothing per
  task.

Seeded distractor states are cached by value, ``(service, seed, today)``,
for both: many tasks share them. :func:`score` (the default reward of the
results) is :func:`compoworld_gym.rewards.score`, re-exported here; the
reward rule is stated in :mod:`compoworld_gym.rewards`.

Example:
    >>> from compoworld_gym.builtin_tasks import builtin_tasks
    >>> runtime = TaskRuntime(builtin_tasks()[0])
    >>> world = runtime.mount()
    >>> results = runtime.evaluate(world.states(runtime.state_check_services), None, world.call_log)
    >>> score(results)
    0.0
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any, Optional

import orjson

from compoworld_gym.catalog import get_service
from compoworld_gym.checks import CheckResult, evaluate_checks
from compoworld_gym.rewards import score  # re-exported: the rule lives in rewards
from compoworld_gym.service import Service
from compoworld_gym.tasks import Task
from compoworld_gym.world import LazyService, World


@functools.lru_cache(maxsize=4096)
def seed_state_bytes(service: str, seed: int, today: dt.date) -> bytes:
    """The seeded initial state of ``service`` as JSON bytes (cached per
    ``(service, seed, today)``: copies come cheaply from ``orjson.loads``)."""
    cls = get_service(service)
    return orjson.dumps(cls.seed_state(seed, today).model_dump(mode="json"))


def _normalised(cls: type[Service], raw: bytes, today: dt.date) -> bytes:
    # Exactly what a service built from the raw state dumps (defaults filled in,
    # values coerced): an untouched lazily mounted service must read the same.
    return orjson.dumps(cls(orjson.loads(raw), today=today).state_dict())


@functools.lru_cache(maxsize=4096)
def _seeded_normalised(service: str, seed: int, today: dt.date) -> bytes:
    return _normalised(get_service(service), seed_state_bytes(service, seed, today), today)


def initial_state_of(task: Task, service: str) -> dict[str, Any]:
    """The initial state JSON of one mounted service as the task gives it (a fresh dict).

    Unlike :func:`initial_state_json` it is not normalised: a task service's
    state is the task's own dict (copied); a distractor's is its seeded state.
    """
    if service in task.initial_state:
        return orjson.loads(orjson.dumps(task.initial_state[service]))
    return orjson.loads(seed_state_bytes(service, task.seed, task.today))


def initial_state_json(task: Task, service: str) -> bytes:
    """The normalised initial state of one mounted service as JSON bytes.

    Normalised means as the service's ``state_dict()`` dumps it right after
    mounting. A task service's state is built anew on every call (use
    :meth:`TaskRuntime.initial_state_json` to build it once); seeded
    distractors are cached per ``(service, seed, today)``.

    Raises:
        pydantic.ValidationError: the initial state does not fit the service's state model.
        compoworld_gym.catalog.UnknownService: the service is not in the catalog.
    """
    raw = task.initial_state.get(service)
    if raw is None:
        return _seeded_normalised(service, task.seed, task.today)
    return _normalised(get_service(service), orjson.dumps(raw), task.today)


def state_check_services(task: Task) -> tuple[str, ...]:
    """The services whose final state the task's checks read."""
    return tuple(sorted({n for c in task.checks for n in c.reads()[0]}))


def _initial_services(task: Task) -> tuple[str, ...]:
    """The mounted services whose initial state the task's checks compare with (``only_changed``, ...)."""
    mounted = {*task.services, *task.distractors}
    return tuple(sorted({n for c in task.checks for n in c.reads()[1]} & mounted))


class TaskRuntime:
    """One task, ready to be mounted and scored many times.

    Built once per task by whoever mounts it repeatedly (the env keeps one
    per task it serves). It normalises and validates every initial state in
    the task on construction and keeps the bytes, so :meth:`mount` is cheap
    and a broken initial state fails here, not mid-episode. The task must
    not be changed in place afterwards: build a new runtime for a changed task.

    Args:
        task: the task.

    Raises:
        pydantic.ValidationError: an initial state does not fit its service's state model.
        compoworld_gym.catalog.UnknownService: a service is not in the catalog.

    Example:
        >>> from compoworld_gym.builtin_tasks import builtin_tasks
        >>> runtime = TaskRuntime(builtin_tasks()[0])
        >>> runtime.mount().states(runtime.state_check_services) == runtime.mount().states(
        ...     runtime.state_check_services)
        True
    """

    __slots__ = ("_task", "_classes", "_states", "_initial_services", "_parsed", "state_check_services")

    def __init__(self, task: Task) -> None:
        if not isinstance(task, Task):
            raise TypeError(f"TaskRuntime needs a Task, got {type(task).__name__}")
        self._task = task
        self._classes = [(n, get_service(n)) for n in [*task.services, *task.distractors]]
        self._states = {n: _normalised(get_service(n), orjson.dumps(raw), task.today)
                        for n, raw in task.initial_state.items()}
        self._initial_services = _initial_services(task)
        self._parsed: dict[str, Any] = {}
        #: The services whose state the task's checks read (see :func:`state_check_services`).
        self.state_check_services: tuple[str, ...] = state_check_services(task)

    @property
    def task(self) -> Task:
        """The task this runtime serves."""
        return self._task

    def initial_state_json(self, service: str) -> bytes:
        """The normalised initial state of one mounted service (see :func:`initial_state_json`), built once.

        Raises:
            compoworld_gym.catalog.UnknownService: a seeded service is not in the catalog.
        """
        hit = self._states.get(service)
        if hit is None:
            return _seeded_normalised(service, self._task.seed, self._task.today)
        return hit

    def mount(self) -> World:
        """A fresh world with the task's services and distractors on their initial states.

        Services are mounted lazily (:class:`~compoworld_gym.world.LazyService`):
        a service's state is built on its first tool call, so a reset costs
        the same whatever the number of distractors.
        """
        today = self._task.today
        return World(lazy=[LazyService(cls, today, functools.partial(self.initial_state_json, n))
                           for n, cls in self._classes])

    def evaluate(self, final_states: dict[str, Any], answer: Optional[str],
                 call_log: list[dict[str, Any]], initial_states: Optional[dict[str, Any]] = None
                 ) -> list[CheckResult]:
        """Score a finished episode of the task: one result per rubric item.

        Args:
            final_states: ``{service: state JSON dict}`` at the end (at least
                :attr:`state_check_services`).
            answer: the agent's final answer, or None if it never answered.
            call_log: the world's ordered log of real tool calls.
            initial_states: ``{service: state JSON dict}`` at reset; defaults
                to the task's normalised initial states (loaded only for the
                services whose initial state some check compares with).
        """
        if initial_states is None:
            initial_states = {n: orjson.loads(self.initial_state_json(n)) for n in self._initial_services}
        return evaluate_checks(self._task.checks, final_states, answer, call_log, initial_states)

    def evaluate_world(self, world: World, answer: Optional[str]) -> list[CheckResult]:
        """Score the finished episode on ``world`` (one of :meth:`mount`'s).

        A service that no tool call built is at its initial state: it is
        given as one parsed dict, both initial and final, built once per
        runtime and shared (checks only read it), so an episode pays only
        for the services it touched, however many distractors a
        ``writes_confined`` guard watches.
        """
        final, initial = {}, {}
        for n in {*self.state_check_services, *self._initial_services}:
            if world.is_built(n):
                if n in self.state_check_services:
                    final[n] = world.state_of(n)
                initial[n] = self._pristine(n)
            else:
                final[n] = initial[n] = self._pristine(n)
        return evaluate_checks(self._task.checks, final, answer, world.call_log, initial)

    def _pristine(self, service: str) -> dict[str, Any]:
        hit = self._parsed.get(service)
        if hit is None:
            hit = self._parsed[service] = orjson.loads(self.initial_state_json(service))
        return hit


def mount(task: Task) -> World:
    """A fresh world for one episode of ``task`` (one-off: see :meth:`TaskRuntime.mount`).

    Raises:
        pydantic.ValidationError: an initial state does not fit its service's state model.
        compoworld_gym.catalog.UnknownService: a service is not in the catalog.
    """
    return TaskRuntime(task).mount()


def evaluate(task: Task, final_states: dict[str, Any], answer: Optional[str],
             call_log: list[dict[str, Any]], initial_states: Optional[dict[str, Any]] = None
             ) -> list[CheckResult]:
    """Score a finished episode: one result per rubric item (one-off: see :meth:`TaskRuntime.evaluate`).

    ``initial_states`` defaults to the task's initial state, normalised
    through each service's model (so it compares equal to ``state_dict()``);
    only the services whose initial state some check compares with are loaded.
    """
    if initial_states is None:
        initial_states = {n: orjson.loads(initial_state_json(task, n)) for n in _initial_services(task)}
    return evaluate_checks(task.checks, final_states, answer, call_log, initial_states)


__all__ = ["TaskRuntime", "evaluate", "initial_state_json", "initial_state_of", "mount", "score",
           "state_check_services"]
