"""The task board in chained tasks: a task names its owner and due date and
quotes the order, ticket or GitHub issue it is about; a customer's open
follow-up task carries their email. The case's task is assigned or
commented on."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._github_seed import ORG
from compoworld_gym.envs.services._task_board_models import Member, Project, Task
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.helpdesk import STAFF_ROLES
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, pick,
)

FOLLOW_UPS = "Customer follow-ups"
ISSUE_RX = rf"{ORG}/[\w.-]+#\d+"
#: Task owners the chain draws, and the people a policy assigns to: disjoint,
#: so that a routed assignment always changes the owner.
_OWNERS = tuple(s for s in STAFF if s.team not in ("support", "customer_success"))
_DESKS = tuple(s for s in STAFF if s.team in ("support", "customer_success"))
_ABOUT = {"order_id": ("Chase the refund for order {v}", "Confirm with billing that order {v} was refunded."),
          "ticket_id": ("Call back the customer on ticket {v}", "The customer on ticket {v} asked for a call."),
          "issue_id": ("Confirm the fix for GitHub issue {v}", "Check with the customer once {v} is fixed.")}


def task_owner(ctx: Ctx) -> str:
    """A staff member who owns back-office tasks."""
    return ctx.rng.choice(_OWNERS).email


def next_task_id(state: dict[str, Any]) -> str:
    """Take the next free task id from the board's counters (``task-12``)."""
    n = state["counters"].get("task", 1)
    state["counters"]["task"] = n + 1
    return f"task-{n}"


def ensure_follow_ups(ctx: Ctx) -> str:
    """The id of the board's "Customer follow-ups" :class:`Project`, added
    (validated) if missing."""
    state = ctx.state("task_board")
    for pid, p in state["projects"].items():
        if p["initialPrompt"] == FOLLOW_UPS:
            return pid
    n = state["counters"].get("proj", 1)
    state["counters"]["proj"] = n + 1
    pid = f"proj-{n}"
    state["projects"][pid] = Project(id=pid, initialPrompt=FOLLOW_UPS, projectPlan="Call-backs and checks owed "
                                     "to customers.", createdOn=ctx.day(-30)).model_dump(mode="json")
    return pid


def plant_task(ctx: Ctx, task_id: str, **fields: Any) -> str:
    """Add a :class:`Task` (validated) to the follow-ups project; returns the id."""
    state, pid = ctx.state("task_board"), ensure_follow_ups(ctx)
    base = {"status": "not started", "priority": "medium", "labels": ["follow-up"], "comments": []}
    state["tasks"][task_id] = Task.model_validate({**base, **fields, "id": task_id, "projectId": pid}).model_dump(
        mode="json")
    state["projects"][pid]["taskIds"].append(task_id)
    return task_id


def _text(outs: dict[str, Any], fallback: tuple[str, str]) -> tuple[str, str]:
    etype = next((t for t in _ABOUT if outs.get(t)), "")
    title, desc = _ABOUT[etype] if etype else fallback
    return title.format(v=outs.get(etype)), desc.format(v=outs.get(etype))


def _plant_by_id(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    title, desc = _text(outs, ("Review the weekly refund report", "Flag anything unusual to finance."))
    return plant_task(ctx, key, title=title, description=desc, assigneeEmail=outs.get("email") or task_owner(ctx),
                      dueDate=outs.get("date") or ctx.day(5), status="in progress")


def _plant_for_customer(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    about = f" Their order is {outs['order_id']}." if outs.get("order_id") else ""
    done = {"status": "done", "approved": True, "completedDetails": "Called back; resolved."} if stale else {}
    return plant_task(ctx, next_task_id(ctx.state("task_board")), title=f"Call back {key}",
                      description=f"The customer asked to be called back.{about}",
                      dueDate=outs.get("date") or ctx.day(3), priority="high", **done)


def _open_for(reader: Reader, key: Any) -> dict[str, Any]:
    rows = [t for t in reader.read("task_board", "list_tasks", state="open") if key.lower() in t["title"].lower()]
    if len(rows) != 1:
        raise SolveError(f"{len(rows)} open tasks name {key}")
    return rows[0]


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return pick(reader.read("task_board", "list_tasks"), id=key)


_DUE = Give("date", "dueDate", "the task's due date")

TASK = Relay(
    service="task_board", name="task", key="task_id",
    gives=(Give("email", "assigneeEmail", "the task owner's email address", "the task owner", draw=task_owner), _DUE,
           Give("order_id", "description", "the order the task is about", pattern=r"ORD-\d{4,}"),
           Give("ticket_id", "description", "the ticket the task is about", pattern=r"TCK-\d{4,}"),
           Give("issue_id", "description", "the GitHub issue the task is about", pattern=ISSUE_RX)),
    plant=_plant_by_id, find=_by_id,
    where="A task-board task names its owner and due date, and its description quotes the record it is about.",
    alloc=lambda ctx: next_task_id(ctx.state("task_board")), entry=lambda key: f"task-board task {key}")

FOLLOW_UP = Relay(
    service="task_board", name="follow-up task", key="email",
    gives=(Give("task_id", "id", "the customer's follow-up task"), _DUE,
           Give("order_id", "description", "the order the follow-up is about", pattern=r"ORD-\d{4,}")),
    plant=_plant_for_customer, find=_open_for,
    where="Follow-up tasks on the task board carry the customer's email address in their title.",
    truth="A finished task is history; only the customer's open follow-up task counts.")


def _scope(tid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="task_board", collection="tasks", allow_ids=[tid],
                        description="No other task was changed or created.")]


def _assign(reader: Reader, args: dict[str, Found]) -> Write:
    tid, owner = args["task"].value, args["assignee"].value
    pid = _by_id(reader, tid)["projectId"]
    return Write(
        calls=[call("set_task_details", projectId=pid, taskId=tid, assigneeEmail=owner)],
        checks=[RecordMatches(id="_", service="task_board", collection="tasks", record_id=tid,
                              where={"assigneeEmail": {"$ieq": owner}},
                              description="The case's task is assigned to the right person.")],
        scope=_scope(tid), tool="set_task_details", where={"taskId": tid}, label="the task assignment")


def _comment(reader: Reader, args: dict[str, Found]) -> Write:
    tid, mention = args["task"].value, args["mention"]
    pid = _by_id(reader, tid)["projectId"]
    body = f"{args['case'].value}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("add_task_comment", projectId=pid, taskId=tid, body=body)],
        checks=[RecordMatches(id="_", service="task_board", collection="tasks", record_id=tid,
                              where={"comments": {"$any": {"body": {"$contains": mention.display}}}},
                              description="A comment on the task quotes the right value.")],
        scope=_scope(tid), tool="add_task_comment", where={"taskId": tid}, label="the comment on the task")


def _prepare_assign(ctx: Ctx, values: dict[str, Any]) -> None:
    owners = values["assignee"]
    members = ctx.state("task_board")["members"]
    for email in owners if isinstance(owners, tuple) else (owners,):
        name = next((s.name for s in STAFF if s.email == email.lower()), email.split("@")[0].replace(".", " ").title())
        members.setdefault(email.lower(), Member(email=email.lower(), name=name).model_dump(mode="json"))


def _desks(ctx: Ctx) -> tuple[str, str]:
    a, b = ctx.rng.sample(_DESKS, 2)
    return a.email, b.email


LINKS = ServiceLinks(
    service="task_board", label="the task board",
    relays=(TASK, FOLLOW_UP),
    actions=(
        Action(service="task_board", name="assign",
               needs=(Need("assignee", "email", (*STAFF_ROLES, "the account manager"), "owner"),
                      Need("task", "task_id")),
               build=_assign, prepare=_prepare_assign, routable=True,
               goal="make {assignee} the owner of the customer's follow-up task"),
        Action(service="task_board", name="comment", needs=(Need("task", "task_id"),), build=_comment,
               goal="comment on the task-board task, quoting {mention}"),
    ),
    route_values={"email": _desks},
)

__all__ = ["FOLLOW_UPS", "ISSUE_RX", "LINKS", "ensure_follow_ups", "next_task_id", "plant_task", "task_owner"]
