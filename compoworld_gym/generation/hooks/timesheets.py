"""Timesheets in chained tasks: a client project names the client company
(the shared customer accounts: CRM, contracts and invoicing know it), its
project manager and the approved billable time not yet invoiced; a
company's active project is found by the client's name; a staff member's
week awaiting approval names their approving manager and the week's
billable amount. The case's project time is invoiced, its week approved, or
a note quoting a value is put on the project.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._timesheets_models import (
    HarvestClient, HarvestUser, Project, TaskAssignment, TimeEntry, Timesheet,
)
from compoworld_gym.envs.services._timesheets_rules import week_of
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import claim_id, manager_email, name_from_email, person_of
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "timesheets"
#: Implementation hours bill at this rate; the remainder of an amount is one hour of project management.
_RATE = 175.0
_NAMES = ("Platform Rollout", "Reporting Upgrade", "Data Integration", "Onboarding Program", "Workflow Automation")
#: HR-side services whose employee ids name the same people.
_HR = ("hr_directory", "leave", "payroll", "benefits")


def next_project_id(state: dict[str, Any]) -> str:
    """Take the next free project id from the service's counters (as ``new_id("PRJ")``)."""
    return next_id(state, "PRJ")


def plant_user(ctx: Ctx, email: str, approver: Optional[str] = None) -> str:
    """The timesheets user with work email ``email`` (added if new, under the id the HR services
    give that email); ``approver`` becomes their approving manager. Returns the user id."""
    state = ctx.state(SERVICE)
    hit = next((u for u in state["users"].values() if u["email"].lower() == email.lower()), None)
    if hit is not None:
        if approver:
            hit["approver_email"] = approver
        return hit["id"]
    uid = next((p["id"] for s in _HR for p in ctx.states.get(s, {}).get("employees", {}).values()
                if p["email"].lower() == email.lower() and p["id"] not in state["users"]), None)
    if uid is None:
        state["counters"].setdefault("EMP", 1 + max((int(u[4:]) for u in state["users"]), default=22))
        uid = next_id(state, "EMP")
    known = person_of(ctx, email=email)
    first, _, last = (known["name"] if known else name_from_email(email)).partition(" ")
    state["users"][uid] = HarvestUser(id=uid, first_name=first, last_name=last or "Staff", email=email,
                                      department=known.get("department", "Customer Success") if known else
                                      "Customer Success", default_hourly_rate=_RATE, cost_rate=62.5,
                                      approver_email=approver or manager_email(ctx)).model_dump(mode="json")
    claim_id(state, uid)
    return uid


def _client(ctx: Ctx, company: str) -> str:
    state = ctx.state(SERVICE)
    hit = next((c for c in state["clients"].values() if c["name"].lower() == company.lower()), None)
    if hit is not None:
        hit["is_active"] = True
        return hit["id"]
    state["counters"].setdefault("CUS", len(ACCOUNTS) + 1)
    cid = next_id(state, "CUS")
    state["clients"][cid] = HarvestClient(id=cid, name=company).model_dump(mode="json")
    return cid


def _split(total: float) -> tuple[int, float]:
    """``(implementation hours at _RATE, project-management rate for one hour)`` billing ``total`` exactly."""
    hours = int(max(total - 50.0, 0.0) // _RATE)
    return hours, money(total - hours * _RATE)


def plant_project(ctx: Ctx, pid: str, *, client_id: str, user_id: str, manager: str, total: float,
                  days: list[dt.date], status: str, active: bool = True) -> str:
    """A bill-by-task project of ``client_id`` (validated :class:`Project`) whose time by
    ``user_id`` on ``days`` (4-hour blocks dealt out over the days, ``status`` entries) bills
    exactly ``total`` USD: whole implementation hours plus one hour of project management."""
    state = ctx.state(SERVICE)
    hours, pm_rate = _split(total)
    project = Project(id=pid, client_id=client_id, name=ctx.rng.choice(_NAMES), code=f"P-{pid[4:]}",
                      is_active=active, bill_by="Tasks", budget_by="project", budget=float(max(40, 10 * (hours // 6 + 2))),
                      starts_on=ctx.today - dt.timedelta(days=70), manager_email=manager, user_ids=[user_id],
                      task_assignments=[TaskAssignment(task_id="TSK-0001", billable=True, hourly_rate=_RATE),
                                        TaskAssignment(task_id="TSK-0003", billable=True, hourly_rate=pm_rate)])
    state["projects"][pid] = project.model_dump(mode="json")
    chunks = [("TSK-0003", 1.0, pm_rate)] + [("TSK-0001", float(min(4, hours - k)), _RATE) for k in range(0, hours, 4)]
    if hours > 12 * len(days):  # with the user's other time a day would pass 24 h
        raise SolveError(f"{total:.2f} USD is more time than {len(days)} days hold")
    for n, (task, h, rate) in enumerate(chunks):
        day = days[max(n - 1, 0) % len(days)]
        eid = next_id(state, "TE")
        state["time_entries"][eid] = TimeEntry(
            id=eid, spent_date=day, user_id=user_id, project_id=pid, client_id=client_id, task_id=task, hours=h,
            notes="Client working session", billable=True, billable_rate=rate, approval_status=status,
            created_at=dt.datetime.combine(day, dt.time(17, 30))).model_dump(mode="json")
    return pid


def _weekdays(monday: dt.date, weeks: int) -> list[dt.date]:
    return [monday - dt.timedelta(days=7 * w - d) for w in range(weeks) for d in range(5)]


def _plant_project(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_company: bool) -> str:
    state = ctx.state(SERVICE)
    company = key if by_company else outs.get("company") or ctx.fresh("company")
    cid = _client(ctx, company)
    if by_company and not stale:  # one active project per client: the case's
        for p in state["projects"].values():
            if p["client_id"] == cid:
                p["is_active"] = False
    manager = outs.get("email") or manager_email(ctx)
    uid = plant_user(ctx, manager)
    pid = next_project_id(state) if by_company else key
    return plant_project(ctx, pid, client_id=cid, user_id=uid, manager=manager,
                         total=outs.get("money") or round(ctx.rng.randint(90000, 900000) / 100, 2),
                         days=_weekdays(week_of(ctx.today) - dt.timedelta(days=14), 8), status="approved",
                         active=not stale)


def _company_project(reader: Reader, key: Any) -> dict[str, Any]:
    client = pick(reader.read(SERVICE, "list_clients", name=key), name=key)
    active = pick(reader.read(SERVICE, "list_projects", client_id=client["id"], is_active=True), is_active=True)
    return reader.read(SERVICE, "get_project", project_id=active["id"])


def _plant_week(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    """A week of the user's time on a new project, submitted (stale: already approved); the user's
    other submitted weeks were approved first, so this is the one awaiting approval."""
    state = ctx.state(SERVICE)
    uid = plant_user(ctx, key, None if stale else outs.get("email"))
    user = state["users"][uid]
    if not stale:
        for t in state["timesheets"].values():
            if t["user_id"] == uid and t["status"] == "submitted":
                t.update(status="approved", decided_at=ctx.at(-1, 16), decided_by=t["approver_email"])
                for e in state["time_entries"].values():
                    if e["user_id"] == uid and e["approval_status"] == "submitted":
                        e["approval_status"] = "approved"
    busy = {week_of(dt.date.fromisoformat(e["spent_date"])) for e in state["time_entries"].values()
            if e["user_id"] == uid} | {dt.date.fromisoformat(t["week_of"]) for t in state["timesheets"].values()
                                       if t["user_id"] == uid}
    monday = next(m for m in (week_of(ctx.today) - dt.timedelta(days=7 * w) for w in range(1, 30)) if m not in busy)
    account = ctx.rng.choice(ACCOUNTS[:8])
    approver = user["approver_email"] or manager_email(ctx)
    plant_project(ctx, next_project_id(state), client_id=_client(ctx, account.company), user_id=uid, manager=approver,
                  total=outs.get("money") or round(ctx.rng.randint(80000, 600000) / 100, 2),
                  days=_weekdays(monday, 1), status="approved" if stale else "submitted")
    tid = next_id(state, "TS")
    sent = dt.datetime.combine(monday + dt.timedelta(days=4), dt.time(17, 45))
    state["timesheets"][tid] = Timesheet(
        id=tid, user_id=uid, week_of=monday, status="approved" if stale else "submitted", approver_email=approver,
        submitted_at=sent, decided_at=sent + dt.timedelta(days=3) if stale else None,
        decided_by=approver if stale else None).model_dump(mode="json")
    return tid


def _user_week(reader: Reader, key: Any) -> dict[str, Any]:
    user = pick(reader.read(SERVICE, "list_users", email=key), email=key)
    sheet = pick(reader.read(SERVICE, "list_timesheets", user_id=user["id"], status="submitted"), status="submitted")
    return reader.read(SERVICE, "get_timesheet", timesheet_id=sheet["id"])


def _amount_draw(ctx: Ctx) -> float:
    return round(ctx.rng.randint(90000, 900000) / 100, 2)


_CLIENT = Give("company", "client_name", "the project's client company", party="customer")
_MANAGER = Give("email", "manager_email", "the project manager's email address", "the project manager",
                draw=manager_email)
_UNINVOICED = Give("money", "uninvoiced_amount", "the project's approved billable amount not yet invoiced",
                   "the uninvoiced amount", draw=_amount_draw)

PROJECT = Relay(
    service=SERVICE, name="client project", key="harvest_project_id", gives=(_CLIENT, _MANAGER, _UNINVOICED),
    plant=lambda ctx, key, outs, stale: _plant_project(ctx, key, outs, stale, False),
    find=lambda reader, key: reader.read(SERVICE, "get_project", project_id=key),
    where="Each project in the time tracker names the client company, the project manager and the approved "
          "billable time not yet invoiced.",
    alloc=lambda ctx: next_project_id(ctx.state(SERVICE)), entry=lambda key: f"time-tracking project {key}")

CLIENT_PROJECT = Relay(
    service=SERVICE, name="client's active project", key="company", key_party="customer",
    gives=(Give("harvest_project_id", "id", "the client's active project"), _MANAGER, _UNINVOICED),
    plant=lambda ctx, key, outs, stale: _plant_project(ctx, key, outs, stale, True), find=_company_project,
    where="The time tracker files projects under the client company's name.",
    truth="An archived project is closed; only the client's active project counts.")

USER_WEEK = Relay(
    service=SERVICE, name="week awaiting approval", key="email",
    gives=(Give("timesheet_id", "id", "the week's timesheet awaiting approval"),
           Give("email", "approver_email", "the approving manager's email address", "the manager",
                draw=manager_email),
           Give("money", "billable_amount", "the week's billable amount", "the week's billable amount",
                draw=_amount_draw)),
    plant=_plant_week, find=_user_week, key_role="staff",
    where="The time tracker lists each staff member's submitted weeks under their work email, with the approving "
          "manager and the week's billable amount.",
    truth="An approved week is closed; only the week awaiting approval counts.")


def _invoice(reader: Reader, args: dict[str, Found]) -> Write:
    pid, mention, case = args["project"].value, args["mention"], args["case"].value
    proj = reader.read(SERVICE, "get_project", project_id=pid)
    due = proj["uninvoiced_amount"]
    if not due:
        raise SolveError(f"project {pid} has no uninvoiced approved time")
    ready = [e["id"] for e in reader.read(SERVICE, "list_time_entries", project_id=pid, approval_status="approved",
                                          is_billed=False, limit=500) if e["billable"]]
    subject = f"{case}: {proj['name']} ({mention.display})"
    where = {"client_id": proj["client_id"], "amount": {"$gte": round(due - 0.01, 2), "$lte": round(due + 0.01, 2)},
             "subject": {"$contains": mention.display}, "line_items": {"$each": {"project_id": pid}}}
    return Write(
        calls=[call("create_invoice", client_id=proj["client_id"], subject=subject, project_ids=[pid])],
        checks=[RecordExists(id="_", service=SERVICE, collection="invoices", where=where,
                             description="The project's uninvoiced approved time is invoiced to its client, the "
                                         "subject quoting the value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="invoices", allow_new={"client_id": proj["client_id"]},
                           max_new=1, description="No other invoice was created or changed."),
               OnlyChanged(id="_", service=SERVICE, collection="time_entries", allow_ids=ready,
                           description="Only the project's invoiced time entries changed.")],
        tool="create_invoice", where={"client_id": proj["client_id"]}, label="the invoice for the project's time")


def _approve(reader: Reader, args: dict[str, Found]) -> Write:
    tid = args["timesheet"].value
    ts = reader.read(SERVICE, "get_timesheet", timesheet_id=tid)
    if ts["status"] != "submitted":
        raise SolveError(f"timesheet {tid} is {ts['status']}")
    return Write(
        calls=[call("approve_timesheet", timesheet_id=tid, approver_email=ts["approver_email"])],
        checks=[RecordMatches(id="_", service=SERVICE, collection="timesheets", record_id=tid,
                              where={"status": "approved", "decided_by": {"$ieq": ts["approver_email"]}},
                              description="The week is approved as its approving manager.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="timesheets", allow_ids=[tid],
                           description="No other timesheet was approved, rejected or changed."),
               OnlyChanged(id="_", service=SERVICE, collection="time_entries", allow_ids=[e["id"] for e in ts["entries"]],
                           description="Only the week's time entries changed.")],
        tool="approve_timesheet", where={"timesheet_id": tid}, label="the approved timesheet")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    pid, mention, case = args["project"].value, args["mention"], args["case"].value
    old = reader.read(SERVICE, "get_project", project_id=pid)["notes"]
    text = f"{case}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("update_project", project_id=pid, notes=f"{old} {text}".strip())],
        checks=[RecordMatches(id="_", service=SERVICE, collection="projects", record_id=pid,
                              where={"notes": {"$all": [*([{"$contains": old}] if old else []),
                                                        {"$contains": case}, {"$contains": mention.display}]}},
                              description="The project's notes keep what they said and quote the case and the "
                                          "right value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="projects", allow_ids=[pid],
                           description="No other project was changed or created.")],
        tool="update_project", where={"project_id": pid}, label="the note on the project")


LINKS = ServiceLinks(
    service=SERVICE, label="the time tracker",
    relays=(PROJECT, CLIENT_PROJECT, USER_WEEK),
    actions=(
        Action(service=SERVICE, name="invoice", needs=(Need("project", "harvest_project_id"),), build=_invoice,
               goal="invoice the client for the project's approved, uninvoiced billable time, quoting {mention} in "
                    "the invoice subject"),
        Action(service=SERVICE, name="approve week", needs=(Need("timesheet", "timesheet_id"),), build=_approve,
               goal="approve the submitted week as its approving manager"),
        Action(service=SERVICE, name="note", needs=(Need("project", "harvest_project_id"),), build=_note,
               goal="add a note to the project quoting {mention}"),
    ),
)

__all__ = ["LINKS", "next_project_id", "plant_project", "plant_user"]
