"""Generation and evaluation over Ray: the same bytes, metrics and trajectories as one process.

One local Ray cluster (2 CPUs, no dashboard) serves the whole module; the
CLI runs in-process through typer's CliRunner (it finds the connection) or
as a subprocess that joins the cluster with ``--ray-address``.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from typer.testing import CliRunner  # noqa: E402

from compoworld_gym.cli import app  # noqa: E402
from compoworld_gym.generation import LIBRARY_V1, GenerationConfig, GenerationError, GenerationStats, iter_tasks  # noqa: E402
from compoworld_gym.integrations.ray import (  # noqa: E402
    AgentSpec, RayClusterError, RayConfig, evaluate_agent_ray, iter_tasks_ray)
from compoworld_gym.task_summary import summary_path  # noqa: E402
from compoworld_gym.tasks import load_tasks  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
#: Summary fields that are wall-clock measurements: they differ between any two runs.
TIMINGS = ("seconds", "tasks_per_second")


@pytest.fixture(scope="module")
def cluster() -> str:
    """A local 2-CPU Ray for the module; yields its address for subprocesses."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
def plain_30(tmp_path_factory) -> Path:
    """``generate --n 30 --seed 0`` in one process (no Ray)."""
    out = tmp_path_factory.mktemp("plain") / "tasks.jsonl"
    result = runner.invoke(app, ["generate", "--n", "30", "--seed", "0", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _summary_without_timings(path: Path) -> dict:
    summary = json.loads(summary_path(path).read_text())
    for key in TIMINGS:
        summary["extra"].pop(key)
    return summary


def test_generate_ray_is_byte_identical_to_the_plain_run(cluster, plain_30, tmp_path):
    out = tmp_path / "tasks.jsonl"
    result = runner.invoke(app, ["generate", "--n", "30", "--seed", "0", "--out", str(out), "--ray", "--json"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == plain_30.read_bytes()
    assert _summary_without_timings(out) == _summary_without_timings(plain_30)
    printed = json.loads(result.stdout)  # --json output stays clean: Ray's workers print nothing there
    compositions = {json.loads(line)["meta"]["composition_id"] for line in plain_30.read_text().splitlines()}
    assert printed["tasks"] == 30 and printed["out"] == str(out) and printed["compositions"] == len(compositions)
    assert not out.with_name("tasks.jsonl.partial").exists()


def test_rejections_and_giving_up_match_the_plain_run(cluster):
    # Exactly three services per task: some walks are rejected; with 2 attempts, index 20 is given up on.
    cfg = GenerationConfig(services=(3, 3), max_attempts_per_task=2, library=LIBRARY_V1)
    plain_stats, ray_stats = GenerationStats(), GenerationStats()
    plain, ray_tasks = [], []
    with pytest.raises(GenerationError) as plain_error:
        for task in iter_tasks(30, 0, cfg, stats=plain_stats):
            plain.append(task.to_json())
    with pytest.raises(GenerationError) as ray_error:  # chunks of 3: the give-up falls inside a chunk
        for task in iter_tasks_ray(30, 0, cfg, stats=ray_stats, ray_config=RayConfig(workers=2, chunk_size=3)):
            ray_tasks.append(task.to_json())
    assert str(ray_error.value) == str(plain_error.value) == (
        "task 20: 2 attempts rejected; most common reasons: [('compose: no-action', 7)]")
    assert ray_tasks == plain and len(plain) == 20
    plain_summary, ray_summary = plain_stats.summary(), ray_stats.summary()
    for key in TIMINGS:
        plain_summary.pop(key), ray_summary.pop(key)
    assert ray_summary == plain_summary and ray_summary["attempts"] == 27


def test_a_worker_error_is_the_plain_one_line_and_leaves_no_file(cluster, tmp_path):
    # The openai designer on a dead endpoint fails inside the worker; the CLI sees the DesignerError itself.
    out = tmp_path / "t.jsonl"
    args = ["generate", "--n", "3", "--out", str(out), "--designer", "openai", "--base-url", "http://127.0.0.1:9/v1",
            "--model", "m", "--designer-timeout", "1"]
    plain, spread = runner.invoke(app, args), runner.invoke(app, [*args, "--ray"])
    assert plain.exit_code == spread.exit_code == 2
    assert spread.output == plain.output
    assert spread.output.startswith("error: the designer endpoint failed: APIConnectionError") and \
        spread.output.endswith(f"({out} left unchanged)\n"), spread.output
    assert list(tmp_path.iterdir()) == []


def test_eval_ray_gives_the_plain_metrics_and_trajectories(cluster, tmp_path):
    common = ["eval", "--agent", "reference", "--agent", "random", "--k", "2", "--seed", "3", "--json"]
    plain = runner.invoke(app, [*common, "--out", str(tmp_path / "plain")])
    spread = runner.invoke(app, [*common, "--out", str(tmp_path / "ray"), "--ray", "--ray-workers", "2"])
    assert plain.exit_code == 0 and spread.exit_code == 0, spread.output
    assert json.loads(spread.stdout) == json.loads(plain.stdout)
    reports = {r["agent"]: r for r in json.loads(spread.stdout)}
    assert reports["reference"]["success_rate"] == 1.0 and reports["reference"]["episodes"] == 24
    assert reports["random"]["success_rate"] < 1.0
    for name in ("reference.jsonl", "random.jsonl", "reference.metrics.json", "random.metrics.json"):
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "plain" / name).read_bytes(), name


def test_evaluate_agent_ray_keeps_episode_order_and_results(cluster, plain_30):
    from compoworld_gym.baselines.evaluate import evaluate_agent

    tasks = load_tasks(plain_30)[:6]
    seen: list[str] = []
    metrics, runs = evaluate_agent_ray(AgentSpec("random"), tasks, k=2, seed=7,
                                       on_episode=lambda r: seen.append(r.task_id),
                                       ray_config=RayConfig(workers=2, chunk_size=1))
    want_metrics, want_runs = evaluate_agent(AgentSpec("random"), tasks, k=2, seed=7)
    assert metrics == want_metrics and metrics["episodes"] == 12
    assert seen == [t.id for t in tasks for _ in range(2)]
    assert [[(r.score, r.transcript) for r in rs] for rs in runs.values()] == \
        [[(r.score, r.transcript) for r in rs] for rs in want_runs.values()]


def test_ctrl_c_keeps_the_partial_run_and_leaves_out(cluster, plain_30, tmp_path):
    out = tmp_path / "tasks.jsonl"
    out.write_text("previous content\n")
    partial = out.with_name("tasks.jsonl.partial")
    proc = subprocess.Popen([sys.executable, "-m", "compoworld_gym.cli", "generate", "--n", "100000", "--seed", "0",
                             "--out", str(out), "--ray-address", cluster],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if partial.exists() and partial.read_bytes().count(b"\n") >= 2:
            break
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    last = stderr.strip().splitlines()[-1]
    assert re.fullmatch(rf"error: interrupted after (\d+) of 100000 tasks: kept them in {re.escape(str(partial))}; "
                        rf"{re.escape(str(out))} left unchanged", last), stderr
    assert out.read_text() == "previous content\n"
    kept = partial.read_bytes().splitlines(keepends=True)
    assert len(kept) >= 2 and f"interrupted after {len(kept)} of" in last
    shared = min(len(kept), 30)  # the kept tasks are the plain run's first tasks, byte for byte
    assert kept[:shared] == plain_30.read_bytes().splitlines(keepends=True)[:shared]
    summary = json.loads(summary_path(partial).read_text())
    assert summary["complete"] is False and summary["tasks"] == len(kept) and summary["requested"] == 100000
    assert ray.is_initialized()  # the subprocess left the shared cluster running


def test_unreachable_cluster_is_one_line_before_any_file(tmp_path):
    out = tmp_path / "t.jsonl"
    done = subprocess.run([sys.executable, "-m", "compoworld_gym.cli", "generate", "--n", "5", "--out", str(out),
                           "--ray-address", "127.0.0.1:9"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith(
        "error: cannot reach the Ray cluster at 127.0.0.1:9: connection refused"), done.stderr
    assert list(tmp_path.iterdir()) == []


def test_missing_ray_names_the_extra(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if it were not installed
    monkeypatch.delitem(sys.modules, "compoworld_gym.integrations.ray")
    want = "error: this command needs the [ray] extra (module 'ray' is not installed): " \
           'pip install "compoworld-gym[ray]"\n'
    for command in (["generate", "--n", "2", "--out", str(tmp_path / "t.jsonl"), "--ray"],
                    ["eval", "--agent", "reference", "--ray"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2 and result.output == want, result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("field, value, message", [
    ("workers", 0, "workers must be >= 1"), ("cpus_per_worker", 0.0, "cpus_per_worker must be > 0"),
    ("chunk_size", 0, "chunk_size must be >= 1"), ("queue", 0, "queue must be >= 1")])
def test_ray_config_rejects_bad_values(field, value, message):
    with pytest.raises(ValueError, match=message):
        RayConfig(**{field: value})


def test_a_dead_address_is_refused_within_the_probe_timeout():
    from compoworld_gym.integrations.ray import _probe

    started = time.monotonic()
    refused = r"cannot reach the Ray cluster at ray://127\.0\.0\.1:9: connection refused"
    with pytest.raises(RayClusterError, match=refused):
        _probe("ray://127.0.0.1:9")
    assert time.monotonic() - started < 10
    _probe("auto")  # names Ray resolves itself are left to it


def test_the_documented_example_runs(cluster, capsys):
    doc = (ROOT / "docs" / "integrations" / "ray.md").read_text()
    snippet = re.search(r"```python\n(.*?)```", doc, re.S).group(1)
    exec(compile(snippet, "docs/integrations/ray.md", "exec"), {})
    assert capsys.readouterr().out == "['gen-s0-00000', 'gen-s0-00001'] 1.0\n"


@pytest.mark.parametrize("command", ["generate", "eval"])
def test_an_empty_address_is_refused_not_run_without_ray(command, tmp_path):
    """Before, ``--ray-address ""`` quietly ran in one process."""
    out = tmp_path / "t.jsonl"
    args = ["generate", "--n", "2", "--out", str(out)] if command == "generate" else ["eval", "--agent", "reference"]
    result = runner.invoke(app, [*args, "--ray-address", " "])
    assert result.exit_code == 2 and "--ray-address" in result.output and "is empty" in result.output
    assert not out.exists()
