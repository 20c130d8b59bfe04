"""RecordTrajectory and the shared trajectory loader (the paper's format)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from gymnasium.utils.env_checker import check_env

from compoworld_gym.trajectory import TrajectoryFileError, load_trajectories
from compoworld_gym.wrappers import ChatFormat, RecordTrajectory, RubricReward

PAPER_SAMPLE = Path(__file__).parent / "data" / "paper_trajectory.jsonl"
META_KEYS = {"task_id", "services", "distractors", "domain", "capabilities", "rubric", "rubric_score", "score",
             "n_tool_calls", "n_real_tool_calls", "n_steps", "finish_reason"}


def play(env, actions, task="t-escalate"):
    env.reset(seed=0, options={"task": task})
    for a in actions:
        env.step(a)


def test_reference_run_round_trips(make_env, acts, tmp_path):
    path = tmp_path / "traj.jsonl"
    env = RecordTrajectory(make_env(), path, source="test-agent", mode="w")
    two_calls = f"[{acts.URGENT}, {acts.REPLY}]"
    play(env, ['{"name": "list_services"}', two_calls, "Escalated TCK-0013."])
    env.close()
    raw = [orjson.loads(line) for line in path.read_text().splitlines()]
    assert len(raw) == 1 and set(raw[0]) == {"tools", "messages", "meta", "source"}
    rec = raw[0]
    assert rec["source"] == "test-agent"
    assert [t["function"]["name"] for t in rec["tools"]] == ["list_services", "list_tools", "describe_tool",
                                                            "call_tool"]
    assert [m["role"] for m in rec["messages"]] == ["system", "user", "assistant", "tool", "assistant", "tool",
                                                    "tool", "assistant"]
    second = rec["messages"][4]
    assert [c["id"] for c in second["tool_calls"]] == ["call_0001", "call_0002"]
    assert second["tool_calls"][0]["function"] == {"name": "call_tool", "arguments": {
        "tool_name": "update_ticket", "arguments": {"ticket_id": "TCK-0013", "priority": "urgent"}}}
    tool = rec["messages"][5]
    assert (tool["tool_call_id"], tool["name"]) == ("call_0001", "call_tool")
    assert orjson.loads(tool["content"])["data"]["priority"] == "urgent"  # content is a JSON string
    assert rec["messages"][-1] == {"role": "assistant", "content": "Escalated TCK-0013."}
    meta = rec["meta"]
    assert set(meta) == META_KEYS
    assert {k: meta[k] for k in META_KEYS - {"rubric"}} == {
        "task_id": "t-escalate", "services": ["helpdesk"], "distractors": [], "domain": "support",
        "capabilities": ["sequential-dependency"], "rubric_score": 1.0, "score": 1.0, "n_tool_calls": 3,
        "n_real_tool_calls": 2, "n_steps": 3, "finish_reason": "stop"}
    assert [r["passed"] for r in meta["rubric"]] == [True] * 4
    loaded = load_trajectories(path)[0]
    assert loaded.meta.n_real_tool_calls == 2 and loaded.unanswered_calls() == []
    assert loaded.to_json() == path.read_text().strip()


def test_error_turn_truncation_and_score_from_wrapper(make_env, acts, tmp_path):
    path = tmp_path / "traj.jsonl"
    env = RecordTrajectory(RubricReward(make_env(max_steps=2), mode="binary"), path)
    play(env, ['{"name": ', acts.URGENT])
    env.close()
    (t,) = load_trajectories(path)
    assert [m.role for m in t.messages] == ["system", "user", "assistant", "user", "assistant", "tool"]
    assert t.messages[2].content == '{"name": '
    assert orjson.loads(t.messages[3].content)["error"]["code"] == 400
    assert (t.meta.finish_reason, t.meta.score, t.meta.rubric_score, t.meta.n_steps) == ("max_steps", 0.0, 0.5, 2)
    assert t.source == "compoworld-gym"


def test_appends_one_line_per_finished_episode(make_env, acts, tmp_path):
    path = tmp_path / "traj.jsonl"
    env = RecordTrajectory(make_env(), path)
    for name in ("full", "record_only", "nothing"):
        play(env, acts.ESCALATE[name][0])
    env.reset(seed=0)  # an unfinished episode is not written
    env.step(acts.URGENT)
    env.close()
    scores = [t.meta.rubric_score for t in load_trajectories(path)]
    assert scores == [1.0, 0.5, 0.0] and env.episodes_written == 3


def test_over_chat_format_records_the_conversation(make_env, tmp_path):
    path = tmp_path / "traj.jsonl"
    env = RecordTrajectory(ChatFormat(make_env()), path)
    env.reset(seed=0, options={"task": "t-assign"})
    env.step('Looking.<tool_call>{"name": "list_services", "arguments": {}}</tool_call>')
    env.step("Nothing to do.")
    env.close()
    (t,) = load_trajectories(path)
    assert [m.role for m in t.messages] == ["system", "user", "assistant", "tool", "assistant"]
    assert t.messages[2].content == "Looking." and t.messages[2].tool_calls[0].id == "call_0000"
    assert (t.meta.task_id, t.meta.n_tool_calls, t.meta.rubric_score) == ("t-assign", 1, 0.0)
    assert len(t.tools) == 4


def test_loads_the_paper_published_format():
    first, second = load_trajectories(PAPER_SAMPLE)
    assert first.meta.task_id == 460 and first.source == "EnvScal/ReAct-Gateway-Fixture"
    assert (first.meta.n_tool_calls, first.meta.n_real_tool_calls, first.meta.n_steps) == (4, 2, 4)
    assert first.meta.finish_reason == "stop" and first.meta.services == ["neon", "servicem8"]
    assert first.meta.model_extra["net_score"] == 1.0 and first.meta.model_extra["discover_mode"] == "gateway"
    assert [m.role for m in first.messages].count("tool") == 4
    assert first.messages[2].model_extra["reasoning_content"] == "List the services first."
    call = first.messages[4].tool_calls[1].function
    assert (call.name, call.arguments) == ("call_tool", {"arguments": {}, "tool_name": "servicem8_list_all_jobs"})
    assert first.unanswered_calls() == []
    chat = first.chat_messages(arguments_as_string=True)
    assert chat[4]["tool_calls"][0]["function"]["arguments"] == '{"arguments":{},"tool_name":"neon__list_projects"}'
    assert second.messages[2].tool_calls[0].function.arguments == {}  # "{}" string decoded
    assert second.meta.rubric_score == 0.5


@pytest.mark.parametrize("line, fragment", [
    ("{not json", "not valid JSON"),
    ('{"tools": [], "messages": [], "meta": {"task_id": 1}, "source": "x"}', "'messages'"),
    ('{"tools": [], "messages": [{"role": "tool", "content": "x"}], "meta": {"task_id": 1}, "source": "x"}',
     "tool_call_id"),
])
def test_bad_lines_name_file_and_line(tmp_path, line, fragment):
    path = tmp_path / "bad.jsonl"
    path.write_text("\n" + line + "\n")
    with pytest.raises(TrajectoryFileError, match=fragment) as err:
        load_trajectories(path)
    assert f"{path}:2" in str(err.value)


def test_check_env(make_env, tmp_path):
    check_env(RecordTrajectory(make_env(), tmp_path / "c.jsonl"), skip_render_check=True)
    with pytest.raises(ValueError, match="mode"):
        RecordTrajectory(make_env(), tmp_path / "x.jsonl", mode="r")
