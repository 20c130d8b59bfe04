"""The strategies: schema-valid values, state-aware arguments, malformed actions."""

from __future__ import annotations

import datetime as dt

import jsonschema
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compoworld_gym.actions import MAX_ACTION_CHARS, MAX_DEPTH, parse_action
from compoworld_gym.envs.services import BUILTIN_SERVICES
from compoworld_gym.envs.services.helpdesk import Helpdesk
from compoworld_gym.testing import malformed_actions, schema_values, state_pools, tool_arguments, valid_actions
from compoworld_gym.world import World

TODAY = dt.date(2026, 1, 15)
FAST = settings(max_examples=60, deadline=None, database=None, derandomize=True,
                suppress_health_check=list(HealthCheck))

SCHEMAS = [
    {"type": "string", "minLength": 3, "maxLength": 5},
    {"type": "string", "pattern": r"^[A-Z]{3}-\d{4}$"},
    {"type": "string", "format": "date"},
    {"type": "string", "format": "date-time"},
    {"enum": ["a", "b", 3]},
    {"const": "fixed"},
    {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 3}, {"type": "null"}]},
    {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
    {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 3},
    {"type": ["string", "boolean"]},
    {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 3, "uniqueItems": True},
    {"type": "object", "additionalProperties": {"type": "integer"}},
    {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}}, "required": ["a"]},
    {"allOf": [{"type": "integer", "minimum": 5, "maximum": 6}]},
]


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda s: orjson.dumps(s).decode()[:40])
def test_schema_values_satisfy_their_schema(schema):
    checker = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())

    @FAST
    @given(schema_values(schema))
    def check(value):
        checker.validate(value)
        if schema.get("format") == "date":
            dt.date.fromisoformat(value)

    check()


def test_optional_properties_are_sometimes_absent_and_sometimes_present():
    seen = set()

    @FAST
    @given(schema_values(SCHEMAS[-2]))
    def check(value):
        seen.add(tuple(sorted(value)))

    check()
    assert ("a",) in seen and ("a", "b") in seen


def test_state_pools_find_ids_and_emails_by_entity_type():
    svc = Helpdesk.seeded(0, TODAY)
    pools = state_pools([svc])
    assert pools.by_entity["ticket_id"] == sorted(svc.state.tickets)
    assert {a.email for a in svc.state.agents.values()} <= set(pools.by_entity["email"])
    assert "TCK-0001" in pools.strings


def test_arguments_hit_existing_records_most_of_the_time():
    svc = Helpdesk.seeded(0, TODAY)
    pools = state_pools([svc])
    found = []

    @FAST
    @given(tool_arguments(svc.tools["get_ticket"], pools))
    def check(args):
        found.append(svc.call("get_ticket", args)["success"])

    check()
    assert sum(found) / len(found) > 0.4


def _count_valid(spec, pools, outcomes: list[bool]) -> None:
    @settings(FAST, max_examples=8)
    @given(tool_arguments(spec, pools))
    def check(args):
        try:
            spec.validate(orjson.loads(orjson.dumps(args)))  # as the agent would send them
            outcomes.append(True)
        except Exception:  # noqa: BLE001 - counted, not raised
            outcomes.append(False)

    check()


@pytest.mark.parametrize("cls", BUILTIN_SERVICES, ids=lambda c: c.name)
def test_generated_arguments_pass_each_tools_own_validation(cls):
    svc = cls.seeded(0, TODAY)
    pools = state_pools([svc])
    outcomes: list[bool] = []
    for spec in cls.tools.values():
        _count_valid(spec, pools, outcomes)
    valid, total = sum(outcomes), len(outcomes)
    assert valid / total >= 0.9, f"{cls.name}: only {valid}/{total} generated argument sets validate"


def test_valid_actions_parse_as_calls_of_mounted_tools():
    world = World([Helpdesk.seeded(0, TODAY)])

    @FAST
    @given(valid_actions(world))
    def check(action):
        parsed = parse_action(action)
        assert parsed.error is None and 1 <= len(parsed.calls) <= 3
        for name, args in parsed.calls:
            if name == "call_tool":
                assert world.resolve(args["tool_name"]) is not None

    check()


def test_malformed_actions_are_rejected_or_odd_answers_never_exceptions():
    world = World([Helpdesk.seeded(0, TODAY)])
    kinds = set()

    @settings(FAST, max_examples=300)
    @given(malformed_actions(world))
    def check(action):
        parsed = parse_action(action)
        if parsed.error is not None:
            kinds.add("error")
            assert parsed.error["error"]["code"] == 400
        elif parsed.final_answer is not None:
            kinds.add("answer")
        else:  # well-formed calls with odd content: a clean envelope, never an exception.
            # (Some mutations stay valid, e.g. an unknown value in a free-text filter.)
            kinds.add("calls")
            from compoworld_gym.metatools import dispatch

            for r in (dispatch(world, n, a) for n, a in parsed.calls):
                if r.get("success") is False:
                    assert r["error"]["code"] in (400, 404, 409, 422), (action, r)
                else:
                    assert "success" not in r or r["success"] is True

    check()
    assert {"error", "calls"} <= kinds


def test_malformed_actions_include_oversized_and_too_deep_text():
    lengths, depths = [], []

    @settings(FAST, max_examples=300)
    @given(malformed_actions())
    def check(action):
        lengths.append(len(action))
        depths.append(action.count("[") + action.count("{"))

    check()
    assert max(lengths) > MAX_ACTION_CHARS
    assert max(depths) > MAX_DEPTH


@given(st.data())
@settings(FAST, max_examples=20)
def test_pools_mix_values_from_every_mounted_service(data):
    services = [cls.seeded(0, TODAY) for cls in BUILTIN_SERVICES[:3]]
    pools = state_pools(services)
    for svc in services:
        assert set(svc.state_dict()) - {"counters", "clock"}  # each has collections
    value = data.draw(st.sampled_from(pools.strings))
    assert isinstance(value, str) and len(value) <= 200
