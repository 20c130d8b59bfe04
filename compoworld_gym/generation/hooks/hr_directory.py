"""The HR directory in chained tasks: an employee, found by work email or by
employee id, names their manager, their employee id and their work phone; the
case's employee is marked as on leave.

It also holds the people helpers the other HR-side hooks (leave, payroll,
expenses, meeting rooms) share, so that one planted person has one name,
email and id in every service of a task.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import DOMAIN, TEAMS, staff_of
from compoworld_gym.envs.services._hr_directory_models import Employee
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write

#: Title words that mark a team's head (as the shared roster reads them).
_HEAD_WORDS = ("Lead", "Manager", "Controller", "Counsel")


def _head(team: str) -> Any:
    members = staff_of(team)
    return next((m for m in members if any(w in m.title for w in _HEAD_WORDS)), members[0])


#: Each team's head: the people who manage and approve. Finance's head is left
#: out: Finance approves expense reports, and nobody approves their own.
HEADS = tuple(_head(team) for team in TEAMS if team != "finance")
_TITLES = ("Operations Specialist", "Account Coordinator", "Data Analyst", "Project Coordinator")
#: Services whose employee records describe the same people.
_PEOPLE = ("hr_directory", "leave", "payroll", "expenses", "benefits")


def manager_email(ctx: Ctx) -> str:
    """A team head's work email (managers and approvers are staff)."""
    return ctx.rng.choice(HEADS).email


def employee_email(ctx: Ctx) -> str:
    """A fresh employee's work email at the company domain (not on the roster)."""
    return f"{ctx.first_name()}.{ctx.last_name()}@{DOMAIN}".lower().replace("'", "").replace(" ", "")


def work_phone(ctx: Ctx) -> str:
    """A work phone in E.164 form in the fictional 555 range."""
    return f"+1{ctx.rng.choice(('415', '212', '512', '312'))}555{ctx.rng.randint(1000, 9999)}"


def name_from_email(email: str) -> str:
    """The person's name as their address spells it ("ann.lee42@x" -> "Ann Lee")."""
    parts = [re.sub(r"[^a-z-]", "", p) for p in email.split("@")[0].lower().split(".")]
    return " ".join(p.capitalize() for p in parts if p) or email.split("@")[0]


def person_of(ctx: Ctx, email: Optional[str] = None, employee_id: Optional[str] = None) -> Optional[dict]:
    """An employee record of the task's HR-side services for ``email`` or
    ``employee_id`` (so a person planted in one keeps their name in the next)."""
    for service in _PEOPLE:
        people = ctx.states.get(service, {}).get("employees", {})
        if employee_id is not None and service != "expenses" and employee_id in people:
            return people[employee_id]
        if email is not None:
            hit = next((p for p in people.values() if p["email"].lower() == email.lower()), None)
            if hit is not None:
                return hit
    return None


def employee_id_of(ctx: Ctx, email: str, service: str) -> Optional[str]:
    """The id another HR service of the task gives the person at ``email``, when
    ``service`` does not use it yet (one person, one employee id)."""
    for other in ("hr_directory", "leave", "payroll"):
        people = ctx.states.get(other, {}).get("employees", {})
        hit = next((p["id"] for p in people.values() if p["email"].lower() == email.lower()), None)
        if other != service and hit is not None and hit not in ctx.state(service)["employees"]:
            return hit
    return None


def claim_id(state: dict[str, Any], employee_id: str, prefix: str = "EMP") -> None:
    """Make the counter of ``prefix`` skip ``employee_id`` (an id allocated elsewhere)."""
    n = int(employee_id.rsplit("-", 1)[1])
    state["counters"][prefix] = max(state["counters"].get(prefix, 1), n + 1)


def next_employee_id(state: dict[str, Any]) -> str:
    """Take the next free employee id from the directory's counters (as ``new_id("EMP")``)."""
    n = state["counters"].get("EMP", len(state["employees"]) + 1)
    state["counters"]["EMP"] = n + 1
    return f"EMP-{n:04d}"


def plant_employee(state: dict[str, Any], employee_id: str, **fields: Any) -> str:
    """Add an :class:`Employee` (validated) under ``employee_id``; returns the id.

    Raises:
        pydantic.ValidationError: the fields do not make a valid employee.
    """
    base = {"phone": None, "title": _TITLES[0], "department": "Customer Support", "manager_email": None,
            "location": "Austin", "start_date": "2024-03-04", "employment_type": "full_time", "status": "active",
            "end_date": None}
    record = Employee.model_validate({**base, **fields, "id": employee_id})
    state["employees"][employee_id] = record.model_dump(mode="json")
    claim_id(state, employee_id)
    return employee_id


def _new(ctx: Ctx, eid: Optional[str], email: str, manager: str, phone: Optional[str]) -> str:
    state = ctx.state("hr_directory")
    eid = eid or employee_id_of(ctx, email, "hr_directory") or next_employee_id(state)
    known = person_of(ctx, email=email)
    boss = next((e for e in state["employees"].values() if e["email"].lower() == manager.lower()), None)
    if boss is None:  # a manager outside the directory: the employee sits in some department
        boss = ctx.rng.choice([e for e in state["employees"].values() if e["department"] != "Executive"])
    return plant_employee(state, eid, name=known["name"] if known else name_from_email(email), email=email,
                          phone=phone or work_phone(ctx), title=ctx.rng.choice(_TITLES),
                          department=boss["department"], manager_email=manager, location=boss["location"],
                          start_date=ctx.day(-ctx.rng.randint(90, 1800)))


def _plant_by_email(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state("hr_directory")
    manager = outs.get("email") or manager_email(ctx)
    current = next((e for e in state["employees"].values() if e["email"].lower() == str(key).lower()), None)
    if current is None:
        return _new(ctx, outs.get("employee_id"), key, manager, outs.get("phone"))
    # A known employee (a staff member): their one record carries the case's values.
    record = state["employees"].pop(current["id"])
    eid = outs.get("employee_id") or record["id"]
    record.update(manager_email=manager, phone=outs.get("phone") or record["phone"], status="active", end_date=None)
    return plant_employee(state, eid, **{k: v for k, v in record.items() if k != "id"})


def _plant_by_id(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    known = person_of(ctx, employee_id=key)
    email = known["email"] if known else employee_email(ctx)
    return _new(ctx, key, email, outs.get("email") or manager_email(ctx), outs.get("phone"))


_MANAGER = Give("email", "manager_email", "the manager's email address", "the manager", draw=manager_email)
_PHONE = Give("phone", "phone", "the employee's work phone number", "the employee", draw=work_phone)

EMPLOYEE = Relay(
    service="hr_directory", name="employee", key="email",
    gives=(_MANAGER, Give("employee_id", "id", "the employee's id", "the employee"), _PHONE),
    plant=_plant_by_email, find=lambda reader, key: reader.read("hr_directory", "get_employee_by_email", email=key),
    where="The HR directory lists each employee under their work email, with their manager, employee id and phone.",
    key_role="staff")

EMPLOYEE_BY_ID = Relay(
    service="hr_directory", name="employee record", key="employee_id", gives=(_MANAGER, _PHONE),
    plant=_plant_by_id, find=lambda reader, key: reader.read("hr_directory", "get_employee", employee_id=key),
    where="The HR directory's record of each employee, by employee id, names their manager and work phone.",
    alloc=lambda ctx: next_employee_id(ctx.state("hr_directory")), entry=lambda key: f"employee {key}")


def _prepare_leave(ctx: Ctx, values: dict[str, Any]) -> None:
    state = ctx.state("hr_directory")
    eid = values["employee"]
    if eid not in state["employees"]:
        _plant_by_id(ctx, eid, {}, False)
    state["employees"][eid]["status"] = "active"


def _on_leave(reader: Reader, args: dict[str, Found]) -> Write:
    eid = args["employee"].value
    reader.read("hr_directory", "get_employee", employee_id=eid)
    return Write(
        calls=[call("update_employee", employee_id=eid, status="on_leave")],
        checks=[RecordMatches(id="_", service="hr_directory", collection="employees", record_id=eid,
                              where={"status": "on_leave"},
                              description="The case's employee is marked as on leave in the HR directory.")],
        scope=[OnlyChanged(id="_", service="hr_directory", collection="employees", allow_ids=[eid],
                           description="No other employee record was changed or created.")],
        tool="update_employee", where={"employee_id": eid}, label="the on-leave status in the HR directory")


LINKS = ServiceLinks(
    service="hr_directory", label="the HR directory",
    relays=(EMPLOYEE, EMPLOYEE_BY_ID),
    # Only a case with a leave request (its first day off, who "the employee") marks someone on leave.
    actions=(Action(service="hr_directory", name="on leave",
                    needs=(Need("employee", "employee_id"), Need("first_day", "date", ("the employee",))),
                    build=_on_leave, goal="mark {employee} as on leave in the HR directory",
                    prepare=_prepare_leave),),
)

__all__ = ["HEADS", "LINKS", "claim_id", "employee_email", "employee_id_of", "manager_email", "name_from_email",
           "next_employee_id", "person_of", "plant_employee", "work_phone"]
