"""Seed factory of ``ci_pipelines``: one project per GitHub repository of the
company organisation and per application repository (the deploy projects'
sources), each with a few pipelines on main and its feature branches."""

from __future__ import annotations

import datetime as dt
import random
from typing import Callable

from compoworld_gym.envs.services._blocks import next_number, seed_id, stamp
from compoworld_gym.envs.services._ci_pipelines_models import CiProject, CiState, Pipeline, Workflow
from compoworld_gym.envs.services._ci_pipelines_rules import WORKFLOW_NAME, Outcome, make_jobs, sha, workflow_status
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._engineering import APPS, team_engineers
from compoworld_gym.envs.services._github_seed import BRANCH_CHANGES, FILES, ORG

_SUBJECTS = ("Fix flaky retry test", "Bump dependencies", "Add request timeout", "Refactor config loading",
             "Improve error messages", "Tune connection pool")


def project_record(org: str, name: str, branches: list[str]) -> CiProject:
    """A GitHub-hosted project ``gh/<org>/<name>``."""
    return CiProject(slug=f"gh/{org}/{name}", name=name, organization_name=org, repo=f"{org}/{name}",
                     vcs_url=f"https://github.com/{org}/{name}", default_branch="main", branches=branches)


def add_pipeline(state: CiState, slug: str, branch: str, author: str, subject: str, when: dt.datetime,
                 outcome: Outcome, new_id: Callable[[str], str]) -> Pipeline:
    """Append a pipeline with one workflow of ``outcome`` to ``state``; ``new_id(prefix)`` numbers records."""
    number = next_number(state.counters, f"pipeline:{slug}")
    p = Pipeline(id=new_id("PL"), project_slug=slug, number=number, state="created", branch=branch,
                 revision=sha(slug, number, branch, subject, when), commit_subject=subject,
                 commit_author_email=author, trigger_actor=author, created_at=when)
    jobs = make_jobs(outcome, lambda: new_id("JOB"), lambda: next_number(state.counters, f"job:{slug}"))
    wf = Workflow(id=new_id("WF"), pipeline_id=p.id, name=WORKFLOW_NAME, status=workflow_status(jobs),
                  created_at=when, stopped_at=when + dt.timedelta(minutes=12) if outcome in ("success", "failed")
                  else None, jobs=jobs)
    p.workflow_ids.append(wf.id)
    state.pipelines[p.id], state.workflows[wf.id] = p, wf
    return p


def build_ci_seed(rng: random.Random, today: dt.date) -> CiState:
    """The seeded state; same ``(rng seed, today)`` → same state."""
    state = CiState()

    def new_id(prefix: str) -> str:
        return seed_id(state, prefix)

    repos = [(ORG, name, [b for (r, b) in BRANCH_CHANGES if r == name], [s.email for s in STAFF]) for name in FILES]
    repos += [(a.repo.split("/")[0], a.key, [f"fix/{a.key}-timeouts"], [e.email for e in team_engineers(a.team)])
              for a in APPS]
    runs = []
    for org, name, features, authors in repos:
        proj = project_record(org, name, ["main", *features])
        state.projects[proj.slug] = proj
        for branch in proj.branches:
            runs.append((stamp(today, rng.randint(1, 9), rng), proj.slug, branch, rng.choice(authors)))
    outcomes: tuple[Outcome, ...] = ("success", "failed", "success", "on_hold", "failed", "success", "running",
                                     "failing", "success", "failed")
    for k, (when, slug, branch, author) in enumerate(sorted(runs)):
        add_pipeline(state, slug, branch, author, rng.choice(_SUBJECTS), when, outcomes[k % len(outcomes)], new_id)
    return state
