"""Stage 2a, *plan*: a random walk over relays picks the case chain.

The walk runs over the service dependency graph at the level of record
kinds: from relay ``R`` it may step to any relay ``R'`` on another service
whose key type ``R`` gives (an order gives the customer's email; the CRM
finds a contact by email). Then a policy may be attached (its condition on
an amount the chain found, its branches choosing where one action goes), and
actions are bound to discovered values, preferring the chain's last records
so that every hop's answer is used.
"""

from __future__ import annotations

import random
from typing import Any, Optional

from compoworld_gym.generation.chain import ActionSpec, ChainSpec, HopSpec, RuleSpec, Slot
from compoworld_gym.generation.context import Ctx
from compoworld_gym.generation.links import Action, Relay, ServiceLinks

#: Policy names: a kind of routing plus what it routes by.
RULE_KINDS = ("Escalation routing", "Approval routing", "Case routing", "Review routing", "Handling thresholds")


#: Entity types a message may quote to prove the case was read (amounts, ids, dates).
MENTIONABLE = frozenset({"money", "order_id", "tracking_number", "ticket_id", "invoice_id", "date", "sku",
                         "payment_id", "shipment_id", "contract_id", "employee_id", "phone", "datetime"})


class PlanError(ValueError):
    """No chain could be planned from this start (the walk got stuck, or no
    action can use what the chain found)."""


def relays(links: dict[str, ServiceLinks]) -> list[Relay]:
    """Every relay of the library, in service order."""
    return [r for name in sorted(links) for r in links[name].relays]


def successors(relay: Relay, pool: list[Relay], used: set[str]) -> list[Relay]:
    """Relays on unused services whose key ``relay`` gives."""
    gives = {g.type for g in relay.gives}
    return [r for r in pool if r.key in gives and r.service not in used and r.service != relay.service]


def walk(rng: random.Random, links: dict[str, ServiceLinks], length: int) -> list[Relay]:
    """A chain of ``length`` relays (fewer if the walk gets stuck, at least 2).

    Raises:
        PlanError: the walk could not make two hops.
    """
    pool = relays(links)
    starts = [r for r in pool if r.entry is not None and successors(r, pool, {r.service})]
    if not starts:
        raise PlanError("no relay can start a chain")
    chain = [rng.choice(starts)]
    used = {chain[0].service}
    while len(chain) < length:
        options = successors(chain[-1], pool, used)
        if not options:
            break
        chain.append(rng.choice(options))
        used.add(chain[-1].service)
    if len(chain) < 2:
        raise PlanError("walk-stuck")
    return chain


class _Values:
    """The case's values, one per ``(entity type, who)``: the customer's email is
    one address on every record."""

    def __init__(self, ctx: Ctx) -> None:
        self.ctx, self.cache = ctx, {}

    def get(self, etype: str, who: str, draw: Any = None) -> Any:
        key = (etype, who)
        if key not in self.cache:
            self.cache[key] = draw(self.ctx) if draw is not None else self.ctx.fresh(etype)
        return self.cache[key]


def _hops(chain: list[Relay], values: _Values, rng: random.Random, p_stale: float) -> tuple[list[HopSpec], Any]:
    hops = []
    for i, relay in enumerate(chain):
        nxt = chain[i + 1] if i + 1 < len(chain) else None
        outs = {}
        for give in relay.gives:
            if nxt is not None and give.type == nxt.key and nxt.alloc is not None:
                continue  # the next record's own id, allocated when planted
            if give.type.endswith("_id"):
                continue  # ids are allocated where they are planted
            outs[give.type] = values.get(give.type, give.who, give.draw)
        hops.append(HopSpec(relay=relay, outs=outs, stale=bool(relay.truth) and rng.random() < p_stale))
    first = chain[0]
    entry_key = None if first.alloc else values.get(first.key, "the customer")
    return hops, entry_key


def _slots(hops: list[HopSpec]) -> list[tuple[Slot, str, str]]:
    """``[(slot, entity type, who)]`` of every discovered value, latest hop first."""
    out = []
    for i in reversed(range(len(hops))):
        nxt = hops[i + 1].relay if i + 1 < len(hops) else None
        for give in hops[i].relay.gives:
            linked = nxt is not None and nxt.key == give.type
            if give.type in hops[i].outs or linked or give.field == "id":
                out.append((("hop", i, give.type), give.type, give.who))
    return out


def _bindable(action: Action, slots: list[tuple[Slot, str, str]], routed: bool) -> Optional[dict[str, Slot]]:
    bind: dict[str, Slot] = {}
    for k, need in enumerate(action.needs):
        if routed and k == 0:
            bind[need.param] = ("rule",)
            continue
        slot = next((s for s, t, w in slots if t == need.type and s not in bind.values()
                     and (not need.who or w in need.who)), None)
        if slot is None:
            return None
        bind[need.param] = slot
    return bind


def _mention(slots: list[tuple[Slot, str, str]], bind: dict[str, Slot], rng: random.Random) -> Slot:
    """A discovered value the write must quote: an amount or an id, not one it binds."""
    good = [s for s, t, _ in slots if s not in bind.values() and t in MENTIONABLE]
    pool = good or [s for s, _, _ in slots if s not in bind.values()] or [s for s, _, _ in slots]
    return pool[0] if rng.random() < 0.6 else rng.choice(pool)


def plan(rng: random.Random, ctx: Ctx, links: dict[str, ServiceLinks], *, length: int, p_rule: float,
         p_stale: float, max_actions: int, seed_key: str) -> ChainSpec:
    """Plan one chained task.

    Args:
        rng: the task's random source (structure choices).
        ctx: a design context for drawing the case's values.
        links: ``{service: ServiceLinks}`` of the library.
        length: wanted number of relays (2-5).
        p_rule: chance of a policy when the chain found an amount.
        p_stale: chance that a relay with a ``truth`` rule plants a stale look-alike.
        max_actions: most writes besides the routed one.
        seed_key: seeds the planting.

    Raises:
        PlanError: no chain or no usable action.
    """
    chain = walk(rng, links, length)
    values = _Values(ctx)
    hops, entry_key = _hops(chain, values, rng, p_stale)
    slots = _slots(hops)
    used = {r.service for r in chain}
    actions: list[ActionSpec] = []
    rule = _rule(rng, ctx, links, hops, slots, used, actions) if rng.random() < p_rule else None
    last = len(hops) - 1
    options = [(a, b) for name in sorted(links) for a in links[name].actions
               if (b := _bindable(a, slots, False)) is not None]
    rng.shuffle(options)
    # Writes that use the last record's values first: every hop's answer must matter.
    options.sort(key=lambda ab: -max(s[1] for s in ab[1].values() if s[0] == "hop"))
    for action, bind in options:
        if len(actions) >= max_actions + (rule is not None):
            break
        if any(a.action.service == action.service for a in actions):
            continue
        uses_last = any(s[0] == "hop" and s[1] == last for s in bind.values())
        if not actions and rule is None and not uses_last:
            continue
        actions.append(ActionSpec(action=action, bind=bind, mention=_mention(slots, bind, rng)))
    if not actions:
        raise PlanError("no-action: nothing can use what the chain finds")
    report = rule.attr if rule is not None else _mention(slots, {}, rng)
    return ChainSpec(seed_key=seed_key, hops=hops, rule=rule, actions=actions, report=report,
                     case=ctx.case(), links=links, entry_key=entry_key)


def _rule(rng: random.Random, ctx: Ctx, links: dict[str, ServiceLinks], hops: list[HopSpec],
          slots: list[tuple[Slot, str, str]], used: set[str], actions: list[ActionSpec]) -> Optional[RuleSpec]:
    """A policy routing one action by an amount the chain found (the routed
    action is appended to ``actions``)."""
    money = [s for s, t, _ in slots if t == "money"]
    holders = [h for name in sorted(links) if name not in used for h in links[name].rules]
    routable = [(a, links[a.service].route_values[a.needs[0].type]) for name in sorted(links)
                for a in links[name].actions if a.routable and a.needs[0].type in links[name].route_values]
    routable = [(a, rv) for a, rv in routable if _bindable(a, slots, True) is not None]
    if not (money and holders and routable):
        return None
    holder = rng.choice(holders)
    action, route = rng.choice([(a, rv) for a, rv in routable if a.service != holder.service] or routable)
    attr = money[0] if rng.random() < 0.7 else rng.choice(money)
    amount = hops[attr[1]].outs["money"]
    hi = rng.random() < 0.5
    threshold = _round(amount * (rng.uniform(0.55, 0.9) if hi else rng.uniform(1.15, 1.8)))
    stale = _round(amount * (rng.uniform(1.2, 1.8) if hi else rng.uniform(0.5, 0.85)))
    dests = route(ctx)
    bind = _bindable(action, slots, True)
    actions.append(ActionSpec(action=action, bind=bind, mention=attr))
    noun = hops[attr[1]].relay.give("money").noun
    topic = f"{rng.choice(RULE_KINDS)} by {noun.removeprefix('the ')}"
    return RuleSpec(holder=holder, topic=topic, attr=attr, threshold=threshold, stale_threshold=stale, dests=dests,
                    dest_type=action.needs[0].type, action=len(actions) - 1, template=rng.randrange(3),
                    attr_noun=noun)


def _round(x: float) -> float:
    return float(max(10, round(x / 10) * 10))


__all__ = ["PlanError", "RULE_KINDS", "plan", "relays", "successors", "walk"]
