"""The zero-shot table: per-episode counts, tools modes, the one-command run (tiny model)."""

from __future__ import annotations

import dataclasses

import orjson
import pytest

from compoworld_gym.baselines.agents import ReferenceAgent
from compoworld_gym.baselines.evaluate import EpisodeResult, aggregate, evaluate_agent, failed_result_codes
from compoworld_gym.builtin_tasks import builtin_tasks
from compoworld_gym.metatools import meta_tool_definitions
from compoworld_gym.trajectory import load_trajectories

META_NAMES = {d["function"]["name"] for d in meta_tool_definitions()}


def from_trajectories(path):
    """``(turns, unparsable turns, error codes)`` read back from a recorded JSONL file, independently
    of the counters: a rejected action is recorded as raw assistant text followed by a user error."""
    turns = unparsable = 0
    codes = []
    for traj in load_trajectories(path):
        msgs = [m.model_dump() if hasattr(m, "model_dump") else m for m in traj.messages][2:]
        for i, m in enumerate(msgs):
            if m["role"] == "assistant":
                turns += 1
                nxt = msgs[i + 1] if i + 1 < len(msgs) else None
                unparsable += bool(nxt and nxt["role"] == "user")
            elif m["role"] == "tool":
                value = orjson.loads(m["content"])
                if isinstance(value, dict) and value.get("success") is False:
                    codes.append(value["error"]["code"])
    return turns, unparsable, codes


# ------------------------------------------------------------------ evaluate
def test_reference_replays_through_flat_tools_and_meta_is_the_default():
    tasks = builtin_tasks()
    flat, runs = evaluate_agent(lambda s: ReferenceAgent(), tasks, tools="flat")
    assert flat["success_rate"] == 1.0 and flat["mean_rubric_score"] == 1.0
    assert flat["error_codes"] == {} and flat["parse_failure_share"] == 0.0
    assert flat["turns"] == sum(sum(c.name == "call_tool" for c in t.reference) + 1 for t in tasks)

    default, _ = evaluate_agent(lambda s: ReferenceAgent(), tasks[:3])
    meta, _ = evaluate_agent(lambda s: ReferenceAgent(), tasks[:3], tools="meta")
    assert default == meta and default["success_rate"] == 1.0
    with pytest.raises(ValueError, match="tools must be one of meta, flat; got 'mcp'"):
        evaluate_agent(lambda s: ReferenceAgent(), tasks[:1], tools="mcp")


def test_failed_result_codes_reads_the_envs_own_parse():
    assert failed_result_codes("[]", '{"success":false,"error":{"code":400,"message":"x"}}') is None
    assert failed_result_codes('{"final_answer": "ok"}', '{"final_answer":"ok"}') == []
    two = '[{"name":"list_services"},{"name":"describe_tool","arguments":{"tool":"nope"}}]'
    obs = '[{"services":["a"]},{"success":false,"error":{"code":404,"message":"no"}}]'
    assert failed_result_codes(two, obs) == [404]
    assert failed_result_codes('{"name":"call_tool"}', '{"success":false,"error":{"code":422,"message":"x"}}') == [422]


def test_aggregate_counts_turns_parse_failures_and_orders_codes():
    def ep(tid, turns, pf, codes):
        return EpisodeResult(task_id=tid, score=0.0, success=False, rubric=[], steps=turns, n_tool_calls=0,
                             n_real_tool_calls=0, finish_reason="answer", turns=turns, parse_failures=pf,
                             error_codes=codes)

    tasks = builtin_tasks()[:2]
    runs = {tasks[0].id: [ep(tasks[0].id, 3, 1, [404, 400, 404])], tasks[1].id: [ep(tasks[1].id, 5, 2, [400, 422])]}
    m = aggregate(tasks, runs)
    assert (m["turns"], m["parse_failures"], m["parse_failure_share"]) == (8, 3, 3 / 8)
    assert list(m["error_codes"].items()) == [("400", 2), ("404", 2), ("422", 1)]  # ties: lower code first


# ------------------------------------------------------------ scripted turns
@pytest.fixture(scope="module")
def agent():
    """The zero-shot agent over the tiny model (greedy), reused by the tests."""
    pytest.importorskip("torch")
    pytest.importorskip("trl")
    from compoworld_gym.baselines.zero_shot import ContextLimitedHFAgent

    return ContextLimitedHFAgent("tiny", max_new_tokens=8, temperature=0.0, device="cpu")


def scripted(agent, monkeypatch, turns):
    """Make the agent's model 'say' ``turns`` (the parse and the context check still run)."""
    texts = list(turns)
    monkeypatch.setattr(agent, "generate_text", lambda messages, tools: texts.pop(0))
    return texts


def call(name, **arguments):
    return "<tool_call>\n" + orjson.dumps({"name": name, "arguments": arguments}).decode() + "\n</tool_call>"


@pytest.mark.parametrize("tools", ["meta", "flat"])
def test_scripted_episode_counts_match_the_recorded_trajectory(agent, monkeypatch, tmp_path, tools):
    from compoworld_gym.baselines.zero_shot import ZeroShotConfig, run_cell

    task = builtin_tasks()[0]
    if tools == "meta":
        turns = [call("list_services"), '<tool_call>{"name": oops</tool_call>',
                 call("call_tool", tool_name="no_such_tool", arguments={}) + call("describe_tool", tool="nope"),
                 call("call_tool", tool_name="update_ticket", arguments={}), "Done."]
        want_codes = [404, 404, 400]
    else:
        turns = [call("list_services"), call("update_ticket"), "<tool_call>[1, 2</tool_call>", "Done."]
        want_codes = [404, 400]
    left = scripted(agent, monkeypatch, turns)
    monkeypatch.setattr(agent, "max_prompt_tokens", 10**6)  # the tiny tokenizer's flat prompt is ~70k tokens
    path = tmp_path / "t.jsonl"
    cell = run_cell(agent, "builtin", tools, [task], ZeroShotConfig(model="tiny", max_steps=8), path)
    assert left == [] and cell.episodes[0].finish == "answer"
    assert (cell.turns, cell.parse_failures) == (len(turns), 1)
    assert cell.parse_failure_share == pytest.approx(1 / len(turns))
    assert cell.episodes[0].error_codes == want_codes
    assert from_trajectories(path) == (len(turns), 1, want_codes)
    assert cell.all_error_codes == {"404": want_codes.count(404), "400": want_codes.count(400)}
    offered = {t["function"]["name"] for t in agent.tools}  # ChatAgent took the tools from the reset prompt
    assert (offered == META_NAMES) == (tools == "meta") and ("update_ticket" in offered) == (tools == "flat")
    assert ("list_services" in agent.messages[0]["content"]) == (tools == "meta")


def test_a_prompt_past_the_context_ends_the_episode_unread(agent, monkeypatch):
    from compoworld_gym.baselines.zero_shot import ZeroShotConfig, run_cell

    monkeypatch.setattr(agent, "generate_text", lambda m, t: pytest.fail("generated past the context"))
    monkeypatch.setattr(agent, "max_prompt_tokens", 32768)
    cell = run_cell(agent, "builtin", "flat", builtin_tasks()[:2], ZeroShotConfig(model="tiny"))
    assert cell.context_overflows == 2 and [e.finish for e in cell.episodes] == ["context", "context"]
    assert all(e.steps == 1 and e.prompt_tokens[0] > 32768 for e in cell.episodes)
    assert cell.mean_steps == 1.0 and cell.parse_failure_share == 0.0


# ------------------------------------------------------------- one command
@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    """The command's run twice, tiny model, 2 built-in + 2 generated tasks, both modes."""
    pytest.importorskip("torch")
    pytest.importorskip("trl")
    from compoworld_gym.baselines.zero_shot import ZeroShotConfig, run_zero_shot

    out = tmp_path_factory.mktemp("zs")
    config = ZeroShotConfig(model="tiny", builtin=2, generated=2, max_steps=4, max_new_tokens=16, out=str(out))
    first = run_zero_shot(config)
    second = run_zero_shot(dataclasses.replace(config, out=None))
    return first, second, out


def _untimed(obj):
    if isinstance(obj, dict):
        return {k: _untimed(v) for k, v in obj.items() if not k.endswith("seconds")}
    if isinstance(obj, list):
        return [_untimed(v) for v in obj]
    return obj


def test_the_run_is_real_and_deterministic(two_runs):
    first, second, out = two_runs
    assert [(c.suite, c.tools, c.tasks) for c in first.cells] == [
        ("builtin", "meta", 2), ("builtin", "flat", 2), ("generated", "meta", 2), ("generated", "flat", 2)]
    assert _untimed(orjson.loads(first.to_json())) == _untimed(orjson.loads(second.to_json()))
    assert first.model.name == "tiny" and first.model.context_tokens == 32768 and first.settings["temperature"] == 0.0
    for cell in first.cells:
        turns, unparsable, codes = from_trajectories(out / f"{cell.suite}-{cell.tools}.jsonl")
        assert (cell.turns, cell.parse_failures) == (turns, unparsable) == (
            sum(e.steps for e in cell.episodes), sum(e.parse_failures for e in cell.episodes))
        assert 0.0 <= cell.parse_failure_share <= 1.0 and cell.parse_failure_share == unparsable / turns
        assert sorted(int(c) for c, n in cell.all_error_codes.items() for _ in range(n)) == sorted(codes)
        assert cell.mean_steps == turns / cell.tasks and 0.0 <= cell.mean_rubric_score <= 1.0
        # The tiny tokenizer renders ~1.2k-1.6k tokens of meta prompt and ~60k-72k of flat prompt.
        assert (cell.context_overflows == cell.tasks) == (cell.tools == "flat")
        assert (cell.mean_first_prompt_tokens > 32768 - 16) == (cell.tools == "flat")
    assert first.model.max_prompt_tokens == 32768 - 16  # the context less max_new_tokens
    saved = orjson.loads((out / "zero_shot.json").read_bytes())
    assert _untimed(saved) == _untimed(orjson.loads(first.to_json()))
    lines = (out / "zero_shot.md").read_text().splitlines()
    assert lines[0].startswith("| tasks | tools | n | success |") and lines[1].startswith("|---|")
    assert [row.split(" | ")[:3] for row in lines[2:6]] == [["| builtin", "meta", "2"], ["| builtin", "flat", "2"],
                                                             ["| generated", "meta", "2"], ["| generated", "flat", "2"]]
    assert lines[6] == "" and lines[7].startswith("model tiny (tiny, ")


def test_bad_settings_and_a_missing_model_are_one_line(monkeypatch, tmp_path, capsys):
    pytest.importorskip("trl")
    from compoworld_gym.baselines.zero_shot import ZeroShotConfig, main

    with pytest.raises(ValueError, match="tools must be a non-empty list of meta, flat; got"):
        ZeroShotConfig(tools=["mcp"])
    with pytest.raises(ValueError, match="no tasks"):
        ZeroShotConfig(builtin=0, generated=0)
    with pytest.raises(ValueError, match="max_steps must be an int >= 1, got 0"):
        ZeroShotConfig(max_steps=0)
    with pytest.raises(ValueError, match="builtin must be an int >= 0, got -1"):
        ZeroShotConfig(builtin=-1)
    assert ZeroShotConfig(builtin=None, max_prompt_tokens=None).tools == ["meta", "flat"]
    monkeypatch.setenv("COMPOWORLD_CACHE", str(tmp_path))
    assert main(["--model", "smollm2", "--generated", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error: ") and "compoworld models fetch smollm2" in err
    assert main(["--model", "tiny", "--builtin", "13"]) == 2
    assert "builtin must be at most 12" in capsys.readouterr().err
    monkeypatch.chdir(tmp_path)
    assert main(["--model", "smolm2", "--generated", "0"]) == 2  # a typo: at once, no hub (issue 16)
    assert capsys.readouterr().err == ("error: unknown model 'smolm2': not a local directory and not a fetchable "
                                       "model (did you mean smollm2?)\n")
    (tmp_path / "file").write_text("x")
    assert main(["--model", "tiny", "--builtin", "1", "--generated", "0", "--out", str(tmp_path / "file")]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / 'file'} is a file; --out takes a directory " \
                                      "(its files are written inside it)\n"
