"""A tool that never returns is a ``hang`` finding with its trace, not a hung campaign; Ctrl-C is not
swallowed by the teardown's replay."""

from __future__ import annotations

import signal
import time
from dataclasses import replace
from typing import Callable

import pytest
from pydantic import Field

from compoworld_gym.service import tool
from compoworld_gym.testing import ActionTimeout, FuzzFailure, FuzzProfile, MachineConfig, fuzz_service
from compoworld_gym.testing.time_limit import time_limit
from tests.testing.test_testing_planted_bug import PlantedNotes

#: Calls of the trigger tool, to see whether the teardown replayed a trace.
CALLS: list[int] = []


def _loop_forever() -> None:
    while True:
        pass


def _interrupt() -> None:
    raise KeyboardInterrupt


def _exit() -> None:
    raise SystemExit(3)


def notes_whose_listing(service: str, on_trigger: Callable[[], None]) -> type[PlantedNotes]:
    """A notes service whose listing with ``min_priority >= 500`` calls ``on_trigger`` (loop, Ctrl-C,
    exit); every listing's ``min_priority`` is recorded in :data:`CALLS`."""

    class Notes(PlantedNotes):
        name = service

        @tool(read_only=True)
        def list_notes(self, min_priority: int = Field(default=0, ge=0, le=1000)) -> list[dict]:
            """List notes with at least a priority.

            Args:
                min_priority: lowest priority listed.
            """
            CALLS.append(min_priority)
            if min_priority >= 500:
                on_trigger()
            return [n.model_dump() for n in self.state.notes.values() if n.priority >= min_priority]

    return Notes


#: Listing with a high ``min_priority`` loops forever (as the fuzz's hr_directory manager cycle did).
HangingNotes = notes_whose_listing("hanging_notes", _loop_forever)
#: Ctrl-C arrives while a listing runs.
InterruptedNotes = notes_whose_listing("interrupted_notes", _interrupt)
#: A listing that calls sys.exit.
ExitingNotes = notes_whose_listing("exiting_notes", _exit)


LIMITED = FuzzProfile(runs=200, steps=6, machine=MachineConfig(action_timeout=0.5))


def test_time_limit_interrupts_a_busy_loop_and_rearms_an_outer_timer() -> None:
    fired: list[float] = []
    previous = signal.signal(signal.SIGALRM, lambda *_: fired.append(time.monotonic()))
    try:
        signal.setitimer(signal.ITIMER_REAL, 1.0)
        started = time.monotonic()
        with pytest.raises(ActionTimeout, match="within 0.2 s"):
            with time_limit(0.2):
                while True:
                    pass
        assert 0.15 < time.monotonic() - started < 0.9
        assert fired == []  # the outer timer is re-armed, not fired early nor lost
        time.sleep(1.2)
        assert len(fired) == 1 and 0.8 < fired[0] - started < 1.6
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_a_tool_that_never_returns_is_a_hang_finding_with_its_shrunk_trace() -> None:
    started = time.monotonic()
    with pytest.raises(FuzzFailure) as caught:
        fuzz_service(HangingNotes, profile=LIMITED, seed=0, quiet=True)
    failure = caught.value
    assert failure.invariant == "hang"
    assert "did not return within" in failure.detail
    # Shrunk to the one call that hangs, at the boundary of the trigger.
    assert [kind for kind, _ in failure.trace] == ["reset", "step"]
    assert failure.action == '{"name":"call_tool","arguments":{"tool_name":"list_notes","arguments":{"min_priority":500}}}'
    # Shrinking re-runs the hang at HANG_RECHECK_S (1 s), not at the full limit, and finishes.
    assert time.monotonic() - started < 120


def test_without_a_limit_a_bad_time_limit_is_refused() -> None:
    with pytest.raises(ValueError, match=">= 0 seconds"):
        with time_limit(-1):
            pass


def test_ctrl_c_in_a_step_goes_up_at_once_without_a_teardown_replay() -> None:
    CALLS.clear()
    profile = replace(LIMITED, shrink=False)
    with pytest.raises(KeyboardInterrupt):
        fuzz_service(InterruptedNotes, profile=profile, seed=0, quiet=True)
    # The interrupted call ran once: the teardown did not replay the trace (which would call it again).
    assert sum(1 for p in CALLS if p >= 500) == 1


def test_a_chat_format_env_fuzzes_with_json_observations_off_and_fails_clearly_with_them_on() -> None:
    from compoworld_gym.builtin_tasks import builtin_tasks
    from compoworld_gym.envs.compoworld_env import CompoWorldEnv
    from compoworld_gym.testing import fuzz_env
    from compoworld_gym.wrappers.chat_format import ChatFormat

    tasks = builtin_tasks()[:2]

    def factory():
        return ChatFormat(CompoWorldEnv(tasks=tasks, max_steps=6))

    text = FuzzProfile(runs=15, steps=5, machine=MachineConfig(json_observations=False))
    assert fuzz_env(factory, profile=text, seed=0, quiet=True) >= 15
    with pytest.raises(FuzzFailure) as caught:
        fuzz_env(factory, profile=replace(text, machine=MachineConfig()), seed=0, quiet=True)
    assert caught.value.invariant == "obs-not-json"


def test_a_tool_calling_sys_exit_is_a_finding_not_an_exit() -> None:
    with pytest.raises(FuzzFailure) as caught:
        fuzz_service(ExitingNotes, profile=LIMITED, seed=0, quiet=True)
    assert caught.value.invariant == "exception-in-step" and "SystemExit: 3" in caught.value.detail
