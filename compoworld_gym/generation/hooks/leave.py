"""Task hook of leave: the dates and owner of a leave request as facts;
approving a pending request as its manager (an email) as a sink."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook, record_sink


def _employee(ctx: Ctx, name: str, email: str, manager: str) -> str:
    emps = ctx.state("leave")["employees"]
    eid = f"EMP-{len(emps) + 1:04d}"
    emps[eid] = {"id": eid, "name": name, "email": email, "department": "Sales", "manager_email": manager}
    return eid


def _request(ctx: Ctx, opts: dict[str, Any], reason: str, status: str, **fields: Any) -> tuple[str, dict[str, Any]]:
    name, email = ctx.person()
    eid = _employee(ctx, name, fields.pop("employee_email", email), fields.pop("manager", "amy.perry@company.example"))
    emp = ctx.state("leave")["employees"][eid]
    start = fields.pop("start_date", ctx.day(20 + opts.get("when", 2)))
    rid = ctx.new_id("leave", "LR")
    return rid, {"id": rid, "employee_id": eid, "employee_email": emp["email"], "leave_type": "unpaid",
                 "start_date": start, "end_date": start, "days": 1.0,
                 "status": "cancelled" if opts.get("closed") else status, "reason": reason,
                 "approver_email": None, "decision_note": "", "requested_on": ctx.day(-opts.get("when", 2))}


def _source(etype: str, field: str, noun: str) -> RecordSource:
    def plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return _request(ctx, opts, f"Family matter ({cue})", "approved", **{field: value})

    return RecordSource(
        type=etype, tool="list_leave_requests", collection="requests", noun=noun,
        locate="of the leave request whose reason mentions {cue}", plant=plant, read_args=lambda cue: {"limit": 200},
        cue=lambda ctx: f"ref {ctx.code()}", variants=frozenset({"decoy", "latest"}), plural="leave requests",
        decoy_rule="A cancelled leave request no longer counts; use the live one about {cue}.")


def _sink_approve(ctx: Ctx, fact: Fact) -> SinkStep:
    rid, record = _request(ctx, {"when": 1}, f"Moving house ({ctx.case()})", "pending", manager=fact.value)
    ctx.state("leave")["requests"][rid] = record
    name = ctx.state("leave")["employees"][record["employee_id"]]["name"]
    return record_sink(
        ctx, fact, service="leave", tool="approve_leave_request", value_arg="approver_email", collection="requests",
        field_path="approver_email", record_id=rid, where={"request_id": rid},
        calls=[call("list_leave_requests", status="pending", limit=200),
               call("approve_leave_request", request_id=rid, approver_email=fact.value)],
        phrase=f"approve {name}'s pending leave request, acting as their manager {{ref}}",
        label=f"the approval of {name}'s leave")


HOOK = ServiceHook(
    service="leave",
    label="the leave system",
    sources={"date": _source("date", "start_date", "the first day of leave"),
             "email": _source("email", "employee_email", "the employee's email address")},
    sinks={"email": ("approve_leave_request", _sink_approve)},
)
