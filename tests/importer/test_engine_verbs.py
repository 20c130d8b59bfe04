"""The resource engine's batch tools, reasoning journal, pure functions and
noun-first names: each was simulated before (the world model answered)."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest

from compoworld_gym.importer import build_service
from compoworld_gym.importer.functions import evaluate
from compoworld_gym.importer.specs import server_from_json
from compoworld_gym.importer.verbs import full_shape, implied_shape

TODAY = dt.date(2026, 1, 15)
S, I, N = {"type": "string"}, {"type": "integer"}, {"type": "number"}


def _tool(name: str, props: dict, required: list[str] = (), description: str = "") -> dict:
    return {"name": name, "description": description or name.replace("_", " "),
            "inputSchema": {"type": "object", "properties": props, "required": list(required)}}


NOTE_PROPS = {"type": "object", "properties": {"hs_note_body": S, "hs_timestamp": S}}
SERVER = {
    "server": "Notes CRM", "slug": "@demo_notes-crm", "category": "CRM",
    "tools": [
        _tool("notes_create", {"properties": NOTE_PROPS}, ["properties"]),
        _tool("notes_get", {"noteId": S}, ["noteId"]),
        _tool("notes_update", {"noteId": S, "properties": NOTE_PROPS}, ["noteId", "properties"]),
        _tool("notes_archive", {"noteId": S}, ["noteId"]),
        _tool("notes_batch_create", {"inputs": {"type": "array", "items": {
            "type": "object", "properties": {"properties": NOTE_PROPS}}}}, ["inputs"]),
        _tool("notes_batch_read", {"inputs": {"type": "array", "items": {
            "type": "object", "properties": {"id": S}}}}, ["inputs"]),
        _tool("notes_batch_archive", {"noteIds": {"type": "array", "items": S}}, ["noteIds"]),
        _tool("superset_note_get_by_id", {"noteId": S}, ["noteId"]),
        _tool("sequentialthinking", {"thought": S, "thoughtNumber": I, "totalThoughts": I,
                                     "nextThoughtNeeded": {"type": "boolean"}},
              ["thought", "thoughtNumber", "totalThoughts", "nextThoughtNeeded"]),
        _tool("clear_thoughts", {}),
        _tool("sha256", {"input": S}, ["input"]),
        _tool("base64_decode", {"content": S}, ["content"]),
        _tool("calculate", {"expression": S}, ["expression"]),
        _tool("get_current_time", {"timezone": S}, ["timezone"]),
        _tool("convert_time", {"source_timezone": S, "time": S, "target_timezone": S},
              ["source_timezone", "time", "target_timezone"]),
    ],
}


@pytest.fixture(scope="module")
def notes_cls():
    return build_service(server_from_json(SERVER), "demo_notes_crm")


@pytest.fixture
def svc(notes_cls):
    return notes_cls(notes_cls.seed_state(3, TODAY), today=TODAY)


def test_every_tool_is_engine_run(notes_cls):
    assert {n for n, t in notes_cls.tools.items() if t.simulated} == set()
    assert notes_cls.ops["notes_batch_archive"].batch_of == "notes_archive"
    assert notes_cls.ops["notes_batch_read"].batch_of == "notes_get"
    assert notes_cls.tools["notes_batch_read"].read_only and not notes_cls.tools["notes_batch_create"].read_only
    assert notes_cls.tools["sha256"].read_only


def test_noun_first_names_with_a_trailing_phrase():
    assert (full_shape("superset_chart_get_by_id").verb, full_shape("superset_chart_get_by_id").collection) == \
        ("get", "chart")
    assert full_shape("drive_shared_drive_get").collection == "shared_drive"
    assert full_shape("emails_get").collection == "email"
    assert implied_shape("drive_file_metadata").collection == "file" and implied_shape("get_file_info") is None


def test_batch_create_read_archive(svc):
    made = svc.call("notes_batch_create", {"inputs": [{"properties": {"hs_note_body": "Call back Friday"}},
                                                      {"properties": {"hs_note_body": "Sent the quote"}}]})
    assert made["success"] and made["data"]["count"] == 2
    ids = [r["id"] for r in made["data"]["results"]]
    read = svc.call("notes_batch_read", {"inputs": [{"id": i} for i in ids]})["data"]["results"]
    assert [r["properties"]["hs_note_body"] for r in read] == ["Call back Friday", "Sent the quote"]
    assert svc.call("superset_note_get_by_id", {"noteId": ids[0]})["data"]["id"] == ids[0]
    archived = svc.call("notes_batch_archive", {"noteIds": ids})["data"]["results"]
    assert [r["status"] for r in archived] == ["archived", "archived"]
    assert svc.call("notes_get", {"noteId": ids[1]})["data"]["status"] == "archived"


def test_a_failing_item_undoes_the_whole_batch(svc):
    made = svc.call("notes_batch_create", {"inputs": [{"properties": {"hs_note_body": "x"}}]})["data"]
    good = made["results"][0]["id"]
    before = svc.state_dict()
    out = svc.call("notes_batch_archive", {"noteIds": [good, "NOTE-9999"]})
    assert out["error"]["code"] == 404 and out["error"]["message"].startswith("item 1 of 'noteIds':")
    assert svc.state_dict() == before  # the first item's archive was rolled back
    assert svc.call("notes_batch_archive", {"noteIds": []})["error"]["code"] == 400


def test_reasoning_journal(notes_cls, svc):
    assert notes_cls.seed_state(3, TODAY).journal_entries == {}  # the journal starts empty
    first = svc.call("sequentialthinking", {"thought": "Check the refund policy first", "thoughtNumber": 1,
                                            "totalThoughts": 2, "nextThoughtNeeded": True})["data"]
    second = svc.call("sequentialthinking", {"thought": "Then the order", "thoughtNumber": 2,
                                             "totalThoughts": 2, "nextThoughtNeeded": False})["data"]
    assert (first["entry"], second["entry"], second["history_length"]) == (1, 2, 2)
    assert second["recorded"]["thought"] == "Then the order"
    assert svc.call("clear_thoughts", {})["data"] == {"cleared": 2}
    assert svc.state.journal_entries == {}


def test_pure_functions(svc):
    assert svc.call("sha256", {"input": "abc"})["data"]["hash"] == hashlib.sha256(b"abc").hexdigest()
    assert svc.call("base64_decode", {"content": "aGVsbG8="})["data"] == {"result": "hello"}
    assert svc.call("base64_decode", {"content": "%%%"})["error"]["code"] == 400
    assert svc.call("calculate", {"expression": "(2 + 3) * 4 ^ 2"})["data"]["result"] == 80
    assert svc.call("calculate", {"expression": "__import__('os')"})["error"]["code"] == 400
    now = svc.call("get_current_time", {"timezone": "America/New_York"})["data"]
    assert now["datetime"].startswith("2026-01-15T04:0") and now["timezone"] == "America/New_York"
    assert svc.call("get_current_time", {"timezone": "Mars/Olympus"})["error"]["code"] == 400
    moved = svc.call("convert_time", {"source_timezone": "Europe/London", "time": "16:30",
                                      "target_timezone": "Asia/Tokyo"})["data"]
    assert moved["target"]["datetime"] == "2026-01-16T01:30:00+09:00"


def test_evaluate_rejects_code_and_huge_powers():
    assert evaluate("sqrt(16) + 10 // 3") == 7
    for bad in ("2 ** 100000", "(1).__class__", "1 / 0", "x + 1"):
        with pytest.raises(Exception) as err:
            evaluate(bad)
        assert err.value.__class__.__name__ == "InvalidArgument"


@pytest.fixture(scope="module")
def hubspot_cls():
    from compoworld_gym.importer import load_jsonl
    from compoworld_gym.specs import SPECS_PATH

    spec = next(s for s in load_jsonl(SPECS_PATH) if s.slug == "@shinzo-labs_hubspot-mcp")
    return build_service(spec, "demo_hubspot")


def test_hubspot_filter_groups_and_sorts(hubspot_cls):
    assert not hubspot_cls.tools["crm_search_companies"].simulated
    svc = hubspot_cls(hubspot_cls.seed_state(5, TODAY), today=TODAY)
    for name, city, size in (("Acme Tools", "Denver", 120), ("Birch Labs", "Austin", 40), ("Cobalt Ltd", "Denver", 9)):
        made = svc.call("crm_create_company", {"properties": {"name": name, "city": city, "numberofemployees": size}})
        assert made["success"], made
    denver = {"filterGroups": [{"filters": [{"propertyName": "city", "operator": "EQ", "value": "denver"},
                                            {"propertyName": "numberofemployees", "operator": "GTE", "value": 10}]},
                               {"filters": [{"propertyName": "name", "operator": "CONTAINS_TOKEN", "value": "bir*"}]}],
              "sorts": [{"propertyName": "numberofemployees", "direction": "DESCENDING"}]}
    found = svc.call("crm_search_companies", denver)["data"]
    assert [c["properties"]["name"] for c in found] == ["Acme Tools", "Birch Labs"]
    bad = svc.call("crm_search_companies", {"filterGroups": [{"filters": [{"propertyName": "city",
                                                                          "operator": "LIKE", "value": "x"}]}]})
    assert bad["error"]["code"] == 400 and "'LIKE' is not one of" in bad["error"]["message"]


def test_filter_groups_without_a_schema_enum():
    from compoworld_gym.importer.filters import filter_groups, sort_records

    rows = [{"id": 1, "properties": {"amount": "250"}}, {"id": 2, "amount": 90}, {"id": 3, "properties": {}}]
    between = [{"filters": [{"propertyName": "amount", "operator": "BETWEEN", "value": 80, "highValue": 300}]}]
    assert [r["id"] for r in filter_groups(rows, between)] == [1, 2]
    assert [r["id"] for r in filter_groups(rows, [{"filters": [{"propertyName": "amount",
                                                                 "operator": "NOT_HAS_PROPERTY"}]}])] == [3]
    assert [r["id"] for r in sort_records(rows, [{"propertyName": "amount", "direction": "ASCENDING"}])] == [2, 1, 3]
    with pytest.raises(Exception, match="unknown operator 'LIKE'"):
        filter_groups(rows, [{"filters": [{"propertyName": "amount", "operator": "LIKE"}]}])


RANDOM = {"server": "Random", "slug": "@demo_random", "category": "Utilities", "tools": [
    _tool("random_int", {"low": I, "high": I}, ["low", "high"]),
    _tool("random_shuffle", {"items": {"type": "array", "items": {}}}, ["items"]),
    _tool("roll_dice", {"notation": S}, ["notation"]),
    _tool("generateUUID", {}),
    _tool("get_current_time", {"timezone": S}),
]}


def test_random_tools_draw_from_the_seeded_stream():
    cls = build_service(server_from_json(RANDOM), "demo_random")
    assert not cls.tools["random_int"].read_only and cls.tools["get_current_time"].read_only

    def run(seed: int) -> list:
        svc = cls(cls.seed_state(seed, TODAY), today=TODAY)
        before = svc.state_dict()
        svc.call("get_current_time", {})
        assert svc.state_dict() == before  # a clock read changes nothing
        return [svc.call("random_int", {"low": 1, "high": 10 ** 9})["data"]["value"],
                svc.call("random_int", {"low": 1, "high": 10 ** 9})["data"]["value"],
                svc.call("random_shuffle", {"items": list(range(20))})["data"]["items"],
                svc.call("roll_dice", {"notation": "3d6+2"})["data"],
                svc.call("generateUUID", {})["data"]["uuid"]]

    first = run(7)
    assert first == run(7) and first != run(8)  # same seed, same draws; another seed, others
    assert first[0] != first[1] and sorted(first[2]) == list(range(20))
    dice = first[3]
    assert len(dice["rolls"]) == 3 and all(1 <= r <= 6 for r in dice["rolls"]) and dice["total"] == sum(dice["rolls"]) + 2
    svc = cls(cls.seed_state(7, TODAY), today=TODAY)
    assert svc.call("random_int", {"low": 5, "high": 1})["error"]["code"] == 400
    assert svc.call("roll_dice", {"notation": "0d6"})["error"]["code"] == 400
