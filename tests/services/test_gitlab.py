"""Tests of the gitlab service (modelcontextprotocol-gitlab)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.gitlab import Gitlab

CHECKOUT = "acme/checkout-api"


@pytest.fixture
def svc(make_service):
    return make_service(Gitlab)


def file_args(**over):
    return {"project_id": CHECKOUT, "file_path": "docs/notes.md", "content": "hello\n", "commit_message": "Add notes",
            "branch": "fix/checkout-api-timeouts", **over}


def test_seed_is_deterministic_and_lines_up_with_the_app_catalog(make_service):
    a = make_service(Gitlab, seed=3).state_dict()
    assert a == make_service(Gitlab, seed=3).state_dict()
    paths = sorted(p["namespace"] + "/" + p["path"] for p in a["projects"].values())
    assert paths[:3] == ["acme/auth-service", "acme/checkout-api", "acme/legacy-admin"]
    assert a["users"]["1"]["username"] == "ops-bot"


def test_search_repositories_by_name_and_path(svc):
    found = ok(svc, "search_repositories", {"search": "Checkout"})
    assert found["count"] == 1
    item = found["items"][0]
    assert (item["id"], item["path_with_namespace"], item["default_branch"], item["open_issues_count"]) == (
        1001, CHECKOUT, "main", 2)
    assert item["namespace"]["full_path"] == "acme"
    everything = ok(svc, "search_repositories", {"search": "acme/", "per_page": 4, "page": 3})
    assert (everything["count"], [p["id"] for p in everything["items"]]) == (9, [1009])
    assert ok(svc, "search_repositories", {"search": "nothing-like-this"}) == {"count": 0, "items": []}
    assert code(svc, "search_repositories", {"search": "x", "per_page": 0}) == 400


def test_get_project_and_branches(svc):
    p = ok(svc, "get_project", {"project_id": "acme%2Fcheckout-api"})
    assert (p["id"], p["protected_branches"], p["permissions"], p["open_merge_requests_count"]) == (
        1001, ["main"], {"access_level": 30, "role": "developer"}, 2)
    assert p["branches"] == ["feature/idempotency-keys", "fix/checkout-api-timeouts", "main"]
    branches = ok(svc, "list_branches", {"project_id": "1001"})
    assert [(b["name"], b["default"], b["protected"]) for b in branches] == [
        ("feature/idempotency-keys", False, False), ("fix/checkout-api-timeouts", False, False), ("main", True, True)]
    assert error(svc, "get_project", {"project_id": "checkout-api"})["code"] == 404


def test_get_file_contents_file_directory_and_ref(svc):
    f = ok(svc, "get_file_contents", {"project_id": CHECKOUT, "file_path": "CODEOWNERS"})
    assert f["content"] == "# Reviewers for every change\n* kenji.watanabe@company.example\n"
    assert (f["ref"], f["size"], f["blob_id"]) == ("main", 62, "736b76dd3a442ee31117fac4367a6e967e60aeaf")
    d = ok(svc, "get_file_contents", {"project_id": CHECKOUT, "file_path": "/"})
    assert [(e["name"], e["type"]) for e in d["entries"]] == [
        (".gitlab-ci.yml", "blob"), ("CODEOWNERS", "blob"), ("README.md", "blob"), ("config", "tree"), ("src", "tree")]
    fix = ok(svc, "get_file_contents", {"project_id": CHECKOUT, "file_path": "config/settings.yaml",
                                        "ref": "fix/checkout-api-timeouts"})
    assert fix["content"] == "upstream_timeout_ms: 2500\nretries: 2\n"
    first = ok(svc, "get_file_contents", {"project_id": CHECKOUT, "file_path": "config/settings.yaml",
                                          "ref": f["commit_id"][:8]})
    assert first["content"] == "upstream_timeout_ms: 1000\nretries: 3\n"
    assert code(svc, "get_file_contents", {"project_id": CHECKOUT, "file_path": "nope.txt"}) == 404
    assert code(svc, "get_file_contents", {"project_id": CHECKOUT, "file_path": "README.md", "ref": "nope"}) == 404


def test_issues_and_merge_requests_read_back(svc):
    issues = ok(svc, "list_issues", {"project_id": CHECKOUT})
    assert [(i["iid"], i["references"]["full"]) for i in issues] == [(2, "acme/checkout-api#2"),
                                                                     (1, "acme/checkout-api#1")]
    assert [i["iid"] for i in ok(svc, "list_issues", {"project_id": CHECKOUT, "labels": ["incident"]})] == [1]
    assert ok(svc, "list_issues", {"project_id": "acme/web-frontend", "state": "closed"})[0]["title"] == \
        "Remove the legacy checkout page"
    mrs = ok(svc, "list_merge_requests", {"project_id": CHECKOUT})
    assert [(m["iid"], m["draft"], m["title"]) for m in mrs] == [
        (2, True, "Draft: Idempotency keys for order submission"),
        (1, False, "Raise the payment upstream timeout to 2.5 s")]
    mr = ok(svc, "get_merge_request", {"project_id": CHECKOUT, "merge_request_iid": 1})
    assert (mr["author"]["public_email"], mr["commits_ahead"], mr["labels"]) == (
        "kenji.watanabe@company.example", 1, ["service::checkout-api"])
    merged = ok(svc, "list_merge_requests", {"project_id": "acme/payments-service", "state": "merged"})
    assert (merged[0]["state"], merged[0]["commits_ahead"]) == ("merged", 0)
    assert code(svc, "get_merge_request", {"project_id": CHECKOUT, "merge_request_iid": 9}) == 404


def test_create_or_update_file_creates_updates_and_moves(svc):
    created = ok(svc, "create_or_update_file", file_args())
    assert (created["action"], created["file_path"]) == ("create", "docs/notes.md")
    updated = ok(svc, "create_or_update_file", file_args(content="hello again\n", commit_message="Edit notes"))
    assert updated["action"] == "update"
    moved = ok(svc, "create_or_update_file", file_args(file_path="docs/NOTES.md", previous_path="docs/notes.md",
                                                       content="hello again\n", commit_message="Rename"))
    assert moved["action"] == "move"
    files = svc.state.projects["1001"].branches["fix/checkout-api-timeouts"].files
    assert "docs/notes.md" not in files and files["docs/NOTES.md"] == "hello again\n"
    head = svc.state.projects["1001"].branches["fix/checkout-api-timeouts"].commits[-1]
    assert (head.title, head.author_email, head.changes) == ("Rename", "ops@company.example",
                                                            {"docs/NOTES.md": "hello again\n", "docs/notes.md": None})


def test_file_rules(svc):
    assert error(svc, "create_or_update_file", file_args(branch="no-such-branch"))["code"] == 404
    msg = error(svc, "create_or_update_file", file_args(branch="main"))
    assert msg["code"] == 422 and "protected" in msg["message"]
    assert code(svc, "create_or_update_file", file_args(file_path="config/settings.yaml",
                                                        content="upstream_timeout_ms: 2500\nretries: 2\n")) == 409
    assert code(svc, "create_or_update_file", file_args(previous_path="missing.md")) == 404
    assert code(svc, "create_or_update_file", file_args(file_path="README.md", previous_path="CODEOWNERS")) == 409
    assert code(svc, "create_or_update_file", file_args(file_path="../etc/passwd")) == 400
    assert code(svc, "create_or_update_file", file_args(project_id="acme/legacy-admin", branch="main")) == 409


def test_push_files_one_commit(svc):
    commit = ok(svc, "push_files", {"project_id": CHECKOUT, "branch": "feature/idempotency-keys",
                                    "commit_message": "Keys and docs",
                                    "files": [{"file_path": "docs/keys.md", "content": "# Keys\n"},
                                              {"file_path": "src/idempotency.py", "content": "KEY = 1\n"}]})
    assert (commit["title"], commit["files"], len(commit["parent_ids"])) == (
        "Keys and docs", ["docs/keys.md", "src/idempotency.py"], 1)
    assert code(svc, "push_files", {"project_id": CHECKOUT, "branch": "feature/idempotency-keys", "commit_message": "x",
                                    "files": [{"file_path": "docs/keys.md", "content": "# Keys\n"}]}) == 409
    assert code(svc, "push_files", {"project_id": CHECKOUT, "branch": "feature/idempotency-keys", "commit_message": "x",
                                    "files": [{"file_path": "a.md", "content": "1"},
                                              {"file_path": "a.md", "content": "2"}]}) == 400
    assert code(svc, "push_files", {"project_id": CHECKOUT, "branch": "main", "commit_message": "x",
                                    "files": [{"file_path": "a.md", "content": "1"}]}) == 422
    assert code(svc, "push_files", {"project_id": CHECKOUT, "branch": "x", "commit_message": "x", "files": []}) == 400


def test_create_repository_empty_then_first_push_makes_the_default_branch(svc):
    repo = ok(svc, "create_repository", {"name": "Release Notes", "description": "Notes", "visibility": "internal"})
    assert (repo["id"], repo["path_with_namespace"], repo["default_branch"], repo["visibility"]) == (
        1010, "ops-bot/release-notes", None, "internal")
    assert code(svc, "create_branch", {"project_id": "1010", "branch": "dev"}) == 409  # empty project
    ok(svc, "push_files", {"project_id": "ops-bot/release-notes", "branch": "trunk", "commit_message": "First",
                           "files": [{"file_path": "README.md", "content": "# Notes\n"}]})
    assert ok(svc, "get_project", {"project_id": "1010"})["default_branch"] == "trunk"
    assert code(svc, "create_repository", {"name": "release notes"}) == 409
    seeded = ok(svc, "create_repository", {"name": "Scratch", "initialize_with_readme": True})
    assert (seeded["default_branch"], seeded["visibility"]) == ("main", "private")


def test_fork_repository(svc):
    fork = ok(svc, "fork_repository", {"project_id": CHECKOUT})
    assert (fork["path_with_namespace"], fork["forked_from_project"]) == (
        "ops-bot/checkout-api", {"id": 1001, "path_with_namespace": CHECKOUT})
    ok(svc, "create_or_update_file", file_args(project_id=str(fork["id"]), branch="main"))  # own fork: allowed
    assert code(svc, "fork_repository", {"project_id": CHECKOUT}) == 409
    assert code(svc, "fork_repository", {"project_id": "acme/search-api", "namespace": "acme"}) == 422
    assert code(svc, "fork_repository", {"project_id": "acme/search-api", "namespace": "nobody"}) == 404


def test_create_branch_rules(svc):
    b = ok(svc, "create_branch", {"project_id": CHECKOUT, "branch": "hotfix/KQ-4821"})
    assert (b["name"], b["commit"]["title"]) == ("hotfix/KQ-4821", "Initial commit")
    from_fix = ok(svc, "create_branch", {"project_id": CHECKOUT, "branch": "fix-2", "ref": "fix/checkout-api-timeouts"})
    assert from_fix["commit"]["title"] == "Update config/settings.yaml"
    assert code(svc, "create_branch", {"project_id": CHECKOUT, "branch": "hotfix/KQ-4821"}) == 409
    assert code(svc, "create_branch", {"project_id": CHECKOUT, "branch": "bad name"}) == 400
    assert code(svc, "create_branch", {"project_id": CHECKOUT, "branch": "x..y"}) == 400
    assert code(svc, "create_branch", {"project_id": CHECKOUT, "branch": "ok", "ref": "deadbeef"}) == 404
    assert code(svc, "create_branch", {"project_id": "acme/legacy-admin", "branch": "ok"}) == 409


def test_create_issue_rules(svc):
    issue = ok(svc, "create_issue", {"project_id": CHECKOUT, "title": "Follow-up", "description": "d",
                                     "assignee_ids": [4], "labels": ["incident", "postmortem"], "milestone_id": 502})
    assert (issue["id"], issue["iid"], issue["references"]["full"], issue["milestone"]["title"]) == (
        11, 3, "acme/checkout-api#3", "v2.4")
    assert [a["username"] for a in issue["assignees"]] == ["kenji.watanabe"]
    assert "postmortem" in svc.state.projects["1001"].labels  # unknown labels are created
    assert code(svc, "create_issue", {"project_id": CHECKOUT, "title": "x", "assignee_ids": [99]}) == 404
    assert code(svc, "create_issue", {"project_id": CHECKOUT, "title": "x", "milestone_id": 503}) == 422
    ok(svc, "create_repository", {"name": "Mine"})
    assert code(svc, "create_issue", {"project_id": "ops-bot/mine", "title": "x", "assignee_ids": [4]}) == 422
    assert code(svc, "create_issue", {"project_id": "acme/legacy-admin", "title": "x"}) == 409


def test_create_merge_request_rules(svc):
    ok(svc, "create_branch", {"project_id": CHECKOUT, "branch": "hotfix/KQ-4821"})
    mr = ok(svc, "create_merge_request", {"project_id": CHECKOUT, "title": "Hotfix", "source_branch": "hotfix/KQ-4821",
                                          "target_branch": "main", "description": "case KQ-4821", "draft": True})
    assert (mr["iid"], mr["references"]["full"], mr["title"], mr["draft"], mr["author"]["username"]) == (
        3, "acme/checkout-api!3", "Draft: Hotfix", True, "ops-bot")
    assert error(svc, "create_merge_request", {"project_id": CHECKOUT, "title": "again",
                                               "source_branch": "hotfix/KQ-4821",
                                               "target_branch": "main"})["message"].endswith("acme/checkout-api!3.")
    assert code(svc, "create_merge_request", {"project_id": CHECKOUT, "title": "x", "source_branch": "main",
                                              "target_branch": "main"}) == 422
    assert code(svc, "create_merge_request", {"project_id": CHECKOUT, "title": "x", "source_branch": "nope",
                                              "target_branch": "main"}) == 404
    ok(svc, "create_branch", {"project_id": CHECKOUT, "branch": "wip"})
    titled = ok(svc, "create_merge_request", {"project_id": CHECKOUT, "title": "Draft: try", "source_branch": "wip",
                                              "target_branch": "main"})
    assert (titled["draft"], titled["commits_ahead"]) == (True, 0)


def test_failed_writes_leave_state_unchanged(svc):
    before = svc.state_dict()
    assert svc.call("create_or_update_file", file_args(branch="main"))["success"] is False
    assert svc.call("create_merge_request", {"project_id": CHECKOUT, "title": "x", "source_branch": "main",
                                             "target_branch": "main"})["success"] is False
    assert svc.state_dict() == before
