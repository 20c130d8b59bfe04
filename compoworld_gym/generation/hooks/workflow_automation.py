"""Workflow automation (n8n) in chained tasks: a workflow names its owner; a
staff member's personal project holds their active workflow (what an
offboarding or an access review looks for); an app's alert routing is an
n8n workflow tagged with the app's service name; a failed run of the
order-to-invoice sync carries the order and the customer it was processing;
a workflow's unretried failed run is found by the workflow. Writes:
deactivate the case's workflow, or retry the case's failed run."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._workflow_automation_models import (
    Execution, Project, Tag, User, Workflow, WorkflowAutomationState,
)
from compoworld_gym.envs.services._workflow_automation_rules import chain
from compoworld_gym.envs.services._workflow_automation_seed import RATE_LIMIT, make_nodes, personal_name
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import new_app_key
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "workflow_automation"
_SYNC = "Shopify orders to Xero invoices"


def staff_email(ctx: Ctx) -> str:
    """A staff member's work email (workflow owners)."""
    return ctx.rng.choice(STAFF).email


def _load(ctx: Ctx) -> WorkflowAutomationState:
    return WorkflowAutomationState.model_validate(ctx.state(SERVICE))


def _save(ctx: Ctx, st: WorkflowAutomationState) -> None:
    raw, dumped = ctx.state(SERVICE), st.model_dump(mode="json")
    for coll in ("users", "projects", "tags", "workflows", "executions"):
        raw[coll] = dumped[coll]


def _home(ctx: Ctx, st: WorkflowAutomationState, email: str) -> Project:
    """``email``'s personal project, with a user and the project planted if they are new."""
    for p in st.projects.values():
        if p.type == "personal" and p.owner_email.lower() == email.lower():
            return p
    first, _, last = email.split("@")[0].replace(".", " ").title().partition(" ")
    uid, pid = next_id(ctx.state(SERVICE), "USR"), next_id(ctx.state(SERVICE), "PRJ")
    st.users[uid] = User(id=uid, email=email, first_name=first, last_name=last or first, role="global:member",
                         created_at=ctx.at(-200, 9))
    st.projects[pid] = Project(id=pid, name=personal_name(first, last or first, email), type="personal",
                               owner_email=email)
    return st.projects[pid]


def _tag(ctx: Ctx, st: WorkflowAutomationState, name: str) -> str:
    hit = next((t.id for t in st.tags.values() if t.name == name), None)
    if hit is None:
        hit = next_id(ctx.state(SERVICE), "TAG")
        st.tags[hit] = Tag(id=hit, name=name, created_at=ctx.at(-90, 9))
    return hit


def _workflow(ctx: Ctx, st: WorkflowAutomationState, wid: str, name: str, project: str, active: bool,
              spec: list, tags: list[str]) -> Workflow:
    creds = {c.id: c.name for c in st.credentials.values()}
    nodes = make_nodes(spec, creds)
    when = ctx.at(-ctx.rng.randint(20, 90), 10)
    wf = Workflow(id=wid, name=name, active=active, nodes=nodes, connections=chain(n.name for n in nodes),
                  settings={"executionOrder": "v1"}, tag_ids=[_tag(ctx, st, t) for t in tags], project_id=project,
                  created_at=when, updated_at=when, version_id=f"{wid.lower()}-v1")
    st.workflows[wid] = wf
    return wf


def _report_spec(ctx: Ctx) -> tuple[str, list]:
    topic = ctx.rng.choice(("Daily refunds digest", "Weekly churn report", "Overdue invoices reminder",
                            "Low stock alert", "Stale tickets nudge"))
    return topic, [("Schedule Trigger", "scheduleTrigger", {"rule": {"cronExpression": "0 8 * * 1-5"}}, None),
                   ("Query", "httpRequest", {"url": "https://api.company.example/reports"}, None),
                   ("Slack", "slack", {"channel": "ops"}, "CRD-0002")]


def plant_workflow(ctx: Ctx, wid: str, owner: str, *, active: bool = True, tags: tuple[str, ...] = (),
                   name: str = "") -> str:
    """Add workflow ``wid`` (a scheduled report to Slack, or ``name``) in ``owner``'s personal project."""
    st = _load(ctx)
    topic, spec = _report_spec(ctx)
    _workflow(ctx, st, wid, name or topic, _home(ctx, st, owner).id, active, spec, list(tags))
    _save(ctx, st)
    return wid


def _plant_owned(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    """The staff member's only active workflow (``stale``: an inactive one of theirs)."""
    st = _load(ctx)
    home = _home(ctx, st, key)
    if not stale:
        for wf in st.workflows.values():
            if wf.project_id == home.id:
                wf.active = False
    _save(ctx, st)
    return plant_workflow(ctx, next_id(ctx.state(SERVICE), "WF"), key, active=not stale)


def _alloc_key(ctx: Ctx) -> str:
    taken = ctx.__dict__.setdefault("_app_keys", set())
    taken |= {t["name"] for t in ctx.state(SERVICE)["tags"].values()}
    return new_app_key(ctx)


def _plant_app(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    wid = next_id(ctx.state(SERVICE), "WF")
    st = _load(ctx)
    spec = [("Webhook", "webhook", {"path": f"alerts/{key}", "httpMethod": "POST"}, None),
            ("PagerDuty", "pagerDuty", {"operation": "create", "service": key}, "CRD-0006")]
    home = _home(ctx, st, outs.get("email") or staff_email(ctx))
    _workflow(ctx, st, wid, f"{key} alerts to PagerDuty" + (" (v1)" if stale else ""), home.id, not stale, spec,
              ["alerting", key])
    _save(ctx, st)
    return wid


def _sync_workflow(ctx: Ctx, st: WorkflowAutomationState, wid: str | None = None) -> Workflow:
    """The order-to-invoice sync (the seeded one), or a new store's sync workflow ``wid``."""
    hit = next((w for w in st.workflows.values() if w.name == _SYNC), None) if wid is None else st.workflows.get(wid)
    if hit is not None:
        return hit
    spec = [("Shopify Trigger", "shopifyTrigger", {"topic": "orders/create"}, "CRD-0003"),
            ("Xero", "xero", {"resource": "invoice", "operation": "create"}, "CRD-0004")]
    return _workflow(ctx, st, wid or next_id(ctx.state(SERVICE), "WF"), _SYNC if wid is None else
                     f"{_SYNC} ({ctx.rng.choice(('EU', 'UK', 'Canada', 'wholesale'))} store)",
                     _home(ctx, st, staff_email(ctx)).id, True, spec, ["finance", "sync"])


def _order_ref(ctx: Ctx) -> str:
    if "orders" in ctx.states:
        return next_id(ctx.state("orders"), "ORD")
    return next_id(ctx.state(SERVICE), "ORD", start=60)


def plant_failed_run(ctx: Ctx, eid: str, *, workflow_id: str | None = None, email: str | None = None,
                     order_id: str | None = None, retried: bool = False) -> str:
    """Add failed execution ``eid`` (a Xero rate limit) of the order sync, or of the store sync workflow
    ``workflow_id`` (planted if new); ``retried``: a later retry of it succeeded."""
    st = _load(ctx)
    wf = _sync_workflow(ctx, st, workflow_id)
    started = dt.datetime.fromisoformat(ctx.at(-2 if retried else 0, 7)) + dt.timedelta(minutes=ctx.rng.randint(0, 50))
    item = {"order_id": order_id or _order_ref(ctx), "customer_email": email or ctx.fresh("email"),
            "total": f"{ctx.fresh('money'):.2f}"}
    st.executions[eid] = Execution(
        id=eid, workflow_id=wf.id, mode="trigger", status="error", finished=False, started_at=started,
        stopped_at=started + dt.timedelta(seconds=4), last_node_executed=wf.nodes[-1].name,
        error_node=wf.nodes[-1].name, error_message=RATE_LIMIT, input=item)
    if retried:
        rid = _execution_id(ctx)
        st.executions[rid] = Execution(
            id=rid, workflow_id=wf.id, mode="retry", status="success", finished=True,
            started_at=started + dt.timedelta(hours=1), stopped_at=started + dt.timedelta(hours=1, seconds=3),
            retry_of=eid, last_node_executed=wf.nodes[-1].name, input=dict(item))
        st.executions[eid].retry_success_id = rid
    _save(ctx, st)
    return eid


def _execution_id(ctx: Ctx) -> str:
    counters = ctx.state(SERVICE)["counters"]
    n = counters.get("execution", 1001)
    counters["execution"] = n + 1
    return str(n)


def _plant_execution(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return plant_failed_run(ctx, key, email=outs.get("email"), order_id=outs.get("order_id"))


def _plant_failed_of(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return plant_failed_run(ctx, _execution_id(ctx), workflow_id=key, retried=stale)


def _plant_order_failure(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return plant_failed_run(ctx, _execution_id(ctx), email=outs.get("email"), order_id=key, retried=stale)


def _order_failure(reader: Reader, key: Any) -> dict[str, Any]:
    sync = pick(reader.read(SERVICE, "list_workflows", name=_SYNC), name=_SYNC)
    rows = reader.read(SERVICE, "list_executions", workflow_id=sync["id"], status="error", limit=250)
    hits = []
    for row in rows:
        if row["retry_success_id"] or row["mode"] == "retry":
            continue
        full = reader.read(SERVICE, "get_execution", execution_id=row["id"], include_data=True)
        if full["data"]["input"].get("order_id") == key:
            hits.append(full)
    if len(hits) != 1:
        raise SolveError(f"{len(hits)} unretried failed sync runs of order {key}")
    return hits[0]


def _owned(reader: Reader, key: Any) -> dict[str, Any]:
    home = pick([p for p in reader.read(SERVICE, "list_projects") if p["type"] == "personal"], owner_email=key)
    return pick(reader.read(SERVICE, "list_workflows", project_id=home["id"], active=True), active=True)


def _of_app(reader: Reader, key: Any) -> dict[str, Any]:
    return pick(reader.read(SERVICE, "list_workflows", tags=f"alerting,{key}", active=True), active=True)


def _failed_of(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_executions", workflow_id=key, status="error", limit=250)
    return pick([r for r in rows if not r["retry_success_id"] and r["mode"] != "retry"], workflow_id=key)


_OWNER = Give("email", "owner_email", "the workflow owner's email address", "the workflow owner", draw=staff_email)

WORKFLOW = Relay(
    service=SERVICE, name="n8n workflow", key="workflow_id", gives=(_OWNER,),
    plant=lambda ctx, key, outs, stale: plant_workflow(ctx, key, outs.get("email") or staff_email(ctx)),
    find=lambda reader, key: reader.read(SERVICE, "get_workflow", workflow_id=key),
    where="Each n8n workflow lives in its owner's personal project, which names the owner.",
    alloc=lambda ctx: next_id(ctx.state(SERVICE), "WF"), entry=lambda key: f"the n8n workflow {key}")

OWNED_WORKFLOW = Relay(
    service=SERVICE, name="staff member's active n8n workflow", key="email", key_role="staff",
    gives=(Give("workflow_id", "id", "the staff member's active workflow"),),
    plant=_plant_owned, find=_owned,
    where="In n8n each staff member's workflows sit in their personal project, named after them and their work "
          "email.", truth="An inactive workflow runs nothing; only the person's active workflow counts.")

APP_WORKFLOW = Relay(
    service=SERVICE, name="app's alert-routing workflow", key="project_id",
    gives=(Give("workflow_id", "id", "the workflow routing the app's alerts"), _OWNER),
    plant=_plant_app, find=_of_app, alloc=_alloc_key,
    where="Alerts of each app are routed by an n8n workflow tagged 'alerting' and with the app's service name.",
    truth="An inactive copy of an alert-routing workflow routes nothing; only the active one counts.")

EXECUTION = Relay(
    service=SERVICE, name="failed n8n execution", key="workflow_execution_id",
    gives=(Give("email", "data.input.customer_email", "the email address of the customer whose order it was syncing",
                "the customer"),
           Give("order_id", "data.input.order_id", "the order the failed run was syncing")),
    plant=_plant_execution, find=lambda reader, key: reader.read(SERVICE, "get_execution", execution_id=key,
                                                                 include_data=True),
    where="A failed run of the n8n order-to-invoice sync keeps, in its input data, the order and the customer it "
          "was processing.", alloc=_execution_id, entry=lambda key: f"the n8n execution {key}")

ORDER_FAILURE = Relay(
    service=SERVICE, name="order's failed invoice sync", key="order_id",
    gives=(Give("workflow_execution_id", "id", "the failed sync run of the order"),
           Give("email", "data.input.customer_email", "the email address of the order's customer", "the customer")),
    plant=_plant_order_failure, find=_order_failure, alloc=_order_ref,
    where="An order that did not reach Xero shows up as a failed run of the n8n order-to-invoice sync, with the "
          "order in its input data.",
    truth="A failed sync run that was already retried successfully is settled; only the unretried failure counts.")

FAILED_RUN = Relay(
    service=SERVICE, name="workflow's failed run", key="workflow_id",
    gives=(Give("workflow_execution_id", "id", "the workflow's failed run"),),
    plant=_plant_failed_of, find=_failed_of, alloc=lambda ctx: next_id(ctx.state(SERVICE), "WF"),
    where="n8n lists every run of a workflow with its status; a failed run shows status error.",
    entry=lambda key: f"the failed run of n8n workflow {key}",
    truth="A failed run that was already retried successfully is settled; only the unretried failure counts.")


def _deactivate(reader: Reader, args: dict[str, Found]) -> Write:
    wid = args["workflow"].value
    if not reader.read(SERVICE, "get_workflow", workflow_id=wid)["active"]:
        raise SolveError(f"workflow {wid} is not active")
    return Write(
        calls=[call("deactivate_workflow", workflow_id=wid)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="workflows", record_id=wid,
                              where={"active": False}, description="The workflow is deactivated.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="workflows", allow_ids=[wid],
                           allow_paths={wid: ["active", "updated_at"]},
                           description="No other workflow was changed, deleted or created.")],
        tool="deactivate_workflow", where={"workflow_id": wid}, label="the deactivated workflow")


def _retry(reader: Reader, args: dict[str, Found]) -> Write:
    eid = args["execution"].value
    ex = reader.read(SERVICE, "get_execution", execution_id=eid, include_data=True)
    if ex["status"] != "error" or ex["retry_success_id"] or "Credential" in (ex["data"]["error"] or {}).get(
            "message", ""):
        raise SolveError(f"execution {eid} is not a failed run a retry fixes")
    return Write(
        calls=[call("retry_execution", execution_id=eid)],
        checks=[RecordExists(id="_", service=SERVICE, collection="executions",
                             where={"retry_of": eid, "status": "success"},
                             description="The failed run was retried and the retry succeeded.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="executions", allow_ids=[eid],
                           allow_new={"retry_of": eid}, max_new=1, allow_paths={eid: ["retry_success_id"]},
                           description="No other run was retried, and the run was retried once."),
               OnlyChanged(id="_", service=SERVICE, collection="workflows",
                           description="No workflow was changed.")],
        tool="retry_execution", where={"execution_id": eid}, label="the retried run")


LINKS = ServiceLinks(
    service=SERVICE, label="n8n",
    relays=(WORKFLOW, OWNED_WORKFLOW, APP_WORKFLOW, EXECUTION, ORDER_FAILURE, FAILED_RUN),
    actions=(
        Action(service=SERVICE, name="deactivate", needs=(Need("workflow", "workflow_id"),), build=_deactivate,
               goal="deactivate the n8n workflow so it stops running"),
        Action(service=SERVICE, name="retry", needs=(Need("execution", "workflow_execution_id"),), build=_retry,
               goal="retry the failed n8n run so it goes through"),
    ),
)

__all__ = ["LINKS", "plant_failed_run", "plant_workflow", "staff_email"]
