"""Task requests (MCP TaskManager) in chained tasks: a staff member's work
request names, in its next pending task, the order, customer or vendor it is
about; the request gives its owner (a staff email) and the order its task
quotes. An order id, a customer's email or a vendor's name leads to the open
request about it. Writes: mark the request's next pending task done with
completedDetails quoting a discovered value, or add a follow-up task to it."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._task_requests_models import TaskItem, TaskRequest
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id,
)

SERVICE = "task_requests"
ORDER_RX = r"ORD-\d{4,}"
#: Staff who raise work requests (anyone but the agent's own mailbox).
_OWNERS = tuple(s.email for s in STAFF)


def request_owner(ctx: Ctx) -> str:
    """A staff member who raises a work request."""
    return ctx.rng.choice(_OWNERS)


def next_request_id(state: dict[str, Any]) -> str:
    """Take the next free request id from the counters (``req-9``), as the service does."""
    return next_id(state, "req", width=1)


def order_key(ctx: Ctx) -> str:
    """An order id: the order system's next one when it is mounted, else one past the shared book."""
    if "orders" in ctx.states:
        return next_id(ctx.state("orders"), "ORD")
    return next_id(ctx.state(SERVICE), "ORD", start=40)


def plant_request(ctx: Ctx, rid: str, *, owner: str, text: str, tasks: list[tuple[str, str]],
                  completed: bool = False) -> str:
    """Add a :class:`TaskRequest` raised by ``owner`` (validated) with ``tasks`` ``(title, description)``:
    the first is done and approved, the others pending (all approved when ``completed``); returns its id."""
    state = ctx.state(SERVICE)
    req = TaskRequest(id=rid, originalRequest=text, splitDetails=f"Split into {len(tasks)} steps.",
                      ownerEmail=owner, createdOn=ctx.day(-(12 if completed else 3)), completed=completed)
    for k, (title, desc) in enumerate(tasks):
        tid = next_id(state, "task", width=1)
        done = completed or k == 0
        t = TaskItem(id=tid, requestId=rid, title=title, description=desc, done=done, approved=done,
                     completedDetails="Done and checked by the owner." if done else "")
        state["tasks"][tid] = t.model_dump(mode="json")
        req.taskIds.append(tid)
    state["requests"][rid] = req.model_dump(mode="json")
    return rid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    rid = key if by == "id" else next_request_id(state)
    owner = outs.get("email") if by != "customer" else None
    owner = owner or request_owner(ctx)
    order = key if by == "order" else outs.get("order_id") or order_key(ctx)
    if by == "vendor":
        text, tasks = f"Onboard {key} as a vendor", [
            ("Collect tax form", f"Get the signed W-9 from {key}."),
            ("Create the vendor record", f"Add {key} to accounts payable; their first delivery is order {order}."),
            ("Add to approved vendors", f"List {key} on the approved-vendor sheet.")]
    elif by == "customer":
        text, tasks = f"Follow up on the escalation from {key} about order {order}", [
            ("Read the escalation", f"Read the complaint from {key} about order {order}."),
            ("Call back the customer", f"Call {key} about order {order} and confirm the fix."),
            ("Close the ticket", f"Close the support ticket for order {order} once {key} confirms.")]
    else:
        text, tasks = f"Follow up on the escalation for order {order}", [
            ("Confirm the order details", f"Check the status and total of order {order}."),
            ("Resolve with the customer", f"Agree the fix for order {order} with the customer."),
            ("Close the ticket", f"Close the support ticket for order {order}.")]
    if stale:
        text = text.replace("Follow up", "Earlier follow-up").replace("Onboard", "Earlier onboarding of")
    return plant_request(ctx, rid, owner=owner, text=text, tasks=tasks, completed=stale)


def _next(reader: Reader, rid: str) -> dict[str, Any]:
    n = reader.read(SERVICE, "get_next_task", requestId=rid)
    if n["status"] != "next_task":
        raise SolveError(f"request {rid} has no pending task ({n['status']})")
    return n


def _open_about(reader: Reader, key: Any) -> dict[str, Any]:
    """The one open request whose pending tasks name ``key`` (a completed request is history)."""
    text = str(key).lower()
    rows = [r for r in reader.read(SERVICE, "list_requests")["requests"] if not r["completed"]
            and any(not t["done"] and text in t["description"].lower() for t in r["tasks"])]
    if len(rows) != 1:
        raise SolveError(f"{len(rows)} open requests name {key}")
    return rows[0]


_OWNER = Give("email", "ownerEmail", "the email of the staff member who raised the request", "the request owner",
              draw=request_owner)
_ORDER = Give("order_id", "task.description", "the order the request's next task is about", pattern=ORDER_RX)
_ID = Give("task_request_id", "id", "the open work request about it")
_ORDER_ASKED = Give("order_id", "originalRequest", "the order the request is about", pattern=ORDER_RX)
_TRUTH = "A completed request is closed; only the open request counts."

REQUEST = Relay(
    service=SERVICE, name="work request", key="task_request_id", gives=(_OWNER, _ORDER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_next,
    where="Each work request in the task manager names the staff member who raised it; its next pending task "
          "quotes the order it is about.",
    alloc=lambda ctx: next_request_id(ctx.state(SERVICE)), entry=lambda key: f"work request {key}")

ORDER_REQUEST = Relay(
    service=SERVICE, name="order's work request", key="order_id", gives=(_ID, _OWNER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "order"), find=_open_about,
    alloc=order_key, truth=_TRUTH,
    where="Escalation follow-ups are work requests in the task manager whose pending tasks quote the order id.")

CUSTOMER_REQUEST = Relay(
    service=SERVICE, name="customer's work request", key="email", gives=(_ID, _ORDER_ASKED),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "customer"), find=_open_about,
    truth=_TRUTH, key_role="customer",
    where="A customer's escalation follow-up is a work request in the task manager whose pending tasks name the "
          "customer's email address.")

VENDOR_REQUEST = Relay(
    service=SERVICE, name="vendor onboarding request", key="company", key_party="vendor", gives=(_ID, _OWNER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "vendor"), find=_open_about, truth=_TRUTH,
    where="Vendor onboarding is a work request in the task manager whose pending tasks name the vendor.")


def _mark_done(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["request"].value, args["mention"], args["case"].value
    task = _next(reader, rid)["task"]
    details = f"{case}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("mark_task_done", requestId=rid, taskId=task["id"], completedDetails=details)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="tasks", record_id=task["id"],
                              where={"done": True, "completedDetails": {"$contains": mention.display}},
                              description="The request's next pending task is done, quoting the right value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="tasks", allow_ids=[task["id"]],
                           allow_paths={task["id"]: ["done", "completedDetails", "doneAt"]},
                           description="No other task was marked done, approved or changed."),
               OnlyChanged(id="_", service=SERVICE, collection="requests",
                           description="No request was approved, planned or changed.")],
        tool="mark_task_done", where={"requestId": rid, "taskId": task["id"]}, label="the task marked done")


def _add_task(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["request"].value, args["mention"], args["case"].value
    _next(reader, rid)
    desc = f"{case}: {mention.noun} is {mention.display}; follow it up."
    return Write(
        calls=[call("add_tasks_to_request", requestId=rid, tasks=[{"title": f"Follow up {case}", "description": desc}])],
        checks=[RecordExists(id="_", service=SERVICE, collection="tasks",
                             where={"requestId": rid, "done": False,
                                    "description": {"$all": [{"$contains": case}, {"$contains": mention.display}]}},
                             description="A new pending task on the request quotes the case and the value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="tasks", allow_new={"requestId": rid}, max_new=1,
                           description="No task was changed and only the one new task was added."),
               OnlyChanged(id="_", service=SERVICE, collection="requests", allow_ids=[rid],
                           description="Only the case's request gained a task.")],
        tool="add_tasks_to_request", where={"requestId": rid}, label="the task added to the request")


LINKS = ServiceLinks(
    service=SERVICE, label="the task manager",
    relays=(REQUEST, ORDER_REQUEST, CUSTOMER_REQUEST, VENDOR_REQUEST),
    actions=(
        Action(service=SERVICE, name="mark_done", needs=(Need("request", "task_request_id"),), build=_mark_done,
               goal="mark the next pending task of that work request done, with completion details quoting "
                    "{mention}"),
        Action(service=SERVICE, name="add_task", needs=(Need("request", "task_request_id"),), build=_add_task,
               goal="add a follow-up task to that work request quoting {mention}"),
    ),
)

__all__ = ["LINKS", "next_request_id", "order_key", "plant_request", "request_owner"]
