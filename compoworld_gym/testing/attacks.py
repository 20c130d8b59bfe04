"""Reward-gaming attacks: scripted agents that try to collect reward without
doing the task, built from each task's own reference solution.

Each attack replays a (modified) reference through a real world, as the env
mounts it (task services and distractors), ends with a final answer and
returns the episode's reward (:func:`compoworld_gym.rewards.score`), or None
when the attack does not apply to the task (no rule, no decoy, no message
sent). An honest rubric gives every attack less than 1.0 on every task,
while the reference itself scores 1.0 and doing nothing scores 0.0.

Attacks (:data:`ATTACKS`):

* ``nothing`` — answer "done" at once;
* ``repeat-writes`` — the reference, then every successful state-changing
  call again with the same arguments ("for safety");
* ``dump`` — the reference, with a final answer that is the reference
  answer followed by every string any tool result returned;
* ``dump-truncated`` — the same dump cut at the shortest answer limit of the
  task's answer items, so that length alone cannot fail it;
* ``other-branch`` — the reference with the rule's other destination (the
  branch not taken) in place of the right one;
* ``stale-value`` — the reference with a planted stale, archived or
  look-alike value in place of the truth (the worst decoy);
* ``distractor-write`` — the reference, then one record changed in a
  service or collection the task does not write (the worst place);
* ``extra-recipient`` — the reference with one more recipient on a message
  it sends (another address in ``to``, a second channel post).

:func:`attack_table` runs every attack over a task list and reports, per
attack, the mean reward and the share of episodes at 1.0
(``python -m compoworld_gym.benchmarks.attacks`` prints it).

Example:
    >>> from compoworld_gym.builtin_tasks import builtin_tasks
    >>> task = builtin_tasks()[0]
    >>> run_attack("nothing", task)
    0.0
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Optional

import orjson

from compoworld_gym.answers import forms
from compoworld_gym.episode import evaluate, mount, score, state_check_services
from compoworld_gym.matching import records
from compoworld_gym.metatools import dispatch
from compoworld_gym.tasks import Decoy, MetaCall, Task
from compoworld_gym.world import World

#: An address outside every task (the extra recipient of ``extra-recipient``).
WRONG_EMAIL = "someone.else@example.org"

#: The final answer of an agent that does nothing.
NOTHING = "done"


# ----------------------------------------------------------------- replay
def replay(task: Task, calls: Optional[list[MetaCall]] = None, seen: Optional[list[Any]] = None,
           strict: bool = True) -> World:
    """A world after ``calls`` (default: the task's reference).

    Args:
        task: the task.
        calls: meta-tool calls to run instead of the reference.
        seen: if given, every meta-tool result is appended to it, in order.
        strict: a failing call raises (the reference must succeed); a
            modified reference may fail some calls, which are then skipped.

    Raises:
        AssertionError: ``strict`` and a call failed.
    """
    world = mount(task)
    for mc in task.reference if calls is None else calls:
        res = dispatch(world, mc.name, mc.arguments)
        if strict and res.get("success") is False:
            raise AssertionError(f"{task.id}: reference call {mc.arguments} failed: {res}")
        if seen is not None:
            seen.append(res)
    return world


def judge(task: Task, world: World, answer: Optional[str], states: Optional[dict[str, Any]] = None) -> float:
    """The reward of an episode that ended on ``world`` (or on ``states``) with ``answer``."""
    final = states if states is not None else world.states(state_check_services(task))
    return score(evaluate(task, final, answer, world.call_log))


def _mutating(world: World, mc: MetaCall) -> bool:
    route = world.resolve_spec(str(mc.arguments.get("tool_name", ""))) if mc.name == "call_tool" else None
    return route is not None and not route[1].read_only


def _route(world: World, mc: MetaCall) -> Optional[tuple[str, str]]:
    """``(service, tool)`` of a ``call_tool`` (the tool's own name, not the listing's qualified one)."""
    route = world.resolve_spec(str(mc.arguments.get("tool_name", ""))) if mc.name == "call_tool" else None
    return (route[0], route[1].name) if route is not None else None


def _substitute(node: Any, old: Any, new: Any) -> Any:
    """``node`` with every leaf equal to ``old`` (or text containing it) given ``new``."""
    if isinstance(node, dict):
        return {k: _substitute(v, old, new) for k, v in node.items()}
    if isinstance(node, list):
        return [_substitute(v, old, new) for v in node]
    if node == old and type(node) is type(old):
        return new
    if isinstance(node, str) and isinstance(old, (str, float)):
        for form in forms(old):
            if form and form in node:
                node = node.replace(form, str(new) if not isinstance(new, float) else f"{new:.2f}")
        return node
    return node


def _swapped(task: Task, decoy: Decoy) -> Optional[float]:
    """The reference with ``decoy.decoy`` written (and reported) where it
    wrote ``decoy.truth``, each write argument derived from it as
    ``decoy.implies`` gives it, and the writes ``decoy.unmade`` names left
    out; None when no write or answer changes.

    Reads are kept: a scripted agent cannot re-derive what a wrong lookup
    would have led to, so the attack is "the wrong value, written"."""
    probe = mount(task)
    swaps = [(decoy.truth, decoy.decoy), *decoy.implies]

    def swap(node: Any) -> Any:
        for old, new in swaps:
            node = _substitute(node, old, new)
        return node

    unmade = {tuple(u) for u in decoy.unmade}
    calls = [MetaCall(name=mc.name, arguments=swap(mc.arguments)) if _mutating(probe, mc) else mc
             for mc in task.reference if not (unmade and _mutating(probe, mc) and _route(probe, mc) in unmade)]
    answer = _substitute(task.reference_answer or NOTHING, decoy.truth, decoy.decoy)
    if calls == task.reference and answer == task.reference_answer:
        return None
    return judge(task, replay(task, calls, strict=False), answer)


def _worst(values: Iterable[Optional[float]]) -> Optional[float]:
    """The highest reward of the applicable runs (None when none applies)."""
    return max((v for v in values if v is not None), default=None)


def text_leaves(node: Any) -> list[str]:
    """Every text value of a JSON tree as written in an answer (amounts with two decimals), in order."""
    if isinstance(node, dict):
        return [x for v in node.values() for x in text_leaves(v)]
    if isinstance(node, list):
        return [x for v in node for x in text_leaves(v)]
    if isinstance(node, float):
        return [f"{node:.2f}"]
    if isinstance(node, (int, bool)) or node is None:
        return []
    return [str(node)] if str(node) else []


# ----------------------------------------------------------------- attacks
def attack_nothing(task: Task) -> float:
    """Answer "done" at once."""
    return judge(task, mount(task), NOTHING)


def attack_repeat_writes(task: Task) -> Optional[float]:
    """The reference, then every state-changing call once more; None when
    the repeats change nothing (same-value updates, or calls refused, such as
    closing a closed ticket: nothing was done twice)."""
    world = replay(task)
    again = [mc for mc in task.reference if _mutating(world, mc)]
    mounted = [*task.services, *task.distractors]
    before = _substance(world.states(mounted))
    for mc in again:
        dispatch(world, mc.name, mc.arguments)
    if _substance(world.states(mounted)) == before:
        return None
    return judge(task, world, task.reference_answer)


_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?([+-]\d\d:\d\d|Z)?")


def _substance(node: Any, depth: int = 0) -> Any:
    """``{service: state}`` without what a repeated same-value write may move
    while recording nothing done: timestamps, and each state's top-level
    counters (id counters, clock, revision)."""
    if isinstance(node, dict):
        return {k: _substance(v, depth + 1) for k, v in node.items()
                if not (depth == 1 and k in _COUNTERS)}
    if isinstance(node, list):
        return [_substance(v, depth + 1) for v in node]
    if isinstance(node, str) and _STAMP.fullmatch(node):
        return "<time>"
    return node


_COUNTERS = frozenset({"counters", "clock", "revision"})


def _dump(task: Task) -> tuple[World, str]:
    seen: list[Any] = []
    world = replay(task, seen=seen)
    # Tool results only: service and tool listings name no record's value.
    results = [res for mc, res in zip(task.reference, seen) if mc.name == "call_tool"]
    values = dict.fromkeys(text_leaves(results))
    return world, " ".join([task.reference_answer or "", *values])


def attack_dump(task: Task) -> float:
    """The reference, answering with every string any tool result returned."""
    world, answer = _dump(task)
    return judge(task, world, answer)


def attack_dump_truncated(task: Task) -> Optional[float]:
    """The dump, cut at the shortest answer limit of the task's answer items."""
    limits = [c.max_chars for c in task.checks if c.kind == "answer_contains"]
    if not limits:
        return None
    world, answer = _dump(task)
    return judge(task, world, answer[:min(limits)])


def _decoys(task: Task, kinds: Iterable[str]) -> list[Any]:
    return [d for d in task.decoys if d.kind in set(kinds)]


def attack_other_branch(task: Task) -> Optional[float]:
    """The reference with the rule's other destination instead of the right one."""
    return _worst(_swapped(task, d) for d in _decoys(task, ["other-branch"]))


def attack_stale_value(task: Task) -> Optional[float]:
    """The reference with a stale, archived or look-alike value in place of the truth (worst case)."""
    return _worst(_swapped(task, d) for d in _decoys(task, ["stale", "archived", "other-record"]))


def _tamper(record: Any) -> bool:
    """Edit one string field of a record in place (not its id); whether one was found."""
    if not isinstance(record, dict):
        return False
    for key in sorted(record):
        value = record[key]
        if key != "id" and isinstance(value, str) and value:
            record[key] = value + " (edited)"
            return True
    return False


def attack_distractor_write(task: Task) -> Optional[float]:
    """The reference, then one record edited in a service or collection that
    nothing in the task writes: the highest reward over every such place."""
    world = replay(task)
    mounted = [*task.services, *task.distractors]
    initial = mount(task).states(mounted)
    final = world.states(mounted)
    written = {(s, c) for s in mounted for c in final[s] if final[s][c] != initial[s].get(c)}
    best: Optional[float] = None
    for service in mounted:
        for coll in sorted(final[service]):
            if (service, coll) in written or not records(final[service][coll]):
                continue
            states = orjson.loads(orjson.dumps(final))
            target = states[service][coll]
            victim = next((r for r in (target.values() if isinstance(target, dict) else target) if _tamper(r)), None)
            if victim is None:
                continue
            value = judge(task, world, task.reference_answer, states)
            best = value if best is None else max(best, value)
            break  # one collection per service is enough: a guard reads the whole service
    return best


def _with_extra_recipient(world: World, mc: MetaCall) -> Optional[list[MetaCall]]:
    """The call (and, for a chat post, a second one) reaching one more recipient."""
    route = world.resolve_spec(str(mc.arguments.get("tool_name", ""))) if mc.name == "call_tool" else None
    if route is None:
        return None
    service, spec = route
    args = dict(mc.arguments.get("arguments") or {})
    if isinstance(args.get("to"), list):
        return [MetaCall(name=mc.name, arguments={**mc.arguments, "arguments": {**args, "to": [*args["to"], WRONG_EMAIL]}})]
    if service == "slack" and spec.name == "slack_post_message":
        chans = world.states(["slack"])["slack"]["channels"]
        other = next((c for c in sorted(chans) if c != args.get("channel_id") and not chans[c]["is_archived"]), None)
        if other is None:
            return None
        return [mc, MetaCall(name=mc.name, arguments={**mc.arguments, "arguments": {**args, "channel_id": other}})]
    return None


def attack_extra_recipient(task: Task) -> Optional[float]:
    """The reference with one more recipient on a message it sends (the worst such message)."""
    probe = mount(task)
    best: Optional[float] = None
    for i, mc in enumerate(task.reference):
        extra = _with_extra_recipient(probe, mc)
        if extra is None:
            continue
        calls = [*task.reference[:i], *extra, *task.reference[i + 1:]]
        value = judge(task, replay(task, calls, strict=False), task.reference_answer)
        best = value if best is None else max(best, value)
    return best


ATTACKS: dict[str, Callable[[Task], Optional[float]]] = {
    "nothing": attack_nothing,
    "repeat-writes": attack_repeat_writes,
    "dump": attack_dump,
    "dump-truncated": attack_dump_truncated,
    "other-branch": attack_other_branch,
    "stale-value": attack_stale_value,
    "distractor-write": attack_distractor_write,
    "extra-recipient": attack_extra_recipient,
}


def run_attack(name: str, task: Task) -> Optional[float]:
    """The reward attack ``name`` gets on ``task`` (None: not applicable).

    Raises:
        KeyError: unknown attack name (see :data:`ATTACKS`).
    """
    return ATTACKS[name](task)


def attack_table(tasks: Iterable[Task], names: Optional[Iterable[str]] = None) -> dict[str, dict[str, Any]]:
    """Per attack: ``{"episodes": n, "mean": mean reward, "at_one": share at
    1.0, "max": highest reward, "top": id of a task with that reward}`` over
    the tasks it applies to (``episodes`` 0 and None figures when none)."""
    tasks = list(tasks)
    out: dict[str, dict[str, Any]] = {}
    for name in names or ATTACKS:
        scores = [(t.id, s) for t in tasks if (s := run_attack(name, t)) is not None]
        values = [s for _, s in scores]
        top = max(scores, key=lambda p: p[1]) if scores else (None, None)
        out[name] = {"episodes": len(values),
                     "mean": round(sum(values) / len(values), 4) if values else None,
                     "at_one": round(sum(v >= 1.0 for v in values) / len(values), 4) if values else None,
                     "max": top[1], "top": top[0]}
    return out


__all__ = ["ATTACKS", "NOTHING", "WRONG_EMAIL", "attack_table", "judge", "replay", "run_attack", "text_leaves"]
