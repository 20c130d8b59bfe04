"""The compoworld command line."""

from __future__ import annotations

import json

import pytest

from typer.testing import CliRunner

from compoworld_gym.cli import app

runner = CliRunner()


def test_services_json_lists_counts_and_sources():
    out = runner.invoke(app, ["services", "--json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)
    helpdesk = next(r for r in rows if r["name"] == "helpdesk")
    assert helpdesk == {"name": "helpdesk", "domain": "support", "description": helpdesk["description"],
                        "tools": 10, "deterministic_tools": 10, "simulated_tools": 0, "spec_source": None}
    assert all(set(r) >= {"name", "domain", "tools", "deterministic_tools", "simulated_tools", "spec_source"}
               for r in rows)


def test_eval_reference_beats_random():
    out = runner.invoke(app, ["eval", "--json"])
    assert out.exit_code == 0, out.output
    reference, random_ = json.loads(out.output)
    assert reference["agent"] == "reference" and reference["success_rate"] == 1.0
    assert reference["mean_rubric_score"] == 1.0
    assert random_["agent"] == "random" and random_["mean_rubric_score"] < 0.5


def test_eval_bad_task_file_exits_2(tmp_path):
    bad = tmp_path / "t.jsonl"
    bad.write_text("{nope\n")
    out = runner.invoke(app, ["eval", "--tasks", str(bad)])
    assert out.exit_code == 2 and "t.jsonl:1" in out.output


def test_tasks_export(tmp_path):
    path = tmp_path / "b.jsonl"
    out = runner.invoke(app, ["tasks", "--out", str(path)])
    assert out.exit_code == 0 and path.read_text().count("\n") >= 1


def test_graph_writes_pictures_and_counts(tmp_path):
    out = runner.invoke(app, ["graph", "--json", "--out", str(tmp_path / "g.png"),
                              "--composition-out", str(tmp_path / "c.png")])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.output[out.output.index("{"):])
    assert summary["services"] >= 40 and summary["edges"] > 100
    assert summary["candidate_compositions"]["combinations"] > 100_000
    assert (tmp_path / "g.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "c.png").stat().st_size > 1000


def test_generate_writes_verified_tasks(tmp_path):
    path = tmp_path / "t.jsonl"
    out = runner.invoke(app, ["generate", "--n", "3", "--seed", "1", "--out", str(path), "--json"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.output[out.output.index("{"):])
    assert summary["tasks"] == 3 and len(path.read_text().splitlines()) == 3


def test_import_mcp_json_figures(tmp_path):
    spec = {"server": "Notes", "slug": "cli-notes-test", "category": None, "license": "MIT", "repository": None,
            "origin": "test", "tools": [
                {"name": "create_note", "description": "Create a note.",
                 "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}},
                                 "required": ["title"]}},
                {"name": "get_note", "description": "Get a note.",
                 "inputSchema": {"type": "object", "properties": {"note_id": {"type": "string"}},
                                 "required": ["note_id"]}},
                {"name": "weather_now", "description": "Current weather in a city.",
                 "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]}
    path = tmp_path / "servers.jsonl"
    path.write_text(json.dumps(spec) + "\n")
    out = runner.invoke(app, ["import-mcp", str(path), "--json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.output[out.output.index("{"):])
    assert (report["servers"], report["tools"], report["invalid_schemas"]) == (1, 3, 0)
    assert report["deterministic_tools"] + report["simulated_tools"] == 3
    assert report["simulated_tools"] >= 1
    missing = runner.invoke(app, ["import-mcp", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2 and "does not exist" in missing.output


def test_fuzz_json_reports_runs_and_failures():
    out = runner.invoke(app, ["fuzz", "--examples", "3", "--seed", "5", "--steps", "2", "--json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.output[out.output.index("{"):])
    assert report["failures"] == 0 and report["examples"] >= 3 and report["seed"] == 5
    assert report["seconds"] > 0


@pytest.mark.parametrize("args, message", [
    (["eval", "--tasks", "{empty}"], "holds no tasks"),
    (["eval", "--tasks", "{dir}"], "is a directory"),
    (["tasks", "--out", "{dir}"], "is a directory"),
    (["tasks", "--out", "{dir}/missing/x.jsonl"], "does not exist"),
    (["play", "--task", "nosuch"], "unknown task"),
    (["serve", "--tasks", "{empty}"], "holds no tasks"),
    (["generate", "--n", "2", "--out", "{dir}/missing/x.jsonl"], "does not exist"),
    (["graph", "--out", "{dir}/missing/g.png"], "does not exist"),
])
def test_bad_arguments_fail_cleanly(tmp_path, args, message):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    args = [a.format(empty=empty, dir=tmp_path) for a in args]
    out = runner.invoke(app, args)
    assert out.exit_code == 2 and message in " ".join(out.output.split())
    assert "Traceback" not in out.output


def test_import_mcp_empty_file_fails(tmp_path):
    empty = tmp_path / "none.jsonl"
    empty.write_text("")
    out = runner.invoke(app, ["import-mcp", str(empty)])
    assert out.exit_code == 2 and "no MCP servers" in " ".join(out.output.split())


def test_play_shows_pass_markers():
    out = runner.invoke(app, ["play", "--task", "builtin-chargeback"], input="/answer Done.\n")
    assert out.exit_code == 0, out.output
    assert "FAIL  tag:" in out.output and "PASS  others_untouched:" in out.output
