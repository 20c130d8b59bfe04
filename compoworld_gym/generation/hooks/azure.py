"""Azure in chained tasks: an employee's work email leads to their write access
in production (an Owner or Contributor role assignment, which names the
resource group); a service's production resource group is
found by its ``service`` tag and names its owner. The case's role assignment is
removed (offboarding, access reviews), or its resource group gets a ``case`` tag.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordAbsent, RecordMatches
from compoworld_gym.envs.services._azure_models import AzureState, ResourceGroup
from compoworld_gym.envs.services._azure_seed import (
    PROD, ROLES_BY_NAME, add_app_resources, make_assignment, principal_id, rg_id, user,
)
from compoworld_gym.envs.services._engineering import ENG_MANAGER, ENGINEERS
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import engineer_email, new_app_key
from compoworld_gym.generation.hooks.hr_directory import manager_email, name_from_email
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick

SERVICE = "azure"
_WRITE_ROLES = ("Owner", "Contributor")
_PROD_SCOPE = f"/subscriptions/{PROD}"


def ensure_principal(state: dict[str, Any], email: str) -> str:
    """The object id of the directory user ``email``, added if missing."""
    pid = principal_id(email)
    if pid not in state["principals"]:
        known = next((p.name for p in (*ENGINEERS, ENG_MANAGER) if p.email == email.lower()), None)
        state["principals"][pid] = user(email.lower(), known or name_from_email(email)).model_dump(mode="json")
    return pid


def ensure_group(ctx: Ctx, name: str, tags: dict[str, str]) -> str:
    """The production resource group ``name`` (planted with ``tags`` and an app's resources if missing;
    an existing one gets ``tags`` merged in); returns its id."""
    state = ctx.state(SERVICE)
    rid = rg_id(PROD, name)
    if rid in state["resource_groups"]:
        state["resource_groups"][rid]["tags"].update(tags)
        return rid
    group = ResourceGroup(id=rid, name=name, subscriptionId=PROD, location=ctx.rng.choice(("eastus", "westus2")),
                          tags=tags)
    state["resource_groups"][rid] = group.model_dump(mode="json")
    key = tags.get("service") or name.removeprefix("rg-").removesuffix("-prod")
    typed = AzureState(caller_id=state["caller_id"])  # add_app_resources fills a typed state; copy its resources
    add_app_resources(typed, group, key, "prod")
    for res_id, res in typed.resources.items():
        state["resources"][res_id] = res.model_dump(mode="json")
    return rid


def _app_group(ctx: Ctx, key: str, owner: str, env: str = "prod") -> str:
    return ensure_group(ctx, f"rg-{key}-{env}", {"service": key, "owner": owner, "env": env, "costCenter": "CC-430"})


def _alloc_key(ctx: Ctx) -> str:
    taken = ctx.__dict__.setdefault("_app_keys", set())
    taken |= {g["tags"].get("service") for g in ctx.state(SERVICE)["resource_groups"].values()}
    return new_app_key(ctx)


def _plant_access(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    """Give ``key`` (an employee's email) Contributor on a production group; ``stale``: a Reader one."""
    state = ctx.state(SERVICE)
    pid = ensure_principal(state, key)
    granter = ensure_principal(state, manager_email(ctx))
    group = outs.get("resource_group_id") or _app_group(ctx, _alloc_key(ctx), engineer_email(ctx))
    if group not in state["resource_groups"]:
        group = ensure_group(ctx, group.rsplit("/", 1)[-1], {"env": "prod", "owner": engineer_email(ctx)})
    role = ROLES_BY_NAME["Reader" if stale else "Contributor"].name
    if not stale:  # the planted one is the employee's only write access in production
        writes = {ROLES_BY_NAME[r].name for r in _WRITE_ROLES}
        for rid in [k for k, a in state["role_assignments"].items() if a["principalId"] == pid
                    and a["roleDefinitionId"] in writes and a["scope"].lower().startswith(_PROD_SCOPE.lower())]:
            del state["role_assignments"][rid]
    ra = make_assignment(group, role, pid, ctx.today - dt.timedelta(days=ctx.rng.randint(20, 400)), granter,
                         "Temporary read access" if stale else "Service access")
    state["role_assignments"][ra.id] = ra.model_dump(mode="json")
    return ra.id


def _find_access(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list-role-assignments", scope=_PROD_SCOPE)["roleAssignments"]
    return pick([r for r in rows if r["roleDefinitionName"] in _WRITE_ROLES
                 and r["scope"].lower().startswith(_PROD_SCOPE.lower())], principalName=key)


def _plant_service_group(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    owner = outs.get("email") or engineer_email(ctx)
    return _app_group(ctx, key, owner, "staging" if stale else "prod")


def _find_service_group(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list-resource-groups")
    return pick([g for g in rows if g["tags"].get("service") == key and g["tags"].get("env") == "prod"])


def _alloc_group(ctx: Ctx) -> str:
    return rg_id(PROD, f"rg-{_alloc_key(ctx)}-prod")


def _plant_group(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    name = str(key).rsplit("/", 1)[-1]
    service = outs.get("project_id") or name.removeprefix("rg-").removesuffix("-prod")
    return ensure_group(ctx, name, {"service": service, "owner": outs.get("email") or engineer_email(ctx),
                                    "env": "prod", "costCenter": "CC-430"})


_OWNER = Give("email", "tags.owner", "the resource group owner's email address", "the resource group owner",
              draw=engineer_email)

EMPLOYEE_ACCESS = Relay(
    service=SERVICE, name="employee's write access in Azure", key="email",
    # Only Azure's own ids: an access record is where offboarding ends, not a hub from one employee to another.
    gives=(Give("role_assignment_id", "id", "the employee's Contributor role assignment"),
           Give("resource_group_id", "scope", "the resource group the access is on")),
    plant=_plant_access, find=_find_access,
    where="Azure role assignments in the Production subscription record each employee's access, by their work "
          "email, with the resource group it is on.",
    truth="Reader assignments only let someone look; an employee's write access is their Owner or Contributor "
          "assignment.", key_role="staff")

SERVICE_GROUP = Relay(
    service=SERVICE, name="service's production resource group", key="project_id",
    gives=(Give("resource_group_id", "id", "the service's production resource group"), _OWNER),
    plant=_plant_service_group, find=_find_service_group,
    where="Each service runs in an Azure resource group tagged with its service key, its owner and env=prod.",
    alloc=_alloc_key, entry=lambda key: f"the Azure resource group of {key}",
    truth="Only the resource group tagged env=prod counts; staging groups are copies.")

RESOURCE_GROUP = Relay(
    service=SERVICE, name="resource group", key="resource_group_id",
    gives=(_OWNER, Give("project_id", "tags.service", "the service the resource group runs")),
    plant=_plant_group, find=lambda reader, key: reader.read(SERVICE, "get-resource-details", resourceId=key),
    where="An Azure resource group's tags name its owner and the service it runs.",
    alloc=_alloc_group, entry=lambda key: f"Azure resource group {key}")


def _revoke(reader: Reader, args: dict[str, Found]) -> Write:
    rid = args["assignment"].value
    rows = reader.read(SERVICE, "list-role-assignments", scope=rid.split("/providers/Microsoft.Authorization/")[0])
    pick(rows["roleAssignments"], id=rid)
    return Write(
        calls=[call("delete-role-assignment", roleAssignmentId=rid)],
        checks=[RecordAbsent(id="_", service=SERVICE, collection="role_assignments", where={"id": rid}, guard=False,
                             description="The case's role assignment is removed.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="role_assignments", allow_ids=[rid],
                           description="No other role assignment was removed or added.")],
        tool="delete-role-assignment", where={"roleAssignmentId": rid}, label="the removal of the role assignment")


def _tag(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["group"].value, args["mention"], args["case"].value
    group = reader.read(SERVICE, "get-resource-details", resourceId=rid)
    note = f"{case}: {mention.noun} is {mention.display}"[:256]
    where: dict[str, Any] = {"tags.case": {"$contains": mention.display}}
    where.update({f"tags.{k}": v for k, v in group["tags"].items() if k != "case"})
    return Write(
        calls=[call("create-resource-group", name=group["name"], location=group["location"],
                    tags={**group["tags"], "case": note})],
        checks=[RecordMatches(id="_", service=SERVICE, collection="resource_groups", record_id=rid, where=where,
                              description="The resource group carries a case tag quoting the value, and keeps its "
                                          "other tags.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="resource_groups", allow_ids=[rid],
                           description="No other resource group was created or changed.")],
        tool="create-resource-group", where={"name": group["name"]}, label="the case tag on the resource group")


def _prepare_tag(ctx: Ctx, values: dict[str, Any]) -> None:
    if values["group"] not in ctx.state(SERVICE)["resource_groups"]:
        _plant_group(ctx, values["group"], {}, False)


LINKS = ServiceLinks(
    service=SERVICE, label="Azure",
    relays=(EMPLOYEE_ACCESS, RESOURCE_GROUP, SERVICE_GROUP),
    actions=(
        Action(service=SERVICE, name="revoke", needs=(Need("assignment", "role_assignment_id"),), build=_revoke,
               goal="remove {assignment} in Azure"),
        Action(service=SERVICE, name="tag", needs=(Need("group", "resource_group_id"),), build=_tag,
               prepare=_prepare_tag,
               goal="tag {group} in Azure with a tag named case stating {mention}, keeping its other tags"),
    ),
)

__all__ = ["LINKS", "ensure_group", "ensure_principal"]
