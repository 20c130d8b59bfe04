"""``compoworld eval``: generated tasks, trajectories, errors."""

from __future__ import annotations

import io
import json

import pytest
from typer.testing import CliRunner

from compoworld_gym.baselines.agents import ReferenceAgent
from compoworld_gym.baselines.evaluate import evaluate_agent
from compoworld_gym.builtin_tasks import builtin_tasks
from compoworld_gym.cli import app
from compoworld_gym.envs.compoworld_env import CompoWorldEnv
from compoworld_gym.trajectory import load_trajectories
from compoworld_gym.wrappers import RecordTrajectory

runner = CliRunner()


def test_eval_generated_tasks_reference_and_random_with_trajectories(tmp_path):
    out = runner.invoke(app, ["eval", "--generate", "3", "--seed", "1", "--json", "--out", str(tmp_path)])
    assert out.exit_code == 0, out.output
    ref, rnd = json.loads(out.output[out.output.index("["):])
    assert (ref["agent"], ref["tasks"], ref["success_rate"], ref["mean_rubric_score"]) == ("reference", 3, 1.0, 1.0)
    assert rnd["agent"] == "random" and rnd["success_rate"] == 0.0
    trajs = load_trajectories(tmp_path / "reference.jsonl")
    assert len(trajs) == 3 and all(t.meta.rubric_score == 1.0 for t in trajs)
    assert trajs[0].meta.task_id == "gen-s1-00000" and len(trajs[0].tools) == 4
    assert json.loads((tmp_path / "random.metrics.json").read_text())["episodes"] == 3


def test_eval_default_is_the_builtin_tasks():
    out = runner.invoke(app, ["eval", "--agent", "reference", "--json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.output[out.output.index("{"):])
    assert report["tasks"] >= 10 and report["success_rate"] == 1.0


def test_eval_argument_errors_exit_2(tmp_path):
    both = runner.invoke(app, ["eval", "--generate", "2", "--tasks", str(tmp_path / "t.jsonl")])
    assert both.exit_code == 2 and "either --tasks or --generate" in both.output
    no_model = runner.invoke(app, ["eval", "--agent", "openai"])
    assert no_model.exit_code == 2 and "--agent openai needs --model" in no_model.output
    unknown = runner.invoke(app, ["eval", "--agent", "gpt"])
    assert unknown.exit_code == 2 and "unknown agent 'gpt'" in unknown.output


def test_evaluate_agent_replaces_the_trajectory_file_only_when_complete(tmp_path):
    tasks = builtin_tasks()[:3]
    path = tmp_path / "t.jsonl"
    path.write_text("old\n")

    class FailsOnThirdTask(ReferenceAgent):
        def reset(self, observation, task=None):
            if task is tasks[2]:
                raise RuntimeError("agent crashed")
            super().reset(observation, task)

    with pytest.raises(RuntimeError, match="agent crashed"):
        evaluate_agent(lambda s: FailsOnThirdTask(), tasks, record_path=path)
    assert path.read_text() == "old\n" and list(tmp_path.iterdir()) == [path]  # no temporary file left
    metrics, _ = evaluate_agent(lambda s: ReferenceAgent(), tasks, record_path=path)
    assert metrics["success_rate"] == 1.0
    assert [t.meta.task_id for t in load_trajectories(path)] == [t.id for t in tasks]


def test_record_trajectory_writes_into_a_callers_stream_without_closing_it():
    tasks = builtin_tasks()[:1]
    stream = io.StringIO()
    env = RecordTrajectory(CompoWorldEnv(tasks=tasks), stream, source="s")
    env.reset(seed=0, options={"task": 0})
    env.step('{"final_answer": "x"}')
    env.close()
    assert not stream.closed and env.path is None and stream.getvalue().count("\n") == 1
    with pytest.raises(TypeError, match="path must be a file path or an open text stream, got int"):
        RecordTrajectory(CompoWorldEnv(tasks=tasks), 3)
