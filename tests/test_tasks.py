"""Task files, built-in tasks, and evaluation."""

from __future__ import annotations

import pytest

from compoworld_gym.builtin_tasks import builtin_tasks
from compoworld_gym.metatools import dispatch
from compoworld_gym.tasks import TaskFileError, evaluate, load_tasks, mount, save_tasks, score

TASKS = builtin_tasks()


def test_round_trip_jsonl(tmp_path):
    path = tmp_path / "tasks.jsonl"
    assert save_tasks(TASKS, path) == len(TASKS)
    loaded = load_tasks(path)
    assert [t.model_dump(mode="json") for t in loaded] == [t.model_dump(mode="json") for t in TASKS]
    assert all('"schema_version":1' in line for line in path.read_text().splitlines())


def test_bad_task_file_names_the_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    good = TASKS[0].to_json()
    path.write_text(good + "\n\n" + good.replace('"instruction":', '"instructions":') + "\n")
    with pytest.raises(TaskFileError, match=r"bad\.jsonl:3: invalid task"):
        load_tasks(path)
    path.write_text("{oops\n")
    with pytest.raises(TaskFileError, match=r"bad\.jsonl:1: not valid JSON"):
        load_tasks(path)


def test_at_least_ten_builtin_tasks_with_unique_ids():
    assert len(TASKS) >= 10
    assert len({t.id for t in TASKS}) == len(TASKS)


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_builtin_reference_passes_and_initial_state_fails(task):
    world = mount(task)
    initial = world.states()
    untouched = evaluate(task, initial, None, [], initial)
    assert score(untouched) < 1.0
    positive = ("record_exists", "answer_contains", "tool_called", "call_order")
    assert [r.id for r in untouched if r.passed and r.kind in positive] == []
    for step in task.reference:
        out = dispatch(world, step.name, step.arguments)
        assert out.get("success", True) is True, (step, out)
    results = evaluate(task, world.states(), task.reference_answer, world.call_log, initial)
    assert [r.id for r in results if not r.passed] == []


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_builtin_task_mounts_distractors_and_is_deterministic(task):
    a, b = mount(task), mount(task)
    assert a.states() == b.states()
    listed = [s["name"] for s in a.list_services()["services"]]
    assert sorted(listed) == sorted(task.services + task.distractors)
