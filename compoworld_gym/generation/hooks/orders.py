"""Task hook of orders: a customer's order carries emails, amounts, places
and tracking numbers; fulfilment, refunds and address changes are sinks."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook, clone, record_sink


def _order(ctx: Ctx, name: str, opts: dict[str, Any], status: str, **fields: Any) -> tuple[str, dict[str, Any]]:
    oid = ctx.new_id("orders", "ORD")
    total = fields.pop("total", None) or round(ctx.rng.randint(4000, 90000) / 100, 2)
    fee = 5.99
    sub = round(total - fee, 2)
    record = clone(ctx, "orders", "orders", oid, customer_name=name, customer_email=ctx.person()[1],
                   items=[{"sku": "KB-MECH-01", "name": "Mechanical Keyboard", "quantity": 1, "unit_price": sub,
                           "amount": sub}],
                   subtotal=sub, shipping_method="standard", shipping_fee=fee, total=total,
                   status="cancelled" if opts.get("closed") else status, placed_on=ctx.day(-opts.get("when", 2)),
                   payment_id=None, carrier=None, tracking_number=None, refunded_amount=0.0, cancel_reason=None,
                   notes=[])
    if status in ("fulfilled", "delivered"):
        record.update(carrier="ups", tracking_number=f"1Z{ctx.rng.randint(10**9, 10**10 - 1)}00")
    record.update(fields)
    return oid, record


def _source(etype: str, field: str, noun: str, variants: set[str]) -> RecordSource:
    def plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return _order(ctx, cue, opts, "fulfilled", **({field: value} if field != "id" else {}))

    return RecordSource(
        type=etype, tool="list_orders", collection="orders", noun=noun,
        locate="on the order placed by {cue}", plant=plant, read_args=lambda cue: {"limit": 200},
        cue=lambda ctx: f"{ctx.first_name()} {ctx.last_name()}-{ctx.rng.choice('ABCDEFGHJK')}",
        variants=frozenset(variants), plural="orders",
        decoy_rule="Cancelled orders do not count; use {cue}'s live order.")


def _sink_tracking(ctx: Ctx, fact: Fact) -> SinkStep:
    oid, record = _order(ctx, ctx.client(), {"when": 1}, "paid")
    ctx.state("orders")["orders"][oid] = record
    return record_sink(
        ctx, fact, service="orders", tool="fulfill_order", value_arg="tracking_number", collection="orders",
        field_path="tracking_number", record_id=oid, where={"order_id": oid},
        calls=[call("get_order", order_id=oid), call("fulfill_order", order_id=oid, carrier="ups",
                                                     tracking_number=fact.value)],
        phrase=f"mark order {oid} as fulfilled by UPS with {{ref}} as its tracking number",
        label=f"the fulfilment of order {oid}")


def _sink_refund(ctx: Ctx, fact: Fact) -> SinkStep:
    top = max([fact.value, *[w for w in fact.wrong if isinstance(w, float)]])
    oid, record = _order(ctx, ctx.client(), {"when": 6}, "delivered", total=round(top * 2 + 50, 2))
    ctx.state("orders")["orders"][oid] = record
    return record_sink(
        ctx, fact, service="orders", tool="refund_order", value_arg="amount", collection="orders",
        field_path="refunded_amount", record_id=oid, where={"order_id": oid},
        calls=[call("get_order", order_id=oid), call("refund_order", order_id=oid, amount=fact.value,
                                                     reason=f"Goodwill for {ctx.case()}")],
        phrase=f"refund {{ref}} on order {oid}", label=f"the refund on order {oid}")


def _sink_address(field: str, what: str):
    def sink(ctx: Ctx, fact: Fact) -> SinkStep:
        oid, record = _order(ctx, ctx.client(), {"when": 1}, "paid")
        ctx.state("orders")["orders"][oid] = record
        args = {"shipping_address": record["shipping_address"], "city": record["city"],
                "postal_code": record["postal_code"], "country": record["country"], field: fact.value}
        return record_sink(
            ctx, fact, service="orders", tool="update_shipping_address", value_arg=field, collection="orders",
            field_path=field, record_id=oid, where={"order_id": oid},
            calls=[call("get_order", order_id=oid), call("update_shipping_address", order_id=oid, **args)],
            phrase=f"change the {what} of order {oid} to {{ref}}, keeping the rest of its address",
            label=f"the address change on order {oid}")
    return sink


HOOK = ServiceHook(
    service="orders",
    label="the order system",
    sources={
        "email": _source("email", "customer_email", "the customer's email address", {"latest", "decoy"}),
        "money": _source("money", "total", "the order total", {"decoy", "sum"}),
        "city": _source("city", "city", "the shipping city", {"latest"}),
        "tracking_number": _source("tracking_number", "tracking_number", "the tracking number", {"decoy"}),
        "order_id": _source("order_id", "id", "the order id", {"latest"}),
    },
    sinks={"tracking_number": ("fulfill_order", _sink_tracking), "money": ("refund_order", _sink_refund),
           "city": ("update_shipping_address", _sink_address("city", "shipping city")),
           "country": ("update_shipping_address", _sink_address("country", "destination country code"))},
)
