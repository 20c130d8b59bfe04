"""The leave system in chained tasks: a pending leave request names the
employee, their employee id and work email and the first day off; the case's
request is approved on behalf of the employee's manager."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._leave_models import Balance, LeaveEmployee, LeaveRequest
from compoworld_gym.envs.services._leave_rules import ALLOWANCE
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import (
    claim_id, employee_email, employee_id_of, manager_email, name_from_email, person_of,
)
from compoworld_gym.generation.links import (
    next_id,
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write,
)

_REASONS = ("Family trip", "Moving house", "Wedding abroad", "Visiting family", "Hiking holiday")


def leave_day(ctx: Ctx) -> str:
    """A working day 3 to 40 days ahead, as an ISO date (a leave's first day)."""
    day = ctx.today + dt.timedelta(days=ctx.rng.randint(3, 40))
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return day.isoformat()


def next_request_id(state: dict[str, Any]) -> str:
    """Take the next free leave request id from the leave system's counters."""
    return next_id(state, "LR")


def plant_leave_employee(state: dict[str, Any], employee_id: str, **fields: Any) -> str:
    """Add a :class:`LeaveEmployee` (validated) with full yearly balances unless
    ``employee_id`` is known; returns the id."""
    if employee_id not in state["employees"]:
        state["employees"][employee_id] = LeaveEmployee.model_validate(
            {**fields, "id": employee_id}).model_dump(mode="json")
        for kind, days in ALLOWANCE.items():
            state["balances"][f"{employee_id}:{kind}"] = Balance(
                employee_id=employee_id, leave_type=kind, available=days, used=0.0).model_dump(mode="json")
        claim_id(state, employee_id)
    return employee_id


def plant_request(state: dict[str, Any], request_id: str, **fields: Any) -> str:
    """Add a :class:`LeaveRequest` (validated) under ``request_id``; returns the id.

    Raises:
        pydantic.ValidationError: the fields do not make a valid request.
    """
    base = {"leave_type": "vacation", "reason": "", "approver_email": None, "decision_note": ""}
    record = LeaveRequest.model_validate({**base, **fields, "id": request_id})
    state["requests"][request_id] = record.model_dump(mode="json")
    return request_id


def _working_days(state: dict[str, Any], start: dt.date, end: dt.date) -> float:
    days = (start + dt.timedelta(days=k) for k in range((end - start).days + 1))
    return float(sum(1 for d in days if d.weekday() < 5 and d.isoformat() not in state["holidays"]))


def _employee(ctx: Ctx, email: str, eid: Optional[str]) -> str:
    state = ctx.state("leave")
    same = [e for e in state["employees"].values() if e["email"].lower() == email.lower()]
    if eid is None and same:
        return same[0]["id"]
    taken = eid is not None and eid in state["employees"] and state["employees"][eid]["email"].lower() != email.lower()
    if eid is None or taken:
        n = state["counters"].get("EMP", len(state["employees"]) + 1)
        eid = employee_id_of(ctx, email, "leave") or f"EMP-{n:04d}"
    known = person_of(ctx, email=email, employee_id=eid)
    dept = known.get("department", "Customer Support") if known else "Customer Support"
    boss = (known or {}).get("manager_email") or manager_email(ctx)
    return plant_leave_employee(state, eid, name=known["name"] if known else name_from_email(email), email=email,
                                department=dept, manager_email=boss)


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state("leave")
    eid = outs.get("employee_id")
    known = person_of(ctx, employee_id=eid) if eid else None
    email = outs.get("email") or (known["email"] if known else employee_email(ctx))
    eid = _employee(ctx, email, eid)
    start = dt.date.fromisoformat(outs.get("date") or leave_day(ctx))
    end = start + dt.timedelta(days=ctx.rng.choice((0, 1, 2, 4)))
    while _working_days(state, start, end) == 0:
        end += dt.timedelta(days=1)
    return plant_request(
        state, key, employee_id=eid, employee_email=state["employees"][eid]["email"], start_date=start.isoformat(),
        end_date=end.isoformat(), days=_working_days(state, start, end), status="pending",
        reason=ctx.rng.choice(_REASONS), requested_on=ctx.day(-ctx.rng.randint(1, 4)))


_DATE = Give("date", "start_date", "the first day of the employee's leave", "the employee", draw=leave_day)

LEAVE_REQUEST = Relay(
    service="leave", name="leave request", key="leave_request_id",
    gives=(Give("employee_id", "employee_id", "the employee's id", "the employee"),
           Give("email", "employee_email", "the employee's work email", "the employee", draw=employee_email),
           _DATE, Give("leave_request_id", "id", "the leave request")),
    plant=_plant, find=lambda reader, key: reader.read("leave", "get_leave_request", request_id=key),
    where="Each leave request in the leave system names the employee, their employee id and the first day off.",
    alloc=lambda ctx: next_request_id(ctx.state("leave")), entry=lambda key: f"leave request {key}")

def _prepare_approve(ctx: Ctx, values: dict[str, Any]) -> None:
    state = ctx.state("leave")
    request = state["requests"].get(values["request"])
    if request is not None:  # only the employee's manager may decide
        state["employees"][request["employee_id"]]["manager_email"] = values["approver"]


def _approve(reader: Reader, args: dict[str, Found]) -> Write:
    rid, approver, mention = args["request"].value, args["approver"].value, args["mention"]
    request = reader.read("leave", "get_leave_request", request_id=rid)
    note = f"{args['case'].value}: {mention.noun} is {mention.display}."
    balance = f"{request['employee_id']}:{request['leave_type']}"
    return Write(
        calls=[call("approve_leave_request", request_id=rid, approver_email=approver, note=note)],
        checks=[RecordMatches(id="_", service="leave", collection="requests", record_id=rid,
                              where={"status": "approved", "approver_email": {"$ieq": approver},
                                     "decision_note": {"$contains": mention.display}},
                              description="The case's leave request is approved by the manager, quoting the value.")],
        scope=[OnlyChanged(id="_", service="leave", collection="requests", allow_ids=[rid],
                           description="No other leave request was changed or created."),
               OnlyChanged(id="_", service="leave", collection="balances", allow_ids=[balance],
                           description="No other leave balance was changed.")],
        tool="approve_leave_request", where={"request_id": rid}, label="the leave approval")


LINKS = ServiceLinks(
    service="leave", label="the leave system",
    relays=(LEAVE_REQUEST,),
    actions=(Action(service="leave", name="approve",
                    needs=(Need("approver", "email", ("the manager",), "manager"), Need("request", "leave_request_id")),
                    build=_approve, prepare=_prepare_approve,
                    goal="approve the employee's leave request on behalf of {approver}, noting {mention}"),),
)

__all__ = ["LINKS", "leave_day", "next_request_id", "plant_leave_employee", "plant_request"]
