"""Task files a newcomer gets wrong: clear errors at construction, shared pools, summaries (issue 14)."""

from __future__ import annotations

import gymnasium as gym
import pytest

import compoworld_gym  # noqa: F401
from compoworld_gym.builtin_tasks import builtin_tasks
from compoworld_gym.envs.compoworld_env import CompoWorldEnv
from compoworld_gym.task_summary import summary_path, write_summary
from compoworld_gym.tasks import TaskFileError, load_tasks, save_tasks, shared_tasks


@pytest.fixture()
def task_file(tmp_path):
    path = tmp_path / "tasks.jsonl"
    save_tasks(builtin_tasks()[:3], path)
    return path


def test_latin1_file_names_the_line(tmp_path, task_file):
    lines = task_file.read_bytes().splitlines(keepends=True)
    bad = tmp_path / "latin1.jsonl"
    bad.write_bytes(lines[0] + lines[1].replace(b"Please", "Pléase".encode("latin-1"), 1) + lines[2])
    with pytest.raises(TaskFileError, match=r"latin1\.jsonl:2: not UTF-8 text \(byte 0xe9"):
        load_tasks(bad)


def test_duplicate_ids_are_an_error(tmp_path, task_file):
    lines = task_file.read_text().splitlines(keepends=True)
    dup = tmp_path / "dup.jsonl"
    dup.write_text(lines[0] + lines[1] + lines[0])
    with pytest.raises(TaskFileError, match=r"dup\.jsonl:3: duplicate task id 'builtin-.*' \(first at line 1\)"):
        load_tasks(dup)
    pool = builtin_tasks()
    with pytest.raises(ValueError, match=r"tasks\[2\] and tasks\[0\] share the task id"):
        CompoWorldEnv(tasks=[pool[0], pool[1], pool[0]])


def test_empty_pool_fails_at_construction(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    with pytest.raises(ValueError, match="holds no tasks"):
        gym.make("CompoWorld-v0", task_file=str(empty))


@pytest.mark.parametrize("bad", [["x"], "tasks.jsonl", [1]])
def test_tasks_must_be_task_objects(bad):
    with pytest.raises(TypeError, match="task_file="):
        CompoWorldEnv(tasks=bad)


def test_file_cut_short_is_caught_by_its_summary(tmp_path, task_file):
    summary = write_summary(task_file, requested=3)
    assert summary.tasks == 3 and summary_path(task_file).exists()
    assert [t.id for t in load_tasks(task_file)] == [t.id for t in builtin_tasks()[:3]]
    task_file.write_text(task_file.read_text().splitlines(keepends=True)[0])  # what an interrupted copy leaves
    with pytest.raises(TaskFileError, match="holds 1 tasks but its summary tasks.jsonl.summary.json lists 3"):
        load_tasks(task_file)


def test_a_broken_line_is_named_even_beside_a_summary(tmp_path, task_file):
    # A fresh user's finding: the summary's verdict came alone, naming no line.
    write_summary(task_file, requested=3)
    lines = task_file.read_text().splitlines(keepends=True)
    task_file.write_text(lines[0] + lines[1][:500] + "\n" + lines[2])  # line 2 cut mid-record
    with pytest.raises(TaskFileError, match=r"tasks.jsonl:2: not valid JSON .*; and .* does not match its summary"):
        load_tasks(task_file)


def test_vector_sub_envs_share_one_parsed_pool(task_file):
    envs = gym.make_vec("CompoWorld-v0", num_envs=4, vectorization_mode="sync", task_file=str(task_file))
    pools = [e.unwrapped.tasks for e in envs.envs]
    assert all(p[i] is pools[0][i] for p in pools for i in range(3))
    assert shared_tasks(task_file)[0] is pools[0][0]
    envs.close()
    task_file.write_text(task_file.read_text().splitlines(keepends=True)[0])  # rewritten: read again
    assert len(shared_tasks(task_file)) == 1
