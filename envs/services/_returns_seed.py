"""Seed data of the returns service: returns of the shared order book's delivered and refunded orders.

The shop's orders are ``_commerce.order_book(today)``'s shipped ones (the same order ids,
customers, SKUs and prices as the orders, invoicing and shipping services):
ORD-0011 (refunded in the order system) has its processed, closed return;
ORD-0001 has a cancelled return and an open one whose parcel is on its way;
ORD-0002 has a return that expired unshipped and an open exchange waiting
for its parcel. Exchange stock covers the catalog, a few SKUs sold out.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._blocks import seed_id
from compoworld_gym.envs.services._commerce import PRODUCTS, PRODUCTS_BY_SKU, BookOrder, money, order_book
from compoworld_gym.envs.services._returns_models import (
    ReturnLabel, ReturnLineItem, ReturnNote, ReturnRequest, ReturnsState, ShopOrder, ShopOrderLine, Variant,
)
from compoworld_gym.envs.services._returns_rules import delivered_on, refund_total, tracking_number

#: Who writes the seeded notes (the support lead of the shared roster).
AGENT = "luis.ortega@company.example"
#: Seeded returns: (order id, state, days ago started, line picks (index, qty, reason, exchange sku), label status).
_RETURNS = (
    ("ORD-0011", "closed", 2, ((0, 2, "not_as_described", None), (1, 2, "defective", None),
                               (2, 3, "changed_mind", None)), "in_transit"),
    ("ORD-0001", "cancelled", 20, ((2, 1, "changed_mind", None),), None),
    ("ORD-0001", "open", 9, ((1, 1, "defective", None), (2, 2, "too_small", None)), "in_transit"),
    ("ORD-0002", "expired", 25, ((0, 1, "changed_mind", None),), "pre_transit"),
    ("ORD-0002", "open", 5, ((0, 1, "defective", "LP-LED-07"), (1, 1, "arrived_late", None)), "pre_transit"),
)
_SOLD_OUT = ("HS-NC-13", "MN-27K-04")


def label_for(return_id: str, n: int, status: str, created: dt.datetime, carrier: str = "ups") -> ReturnLabel:
    """The ``n``-th return label of ``return_id``."""
    tn = tracking_number(carrier, return_id, n)
    return ReturnLabel(tracking_number=tn, carrier=carrier, status=status, created_at=created,
                       label_url=f"https://returns.store.example/labels/{tn}.pdf")


def line_for(return_id: str, n: int, order: BookOrder, index: int, qty: int, reason: str,
             exchange: str | None) -> ReturnLineItem:
    """Return line ``n`` of ``return_id``: ``qty`` units of the order's line ``index``."""
    bl = order.lines[index]
    return ReturnLineItem(line_item_id=f"{return_id}-{n}", sku=bl.sku, title=PRODUCTS_BY_SKU[bl.sku].name,
                          quantity=qty, price=bl.unit_price, reason=reason,
                          outcome="exchange" if exchange else "refund",
                          refund=0.0 if exchange else money(bl.unit_price * qty), exchange_sku=exchange)


def build_returns(rng: random.Random, today: dt.date) -> ReturnsState:
    """Exchange stock and the seeded returns of the order book as of ``today``."""
    state = ReturnsState()
    for p in PRODUCTS:
        state.variants[p.sku] = Variant(id=p.sku, title=p.name, price=p.price,
                                        available=0 if p.sku in _SOLD_OUT else rng.randint(2, 14))
    book = {o.id: o for o in order_book(today)}
    for o in book.values():
        if o.status in ("fulfilled", "delivered", "refunded"):
            state.orders[o.id] = ShopOrder(
                id=o.id, customer_email=o.customer.email, customer_name=o.customer.name,
                delivered_on=None if o.status == "fulfilled" else delivered_on(o.placed_on, o.shipping_method),
                lines=[ShopOrderLine(sku=ln.sku, title=PRODUCTS_BY_SKU[ln.sku].name, quantity=ln.quantity,
                                     price=ln.unit_price) for ln in o.lines])
    window = state.policy.label_valid_days
    for oid, status, days, picks, label in _RETURNS:
        order = book[oid]
        rid = seed_id(state, "RET")
        created = dt.datetime.combine(today - dt.timedelta(days=days), dt.time(rng.randint(9, 17), rng.randint(0, 59)))
        lines = [line_for(rid, n, order, *pick) for n, pick in enumerate(picks, start=1)]
        r = ReturnRequest(id=rid, order_id=oid, customer_email=order.customer.email,
                          customer_name=order.customer.name, state=status,
                          delivered_on=delivered_on(order.placed_on, order.shipping_method), created_at=created,
                          expires_on=created.date() + dt.timedelta(days=window), line_items=lines,
                          refund_total=refund_total(lines))
        if label:
            r.label = label_for(rid, 1, label, created + dt.timedelta(minutes=3))
        if status == "closed":
            r.processed, r.processed_at = True, created + dt.timedelta(hours=20)
            r.closed_at = r.processed_at
            r.notes.append(ReturnNote(id=seed_id(state, "NOTE"), author=AGENT, created_at=r.processed_at,
                                      body="Refunded on first carrier scan (trusted customer); "
                                           "the order system refunded the shipping fee with it."))
        if status == "cancelled":
            r.cancelled_at = created + dt.timedelta(days=1)
            r.notes.append(ReturnNote(id=seed_id(state, "NOTE"), author=AGENT, created_at=r.cancelled_at,
                                      body="Customer decided to keep the lamp."))
        state.returns[rid] = r
    return state
