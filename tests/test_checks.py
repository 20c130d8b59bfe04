"""Rubric checks and where-clause matching, with hand-computed outcomes."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter

from compoworld_gym.checks import Check, evaluate_checks, run_check
from compoworld_gym.matching import matches

STATE = {"crm": {"contacts": {
    "C1": {"id": "C1", "email": "Ann@X.io", "stage": "lead", "tags": ["vip"], "score": 7,
           "notes": [{"author": "bob", "body": "Call back Friday"}], "due": "2026-01-10"},
    "C2": {"id": "C2", "email": "cy@x.io", "stage": "customer", "tags": [], "score": 3, "notes": [], "due": None},
}}}
INITIAL = {"crm": {"contacts": {**STATE["crm"]["contacts"], "C2": {**STATE["crm"]["contacts"]["C2"], "score": 2}}}}
LOG = [
    {"index": 0, "service": "crm", "tool": "get", "arguments": {"id": "C1"}, "success": True, "code": None},
    {"index": 1, "service": "pay", "tool": "refund", "arguments": {"amount": 5}, "success": False, "code": 409},
    {"index": 2, "service": "pay", "tool": "refund", "arguments": {"amount": 5}, "success": True, "code": None},
]
ADAPTER = TypeAdapter(Check)


@pytest.mark.parametrize("where, expected", [
    ({"stage": "lead"}, True),
    ({"email": {"$ieq": "ann@x.io"}}, True),
    ({"email": "ann@x.io"}, False),
    ({"tags": {"$contains": "VIP"}}, True),
    ({"notes": {"$any": {"body": {"$contains": "friday"}}}}, True),
    ({"notes": {"$none": {"author": "bob"}}}, False),
    ({"score": {"$gte": 7, "$lt": 8}}, True),
    ({"due": {"$lt": "2026-01-15"}}, True),
    ({"stage": {"$in": ["customer", "churned"]}}, False),
    ({"missing.path": {"$exists": False}}, True),
    ({"tags": {"$len": 1}}, True),
    ({"email": {"$all": [{"$contains": "ann"}, {"$contains": "x.io"}]}}, True),
    ({"email": {"$all": [{"$contains": "ann"}, {"$contains": "y.io"}]}}, False),
    ({"stage": {"$ne": "lead"}}, False),
])
def test_matching(where, expected):
    assert matches(STATE["crm"]["contacts"]["C1"], where) is expected


@pytest.mark.parametrize("check, passed", [
    ({"kind": "record_exists", "id": "a", "service": "crm", "collection": "contacts", "where": {"stage": "customer"}}, True),
    ({"kind": "record_exists", "id": "a", "service": "nope", "collection": "contacts", "where": {}}, False),
    ({"kind": "record_absent", "id": "a", "service": "crm", "collection": "contacts", "where": {"stage": "churned"}}, True),
    ({"kind": "record_count", "id": "a", "service": "crm", "collection": "contacts", "where": {}, "op": "eq", "value": 2}, True),
    ({"kind": "record_count", "id": "a", "service": "crm", "collection": "contacts", "where": {}, "op": "ge", "value": 3}, False),
    ({"kind": "record_matches", "id": "a", "service": "crm", "collection": "contacts", "record_id": "C2", "where": {"score": 3}}, True),
    ({"kind": "record_matches", "id": "a", "service": "crm", "collection": "contacts", "record_id": "C9", "where": {}}, False),
    ({"kind": "record_unchanged", "id": "a", "service": "crm", "collection": "contacts", "record_id": "C1"}, True),
    ({"kind": "record_unchanged", "id": "a", "service": "crm", "collection": "contacts", "record_id": "C2"}, False),
    ({"kind": "answer_contains", "id": "a", "values": ["tck-1", "ANN"]}, True),
    ({"kind": "answer_contains", "id": "a", "values": ["zzz", "ann"], "any_of": True}, True),
    ({"kind": "answer_contains", "id": "a", "values": ["zzz", "ann"]}, False),
    ({"kind": "tool_called", "id": "a", "service": "pay", "tool": "refund", "min_count": 2}, False),
    ({"kind": "tool_called", "id": "a", "service": "pay", "tool": "refund", "where": {"amount": 5}}, True),
    ({"kind": "tool_not_called", "id": "a", "service": "crm", "tool": "delete"}, True),
    ({"kind": "call_order", "id": "a", "before": {"service": "crm", "tool": "get"},
      "after": {"service": "pay", "tool": "refund"}}, True),
    ({"kind": "call_order", "id": "a", "before": {"service": "pay", "tool": "refund"},
      "after": {"service": "crm", "tool": "get"}}, False),
    ({"kind": "call_order", "id": "a", "before": {"service": "crm", "tool": "get"}, "require": "some_after",
      "after": {"service": "pay", "tool": "refund"}}, True),
    ({"kind": "call_order", "id": "a", "before": {"service": "pay", "tool": "refund"}, "require": "some_after",
      "after": {"service": "crm", "tool": "get"}}, False),
])
def test_each_check_kind(check, passed):
    c = ADAPTER.validate_python(check)
    assert run_check(c, STATE, "Done: TCK-1 for Ann", LOG, INITIAL) is passed


def test_evaluate_checks_returns_one_result_per_item_in_order():
    checks = [ADAPTER.validate_python(c) for c in (
        {"kind": "answer_contains", "id": "x", "values": ["a"], "description": "says a"},
        {"kind": "tool_called", "id": "y", "service": "crm", "tool": "get"},
    )]
    results = evaluate_checks(checks, STATE, None, LOG, INITIAL)
    assert [(r.id, r.kind, r.passed, r.description, r.guard) for r in results] == [
        ("x", "answer_contains", False, "says a", False), ("y", "tool_called", True, "", False)]


@pytest.mark.parametrize("check, passed", [
    ({"kind": "only_changed", "id": "a", "service": "crm", "collection": "contacts"}, False),  # C2 changed
    ({"kind": "only_changed", "id": "a", "service": "crm", "collection": "contacts", "allow_ids": ["C2"]}, True),
    ({"kind": "answer_excludes", "id": "a", "values": ["not a vip", "TCK-9"]}, True),
    ({"kind": "answer_excludes", "id": "a", "values": ["tck-1"]}, False),
    ({"kind": "answer_contains", "id": "a", "values": ["tck-1"], "max_chars": 5}, False),
])
def test_guards_and_answer_limits(check, passed):
    c = ADAPTER.validate_python(check)
    assert run_check(c, STATE, "Done: TCK-1 for Ann", LOG, INITIAL) is passed


def test_only_changed_new_records_must_match_allow_new():
    before = {"mail": {"sent": {}}}
    after = {"mail": {"sent": {"m1": {"to": ["a@x.io"]}, "m2": {"to": ["a@x.io", "spam@x.io"]}}}}
    base = {"kind": "only_changed", "id": "a", "service": "mail", "collection": "sent"}
    strict = ADAPTER.validate_python({**base, "allow_new": {"to": {"$subset": ["A@x.io"]}}})
    assert run_check(strict, after, None, [], before) is False
    after["mail"]["sent"].pop("m2")
    assert run_check(strict, after, None, [], before) is True
    assert run_check(ADAPTER.validate_python(base), after, None, [], before) is False
    assert strict.is_guard and not ADAPTER.validate_python(
        {"kind": "record_exists", "id": "b", "service": "s", "collection": "c", "where": {}}).is_guard


def test_score_scales_work_by_guards():
    from compoworld_gym.checks import CheckResult
    from compoworld_gym.episode import score

    def r(passed, guard):
        return CheckResult(id="x", kind="k", passed=passed, guard=guard)

    assert score([r(False, False), r(False, False), r(True, True)]) == 0.0  # doing nothing earns nothing
    assert score([r(True, False), r(False, False), r(True, True)]) == 0.5
    assert score([r(True, False), r(True, False), r(True, True), r(False, True)]) == 0.5   # one guard broken
    assert score([r(True, False), r(False, True), r(False, True), r(True, True)]) == 0.25  # two broken
    assert score([r(True, True)]) == 1.0 and score([]) == 0.0


def test_checks_are_plain_json_round_trip():
    raw = {"kind": "call_order", "id": "o", "description": "", "guard": None, "before": {"service": "a", "tool": "b", "where": {}},
           "after": {"service": "c", "tool": "d", "where": {"x": 1}}, "require": "every_after"}
    assert ADAPTER.dump_python(ADAPTER.validate_python(raw), mode="json") == raw
