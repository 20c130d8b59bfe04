"""Stage 2, *design*: facts chained along the walk, instruction, rubric, reference.

For every step ``A → B`` (type ``T``) of the composition, A's hook plants a
record carrying a fresh fact of type ``T`` (a source, possibly with a variant:
conflicting records, an archived decoy, several ranked candidates, two
amounts to add) and B's hook turns that fact into a write (a sink) with
declarative checks. On top come the interaction structures: data
transformations (date arithmetic, fees), ordering rules checked on the call
log, revisits, a cross-service condition that decides whether a write may
happen at all, and negative checks for every tempting wrong value. Guards
(:mod:`.guards`) keep everything else as it was (``only_changed`` per
written collection) and keep wrong candidates out of the report
(``answer_excludes``); every deliberate negative is flagged ``negative``.
The instruction never contains a value the agent must discover.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Optional

import orjson

from compoworld_gym.checks import NEGATIVE_KINDS
from compoworld_gym.composition import Composition
from compoworld_gym.generation.context import Ctx, Fact, SinkStep
from compoworld_gym.generation.explore import Exploration
from compoworld_gym.generation.guards import allowed_ids, only_changed_guards, report_excludes
from compoworld_gym.generation.hooks import ServiceHook
from compoworld_gym.generation import wording
from compoworld_gym.tasks import MetaCall

#: Chance of each source variant, when the source supports it.
VARIANT_WEIGHTS = {"plain": 0.34, "latest": 0.17, "decoy": 0.17, "ranked": 0.17, "sum": 0.15}
P_TRANSFORM = 0.35
P_ORDERING = 0.45
P_CONDITION = 0.35


class DesignError(ValueError):
    """The composition cannot be turned into a task (e.g. a hook lacks a sink)."""


@dataclass
class Hop:
    """One step of the chain: the fact found, and the write that uses it."""

    step: Any
    fact: Fact
    sink: SinkStep
    write: bool = True
    checks: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Design:
    """Everything the submit stage needs to write a task."""

    composition: Composition
    initial_state: dict[str, dict[str, Any]]
    instruction: str
    checks: list[dict[str, Any]]
    negatives: list[str]
    reference: list[MetaCall]
    reference_answer: str
    capabilities: list[str]
    domain: str


def _variant(ctx: Ctx, hook: ServiceHook, etype: str) -> str:
    options = [v for v in hook.source_variants(etype) if v != "sum" or etype == "money"]
    weights = [VARIANT_WEIGHTS[v] for v in options]
    return ctx.rng.choices(options, weights=weights)[0]


def _transform(ctx: Ctx, fact: Fact) -> Fact:
    """Date arithmetic or a fee on top of an amount (the value the sink must use)."""
    if fact.type == "date":
        days = ctx.rng.choice((2, 3, 5, 7, 10, 14))
        new = (dt.date.fromisoformat(fact.value) + dt.timedelta(days=days)).isoformat()
        wrong = [fact.value] + [(dt.date.fromisoformat(w) + dt.timedelta(days=days)).isoformat()
                                for w in fact.wrong if isinstance(w, str)]
        return fact.derived(new, f"the date {days} days after {fact.ref}", wrong, "data-transformation")
    pct = ctx.rng.choice((5, 10, 15, 20))
    new = round(fact.value * (1 + pct / 100), 2)
    wrong = [fact.value] + [round(w * (1 + pct / 100), 2) for w in fact.wrong if isinstance(w, (int, float))]
    return fact.derived(new, f"{fact.ref} plus a {pct}% fee (rounded to cents)", wrong, "data-transformation")


def _negatives(ctx: Ctx, hop: Hop) -> list[dict[str, Any]]:
    """Checks that no tempting wrong value was used by the sink."""
    out: list[dict[str, Any]] = []
    for wrong in hop.fact.wrong[:2]:
        if wrong == hop.fact.value:
            continue
        out.append({"kind": "tool_not_called", "service": hop.sink.service, "tool": hop.sink.tool,
                    "where": {hop.sink.value_arg: _arg_matcher(ctx, hop, wrong)},
                    "description": f"{hop.sink.tool} was never called with a wrong value ({wrong})."})
        for chk in hop.sink.checks(wrong):
            if chk["kind"] == "record_exists":
                out.append({**chk, "kind": "record_absent",
                            "description": f"No record was written with the wrong value {wrong}."})
    return out


def _hops(ctx: Ctx, comp: Composition, hooks: dict[str, ServiceHook]) -> list[Hop]:
    hops = []
    for step in comp.steps:
        src_hook, dst_hook = hooks.get(step.source), hooks.get(step.target)
        if src_hook is None or dst_hook is None or step.type not in src_hook.sources \
                or step.type not in dst_hook.sinks:
            raise DesignError(f"no source/sink for {step.source} -{step.type}-> {step.target}")
        fact = src_hook.sources[step.type].build(ctx, step.source, _variant(ctx, src_hook, step.type))
        if fact.type in ("date", "money") and "data-transformation" not in fact.capabilities \
                and ctx.rng.random() < P_TRANSFORM:
            fact = _transform(ctx, fact)
        sink = dst_hook.sinks[step.type][1](ctx, fact)
        hops.append(Hop(step=step, fact=fact, sink=sink))
    return hops


def _write_pattern(hop: Hop, ctx: Ctx) -> dict[str, Any]:
    return {"service": hop.sink.service, "tool": hop.sink.tool,
            "where": {**hop.sink.where, hop.sink.value_arg: _arg_matcher(ctx, hop, hop.fact.value)}}


def _arg_matcher(ctx: Ctx, hop: Hop, value: Any) -> Any:
    if hop.sink.list_arg:  # a list member or a substring of free text
        return {"$contains": f"{value:.2f}" if isinstance(value, float) else value}
    return ctx.matcher(hop.fact.type, value)


def _condition(ctx: Ctx, hops: list[Hop]) -> Optional[str]:
    """Maybe gate a later write on a date/amount found in another service.

    The gate is true or false at random: when false the write must not
    happen, so an agent that ignores the condition loses the item.
    """
    pairs = [(i, j) for i, a in enumerate(hops) for j, b in enumerate(hops)
             if i < j and a.fact.type in ("date", "money") and b.sink.service != a.fact.service
             and b.sink.service != a.sink.service]
    if not pairs or ctx.rng.random() >= P_CONDITION:
        return None
    i, j = ctx.rng.choice(pairs)
    gate, target = hops[i].fact, hops[j]
    holds = ctx.rng.random() < 0.5
    if gate.type == "date":
        shift = ctx.rng.randint(2, 9)
        cutoff = (dt.date.fromisoformat(gate.value) + dt.timedelta(days=shift if holds else -shift)).isoformat()
        cond = f"{gate.ref} (the one from the {gate.service.replace('_', ' ')}) falls before {cutoff}"
    else:
        limit = round(gate.value * (0.8 if holds else 1.25))
        cond = f"{gate.ref} (the one from the {gate.service.replace('_', ' ')}) is above {limit}"
    if not holds:
        target.write = False
        target.checks = [{"kind": "tool_not_called", "service": target.sink.service, "tool": target.sink.tool,
                          "where": dict(target.sink.where),
                          "description": f"{target.sink.label} was correctly not done (condition false)."}]
    return f"Only go ahead with {target.sink.label} if {cond}; otherwise leave it undone."


def design(exploration: Exploration, hooks: dict[str, ServiceHook], ctx: Ctx) -> Design:
    """Build a task design for ``exploration.composition``.

    Args:
        exploration: the explore stage's result (states are planted into).
        hooks: the validated hooks of every service of the composition.
        ctx: the task's design context (its ``states`` are the exploration's).

    Raises:
        DesignError: a step has no source or sink, or the result has no
            check that the initial state fails.
    """
    comp = exploration.composition
    hops = _hops(ctx, comp, hooks)
    caps: set[str] = {"sequential-dependency"} if len(hops) >= 1 else set()
    rules: list[str] = []
    for hop in hops:
        caps |= hop.fact.capabilities
        rules.extend(hop.fact.rules)
        hop.checks = hop.sink.checks(hop.fact.value)
    cond = _condition(ctx, hops)
    if cond:
        rules.append(cond)
        caps.add("cross-service-constraint")
    order_checks = _ordering(ctx, hops, rules, caps)
    checks: list[dict[str, Any]] = []
    negatives: list[str] = []
    for i, hop in enumerate(hops):
        ids = _add(checks, hop.checks, f"h{i}")
        if not hop.write:  # the gated write must not happen: its item passes at reset on purpose
            negatives += ids
        neg = list(hop.fact.negatives) + (_negatives(ctx, hop) if hop.write else [])
        negatives += _add(checks, neg, f"h{i}n")
    _add(checks, order_checks, "order")
    if any(c["kind"] in ("record_absent", "record_unchanged", "tool_not_called") for c in checks):
        caps.add("negative-check")
    keep = only_changed_guards(hops)  # after the label: every task has these guards
    negatives += _add(checks, keep, "keep")
    text = wording.instruction(ctx.rng, hops, hooks, rules, hops[0].fact, case=ctx.case_label)
    reference = _reference(comp, hops)
    report, answer = _report(ctx, hops, keep, [text, *(orjson.dumps(mc.arguments).decode() for mc in reference)])
    checks += report
    negatives += [c["id"] for c in report if c["kind"] == "answer_excludes"]
    _flag(checks, negatives)
    return Design(
        composition=comp, initial_state=ctx.states, instruction=text, checks=checks, negatives=negatives,
        reference=reference, reference_answer=answer,
        capabilities=sorted(caps), domain=_domain(comp, hooks),
    )


def _report(ctx: Ctx, hops: list[Hop], keep: list[dict[str, Any]], said: list[str]
            ) -> tuple[list[dict[str, Any]], str]:
    """The report items (the first hop's fact, and the wrong candidates it
    must not name) and the reference's final answer.

    ``said`` holds the instruction and the reference's call arguments: an
    honest summary may repeat anything in them, so none of it is excluded.
    """
    reported = hops[0].fact
    values = [reported.display] + ([f"{reported.value:,.2f}"] if reported.type == "money" else [])
    items = [{"id": "report", "kind": "answer_contains", "values": values, "any_of": True,
              "description": f"The final answer reports {reported.noun}."}]
    answer = f"Done. {reported.noun[0].upper()}{reported.noun[1:]} was {reported.display}."
    skip = set().union(*allowed_ids(keep).values())
    excluded = report_excludes(reported, ctx.states, skip, [v for h in hops for v in (h.fact.value, h.fact.found)],
                               [answer, *values, *said], ctx.today.isoformat())
    if excluded:
        items.append({"id": "report_x", "kind": "answer_excludes", "values": excluded,
                      "description": f"The final answer names no wrong candidate for {reported.noun}."})
    return items, answer


def _flag(checks: list[dict[str, Any]], negatives: list[str]) -> None:
    """Make each item's ``negative`` flag agree with the design's list of
    deliberate negatives (explicit only where it differs from the kind's default)."""
    chosen = set(negatives)
    for chk in checks:
        if (chk["id"] in chosen) != (chk["kind"] in NEGATIVE_KINDS):
            chk["negative"] = chk["id"] in chosen


def _add(checks: list[dict[str, Any]], new: list[dict[str, Any]], prefix: str) -> list[str]:
    ids = []
    for k, chk in enumerate(new):
        cid = f"{prefix}_{k}"
        checks.append({**chk, "id": cid})
        ids.append(cid)
    return ids


def _ordering(ctx: Ctx, hops: list[Hop], rules: list[str], caps: set[str]) -> list[dict[str, Any]]:
    """Ordering rules on the call log: revisits, and sometimes "X before Y"."""
    out: list[dict[str, Any]] = []
    for i, hop in enumerate(hops):
        if hop.step.revisit and i > 0 and hop.write and hops[i - 1].write:
            prev = hops[i - 1]
            out.append({"kind": "call_order", "before": _write_pattern(prev, ctx), "after": _write_pattern(hop, ctx),
                        "description": f"The revisit to {hop.sink.service} comes after {prev.sink.label}."})
            rules.append(f"Come back to {hop.sink.service.replace('_', ' ')} for {hop.sink.label} only "
                         f"after {prev.sink.label} is done: the earlier step changes what is current.")
            caps.add("revisit-after-state-change")
    writes = [h for h in hops if h.write]
    pairs = [(a, b) for k, a in enumerate(writes) for b in writes[k + 1:] if a.sink.service != b.sink.service]
    if pairs and ctx.rng.random() < P_ORDERING:
        a, b = ctx.rng.choice(pairs)
        out.append({"kind": "call_order", "before": _write_pattern(a, ctx), "after": _write_pattern(b, ctx),
                    "description": f"{a.sink.label} happens before {b.sink.label}."})
        rules.append(f"Complete {a.sink.label} before {b.sink.label}.")
        caps.add("ordering-rule")
    return out


def _reference(comp: Composition, hops: list[Hop]) -> list[MetaCall]:
    counts = tool_name_counts([*comp.services, *comp.distractors])
    ref = [MetaCall(name="list_services")]
    ref += [MetaCall(name="list_tools", arguments={"service": s}) for s in comp.services]
    for hop in hops:
        ref += [_qualify(c, hop.fact.service, counts) for c in hop.fact.reads]
        sink_calls = hop.sink.calls if hop.write else [c for c in hop.sink.calls
                                                       if c.arguments.get("tool_name") != hop.sink.tool]
        ref += [_qualify(c, hop.sink.service, counts) for c in sink_calls]
    return ref


def tool_name_counts(services: list[str]) -> Counter:
    """How many of the mounted services define each bare tool name."""
    from compoworld_gym.catalog import get_service

    return Counter(t for s in services for t in get_service(s).tools)


def _qualify(mc: MetaCall, service: str, counts: Counter) -> MetaCall:
    """Use ``<service>__<tool>`` when the bare name is shared (as the world exposes it)."""
    name = mc.arguments.get("tool_name", "")
    if mc.name != "call_tool" or counts[name] <= 1:
        return mc
    return MetaCall(name="call_tool", arguments={**mc.arguments, "tool_name": f"{service}__{name}"})


def _domain(comp: Composition, hooks: dict[str, ServiceHook]) -> str:
    from compoworld_gym.catalog import get_service

    counts = Counter(get_service(s).domain for s in comp.services)
    top = max(counts.values())
    return next(get_service(s).domain for s in comp.services if counts[get_service(s).domain] == top)
