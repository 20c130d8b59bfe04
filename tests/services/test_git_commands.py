"""Tests of the git_commands service (modelled git repositories, @bsreeram08_git-commands-mcp)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._git_commands_rules import commit_sha
from compoworld_gym.envs.services.git_commands import GitCommands

CO = "/srv/repos/acme/checkout-api"
CO_URL = "https://github.com/acme/checkout-api.git"
PAY = "/srv/repos/acme/payments-service"
AUTH = "/srv/repos/acme/auth-service"
WEB = "/srv/repos/acme/web-frontend"
MAIN = "02887d9ad5725b0169b2be1e853c1bd75e27e2d5"  # checkout-api main
FIX = "bc2637f4e13eafb35b24e2048d173607c08870b5"  # fix/checkout-api-timeouts


@pytest.fixture
def svc(make_service):
    return make_service(GitCommands)


def head(svc, path, branch="main"):
    return svc.state.repositories[path].branches[branch].head


def test_repositories_of_the_company_apps(svc):
    repos = ok(svc, "git_list_repositories")
    assert [r["project"] for r in repos] == ["checkout-api", "payments-service", "web-frontend", "search-api",
                                             "auth-service", "notifications-worker", "reporting-etl"]
    co = ok(svc, "git_list_repositories", {"project": "checkout-api"})[0]
    assert (co["path"], co["url"], co["current_branch"], co["tags"]) == (CO, CO_URL, "main", ["v1.3.0", "v1.4.0"])
    branches = {b["name"]: (b["merged"], b["ahead"], b["behind"]) for b in co["branches"]}
    assert branches == {"main": (True, 0, 0), "fix/checkout-api-timeouts": (False, 0, 0),
                        "feature/checkout-api-retries": (False, 4, 0), "docs/runbook": (True, 0, 0)}
    assert [r["path"] for r in ok(svc, "git_list_repositories", {"query": "payments"})] == [PAY]


def test_clone_by_url_reads(svc):
    tree = ok(svc, "git_directory_structure", {"repo_url": "git@github.com:acme/checkout-api.git"})
    assert (tree["commit"], tree["files"][:3]) == (MAIN, ["CHANGELOG.md", "README.md", "config/settings.yaml"])
    files = ok(svc, "git_read_files", {"repo_url": CO_URL, "file_paths": ["config/settings.yaml", "nope.txt"]})
    assert files["files"]["config/settings.yaml"] == "service: checkout-api\nport: 8080\ntimeout_seconds: 5\nretries: 3\n"
    assert files["errors"] == {"nope.txt": "file not found"}
    assert code(svc, "git_read_files", {"repo_url": CO_URL, "file_paths": ["nope.txt"]}) == 404
    assert code(svc, "git_directory_structure", {"repo_url": "https://github.com/acme/unknown"}) == 404
    diff = ok(svc, "git_branch_diff", {"repo_url": CO_URL, "source_branch": "fix/checkout-api-timeouts",
                                       "target_branch": "main", "show_patch": True})
    assert (diff["merge_base"], [c["hash"] for c in diff["commits_ahead"]], diff["commits_behind"]) == (MAIN, [FIX], 0)
    assert diff["files"][0]["path"] == "src/checkout_api/client.py" and "+TIMEOUT = 10" in diff["files"][0]["patch"]
    assert code(svc, "git_branch_diff", {"repo_url": CO_URL, "source_branch": "feature/checkout-api-retries",
                                         "target_branch": "main"}) == 404  # never pushed


def test_history_details_and_code_search(svc):
    log = ok(svc, "git_commit_history", {"repo_url": CO_URL, "max_count": 3})["commits"]
    assert [(c["short_hash"], c["author_email"]) for c in log] == [
        ("02887d9", "kenji.watanabe@company.example"), ("a879ed5", "rachel.adeyemi@company.example"),
        ("9c3e657", "kenji.watanabe@company.example")]
    assert [c["message"] for c in ok(svc, "git_commit_history", {"repo_url": CO_URL, "author": "rachel",
                                                                 "grep": "retr"})["commits"]] == [
        "Add retries to the upstream client"]
    assert len(ok(svc, "git_commit_history", {"repo_url": CO_URL, "since": "1 week ago"})["commits"]) == 1
    assert len(ok(svc, "git_commit_history", {"repo_url": CO_URL, "until": "2025-12-01"})["commits"]) == 2
    assert code(svc, "git_commit_history", {"repo_url": CO_URL, "since": "the other day"}) == 422
    assert code(svc, "git_commit_history", {"repo_url": CO_URL, "grep": "("}) == 422
    det = ok(svc, "git_commits_details", {"repo_url": CO_URL, "max_count": 1, "include_diff": True})["commits"][0]
    assert [f["path"] for f in det["files"]] == ["config/settings.yaml", "src/checkout_api/app.py"]
    assert "+retries: 3" in det["files"][0]["patch"] and det["parents"] == ["a879ed54f396cb786f23831e858120546477e3d5"]
    hits = ok(svc, "git_search_code", {"repo_url": CO_URL, "pattern": "timeout", "file_patterns": ["*.yaml"]})
    assert [(m["file"], m["line"], m["context_before"]) for m in hits["matches"]] == [
        ("config/settings.yaml", 3, ["service: checkout-api", "port: 8080"])]
    assert ok(svc, "git_search_code", {"repo_url": CO_URL, "pattern": "TIMEOUT", "case_sensitive": True})[
        "total_matches"] == 1
    assert code(svc, "git_search_code", {"repo_url": CO_URL, "pattern": "[a"}) == 422


def test_local_changes_and_blame(svc):
    co = ok(svc, "git_local_changes", {"repo_path": CO})
    assert (co["unstaged"], co["untracked"], co["staged"], co["clean"]) == (
        [{"path": "README.md", "status": "modified"}], ["scratch/notes.txt"], [], False)
    pay = ok(svc, "git_local_changes", {"repo_path": PAY + "/"})
    assert (pay["branch"], pay["staged"]) == ("fix/payments-service-timeouts",
                                              [{"path": "tests/test_app.py", "status": "modified"}])
    ok(svc, "git_checkout_branch", {"repo_path": PAY, "branch_name": "main"})
    assert (ok(svc, "git_local_changes", {"repo_path": PAY})["behind"]) == 1
    lines = ok(svc, "git_blame", {"repo_path": CO, "file_path": "config/settings.yaml"})["lines"]
    assert [(ln["line"], ln["sha"], ln["content"]) for ln in lines][2:] == [
        (3, "8b4a1ad4", "timeout_seconds: 5"), (4, "02887d9a", "retries: 3")]
    assert ok(svc, "git_blame", {"repo_path": CO, "file_path": "config/settings.yaml", "rev": "HEAD~1"})["lines"][3][
        "content"] == "retries: 2"
    assert code(svc, "git_blame", {"repo_path": CO, "file_path": "missing.py"}) == 404
    assert code(svc, "git_local_changes", {"repo_path": "/tmp/nowhere"}) == 404


def test_checkout_create_and_delete_branches(svc):
    new = ok(svc, "git_checkout_branch", {"repo_path": CO, "branch_name": "fix/readme", "create": True,
                                          "start_point": "v1.4.0"})
    assert (new["result"], new["head"]) == ("created", "9c3e6577a79fd0bc010770964620cf6cded105d9")
    assert ok(svc, "git_local_changes", {"repo_path": CO})["unstaged"] == [{"path": "README.md", "status": "modified"}]
    assert code(svc, "git_checkout_branch", {"repo_path": CO, "branch_name": "fix/readme", "create": True}) == 409
    assert code(svc, "git_checkout_branch", {"repo_path": CO, "branch_name": "bad name", "create": True}) == 422
    assert code(svc, "git_checkout_branch", {"repo_path": CO, "branch_name": "nope"}) == 404
    assert ok(svc, "git_checkout_branch", {"repo_path": CO, "branch_name": "fix/readme"})["result"] == "already_on"
    assert code(svc, "git_delete_branch", {"repo_path": CO, "branch_name": "fix/readme"}) == 409  # checked out
    ok(svc, "git_checkout_branch", {"repo_path": CO, "branch_name": "main"})
    assert "not fully merged" in error(svc, "git_delete_branch", {"repo_path": CO,
                                                                  "branch_name": "feature/checkout-api-retries"})["message"]
    assert ok(svc, "git_delete_branch", {"repo_path": CO, "branch_name": "feature/checkout-api-retries",
                                         "force": True})["merged"] is False
    assert ok(svc, "git_delete_branch", {"repo_path": CO, "branch_name": "docs/runbook"})["merged"] is True
    tracked = ok(svc, "git_checkout_branch", {"repo_path": CO, "branch_name": "docs/runbook"})  # only on origin now
    assert tracked["upstream"] == "origin/docs/runbook"


def test_checkout_refuses_to_overwrite_local_changes(svc):
    ok(svc, "git_stash", {"repo_path": AUTH, "action": "pop"})
    msg = error(svc, "git_checkout_branch", {"repo_path": AUTH, "branch_name": "feature/auth-service-retries"})
    assert msg["code"] == 409 and "config/settings.yaml" in msg["message"]


def test_merges_fast_forward_commit_or_conflict(svc):
    msg = error(svc, "git_merge_branch", {"repo_path": CO, "source_branch": "feature/checkout-api-retries"})
    assert msg["code"] == 409 and "merge conflict in config/settings.yaml" in msg["message"]
    assert ok(svc, "git_merge_branch", {"repo_path": CO, "source_branch": "docs/runbook"})["result"] == "up_to_date"
    merged = ok(svc, "git_merge_branch", {"repo_path": CO, "source_branch": "fix/checkout-api-timeouts",
                                          "no_fast_forward": True})
    c = svc.state.commits[merged["head"]]
    assert (merged["result"], c.parents, c.message, c.author_email) == (
        "merge_commit", [MAIN, FIX], "Merge branch 'fix/checkout-api-timeouts'", "ops@company.example")
    ff = ok(svc, "git_merge_branch", {"repo_path": PAY, "source_branch": "origin/main", "target_branch": "main"})
    assert (ff["result"], ff["branch"], ff["head"]) == ("fast_forward", "main",
                                                        svc.state.repositories[PAY].remote_branches["main"])


def test_track_and_commit_with_the_ticket_hook(svc):
    assert code(svc, "git_commit", {"repo_path": CO, "message": "KQ-1 notes"}) == 409  # nothing staged
    assert code(svc, "git_track", {"repo_path": CO, "files": ["docs/none.md"]}) == 404
    staged = ok(svc, "git_track", {"repo_path": CO, "files": ["README.md"]})
    assert (staged["staged"], staged["unstaged"]) == (["README.md"], ["scratch/notes.txt"])
    assert "must match" in error(svc, "git_commit", {"repo_path": CO, "message": "Local notes"})["message"]
    res = ok(svc, "git_commit", {"repo_path": CO, "message": "KQ-4821 document the staging port"})
    tree = svc.state.commits[res["commit"]].tree
    assert res["commit"] == commit_sha(tree, [MAIN], "Ops Bot", "ops@company.example",
                                       "KQ-4821 document the staging port")
    assert (res["files"], head(svc, CO), svc.state.repositories[CO].staged) == (["README.md"], res["commit"], {})
    everything = ok(svc, "git_track", {"repo_path": CO})
    assert everything["staged"] == ["scratch/notes.txt"]


def test_a_commit_needs_an_identity(svc, make_service):
    state = svc.state_dict()
    state["global_config"] = {}
    bare = make_service(GitCommands, state=state)
    ok(bare, "git_track", {"repo_path": CO, "files": ["README.md"]})
    assert "tell me who you are" in error(bare, "git_commit", {"repo_path": CO, "message": "AB-1 x"})["message"]
    assert code(bare, "git_config", {"repo_path": CO, "key": "user.email", "value": "not-an-email"}) == 422
    assert code(bare, "git_config", {"repo_path": CO, "key": "useremail", "value": "a@b.co"}) == 422
    ok(bare, "git_config", {"repo_path": CO, "key": "user.name", "value": "Ben Foster", "scope": "global"})
    prev = ok(bare, "git_config", {"repo_path": CO, "key": "user.email", "value": "ben.foster@company.example"})
    assert (prev["scope"], prev["previous"]) == ("local", None)
    assert ok(bare, "git_commit", {"repo_path": CO, "message": "AB-1 x"})["author_email"] == "ben.foster@company.example"


def test_push_and_pull_against_origin(svc):
    ok(svc, "git_checkout_branch", {"repo_path": PAY, "branch_name": "main"})
    ok(svc, "git_track", {"repo_path": PAY})
    ok(svc, "git_commit", {"repo_path": PAY, "message": "PAY-12 cover timeouts"})
    msg = error(svc, "git_push", {"repo_path": PAY})
    assert msg["code"] == 409 and "non-fast-forward" in msg["message"]
    assert code(svc, "git_push", {"repo_path": PAY, "remote": "upstream"}) == 404
    pulled = ok(svc, "git_pull", {"repo_path": PAY})
    merge = svc.state.commits[pulled["head"]]
    assert (pulled["result"], merge.message) == ("merge_commit", "Merge branch 'main' of "
                                                                 "https://github.com/acme/payments-service.git")
    pushed = ok(svc, "git_push", {"repo_path": PAY})
    assert (pushed["result"], svc.state.repositories[PAY].remote_branches["main"]) == ("pushed", pulled["head"])
    assert ok(svc, "git_push", {"repo_path": PAY})["result"] == "up_to_date"
    ok(svc, "git_checkout_branch", {"repo_path": CO, "branch_name": "release/1.5", "create": True})
    new = ok(svc, "git_push", {"repo_path": CO})
    assert (new["old_head"], svc.state.repositories[CO].branches["release/1.5"].upstream) == (None,
                                                                                              "origin/release/1.5")


def test_pull_rebase_and_forced_push(svc):
    ok(svc, "git_checkout_branch", {"repo_path": AUTH, "branch_name": "main"})
    ok(svc, "git_stash", {"repo_path": AUTH, "action": "pop"})
    ok(svc, "git_track", {"repo_path": AUTH})
    local = ok(svc, "git_commit", {"repo_path": AUTH, "message": "Longer timeout"})["commit"]
    rebased = ok(svc, "git_pull", {"repo_path": AUTH, "rebase": True})
    new = svc.state.commits[rebased["head"]]
    assert (rebased["result"], new.message, new.parents) == (
        "rebased", "Longer timeout", [svc.state.repositories[AUTH].remote_branches["main"]])
    assert new.sha != local
    ok(svc, "git_reset", {"repo_path": AUTH, "mode": "hard", "to": "HEAD~2"})
    assert code(svc, "git_push", {"repo_path": AUTH}) == 409
    assert ok(svc, "git_push", {"repo_path": AUTH, "force": True})["result"] == "forced"


def test_rebase(svc):
    assert code(svc, "git_rebase", {"repo_path": CO, "onto": "main", "interactive": True}) == 422
    assert code(svc, "git_rebase", {"repo_path": CO, "onto": "fix/checkout-api-timeouts"}) == 409  # local edits
    ok(svc, "git_stash", {"repo_path": CO})
    ok(svc, "git_checkout_branch", {"repo_path": CO, "branch_name": "feature/checkout-api-retries"})
    msg = error(svc, "git_rebase", {"repo_path": CO, "onto": "main"})
    assert msg["code"] == 409 and "conflict in config/settings.yaml" in msg["message"]
    ok(svc, "git_checkout_branch", {"repo_path": CO, "branch_name": "main"})
    assert ok(svc, "git_rebase", {"repo_path": CO, "onto": "fix/checkout-api-timeouts"})["result"] == "fast_forward"
    assert ok(svc, "git_rebase", {"repo_path": CO, "onto": "v1.4.0"})["result"] == "up_to_date"


def test_stash_save_list_apply_drop(svc):
    assert ok(svc, "git_stash", {"repo_path": AUTH, "action": "list"})["stashes"][0]["message"] == \
        "WIP on main: tweak timeout"
    assert code(svc, "git_stash", {"repo_path": AUTH}) == 409  # nothing to save
    assert code(svc, "git_stash", {"repo_path": AUTH, "action": "apply", "index": 3}) == 404
    ok(svc, "git_stash", {"repo_path": AUTH, "action": "apply"})
    assert code(svc, "git_stash", {"repo_path": AUTH, "action": "apply"}) == 409  # clashes with the applied change
    saved = ok(svc, "git_stash", {"repo_path": AUTH, "message": "second"})
    assert (saved["ref"], len(svc.state.repositories[AUTH].stash)) == ("stash@{0}", 2)
    assert ok(svc, "git_stash", {"repo_path": AUTH, "action": "drop", "index": 1})["message"] == \
        "WIP on main: tweak timeout"
    popped = ok(svc, "git_stash", {"repo_path": AUTH, "action": "pop"})
    assert (popped["restored"], svc.state.repositories[AUTH].stash) == (["config/settings.yaml"], [])
    co = ok(svc, "git_stash", {"repo_path": CO})
    assert co["message"].startswith("WIP on main: 02887d9")
    assert svc.state.repositories[CO].unstaged == {"scratch/notes.txt": "todo: tidy logs\n"}  # untracked stays


def test_tags(svc):
    tag = ok(svc, "git_create_tag", {"repo_path": CO, "tag_name": "v1.5.0", "message": "Release 1.5.0"})
    assert (tag["sha"], tag["annotated"], tag["tagger_email"]) == (MAIN, True, "ops@company.example")
    assert code(svc, "git_create_tag", {"repo_path": CO, "tag_name": "v1.5.0"}) == 409
    assert code(svc, "git_create_tag", {"repo_path": CO, "tag_name": "v1..6"}) == 422
    light = ok(svc, "git_create_tag", {"repo_path": CO, "tag_name": "deployed", "annotated": False})
    assert (light["message"], light["tagger_email"]) == (None, None)
    assert ok(svc, "git_create_tag", {"repo_path": CO, "tag_name": "rc1"})["message"] == "rc1"


def test_reset_modes(svc):
    soft = ok(svc, "git_reset", {"repo_path": CO, "mode": "soft", "to": "HEAD~1"})
    repo = svc.state.repositories[CO]
    assert (soft["head"][:7], sorted(repo.staged), sorted(repo.unstaged)) == (
        "a879ed5", ["config/settings.yaml", "src/checkout_api/app.py"], ["README.md", "scratch/notes.txt"])
    ok(svc, "git_reset", {"repo_path": CO})
    repo = svc.state.repositories[CO]
    assert (repo.staged, sorted(repo.unstaged)) == ({}, ["README.md", "config/settings.yaml", "scratch/notes.txt",
                                                         "src/checkout_api/app.py"])
    ok(svc, "git_reset", {"repo_path": CO, "mode": "hard", "to": MAIN[:8]})
    assert (head(svc, CO), svc.state.repositories[CO].unstaged) == (MAIN, {"scratch/notes.txt": "todo: tidy logs\n"})
    assert code(svc, "git_reset", {"repo_path": CO, "to": "HEAD~9"}) == 404


def test_revert(svc):
    res = ok(svc, "git_revert", {"repo_path": CO})
    c = svc.state.commits[res["head"]]
    assert (c.parents, c.message) == ([MAIN], f'Revert "Handle empty upstream responses in checkout-api"\n\n'
                                              f"This reverts commit {MAIN}.")
    assert c.tree == svc.state.commits["a879ed54f396cb786f23831e858120546477e3d5"].tree
    assert code(svc, "git_revert", {"repo_path": CO, "commit": MAIN}) == 409  # already undone
    assert code(svc, "git_revert", {"repo_path": CO, "commit": "v1.3.0"}) == 422  # the root commit
    ok(svc, "git_merge_branch", {"repo_path": CO, "source_branch": "fix/checkout-api-timeouts", "no_fast_forward": True})
    assert code(svc, "git_revert", {"repo_path": CO}) == 422  # a merge commit
    staged = ok(svc, "git_revert", {"repo_path": WEB, "no_commit": True})
    assert (staged["result"], staged["staged"]) == ("staged", [".gitattributes", "assets/logo.psd"])


def test_archive_attributes_and_clean(svc):
    arc = ok(svc, "git_archive", {"repo_path": CO, "output_path": "/tmp/co.zip", "prefix": "checkout-api/",
                                  "treeish": "v1.3.0"})
    assert (arc["sha"][:7], arc["files"][0], len(arc["files"])) == ("8b4a1ad", "checkout-api/CHANGELOG.md", 6)
    assert code(svc, "git_archive", {"repo_path": CO, "output_path": "/tmp/co.tar", "format": "zip"}) == 422
    assert ok(svc, "git_attributes", {"repo_path": WEB, "action": "get", "pattern": "*.png"})["attributes"] == ["binary"]
    ok(svc, "git_attributes", {"repo_path": CO, "action": "set", "pattern": "*.sh", "attribute": "text eol=lf"})
    assert ok(svc, "git_attributes", {"repo_path": CO, "action": "list"})["attributes"] == [
        {"pattern": "*.sh", "attributes": ["text", "eol=lf"]}]
    assert ok(svc, "git_local_changes", {"repo_path": CO})["untracked"] == [".gitattributes", "scratch/notes.txt"]
    assert code(svc, "git_attributes", {"repo_path": CO, "action": "get"}) == 422
    assert ok(svc, "git_clean", {"repo_path": CO})["would_remove"] == [".gitattributes"]
    assert ok(svc, "git_clean", {"repo_path": CO, "directories": True})["would_remove"] == [".gitattributes",
                                                                                           "scratch/notes.txt"]
    assert "requireForce" in error(svc, "git_clean", {"repo_path": CO, "dry_run": False})["message"]
    ok(svc, "git_clean", {"repo_path": CO, "dry_run": False, "force": True, "directories": True})
    assert svc.state.repositories[CO].unstaged.keys() == {"README.md"}


def test_hooks(svc):
    names = [h["name"] for h in ok(svc, "git_hooks", {"repo_path": CO, "action": "list"})["hooks"]]
    assert names == ["pre-commit", "commit-msg"]
    assert "grep -qE" in ok(svc, "git_hooks", {"repo_path": CO, "action": "get", "hook_name": "commit-msg"})["script"]
    assert ok(svc, "git_hooks", {"repo_path": CO, "action": "disable", "hook_name": "commit-msg"})["enabled"] is False
    ok(svc, "git_track", {"repo_path": CO, "files": ["README.md"]})
    assert ok(svc, "git_commit", {"repo_path": CO, "message": "notes without a ticket"})["files"] == ["README.md"]
    assert code(svc, "git_hooks", {"repo_path": CO, "action": "create", "hook_name": "pre-deploy", "script": "x"}) == 422
    assert code(svc, "git_hooks", {"repo_path": CO, "action": "create", "hook_name": "post-merge"}) == 422
    assert code(svc, "git_hooks", {"repo_path": CO, "action": "enable", "hook_name": "post-merge"}) == 404
    made = ok(svc, "git_hooks", {"repo_path": CO, "action": "create", "hook_name": "post-merge",
                                 "script": "#!/bin/sh\nmake deps\n"})
    assert made["enabled"] is True


def test_lfs(svc):
    listed = ok(svc, "git_lfs", {"repo_path": WEB, "action": "list"})
    assert (listed["patterns"], listed["files"]) == (["*.psd"], ["assets/logo.psd"])
    fetched = ok(svc, "git_lfs_fetch", {"repo_path": WEB})
    assert (fetched["objects"], fetched["fetched"]) == ([{"path": "assets/logo.psd", "size": 482113}], 1)
    assert ok(svc, "git_lfs_fetch", {"repo_path": WEB, "dry_run": True})["fetched"] == 0
    tracked = ok(svc, "git_lfs", {"repo_path": WEB, "action": "track", "patterns": ["*.mp4"]})
    assert tracked["patterns"] == ["*.psd", "*.mp4"]
    assert ok(svc, "git_local_changes", {"repo_path": WEB})["unstaged"] == [{"path": ".gitattributes",
                                                                           "status": "modified"}]
    assert code(svc, "git_lfs", {"repo_path": WEB, "action": "untrack", "patterns": ["*.zip"]}) == 404
    assert code(svc, "git_lfs", {"repo_path": WEB, "action": "track"}) == 422
    assert code(svc, "git_lfs", {"repo_path": CO, "action": "track", "patterns": ["*.bin"]}) == 409
    assert code(svc, "git_lfs_fetch", {"repo_path": CO}) == 409
    assert ok(svc, "git_lfs", {"repo_path": CO, "action": "install"})["installed"] is True
    assert ok(svc, "git_lfs", {"repo_path": CO, "action": "track", "patterns": ["*.bin"]})["patterns"] == ["*.bin"]
