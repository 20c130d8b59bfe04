"""``compoworld scaffold-service``: drafts of real servers import, follow their spec, and are
written whole or not at all."""

from __future__ import annotations

import ast
import datetime as dt
import importlib.util
import sys

import pytest
from test_spec_conformance import tool_mismatches
from typer.testing import CliRunner

from compoworld_gym import catalog, scaffold
from compoworld_gym.cli import app
from compoworld_gym.scaffold import ScaffoldError, UnknownSlug, default_name, find_server, scaffold_service

TODAY = dt.date(2026, 1, 15)
#: Real servers: a task queue (two typed collections), GitLab (ids and parents), a server whose
#: tool names are not Python names (``convert-python``), one with a parameter called ``from``.
SLUGS = ["@chriscarrollsmith_taskqueue-mcp", "modelcontextprotocol-gitlab",
         "@glassBead-tc_python-to-typescript-assistant", "@Cyreslab-AI_wayback-mcp-server"]


def load_draft(path, name):
    """Import a drafted module from its file (outside every service package)."""
    spec = importlib.util.spec_from_file_location(f"drafts.{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # pydantic resolves the postponed annotations through it
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


@pytest.mark.parametrize("slug", SLUGS)
def test_draft_imports_and_follows_its_spec(slug, tmp_path):
    server = find_server(slug)
    result = scaffold_service(slug, name="drafted_probe", out=tmp_path)
    service_path, tests_path, hook_path = result.files
    assert service_path == tmp_path / "envs" / "services" / "drafted_probe.py"
    assert tests_path == tmp_path / "tests" / "services" / "test_drafted_probe.py"
    assert hook_path == tmp_path / "compoworld_gym" / "generation" / "hooks" / "drafted_probe.py"
    cls = getattr(load_draft(service_path, "drafted_probe"), result.draft.class_name)
    spec_tools = {t["name"]: t["inputSchema"] for t in server["tools"]}
    assert (cls.name, cls.spec_source) == ("drafted_probe", slug)
    assert sorted(cls.tools) == sorted(spec_tools)
    problems = {n: tool_mismatches(t.input_schema, spec_tools[n]) for n, t in cls.tools.items()}
    assert problems == {n: [] for n in cls.tools}
    for name, spec in cls.tools.items():  # parameter descriptions are the spec's
        for pname, prop in spec_tools[name].get("properties", {}).items():
            if prop.get("description"):
                assert spec.input_schema["properties"][pname]["description"] == " ".join(prop["description"].split())
    assert "drafted_probe" not in catalog.service_names()  # defined outside service packages
    svc = cls.seeded(0, TODAY)
    free = [n for n, schema in spec_tools.items() if not schema.get("required")]
    for name in free[:1]:  # every tool is a draft until written
        assert svc.call(name, {})["error"] == {"code": 500, "message": (
            f"internal error in tool {name!r} (NotImplementedError); nothing was changed.")}
    assert result.draft.notes == []


def test_task_queue_draft_has_typed_state_descriptions_and_kinds(tmp_path):
    server = find_server("@chriscarrollsmith_taskqueue-mcp")
    result = scaffold_service(server["slug"], name="task_queue_probe", out=tmp_path)
    module = load_draft(result.files[0], "task_queue_probe")
    cls = module.TaskQueueProbe
    assert set(cls.State.model_fields) >= {"projects", "tasks", "counters", "clock"}
    task = module.Task.model_fields
    assert (task["title"].is_required(), task["projectId"].is_required(), task["status"].is_required()) == (
        True, True, False)
    assert module.Task.model_json_schema()["properties"]["projectId"]["x-entity"] == "project_id"
    descriptions = {t["name"]: t["description"] for t in server["tools"]}
    assert {n: t.description for n, t in cls.tools.items()} == descriptions
    kinds = {n: (t.read_only, t.destructive) for n, t in cls.tools.items()}
    assert kinds["read_project"] == (True, False) and kinds["create_task"] == (False, False)
    assert kinds["delete_task"] == (False, True)
    assert cls.tools["update_task"].consumes == {"projectId": "project_id", "taskId": "task_id"}
    out = cls.seeded(0, TODAY).call("read_project", {"projectId": "proj-1"})
    assert out == {"success": False, "error": {"code": 500, "message": (
        "internal error in tool 'read_project' (NotImplementedError); nothing was changed.")}}


def test_non_python_names_keep_the_spec_names(tmp_path):
    result = scaffold_service("@Cyreslab-AI_wayback-mcp-server", name="wayback_probe", out=tmp_path)
    cls = getattr(load_draft(result.files[0], "wayback_probe"), result.draft.class_name)
    schema = cls.tools["get_snapshots"].input_schema
    assert "from" in schema["properties"] and "from_" not in schema["properties"]
    assert "def get_snapshots(" in result.files[0].read_text() and "from_: Annotated[" in result.files[0].read_text()
    svc = cls.seeded(0, TODAY)
    assert svc.call("get_snapshots", {"url": "https://example.com", "from_": "2020"})["error"]["code"] == 400
    dashed = scaffold_service("@glassBead-tc_python-to-typescript-assistant", name="py2ts_probe", out=tmp_path)
    source = dashed.files[0].read_text()
    tool_names = [t["name"] for t in find_server("@glassBead-tc_python-to-typescript-assistant")["tools"]]
    odd = next(n for n in tool_names if not n.isidentifier())
    assert f'name="{odd}"' in source


def test_tests_and_hook_drafts(tmp_path):
    result = scaffold_service("@chriscarrollsmith_taskqueue-mcp", name="task_queue_probe", out=tmp_path)
    _, tests_path, hook_path = result.files
    tests = ast.parse(tests_path.read_text())
    functions = [n.name for n in tests.body if isinstance(n, ast.FunctionDef)]
    assert functions == ["svc", "test_seed_state_is_valid", *[f"test_{t.method}" for t in result.draft.tools]]
    assert "from compoworld_gym.envs.services.task_queue_probe import TaskQueueProbe" in tests_path.read_text()
    hook = hook_path.read_text()
    namespace: dict = {}
    exec(compile(hook, str(hook_path), "exec"), namespace)
    assert "LINKS" not in namespace  # inert until written: hook discovery skips it
    assert '#         Relay(service="task_queue_probe", name="task", key="task_id",' in hook
    assert '#                needs=(Need("projectId", "project_id"), Need("taskId", "task_id"),),' in hook


def test_existing_files_are_refused_without_force(tmp_path):
    first = scaffold_service("@chriscarrollsmith_taskqueue-mcp", name="task_queue_probe", out=tmp_path)
    first.files[1].write_text("# my tests\n")
    refused = (r"refusing to overwrite .*/envs/services/task_queue_probe.py, .*/tests/services/test_task_queue_probe.py, "
               r".*/hooks/task_queue_probe.py \(pass --force to overwrite\)")
    with pytest.raises(ScaffoldError, match=refused):
        scaffold_service("@chriscarrollsmith_taskqueue-mcp", name="task_queue_probe", out=tmp_path)
    assert first.files[1].read_text() == "# my tests\n"
    scaffold_service("@chriscarrollsmith_taskqueue-mcp", name="task_queue_probe", out=tmp_path, force=True)
    assert first.files[1].read_text().startswith('"""Tests of the task_queue_probe service')


def test_a_failing_draft_writes_nothing(tmp_path, monkeypatch):
    def broken(draft):
        raise RuntimeError("hook rendering failed")

    monkeypatch.setattr(scaffold, "hook_draft", broken)
    with pytest.raises(RuntimeError, match="hook rendering failed"):
        scaffold_service("@chriscarrollsmith_taskqueue-mcp", name="task_queue_probe", out=tmp_path)
    assert list(tmp_path.rglob("*")) == []


def test_names_and_slugs_are_checked(tmp_path):
    with pytest.raises(ScaffoldError, match="'gmail' is taken by compoworld_gym.envs.services.gmail.Gmail"):
        scaffold_service("@chriscarrollsmith_taskqueue-mcp", name="gmail", out=tmp_path)
    with pytest.raises(ScaffoldError, match="must be snake_case"):
        scaffold_service("@chriscarrollsmith_taskqueue-mcp", name="Task-Queue", out=tmp_path)
    with pytest.raises(UnknownSlug, match="close: @chriscarrollsmith_taskqueue-mcp"):
        find_server("chriscarrollsmith_taskqueue")
    with pytest.raises(UnknownSlug, match="'gmial' in mcp_servers.jsonl; close: @baryhuang_mcp-headless-gmail, "):
        find_server("gmial")  # a misspelt word
    assert (default_name("@shinzo-labs_hubspot-mcp"), default_name("@chriscarrollsmith_taskqueue-mcp"),
            default_name("modelcontextprotocol-gitlab")) == ("hubspot", "taskqueue", "gitlab")


def test_cli_writes_the_drafts_and_refuses_an_unknown_slug(tmp_path):
    runner = CliRunner()
    taken = runner.invoke(app, ["scaffold-service", "modelcontextprotocol-gitlab", "--out", str(tmp_path)])
    assert taken.exit_code == 2 and "service name 'gitlab' is taken" in taken.stderr  # a built-in service now
    ok = runner.invoke(app, ["scaffold-service", "@jonemo_openpyxl-mcp-server", "--out", str(tmp_path)])
    assert ok.exit_code == 0, ok.output
    assert ok.output.splitlines()[0].startswith(
        "drafted service 'openpyxl' (Openpyxl) from @jonemo_openpyxl-mcp-server: 6 tools")
    assert (tmp_path / "envs" / "services" / "openpyxl.py").is_file()
    again = runner.invoke(app, ["scaffold-service", "@jonemo_openpyxl-mcp-server", "--out", str(tmp_path)])
    assert again.exit_code == 2 and "(pass --force to overwrite)" in again.stderr
    bad = runner.invoke(app, ["scaffold-service", "gitlab-mcp", "--out", str(tmp_path)])
    assert bad.exit_code == 2
    assert bad.stderr.strip().splitlines() == [
        "error: no MCP server with slug 'gitlab-mcp' in mcp_servers.jsonl; close: modelcontextprotocol-gitlab"]
