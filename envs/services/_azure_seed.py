"""Seed data of the ``azure`` service: the company's tenant and subscriptions.

The production subscription has a resource group per application of the
shared catalog (:mod:`._engineering`), ``rg-<app>-prod``, tagged with the
service key, its owner (the team's lead engineer) and the environment, holding
the app's App Service or VMs and storage account. Principals are the shared
staff and engineers (their work emails are their user principal names) plus
two service principals; the tools run as ``ops-automation``, Contributor and
User Access Administrator on production and Reader elsewhere. Ids, roles and
principals are fixed; assignment dates and a few holders vary by seed.
"""

from __future__ import annotations

import datetime as dt
import random
import uuid

from compoworld_gym.envs.services._azure_models import (
    AzureState, Principal, Resource, ResourceGroup, RoleAssignment, RoleDefinition, Permission, Session, Subscription,
    Tenant,
)
from compoworld_gym.envs.services._azure_rules import BUILTIN_ROLES
from compoworld_gym.envs.services._company import STAFF, staff_of
from compoworld_gym.envs.services._engineering import APPS, ENG_MANAGER, ENGINEERS, team_engineers

TENANT, LABS_TENANT = "7d3f9c2e-5b1a-4e8f-9a6c-2f4b8d1e3a57", "c2a8e6f1-9d4b-4f3e-8b7a-5e1c9d2f6a38"
PROD, DEV = "3f8a2c1d-6e4b-4a9f-b7d2-8c5e1f9a0b64", "9b1e7d4c-2a5f-4c8e-a3d6-1f7b9e2c5a80"
LEGACY, LABS = "5c9d3e8f-1b7a-4d2c-9e6f-4a8b2c7d1e95", "e4f7a1b9-8c3d-4e5a-b2f6-9d1c7e3a8b42"
#: The tenant root management group (its name is the tenant id, as in Azure).
ROOT_MG = f"/providers/Microsoft.Management/managementGroups/{TENANT}"
ROLES_BY_NAME: dict[str, RoleDefinition] = {r.roleName: r for r in BUILTIN_ROLES}
#: A custom role of the company, assignable in production only.
RESTARTER_ID = "6f2d8b4e-3c1a-4e7f-9b5d-2a8c4e6f1d37"
_COST = {"payments": "CC-410", "storefront": "CC-420", "platform": "CC-430", "data": "CC-440"}


def principal_id(name: str) -> str:
    """The fixed object id of a principal by its principal name (work email or app name)."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"principal:{name.lower()}"))


CALLER = principal_id("ops-automation")


def rg_id(subscription: str, name: str) -> str:
    """The ARM id of resource group ``name`` in ``subscription``."""
    return f"/subscriptions/{subscription}/resourceGroups/{name}"


def make_assignment(scope: str, role_guid: str, principal: str, created_on: dt.date,
                    created_by: str | None = None, description: str = "") -> RoleAssignment:
    """A :class:`RoleAssignment` whose GUID is derived from scope, role and principal (one per triple)."""
    guid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"ra:{scope.lower()}|{role_guid}|{principal}"))
    return RoleAssignment(id=f"{scope}/providers/Microsoft.Authorization/roleAssignments/{guid}", name=guid,
                          scope=scope, roleDefinitionId=role_guid, principalId=principal, description=description,
                          createdOn=created_on, createdBy=created_by)


def user(email: str, name: str) -> Principal:
    """The directory user of a work email."""
    return Principal(id=principal_id(email), displayName=name, principalName=email, principalType="User",
                     tenantId=TENANT)


def _directory(state: AzureState) -> None:
    state.tenants = {t.tenantId: t for t in (
        Tenant(tenantId=TENANT, displayName="Company Example", defaultDomain="companyexample.onmicrosoft.com"),
        Tenant(tenantId=LABS_TENANT, displayName="Company Example Labs",
               defaultDomain="companyexamplelabs.onmicrosoft.com"))}
    state.subscriptions = {s.subscriptionId: s for s in (
        Subscription(subscriptionId=PROD, displayName="Production", tenantId=TENANT, state="Enabled"),
        Subscription(subscriptionId=DEV, displayName="Development", tenantId=TENANT, state="Enabled"),
        Subscription(subscriptionId=LEGACY, displayName="Legacy Sandbox", tenantId=TENANT, state="Disabled"),
        Subscription(subscriptionId=LABS, displayName="Labs", tenantId=LABS_TENANT, state="Enabled"))}
    people = {p.email: p.name for p in (*STAFF, *ENGINEERS, ENG_MANAGER)}
    for email, name in people.items():
        state.principals[principal_id(email)] = user(email, name)
    for app, name in (("ops-automation", "Ops Automation"), ("gitlab-deployer", "GitLab Deployer")):
        state.principals[principal_id(app)] = Principal(id=principal_id(app), displayName=name, principalName=app,
                                                        principalType="ServicePrincipal", tenantId=TENANT)
    state.role_definitions = {r.name: r for r in BUILTIN_ROLES}
    state.role_definitions[RESTARTER_ID] = RoleDefinition(
        name=RESTARTER_ID, roleName="App Service Restarter", roleType="CustomRole",
        description="Restart the company's App Service apps (support first response).",
        permissions=[Permission(actions=["Microsoft.Web/sites/read", "Microsoft.Web/sites/restart/action",
                                         "Microsoft.Resources/subscriptions/resourceGroups/read"])],
        assignableScopes=[f"/subscriptions/{PROD}"])


def _add_group(state: AzureState, sub: str, name: str, location: str, tags: dict[str, str]) -> str:
    rid = rg_id(sub, name)
    state.resource_groups[rid] = ResourceGroup(id=rid, name=name, subscriptionId=sub, location=location, tags=tags)
    return rid


def _add_resource(state: AzureState, group: ResourceGroup, rtype: str, name: str, **fields) -> None:
    rid = f"{group.id}/providers/{rtype}/{name}"
    state.resources[rid] = Resource(id=rid, name=name, type=rtype, resourceGroup=group.name,
                                    subscriptionId=group.subscriptionId, location=group.location,
                                    tags={"service": group.tags.get("service", "shared")}, **fields)


def add_app_resources(state: AzureState, group: ResourceGroup, key: str, env: str) -> None:
    """An app's resources in ``group``: an App Service (or a worker VM) and a storage account."""
    compact = key.replace("-", "")
    if key.endswith(("worker", "etl")):
        _add_resource(state, group, "Microsoft.Compute/virtualMachines", f"vm-{key}-{env}-01", sku="Standard_D2s_v5",
                      properties={"vmSize": "Standard_D2s_v5", "osType": "Linux", "powerState": "VM running",
                                  "provisioningState": "Succeeded"})
    else:
        _add_resource(state, group, "Microsoft.Web/sites", f"{key}-{env}", kind="app,linux", sku="P1v3",
                      properties={"state": "Running", "defaultHostName": f"{key}-{env}.azurewebsites.net",
                                  "httpsOnly": True, "linuxFxVersion": "PYTHON|3.12"})
    _add_resource(state, group, "Microsoft.Storage/storageAccounts", f"st{compact[:18]}{env}"[:24], kind="StorageV2",
                  sku="Standard_LRS" if env != "prod" else "Standard_ZRS",
                  properties={"accessTier": "Hot", "minimumTlsVersion": "TLS1_2", "allowBlobPublicAccess": False})


def _groups(state: AzureState, rng: random.Random) -> dict[str, str]:
    by_app: dict[str, str] = {}
    for app in APPS:
        owner = team_engineers(app.team)[0].email
        location = rng.choice(("eastus", "eastus2", "westus2"))
        rid = _add_group(state, PROD, f"rg-{app.key}-prod", location,
                         {"service": app.key, "owner": owner, "env": "prod", "costCenter": _COST[app.team]})
        add_app_resources(state, state.resource_groups[rid], app.key, "prod")
        by_app[app.key] = rid
    for app in APPS[:4]:
        rid = _add_group(state, DEV, f"rg-{app.key}-dev", "eastus",
                         {"service": app.key, "owner": team_engineers(app.team)[-1].email, "env": "dev"})
        add_app_resources(state, state.resource_groups[rid], app.key, "dev")
    _add_group(state, PROD, "rg-shared-networking", "eastus",
               {"service": "shared", "owner": ENGINEERS[0].email, "env": "prod", "costCenter": "CC-430"})
    _add_group(state, LEGACY, "rg-legacy-admin", "centralus", {"service": "legacy-admin", "env": "retired"})
    _add_group(state, LABS, "rg-labs-experiments", "westeurope", {"owner": ENGINEERS[6].email, "env": "lab"})
    return by_app


def _assignments(state: AzureState, rng: random.Random, today: dt.date, by_app: dict[str, str]) -> None:
    role = {name: r.name for name, r in ROLES_BY_NAME.items()}
    manager = principal_id(ENG_MANAGER.email)

    def add(scope: str, role_guid: str, email: str, days: int, why: str = "", by: str | None = manager) -> None:
        ra = make_assignment(scope, role_guid, principal_id(email), today - dt.timedelta(days=days), by, why)
        state.role_assignments[ra.id] = ra

    sub = {s: f"/subscriptions/{s}" for s in state.subscriptions}
    add(ROOT_MG, role["Owner"], ENG_MANAGER.email, 700, "Tenant root owner", None)
    add(ROOT_MG, role["Reader"], staff_of("finance")[0].email, 400, "Cost reviews")
    add(sub[PROD], role["Contributor"], "ops-automation", 600, "Automation")
    add(sub[PROD], role["User Access Administrator"], "ops-automation", 600, "Access reviews and offboarding")
    add(sub[PROD], role["Owner"], ENGINEERS[0].email, rng.randint(200, 500), "Production break-glass")
    add(sub[PROD], role["Reader"], staff_of("security")[0].email, rng.randint(100, 300), "Security reviews")
    add(sub[PROD], role["Contributor"], "gitlab-deployer", 500, "Deploy pipeline")
    for app in APPS:
        team = team_engineers(app.team)
        add(by_app[app.key], role["Contributor"], team[0].email, rng.randint(60, 400), f"{app.name} owner")
        add(by_app[app.key], role["Reader"], team[1].email, rng.randint(10, 200), "On-call read access")
    add(by_app["reporting-etl"], role["Virtual Machine Contributor"], ENGINEERS[7].email, rng.randint(5, 90))
    storage = next(r.id for r in state.resources.values()
                   if r.resourceGroup == "rg-reporting-etl-prod" and r.type.endswith("storageAccounts"))
    add(storage, role["Storage Blob Data Reader"], staff_of("finance")[1].email, rng.randint(5, 90), "Export files")
    site = next(r.id for r in state.resources.values() if r.name == "web-frontend-prod")
    add(site, role["Website Contributor"], rng.choice([ENGINEERS[4], ENGINEERS[5]]).email, rng.randint(5, 120))
    add(by_app["web-frontend"], RESTARTER_ID, staff_of("support")[0].email, rng.randint(5, 60), "First response")
    for eng in ENGINEERS:
        add(sub[DEV], role["Contributor"], eng.email, rng.randint(30, 600), "Development")
    for s in (DEV, LEGACY, LABS):
        add(sub[s], role["Reader"], "ops-automation", 600, "Automation (read)")


def build_state(rng: random.Random, today: dt.date) -> AzureState:
    """The seeded state, with the Production subscription selected."""
    state = AzureState(caller_id=CALLER, session=Session(tenantId=TENANT, subscriptionId=PROD))
    _directory(state)
    by_app = _groups(state, rng)
    _assignments(state, rng, today, by_app)
    return state


__all__ = ["CALLER", "DEV", "LABS", "LABS_TENANT", "LEGACY", "PROD", "RESTARTER_ID", "ROLES_BY_NAME", "ROOT_MG",
           "TENANT", "add_app_resources", "build_state", "make_assignment", "principal_id", "rg_id", "user"]
