"""Task sets of the composition experiment (:mod:`.composition_benchmark`).

*Composed* tasks are the generator's chained tasks, kept short (2–3
services, chains of 2–3 records, no policy, no distractors) and trimmed: the
reference skips discovery (``list_services``/``list_tools``) and calls the
tools directly, so an episode fits a tiny model's budget (the agent may still
discover; held-out tasks only combine services every arm trained on).

*Single-service* tasks are the same cases cut at the service boundary
(:func:`split_task`): for each service of a composed task, one task that
mounts only that service, on the same initial state, with

* the instruction: the case, the goals of that service's writes, the house
  rules about that service's records, and the values that in the composed
  task had to be found in *other* services stated outright ("facts found in
  other systems ...");
* the rubric: the composed task's items about that service (its writes'
  checks, its ``only_changed`` guards, ``writes_confined`` narrowed to it) and
  a report item: the composed task's report when that service holds the
  reported value, else the value this service hands to the next one;
* the reference: the composed reference's calls on that service, in order.

So both arms see the same services, states, tools and kinds of steps; what
the single-service arm never practises is carrying a fact from one service
into the next. Every task built here is checked (:func:`verify_task`): the
reference scores 1.0 and doing nothing scores below 1.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Iterator, Optional, Sequence

import orjson

from compoworld_gym.checks import AnswerContains, OnlyChanged, WritesConfined
from compoworld_gym.generation.config import LIBRARY_V1
from compoworld_gym.tasks import MetaCall, Task

#: Generator options of the composed tasks (short chains: see the module docstring).
GEN_OPTIONS: dict[str, Any] = dict(services=(2, 3), chain_lengths={2: 0.5, 3: 0.5}, listed=1, p_rule=0.0,
                                   max_actions=2, library=LIBRARY_V1)  # the library the results were measured on
#: Shortest value taken for a fact handed between services (shorter ones match by chance).
MIN_FACT_CHARS = 4


@dataclass(frozen=True)
class Composed:
    """A composed task and the brief its instruction was written from (:class:`~compoworld_gym.generation.wording.Brief`)."""

    task: Task
    brief: Any


def composed_tasks(n: int, seed: int) -> list[Composed]:
    """``n`` trimmed chained tasks of generation seed ``seed`` with their briefs.

    Raises:
        compoworld_gym.generation.GenerationError: the generator gave up.
    """
    from compoworld_gym.generation import generate_tasks
    from compoworld_gym.generation.wording import render

    briefs: dict[str, Any] = {}

    def designer(brief: Any, rng: random.Random) -> str:  # keeps the brief of each instruction it writes
        text = render(brief, rng)
        briefs[text] = brief
        return text

    out = []
    for t in generate_tasks(n, seed, designer=designer, **GEN_OPTIONS):
        ref = [mc for mc in t.reference if mc.name == "call_tool"]
        out.append(Composed(t.model_copy(update={"reference": ref}), briefs[t.instruction]))
    return out


def service_set(task: Task) -> frozenset[str]:
    """The services a task needs (its composition, as a set)."""
    return frozenset(task.services)


# ------------------------------------------------------------------ replay
def replay(task: Task) -> tuple[list[tuple[MetaCall, str, Any]], dict[str, Any]]:
    """Run ``task``'s reference: ``[(call, service, result data)]`` and the final info.

    Raises:
        ValueError: a reference call names no mounted tool.
    """
    from compoworld_gym.envs.compoworld_env import CompoWorldEnv

    env = CompoWorldEnv(tasks=[task], max_steps=len(task.reference) + 2)
    env.reset(seed=0, options={"task": task})
    out = []
    for mc in task.reference:
        obs, *_ = env.step(mc.action())
        out.append((mc, tool_service(task, mc.arguments["tool_name"]), orjson.loads(obs).get("data")))
    *_, info = env.step(orjson.dumps({"final_answer": task.reference_answer or "Done."}).decode())
    env.close()
    return out, info


def tool_service(task: Task, tool: str) -> str:
    """The service of ``task`` a (possibly ``service__``-qualified) tool name belongs to."""
    from compoworld_gym.catalog import get_service

    if "__" in tool:
        return tool.split("__", 1)[0]
    owners = [s for s in task.services if tool in get_service(s).tools]
    if len(owners) != 1:
        raise ValueError(f"tool {tool!r} belongs to {owners} of {task.services}")
    return owners[0]


def _leaves(node: Any) -> Iterator[str]:
    """String and float leaves (as text) of a JSON value, at least :data:`MIN_FACT_CHARS` long."""
    if isinstance(node, dict):
        for v in node.values():
            yield from _leaves(v)
    elif isinstance(node, list):
        for v in node:
            yield from _leaves(v)
    elif isinstance(node, (str, float)) and not isinstance(node, bool) and len(str(node)) >= MIN_FACT_CHARS:
        yield str(node)


def handed_in(steps: list[tuple[MetaCall, str, Any]], service: str, instruction: str) -> list[str]:
    """Values ``service``'s calls use that only other services' earlier results
    held (not its own earlier results, not the instruction): what it must be told."""
    out: dict[str, None] = {}
    for i, (mc, s, _) in enumerate(steps):
        if s != service:
            continue
        args = orjson.dumps(mc.arguments["arguments"]).decode()
        own = {v for _, s2, data in steps[:i] if s2 == service for v in _leaves(data)}  # found here already
        for _, s2, data in steps[:i]:
            if s2 == service:
                continue
            for v in _leaves(data):
                if v in args and v not in own and v not in instruction:
                    out[v] = None
    return sorted(out, key=len, reverse=True)[:6]


def handed_on(steps: list[tuple[MetaCall, str, Any]], service: str) -> Optional[str]:
    """The first value of ``service``'s results that a later call on another service uses."""
    for i, (_, s, data) in enumerate(steps):
        if s != service:
            continue
        mine = sorted(set(_leaves(data)), key=len, reverse=True)
        for mc, s2, _ in steps[i + 1:]:
            if s2 != service:
                args = orjson.dumps(mc.arguments["arguments"]).decode()
                hit = next((v for v in mine if v in args), None)
                if hit is not None:
                    return hit
    return None


# ------------------------------------------------------------------- split
def _truth_services() -> dict[str, str]:
    from compoworld_gym.generation.hooks import available_links

    return {r.truth: name for name, sl in available_links().items() for r in sl.relays if r.truth}


def split_task(c: Composed) -> list[Task]:
    """The single-service parts of a composed task (see the module docstring; unverified)."""
    from compoworld_gym.generation.wording import KEEP_RULE

    task, brief = c.task, c.brief
    steps, _ = replay(task)
    chain = task.meta["chain"]
    truths = _truth_services()
    report = next(ch for ch in task.checks if ch.id == "report")
    # The reported value belongs to the last service whose results hold it.
    holder = [s for _, s, d in steps if any(v in set(_leaves(d)) for v in report.values)][-1:]
    holder = holder[0] if holder else None
    out = []
    for service in task.services:
        hops = [i for i, h in enumerate(chain) if h["service"] == service]
        goals = [g for j, g in enumerate(brief.goals)
                 if any(ch.id.startswith(f"w{j}_") and getattr(ch, "service", None) == service for ch in task.checks)]
        work = [ch for ch in task.checks if ch.id.startswith("w") and getattr(ch, "service", None) == service]
        guards = [ch for ch in task.checks if isinstance(ch, OnlyChanged) and ch.service == service]
        allow = next((ch.allow for ch in task.checks if isinstance(ch, WritesConfined)), {})
        guards.append(WritesConfined(id="confined", services=[service],
                                     allow={service: allow[service]} if service in allow else {},
                                     description="Nothing written outside the task's work."))
        if service == holder:
            noun, item, value = brief.report, report, report.values[0]
        else:
            value = handed_on(steps, service)
            nxt = hops[-1] + 1 if hops else len(chain)
            noun = (f"the {chain[nxt]['key'].replace('_', ' ')} on the {chain[hops[-1]]['record']}"
                    if value is not None and nxt < len(chain) else None)
            item = AnswerContains(id="report", values=[value], any_of=True, description=f"Reports {noun}.") \
                if noun else None
        if not work and item is None:
            continue
        lines = [f"{brief.case[:1].upper()}{brief.case[1:]} needs work in the {service.replace('_', ' ')} "
                 "system only; the other systems were handled already."]
        if 0 in hops:
            lines.append(f"It begins with {brief.entry}.")
        facts = handed_in(steps, service, task.instruction)
        if facts:
            lines.append("Facts found in other systems for this case: " + "; ".join(facts) + ".")
        lines.append(f"Please {' and '.join(goals)}." if goals else "Please look the case up.")
        rules = [brief.facts[i] for i in hops] + [t for t in brief.truths if truths.get(t) == service]
        lines += ["", "House rules:", *[f"- {r[:1].upper()}{r[1:]}" for r in [*rules, KEEP_RULE]]]
        if item is not None:
            lines += ["", f"Finish by stating {noun}; name just that value."]
        out.append(Task(
            id=f"{task.id}-{service}", services=[service], today=task.today, seed=task.seed,
            initial_state={service: task.initial_state[service]}, instruction="\n".join(lines),
            checks=[*work, *guards, *([item] if item is not None else [])],
            reference=[mc for mc, s, _ in steps if s == service],
            reference_answer=f"Done. {noun[:1].upper()}{noun[1:]} was {value}." if item is not None else "Done.",
            domain=task.domain, capabilities=["single-service"], meta={"parent": task.id}))
    return out


def verify_task(task: Task) -> bool:
    """Whether the reference scores 1.0 and doing nothing (an empty answer) scores below 1."""
    from compoworld_gym.envs.compoworld_env import CompoWorldEnv

    _, info = replay(task)
    env = CompoWorldEnv(tasks=[task], max_steps=2)
    env.reset(seed=0, options={"task": task})
    *_, idle = env.step('{"final_answer": ""}')
    env.close()
    return info["rubric_score"] == 1.0 and idle["rubric_score"] < 1.0


# ------------------------------------------------------------------ splits
@dataclass
class TaskSets:
    """The experiment's tasks (see :func:`build_task_sets`).

    Attributes:
        composed_train: composed training tasks (no held-out service set).
        single_pool: verified single-service parts of every composed training task.
        heldout: composed tasks whose service set is a held-out combination.
        heldout_combos: the held-out service sets (sorted names).
        dropped: tasks that failed :func:`verify_task`, by kind.
    """

    composed_train: list[Task]
    single_pool: list[Task]
    heldout: list[Task]
    heldout_combos: list[list[str]]
    dropped: dict[str, int]


def build_task_sets(n_pool: int, n_heldout: int, seed: int, heldout_share: float = 0.25) -> TaskSets:
    """Generate ``n_pool`` composed tasks, hold out whole service combinations, split the rest.

    Combinations are shuffled by ``seed`` and taken as held-out until their
    tasks reach ``heldout_share`` of the pool (and at least ``n_heldout``); ``n_heldout`` of those tasks
    are kept for evaluation. Held-out combinations only use services that
    some training task also uses (a service never trained on would measure
    something else).

    Raises:
        ValueError: ``n_heldout`` is more than the held-out combinations hold.
    """
    pool = [c for c in composed_tasks(n_pool, seed) if verify_task(c.task)]
    dropped = {"composed": n_pool - len(pool), "single": 0}
    combos = sorted({service_set(c.task) for c in pool}, key=sorted)
    random.Random(seed).shuffle(combos)
    held: set[frozenset[str]] = set()
    for combo in combos:
        if sum(service_set(c.task) in held for c in pool) >= max(heldout_share * len(pool), n_heldout):
            break
        rest = {s for c in pool if service_set(c.task) not in held | {combo} for s in c.task.services}
        if combo <= rest:
            held.add(combo)
    heldout = [c.task for c in pool if service_set(c.task) in held][:n_heldout]
    if len(heldout) < n_heldout:
        raise ValueError(f"only {len(heldout)} held-out tasks in a pool of {n_pool}; raise n_pool")
    train = [c for c in pool if service_set(c.task) not in held]
    singles = []
    for c in train:
        for part in split_task(c):
            if verify_task(part):
                singles.append(part)
            else:
                dropped["single"] += 1
    return TaskSets([c.task for c in train], singles, heldout, sorted(sorted(h) for h in held), dropped)


def budget_match(pool: Sequence[Task], tokens: dict[str, int], budget: int, seed: int) -> list[Task]:
    """Tasks of ``pool`` in a ``seed`` shuffle, taken while the token total
    stays closest to ``budget`` (``tokens``: SFT tokens per task id)."""
    order = list(pool)
    random.Random(seed).shuffle(order)
    out, total = [], 0
    for t in order:
        if abs(total + tokens[t.id] - budget) <= abs(total - budget):
            out.append(t)
            total += tokens[t.id]
    return out


__all__ = ["Composed", "GEN_OPTIONS", "TaskSets", "budget_match", "build_task_sets", "composed_tasks",
           "handed_in", "handed_on", "replay", "service_set", "split_task", "verify_task"]
