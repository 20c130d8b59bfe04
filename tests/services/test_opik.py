"""Tests of the opik service (the Opik MCP server's interface, computed statistics)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.opik import Opik

WEB = "019a8be4-8280-7000-8000-000000000001"  # project web-frontend
CHAT = "019abf64-1a80-7000-8000-000000000006"  # prompt shopping-assistant-system
QUERY = "019ad923-e680-7000-8000-00000000000a"  # prompt query-rewrite
FAILED = "019bb9d3-bca0-7000-8000-000000000021"  # the web-frontend trace that hit a rate limit


@pytest.fixture
def svc(make_service):
    return make_service(Opik)


def test_projects_listing_and_lookup(svc):
    page = ok(svc, "list-projects", {"page": 1, "size": 2})
    assert (page["total"], [p["name"] for p in page["content"]]) == (5, ["web-frontend", "search-api"])
    by_name = ok(svc, "list-projects", {"page": 1, "size": 10, "sortBy": "name"})
    assert [p["name"] for p in by_name["content"]][:2] == ["notifications-worker", "playground"]
    assert ok(svc, "list-projects", {"page": 3, "size": 2})["content"][0]["name"] == "playground"
    web = ok(svc, "get-project-by-id", {"projectId": WEB})
    assert (web["trace_count"], web["last_updated_trace_at"]) == (5, "2026-01-15T07:02:00")
    assert code(svc, "get-project-by-id", {"projectId": "nope"}) == 404
    assert code(svc, "list-projects", {"page": 1, "size": 10, "workspaceName": "other"}) == 404
    assert code(svc, "list-projects", {"page": 0, "size": 10}) == 400
    assert code(svc, "list-projects", {"page": 1, "size": 10, "sortBy": "owner"}) == 400


def test_project_writes(svc):
    new = ok(svc, "create-project", {"name": "ledger-sync", "description": "Invoice matching"})
    assert (new["name"], new["created_by"], new["trace_count"]) == ("ledger-sync", "ops@company.example", 0)
    assert new["id"] == "019bc0e2-1280-7000-8000-000000000037"  # 09:00 today, next counter
    assert code(svc, "create-project", {"name": "Web-Frontend"}) == 409  # names are unique, ignoring case
    upd = ok(svc, "update-project", {"projectId": new["id"], "description": "Invoice matching (beta)"})
    assert (upd["name"], upd["description"]) == ("ledger-sync", "Invoice matching (beta)")
    assert code(svc, "update-project", {"projectId": new["id"]}) == 400
    assert code(svc, "update-project", {"projectId": new["id"], "name": "search-api"}) == 409
    gone = ok(svc, "delete-project", {"projectId": WEB})
    assert (gone["name"], gone["traces_deleted"]) == ("web-frontend", 5)
    assert code(svc, "get-trace-by-id", {"traceId": FAILED}) == 404  # its traces went with it
    assert code(svc, "delete-project", {"projectId": WEB}) == 404


def test_traces(svc):
    page = ok(svc, "list-traces", {"page": 1, "size": 2, "projectName": "web-frontend"})
    assert page["total"] == 5 and [t["start_time"] for t in page["content"]] == ["2026-01-15T07:02:00",
                                                                                 "2026-01-14T00:07:00"]
    assert "spans" not in page["content"][0]
    assert ok(svc, "list-traces", {"page": 1, "size": 10, "projectId": WEB})["total"] == 5
    assert code(svc, "list-traces", {"page": 1, "size": 10}) == 400  # a project is required
    assert code(svc, "list-traces", {"page": 1, "size": 10, "projectName": "nope"}) == 404
    assert code(svc, "list-traces", {"page": 1, "size": 10, "projectId": WEB, "projectName": "search-api"}) == 400
    t = ok(svc, "get-trace-by-id", {"traceId": FAILED})
    assert (t["project_name"], t["metadata"]["user_email"], t["error_info"]["exception_type"]) == (
        "web-frontend", "bruce.cabrera@hotmail.com", "RateLimitError")
    assert (t["span_count"], t["spans"][1]["model"], t["total_estimated_cost"]) == (2, "gpt-4o-mini", 0.000327)
    assert t["usage"]["total_tokens"] == t["spans"][1]["usage"]["total_tokens"]
    assert code(svc, "get-trace-by-id", {"traceId": "nope"}) == 404


def test_stats_are_computed_from_traces(svc):
    stats = ok(svc, "get-trace-stats", {"projectName": "support-copilot"})
    assert (stats["trace_count"], stats["error_count"], stats["total_estimated_cost"]) == (3, 0, 0.030075)
    assert stats["feedback_scores"] == {"answer_relevance": {"avg": 0.6933, "count": 3}}
    month = ok(svc, "get-trace-stats", {"projectName": "support-copilot", "startDate": "2026-01-01",
                                        "endDate": "2026-01-15"})
    assert (month["trace_count"], month["total_estimated_cost"]) == (2, 0.019943)  # the Dec 30 trace is out
    web = ok(svc, "get-trace-stats", {"projectId": WEB})
    assert (web["error_count"], web["feedback_scores"]["user_feedback"]["avg"]) == (1, 0.6)
    assert ok(svc, "get-trace-stats", {})["trace_count"] == 14
    assert code(svc, "get-trace-stats", {"startDate": "2026-01-10", "endDate": "2026-01-01"}) == 400
    assert code(svc, "get-trace-stats", {"startDate": "yesterday"}) == 400


def test_metrics(svc):
    cost = ok(svc, "get-metrics", {"metricName": "cost", "projectName": "web-frontend"})
    assert (cost["start_date"], cost["end_date"], list(cost["metrics"])) == ("2026-01-09", "2026-01-15", ["cost"])
    assert [p["value"] for p in cost["metrics"]["cost"][0]["data"]] == [0, 0.000483, 0, 0, 0.000279, 0.000327, 0.00038]
    counts = ok(svc, "get-metrics", {"metricName": "TRACE_COUNT", "startDate": "2026-01-01", "endDate": "2026-01-03"})
    assert [p["value"] for p in counts["metrics"]["trace_count"][0]["data"]] == [1, 1, 1]
    everything = ok(svc, "get-metrics", {"projectId": WEB})
    assert sorted(everything["metrics"]) == ["cost", "duration", "feedback_scores", "token_usage", "trace_count"]
    assert [s["name"] for s in everything["metrics"]["feedback_scores"]] == ["hallucination", "user_feedback"]
    assert code(svc, "get-metrics", {"metricName": "latency"}) == 400
    assert code(svc, "get-metrics", {"startDate": "2025-01-01", "endDate": "2026-01-15"}) == 400


def test_prompts_and_versions(svc):
    listing = ok(svc, "list-prompts", {"page": 1, "size": 2})
    assert listing["total"] == 5 and listing["content"][0]["name"] == "product-description"
    chat = ok(svc, "get-prompt-by-id", {"promptId": CHAT})
    assert [v["commit"] for v in chat["versions"]] == ["f52ab78c", "e614e159", "05ecd9b5"]
    assert (chat["latest_version"]["created_by"], chat["latest_version"]["variables"]) == (
        "maya.goldberg@company.example", ["customer_name", "language"])
    v = ok(svc, "create-prompt-version", {"name": "query-rewrite", "template": "Rewrite {{ query }} for {{locale}}",
                                          "commit_message": "locale aware"})
    assert (v["variables"], v["prompt_id"], v["created_by"]) == (["query", "locale"], QUERY, "ops@company.example")
    again = error(svc, "create-prompt-version", {"name": "query-rewrite",
                                                 "template": "Rewrite {{ query }} for {{locale}}",
                                                 "commit_message": "same"})
    assert again["code"] == 409 and v["commit"] in again["message"]
    assert code(svc, "create-prompt-version", {"name": "query-rewrite", "template": "Rewrite {{query}",
                                               "commit_message": "typo"}) == 422
    assert code(svc, "create-prompt-version", {"name": "query-rewrite", "template": "Hi {{first name}}",
                                               "commit_message": "bad var"}) == 422
    assert code(svc, "create-prompt-version", {"name": "nope", "template": "x", "commit_message": "m"}) == 404


def test_prompt_writes(svc):
    p = ok(svc, "create-prompt", {"name": "returns-faq"})
    assert (p["version_count"], p["latest_version"]) == (0, None)
    assert code(svc, "create-prompt", {"name": "Query-Rewrite"}) == 409
    assert ok(svc, "update-prompt", {"promptId": p["id"], "name": "returns-answer"})["name"] == "returns-answer"
    assert code(svc, "update-prompt", {"promptId": p["id"], "name": "query-rewrite"}) == 409
    gone = ok(svc, "delete-prompt", {"promptId": CHAT})
    assert (gone["name"], gone["versions_deleted"]) == ("shopping-assistant-system", 3)
    assert code(svc, "get-prompt-by-id", {"promptId": CHAT}) == 404


def test_feedback_scores(svc):
    res = ok(svc, "add-trace-feedback-score", {"traceId": FAILED, "name": "human_review", "value": 0,
                                               "reason": "wrong stock answer"})
    assert [s["name"] for s in res["feedback_scores"]] == ["hallucination", "user_feedback", "human_review"]
    res = ok(svc, "add-trace-feedback-score", {"traceId": FAILED, "name": "user_feedback", "value": 1})
    scores = {s["name"]: (s["value"], s["source"]) for s in res["feedback_scores"]}
    assert scores["user_feedback"] == (1.0, "ui") and len(scores) == 3  # replaced, not added
    assert code(svc, "add-trace-feedback-score", {"traceId": "nope", "name": "x", "value": 1}) == 404
    assert code(svc, "add-trace-feedback-score", {"traceId": FAILED, "name": "bad name", "value": 1}) == 400


def test_server_info_and_help(svc):
    assert ok(svc, "get-server-info")["traces"] == 14
    assert ok(svc, "get-server-info", {"random_string": "x"})["workspace"] == "acme"
    assert "mustache" in ok(svc, "get-opik-help", {"topic": "Prompts"})["help"]
    assert "replaces" in ok(svc, "get-opik-help", {"topic": "traces", "subtopic": "feedback"})["subtopic"]
    assert code(svc, "get-opik-help", {"topic": "billing"}) == 400
    assert code(svc, "get-opik-help", {"topic": "metrics", "subtopic": "x"}) == 404
    assert list(ok(svc, "get-opik-examples", {"task": "monitor costs"})["examples"]) == ["monitor costs"]
    assert code(svc, "get-opik-examples", {"task": "juggle"}) == 404
    assert ok(svc, "get-opik-tracing-info")["topic"] == "general"
    assert "child spans" in ok(svc, "get-opik-tracing-info", {"topic": "spans"})["info"]
    assert code(svc, "get-opik-tracing-info", {"topic": "quantum"}) == 400


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("create-project", {"name": "search-api"})["success"] is False
    assert svc.call("create-prompt-version", {"name": "query-rewrite", "template": "{{", "commit_message": "x"})[
        "success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(Opik, seed=5).state_dict() == make_service(Opik, seed=5).state_dict()
