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
    assert report["targets"] == 2 and report["targets_reached"] == sum(e["batches"] > 0 for e in report["per_target"])
    assert report["actions"] >= report["examples"] > 0
    assert report["batches"] == sum(e["batches"] for e in report["per_target"]) >= 1
    assert report["examples"] == sum(e["runs"] for e in report["per_target"])
    assert report["actions"] == sum(e["actions"] for e in report["per_target"])
    assert report["rss_mb_max"] > 0


def test_minutes_batches_are_rounds_over_every_target_on_round_derived_seeds():
    batches = plan_batches(3, seed=5, examples=None, batch=4)
    first = [next(batches) for _ in range(6)]
    # Every round, the first included, gives every target a full batch (the first round is the
    # campaign's memory warm-up).
    assert [(b.index, b.round, b.runs) for b in first] == [(0, 0, 4), (1, 0, 4), (2, 0, 4),
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


def test_a_crashing_target_is_dropped_from_later_rounds(monkeypatch):
    def broken(self):
        raise RuntimeError("cannot build the env")

    monkeypatch.setattr(fuzz_mod.Target, "factory", broken)
    report = run_fuzz(minutes=0.01, seed=0, steps=2, include=("service",), services=["helpdesk"])
    assert report["batches"] == 1 and report["failures"] == 1 and report["failed"][0]["invariant"] == "crash"
    assert report["failed"][0]["message"] == "RuntimeError: cannot build the env"


def test_unknown_services_and_one_step_runs_are_refused_before_anything_runs(monkeypatch):
    monkeypatch.setattr(fuzz_mod, "_run_batch", lambda job: pytest.fail("ran a batch"))
    with pytest.raises(ValueError, match=r"unknown service\(s\) 'nosuch'; `compoworld services` lists"):
        run_fuzz(2, seed=0, services=["helpdesk", "nosuch"])
    with pytest.raises(ValueError, match=r"steps must be >= 2 \(a run's first step is its reset\); got 1"):
        run_fuzz(2, seed=0, steps=1, services=["helpdesk"])


def test_services_restrict_the_compositions_too_and_leave_generated_worlds_out():
    from compoworld_gym.fuzz import plan_targets
    from compoworld_gym.fuzz_plan import random_compositions  # noqa: F401  (the module the plan lives in)

    names = ["helpdesk", "gmail", "slack", "crm"]
    report = run_fuzz(1, seed=3, steps=2, services=names)
    labels = [e["target"] for e in report["per_target"]]
    assert labels[:4] == [f"service:{n}" for n in names]
    compositions = [t for t in plan_targets(3, ("composition",), names) if t.kind == "composition"]
    assert len(compositions) == 8 and all(set(t.services) | set(t.distractors) <= set(names) for t in compositions)
    assert all(not label.startswith(("generated", "builtin")) for label in labels)


def test_a_log_missing_only_its_final_newline_resumes_cleanly(tmp_path):
    log = tmp_path / "fuzz.jsonl"
    first = run_fuzz(5, log=log, **SMALL)
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:2]))  # header + helpdesk's line, no newline after it
    resumed = run_fuzz(log=log, resume=True)
    raw = log.read_bytes()
    assert b"\x00" not in raw and raw.endswith(b"\n")
    assert [b["target"] for b in _lines(log)[1:]] == ["service:helpdesk", "service:gmail"]
    assert resumed["notes"] == [] and resumed["examples"] == first["examples"] == 5
    assert run_fuzz(log=log, resume=True)["batches"] == 2  # and the log is still whole


@pytest.mark.parametrize("record, match", [
    ("{}", r"line 2 is not a batch record \(target: Field required\)"),
    ('{"target": "service:helpdesk", "index": 9, "round": 0, "seed": 1, "planned": 1, "runs": 1, "actions": 1, '
     '"failures": 0, "failure": null, "seconds": 0.1}', r"line 2 names target 'service:helpdesk' at index 9"),
    ('{"target": "service:helpdesk", "index": 0, "round": -1, "seed": 1, "planned": 1, "runs": 1, "actions": 1, '
     '"failures": 0, "failure": null, "seconds": 0.1}', r"line 2 is not a batch record \(round: Input should be"),
])
def test_a_log_line_that_is_no_batch_record_is_a_clear_error_naming_the_line(tmp_path, record, match):
    log = tmp_path / "fuzz.jsonl"
    run_fuzz(2, log=log, **SMALL)
    header, *rest = log.read_text().splitlines()
    log.write_text("\n".join([header, record, *rest]) + "\n")
    with pytest.raises(FuzzLogError, match=match):
        run_fuzz(log=log, resume=True)


def test_a_log_still_being_written_cannot_be_resumed(tmp_path):
    from compoworld_gym.fuzz_log import LogWriter

    log = tmp_path / "fuzz.jsonl"
    run_fuzz(2, log=log, **SMALL)
    header, _, _, keep = read_log(log)
    before = log.read_bytes()
    holder = LogWriter(log, {}, [], keep)  # another campaign holds the lock
    try:
        with pytest.raises(FuzzLogError, match="is being written by another running campaign"):
            run_fuzz(log=log, resume=True)
    finally:
        holder.close()
    assert log.read_bytes() == before


def test_resume_with_a_budget_of_the_other_kind_names_both_settings(tmp_path):
    log = tmp_path / "fuzz.jsonl"
    run_fuzz(minutes=0.01, log=log, **SMALL)
    with pytest.raises(FuzzLogError, match=r"other settings: examples None \(given 5\), minutes 0.01 \(given None\)"):
        run_fuzz(5, log=log, resume=True)


def test_the_same_seed_draws_the_same_runs_in_pytest_and_in_a_fresh_cli_process(tmp_path):
    import subprocess
    import sys

    here = run_fuzz(40, **{**SMALL, "steps": 4})
    out = subprocess.run([sys.executable, "-m", "compoworld_gym.cli", "fuzz", "--examples", "40", "--seed", "7",
                          "--steps", "4", "--include", "service", "--services", "helpdesk,gmail", "--json"],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path, check=True)
    there = json.loads(out.stdout)
    # pytest imports this test module (a "local" module whose literals Hypothesis mixes into draws);
    # the CLI process does not: the draws must not depend on it.
    assert [(e["runs"], e["actions"]) for e in here["per_target"]] == [
        (e["runs"], e["actions"]) for e in there["per_target"]]
    assert here["digest"] == there["digest"] and len(here["digest"]) == 32


@pytest.mark.parametrize("kwargs, match", [
    ({"minutes": 0.001, "include": ["composition"], "services": ["helpdesk"]}, "these settings plan no target"),
    ({"examples": 2, "include": []}, "these settings plan no target"),
    ({"examples": 2, "include": ["servic"]}, r"unknown target kind\(s\) 'servic'"),
    ({"examples": 2, "include": "service"}, "lists of names, not one string"),
    ({"examples": 2, "services": ["helpdesk"], "action_timeout": -1}, "action_timeout must be >= 0"),
    ({"examples": 2, "seed": -1, "services": ["helpdesk"]}, "seed must be >= 0"),
])
def test_settings_that_plan_nothing_or_make_no_sense_are_refused_at_once(monkeypatch, kwargs, match):
    monkeypatch.setattr(fuzz_mod, "_run_batch", lambda job: pytest.fail("ran a batch"))
    with pytest.raises(ValueError, match=match):
        run_fuzz(**{"seed": 0, **kwargs})


def test_a_service_named_twice_is_one_service():
    report = run_fuzz(2, seed=1, steps=2, services=["helpdesk", "helpdesk", "gmail"])
    labels = [e["target"] for e in report["per_target"]]
    assert labels[:2] == ["service:helpdesk", "service:gmail"] and report["failures"] == 0
    assert all(len(set(label.split(":")[1].split("+"))) == len(label.split(":")[1].split("+")) for label in labels)


@pytest.mark.parametrize("edit, match", [
    (lambda lines: lines + lines[-1:], r"line 4 repeats a batch \(service:gmail, round 0\)"),
    (lambda lines: lines + [lines[-1].replace('"round": 0', '"round": 7')], "holds a batch its plan does not have"),
])
def test_a_log_with_a_repeated_or_unplanned_batch_is_damaged(tmp_path, edit, match):
    log = tmp_path / "fuzz.jsonl"
    run_fuzz(5, log=log, **SMALL)
    log.write_text("\n".join(edit(log.read_text().splitlines())) + "\n")
    with pytest.raises(FuzzLogError, match=match):
        run_fuzz(log=log, resume=True)


def test_a_stop_request_ends_the_campaign_before_its_next_batch(monkeypatch):
    real, calls = fuzz_mod._run_batch, []

    def first_then_stop(job):
        calls.append(job[0].label)
        entry = real(job)
        fuzz_mod.request_stop()  # as the CLI's signal handler does when its KeyboardInterrupt is lost
        return entry

    monkeypatch.setattr(fuzz_mod, "_run_batch", first_then_stop)
    with pytest.raises(FuzzInterrupted) as caught:
        run_fuzz(5, **SMALL)
    assert calls == ["service:helpdesk"] and caught.value.report["batches"] == 1
    monkeypatch.setattr(fuzz_mod, "_run_batch", real)
    assert run_fuzz(1, seed=7, steps=2, include=("service",), services=["gmail"])["batches"] == 1  # cleared


def test_resume_keeps_the_action_timeout_the_log_was_started_with(tmp_path, monkeypatch):
    log = tmp_path / "part.jsonl"
    run_fuzz(5, log=tmp_path / "full.jsonl", action_timeout=2.5, **SMALL)
    assert _lines(tmp_path / "full.jsonl")[0]["action_timeout"] == 2.5
    log.write_text("\n".join((tmp_path / "full.jsonl").read_text().splitlines()[:2]) + "\n")
    limits = []
    real = fuzz_mod._run_batch
    monkeypatch.setattr(fuzz_mod, "_run_batch", lambda job: limits.append(job[1].machine.action_timeout) or real(job))
    run_fuzz(log=log, resume=True)
    assert limits == [2.5]  # not the default 10 s
    run_fuzz(5, log=tmp_path / "none.jsonl", action_timeout=None, **SMALL)  # None: no limit, logged as null
    (tmp_path / "none2.jsonl").write_text("\n".join((tmp_path / "none.jsonl").read_text().splitlines()[:2]) + "\n")
    assert _lines(tmp_path / "none.jsonl")[0]["action_timeout"] is None
    limits.clear()
    run_fuzz(log=tmp_path / "none2.jsonl", resume=True)
    assert limits == [None]
    limits.clear()  # an explicit limit on resume wins over the log's
    (tmp_path / "p3.jsonl").write_text("\n".join((tmp_path / "full.jsonl").read_text().splitlines()[:2]) + "\n")
    run_fuzz(log=tmp_path / "p3.jsonl", resume=True, action_timeout=4.0)
    assert limits == [4.0]


def test_a_log_header_with_a_bad_action_timeout_names_line_1(tmp_path):
    log = tmp_path / "fuzz.jsonl"
    run_fuzz(5, log=log, **SMALL)
    header, *rest = log.read_text().splitlines()
    log.write_text("\n".join([json.dumps({**json.loads(header), "action_timeout": "soon"}), rest[0]]) + "\n")
    with pytest.raises(FuzzLogError, match="line 1 has action_timeout 'soon'"):
        run_fuzz(log=log, resume=True)
