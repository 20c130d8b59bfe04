"""The tolerant tool-call parser: each format, mixed text, malformed input."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compoworld_gym.toolcall_parser import MAX_CALLS, parse_tool_calls

GET = {"name": "call_tool", "arguments": {"tool_name": "get_ticket", "arguments": {"ticket_id": "TCK-0013"}}}


def calls(text):
    out = parse_tool_calls(text)
    assert out.error is None, out.error
    return [(c.name, c.arguments, c.id) for c in out.calls]


def test_hermes_single_and_multiple_with_text():
    text = ('I will look first.\n<tool_call>\n{"name": "list_services", "arguments": {}}\n</tool_call>\n'
            f'<tool_call>{orjson.dumps(GET).decode()}</tool_call>\nthen decide.')
    out = parse_tool_calls(text)
    assert [(c.name, c.arguments) for c in out.calls] == [("list_services", {}), (GET["name"], GET["arguments"])]
    assert out.content == "I will look first.\nthen decide."
    assert out.final_answer is None


def test_hermes_unclosed_at_end_is_tolerated():
    assert calls('<tool_call>{"name": "list_tools", "arguments": {"service": "helpdesk"}}') == [
        ("list_tools", {"service": "helpdesk"}, None)]


def test_arguments_as_json_string():
    text = '<tool_call>{"name": "describe_tool", "arguments": "{\\"tool\\": \\"get_ticket\\"}"}</tool_call>'
    assert calls(text) == [("describe_tool", {"tool": "get_ticket"}, None)]


def test_openai_tool_calls_json():
    text = orjson.dumps({"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_abc", "type": "function",
         "function": {"name": "list_tools", "arguments": '{"service": "helpdesk"}'}},
        {"id": "call_def", "type": "function", "function": {"name": "list_services", "arguments": "{}"}}]}).decode()
    assert calls(text) == [("list_tools", {"service": "helpdesk"}, "call_abc"), ("list_services", {}, "call_def")]
    bare_list = '[{"type": "function", "function": {"name": "list_services", "arguments": {}}}]'
    assert calls(bare_list) == [("list_services", {}, None)]


def test_llama3_and_mistral():
    assert calls('<|python_tag|>{"name": "list_tools", "parameters": {"service": "helpdesk"}}') == [
        ("list_tools", {"service": "helpdesk"}, None)]
    assert calls('{"name": "list_tools", "parameters": {"service": "x"}}') == [("list_tools", {"service": "x"}, None)]
    assert calls('[TOOL_CALLS] [{"name": "list_services", "arguments": {}}]') == [("list_services", {}, None)]


def test_bare_json_object_array_and_fence():
    assert calls('{"name": "list_services"}') == [("list_services", {}, None)]
    assert calls('[{"name": "a", "arguments": {}}, {"name": "b", "arguments": null}]') == [
        ("a", {}, None), ("b", {}, None)]
    assert calls('```json\n{"name": "list_services", "arguments": {}}\n```') == [("list_services", {}, None)]


def test_no_call_is_final_answer():
    assert parse_tool_calls("  Escalated TCK-0013.\n").final_answer == "Escalated TCK-0013."
    assert parse_tool_calls('{"status": "ok"}').final_answer == '{"status": "ok"}'
    assert parse_tool_calls("").final_answer == ""


def test_think_blocks_are_ignored():
    out = parse_tool_calls('<think>maybe <tool_call>{"name": "x"}</tool_call></think>Done: TCK-0013.')
    assert out.final_answer == "Done: TCK-0013." and not out.calls
    out = parse_tool_calls('<think>plan</think><tool_call>{"name": "list_services"}</tool_call>')
    assert [c.name for c in out.calls] == ["list_services"]


@pytest.mark.parametrize("text, fragment", [
    ('<tool_call>{"name": "x", </tool_call>', "not valid JSON"),
    ('<tool_call>{"arguments": {}}</tool_call>', "non-empty string 'name'"),
    ('<tool_call>{"name": "x", "arguments": [1]}</tool_call>', "must be a JSON object"),
    ('<tool_call>{"name": "x", "arguments": "{bad"}</tool_call>', "arguments string is not valid JSON"),
    ('<tool_call>{"name": "a"}<tool_call>{"name": "b"}</tool_call>', "not closed"),
    ('oops </tool_call>', "without an opening"),
    ('<|python_tag|>not json', "expected JSON"),
    ('{"name": "x", "arguments": {', "not valid JSON"),
    ('{"name": 3, "arguments": {}}', "non-empty string 'name'"),
    ('{"tool_calls": "x"}', "'tool_calls' must be a list"),
])
def test_malformed_markers_are_errors(text, fragment):
    out = parse_tool_calls(text)
    assert out.error is not None and fragment in out.error
    assert out.calls == [] and out.final_answer is None
    assert "<tool_call>" in out.error  # says what to write instead


def test_too_many_calls_and_non_text():
    text = "".join('<tool_call>{"name": "list_services"}</tool_call>' for _ in range(MAX_CALLS + 1))
    assert f"{MAX_CALLS + 1} tool calls" in parse_tool_calls(text).error
    assert "must be text" in parse_tool_calls(b"x").error


def test_deep_nesting_does_not_raise():
    out = parse_tool_calls("<tool_call>" + "[" * 5000 + "]" * 5000 + "</tool_call>")
    assert out.error is not None


MARKERS = st.sampled_from(["<tool_call>", "</tool_call>", "<|python_tag|>", "[TOOL_CALLS]", "{", "}", "[", "]",
                           '"name"', '"arguments"', ":", ",", '"', "<think>", "</think>", "```", "null", "\\"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=8), MARKERS), max_size=30).map("".join))
def test_never_raises_on_arbitrary_text(text):
    out = parse_tool_calls(text)
    assert sum(x is not None and x != [] for x in (out.calls or None, out.final_answer, out.error)) == 1
    for c in out.calls:
        assert isinstance(c.name, str) and isinstance(c.arguments, dict)
