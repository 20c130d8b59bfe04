"""Invoicing in chained tasks: an invoice, found by its number, by the
customer's email or by the order it bills, names the billed customer, the
order and the amount due; the case's invoice gets a memo or a payment
reminder. Also home of :func:`order_ref`, the order ids that records of
other commerce services refer to."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._commerce import PRODUCTS, order_book
from compoworld_gym.envs.services.invoicing import Invoice
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.orders import next_order_id
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick, next_id

_OPEN = ("sent", "overdue")


def order_ref(ctx: Ctx, service: str) -> str:
    """A fresh order id for a record of ``service`` that refers to an order.

    The order system's next id when it is mounted; otherwise the next id past
    the shared order book, counted in ``service``'s own counters (so it never
    names a seeded order).
    """
    if "orders" in ctx.states:
        return next_order_id(ctx.state("orders"))
    # Past the shared order book, by a random gap: the case's order id must vary between tasks.
    ctx.state(service)["counters"].setdefault("ORD", len(order_book(ctx.today)) + 1 + ctx.rng.randrange(25))
    return ctx.new_id(service, "ORD")


def next_invoice_id(state: dict[str, Any]) -> str:
    """Take the next free invoice id from the invoicing counters (as the service does)."""
    return next_id(state, "INV")


def plant_invoice(state: dict[str, Any], invoice_id: str, *, amount: float, **fields: Any) -> str:
    """Add a sent, unpaid :class:`Invoice` (validated) of one line worth
    ``amount`` under ``invoice_id``; returns the id. ``fields`` override any
    field (status, dates, customer, order)."""
    line = fields.pop("line", "Professional services")
    base = {"customer_name": "", "customer_email": "", "order_id": None,
            "lines": [{"description": line, "quantity": 1.0, "unit_price": amount, "sku": None, "amount": amount}],
            "tax_rate": 0.0, "subtotal": amount, "tax": 0.0, "total": amount, "amount_paid": 0.0,
            "balance_due": amount, "currency": "USD", "status": "sent", "memo": "", "reminders_sent": 0,
            "void_reason": None, "payments": []}
    invoice = Invoice.model_validate({**base, **fields, "id": invoice_id})
    state["invoices"][invoice_id] = invoice.model_dump(mode="json")
    return invoice_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state("invoicing")
    iid = key if by == "id" else next_invoice_id(state)
    email = key if by == "email" else outs.get("email") or ctx.person()[1]
    order = key if by == "order" else outs.get("order_id")
    amount = outs.get("money") or round(ctx.rng.randint(6000, 90000) / 100, 2)
    product = ctx.rng.choice(PRODUCTS).name
    issued = -40 if stale else -ctx.rng.randint(3, 9)
    return plant_invoice(
        state, iid, amount=amount, line=f"{product} (order {order})" if order else product,
        customer_name=outs.get("person_name") or ctx.client(), customer_email=email, order_id=order,
        issue_date=ctx.day(issued), sent_at=ctx.day(issued), due_date=ctx.day(issued + 30),
        memo="Net 30", status="void" if stale else "sent",
        void_reason="Issued in error; replaced by a corrected invoice." if stale else None)


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read("invoicing", "get_invoice", invoice_id=key)


def _open_one(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read("invoicing", "list_invoices", limit=200, **where)
    return pick([r for r in rows if r["status"] in _OPEN], **where)


_EMAIL = Give("email", "customer_email", "the billed customer's email address", "the customer")
_NAME = Give("person_name", "customer_name", "the billed customer's name", "the customer")
_DUE = Give("money", "balance_due", "the amount due on the invoice")
_ORDER = Give("order_id", "order_id", "the order the invoice bills")
_INVOICE = Give("invoice_id", "id", "the open invoice's number")
_TRUTH = "A void or paid invoice is settled history; only the open invoice counts."

INVOICE = Relay(
    service="invoicing", name="invoice", key="invoice_id", gives=(_EMAIL, _NAME, _DUE, _ORDER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_by_id,
    where="Each invoice in the invoicing system names the billed customer, the order it bills and the amount due.",
    alloc=lambda ctx: next_invoice_id(ctx.state("invoicing")), entry=lambda key: f"invoice {key}")

CUSTOMER_INVOICE = Relay(
    service="invoicing", name="customer's open invoice", key="email", gives=(_INVOICE, _DUE, _ORDER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "email"),
    find=lambda reader, key: _open_one(reader, customer_email=key),
    where="Invoices are filed under the billed customer's email address in the invoicing system.", truth=_TRUTH)

ORDER_INVOICE = Relay(
    service="invoicing", name="order's invoice", key="order_id", gives=(_EMAIL, _NAME, _DUE, _INVOICE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "order"),
    find=lambda reader, key: _open_one(reader, order_id=key),
    where="The invoicing system files each invoice under the order it bills, with the customer and the amount due.",
    alloc=lambda ctx: order_ref(ctx, "invoicing"), entry=lambda key: f"the invoice for order {key}", truth=_TRUTH)


def _scope(iid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="invoicing", collection="invoices", allow_ids=[iid],
                        description="No other invoice was changed or created.")]


def _memo(reader: Reader, args: dict[str, Found]) -> Write:
    iid, mention = args["invoice"].value, args["mention"]
    _by_id(reader, iid)
    return Write(
        calls=[call("update_invoice", invoice_id=iid,
                    memo=f"{args['case'].value}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service="invoicing", collection="invoices", record_id=iid,
                              where={"memo": {"$contains": mention.display}},
                              description="The invoice memo quotes the right value.")],
        scope=_scope(iid), tool="update_invoice", where={"invoice_id": iid}, label="the invoice memo")


def _remind(reader: Reader, args: dict[str, Found]) -> Write:
    iid = args["invoice"].value
    sent = _by_id(reader, iid)["reminders_sent"]
    return Write(
        calls=[call("send_reminder", invoice_id=iid)],
        checks=[RecordMatches(id="_", service="invoicing", collection="invoices", record_id=iid,
                              where={"reminders_sent": {"$gte": sent + 1}},
                              description="A payment reminder went out for the right invoice.")],
        scope=_scope(iid), tool="send_reminder", where={"invoice_id": iid}, label="the payment reminder")


LINKS = ServiceLinks(
    service="invoicing", label="the invoicing system",
    relays=(INVOICE, CUSTOMER_INVOICE, ORDER_INVOICE),
    actions=(
        Action(service="invoicing", name="memo", needs=(Need("invoice", "invoice_id"),), build=_memo,
               goal="put {mention} in the memo of the invoice"),
        Action(service="invoicing", name="remind", needs=(Need("invoice", "invoice_id"),), build=_remind,
               goal="send the customer a payment reminder for the open invoice"),
    ),
)

__all__ = ["LINKS", "next_invoice_id", "order_ref", "plant_invoice"]
