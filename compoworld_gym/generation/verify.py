"""Stage 3, *verify*: solve the task with real tool calls and judge the rubric.

A task is kept only when

* it has a positive item (work to do), and its list of deliberate guards
  (guards) agrees with the items' ``guard`` flags;
* doing nothing scores 0.0: the initial state with the answer "done" fails
  every positive item, and every guard passes at reset;
* every reference call succeeds and the reference (with its final answer)
  passes every check (score 1.0), guards included;
* removing any one state-changing reference call makes some check fail (no
  redundant reference step);
* every check that is not a deliberate guard fails when some reference
  call is removed (no check that nothing in the reference affects; answer
  checks depend on the final answer);
* replaying the reference twice gives identical final states and call logs
  (of the services it writes).

Replays mount only the task's services (checks read nothing else); the
env-level replay with distractors is tested in ``tests/generation``.
Ablations are cheap: services are independent, so removing a call on one
service is replayed from that service's state saved just before the call
(recorded on the first replay), and only the checks that read the call log,
or the collections of that service the removal changed, are judged again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

import orjson

from compoworld_gym.catalog import get_service
from compoworld_gym.checks import evaluate_checks
from compoworld_gym.episode import initial_state_of
from compoworld_gym.footprint import Footprint, footprint
from compoworld_gym.metatools import dispatch
from compoworld_gym.tasks import Task
from compoworld_gym.world import World

#: The final answer of an agent that does nothing.
NOTHING_ANSWER = "done"


@dataclass
class Verdict:
    """The outcome of :func:`verify`.

    Attributes:
        ok: the task is kept.
        reason: why it was rejected (empty when kept); the first word is a
            stable reason code, e.g. ``"passes-at-reset"``.
        replays: how many replays of the reference were run.
        footprint: what the reference wrote (see
            :func:`compoworld_gym.footprint.footprint`), for fitting the
            task's guards to it; empty when rejected.
        seen: the ``data`` of each reference tool result (for fitting the
            answer items, :func:`compoworld_gym.answers.fit_answers`).
    """

    ok: bool
    reason: str = ""
    replays: int = 0
    footprint: Footprint = field(default_factory=dict)
    seen: list[Any] = field(default_factory=list)


def _fail(reason: str, replays: int) -> Verdict:
    return Verdict(ok=False, reason=reason, replays=replays)


def _blobs(task: Task) -> dict[str, bytes]:
    """Each task service's initial state as JSON bytes (cheap to copy again)."""
    return {n: orjson.dumps(task.initial_state[n]) if n in task.initial_state
            else orjson.dumps(initial_state_of(task, n)) for n in task.services}


def _mount(task: Task, blobs: dict[str, bytes], mounted: Optional[dict[str, Any]] = None) -> World:
    """The task's services on their initial states; ``mounted`` services
    (fresh, never written: the design stage's solver only read them) are
    used as they are instead of being validated again. A one-off world: no
    later world mounts this set of services, so its routes are not cached."""
    mounted = mounted or {}
    return World((mounted[n] if n in mounted else get_service(n)(blobs[n], today=task.today)
                  for n in task.services), cache_routes=False)


def _call_args(mc: Any) -> Any:
    args = mc.arguments.get("arguments", {})
    return orjson.loads(args) if isinstance(args, str) and args.strip() else (args or {})


@dataclass
class _Run:
    """The first replay of the reference, with what ablations need.

    Attributes:
        world: the world after the reference.
        steps: ``{reference index: (service, tool, read_only, log index)}`` of real calls.
        before: ``{reference index: state bytes of the call's service just
            before it}`` for writes after the service's first write (before
            that, the initial blob is the state).
    """

    world: World
    steps: dict[int, tuple[str, str, bool, int]]
    before: dict[int, bytes]
    seen: list[Any] = field(default_factory=list)


def _first_run(task: Task, world: World) -> tuple[_Run, Optional[str]]:
    steps: dict[int, tuple[str, str, bool, int]] = {}
    before: dict[int, bytes] = {}
    seen: list[Any] = []
    written: set[str] = set()
    for i, mc in enumerate(task.reference):
        route = world.resolve(str(mc.arguments.get("tool_name", ""))) if mc.name == "call_tool" else None
        if route is not None and not route[1].read_only:
            svc = route[0]
            if svc.name in written:
                before[i] = orjson.dumps(svc.state_dict())
            written.add(svc.name)
        n_log = len(world.call_log)
        result = dispatch(world, mc.name, mc.arguments)
        if result.get("success") is False:
            return _Run(world, steps, before), (f"step {i} ({mc.arguments.get('tool_name', mc.name)}): "
                                                f"{result['error']['message']}")
        if route is not None and len(world.call_log) > n_log:
            steps[i] = (route[0].name, route[1].name, route[1].read_only, n_log)
        if mc.name == "call_tool":
            seen.append(result.get("data"))
    return _Run(world, steps, before, seen), None


def _written(run: _Run) -> set[str]:
    """The services some reference call writes."""
    return {name for name, _, read_only, _ in run.steps.values() if not read_only}


def _replay_again(task: Task, run: _Run, blobs: dict[str, bytes]
                  ) -> tuple[dict[str, Any], list[tuple], dict[str, Any]]:
    """A second, independent run of the reference's writes on fresh copies of
    the services it writes (routing is known from the first run, so no world
    is needed). Reads keep the state by the read-only contract, so replaying
    them would show nothing new.

    Returns:
        ``({service: end state JSON}, [(service, tool, success, code), ...],
        {service: state JSON before its first write})`` for the written
        services; the last is what removing a service's only write leaves.
    """
    services = {n: get_service(n)(blobs[n], today=task.today) for n in sorted(_written(run))}
    starts = {n: svc.state_dict() for n, svc in services.items()}
    log = []
    for j, (name, tool, read_only, _) in run.steps.items():
        if name in services and not read_only:  # reads change no state: the writes decide it
            res = services[name].call(tool, _call_args(task.reference[j]))
            log.append((name, tool, res["success"], None if res["success"] else res["error"]["code"]))
    return {n: svc.state_dict() for n, svc in services.items()}, log, starts


def _ablate(task: Task, run: _Run, blobs: dict[str, bytes], i: int, starts: dict[str, Any]
            ) -> tuple[Optional[str], Optional[dict[str, Any]], list[dict[str, Any]]]:
    """The reference without step ``i``, recomputed only where it can differ.

    Services are independent, so removing a call on service ``S`` changes
    only ``S``'s state and the outcome of ``S``'s later calls: ``S`` is
    restored from its state just before step ``i`` and its later calls are
    replayed; every other service keeps its final state and log entries.
    Without later calls, removing ``S``'s first write leaves ``S`` as it
    started: ``starts[S]``, from the replay's fresh copy of the same bytes.

    Returns:
        ``(S or None for a read, S's new state JSON or None, call log)``.
    """
    name, _, read_only, skip = run.steps[i]
    log = [e for e in run.world.call_log if e["index"] != skip]
    if read_only:  # a read changes no state: only the call log differs
        return None, None, log
    # A later read changes nothing; only a call-log check could see its outcome.
    later = [(j, tool, entry) for j, (svc_name, tool, later_read, entry) in run.steps.items()
             if j > i and svc_name == name and (not later_read or _call_checked(task, task.reference[j]))]
    if not later and i not in run.before:
        return name, starts[name], log
    # From the JSON bytes: pydantic parses and validates in one pass (no intermediate dicts).
    svc = get_service(name)(run.before.get(i, blobs[name]), today=task.today)
    redo: dict[int, dict[str, Any]] = {}
    for j, tool, entry in later:
        res = svc.call(tool, _call_args(task.reference[j]))
        redo[entry] = {"success": res["success"], "code": None if res["success"] else res["error"]["code"]}
    return name, svc.state_dict(), [{**e, **redo[e["index"]]} if e["index"] in redo else e for e in log]


_LOG_KINDS = ("tool_called", "tool_not_called", "call_order")


def _check_ablations(task: Task, run: _Run, blobs: dict[str, bytes], final: dict[str, Any],
                     initial: dict[str, Any], starts: dict[str, Any]) -> tuple[Optional[str], set[str], int]:
    """Remove each write (and each call-checked read) in turn; which checks
    break? (``starts``: see :func:`_ablate`.)"""
    covered = {c.id for c in task.checks if c.kind == "answer_contains"}
    replays = 0
    log_checks = [c for c in task.checks if c.kind in _LOG_KINDS]
    for i, mc in enumerate(task.reference):
        if i not in run.steps:
            continue
        read_only = run.steps[i][2]
        if read_only and not _call_checked(task, mc):
            continue
        name, state, log = _ablate(task, run, blobs, i, starts)
        replays += 1
        relevant = log_checks + (_affected(task, name, state, final[name]) if name else [])
        states = final if name is None else {**final, name: state}
        broken = _failing(relevant, states, task.reference_answer, log, initial)
        if not read_only and not broken:
            return (f"redundant-step: removing reference step {i} ({mc.arguments.get('tool_name')}) "
                    f"breaks no check"), covered, replays
        covered |= broken
    return None, covered, replays


def _affected(task: Task, name: str, state: dict[str, Any], final: dict[str, Any]) -> list[Any]:
    """The state checks on service ``name`` whose collection differs between
    ``state`` (an ablation's) and ``final`` (the reference's). A state check
    reads only its collection, at the end and at reset, and every check
    passed on the reference's end state, so one whose collection is as the
    reference left it passes again: judging it would change nothing."""
    return [c for c in task.checks if getattr(c, "service", None) == name and c.kind not in _LOG_KINDS
            and (getattr(c, "collection", None) is None or state.get(c.collection) != final.get(c.collection))]


def _failing(checks: list[Any], states: dict[str, Any], answer: Optional[str], log: list[dict[str, Any]],
             initial: dict[str, Any]) -> set[str]:
    return {r.id for r in evaluate_checks(checks, states, answer, log, initial) if not r.passed}


def _log_key(log: list[dict[str, Any]]) -> list[tuple]:
    return [(e["service"], e["tool"], e["success"], e["code"]) for e in log]


def _guards(task: Task, listed: Optional[Iterable[str]]) -> tuple[set[str], Optional[str]]:
    """The guard ids (items flagged guard), or a rejection reason."""
    flagged = {c.id for c in task.checks if c.is_guard}
    if listed is not None and set(listed) != flagged:
        return flagged, (f"guard-mismatch: {sorted(set(listed) ^ flagged)} disagree with the items' "
                         f"guard flags")
    if len(flagged) == len(task.checks):
        return flagged, "no-positive-check: every item is a guard, so nothing is there to do"
    return flagged, None


def _judge_reset(task: Task, initial: dict[str, Any], guards: set[str]) -> Optional[str]:
    """Why doing nothing would not score exactly 0.0 with every guard kept, or None."""
    at_reset = _failing(task.checks, initial, NOTHING_ANSWER, [], initial)
    positives = {c.id for c in task.checks} - guards
    if not at_reset & positives:
        return "passes-at-reset: the initial state passes every positive item"
    if positives - at_reset:
        return f"nothing-scores: doing nothing already passes {sorted(positives - at_reset)}"
    if at_reset & guards:
        return f"guard-fails-at-reset: {sorted(at_reset & guards)}"
    return None


def verify(task: Task, guards: Optional[Iterable[str]] = None, mounted: Optional[dict[str, Any]] = None) -> Verdict:
    """Run the reference through the real services and judge the task.

    Args:
        task: the candidate task.
        guards: ids of deliberate guard checks (guards: they pass at
            reset and stay passing; they are exempt from the "must fail"
            rules). They must be exactly the items flagged guard
            (``Check.is_guard``); None takes the flags as they are.

    Returns:
        A :class:`Verdict`; never raises on a bad task.
    """
    guards, reason = _guards(task, guards)
    if reason:
        return _fail(reason, 0)
    # Only the task's services: distractors are never read by checks or the
    # reference, and mounting them would dominate the cost of verification.
    blobs = _blobs(task)
    world = _mount(task, blobs, mounted)
    initial = {n: orjson.loads(blobs[n]) for n in sorted(blobs)}
    # Distractors are not mounted: no reference call routes to them
    # (_unroutable), so each is the same (empty) state before and after.
    untouched: dict[str, Any] = {}
    initial.update({d: untouched for d in task.distractors})
    reason = _judge_reset(task, initial, guards)
    if reason:
        return _fail(reason, 0)
    unroutable = _unroutable(task)
    if unroutable:
        return _fail(f"reference-call-failed: {unroutable} is ambiguous or unknown among the listed services", 0)
    run, error = _first_run(task, world)
    if error:
        return _fail(f"reference-call-failed: {error}", 1)
    # Read-only tools never change state (the fuzz state machine's
    # unexpected-state-change invariant), so only written services are dumped.
    written = _written(run)
    final = {n: world.state_of(n) if n in written else state for n, state in initial.items()}
    failed = _failing(task.checks, final, task.reference_answer, world.call_log, initial)
    if failed and failed <= guards:
        return _fail(f"guard-broken: the reference breaks guards {sorted(failed)}", 1)
    if failed:
        return _fail(f"reference-below-1: checks {sorted(failed)} fail on the reference", 1)
    again, again_log, starts = _replay_again(task, run, blobs)
    # JSON bytes compare the same data as model equality, in C rather than
    # pydantic's recursive Python __eq__ (the dominant cost of this replay).
    writes = [e for e in world.call_log if e["service"] in again
              and not world.classes[e["service"]].tools[e["tool"]].read_only]
    if any(orjson.dumps(again[n]) != orjson.dumps(final[n]) for n in again) or again_log != _log_key(writes):
        return _fail("nondeterministic: two replays of the reference differ", 2)
    reason, covered, replays = _check_ablations(task, run, blobs, final, initial, starts)
    if reason:
        return _fail(reason, 2 + replays)
    idle = [c.id for c in task.checks if c.id not in covered and c.id not in guards]
    if idle:
        return _fail(f"unaffected-check: no reference step affects {idle}", 2 + replays)
    return Verdict(ok=True, replays=2 + replays, footprint=footprint(initial, final), seen=run.seen)


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
