"""``compoworld play`` by hand, and the ``tasks``/``services`` listings a player copies ids from."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from compoworld_gym.builtin_tasks import builtin_tasks
from compoworld_gym.catalog import service_names
from compoworld_gym.cli import app
from compoworld_gym.envs.compoworld_env import CompoWorldEnv

runner = CliRunner()
TASK = "builtin-chargeback"


def play(lines, *args, env=None):
    """Run ``compoworld play --task TASK`` with ``lines`` typed (then end of input)."""
    text = "".join(line + "\n" for line in lines)
    return runner.invoke(app, ["play", "--task", TASK, *args], input=text, env=env)


def expected_rubric(*actions, max_steps=40):
    """``[(id, passed)]`` and the reward of TASK after ``actions``, straight from the env."""
    env = CompoWorldEnv(tasks=builtin_tasks(), max_steps=max_steps)
    env.reset(seed=0, options={"task": TASK})
    for action in actions:
        _, reward, _, _, info = env.step(action)
    return [(r["id"], r["passed"]) for r in info["rubric"]], reward


def test_empty_line_help_and_plain_text_do_not_end_the_episode():
    out = play(["", "help", "?", "Done.", "/answer Done."], "--max-steps", "5")
    assert out.exit_code == 0, out.output
    assert out.output.count("several calls in one step") == 3  # at start, after help, after ?
    assert "not sent: plain text is not an action. To give it as the final answer: /answer Done." in out.output
    # four lines typed before the answer, none of them a step: the answer is step 1
    assert out.output.count("step 1/5> ") == 5 and "step 2/5> " not in out.output
    rubric, reward = expected_rubric('{"final_answer": "Done."}')
    assert f"reward {reward:.3f} ({sum(p for _, p in rubric)}/{len(rubric)} rubric items passed)" in out.output


def test_answer_prints_every_rubric_item_pass_or_fail_with_whole_ids():
    out = play(["/answer Done."], env={"COLUMNS": "30"})
    assert out.exit_code == 0, out.output
    rubric, _ = expected_rubric('{"final_answer": "Done."}')
    lines = out.output.splitlines()
    for item_id, passed in rubric:
        assert any(line.startswith(f"  {'PASS' if passed else 'FAIL'}  {item_id}: ") for line in lines), item_id
    assert ("tag", False) in rubric and ("others_untouched", True) in rubric


def test_json_final_answer_ends_the_episode_like_answer_command():
    by_json = play(['{"final_answer": "Done."}'])
    by_command = play(["/answer Done."])
    assert by_json.exit_code == by_command.exit_code == 0
    assert by_json.output.split("step 1/40> ")[1] == by_command.output.split("step 1/40> ")[1]


def test_end_of_input_leaves_without_scoring_exit_130():
    out = play(["help"])
    assert out.exit_code == 130
    assert out.output.rstrip().endswith("end of input: left without an answer (nothing scored)")
    assert "reward" not in out.output


def test_quit_leaves_without_scoring_exit_0():
    out = play(['{"name": "list_services"}', "/quit", "/answer never read"])
    assert out.exit_code == 0, out.output
    assert "left without an answer (nothing scored)" in out.output and "reward" not in out.output


def test_step_limit_announced_counted_and_scored():
    out = play(['{"name": "list_services"}', '{"name": "list_services"}'], "--max-steps", "2")
    assert out.exit_code == 0, out.output
    assert "You have 2 steps." in out.output
    assert "step 1/2> " in out.output and "step 2/2> " in out.output
    rubric, reward = expected_rubric('{"name": "list_services"}', '{"name": "list_services"}', max_steps=2)
    assert "step limit 2 reached: scored without an answer" in out.output
    assert f"reward {reward:.3f} ({sum(p for _, p in rubric)}/{len(rubric)} rubric items passed)" in out.output


def test_malformed_json_is_not_sent_and_costs_no_step():
    out = play(['{"name": "list_services"', "/answer Done."], "--max-steps", "1")
    assert out.exit_code == 0, out.output
    assert "not valid JSON (Expecting ',' delimiter, column 25); nothing sent, no step used" in out.output
    assert "step limit" not in out.output and "rubric items passed" in out.output


def test_tool_results_are_indented_json_and_data_is_never_markup():
    out = play(['{"name": "describe_tool", "arguments": {"tool": "[red]x[/red]"}}', "/answer Done."])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert '  "success": false,' in lines and '    "code": 404,' in lines
    assert "tool '[red]x[/red]' not found" in out.output


def test_unknown_command_and_empty_answer_are_explained():
    out = play(["/answers x", "/answer", "/answer Done."])
    assert out.exit_code == 0, out.output
    assert "unknown command /answers; the commands are /answer TEXT and /quit" in out.output
    assert "give the answer after the command: /answer TEXT" in out.output
    assert out.output.count("step 1/40> ") == 3


@pytest.mark.parametrize("columns", ["30", "60", "80", "200"])
def test_tasks_ids_and_service_names_are_never_cut(columns):
    listed = runner.invoke(app, ["tasks"], env={"COLUMNS": columns})
    assert listed.exit_code == 0, listed.output
    assert "…" not in listed.output
    for task in builtin_tasks():
        assert task.id in listed.output, (columns, task.id)
    listed = runner.invoke(app, ["services"], env={"COLUMNS": columns})
    assert listed.exit_code == 0, listed.output
    assert "…" not in listed.output
    words = set(listed.output.replace("│", " ").split())
    assert set(service_names()) <= words, set(service_names()) - words


def test_results_are_never_broken_inside_a_value_on_a_narrow_terminal():
    from typer.testing import CliRunner

    from compoworld_gym.cli import app

    call = '{"name": "call_tool", "arguments": {"tool_name": "list_agents", "arguments": {"team": "finance"}}}'
    out = CliRunner().invoke(app, ["play", "--task", "builtin-chargeback"], input=f"{call}\n/quit\n",
                             env={"COLUMNS": "30"})
    assert '"email": "tomas.lindqvist@company.example",' in out.output
