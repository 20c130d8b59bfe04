"""Hypothesis strategies for env actions: valid meta-tool calls and malformed text.

Valid calls are drawn against a live :class:`~compoworld_gym.world.World`
(tool names it exposes, arguments from its services' current states).
Malformed actions cover every way an agent's text can be wrong; the env must
answer each with an error observation, never an exception.

Example:
    >>> from hypothesis import given
    >>> @given(malformed_actions())
    ... def test(text):
    ...     assert isinstance(text, str)
    >>> test()
"""

from __future__ import annotations

import json
from typing import Any, Optional

import orjson
from hypothesis import strategies as st

from compoworld_gym.actions import MAX_ACTION_CHARS, MAX_CALLS_PER_ACTION, MAX_DEPTH
from compoworld_gym.service import ToolSpec
from compoworld_gym.testing.strategies import Pools, by_identity, live, live_tool_arguments, state_pools, with_pools
from compoworld_gym.world import World


def dumps(obj: Any) -> str:
    """An action object as JSON text.

    Falls back to :func:`json.dumps` for what orjson refuses (integers past
    64 bits), which also writes ``NaN``/``Infinity`` literals: both are
    inputs the env must survive.
    """
    try:
        return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(obj, ensure_ascii=False)


def call(name: str, **arguments: Any) -> dict[str, Any]:
    """A meta-tool call object ``{"name", "arguments"}``."""
    return {"name": name, "arguments": arguments}


def exposed_tools(world: World) -> list[tuple[str, Any]]:
    """``[(exposed tool name, ToolSpec)]`` of every mounted tool, in listing order."""
    return [(world.exposed_name(svc.name, name), spec)
            for svc in world.services.values() for name, spec in svc.tools.items()]


def tool_calls(world: World, pools: Optional[Pools] = None) -> st.SearchStrategy[dict[str, Any]]:
    """Valid ``call_tool`` calls on ``world`` (arguments drawn from live state).

    Args:
        world: the mounted services.
        pools: precomputed :func:`state_pools` of the world (computed if None).
    """
    return _bind(_tool_calls(exposed_tools(world)), world, pools)


def _bind(strategy: st.SearchStrategy[Any], world: World, pools: Optional[Pools]) -> st.SearchStrategy[Any]:
    """``strategy`` (live) drawing from ``pools``, or from the world's pools as they are now."""
    return with_pools(strategy, state_pools(world.services.values()) if pools is None else pools)


#: ``{id(spec): (spec, {exposed name: strategy})}`` (see :func:`~compoworld_gym.testing.strategies.by_identity`).
_CALL_CACHE: dict[int, tuple[ToolSpec, dict[str, st.SearchStrategy[dict[str, Any]]]]] = {}


def _tool_call(name: str, spec: ToolSpec) -> st.SearchStrategy[dict[str, Any]]:
    """The live ``call_tool`` strategy of one exposed tool, built once per (spec, exposed name)."""
    by_name = by_identity(_CALL_CACHE, spec, dict)
    if name not in by_name:
        by_name[name] = live_tool_arguments(spec).map(lambda a: call("call_tool", tool_name=name, arguments=a))
    return by_name[name]


def _tool_calls(tools: list[tuple[str, ToolSpec]]) -> st.SearchStrategy[dict[str, Any]]:
    if not tools:
        return st.just(call("list_services"))
    return st.one_of([_tool_call(name, spec) for name, spec in tools])


def discovery_calls(world: World) -> st.SearchStrategy[dict[str, Any]]:
    """Valid ``list_services`` / ``list_tools`` / ``describe_tool`` calls on ``world``."""
    names = list(world.services) or ["none"]
    tools = [n for n, _ in exposed_tools(world)] or ["none"]
    return st.one_of(
        st.just(call("list_services")),
        st.sampled_from(names).map(lambda s: call("list_tools", service=s)),
        st.sampled_from(tools).map(lambda t: call("describe_tool", tool=t)),
    )


def meta_tool_calls(world: World, pools: Optional[Pools] = None) -> st.SearchStrategy[dict[str, Any]]:
    """Valid meta-tool calls on ``world``: mostly ``call_tool``, some discovery."""
    return _bind(_meta_tool_calls(world), world, pools)


def _meta_tool_calls(world: World) -> st.SearchStrategy[dict[str, Any]]:
    calls = _tool_calls(exposed_tools(world))
    return st.one_of(calls, calls, discovery_calls(world))


def valid_actions(world: World, pools: Optional[Pools] = None) -> st.SearchStrategy[str]:
    """Valid action texts: one call, or a JSON array of up to 3 calls in one turn."""
    return _bind(_valid_actions(world), world, pools)


def _valid_actions(world: World) -> st.SearchStrategy[str]:
    # One list strategy (not "single | list"): the shrinker can then delete calls of a
    # batch down to one, which is sent as a bare object.
    return st.lists(_meta_tool_calls(world), min_size=1, max_size=3).map(
        lambda calls: dumps(calls[0] if len(calls) == 1 else calls))


def live_action_strategies(world: World) -> dict[str, st.SearchStrategy[str]]:
    """The action strategies of a world's structure, drawing arguments from the enclosing
    :func:`~compoworld_gym.testing.strategies.drawing_from` pools.

    Returns:
        ``{"call": valid actions, "malformed": malformed actions, "meta": discovery calls}``,
        all ``str``. They depend only on the mounted services and tool names, not on the
        state, so one set serves every state of a world. Their ``.example()`` reads the
        enclosing pools too (:func:`~compoworld_gym.testing.strategies.live`).
    """
    return {"call": live(_valid_actions(world)), "malformed": live(_malformed_actions(world)),
            "meta": discovery_calls(world).map(dumps)}


# ------------------------------------------------------------ malformed
_EDGE_NUMBERS_TEXT = ["NaN", "Infinity", "-Infinity", "1e309", "-1e309", "1e-400", "-0",
                      "18446744073709551616", "-9223372036854775809", "1" * 400, "0x10", "01", ".5"]
_EDGE_NUMBERS = [0, -1, -(2**63), 2**63, 2**64, 10**30, -(10**30), 1e308, -1e308, 5e-324, -0.0, 0.5]
_CONTROL = st.characters(min_codepoint=0, max_codepoint=31) | st.sampled_from("\u200b\u202e\ufeff\u2028\x7f")
#: Any unicode but lone surrogates (they cannot be JSON-encoded, so they only go in raw text).
_NASTY_TEXT = st.text(alphabet=st.characters(exclude_categories=("Cs",)) | _CONTROL, max_size=40)
_SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, categories=["Cs"])
#: Raw text, lone surrogates included (Hypothesis's characters() never draws them).
#: (A list of characters, not st.text: text() merges alphabets and drops surrogates.)
_RAW_TEXT = st.lists(st.characters() | _CONTROL | _SURROGATES, max_size=40).map("".join)


def _junk_json_text() -> st.SearchStrategy[str]:
    prefixed = st.tuples(st.sampled_from(["{", "[", " {", "\n["]), _RAW_TEXT).map("".join)
    truncated = st.sampled_from([
        '{"name": "call_tool", "arguments": {', '[{"name": "list_services"},', '{"name": "list_tools"',
        "{'name': 'list_services'}", '{"name": "list_services",}', '[1, 2,]', '{name: "list_services"}',
        '{"name": "list_services"} trailing', '{"final_answer": "a"} {"x": 1}', "{}}", "[]]",
    ])
    numbers = st.sampled_from(_EDGE_NUMBERS_TEXT).map(
        lambda n: '{"name": "call_tool", "arguments": {"tool_name": "x", "arguments": {"limit": %s}}}' % n)
    return st.one_of(prefixed, truncated, numbers)


def _wrong_shapes() -> st.SearchStrategy[str]:
    scalars = st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.booleans(),
                        st.none(), _NASTY_TEXT)
    shapes = st.one_of(
        scalars.map(lambda v: [v]),
        st.just([]),
        st.just({}),
        st.just([call("list_services")] * (MAX_CALLS_PER_ACTION + 1)),
        scalars.map(lambda v: {"name": v}),
        scalars.map(lambda v: {"final_answer": v}).filter(lambda o: not isinstance(o["final_answer"], str)),
        st.just({"final_answer": "done", "extra": 1}),
        st.just({"name": "list_services", "unexpected": True}),
        _NASTY_TEXT.map(lambda s: {"name": s}),
        st.just({"arguments": {}}),
    )
    return shapes.map(dumps)


def _wrong_meta_arguments(world: Optional[World]) -> st.SearchStrategy[str]:
    junk = st.one_of(st.integers(), st.booleans(), st.none(), st.lists(st.integers(), max_size=2),
                     st.dictionaries(st.text(max_size=5), st.integers(), max_size=2))
    tool = st.sampled_from([n for n, _ in exposed_tools(world)] if world and world.services else ["x"])
    calls = st.one_of(
        junk.map(lambda v: {"name": "list_tools", "arguments": {"service": v}}),
        junk.map(lambda v: {"name": "describe_tool", "arguments": {"tool": v}}),
        junk.map(lambda v: {"name": "call_tool", "arguments": {"tool_name": v, "arguments": {}}}),
        st.tuples(tool, junk.filter(lambda v: not isinstance(v, dict))).map(
            lambda t: {"name": "call_tool", "arguments": {"tool_name": t[0], "arguments": t[1]}}),
        tool.map(lambda t: {"name": "call_tool", "arguments": {"tool_name": t, "arguments": "{not json"}}),
        st.just({"name": "list_services", "arguments": {"extra": 1}}),
        st.just({"name": "list_tools", "arguments": {}}),
        st.just({"name": "call_tool", "arguments": {"arguments": {}}}),
        st.just({"name": "list_services", "arguments": [1, 2]}),
        _NASTY_TEXT.map(lambda s: {"name": s, "arguments": {}}),
    )
    return calls.map(dumps)


def _unknown_names(world: Optional[World]) -> st.SearchStrategy[str]:
    services = list(world.services) if world else []
    name = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12)
    calls = st.one_of(
        name.filter(lambda s: s not in services).map(lambda s: call("list_tools", service=s)),
        name.map(lambda s: call("describe_tool", tool=s + "__nope")),
        name.map(lambda s: call("call_tool", tool_name=s + "_missing_tool", arguments={})),
        st.sampled_from(services or ["svc"]).map(lambda s: call("call_tool", tool_name=f"{s}__no_such_tool",
                                                                arguments={})),
    )
    return calls.map(dumps)


def _bad_tool_arguments(world: World) -> st.SearchStrategy[str]:
    """Real tools with one argument missing, extra, of a wrong type or an unknown record."""
    tools = exposed_tools(world)
    if not tools:
        return st.just(dumps(call("call_tool", tool_name="x", arguments={})))
    wrong = st.one_of(st.sampled_from(_EDGE_NUMBERS), st.floats(), st.booleans(), st.none(),
                      st.lists(st.integers(), max_size=2), st.just({"$gt": 1}), _NASTY_TEXT,
                      st.integers(5000, 6000).map(lambda n: "x" * n))

    @st.composite
    def mutate(draw: Any) -> str:
        name, spec = draw(st.sampled_from(tools))
        args = dict(draw(live_tool_arguments(spec)))
        props = list(spec.input_schema.get("properties", {}))
        required = list(spec.input_schema.get("required", []))
        how = draw(st.sampled_from(["missing", "extra", "wrong_type", "unknown_record"]))
        if how == "missing" and required:
            args.pop(draw(st.sampled_from(required)), None)
        elif how == "wrong_type" and props:
            args[draw(st.sampled_from(props))] = draw(wrong)
        elif how == "unknown_record" and props:
            args[draw(st.sampled_from(props))] = draw(st.sampled_from(
                ["TCK-9999", "ZZZ-0000", "", "nobody@nowhere.example", "../../etc/passwd", "0", "-1"]))
        else:
            args[draw(st.text(min_size=1, max_size=8).filter(lambda k: k not in props))] = 1
        return dumps(call("call_tool", tool_name=name, arguments=args))

    return mutate()


def _oversized() -> st.SearchStrategy[str]:
    deep = st.integers(MAX_DEPTH + 1, MAX_DEPTH + 200)
    return st.one_of(
        st.integers(MAX_ACTION_CHARS + 1, MAX_ACTION_CHARS + 5000).map(
            lambda n: '{"final_answer": "' + "x" * (n - 20) + '"}'),
        st.integers(MAX_ACTION_CHARS + 1, MAX_ACTION_CHARS + 100).map(lambda n: "a" * n),
        deep.map(lambda d: "[" * d + "]" * d),
        deep.map(lambda d: '{"a":' * d + "1" + "}" * d),
        deep.map(lambda d: dumps(call("call_tool", tool_name="x", arguments=_nest(d)))),
        st.integers(10_000, MAX_ACTION_CHARS - 200).map(lambda n: dumps(call("list_tools", service="s" * n))),
    )


def _nest(depth: int) -> Any:
    node: Any = 0
    for _ in range(depth):
        node = {"k": node}
    return node


def malformed_actions(world: Optional[World] = None, pools: Optional[Pools] = None) -> st.SearchStrategy[str]:
    """Action texts that the env must reject (or treat as odd final answers).

    Covers junk that starts like JSON, invalid JSON (truncated, NaN,
    Infinity, numbers out of range), JSON of the wrong shape, wrong argument
    types for meta-tools, unknown services/tools/records, missing, extra and
    wrong-typed tool arguments, actions longer than ``MAX_ACTION_CHARS`` or
    nested deeper than ``MAX_DEPTH``, and unicode/control characters.

    Args:
        world: when given, malformed calls also target its real tools.
        pools: live-state values of ``world`` (computed if None).

    Returns:
        A strategy of ``str``.
    """
    if world is None:
        return _malformed_actions(None)
    return _bind(_malformed_actions(world), world, pools)


def _malformed_actions(world: Optional[World]) -> st.SearchStrategy[str]:
    parts = [_junk_json_text(), _wrong_shapes(), _wrong_meta_arguments(world), _unknown_names(world),
             _oversized()]
    if world is not None and world.services:
        parts.append(_bad_tool_arguments(world))
    return st.one_of(parts)


def final_answers() -> st.SearchStrategy[str]:
    """Final-answer actions: plain text, or ``{"final_answer": ...}`` JSON."""
    plain = st.lists(st.characters() | _CONTROL | _SURROGATES, max_size=60).map("".join).filter(
        lambda s: not s.strip().startswith(("{", "[")))
    return st.one_of(plain, _NASTY_TEXT.map(lambda s: dumps({"final_answer": s})))


__all__ = ["call", "discovery_calls", "dumps", "exposed_tools", "final_answers", "live_action_strategies",
           "malformed_actions", "meta_tool_calls", "tool_calls", "valid_actions"]
