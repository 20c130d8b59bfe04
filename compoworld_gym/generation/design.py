"""Stage 2, *design*: plan the case chain, plant it, derive and word the task.

:func:`design` walks the relays (:mod:`.plan`), plants the chain into the
explored states (:func:`~.chain.materialize`), follows it by real reads to
derive the reference and the expected end state (:func:`~.solve.solve`),
checks that every service's fact matters (:mod:`.counterfactual`), and
assembles the rubric: the writes' checks, one ``only_changed`` guard per
written collection, and the report (the value found, and none of the planted
look-alikes). The instruction comes from a :class:`~.wording.Brief` through
a designer; it states the goal and house rules, no value to discover and no
tool name.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from compoworld_gym.answers import forms
from compoworld_gym.catalog import get_service
from compoworld_gym.checks import AnswerContains, Check, OnlyChanged
from compoworld_gym.entity_values import values_of_type
from compoworld_gym.composition import Composition, Step
from compoworld_gym.generation.chain import ChainSpec, Planted, materialize
from compoworld_gym.generation.counterfactual import consumed_slots, counterfactual
from compoworld_gym.generation.guards import MIN_EXCLUDED_CHARS, merge_where, shape_of, shaped
from compoworld_gym.generation.designer import looks_like_data
from compoworld_gym.generation.links import Found, SolveError
from compoworld_gym.generation.solve import Derived, Mounts, solve
from compoworld_gym.generation.wording import Brief, leaks
from compoworld_gym.tasks import Decoy, MetaCall

#: Longest final answer the report item accepts: a report, not a dump.
REPORT_MAX_CHARS = 2000

#: A designer writes the instruction from a brief: ``(brief, rng) -> text``.
Designer = Callable[[Brief, random.Random], str]


class DesignError(ValueError):
    """The planned chain cannot become a task; the message starts with a reason code."""


@dataclass
class Design:
    """Everything the submit stage needs to write a task."""

    composition: Composition
    initial_state: dict[str, dict[str, Any]]
    instruction: str
    checks: list[Check]
    guards: list[str]
    reference: list[MetaCall]
    reference_answer: str
    capabilities: list[str]
    domain: str
    chain: list[dict[str, Any]] = field(default_factory=list)
    counterfactual: dict[str, str] = field(default_factory=dict)
    policy: Optional[dict[str, Any]] = None
    mounted: dict[str, Any] = field(default_factory=dict, repr=False)
    entry: str = ""
    case: str = ""
    decoys: list[Decoy] = field(default_factory=list)

    def as_task(self, task_id: str, seed: int, today: Any) -> Any:
        """The candidate :class:`~compoworld_gym.tasks.Task` that verify replays."""
        from compoworld_gym.generation.submit import build_task

        return build_task(self, task_id=task_id, seed=seed, today=today, stage_stats={})


def _composition(spec: ChainSpec, derived: Derived) -> Composition:
    steps: list[Step] = []
    seen = [spec.hops[0].relay.service]
    for i in range(1, len(spec.hops)):
        src, dst = spec.hops[i - 1].relay.service, spec.hops[i].relay.service
        steps.append(Step(source=src, target=dst, type=spec.hops[i].relay.key))
        seen.append(dst)
    if spec.rule is not None:
        src = spec.hops[spec.rule.attr[1]].relay.service
        steps.append(Step(source=src, target=spec.rule.holder.service, type="money"))
        seen.append(spec.rule.holder.service)
    for act in spec.actions:
        dst = act.action.service
        for slot in act.bind.values():
            src = spec.rule.holder.service if slot[0] == "rule" else spec.hops[slot[1]].relay.service
            etype = spec.rule.dest_type if slot[0] == "rule" else slot[2]
            if src != dst:
                steps.append(Step(source=src, target=dst, type=etype, revisit=dst in seen))
        seen.append(dst)
    return Composition(services=spec.services, steps=list(dict.fromkeys(steps)))


def _guards(derived: Derived) -> list[OnlyChanged]:
    """One ``only_changed`` guard per written collection, allowing exactly the writes."""
    merged: dict[tuple[str, str], list[OnlyChanged]] = {}
    for _, write in derived.writes:
        for g in write.scope:
            merged.setdefault((g.service, g.collection), []).append(g)
    out = []
    for k, ((service, coll), parts) in enumerate(sorted(merged.items())):
        news = [p.allow_new for p in parts if p.allow_new is not None]
        out.append(OnlyChanged(id=f"keep_{k}", service=service, collection=coll,
                               allow_ids=sorted({i for p in parts for i in p.allow_ids}),
                               allow_new=merge_where(news) if news else None, description=parts[0].description))
    return out


def _report(spec: ChainSpec, planted: Planted, found: Found, said: str, legit: set[Any],
            skip: set[str], others: dict[str, dict[str, tuple[Any, ...]]], base: dict[str, Any]
            ) -> tuple[list[Check], str]:
    """The report item: the value found, and none of the values it could be
    confused with (:class:`~compoworld_gym.checks.AnswerContains` ``candidates``).

    The candidates are the planted alternative and stale values, the stale
    policy threshold, every other value of the reported value's entity type
    in the mounted states (the task's states, and ``others``: the
    distractors', as :func:`~compoworld_gym.entity_values.values_by_type`
    groups them) and, for an amount, an email or a date, every other value of
    that shape outside the records the task writes (``skip``), so that an
    answer dumping everything seen fails. Values the task itself uses (``legit``) or that an honest
    summary may repeat (``said``) are never candidates. ``base``: the seeded
    states the chain was planted into.
    """
    slot = spec.report
    # Look-alikes of the same type anywhere in the chain, and the alternative
    # record's own id when the reported value is a record's id.
    wrong = [v for table in (planted.alt_values, planted.stale_values) for s, v in table.items() if s[2] == slot[2]]
    if slot[0] == "hop" and spec.hops[slot[1]].relay.key == slot[2]:
        wrong.append(planted.alt_keys[slot[1]])
    if slot[0] == "hop" and any(g.type == slot[2] and g.field == "id" for g in spec.hops[slot[1]].relay.gives):
        wrong += [k for k in planted.alt_keys if isinstance(k, str)]
    if spec.rule is not None and slot == spec.rule.attr:
        wrong.append(spec.rule.stale_threshold)
    wrong += values_of_type(planted.states, found.type)
    wrong += [v for by_type in others.values() for v in by_type.get(found.type, ())]
    shape = shape_of(found.value)
    if shape is not None:
        wrong += shaped(planted.states, shape, skip, base)
    answer = f"Done. {found.noun[:1].upper()}{found.noun[1:]} was {found.display}."
    right = "\x00".join([*forms(found.value), answer]).casefold()
    return [AnswerContains(id="report", values=forms(found.value), any_of=True,
                           candidates=_candidates(wrong, found, legit, said, right), max_chars=REPORT_MAX_CHARS,
                           description=f"The final answer reports {found.noun}, and no look-alike of it.")], answer


def _candidates(wrong: list[Any], found: Found, legit: set[Any], said: str, right: str) -> list[str]:
    """The written forms of the look-alikes ``wrong`` that the report item
    lists, each once: not the value found or one the task uses (``legit``),
    at least :data:`MIN_EXCLUDED_CHARS` long, and not inside what the task
    says (``said``) or the right answer (``right``, casefolded): a look-alike
    inside it ("39.90" in "4739.90") would fail the right answer. Each form
    is casefolded once and tried on the short ``right`` first (hundreds of
    look-alikes per task)."""
    out: dict[str, None] = {}
    for v in dict.fromkeys(w for w in wrong if w is not None and not isinstance(w, bool)):
        if v == found.value or v in legit:
            continue
        for f in forms(v):
            low = f.casefold()
            if len(f) >= MIN_EXCLUDED_CHARS and low not in right and low not in said:
                out[f] = None
    return list(out)


def _goal(spec: ChainSpec, derived: Derived, k: int) -> str:
    act = spec.actions[k]
    words: dict[str, str] = {}
    needs = {n.param: n for n in act.action.needs}
    for param, slot in act.bind.items():
        f = derived.found[slot]
        words[param] = (f"whichever {needs[param].noun} the policy names" if slot[0] == "rule"
                        else f.who if f.who else f.noun)
    words["mention"] = derived.found[act.mention].noun
    return act.action.goal.format(**words)


def brief(spec: ChainSpec, planted: Planted, derived: Derived, tools: list[str]) -> Brief:
    """The :class:`Brief` of a derived chain (what any designer may say)."""
    first = spec.hops[0].relay
    facts = [h.relay.where for h in spec.hops]
    truths = [h.relay.truth for h in spec.hops if h.stale]
    policy = None
    if spec.rule is not None:
        policy = spec.rule.holder.where.format(topic=spec.rule.topic)
    ordering = []
    if any(w.moves_money for _, w in derived.writes) and len(derived.writes) > 1:
        ordering.append("Money moves last: do every other step of the case first.")
    entry_values = {str(planted.keys[0])}
    forbidden = sorted({f.display for f in derived.found.values() if f.display not in entry_values}
                       | ({f"{spec.rule.threshold:,.2f}"} if spec.rule else set()))
    return Brief(case=spec.case, entry=first.entry(planted.keys[0]),
                 goals=[_goal(spec, derived, k) for k in range(len(spec.actions))], facts=facts, truths=truths,
                 policy=policy, ordering=ordering, report=derived.found[spec.report].noun,
                 forbidden=forbidden, tools=tools)


def _reference(derived: Derived, counts: dict[str, int], services: list[str]) -> list[MetaCall]:
    ref = [MetaCall(name="list_services")]
    ref += [MetaCall(name="list_tools", arguments={"service": s}) for s in services]
    for service, mc in derived.steps:
        name = mc.arguments["tool_name"]
        if counts.get(name, 0) > 1:
            mc = MetaCall(name="call_tool", arguments={**mc.arguments, "tool_name": f"{service}__{name}"})
        ref.append(mc)
    return ref


def _checks(derived: Derived) -> tuple[list[Check], list[Check]]:
    work: list[Check] = []
    for j, (_, write) in enumerate(derived.writes):
        work += [c.model_copy(update={"id": f"w{j}_{k}"}) for k, c in enumerate(write.checks)]
    return work, list(_guards(derived))


def design(spec: ChainSpec, base: dict[str, Any], today: Any, fake: Any, rng: random.Random,
           designer: Designer, tool_counts: dict[str, int], tools: list[str],
           others: Optional[dict[str, Any]] = None) -> Design:
    """Plant, solve, verify counterfactually and assemble one task.

    Args:
        spec: the planned chain; ``base``: its services' seeded states.
        others: ``{distractor: its initial state's values by entity type}``
            (:func:`~compoworld_gym.entity_values.values_by_type`): its values
            of the reported type are answer candidates too.

    Raises:
        DesignError: the chain does not solve (``unsolvable``), some service
            is not needed (``counterfactual``), the instruction leaks a
            value or a tool name (``designer-leak``), or omits the case's
            starting record or the policy's name (``designer-incomplete``).
        compoworld_gym.generation.designer.DesignerError: the designer failed
            (an endpoint that does not answer stops generation).
    """
    planted = materialize(spec, base, today, fake)
    cache = Mounts()
    try:
        derived = solve(spec, planted, today, cache)
    except SolveError as exc:
        raise DesignError(f"unsolvable: {exc}") from None
    reason, verdicts, flipped = counterfactual(spec, base, today, fake, planted, derived, cache)
    if reason:
        raise DesignError(reason)
    b = brief(spec, planted, derived, tools)
    text = designer(b, rng)
    if looks_like_data(text):
        raise DesignError("designer-format: the instruction is a data dump, not prose")
    leaked = leaks(text, b)
    if leaked:
        raise DesignError(f"designer-leak: the instruction states {leaked[:3]}")
    needed = [str(planted.keys[0]), *([spec.rule.topic] if spec.rule else [])]
    missing = [w for w in needed if w.casefold() not in text.casefold()]
    if missing:  # the agent could not find the case's start or the policy
        raise DesignError(f"designer-incomplete: the instruction omits {missing}")
    work, guards = _checks(derived)
    reference = _reference(derived, tool_counts, spec.services)
    said = "\x00".join([text.casefold(), *(str(mc.arguments).casefold() for mc in reference)])
    legit = {f.value for f in derived.found.values()}
    skip = {i for g in guards if isinstance(g, OnlyChanged) for i in g.allow_ids}
    report, answer = _report(spec, planted, derived.found[spec.report], said, legit, skip, others or {}, base)
    checks: list[Check] = [*work, *guards, *report]
    comp = _composition(spec, derived)
    return Design(
        composition=comp, initial_state=planted.states, instruction=text, checks=checks,
        guards=[c.id for c in checks if c.is_guard], reference=reference, reference_answer=answer,
        capabilities=_capabilities(spec, comp), domain=_domain(spec),
        chain=_chain_meta(spec, derived), counterfactual=verdicts, policy=_policy_meta(spec, derived),
        entry=str(planted.keys[0]), case=spec.case, decoys=_decoys(spec, planted, derived, flipped, today, cache),
        # The solver's services, on the initial states and only ever read: verify writes them once.
        mounted={name: svc for name, (_, svc) in cache.services.items()})


def _decoys(spec: ChainSpec, planted: Planted, derived: Derived, flipped: Optional[Derived],
            today: dt.date, cache: Mounts) -> list[Decoy]:
    """The planted look-alikes of values the chain found: stale copies, the
    other person's or case's record, and the rule's branch not taken (each
    write argument that the superseded policy version, ``flipped``, sets
    otherwise: a channel id, an approver's address)."""
    out: list[Decoy] = []
    for kind, table in (("stale", planted.stale_values), ("other-record", planted.alt_values)):
        for slot, value in sorted(table.items(), key=lambda kv: repr(kv[0])):
            found = derived.found.get(slot)
            if found is not None and value is not None and value != found.value:
                implies, unmade = _implied(spec, planted, derived, today, cache, slot, value)
                out.append(Decoy(kind=kind, truth=found.value, decoy=value, what=found.noun, implies=implies,
                                 unmade=unmade))
    if flipped is not None:
        noun = derived.found[("rule",)].noun
        for (_, mine), (_, theirs) in zip(derived.writes, flipped.writes):
            for a, b in zip(mine.calls, theirs.calls):
                out += [Decoy(kind="other-branch", truth=x, decoy=y, what=noun)
                        for x, y in _differing(a.arguments, b.arguments)]
    return list({d.model_dump_json(): d for d in out}.values())


def _implied(spec: ChainSpec, planted: Planted, derived: Derived, today: dt.date, cache: Mounts,
             slot: Any, value: Any) -> tuple[list[tuple[Any, Any]], list[tuple[str, str]]]:
    """What an agent that took ``value`` for ``slot`` would write otherwise:
    ``(implies, unmade)`` for :class:`~compoworld_gym.tasks.Decoy`.

    ``implies`` pairs the write arguments it would set otherwise, beyond the
    value itself: the writes derived again with the chain's reads kept (what
    the attack suite's swap models), less the pairs where the argument is the
    value or quotes it. The agent takes ``value`` for every value the writes
    use that equals the truth (a loan's closing day that is also the launch
    post's publish day). ``unmade`` gives ``(service, tool)`` of the writes it
    could not make at all (a rate lock that already runs past the decoy's day
    cannot be extended to it)."""
    truth = derived.found[slot].value
    given = {s: value for s in consumed_slots(spec)
             if s[0] == "hop" and s in derived.found and derived.found[s].value == truth}
    if not given:
        return [], []
    resume = (derived, len(spec.hops))
    try:
        again = solve(spec, planted, today, cache, resume, given).writes
    except SolveError:
        again = [_rebuilt(dataclasses.replace(spec, actions=[act]), planted, today, cache, resume, given)
                 for act in spec.actions]
    written = {str(truth), *forms(truth)}
    pairs = [(x, y) for (_, mine), theirs in zip(derived.writes, again) if theirs is not None
             for a, b in zip(mine.calls, theirs[1].calls) for x, y in _differing(a.arguments, b.arguments)]
    unmade = [(svc, mc.arguments["tool_name"]) for (svc, mine), theirs in zip(derived.writes, again) if theirs is None
              for mc in mine.calls]
    return (list(dict.fromkeys((x, y) for x, y in pairs
                               if x != truth and not (isinstance(x, str) and any(f in x for f in written)))),
            list(dict.fromkeys(unmade)))


def _rebuilt(spec: ChainSpec, planted: Planted, today: dt.date, cache: Mounts, resume: tuple[Derived, int],
             given: dict[Any, Any]) -> Optional[tuple[str, Any]]:
    """The one write of a one-action ``spec`` derived with ``given``, or None when it cannot be built."""
    try:
        return solve(spec, planted, today, cache, resume, given).writes[0]
    except SolveError:
        return None


def _differing(a: Any, b: Any) -> list[tuple[Any, Any]]:
    """``(a leaf, b leaf)`` pairs of scalar values where two JSON trees differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [p for k in a if k in b for p in _differing(a[k], b[k])]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [p for x, y in zip(a, b) for p in _differing(x, y)]
    leaf = (str, int, float)
    if isinstance(a, leaf) and isinstance(b, leaf) and not isinstance(a, bool) and not isinstance(b, bool) \
            and a != b:
        return [(a, b)]
    return []


def _domain(spec: ChainSpec) -> str:
    """The business domain most of the chain's records belong to (first on ties)."""
    domains = [get_service(h.relay.service).domain for h in spec.hops]
    return max(domains, key=domains.count)


def _capabilities(spec: ChainSpec, comp: Composition) -> list[str]:
    caps = {"sequential-dependency", "cross-env-constraint"}
    if len(spec.hops) >= 2:
        caps.add("chained-lookup")
    if spec.rule is not None:
        caps |= {"rule-in-state", "source-of-truth"}
    if any(h.stale for h in spec.hops):
        caps.add("source-of-truth")
    if any(s.revisit for s in comp.steps):
        caps.add("revisit")
    caps.add("negative-check")
    return sorted(caps)


def _chain_meta(spec: ChainSpec, derived: Derived) -> list[dict[str, Any]]:
    out = []
    for i, hop in enumerate(spec.hops):
        out.append({"service": hop.relay.service, "record": hop.relay.name, "key": hop.relay.key,
                    "from": spec.hops[i - 1].relay.service if i else "instruction"})
    return out


def _policy_meta(spec: ChainSpec, derived: Derived) -> Optional[dict[str, Any]]:
    if spec.rule is None:
        return None
    r = spec.rule
    return {"service": r.holder.service, "topic": r.topic, "input": derived.found[r.attr].noun,
            "threshold": r.threshold, "stale_threshold": r.stale_threshold, "branch": derived.branch,
            "routes": spec.actions[r.action].action.service}


__all__ = ["Design", "DesignError", "Designer", "brief", "design"]
