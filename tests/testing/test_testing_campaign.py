"""Fuzz campaigns (issue 18): ``minutes`` rounds, action counts, the JSON-lines log, resuming it."""

from __future__ import annotations

import json

import pytest

import compoworld_gym.fuzz as fuzz_mod
from compoworld_gym.fuzz import FuzzInterrupted, FuzzLogError, plan_batches, read_log, run_fuzz
from compoworld_gym.testing import FuzzProfile, service_env_factory
from compoworld_gym.testing.runner import run_machine

#: Two cheap service targets, two steps per run: each batch takes well under a second.
SMALL = {"seed": 7, "steps": 2, "include": ("service",), "services": ["helpdesk", "gmail"]}


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_run_machine_counts_the_resets_and_steps_it_executed():
    from compoworld_gym.envs.services.helpdesk import Helpdesk

    stats, failure = run_machine(service_env_factory(Helpdesk), profile=FuzzProfile(runs=4, steps=3), seed=1)
    assert failure is None and stats.runs >= 4
    # Each run is its seeded reset plus up to steps - 1 rule steps.
    assert stats.runs <= stats.actions <= 3 * stats.runs


def test_minutes_runs_rounds_until_the_time_is_up_and_reports_what_it_covered():
    report = run_fuzz(minutes=0.02, batch=2, **SMALL)
    assert report["minutes"] == 0.02 and report["failures"] == 0 and report["examples"] >= 1
    assert report["actions"] >= report["examples"] > 0
    assert report["batches"] == sum(e["batches"] for e in report["per_target"]) >= 1
    assert report["examples"] == sum(e["runs"] for e in report["per_target"])
    assert report["actions"] == sum(e["actions"] for e in report["per_target"])
    assert report["rss_mb_max"] > 0


def test_minutes_batches_are_rounds_over_every_target_on_round_derived_seeds():
    batches = plan_batches(3, seed=5, examples=None, batch=4)
    first = [next(batches) for _ in range(6)]
    # Round 0 sweeps every target with one run, so a short campaign reaches them all.
    assert [(b.index, b.round, b.runs) for b in first] == [(0, 0, 1), (1, 0, 1), (2, 0, 1),
                                                           (0, 1, 4), (1, 1, 4), (2, 1, 4)]
    assert len({b.seed for b in first}) == 6
    assert [(b.index, b.runs) for b in plan_batches(3, seed=5, examples=7, batch=4)] == [(0, 3), (1, 2), (2, 2)]
    # A large share is cut into rounds of at most MAX_BATCH_RUNS runs, round-major.
    big = [(b.index, b.round, b.runs) for b in plan_batches(2, seed=5, examples=4 * fuzz_mod.MAX_BATCH_RUNS + 3,
                                                            batch=4)]
    assert big == [(0, 0, 50), (1, 0, 50), (0, 1, 50), (1, 1, 50), (0, 2, 2), (1, 2, 1)]


def test_log_holds_the_header_and_one_flushed_line_per_batch(tmp_path):
    log = tmp_path / "fuzz.jsonl"
    report = run_fuzz(5, log=log, **SMALL)
    header, *batches = _lines(log)
    assert header["header"] == "compoworld-fuzz" and header["seed"] == 7 and header["steps"] == 2
    assert header["include"] == ["service"] and header["examples"] == 5 and header["minutes"] is None
    assert header["targets"] == ["service:helpdesk", "service:gmail"]
    assert [(b["target"], b["round"], b["planned"]) for b in batches] == [
        ("service:helpdesk", 0, 3), ("service:gmail", 0, 2)]
    for b in batches:
        assert {"target", "round", "seed", "runs", "actions", "failures", "seconds", "rss_mb"} <= set(b)
        assert b["runs"] > 0 and b["actions"] >= b["runs"] and b["failures"] == 0 and b["rss_mb"] > 0
    assert sum(b["actions"] for b in batches) == report["actions"]


def test_resume_of_a_finished_log_runs_nothing_and_reports_the_same_totals(tmp_path, monkeypatch):
    log = tmp_path / "fuzz.jsonl"
    first = run_fuzz(5, log=log, **SMALL)
    before = log.read_bytes()
    monkeypatch.setattr(fuzz_mod, "_run_batch", lambda job: pytest.fail(f"ran {job[0].label} again"))
    again = run_fuzz(log=log, resume=True)  # the settings come from the log
    assert log.read_bytes() == before
    for key in ("examples", "actions", "failures", "batches", "seed", "steps", "targets"):
        assert again[key] == first[key], key


def test_resume_of_a_partial_log_runs_only_the_rest(tmp_path):
    full = run_fuzz(5, log=tmp_path / "full.jsonl", **SMALL)
    log = tmp_path / "part.jsonl"
    log.write_text("\n".join((tmp_path / "full.jsonl").read_text().splitlines()[:2]) + "\n")  # header + helpdesk
    resumed = run_fuzz(log=log, resume=True, **SMALL)
    done = _lines(log)[1:]
    assert [(b["target"], b["round"]) for b in done] == [("service:helpdesk", 0), ("service:gmail", 0)]
    assert resumed["examples"] == full["examples"] == 5 and resumed["batches"] == 2
    # Same seed, same batch: the resumed gmail batch draws the same runs as in the full campaign.
    assert [e["actions"] for e in resumed["per_target"]] == [e["actions"] for e in full["per_target"]]


def test_a_cut_last_line_is_ignored_with_a_note_and_replaced(tmp_path):
    log = tmp_path / "fuzz.jsonl"
    run_fuzz(5, log=log, **SMALL)
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:2]) + "\n" + lines[2][:25])  # gmail's line, cut mid-write
    resumed = run_fuzz(log=log, resume=True)
    assert any("ignored its last line 3" in n for n in resumed["notes"])
    assert [b["target"] for b in _lines(log)[1:]] == ["service:helpdesk", "service:gmail"]
    assert resumed["examples"] == 5


def test_resume_with_other_settings_or_a_damaged_log_is_a_clear_error(tmp_path):
    log = tmp_path / "fuzz.jsonl"
    run_fuzz(2, log=log, **SMALL)
    with pytest.raises(FuzzLogError, match=r"other settings: steps 2 \(given 5\)"):
        run_fuzz(log=log, resume=True, steps=5)
    lines = log.read_text().splitlines()
    log.write_text("\n".join([lines[0], "{oops", lines[1]]) + "\n")
    with pytest.raises(FuzzLogError, match="line 2 is not a JSON object"):
        read_log(log)
    with pytest.raises(FuzzLogError, match="already exists; continue its campaign with --resume"):
        run_fuzz(2, log=log, **SMALL)  # a new campaign never overwrites a log
    (tmp_path / "other.jsonl").write_text('{"target": "x"}\n')
    with pytest.raises(FuzzLogError, match="not a compoworld fuzz log"):
        run_fuzz(log=tmp_path / "other.jsonl", resume=True)


def test_ctrl_c_keeps_the_log_and_reports_what_finished(tmp_path, monkeypatch):
    log, real, calls = tmp_path / "fuzz.jsonl", fuzz_mod._run_batch, []

    def interrupted_second(job):
        calls.append(job[0].label)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(job)

    monkeypatch.setattr(fuzz_mod, "_run_batch", interrupted_second)
    with pytest.raises(FuzzInterrupted) as caught:
        run_fuzz(5, log=log, **SMALL)
    assert caught.value.report["batches"] == 1 and caught.value.report["examples"] == 3
    assert [b["target"] for b in _lines(log)[1:]] == ["service:helpdesk"]
    monkeypatch.setattr(fuzz_mod, "_run_batch", real)
    assert run_fuzz(log=log, resume=True)["examples"] == 5


def test_a_crashing_target_is_dropped_from_later_rounds():
    report = run_fuzz(minutes=0.01, seed=0, steps=2, include=("service",), services=["no_such_service"])
    assert report["batches"] == 1 and report["failures"] == 1 and report["failed"][0]["invariant"] == "crash"
