"""Seed data of the error tracking service: the applications' Sentry projects.

Projects are the engineering roster's applications (``_engineering.py``),
each linked to its repository; members are the roster's engineers and the
engineering manager, plus a pending invite. Each project has two or three
releases (the newest deployed to production). Issues are real errors of
those apps, unresolved, resolved and ignored; their events carry the
release, the environment and the affected shop customer's email (the
commerce roster's customers, so the same customer is the same person in the
store and in Sentry).
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._blocks import day_start
from compoworld_gym.envs.services._commerce import CUSTOMERS
from compoworld_gym.envs.services._engineering import APPS, ENG_MANAGER, ENGINEERS, team_engineers
from compoworld_gym.envs.services._error_tracking_models import (
    Deploy, ErrorTrackingState, Event, Issue, Member, Note, Project, Release, StatusDetails,
)
from compoworld_gym.envs.services._error_tracking_rules import short_id

PLATFORMS = {"web-frontend": "javascript-react", "search-api": "go", "notifications-worker": "node"}
#: (app key, title, culprit, level, status).
ISSUES = (
    ("checkout-api", "DecimalException: quantize result has too many digits", "checkout.refunds.split_tender",
     "error", "unresolved"),
    ("checkout-api", "TimeoutError: card gateway did not answer in 10s", "POST /v1/checkout/authorize", "error",
     "unresolved"),
    ("payments-service", "HTTPError: 503 from payout provider webhook", "payouts.webhooks.deliver", "error",
     "unresolved"),
    ("payments-service", "KeyError: 'settlement_batch'", "settlements.export.build_rows", "warning", "resolved"),
    ("web-frontend", "TypeError: Cannot read properties of undefined (reading 'count')", "CartBadge.render",
     "error", "unresolved"),
    ("web-frontend", "ChunkLoadError: Loading chunk 412 failed", "app/router", "warning", "ignored"),
    ("search-api", "panic: runtime error: index out of range [2]", "search.typo.expand", "fatal", "unresolved"),
    ("auth-service", "InvalidTokenError: Signature has expired", "POST /session/refresh", "error", "unresolved"),
    ("auth-service", "IntegrityError: duplicate key value violates unique constraint", "users.signup.create",
     "error", "resolved"),
    ("notifications-worker", "Error: SMTP 421 too many connections", "mailer.send_order_confirmation", "error",
     "unresolved"),
    ("reporting-etl", "ValueError: refund date after export cut-off", "etl.revenue.nightly", "error",
     "unresolved"),
    ("reporting-etl", "MemoryError", "etl.cohorts.backfill", "fatal", "ignored"),
)


def _releases(s: ErrorTrackingState, rng: random.Random, key: str, start: dt.datetime) -> list[str]:
    major, minor = rng.randint(1, 4), rng.randint(2, 12)
    out = []
    for n in range(rng.randint(2, 3)):
        version = f"{key}@{major}.{minor + n}.{rng.randint(0, 4)}"
        made = start - dt.timedelta(days=20 - 8 * n, hours=rng.randint(0, 5))
        r = Release(id=version, project_id=key, date_created=made, date_released=made + dt.timedelta(hours=2),
                    ref=f"{rng.getrandbits(40):010x}", commit_count=rng.randint(3, 40),
                    deploys=[Deploy(environment="staging", date_finished=made + dt.timedelta(hours=1)),
                             Deploy(environment="production", date_finished=made + dt.timedelta(hours=2))])
        s.releases[version] = r
        out.append(version)
    return out


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> ErrorTrackingState:
    """Members, projects, releases, issues, events and notes (see the module docstring).

    Args:
        fake: seeded Faker (unused: people come from the fixed rosters).
        rng: seeded random stream (counts, dates, versions, customers).
        today: the task's date.
    """
    s = ErrorTrackingState()
    for e in ENGINEERS:
        s.members[e.email] = Member(id=e.email, name=e.name, role="member", team=e.team)
    s.members[ENG_MANAGER.email] = Member(id=ENG_MANAGER.email, name=ENG_MANAGER.name, role="owner", team="platform")
    s.members["priya.raman@company.example"] = Member(id="priya.raman@company.example", name="Priya Raman",
                                                      role="member", team="data", pending=True)
    start = day_start(today)
    releases = {}
    for a in APPS:
        s.projects[a.key] = Project(id=a.key, name=a.name, platform=PLATFORMS.get(a.key, "python"), team=a.team,
                                    repository=a.repo)
        releases[a.key] = _releases(s, rng, a.key, start)
        s.counters[a.key] = rng.randint(20, 300)
    for n, (key, title, culprit, level, status) in enumerate(ISSUES):
        sid = short_id(key, s.counters[key])
        s.counters[key] += rng.randint(1, 9)
        rel = releases[key]
        first = start - dt.timedelta(days=rng.randint(2, 9), hours=rng.randint(0, 8))
        last = start - dt.timedelta(hours=rng.randint(1, 30))
        app = next(a for a in APPS if a.key == key)
        owner = team_engineers(app.team)[n % 2].email if n % 3 else None
        details = StatusDetails()
        if status == "resolved":
            details = StatusDetails(in_release=rel[-1], actor=owner or ENG_MANAGER.email)
        elif status == "ignored":
            details = StatusDetails(ignore_count=100, actor=ENG_MANAGER.email)
        issue = Issue(id=sid, project_id=key, title=title, culprit=culprit, level=level, status=status,
                      status_details=details, first_seen=first, last_seen=last, count=rng.randint(4, 900),
                      user_count=rng.randint(1, 60), assigned_to=owner, first_release=rel[-2],
                      last_release=rel[-2] if status == "resolved" else rel[-1],
                      permalink=f"https://acme.sentry.io/issues/{sid}/")
        s.issues[sid] = issue
        for k, when in enumerate((first, last)):
            cust = CUSTOMERS[(n * 2 + k) % len(CUSTOMERS)]
            eid = f"EVT-{len(s.events) + 1:04d}"
            s.events[eid] = Event(id=eid, issue_id=sid, date_created=when, message=title,
                                  release=issue.first_release if k == 0 else issue.last_release,
                                  environment="production", user_email=cust.email,
                                  url=f"https://shop.company.example/{culprit.split('.')[0].lower()}")
    ids = list(s.issues)
    for k, (idx, text) in enumerate(((0, "Only split tenders with three or more cards."),
                                     (4, "Started with the cart refactor."),
                                     (10, "Cut-off is UTC; refunds after 23:00 local are dropped.")), start=1):
        iss = s.issues[ids[idx]]
        s.notes[f"NOTE-{k:04d}"] = Note(id=f"NOTE-{k:04d}", issue_id=iss.id, text=text,
                                        user_email=iss.assigned_to or ENG_MANAGER.email,
                                        date_created=iss.last_seen + dt.timedelta(minutes=30))
    s.counters.update({"NOTE": 4, "EVT": len(s.events) + 1})
    return s
