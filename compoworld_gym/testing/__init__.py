"""Hypothesis fuzzing for compoworld services and envs (public API).

Fuzz your own service: a test file needs three lines. The service is
mounted in a probe task (its seeded state, rubric text that must stay
hidden) and driven through ``CompoWorldEnv`` by a Hypothesis state machine:
valid meta-tool calls drawn from the live state, malformed actions, final
answers and resets. Every step checks that no exception escapes, that
observations are JSON in the observation space, that every state validates,
that failed calls change nothing, that rewards are finite in [0, 1], that
nothing survives a reset, that the rubric stays hidden and that the run
replays identically. A failure raises :class:`FuzzFailure` with the shrunk
reproducing trace::

    # tests/test_fuzz_my_service.py
    from compoworld_gym.testing import fuzz_service
    from my_package.services import MyService

    def test_my_service_survives_fuzzing():
        fuzz_service(MyService)            # 100 runs; profile=FuzzProfile(runs=1000) for more

Any env factory works, and any task pool (built-in, generated or your own)::

    from compoworld_gym.testing import fuzz_env, fuzz_tasks
    fuzz_env(lambda: gym.make("CompoWorld-v0"))
    fuzz_tasks(load_tasks("my_tasks.jsonl"))

The building blocks are public too: :func:`tool_arguments` (valid arguments
for a tool, from its JSON Schema, hitting records that exist),
:func:`meta_tool_calls` and :func:`valid_actions` (for a mounted world),
:func:`malformed_actions`, and :func:`env_state_machine` (the
``RuleBasedStateMachine`` itself, to combine with your own rules).

Example:
    >>> import datetime as dt
    >>> from compoworld_gym.envs.services.helpdesk import Helpdesk
    >>> from compoworld_gym.testing import FuzzProfile, fuzz_service
    >>> fuzz_service(Helpdesk, profile=FuzzProfile(runs=5, steps=3)) >= 5  # runs executed
    True
"""

from __future__ import annotations

from compoworld_gym.testing.actions import (
    discovery_calls,
    final_answers,
    malformed_actions,
    meta_tool_calls,
    tool_calls,
    valid_actions,
)
from compoworld_gym.testing.runner import (
    CANARY,
    DEEP,
    SHORT,
    FuzzProfile,
    fuzz_env,
    fuzz_service,
    fuzz_tasks,
    probe_task,
    registered,
    service_env_factory,
    tasks_env_factory,
)
from compoworld_gym.testing.state_machine import (
    EnvMachine,
    FuzzFailure,
    MachineConfig,
    env_state_machine,
)
from compoworld_gym.testing.secrets import hidden_texts
from compoworld_gym.testing.time_limit import ActionTimeout
from compoworld_gym.testing.strategies import Pools, schema_values, state_pools, tool_arguments

__all__ = [
    "CANARY", "DEEP", "SHORT", "ActionTimeout", "EnvMachine", "FuzzFailure", "FuzzProfile", "MachineConfig", "Pools",
    "discovery_calls", "env_state_machine", "final_answers", "fuzz_env", "fuzz_service", "fuzz_tasks",
    "hidden_texts", "malformed_actions", "meta_tool_calls", "probe_task", "registered", "schema_values",
    "service_env_factory", "state_pools", "tasks_env_factory", "tool_arguments", "tool_calls",
    "valid_actions",
]
