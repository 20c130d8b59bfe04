"""Azure rules of the ``azure`` service: built-in roles, scopes, effective permissions, names and tags.

* :data:`BUILTIN_ROLES` are Azure's built-in role definitions with their real
  GUIDs and (abridged) action lists;
* a scope is a management group, a subscription, a resource group or a
  resource id; :func:`ancestors` gives the scopes whose assignments it inherits;
* an operation is allowed when some role assigned at the scope or above has an
  action matching it (``*`` wildcards, case-insensitive) and no ``notAction`` of
  that same role excludes it; Azure RBAC is additive, so another role may grant
  what one role's notActions leave out;
* resource group names are 1-90 letters, digits, ``-_.()`` not ending in ``.``;
  at most 50 tags, names up to 512 characters without ``<>%&\\?/``, values up to 256.
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase
from typing import Iterable, NamedTuple, Optional

from compoworld_gym.envs.services._azure_models import Permission, RoleDefinition
from compoworld_gym.errors import InvalidArgument


def _builtin(guid: str, name: str, description: str, actions: list[str], not_actions: Iterable[str] = (),
             data_actions: Iterable[str] = ()) -> RoleDefinition:
    return RoleDefinition(name=guid, roleName=name, description=description, roleType="BuiltInRole",
                          permissions=[Permission(actions=actions, notActions=list(not_actions),
                                                  dataActions=list(data_actions))], assignableScopes=["/"])


BUILTIN_ROLES: tuple[RoleDefinition, ...] = (
    _builtin("8e3af657-a8ff-443c-a75c-2fe8c4bcb635", "Owner",
             "Grants full access to manage all resources, including the ability to assign roles in Azure RBAC.",
             ["*"]),
    _builtin("b24988ac-6180-42a0-ab88-20f7382dd24c", "Contributor",
             "Grants full access to manage all resources, but does not allow you to assign roles in Azure RBAC, "
             "manage assignments in Azure Blueprints, or share image galleries.",
             ["*"], ["Microsoft.Authorization/*/Delete", "Microsoft.Authorization/*/Write",
                     "Microsoft.Authorization/elevateAccess/Action", "Microsoft.Blueprint/blueprintAssignments/write",
                     "Microsoft.Blueprint/blueprintAssignments/delete", "Microsoft.Compute/galleries/share/action",
                     "Microsoft.Subscription/cancel/action", "Microsoft.Subscription/enable/action"]),
    _builtin("acdd72a7-3385-48ef-bd42-f606fba81ae7", "Reader",
             "View all resources, but does not allow you to make any changes.", ["*/read"]),
    _builtin("18d7d88d-d35e-4fb5-a5c3-7773c20a72d9", "User Access Administrator",
             "Lets you manage user access to Azure resources.",
             ["*/read", "Microsoft.Authorization/*", "Microsoft.Support/*"]),
    _builtin("9980e02c-c2be-4d73-94e8-173b1dc7cf3c", "Virtual Machine Contributor",
             "Create and manage virtual machines, manage disks, install and run software. This role does not grant "
             "you management access to the virtual network or storage account the virtual machines are connected to.",
             ["Microsoft.Authorization/*/read", "Microsoft.Compute/availabilitySets/*", "Microsoft.Compute/locations/*",
              "Microsoft.Compute/virtualMachines/*", "Microsoft.Compute/virtualMachineScaleSets/*",
              "Microsoft.Compute/disks/write", "Microsoft.Compute/disks/read", "Microsoft.Compute/disks/delete",
              "Microsoft.Insights/alertRules/*", "Microsoft.Network/networkInterfaces/*",
              "Microsoft.Network/networkSecurityGroups/read", "Microsoft.Network/publicIPAddresses/read",
              "Microsoft.Network/virtualNetworks/read", "Microsoft.Network/virtualNetworks/subnets/join/action",
              "Microsoft.ResourceHealth/availabilityStatuses/read", "Microsoft.Resources/deployments/*",
              "Microsoft.Resources/subscriptions/resourceGroups/read",
              "Microsoft.Storage/storageAccounts/listKeys/action",
              "Microsoft.Storage/storageAccounts/read", "Microsoft.Support/*"]),
    _builtin("17d1049b-9a84-46fb-8f53-869881c3d3ab", "Storage Account Contributor",
             "Permits management of storage accounts. Provides access to the account key, which can be used to access "
             "data via Shared Key authorization.",
             ["Microsoft.Authorization/*/read", "Microsoft.Insights/alertRules/*",
              "Microsoft.Insights/diagnosticSettings/*", "Microsoft.ResourceHealth/availabilityStatuses/read",
              "Microsoft.Resources/deployments/*", "Microsoft.Resources/subscriptions/resourceGroups/read",
              "Microsoft.Storage/storageAccounts/*", "Microsoft.Support/*"]),
    _builtin("2a2b9908-6ea1-4ae2-8e65-a410df84e7d1", "Storage Blob Data Reader",
             "Read and list Azure Storage containers and blobs.",
             ["Microsoft.Storage/storageAccounts/blobServices/containers/read",
              "Microsoft.Storage/storageAccounts/blobServices/generateUserDelegationKey/action"],
             data_actions=["Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read"]),
    _builtin("de139f84-1756-47ae-9be6-808fbbe84772", "Website Contributor",
             "Lets you manage websites (not web plans), but not access to them.",
             ["Microsoft.Authorization/*/read", "Microsoft.Insights/alertRules/*", "Microsoft.Insights/components/*",
              "Microsoft.ResourceHealth/availabilityStatuses/read", "Microsoft.Resources/deployments/*",
              "Microsoft.Resources/subscriptions/resourceGroups/read", "Microsoft.Support/*",
              "Microsoft.Web/certificates/*", "Microsoft.Web/listSitesAssignedToHostName/read",
              "Microsoft.Web/serverFarms/join/action", "Microsoft.Web/serverFarms/read", "Microsoft.Web/sites/*"]),
)

#: Operations get-user-permissions reports as yes/no, per principal.
PROBES: dict[str, str] = {
    "canRead": "Microsoft.Resources/subscriptions/resourceGroups/read",
    "canWriteResourceGroups": "Microsoft.Resources/subscriptions/resourceGroups/write",
    "canDeleteResourceGroups": "Microsoft.Resources/subscriptions/resourceGroups/delete",
    "canManageRoleAssignments": "Microsoft.Authorization/roleAssignments/write",
}
WRITE_RG = PROBES["canWriteResourceGroups"]
WRITE_RA, DELETE_RA = PROBES["canManageRoleAssignments"], "Microsoft.Authorization/roleAssignments/delete"

#: Azure regions: display name -> name (``location`` takes either).
REGIONS: dict[str, str] = {
    "East US": "eastus", "East US 2": "eastus2", "Central US": "centralus", "South Central US": "southcentralus",
    "West US 2": "westus2", "West US 3": "westus3", "Canada Central": "canadacentral", "North Europe": "northeurope",
    "West Europe": "westeurope", "UK South": "uksouth", "Germany West Central": "germanywestcentral",
    "Sweden Central": "swedencentral", "Australia East": "australiaeast", "Japan East": "japaneast",
}
_RG_NAME = re.compile(r"^[-\w.()]{1,90}$")
_BAD_TAG = re.compile(r"[<>%&\\?/]")
_MG = re.compile(r"^/providers/microsoft\.management/managementgroups/([^/]+)$", re.I)
_SUB = re.compile(r"^/subscriptions/([^/]+)(?:/resourcegroups/([^/]+)(/providers/[^/]+/[^/]+/[^/]+)?)?$", re.I)


class Scope(NamedTuple):
    """A parsed ARM scope: management group, or subscription [/ resource group [/ resource]]."""

    management_group: Optional[str]
    subscription: Optional[str]
    resource_group: Optional[str]
    resource: Optional[str]


def parse_scope(scope: str) -> Scope:
    """The parts of ``scope`` (ids keep their case; compare them with ``.lower()``).

    Raises:
        InvalidArgument: 400 when ``scope`` is not a management group, subscription,
            resource group or resource id.
    """
    text = scope.strip().rstrip("/")
    m = _MG.match(text)
    if m:
        return Scope(m.group(1), None, None, None)
    m = _SUB.match(text)
    if m is None:
        raise InvalidArgument(f"scope {scope!r} is not a valid ARM scope; use /subscriptions/<id>, "
                              "/subscriptions/<id>/resourceGroups/<name> or a resource id.")
    return Scope(None, m.group(1), m.group(2), text if m.group(3) else None)


def covers(outer: str, inner: str) -> bool:
    """Whether scope ``outer`` is ``inner`` or one of its parents (assignments at ``outer`` apply at ``inner``)."""
    a, b = outer.rstrip("/").lower(), inner.rstrip("/").lower()
    return b == a or b.startswith(a + "/")


def role_allows(role: RoleDefinition, operation: str) -> bool:
    """Whether ``role`` permits ``operation`` (an action matches and none of its notActions does)."""
    op = operation.lower()
    return any(any(fnmatchcase(op, a.lower()) for a in p.actions)
               and not any(fnmatchcase(op, n.lower()) for n in p.notActions) for p in role.permissions)


def check_rg_name(name: str) -> str:
    """``name`` if it is a valid resource group name.

    Raises:
        InvalidArgument: 400 naming the rule.
    """
    if not _RG_NAME.match(name) or name.endswith("."):
        raise InvalidArgument(f"resource group name {name!r} is invalid: 1-90 letters, digits, '-', '_', '.', '(' "
                              "or ')', not ending in '.'.")
    return name


def check_location(location: str) -> str:
    """The region name of ``location`` (a name like ``eastus`` or a display name like ``East US``).

    Raises:
        InvalidArgument: 400 listing the regions.
    """
    key = location.strip()
    names = set(REGIONS.values())
    if key.lower().replace(" ", "") in names:
        return key.lower().replace(" ", "")
    hit = next((v for k, v in REGIONS.items() if k.lower() == key.lower()), None)
    if hit is None:
        raise InvalidArgument(f"location {location!r} is not an Azure region; use one of {', '.join(sorted(names))}.")
    return hit


def check_tags(tags: dict[str, str]) -> dict[str, str]:
    """``tags`` if they are valid ARM tags.

    Raises:
        InvalidArgument: 400 for more than 50 tags, a bad or duplicate name, or a value over 256 characters.
    """
    if len(tags) > 50:
        raise InvalidArgument(f"{len(tags)} tags given; a resource group takes at most 50.")
    seen: set[str] = set()
    for k, v in tags.items():
        if not k.strip() or len(k) > 512 or _BAD_TAG.search(k):
            raise InvalidArgument(f"tag name {k!r} is invalid: 1-512 characters without < > % & \\ ? /.")
        if k.lower() in seen:
            raise InvalidArgument(f"tag name {k!r} is given twice (tag names ignore case).")
        seen.add(k.lower())
        if len(v) > 256:
            raise InvalidArgument(f"the value of tag {k!r} is {len(v)} characters; at most 256.")
    return dict(tags)


__all__ = ["BUILTIN_ROLES", "DELETE_RA", "PROBES", "REGIONS", "Scope", "WRITE_RA", "WRITE_RG", "check_location",
           "check_rg_name", "check_tags", "covers", "parse_scope", "role_allows"]
