"""Typed state of the ``feature_flags`` service: flags with one configuration
per environment (targets, rules, rollout), user segments and the audit log,
plus the deterministic rollout bucket of a user."""

from __future__ import annotations

import hashlib
from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id
from compoworld_gym.service import Record, ServiceState

Environment = Literal["production", "staging", "development"]
ENVIRONMENTS: tuple[str, ...] = ("production", "staging", "development")
Attribute = Literal["email", "email_domain", "segment"]
Action = Literal["created", "turned_on", "turned_off", "rollout_changed", "targets_added",
                 "targets_removed", "rule_added", "rule_removed", "archived", "segment_updated"]
FLAG_KEY = r"^[a-z0-9][a-z0-9._-]{0,63}$"


class Target(Record):
    """An individual user served a fixed variation."""

    email: Email = Field(description="The user's email (the LaunchDarkly context key).")
    variation: int = Field(ge=0, description="Index into the flag's variations.")


class Rule(Record):
    """A targeting rule: users whose attribute is one of ``values`` get ``variation``."""

    id: str = Field(description="Rule id within the environment, e.g. 'rule-2'.")
    attribute: Attribute = Field(description="User attribute the rule tests.")
    values: list[str] = Field(description="Emails, email domains or segment keys that match.")
    variation: int = Field(ge=0, description="Index into the flag's variations.")


class EnvConfig(Record):
    """A flag's configuration in one environment."""

    on: bool = Field(description="True when targeting is on; off serves the off variation.")
    off_variation: int = Field(default=1, ge=0, description="Variation served when off and outside the rollout.")
    rollout_percentage: int = Field(ge=0, le=100,
                                    description="Share (0-100 %) of fallthrough users served variation 0.")
    targets: list[Target] = Field(default_factory=list, description="Individually targeted users.")
    rules: list[Rule] = Field(default_factory=list, description="Rules, evaluated in order.")
    next_rule: int = Field(default=1, ge=1, description="Number of the next rule id.")


class Flag(Record):
    """A feature flag."""

    key: Id("flag") = Field(description="Flag key, e.g. 'new-checkout-flow'.")
    name: str = Field(description="Human-readable name.")
    description: str = Field(description="What the flag controls.")
    variations: list[str] = Field(min_length=2, description="Served values; index 0 is the new behaviour.")
    tags: list[str] = Field(default_factory=list, description="Free-form tags, e.g. team names.")
    maintainer_email: Email = Field(description="Engineer responsible for the flag.")
    temporary: bool = Field(description="True for release flags that should be removed later.")
    archived: bool = Field(default=False, description="Archived flags cannot be changed.")
    created_at: DateTime = Field(description="When the flag was created.")
    environments: dict[Environment, EnvConfig] = Field(description="Configuration per environment.")


class Segment(Record):
    """A reusable list of users."""

    key: str = Field(description="Segment key, e.g. 'beta-testers'.")
    name: str = Field(description="Human-readable name.")
    description: str = Field(description="Who is in the segment.")
    included: list[Email] = Field(default_factory=list, description="Emails of the members.")


class AuditEntry(Record):
    """One change in the audit log."""

    id: str = Field(description="Entry id, e.g. AUD-0001.")
    at: DateTime = Field(description="When the change happened (logical clock).")
    actor_email: Email = Field(description="Who made the change.")
    flag_key: Optional[Id("flag")] = Field(default=None, description="Flag changed, if any.")
    environment: Optional[Environment] = Field(default=None, description="Environment changed, if any.")
    action: Action = Field(description="Kind of change.")
    detail: str = Field(description="What changed, plus the actor's comment.")


class FeatureFlagsState(ServiceState):
    """Flags, segments and the audit log."""

    flags: dict[str, Flag] = Field(default_factory=dict, description="Flags by key.")
    segments: dict[str, Segment] = Field(default_factory=dict, description="Segments by key.")
    audit_log: dict[str, AuditEntry] = Field(default_factory=dict, description="Audit entries by id.")


def bucket(flag_key: str, email: str) -> float:
    """The user's rollout bucket in [0, 100): SHA-1 of ``flag_key.email`` (case-insensitive)."""
    digest = hashlib.sha1(f"{flag_key}.{email.lower()}".encode()).hexdigest()[:15]
    return int(digest, 16) / float(0xFFFFFFFFFFFFFFF) * 100.0
