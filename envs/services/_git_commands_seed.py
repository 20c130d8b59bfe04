"""Seed data of the git_commands service: clones of the company's application repositories.

One repository per application of the shared engineering catalog
(:mod:`._engineering`: ``acme/checkout-api``...), cloned at
``/srv/repos/acme/<app>`` with origin at ``https://github.com/acme/<app>.git``;
commits are by the owning team's engineers (the same people deployments,
monitoring and on-call name). Each has a release tag, an unmerged
``fix/<app>-timeouts`` branch (the branch CI builds), a merged docs branch,
and a local ``feature/<app>-retries`` branch that conflicts with main. Some
clones are behind origin, one has local edits and an untracked file, one is
on a feature branch with a staged change, one has a stash, and two enforce a
ticket reference in commit messages with a commit-msg hook.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._blocks import stamp
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._engineering import APPS, App, team_engineers
from compoworld_gym.envs.services._git_commands_models import (
    LFS_ATTRS, Branch, Commit, GitState, Hook, Repository, StashEntry, Tag,
)
from compoworld_gym.envs.services._git_commands_rules import apply, make_commit

ROOT = "/srv/repos"
HOST = "https://github.com"
#: The agent's identity (global config): the operations bot.
BOT_NAME, BOT_EMAIL = "Ops Bot", OPS_EMAIL
#: The commit-msg hook the two payment repositories install: a ticket reference is required.
TICKET_HOOK = "#!/bin/sh\n# Every commit must reference a ticket or case, e.g. KQ-4821.\n" \
              "grep -qE '[A-Z]{2,}-[0-9]+' \"$1\" || { echo 'commit message must reference a ticket'; exit 1; }\n"


def repo_path(app_key: str, org: str = "acme") -> str:
    """The local path of the clone of ``org/app_key``."""
    return f"{ROOT}/{org}/{app_key}"


def repo_url(app_key: str, org: str = "acme") -> str:
    """The origin URL of ``org/app_key``."""
    return f"{HOST}/{org}/{app_key}.git"


def base_files(key: str, name: str, team: str) -> dict[str, str]:
    """The files of a fresh application repository."""
    mod = key.replace("-", "_")
    return {
        "README.md": f"# {name}\n\nService `{key}`, owned by the {team} team.\n\nRun locally with `make dev`.\n",
        "config/settings.yaml": f"service: {key}\nport: 8080\ntimeout_seconds: 5\nretries: 2\n",
        f"src/{mod}/app.py": "from .client import fetch\n\n\ndef handle(request):\n"
                             "    data = fetch(request['id'])\n    return {'status': 'ok', 'data': data}\n",
        f"src/{mod}/client.py": "TIMEOUT = 5\n\n\ndef fetch(key):\n    return {'key': key}\n",
        "tests/test_app.py": f"from {mod}.app import handle\n\n\ndef test_handle():\n"
                             "    assert handle({'id': 1})['status'] == 'ok'\n",
        "CHANGELOG.md": "# Changelog\n\n## 1.3.0\n- First tracked release.\n",
    }


def _commit(state: GitState, path: str, parent: Commit | None, changes: dict, who, message: str,
            when: dt.datetime) -> Commit:
    tree = apply(parent.tree if parent else {}, changes)
    c = make_commit(path, tree, [parent.sha] if parent else [], who.name, who.email, message, when)
    state.commits[c.sha] = c
    return c


def _repo(state: GitState, app: App, k: int, rng: random.Random, today: dt.date) -> Repository:
    a, b = (team_engineers(app.team) * 2)[:2]
    org, key = app.repo.split("/")
    path, mod = repo_path(key, org), key.replace("-", "_")
    files = base_files(key, app.name, app.team)
    c1 = _commit(state, path, None, files, a, "Initial commit", stamp(today, 120 + k, rng))
    c2 = _commit(state, path, c1, {f"src/{mod}/client.py": files[f"src/{mod}/client.py"].replace(
        "return {'key': key}", "for attempt in range(3):\n        return {'key': key, 'attempt': attempt}")},
        b, "Add retries to the upstream client", stamp(today, 60 + k, rng))
    c3 = _commit(state, path, c2, {"CHANGELOG.md": files["CHANGELOG.md"].replace(
        "# Changelog\n", "# Changelog\n\n## 1.4.0\n- Client retries.\n")}, a, "Release 1.4.0",
        stamp(today, 30 + k, rng))
    docs = _commit(state, path, c3, {"docs/RUNBOOK.md": f"# {app.name} runbook\n\nPage #incidents first.\n"},
                   b, "Add runbook", stamp(today, 20 + k, rng))
    c4 = _commit(state, path, docs, {"config/settings.yaml": files["config/settings.yaml"].replace("retries: 2",
                                                                                                   "retries: 3"),
                                     f"src/{mod}/app.py": files[f"src/{mod}/app.py"].replace(
                                         "return {'status': 'ok', 'data': data}",
                                         "return {'status': 'ok', 'data': data or {}}")},
                 a, f"Handle empty upstream responses in {key}", stamp(today, 4 + k % 3, rng))
    fix = _commit(state, path, c4, {f"src/{mod}/client.py": c4.tree[f"src/{mod}/client.py"].replace(
        "TIMEOUT = 5", "TIMEOUT = 10")}, b, f"Raise {key} client timeout to 10s", stamp(today, 2, rng))
    feat = _commit(state, path, c3, {"config/settings.yaml": files["config/settings.yaml"].replace(
        "retries: 2", "retries: 5")}, b, "Try five retries", stamp(today, 9, rng))
    repo = Repository(
        path=path, name=app.repo, url=repo_url(key, org), project=app.key, head="main",
        branches={"main": Branch(name="main", head=c4.sha, upstream="origin/main"),
                  f"fix/{key}-timeouts": Branch(name=f"fix/{key}-timeouts", head=fix.sha,
                                                upstream=f"origin/fix/{key}-timeouts"),
                  f"feature/{key}-retries": Branch(name=f"feature/{key}-retries", head=feat.sha),
                  "docs/runbook": Branch(name="docs/runbook", head=docs.sha, upstream="origin/docs/runbook")},
        remote_branches={"main": c4.sha, f"fix/{key}-timeouts": fix.sha, "docs/runbook": docs.sha},
        tags=[Tag(name="v1.3.0", sha=c1.sha, annotated=False),
              Tag(name="v1.4.0", sha=c3.sha, annotated=True, message="Release 1.4.0", tagger_email=a.email,
                  created_at=c3.authored_at)],
        config={"core.autocrlf": "input", "pull.rebase": "false"},
        hooks={"pre-commit": Hook(name="pre-commit", script="#!/bin/sh\nmake lint\n", enabled=False)})
    return repo


def build_state(rng: random.Random, today: dt.date) -> GitState:
    """Seven clones with history, branches, tags, hooks and a few local situations."""
    state = GitState(global_config={"user.name": BOT_NAME, "user.email": BOT_EMAIL, "init.defaultBranch": "main"},
                     system_config={"core.editor": "vi"})
    for k, app in enumerate(APPS):
        repo = _repo(state, app, k, rng, today)
        state.repositories[repo.path] = repo
    repos = list(state.repositories.values())
    for repo in repos[:2]:  # the payment repositories require a ticket in every commit message
        repo.hooks["commit-msg"] = Hook(name="commit-msg", script=TICKET_HOOK, enabled=True)
    for repo in (repos[1], repos[4]):  # a teammate pushed to main since the last pull
        tip = state.commits[repo.remote_branches["main"]]
        who = team_engineers(next(a.team for a in APPS if a.key == repo.project))[-1]
        ahead = _commit(state, repo.path, tip, {"README.md": tip.tree["README.md"] + "\nSee docs/RUNBOOK.md.\n"},
                        who, "Link the runbook from the README", stamp(today, 1, rng))
        repo.remote_branches["main"] = ahead.sha
    checkout = repos[0]  # local edits and an untracked file
    checkout.unstaged = {"README.md": state.commits[checkout.branches["main"].head].tree["README.md"]
                         + "\nLocal notes: staging uses port 8081.\n", "scratch/notes.txt": "todo: tidy logs\n"}
    payments = repos[1]  # on the fix branch with a staged test change
    payments.head = "fix/payments-service-timeouts"
    test = state.commits[payments.branches[payments.head].head].tree["tests/test_app.py"]
    payments.staged = {"tests/test_app.py": test + "\n\ndef test_timeout():\n    assert True\n"}
    auth = repos[4]  # a stash of a half-done change
    base = auth.branches["main"].head
    auth.stash = [StashEntry(message="WIP on main: tweak timeout", branch="main", base=base,
                             unstaged={"config/settings.yaml": state.commits[base].tree["config/settings.yaml"]
                                       .replace("timeout_seconds: 5", "timeout_seconds: 8")},
                             created_at=stamp(today, 3, rng))]
    web = repos[2]  # design assets in git-lfs
    web.lfs_installed = True
    web.hooks["pre-push"] = Hook(name="pre-push", script="#!/bin/sh\ngit lfs pre-push \"$@\"\n", enabled=True)
    tip = state.commits[web.branches["main"].head]
    who = team_engineers("storefront")[1]
    lfs = _commit(state, web.path, tip, {".gitattributes": f"*.psd {LFS_ATTRS}\n*.png binary\n",
                                         "assets/logo.psd": "version https://git-lfs.github.com/spec/v1\n"
                                         "oid sha256:4d7a2146\nsize 482113\n"},
                  who, "Track design sources with git-lfs", stamp(today, 3, rng))
    web.branches["main"].head = web.remote_branches["main"] = lfs.sha
    return state
