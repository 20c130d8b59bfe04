"""The importer on spec files: patterns, typed state, validation, the real specs."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import orjson
import pytest

from compoworld_gym import catalog
from compoworld_gym.importer import SpecSourceError, build_service, import_mcp, import_specs, load_jsonl
from compoworld_gym.importer.inference import infer_entity
from compoworld_gym.importer.names import service_name, singular, tokens
from compoworld_gym.importer.patterns import shape_of
from compoworld_gym.importer.specs import server_from_json

TODAY = dt.date(2026, 1, 15)
from compoworld_gym.specs import SPECS_PATH as SPECS  # noqa: E402

TASKS_SERVER = {
    "server": "Task Queue", "slug": "@demo_task-queue", "category": "Productivity",
    "tools": [
        {"name": "create_project", "description": "Create a project.",
         "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}},
                         "required": ["name"], "additionalProperties": False}},
        {"name": "list_projects", "description": "List projects.",
         "inputSchema": {"type": "object", "properties": {}}},
        {"name": "create_task", "description": "创建任务 (create a task).",
         "inputSchema": {"type": "object", "properties": {
             "projectId": {"type": "string"}, "title": {"type": "string", "minLength": 1},
             "due_date": {"type": "string", "format": "date"},
             "status": {"type": "string", "enum": ["open", "done"], "default": "open"},
             "assignee_email": {"type": "string", "format": "email"}},
             "required": ["projectId", "title"], "additionalProperties": False}},
        {"name": "read_task", "description": "Read a task.",
         "inputSchema": {"type": "object", "properties": {"projectId": {"type": "string"},
                                                          "taskId": {"type": "string"}},
                         "required": ["projectId", "taskId"]}},
        {"name": "update_task", "description": "Update a task.",
         "inputSchema": {"type": "object", "properties": {"taskId": {"type": "string"},
                                                          "status": {"type": "string", "enum": ["open", "done"]}},
                         "required": ["taskId"]}},
        {"name": "tasks_search", "description": "Search tasks.",
         "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}, "status": {"type": "string"},
                                                          "limit": {"type": "integer"}}}},
        {"name": "delete_task", "description": "Delete a task.",
         "inputSchema": {"type": "object", "properties": {"taskId": {"type": "string"}}, "required": ["taskId"]}},
        {"name": "generate_plan", "description": "Ask an LLM for a plan.",
         "inputSchema": {"type": "object", "properties": {"prompt": {"type": "string"}}, "required": ["prompt"]}},
        {"name": "broken", "description": "Bad schema.",
         "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "exclusiveMinimum": True}}}},
    ],
}


@pytest.fixture
def tasks_cls():
    return build_service(server_from_json(TASKS_SERVER), "demo_task_queue")


def test_names_and_shapes():
    assert tokens("crm_createCompanyProperty") == ["crm", "create", "company", "property"]
    assert singular("companies") == "company" and singular("status") == "status"
    assert shape_of("crm_search_companies").collection == "company"
    assert (shape_of("emails_get").verb, shape_of("emails_get").collection) == ("get", "email")
    assert shape_of("add_tasks_to_project").collection == "task"
    assert shape_of("crm_batch_create_companies") is None and shape_of("browser_click") is None  # batch: see batch.py
    assert service_name("@shinzo-labs_hubspot-mcp", []) == "shinzo_labs_hubspot_mcp"
    assert service_name("helpdesk", ["helpdesk"]) == "helpdesk_mcp"
    assert service_name("helpdesk", ["helpdesk", "helpdesk_mcp"]) == "helpdesk_2"
    assert service_name("123-go", []) == "mcp_123_go"


def test_entity_inference():
    assert infer_entity("contactEmail", {"type": "string"}) == "email"
    assert infer_entity("x", {"type": "string", "format": "date-time"}) == "datetime"
    assert infer_entity("projectId", {"type": "string"}) == "project_id"
    assert infer_entity("pull_request_number", {"type": "integer"}) == "pull_request_id"
    assert infer_entity("id", {"type": "string"}, collection_kind="task") == "task_id"
    assert infer_entity("to", {"type": "string"}, context=frozenset({"send", "email"})) == "email"
    assert infer_entity("to", {"type": "string"}) is None
    assert infer_entity("website", {"type": "string"}) == "url"
    assert infer_entity("amount", {"type": "string"}) is None
    assert infer_entity("frobnicator_id", {"type": "string"}) is None  # not in the vocabulary


def test_plan_state_and_tools(tasks_cls):
    sim = {n for n, t in tasks_cls.tools.items() if t.simulated}
    assert sim == {"generate_plan", "broken"}
    assert tasks_cls.invalid_schemas.keys() == {"broken"}
    assert set(tasks_cls.State.model_fields) >= {"projects", "tasks", "effects", "sim_seed"}
    assert tasks_cls.tools["read_task"].consumes == {"projectId": "project_id", "taskId": "task_id"}
    assert tasks_cls.tools["create_task"].consumes["assignee_email"] == "email"
    assert "task_id" in tasks_cls.tools["tasks_search"].produces
    assert tasks_cls.domain == "productivity"
    state = tasks_cls.seed_state(7, TODAY)
    assert state.sim_seed == 7 and state.projects and state.tasks
    assert all(t.model_dump()["projectId"] in state.projects for t in state.tasks.values())
    assert tasks_cls.seed_state(7, TODAY) == state  # seeded, deterministic


def test_engine_crud_and_errors(tasks_cls):
    svc = tasks_cls(today=TODAY)
    proj = svc.call("create_project", {"name": "Apollo"})["data"]
    assert proj["id"] == "PROJ-0001" and proj["created_at"] == "2026-01-15T09:00:00"
    made = svc.call("create_task", {"projectId": proj["id"], "title": "Ship it", "due_date": "2026-02-01"})
    task_id = made["data"]["id"]
    assert made["data"]["status"] == "open"  # schema default filled in
    assert svc.call("read_task", {"projectId": proj["id"], "taskId": task_id})["data"]["title"] == "Ship it"
    assert svc.call("read_task", {"projectId": "PROJ-0404", "taskId": task_id})["error"]["code"] == 404
    orphan = svc.call("create_task", {"projectId": "PROJ-0009", "title": "x"})
    assert orphan["error"]["code"] == 404 and "projectId" in orphan["error"]["message"]
    assert svc.call("update_task", {"taskId": task_id, "status": "done"})["data"]["status"] == "done"
    assert [t["id"] for t in svc.call("tasks_search", {"query": "SHIP", "status": "done"})["data"]] == [task_id]
    assert svc.call("tasks_search", {"query": "nothing"})["data"] == []
    before = svc.state_dict()
    errors = [svc.call("create_task", {"projectId": proj["id"], "title": ""}),
              svc.call("create_task", {"projectId": proj["id"], "title": "t", "due_date": "tomorrow"}),
              svc.call("create_task", {"projectId": proj["id"], "title": "t", "colour": "red"}),
              svc.call("update_task", {"status": "done"}), svc.call("create_project", [1])]
    assert [e["error"]["code"] for e in errors] == [400] * 5
    assert "'title'" in errors[0]["error"]["message"] and "'due_date'" in errors[1]["error"]["message"]
    assert "unexpected argument 'colour'" in errors[2]["error"]["message"]
    assert "missing required argument 'taskId'" in errors[3]["error"]["message"]
    assert svc.state_dict() == before
    assert svc.call("delete_task", {"taskId": task_id})["data"] == {"id": task_id, "deleted": True}
    assert svc.call("delete_task", {"taskId": task_id})["error"]["code"] == 404
    assert svc.call("broken", {"n": 3})["success"]  # invalid schema: lenient check, simulated


def test_jsonl_source_and_dedupe(tmp_path):
    lines = [TASKS_SERVER, {**TASKS_SERVER, "slug": "demo task queue", "server": "fork"}]
    path = tmp_path / "servers.jsonl"
    path.write_text("\n".join(orjson.dumps(x).decode() for x in lines) + "\n", encoding="utf-8")
    report = import_mcp(str(path), register=False)
    assert report["servers"] == 2 and report["tools"] == 18
    assert report["simulated_tools"] == 4 and report["deterministic_tools"] == 14
    assert report["invalid_schemas"] == 2
    assert report["service_names"] == ["demo_task_queue", "demo_task_queue_mcp"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"slug": "x", "tools": []}\nnot json\n', encoding="utf-8")
    with pytest.raises(SpecSourceError, match="bad.jsonl:2"):
        import_mcp(str(bad))
    with pytest.raises(SpecSourceError, match="does not exist"):
        import_mcp(str(tmp_path / "missing.jsonl"))


def test_builtin_names_are_not_taken():
    report = import_specs([server_from_json({**TASKS_SERVER, "slug": "helpdesk"})], register=False)
    assert report.services[0].name == "helpdesk_mcp"
    assert catalog.get_service("helpdesk").__module__.endswith("helpdesk")


def test_every_real_server_imports():
    servers = load_jsonl(SPECS)
    report = import_specs(servers, register=False)
    assert len(report.services) == 420 and report.tools == 3665
    assert report.deterministic_tools + report.simulated_tools == 3665
    assert 1250 <= report.deterministic_tools <= 1400  # 401 before the seeded-collection engine, 1,049 before batch
    assert len(report.invalid_schemas) == 2 and all("read_pdf" in s for s in report.invalid_schemas)
    names = [c.name for c in report.services]
    assert len(set(names)) == 420 and all(n.isidentifier() for n in names)
    hubspot = next(c for c in report.services if c.spec_source == "@shinzo-labs_hubspot-mcp")
    assert not hubspot.tools["crm_create_company"].simulated and not hubspot.tools["crm_search_companies"].simulated
    assert hubspot.tools["crm_get_company"].simulated is False and "crm_batch_create_companies" in hubspot.ops
