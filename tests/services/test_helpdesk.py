"""The helpdesk service: every tool, error codes, rollback."""

from __future__ import annotations

import pytest

from compoworld_gym.envs.services.helpdesk import Helpdesk


@pytest.fixture
def desk(make_service):
    return make_service(Helpdesk)


def test_seed_is_deterministic_and_realistic(make_service):
    a, b = make_service(Helpdesk, seed=0), make_service(Helpdesk, seed=0)
    assert a.state_dict() == b.state_dict()
    assert a.state_dict() != make_service(Helpdesk, seed=1).state_dict()
    s = a.state_dict()
    assert len(s["tickets"]) == 12 and s["counters"] == {"TCK": 13}
    assert s["agents"]["AGT-0001"] == {"id": "AGT-0001", "name": "Priya Raman",
                                       "email": "priya.raman@company.example", "team": "billing"}
    t1 = s["tickets"]["TCK-0001"]
    assert t1["subject"] == "Cannot change account email" and t1["status"] == "open"
    assert t1["description"].startswith("Hello, cannot change account email.")


def test_search_filters(desk):
    ids = lambda out: [t["id"] for t in out["data"]]  # noqa: E731
    all_ids = ids(desk.call("search_tickets", {}))
    assert all_ids == [f"TCK-{i:04d}" for i in range(1, 13)]
    pending = ids(desk.call("search_tickets", {"status": "pending"}))
    assert pending and all(desk.state.tickets[i].status == "pending" for i in pending)
    assert ids(desk.call("search_tickets", {"query": "CLOSE MY ACCOUNT"})) == [
        t.id for t in desk.state.tickets.values() if "close my account" in t.subject.lower()]
    assert ids(desk.call("search_tickets", {"limit": 2})) == ["TCK-0001", "TCK-0002"]
    due = ids(desk.call("search_tickets", {"due_before": "2026-01-02"}))
    assert all(str(desk.state.tickets[i].due_date) < "2026-01-02" for i in due)
    assert "comments" not in desk.call("search_tickets", {"limit": 1})["data"][0]


def test_get_ticket_and_404(desk):
    assert desk.call("get_ticket", {"ticket_id": "TCK-0001"})["data"]["subject"] == "Cannot change account email"
    assert desk.call("get_ticket", {"ticket_id": "TCK-0999"})["error"]["code"] == 404


def test_list_agents_by_team(desk):
    out = desk.call("list_agents", {"team": "logistics"})["data"]
    assert [a["email"] for a in out] == ["grace.okafor@company.example", "daniel.cho@company.example"]


def test_create_ticket(desk):
    out = desk.call("create_ticket", {"subject": "Lost parcel", "description": "Where is it?",
                                      "requester_name": "Ann Lee", "requester_email": "ann@lee.io",
                                      "priority": "high", "due_date": "2026-01-20"})
    assert out["data"]["id"] == "TCK-0013" and out["data"]["status"] == "new"
    assert desk.state.tickets["TCK-0013"].created_on.isoformat() == "2026-01-15"
    bad = desk.call("create_ticket", {"subject": "x", "description": "y", "requester_name": "A",
                                      "requester_email": "not-an-email"})
    assert bad["error"]["code"] == 400 and "requester_email" in bad["error"]["message"]


def test_update_ticket_rules(desk):
    out = desk.call("update_ticket", {"ticket_id": "TCK-0002", "priority": "urgent",
                                      "assignee_email": "priya.raman@company.example", "add_tags": ["vip"]})
    assert out["data"]["priority"] == "urgent" and out["data"]["tags"] == ["refund", "vip"]
    assert desk.call("update_ticket", {"ticket_id": "TCK-0002"})["error"]["code"] == 400
    stranger = desk.call("update_ticket", {"ticket_id": "TCK-0002", "assignee_email": "x@y.io"})
    assert stranger["error"]["code"] == 400 and "list_agents" in stranger["error"]["message"]


def test_comments(desk):
    out = desk.call("add_comment", {"ticket_id": "TCK-0001", "body": "On it", "public": True})
    assert out["data"] == {"ticket_id": "TCK-0001", "author_email": "support@company.example", "body": "On it",
                           "public": True, "created_at": "2026-01-15T09:00:00"}
    desk.call("add_comment", {"ticket_id": "TCK-0001", "body": "internal", "public": False})
    assert [c["body"] for c in desk.call("list_comments", {"ticket_id": "TCK-0001"})["data"]] == ["On it", "internal"]
    assert [c["body"] for c in desk.call("list_comments", {"ticket_id": "TCK-0001", "public_only": True})["data"]] == [
        "On it"]


def test_list_overdue_tickets(desk):
    out = desk.call("list_overdue_tickets", {})["data"]
    expected = sorted((t for t in desk.state.tickets.values()
                       if t.status in ("new", "open", "pending") and t.due_date.isoformat() < "2026-01-15"),
                      key=lambda t: (t.due_date, t.id))
    assert [t["id"] for t in out] == [t.id for t in expected] and out
    assert desk.call("list_overdue_tickets", {"as_of": "2025-01-01"})["data"] == []


def test_close_requires_solved_then_freezes(desk):
    assert desk.call("close_ticket", {"ticket_id": "TCK-0001", "resolution": "x"})["error"]["code"] == 409
    desk.call("update_ticket", {"ticket_id": "TCK-0001", "status": "solved"})
    assert desk.call("close_ticket", {"ticket_id": "TCK-0001", "resolution": "Fixed email"})["data"]["status"] == "closed"
    assert desk.state.tickets["TCK-0001"].comments[-1].body == "Fixed email"
    before = desk.state_dict()
    assert desk.call("update_ticket", {"ticket_id": "TCK-0001", "status": "open"})["error"]["code"] == 409
    assert desk.call("add_comment", {"ticket_id": "TCK-0001", "body": "hi"})["error"]["code"] == 409
    assert desk.state_dict() == before


def test_merge_tickets(desk):
    desk.call("add_comment", {"ticket_id": "TCK-0003", "body": "dup note"})
    out = desk.call("merge_tickets", {"source_ticket_id": "TCK-0003", "target_ticket_id": "TCK-0001"})
    assert out["data"]["id"] == "TCK-0001"
    assert [c.body for c in desk.state.tickets["TCK-0001"].comments] == ["dup note"]
    assert desk.state.tickets["TCK-0003"].status == "closed"
    assert desk.call("merge_tickets", {"source_ticket_id": "TCK-0001", "target_ticket_id": "TCK-0001"})[
        "error"]["code"] == 400
    assert desk.call("merge_tickets", {"source_ticket_id": "TCK-0003", "target_ticket_id": "TCK-0002"})[
        "error"]["code"] == 409


def test_failed_write_leaves_state_byte_identical(desk):
    before = desk.state_dict()
    for args in ({"ticket_id": "TCK-0404", "status": "open"}, {"ticket_id": "TCK-0001", "priority": "meh"}):
        assert desk.call("update_ticket", args)["success"] is False
    assert desk.state_dict() == before
