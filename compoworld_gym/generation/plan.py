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

import functools
import random
from typing import Any, Optional

from compoworld_gym.generation.chain import ActionSpec, ChainSpec, HopSpec, RuleSpec, Slot, own_key
from compoworld_gym.generation.context import Ctx
from compoworld_gym.generation.effects import undoes
from compoworld_gym.generation.links import NEVER_STAFF, PERSON_KEYS, Action, Give, Relay, ServiceLinks, role_of

#: Policy names: a kind of routing plus what it routes by.
RULE_KINDS = ("Escalation routing", "Approval routing", "Case routing", "Review routing", "Handling thresholds")


#: Entity types a message may quote to prove the case was read: amounts,
#: dates, parcels, SKUs, and every record id (any type ending in ``_id``).
MENTIONABLE = frozenset({"money", "tracking_number", "date", "datetime", "sku"})


def mentionable(etype: str) -> bool:
    """Whether a write may quote a value of ``etype`` (see :data:`MENTIONABLE`)."""
    return etype in MENTIONABLE or etype.endswith("_id")


#: Business families of service domains: a walk prefers the next service in
#: the same domain (weight 6) or a family it shares (3) over an unrelated one
#: (0.3), so that most chains read as one line of business.
FAMILIES: dict[str, frozenset[str]] = {
    d: frozenset(f) for d, f in {
        "support": {"customer"}, "sales": {"customer"}, "commerce": {"customer"}, "logistics": {"customer"},
        "marketing": {"customer"}, "social": {"customer"}, "operations": {"customer", "workforce"},
        "location": {"customer", "travel"}, "finance": {"customer", "workforce"}, "hr": {"workforce"},
        "workplace": {"workforce"}, "travel": {"travel", "workforce"}, "engineering": {"engineering"},
        "data": {"customer", "engineering"}, "knowledge": {"customer", "engineering", "workforce"},
        "communication": {"customer", "engineering", "workforce", "travel"},
        "productivity": {"customer", "engineering", "workforce", "travel"},
        "legal": {"customer", "workforce"}, "healthcare": {"customer"}, "education": {"customer", "workforce"},
        "real_estate": {"customer"}, "events": {"customer", "workforce"}, "manufacturing": {"customer"},
        "government": {"customer"}, "devops": {"engineering"}, "developer_tools": {"engineering"},
        "media": {"customer"},
    }.items()}


def affinity(a: str, b: str) -> float:
    """How well service domains ``a`` and ``b`` belong to one case (6, 3 or 0.3)."""
    if a == b:
        return 6.0
    return 3.0 if FAMILIES.get(a, frozenset()) & FAMILIES.get(b, frozenset()) else 0.3


@functools.lru_cache(maxsize=None)
def _domain(service: str) -> str:
    from compoworld_gym.catalog import get_service

    return get_service(service).domain


def _weight(service: str, visited: list[str]) -> float:
    return max(affinity(_domain(service), _domain(v)) for v in visited)


#: Relative weight of a record that leads nowhere when the walk still wants
#: more hops (a pay summary gives only an amount): rarely a chain's middle.
DEAD_END_WEIGHT = 0.1


class PlanError(ValueError):
    """No chain could be planned from this start (the walk got stuck, or no
    action can use what the chain found)."""


def relays(links: dict[str, ServiceLinks]) -> list[Relay]:
    """Every relay of the library, in service order."""
    return [r for name in sorted(links) for r in links[name].relays]


def linkable(relay: Relay, nxt: Relay) -> bool:
    """Whether ``relay``'s record can lead to ``nxt``'s: it gives ``nxt``'s key
    type, and an id-typed key is either ``relay``'s own record id or one
    ``nxt`` can allocate (an id merely quoted in text cannot be drawn)."""
    give = relay.give(nxt.key)
    if give is None or nxt.service == relay.service:
        return False
    if give.party and nxt.key_party and give.party != nxt.key_party:
        return False  # a supplier's name finds no customer's court case, a client's no vendor payment
    if nxt.key_who and give.who not in nxt.key_who:
        return False  # the on-call engineer maintains no academy study deck
    role = role_of(give.who)
    if role == "external" and nxt.key in PERSON_KEYS:
        if _domain(relay.service) != _domain(nxt.service):
            return False  # the prescriber is not the company's employee: no expense report, no Azure access
        if give.who not in NEVER_STAFF:
            role = "staff"  # within its own domain a prescriber is the clinic's staff
    if nxt.key in PERSON_KEYS and nxt.key_role != "any" and role not in (None, nxt.key_role):
        return False  # the account owner's email does not find the customer's orders
    return not nxt.key.endswith("_id") or give.field == "id" or nxt.alloc is not None


class RelayGraph:
    """Which relay can lead to which, computed once per library.

    Attributes:
        relays: every relay, in service order.
        nexts: ``{relay index: [indices of relays it can lead to]}``.
        starts: indices of relays a chain can start from.
        owned: ``{service: its own id types}`` (see :func:`own_id_types`).
    """

    def __init__(self, links: dict[str, ServiceLinks]) -> None:
        self.relays = relays(links)
        self.owned = {name: frozenset(own_id_types(sl)) for name, sl in links.items()}
        self.nexts = {i: [j for j, b in enumerate(self.relays) if linkable(a, b)] for i, a in enumerate(self.relays)}
        self.starts = [i for i, r in enumerate(self.relays) if r.entry is not None and self.nexts[i]
                       and (r.alloc is not None or not r.key.endswith("_id"))]
        self.index = {id(r): i for i, r in enumerate(self.relays)}

    def successors(self, relay: Relay, used: set[str]) -> list[Relay]:
        """Relays on services not in ``used`` that ``relay`` can lead to."""
        return [self.relays[j] for j in self.nexts[self.index[id(relay)]] if self.relays[j].service not in used]


def walk(rng: random.Random, links: dict[str, ServiceLinks], length: int,
         graph: Optional[RelayGraph] = None) -> list[Relay]:
    """A chain of ``length`` relays (fewer if the walk gets stuck, at least 2).

    Args:
        rng: the random source.
        links: the library.
        length: wanted number of relays.
        graph: the library's :class:`RelayGraph` (built when None).
        max_services: most distinct services the task may use (the walk,
            the policy and the writes keep within it).

    Raises:
        PlanError: the walk could not make two hops.
    """
    graph = graph or RelayGraph(links)
    if not graph.starts:
        raise PlanError("no relay can start a chain")
    chain = [graph.relays[rng.choice(graph.starts)]]
    used = {chain[0].service}
    # (type, who) pairs the agent knows before the last hop: values are drawn
    # per pair, so a next key among them could be looked up without the last
    # hop, and the chain would be shorter than it looks.
    known = set() if chain[0].alloc else {(chain[0].key, "the customer")}
    while len(chain) < length:
        last = chain[-1]
        options = [r for r in graph.successors(last, used)
                   if r.key.endswith("_id") or (r.key, _who(last.give(r.key))) not in known]
        if not options:
            break
        visited = [r.service for r in chain]
        more = len(chain) + 1 < length  # the chosen record must lead on: look one hop ahead
        weights = [_weight(r.service, visited) * (1.0 if not more or graph.successors(r, used | {r.service})
                                                  else DEAD_END_WEIGHT) for r in options]
        chain.append(rng.choices(options, weights=weights)[0])
        used.add(chain[-1].service)
        known |= {(g.type, _who(g)) for g in last.gives}
    if len(chain) < 2:
        raise PlanError("walk-stuck")
    return chain


def _who(give: Give) -> str:
    """Whose value a give is, for drawing it once per case: its person, else its
    company's side (the supplier is not the customer account)."""
    return give.who or (f"the {give.party}" if give.party else "")


class _Values:
    """The case's values, one per ``(entity type, who)``: the customer's email is
    one address on every record."""

    def __init__(self, ctx: Ctx) -> None:
        self.ctx, self.cache = ctx, {}

    def get(self, etype: str, who: str, draw: Any = None) -> Any:
        key = (etype, who)
        if key not in self.cache:
            if draw is None and etype in ("email", "person_name"):
                # One person: the name and the address belong together.
                name, email = self.ctx.person()
                self.cache.setdefault(("person_name", who), name)
                self.cache.setdefault(("email", who), email)
            else:
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
            outs[give.type] = values.get(give.type, _who(give), give.draw)
        hops.append(HopSpec(relay=relay, outs=outs, stale=bool(relay.truth) and rng.random() < p_stale))
    first = chain[0]
    entry_key = None if first.alloc else values.get(first.key, "the customer")
    return hops, entry_key


def _slots(hops: list[HopSpec]) -> list[tuple[Slot, str, str]]:
    """``[(slot, entity type, who)]`` of every discovered value, latest hop first."""
    out = []
    for i in reversed(range(len(hops))):
        if own_key(hops[i].relay):  # the record found by its id: a write may target it
            out.append((("hop", i, hops[i].relay.key), hops[i].relay.key, "entry" if i == 0 else ""))
        nxt = hops[i + 1].relay if i + 1 < len(hops) else None
        for give in hops[i].relay.gives:
            linked = nxt is not None and nxt.key == give.type
            if give.type in hops[i].outs or linked or give.field == "id":
                out.append((("hop", i, give.type), give.type, give.who))
    return out


def own_id_types(links: ServiceLinks) -> set[str]:
    """The id types of a service's own records (what its relays are keyed by
    with an allocator, or give as their record id)."""
    out = {r.key for r in links.relays if r.alloc is not None and r.key.endswith("_id")}
    return out | {g.type for r in links.relays for g in r.gives if g.field == "id"}


def _bindable(action: Action, slots: list[tuple[Slot, str, str]], routed: bool,
              hops: Optional[list[HopSpec]] = None, own: frozenset[str] = frozenset()
              ) -> Optional[dict[str, Slot]]:
    """Slots for each of ``action``'s needs, or None. A need of one of the
    service's own id types (``own``) takes only a record the chain found in
    that very service: a write cannot target an order the order system never had."""
    bind: dict[str, Slot] = {}
    for k, need in enumerate(action.needs):
        if routed and k == 0:
            bind[need.param] = ("rule",)
            continue
        slot = next((s for s, t, w in slots if t == need.type and s not in bind.values()
                     and (not need.who or w in need.who)
                     and (hops is None or s[0] != "hop" or _related(hops[s[1]].relay.service, action.service))
                     and (need.type not in own or hops is None or hops[s[1]].relay.service == action.service)),
                    None)
        if slot is None:
            return None
        bind[need.param] = slot
    if not _on_same_record(action, bind, slots):
        return None
    return _same_record_money(action, bind, slots, own)


def _on_same_record(action: Action, bind: dict[str, Slot], slots: list[tuple[Slot, str, str]]) -> bool:
    """Move each need with ``same_record_as`` onto the hop that gave the other
    need's value (mutates ``bind``); False when that hop gives no such value."""
    for need in action.needs:
        other = bind.get(need.same_record_as) if need.same_record_as else None
        if other is None or other[0] != "hop" or bind[need.param][0] != "hop":
            continue
        same = ("hop", other[1], need.type)
        if not any(s == same for s, _, _ in slots):
            return False
        bind[need.param] = same
    return True


@functools.lru_cache(maxsize=None)
def _related(a: str, b: str) -> bool:
    """Whether a value read in service ``a`` may be written to ``b``: same
    domain or a shared family (a customer's refund form never asks for an
    employee's pay). Cached: a fact of the catalog, asked for every action of
    every plan."""
    return a == b or affinity(_domain(a), _domain(b)) > 1.0


def _same_record_money(action: Action, bind: dict[str, Slot], slots: list[tuple[Slot, str, str]],
                       own: frozenset[str]) -> Optional[dict[str, Slot]]:
    """An amount written onto one of the service's own records is that
    record's amount (refund the order's total, not the purchase order's)."""
    target = next((s for p, s in bind.items() if s[0] == "hop" and s[2] in own), None)
    if target is None:
        return bind
    for need in action.needs:
        if need.type == "money" and bind.get(need.param, ("rule",))[0] == "hop":
            same = ("hop", target[1], "money")
            if not any(s == same for s, _, _ in slots):
                return None
            bind[need.param] = same
    return bind


def _mention(slots: list[tuple[Slot, str, str]], bind: dict[str, Slot], rng: random.Random, entry: str,
             hops: Optional[list[HopSpec]] = None, service: str = "") -> Slot:
    """A discovered value the write must quote: an amount or an id, not one it
    binds, read in a service related to the written one where possible."""
    # The entry record's id is in the instruction: quoting it proves nothing, also
    # where the first record gives its own key as a field (an expense report's id).
    slots = [x for x in slots if x[2] != "entry" and x[0] != ("hop", 0, entry)]
    if hops is not None and service:
        slots = [x for x in slots if _related(hops[x[0][1]].relay.service, service)] or slots
    good = [s for s, t, _ in slots if s not in bind.values() and mentionable(t)]
    pool = good or [s for s, _, _ in slots if s not in bind.values()] or [s for s, _, _ in slots]
    return pool[0] if rng.random() < 0.6 else rng.choice(pool)


def plan(rng: random.Random, ctx: Ctx, links: dict[str, ServiceLinks], *, length: int, p_rule: float,
         p_stale: float, max_actions: int, seed_key: str, graph: Optional[RelayGraph] = None,
         max_services: int = 99) -> ChainSpec:
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
        graph: the library's :class:`RelayGraph` (built when None).

    Raises:
        PlanError: no chain or no usable action.
    """
    graph = graph or RelayGraph(links)
    chain = walk(rng, links, min(length, max_services), graph)
    values = _Values(ctx)
    hops, entry_key = _hops(chain, values, rng, p_stale)
    slots = _slots(hops)
    used = {r.service for r in chain}
    actions: list[ActionSpec] = []
    # A policy adds its holder's service and, maybe, the routed write's.
    owned = graph.owned
    rule = (_rule(rng, ctx, links, hops, slots, used, actions, owned)
            if rng.random() < p_rule and len(used) + 2 <= max_services else None)
    used |= {a.action.service for a in actions} | ({rule.holder.service} if rule else set())
    last = len(hops) - 1
    options = [(a, b) for name in sorted(links) for a in links[name].actions
               if (b := _bindable(a, slots, False, hops, owned[name])) is not None]
    visited = [r.service for r in chain]
    # A weighted shuffle (related services first), then writes that use the
    # last record's values first: every hop's answer must matter.
    keys = {id(a): rng.random() ** (1.0 / _weight(a.service, visited)) for a, _ in options}
    options.sort(key=lambda ab: -keys[id(ab[0])])
    options.sort(key=lambda ab: -max(s[1] for s in ab[1].values() if s[0] == "hop"))
    for action, bind in options:
        if len(actions) >= max_actions + (rule is not None):
            break
        if any(a.action.service == action.service for a in actions) or undoes(action, [a.action for a in actions]):
            continue
        if action.service not in used and len(used) >= max_services:
            continue
        uses_last = any(s[0] == "hop" and s[1] == last for s in bind.values())
        if not actions and rule is None and not uses_last:
            continue
        actions.append(ActionSpec(action=action, bind=bind,
                                  mention=_mention(slots, bind, rng, hops[0].relay.key, hops, action.service)))
        used.add(action.service)
    if not actions:
        raise PlanError("no-action: nothing can use what the chain finds")
    used_slots = {s for a in actions for s in [*a.bind.values(), a.mention]} | ({rule.attr} if rule else set())
    if not any(s[0] == "hop" and s[1] == last for s in used_slots):
        raise PlanError("last-hop-unused: no write or policy uses what the last record gives")
    report = rule.attr if rule is not None else _mention(slots, {}, rng, hops[0].relay.key)
    return ChainSpec(seed_key=seed_key, hops=hops, rule=rule, actions=actions, report=report,
                     case=ctx.case(), links=links, entry_key=entry_key)


def _rule(rng: random.Random, ctx: Ctx, links: dict[str, ServiceLinks], hops: list[HopSpec],
          slots: list[tuple[Slot, str, str]], used: set[str], actions: list[ActionSpec],
          owned: dict[str, frozenset[str]]) -> Optional[RuleSpec]:
    """A policy routing one action by an amount the chain found (the routed
    action is appended to ``actions``; ``owned`` is :attr:`RelayGraph.owned`)."""
    money = [s for s, t, _ in slots if t == "money"]
    holders = [h for name in sorted(links) if name not in used for h in links[name].rules]
    routable = [(a, links[a.service].route_values[a.needs[0].type]) for name in sorted(links)
                for a in links[name].actions if a.routable and a.needs[0].type in links[name].route_values]
    routable = [(a, rv) for a, rv in routable if _bindable(a, slots, True, hops, owned[a.service]) is not None]
    if not (money and holders and routable):
        return None
    holder = rng.choice(holders)
    attr = money[0] if rng.random() < 0.7 else rng.choice(money)
    near = [(a, rv) for a, rv in routable if _related(hops[attr[1]].relay.service, a.service)]
    if not near:
        return None
    action, route = rng.choice([(a, rv) for a, rv in near if a.service != holder.service] or near)
    amount = hops[attr[1]].outs["money"]
    hi = rng.random() < 0.5
    threshold = _round(amount * (rng.uniform(0.55, 0.9) if hi else rng.uniform(1.15, 1.8)))
    stale = _round(amount * (rng.uniform(1.2, 1.8) if hi else rng.uniform(0.5, 0.85)))
    dests = route(ctx)
    bind = _bindable(action, slots, True, hops, owned[action.service])
    actions.append(ActionSpec(action=action, bind=bind, mention=attr))
    noun = hops[attr[1]].relay.give("money").noun
    topic = f"{rng.choice(RULE_KINDS)} by {noun.removeprefix('the ')}"
    return RuleSpec(holder=holder, topic=topic, attr=attr, threshold=threshold, stale_threshold=stale, dests=dests,
                    dest_type=action.needs[0].type, action=len(actions) - 1, template=rng.randrange(3),
                    attr_noun=noun)


def _round(x: float) -> float:
    return float(max(10, round(x / 10) * 10))


__all__ = ["PlanError", "RULE_KINDS", "RelayGraph", "affinity", "linkable", "plan", "relays", "walk"]
