"""The memory_graph service (MCP reference ``memory`` server): all nine tools."""

from __future__ import annotations

import pytest
from _svc_asserts import code, ok

from compoworld_gym.envs.services.memory_graph import MemoryGraph


@pytest.fixture
def mem(make_service):
    return make_service(MemoryGraph)


def test_seed(make_service):
    a = make_service(MemoryGraph).state_dict()
    assert a == make_service(MemoryGraph).state_dict() != make_service(MemoryGraph, seed=1).state_dict()
    assert a["entities"]["Company Example Inc."]["entityType"] == "organization"
    people = [e for e in a["entities"].values() if e["entityType"] == "person"]
    assert len(people) == 7 and all(e["observations"][0].endswith("@company.example") for e in people)
    assert sum(r["relationType"] == "works_at" for r in a["relations"]) == 7
    assert set(a["relations"][0]) == {"from", "to", "relationType"}


def test_create_entities_skips_existing(mem):
    out = ok(mem, "create_entities", {"entities": [
        {"name": "Acme", "entityType": "company", "observations": ["Pays net 30"]},
        {"name": "Company Example Inc.", "entityType": "x", "observations": []}]})
    assert out == [{"name": "Acme", "entityType": "company", "observations": ["Pays net 30"]}]
    assert mem.state.entities["Company Example Inc."].entityType == "organization"
    assert code(mem, "create_entities", {"entities": [{"name": "B", "entityType": "t"}]}) == 400


def test_relations_create_skip_duplicates_and_delete(mem):
    ok(mem, "create_entities", {"entities": [{"name": "Acme", "entityType": "company", "observations": []}]})
    rel = {"from": "Acme", "to": "Company Example Inc.", "relationType": "supplies"}
    assert ok(mem, "create_relations", {"relations": [rel, rel]}) == [rel]
    assert ok(mem, "create_relations", {"relations": [rel]}) == []
    assert mem.state_dict()["relations"][-1] == rel
    assert code(mem, "create_relations", {"relations": [{**rel, "to": "Nobody"}]}) == 404
    assert ok(mem, "delete_relations", {"relations": [rel]}) == {"deleted_relations": 1}
    assert ok(mem, "delete_relations", {"relations": [rel]}) == {"deleted_relations": 0}


def test_observations_add_and_delete(mem):
    out = ok(mem, "add_observations", {"observations": [
        {"entityName": "Company Example Inc.", "contents": ["Founded 2011", "Mail domain company.example"]}]})
    assert out == [{"entityName": "Company Example Inc.", "addedObservations": ["Founded 2011"]}]
    assert code(mem, "add_observations", {"observations": [{"entityName": "Ghost", "contents": ["x"]}]}) == 404
    out = ok(mem, "delete_observations", {"deletions": [
        {"entityName": "Company Example Inc.", "observations": ["Founded 2011", "never there"]},
        {"entityName": "Ghost", "observations": ["x"]}]})
    assert out == {"deleted_observations": 1}
    assert "Founded 2011" not in mem.state.entities["Company Example Inc."].observations


def test_delete_entities_removes_their_relations(mem):
    person = next(n for n, e in mem.state.entities.items() if e.entityType == "person")
    touching = sum(person in (r.from_, r.to) for r in mem.state.relations)
    out = ok(mem, "delete_entities", {"entityNames": [person, "Ghost"]})
    assert out == {"deleted_entities": [person], "deleted_relations": touching}
    assert all(person not in (r.from_, r.to) for r in mem.state.relations)


def test_reads(mem):
    graph = ok(mem, "read_graph")
    assert len(graph["entities"]) == 13 and len(graph["relations"]) == len(mem.state.relations)
    hit = ok(mem, "search_nodes", {"query": "ORGANIZATION"})
    assert [e["name"] for e in hit["entities"]] == ["Company Example Inc."] and hit["relations"] == []
    person = next(e for e in graph["entities"] if e["entityType"] == "person")["name"]
    opened = ok(mem, "open_nodes", {"names": [person, "Company Example Inc.", "Ghost"]})
    assert {e["name"] for e in opened["entities"]} == {person, "Company Example Inc."}
    assert {"from": person, "to": "Company Example Inc.", "relationType": "works_at"} in opened["relations"]
    assert code(mem, "search_nodes", {"query": "  "}) == 400


def test_failed_write_rolls_back(mem):
    before = mem.state_dict()
    res = mem.call("add_observations", {"observations": [
        {"entityName": "Company Example Inc.", "contents": ["new"]}, {"entityName": "Ghost", "contents": ["x"]}]})
    assert res["error"]["code"] == 404 and mem.state_dict() == before
