"""Tests of the issue tracker service (Linear GraphQL API style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._engineering import ENGINEERS
from compoworld_gym.envs.services.issue_tracker import IssueTracker

KENJI = "kenji.watanabe@company.example"


@pytest.fixture
def svc(make_service):
    return make_service(IssueTracker)


def test_teams_users_and_states(svc):
    teams = ok(svc, "list_teams")
    assert [(t["key"], t["repository"], t["issue_estimation_type"]) for t in teams] == [
        ("PLAT", "acme/auth-service", "fibonacci"), ("PAY", "acme/checkout-api", "exponential"),
        ("WEB", "acme/web-frontend", "linear"), ("DATA", "acme/reporting-etl", "notUsed")]
    team = ok(svc, "get_team", {"team_id": "pay"})
    assert team["active_cycle_id"] == "CYC-0005" and KENJI in team["member_emails"]
    assert [s["id"] for s in ok(svc, "list_workflow_states", {"team_id": "DATA", "type": "started"})] == [
        "DATA-in-progress"]
    assert len(ok(svc, "list_workflow_states", {"team_id": "PAY"})) == 7
    users = ok(svc, "list_users")
    assert {e.email for e in ENGINEERS} <= {u["id"] for u in users} and len(users) == 9
    assert len(ok(svc, "list_users", {"include_disabled": True})) == 10
    assert code(svc, "get_team", {"team_id": "OPS"}) == 404


def test_issue_reads(svc):
    i = ok(svc, "get_issue", {"issue_id": "pay-99"})
    assert (i["state_name"], i["assignee_email"], i["branch_name"], i["children"], i["comment_count"]) == (
        "In Progress", KENJI, "kenji/pay-99-refund-totals-off-by-one-cent-on-split", ["PAY-111"], 1)
    assert [r["id"] for r in i["relations"]] == ["REL-0002", "REL-0003"]
    assert [x["id"] for x in ok(svc, "list_issues", {"team_id": "PAY", "state_type": "started"})] == [
        "PAY-99", "PAY-106"]
    assert [x["id"] for x in ok(svc, "list_issues", {"label": "AUTH-SERVICE", "state_name": "todo"})] == ["PLAT-132"]
    assert [x["id"] for x in ok(svc, "list_issues", {"assignee_email": KENJI, "priority": 1})] == ["PAY-106"]
    assert len(ok(svc, "list_issues", {"cycle_id": "CYC-0005"})) == 4
    assert [x["id"] for x in ok(svc, "search_issues", {"query": "acme/checkout-api/pull/735"})] == ["PAY-99"]
    assert [x["id"] for x in ok(svc, "search_issues", {"query": "maya/web-181"})] == ["WEB-181"]
    assert [c["id"] for c in ok(svc, "list_comments", {"issue_id": "DATA-154"})] == ["CMT-0005"]
    assert [r["type"] for r in ok(svc, "list_issue_relations", {"issue_id": "WEB-181"})] == ["duplicate"]
    active = ok(svc, "list_cycles", {"team_id": "PAY", "status": "active"})
    assert [(c["id"], c["issue_ids"]) for c in active] == [("CYC-0005", ["PAY-99", "PAY-103", "PAY-106", "PAY-111"])]
    assert [c["status"] for c in ok(svc, "list_cycles", {"team_id": "WEB"})] == ["completed", "active", "upcoming"]
    assert code(svc, "get_issue", {"issue_id": "PAY-999"}) == 404


def test_create_issue(svc):
    i = ok(svc, "create_issue", {"team_id": "PAY", "title": "Fix refund rounding", "estimate": 4, "priority": 2,
                                 "assignee_email": KENJI, "cycle_id": "CYC-0005", "labels": ["Bug", "Bug"],
                                 "parent_id": "PAY-99"})
    assert (i["id"], i["state_id"], i["priority_label"], i["labels"], i["branch_name"], i["parent_id"]) == (
        "PAY-112", "PAY-todo", "High", ["Bug"], "kenji/pay-112-fix-refund-rounding", "PAY-99")
    assert ok(svc, "get_issue", {"issue_id": "PAY-99"})["children"] == ["PAY-111", "PAY-112"]
    d = ok(svc, "create_issue", {"team_id": "data", "title": "Backfill refunds", "state_id": "DATA-backlog"})
    assert (d["id"], d["state_type"], d["assignee_email"], d["branch_name"]) == (
        "DATA-157", "backlog", None, "data-157-backfill-refunds")
    assert error(svc, "create_issue", {"team_id": "PAY", "title": "abc", "estimate": 3})["code"] == 422
    assert code(svc, "create_issue", {"team_id": "DATA", "title": "abc", "estimate": 1}) == 422
    assert code(svc, "create_issue", {"team_id": "PAY", "title": "abc", "cycle_id": "CYC-0004"}) == 422
    assert code(svc, "create_issue", {"team_id": "PAY", "title": "abc", "cycle_id": "CYC-0008"}) == 422
    assert code(svc, "create_issue", {"team_id": "PAY", "title": "abc", "state_id": "WEB-todo"}) == 422
    assert code(svc, "create_issue", {"team_id": "PAY", "title": "abc", "assignee_email":
                                      "tomasz.kowal@company.example"}) == 422
    assert code(svc, "create_issue", {"team_id": "PAY", "title": "abc", "assignee_email": "x@y.com"}) == 404
    assert code(svc, "create_issue", {"team_id": "PAY", "title": "abc", "priority": 5}) == 400


def test_update_issue_moves_and_stamps(svc):
    i = ok(svc, "update_issue", {"issue_id": "PAY-103", "state_id": "PAY-in-progress", "estimate": 8,
                                 "assignee_email": "RACHEL.ADEYEMI@company.example", "priority": 1})
    assert (i["state_type"], i["estimate"], i["priority_label"], i["started_at"]) == (
        "started", 8, "Urgent", "2026-01-15T09:00:00")
    done = ok(svc, "update_issue", {"issue_id": "PAY-103", "state_id": "PAY-done"})
    assert done["completed_at"] == "2026-01-15T09:01:00" and done["started_at"] == "2026-01-15T09:00:00"
    assert code(svc, "update_issue", {"issue_id": "PAY-103", "state_id": "WEB-done"}) == 422
    assert code(svc, "update_issue", {"issue_id": "PAY-103", "state_id": "PAY-nope"}) == 404
    assert code(svc, "update_issue", {"issue_id": "PAY-103"}) == 400
    assert code(svc, "update_issue", {"issue_id": "PAY-99", "parent_id": "PAY-111"}) == 422
    assert code(svc, "update_issue", {"issue_id": "PAY-99", "parent_id": "PAY-99"}) == 422
    assert code(svc, "update_issue", {"issue_id": "WEB-181", "estimate": 8}) == 422


def test_archive_and_comments(svc):
    c = ok(svc, "create_comment", {"issue_id": "PAY-99", "body": "Fix deployed to staging."})
    assert (c["id"], c["user_email"]) == ("CMT-0006", "ops@company.example")
    ok(svc, "archive_issue", {"issue_id": "PAY-99"})
    assert "PAY-99" not in [x["id"] for x in ok(svc, "list_issues", {"team_id": "PAY"})]
    assert [x["id"] for x in ok(svc, "search_issues", {"query": "split tenders", "include_archived": True})] == [
        "PAY-99"]
    assert ok(svc, "search_issues", {"query": "split tenders"}) == []
    assert code(svc, "archive_issue", {"issue_id": "PAY-99"}) == 409
    assert code(svc, "create_comment", {"issue_id": "PAY-99", "body": "x"}) == 409
    assert ok(svc, "unarchive_issue", {"issue_id": "PAY-99"})["archived_at"] is None
    assert code(svc, "unarchive_issue", {"issue_id": "PAY-99"}) == 409


def test_cycles_relations_attachments(svc):
    assert ok(svc, "add_issue_to_cycle", {"issue_id": "PAY-108", "cycle_id": "CYC-0006"})["cycle_id"] == "CYC-0006"
    assert code(svc, "add_issue_to_cycle", {"issue_id": "PAY-108", "cycle_id": "CYC-0006"}) == 409
    assert code(svc, "add_issue_to_cycle", {"issue_id": "PAY-103", "cycle_id": "CYC-0004"}) == 422
    assert code(svc, "add_issue_to_cycle", {"issue_id": "PAY-103", "cycle_id": "CYC-0009"}) == 422
    assert code(svc, "add_issue_to_cycle", {"issue_id": "PAY-109", "cycle_id": "CYC-0006"}) == 422
    r = ok(svc, "create_issue_relation", {"issue_id": "PAY-103", "related_issue_id": "PAY-106", "type": "duplicate"})
    assert r["id"] == "REL-0004"
    dup = ok(svc, "get_issue", {"issue_id": "PAY-103"})
    assert (dup["state_id"], dup["state_type"], dup["canceled_at"]) == ("PAY-duplicate", "canceled",
                                                                       "2026-01-15T09:01:00")
    assert code(svc, "create_issue_relation", {"issue_id": "PAY-106", "related_issue_id": "PAY-103"}) == 409
    assert code(svc, "create_issue_relation", {"issue_id": "PAY-106", "related_issue_id": "PAY-106"}) == 400
    assert code(svc, "create_issue_relation", {"issue_id": "PAY-109", "related_issue_id": "WEB-190",
                                               "type": "duplicate"}) == 422
    assert ok(svc, "delete_issue_relation", {"relation_id": "REL-0004"})["type"] == "duplicate"
    assert code(svc, "delete_issue_relation", {"relation_id": "REL-0004"}) == 404
    url = "https://github.com/acme/checkout-api/pull/990"
    a = ok(svc, "create_attachment", {"issue_id": "PAY-103", "url": url, "title": "Retry on timeout"})
    assert a["attachments"][-1]["source_type"] == "github"
    assert [x["id"] for x in ok(svc, "search_issues", {"query": url})] == ["PAY-103"]
    assert code(svc, "create_attachment", {"issue_id": "PAY-103", "url": url, "title": "again"}) == 409
    assert code(svc, "create_attachment", {"issue_id": "PAY-103", "url": "http://x.example/a", "title": "x"}) == 400


def test_failed_call_rolls_back(svc):
    before = svc.state_dict()
    res = svc.call("create_issue", {"team_id": "PAY", "title": "Half made", "estimate": 4,
                                    "cycle_id": "CYC-0004"})
    assert not res["success"] and svc.state_dict() == before
    assert svc.state.counters["PAY"] == 112
