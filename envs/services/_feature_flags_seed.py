"""Seed data of the ``feature_flags`` service: ten flags owned by the
engineering teams, three user segments and the audit log of how the flags
got where they are.

Maintainers come from the shared engineering roster (:mod:`._engineering`)
and enterprise segment members from the shared customer accounts
(:mod:`._accounts`), so the same people appear in the other services.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker

from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._blocks import day_start, fake_person, keyed, seed_id
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.envs.services._engineering import ENGINEERS, team_engineers
from compoworld_gym.envs.services._feature_flags_models import (
    AuditEntry, EnvConfig, FeatureFlagsState, Flag, Rule, Segment, Target,
)

#: (key, name, description, owning team) of each seeded flag.
SEED_FLAGS: tuple[tuple[str, str, str, str], ...] = (
    ("new-checkout-flow", "New checkout flow", "One-page checkout replacing the 3-step flow.", "payments"),
    ("dark-mode", "Dark mode", "Dark colour theme on the storefront.", "storefront"),
    ("search-v2-ranking", "Search v2 ranking", "Learning-to-rank model for product search.", "storefront"),
    ("beta-billing-portal", "Beta billing portal", "Self-service invoices and payment methods.", "payments"),
    ("relaxed-rate-limits", "Relaxed API rate limits", "Doubles per-key API rate limits.", "platform"),
    ("onboarding-checklist", "Onboarding checklist", "Guided checklist for new accounts.", "storefront"),
    ("sso-enforcement", "SSO enforcement", "Require SAML single sign-on for enterprise admins.", "platform"),
    ("report-export-v2", "Report export v2", "Streaming CSV exports for large reports.", "data"),
    ("push-notifications-v2", "Push notifications v2", "New notification templates and batching.", "platform"),
    ("instant-refunds", "Instant refunds", "Refund card payments without manual review.", "payments"),
)
#: Production rule of every fourth flag (by position mod 4): (attribute, value).
_PROD_RULES = {0: ("segment", "beta-testers"), 2: ("email_domain", DOMAIN)}
#: An audit event before numbering: (at, flag key, actor, environment, action, detail).
_Event = tuple[dt.datetime, str, str, Optional[str], str, str]


def _segments(fake: Faker, rng: random.Random) -> dict[str, Segment]:
    beta = [fake_person(fake).email for _ in range(6)]
    enterprise = [a.contact_email for a in rng.sample(ACCOUNTS, 3)]
    return keyed((
        Segment(key="beta-testers", name="Beta testers", description="Customers in the beta programme.",
                included=beta),
        Segment(key="internal-staff", name="Internal staff", description="Employees (dogfooding).",
                included=[e.email for e in ENGINEERS[:4]]),
        Segment(key="enterprise-accounts", name="Enterprise accounts",
                description="Admins of enterprise customers.", included=enterprise),
    ), key="key")


def _production(i: int, rng: random.Random, enterprise: list[str]) -> EnvConfig:
    """Flag ``i``'s production config: on for ~60 %, a seeded rollout, some rules and targets."""
    prod = EnvConfig(on=rng.random() < 0.6, rollout_percentage=rng.choice((0, 10, 25, 50, 100)))
    if i % 4 in _PROD_RULES:
        attr, value = _PROD_RULES[i % 4]
        prod.rules, prod.next_rule = [Rule(id="rule-1", attribute=attr, values=[value], variation=0)], 2
    if i % 5 == 1:
        prod.targets = [Target(email=enterprise[i % 3], variation=1)]
    return prod


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> FeatureFlagsState:
    """The seeded state: flags (on in development and staging), segments, and an audit log in time order."""
    state = FeatureFlagsState(segments=_segments(fake, rng))
    enterprise = state.segments["enterprise-accounts"].included
    start = day_start(today)
    staff_rule = Rule(id="rule-1", attribute="segment", values=["internal-staff"], variation=0)
    events: list[_Event] = []
    for i, (key, name, desc, team) in enumerate(SEED_FLAGS):
        crew = team_engineers(team)
        owner = (crew[-1] if i % 3 == 2 else crew[0]).email
        created = start - dt.timedelta(days=rng.randint(5, 120), hours=rng.randint(0, 8))
        prod = _production(i, rng, enterprise)
        envs = {"development": EnvConfig(on=True, rollout_percentage=100),
                "staging": EnvConfig(on=True, rollout_percentage=100, rules=[staff_rule], next_rule=2),
                "production": prod}
        state.flags[key] = Flag(key=key, name=name, description=desc, variations=["true", "false"],
                                tags=[team], maintainer_email=owner, temporary=i % 3 != 1,
                                created_at=created, environments=envs)
        events.append((created, key, owner, None, "created", f"created flag {name!r}"))
        if prod.on:
            events.append((created + dt.timedelta(days=2), key, owner, "production", "turned_on", "turned on"))
    for at, key, who, env, action, detail in sorted(events):
        aid = seed_id(state, "AUD")
        state.audit_log[aid] = AuditEntry(id=aid, at=at, actor_email=who, flag_key=key, environment=env,
                                          action=action, detail=detail)
    return state
