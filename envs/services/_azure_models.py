"""State records of the ``azure`` service: tenants, subscriptions, resource
groups and resources, directory principals, role definitions and role
assignments, and the session's selected tenant and subscription.

Field names are those of Azure Resource Manager and Microsoft.Authorization
(``subscriptionId``, ``provisioningState``, ``roleDefinitionId``,
``principalType``, ``notActions``...), so answers read like the SDK's.
"""

from __future__ import annotations

from typing import Literal, Optional, Union

from pydantic import Field

from compoworld_gym.entities import Date, Id
from compoworld_gym.service import Record, ServiceState

SubscriptionState = Literal["Enabled", "Warned", "PastDue", "Disabled"]
PrincipalType = Literal["User", "ServicePrincipal"]
#: A resource property value (ARM properties are JSON; these services keep them flat).
PropertyValue = Union[str, int, float, bool]


class Tenant(Record):
    """A Microsoft Entra tenant (directory)."""

    tenantId: str = Field(description="Tenant id (GUID).")
    displayName: str = Field(description="Tenant name.")
    defaultDomain: str = Field(description="Default domain, e.g. companyexample.onmicrosoft.com.")


class Subscription(Record):
    """An Azure subscription of a tenant."""

    subscriptionId: str = Field(description="Subscription id (GUID).")
    displayName: str = Field(description="Subscription name.")
    tenantId: str = Field(description="Tenant the subscription belongs to.")
    state: SubscriptionState = Field(description="Enabled, Warned, PastDue or Disabled (read-only).")


class ResourceGroup(Record):
    """A resource group."""

    id: Id("resource_group") = Field(description="ARM id: /subscriptions/<sub>/resourceGroups/<name>.")
    name: str = Field(description="Resource group name.")
    subscriptionId: str = Field(description="Subscription id.")
    location: str = Field(description="Azure region name, e.g. eastus.")
    tags: dict[str, str] = Field(default_factory=dict, description="Resource tags.")
    provisioningState: Literal["Succeeded", "Deleting"] = Field(default="Succeeded", description="ARM state.")


class Resource(Record):
    """A resource inside a resource group."""

    id: str = Field(description="ARM id: /subscriptions/<sub>/resourceGroups/<rg>/providers/<type>/<name>.")
    name: str = Field(description="Resource name.")
    type: str = Field(description="Resource type, e.g. Microsoft.Web/sites.")
    resourceGroup: str = Field(description="Resource group name.")
    subscriptionId: str = Field(description="Subscription id.")
    location: str = Field(description="Azure region name.")
    kind: Optional[str] = Field(default=None, description="Kind, e.g. app,linux or StorageV2.")
    sku: Optional[str] = Field(default=None, description="SKU name, e.g. Standard_LRS or P1v3.")
    tags: dict[str, str] = Field(default_factory=dict, description="Resource tags.")
    properties: dict[str, PropertyValue] = Field(default_factory=dict, description="Type-specific properties.")


class Principal(Record):
    """A directory object that roles are assigned to."""

    id: str = Field(description="Object id (GUID).")
    displayName: str = Field(description="Display name.")
    principalName: str = Field(description="User principal name (work email) or the app's name.")
    principalType: PrincipalType = Field(description="User or ServicePrincipal.")
    tenantId: str = Field(description="Home tenant.")
    accountEnabled: bool = Field(default=True, description="False once the account is blocked from signing in.")


class Permission(Record):
    """One permission block of a role definition."""

    actions: list[str] = Field(default_factory=list, description="Allowed control-plane operations (wildcards).")
    notActions: list[str] = Field(default_factory=list, description="Operations excluded from the actions.")
    dataActions: list[str] = Field(default_factory=list, description="Allowed data-plane operations.")
    notDataActions: list[str] = Field(default_factory=list, description="Data operations excluded.")


class RoleDefinition(Record):
    """A built-in or custom role."""

    name: str = Field(description="Role definition id (GUID).")
    roleName: str = Field(description="Role name, e.g. Contributor.")
    description: str = Field(description="What the role allows.")
    roleType: Literal["BuiltInRole", "CustomRole"] = Field(description="BuiltInRole or CustomRole.")
    permissions: list[Permission] = Field(description="Permission blocks.")
    assignableScopes: list[str] = Field(description="Scopes it can be assigned at ('/' = everywhere).")


class RoleAssignment(Record):
    """A role assigned to a principal at a scope."""

    id: Id("role_assignment") = Field(description="ARM id: <scope>/providers/Microsoft.Authorization/"
                                                   "roleAssignments/<guid>.")
    name: str = Field(description="Assignment id (GUID).")
    scope: str = Field(description="Management group, subscription, resource group or resource id.")
    roleDefinitionId: str = Field(description="Role definition GUID.")
    principalId: str = Field(description="Object id of the principal.")
    description: str = Field(default="", description="Why the role was assigned.")
    createdOn: Date = Field(description="Day the assignment was made.")
    createdBy: Optional[str] = Field(default=None, description="Object id of whoever assigned it.")


class Session(Record):
    """What ``select-tenant`` chose: the tenant and subscription the tools work in."""

    tenantId: str = Field(description="Selected tenant id.")
    subscriptionId: str = Field(description="Selected subscription id.")


class AzureState(ServiceState):
    """Tenants, subscriptions, resource groups, resources, principals, roles and the session."""

    tenants: dict[str, Tenant] = Field(default_factory=dict, description="Tenants by id.")
    subscriptions: dict[str, Subscription] = Field(default_factory=dict, description="Subscriptions by id.")
    resource_groups: dict[str, ResourceGroup] = Field(default_factory=dict, description="Resource groups by ARM id.")
    resources: dict[str, Resource] = Field(default_factory=dict, description="Resources by ARM id.")
    principals: dict[str, Principal] = Field(default_factory=dict, description="Directory principals by object id.")
    role_definitions: dict[str, RoleDefinition] = Field(default_factory=dict,
                                                        description="Role definitions by GUID.")
    role_assignments: dict[str, RoleAssignment] = Field(default_factory=dict,
                                                        description="Role assignments by ARM id.")
    caller_id: str = Field(description="Object id of the service principal the tools run as.")
    session: Optional[Session] = Field(default=None, description="The selected tenant and subscription.")


__all__ = ["AzureState", "Permission", "Principal", "PrincipalType", "PropertyValue", "Resource",
           "ResourceGroup", "RoleAssignment", "RoleDefinition", "Session", "Subscription", "SubscriptionState",
           "Tenant"]
