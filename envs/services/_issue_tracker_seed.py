"""Seed data of the issue tracker service: the engineering teams' Linear workspace.

Teams are the engineering roster's teams (``_engineering.py``): Platform
(PLAT), Payments (PAY), Storefront (WEB) and Data (DATA), each on its main
repository, with the roster's engineers as members and the engineering
manager in every team; a former engineer is a deactivated user. Each team
has a completed, an active and an upcoming cycle. Issues are real work on
the roster's applications (the app key is a label), in every state type,
some linked to GitHub pull requests on the app's repository, some
sub-issues, one marked a duplicate of another.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._blocks import day_start
from compoworld_gym.envs.services._engineering import APPS_BY_KEY, ENG_MANAGER, ENGINEERS, team_engineers
from compoworld_gym.envs.services._issue_tracker_models import (
    PRIORITY_LABELS, Attachment, Comment, Cycle, Issue, IssueRelation, IssueTrackerState, Team, User, WorkflowState,
)
from compoworld_gym.envs.services._issue_tracker_rules import branch_name, move

#: (roster team, key, name, main repository, estimate scale, cycle weeks).
TEAMS = (("platform", "PLAT", "Platform", "acme/auth-service", "fibonacci", 2),
         ("payments", "PAY", "Payments", "acme/checkout-api", "exponential", 2),
         ("storefront", "WEB", "Storefront", "acme/web-frontend", "linear", 1),
         ("data", "DATA", "Data", "acme/reporting-etl", "notUsed", 2))
#: A team's workflow: (state slug, name, type); Data has no review column.
WORKFLOW = (("backlog", "Backlog", "backlog"), ("todo", "Todo", "unstarted"), ("in-progress", "In Progress", "started"),
            ("in-review", "In Review", "started"), ("done", "Done", "completed"), ("canceled", "Canceled", "canceled"),
            ("duplicate", "Duplicate", "canceled"))
FORMER = ("Tomasz Kowal", "tomasz.kowal@company.example")
#: Seeded issues: (app key, title, state slug, priority, label, has pull request, in active cycle).
ISSUES = (
    ("checkout-api", "Refund totals off by one cent on split tenders", "in-progress", 2, "Bug", True, True),
    ("checkout-api", "Retry card authorisation once on gateway timeout", "todo", 2, "Improvement", False, True),
    ("payments-service", "Payout webhook retries exhaust after 3 attempts", "in-review", 1, "Bug", True, True),
    ("payments-service", "Move settlement reports to the new ledger export", "backlog", 3, "Feature", False, False),
    ("checkout-api", "Coupon stacking lets two percentage codes apply", "done", 2, "Bug", True, False),
    ("auth-service", "Session cookie not refreshed after password reset", "in-progress", 1, "Bug", True, True),
    ("auth-service", "Rotate the JWT signing key every 90 days", "todo", 3, "Improvement", False, True),
    ("notifications-worker", "Order confirmation emails delayed under queue backlog", "backlog", 2, "Bug", False,
     False),
    ("auth-service", "Add WebAuthn as a second factor", "canceled", 4, "Feature", False, False),
    ("web-frontend", "Cart badge shows stale count after removing an item", "in-progress", 3, "Bug", True, True),
    ("search-api", "Typo tolerance misses two-letter brand names", "todo", 3, "Bug", False, True),
    ("web-frontend", "Lazy-load product images below the fold", "done", 4, "Improvement", True, False),
    ("web-frontend", "Cart count wrong after removing item", "duplicate", 3, "Bug", False, False),
    ("reporting-etl", "Nightly revenue export skips refunds issued after 23:00", "in-progress", 2, "Bug", True, True),
    ("reporting-etl", "Backfill customer cohorts for Q3", "backlog", 3, "Feature", False, False),
    ("checkout-api", "Write the refund rounding regression test", "todo", 3, "Improvement", False, True),
)


def _handle(email: str) -> str:
    return email.split("@")[0].split(".")[0]


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> IssueTrackerState:
    """Teams, workflows, users, cycles, issues, comments and relations (see the module docstring).

    Args:
        fake: seeded Faker (unused: names come from the fixed roster).
        rng: seeded random stream (estimates, assignees, dates, PR numbers).
        today: the task's date.
    """
    s = IssueTrackerState()
    people = list(ENGINEERS) + [ENG_MANAGER]
    for e in people:
        s.users[e.email] = User(id=e.email, name=e.name, display_name=_handle(e.email), admin=e is ENG_MANAGER)
    s.users[FORMER[1]] = User(id=FORMER[1], name=FORMER[0], display_name="tomasz", active=False)
    start = day_start(today)
    for roster, key, name, repo, scale, weeks in TEAMS:
        members = [e.email for e in team_engineers(roster)] + [ENG_MANAGER.email]
        s.teams[key] = Team(id=key, key=key, name=name, repository=repo, issue_estimation_type=scale,
                            cycle_duration_weeks=weeks, member_emails=members)
        for pos, (st, label, kind) in enumerate(WORKFLOW):
            if key == "DATA" and st == "in-review":
                continue
            s.workflow_states[f"{key}-{st}"] = WorkflowState(id=f"{key}-{st}", team_id=key, name=label, type=kind,
                                                             position=pos)
        current_start = today - dt.timedelta(days=rng.randint(1, 7 * weeks - 2))
        base = rng.randint(8, 20)
        for n in range(3):
            begins = current_start + dt.timedelta(weeks=weeks * (n - 1))
            cid = f"CYC-{len(s.cycles) + 1:04d}"
            s.cycles[cid] = Cycle(id=cid, team_id=key, number=base + n, name=f"Cycle {base + n}", starts_at=begins,
                                  ends_at=begins + dt.timedelta(weeks=weeks),
                                  completed_at=day_start(begins + dt.timedelta(weeks=weeks)) if n == 0 else None)
    team_of = {roster: key for roster, key, *_ in TEAMS}
    numbers = {key: rng.randint(40, 180) for key in s.teams}
    for n, (app_key, title, st, prio, label, has_pr, active) in enumerate(ISSUES):
        app = APPS_BY_KEY[app_key]
        team = s.teams[team_of[app.team]]
        numbers[team.key] += rng.randint(1, 4)
        ident = f"{team.key}-{numbers[team.key]}"
        eng = rng.choice(team_engineers(app.team))
        assignee = None if st == "backlog" and n % 2 else eng.email
        created = start - dt.timedelta(days=rng.randint(3, 40), hours=rng.randint(0, 8))
        scale = {"exponential": (1, 2, 4, 8), "fibonacci": (1, 2, 3, 5), "linear": (1, 2, 3, 4)}.get(
            team.issue_estimation_type)
        cycles = [c for c in s.cycles.values() if c.team_id == team.key]
        cycle = cycles[1].id if active else (cycles[0].id if st in ("done", "canceled") else None)
        issue = Issue(id=ident, team_id=team.key, number=numbers[team.key], title=title,
                      description=f"Service: {app_key} ({app.repo}).", state_id="", state_name="",
                      state_type="backlog", priority=prio, priority_label=PRIORITY_LABELS[prio],
                      estimate=rng.choice(scale) if scale else None, assignee_email=assignee,
                      creator_email=ENG_MANAGER.email if n % 3 == 0 else eng.email, labels=[label, app_key],
                      cycle_id=cycle, branch_name=branch_name(_handle(assignee) if assignee else None, ident, title),
                      created_at=created, updated_at=created)
        if has_pr:
            pr = rng.randint(180, 940)
            issue.attachments.append(Attachment(title=f"{title} (#{pr})", url=f"https://github.com/{app.repo}/pull/{pr}",
                                                source_type="github"))
        move(issue, s.workflow_states[f"{team.key}-{st}"], created + dt.timedelta(days=1, hours=2))
        s.issues[ident] = issue
    ids = list(s.issues)
    # The rounding regression test is a sub-issue of the rounding bug; the duplicate cart bug points at the original.
    s.issues[ids[15]].parent_id = ids[0]
    s.relations["REL-0001"] = IssueRelation(id="REL-0001", type="duplicate", issue_id=ids[12], related_issue_id=ids[9],
                                            created_at=s.issues[ids[12]].updated_at)
    s.relations["REL-0002"] = IssueRelation(id="REL-0002", type="blocks", issue_id=ids[0], related_issue_id=ids[1],
                                            created_at=s.issues[ids[0]].created_at + dt.timedelta(hours=3))
    s.relations["REL-0003"] = IssueRelation(id="REL-0003", type="related", issue_id=ids[13], related_issue_id=ids[0],
                                            created_at=s.issues[ids[13]].created_at + dt.timedelta(hours=1))
    notes = ((0, "Reproduced with a 3-way split: the last tender absorbs the rounding."),
             (2, "PR is up; the retry budget now comes from config."),
             (5, "Only happens when the reset link is opened in a second tab."),
             (9, "Looks like the cart store is not invalidated on remove."),
             (13, "The job's cut-off uses UTC; refunds after 23:00 local land the next day."))
    for i, (idx, body) in enumerate(notes, start=1):
        iss = s.issues[ids[idx]]
        s.comments[f"CMT-{i:04d}"] = Comment(id=f"CMT-{i:04d}", issue_id=iss.id, body=body,
                                             user_email=iss.assignee_email or ENG_MANAGER.email,
                                             created_at=iss.updated_at + dt.timedelta(hours=4))
    s.counters.update({"CYC": len(s.cycles) + 1, "REL": 4, "CMT": len(notes) + 1})
    s.counters.update({key: n + 1 for key, n in numbers.items()})
    return s
