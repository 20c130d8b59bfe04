"""Every task hook agrees with its service: each source's fact is found by
its own read calls, and each sink's checks fail before its reference calls
and pass after them (run on the real services)."""

from __future__ import annotations

import datetime as dt

import orjson
import pytest

from compoworld_gym.catalog import get_service
from compoworld_gym.checks import CheckResult, evaluate_checks
from compoworld_gym.generation.context import Fact, fresh_ctx
from compoworld_gym.generation.explore import seed_state_bytes
from compoworld_gym.generation.hooks import available_hooks, hook_problems
from compoworld_gym.metatools import dispatch
from compoworld_gym.world import World
from pydantic import TypeAdapter
from faker import Faker

from compoworld_gym.checks import Check

TODAY = dt.date(2026, 1, 15)
HOOKS = available_hooks()
_FAKE = Faker("en_US")
_CHECKS = TypeAdapter(list[Check])


def _states(*services: str) -> dict:
    return {s: orjson.loads(seed_state_bytes(s, 1, TODAY)) for s in services}


def _world(states: dict) -> World:
    return World(get_service(n)(orjson.loads(orjson.dumps(st)), today=TODAY) for n, st in states.items())


def _run(world: World, calls) -> list[dict]:
    out = []
    for mc in calls:
        res = dispatch(world, mc.name, mc.arguments)
        assert res.get("success") is not False, (mc.arguments, res)
        out.append(res)
    return out


def _encoded(value) -> list[bytes]:
    forms = [orjson.dumps(value)]
    if isinstance(value, str):
        forms.append(orjson.dumps(value.lower()))
    return forms


SOURCES = [(s, t, v) for s, h in sorted(HOOKS.items()) for t in sorted(h.sources) for v in h.source_variants(t)]
SINKS = [(s, t) for s, h in sorted(HOOKS.items()) for t in sorted(h.sinks)]


def test_library_is_spanned() -> None:
    assert hook_problems() == []
    assert len(HOOKS) >= 23
    assert sum(bool(h.sinks) for h in HOOKS.values()) >= 20


@pytest.mark.parametrize("service,etype,variant", SOURCES, ids=[f"{s}-{t}-{v}" for s, t, v in SOURCES])
def test_source_is_findable(service: str, etype: str, variant: str) -> None:
    ctx = fresh_ctx(f"src:{service}:{etype}:{variant}", TODAY, _states(service), _FAKE)
    fact = HOOKS[service].sources[etype].build(ctx, service, variant)
    assert fact.value is not None and fact.reads
    found = b"".join(orjson.dumps(r) for r in _run(_world(ctx.states), fact.reads))
    wanted = fact.wrong if variant == "sum" else [fact.value]
    for value in wanted:
        assert any(form in found for form in _encoded(value)), (value, found[:300])
    for wrong in fact.wrong:  # the tempting values really differ from the answer
        assert wrong != fact.value


def _fact_for(ctx, etype: str, host: str) -> Fact:
    """A fact of ``etype``: a fresh value, or (ids) one planted by a source hook."""
    try:
        return Fact(type=etype, value=ctx.fresh(etype), service="helpdesk", noun="x", locate="y",
                    wrong=[ctx.fresh(etype)])
    except ValueError:
        src = next(s for s, h in sorted(HOOKS.items()) if etype in h.sources and s != host)
        ctx.states.update(_states(src))
        return HOOKS[src].sources[etype].build(ctx, src, "plain")


@pytest.mark.parametrize("service,etype", SINKS, ids=[f"{s}-{t}" for s, t in SINKS])
def test_sink_checks_fail_before_and_pass_after(service: str, etype: str) -> None:
    ctx = fresh_ctx(f"sink:{service}:{etype}", TODAY, _states(service), _FAKE)
    fact = _fact_for(ctx, etype, service)
    sink = HOOKS[service].sinks[etype][1](ctx, fact)
    assert sink.tool == HOOKS[service].sinks[etype][0] and "{ref}" in sink.phrase
    checks = _CHECKS.validate_python([{**c, "id": f"c{i}"} for i, c in enumerate(sink.checks(fact.value))])
    world = _world(ctx.states)
    initial = world.states()

    def failing() -> list[CheckResult]:
        return [r for r in evaluate_checks(checks, world.states(), None, world.call_log, initial) if not r.passed]

    assert failing(), "a sink check already passes before the write"
    _run(world, sink.calls)
    assert not failing(), failing()
    assert any(e["tool"] == sink.tool and e["success"] for e in world.call_log)


@pytest.mark.parametrize("service,etype", SINKS, ids=[f"{s}-{t}" for s, t in SINKS])
def test_sink_guards_allow_the_write_and_nothing_else(service: str, etype: str) -> None:
    from types import SimpleNamespace

    from compoworld_gym.generation.guards import only_changed_guards

    ctx = fresh_ctx(f"guard:{service}:{etype}", TODAY, _states(service), _FAKE)
    fact = _fact_for(ctx, etype, service)
    sink = HOOKS[service].sinks[etype][1](ctx, fact)
    guards = only_changed_guards([SimpleNamespace(fact=fact, sink=sink, write=True)])
    assert guards and all(g["service"] == service for g in guards)
    checks = _CHECKS.validate_python([{**g, "id": f"g{i}"} for i, g in enumerate(guards)])
    world = _world(ctx.states)
    initial = world.states()
    _run(world, sink.calls)
    results = evaluate_checks(checks, world.states(), None, world.call_log, initial)
    assert all(r.passed for r in results), [g for g, r in zip(guards, results) if not r.passed]
    # A second record created with another value (an extra email, a post with
    # the wrong amount) is not what the task allows. (A second update of the
    # allowed record is the positive items' business, not the guard's.)
    if not fact.wrong or not any(g["allow_new"] is not None for g in guards):
        return
    again = [mc for mc in sink.calls if mc.arguments["tool_name"] == sink.tool]
    wrong = fact.wrong[0]
    twisted = []
    for mc in again:
        args = orjson.loads(orjson.dumps(mc.arguments["arguments"]))
        head, _, leaf = sink.value_arg.rpartition(".")
        node = args[head] if head else args
        node[leaf] = [wrong] if isinstance(node.get(leaf), list) else (
            node[leaf].replace(str(fact.value), str(wrong)) if sink.list_arg else wrong)
        twisted.append(type(mc)(name="call_tool", arguments={"tool_name": sink.tool, "arguments": args}))
    for mc in twisted:
        if dispatch(world, mc.name, mc.arguments).get("success") is False:
            return  # the service refuses the second write itself (e.g. already refunded)
    results = evaluate_checks(checks, world.states(), None, world.call_log, initial)
    assert not all(r.passed for r in results), (service, etype)


def test_generation_is_stable_across_processes() -> None:
    """Tool specs must not depend on string-hash order (PYTHONHASHSEED)."""
    import os
    import subprocess
    import sys

    code = ("from compoworld_gym.generation import generate_tasks; "
            "print(generate_tasks(2, seed=11)[1].to_json())")
    outs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": h}).stdout for h in ("1", "2")]
    assert outs[0] == outs[1] and outs[0].startswith("{")
