"""Records and state of the subscriptions service (Chargebee API v2, Product Catalog 2.0).

Field names are Chargebee's (``item_price``, ``subscription_items``,
``current_term_start``, ``mrr``, ``credit_note``, ``unbilled_charge``,
``comment``). Money is in USD with two decimals, as in the other finance
services, where Chargebee sends integer cents; proration is still computed
in whole cents (see :mod:`._subscriptions_rules`).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, DateTime, Email, Id, Money
from compoworld_gym.service import Record, ServiceState

PeriodUnit = Literal["month", "year"]
SubscriptionStatus = Literal["future", "in_trial", "active", "non_renewing", "paused", "cancelled"]
#: Statuses of a subscription that still holds its plan (one per customer and plan).
LIVE: tuple[str, ...] = ("future", "in_trial", "active", "non_renewing", "paused")
CreditNoteType = Literal["adjustment", "refundable"]
CreditNoteStatus = Literal["adjusted", "refund_due", "refunded", "voided"]
CreditReason = Literal["subscription_change", "subscription_cancellation", "product_unsatisfactory",
                       "service_unsatisfactory", "order_change", "waiver", "other"]
#: The site's configured cancellation reason codes (Chargebee ``cancel_reason_code``).
CancelReason = Literal["too_expensive", "missing_features", "switched_to_competitor", "no_longer_needed",
                       "non_payment", "other"]


class ItemPrice(Record):
    """A price point of a plan item (Chargebee ``item_price``), flat fee per unit per period."""

    id: Id("billing_plan") = Field(description="Item price id, e.g. growth-USD-monthly.")
    item_id: str = Field(description="The plan item, e.g. growth.")
    name: str = Field(description="Internal name, e.g. 'Growth USD Monthly'.")
    external_name: str = Field(description="Name customers see, e.g. 'Growth'.")
    tier: int = Field(ge=1, description="Plan rank: 1 is the smallest plan; a downgrade goes to a lower tier.")
    pricing_model: Literal["flat_fee", "per_unit"] = Field(description="flat_fee or per_unit (per seat).")
    price: Money = Field(ge=0, description="List price per unit per period (USD).")
    period: int = Field(default=1, ge=1, description="Billing period length, in period_unit.")
    period_unit: PeriodUnit = Field(description="month or year.")
    currency_code: str = Field(default="USD", description="ISO 4217 currency.")
    trial_period: Optional[int] = Field(default=None, ge=1, description="Free trial length in days, if any.")
    status: Literal["active", "archived"] = Field(description="An archived price takes no new subscriptions.")


class Customer(Record):
    """A billed customer (Chargebee ``customer``): a company's billing contact."""

    id: Id("customer") = Field(description="Customer id, e.g. CUS-0001 (the shared account id).")
    first_name: str = Field(description="Billing contact's first name.")
    last_name: str = Field(description="Billing contact's last name.")
    email: Email = Field(description="Billing contact's email.")
    company: CompanyName = Field(description="The customer's company.")
    auto_collection: Literal["on", "off"] = Field(default="on", description="on: card charged automatically.")
    net_term_days: int = Field(default=0, ge=0, description="Days to pay an invoice when auto collection is off.")
    created_at: Date = Field(description="Date the customer was created.")


class SubscriptionItem(Record):
    """The plan line of a subscription (Chargebee ``subscription_items[]``)."""

    item_price_id: Id("billing_plan") = Field(description="The plan's item price.")
    item_type: Literal["plan"] = Field(default="plan", description="Always plan here.")
    quantity: int = Field(ge=1, description="Units (seats) billed.")
    unit_price: Money = Field(ge=0, description="Price per unit per period (USD); may override the list price.")
    amount: Money = Field(ge=0, description="quantity x unit_price (USD) per billing period.")


class Subscription(Record):
    """A customer's subscription to one plan (Chargebee ``subscription``)."""

    id: Id("billing_subscription") = Field(description="Subscription id, e.g. SUB-0001.")
    customer_id: Id("customer") = Field(description="The subscribed customer.")
    status: SubscriptionStatus = Field(description="future, in_trial, active, non_renewing, paused or cancelled.")
    subscription_items: list[SubscriptionItem] = Field(min_length=1, max_length=1, description="The plan line.")
    billing_period: int = Field(default=1, ge=1, description="Billing period length.")
    billing_period_unit: PeriodUnit = Field(description="month or year.")
    currency_code: str = Field(default="USD", description="ISO 4217 currency.")
    start_date: Date = Field(description="Date the subscription starts (or started).")
    trial_end: Optional[Date] = Field(default=None, description="Last day of the free trial.")
    current_term_start: Optional[Date] = Field(default=None, description="First day of the billed term.")
    current_term_end: Optional[Date] = Field(default=None, description="Day the billed term ends (next renewal).")
    next_billing_at: Optional[Date] = Field(default=None, description="Next charge date; none once it will not renew.")
    mrr: Money = Field(default=0.0, ge=0, description="Monthly recurring revenue (USD): 0 unless active or "
                                                    "non_renewing.")
    cancelled_at: Optional[Date] = Field(default=None, description="Date it was (or is scheduled to be) cancelled.")
    cancel_reason_code: Optional[CancelReason] = Field(default=None, description="Why it was cancelled.")
    pause_date: Optional[Date] = Field(default=None, description="Date it was (or is scheduled to be) paused.")
    resume_date: Optional[Date] = Field(default=None, description="Date a paused subscription resumes.")
    created_at: Date = Field(description="Date it was created.")


class CreditNoteLine(Record):
    """One line of a credit note."""

    description: str = Field(description="What is credited.")
    amount: Money = Field(ge=0, description="Amount credited (USD).")
    date_from: Optional[Date] = Field(default=None, description="Start of the credited period.")
    date_to: Optional[Date] = Field(default=None, description="End of the credited period.")


class CreditNote(Record):
    """Money owed back to a customer (Chargebee ``credit_note``)."""

    id: str = Field(description="Credit note id, e.g. CN-0001.")
    customer_id: Id("customer") = Field(description="The credited customer.")
    subscription_id: Id("billing_subscription") = Field(description="The subscription it credits.")
    type: CreditNoteType = Field(description="adjustment (reduces an unpaid invoice) or refundable.")
    reason_code: CreditReason = Field(description="Chargebee reason code.")
    status: CreditNoteStatus = Field(description="adjusted, refund_due, refunded or voided.")
    date: Date = Field(description="Date issued.")
    total: Money = Field(ge=0.01, description="Amount credited (USD).")
    amount_available: Money = Field(ge=0, description="Part not yet refunded or applied (USD).")
    line_items: list[CreditNoteLine] = Field(min_length=1, description="What is credited.")
    voided_at: Optional[Date] = Field(default=None, description="Date voided.")


class UnbilledCharge(Record):
    """A charge that goes on the subscription's next invoice (Chargebee ``unbilled_charge``)."""

    id: str = Field(description="Unbilled charge id, e.g. UBC-0001.")
    customer_id: Id("customer") = Field(description="The charged customer.")
    subscription_id: Id("billing_subscription") = Field(description="The subscription charged.")
    description: str = Field(description="What is charged.")
    date_from: Date = Field(description="Start of the charged period.")
    date_to: Date = Field(description="End of the charged period.")
    amount: Money = Field(ge=0.01, description="Amount (USD).")


class Comment(Record):
    """A note on a record (Chargebee ``comment``)."""

    id: str = Field(description="Comment id, e.g. CMT-0001.")
    entity_type: Literal["subscription", "customer"] = Field(description="What the comment is on.")
    entity_id: str = Field(description="The subscription or customer id.")
    notes: str = Field(description="The comment text.")
    added_by: str = Field(description="Who added it.")
    created_at: DateTime = Field(description="When it was added.")


class SubscriptionsState(ServiceState):
    """Item prices, customers, subscriptions, credit notes, unbilled charges and comments."""

    item_prices: dict[str, ItemPrice] = Field(default_factory=dict, description="Item prices by id.")
    customers: dict[str, Customer] = Field(default_factory=dict, description="Customers by id.")
    subscriptions: dict[str, Subscription] = Field(default_factory=dict, description="Subscriptions by id.")
    credit_notes: dict[str, CreditNote] = Field(default_factory=dict, description="Credit notes by id.")
    unbilled_charges: dict[str, UnbilledCharge] = Field(default_factory=dict, description="Unbilled charges by id.")
    comments: dict[str, Comment] = Field(default_factory=dict, description="Comments by id.")


__all__ = ["CancelReason", "Comment", "CreditNote", "CreditNoteLine", "CreditNoteStatus", "CreditNoteType",
           "CreditReason", "Customer", "ItemPrice", "LIVE", "PeriodUnit", "Subscription",
           "SubscriptionItem", "SubscriptionStatus", "SubscriptionsState", "UnbilledCharge"]
