"""Feature flags: per-environment targeting, rollouts and an audit log.

No feature-flag server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface is designed the way LaunchDarkly's REST API looks: a flag has a
key, variations and one configuration per environment (on/off, individual
targets, ordered rules on user attributes or segments, a percentage
rollout of the fallthrough) and every change is written to an audit log.
Evaluation follows LaunchDarkly's order: off → individual target → first
matching rule → fallthrough rollout, with users bucketed by a SHA-1 hash of
flag key and email (deterministic, like LaunchDarkly's bucketing).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id
from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.envs.services._engineering import ENGINEERS, team_engineers
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import DAY_START, Record, Service, ServiceState, tool

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


def _noted(detail: str, comment: str) -> str:
    return f"{detail}. {comment}" if comment else detail


def _summary(f: Flag) -> dict:
    return {"key": f.key, "name": f.name, "tags": f.tags, "maintainer_email": f.maintainer_email,
            "archived": f.archived, "variations": f.variations,
            "on": {e: c.on for e, c in f.environments.items()},
            "rollout_percentage": {e: c.rollout_percentage for e, c in f.environments.items()}}


class FeatureFlags(Service):
    """LaunchDarkly-style feature flags with targeting, rollouts and an audit log."""

    name = "feature_flags"
    description = ("Feature flag management: flags per environment, user and segment targeting, "
                   "percentage rollouts, evaluation and an audit log of every change.")
    domain = "engineering"
    spec_source = None
    State = FeatureFlagsState

    # ---------------------------------------------------------------- helpers
    def _flag(self, key: str, writable: bool = False) -> Flag:
        f = self.lookup(self.state.flags, key, "flag")
        if writable and f.archived:
            raise Conflict(f"flag {key!r} is archived and cannot be changed.")
        return f

    def _audit(self, actor: str, action: str, detail: str, flag: str | None = None,
               env: str | None = None, at: dt.datetime | None = None) -> AuditEntry:
        entry = AuditEntry(id=self.new_id("AUD"), at=at or self.now(), actor_email=actor, flag_key=flag,
                           environment=env, action=action, detail=detail)
        self.state.audit_log[entry.id] = entry
        return entry

    @staticmethod
    def _check_variation(f: Flag, variation: int) -> None:
        if variation >= len(f.variations):
            raise Unprocessable(f"variation {variation} does not exist; flag {f.key!r} has variations "
                                f"0-{len(f.variations) - 1}: {f.variations}.")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Flag])
    def list_flags(
        self,
        environment: Optional[Environment] = None,
        on: Optional[bool] = None,
        tag: Optional[str] = None,
        maintainer_email: Optional[Email] = None,
        query: Optional[str] = None,
        include_archived: bool = False,
        limit: int = Field(default=50, ge=1, le=200),
    ) -> list[dict]:
        """List flags, optionally only those on (or off) in one environment.

        Args:
            environment: environment that ``on`` refers to (production, staging, development).
            on: only flags whose targeting is on (true) or off (false) in ``environment``.
            tag: only flags carrying this tag.
            maintainer_email: only flags maintained by this engineer.
            query: case-insensitive text to find in key, name or description.
            include_archived: also list archived flags.
            limit: maximum number of flags (1-200).
        """
        if on is not None and environment is None:
            raise InvalidArgument("'on' needs 'environment': say in which environment the flag is on.")
        q = query.lower() if query else None
        out = []
        for f in self.state.flags.values():
            if (f.archived and not include_archived) or (tag and tag not in f.tags):
                continue
            if on is not None and f.environments[environment].on != on:
                continue
            if maintainer_email and f.maintainer_email.lower() != maintainer_email.lower():
                continue
            if q and q not in f"{f.key} {f.name} {f.description}".lower():
                continue
            out.append(_summary(f))
        return out[:limit]

    @tool(read_only=True, returns=Flag)
    def get_flag(self, flag_key: Id("flag")) -> dict:
        """Get a flag with its full configuration in every environment.

        Args:
            flag_key: the flag key, e.g. 'new-checkout-flow'.
        """
        return self._flag(flag_key).model_dump()

    @tool(read_only=True)
    def evaluate_flag(self, flag_key: Id("flag"), environment: Environment, user_email: Email) -> dict:
        """Evaluate which variation a user gets, and why.

        Order: off → individual target → first matching rule → percentage rollout.
        Returns ``{flag_key, environment, user_email, variation, value, reason, rule_id}``;
        reason is OFF, TARGET_MATCH, RULE_MATCH, ROLLOUT_IN or ROLLOUT_OUT.

        Args:
            flag_key: the flag to evaluate.
            environment: production, staging or development.
            user_email: the user's email.
        """
        f = self._flag(flag_key)
        cfg = f.environments[environment]
        variation, reason, rule_id = self._evaluate(f, cfg, user_email.lower())
        return {"flag_key": f.key, "environment": environment, "user_email": user_email,
                "variation": variation, "value": f.variations[variation], "reason": reason, "rule_id": rule_id}

    def _evaluate(self, f: Flag, cfg: EnvConfig, email: str) -> tuple[int, str, str | None]:
        if not cfg.on:
            return cfg.off_variation, "OFF", None
        for t in cfg.targets:
            if t.email.lower() == email:
                return t.variation, "TARGET_MATCH", None
        domain = email.rsplit("@", 1)[-1]
        for r in cfg.rules:
            if r.attribute == "email":
                hit = email in {v.lower() for v in r.values}
            elif r.attribute == "email_domain":
                hit = domain in {v.lower() for v in r.values}
            else:
                hit = any(email in {m.lower() for m in self.state.segments[s].included}
                          for s in r.values if s in self.state.segments)
            if hit:
                return r.variation, "RULE_MATCH", r.id
        if bucket(f.key, email) < cfg.rollout_percentage:
            return 0, "ROLLOUT_IN", None
        return cfg.off_variation, "ROLLOUT_OUT", None

    @tool(read_only=True, returns=list[Segment])
    def list_segments(self) -> list[dict]:
        """List user segments with their members."""
        return [s.model_dump() for s in self.state.segments.values()]

    @tool(read_only=True, returns=list[AuditEntry])
    def list_audit_log(
        self,
        flag_key: Optional[Id("flag")] = None,
        environment: Optional[Environment] = None,
        actor_email: Optional[Email] = None,
        limit: int = Field(default=50, ge=1, le=200),
    ) -> list[dict]:
        """List audit-log entries, newest first.

        Args:
            flag_key: only changes to this flag.
            environment: only changes in this environment.
            actor_email: only changes made by this person.
            limit: maximum number of entries (1-200).
        """
        out = [a.model_dump() for a in reversed(self.state.audit_log.values())
               if (flag_key is None or a.flag_key == flag_key)
               and (environment is None or a.environment == environment)
               and (actor_email is None or a.actor_email.lower() == actor_email.lower())]
        return out[:limit]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Flag)
    def create_flag(
        self,
        key: Id("flag") = Field(pattern=FLAG_KEY),
        name: str = Field(min_length=1, max_length=120),
        maintainer_email: Email = Field(min_length=3),
        description: str = "",
        variations: list[str] = Field(default_factory=lambda: ["true", "false"], min_length=2, max_length=10),
        tags: list[str] = Field(default_factory=list),
        temporary: bool = True,
    ) -> dict:
        """Create a flag, off in every environment with a 0 % rollout.

        Args:
            key: unique flag key (lowercase letters, digits, '.', '_', '-').
            name: human-readable name.
            maintainer_email: engineer responsible for the flag; also the audit actor.
            description: what the flag controls.
            variations: served values, at least two and distinct; index 0 is the new behaviour.
            tags: free-form tags.
            temporary: True for a release flag to be removed later.
        """
        if key in self.state.flags:
            raise Conflict(f"flag {key!r} already exists; pick another key or update it.")
        if len(set(variations)) != len(variations):
            raise InvalidArgument(f"variations must be distinct, got {variations}.")
        envs = {e: EnvConfig(on=False, rollout_percentage=0) for e in ENVIRONMENTS}
        f = Flag(key=key, name=name, description=description, variations=list(variations), tags=list(tags),
                 maintainer_email=maintainer_email, temporary=temporary, created_at=self.now(),
                 environments=envs)
        self.state.flags[key] = f
        self._audit(maintainer_email, "created", f"created flag {name!r}", key, at=f.created_at)
        return f.model_dump()

    @tool(read_only=False, returns=AuditEntry)
    def toggle_flag(self, flag_key: Id("flag"), environment: Environment, on: bool,
                    actor_email: Email, comment: str = "") -> dict:
        """Turn a flag's targeting on or off in one environment (audited).

        409 if the flag is already in that state or archived.

        Args:
            flag_key: the flag to toggle.
            environment: production, staging or development.
            on: true to turn targeting on, false to turn it off.
            actor_email: who makes the change.
            comment: reason recorded in the audit log.
        """
        f = self._flag(flag_key, writable=True)
        cfg = f.environments[environment]
        if cfg.on == on:
            raise Conflict(f"flag {flag_key!r} is already {'on' if on else 'off'} in {environment}.")
        cfg.on = on
        entry = self._audit(actor_email, "turned_on" if on else "turned_off",
                            _noted(f"turned {'on' if on else 'off'}", comment), flag_key, environment)
        return entry.model_dump()

    @tool(read_only=False, returns=AuditEntry)
    def update_rollout(self, flag_key: Id("flag"), environment: Environment,
                       rollout_percentage: int = Field(ge=0, le=100), actor_email: Email = Field(min_length=3),
                       comment: str = "") -> dict:
        """Set the share of fallthrough users who get variation 0 (audited).

        Args:
            flag_key: the flag to change.
            environment: production, staging or development.
            rollout_percentage: 0-100.
            actor_email: who makes the change.
            comment: reason recorded in the audit log.
        """
        cfg = self._flag(flag_key, writable=True).environments[environment]
        if cfg.rollout_percentage == rollout_percentage:
            raise Conflict(f"rollout of {flag_key!r} in {environment} is already {rollout_percentage}%.")
        old, cfg.rollout_percentage = cfg.rollout_percentage, rollout_percentage
        return self._audit(actor_email, "rollout_changed", _noted(f"rollout {old}% -> {rollout_percentage}%", comment),
                           flag_key, environment).model_dump()

    @tool(read_only=False, returns=EnvConfig)
    def add_targets(self, flag_key: Id("flag"), environment: Environment, variation: int = Field(ge=0),
                    emails: list[Email] = Field(min_length=1, max_length=100),
                    actor_email: Email = Field(min_length=3)) -> dict:
        """Serve a variation to individual users (moves users already targeted elsewhere).

        Args:
            flag_key: the flag to change.
            environment: production, staging or development.
            variation: index of the variation to serve.
            emails: the users' emails.
            actor_email: who makes the change.
        """
        f = self._flag(flag_key, writable=True)
        self._check_variation(f, variation)
        cfg = f.environments[environment]
        wanted = {e.lower() for e in emails}
        cfg.targets = [t for t in cfg.targets if t.email.lower() not in wanted]
        cfg.targets.extend(Target(email=e, variation=variation) for e in dict.fromkeys(emails))
        self._audit(actor_email, "targets_added", f"variation {variation} for {', '.join(emails)}",
                    flag_key, environment)
        return cfg.model_dump()

    @tool(read_only=False, returns=EnvConfig)
    def remove_targets(self, flag_key: Id("flag"), environment: Environment,
                       emails: list[Email] = Field(min_length=1, max_length=100),
                       actor_email: Email = Field(min_length=3)) -> dict:
        """Stop targeting individual users (404 if one of them is not targeted).

        Args:
            flag_key: the flag to change.
            environment: production, staging or development.
            emails: the users' emails.
            actor_email: who makes the change.
        """
        cfg = self._flag(flag_key, writable=True).environments[environment]
        targeted = {t.email.lower() for t in cfg.targets}
        missing = [e for e in emails if e.lower() not in targeted]
        if missing:
            raise NotFound(f"not individually targeted in {environment}: {', '.join(missing)}; "
                           "call get_flag to see the targets.")
        gone = {e.lower() for e in emails}
        cfg.targets = [t for t in cfg.targets if t.email.lower() not in gone]
        self._audit(actor_email, "targets_removed", ", ".join(emails), flag_key, environment)
        return cfg.model_dump()

    @tool(read_only=False, returns=Rule)
    def add_rule(self, flag_key: Id("flag"), environment: Environment, attribute: Attribute,
                 values: list[str] = Field(min_length=1, max_length=100), variation: int = Field(ge=0),
                 actor_email: Email = Field(min_length=3)) -> dict:
        """Append a targeting rule: users whose attribute is in ``values`` get ``variation``.

        Args:
            flag_key: the flag to change.
            environment: production, staging or development.
            attribute: email, email_domain (e.g. 'example.com') or segment (segment keys).
            values: the emails, domains or segment keys that match.
            variation: index of the variation to serve.
            actor_email: who makes the change.
        """
        f = self._flag(flag_key, writable=True)
        self._check_variation(f, variation)
        if attribute == "segment":
            unknown = [v for v in values if v not in self.state.segments]
            if unknown:
                raise NotFound(f"unknown segment(s) {unknown}; call list_segments for valid keys.")
        cfg = f.environments[environment]
        rule = Rule(id=f"rule-{cfg.next_rule}", attribute=attribute, values=list(values), variation=variation)
        cfg.next_rule += 1
        cfg.rules.append(rule)
        self._audit(actor_email, "rule_added", f"{rule.id}: {attribute} in {values} -> variation {variation}",
                    flag_key, environment)
        return rule.model_dump()

    @tool(read_only=False, destructive=True, returns=EnvConfig)
    def remove_rule(self, flag_key: Id("flag"), environment: Environment, rule_id: str,
                    actor_email: Email) -> dict:
        """Delete a targeting rule.

        Args:
            flag_key: the flag to change.
            environment: production, staging or development.
            rule_id: the rule id, e.g. 'rule-1'.
            actor_email: who makes the change.
        """
        cfg = self._flag(flag_key, writable=True).environments[environment]
        if not any(r.id == rule_id for r in cfg.rules):
            raise NotFound(f"rule {rule_id!r} not found on {flag_key!r} in {environment}; "
                           "call get_flag to see the rules.")
        cfg.rules = [r for r in cfg.rules if r.id != rule_id]
        self._audit(actor_email, "rule_removed", rule_id, flag_key, environment)
        return cfg.model_dump()

    @tool(read_only=False, returns=Segment)
    def update_segment(self, segment_key: str, actor_email: Email,
                       add_emails: list[Email] = Field(default_factory=list),
                       remove_emails: list[Email] = Field(default_factory=list)) -> dict:
        """Add users to or remove users from a segment (audited).

        Args:
            segment_key: the segment, e.g. 'beta-testers'.
            actor_email: who makes the change.
            add_emails: emails to add.
            remove_emails: emails to remove (each must be a member).
        """
        seg = self.lookup(self.state.segments, segment_key, "segment")
        if not add_emails and not remove_emails:
            raise InvalidArgument("nothing to update: give add_emails or remove_emails.")
        members = {m.lower() for m in seg.included}
        missing = [e for e in remove_emails if e.lower() not in members]
        if missing:
            raise NotFound(f"not in segment {segment_key!r}: {', '.join(missing)}.")
        gone = {e.lower() for e in remove_emails}
        seg.included = [m for m in seg.included if m.lower() not in gone]
        seg.included += [e for e in dict.fromkeys(add_emails) if e.lower() not in members]
        self._audit(actor_email, "segment_updated",
                    f"{segment_key}: +{len(add_emails)} -{len(remove_emails)}")
        return seg.model_dump()

    @tool(read_only=False, destructive=True, returns=Flag)
    def archive_flag(self, flag_key: Id("flag"), actor_email: Email) -> dict:
        """Archive a flag. 409 while it is on in production: turn it off there first.

        Args:
            flag_key: the flag to archive.
            actor_email: who makes the change.
        """
        f = self._flag(flag_key, writable=True)
        if f.environments["production"].on:
            raise Conflict(f"flag {flag_key!r} is still on in production; toggle it off there first.")
        f.archived = True
        self._audit(actor_email, "archived", "archived", flag_key)
        return _summary(f)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> FeatureFlagsState:
        state = FeatureFlagsState()
        beta = [email_for(fake.name(), fake.free_email_domain()) for _ in range(6)]
        enterprise = [a.contact_email for a in rng.sample(ACCOUNTS, 3)]
        state.segments = {s.key: s for s in (
            Segment(key="beta-testers", name="Beta testers", description="Customers in the beta programme.",
                    included=beta),
            Segment(key="internal-staff", name="Internal staff", description="Employees (dogfooding).",
                    included=[e.email for e in ENGINEERS[:4]]),
            Segment(key="enterprise-accounts", name="Enterprise accounts",
                    description="Admins of enterprise customers.", included=enterprise),
        )}
        start = dt.datetime.combine(today, DAY_START)
        staff_rule = Rule(id="rule-1", attribute="segment", values=["internal-staff"], variation=0)
        prod_rules = {0: ("segment", "beta-testers"), 2: ("email_domain", DOMAIN)}
        events = []
        for i, (key, name, desc, team) in enumerate(_SEED_FLAGS):
            crew = team_engineers(team)
            owner = (crew[-1] if i % 3 == 2 else crew[0]).email
            created = start - dt.timedelta(days=rng.randint(5, 120), hours=rng.randint(0, 8))
            prod = EnvConfig(on=rng.random() < 0.6, rollout_percentage=rng.choice((0, 10, 25, 50, 100)))
            if i % 4 in prod_rules:
                attr, value = prod_rules[i % 4]
                prod.rules, prod.next_rule = [Rule(id="rule-1", attribute=attr, values=[value], variation=0)], 2
            if i % 5 == 1:
                prod.targets = [Target(email=enterprise[i % 3], variation=1)]
            envs = {"development": EnvConfig(on=True, rollout_percentage=100),
                    "staging": EnvConfig(on=True, rollout_percentage=100, rules=[staff_rule], next_rule=2),
                    "production": prod}
            state.flags[key] = Flag(key=key, name=name, description=desc, variations=["true", "false"],
                                    tags=[team], maintainer_email=owner, temporary=i % 3 != 1,
                                    created_at=created, environments=envs)
            events.append((created, key, owner, None, "created", f"created flag {name!r}"))
            if prod.on:
                events.append((created + dt.timedelta(days=2), key, owner, "production", "turned_on", "turned on"))
        for n, (at, key, who, env, action, detail) in enumerate(sorted(events), start=1):
            state.audit_log[f"AUD-{n:04d}"] = AuditEntry(id=f"AUD-{n:04d}", at=at, actor_email=who, flag_key=key,
                                                         environment=env, action=action, detail=detail)
        state.counters["AUD"] = len(events) + 1
        return state


_SEED_FLAGS: tuple[tuple[str, str, str, str], ...] = (
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
