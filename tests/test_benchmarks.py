"""Smoke test of the benchmark suite: the quick set runs, with tiny
repetition counts, and reports every headline key with positive numbers.
Never asserts a speed (timings depend on the machine)."""

from __future__ import annotations

import json

import pytest

from compoworld_gym.benchmarks import _common, episode, memory, run, step
from compoworld_gym.benchmarks._common import percentile, summarise_ns, time_calls

HEADLINE = ("step_read_us", "step_write_us", "reset_ms", "episode_ms", "tasks_per_s", "env_kib")


def test_percentile_and_summary_are_exact():
    xs = sorted([5, 1, 3, 2, 4])
    assert percentile(xs, 0.5) == 3 and percentile(xs, 0.99) == 5 and percentile(xs, 0.0) == 1
    assert summarise_ns([1000, 3000, 2000]) == {"median_us": 2.0, "p99_us": 3.0, "n": 3}
    assert summarise_ns([2_000_000], unit="ms") == {"median_ms": 2.0, "p99_ms": 2.0, "n": 1}
    with pytest.raises(ValueError):
        percentile([], 0.5)


def test_time_calls_runs_setup_before_every_repetition():
    calls: list[str] = []
    out = time_calls(lambda: calls.append("f"), reps=3, warmup=1, setup=lambda: calls.append("s"))
    assert calls == ["s", "f"] * 4 and out["n"] == 3 and out["median_us"] > 0


def test_bench_task_is_a_scorable_five_service_task():
    task, source = _common.bench_task()
    assert len(task.services) == 5 and task.reference and source
    read, write = step.reference_calls(task, step.CompoWorldEnv(tasks=[task]))
    assert read["tool_name"] != write["tool_name"]


@pytest.fixture(scope="module")
def quick(monkeypatch_module):
    # Tiny repetition counts: the smoke test checks shape, not speed.
    monkeypatch_module.setattr(memory, "_measure", _small_measure(memory._measure))
    return run.run_benchmarks(quick=True, families=("step", "episode", "generation", "memory"))


def _small_measure(original):
    def measure(task, n, play):
        return original(task, min(n, 5), play)
    return measure


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def test_quick_run_reports_positive_headline_figures(quick):
    for key in HEADLINE:
        assert isinstance(quick[key], (int, float)) and quick[key] > 0, key
    assert quick["episode"]["episode_reward"] == 1.0
    assert quick["step"]["failed_reference_calls"] == 0
    assert set(quick["targets_met"]) == set(HEADLINE)
    assert all(isinstance(v, bool) for v in quick["targets_met"].values())
    assert quick["machine"]["python"] and quick["machine"]["packages"]["pydantic"]
    assert set(quick["step"]["meta_tools"]) == {"list_services", "list_tools", "describe_tool",
                                                "call_tool_read", "call_tool_write", "final_answer"}
    assert [row["envs"] for row in quick["memory"]["after_reset"]] == [1, 5]
    json.dumps(quick)  # the whole result is JSON-serialisable


def test_targets_met_compares_in_the_right_direction():
    ok = run.targets_met({"episode_ms": 4.0, "step_read_us": 30.0, "tasks_per_s": 150.0})
    assert ok["episode_ms"] is True and ok["step_read_us"] is False and ok["tasks_per_s"] is True
    assert ok["env_kib"] is None


def test_script_entry_point_prints_json(capsys, monkeypatch):
    monkeypatch.setattr(episode, "run", lambda quick: {"reset_ms": 0.5, "quick": quick})
    episode.main(["--json", "--quick"])
    out = json.loads(capsys.readouterr().out)
    assert out["reset_ms"] == 0.5 and out["quick"] is True and "packages" in out["machine"]
    episode.main([])
    assert "reset_ms" in capsys.readouterr().out
