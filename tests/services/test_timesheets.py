"""Tests of the timesheets service (Harvest API v2 shapes)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.timesheets import Timesheets


@pytest.fixture
def svc(make_service):
    return make_service(Timesheets)


def entry(svc, user, project, task, day, hours):
    return svc.call("create_time_entry", {"user_id": user, "project_id": project, "task_id": task,
                                          "spent_date": day, "hours": hours, "notes": "Work session"})


def test_clients_projects_tasks_users(svc):
    assert [c["id"] for c in ok(svc, "list_clients", {"name": "globex CORPORATION"})] == ["CUS-0001"]
    assert [c["name"] for c in ok(svc, "list_clients", {"is_active": False})] == ["Oceanic Airlines"]
    assert [p["id"] for p in ok(svc, "list_projects", {"client_id": "CUS-0001"})] == ["PRJ-0001"]
    assert [p["id"] for p in ok(svc, "list_projects", {"is_active": False})] == ["PRJ-0006"]
    glx = ok(svc, "get_project", {"project_id": "PRJ-0001"})
    assert (glx["client_name"], glx["budget_spent"], glx["budget_percent_used"], glx["over_budget"],
            glx["uninvoiced_hours"], glx["uninvoiced_amount"]) == ("Globex Corporation", 49.0, 40.8, False, 12.0, 2120.0)
    sso = ok(svc, "get_project", {"project_id": "PRJ-0002"})
    assert (sso["budget_by"], sso["budget_spent"], sso["over_budget"]) == ("project_cost", 10260.0, True)
    assert [t["id"] for t in ok(svc, "list_tasks") if not t["billable_by_default"]] == ["TSK-0005", "TSK-0006"]
    users = ok(svc, "list_users", {"email": "Hannah.Kovacs@company.example"})
    assert [(u["id"], u["approver_email"], u["default_hourly_rate"]) for u in users] == [
        ("EMP-0015", "jamal.wright@company.example", 175.0)]
    assert len(ok(svc, "list_users", {"is_active": True})) == 9
    assert code(svc, "get_project", {"project_id": "PRJ-0099"}) == 404


def test_entries_reports_timesheets_invoices_reads(svc):
    rows = ok(svc, "list_time_entries", {"project_id": "PRJ-0005", "approval_status": "unsubmitted"})
    assert [e["id"] for e in rows] == ["TE-0032", "TE-0034", "TE-0035", "TE-0036"]
    assert [e["id"] for e in ok(svc, "list_time_entries", {"user_id": "EMP-0015", "from_date": "2026-01-06",
                                                           "to_date": "2026-01-08"})] == ["TE-0006", "TE-0007"]
    assert len(ok(svc, "list_time_entries", {"client_id": "CUS-0006", "is_billed": True})) == 3
    te = ok(svc, "get_time_entry", {"time_entry_id": "TE-0037"})
    assert (te["invoice_id"], te["is_locked"], te["billable_amount"]) == ("HIN-0001", True, 1320.0)
    report = ok(svc, "get_uninvoiced_report", {"client_id": "CUS-0002"})
    assert [(r["project_id"], r["uninvoiced_amount"], r["pending_approval_amount"]) for r in report] == [
        ("PRJ-0002", 2520.0, 7740.0)]
    assert [t["id"] for t in ok(svc, "list_timesheets", {"status": "rejected"})] == ["TS-0018"]
    assert [t["id"] for t in ok(svc, "list_timesheets", {"approver_email": "jamal.wright@company.example",
                                                         "status": "submitted"})] == ["TS-0004", "TS-0006"]
    ts = ok(svc, "get_timesheet", {"timesheet_id": "TS-0004"})
    assert (ts["user_email"], ts["total_hours"], ts["billable_amount"], [e["id"] for e in ts["entries"]]) == (
        "hannah.kovacs@company.example", 10.0, 1740.0, ["TE-0006", "TE-0007"])
    assert [i["id"] for i in ok(svc, "list_invoices", {"state": "paid"})] == ["HIN-0001"]
    assert ok(svc, "get_invoice", {"invoice_id": "HIN-0001"})["amount"] == 3960.0
    assert code(svc, "get_timesheet", {"timesheet_id": "TS-0099"}) == 404


def test_create_entry_and_budget_flag(svc):
    te = entry(svc, "EMP-0014", "PRJ-0001", "TSK-0003", "2026-01-14", 3)["data"]
    assert (te["id"], te["billable"], te["billable_rate"], te["billable_amount"], te["approval_status"]) == (
        "TE-0040", True, 190.0, 570.0, "unsubmitted")
    assert te["project_budget"]["budget_spent"] == 52.0
    travel = entry(svc, "EMP-0014", "PRJ-0001", "TSK-0005", "2026-01-14", 2)["data"]
    assert (travel["billable"], travel["billable_amount"]) == (False, 0.0)
    over = entry(svc, "EMP-0021", "PRJ-0002", "TSK-0001", "2026-01-13", 2)["data"]
    assert (over["project_budget"]["over_budget"], over["project_budget"]["budget_spent"]) == (True, 10620.0)


def test_rule_no_more_than_24_hours_a_day(svc):
    msg = error(svc, "create_time_entry", {"user_id": "EMP-0014", "project_id": "PRJ-0001", "task_id": "TSK-0001",
                                           "spent_date": "2026-01-12", "hours": 17})
    assert msg["code"] == 422 and "at most 16.5 h more" in msg["message"]
    assert entry(svc, "EMP-0014", "PRJ-0001", "TSK-0001", "2026-01-12", 10)["success"]
    assert code(svc, "update_time_entry", {"time_entry_id": "TE-0004", "hours": 15}) == 422
    assert ok(svc, "update_time_entry", {"time_entry_id": "TE-0004", "hours": 6, "notes": "Cutover"})["hours"] == 6.0


def test_rule_no_entries_on_archived_projects(svc):
    msg = error(svc, "create_time_entry", {"user_id": "EMP-0014", "project_id": "PRJ-0006", "task_id": "TSK-0001",
                                           "spent_date": "2026-01-14", "hours": 2})
    assert msg["code"] == 409 and "archived" in msg["message"]
    assert ok(svc, "update_project", {"project_id": "PRJ-0004", "is_active": False})["is_active"] is False
    assert code(svc, "create_time_entry", {"user_id": "EMP-0016", "project_id": "PRJ-0004", "task_id": "TSK-0001",
                                           "spent_date": "2026-01-14", "hours": 2}) == 409
    base = {"user_id": "EMP-0014", "project_id": "PRJ-0001", "task_id": "TSK-0001", "hours": 2}
    assert code(svc, "create_time_entry", {**base, "user_id": "EMP-0021", "spent_date": "2026-01-14"}) == 422
    assert code(svc, "create_time_entry", {**base, "task_id": "TSK-0004", "spent_date": "2026-01-14"}) == 422
    assert code(svc, "create_time_entry", {**base, "spent_date": "2026-01-16"}) == 422  # future
    assert code(svc, "create_time_entry", {**base, "spent_date": "2026-01-07"}) == 409  # week submitted
    assert entry(svc, "EMP-0018", "PRJ-0005", "TSK-0001", "2026-01-07", 2)["success"]  # rejected week reopened


def test_rule_no_edit_of_approved_or_billed_entries(svc):
    msg = error(svc, "update_time_entry", {"time_entry_id": "TE-0001", "hours": 5})
    assert msg["code"] == 409 and "approved" in msg["message"]
    assert code(svc, "update_time_entry", {"time_entry_id": "TE-0002", "notes": "x"}) == 409  # submitted
    assert code(svc, "delete_time_entry", {"time_entry_id": "TE-0037"}) == 409  # billed
    assert ok(svc, "delete_time_entry", {"time_entry_id": "TE-0004"}) == {"deleted": "TE-0004"}
    assert code(svc, "get_time_entry", {"time_entry_id": "TE-0004"}) == 404


def test_submit_approve_reject(svc):
    ts = ok(svc, "submit_timesheet", {"user_id": "EMP-0014", "week_of_date": "2026-01-12"})
    assert (ts["id"], ts["status"], ts["approver_email"]) == ("TS-0019", "submitted", "sarah.hunt@company.example")
    assert ok(svc, "get_time_entry", {"time_entry_id": "TE-0004"})["approval_status"] == "submitted"
    assert code(svc, "submit_timesheet", {"user_id": "EMP-0015", "week_of_date": "2026-01-13"}) == 422  # Tuesday
    assert code(svc, "submit_timesheet", {"user_id": "EMP-0015", "week_of_date": "2026-01-19"}) == 422
    assert code(svc, "submit_timesheet", {"user_id": "EMP-0015", "week_of_date": "2026-01-05"}) == 409
    assert code(svc, "submit_timesheet", {"user_id": "EMP-0015", "week_of_date": "2025-12-22"}) == 422  # no time
    again = ok(svc, "submit_timesheet", {"user_id": "EMP-0018", "week_of_date": "2026-01-05"})
    assert (again["id"], again["status"], again["decided_by"]) == ("TS-0018", "submitted", None)
    wrong = error(svc, "approve_timesheet", {"timesheet_id": "TS-0004", "approver_email": "luis.ortega@company.example"})
    assert wrong["code"] == 422 and "jamal.wright@company.example" in wrong["message"]
    ap = ok(svc, "approve_timesheet", {"timesheet_id": "TS-0004", "approver_email": "Jamal.Wright@company.example"})
    assert (ap["status"], ap["decided_by"]) == ("approved", "jamal.wright@company.example")
    assert ok(svc, "get_project", {"project_id": "PRJ-0001"})["uninvoiced_amount"] == 3860.0
    assert code(svc, "approve_timesheet", {"timesheet_id": "TS-0004",
                                           "approver_email": "jamal.wright@company.example"}) == 409
    rj = ok(svc, "reject_timesheet", {"timesheet_id": "TS-0002", "approver_email": "sarah.hunt@company.example",
                                      "note": "Add notes to the Tuesday entry"})
    assert (rj["status"], rj["rejection_note"]) == ("rejected", "Add notes to the Tuesday entry")
    assert ok(svc, "get_time_entry", {"time_entry_id": "TE-0002"})["approval_status"] == "unsubmitted"


def test_invoice_uninvoiced_approved_time(svc):
    inv = ok(svc, "create_invoice", {"client_id": "CUS-0001", "subject": "Globex ERP - December"})
    assert (inv["id"], inv["number"], inv["amount"], inv["due_date"], inv["time_entry_ids"]) == (
        "HIN-0002", "2026-0002", 2120.0, "2026-02-14", ["TE-0001", "TE-0005"])
    assert [(li["quantity"], li["unit_price"], li["amount"]) for li in inv["line_items"]] == [
        (4.0, 150.0, 600.0), (8.0, 190.0, 1520.0)]
    assert ok(svc, "get_time_entry", {"time_entry_id": "TE-0001"})["is_billed"] is True
    assert ok(svc, "get_project", {"project_id": "PRJ-0001"})["uninvoiced_amount"] == 0.0
    assert code(svc, "create_invoice", {"client_id": "CUS-0001", "subject": "again"}) == 422
    assert code(svc, "create_invoice", {"client_id": "CUS-0002", "subject": "SSO", "project_ids": ["PRJ-0001"]}) == 422
    assert code(svc, "create_invoice", {"client_id": "CUS-0007", "subject": "Tyrell"}) == 422
    assert code(svc, "create_invoice", {"client_id": "CUS-0099", "subject": "Nobody"}) == 404


def test_update_project(svc):
    p = ok(svc, "update_project", {"project_id": "PRJ-0001", "notes": "case KQ-4821: scope change", "budget": 140})
    assert (p["notes"], p["budget"], p["budget_percent_used"]) == ("case KQ-4821: scope change", 140.0, 35.0)
    assert code(svc, "update_project", {"project_id": "PRJ-0005", "budget": 50}) == 422
    assert code(svc, "update_project", {"project_id": "PRJ-0001", "is_active": True}) == 409
    assert code(svc, "update_project", {"project_id": "PRJ-0001"}) == 422


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("create_invoice", {"client_id": "CUS-0007", "subject": "Tyrell"})["success"] is False
    assert svc.state_dict() == before
    assert make_service(Timesheets, seed=5).state_dict() == make_service(Timesheets, seed=5).state_dict()
