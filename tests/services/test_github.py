"""The github service (MCP reference ``github`` server subset)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, ok

from compoworld_gym.envs.services._github_models import blob_sha
from compoworld_gym.envs.services._github_seed import FILES
from compoworld_gym.envs.services.github import GitHub

O = "company-example"


@pytest.fixture
def gh(make_service):
    return make_service(GitHub)


def repo(**kw):
    return {"owner": O, "repo": "storefront", **kw}


def test_seed(make_service):
    s = make_service(GitHub).state_dict()
    assert s == make_service(GitHub).state_dict() != make_service(GitHub, seed=1).state_dict()
    assert sorted(s["repositories"]) == [f"{O}/billing-service", f"{O}/ops-runbooks", f"{O}/storefront"]
    assert len(s["issues"]) == 10 and len(s["pull_requests"]) == 3
    assert s["users"]["priya-raman"]["email"] == "priya.raman@company.example"


def test_repositories(gh):
    assert ok(gh, "search_repositories", {"query": "org:company-example billing"})["items"][0]["name"] == "billing-service"
    assert ok(gh, "search_repositories", {"query": "nothing-like-this"})["total_count"] == 0
    r = ok(gh, "create_repository", {"name": "notes", "description": "Team notes", "autoInit": True})
    assert r["full_name"] == "ops-bot/notes"
    assert ok(gh, "get_file_contents", {"owner": "ops-bot", "repo": "notes", "path": "README.md"})["content"] == (
        "# notes\n\nTeam notes\n")
    assert code(gh, "create_repository", {"name": "notes"}) == 409
    assert code(gh, "create_repository", {"name": "bad name"}) == 400


def test_file_contents_and_updates(gh):
    root = ok(gh, "get_file_contents", repo(path=""))
    assert [(e["name"], e["type"]) for e in root] == [("README.md", "file"), ("docs", "dir"), ("src", "dir")]
    f = ok(gh, "get_file_contents", repo(path="src/cart.py"))
    assert f["content"] == FILES["storefront"]["src/cart.py"] and f["sha"] == blob_sha(f["content"])
    assert code(gh, "get_file_contents", repo(path="nope.txt")) == 404
    assert code(gh, "get_file_contents", repo(path="", branch="ghost")) == 404
    args = repo(path="src/cart.py", content="x = 1\n", message="Simplify", branch="main")
    assert code(gh, "create_or_update_file", args) == 409
    assert code(gh, "create_or_update_file", {**args, "sha": "0" * 40}) == 409
    out = ok(gh, "create_or_update_file", {**args, "sha": f["sha"]})
    assert out["content"] == {"path": "src/cart.py", "sha": blob_sha("x = 1\n")}
    commits = ok(gh, "list_commits", repo())
    assert commits[0]["message"] == "Simplify" and commits[0]["sha"] == out["commit"]["sha"] and len(commits) == 2


def test_branch_push_pull_request_review_merge(gh):
    assert ok(gh, "create_branch", repo(branch="feat/x"))["ref"] == "refs/heads/feat/x"
    assert code(gh, "create_branch", repo(branch="feat/x")) == 409
    assert code(gh, "create_pull_request", repo(title="t", head="feat/x", base="main")) == 422  # no changes
    ok(gh, "push_files", repo(branch="feat/x", message="Add docs", files=[{"path": "docs/FAQ.md", "content": "Q?\n"}]))
    pr = ok(gh, "create_pull_request", repo(title="FAQ", head="feat/x", base="main"))
    assert pr["number"] == 6 and pr["state"] == "open" and pr["user"] == "ops-bot"
    assert ok(gh, "get_pull_request_files", repo(pull_number=6)) == [
        {"filename": "docs/FAQ.md", "status": "added", "additions": 1, "deletions": 0, "changes": 1,
         "sha": blob_sha("Q?\n")}]
    assert code(gh, "create_pull_request_review", repo(pull_number=6, body="ok", event="APPROVE")) == 422  # own PR
    ok(gh, "create_pull_request_review", repo(pull_number=6, body="nice", event="COMMENT"))
    assert [r["state"] for r in ok(gh, "get_pull_request_reviews", repo(pull_number=6))] == ["COMMENTED"]
    merged = ok(gh, "merge_pull_request", repo(pull_number=6, merge_method="squash"))
    assert merged["merged"] is True
    assert ok(gh, "get_file_contents", repo(path="docs/FAQ.md"))["content"] == "Q?\n"
    assert ok(gh, "list_commits", repo())[0]["message"] == "FAQ (#6)"
    assert code(gh, "merge_pull_request", repo(pull_number=6)) == 409
    assert ok(gh, "get_pull_request", repo(pull_number=6))["merged"] is True


def test_seeded_pull_request_review_and_merge(gh):
    prs = ok(gh, "list_pull_requests", repo())
    assert [(p["number"], p["head"]) for p in prs] == [(5, "fix/checkout-rounding")]
    p = ok(gh, "get_pull_request", repo(pull_number=5))
    assert p["changed_files"] == 1 and p["mergeable"] is True
    ok(gh, "create_pull_request_review", repo(pull_number=5, body="fix the test", event="REQUEST_CHANGES"))
    assert code(gh, "merge_pull_request", repo(pull_number=5)) == 409
    ok(gh, "create_pull_request_review", repo(pull_number=5, body="good", event="APPROVE"))
    ok(gh, "merge_pull_request", repo(pull_number=5))
    assert "round(" in ok(gh, "get_file_contents", repo(path="src/checkout.py"))["content"]


def test_merge_conflict_when_base_changed_same_file(gh):
    f = ok(gh, "get_file_contents", repo(path="src/checkout.py"))
    ok(gh, "create_or_update_file", repo(path="src/checkout.py", content="# other\n", message="m", branch="main",
                                         sha=f["sha"]))
    assert ok(gh, "get_pull_request", repo(pull_number=5))["mergeable"] is False
    ok(gh, "create_pull_request_review", repo(pull_number=5, body="ok", event="APPROVE"))
    assert code(gh, "merge_pull_request", repo(pull_number=5)) == 409


def test_issues(gh):
    open_ = ok(gh, "list_issues", repo())
    assert all(i["state"] == "open" for i in open_)
    every = ok(gh, "list_issues", repo(state="all", direction="asc", sort="created"))
    assert len(every) == 4 and [i["created_at"] for i in every] == sorted(i["created_at"] for i in every)
    assert [i["number"] for i in ok(gh, "list_issues", repo(state="all", labels=["customer-report"]))] == [1]
    i = ok(gh, "create_issue", repo(title="Coupon field missing", body="On mobile", labels=["bug"],
                                    assignees=["luis-ortega"]))
    assert i["number"] == 6 and i["assignees"] == ["luis-ortega"]
    assert code(gh, "create_issue", repo(title="x", assignees=["nobody"])) == 422
    c = ok(gh, "add_issue_comment", repo(issue_number=6, body="Looking into it"))
    assert c["user"] == "ops-bot"
    assert code(gh, "add_issue_comment", repo(issue_number=5, body="x")) == 422  # #5 is a PR
    assert code(gh, "add_issue_comment", repo(issue_number=99, body="x")) == 404
    u = ok(gh, "update_issue", repo(issue_number=6, state="closed", labels=["bug", "mobile"]))
    assert u["state"] == "closed" and u["labels"] == ["bug", "mobile"] and u["comments"] == 1
    assert code(gh, "update_issue", repo(issue_number=6)) == 400
    full = ok(gh, "get_issue", repo(issue_number=6))
    assert full["comments"][0]["body"] == "Looking into it"


def test_search_issues_and_users(gh):
    hits = ok(gh, "search_issues", {"q": "repo:company-example/billing-service is:issue label:bug"})
    assert [h["title"] for h in hits["items"]] == ["Late fee applied twice on overdue invoices"]
    assert ok(gh, "search_issues", {"q": "is:pr is:open"})["total_count"] == 3
    assert ok(gh, "search_issues", {"q": "checkout decimals"})["items"][0]["number"] == 1
    assert ok(gh, "search_users", {"q": "okafor"})["items"] == [
        {"login": "grace-okafor", "name": "Grace Okafor", "email": "grace.okafor@company.example"}]


def test_unknown_repo_and_bad_args(gh):
    assert code(gh, "list_issues", {"owner": O, "repo": "ghost"}) == 404
    assert code(gh, "get_issue", repo(issue_number="one")) == 400
    assert code(gh, "list_issues", repo(state="merged")) == 400
