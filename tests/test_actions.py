"""Action parsing: calls, final answers, malformed and oversized input."""

from __future__ import annotations

import json

import pytest

from compoworld_gym.actions import MAX_ACTION_CHARS, MAX_DEPTH, parse_action


def test_single_call():
    p = parse_action('{"name": "list_tools", "arguments": {"service": "helpdesk"}}')
    assert p.calls == [("list_tools", {"service": "helpdesk"})] and p.error is None


def test_several_calls_in_one_turn():
    p = parse_action('[{"name": "list_services"}, {"name": "describe_tool", "arguments": {"tool": "x"}}]')
    assert p.calls == [("list_services", {}), ("describe_tool", {"tool": "x"})]


@pytest.mark.parametrize("text, answer", [
    ("The ticket is TCK-1.", "The ticket is TCK-1."),
    ('{"final_answer": "done"}', "done"),
    ("", ""),
])
def test_final_answers(text, answer):
    assert parse_action(text).final_answer == answer


@pytest.mark.parametrize("text, fragment", [
    ("{not json", "not valid JSON"),
    ("[]", "empty list"),
    ('{"arguments": {}}', "string 'name'"),
    ('{"name": "x", "bogus": 1}', "unexpected key(s) 'bogus'"),
    ('[1, 2]', "must be a JSON object"),
    ('{"final_answer": 3}', "final answer must be exactly"),
    ('{"final_answer": "a", "name": "b"}', "final answer must be exactly"),
])
def test_malformed_is_400(text, fragment):
    p = parse_action(text)
    assert p.error["error"]["code"] == 400
    assert fragment in p.error["error"]["message"]


def test_bounds():
    assert "limit is 65536" in parse_action("x" * (MAX_ACTION_CHARS + 1)).error["error"]["message"]
    deep = json.dumps({"name": "call_tool", "arguments": {"arguments": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}})
    assert f"deeper than {MAX_DEPTH}" in parse_action(deep).error["error"]["message"]
    assert "an action must be a string" in parse_action(b"{}").error["error"]["message"]
