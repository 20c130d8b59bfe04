"""The case chain: which records a task passes through, and their planting.

A :class:`ChainSpec` is the structure of one task: relays in chain order
(each on its own service, each keyed by a value the previous one gives), an
optional policy whose condition is on a discovered amount, and the actions
that use discovered values. It also holds every value drawn for the case, so
that :func:`materialize` can plant the same world again with one value
changed (the counterfactual check of :mod:`.counterfactual`).

Values are drawn per ``(entity type, who)``: the customer's email on the
ticket, on the order and on the CRM contact is one address, so every record
concerns the same case.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from dataclasses import dataclass, field
from typing import Any, Optional

import orjson

from compoworld_gym.generation.context import Ctx
from compoworld_gym.generation.links import Action, Need, Relay, RuleHolder, ServiceLinks

#: A discovered value's place: ``("hop", index, entity type)`` or ``("rule",)``.
Slot = tuple


@dataclass
class HopSpec:
    """One relay of the chain and the values its record carries.

    Attributes:
        relay: the record kind.
        outs: ``{entity type: value}`` the record gives (the link to the next
            hop among them); keys allocated at planting are filled in then.
        stale: also plant a stale look-alike (``relay.truth`` says which wins).
        alt: plant an alternative record of the same kind, with other values
            (the record a wrong key would lead to).
    """

    relay: Relay
    outs: dict[str, Any] = field(default_factory=dict)
    stale: bool = False
    alt: bool = True


@dataclass
class RuleSpec:
    """A policy that routes one action by a discovered amount.

    Attributes:
        holder: where the policy lives.
        topic: the policy's name, given in the house rules.
        attr: slot of the amount the condition reads.
        threshold: at or above it, the first destination applies.
        stale_threshold: the superseded version's threshold (other branch).
        dests: ``(at or above, below)`` destination values.
        dest_type: entity type of the destinations.
        action: index of the routed action.
        template: which policy wording.
        attr_noun: how the policy names the amount ("the order total").
    """

    holder: RuleHolder
    topic: str
    attr: Slot
    threshold: float
    stale_threshold: float
    dests: tuple[Any, Any]
    dest_type: str
    action: int
    template: int
    attr_noun: str = "the amount"


@dataclass
class ActionSpec:
    """An action and where each of its values comes from."""

    action: Action
    bind: dict[str, Slot]
    mention: Slot


@dataclass
class ChainSpec:
    """The structure and drawn values of one chained task.

    Attributes:
        seed_key: seeds the planting context (same key, same world).
        hops: the chain, entry first.
        rule: the policy, if any.
        actions: the writes.
        report: slot of the value the final answer reports.
        case: the case reference every write quotes, e.g. ``"case KQ-4821"``.
        links: ``{service: ServiceLinks}`` of the task's services.
    """

    seed_key: str
    hops: list[HopSpec]
    rule: Optional[RuleSpec]
    actions: list[ActionSpec]
    report: Slot
    case: str
    links: dict[str, ServiceLinks]
    keys: list[Any] = field(default_factory=list)
    entry_key: Any = None

    @property
    def services(self) -> list[str]:
        """The task's services in first-use order (chain, policy, writes)."""
        out: list[str] = []
        for name in ([h.relay.service for h in self.hops] + ([self.rule.holder.service] if self.rule else [])
                     + [a.action.service for a in self.actions]):
            if name not in out:
                out.append(name)
        return out


@dataclass
class Planted:
    """What :func:`materialize` planted: states and record ids.

    Attributes:
        states: ``{service: state JSON}`` of the task's services.
        keys: the lookup key of each hop (the entry key first).
        rids: the record id of each hop's record.
        alt_keys: each hop's alternative record key (None where none).
        stale_values: ``{slot: value}`` the stale look-alikes carry.
        alt_values: ``{slot: value}`` the alternative records carry.
        policy_start: where planting stood just before the policy (with a
            policy): :func:`replant_policy` plants the rest again from it.
    """

    states: dict[str, dict[str, Any]]
    keys: list[Any]
    rids: list[str]
    alt_keys: list[Any]
    stale_values: dict[Slot, Any] = field(default_factory=dict)
    alt_values: dict[Slot, Any] = field(default_factory=dict)
    policy_start: Optional["PolicyStart"] = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class PolicyStart:
    """Planting as it stood just before the policy was planted: everything
    the rest of the planting reads, so that it can run again from here.

    Attributes:
        states: ``{service: state JSON bytes}`` at that point.
        rng: the planting random source's state (``random.Random.getstate()``).
        ctx: the context's other attributes (the case, codes drawn so far,
            what planters keep on it), deep copies.
    """

    states: dict[str, bytes]
    rng: Any
    ctx: dict[str, Any]


#: Context attributes a :class:`PolicyStart` does not copy: the states and
#: the random source are saved apart, the Faker and the date are the caller's.
_CTX_OWN = frozenset({"states", "rng", "fake", "today"})


def _policy_start(ctx: Ctx) -> PolicyStart:
    return PolicyStart(states={name: orjson.dumps(state) for name, state in ctx.states.items()},
                       rng=ctx.rng.getstate(),
                       ctx=copy.deepcopy({k: v for k, v in vars(ctx).items() if k not in _CTX_OWN}))


def _other(ctx: Ctx, etype: str, value: Any) -> Any:
    """A fresh value of ``etype`` different from ``value``."""
    for _ in range(20):
        new = ctx.fresh(etype)
        if new != value:
            return new
    raise ValueError(f"cannot draw a second {etype} value")


def materialize(spec: ChainSpec, base: dict[str, dict[str, Any]], today: Any, fake: Any,
                overrides: Optional[dict[Any, Any]] = None) -> Planted:
    """Plant the chain into copies of ``base`` states.

    Args:
        spec: the chain.
        base: ``{service: seeded state}`` as JSON dicts or JSON bytes; not modified.
        today: the task date.
        fake: a Faker, handed to planters as ``ctx.fake`` (planters draw from
            ``ctx.rng``, which is seeded from ``spec.seed_key``).
        overrides: ``{slot: value}`` replacing values the records carry, or
            ``{"threshold": float}`` replacing the policy's threshold (the
            counterfactual re-plantings).

    Returns:
        A :class:`Planted` world; the same spec and overrides give the same bytes.
    """
    overrides = overrides or {}
    states = {name: orjson.loads(state if isinstance(state, bytes) else orjson.dumps(state))
              for name, state in base.items()}
    rng = random.Random(spec.seed_key)
    ctx = Ctx(rng, fake, today, states)
    ctx._case = spec.case
    _skip_ids(states, rng)
    keys = _alloc_keys(spec, ctx)
    alt_keys = [None if key is None else h.relay.alloc(ctx) if h.relay.alloc and not own_link(spec, i - 1)
                else _other(ctx, h.relay.key, key) for i, (h, key) in enumerate(zip(spec.hops, keys))]
    planted = Planted(states=states, keys=keys, rids=[], alt_keys=alt_keys)
    for i, hop in enumerate(spec.hops):
        link = spec.hops[i + 1].relay.key if i + 1 < len(spec.hops) else None
        outs = dict(hop.outs)
        if link is not None and keys[i + 1] is not None:
            outs[link] = keys[i + 1]
        for etype in outs:
            if ("hop", i, etype) in overrides:
                outs[etype] = overrides[("hop", i, etype)]
        stale = {t: _other(ctx, t, v) if not _is_id(t) else v for t, v in outs.items()} if hop.stale else None
        # The look-alike comes first or second at random: ids must not tell which record wins.
        stale_first = stale is not None and rng.random() < 0.5
        if stale_first:
            hop.relay.plant(ctx, keys[i], stale, True)
        rid = hop.relay.plant(ctx, keys[i], outs, False)
        planted.rids.append(rid)
        if link is not None and keys[i + 1] is None:  # the next record is found by this record's own id
            keys[i + 1] = rid
        if stale is not None:
            planted.stale_values.update({("hop", i, t): v for t, v in stale.items() if v != outs[t]})
            if not stale_first:
                hop.relay.plant(ctx, keys[i], stale, True)
        if hop.alt:
            alt = {t: alt_keys[i + 1] if t == link else v if _is_id(t) else _other(ctx, t, v)
                   for t, v in outs.items() if t != link or alt_keys[i + 1] is not None}
            planted.alt_values.update({("hop", i, t): v for t, v in alt.items() if v != outs.get(t)})
            alt_rid = hop.relay.plant(ctx, alt_keys[i] if alt_keys[i] is not None else _other(ctx, hop.relay.key,
                                                                                              keys[i]), alt, False)
            if link is not None and alt_keys[i + 1] is None:
                alt_keys[i + 1] = alt_rid
    if spec.rule is not None:
        planted.policy_start = _policy_start(ctx)
    _plant_rest(spec, ctx, planted, overrides.get("threshold"))
    return planted


def _plant_rest(spec: ChainSpec, ctx: Ctx, planted: Planted, threshold: Optional[float]) -> None:
    """What comes after the chain's records: the policy (at ``threshold``,
    None for its own) and the actions' preparations."""
    if spec.rule is not None:
        _plant_rule(spec.rule, ctx, spec.rule.threshold if threshold is None else threshold)
    for act in spec.actions:
        if act.action.prepare is not None:
            act.action.prepare(ctx, {p: _slot_value(spec, planted, s) for p, s in act.bind.items()})


def replant_policy(spec: ChainSpec, planted: Planted, today: Any, fake: Any, threshold: float) -> Planted:
    """``materialize(spec, base, today, fake, {"threshold": threshold})``,
    planted again only from the policy on.

    The chain's records are planted before the policy and do not depend on
    its threshold, so planting resumes from ``planted.policy_start``: the
    same states, random state and context, hence the same bytes as planting
    everything again (planters draw from ``ctx.rng``, never from ``fake``,
    and keep only values on the context). ``planted``'s own overrides, if
    any, stay as they were.

    Raises:
        ValueError: ``spec`` has no policy.
    """
    start = planted.policy_start
    if spec.rule is None or start is None:
        raise ValueError("the chain has no policy to plant again")
    rng = random.Random()
    rng.setstate(start.rng)
    states = {name: orjson.loads(blob) for name, blob in start.states.items()}
    ctx = Ctx(rng, fake, today, states)
    vars(ctx).update(copy.deepcopy(start.ctx))
    again = dataclasses.replace(planted, states=states, policy_start=None)
    _plant_rest(spec, ctx, again, threshold)
    return again


def _is_id(etype: str) -> bool:
    return etype.endswith("_id")


def own_key(relay: Relay) -> bool:
    """Whether ``relay`` is keyed by its record's own id (it allocates it)."""
    return relay.alloc is not None and relay.key.endswith("_id") and relay.give(relay.key) is None


def own_link(spec: ChainSpec, i: int) -> bool:
    """Whether hop ``i`` leads to hop ``i + 1`` by its own record id (a
    ticket id that a feedback record is filed under): the next key is then
    known only once hop ``i``'s record is planted."""
    if i < 0 or i + 1 >= len(spec.hops):
        return False
    give = spec.hops[i].relay.give(spec.hops[i + 1].relay.key)
    return give is not None and give.field == "id"


def _alloc_keys(spec: ChainSpec, ctx: Ctx) -> list[Any]:
    """Every hop's key, allocated before planting (None: known after the
    previous hop is planted, see :func:`own_link`)."""
    keys: list[Any] = []
    seen: dict[str, Any] = {}  # one case, one order: an id type met again is the same record
    for i, hop in enumerate(spec.hops):
        if own_link(spec, i - 1):
            keys.append(None)
        elif hop.relay.alloc is not None and hop.relay.key in seen:
            keys.append(seen[hop.relay.key])
        elif hop.relay.alloc is not None:
            keys.append(hop.relay.alloc(ctx))
        elif i == 0:
            keys.append(spec.entry_key)
        else:
            keys.append(spec.hops[i - 1].outs[hop.relay.key])
        if keys[-1] is not None and hop.relay.key.endswith("_id"):
            seen.setdefault(hop.relay.key, keys[-1])
    return keys


def _slot_value(spec: ChainSpec, planted: Planted, slot: Slot) -> Any:
    if slot[0] == "rule":
        return spec.rule.dests if spec.rule else None
    i, etype = slot[1], slot[2]
    if etype == spec.hops[i].relay.key and own_key(spec.hops[i].relay):
        return planted.keys[i]
    if i + 1 < len(spec.hops) and etype == spec.hops[i + 1].relay.key:
        return planted.keys[i + 1]
    if etype in spec.hops[i].outs:
        return spec.hops[i].outs[etype]
    return planted.rids[i]  # the record's own id


# ------------------------------------------------------------------ policies
#: Policy wordings. Each states the threshold and both destinations; the
#: solver reads them back with :data:`POLICY_RX`.
POLICY_TEMPLATES = (
    "{title}. When {attr} is ${thr} or more, the case goes to {hi}. Below ${thr}, it goes to {lo}.",
    "{title}. Cases where {attr} is ${thr} or more are handled by {hi}; below ${thr} they go to {lo}.",
    "{title}. Route by {attr}: at ${thr} or more use {hi}; below ${thr} use {lo}.",
)


def policy_text(rule: RuleSpec, threshold: float, attr_noun: str) -> str:
    """The policy's text for ``threshold``."""
    thr = f"{threshold:,.2f}"
    hi, lo = (str(d) for d in rule.dests)
    if rule.dest_type == "channel_name":
        hi, lo = f"#{hi}", f"#{lo}"
    return POLICY_TEMPLATES[rule.template].format(title=rule.topic, attr=attr_noun, thr=thr, hi=hi, lo=lo)


def _plant_rule(rule: RuleSpec, ctx: Ctx, threshold: float) -> None:
    """The policy in force and its superseded version, in random order (the
    holder's dates and status say which is in force, never the ids)."""
    stale = (ctx, rule.topic, policy_text(rule, rule.stale_threshold, rule.attr_noun), True)
    live = (ctx, rule.topic, policy_text(rule, threshold, rule.attr_noun), False)
    for args in ((stale, live) if ctx.rng.random() < 0.5 else (live, stale)):
        rule.holder.plant(*args)


#: Most ids skipped per counter before planting: the case's records must not
#: always get the same ids (an agent could learn "EXP-0011 is the one").
MAX_ID_SKIP = 24


def _skip_ids(states: dict[str, dict[str, Any]], rng: random.Random) -> None:
    """Advance every id counter by a random gap (ids stay unique and ordered)."""
    for name in sorted(states):
        counters = states[name].get("counters")
        if isinstance(counters, dict):
            for key in sorted(counters):
                if isinstance(counters[key], int):
                    counters[key] += rng.randrange(MAX_ID_SKIP + 1)


__all__ = ["ActionSpec", "ChainSpec", "HopSpec", "Need", "POLICY_TEMPLATES", "Planted", "PolicyStart", "RuleSpec",
           "Slot", "materialize", "own_key", "own_link", "policy_text", "replant_policy"]
