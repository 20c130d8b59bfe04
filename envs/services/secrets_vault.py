"""Secrets vault: HashiCorp Vault KV v2 style versioned secrets with ACL policies.

No Vault server is in ``compoworld_gym/data/mcp_servers.jsonl``; the interface
follows the Vault KV v2 HTTP API: ``/sys/mounts``, ``/<mount>/data/<path>``
(read, write with ``options.cas``), ``/<mount>/metadata/<path>`` (versions,
``max_versions``, ``cas_required``, ``custom_metadata``; never values),
``/delete``, ``/undelete``, ``/destroy`` of versions, and ``/sys/policy``.
The caller's token is named by ``requester_email``: a call is allowed when a
policy carrying that person grants the capability on ``<mount>/data/<path>``.

Values are returned only by ``read_secret`` (as Vault's data endpoint does);
writes and metadata return version metadata. Rules as in Vault: a write with
``cas`` must match the current version (0: only if the secret is new) and is
required when the secret or mount says ``cas_required``; a destroyed version
cannot be undeleted; reading a deleted or destroyed version is a 404;
versions beyond ``max_versions`` are pruned, oldest first.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Email
from compoworld_gym.envs.services._secrets_vault_models import Capability, Mount, Policy, Secret, SecretVersion, VaultState
from compoworld_gym.envs.services._secrets_vault_seed import build_vault_seed
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

SecretPath = str


def _meta(s: Secret) -> dict:
    """A secret's metadata as ``/metadata`` shows it: versions without data."""
    return {**s.model_dump(exclude={"versions"}),
            "versions": {str(v.version): {"created_time": v.created_time, "deletion_time": v.deletion_time,
                                          "destroyed": v.destroyed} for v in s.versions}}


def _version_meta(v: SecretVersion) -> dict:
    return {"version": v.version, "created_time": v.created_time, "deletion_time": v.deletion_time,
            "destroyed": v.destroyed}


class SecretsVault(Service):
    """HashiCorp Vault KV v2 style secret storage."""

    name = "secrets_vault"
    description = ("Secrets vault: versioned key/value secrets per mount and path, metadata, check-and-set "
                   "writes, soft delete/undelete/destroy of versions, and ACL policies.")
    domain = "devops"
    spec_source = None
    State = VaultState

    # ---------------------------------------------------------------- helpers
    def _mount(self, mount: str) -> Mount:
        return self.lookup(self.state.mounts, mount, "mount")

    def _secret(self, mount: str, path: str) -> Secret:
        self._mount(mount)
        s = self.state.secrets.get(f"{mount}/{path.strip('/')}")
        if s is None:
            raise NotFound(f"no secret at {mount}/{path}; call list_secrets for valid paths.")
        return s

    def _allow(self, email: str, mount: str, path: str, cap: Capability) -> None:
        target = f"{mount}/data/{path.strip('/')}"
        for p in self.state.policies.values():
            if email.lower() in (m.lower() for m in p.members):
                for r in p.rules:
                    hit = target.startswith(r.path[:-1]) if r.path.endswith("*") else target == r.path
                    if hit and cap in r.capabilities:
                        return
        raise Unprocessable(f"permission denied: no policy of {email} grants {cap} on {target}; "
                            "call list_policies to see who may.")

    @staticmethod
    def _versions(s: Secret, versions: list[int]) -> list[SecretVersion]:
        kept = {v.version: v for v in s.versions}
        unknown = [n for n in versions if n not in kept]
        if unknown:
            raise InvalidArgument(f"{s.id} has no versions {unknown}; kept: {sorted(kept)}.")
        return [kept[n] for n in dict.fromkeys(versions)]

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Mount])
    def list_mounts(self) -> list[dict]:
        """List the KV v2 mounts with their default max_versions and cas_required (GET /sys/mounts)."""
        return [m.model_dump() for m in self.state.mounts.values()]

    @tool(read_only=True)
    def list_secrets(self, mount: str, path: str = "") -> dict:
        """List the keys under a path prefix (LIST /<mount>/metadata/<path>); folders end with '/'.

        Args:
            mount: the mount, e.g. 'secret'.
            path: the folder, e.g. 'apps/' ('' for the top).
        """
        self._mount(mount)
        prefix = path.strip("/") + "/" if path.strip("/") else ""
        keys = {s.path[len(prefix):].split("/")[0] + ("/" if "/" in s.path[len(prefix):] else "")
                for s in self.state.secrets.values() if s.mount == mount and s.path.startswith(prefix)}
        if not keys:
            raise NotFound(f"nothing under {mount}/{prefix}; call list_secrets with a shorter path.")
        return {"keys": sorted(keys)}

    @tool(read_only=True, returns=Secret)
    def read_secret_metadata(self, mount: str, path: SecretPath) -> dict:
        """A secret's metadata: versions (no values), current_version, max_versions, cas_required, custom_metadata.

        Args:
            mount: the mount.
            path: the secret path, e.g. 'apps/checkout-api/database'.
        """
        return _meta(self._secret(mount, path))

    @tool(read_only=True)
    def read_secret(self, mount: str, path: SecretPath, requester_email: Email,
                    version: Optional[int] = Field(default=None, ge=1)) -> dict:
        """Read a secret's value (GET /<mount>/data/<path>), the latest version unless ``version`` is given.

        Needs the read capability; a deleted or destroyed version is a 404.

        Args:
            mount: the mount.
            path: the secret path.
            requester_email: whose token reads (a policy must grant read).
            version: a kept version number.
        """
        s = self._secret(mount, path)
        self._allow(requester_email, mount, path, "read")
        v = self._versions(s, [version or s.current_version])[0]
        if v.destroyed or v.deletion_time is not None:
            raise NotFound(f"version {v.version} of {s.id} is {'destroyed' if v.destroyed else 'deleted'}.")
        return {"data": dict(v.data), "metadata": _version_meta(v)}

    @tool(read_only=True, returns=list[Policy])
    def list_policies(self) -> list[dict]:
        """List ACL policies with their path rules and the people who carry them (GET /sys/policy)."""
        return [p.model_dump() for p in self.state.policies.values()]

    @tool(read_only=True, returns=Policy)
    def read_policy(self, name: str) -> dict:
        """Read one ACL policy.

        Args:
            name: the policy name, e.g. 'payments-apps'.
        """
        return self.lookup(self.state.policies, name, "policy").model_dump()

    # ----------------------------------------------------------------- writes
    @tool(read_only=False)
    def write_secret(self, mount: str, path: SecretPath, data: dict[str, str], requester_email: Email,
                     cas: Optional[int] = Field(default=None, ge=0)) -> dict:
        """Write a new version of a secret (POST /<mount>/data/<path>); returns the version's metadata only.

        Args:
            mount: the mount.
            path: the secret path (created if new).
            data: the key/value pairs of the new version (at least one).
            requester_email: whose token writes (create for a new secret, update otherwise).
            cas: check-and-set: the current version (0 = only if new); required when cas_required.
        """
        m = self._mount(mount)
        path = path.strip("/")
        if not path or not data:
            raise InvalidArgument("path and data must not be empty.")
        s = self.state.secrets.get(f"{mount}/{path}")
        self._allow(requester_email, mount, path, "update" if s else "create")
        current = s.current_version if s else 0
        if cas is None and (m.cas_required or (s is not None and s.cas_required)):
            raise InvalidArgument(f"check-and-set parameter required for {mount}/{path}; pass cas={current}.")
        if cas is not None and cas != current:
            raise Conflict(f"check-and-set parameter did not match the current version ({current}).")
        now = self.now()
        if s is None:
            s = Secret(id=f"{mount}/{path}", mount=mount, path=path, created_time=now, updated_time=now)
            self.state.secrets[s.id] = s
        v = SecretVersion(version=current + 1, data=dict(data), created_time=now)
        s.versions.append(v)
        s.current_version, s.updated_time = v.version, now
        keep = s.max_versions or m.max_versions
        del s.versions[:max(0, len(s.versions) - keep)]  # prune the oldest beyond max_versions
        return _version_meta(v)

    @tool(read_only=False, returns=Secret)
    def update_secret_metadata(self, mount: str, path: SecretPath, requester_email: Email,
                               max_versions: Optional[int] = Field(default=None, ge=0, le=100),
                               cas_required: Optional[bool] = None,
                               custom_metadata: Optional[dict[str, str]] = None) -> dict:
        """Change max_versions, cas_required or custom_metadata (replaces it whole); returns the metadata.

        Args:
            mount: the mount.
            path: the secret path.
            requester_email: whose token (needs update).
            max_versions: versions kept (0 = mount default).
            cas_required: require check-and-set on writes.
            custom_metadata: new free metadata (string values).
        """
        s = self._secret(mount, path)
        self._allow(requester_email, mount, path, "update")
        if max_versions is None and cas_required is None and custom_metadata is None:
            raise InvalidArgument("nothing to update; pass max_versions, cas_required or custom_metadata.")
        if max_versions is not None:
            s.max_versions = max_versions
        if cas_required is not None:
            s.cas_required = cas_required
        if custom_metadata is not None:
            s.custom_metadata = dict(custom_metadata)
        s.updated_time = self.now()
        return _meta(s)

    def _soft(self, mount: str, path: str, email: str, versions: list[int], action: str) -> dict:
        s = self._secret(mount, path)
        self._allow(email, mount, path, "delete" if action != "undelete" else "update")
        picked = self._versions(s, versions)
        now = self.now()
        for v in picked:
            if v.destroyed and action != "destroy":
                raise Conflict(f"version {v.version} of {s.id} is destroyed; it cannot be {action}d.")
            if action == "delete":
                v.deletion_time = v.deletion_time or now
            elif action == "undelete":
                v.deletion_time = None
            else:
                v.destroyed, v.data = True, {}
        s.updated_time = now
        return _meta(s)

    @tool(read_only=False, returns=Secret)
    def delete_latest_version(self, mount: str, path: SecretPath, requester_email: Email) -> dict:
        """Soft-delete the latest version (DELETE /<mount>/data/<path>); it can be undeleted.

        Args:
            mount: the mount.
            path: the secret path.
            requester_email: whose token (needs delete).
        """
        s = self._secret(mount, path)
        return self._soft(mount, path, requester_email, [s.current_version], "delete")

    @tool(read_only=False, returns=Secret)
    def delete_secret_versions(self, mount: str, path: SecretPath, versions: list[int] = Field(min_length=1),
                               requester_email: Email = Field(description="Whose token (needs delete).")) -> dict:
        """Soft-delete versions (POST /<mount>/delete/<path>).

        Args:
            mount: the mount.
            path: the secret path.
            versions: version numbers.
            requester_email: whose token (needs delete).
        """
        return self._soft(mount, path, requester_email, versions, "delete")

    @tool(read_only=False, returns=Secret)
    def undelete_secret_versions(self, mount: str, path: SecretPath, versions: list[int] = Field(min_length=1),
                                 requester_email: Email = Field(description="Whose token (needs update).")) -> dict:
        """Restore soft-deleted versions (POST /<mount>/undelete/<path>); destroyed ones cannot be (409).

        Args:
            mount: the mount.
            path: the secret path.
            versions: version numbers.
            requester_email: whose token (needs update).
        """
        return self._soft(mount, path, requester_email, versions, "undelete")

    @tool(read_only=False, destructive=True, returns=Secret)
    def destroy_secret_versions(self, mount: str, path: SecretPath, versions: list[int] = Field(min_length=1),
                                requester_email: Email = Field(description="Whose token (needs delete).")) -> dict:
        """Permanently remove the data of versions (PUT /<mount>/destroy/<path>).

        Args:
            mount: the mount.
            path: the secret path.
            versions: version numbers.
            requester_email: whose token (needs delete).
        """
        return self._soft(mount, path, requester_email, versions, "destroy")

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> VaultState:
        """Seeded mounts, secrets and policies (see ``_secrets_vault_seed``)."""
        return build_vault_seed(rng, today)
