"""Azure: tenants, subscriptions, resource groups and resources, and Azure RBAC (roles and role assignments).

Follows the MCP server ``@kalivaraprasad-gonapa_azure-mcp`` (``spec_source``):
all 9 of its tools, named with hyphens as it names them. The tools run as the
``ops-automation`` service principal in the tenant and subscription chosen with
``select-tenant`` (the seed starts with the Production subscription selected).
Rules of Azure Resource Manager and RBAC:

* a scope is a management group, subscription, resource group or resource id
  (400 when malformed, 404 when it does not exist); ``list-role-assignments``
  answers the assignments at, above (inherited) and below the scope;
  ``get-user-permissions`` combines the assignments that apply at the scope
  (at it or inherited) with their role definitions, and works out per principal
  the roles, actions and whether it can read, write or delete resource groups
  and manage access (RBAC is additive: one role's notActions do not deny what
  another role grants);
* ``create-resource-group`` is ARM's create-or-update (PUT): on an existing group
  the location must match (409 InvalidResourceGroupLocation) and the given tags
  replace all of its tags (no tags given clears them); names, regions and tags
  are validated (400);
* writes need the caller's permission at the scope (409 AuthorizationFailed,
  e.g. Development, where it is a Reader) and an enabled subscription (409
  ReadOnlyDisabledSubscription);
* a role assignment is unique per principal, role and scope (409
  RoleAssignmentExists); a custom role only at its assignable scopes (422).

``run-azure-code`` cannot run JavaScript deterministically: it checks the tenant
and subscription it is given, then answers 422 naming the typed tools to use.
Designed tools (not in the server, which reads and writes RBAC only through
that code): ``list-resources`` (``az resource list``), ``create-role-assignment``
and ``delete-role-assignment`` (``az role assignment create/delete``).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.envs.services._azure_base import AzureBase
from compoworld_gym.envs.services._azure_models import AzureState, ResourceGroup, Session
from compoworld_gym.envs.services._azure_rules import (
    DELETE_RA, PROBES, WRITE_RA, WRITE_RG, check_location, check_rg_name, check_tags, covers, parse_scope,
)
from compoworld_gym.envs.services._azure_seed import build_state, make_assignment
from compoworld_gym.entities import Id
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import tool

_TYPED_TOOLS = ("list-resource-groups, list-resources, get-resource-details, list-role-assignments, "
                "get-role-definitions and get-user-permissions")


class Azure(AzureBase):
    """Azure Resource Manager and RBAC: subscriptions, resource groups, resources, roles, role assignments."""

    name = "azure"
    description = ("The company's Azure: tenants and subscriptions, resource groups and their resources, role "
                   "definitions and who holds which role where.")
    domain = "devops"
    spec_source = "@kalivaraprasad-gonapa_azure-mcp"
    designed_tools = frozenset({"list-resources", "create-role-assignment", "delete-role-assignment"})
    State = AzureState

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, name="list-tenants")
    def list_tenants(self) -> dict:
        """List all available Azure tenants

        Answers the tenants and the subscriptions (with their tenant and state).
        """
        return {"tenants": [{"id": t.tenantId, "name": t.displayName, "defaultDomain": t.defaultDomain}
                            for t in self.state.tenants.values()],
                "subscriptions": [{"id": s.subscriptionId, "name": s.displayName, "state": s.state,
                                   "tenantId": s.tenantId} for s in self.state.subscriptions.values()],
                "selected": self.state.session.model_dump() if self.state.session else None}

    @tool(read_only=True, name="list-resource-groups")
    def list_resource_groups(self) -> list[dict]:
        """List all resource groups in the selected subscription"""
        sub = self._session().subscriptionId
        return [self._group_view(g) for g in self.state.resource_groups.values() if g.subscriptionId == sub]

    @tool(read_only=True, name="list-resources")
    def list_resources(self, resourceGroup: Optional[str] = None, resourceType: Optional[str] = None) -> list[dict]:
        """List the resources of the selected subscription, optionally of one resource group or type.

        Args:
            resourceGroup: resource group name (case-insensitive).
            resourceType: resource type, e.g. Microsoft.Web/sites.
        """
        sub = self._session().subscriptionId
        if resourceGroup is not None:
            self._group(f"/subscriptions/{sub}/resourceGroups/{resourceGroup}")
        return [{"id": r.id, "name": r.name, "type": r.type, "resourceGroup": r.resourceGroup, "location": r.location}
                for r in self.state.resources.values() if r.subscriptionId == sub
                and (resourceGroup is None or r.resourceGroup.lower() == resourceGroup.lower())
                and (resourceType is None or r.type.lower() == resourceType.lower())]

    @tool(read_only=True, name="get-resource-details")
    def get_resource_details(self, resourceId: str = Field(min_length=1, max_length=1000)) -> dict:
        """Get detailed information about a specific resource

        A resource group id answers the group with its resources.

        Args:
            resourceId: Azure Resource ID
        """
        parts = parse_scope(resourceId)
        if parts.resource_group is None:
            raise InvalidArgument("Invalid resource ID format; give /subscriptions/<id>/resourceGroups/<name>"
                                  "[/providers/<namespace>/<type>/<name>].")
        scope = self._scope(resourceId)
        if parts.resource is None:
            group = self._group(scope)
            return {**self._group_view(group), "resources": [
                {"id": r.id, "name": r.name, "type": r.type} for r in self.state.resources.values()
                if r.subscriptionId == group.subscriptionId and r.resourceGroup.lower() == group.name.lower()]}
        r = self.state.resources[scope]
        return {"id": r.id, "name": r.name, "type": r.type, "location": r.location, "kind": r.kind, "sku": r.sku,
                "resourceGroup": r.resourceGroup, "tags": r.tags, "properties": r.properties}

    @tool(read_only=True, name="list-role-assignments")
    def list_role_assignments(self, scope: Optional[str] = None) -> dict:
        """List role assignments for the subscription or resource group

        Answers the assignments at the scope, inherited from above it, and on scopes beneath it.

        Args:
            scope: Scope for role assignments (subscription, resource group, or resource ID).
                Leave empty for subscription level.
        """
        at = self._scope(scope)
        lineage = [s.lower() for s in self._lineage(at)]
        rows = [a for a in self.state.role_assignments.values() if a.scope.lower() in lineage or covers(at, a.scope)]
        rows.sort(key=lambda a: (len(a.scope), a.scope.lower(), a.createdOn, a.name))
        return {"roleAssignments": [self._assignment_view(a) for a in rows], "total": len(rows), "scope": at}

    @tool(read_only=True, name="get-role-definitions")
    def get_role_definitions(self, scope: Optional[str] = None) -> dict:
        """List available role definitions

        Answers the built-in roles and the custom roles assignable at the scope.

        Args:
            scope: Scope for role definitions. Leave empty for subscription level.
        """
        at = self._scope(scope)
        roles = [r for r in self.state.role_definitions.values()
                 if any(s == "/" or covers(s, at) for s in r.assignableScopes)]
        return {"roleDefinitions": [self._definition_view(r, at) for r in roles], "total": len(roles)}

    @tool(read_only=True, name="get-user-permissions")
    def get_user_permissions(self, scope: Optional[str] = None) -> dict:
        """Get detailed user permissions by combining role assignments and role definitions

        Uses the assignments that apply at the scope (at it or inherited). ``effectivePermissions``
        gives per principal its roles, the union of their actions, and what it can do here.

        Args:
            scope: Scope to check permissions for. Leave empty for subscription level.
        """
        at = self._scope(scope)
        applying = sorted(self._applying(at), key=lambda a: (len(a.scope), a.createdOn, a.name))
        perms, summary, effective = [], {}, {}
        for a in applying:
            role, view = self.state.role_definitions[a.roleDefinitionId], self._assignment_view(a)
            perms.append({"principalId": a.principalId, "principalName": view["principalName"],
                          "principalType": view["principalType"], "scope": a.scope, "createdOn": a.createdOn,
                          "inherited": a.scope.lower() != at.lower(),
                          "roleDefinition": {"id": view["roleDefinitionId"], "name": role.roleName,
                                             "description": role.description,
                                             "permissions": [p.model_dump() for p in role.permissions]}})
            summary[role.roleName] = summary.get(role.roleName, 0) + 1
            entry = effective.setdefault(a.principalId, {"principalName": view["principalName"],
                                                         "principalType": view["principalType"], "roles": [],
                                                         "actions": set()})
            entry["roles"].append(role.roleName)
            entry["actions"].update(x for p in role.permissions for x in p.actions)
        for pid, entry in effective.items():
            entry["roles"] = sorted(set(entry["roles"]))
            entry["actions"] = sorted(entry["actions"])
            entry.update({k: self._allowed(pid, op, at) for k, op in PROBES.items()})
        return {"userPermissions": perms, "roleSummary": summary, "totalAssignments": len(applying), "scope": at,
                "effectivePermissions": [{"principalId": pid, **e} for pid, e in sorted(
                    effective.items(), key=lambda kv: str(kv[1]["principalName"]).lower())]}

    @tool(read_only=True, name="run-azure-code")
    def run_azure_code(self, reasoning: str = Field(max_length=5000), code: str = Field(max_length=20000),
                       tenantId: Optional[str] = None, subscriptionId: Optional[str] = None) -> dict:
        """Run Azure code

        Not available here: JavaScript cannot be run deterministically. After checking the
        tenant and subscription it is given, it always answers 422 naming the typed tools.

        Args:
            reasoning: The reasoning behind the code
            code: JavaScript using the Azure SDK clients (resourceClient, subscriptionClient,
                authorizationClient) that returns a JSON value.
            tenantId: Azure Tenant ID
            subscriptionId: Azure Subscription ID
        """
        if tenantId is not None and tenantId.strip().lower() not in {t.lower() for t in self.state.tenants}:
            raise NotFound(f"tenant {tenantId!r} not found; list-tenants lists them.")
        if subscriptionId is not None:
            self._subscription(subscriptionId)
        raise Unprocessable(f"run-azure-code cannot execute code in this environment; use {_TYPED_TOOLS} instead.")

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, idempotent=True, name="select-tenant")
    def select_tenant(self, tenantId: str = Field(min_length=1), subscriptionId: str = Field(min_length=1)) -> dict:
        """Select Azure tenant and subscription

        Args:
            tenantId: Azure Tenant ID to select
            subscriptionId: Azure Subscription ID to select
        """
        tenant = next((t for t in self.state.tenants.values() if t.tenantId.lower() == tenantId.strip().lower()), None)
        if tenant is None:
            raise NotFound(f"tenant {tenantId!r} not found; list-tenants lists them.")
        sub = self._subscription(subscriptionId)
        if sub.tenantId != tenant.tenantId:
            raise Unprocessable(f"subscription {sub.displayName} belongs to tenant {sub.tenantId}, not "
                                f"{tenant.tenantId}; select its own tenant.")
        self.state.session = Session(tenantId=tenant.tenantId, subscriptionId=sub.subscriptionId)
        return {"message": "Tenant and subscription selected! Clients initialized.", "tenantId": tenant.tenantId,
                "subscriptionId": sub.subscriptionId, "subscriptionName": sub.displayName, "state": sub.state}

    @tool(read_only=False, destructive=True, name="create-resource-group")
    def create_resource_group(self, name: str = Field(min_length=1, max_length=90),
                              location: str = Field(min_length=2, max_length=40),
                              tags: Optional[dict[str, str]] = None) -> dict:
        """Create a new resource group

        As ARM's create-or-update: on an existing group the location must match and the
        given tags replace all of its tags (omitted tags clear them).

        Args:
            name: Resource group name
            location: Azure region
            tags: Resource tags (optional)
        """
        check_rg_name(name)
        region, new_tags = check_location(location), check_tags(tags or {})
        sub = self._session().subscriptionId
        self._authorize(WRITE_RG, f"/subscriptions/{sub}")
        existing = next((g for g in self.state.resource_groups.values()
                         if g.subscriptionId == sub and g.name.lower() == name.lower()), None)
        if existing is not None:
            if existing.location != region:
                raise Conflict(f"InvalidResourceGroupLocation: resource group {existing.name} already exists in "
                               f"location '{existing.location}'; give that location to update it.")
            existing.tags = new_tags
            return self._group_view(existing)
        rid = f"/subscriptions/{sub}/resourceGroups/{name}"
        group = ResourceGroup(id=rid, name=name, subscriptionId=sub, location=region, tags=new_tags)
        self.state.resource_groups[rid] = group
        return self._group_view(group)

    @tool(read_only=False, name="create-role-assignment")
    def create_role_assignment(self, scope: str = Field(min_length=1, max_length=1000),
                               roleName: str = Field(min_length=1, max_length=200),
                               principalName: str = Field(min_length=1, max_length=200),
                               description: Optional[str] = Field(default=None, max_length=500)) -> dict:
        """Assign a role to a user or service principal at a scope.

        Args:
            scope: subscription, resource group or resource id.
            roleName: role name (e.g. Reader) or role definition id.
            principalName: the user's work email, or the service principal's name.
            description: why the role is assigned.
        """
        at = self._scope(scope)
        role, principal = self._role(roleName), self._principal(principalName)
        self._authorize(WRITE_RA, at)
        if not any(s == "/" or covers(s, at) for s in role.assignableScopes):
            raise Unprocessable(f"role {role.roleName} can only be assigned at {', '.join(role.assignableScopes)}.")
        dup = next((a for a in self.state.role_assignments.values() if a.principalId == principal.id
                    and a.roleDefinitionId == role.name and a.scope.lower() == at.lower()), None)
        if dup is not None:
            raise Conflict(f"RoleAssignmentExists: {principal.principalName} already has {role.roleName} at this "
                           f"scope ({dup.id}).")
        ra = make_assignment(at, role.name, principal.id, self.today, self.state.caller_id, description or "")
        self.state.role_assignments[ra.id] = ra
        return self._assignment_view(ra)

    @tool(read_only=False, destructive=True, name="delete-role-assignment")
    def delete_role_assignment(self, roleAssignmentId: Id("role_assignment") = Field(min_length=1)) -> dict:
        """Remove a role assignment (its full id or its GUID name); answers the removed assignment.

        Args:
            roleAssignmentId: the assignment's id
                (<scope>/providers/Microsoft.Authorization/roleAssignments/<guid>) or its GUID.
        """
        a = self._assignment(roleAssignmentId)
        self._authorize(DELETE_RA, a.scope)
        view = self._assignment_view(a)
        del self.state.role_assignments[a.id]
        return view

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> AzureState:
        return build_state(rng, today)
