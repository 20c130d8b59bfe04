"""Records and state of the ``secrets_vault`` service (HashiCorp Vault KV v2 shapes)."""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id
from compoworld_gym.service import Record, ServiceState

Capability = Literal["create", "read", "update", "delete", "list"]


class Mount(Record):
    """A KV v2 secrets engine mount."""

    path: str = Field(description="Mount path without slashes, e.g. 'secret'.")
    description: str = Field(default="", description="What the mount holds.")
    max_versions: int = Field(default=10, ge=1, le=100, description="Default versions kept per secret.")
    cas_required: bool = Field(default=False, description="Whether every write needs check-and-set.")


class SecretVersion(Record):
    """One version of a secret. ``data`` is the secret value: only read_secret returns it."""

    version: int = Field(ge=1, description="Version number.")
    data: dict[str, str] = Field(description="Key/value pairs (secret; emptied when destroyed).")
    created_time: DateTime = Field(description="When written.")
    deletion_time: Optional[DateTime] = Field(default=None, description="When soft-deleted, if it is.")
    destroyed: bool = Field(default=False, description="Permanently destroyed (data gone).")


class Secret(Record):
    """A secret at a path of a mount, with its versions and metadata."""

    id: Id("secret") = Field(description="Full path '<mount>/<path>', e.g. 'secret/apps/checkout-api/database'.")
    mount: str = Field(description="Mount path.")
    path: str = Field(description="Path inside the mount.")
    versions: list[SecretVersion] = Field(default_factory=list, description="Kept versions, oldest first.")
    current_version: int = Field(default=0, ge=0, description="Latest version number.")
    max_versions: int = Field(default=0, ge=0, le=100, description="Versions kept; 0 = the mount's default.")
    cas_required: bool = Field(default=False, description="Writes need check-and-set.")
    custom_metadata: dict[str, str] = Field(default_factory=dict, description="Free metadata (owner, service...).")
    created_time: DateTime = Field(description="When the first version was written.")
    updated_time: DateTime = Field(description="When the secret or its metadata last changed.")


class PolicyRule(Record):
    """Capabilities on a path glob (a trailing ``*`` matches any suffix), e.g. ``secret/data/apps/*``."""

    path: str = Field(description="Path glob of the API path.")
    capabilities: list[Capability] = Field(min_length=1, description="Granted capabilities.")


class Policy(Record):
    """An ACL policy and the people whose tokens carry it."""

    name: str = Field(description="Policy name.")
    rules: list[PolicyRule] = Field(min_length=1, description="Path rules.")
    members: list[Email] = Field(default_factory=list, description="People whose tokens carry this policy.")


class VaultState(ServiceState):
    """Mounts, secrets and policies."""

    mounts: dict[str, Mount] = Field(default_factory=dict, description="Mounts by path.")
    secrets: dict[str, Secret] = Field(default_factory=dict, description="Secrets by full path.")
    policies: dict[str, Policy] = Field(default_factory=dict, description="Policies by name.")
