"""Task hook of invoicing: customers, due dates and amounts on invoices as
facts; new invoices as sinks for an email address or a due date."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook


def _invoice(ctx: Ctx, cue: str, opts: dict[str, Any], **fields: Any) -> tuple[str, dict[str, Any]]:
    name, email = ctx.person()
    amount = fields.pop("amount", None) or round(ctx.rng.randint(5000, 90000) / 100, 2)
    iid = ctx.new_id("invoicing", "INV")
    issued = ctx.day(-opts.get("when", 2) - 3)
    record = {
        "id": iid, "customer_name": name, "customer_email": email, "order_id": None,
        "lines": [{"description": f"Services for {cue}", "quantity": 1.0, "unit_price": amount, "sku": None,
                   "amount": amount}],
        "tax_rate": 0.0, "subtotal": amount, "tax": 0.0, "total": amount, "amount_paid": 0.0,
        "balance_due": amount, "currency": "USD", "status": "void" if opts.get("closed") else "sent",
        "issue_date": issued, "due_date": ctx.day(ctx.rng.randint(5, 30)), "memo": f"Ref {cue}",
        "sent_at": issued, "reminders_sent": 0, "void_reason": "Issued in error." if opts.get("closed") else None,
        "payments": [],
    }
    record.update(fields)
    return iid, record


def _source(etype: str, field: str, noun: str, variants: set[str]) -> RecordSource:
    def plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        extra = {} if field == "id" else {"amount": value} if field == "total" else {field: value}
        return _invoice(ctx, cue, opts, **extra)

    return RecordSource(
        type=etype, tool="list_invoices", collection="invoices", noun=noun,
        locate="on the invoice whose memo reads 'Ref {cue}'", plant=plant, read_args=lambda cue: {"limit": 200},
        cue=lambda ctx: f"job {ctx.code()}", variants=frozenset(variants),
        decoy_rule="A void invoice does not count; use the live invoice for {cue}.", plural="invoices")


def _sink_email(ctx: Ctx, fact: Fact) -> SinkStep:
    memo = ctx.unique(f"Ref renewal {ctx.case()}")
    name = ctx.fresh("person_name")
    due = ctx.day(30)

    def checks(value: Any) -> list[dict[str, Any]]:
        return [{"kind": "record_exists", "service": "invoicing", "collection": "invoices",
                 "where": {"memo": {"$ieq": memo}, "customer_email": ctx.matcher("email", value)},
                 "description": f"An invoice '{memo}' was created for the right email."}]

    return SinkStep(
        service="invoicing", tool="create_invoice", value_arg="customer_email",
        calls=[call("create_invoice", customer_name=name, customer_email=fact.value, due_date=due, memo=memo)],
        phrase=f"create a draft invoice for {name} at {{ref}}, due {due}, with the memo '{memo}'",
        label=f"the '{memo}' invoice", checks=checks, where={"memo": {"$ieq": memo}})


HOOK = ServiceHook(
    service="invoicing",
    label="invoicing",
    sources={
        "email": _source("email", "customer_email", "the customer's email address", {"decoy"}),
        "date": _source("date", "due_date", "the due date", {"decoy"}),
        "money": _source("money", "total", "the amount due", {"decoy", "sum"}),
        "invoice_id": _source("invoice_id", "id", "the invoice number", {"decoy"}),
    },
    sinks={"email": ("create_invoice", _sink_email)},
)
