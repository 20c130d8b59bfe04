"""The read half of the ``subscriptions`` service: lookups, the plan-change rules and the read tools.

:class:`SubscriptionsBase` sets no ``name``, so it is not a service of its
own; :class:`~compoworld_gym.envs.services.subscriptions.Subscriptions` adds
the writes. Plan changes are validated here once, for the estimate and for
the change itself.
"""

from __future__ import annotations

from typing import Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Email, Id, Money
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._subscriptions_models import (
    LIVE, Comment, CreditNote, CreditNoteStatus, Customer, ItemPrice, PeriodUnit, Subscription, SubscriptionStatus,
    UnbilledCharge,
)
from compoworld_gym.envs.services._subscriptions_rules import Proration, proration, usd
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Service, tool

#: Statuses whose plan can be changed (a paused one is resumed first, a cancelled one reactivated).
CHANGEABLE = ("future", "in_trial", "active", "non_renewing")


class SubscriptionsBase(Service):
    """Item prices, customers, subscriptions and credit notes: lookups and reads."""

    # ---------------------------------------------------------------- helpers
    def _sub(self, subscription_id: str) -> Subscription:
        return self.lookup(self.state.subscriptions, subscription_id, "subscription")

    def _customer(self, customer_id: str) -> Customer:
        return self.lookup(self.state.customers, customer_id, "customer")

    def _price(self, item_price_id: str) -> ItemPrice:
        return self.lookup(self.state.item_prices, item_price_id, "item price")

    def _view(self, sub: Subscription) -> dict:
        cust = self.state.customers[sub.customer_id]
        ip = self.state.item_prices[sub.subscription_items[0].item_price_id]
        return {**sub.model_dump(), "customer_email": cust.email, "company": cust.company, "plan": ip.external_name,
                "item_price_id": ip.id, "plan_amount": sub.subscription_items[0].amount}

    def _not_cancelled(self, sub: Subscription, action: str) -> None:
        if sub.status == "cancelled":
            raise Conflict(f"subscription {sub.id} is cancelled; {action} is not possible on a cancelled "
                           "subscription (reactivate_subscription first).")

    def _check_one_per_plan(self, customer_id: str, ip: ItemPrice, skip: str = "") -> None:
        """One live subscription per customer and plan item (409 naming the one there is)."""
        for other in self.state.subscriptions.values():
            if (other.id != skip and other.customer_id == customer_id and other.status in LIVE
                    and self.state.item_prices[other.subscription_items[0].item_price_id].item_id == ip.item_id):
                raise Conflict(f"customer {customer_id} already has a {other.status} subscription {other.id} to the "
                               f"{ip.external_name} plan; change or cancel that one instead.")

    def _plan_change(self, sub: Subscription, item_price_id: str, unit_price: Optional[float],
                     prorate: bool) -> tuple[ItemPrice, float, Proration]:
        """Validate changing ``sub`` to ``item_price_id``: the new price, its period charge and the proration."""
        self._not_cancelled(sub, "changing the plan")
        if sub.status == "paused":
            raise Conflict(f"subscription {sub.id} is paused; resume_subscription before changing its plan.")
        new = self._price(item_price_id)
        if new.status == "archived":
            raise Unprocessable(f"item price {new.id} is archived; pick an active one (list_item_prices).")
        amount = money(new.price if unit_price is None else unit_price)
        item = sub.subscription_items[0]
        if new.id == item.item_price_id and amount == item.amount:
            raise Unprocessable(f"subscription {sub.id} is already on {new.id} at {amount:.2f}; nothing to change.")
        self._check_one_per_plan(sub.customer_id, new, skip=sub.id)
        return new, amount, proration(sub, new, amount, self.today, prorate)

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[ItemPrice])
    def list_item_prices(self, item_id: Optional[str] = None, period_unit: Optional[PeriodUnit] = None,
                         include_archived: bool = False) -> list[dict]:
        """List the plans' item prices (USD), lowest tier first.

        Args:
            item_id: only prices of this plan item (starter, growth, business, enterprise).
            period_unit: month or year.
            include_archived: also list archived (grandfathered) prices.
        """
        rows = select(self.state.item_prices.values(), eq("item_id", item_id), eq("period_unit", period_unit),
                      None if include_archived else eq("status", "active"))
        return [ip.model_dump() for ip in sorted(rows, key=lambda ip: (ip.tier, ip.period_unit, ip.id))]

    @tool(read_only=True, returns=ItemPrice)
    def retrieve_item_price(self, item_price_id: Id("billing_plan")) -> dict:
        """Get one item price.

        Args:
            item_price_id: e.g. growth-USD-monthly.
        """
        return self._price(item_price_id).model_dump()

    @tool(read_only=True, returns=list[Customer])
    def list_customers(self, email: Optional[Email] = None, company: Optional[CompanyName] = None,
                       limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List customers by billing email or company (both case-insensitive, exact).

        Args:
            email: the billing contact's email.
            company: the company name.
            limit: maximum number of customers (1-200).
        """
        return [c.model_dump() for c in select(self.state.customers.values(), ieq("email", email),
                                               ieq("company", company), limit=limit)]

    @tool(read_only=True, returns=Customer)
    def retrieve_customer(self, customer_id: Id("customer")) -> dict:
        """Get one customer.

        Args:
            customer_id: e.g. CUS-0003.
        """
        return self._customer(customer_id).model_dump()

    @tool(read_only=True, returns=list[Subscription])
    def list_subscriptions(self, customer_id: Optional[Id("customer")] = None,
                           status: Optional[SubscriptionStatus] = None,
                           item_price_id: Optional[Id("billing_plan")] = None,
                           limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List subscriptions by customer, status or item price, oldest first (with the customer's email and company).

        Args:
            customer_id: only this customer's subscriptions.
            status: future, in_trial, active, non_renewing, paused or cancelled.
            item_price_id: only subscriptions on this item price.
            limit: maximum number of subscriptions (1-200).
        """
        rows = select(self.state.subscriptions.values(), eq("customer_id", customer_id), eq("status", status),
                      None if item_price_id is None else
                      (lambda s: s.subscription_items[0].item_price_id == item_price_id), limit=limit)
        return [self._view(s) for s in rows]

    @tool(read_only=True, returns=Subscription)
    def retrieve_subscription(self, subscription_id: Id("billing_subscription")) -> dict:
        """Get one subscription: plan line, status, current term, MRR, customer email and company.

        Args:
            subscription_id: e.g. SUB-0004.
        """
        return self._view(self._sub(subscription_id))

    @tool(read_only=True)
    def estimate_update_subscription(self, subscription_id: Id("billing_subscription"),
                                     item_price_id: Id("billing_plan"),
                                     unit_price: Optional[Money] = Field(default=None, ge=0, le=MONEY_MAX),
                                     prorate: bool = True) -> dict:
        """Preview a plan change: the prorated credit and charge (USD, by day) and what would be issued.

        Nothing changes. A negative net becomes a credit note, a positive one an
        unbilled charge. Same errors as update_subscription_for_items.

        Args:
            subscription_id: the subscription.
            item_price_id: the new item price.
            unit_price: a negotiated price per period instead of the list price.
            prorate: prorate the current term by day (default true).
        """
        sub = self._sub(subscription_id)
        new, amount, p = self._plan_change(sub, item_price_id, unit_price, prorate)
        return {"subscription_id": sub.id, "current_item_price_id": sub.subscription_items[0].item_price_id,
                "new_item_price_id": new.id, "new_plan_amount": amount, "days_left": p.days_left,
                "term_days": p.term_days, "credit": usd(p.credit_cents), "charge": usd(p.charge_cents),
                "credit_note_total": usd(-p.net_cents) if p.net_cents < 0 else 0.0,
                "unbilled_charge": usd(p.net_cents) if p.net_cents > 0 else 0.0,
                "current_term_start": p.term_start, "current_term_end": p.term_end}

    @tool(read_only=True, returns=list[CreditNote])
    def list_credit_notes(self, customer_id: Optional[Id("customer")] = None,
                          subscription_id: Optional[Id("billing_subscription")] = None,
                          status: Optional[CreditNoteStatus] = None) -> list[dict]:
        """List credit notes by customer, subscription or status, oldest first.

        Args:
            customer_id: only this customer's credit notes.
            subscription_id: only credit notes of this subscription.
            status: adjusted, refund_due, refunded or voided.
        """
        return [c.model_dump() for c in select(self.state.credit_notes.values(), eq("customer_id", customer_id),
                                               eq("subscription_id", subscription_id), eq("status", status))]

    @tool(read_only=True, returns=CreditNote)
    def retrieve_credit_note(self, credit_note_id: str) -> dict:
        """Get one credit note.

        Args:
            credit_note_id: e.g. CN-0002.
        """
        return self.lookup(self.state.credit_notes, credit_note_id, "credit note").model_dump()

    @tool(read_only=True, returns=list[UnbilledCharge])
    def list_unbilled_charges(self, customer_id: Optional[Id("customer")] = None,
                              subscription_id: Optional[Id("billing_subscription")] = None) -> list[dict]:
        """List charges waiting for the next invoice (e.g. the prorated part of an upgrade).

        Args:
            customer_id: only this customer's charges.
            subscription_id: only this subscription's charges.
        """
        return [u.model_dump() for u in select(self.state.unbilled_charges.values(), eq("customer_id", customer_id),
                                               eq("subscription_id", subscription_id))]

    @tool(read_only=True, returns=list[Comment])
    def list_comments(self, entity_id: str) -> list[dict]:
        """The comments on a subscription or customer, oldest first.

        Args:
            entity_id: a subscription id (SUB-...) or customer id (CUS-...).
        """
        return [c.model_dump() for c in select(self.state.comments.values(), eq("entity_id", entity_id))]
