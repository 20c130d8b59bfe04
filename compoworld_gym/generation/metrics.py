"""How chained a set of tasks really is, measured from the tasks alone.

:func:`chain_metrics` replays each task's reference through the real
services and tracks where every read's arguments came from. A read is a
*chained lookup* when one of its argument values appeared in the result of
an earlier call on another service and not in the instruction, or quotes
such a value (a SQL query on an email address, a vault path built from an
app name): the agent can only know that key from that earlier answer. The *chain depth* of a task
is the longest path of such dependencies, counted in services. Nothing here
trusts the generator's own metadata except for the policy verdict (which the
counterfactual stage computed by re-planting).

Example:
    >>> from compoworld_gym.generation import generate_tasks
    >>> m = chain_metrics(generate_tasks(3, seed=0))
    >>> m["tasks"], m["chained_share"] > 0
    (3, True)
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from typing import Any, Iterable, Optional

import orjson

from compoworld_gym.catalog import get_service
from compoworld_gym.episode import initial_state_of
from compoworld_gym.tasks import Task
from compoworld_gym.world import World

#: Leaf values shorter than this are too generic to trace ("open", "10").
MIN_TRACE_CHARS = 5


def _leaves(node: Any, out: set[str]) -> set[str]:
    if isinstance(node, dict):
        for v in node.values():
            _leaves(v, out)
    elif isinstance(node, list):
        for v in node:
            _leaves(v, out)
    elif isinstance(node, (str, int, float)) and not isinstance(node, bool):
        text = f"{node:.2f}" if isinstance(node, float) else str(node)
        if len(text) >= MIN_TRACE_CHARS:
            out.add(text.casefold())
    return out


def _result_text(data: Any) -> str:
    return orjson.dumps(data).decode().casefold()


def _quoted(values: set[str]) -> Optional["re.Pattern[str]"]:
    """A pattern that finds any of ``values`` quoted inside a longer argument
    (delimited by non-alphanumerics); single plain words are left out, since
    a query or path can hold them by chance ("database", "production")."""
    specific = sorted((v for v in values if not v.isalpha()), key=len, reverse=True)
    if not specific:
        return None
    return re.compile("(?<![a-z0-9])(?:" + "|".join(map(re.escape, specific)) + ")(?![a-z0-9])")


def _rows(node: Any, out: list[set[str]]) -> list[set[str]]:
    """The traceable scalar fields of every record (dict) in a result, one set per record."""
    if isinstance(node, dict):
        own = _leaves({k: v for k, v in node.items() if not isinstance(v, (dict, list))}, set())
        if own:
            out.append(own)
        for v in node.values():
            _rows(v, out)
    elif isinstance(node, list):
        for v in node:
            _rows(v, out)
    return out


def _replay(task: Task) -> list[tuple[str, bool, set[str], Any]]:
    """Each reference ``call_tool`` as ``(service, read_only, argument leaves, result data)``."""
    # Distractors too: the reference qualifies tool names exactly as the full listing needs.
    world = World(get_service(n)(initial_state_of(task, n), today=task.today)
                  for n in [*task.services, *task.distractors])
    calls = []
    for mc in task.reference:
        if mc.name != "call_tool":
            continue
        route = world.resolve(str(mc.arguments.get("tool_name", "")))
        res = world.call_tool(mc.arguments["tool_name"], mc.arguments.get("arguments") or {})
        if not res.get("success"):
            raise RuntimeError(f"{task.id}: reference call {mc.arguments['tool_name']} failed: {res}")
        calls.append((route[0].name, route[1].read_only, _leaves(mc.arguments.get("arguments") or {}, set()),
                      res.get("data")))
    return calls


def _quotes(text: str, value: str) -> bool:
    """Whether ``text`` holds ``value`` delimited by non-alphanumerics (see :func:`_quoted`)."""
    return re.search("(?<![a-z0-9])" + re.escape(value) + "(?![a-z0-9])", text) is not None


def _carries(keys: set[str], text: str, quoted: Optional["re.Pattern[str]"]) -> bool:
    return any(k in text or (quoted is not None and quoted.search(k)) for k in keys)


def trace(task: Task) -> dict[str, Any]:
    """Replay ``task``'s reference and trace its read keys.

    A read is chained when an argument carries (or quotes) a value of another
    service's earlier result, or when it answers a list and a record in it is
    *picked out* by such a value and a later call uses another field of that
    record (a role assignment found by the on-call engineer's email, whose
    resource group the next call names: the spec has no filter by principal).

    Returns:
        ``{"chained_reads": int, "depth": int (services), "reads": int}``.

    Raises:
        RuntimeError: a reference call fails (the task is broken).
    """
    return trace_calls(_replay(task), task.instruction)


def trace_calls(calls: list[tuple[str, bool, set[str], Any]], instruction: str) -> dict[str, Any]:
    """:func:`trace` on calls already replayed: ``(service, read_only, argument
    leaves (casefolded, see ``_leaves``), result data)`` in order."""
    instruction = instruction.casefold()
    later_args = [set().union(*(a for _, _, a, _ in calls[i + 1:])) for i in range(len(calls))]
    # (service, result text, pattern of its quotable leaves, set of its leaves, depth of that call)
    history: list[tuple[str, str, Optional[re.Pattern[str]], set[str], int]] = []
    chained = reads = depth = 0
    for i, (service, read_only, args, data) in enumerate(calls):
        mine = 1
        if read_only:
            reads += 1
            keys = {k for k in args if k not in instruction}
            sources = [d for s, text, quoted, _, d in history if s != service and _carries(keys, text, quoted)]
            earlier = [(text, leaves, d) for s, text, _, leaves, d in history if s != service]
            for fields in _rows(data, []):
                # A field an earlier answer gives, or quotes (the order id a customer's post names).
                hits = {f: [d for text, lv, d in earlier if f in lv or (not f.isalpha() and _quotes(text, f))]
                        for f in fields if f not in instruction}
                hits = {f: ds for f, ds in hits.items() if ds}
                rest = {f for f in fields - hits.keys() - args if f not in instruction}
                if hits and rest & later_args[i]:
                    sources += [d for ds in hits.values() for d in ds]
            if sources:
                chained += 1
                mine = 1 + max(sources)
            depth = max(depth, mine)
        leaves = {v for v in _leaves(data, set()) if v not in instruction}
        history.append((service, _result_text(data), _quoted(leaves), leaves, mine))
    return {"chained_reads": chained, "depth": depth, "reads": reads}


def _policy_decides(task: Task) -> bool:
    policy = task.meta.get("policy")
    cf = task.meta.get("counterfactual") or {}
    return bool(policy) and cf.get(policy["service"]) == "changes:policy"


def _tool_leaks(task: Task) -> int:
    names = {t for s in task.services for t in get_service(s).tools if "_" in t}
    low = task.instruction.casefold()
    return sum(1 for t in names if re.search(rf"\b{re.escape(t.casefold())}\b", low))


def chain_metrics(tasks: Iterable[Task]) -> dict[str, Any]:
    """The chained-generation figures of a task set.

    Returns:
        ``tasks``; ``chained_share`` (tasks with at least one chained lookup);
        ``median_depth`` and ``depth_ge4_share`` (chain depth in services);
        ``depth_histogram``; ``rule_share`` (a policy found in the state
        decides an action, verified counterfactually); ``median_instruction_chars``;
        ``tool_name_leaks`` (instructions naming a tool); ``services_covered``
        and ``services_missing`` (of the catalog).
    """
    from compoworld_gym.catalog import service_names

    rows, lengths, covered, rules, leaks = [], [], set(), 0, 0
    for task in tasks:
        rows.append(trace(task))
        lengths.append(len(task.instruction))
        covered |= set(task.services)
        rules += _policy_decides(task)
        leaks += _tool_leaks(task) > 0
    n = len(rows)
    if n == 0:
        return {"tasks": 0}
    depths = [r["depth"] for r in rows]
    return {
        "tasks": n,
        "chained_share": round(sum(r["chained_reads"] > 0 for r in rows) / n, 4),
        "median_depth": statistics.median(depths),
        "depth_ge4_share": round(sum(d >= 4 for d in depths) / n, 4),
        "depth_histogram": dict(sorted(Counter(depths).items())),
        "rule_share": round(rules / n, 4),
        "median_instruction_chars": statistics.median(lengths),
        "tool_name_leaks": leaks,
        "services_covered": len(covered),
        "services_missing": sorted(set(service_names()) - covered),
    }


__all__ = ["chain_metrics", "trace", "trace_calls"]
