"""Orders: an online store's order book with payment, fulfilment, cancel and refund rules.

No order-management server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface is designed the way Shopify's Order API looks: orders with a
customer, line items (SKU, quantity, unit price), a shipping address and
method, a financial/fulfilment lifecycle ``pending -> paid -> fulfilled ->
delivered``, cancellation before fulfilment and (partial) refunds capped at
the amount paid. Line amounts are rounded to cents; totals are exact sums
of the rounded line amounts plus the shipping fee.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Address, City, Country, Date, Email, Id, Money, PersonName, Sku, TrackingNumber
from compoworld_gym.envs.services._commerce import (
    CURRENCY, MONEY_MAX, PRODUCTS_BY_SKU, SHIPPING_FEES, book_payment_id, book_tracking_number, money, order_book,
)
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

OrderStatus = Literal["pending", "paid", "fulfilled", "delivered", "cancelled", "refunded", "partially_refunded"]
ShippingMethod = Literal["standard", "express"]
Carrier = Literal["ups", "fedex", "usps", "dhl"]
_REFUNDABLE = ("paid", "fulfilled", "delivered", "partially_refunded")


class ItemInput(Record):
    """One requested order line."""

    sku: Sku = Field(description="Catalog SKU, e.g. KB-MECH-01.")
    quantity: int = Field(gt=0, le=1000, description="Units ordered.")


class OrderLine(Record):
    """One line of an order."""

    sku: Sku = Field(description="Catalog SKU.")
    name: str = Field(description="Product name at order time.")
    quantity: int = Field(gt=0, description="Units ordered.")
    unit_price: Money = Field(description="Unit price at order time (USD).")
    amount: Money = Field(description="quantity x unit_price, rounded to cents.")


class Order(Record):
    """A customer order."""

    id: Id("order") = Field(description="Order id, e.g. ORD-0001.")
    customer_name: PersonName = Field(description="Customer's full name.")
    customer_email: Email = Field(description="Customer's email.")
    items: list[OrderLine] = Field(description="Order lines.")
    subtotal: Money = Field(description="Sum of line amounts (USD).")
    shipping_method: ShippingMethod = Field(description="standard or express.")
    shipping_fee: Money = Field(description="Shipping fee (USD).")
    total: Money = Field(description="subtotal + shipping_fee (USD).")
    currency: str = Field(default=CURRENCY, description="ISO 4217 currency.")
    status: OrderStatus = Field(description="Lifecycle status.")
    shipping_address: Address = Field(description="Street address.")
    city: City = Field(description="City.")
    postal_code: str = Field(description="Postal code.")
    country: Country = Field(description="ISO 3166 alpha-2 country code.")
    placed_on: Date = Field(description="Date the order was placed.")
    payment_id: Optional[Id("payment")] = Field(default=None, description="Payment that paid the order.")
    carrier: Optional[Carrier] = Field(default=None, description="Carrier once fulfilled.")
    tracking_number: Optional[TrackingNumber] = Field(default=None, description="Tracking number once fulfilled.")
    refunded_amount: Money = Field(default=0.0, description="Total refunded so far (USD).")
    cancel_reason: Optional[str] = Field(default=None, description="Why the order was cancelled.")
    notes: list[str] = Field(default_factory=list, description="Internal notes, oldest first.")


class OrdersState(ServiceState):
    """All orders of the store."""

    orders: dict[str, Order] = Field(default_factory=dict, description="Orders by id.")


def _lines(items: list[ItemInput]) -> list[OrderLine]:
    lines = []
    for it in items:
        product = PRODUCTS_BY_SKU.get(it.sku.upper())
        if product is None:
            raise NotFound(f"SKU {it.sku!r} is not sold by the store; check the product catalog for valid SKUs.")
        lines.append(OrderLine(sku=product.sku, name=product.name, quantity=it.quantity,
                               unit_price=product.price, amount=money(product.price * it.quantity)))
    return lines


class Orders(Service):
    """Store orders: create, pay, fulfil, deliver, cancel and refund."""

    name = "orders"
    description = "Online store orders: customers, line items, totals, shipping address, payment, fulfilment, refunds."
    domain = "commerce"
    spec_source = None
    State = OrdersState

    def _order(self, order_id: str) -> Order:
        return self.lookup(self.state.orders, order_id, "order")

    @staticmethod
    def _require(o: Order, allowed: tuple[str, ...], action: str) -> None:
        if o.status not in allowed:
            raise Conflict(f"order {o.id} is {o.status}; {action} needs status {' or '.join(allowed)}.")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Order])
    def list_orders(self, status: Optional[OrderStatus] = None, customer_email: Optional[Email] = None,
                    sku: Optional[Sku] = None, placed_after: Optional[Date] = None,
                    limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List orders (newest first) by status, customer, SKU or placement date.

        Args:
            status: only orders with this status.
            customer_email: only this customer's orders (case-insensitive).
            sku: only orders containing this SKU.
            placed_after: only orders placed on or after this date (YYYY-MM-DD).
            limit: maximum number of orders (1-200).
        """
        email = customer_email.lower() if customer_email else None
        key = sku.upper() if sku else None
        out = []
        for o in reversed(self.state.orders.values()):
            if (status and o.status != status) or (email and o.customer_email.lower() != email):
                continue
            if (key and all(ln.sku != key for ln in o.items)) or (placed_after and o.placed_on < placed_after):
                continue
            out.append(o.model_dump(exclude={"notes"}))
        return out[:limit]

    @tool(read_only=True, returns=Order)
    def get_order(self, order_id: Id("order")) -> dict:
        """Get one order with its lines, totals, payment, tracking and notes.

        Args:
            order_id: the order id, e.g. ORD-0001.
        """
        return self._order(order_id).model_dump()

    @tool(read_only=True)
    def quote_order(self, items: list[ItemInput] = Field(min_length=1),
                    shipping_method: ShippingMethod = "standard") -> dict:
        """Price a basket without creating an order: lines, subtotal, shipping fee and total.

        Args:
            items: the lines to price, each {sku, quantity}.
            shipping_method: standard or express.
        """
        lines = _lines(items)
        subtotal = money(sum(ln.amount for ln in lines))
        fee = SHIPPING_FEES[shipping_method]
        return {"items": [ln.model_dump() for ln in lines], "subtotal": subtotal, "shipping_fee": fee,
                "total": money(subtotal + fee), "currency": CURRENCY}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Order)
    def create_order(self, customer_name: PersonName = Field(min_length=1),
                     customer_email: Email = Field(min_length=3),
                     items: list[ItemInput] = Field(min_length=1, max_length=50),
                     shipping_address: Address = Field(min_length=3), city: City = Field(min_length=1),
                     postal_code: str = Field(min_length=2, max_length=12),
                     country: Country = Field(default="US", pattern=r"^[A-Z]{2}$"),
                     shipping_method: ShippingMethod = "standard") -> dict:
        """Place a new order in status 'pending' (awaiting payment), priced from the catalog.

        Args:
            customer_name: customer's full name.
            customer_email: customer's email.
            items: order lines, each {sku, quantity}; a SKU may appear once.
            shipping_address: street address.
            city: city.
            postal_code: postal code.
            country: ISO alpha-2 country code, e.g. US.
            shipping_method: standard or express.
        """
        skus = [it.sku.upper() for it in items]
        if len(set(skus)) != len(skus):
            raise InvalidArgument("each SKU may appear only once in items; merge the quantities.")
        lines = _lines(items)
        subtotal = money(sum(ln.amount for ln in lines))
        fee = SHIPPING_FEES[shipping_method]
        o = Order(id=self.new_id("ORD"), customer_name=customer_name, customer_email=customer_email, items=lines,
                  subtotal=subtotal, shipping_method=shipping_method, shipping_fee=fee, total=money(subtotal + fee),
                  status="pending", shipping_address=shipping_address, city=city, postal_code=postal_code,
                  country=country, placed_on=self.today)
        self.state.orders[o.id] = o
        return o.model_dump()

    @tool(read_only=False, returns=Order)
    def update_shipping_address(self, order_id: Id("order"), shipping_address: Address = Field(min_length=3),
                                city: City = Field(min_length=1),
                                postal_code: str = Field(min_length=2, max_length=12),
                                country: Country = Field(default="US", pattern=r"^[A-Z]{2}$")) -> dict:
        """Change where an order ships; only before fulfilment (status pending or paid).

        Args:
            order_id: the order to change.
            shipping_address: new street address.
            city: new city.
            postal_code: new postal code.
            country: new ISO alpha-2 country code.
        """
        o = self._order(order_id)
        self._require(o, ("pending", "paid"), "changing the address")
        o.shipping_address, o.city, o.postal_code, o.country = shipping_address, city, postal_code, country
        return o.model_dump(exclude={"notes"})

    @tool(read_only=False)
    def add_order_note(self, order_id: Id("order"), note: str = Field(min_length=1, max_length=2000)) -> dict:
        """Append an internal note to an order.

        Args:
            order_id: the order.
            note: the note text.
        """
        o = self._order(order_id)
        o.notes.append(note)
        return {"order_id": o.id, "notes": list(o.notes)}

    @tool(read_only=False, returns=Order)
    def mark_order_paid(self, order_id: Id("order"), payment_id: Id("payment") = Field(min_length=1)) -> dict:
        """Record the payment of a pending order (status becomes 'paid').

        Args:
            order_id: the pending order.
            payment_id: the payment that captured the order total, e.g. PI-0013.
        """
        o = self._order(order_id)
        self._require(o, ("pending",), "marking paid")
        o.status, o.payment_id = "paid", payment_id
        return o.model_dump(exclude={"notes"})

    @tool(read_only=False, returns=Order)
    def fulfill_order(self, order_id: Id("order"), carrier: Carrier,
                      tracking_number: TrackingNumber = Field(min_length=4)) -> dict:
        """Mark a paid order as shipped with its carrier and tracking number.

        Args:
            order_id: the paid order.
            carrier: ups, fedex, usps or dhl.
            tracking_number: the shipment's tracking number.
        """
        o = self._order(order_id)
        self._require(o, ("paid",), "fulfilment")
        o.status, o.carrier, o.tracking_number = "fulfilled", carrier, tracking_number
        return o.model_dump(exclude={"notes"})

    @tool(read_only=False, returns=Order)
    def mark_delivered(self, order_id: Id("order")) -> dict:
        """Mark a fulfilled order as delivered.

        Args:
            order_id: the fulfilled order.
        """
        o = self._order(order_id)
        self._require(o, ("fulfilled",), "marking delivered")
        o.status = "delivered"
        return o.model_dump(exclude={"notes"})

    @tool(read_only=False, destructive=True, returns=Order)
    def cancel_order(self, order_id: Id("order"), reason: str = Field(min_length=1, max_length=500)) -> dict:
        """Cancel an order before fulfilment; a paid order is refunded in full.

        Args:
            order_id: a pending or paid order.
            reason: why the order is cancelled.
        """
        o = self._order(order_id)
        self._require(o, ("pending", "paid"), "cancellation (shipped orders are refunded with refund_order)")
        refund_due = o.total if o.status == "paid" else 0.0
        o.status, o.cancel_reason, o.refunded_amount = "cancelled", reason, refund_due
        return {**o.model_dump(exclude={"notes"}), "refund_due": refund_due}

    @tool(read_only=False, returns=Order)
    def refund_order(self, order_id: Id("order"), amount: Optional[Money] = Field(None, ge=0.01, le=MONEY_MAX),
                     reason: str = Field(default="requested_by_customer", max_length=500)) -> dict:
        """Refund all or part of a paid, fulfilled or delivered order.

        Refunds are capped at total minus what was already refunded (422);
        a fully refunded order cannot be refunded again (409).

        Args:
            order_id: the order to refund.
            amount: USD to refund (rounded to cents); omit to refund the remaining balance.
            reason: why the refund is given.
        """
        o = self._order(order_id)
        if o.status == "refunded":
            raise Conflict(f"order {o.id} is already fully refunded ({o.refunded_amount:.2f}).")
        self._require(o, _REFUNDABLE, "a refund")
        remaining = money(o.total - o.refunded_amount)
        value = remaining if amount is None else money(amount)
        if value > remaining:
            raise Unprocessable(f"refund {value:.2f} exceeds the refundable balance {remaining:.2f} of {o.id}.")
        o.refunded_amount = money(o.refunded_amount + value)
        o.status = "refunded" if o.refunded_amount == o.total else "partially_refunded"
        o.notes.append(f"Refunded {value:.2f} {o.currency}: {reason}")
        return {**o.model_dump(exclude={"notes"}), "refunded_now": value}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> OrdersState:
        state = OrdersState()
        for b in order_book(today):
            c = b.customer
            lines = [OrderLine(sku=ln.sku, name=PRODUCTS_BY_SKU[ln.sku].name, quantity=ln.quantity,
                               unit_price=ln.unit_price, amount=ln.amount) for ln in b.lines]
            paid = b.status not in ("pending", "cancelled")
            shipped = b.status in ("fulfilled", "delivered", "refunded")
            o = Order(id=b.id, customer_name=c.name, customer_email=c.email, items=lines, subtotal=b.subtotal,
                      shipping_method=b.shipping_method, shipping_fee=b.shipping_fee, total=b.total,
                      status=b.status, shipping_address=c.address, city=c.city, postal_code=c.postal_code,
                      country=c.country, placed_on=b.placed_on,
                      payment_id=book_payment_id(b.id) if paid else None,
                      carrier="ups" if shipped else None,
                      tracking_number=book_tracking_number(b.id) if shipped else None,
                      refunded_amount=b.total if b.status == "refunded" else 0.0,
                      cancel_reason="Customer ordered the wrong item." if b.status == "cancelled" else None)
            if rng.random() < 0.3:
                o.notes.append(rng.choice(("Customer asked for gift wrapping.", "Leave parcel with the concierge.",
                                           "Repeat customer: include a thank-you card.")))
            state.orders[o.id] = o
        state.counters["ORD"] = len(state.orders) + 1
        return state
