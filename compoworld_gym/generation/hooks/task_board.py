"""Task hook of the task board: task due dates as facts, task writes as sinks."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook

_PRIORITY = ("low", "medium", "high")


def _task(ctx: Ctx, title: str, opts: dict[str, Any], due: Any) -> tuple[str, dict[str, Any]]:
    state = ctx.state("task_board")
    n = state["counters"].get("task", 1)
    state["counters"]["task"] = n + 1
    tid = f"task-{n}"
    project = sorted(p for p, rec in state["projects"].items() if not rec.get("completed"))[0]
    state["projects"][project]["taskIds"].append(tid)
    done = bool(opts.get("closed"))
    return tid, {
        "id": tid, "projectId": project, "title": title, "description": f"Follow up on {title}.",
        "status": "done" if done else "not started", "approved": done,
        "completedDetails": "Closed out." if done else "", "toolRecommendations": "", "ruleRecommendations": "",
        "assigneeEmail": None, "dueDate": due, "priority": _PRIORITY[opts.get("rank", 1)], "labels": [],
        "comments": [],
    }


def _plant_due(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return _task(ctx, f"Prepare {cue}", opts, value)


def _sink_date(ctx: Ctx, fact: Fact) -> SinkStep:
    title = f"Review {ctx.code()}"
    tid, record = _task(ctx, title, {}, None)
    ctx.state("task_board")["tasks"][tid] = record
    project = record["projectId"]

    def checks(value: Any) -> list[dict[str, Any]]:
        return [{"kind": "record_matches", "service": "task_board", "collection": "tasks", "record_id": tid,
                 "where": {"dueDate": value}, "description": f"Task {tid} is due on the right date."}]

    return SinkStep(
        service="task_board", tool="set_task_details", value_arg="dueDate",
        calls=[call("list_tasks"), call("set_task_details", projectId=project, taskId=tid, dueDate=fact.value)],
        phrase=f"set the due date of the task-board task '{title}' to {{ref}}",
        label=f"the due date of task '{title}'", checks=checks, where={"taskId": tid})


def _sink_email(ctx: Ctx, fact: Fact) -> SinkStep:
    title = f"Call back {ctx.code()}"
    tid, record = _task(ctx, title, {}, None)
    ctx.state("task_board")["tasks"][tid] = record
    project = record["projectId"]
    name = ctx.fresh("person_name")
    # The new owner must be a board member: the hook onboards them (as an admin would have).
    for email in [fact.value, *fact.wrong]:
        if isinstance(email, str):
            ctx.state("task_board")["members"][email.lower()] = {"email": email.lower(), "name": name}

    def checks(value: Any) -> list[dict[str, Any]]:
        return [{"kind": "record_matches", "service": "task_board", "collection": "tasks", "record_id": tid,
                 "where": {"assigneeEmail": ctx.matcher("email", value)},
                 "description": f"Task {tid} is assigned to the right person."}]

    return SinkStep(
        service="task_board", tool="set_task_details", value_arg="assigneeEmail",
        calls=[call("list_tasks"), call("set_task_details", projectId=project, taskId=tid,
                                        assigneeEmail=fact.value)],
        phrase=f"assign the task-board task '{title}' to {{ref}}",
        label=f"the assignment of task '{title}'", checks=checks, where={"taskId": tid})


HOOK = ServiceHook(
    service="task_board",
    label="the task board",
    sources={"date": RecordSource(
        type="date", tool="list_tasks", collection="tasks", noun="the due date",
        locate="of the task-board task 'Prepare {cue}'", plant=_plant_due, read_args=lambda cue: {},
        cue=lambda ctx: f"audit {ctx.code()}", variants=frozenset({"decoy", "ranked"}),
        decoy_rule="Done tasks are history; the open task about {cue} is the source of truth.",
        rank_rule="the one with the highest priority", plural="tasks")},
    sinks={"date": ("set_task_details", _sink_date), "email": ("set_task_details", _sink_email)},
)
