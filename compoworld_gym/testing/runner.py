"""Running the fuzzing state machine: profiles, env factories and pytest helpers.

The helpers raise :class:`~compoworld_gym.testing.state_machine.FuzzFailure`
(an ``AssertionError``) with the minimal reproducing trace, so a pytest test
is one call.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator, Optional, Sequence

import gymnasium as gym
from hypothesis import HealthCheck, Phase, Verbosity, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.stateful import RuleBasedStateMachine, RuleStrategy, get_state_machine_test

from compoworld_gym import catalog
from compoworld_gym.checks import AnswerContains, ToolNotCalled
from compoworld_gym.service import Service
from compoworld_gym.tasks import MetaCall, Task
from compoworld_gym.testing.state_machine import EnvMachine, FuzzFailure, MachineConfig, env_state_machine

#: The date probe tasks run on (the built-in tasks' today).
PROBE_TODAY = dt.date(2026, 1, 15)
#: Marker in every hidden text of a probe task; it must never reach an observation.
CANARY = "cw-canary"


@dataclass(frozen=True)
class FuzzProfile:
    """How much to fuzz.

    Attributes:
        runs: state-machine runs (Hypothesis ``max_examples``).
        steps: steps per run (``stateful_step_count``), resets included.
        shrink: shrink a failure to a minimal example (slower on failure).
        machine: what each run checks and draws.
    """

    runs: int = 100
    steps: int = 6
    shrink: bool = True
    machine: MachineConfig = MachineConfig()


#: The default test run: at least 100 runs per target, a few steps each.
SHORT = FuzzProfile(runs=100, steps=6)
#: ``compoworld fuzz``: longer runs; ``runs`` is set from ``--examples``.
DEEP = FuzzProfile(runs=1000, steps=20)


@dataclass(frozen=True)
class FuzzStats:
    """What one :func:`run_machine` call executed.

    Attributes:
        runs: state-machine runs finished (Hypothesis's shrink runs included).
        actions: ``reset`` and ``step`` calls the runs made on their envs
            (not counting the fresh-env references and teardown replays).
        digest: hex BLAKE2b-128 of every reset seed and action drawn, in
            order: the same seed draws the same digest, in any process.
    """

    runs: int
    actions: int
    digest: str = ""


def run_machine(env_factory: Callable[[], gym.Env], *, profile: FuzzProfile = SHORT, seed: int = 0,
                quiet: bool = False) -> tuple[FuzzStats, Optional[FuzzFailure]]:
    """Fuzz an env with the state machine and count what ran; never raises a finding.

    Args:
        env_factory: zero-argument callable returning a fresh env.
        profile: runs, steps and checks (:data:`SHORT` by default).
        seed: Hypothesis seed; the same seed draws the same runs.
        quiet: do not print Hypothesis's report of a failing example.

    Returns:
        ``(stats, failure)``: the runs and actions executed, and the
        (shrunk) :class:`FuzzFailure` if an invariant was violated, else None.
    """
    machine = env_state_machine(env_factory, profile.machine)
    phases = [Phase.explicit, Phase.reuse, Phase.generate] + ([Phase.shrink] if profile.shrink else [])
    config = settings(max_examples=profile.runs, stateful_step_count=profile.steps, deadline=None,
                      database=None, derandomize=False, phases=phases, print_blob=False,
                      suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
                      verbosity=Verbosity.quiet if quiet else Verbosity.normal)
    test = get_state_machine_test(machine, settings=config)
    failure = None
    try:
        with _no_local_constants():
            hypothesis_seed(seed)(test)()
    except FuzzFailure as exc:
        failure = exc
    finally:
        _forget(machine)
    return FuzzStats(machine.runs_done, machine.actions_done, machine._digest.hexdigest()), failure  # noqa: SLF001


@contextlib.contextmanager
def _no_local_constants() -> Iterator[None]:
    """Draw without the literals of the caller's own modules, so a seed draws the same runs
    from the CLI, from a script, under pytest and in worker processes.

    Hypothesis (6.13x+) mixes constants found in "local" modules (any
    imported module outside site-packages and the standard library: the
    user's script, their tests, an editable install) into 5% of draws, so
    what a seed draws depended on what happened to be imported. There is no
    setting for it; this swaps the private ``_get_local_constants`` for an
    empty set for the duration of the run (a no-op if a Hypothesis version
    lacks it) and drops the cache of constants permitted per draw.
    """
    from hypothesis.internal.conjecture import providers

    original = getattr(providers, "_get_local_constants", None)
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    if original is None or cache is None or not hasattr(providers, "Constants"):
        yield
        return
    empty = providers.Constants()
    providers._get_local_constants = lambda: empty  # noqa: SLF001 - see the docstring
    cache.cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = original  # noqa: SLF001
        cache.cache.clear()


def _forget(machine: type[EnvMachine]) -> None:
    """Let a finished machine class and what it cached be freed.

    Hypothesis (6.170) keeps every state machine class it ran, strongly:
    ``RuleBasedStateMachine._setup_state_per_class`` (a plain dict) and the
    ``lru_cache`` of ``RuleStrategy._setup_for`` and of
    ``RuleBasedStateMachine._to_test_case`` (128 classes each). Each class
    here holds its action strategies, reference resets and secrets, so a
    campaign grew ~2.5 MB per batch; dropping them keeps it flat.
    """
    machine.clear_caches()
    RuleBasedStateMachine._setup_state_per_class.pop(machine, None)  # noqa: SLF001 - see above
    for owner, name in ((RuleStrategy, "_setup_for"), (RuleBasedStateMachine, "_to_test_case")):
        cached = getattr(owner.__dict__.get(name), "__func__", None)
        if hasattr(cached, "cache_clear"):
            cached.cache_clear()  # an lru_cache evicts no single key; rebuilding costs microseconds


def fuzz_env(env_factory: Callable[[], gym.Env], *, profile: FuzzProfile = SHORT, seed: int = 0,
             quiet: bool = False) -> int:
    """Fuzz an env with the state machine; return quietly or raise.

    Args:
        env_factory: zero-argument callable returning a fresh env.
        profile: runs, steps and checks (:data:`SHORT` by default).
        seed: Hypothesis seed; the same seed draws the same runs.
        quiet: do not print Hypothesis's report of a failing example.

    Returns:
        The number of state-machine runs executed.

    Raises:
        FuzzFailure: an invariant was violated; ``.trace`` and the message
            hold the (shrunk) reproducing resets and actions.
    """
    stats, failure = run_machine(env_factory, profile=profile, seed=seed, quiet=quiet)
    if failure is not None:
        raise failure
    return stats.runs


@contextlib.contextmanager
def registered(*services: type[Service]) -> Iterator[None]:
    """Temporarily add services to the catalog (so tasks can mount them).

    Services already in the catalog are left alone; the catalog is restored
    on exit.

    Raises:
        ValueError: a different service with the same name is in the catalog.
    """
    added = []
    for cls in services:
        try:
            known = catalog.get_service(cls.name)
        except catalog.UnknownService:
            known = None
        if known is cls:
            continue
        catalog.register_service(cls)
        added.append(cls.name)
    try:
        yield
    finally:
        for name in added:
            catalog.unregister_service(name)  # undo exactly what we added


def probe_task(services: Sequence[type[Service]], *, seed: int = 0, distractors: Sequence[str] = (),
               today: dt.date = PROBE_TODAY, task_id: Optional[str] = None) -> Task:
    """A task mounting ``services`` on their seeded states, for fuzzing.

    Its rubric and reference carry :data:`CANARY` text, so the state
    machine can prove no meta-tool reveals them. Its reward is 0.5 when the
    agent avoided the first service's first tool, plus 0.5 for an answer
    containing the (hidden) canary value.

    Args:
        services: the services to mount (classes; in the catalog).
        seed: seed of the initial states.
        distractors: names of extra services mounted on their seeded state.
        today: the task's date.
        task_id: defaults to ``probe-<services>-<seed>``.
    """
    names = [cls.name for cls in services]
    first = services[0]
    first_tool = next(iter(first.tools), None)
    checks: list[Any] = [AnswerContains(
        id=f"{CANARY}-answer-{seed}", values=[f"{CANARY} hidden value {seed}"],
        description=f"{CANARY} rubric description {seed}: never shown to the agent")]
    if first_tool is not None:
        checks.append(ToolNotCalled(id=f"{CANARY}-avoid-{seed}", service=first.name, tool=first_tool,
                                    description=f"{CANARY} avoid rule {seed}"))
    return Task(
        id=task_id or f"probe-{'+'.join(names)}-{seed}", services=names,
        distractors=[d for d in distractors if d not in names], today=today, seed=seed,
        initial_state={cls.name: cls.seed_state(seed, today).model_dump(mode="json") for cls in services},
        instruction=f"Fuzzing probe over {', '.join(names)}. Explore and answer.",
        checks=checks, reference=[MetaCall(name="list_services")],
        reference_answer=f"{CANARY} reference answer {seed}", domain="test")


def tasks_env_factory(tasks: Sequence[Task], *, max_steps: int = 12) -> Callable[[], gym.Env]:
    """A factory of ``CompoWorldEnv`` over a task pool (reset draws a task with the seed)."""
    from compoworld_gym.envs.compoworld_env import CompoWorldEnv

    pool = list(tasks)
    if not pool:
        raise ValueError("tasks must not be empty")
    return lambda: CompoWorldEnv(tasks=pool, max_steps=max_steps)


def service_env_factory(service: type[Service], *, seeds: Sequence[int] = (0, 1),
                        distractors: Sequence[str] = (), max_steps: int = 12) -> Callable[[], gym.Env]:
    """A factory of envs mounting one service on its seeded states (one probe task per seed)."""
    return tasks_env_factory([probe_task([service], seed=s, distractors=distractors) for s in seeds],
                             max_steps=max_steps)


def fuzz_service(service: type[Service], *, profile: FuzzProfile = SHORT, seed: int = 0,
                 distractors: Sequence[str] = (), quiet: bool = False) -> int:
    """Fuzz one service through the env: the one-line pytest entry.

    The service is registered in the catalog for the duration of the run
    (if it is not there already).

    Returns:
        The number of state-machine runs executed.

    Raises:
        FuzzFailure: an invariant was violated (message: the minimal trace).
        ValueError: another service of the same name is in the catalog.
    """
    with registered(service):
        return fuzz_env(service_env_factory(service, distractors=distractors), profile=profile, seed=seed,
                        quiet=quiet)


def fuzz_tasks(tasks: Sequence[Task], *, profile: FuzzProfile = SHORT, seed: int = 0,
               quiet: bool = False) -> int:
    """Fuzz ``CompoWorldEnv`` over a pool of tasks (built-in, generated or your own).

    Returns:
        The number of state-machine runs executed.

    Raises:
        FuzzFailure: an invariant was violated (message: the minimal trace).
    """
    return fuzz_env(tasks_env_factory(tasks), profile=profile, seed=seed, quiet=quiet)


def with_runs(profile: FuzzProfile, runs: int) -> FuzzProfile:
    """``profile`` with another number of runs (at least 1)."""
    return replace(profile, runs=max(1, int(runs)))
