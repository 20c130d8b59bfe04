"""Stage 3, *verify*: solve the task with real tool calls and judge the rubric.

A task is kept only when

* the initial state fails at least one check, and every deliberate negative
  check passes at reset;
* every reference call succeeds and the reference (with its final answer)
  passes every check (score 1.0);
* removing any one state-changing reference call makes some check fail (no
  redundant reference step);
* every check that is not a deliberate negative fails when some reference
  call is removed (no check that nothing in the reference affects; answer
  checks depend on the final answer);
* replaying the reference twice gives identical final states and call logs.

Replays mount only the task's services (checks read nothing else); the
env-level replay with distractors is tested in ``tests/generation``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Optional

import orjson

from compoworld_gym.catalog import get_service
from compoworld_gym.checks import evaluate_checks
from compoworld_gym.metatools import dispatch
from compoworld_gym.tasks import Task, initial_state_of
from compoworld_gym.world import World


@dataclass
class Verdict:
    """The outcome of :func:`verify`.

    Attributes:
        ok: the task is kept.
        reason: why it was rejected (empty when kept); the first word is a
            stable reason code, e.g. ``"passes-at-reset"``.
        replays: how many replays of the reference were run.
    """

    ok: bool
    reason: str = ""
    replays: int = 0


def _fail(reason: str, replays: int) -> Verdict:
    return Verdict(ok=False, reason=reason, replays=replays)


def _replay_calls(task: Task, initial: dict[str, Any], skip: Optional[int]) -> World:
    """Replay the reference's ``call_tool`` steps (except ``skip``) on the task's services."""
    world = World(get_service(n)(orjson.loads(initial[n]), today=task.today) for n in task.services)
    for i, mc in enumerate(task.reference):
        if mc.name == "call_tool" and i != skip:
            dispatch(world, "call_tool", mc.arguments)
    return world


def _failing(task: Task, states: dict[str, Any], answer: Optional[str], log: list[dict[str, Any]],
             initial: dict[str, Any]) -> set[str]:
    return {r.id for r in evaluate_checks(task.checks, states, answer, log, initial) if not r.passed}


def _is_write(world: World, mc: Any) -> bool:
    route = world.resolve(str(mc.arguments.get("tool_name", "")))
    return route is not None and not route[1].read_only


def verify(task: Task, negatives: Iterable[str] = ()) -> Verdict:
    """Run the reference through the real services and judge the task.

    Args:
        task: the candidate task.
        negatives: ids of deliberate negative checks (they pass at reset and
            stay passing; they are exempt from the "must fail" rules).

    Returns:
        A :class:`Verdict`; never raises on a bad task.
    """
    negatives = set(negatives)
    # Only the task's services: distractors are never read by checks or the
    # reference, and mounting them would dominate the cost of verification.
    world = World(get_service(n)(initial_state_of(task, n), today=task.today) for n in task.services)
    initial = world.states()
    at_reset = _failing(task, initial, None, [], initial)
    if not at_reset:
        return _fail("passes-at-reset: the initial state already passes every check", 0)
    if at_reset & negatives:
        return _fail(f"negative-fails-at-reset: {sorted(at_reset & negatives)}", 0)
    unroutable = _unroutable(task)
    if unroutable:
        return _fail(f"reference-call-failed: {unroutable} is ambiguous or unknown among the listed services", 0)
    for i, mc in enumerate(task.reference):
        result = dispatch(world, mc.name, mc.arguments)
        if result.get("success") is False:
            return _fail(f"reference-call-failed: step {i} ({mc.arguments.get('tool_name', mc.name)}): "
                         f"{result['error']['message']}", 1)
    final = world.states()
    failed = _failing(task, final, task.reference_answer, world.call_log, initial)
    if failed:
        return _fail(f"reference-below-1: checks {sorted(failed)} fail on the reference", 1)
    initial_bytes = {n: orjson.dumps(initial[n]) for n in task.services}
    again = _replay_calls(task, initial_bytes, None)
    if again.states() != {n: final[n] for n in task.services} or len(again.call_log) != len(world.call_log):
        return _fail("nondeterministic: two replays of the reference differ", 2)
    covered = {c.id for c in task.checks if c.kind == "answer_contains"}
    replays = 2
    for i, mc in enumerate(task.reference):
        if mc.name != "call_tool":
            continue
        write = _is_write(again, mc)
        if not write and not _call_checked(task, mc):
            continue
        ablated = _replay_calls(task, initial_bytes, i)
        replays += 1
        broken = _failing(task, ablated.states(), task.reference_answer, ablated.call_log, initial)
        if write and not broken:
            return _fail(f"redundant-step: removing reference step {i} "
                         f"({mc.arguments.get('tool_name')}) breaks no check", replays)
        covered |= broken
    idle = [c.id for c in task.checks if c.id not in covered and c.id not in negatives]
    if idle:
        return _fail(f"unaffected-check: no reference step affects {idle}", replays)
    return Verdict(ok=True, replays=replays)


def _unroutable(task: Task) -> Optional[str]:
    """A reference tool name the full world (with distractors) would not route."""
    counts: dict[str, int] = {}
    for name in [*task.services, *task.distractors]:
        for tool in get_service(name).tools:
            counts[tool] = counts.get(tool, 0) + 1
    for mc in task.reference:
        name = str(mc.arguments.get("tool_name", "")) if mc.name == "call_tool" else ""
        if name and "__" not in name and counts.get(name, 0) > 1:
            return name
    return None


def _call_checked(task: Task, mc: Any) -> bool:
    """Whether some call-log check (tool_called / call_order) names this call's tool."""
    tool = str(mc.arguments.get("tool_name", "")).split("__")[-1]
    for c in task.checks:
        if c.kind == "tool_called" and c.tool == tool:
            return True
        if c.kind == "call_order" and tool in (c.before.tool, c.after.tool):
            return True
    return False
