"""Payments in chained tasks: a card payment, found by its id or by the
payer's email, names the amount paid and the order it paid; the case's
payment is refunded in full."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services.payments import Customer, PaymentIntent
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick


def _next(state: dict[str, Any], prefix: str) -> str:
    n = state["counters"].get(prefix, 1)
    state["counters"][prefix] = n + 1
    return f"{prefix}-{n:04d}"


def next_payment_id(state: dict[str, Any]) -> str:
    """Take the next free payment intent id from the payments counters (as the service does)."""
    return _next(state, "PI")


def plant_customer(state: dict[str, Any], name: str, email: str, created_on: str) -> str:
    """Add a :class:`Customer` with a card on file, unless one has ``email``; returns its id."""
    for cust in state["customers"].values():
        if cust["email"].lower() == email.lower():
            return cust["id"]
    cid = _next(state, "CUS")
    last4 = f"{sum(map(ord, email)) % 10000:04d}"
    state["customers"][cid] = Customer(id=cid, name=name, email=email, card_brand="visa", card_last4=last4,
                                       created_on=created_on).model_dump(mode="json")
    return cid


def plant_payment(state: dict[str, Any], payment_id: str, *, customer_id: str, amount: float, **fields: Any) -> str:
    """Add a succeeded, automatically captured :class:`PaymentIntent` (validated)
    of ``amount`` under ``payment_id``; ``fields`` override (status, order, dates)."""
    base = {"currency": "usd", "capture_method": "automatic", "status": "succeeded", "amount_captured": amount,
            "amount_refunded": 0.0, "description": "Card payment", "order_id": None, "invoice_id": None}
    intent = PaymentIntent.model_validate({**base, **fields, "id": payment_id, "customer_id": customer_id,
                                           "amount": amount})
    state["payment_intents"][payment_id] = intent.model_dump(mode="json")
    return payment_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state("payments")
    name, email = (ctx.person() if by_id else (outs.get("person_name") or ctx.client(), key))
    cid = plant_customer(state, name, email, ctx.day(-120))
    pid = key if by_id else next_payment_id(state)
    amount = outs.get("money") or round(ctx.rng.randint(6000, 90000) / 100, 2)
    order = outs.get("order_id")
    return plant_payment(
        state, pid, customer_id=cid, amount=amount, order_id=order,
        description=f"Order {order}" if order else "Card payment", created_on=ctx.day(-30 if stale else -5),
        status="canceled" if stale else "succeeded", amount_captured=0.0 if stale else amount)


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read("payments", "retrieve_payment_intent", payment_intent=key)


def _by_payer(reader: Reader, key: Any) -> dict[str, Any]:
    cust = pick(reader.read("payments", "list_customers", email=key), email=key)
    rows = reader.read("payments", "list_payment_intents", customer=cust["id"], limit=100)
    return pick(rows, status="succeeded")


_AMOUNT = Give("money", "amount", "the amount paid")
_ORDER = Give("order_id", "order_id", "the order the payment paid")

PAYMENT = Relay(
    service="payments", name="card payment", key="payment_id", gives=(_AMOUNT, _ORDER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_by_id,
    where="Each card payment in the payments system records the amount paid and the order it paid.",
    alloc=lambda ctx: next_payment_id(ctx.state("payments")), entry=lambda key: f"card payment {key}")

PAYER_PAYMENT = Relay(
    service="payments", name="customer's card payment", key="email",
    gives=(Give("payment_id", "id", "the card payment's id"), _AMOUNT, _ORDER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_by_payer,
    where="The payments system files card payments under the paying customer, found by email address.",
    truth="A canceled payment collected nothing; only the customer's succeeded payment counts.")


def _refund(reader: Reader, args: dict[str, Found]) -> Write:
    pid = args["payment"].value
    intent = _by_id(reader, pid)
    left = round(intent["amount_captured"] - intent["amount_refunded"], 2)
    near = {"$gte": round(intent["amount_captured"] - 0.01, 2), "$lte": round(intent["amount_captured"] + 0.01, 2)}
    return Write(
        calls=[call("create_refund", payment_intent=pid, amount=left, reason="requested_by_customer")],
        checks=[RecordMatches(id="_", service="payments", collection="payment_intents", record_id=pid,
                              where={"amount_refunded": near},
                              description="The case's card payment is refunded in full.")],
        scope=[OnlyChanged(id="_", service="payments", collection="payment_intents", allow_ids=[pid],
                           description="No other payment was changed or created."),
               OnlyChanged(id="_", service="payments", collection="refunds", allow_new={"payment_intent_id": pid},
                           description="No other refund was issued.")],
        tool="create_refund", where={"payment_intent": pid}, label="the card refund", moves_money=True)


LINKS = ServiceLinks(
    service="payments", label="the payments system",
    relays=(PAYMENT, PAYER_PAYMENT),
    actions=(Action(service="payments", name="refund", needs=(Need("payment", "payment_id"),), build=_refund,
                    goal="refund the customer's card payment in full"),),
)

__all__ = ["LINKS", "next_payment_id", "plant_customer", "plant_payment"]
