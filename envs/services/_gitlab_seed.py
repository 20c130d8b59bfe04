"""Seed data of the ``gitlab`` service: the ``acme`` group's projects.

The projects are the shared application catalog (:mod:`._engineering`): each
app's repository ``acme/<key>`` (the ``repo`` the deployments service names),
with a CODEOWNERS file naming the owning team's lead engineer, plus the
``acme/ops-runbooks`` project and the archived ``acme/legacy-admin``. Users
are the shared engineers (same names and emails as monitoring or on-call),
and the agent acts as the ``ops-bot`` account, a Developer of the group (so
the protected ``main`` branches take changes only through merge requests).
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._blocks import stamp
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._engineering import APPS, ENG_MANAGER, ENGINEERS, team_engineers
from compoworld_gym.envs.services._gitlab_models import (
    Branch, GitlabState, GitlabUser, Issue, MergeRequest, Milestone, Namespace, Project,
)
from compoworld_gym.envs.services._gitlab_rules import new_commit

GROUP = "acme"
BOT = "ops-bot"
#: First numeric ids of each kind (GitLab ids are global integers).
FIRST_PROJECT, FIRST_NAMESPACE, FIRST_MILESTONE = 1001, 101, 501
LABELS = ["bug", "incident", "enhancement", "security", "tech-debt", "documentation"]

#: (app key, branch, changed file, new content, merge request: None or (title, state, draft, description)).
BRANCH_WORK: tuple[tuple[str, str, str, str, tuple[str, str, bool, str] | None], ...] = (
    ("checkout-api", "fix/checkout-api-timeouts", "config/settings.yaml",
     "upstream_timeout_ms: 2500\nretries: 2\n",
     ("Raise the payment upstream timeout to 2.5 s", "opened", False,
      "Checkout calls to payments time out under load; raises the timeout and caps retries.")),
    ("checkout-api", "feature/idempotency-keys", "src/idempotency.py",
     "def key_for(order_id, attempt):\n    return f'{order_id}:{attempt}'\n",
     ("Idempotency keys for order submission", "opened", True, "Work in progress: keys per submit attempt.")),
    ("payments-service", "fix/payments-retry-budget", "config/settings.yaml",
     "upstream_timeout_ms: 1500\nretries: 1\n",
     ("Cut the retry budget to one retry", "merged", False, "Retries doubled the load during the last outage.")),
    ("web-frontend", "feature/dark-mode", "src/theme.css", ":root { --bg: #111; --fg: #eee; }\n",
     ("Dark mode theme", "opened", False, "Adds a dark theme behind the user's OS setting.")),
    ("search-api", "fix/search-api-pool-size", "config/settings.yaml", "upstream_timeout_ms: 800\npool_size: 40\n",
     ("Double the connection pool", "closed", False, "Superseded by the autoscaling change.")),
    ("auth-service", "chore/bump-jwt", "requirements.txt", "pyjwt==2.9.0\ncryptography==43.0.1\n", None),
    ("reporting-etl", "fix/reporting-etl-null-totals", "etl/totals.py",
     "def total(rows):\n    return sum(r.get('amount') or 0 for r in rows)\n",
     ("Treat missing amounts as zero in totals", "opened", False, "Month-end export failed on rows without amount.")),
)

#: (app key, title, description, labels, state).
ISSUES: tuple[tuple[str, str, str, tuple[str, ...], str], ...] = (
    ("checkout-api", "Payment upstream timeouts at peak", "p95 above 2 s between 12:00 and 13:00.",
     ("bug", "incident"), "opened"),
    ("checkout-api", "Document the order submit retry policy", "Nobody knows how many retries we do.",
     ("documentation",), "opened"),
    ("payments-service", "Refund webhook signature not verified", "We accept unsigned webhook calls.",
     ("security", "bug"), "opened"),
    ("web-frontend", "Cart badge stale after removing an item", "Steps: add two items, remove one.", ("bug",),
     "opened"),
    ("web-frontend", "Remove the legacy checkout page", "The old page is unused since v3.", ("tech-debt",), "closed"),
    ("search-api", "Synonyms for product search", "'sofa' should find 'couch'.", ("enhancement",), "opened"),
    ("auth-service", "Rotate the JWT signing key", "Yearly rotation is due.", ("security",), "opened"),
    ("notifications-worker", "Email queue backlog after deploys", "Workers restart slowly.", ("bug",), "opened"),
    ("reporting-etl", "Month-end export fails on null amounts", "TypeError in totals.", ("bug", "incident"),
     "opened"),
    ("ops-runbooks", "Runbook for payment provider outage", "We had no checklist last time.", ("documentation",),
     "opened"),
)


def _files(key: str, name: str, owner: str) -> dict[str, str]:
    module = key.replace("-", "_")
    return {"README.md": f"# {name}\n\nOwned by the {key} team. See CODEOWNERS for reviewers.\n",
            "CODEOWNERS": f"# Reviewers for every change\n* {owner}\n",
            ".gitlab-ci.yml": "stages: [test, deploy]\ntest:\n  script: make test\n",
            "config/settings.yaml": "upstream_timeout_ms: 1000\nretries: 3\n",
            f"src/{module}.py": f"def handler(event):\n    return {{'service': '{key}', 'ok': True}}\n"}


def _users() -> list[GitlabUser]:
    people = [(p.name, p.email) for p in (*ENGINEERS, ENG_MANAGER)]
    out = [GitlabUser(id=1, username=BOT, name="Operations Bot", email=OPS_EMAIL, bot=True)]
    out += [GitlabUser(id=n, username=email.split("@")[0], name=name, email=email)
            for n, (name, email) in enumerate(people, start=2)]
    return out


def _project(state: GitlabState, pid: int, path: str, name: str, description: str, files: dict[str, str],
             author: GitlabUser, when: dt.datetime, archived: bool = False) -> Project:
    project = Project(id=pid, name=name, path=path, namespace=GROUP, description=description, visibility="internal",
                      default_branch="main", archived=archived, created_at=when, protected_branches=["main"],
                      labels=list(LABELS))
    main = Branch(name="main")
    new_commit(main, "Initial commit", dict(files), author, when)
    project.branches["main"] = main
    state.projects[str(pid)] = project
    return project


def _seed_projects(state: GitlabState, rng: random.Random, today: dt.date) -> dict[str, Project]:
    users = list(state.users.values())
    by_email = {u.email: u for u in users}
    projects: dict[str, Project] = {}
    pid = FIRST_PROJECT
    for app in APPS:
        owner = team_engineers(app.team)[0].email
        projects[app.key] = _project(state, pid, app.key, app.name, f"{app.name} ({app.team} team)",
                                     _files(app.key, app.name, owner), by_email[owner], stamp(today, 400, rng))
        pid += 1
    runbooks = {"README.md": "# Ops runbooks\n\nOne runbook per service under runbooks/.\n",
                "runbooks/checkout-api.md": "# Checkout API\n\n1. Check the error rate.\n2. Roll back.\n"}
    projects["ops-runbooks"] = _project(state, pid, "ops-runbooks", "Ops Runbooks", "Operational procedures",
                                        runbooks, users[1], stamp(today, 300, rng))
    projects["legacy-admin"] = _project(state, pid + 1, "legacy-admin", "Legacy Admin", "Retired back-office UI",
                                        {"README.md": "# Legacy admin\n\nRetired; read-only.\n"}, users[2],
                                        stamp(today, 900, rng), archived=True)
    state.counters["project"] = pid + 2
    return projects


def _seed_work(state: GitlabState, projects: dict[str, Project], rng: random.Random, today: dt.date) -> None:
    staff = [u for u in state.users.values() if not u.bot]
    for key, branch, path, content, mr in BRANCH_WORK:
        project, author = projects[key], rng.choice(staff)
        main = project.branches["main"]
        work = Branch(name=branch, files=dict(main.files), commits=list(main.commits))
        when = stamp(today, rng.randint(2, 9), rng)
        commit = new_commit(work, f"Update {path}", {path: content}, author, when)
        project.branches[branch] = work
        if mr is None:
            continue
        title, status, draft, description = mr
        if status == "merged":  # a fast-forward merge: main gets the branch's commit
            main.files[path] = content
            main.commits.append(commit)
        iid = state.counters.get(f"mr:{project.id}", 1)
        state.counters[f"mr:{project.id}"] = iid + 1
        ref = f"{project.path_with_namespace}!{iid}"
        state.merge_requests[ref] = MergeRequest(
            id=state.counters.get("mr", 1), iid=iid, reference=ref, project_id=project.id,
            title=("Draft: " if draft else "") + title, description=description, state=status, draft=draft,
            source_branch=branch, target_branch="main", author_id=author.id, created_at=when,
            labels=[f"service::{key}"],
            merged_at=when + dt.timedelta(hours=20) if status == "merged" else None)
        state.counters["mr"] = state.counters.get("mr", 1) + 1


def _seed_issues(state: GitlabState, projects: dict[str, Project], rng: random.Random, today: dt.date) -> None:
    staff = [u for u in state.users.values() if not u.bot]
    mid = FIRST_MILESTONE
    for key in ("checkout-api", "payments-service", "web-frontend"):
        for title, status in (("v2.3", "closed"), ("v2.4", "active")):
            state.milestones[str(mid)] = Milestone(id=mid, project_id=projects[key].id, title=title, state=status)
            mid += 1
    state.counters["milestone"] = mid
    for n, (key, title, description, labels, status) in enumerate(ISSUES, start=1):
        project = projects[key]
        iid = state.counters.get(f"issue:{project.id}", 1)
        state.counters[f"issue:{project.id}"] = iid + 1
        milestone = next((m.id for m in state.milestones.values()
                          if m.project_id == project.id and m.state == "active"), None)
        state.issues[f"{project.path_with_namespace}#{iid}"] = Issue(
            id=n, iid=iid, project_id=project.id, title=title, description=description, state=status,
            labels=list(labels), assignee_ids=[u.id for u in rng.sample(staff, rng.randint(0, 1))],
            milestone_id=milestone if rng.random() < 0.5 else None, author_id=rng.choice(staff).id,
            created_at=stamp(today, rng.randint(3, 40), rng))
    state.counters["issue"] = len(ISSUES) + 1


def build_state(rng: random.Random, today: dt.date) -> GitlabState:
    """The seeded state: users, the acme group and personal namespaces, projects, branches, issues, MRs."""
    state = GitlabState(viewer_id=1)
    users = _users()
    state.users = {str(u.id): u for u in users}
    state.namespaces[GROUP] = Namespace(id=FIRST_NAMESPACE, full_path=GROUP, name="ACME Engineering", kind="group",
                                        member_ids=[u.id for u in users], viewer_access="developer")
    for u in users:
        state.namespaces[u.username] = Namespace(id=FIRST_NAMESPACE + u.id, full_path=u.username, name=u.name,
                                                 kind="user", member_ids=[u.id],
                                                 viewer_access="owner" if u.bot else "developer")
    state.counters["user"] = len(users) + 1
    state.counters["namespace"] = FIRST_NAMESPACE + len(users) + 1
    projects = _seed_projects(state, rng, today)
    _seed_work(state, projects, rng, today)
    _seed_issues(state, projects, rng, today)
    return state


__all__ = ["BOT", "BRANCH_WORK", "GROUP", "ISSUES", "LABELS", "build_state"]
