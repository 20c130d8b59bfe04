"""Task files, built-in tasks, and evaluation."""

from __future__ import annotations

import pytest

from compoworld_gym.builtin_tasks import builtin_tasks
from compoworld_gym.metatools import dispatch
from compoworld_gym.episode import evaluate, mount, score
from compoworld_gym.tasks import Decoy, TaskFileError, load_tasks, save_tasks

TASKS = builtin_tasks()


def test_round_trip_jsonl(tmp_path):
    path = tmp_path / "tasks.jsonl"
    assert save_tasks(TASKS, path) == len(TASKS)
    loaded = load_tasks(path)
    assert [t.model_dump(mode="json") for t in loaded] == [t.model_dump(mode="json") for t in TASKS]
    assert all('"schema_version":5' in line for line in path.read_text().splitlines())


#: A task line as version 1 wrote it: the guard flag was called ``negative``.
V1_LINE = (
    '{"schema_version":1,"id":"v1-solve-one","services":["helpdesk"],"distractors":[],"today":"2026-01-15",'
    '"seed":0,"initial_state":{},"instruction":"Mark ticket TCK-0001 solved; leave TCK-0002 as it is.",'
    '"checks":['
    '{"id":"solved","description":"","negative":null,"kind":"record_matches","service":"helpdesk",'
    '"collection":"tickets","record_id":"TCK-0001","where":{"status":"solved"}},'
    '{"id":"pending_kept","description":"","negative":true,"kind":"record_matches","service":"helpdesk",'
    '"collection":"tickets","record_id":"TCK-0002","where":{"status":"pending"}},'
    '{"id":"untouched","description":"","negative":null,"kind":"only_changed","service":"helpdesk",'
    '"collection":"tickets","allow_ids":["TCK-0001"],"allow_new":null},'
    '{"id":"report","description":"","negative":null,"kind":"answer_contains","values":["TCK-0001"],'
    '"any_of":false,"max_chars":2000}],'
    '"reference":[{"name":"call_tool","arguments":{"tool_name":"update_ticket",'
    '"arguments":{"ticket_id":"TCK-0001","status":"solved"}}}],"reference_answer":"Solved TCK-0001.",'
    '"domain":"support","capabilities":[],"composition":null,"meta":{}}'
)


def _solve(world, *ids):
    for tid in ids:
        out = dispatch(world, "call_tool", {"tool_name": "update_ticket",
                                            "arguments": {"ticket_id": tid, "status": "solved"}})
        assert out["success"] is True, out


def _scores(task):
    """Scores of three episodes: nothing done, the reference, and the work plus a broken guard."""
    idle = mount(task)
    ref = mount(task)
    _solve(ref, "TCK-0001")
    vandal = mount(task)
    _solve(vandal, "TCK-0001", "TCK-0002")
    return [score(evaluate(task, idle.states(), None, idle.call_log)),
            score(evaluate(task, ref.states(), "Solved TCK-0001.", ref.call_log)),
            score(evaluate(task, vandal.states(), "Solved TCK-0001.", vandal.call_log))]


def test_version_1_line_loads_scores_as_before_and_saves_as_version_5(tmp_path):
    old = tmp_path / "v1.jsonl"
    old.write_text(V1_LINE + "\n")
    [task] = load_tasks(old)
    assert task.schema_version == 5
    assert [(c.id, c.guard, c.is_guard) for c in task.checks] == [
        ("solved", None, False), ("pending_kept", True, True), ("untouched", None, True),
        ("report", None, False)]
    # Hand-computed, as version 1 scored it: nothing done 0; reference 1; both guards broken 0.25.
    assert _scores(task) == [0.0, 1.0, 0.25]
    new = tmp_path / "v2.jsonl"
    save_tasks([task], new)
    line = new.read_text()
    assert '"schema_version":5' in line and '"guard":true' in line and '"negative"' not in line
    [again] = load_tasks(new)
    assert again == task and _scores(again) == [0.0, 1.0, 0.25]


@pytest.mark.parametrize("version", [2, 3, 4])
def test_version_2_to_4_lines_load_as_version_5(tmp_path, version):
    old = tmp_path / "old.jsonl"
    old.write_text(V1_LINE.replace('"schema_version":1', f'"schema_version":{version}')
                   .replace('"negative"', '"guard"') + "\n")
    [task] = load_tasks(old)
    assert task.schema_version == 5 and task.decoys == []
    assert _scores(task) == [0.0, 1.0, 0.25]


def test_decoy_implies_keeps_an_int_an_int(tmp_path):
    # A rate-lock extension of 7 days taken as 6: the int must survive the round trip
    # (as a float it would no longer equal the reference's argument in the swap).
    task = TASKS[0].model_copy(update={"decoys": [Decoy(kind="stale", truth="2026-02-10", decoy="2026-02-09",
                                                        implies=[(7, 6)])]})
    path = tmp_path / "d.jsonl"
    save_tasks([task], path)
    [again] = load_tasks(path)
    assert again.decoys[0].implies == [(7, 6)] and type(again.decoys[0].implies[0][0]) is int


def test_negative_key_in_a_version_2_line_says_how_to_fix(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(V1_LINE.replace('"schema_version":1', '"schema_version":2') + "\n")
    with pytest.raises(TaskFileError, match=r"bad\.jsonl:1: .*'negative'.*'guard'"):
        load_tasks(path)


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
    listed = a.list_services()["services"]
    assert sorted(listed) == sorted(task.services + task.distractors)


def test_save_is_atomic_when_writing_fails_midway(tmp_path):
    path = tmp_path / "tasks.jsonl"
    save_tasks(TASKS[:2], path)
    old = path.read_bytes()

    def failing():
        yield TASKS[0]
        yield TASKS[1]
        raise RuntimeError("generator died")

    with pytest.raises(RuntimeError, match="generator died"):
        save_tasks(failing(), path)
    assert path.read_bytes() == old  # the old file is intact
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tasks.jsonl"]  # no temporary file left
    fresh = tmp_path / "new.jsonl"
    with pytest.raises(RuntimeError):
        save_tasks(failing(), fresh)
    assert not fresh.exists()
    assert save_tasks(TASKS[2:4], path) == 2
    assert [t.id for t in load_tasks(path)] == [t.id for t in TASKS[2:4]]


def test_save_keeps_the_file_mode(tmp_path):
    path = tmp_path / "tasks.jsonl"
    save_tasks(TASKS[:1], path)
    path.chmod(0o640)
    save_tasks(TASKS[:2], path)
    assert path.stat().st_mode & 0o777 == 0o640
