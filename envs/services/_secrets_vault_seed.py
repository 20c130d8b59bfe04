"""Seed factory of ``secrets_vault``: a ``secret`` mount with each app's
database and API credentials (owned by its team's engineers) and an ``infra``
mount that requires check-and-set; policies per team plus an admin policy."""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._blocks import stamp
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._engineering import APPS, ENG_MANAGER, ENGINEERS, team_engineers
from compoworld_gym.envs.services._secrets_vault_models import (
    Mount, Policy, PolicyRule, Secret, SecretVersion, VaultState,
)


def token(rng: random.Random, n: int = 24) -> str:
    """A made-up credential (letters and digits)."""
    return "".join(rng.choice("abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(n))


def make_secret(mount: str, path: str, versions: list[dict[str, str]], when: dt.datetime, owner: str,
                service: str) -> Secret:
    """A secret with ``versions`` written one day apart from ``when`` on, owner and service in its metadata."""
    vs = [SecretVersion(version=n, data=d, created_time=when + dt.timedelta(days=n - 1))
          for n, d in enumerate(versions, start=1)]
    return Secret(id=f"{mount}/{path}", mount=mount, path=path, versions=vs, current_version=len(vs),
                  custom_metadata={"owner": owner, "service": service}, created_time=when,
                  updated_time=vs[-1].created_time)


def build_vault_seed(rng: random.Random, today: dt.date) -> VaultState:
    """The seeded state; same ``(rng seed, today)`` → same state."""
    state = VaultState(mounts={
        "secret": Mount(path="secret", description="Application secrets"),
        "infra": Mount(path="infra", description="Infrastructure credentials", max_versions=5, cas_required=True)})
    for app in APPS:
        owner = rng.choice(team_engineers(app.team)).email
        db = [{"username": f"{app.key.replace('-', '_')}_app", "password": token(rng)} for _ in range(rng.randint(1, 3))]
        state.secrets[f"secret/apps/{app.key}/database"] = make_secret(
            "secret", f"apps/{app.key}/database", db, stamp(today, 60, rng), owner, app.key)
        state.secrets[f"secret/apps/{app.key}/api-key"] = make_secret(
            "secret", f"apps/{app.key}/api-key", [{"key": token(rng, 32)}], stamp(today, 30, rng), owner, app.key)
    state.secrets["infra/ci/deploy-token"] = make_secret("infra", "ci/deploy-token", [{"token": token(rng, 40)}],
                                                         stamp(today, 20, rng), ENG_MANAGER.email, "ci")
    # one soft-deleted version: it can be undeleted
    old = state.secrets["secret/apps/checkout-api/api-key"]
    old.versions.append(SecretVersion(version=2, data={"key": token(rng, 32)}, created_time=stamp(today, 3, rng),
                                      deletion_time=stamp(today, 2, rng)))
    old.current_version, old.updated_time = 2, old.versions[-1].deletion_time
    for team in dict.fromkeys(e.team for e in ENGINEERS):
        apps = [a.key for a in APPS if a.team == team]
        state.policies[f"{team}-apps"] = Policy(
            name=f"{team}-apps", members=[e.email for e in team_engineers(team)],
            rules=[PolicyRule(path=f"secret/data/apps/{k}/*", capabilities=["create", "read", "update", "delete"])
                   for k in apps])
    state.policies["admin"] = Policy(name="admin", members=[ENG_MANAGER.email, OPS_EMAIL],
                                     rules=[PolicyRule(path="*", capabilities=["create", "read", "update", "delete",
                                                                               "list"])])
    return state
