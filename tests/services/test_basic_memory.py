"""Tests of the basic_memory service (Basic Memory markdown knowledge base)."""

from __future__ import annotations

import json

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.basic_memory import BasicMemory

NODE = {"id": "n1", "type": "text", "text": "Globex", "x": 0, "y": 0, "width": 200, "height": 80}


@pytest.fixture
def svc(make_service):
    return make_service(BasicMemory)


def test_projects(svc):
    projects = ok(svc, "list_memory_projects")["projects"]
    assert [(p["name"], p["is_default"], p["is_current"], p["notes"]) for p in projects] == [
        ("company", True, True, 36), ("engineering", False, False, 8)]
    cur = ok(svc, "get_current_project", {"_compatibility": "x"})
    assert (cur["name"], cur["folders"]) == ("company", ["accounts", "archive", "customers", "meetings", "products",
                                                         "runbooks"])
    assert ok(svc, "switch_project", {"project_name": "Engineering"})["current_project"] == "engineering"
    assert ok(svc, "read_note", {"identifier": "Checkout API"})["permalink"] == "services/checkout-api"
    assert ok(svc, "set_default_project", {"project_name": "engineering"})["restart_required"] is True
    assert code(svc, "switch_project", {"project_name": "personal"}) == 404
    made = ok(svc, "create_memory_project", {"project_name": "research", "project_path": "/home/ops/research"})
    assert made == {"project": "research", "path": "/home/ops/research", "is_default": False}
    assert code(svc, "create_memory_project", {"project_name": "Research", "project_path": "/x"}) == 409
    assert code(svc, "create_memory_project", {"project_name": "other", "project_path": "/home/ops/research/"}) == 409
    assert code(svc, "create_memory_project", {"project_name": "bad/name", "project_path": "/y"}) == 422
    assert code(svc, "delete_project", {"project_name": "engineering"}) == 409  # now the default
    ok(svc, "set_default_project", {"project_name": "company"})
    gone = ok(svc, "delete_project", {"project_name": "engineering"})
    assert gone == {"deleted": "engineering", "notes_removed": 8, "current_project": "company"}
    assert ok(svc, "sync_status")["projects"] == [{"name": "company", "status": "watching", "files": 36},
                                                  {"name": "research", "status": "watching", "files": 0}]


def test_read_note_by_permalink_title_path_url_or_id(svc):
    note = ok(svc, "read_note", {"identifier": "memory://customers/noah-thompson"})
    assert (note["id"], note["title"], note["entity_type"]) == ("MN-0002", "Noah Thompson", "customer")
    assert [(o["category"], o["content"], o["tags"], o["context"]) for o in note["observations"]][2] == (
        "order", "Latest order ORD-0007, paid, total $543.89", ["open"], "placed 2025-12-27")
    assert note["relations"][0] == {"relation_type": "purchased", "target": "Ergonomic Office Chair",
                                    "resolved": "products/ergonomic-office-chair"}
    for ident in ("Noah Thompson", "customers/Noah Thompson.md", "MN-0002", "customers/Noah Thompson"):
        assert ok(svc, "read_note", {"identifier": ident})["id"] == "MN-0002"
    playbook = ok(svc, "read_note", {"identifier": "runbooks/customer-support-playbook"})
    assert len(playbook["incoming_relations"]) == 8
    msg = error(svc, "read_note", {"identifier": "Refund Approvals"})
    assert msg["code"] == 409 and "runbooks/refund-approvals, archive/refund-approvals" in msg["message"]
    assert "did you mean" in error(svc, "read_note", {"identifier": "Noah Thomson"})["message"]
    assert code(svc, "read_note", {"identifier": "MN-0037"}) == 404  # another project's note
    assert ok(svc, "read_note", {"identifier": "MN-0037", "project": "engineering"})["title"] == "Checkout API"


def test_view_and_raw_content(svc):
    view = ok(svc, "view_note", {"identifier": "accounts/globex-corporation"})
    assert view["artifact"].startswith("---\ntitle: Globex Corporation\ntype: account\n"
                                       "permalink: accounts/globex-corporation\ntags:\n- account\n- manufacturing\n---\n")
    raw = ok(svc, "read_content", {"path": "runbooks/Refund Approvals.md"})
    assert raw["content_type"] == "text/markdown" and "Refunds above $500" in raw["content"]
    assert code(svc, "read_content", {"path": "runbooks/none.md"}) == 404


def test_write_note_parses_observations_and_relations(svc):
    body = "# KQ-4821\n\n- [case] Refund for [[Noah Thompson]] #refund (ticket TCK-0042)\n- relates_to [[Ghost Note]]\n"
    res = ok(svc, "write_note", {"title": "Case KQ-4821", "folder": "/cases/", "content": body, "tags": "case, refund",
                                 "entity_type": "case"})
    assert (res["action"], res["id"], res["permalink"], res["file_path"], res["tags"]) == (
        "created", "MN-0045", "cases/case-kq-4821", "cases/Case KQ-4821.md", ["case", "refund"])
    assert (res["observations"], res["unresolved_relations"]) == ({"case": 1}, ["Ghost Note"])
    note = svc.state.notes["MN-0045"]
    assert [(r.relation_type, r.target) for r in note.relations] == [("links_to", "Noah Thompson"),
                                                                     ("relates_to", "Ghost Note")]
    assert (note.observations[0].content, note.observations[0].tags, note.observations[0].context) == (
        "Refund for [[Noah Thompson]]", ["refund"], "ticket TCK-0042")
    again = ok(svc, "write_note", {"title": "Case KQ-4821", "folder": "cases", "content": "- [status] closed"})
    assert (again["action"], again["id"], again["tags"], again["observations"]) == ("updated", "MN-0045",
                                                                                   ["case", "refund"], {"status": 1})
    assert code(svc, "write_note", {"title": "a/b", "folder": "cases", "content": "x"}) == 422
    assert code(svc, "write_note", {"title": "x", "folder": "../etc", "content": "x"}) == 422
    assert code(svc, "write_note", {"title": "x", "folder": "cases", "content": "x", "tags": 5}) == 422


def test_edit_note_operations(svc):
    ident = {"identifier": "customers/noah-thompson"}
    res = ok(svc, "edit_note", {**ident, "operation": "append", "content": "- [case] case KQ-1: refunded 54.00"})
    assert res["observations"]["case"] == 1
    ok(svc, "edit_note", {**ident, "operation": "prepend", "content": "> VIP customer"})
    assert svc.state.notes["MN-0002"].content.startswith("> VIP customer\n# Noah Thompson")
    msg = error(svc, "edit_note", {**ident, "operation": "find_replace", "content": "x", "find_text": "purchased"})
    assert msg["code"] == 422 and "found 2 occurrence(s)" in msg["message"]
    ok(svc, "edit_note", {**ident, "operation": "find_replace", "content": "bought", "find_text": "purchased",
                          "expected_replacements": 2})
    assert [r.relation_type for r in svc.state.notes["MN-0002"].relations][:2] == ["bought", "bought"]
    ok(svc, "edit_note", {**ident, "operation": "replace_section", "section": "## Orders",
                          "content": "- [order] Latest order ORD-0011 #open"})
    note = svc.state.notes["MN-0002"]
    assert "ORD-0007" not in note.content and "## Notes" in note.content and note.updated_at.isoformat() == \
        "2026-01-15T09:03:00"
    ok(svc, "edit_note", {**ident, "operation": "replace_section", "section": "Loyalty", "content": "- [tier] gold"})
    assert svc.state.notes["MN-0002"].content.endswith("## Loyalty\n- [tier] gold\n")
    assert code(svc, "edit_note", {**ident, "operation": "replace_section", "content": "x"}) == 422
    assert code(svc, "edit_note", {**ident, "operation": "find_replace", "content": "x"}) == 422
    assert code(svc, "edit_note", {**ident, "operation": "rewrite", "content": "x"}) == 400


def test_move_and_delete_notes(svc):
    ok(svc, "write_note", {"title": "Links", "folder": "meetings", "content": "- see [[customers/ava-nguyen]]"})
    moved = ok(svc, "move_note", {"identifier": "Ava Nguyen", "destination_path": "customers/vip/Ava Nguyen.md"})
    assert (moved["from"], moved["permalink"]) == ("customers/ava-nguyen", "customers/vip/ava-nguyen")
    assert svc.state.notes["MN-0045"].relations[0].target == "customers/vip/ava-nguyen"
    assert ok(svc, "read_note", {"identifier": "customers/vip/ava-nguyen"})["folder"] == "customers/vip"
    assert code(svc, "move_note", {"identifier": "Liam Patel", "destination_path": "customers/vip/Ava Nguyen.md"}) \
        == 409
    assert code(svc, "move_note", {"identifier": "Liam Patel", "destination_path": "customers/liam.txt"}) == 422
    assert ok(svc, "delete_note", {"identifier": "Liam Patel"}) == {"deleted": True, "permalink": "customers/liam-patel",
                                                                   "file_path": "customers/Liam Patel.md"}
    assert code(svc, "delete_note", {"identifier": "Liam Patel"}) == 404


def test_search_syntax_and_filters(svc):
    hits = ok(svc, "search_notes", {"query": "noah.thompson@outlook.com"})
    assert [r["permalink"] for r in hits["results"]] == ["customers/noah-thompson"]
    assert hits["total"] == 1
    both = ok(svc, "search_notes", {"query": "Initech OR Umbrella", "search_type": "title"})
    assert [r["title"] for r in both["results"]] == ["Initech", "Umbrella Health"]
    refunds = ok(svc, "search_notes", {"query": "refunds NOT superseded"})["results"]
    assert [r["permalink"] for r in refunds] == ["meetings/weekly-ops-sync-2026-01-12", "runbooks/refund-approvals"]
    assert [r["permalink"] for r in ok(svc, "search_notes", {"query": '"Account manager: jamal.wright"'})["results"]] \
        == ["accounts/initech", "accounts/stark-logistics", "accounts/soylent-foods"]
    assert ok(svc, "search_notes", {"query": "accounts/s*", "search_type": "permalink"})["total"] == 2
    obs = ok(svc, "search_notes", {"query": "hank.scorpio", "types": ["observation"]})["results"]
    assert [(o["type"], o["category"]) for o in obs][1] == ("observation", "contact")
    assert ok(svc, "search_notes", {"query": "playbook", "entity_types": ["runbook"]})["total"] == 2
    assert ok(svc, "search_notes", {"query": "customer", "entity_types": ["customer"], "after_date": "4d"})["total"] \
        == 3
    paged = ok(svc, "search_notes", {"query": "sku", "page": 2, "page_size": 10})
    assert (paged["total"], len(paged["results"])) == (14, 4)
    assert code(svc, "search_notes", {"query": "x", "search_type": "vector"}) == 422
    assert code(svc, "search_notes", {"query": "  "}) == 422
    assert code(svc, "search_notes", {"query": "x", "types": ["page"]}) == 422


def test_build_context_follows_links(svc):
    ctx = ok(svc, "build_context", {"url": "memory://customers/noah-thompson", "depth": 1, "timeframe": "90d"})
    res = ctx["results"][0]
    assert res["primary_result"]["id"] == "MN-0002"
    assert [r["permalink"] for r in res["related_results"]] == [
        "products/ergonomic-office-chair", "products/felt-desk-mat", "runbooks/customer-support-playbook"]
    deep = ok(svc, "build_context", {"url": "customers/noah-thompson", "depth": 2, "timeframe": "90d",
                                     "max_related": 50})["results"][0]["related_results"]
    assert ("runbooks/returns-runbook", 2) in [(r["permalink"], r["depth"]) for r in deep]
    recent = ok(svc, "build_context", {"url": "customers/noah-thompson"})["results"][0]["related_results"]
    assert recent == []  # none of the related notes changed in the last 7 days
    assert ok(svc, "build_context", {"url": "accounts/*", "page_size": 2})["metadata"]["primary_count"] == 6
    assert code(svc, "build_context", {"url": "customers//x"}) == 422
    assert code(svc, "build_context", {"url": "customers/noah-thompson", "depth": 5}) == 422
    assert code(svc, "build_context", {"url": "nothing/*"}) == 404


def test_recent_activity(svc):
    act = ok(svc, "recent_activity", {"timeframe": "3d"})
    assert [r["permalink"] for r in act["results"]] == ["runbooks/incident-response", "customers/olivia-martinez",
                                                        "customers/noah-thompson", "meetings/weekly-ops-sync-2026-01-12"]
    obs = ok(svc, "recent_activity", {"timeframe": "yesterday", "type": ["observations"]})["results"]
    assert [o["category"] for o in obs] == ["step", "step"]
    ok(svc, "write_note", {"title": "Today", "folder": "", "content": "- [note] fresh"})
    assert ok(svc, "recent_activity", {"timeframe": "today", "type": "entity"})["results"][0]["file_path"] == "Today.md"
    assert code(svc, "recent_activity", {"timeframe": "a while"}) == 422
    assert code(svc, "recent_activity", {"type": "pages"}) == 422


def test_list_directory(svc):
    root = ok(svc, "list_directory")["entries"]
    assert [e["path"] for e in root] == ["accounts", "archive", "customers", "meetings", "products", "runbooks"]
    runbooks = ok(svc, "list_directory", {"dir_name": "/runbooks", "file_name_glob": "R*"})["entries"]
    assert [e["name"] for e in runbooks] == ["Refund Approvals.md", "Returns Runbook.md"]
    assert len(ok(svc, "list_directory", {"dir_name": "/", "depth": 2})["entries"]) == 42
    assert code(svc, "list_directory", {"dir_name": "missing"}) == 404


def test_canvas(svc):
    nodes = [NODE, {"id": "n2", "type": "file", "file": "accounts/Globex Corporation.md", "x": 300, "y": 0,
                    "width": 200, "height": 80}]
    edges = [{"id": "e1", "fromNode": "n1", "toNode": "n2"}]
    res = ok(svc, "canvas", {"nodes": nodes, "edges": edges, "title": "Account Map", "folder": "visual"})
    assert (res["action"], res["file_path"], res["nodes"], res["edges"]) == ("created", "visual/Account Map.canvas", 2, 1)
    raw = ok(svc, "read_content", {"path": "visual/Account Map.canvas"})
    assert raw["content_type"] == "application/json" and json.loads(raw["content"])["edges"] == edges
    assert ok(svc, "canvas", {"nodes": [NODE], "edges": [], "title": "Account Map", "folder": "visual"})[
        "action"] == "updated"
    assert code(svc, "edit_note", {"identifier": "visual/account-map", "operation": "append", "content": "x"}) == 422
    assert code(svc, "canvas", {"nodes": [NODE], "edges": [{"id": "e", "fromNode": "n1", "toNode": "n9"}],
                                "title": "Bad", "folder": "visual"}) == 422
    assert code(svc, "canvas", {"nodes": [{**NODE, "type": "shape"}], "edges": [], "title": "Bad", "folder": "v"}) \
        == 422
    assert code(svc, "canvas", {"nodes": [{**NODE, "type": "file", "file": "nope.md"}], "edges": [], "title": "Bad",
                                "folder": "v"}) == 422
    assert code(svc, "canvas", {"nodes": [NODE, NODE], "edges": [], "title": "Bad", "folder": "v"}) == 422
    assert code(svc, "canvas", {"nodes": [NODE], "edges": [], "title": "Initech", "folder": "accounts"}) == 409
