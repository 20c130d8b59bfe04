"""Records of the returns service (Loop Returns API style).

Loop's return resource and fields, snake_cased: a return (``id``,
``order_id``, ``order_name``, ``state`` open / closed / cancelled /
expired, ``customer``, ``line_items`` with ``price``, ``refund`` and
``outcome``, ``exchanges``, ``label`` with ``tracking_number``, ``notes``)
and the shop's return policy (``return_window`` days after delivery).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id, Money, PersonName, Sku, TrackingNumber, Url
from compoworld_gym.service import Record, ServiceState

ReturnState = Literal["open", "closed", "cancelled", "expired"]
Outcome = Literal["refund", "exchange"]
Reason = Literal["too_small", "too_large", "defective", "not_as_described", "changed_mind", "arrived_late"]
LabelStatus = Literal["pre_transit", "in_transit", "delivered", "voided"]
Carrier = Literal["ups", "usps", "fedex"]


class ReturnLineItem(Record):
    """One order line being returned, with its outcome and refund."""

    line_item_id: str = Field(description="Line id within the return, e.g. RET-0003-1.")
    sku: Sku = Field(description="SKU of the item returned.")
    title: str = Field(description="Product name.")
    quantity: int = Field(ge=1, description="Units returned.")
    price: Money = Field(ge=0, description="Unit price the customer paid (USD).")
    reason: Reason = Field(description="Why the customer returns it.")
    outcome: Outcome = Field(description="refund, or exchange for another variant.")
    refund: Money = Field(ge=0, description="Refund for this line (USD), at most price x quantity.")
    exchange_sku: Optional[Sku] = Field(default=None, description="The variant sent in exchange, for an exchange.")


class ReturnLabel(Record):
    """The prepaid return shipping label."""

    tracking_number: TrackingNumber = Field(description="Carrier tracking number of the return parcel.")
    carrier: Carrier = Field(description="Carrier.")
    status: LabelStatus = Field(description="pre_transit, in_transit, delivered (back at the warehouse) or voided.")
    label_url: Url = Field(description="Where the customer prints the label.")
    created_at: DateTime = Field(description="When the label was made.")


class ReturnNote(Record):
    """A note on a return (``POST /return/{id}/note``)."""

    id: str = Field(description="Note id, e.g. NOTE-0001.")
    body: str = Field(description="Note text.")
    author: Email = Field(description="Who wrote it.")
    created_at: DateTime = Field(description="When written.")


class ReturnRequest(Record):
    """A return of (part of) an order."""

    id: Id("return_request") = Field(description="Return id, e.g. RET-0003.")
    order_id: Id("order") = Field(description="The store order returned, e.g. ORD-0001.")
    customer_email: Email = Field(description="The customer's email address.")
    customer_name: PersonName = Field(description="The customer's name.")
    state: ReturnState = Field(description="open, closed, cancelled or expired.")
    delivered_on: Date = Field(description="When the order was delivered (the return window counts from it).")
    created_at: DateTime = Field(description="When the customer started the return.")
    expires_on: Date = Field(description="Last day the parcel may be shipped before the return expires.")
    line_items: list[ReturnLineItem] = Field(min_length=1, description="Lines returned.")
    refund_total: Money = Field(ge=0, description="Sum of the lines' refunds (USD).")
    label: Optional[ReturnLabel] = Field(default=None, description="The return label, once made.")
    notes: list[ReturnNote] = Field(default_factory=list, description="Notes, oldest first.")
    processed: bool = Field(default=False, description="Refunds issued and exchanges released.")
    processed_at: Optional[DateTime] = Field(default=None, description="When processed.")
    closed_at: Optional[DateTime] = Field(default=None, description="When closed (processed or not).")
    cancelled_at: Optional[DateTime] = Field(default=None, description="When cancelled.")


class Variant(Record):
    """An exchange variant and its stock available for exchanges."""

    id: Sku = Field(description="The SKU.")
    title: str = Field(description="Product name.")
    price: Money = Field(description="Unit price (USD).")
    available: int = Field(ge=0, description="Units available to send as exchanges.")


class ShopOrderLine(Record):
    """One line of a shop order as Loop syncs it."""

    sku: Sku = Field(description="SKU.")
    title: str = Field(description="Product name.")
    quantity: int = Field(ge=1, description="Units ordered.")
    price: Money = Field(ge=0, description="Unit price paid (USD).")


class ShopOrder(Record):
    """A store order synced from the shop (the same id and customer as the order system)."""

    id: Id("order") = Field(description="Order id, e.g. ORD-0001.")
    customer_email: Email = Field(description="The customer's email address.")
    customer_name: PersonName = Field(description="The customer's name.")
    delivered_on: Optional[Date] = Field(default=None, description="Delivery day; None while not delivered.")
    lines: list[ShopOrderLine] = Field(min_length=1, description="Order lines.")


class ReturnItemInput(Record):
    """One line a customer asks to return."""

    sku: Sku = Field(description="SKU of the order line, e.g. DK-STD-06.")
    quantity: int = Field(ge=1, le=100, description="Units to return.")
    reason: Reason = Field(description="Why it is returned.")
    exchange_sku: Optional[Sku] = Field(default=None, description="A variant to send instead of a refund.")


class ReturnPolicy(Record):
    """The shop's return policy."""

    return_window_days: int = Field(default=30, description="Days after delivery a return may be started.")
    label_valid_days: int = Field(default=14, description="Days after the return starts its parcel must ship.")
    carrier: Carrier = Field(default="ups", description="Carrier of prepaid labels.")


class ReturnsState(ServiceState):
    """Shop orders, returns, exchange stock and the policy."""

    orders: dict[str, ShopOrder] = Field(default_factory=dict, description="Shop orders by id.")
    returns: dict[str, ReturnRequest] = Field(default_factory=dict, description="Returns by id.")
    variants: dict[str, Variant] = Field(default_factory=dict, description="Exchange stock by SKU.")
    policy: ReturnPolicy = Field(default_factory=ReturnPolicy, description="The return policy.")
