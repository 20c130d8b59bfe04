"""Schema semantics of the argument strategies: allOf, combined bounds, uniqueItems equality,
formats of pooled values, pooled values split across sibling arguments, live ``.example()``."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import NonInteractiveExampleWarning

from compoworld_gym.envs.services.github import GitHub
from compoworld_gym.testing.pools import Link, Pools
from compoworld_gym.testing.schema_merge import merge_all_of
from compoworld_gym.testing.schema_rules import Bounds, conforms, json_key, numeric_bounds
from compoworld_gym.testing.strategies import drawing_from, live_tool_arguments, schema_values, state_pools

TODAY = dt.date(2026, 1, 15)
FAST = settings(max_examples=80, deadline=None, database=None, derandomize=True,
                suppress_health_check=list(HealthCheck))


def draw_all(schema, pools=None, validator=jsonschema.Draft202012Validator) -> list:
    """80 drawn values of ``schema``, each checked by jsonschema (formats included)."""
    check = validator(schema, format_checker=jsonschema.FormatChecker())
    out = []

    @FAST
    @given(schema_values(schema, pools))
    def run(value):
        check.validate(value)
        out.append(value)

    run()
    return out


# ------------------------------------------------------------------ allOf
def test_all_of_bounds_from_every_member_apply():
    values = draw_all({"allOf": [{"type": "integer", "minimum": 0}, {"maximum": 5}, {"exclusiveMinimum": 2}]})
    assert set(values) == {3, 4, 5}


def test_all_of_objects_unite_properties_and_required():
    values = draw_all({"allOf": [
        {"type": "object", "properties": {"a": {"type": "integer", "minimum": 1, "maximum": 1}}, "required": ["a"]},
        {"properties": {"b": {"enum": ["x"]}}, "required": ["b"]}]})
    assert all(v == {"a": 1, "b": "x"} for v in values)


def test_all_of_shared_property_satisfies_both_members():
    values = draw_all({"allOf": [
        {"type": "object", "properties": {"n": {"type": "integer", "minimum": 3}}, "required": ["n"]},
        {"type": "object", "properties": {"n": {"type": "integer", "maximum": 4}}}]})
    assert {v["n"] for v in values} == {3, 4}


def test_all_of_intersects_types_and_enums():
    assert set(map(type, draw_all({"allOf": [{"type": ["string", "integer"]}, {"type": ["number", "null"]}]}))) == {int}
    assert set(draw_all({"allOf": [{"enum": [1, 2, "x"]}, {"type": "integer"}]})) == {1, 2}
    assert draw_all({"allOf": [{"const": "k"}, {"type": "string", "maxLength": 1}]})[0] == "k"
    assert schema_values({"allOf": [{"const": "k"}, {"type": "string", "maxLength": 0}]}).is_empty


def test_all_of_additional_properties_false_forbids_the_other_members_properties():
    values = draw_all({"allOf": [
        {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": False},
        {"properties": {"b": {"type": "integer"}}}]})
    assert values and all(set(v) <= {"a"} for v in values) and any("a" in v for v in values)


def test_all_of_with_any_of_draws_only_branches_that_fit():
    values = draw_all({"allOf": [{"anyOf": [{"type": "string"}, {"type": "integer"}]},
                                 {"type": "integer", "minimum": 10, "maximum": 11}]})
    assert set(values) == {10, 11}


def test_all_of_that_cannot_merge_is_checked_against_every_member():
    schema = {"allOf": [{"type": "string", "pattern": "^[ab]{1,3}$"}, {"pattern": "^a"}, {"pattern": "b$"}]}
    assert set(draw_all(schema)) == {"ab", "aab", "abb"}
    merged, exact = merge_all_of(schema)
    assert merged["pattern"] == "^[ab]{1,3}$" and not exact  # two patterns do not make one


def test_all_of_without_a_common_value_merges_to_none():
    assert merge_all_of({"allOf": [{"type": "integer"}, {"type": "string"}]}) == (None, True)
    assert merge_all_of({"allOf": [{"const": 1}, {"const": 2}]}) == (None, True)
    assert merge_all_of({"allOf": [{"properties": {"a": {}}, "additionalProperties": False},
                                   {"properties": {"b": {}}, "required": ["b"]}]}) == (None, True)


def test_all_of_entity_field_pools_only_values_fitting_every_member():
    pools = Pools(by_entity={"ticket_id": ["TCK-0001", "TCK-0002", "TCK-0009"]})
    schema = {"allOf": [{"type": "string", "x-entity": "ticket_id"}, {"pattern": "^TCK-000[12]$"}]}
    values = draw_all(schema, pools)
    assert set(values) == {"TCK-0001", "TCK-0002"}  # never TCK-0009, never random text


# ---------------------------------------------------------------- bounds
def test_minimum_and_exclusive_minimum_together_the_tighter_wins():
    assert set(draw_all({"type": "integer", "minimum": 5, "exclusiveMinimum": 2,
                         "maximum": 7, "exclusiveMaximum": 9})) == {5, 6, 7}
    assert set(draw_all({"type": "integer", "minimum": 0, "exclusiveMinimum": 3,
                         "maximum": 6, "exclusiveMaximum": 6})) == {4, 5}
    floats = draw_all({"type": "number", "minimum": 1, "exclusiveMinimum": 0, "maximum": 2})
    assert floats and all(1 <= x <= 2 for x in floats)


def test_draft4_boolean_exclusive_bounds():
    schema = {"type": "integer", "minimum": 1, "exclusiveMinimum": True, "maximum": 4, "exclusiveMaximum": True}
    assert set(draw_all(schema, validator=jsonschema.Draft4Validator)) == {2, 3}
    assert numeric_bounds({"minimum": 1, "exclusiveMinimum": False}) == Bounds(1, False, None, False)
    floats = draw_all({"type": "number", "minimum": 0, "exclusiveMinimum": True, "maximum": 1},
                      validator=jsonschema.Draft4Validator)
    assert floats and all(0 < x <= 1 for x in floats)


def test_numeric_bounds_tie_is_exclusive_and_empty_ranges_draw_nothing():
    far = draw_all({"type": "number", "minimum": 2e12})  # beyond the default span of 1e12
    assert far and min(far) >= 2e12
    assert schema_values({"type": "integer", "exclusiveMinimum": 2, "exclusiveMaximum": 3}).is_empty
    assert schema_values({"type": "number", "minimum": 1, "exclusiveMaximum": 1}).is_empty
    assert numeric_bounds({"minimum": 3, "exclusiveMinimum": 3}) == Bounds(3, True, None, False)


def test_pooled_numbers_respect_combined_and_draft4_bounds():
    pools = Pools(by_entity={"money": [1, 3, 5, 7]})
    assert pools.candidates({"type": "integer", "x-entity": "money", "minimum": 5, "exclusiveMinimum": 2}) == [5, 7]
    assert pools.candidates({"type": "integer", "x-entity": "money", "minimum": 3, "exclusiveMinimum": True,
                             "maximum": 7, "exclusiveMaximum": True}) == [5]


# ----------------------------------------------------------- uniqueItems
def test_unique_items_treat_one_and_one_point_zero_as_equal():
    values = draw_all({"type": "array", "uniqueItems": True, "minItems": 2, "maxItems": 2,
                       "items": {"enum": [1, 1.0, 2]}})
    assert values and all(2 in v and (1 in v) for v in values)


def test_unique_items_keep_true_and_one_apart():
    values = draw_all({"type": "array", "uniqueItems": True, "minItems": 2, "maxItems": 2,
                       "items": {"enum": [True, 1]}})
    assert {tuple(map(type, v)) for v in values} <= {(bool, int), (int, bool)} and values


def test_json_key_is_json_schema_equality():
    assert json_key({"a": [1, {"b": 2.0}], "c": None}) == json_key({"c": None, "a": [1.0, {"b": 2}]})
    assert json_key(True) != json_key(1) and json_key(False) != json_key(0)
    assert json_key([1, 2]) != json_key([2, 1]) and json_key("1") != json_key(1)


# --------------------------------------------------------- pooled formats
@pytest.mark.parametrize(("fmt", "bad", "good"), [
    ("date", ["20260115", "2026-W03-4", "2026-02-30", "2026-01-15T00:00:00"], "2026-01-15"),
    ("date-time", ["20260115T100000", "2026-01-15", "2026-01-15T25:00:00"], "2026-01-15T10:00:00"),
    ("email", ["not-an-email", "a@b", "a b@c.example"], "a@b.example"),
    ("uri", ["no scheme", "/relative/path"], "https://x.example/a"),
])
def test_pooled_values_that_violate_the_format_are_dropped(fmt, bad, good):
    pools = Pools(by_entity={"date": [*bad, good]})
    assert pools.candidates({"type": "string", "format": fmt, "x-entity": "date"}) == [good]
    assert all(not conforms(fmt, v) for v in bad) and conforms(fmt, good)


def test_drawn_pooled_dates_are_iso_dates():
    pools = Pools(by_entity={"date": ["20260115", "2026-01-16"]})
    values = draw_all({"type": "string", "format": "date", "x-entity": "date"}, pools)
    assert "2026-01-16" in values and "20260115" not in values


# ------------------------------------------------- split values ('owner/repo')
def test_links_split_a_pooled_whole_across_sibling_arguments():
    pools = Pools(by_entity={"repo_name": ["acme/shop", "solo", "zed/x"], "username": ["acme", "bo"]})
    schema = {"type": "object", "properties": {
        "owner": {"type": "string", "x-entity": "username"},
        "repo": {"type": "string", "x-entity": "repo_name"},
        "other": {"type": "string", "x-entity": "repo_name"}}}
    # 'zed' is no pooled username; two repo_name fields are never split across each other
    assert pools.links(schema) == [Link("owner", "repo", [("acme", "shop")]),
                                   Link("owner", "other", [("acme", "shop")])]


def test_github_tools_get_owner_and_bare_repo_of_one_pooled_repository():
    svc = GitHub.seeded(0, TODAY)
    pools = state_pools([svc])
    pairs, found = [], []

    @FAST
    @given(schema_values(svc.tools["get_issue"].input_schema, pools))
    def run(args):
        pairs.append((args["owner"], args["repo"]))
        found.append(svc.call("get_issue", args)["success"])

    run()
    repos = {(r.owner, r.name) for r in svc.state.repositories.values()}
    assert sum(p in repos for p in pairs) / len(pairs) > 0.6
    assert sum(found) / len(found) > 0.4


def test_github_list_commits_sha_is_tagged_as_a_branch():
    assert GitHub.tools["list_commits"].input_schema["properties"]["sha"]["anyOf"][0]["x-entity"] == "branch"


# ------------------------------------------------------- live .example()
POOLED = 123_456_789
LIVE_SPEC = SimpleNamespace(input_schema={"type": "object", "required": ["n"], "properties": {
    "n": {"type": "integer", "minimum": 0, "maximum": 10**12, "x-entity": "ticket_id"}}})


@pytest.mark.filterwarnings("ignore", category=NonInteractiveExampleWarning)
def test_example_outside_drawing_from_does_not_leak_into_the_block():
    strategy = live_tool_arguments(LIVE_SPEC)
    strategy.example()  # outside: Hypothesis used to keep a batch of pool-free examples here
    with drawing_from(Pools(by_entity={"ticket_id": [POOLED]})):
        inside = [strategy.example()["n"] for _ in range(9)]
    assert inside.count(POOLED) >= 2  # 3 in 4 are pooled; the stale batch had none


@pytest.mark.filterwarnings("ignore", category=NonInteractiveExampleWarning)
def test_example_inside_drawing_from_does_not_leak_out_of_the_block():
    strategy = live_tool_arguments(SimpleNamespace(input_schema=dict(LIVE_SPEC.input_schema)))
    with drawing_from(Pools(by_entity={"ticket_id": [POOLED]})):
        strategy.example()
    outside = [strategy.example()["n"] for _ in range(9)]
    assert POOLED not in outside
