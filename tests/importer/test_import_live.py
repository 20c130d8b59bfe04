"""Import a real MCP server over stdio and use it through CompoWorldEnv."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import orjson
import pytest

pytest.importorskip("mcp")

from compoworld_gym import catalog  # noqa: E402
from compoworld_gym.checks import RecordExists, RecordMatches  # noqa: E402
from compoworld_gym.envs.compoworld_env import CompoWorldEnv  # noqa: E402
from compoworld_gym.importer import SpecSourceError, import_mcp  # noqa: E402
from compoworld_gym.tasks import Task  # noqa: E402

SERVER = Path(__file__).with_name("notes_server.py")
TODAY = dt.date(2026, 1, 15)


@pytest.fixture(scope="module")
def imported():
    report = import_mcp(f"{sys.executable} {SERVER}")
    yield report
    for name in report["service_names"]:
        catalog.unregister_service(name)  # leave the catalog as other tests expect it


def _call(env, tool, arguments):
    action = orjson.dumps({"name": "call_tool", "arguments": {"tool_name": tool, "arguments": arguments}})
    obs, *_ = env.step(action.decode())
    return orjson.loads(obs)


def test_live_server_becomes_a_catalog_service(imported):
    assert imported["servers"] == 1 and imported["tools"] == 6
    assert imported["deterministic_tools"] == 5 and imported["simulated_tools"] == 1
    assert imported["service_names"] == ["notes_demo"]
    cls = catalog.get_service("notes_demo")
    assert cls is imported["services"][0]
    assert catalog.service_summary(cls)["simulated_tools"] == 1
    assert cls.tools["get_weather"].simulated and cls.tools["get_weather"].read_only
    assert not cls.tools["create_note"].read_only and cls.tools["delete_note"].destructive
    assert cls.tools["create_note"].consumes == {"owner_email": "email"}
    assert cls.tools["get_note"].consumes == {"note_id": "note_id"}
    assert {"email", "note_id"} <= cls.tools["list_notes"].produces


def test_imported_tools_through_the_env(imported):
    cls = catalog.get_service("notes_demo")
    task = Task(id="notes-1", services=["notes_demo"], today=TODAY, seed=3,
                initial_state={"notes_demo": cls.seed_state(3, TODAY).model_dump(mode="json")},
                instruction="Write a note titled Launch for ana@example.com, then rename it.",
                checks=[RecordExists(id="made", service="notes_demo", collection="notes",
                                     where={"owner_email": "ana@example.com"}),
                        RecordMatches(id="renamed", service="notes_demo", collection="notes",
                                      record_id="NOTE-0001", where={"title": "Launch v2"})])
    env = CompoWorldEnv(tasks=[task])
    env.reset(seed=0)
    listed = orjson.loads(env.step('{"name": "list_tools", "arguments": {"service": "notes_demo"}}')[0])
    assert {t["name"] for t in listed["tools"]} == set(cls.tools)
    # Seeded notes already hold NOTE-0001..; the new one takes the next id.
    seeded = len(cls.seed_state(3, TODAY).notes)
    made = _call(env, "create_note", {"title": "Launch", "body": "Plan", "owner_email": "ana@example.com"})
    assert made["success"] and made["data"]["id"] == f"NOTE-{seeded + 1:04d}"
    got = _call(env, "get_note", {"note_id": made["data"]["id"]})
    assert got["data"]["title"] == "Launch" and got["data"]["owner_email"] == "ana@example.com"
    mine = _call(env, "list_notes", {"owner_email": "ANA@example.com"})
    assert [n["id"] for n in mine["data"]] == [made["data"]["id"]]
    assert _call(env, "update_note", {"note_id": "NOTE-0001", "title": "Launch v2"})["data"]["title"] == "Launch v2"
    bad = _call(env, "create_note", {"title": 5, "body": "x", "owner_email": "a@b.co"})
    assert bad["error"]["code"] == 400 and "'title'" in bad["error"]["message"]
    missing = _call(env, "get_note", {"note_id": "NOTE-9999"})
    assert missing["error"]["code"] == 404
    weather = _call(env, "get_weather", {"city": "Lisbon"})
    assert weather["success"] and weather["data"]["city"] == "Lisbon"
    assert _call(env, "get_weather", {"city": "Lisbon"}) == weather  # replayed exactly
    _, reward, terminated, _, info = env.step('{"final_answer": "done"}')
    assert terminated and reward == 1.0 and info["rubric_score"] == 1.0


def test_unreachable_server_is_a_clean_error():
    with pytest.raises(SpecSourceError, match="could not list tools"):
        import_mcp(f"{sys.executable} -c pass")
