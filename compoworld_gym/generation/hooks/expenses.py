"""Task hook of expenses: a report's owner and total as facts; new reports
for an employee and new expense items of an amount as sinks."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook, record_sink


def _employee(ctx: Ctx, email: str, name: str) -> None:
    emps = ctx.state("expenses")["employees"]
    eid = f"EMP-{len(emps) + 1:04d}"
    emps[eid] = {"id": eid, "name": name, "email": email, "department": "Sales", "title": "Account Executive",
                 "manager_email": "elena.petrova@company.example"}


def _report(ctx: Ctx, title: str, opts: dict[str, Any], email: str, amount: float) -> tuple[str, dict[str, Any]]:
    name = f"{ctx.first_name()} {ctx.last_name()}"
    _employee(ctx, email, name)
    rid = ctx.new_id("expenses", "EXP")
    return rid, {"id": rid, "employee_email": email, "employee_name": name, "title": title,
                 "items": [{"expense_date": ctx.day(-opts.get("when", 2) - 3), "category": "meals",
                            "merchant": "Blue Bottle", "amount": amount, "description": title, "receipt_url": None}],
                 "total": amount, "status": "rejected" if opts.get("closed") else "submitted",
                 "created_on": ctx.day(-opts.get("when", 2) - 2), "submitted_on": ctx.day(-opts.get("when", 2)),
                 "approver_email": None, "decided_on": None,
                 "rejection_reason": "Duplicate." if opts.get("closed") else None,
                 "reimbursed_on": None, "payment_reference": None}


def _plant_email(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return _report(ctx, cue, opts, value, round(ctx.rng.randint(2000, 40000) / 100, 2))


def _plant_money(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return _report(ctx, cue, opts, ctx.person()[1], value)


def _sink_item(ctx: Ctx, fact: Fact) -> SinkStep:
    title = ctx.unique(f"Costs for {ctx.case()}")
    rid, record = _report(ctx, title, {"when": 1}, ctx.person()[1], 12.5)
    record.update(status="draft", submitted_on=None)
    ctx.state("expenses")["reports"][rid] = record
    return record_sink(
        ctx, fact, service="expenses", tool="add_expense_item", value_arg="amount", collection="reports",
        field_path="items", nest="amount", record_id=rid, where={"report_id": rid},
        calls=[call("list_expense_reports", limit=200),
               call("add_expense_item", report_id=rid, expense_date=ctx.day(-1), category="other",
                    merchant="Courier", amount=fact.value, description="Courier costs")],
        phrase=f"add an expense item of {{ref}} (category other, merchant Courier, dated {ctx.day(-1)}) "
               f"to the draft expense report '{title}'",
        label=f"the new item on report '{title}'")


def _sink_report(ctx: Ctx, fact: Fact) -> SinkStep:
    title = ctx.unique(f"Travel for {ctx.case()}")
    for email in [fact.value, *fact.wrong]:  # expense reports need a known employee
        if isinstance(email, str):
            _employee(ctx, email, f"{ctx.first_name()} {ctx.last_name()}")
    return record_sink(
        ctx, fact, service="expenses", tool="create_expense_report", value_arg="employee_email",
        collection="reports", field_path="employee_email", key={"title": {"$ieq": title}},
        where={"title": {"$ieq": title}},
        calls=[call("create_expense_report", employee_email=fact.value, title=title)],
        phrase=f"open an expense report titled '{title}' for {{ref}}", label=f"the '{title}' report")


def _source(etype: str, plant, noun: str, variants: set[str]) -> RecordSource:
    return RecordSource(
        type=etype, tool="list_expense_reports", collection="reports", noun=noun,
        locate="of the expense report titled '{cue}'", plant=plant, read_args=lambda cue: {"limit": 200},
        cue=lambda ctx: f"Client visit {ctx.code()}", variants=frozenset(variants), plural="reports",
        decoy_rule="A rejected report does not count; use the live report '{cue}'.")


HOOK = ServiceHook(
    service="expenses",
    label="the expenses tool",
    sources={"email": _source("email", _plant_email, "the submitter's email address", {"decoy"}),
             "money": _source("money", _plant_money, "the report total", {"decoy", "sum"})},
    sinks={"money": ("add_expense_item", _sink_item), "email": ("create_expense_report", _sink_report)},
)
