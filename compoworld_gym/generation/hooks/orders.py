"""Orders in chained tasks: an order names its customer, total and parcel;
the case's order is refunded or annotated."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services.orders import Order
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick, next_id

_PRODUCTS = (("KB-MECH-01", "Mechanical Keyboard"), ("HP-NC-700", "Noise-cancelling Headphones"),
             ("MN-27-4K", "27-inch 4K Monitor"), ("CH-ERGO-2", "Ergonomic Office Chair"))


def next_order_id(state: dict[str, Any]) -> str:
    """Take the next free order id from the order book's counters."""
    return next_id(state, "ORD")


def plant_order(state: dict[str, Any], order_id: str, *, total: float, **fields: Any) -> str:
    """Add an :class:`Order` (validated) of one line plus shipping whose
    total is ``total``; returns the id. Shared by hooks and built-in tasks.

    Raises:
        pydantic.ValidationError: the fields do not make a valid order.
    """
    fee = 5.99
    sub = round(total - fee, 2)
    sku, name = fields.pop("product", _PRODUCTS[0])
    base = {"items": [{"sku": sku, "name": name, "quantity": 1, "unit_price": sub, "amount": sub}],
            "subtotal": sub, "shipping_method": "standard", "shipping_fee": fee, "total": total,
            "status": "delivered", "shipping_address": "12 Harbour Street", "city": "Portland",
            "postal_code": "97201", "country": "US", "placed_on": "2026-01-05", "carrier": "ups"}
    order = Order.model_validate({**base, **fields, "id": order_id})
    state["orders"][order_id] = order.model_dump(mode="json")
    return order_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state("orders")
    oid = key if by_id else next_order_id(state)
    email = outs.get("email", ctx.person()[1]) if by_id else key
    total = outs.get("money") or round(ctx.rng.randint(6000, 90000) / 100, 2)
    tracking = outs.get("tracking_number") or ctx.fresh("tracking_number")
    return plant_order(
        state, oid, total=total, product=ctx.rng.choice(_PRODUCTS), customer_name=outs.get("person_name", ctx.client()),
        customer_email=email, tracking_number=tracking, placed_on=ctx.day(-30 if stale else -ctx.rng.randint(4, 12)),
        status="cancelled" if stale else "delivered", cancel_reason="Customer cancelled" if stale else None)


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read("orders", "get_order", order_id=key)


def _by_customer(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read("orders", "list_orders", customer_email=key)
    return pick([r for r in rows if r["status"] != "cancelled"], customer_email=key)


_MONEY = Give("money", "total", "the order total")
_TRACKING = Give("tracking_number", "tracking_number", "the order's tracking number")

ORDER = Relay(
    service="orders", name="order", key="order_id",
    gives=(Give("email", "customer_email", "the customer's email address", "the customer"),
           Give("person_name", "customer_name", "the customer's name", "the customer"), _MONEY, _TRACKING),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_by_id,
    where="The order system holds each order's customer, total and tracking number.",
    alloc=lambda ctx: next_order_id(ctx.state("orders")), entry=lambda key: f"order {key}")

CUSTOMER_ORDER = Relay(
    service="orders", name="customer's order", key="email",
    gives=(Give("order_id", "id", "the customer's order"), _MONEY, _TRACKING),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_by_customer,
    where="Orders are filed under the customer's email address in the order system.",
    truth="A cancelled order does not count; use the customer's live order.")


def _scope(oid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="orders", collection="orders", allow_ids=[oid],
                        description="No other order was changed or created.")]


def _refund(reader: Reader, args: dict[str, Found]) -> Write:
    oid, amount = args["order"].value, args["amount"].value
    return Write(
        calls=[call("refund_order", order_id=oid, amount=amount, reason=f"Refund for {args['case'].value}")],
        checks=[RecordMatches(id="_", service="orders", collection="orders", record_id=oid,
                              where={"refunded_amount": {"$gte": round(amount - 0.01, 2),
                                                         "$lte": round(amount + 0.01, 2)}},
                              description="The case's order is refunded by the right amount.")],
        scope=_scope(oid), tool="refund_order", where={"order_id": oid}, label="the refund", moves_money=True)


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    oid, mention = args["order"].value, args["mention"]
    return Write(
        calls=[call("add_order_note", order_id=oid, note=f"{args['case'].value}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service="orders", collection="orders", record_id=oid,
                              where={"notes": {"$some": {"$contains": mention.display}}},
                              description="A note on the order quotes the right value.")],
        scope=_scope(oid), tool="add_order_note", where={"order_id": oid}, label="the note on the order")


LINKS = ServiceLinks(
    service="orders", label="the order system",
    relays=(ORDER, CUSTOMER_ORDER),
    actions=(
        Action(service="orders", name="refund", needs=(Need("order", "order_id"), Need("amount", "money")),
               build=_refund, goal="refund {amount} on the customer's order"),
        Action(service="orders", name="note", needs=(Need("order", "order_id"),),
               build=_note, goal="note {mention} on the order"),
    ),
)

__all__ = ["LINKS", "next_order_id", "plant_order"]
