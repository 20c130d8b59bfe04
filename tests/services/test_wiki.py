"""The wiki service: spaces, page tree, versions, labels, comments."""

from __future__ import annotations

import pytest
from _svc_asserts import code, ok

from compoworld_gym.envs.services.wiki import Wiki


@pytest.fixture
def wiki(make_service):
    return make_service(Wiki)


def test_seed(make_service):
    s = make_service(Wiki).state_dict()
    assert s == make_service(Wiki).state_dict() != make_service(Wiki, seed=1).state_dict()
    assert list(s["spaces"]) == ["OPS", "FIN", "ENG"] and len(s["pages"]) == 10
    assert len(s["pages"]["PG-0005"]["versions"]) == 3 and s["pages"]["PG-0002"]["parent_id"] == "PG-0001"


def test_reads(wiki):
    assert [(s["key"], s["pages"]) for s in ok(wiki, "list_spaces")] == [("OPS", 4), ("FIN", 3), ("ENG", 3)]
    hits = ok(wiki, "search_pages", {"query": "refund"})
    assert [h["id"] for h in hits] == ["PG-0005"] and hits[0]["version"] == 3
    assert [h["id"] for h in ok(wiki, "search_pages", {"space_key": "ENG", "label": "process"})] == ["PG-0008"]
    page = ok(wiki, "get_page", {"page_id": "PG-0005"})
    assert page["content"].startswith("Refunds above $300") and page["title"] == "Refund approval process"
    assert ok(wiki, "get_page", {"page_id": "PG-0005", "version": 1})["content"] == (
        "Refunds above $500 need approval from the finance controller.")
    assert code(wiki, "get_page", {"page_id": "PG-0005", "version": 9}) == 404
    assert [c["title"] for c in ok(wiki, "get_page_children", {"parent_id": "PG-0001"})] == [
        "Escalation matrix", "Weekly ops meeting 2026-01-12", "Shipping delay playbook"]
    assert [v["number"] for v in ok(wiki, "get_page_history", {"page_id": "PG-0005"})] == [3, 2, 1]
    author = wiki.state.pages["PG-0005"].author_email
    assert "PG-0005" in [h["id"] for h in ok(wiki, "search_pages", {"author_email": author.upper()})]
    assert code(wiki, "get_page", {"page_id": "PG-0999"}) == 404


def test_create_update_restore(wiki):
    p = ok(wiki, "create_page", {"space_key": "OPS", "title": "Holiday cover", "content": "Who covers when",
                                 "parent_id": "PG-0001", "labels": ["rota"]})
    assert p["id"] == "PG-0011" and p["version"] == 1 and p["author_email"] == "ops@company.example"
    assert code(wiki, "create_page", {"space_key": "OPS", "title": "holiday COVER"}) == 409
    assert code(wiki, "create_page", {"space_key": "FIN", "title": "x", "parent_id": "PG-0001"}) == 400
    assert code(wiki, "create_page", {"space_key": "HR", "title": "x"}) == 404
    u = ok(wiki, "update_page", {"page_id": "PG-0011", "version": 1, "content": "Luis covers",
                                 "version_comment": "names"})
    assert u["version"] == 2 and u["content"] == "Luis covers"
    assert code(wiki, "update_page", {"page_id": "PG-0011", "version": 1, "content": "stale"}) == 409
    assert code(wiki, "update_page", {"page_id": "PG-0011", "version": 2}) == 400
    assert code(wiki, "update_page", {"page_id": "PG-0011", "version": 2, "title": "Escalation matrix"}) == 409
    r = ok(wiki, "restore_page_version", {"page_id": "PG-0011", "version": 1})
    assert r["version"] == 3 and r["content"] == "Who covers when"
    assert ok(wiki, "get_page_history", {"page_id": "PG-0011"})[0]["comment"] == "Restored version 1"
    assert code(wiki, "restore_page_version", {"page_id": "PG-0011", "version": 3}) == 400


def test_labels_comments_delete(wiki):
    assert ok(wiki, "add_label", {"page_id": "PG-0006", "name": "finance"})["labels"] == ["checklist", "finance"]
    assert ok(wiki, "add_label", {"page_id": "PG-0006", "name": "finance"})["labels"] == ["checklist", "finance"]
    assert code(wiki, "add_label", {"page_id": "PG-0006", "name": "Has Space"}) == 400
    assert ok(wiki, "remove_label", {"page_id": "PG-0006", "name": "checklist"})["labels"] == ["finance"]
    assert code(wiki, "remove_label", {"page_id": "PG-0006", "name": "checklist"}) == 404
    c = ok(wiki, "add_comment", {"page_id": "PG-0006", "content": "Add step 4"})
    assert c["id"] == "CMT-0001" and ok(wiki, "get_comments", {"page_id": "PG-0006"})[0]["body"] == "Add step 4"
    assert code(wiki, "delete_page", {"page_id": "PG-0001"}) == 409
    assert ok(wiki, "delete_page", {"page_id": "PG-0006"}) == {"page_id": "PG-0006", "deleted": True}
    assert "PG-0006" not in wiki.state.pages
