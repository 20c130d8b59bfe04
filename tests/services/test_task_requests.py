"""Tests of the task_requests service (MCP TaskManager)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.task_requests import TaskRequests


@pytest.fixture
def svc(make_service):
    return make_service(TaskRequests)


def _task(svc, tid):
    return ok(svc, "open_task_details", {"taskId": tid})["task"]


def test_seed_requests_and_rosters(svc):
    data = ok(svc, "list_requests")
    assert data["total"] == 8
    first = data["requests"][0]
    assert (first["id"], first["ownerEmail"], first["totalTasks"], first["completedTasks"],
            first["approvedTasks"]) == ("req-1", "tomas.lindqvist@company.example", 4, 2, 1)
    assert [r["id"] for r in data["requests"] if r["completed"]] == ["req-5"]
    esc = data["requests"][2]
    assert esc["originalRequest"] == "Follow up on the refund escalation for order ORD-0011"
    assert "liam.patel@gmail.com" in esc["tasks"][1]["description"]
    assert svc.state.counters["task"] == 26 and svc.state.counters["req"] == 9


def test_open_task_details(svc):
    d = ok(svc, "open_task_details", {"taskId": "task-2"})
    assert (d["requestId"], d["ownerEmail"], d["task"]["status"], d["task"]["title"]) == (
        "req-1", "tomas.lindqvist@company.example", "done", "Create the vendor record")
    assert code(svc, "open_task_details", {"taskId": "task-99"}) == 404


def test_get_next_task_returns_first_pending(svc):
    n = ok(svc, "get_next_task", {"requestId": "req-1"})
    assert (n["status"], n["task"]["id"], n["awaitingApproval"]) == ("next_task", "task-3", ["task-2"])
    assert n["task"]["description"] == "Call Keller Logistik GmbH on the number in the contract to confirm the IBAN."
    assert ok(svc, "get_next_task", {"requestId": "req-7"})["status"] == "all_tasks_done"
    assert ok(svc, "get_next_task", {"requestId": "req-5"})["status"] == "already_completed"
    assert code(svc, "get_next_task", {"requestId": "req-42"}) == 404


def test_request_planning_and_ids(svc):
    r = ok(svc, "request_planning", {"originalRequest": "Offboard a contractor", "tasks": [
        {"title": "Revoke access", "description": "Disable the SSO account."},
        {"title": "Collect laptop", "description": "Ship the laptop back to Northwind Computing."}]})
    assert (r["requestId"], [t["id"] for t in r["tasks"]], r["totalTasks"]) == ("req-9", ["task-26", "task-27"], 2)
    req = svc.state.requests["req-9"]
    assert (req.ownerEmail, req.splitDetails, req.completed) == ("ops@company.example", "Offboard a contractor", False)
    assert ok(svc, "get_next_task", {"requestId": "req-9"})["task"]["id"] == "task-26"
    assert code(svc, "request_planning", {"originalRequest": "x", "tasks": []}) == 400
    assert code(svc, "request_planning", {"originalRequest": "x", "tasks": [{"title": "no description"}]}) == 400


def test_done_then_approve_cycle(svc):
    d = ok(svc, "mark_task_done", {"requestId": "req-3", "taskId": "task-10",
                                   "completedDetails": "Called liam.patel@gmail.com; refund RF-0003 confirmed."})
    assert (d["task"]["status"], d["task"]["completedDetails"]) == (
        "done", "Called liam.patel@gmail.com; refund RF-0003 confirmed.")
    assert svc.state.tasks["task-10"].doneAt.isoformat() == "2026-01-15T09:00:00"
    assert code(svc, "mark_task_done", {"requestId": "req-3", "taskId": "task-10"}) == 409
    msg = error(svc, "approve_task_completion", {"requestId": "req-3", "taskId": "task-11"})
    assert msg["code"] == 409 and "not done yet" in msg["message"]
    a = ok(svc, "approve_task_completion", {"requestId": "req-3", "taskId": "task-10"})
    assert a["task"]["status"] == "approved"
    assert code(svc, "approve_task_completion", {"requestId": "req-3", "taskId": "task-10"}) == 409
    assert ok(svc, "get_next_task", {"requestId": "req-3"})["task"]["id"] == "task-11"
    assert code(svc, "mark_task_done", {"requestId": "req-1", "taskId": "task-10"}) == 404  # other request


def test_request_completion_needs_all_done_and_approved(svc):
    msg = error(svc, "approve_request_completion", {"requestId": "req-1"})
    assert msg["code"] == 409 and "task-3, task-4" in msg["message"]
    ok(svc, "mark_task_done", {"requestId": "req-6", "taskId": "task-19", "completedDetails": "Claim filed."})
    msg = error(svc, "approve_request_completion", {"requestId": "req-6"})
    assert msg["code"] == 409 and "task-18, task-19" in msg["message"]
    done = ok(svc, "approve_request_completion", {"requestId": "req-7"})
    assert done["status"] == "request_approved_complete" and svc.state.requests["req-7"].completed
    assert code(svc, "approve_request_completion", {"requestId": "req-7"}) == 409
    assert code(svc, "add_tasks_to_request", {"requestId": "req-7", "tasks": [
        {"title": "More", "description": "x"}]}) == 409
    empty = ok(svc, "request_planning", {"originalRequest": "x", "tasks": [{"title": "t", "description": "d"}]})
    ok(svc, "delete_task", {"requestId": empty["requestId"], "taskId": "task-26"})
    assert code(svc, "approve_request_completion", {"requestId": empty["requestId"]}) == 422


def test_add_update_delete(svc):
    a = ok(svc, "add_tasks_to_request", {"requestId": "req-4", "tasks": [
        {"title": "Refund shipping", "description": "Refund the express fee on order ORD-0008."}]})
    assert (a["newTasks"], [t["id"] for t in a["tasks"]]) == (["task-26"], ["task-12", "task-13", "task-26"])
    u = ok(svc, "update_task", {"requestId": "req-4", "taskId": "task-12", "title": "Open a carrier trace"})
    assert (u["task"]["title"], u["task"]["description"]) == (
        "Open a carrier trace", "Open a trace with the carrier for order ORD-0008.")
    assert code(svc, "update_task", {"requestId": "req-4", "taskId": "task-12"}) == 400
    msg = error(svc, "update_task", {"requestId": "req-1", "taskId": "task-1", "title": "x"})
    assert msg["code"] == 409 and "done and approved" in msg["message"]
    assert code(svc, "update_task", {"requestId": "req-1", "taskId": "task-2", "title": "x"}) == 409
    assert code(svc, "delete_task", {"requestId": "req-1", "taskId": "task-1"}) == 409
    assert code(svc, "delete_task", {"requestId": "req-5", "taskId": "task-14"}) == 409
    d = ok(svc, "delete_task", {"requestId": "req-4", "taskId": "task-13"})
    assert [t["id"] for t in d["tasks"]] == ["task-12", "task-26"] and "task-13" not in svc.state.tasks
    assert code(svc, "delete_task", {"requestId": "req-4", "taskId": "task-13"}) == 404


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("approve_request_completion", {"requestId": "req-1"})["success"] is False
    assert svc.state_dict() == before
    assert make_service(TaskRequests, seed=3).state_dict() == make_service(TaskRequests, seed=3).state_dict()
