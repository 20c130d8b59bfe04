"""Every service's link declarations, exercised on its real seeded state.

* a relay's planted record is found again by its ``find`` (real reads), and
  gives exactly the planted values, past a stale look-alike and an
  alternative record;
* an action's checks fail on the initial state and pass once its write ran,
  the write's calls all succeed, and its guards hold;
* a rule holder's ``find`` returns the policy in force, not the stale one.
"""

from __future__ import annotations

import random

import orjson
import pytest
from faker import Faker

from compoworld_gym.catalog import get_service
from compoworld_gym.checks import evaluate_checks
from compoworld_gym.generation.config import TODAY
from compoworld_gym.generation.context import Ctx
from compoworld_gym.generation.explore import explore_states
from compoworld_gym.generation.hooks import available_links
from compoworld_gym.generation.solve import POLICY_RX
from compoworld_gym.generation.links import Found, give_value
from compoworld_gym.generation.solve import ServiceReader, mount_states

LINKS = available_links()
RELAYS = [(name, k) for name in sorted(LINKS) for k in range(len(LINKS[name].relays))]
ACTIONS = [(name, k) for name in sorted(LINKS) for k in range(len(LINKS[name].actions))]
HOLDERS = [(name, k) for name in sorted(LINKS) for k in range(len(LINKS[name].rules))]


def _ctx(service: str, seed: int = 0) -> Ctx:
    fake = Faker("en_US")
    fake.seed_instance(seed)
    return Ctx(random.Random(seed), fake, TODAY, explore_states([service], seed % 4, TODAY))


def _value(ctx: Ctx, give) -> object:
    return give.draw(ctx) if give.draw is not None else ctx.fresh(give.type)


@pytest.mark.parametrize("service,k", RELAYS, ids=[f"{s}-{k}" for s, k in RELAYS])
def test_relay_finds_what_it_planted(service: str, k: int) -> None:
    relay = LINKS[service].relays[k]
    ctx = _ctx(service)
    key = relay.alloc(ctx) if relay.alloc else ctx.fresh(relay.key)
    outs = {g.type: _value(ctx, g) for g in relay.gives if not g.type.endswith("_id")}
    rid = relay.plant(ctx, key, outs, False)
    if relay.truth:  # a stale look-alike with other values must be passed over
        relay.plant(ctx, key, {t: ctx.fresh(t) if t in outs else v for t, v in outs.items()}, True)
    other = relay.alloc(ctx) if relay.alloc else ctx.fresh(relay.key)
    relay.plant(ctx, other, {g.type: _value(ctx, g) for g in relay.gives if not g.type.endswith("_id")}, False)
    get_service(service)(orjson.loads(orjson.dumps(ctx.states[service])), today=TODAY)  # the state is valid
    reader = ServiceReader(mount_states(ctx.states, TODAY))
    record = relay.find(reader, key)
    assert reader.calls, "find must use real read calls"
    for give in relay.gives:
        if give.type in outs:
            assert give_value(record, give) == outs[give.type], give
        elif give.field == "id":
            assert give_value(record, give) == rid
    if relay.entry is not None:
        assert str(key) in relay.entry(key)


def _args(service: str, k: int, ctx: Ctx) -> dict[str, Found]:
    links = LINKS[service]
    action = links.actions[k]
    values = {}
    for n, need in enumerate(action.needs):
        if n == 0 and action.routable and need.type in links.route_values:
            values[need.param] = links.route_values[need.type](ctx)[0]
        elif need.type.endswith("_id"):
            values[need.param] = _record_of(links, need.type, ctx)
        else:
            values[need.param] = ctx.fresh(need.type)
    return {p: Found(next(n.type for n in action.needs if n.param == p), v, f"the {p}") for p, v in values.items()}


def _record_of(links, etype: str, ctx: Ctx) -> str:
    """A planted record of the service identified by ``etype`` (an action's
    target must be a record one of the service's relays can find)."""
    for relay in links.relays:
        outs = {g.type: _value(ctx, g) for g in relay.gives if not g.type.endswith("_id")}
        if relay.key == etype and relay.alloc is not None:
            key = relay.alloc(ctx)
            relay.plant(ctx, key, outs, False)
            return key
        if any(g.type == etype and g.field == "id" for g in relay.gives):
            return relay.plant(ctx, ctx.fresh(relay.key), outs, False)
    raise AssertionError(f"no relay of {links.service} plants a record with a {etype}")


@pytest.mark.parametrize("service,k", ACTIONS, ids=[f"{s}-{k}" for s, k in ACTIONS])
def test_action_checks_fail_before_and_pass_after(service: str, k: int) -> None:
    action = LINKS[service].actions[k]
    ctx = _ctx(service, seed=k + 1)
    args = _args(service, k, ctx)
    if action.prepare is not None:
        action.prepare(ctx, {p: f.value for p, f in args.items()})
    args["case"] = Found("case", "case QA-1234", "the case reference")
    args["mention"] = Found("money", 417.25, "the order total")
    initial = {service: get_service(service)(orjson.loads(orjson.dumps(ctx.states[service])),
                                              today=TODAY).state_dict()}
    svc = get_service(service)(orjson.loads(orjson.dumps(ctx.states[service])), today=TODAY)
    reader = ServiceReader({service: svc})
    write = action.build(reader, args)
    assert write.checks and all(not c.is_guard for c in write.checks)
    before = evaluate_checks(write.checks, initial, None, [], initial)
    assert not any(r.passed for r in before), "a write's checks must fail on the initial state"
    for mc in write.calls:
        res = svc.call(mc.arguments["tool_name"], mc.arguments["arguments"])
        assert res["success"], res
    final = {service: svc.state_dict()}
    after = evaluate_checks([*write.checks, *write.scope], final, None, [], initial)
    assert all(r.passed for r in after), [r for r in after if not r.passed]


@pytest.mark.parametrize("service,k", HOLDERS, ids=[f"{s}-{k}" for s, k in HOLDERS])
def test_rule_holder_reads_the_policy_in_force(service: str, k: int) -> None:
    holder = LINKS[service].rules[k]
    ctx = _ctx(service)
    topic = "Escalation routing by order total"
    holder.plant(ctx, topic, f"{topic}. When the order total is $100.00 or more, the case goes to #a. "
                             f"Below $100.00, it goes to #c.", True)
    holder.plant(ctx, topic, f"{topic}. When the order total is $200.00 or more, the case goes to #b. "
                             f"Below $200.00, it goes to #c.", False)
    reader = ServiceReader(mount_states(ctx.states, TODAY))
    found = POLICY_RX.search(holder.find(reader, topic))  # the solver must read the rule back
    assert found is not None and (found.group("thr"), found.group("hi")) == ("200.00", "b")


def test_every_service_takes_part() -> None:
    from compoworld_gym.catalog import service_names

    assert sorted(LINKS) == sorted(service_names())


def test_every_service_domain_belongs_to_a_business_family() -> None:
    # A domain outside FAMILIES gets the unrelated-domain weight towards every other service, so
    # its services rarely join a chain and never take a write's values from another domain.
    from compoworld_gym.catalog import get_service, service_names
    from compoworld_gym.generation.plan import FAMILIES

    missing = sorted({get_service(n).domain for n in service_names()} - set(FAMILIES))
    assert missing == []
