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
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Email, Id
from compoworld_gym.envs.services import _feature_flags_seed as seed
from compoworld_gym.envs.services._blocks import eq, has, ieq, pick, select, text
from compoworld_gym.envs.services._feature_flags_models import (
    ENVIRONMENTS, FLAG_KEY, Attribute, AuditEntry, EnvConfig, Environment, FeatureFlagsState, Flag, Rule, Segment,
    Target, bucket,
)
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool


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
        # Empty tag, maintainer or query strings mean "no filter", as None does.
        hits = select(self.state.flags.values(),
                      None if include_archived else eq("archived", False), has("tags", tag or None),
                      None if on is None else (lambda f: f.environments[environment].on == on),
                      ieq("maintainer_email", maintainer_email or None),
                      text(query or None, "key", "name", "description"), limit=limit)
        return [_summary(f) for f in hits]

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
        return [a.model_dump() for a in select(reversed(self.state.audit_log.values()), eq("flag_key", flag_key),
                                               eq("environment", environment), ieq("actor_email", actor_email),
                                               limit=limit)]

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
            pick(self.state.segments, values, "segment", "call list_segments for valid keys.")
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
        return seed.build_state(fake, rng, today)
