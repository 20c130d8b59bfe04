"""The shared part of the azure service: scope, permission, role and principal
helpers and the record views; ``azure.py`` holds the tools and documents the
behaviour.
"""

from __future__ import annotations

from typing import Optional

from compoworld_gym.envs.services._azure_models import (
    AzureState, Principal, ResourceGroup, RoleAssignment, RoleDefinition, Session, Subscription,
)
from compoworld_gym.envs.services._azure_rules import parse_scope, role_allows
from compoworld_gym.errors import Conflict, NotFound
from compoworld_gym.service import Service


class AzureBase(Service, register=False):
    """Helpers of the azure tools."""

    State = AzureState

    # ---------------------------------------------------------------- helpers
    def _session(self) -> Session:
        if self.state.session is None:
            raise Conflict("no tenant is selected; call select-tenant with a tenant and subscription first.")
        return self.state.session

    def _subscription(self, sid: str) -> Subscription:
        hit = next((s for k, s in self.state.subscriptions.items() if k.lower() == sid.strip().lower()), None)
        if hit is None:
            raise NotFound(f"subscription {sid!r} not found; list-tenants lists the subscriptions.")
        return hit

    def _scope(self, scope: Optional[str]) -> str:
        """``scope`` (the selected subscription when empty) in its stored casing, checked to exist."""
        if not scope or not scope.strip():
            return f"/subscriptions/{self._session().subscriptionId}"
        parts = parse_scope(scope)
        if parts.management_group is not None:
            tenant = next((t for t in self.state.tenants if t.lower() == parts.management_group.lower()), None)
            if tenant is None:
                raise NotFound(f"management group {parts.management_group!r} not found; only tenant root groups "
                               "(named by the tenant id) exist.")
            return f"/providers/Microsoft.Management/managementGroups/{tenant}"
        sub = self._subscription(parts.subscription or "")
        if parts.resource_group is None:
            return f"/subscriptions/{sub.subscriptionId}"
        group = self._group(f"/subscriptions/{sub.subscriptionId}/resourceGroups/{parts.resource_group}")
        if parts.resource is None:
            return group.id
        return self._resource_id(parts.resource)

    def _group(self, rid: str) -> ResourceGroup:
        hit = next((g for k, g in self.state.resource_groups.items() if k.lower() == rid.lower()), None)
        if hit is None:
            raise NotFound(f"resource group {rid!r} not found; list-resource-groups lists them.")
        return hit

    def _resource_id(self, rid: str) -> str:
        hit = next((k for k in self.state.resources if k.lower() == rid.lower()), None)
        if hit is None:
            raise NotFound(f"resource {rid!r} not found; list-resources lists a group's resources.")
        return hit

    def _lineage(self, scope: str) -> list[str]:
        """``scope`` and the scopes above it, up to the tenant root management group."""
        parts = parse_scope(scope)
        if parts.management_group is not None:
            return [scope]
        sub = self._subscription(parts.subscription or "")
        out = [scope]
        if parts.resource is not None:
            out.append(f"/subscriptions/{sub.subscriptionId}/resourceGroups/{parts.resource_group}")
        if parts.resource_group is not None:
            out.append(f"/subscriptions/{sub.subscriptionId}")
        return out + [f"/providers/Microsoft.Management/managementGroups/{sub.tenantId}"]

    def _applying(self, scope: str) -> list[RoleAssignment]:
        lineage = {s.lower() for s in self._lineage(scope)}
        return [a for a in self.state.role_assignments.values() if a.scope.lower() in lineage]

    def _allowed(self, principal: str, operation: str, scope: str) -> bool:
        return any(a.principalId == principal and role_allows(self.state.role_definitions[a.roleDefinitionId],
                                                              operation) for a in self._applying(scope))

    def _authorize(self, operation: str, scope: str) -> None:
        parts = parse_scope(scope)
        if parts.subscription is not None:
            sub = self._subscription(parts.subscription)
            if sub.state == "Disabled":
                raise Conflict(f"ReadOnlyDisabledSubscription: subscription {sub.displayName} is disabled and "
                               "read-only; nothing can be created or changed in it.")
        if not self._allowed(self.state.caller_id, operation, scope):
            raise Conflict(f"AuthorizationFailed: the client 'ops-automation' does not have authorization to "
                           f"perform action '{operation}' over scope '{scope}'.")

    def _role(self, ref: str) -> RoleDefinition:
        key = ref.strip().rsplit("/", 1)[-1].lower()
        hit = next((r for r in self.state.role_definitions.values()
                    if r.name == key or r.roleName.lower() == ref.strip().lower()), None)
        if hit is None:
            raise NotFound(f"role {ref!r} not found; get-role-definitions lists the roles.")
        return hit

    def _principal(self, name: str) -> Principal:
        hit = next((p for p in self.state.principals.values()
                    if name.strip().lower() in (p.principalName.lower(), p.id)), None)
        if hit is None:
            raise NotFound(f"principal {name!r} not found in the directory; give a user's work email or a service "
                           "principal's name.")
        return hit

    def _definition_view(self, role: RoleDefinition, scope: str) -> dict:
        parts = parse_scope(scope)
        base = f"/subscriptions/{parts.subscription}" if parts.subscription else ""
        return {"id": f"{base}/providers/Microsoft.Authorization/roleDefinitions/{role.name}",
                "type": "Microsoft.Authorization/roleDefinitions", **role.model_dump()}

    def _assignment_view(self, a: RoleAssignment) -> dict:
        p, role = self.state.principals.get(a.principalId), self.state.role_definitions[a.roleDefinitionId]
        by = self.state.principals.get(a.createdBy or "")
        parts = parse_scope(a.scope)
        base = f"/subscriptions/{parts.subscription}" if parts.subscription else ""
        return {"id": a.id, "name": a.name, "type": "Microsoft.Authorization/roleAssignments", "scope": a.scope,
                "roleDefinitionId": f"{base}/providers/Microsoft.Authorization/roleDefinitions/{role.name}",
                "roleDefinitionName": role.roleName, "principalId": a.principalId,
                "principalName": p.principalName if p else None, "principalType": p.principalType if p else None,
                "description": a.description, "createdOn": a.createdOn, "createdBy": a.createdBy,
                "createdByName": by.principalName if by else None, "condition": None}

    @staticmethod
    def _group_view(g: ResourceGroup) -> dict:
        return {"id": g.id, "name": g.name, "type": "Microsoft.Resources/resourceGroups", "location": g.location,
                "tags": g.tags, "provisioningState": g.provisioningState}

    def _assignment(self, ref: str) -> RoleAssignment:
        key = ref.strip().rstrip("/").lower()
        hit = next((a for a in self.state.role_assignments.values() if key in (a.id.lower(), a.name)), None)
        if hit is None:
            raise NotFound(f"role assignment {ref!r} not found; list-role-assignments lists them with their ids.")
        return hit


__all__ = ["AzureBase"]
