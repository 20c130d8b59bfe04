"""Tests of the azure service (@kalivaraprasad-gonapa_azure-mcp)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._azure_seed import DEV, LABS, LABS_TENANT, LEGACY, PROD, ROOT_MG, TENANT
from compoworld_gym.envs.services.azure import Azure

SUB = f"/subscriptions/{PROD}"
CHECKOUT_RG = f"{SUB}/resourceGroups/rg-checkout-api-prod"
SITE = f"{CHECKOUT_RG}/providers/Microsoft.Web/sites/checkout-api-prod"


@pytest.fixture
def svc(make_service):
    return make_service(Azure)


def assignments(svc, scope=None):
    args = {} if scope is None else {"scope": scope}
    return ok(svc, "list-role-assignments", args)["roleAssignments"]


def test_seed_is_deterministic(make_service):
    assert make_service(Azure, seed=4).state_dict() == make_service(Azure, seed=4).state_dict()


def test_tenants_and_select_tenant(svc):
    t = ok(svc, "list-tenants")
    assert [x["name"] for x in t["tenants"]] == ["Company Example", "Company Example Labs"]
    assert [(s["name"], s["state"]) for s in t["subscriptions"]] == [
        ("Production", "Enabled"), ("Development", "Enabled"), ("Legacy Sandbox", "Disabled"), ("Labs", "Enabled")]
    assert t["selected"] == {"tenantId": TENANT, "subscriptionId": PROD}
    assert code(svc, "select-tenant", {"tenantId": TENANT, "subscriptionId": LABS}) == 422
    assert code(svc, "select-tenant", {"tenantId": "00000000-0000-0000-0000-000000000000",
                                       "subscriptionId": PROD}) == 404
    assert code(svc, "select-tenant", {"tenantId": TENANT, "subscriptionId": "nope"}) == 404
    chosen = ok(svc, "select-tenant", {"tenantId": LABS_TENANT, "subscriptionId": LABS})
    assert (chosen["subscriptionName"], chosen["message"]) == ("Labs", "Tenant and subscription selected! Clients "
                                                                       "initialized.")
    assert [g["name"] for g in ok(svc, "list-resource-groups")] == ["rg-labs-experiments"]


def test_resource_groups_resources_and_details(svc):
    groups = ok(svc, "list-resource-groups")
    assert len(groups) == 8
    checkout = groups[0]
    assert (checkout["id"], checkout["location"], checkout["tags"]) == (
        CHECKOUT_RG, "westus2", {"service": "checkout-api", "owner": "kenji.watanabe@company.example", "env": "prod",
                                 "costCenter": "CC-410"})
    res = ok(svc, "list-resources", {"resourceGroup": "RG-CHECKOUT-API-PROD"})
    assert [(r["name"], r["type"]) for r in res] == [("checkout-api-prod", "Microsoft.Web/sites"),
                                                    ("stcheckoutapiprod", "Microsoft.Storage/storageAccounts")]
    assert len(ok(svc, "list-resources", {"resourceType": "Microsoft.Compute/virtualMachines"})) == 2
    site = ok(svc, "get-resource-details", {"resourceId": SITE.lower()})
    assert (site["id"], site["sku"], site["properties"]["defaultHostName"]) == (
        SITE, "P1v3", "checkout-api-prod.azurewebsites.net")
    group = ok(svc, "get-resource-details", {"resourceId": CHECKOUT_RG})
    assert [r["name"] for r in group["resources"]] == ["checkout-api-prod", "stcheckoutapiprod"]
    assert code(svc, "get-resource-details", {"resourceId": SUB}) == 400
    assert code(svc, "get-resource-details", {"resourceId": "not-an-id"}) == 400
    assert code(svc, "get-resource-details", {"resourceId": f"{SUB}/resourceGroups/rg-nope"}) == 404
    assert code(svc, "list-resources", {"resourceGroup": "rg-nope"}) == 404


def test_list_role_assignments_at_above_and_below(svc):
    at_group = assignments(svc, CHECKOUT_RG)
    assert [(a["roleDefinitionName"], a["principalName"]) for a in at_group] == [
        ("Contributor", "ops-automation"), ("User Access Administrator", "ops-automation"),
        ("Contributor", "gitlab-deployer"), ("Owner", "ben.foster@company.example"),
        ("Reader", "sofia.marin@company.example"), ("Owner", "carla.jensen@company.example"),
        ("Reader", "elena.petrova@company.example"), ("Contributor", "kenji.watanabe@company.example"),
        ("Reader", "rachel.adeyemi@company.example")]
    kenji = at_group[7]
    assert kenji["id"] == f"{CHECKOUT_RG}/providers/Microsoft.Authorization/roleAssignments/{kenji['name']}"
    assert (kenji["createdByName"], kenji["roleDefinitionId"]) == (
        "carla.jensen@company.example", f"{SUB}/providers/Microsoft.Authorization/roleDefinitions/"
                                        "b24988ac-6180-42a0-ab88-20f7382dd24c")
    everything = assignments(svc)
    assert len(everything) == 25  # the subscription, the tenant root above it and every group and resource below
    assert code(svc, "list-role-assignments", {"scope": "/subscriptions"}) == 400
    assert code(svc, "list-role-assignments", {"scope": "/subscriptions/nope"}) == 404


def test_role_definitions_and_custom_role_scope(svc):
    roles = ok(svc, "get-role-definitions")
    names = [r["roleName"] for r in roles["roleDefinitions"]]
    assert (roles["total"], names[:3], names[-1]) == (9, ["Owner", "Contributor", "Reader"], "App Service Restarter")
    contributor = roles["roleDefinitions"][1]
    assert contributor["name"] == "b24988ac-6180-42a0-ab88-20f7382dd24c"
    assert "Microsoft.Authorization/*/Write" in contributor["permissions"][0]["notActions"]
    dev = ok(svc, "get-role-definitions", {"scope": f"/subscriptions/{DEV}"})
    assert dev["total"] == 8  # the custom role is assignable in production only


def test_user_permissions_are_additive_and_inherited(svc):
    perms = ok(svc, "get-user-permissions", {"scope": SITE})
    assert (perms["totalAssignments"], perms["roleSummary"]["Owner"]) == (9, 2)
    eff = {e["principalName"]: e for e in perms["effectivePermissions"]}
    assert eff["ops-automation"]["roles"] == ["Contributor", "User Access Administrator"]
    assert eff["ops-automation"]["canManageRoleAssignments"] is True  # UAA grants what Contributor's notActions leave
    assert (eff["gitlab-deployer"]["canWriteResourceGroups"], eff["gitlab-deployer"]["canManageRoleAssignments"]) == (
        True, False)
    assert (eff["rachel.adeyemi@company.example"]["canRead"],
            eff["rachel.adeyemi@company.example"]["canWriteResourceGroups"]) == (True, False)
    assert all(p["inherited"] for p in perms["userPermissions"])
    web = ok(svc, "get-user-permissions", {"scope": f"{SUB}/resourceGroups/rg-web-frontend-prod/providers/"
                                                    "Microsoft.Web/sites/web-frontend-prod"})
    maya = next(e for e in web["effectivePermissions"] if e["principalName"] == "maya.goldberg@company.example")
    assert (maya["roles"], maya["canWriteResourceGroups"]) == (["Reader", "Website Contributor"], False)


def test_run_azure_code_is_refused(svc):
    msg = error(svc, "run-azure-code", {"reasoning": "list groups", "code": "return await resourceClient.x()"})
    assert msg["code"] == 422 and "list-resource-groups" in msg["message"]
    assert code(svc, "run-azure-code", {"reasoning": "r", "code": "c", "tenantId": "nope"}) == 404
    assert code(svc, "run-azure-code", {"reasoning": "r", "code": "c", "subscriptionId": "nope"}) == 404


def test_create_resource_group_is_create_or_update(svc):
    new = ok(svc, "create-resource-group", {"name": "rg-ledger-sync-prod", "location": "East US 2",
                                            "tags": {"service": "ledger-sync", "env": "prod"}})
    assert (new["id"], new["location"], new["provisioningState"]) == (
        f"{SUB}/resourceGroups/rg-ledger-sync-prod", "eastus2", "Succeeded")
    updated = ok(svc, "create-resource-group", {"name": "RG-CHECKOUT-API-PROD", "location": "westus2",
                                                "tags": {"owner": "oscar.lindgren@company.example"}})
    assert updated["tags"] == {"owner": "oscar.lindgren@company.example"}  # PUT replaces every tag
    ok(svc, "create-resource-group", {"name": "rg-ledger-sync-prod", "location": "eastus2"})
    assert svc.state.resource_groups[f"{SUB}/resourceGroups/rg-ledger-sync-prod"].tags == {}


def test_create_resource_group_rules(svc):
    msg = error(svc, "create-resource-group", {"name": "rg-checkout-api-prod", "location": "eastus"})
    assert msg["code"] == 409 and "InvalidResourceGroupLocation" in msg["message"]
    assert code(svc, "create-resource-group", {"name": "bad name!", "location": "eastus"}) == 400
    assert code(svc, "create-resource-group", {"name": "rg-ok.", "location": "eastus"}) == 400
    assert code(svc, "create-resource-group", {"name": "rg-ok", "location": "mars"}) == 400
    assert code(svc, "create-resource-group", {"name": "rg-ok", "location": "eastus", "tags": {"a/b": "x"}}) == 400
    assert code(svc, "create-resource-group", {"name": "rg-ok", "location": "eastus",
                                               "tags": {"Env": "a", "env": "b"}}) == 400
    assert code(svc, "create-resource-group", {"name": "rg-ok", "location": "eastus", "tags": {"k": "v" * 257}}) == 400
    ok(svc, "select-tenant", {"tenantId": TENANT, "subscriptionId": DEV})
    assert "AuthorizationFailed" in error(svc, "create-resource-group", {"name": "rg-ok", "location": "eastus"})[
        "message"]
    ok(svc, "select-tenant", {"tenantId": TENANT, "subscriptionId": LEGACY})
    assert "ReadOnlyDisabledSubscription" in error(svc, "create-resource-group",
                                                   {"name": "rg-ok", "location": "eastus"})["message"]


def test_create_role_assignment_rules(svc):
    ra = ok(svc, "create-role-assignment", {"scope": CHECKOUT_RG, "roleName": "Reader",
                                            "principalName": "Luis.Ortega@company.example", "description": "Triage"})
    assert (ra["principalName"], ra["roleDefinitionName"], ra["createdByName"], ra["createdOn"]) == (
        "luis.ortega@company.example", "Reader", "ops-automation", "2026-01-15")
    assert ra["id"] in svc.state.role_assignments
    assert "RoleAssignmentExists" in error(svc, "create-role-assignment", {
        "scope": CHECKOUT_RG, "roleName": "acdd72a7-3385-48ef-bd42-f606fba81ae7",
        "principalName": "luis.ortega@company.example"})["message"]
    assert code(svc, "create-role-assignment", {"scope": CHECKOUT_RG, "roleName": "Janitor",
                                                "principalName": "luis.ortega@company.example"}) == 404
    assert code(svc, "create-role-assignment", {"scope": CHECKOUT_RG, "roleName": "Reader",
                                                "principalName": "nobody@company.example"}) == 404
    assert code(svc, "create-role-assignment", {"scope": f"/subscriptions/{DEV}", "roleName": "Reader",
                                                "principalName": "luis.ortega@company.example"}) == 409
    ok(svc, "create-role-assignment", {"scope": SUB, "roleName": "App Service Restarter",
                                       "principalName": "gitlab-deployer"})
    assert code(svc, "create-role-assignment", {"scope": f"/subscriptions/{DEV}/resourceGroups/rg-checkout-api-dev",
                                                "roleName": "App Service Restarter",
                                                "principalName": "luis.ortega@company.example"}) == 409


def test_delete_role_assignment_offboarding(svc):
    kenji = [a for a in assignments(svc) if a["principalName"] == "kenji.watanabe@company.example"]
    assert [a["roleDefinitionName"] for a in kenji] == ["Contributor", "Contributor"]
    gone = ok(svc, "delete-role-assignment", {"roleAssignmentId": kenji[0]["name"]})
    assert (gone["id"], gone["scope"]) == (kenji[0]["id"], CHECKOUT_RG)
    assert kenji[0]["id"] not in svc.state.role_assignments
    assert code(svc, "delete-role-assignment", {"roleAssignmentId": kenji[0]["id"]}) == 404
    root = next(a for a in assignments(svc) if a["scope"] == ROOT_MG)
    msg = error(svc, "delete-role-assignment", {"roleAssignmentId": root["id"]})
    assert msg["code"] == 409 and "AuthorizationFailed" in msg["message"]
    dev = next(a for a in assignments(svc, f"/subscriptions/{DEV}")
               if a["principalName"] == "ben.foster@company.example")
    assert code(svc, "delete-role-assignment", {"roleAssignmentId": dev["id"]}) == 409
    after = ok(svc, "get-user-permissions", {"scope": CHECKOUT_RG})
    assert "kenji.watanabe@company.example" not in {e["principalName"] for e in after["effectivePermissions"]}
