"""The task_board service (TaskQueue spec plus owner/due-date extensions)."""

from __future__ import annotations

import datetime as dt

import pytest
from _svc_asserts import code, ok

from compoworld_gym.envs.services.task_board import TaskBoard

PRIYA = "priya.raman@company.example"


@pytest.fixture
def board(make_service):
    return make_service(TaskBoard)


@pytest.fixture
def fresh(board):
    """Project proj-5 with tasks task-13 and task-14, both not started."""
    ok(board, "create_project", {"initialPrompt": "Launch newsletter", "tasks": [
        {"title": "Draft", "description": "Write it", "assigneeEmail": PRIYA, "dueDate": "2026-01-20"},
        {"title": "Send", "description": "Send it"}]})
    return board


def test_seed(make_service, today):
    s = make_service(TaskBoard).state_dict()
    assert s == make_service(TaskBoard).state_dict() != make_service(TaskBoard, seed=1).state_dict()
    assert list(s["projects"]) == ["proj-1", "proj-2", "proj-3", "proj-4"] and len(s["tasks"]) == 12
    assert s["projects"]["proj-1"]["taskIds"] == ["task-1", "task-2", "task-3", "task-4"]
    assert len(s["members"]) == 12


def test_projects(board, fresh):
    assert [p["id"] for p in ok(board, "list_projects")] == ["proj-1", "proj-2", "proj-3", "proj-4", "proj-5"]
    assert "proj-5" in [p["id"] for p in ok(board, "list_projects", {"state": "open"})]
    p = ok(board, "read_project", {"projectId": "proj-5"})
    assert [t["id"] for t in p["tasks"]] == ["task-13", "task-14"] and p["totalTasks"] == 2
    assert p["projectPlan"] == "Launch newsletter" and p["createdOn"] == "2026-01-15"
    assert ok(board, "add_tasks_to_project", {"projectId": "proj-5", "tasks": [
        {"title": "Measure", "description": "Open rate"}]}) == {"projectId": "proj-5", "taskIds": ["task-15"]}
    assert code(board, "read_project", {"projectId": "proj-99"}) == 404
    assert code(board, "create_project", {"initialPrompt": "x", "tasks": [
        {"title": "a", "description": "b", "assigneeEmail": "stranger@x.com"}]}) == 400
    assert ok(board, "delete_project", {"projectId": "proj-5"}) == {"projectId": "proj-5", "deletedTasks": 3}
    assert "task-13" not in board.state.tasks


def test_task_lifecycle_and_finalize(board, fresh):
    ids = {"projectId": "proj-5", "taskId": "task-13"}
    assert ok(board, "get_next_task", {"projectId": "proj-5"})["id"] == "task-13"
    assert code(board, "update_task", {**ids, "status": "done", "completedDetails": "x"}) == 409
    ok(board, "update_task", {**ids, "status": "in progress"})
    assert code(board, "update_task", {**ids, "status": "done"}) == 400
    assert code(board, "approve_task", ids) == 409
    done = ok(board, "update_task", {**ids, "status": "done", "completedDetails": "Sent to editor"})
    assert done["status"] == "done" and done["approved"] is False
    assert [t["id"] for t in ok(board, "list_tasks", {"projectId": "proj-5", "state": "pending_approval"})] == [
        "task-13"]
    assert ok(board, "approve_task", ids)["approved"] is True
    assert code(board, "update_task", {**ids, "title": "New"}) == 409
    assert code(board, "finalize_project", {"projectId": "proj-5"}) == 409
    ok(board, "delete_task", {"projectId": "proj-5", "taskId": "task-14"})
    assert ok(board, "get_next_task", {"projectId": "proj-5"})["projectId"] == "proj-5"
    assert ok(board, "finalize_project", {"projectId": "proj-5"})["completed"] is True
    assert ok(board, "list_projects", {"state": "completed"})[0]["id"] == "proj-5"
    assert code(board, "create_task", {"projectId": "proj-5", "title": "late", "description": "x"}) == 409


def test_create_read_and_details(board, fresh):
    t = ok(board, "create_task", {"projectId": "proj-5", "title": "Review", "description": "Proofread",
                                  "toolRecommendations": "spellcheck"})
    assert t["id"] == "task-15" and t["status"] == "not started" and t["assigneeEmail"] is None
    assert code(board, "create_task", {"projectId": "proj-5", "title": "No description"}) == 400
    d = ok(board, "set_task_details", {"projectId": "proj-5", "taskId": "task-15", "assigneeEmail": PRIYA.upper(),
                                       "dueDate": "2026-01-10", "priority": "urgent", "labels": ["qa", "qa"]})
    assert (d["assigneeEmail"], d["dueDate"], d["priority"], d["labels"]) == (PRIYA, "2026-01-10", "urgent", ["qa"])
    assert code(board, "set_task_details", {"projectId": "proj-5", "taskId": "task-15"}) == 400
    assert code(board, "set_task_details", {"projectId": "proj-5", "taskId": "task-15",
                                            "assigneeEmail": "x@y.com"}) == 400
    assert code(board, "read_task", {"projectId": "proj-1", "taskId": "task-15"}) == 400
    c = ok(board, "add_task_comment", {"projectId": "proj-5", "taskId": "task-15", "body": "Due soon"})
    assert c["authorEmail"] == "ops@company.example"
    assert ok(board, "read_task", {"projectId": "proj-5", "taskId": "task-15"})["comments"][0]["body"] == "Due soon"


def test_search_tasks(board, fresh, today):
    overdue = ok(board, "search_tasks", {"dueBefore": today.isoformat(), "state": "open"})
    expected = [t.id for t in board.state.tasks.values()
                if t.dueDate and t.dueDate < today and t.status != "done"]
    assert [t["id"] for t in overdue] == expected
    mine = ok(board, "search_tasks", {"assigneeEmail": PRIYA, "projectId": "proj-5"})
    assert [t["id"] for t in mine] == ["task-13"]
    assert ok(board, "search_tasks", {"label": "billing"})[0]["projectId"] == "proj-1"
    assert len(ok(board, "list_members")) == 12
    assert dt.date.fromisoformat(mine[0]["dueDate"]) == dt.date(2026, 1, 20)


def test_failed_write_rolls_back(board, fresh):
    before = board.state_dict()
    res = board.call("add_tasks_to_project", {"projectId": "proj-5", "tasks": [
        {"title": "ok", "description": "fine"}, {"title": "bad", "description": "x", "assigneeEmail": "no@x.com"}]})
    assert res["error"]["code"] == 400 and board.state_dict() == before
