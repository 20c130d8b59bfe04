"""Expenses in chained tasks: an expense report names the employee who filed
it and its total (an amount policies can route by); a staff member's live
report is found by their work email; the Finance approver a policy names
approves the case's report, or its payout is recorded."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import STAFF, TEAMS
from compoworld_gym.envs.services.expenses import Employee, ExpenseReport
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import employee_email, manager_email, name_from_email, person_of
from compoworld_gym.generation.links import (
    next_id,
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest,
)

#: Finance staff: the approvers a policy can choose between (any report total).
FINANCE = tuple(s.email for s in STAFF if s.team == "finance")
_TRIPS = ("Client visit", "Trade show", "Vendor audit", "Team offsite", "Customer workshop")
_CITIES = ("Boston", "Denver", "Seattle", "Atlanta", "Chicago", "Phoenix")


def report_total(ctx: Ctx) -> float:
    """A plausible expense report total (USD, two decimals)."""
    return round(ctx.rng.randint(8000, 320000) / 100, 2)


def next_report_id(state: dict[str, Any]) -> str:
    """Take the next free expense report id from the expenses tool's counters."""
    return next_id(state, "EXP")


def plant_expense_employee(state: dict[str, Any], email: str, **fields: Any) -> str:
    """Add an expenses :class:`Employee` (validated) for ``email`` unless one
    exists; returns their id."""
    for emp in state["employees"].values():
        if emp["email"].lower() == email.lower():
            return emp["id"]
    eid = f"EMP-{len(state['employees']) + 1:04d}"
    state["employees"][eid] = Employee.model_validate({**fields, "id": eid, "email": email}).model_dump(mode="json")
    return eid


def plant_report(state: dict[str, Any], report_id: str, **fields: Any) -> str:
    """Add an :class:`ExpenseReport` (validated) under ``report_id``; its total
    is the sum of its items. Returns the id.

    Raises:
        pydantic.ValidationError: the fields do not make a valid report.
    """
    base = {"submitted_on": None, "approver_email": None, "decided_on": None, "rejection_reason": None,
            "reimbursed_on": None, "payment_reference": None}
    record = ExpenseReport.model_validate({**base, **fields, "id": report_id})
    record.total = round(sum(i.amount for i in record.items), 2)
    state["reports"][report_id] = record.model_dump(mode="json")
    return report_id


def _items(ctx: Ctx, report_id: str, total: float, title: str, day: str) -> list[dict[str, Any]]:
    """Items within the policy's category limits, with receipts, summing to ``total``."""
    cents, parts = round(total * 100), []
    if cents >= 40000:
        parts.append(("lodging", "Marriott", ctx.rng.randint(15000, 24000)))
    if cents - sum(p[2] for p in parts) >= 12000:
        parts.append(("meals", "Pret A Manger", ctx.rng.randint(2000, 7000)))
    rest = cents - sum(p[2] for p in parts)
    legs = -(-rest // 145000)
    for k in range(legs):
        parts.append(("travel", ("Delta Air Lines", "Amtrak", "Uber")[k % 3], rest // legs + (k < rest % legs)))
    return [{"expense_date": day, "category": cat, "merchant": merchant, "amount": amount / 100,
             "description": f"{cat.title()} for {title.lower()}",
             "receipt_url": f"https://receipts.company.example/{report_id.lower()}/{n}.jpg"}
            for n, (cat, merchant, amount) in enumerate(parts, start=1)]


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state("expenses")
    rid = key if by_id else next_report_id(state)
    email = (outs.get("email") or employee_email(ctx)) if by_id else str(key)
    known = person_of(ctx, email=email)
    boss = known.get("manager_email") if known and known.get("manager_email") else manager_email(ctx)
    team = next((s.team for s in STAFF if s.email == boss), "support")
    plant_expense_employee(state, email, name=known["name"] if known else name_from_email(email),
                           department=TEAMS[team].name, title="Operations Specialist", manager_email=boss)
    name = next(e["name"] for e in state["employees"].values() if e["email"].lower() == email.lower())
    total = outs.get("money") or report_total(ctx)
    title = f"{ctx.rng.choice(_TRIPS)} {ctx.rng.choice(_CITIES)}"
    when = -6 if stale else -ctx.rng.randint(1, 3)
    return plant_report(state, rid, employee_email=email, employee_name=name, title=title,
                        items=_items(ctx, rid, total, title, ctx.day(when - 2)),
                        status="rejected" if stale else "submitted", created_on=ctx.day(when - 1),
                        submitted_on=ctx.day(when), approver_email=FINANCE[0] if stale else None,
                        decided_on=ctx.day(when + 2) if stale else None,
                        rejection_reason="Receipts do not match the amounts." if stale else None)


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read("expenses", "get_expense_report", report_id=key)


def _live(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read("expenses", "list_expense_reports", employee_email=key, limit=200)
    return _by_id(reader, latest([r for r in rows if r["status"] in ("submitted", "approved")], "submitted_on")["id"])


#: The ``who`` of the total of a report whose filer the chain knows (the
#: report found by id names them): only a reimbursement may take it, paid to
#: that employee (payroll reimburses expense totals, not order totals or pay).
EXPENSE_TOTAL = "the expense report total"

REPORT = Relay(
    service="expenses", name="expense report", key="expense_id",
    gives=(Give("email", "employee_email", "the employee's work email", "the employee", draw=employee_email),
           Give("money", "total", "the expense report total", EXPENSE_TOTAL, draw=report_total),
           Give("expense_id", "id", "the expense report")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_by_id,
    where="Each expense report in the expenses tool names the employee who filed it and its total.",
    alloc=lambda ctx: next_report_id(ctx.state("expenses")), entry=lambda key: f"expense report {key}")

REPORT_OF_EMPLOYEE = Relay(
    service="expenses", name="live expense report", key="email",
    gives=(Give("expense_id", "id", "the live expense report"),
           Give("money", "total", "the expense report total", draw=report_total)),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_live,
    where="Expense reports are filed under the employee's work email; the latest one not rejected is the live one.",
    truth="A rejected expense report is history; only the employee's live report counts.", key_role="staff")


def _scope(rid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="expenses", collection="reports", allow_ids=[rid],
                        description="No other expense report was changed or created.")]


def _approve(reader: Reader, args: dict[str, Found]) -> Write:
    rid, approver = args["report"].value, args["approver"].value
    _by_id(reader, rid)
    return Write(
        calls=[call("approve_expense_report", report_id=rid, approver_email=approver)],
        checks=[RecordMatches(id="_", service="expenses", collection="reports", record_id=rid,
                              where={"status": "approved", "approver_email": {"$ieq": approver}},
                              description="The case's expense report is approved by the right approver.")],
        scope=_scope(rid), tool="approve_expense_report", where={"report_id": rid}, label="the expense report approval")


def _prepare_payout(ctx: Ctx, values: dict[str, Any]) -> None:
    report = ctx.state("expenses")["reports"].get(values["report"])
    if report is not None and report["status"] == "submitted":  # Finance approved it yesterday
        who = next(f for f in FINANCE if f != report["employee_email"].lower())
        report.update(status="approved", approver_email=who, decided_on=ctx.day(-1))


def _payout(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["report"].value, args["mention"], args["case"].value
    _by_id(reader, rid)
    if len(mention.display) > 60:
        raise SolveError(f"{mention.noun} does not fit in a payment reference")
    ref = f"{case}: {mention.display}" if len(case) + len(mention.display) <= 58 else mention.display
    return Write(
        calls=[call("reimburse_expense_report", report_id=rid, payment_reference=ref)],
        checks=[RecordMatches(id="_", service="expenses", collection="reports", record_id=rid,
                              where={"status": "reimbursed", "payment_reference": {"$contains": mention.display}},
                              description="The case's expense report is paid out, its reference quoting the value.")],
        scope=_scope(rid), tool="reimburse_expense_report", where={"report_id": rid},
        label="the expense report payout", moves_money=True)


def _approvers(ctx: Ctx) -> tuple[str, str]:
    a, b = ctx.rng.sample(FINANCE, 2)
    return a, b


LINKS = ServiceLinks(
    service="expenses", label="the expenses tool",
    relays=(REPORT, REPORT_OF_EMPLOYEE),
    # Only a policy names the approver: a manager may not approve large reports.
    actions=(Action(service="expenses", name="approve",
                    needs=(Need("approver", "email", ("the finance approver",), "approver"),
                           Need("report", "expense_id")),
                    build=_approve, goal="have {approver} approve the expense report", routable=True),
             Action(service="expenses", name="payout", needs=(Need("report", "expense_id"),), build=_payout,
                    prepare=_prepare_payout,
                    goal="record the payout of the expense report, quoting {mention} in its payment "
                         "reference")),
    route_values={"email": _approvers},
)

__all__ = ["EXPENSE_TOTAL", "FINANCE", "LINKS", "next_report_id", "plant_expense_employee", "plant_report",
           "report_total"]
