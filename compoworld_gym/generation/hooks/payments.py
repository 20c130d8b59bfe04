"""Task hook of payments (Stripe-like): customers' emails and payment
amounts as facts; new customers, charges and refunds as sinks."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook, record_sink


def _customer(ctx: Ctx, name: str, email: str) -> tuple[str, dict[str, Any]]:
    cid = ctx.new_id("payments", "CUS")
    return cid, {"id": cid, "name": name, "email": email, "card_brand": "visa",
                 "card_last4": f"{ctx.rng.randint(0, 9999):04d}", "created_on": ctx.day(-40)}


def _plant_customer(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return _customer(ctx, cue, value)


def _intent(ctx: Ctx, amount: float, desc: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    cid, cust = _customer(ctx, ctx.client(), ctx.person()[1])
    ctx.state("payments")["customers"][cid] = cust
    pid = ctx.new_id("payments", "PI")
    done = not opts.get("closed")
    return pid, {"id": pid, "customer_id": cid, "amount": amount, "currency": "usd",
                 "capture_method": "automatic", "status": "succeeded" if done else "canceled",
                 "amount_captured": amount if done else 0.0, "amount_refunded": 0.0, "description": desc,
                 "order_id": None, "invoice_id": None, "created_on": ctx.day(-opts.get("when", 2))}


def _plant_intent(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return _intent(ctx, value, f"Deposit for {cue}", opts)


def _sink_customer(ctx: Ctx, fact: Fact) -> SinkStep:
    name = ctx.client()
    return record_sink(
        ctx, fact, service="payments", tool="create_customer", value_arg="email", collection="customers",
        field_path="email", key={"name": {"$ieq": name}}, where={"name": {"$ieq": name}},
        calls=[call("create_customer", name=name, email=fact.value)],
        phrase=f"create a payments customer named {name} with {{ref}} as the email",
        label=f"the payments customer {name}")


def _sink_refund(ctx: Ctx, fact: Fact) -> SinkStep:
    top = max([fact.value, *[w for w in fact.wrong if isinstance(w, float)]])
    desc = ctx.unique(f"Charge for {ctx.case()}")
    pid, intent = _intent(ctx, round(top * 2 + 40, 2), desc, {"when": 5})
    ctx.state("payments")["payment_intents"][pid] = intent
    sink = record_sink(
        ctx, fact, service="payments", tool="create_refund", value_arg="amount", collection="payment_intents",
        field_path="amount_refunded", record_id=pid, where={"payment_intent": pid},
        calls=[call("list_payment_intents", limit=100), call("create_refund", payment_intent=pid, amount=fact.value)],
        phrase=f"refund {{ref}} of the payment described as '{desc}'",
        label=f"the refund on {pid}")
    # A refund updates its payment intent and files one refund record.
    sink.scope = {"payment_intents": {"allow_ids": [pid]},
                  "refunds": {"allow_new": {"payment_intent_id": pid, "amount": ctx.matcher("money", fact.value)}}}
    return sink


HOOK = ServiceHook(
    service="payments",
    label="payments",
    sources={
        "email": RecordSource(
            type="email", tool="list_customers", collection="customers", noun="the billing email address",
            locate="of the payments customer {cue}", plant=_plant_customer, read_args=lambda cue: {"limit": 100},
            cue=lambda ctx: f"{ctx.first_name()} {ctx.last_name()}-{ctx.rng.choice('PQRSTUVW')}",
            plural="customers"),
        "money": RecordSource(
            type="money", tool="list_payment_intents", collection="payment_intents", noun="the amount paid",
            locate="for the payment described as 'Deposit for {cue}'", plant=_plant_intent,
            read_args=lambda cue: {"limit": 100}, cue=lambda ctx: f"booking {ctx.code()}",
            variants=frozenset({"decoy", "latest", "sum"}), plural="payments",
            decoy_rule="A canceled payment never collected anything; only the succeeded one for {cue} counts."),
    },
    sinks={"email": ("create_customer", _sink_customer), "money": ("create_refund", _sink_refund)},
)
