"""``compoworld generate`` when it is interrupted, and what it leaves for ``eval`` (issue 14).

Before: ``--out`` was opened with ``"w"``; Ctrl-C left a 1-line file that
``eval`` ran as a smaller pool without a word.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from compoworld_gym.cli import app
from compoworld_gym.task_summary import summary_path
from compoworld_gym.tasks import TaskFileError, load_tasks

runner = CliRunner()


def _generate_then_signal(out, sig: int) -> subprocess.CompletedProcess:
    """Start a long generation, wait until it has written two tasks, then send ``sig``."""
    partial = out.with_name(out.name + ".partial")
    proc = subprocess.Popen([sys.executable, "-m", "compoworld_gym.cli", "generate", "--n", "100000",
                             "--seed", "3", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        if partial.exists() and partial.read_bytes().count(b"\n") >= 2:
            break
        time.sleep(0.2)
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupt_keeps_old_file_and_the_partial_run(tmp_path, sig):
    out = tmp_path / "tasks.jsonl"
    out.write_text("previous content\n")
    done = _generate_then_signal(out, sig)
    assert done.returncode == 130, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: interrupted after "), done.stderr
    assert out.read_text() == "previous content\n"  # untouched
    partial = out.with_name("tasks.jsonl.partial")
    kept = load_tasks(partial)
    assert len(kept) >= 2 and f"interrupted after {len(kept)} of 100000 tasks" in lines[0]
    summary = json.loads(summary_path(partial).read_text())
    assert summary["complete"] is False and summary["tasks"] == len(kept) and summary["requested"] == 100000


def test_eval_refuses_a_file_cut_after_generation(tmp_path):
    out = tmp_path / "t.jsonl"
    assert runner.invoke(app, ["generate", "--n", "2", "--seed", "1", "--out", str(out)]).exit_code == 0
    assert json.loads(summary_path(out).read_text())["tasks"] == 2
    out.write_text(out.read_text().splitlines(keepends=True)[0])
    result = runner.invoke(app, ["eval", "--tasks", str(out), "--agent", "reference"])
    assert result.exit_code == 2
    assert "holds 1 tasks but its summary t.jsonl.summary.json lists 2" in result.output
    with pytest.raises(TaskFileError):
        load_tasks(out)


def test_read_only_out_fails_before_any_work(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    os.chmod(ro, 0o555)
    try:
        # root may write anywhere in a normal directory, but nobody creates files in /proc
        target = ro / "t.jsonl" if not os.access(ro, os.W_OK) else "/proc/compoworld-t.jsonl"
        result = runner.invoke(app, ["generate", "--n", "1000", "--out", str(target)])
    finally:
        os.chmod(ro, 0o755)
    assert result.exit_code == 2 and "cannot write in" in result.output and "Traceback" not in result.output


def test_eval_of_a_partial_run_says_so(tmp_path):
    from compoworld_gym.builtin_tasks import builtin_tasks
    from compoworld_gym.task_summary import TaskFileWriter

    writer = TaskFileWriter(tmp_path / "t.jsonl", requested=50)
    for task in builtin_tasks()[:2]:
        writer.write(task.to_json())
    assert writer.keep_partial() == 2
    result = runner.invoke(app, ["eval", "--tasks", str(writer.partial), "--agent", "reference", "--json"])
    assert result.exit_code == 0
    assert "is a partial run: 2 of 50 requested tasks" in result.output
    assert not (tmp_path / "t.jsonl").exists()


def test_exported_builtins_carry_a_summary(tmp_path):
    out = tmp_path / "b.jsonl"
    assert runner.invoke(app, ["tasks", "--out", str(out)]).exit_code == 0
    assert json.loads(summary_path(out).read_text())["tasks"] == 12
    out.write_text(out.read_text().splitlines(keepends=True)[0])
    with pytest.raises(TaskFileError, match="lists 12"):
        load_tasks(out)


def test_missing_task_file_and_file_as_out_dir_are_one_line(tmp_path):
    missing = runner.invoke(app, ["eval", "--tasks", str(tmp_path / "nope.jsonl")])
    assert missing.exit_code == 2 and missing.output == f"error: task file {tmp_path / 'nope.jsonl'} does not exist\n"
    afile = tmp_path / "t.jsonl"
    afile.write_text("x\n")
    out = runner.invoke(app, ["eval", "--agent", "reference", "--out", str(afile)])
    assert out.exit_code == 2 and "is a file; --out takes a directory" in out.output
