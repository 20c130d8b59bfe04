"""Follow a case chain on a planted state by real read calls.

:func:`solve` is the design stage's solver: it mounts the task's services on
their planted states, follows the chain (each hop looked up by the key the
previous hop's record gave), reads the policy in force and picks its branch,
and builds each action's write from the values it found. The reads it made
and the writes it built are the task's reference solution; the writes'
checks are the expected end state. Run on a re-planted state it derives the
counterfactual end state (:mod:`.counterfactual`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any, Optional

import orjson

from compoworld_gym.catalog import get_service
from compoworld_gym.generation.chain import ChainSpec, Planted, Slot, own_key
from compoworld_gym.generation.context import call
from compoworld_gym.generation.links import Found, SolveError, Write, give_value
from compoworld_gym.service import Service
from compoworld_gym.tasks import MetaCall

#: Reads the threshold and both destinations back from any policy wording
#: of :data:`compoworld_gym.generation.chain.POLICY_TEMPLATES`.
POLICY_RX = re.compile(
    r"\$(?P<thr>[\d,]+\.\d\d) or more,? (?:the case goes to|are handled by|use) #?(?P<hi>[^\s;]+?)[.;]"
    r" Below \$[\d,]+\.\d\d,? (?:it goes to|they go to|use) #?(?P<lo>[^\s;]+?)\.?$"
    r"|\$(?P<thr2>[\d,]+\.\d\d) or more (?:are handled by|use) #?(?P<hi2>[^\s;]+?); below \$[\d,]+\.\d\d"
    r" (?:they go to|use) #?(?P<lo2>[^\s;]+?)\.?$")


def id_noun(etype: str) -> str:
    """How a record id of type ``etype`` is named: ``order_id`` → "the order id"."""
    return f"the {etype.removesuffix('_id').replace('_', ' ')} id"


class ServiceReader:
    """A :class:`~compoworld_gym.generation.links.Reader` over mounted services.

    Attributes:
        calls: ``[(service, MetaCall)]`` of every read made, in order.
    """

    def __init__(self, services: dict[str, Service], memo: Optional[dict[tuple, Any]] = None) -> None:
        self.services = services
        self.calls: list[tuple[str, MetaCall]] = []
        self._memo = memo

    def read(self, service: str, tool: str, /, **arguments: Any) -> Any:
        """Call a read tool of ``service``; its result ``data`` (``service``
        and ``tool`` are positional, so a tool may take a ``service`` argument).

        Raises:
            SolveError: not a read tool of the service, or the call failed.
        """
        svc = self.services.get(service)
        spec = svc.tools.get(tool) if svc is not None else None
        if spec is None or not spec.read_only:
            raise SolveError(f"{service}.{tool} is not a read tool of a mounted service")
        mc = call(tool, **arguments)
        # The same read on the same (never written) service instance gives the
        # same result: counterfactual re-derivations repeat most reads.
        key = (svc, tool, orjson.dumps(mc.arguments["arguments"], option=orjson.OPT_SORT_KEYS))
        res = self._memo.get(key) if self._memo is not None else None
        if res is None:
            res = svc.call(tool, mc.arguments["arguments"])
            if self._memo is not None:
                self._memo[key] = res
        if not res["success"]:
            raise SolveError(f"{service}.{tool}({arguments}): {res['error']['message']}")
        self.calls.append((service, mc))
        return res["data"]


@dataclass
class Derived:
    """What following the chain found and what the writes must leave.

    Attributes:
        found: ``{slot: Found}`` of every discovered value.
        reads: ``[(service, MetaCall)]`` reads in order, with each write's
            reads just before it.
        writes: ``[(service, Write)]`` per action, in order.
        branch: ``"hi"``/``"lo"`` when a policy decided, else None.
        steps: ``[(service, MetaCall)]`` the reference's real calls in order.
        marks: index into ``steps`` where each hop's reads start, then where
            the hops' reads end (``len(hops) + 1`` entries).
    """

    found: dict[Slot, Found]
    writes: list[tuple[str, Write]]
    steps: list[tuple[str, MetaCall]]
    branch: Optional[str] = None
    marks: list[int] = field(default_factory=list)

    def end_state(self) -> bytes:
        """The expected end state as canonical JSON (every write's checks)."""
        return orjson.dumps([[svc, [c.model_dump(mode="json", exclude={"id", "description"})
                                    for c in w.checks]] for svc, w in self.writes])


@dataclass
class Mounts:
    """Services mounted by the solves of one design, shared by the
    counterfactual re-derivations (which change one service at a time).

    Safe only for callers that never write: the solver reads.

    Attributes:
        services: ``{service: (state JSON, Service)}`` of the first mount,
            reused while a later state is equal to it.
        reads: ``{(Service, tool, arguments as sorted JSON bytes): result envelope}``.
    """

    services: dict[str, tuple[dict[str, Any], Service]] = field(default_factory=dict)
    reads: dict[tuple, Any] = field(default_factory=dict)

    def unchanged(self, service: str, state: dict[str, Any]) -> bool:
        """Whether ``service``'s first mount was on ``state``."""
        hit = self.services.get(service)
        return hit is not None and hit[0] == state


def mount_states(states: dict[str, dict[str, Any]], today: dt.date,
                 cache: Optional[Mounts] = None) -> dict[str, Service]:
    """Services on the given states (JSON dicts are not modified).

    Args:
        states: ``{service: state JSON}``.
        today: the task date.
        cache: earlier mounts, reused where a state is equal to the first
            mount's (a C-level deep compare, cheaper than a re-mount).
    """
    out = {}
    for name, state in states.items():
        hit = cache.services.get(name) if cache is not None else None
        if hit is not None and hit[0] == state:
            out[name] = hit[1]
            continue
        # No defensive copy: validation builds new models and the solver only reads.
        svc = get_service(name)(state, today=today)
        if cache is not None and hit is None:
            cache.services[name] = (state, svc)
        out[name] = svc
    return out


def _hops(spec: ChainSpec, reader: ServiceReader, planted: Planted, found: dict[Slot, Found],
          marks: list[int], start: int = 0) -> None:
    """Follow the hops from ``start`` (earlier hops already in ``found``)."""
    key = planted.keys[0] if start == 0 else found[("hop", start - 1, spec.hops[start].relay.key)].value
    for i, hop in enumerate(spec.hops):
        if i < start:
            continue
        n0 = len(reader.calls)
        marks.append(n0)
        record = hop.relay.find(reader, key)
        if own_key(hop.relay):  # the record's id is a value a write may target
            found[("hop", i, hop.relay.key)] = Found(hop.relay.key, key, id_noun(hop.relay.key), "",
                                                     hop.relay.service)
        for give in hop.relay.gives:
            try:
                value = give_value(record, give)
            except SolveError:
                continue  # a value this record does not carry; only an error if the chain needs it
            if value is not None:
                found[("hop", i, give.type)] = Found(give.type, value, give.noun, give.who, hop.relay.service)
        if i + 1 < len(spec.hops):
            nxt = spec.hops[i + 1].relay.key
            if ("hop", i, nxt) not in found:
                raise SolveError(f"{hop.relay.service} {hop.relay.name} gives no {nxt}")
            key = found[("hop", i, nxt)].value
    marks.append(len(reader.calls))


def _policy(spec: ChainSpec, reader: ServiceReader, found: dict[Slot, Found]) -> str:
    rule = spec.rule
    text = rule.holder.find(reader, rule.topic)
    m = POLICY_RX.search(text)
    if m is None:
        raise SolveError(f"the policy in force does not read as a routing rule: {text[:80]!r}")
    thr = float((m.group("thr") or m.group("thr2")).replace(",", ""))
    hi, lo = (m.group("hi") or m.group("hi2")), (m.group("lo") or m.group("lo2"))
    if rule.attr not in found:
        raise SolveError("the chain found no amount for the policy")
    amount = found[rule.attr].value
    branch = "hi" if amount >= thr else "lo"
    dest = hi if branch == "hi" else lo
    found[("rule",)] = Found(rule.dest_type, dest, f"the destination the '{rule.topic}' policy names",
                             "the team the policy names", rule.holder.service)
    return branch


def solve(spec: ChainSpec, planted: Planted, today: dt.date,
          cache: Optional[Mounts] = None,
          resume: Optional[tuple["Derived", int]] = None, given: Optional[dict[Slot, Any]] = None) -> Derived:
    """Follow ``spec`` on ``planted`` and build its writes.

    Args:
        spec: the chain.
        planted: its planting.
        today: the task date.
        cache: mounted services and their reads (see :class:`Mounts`).
        resume: ``(earlier derivation, hop k)``: take hops before ``k`` from
            the earlier derivation when their services' states are unchanged
            (a counterfactual that changed hop ``k``'s record).
        given: ``{slot: value}`` replacing values the earlier hops found (with
            ``resume``): the derivation as if that record carried another
            value, which is what re-planting it would give, since a relay's
            ``find`` returns exactly what its ``plant`` stored (checked for
            every relay by ``tests/generation/test_links.py``).

    Raises:
        SolveError: a lookup failed, a record lacks a value, or the policy
            cannot be read (the chain is broken on this state).
    """
    reader = ServiceReader(mount_states(planted.states, today, cache), cache.reads if cache is not None else None)
    found: dict[Slot, Found] = {}
    marks: list[int] = []
    start = 0
    if resume is not None and cache is not None and 0 < resume[1] < len(resume[0].marks):
        earlier, k = resume
        if all(cache.unchanged(h.relay.service, planted.states[h.relay.service]) for h in spec.hops[:k]):
            start = k
            reader.calls = list(earlier.steps[:earlier.marks[k]])
            marks = earlier.marks[:k]
            found = {s: f for s, f in earlier.found.items() if s[0] == "hop" and s[1] < k}
            for slot, value in (given or {}).items():
                found[slot] = dataclasses.replace(found[slot], value=value)
    if given and start == 0:
        raise ValueError("given values need a resume point after the hops they replace")
    if start < len(spec.hops):
        _hops(spec, reader, planted, found, marks, start)
    else:
        marks.append(len(reader.calls))
    branch = _policy(spec, reader, found) if spec.rule is not None else None
    case = Found("case", spec.case, "the case reference")
    writes: list[tuple[str, Write]] = []
    steps: list[tuple[str, MetaCall]] = list(reader.calls)
    for act in spec.actions:
        missing = [s for s in [*act.bind.values(), act.mention] if s not in found]
        if missing:
            raise SolveError(f"the chain found no value for {missing[0]}")
        args = {p: found[s] for p, s in act.bind.items()}
        args["case"], args["mention"] = case, found[act.mention]
        n0 = len(reader.calls)
        write = act.action.build(reader, args)
        writes.append((act.action.service, write))
        steps += reader.calls[n0:] + [(act.action.service, mc) for mc in write.calls]
    return Derived(found=found, writes=writes, steps=steps, branch=branch, marks=marks)


__all__ = ["Derived", "Mounts", "POLICY_RX", "ServiceReader", "mount_states", "solve"]
