"""``compoworld fuzz`` shows progress on a terminal, never inside ``--json``; ``bench --json`` is
JSON only (issue 14); ``--minutes``, ``--log``, ``--resume`` and Ctrl-C (issue 18)."""

from __future__ import annotations

import functools
import json

import pytest
from typer.testing import CliRunner

import compoworld_gym.benchmarks.run as bench_run
import compoworld_gym.fuzz as fuzz_mod
from compoworld_gym.cli import app, common
from compoworld_gym.fuzz import run_fuzz

runner = CliRunner()


@pytest.fixture
def two_services(monkeypatch):
    """The real run_fuzz over helpdesk, gmail and the built-in pool (all 51 targets take ~40 s)."""
    monkeypatch.setattr(fuzz_mod, "run_fuzz", functools.partial(
        run_fuzz, include=("service", "builtin"), services=["helpdesk", "gmail"]))


@pytest.mark.parametrize("terminal", [False, True])
def test_fuzz_json_is_one_document_and_the_bar_only_on_a_terminal_stderr(monkeypatch, two_services, terminal):
    # What a TTY on stderr gives the console (rich reads both when it is built, not when it prints).
    monkeypatch.setattr(common.errors, "_force_terminal", terminal)
    monkeypatch.setattr(common.errors, "is_interactive", terminal)
    out = runner.invoke(app, ["fuzz", "--examples", "5", "--steps", "3", "--seed", "0", "--json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)  # the whole of stdout: one JSON document
    assert report["examples"] == 5 and report["targets"] == 3 and report["failures"] == 0
    assert report["actions"] >= 5
    assert [(e["target"], e["planned"]) for e in report["per_target"]] == [
        ("service:helpdesk", 2), ("service:gmail", 2), ("builtin", 1)]
    assert ("fuzz (0 failure(s))" in out.stderr) is terminal
    if not terminal:
        assert out.stderr == ""


def test_progress_is_called_once_per_target_with_the_runs_total():
    calls = []
    report = run_fuzz(5, seed=3, steps=2, include=("service",), services=["helpdesk", "gmail"],
                      progress=lambda entry, done, total: calls.append((entry, done, total)))
    assert [(e["target"], done, total) for e, done, total in calls] == [
        ("service:helpdesk", 3, 5), ("service:gmail", 5, 5)]
    # One batch per target with --examples: each progress record is its target's whole share.
    assert [(e["runs"], e["actions"]) for e, _, _ in calls] == [
        (t["runs"], t["actions"]) for t in report["per_target"]]
    assert report["examples"] == 5 and report["actions"] == sum(e["actions"] for e, _, _ in calls) >= 5


def test_progress_with_workers_follows_completion_and_keeps_the_report_in_plan_order():
    calls = []
    report = run_fuzz(3, seed=3, steps=2, workers=2, include=("service",), services=["helpdesk", "gmail"],
                      progress=lambda entry, done, total: calls.append((entry["target"], done, total)))
    assert sorted(t for t, _, _ in calls) == ["service:gmail", "service:helpdesk"]
    assert calls[-1][1:] == (3, 3) and {total for _, _, total in calls} == {3}
    assert [e["target"] for e in report["per_target"]] == ["service:helpdesk", "service:gmail"]
    assert [e["planned"] for e in report["per_target"]] == [2, 1] and report["examples"] == 3


def test_progress_reaches_the_total_when_a_target_crashes(monkeypatch):
    import compoworld_gym.fuzz as fuzz_mod

    def broken(self):
        raise RuntimeError("cannot build the env")

    monkeypatch.setattr(fuzz_mod.Target, "factory", broken)
    calls = []
    report = run_fuzz(4, seed=0, include=("service",), services=["helpdesk"],
                      progress=lambda e, done, total: calls.append((e["failure"]["invariant"], done, total)))
    assert calls == [("crash", 4, 4)] and report["examples"] == 0 and report["failures"] == 1


def test_bench_json_prints_only_json(monkeypatch):
    # The real benchmark code, three of its fast families (the full quick set is ~20 s; checked by hand).
    monkeypatch.setattr(bench_run, "run_benchmarks", functools.partial(
        bench_run.run_benchmarks, families=("episode", "generation", "vector")))
    out = runner.invoke(app, ["bench", "--quick", "--json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    assert report["quick"] is True and report["episode_ms"] > 0 and report["tasks_per_s"] > 0
    assert report["step_read_us"] is None  # the step family did not run
    assert set(report["seconds"]) == {"episode", "generation", "vector", "total"}


def test_fuzz_minutes_with_a_log_then_resume_reports_the_same_totals(two_services, tmp_path):
    log = tmp_path / "campaign.jsonl"
    out = runner.invoke(app, ["fuzz", "--minutes", "0.02", "--steps", "2", "--seed", "4", "--log", str(log),
                              "--json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    assert report["minutes"] == 0.02 and report["examples"] > 0 and report["actions"] >= report["examples"]
    header, *batches = [json.loads(line) for line in log.read_text().splitlines()]
    assert header["minutes"] == 0.02 and header["steps"] == 2 and len(batches) == report["batches"] >= 1
    # The budget is spent: resuming runs nothing and reports what the log holds.
    again = runner.invoke(app, ["fuzz", "--resume", str(log), "--json"])
    assert again.exit_code == 0, again.output
    resumed = json.loads(again.stdout)
    assert (resumed["examples"], resumed["actions"], resumed["batches"]) == (
        report["examples"], report["actions"], report["batches"])
    assert len(log.read_text().splitlines()) == 1 + len(batches)


def test_fuzz_ctrl_c_says_what_was_covered_exits_130_and_resume_finishes(monkeypatch, two_services, tmp_path):
    log, real, calls = tmp_path / "campaign.jsonl", fuzz_mod._run_batch, []

    def interrupted_second(job):
        calls.append(job)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(job)

    monkeypatch.setattr(fuzz_mod, "_run_batch", interrupted_second)
    out = runner.invoke(app, ["fuzz", "--examples", "4", "--steps", "2", "--seed", "0", "--log", str(log)])
    assert out.exit_code == 130
    assert out.stderr.count("\n") == 1 and "interrupted: 2 runs" in out.stderr
    assert f"--resume {log} continues" in out.stderr
    monkeypatch.setattr(fuzz_mod, "_run_batch", real)
    done = runner.invoke(app, ["fuzz", "--resume", str(log), "--json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["examples"] == 4
    assert [json.loads(line)["target"] for line in log.read_text().splitlines()[1:]] == [
        "service:helpdesk", "service:gmail", "builtin"]


def test_fuzz_resume_with_other_settings_is_one_line(two_services, tmp_path):
    log = tmp_path / "campaign.jsonl"
    assert runner.invoke(app, ["fuzz", "--examples", "3", "--steps", "2", "--seed", "0", "--log", str(log)]
                         ).exit_code == 0
    out = runner.invoke(app, ["fuzz", "--resume", str(log), "--seed", "9"])
    assert out.exit_code == 2 and "other settings: seed 0 (given 9)" in out.stderr
    assert out.stderr.count("\n") == 1
    both = runner.invoke(app, ["fuzz", "--examples", "3", "--minutes", "1"])
    assert both.exit_code == 2 and "not both" in both.stderr


def test_fuzz_leaves_no_hypothesis_folder_in_the_working_directory(tmp_path):
    import subprocess
    import sys

    env = {**__import__("os").environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("HYPOTHESIS_STORAGE_DIRECTORY", None)
    work = tmp_path / "work"
    work.mkdir()
    out = subprocess.run([sys.executable, "-m", "compoworld_gym.cli", "fuzz", "--examples", "2", "--steps", "2",
                          "--include", "service", "--services", "helpdesk", "--json"],
                         cwd=work, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert list(work.iterdir()) == []


def test_fuzz_sigterm_reports_exits_130_and_leaves_no_worker_behind(tmp_path):
    """Regression (the million-action campaign): SIGTERM killed the parent of a --workers 2
    campaign outright and its two workers kept fuzzing, orphaned."""
    import os
    import signal
    import subprocess
    import sys
    import time

    log = tmp_path / "campaign.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "compoworld_gym.cli", "fuzz", "--minutes", "10", "--workers", "2", "--seed", "1",
         "--include", "service", "--services", "helpdesk,gmail", "--log", str(log)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (not log.exists() or len(log.read_text().splitlines()) < 3):
            time.sleep(0.5)
        assert len(log.read_text().splitlines()) >= 3, "no batch finished"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "interrupted:" in err and f"--resume {log} continues" in err
    time.sleep(1)
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)  # the whole session is gone: no orphaned worker


@pytest.mark.parametrize("args, said", [
    (["--services", "helpdesk,nosuch"], "unknown service(s) 'nosuch'; `compoworld services` lists the built-in ones"),
    (["--steps", "1"], "greater than or equal to 2"),
])
def test_fuzz_refuses_unknown_services_and_one_step_runs_in_one_line(monkeypatch, args, said):
    monkeypatch.setattr(fuzz_mod, "_run_batch", lambda job: pytest.fail("ran a batch"))
    out = runner.invoke(app, ["fuzz", "--examples", "2", *args])
    assert out.exit_code == 2 and said in " ".join(out.stderr.split())


def test_fuzz_summary_says_how_many_targets_a_short_campaign_reached(monkeypatch):
    real = fuzz_mod._run_batch
    monkeypatch.setattr(fuzz_mod, "_run_batch", lambda job: {**real(job), "seconds": 0.01})
    # one batch, then the deadline: 1 of the 3 planned targets reached
    clock = iter([0.0, 0.0, 0.0] + [1e9] * 100)
    monkeypatch.setattr(fuzz_mod.time, "monotonic", lambda: next(clock))
    out = runner.invoke(app, ["fuzz", "--minutes", "1", "--seed", "0", "--steps", "2", "--include", "service",
                              "--services", "helpdesk,gmail,slack"])
    assert out.exit_code == 0, out.output
    assert "over 1 of 3 targets" in out.stdout
