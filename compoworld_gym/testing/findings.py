"""What the fuzzing state machine checks (:class:`MachineConfig`) and what it reports
(:class:`FuzzFailure`, with the reproducing trace)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import orjson

_DUMP_OPTS = orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS | orjson.OPT_SERIALIZE_NUMPY


class FuzzFailure(AssertionError):
    """An invariant was violated; the message holds the whole reproducing trace.

    Attributes:
        invariant: short name of the violated invariant, e.g. ``"unexpected-state-change"``.
        detail: what was observed.
        trace: ``[("reset", seed) | ("step", action)]`` from the start of the run.
    """

    def __init__(self, invariant: str, detail: str, trace: list[tuple[str, Any]]) -> None:
        self.invariant, self.detail, self.trace = invariant, detail, list(trace)
        lines = [f"  {kind}({_short(arg)})" for kind, arg in self.trace]
        super().__init__(f"[{invariant}] {detail}\nreproducing trace:\n" + "\n".join(lines))

    @property
    def action(self) -> Any:
        """The last step's action (None if the run failed on a reset)."""
        return self.trace[-1][1] if self.trace and self.trace[-1][0] == "step" else None


def _short(value: Any, limit: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} chars)"


def _dump(value: Any) -> bytes:
    return orjson.dumps(value, option=_DUMP_OPTS, default=repr)


@dataclass(frozen=True)
class MachineConfig:
    """What the state machine checks and draws.

    Attributes:
        seeds: reset seeds drawn from (a small set, so resets repeat and the
            fresh-env reference of each seed is computed once).
        reset_keys: keys the reset observation's JSON object must have
            (``()`` to skip the shape check).
        reward_range: inclusive bounds every reward must lie in.
        check_determinism: replay each run in a fresh env at teardown.
        check_leaks: search observations for rubric/reference text.
        allow_internal_errors: accept 500 results (a 500 means a tool raised
            an unexpected exception or produced an invalid state: a bug the
            framework contained, but a bug).
        json_observations: observations are JSON text (the env's own); False
            for wrappers that render them otherwise (``ChatFormat``'s message
            lists): then they are not parsed, a state change only needs an
            attempted mutating call, and leaks are searched in their JSON.
        action_timeout: seconds a ``reset`` or ``step`` may take before the
            run fails with ``hang`` (None: no limit; needs ``SIGALRM`` and
            the main thread, else unlimited). Steps take milliseconds; the
            limit is generous so a loaded machine does not make findings.
    """

    seeds: tuple[int, ...] = (0, 1, 2)
    reset_keys: tuple[str, ...] = ("messages", "tools")
    reward_range: tuple[float, float] = (0.0, 1.0)
    check_determinism: bool = True
    check_leaks: bool = True
    allow_internal_errors: bool = False
    json_observations: bool = True
    action_timeout: Optional[float] = 10.0


__all__ = ["FuzzFailure", "MachineConfig"]
