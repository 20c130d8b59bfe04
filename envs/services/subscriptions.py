"""Subscriptions: recurring billing of the B2B accounts (plans, subscriptions, proration, credit notes).

No subscription-billing server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Chargebee API v2
(Product Catalog 2.0): ``item_prices`` of plan items, monthly and yearly in
USD; ``customers`` (first_name, last_name, email, company); ``subscriptions``
with ``subscription_items``, status ``future / in_trial / active /
non_renewing / paused / cancelled``, ``current_term_start`` /
``current_term_end`` and ``mrr``; ``update_for_items`` (change plan, with
day-based proration), ``estimates`` for the change, ``cancel_for_items``
(``end_of_term`` or immediately, with ``credit_option_for_current_term_charges``),
``remove_scheduled_cancellation``, ``pause`` / ``resume``, ``reactivate``,
``credit_notes`` (create, void), ``unbilled_charges`` and ``comments``.
Rules of the real product: nothing but reactivation on a cancelled
subscription; a paused one is resumed before its plan changes; one live
subscription per customer and plan item; proration exact to the cent by
day (a downgrade issues a refundable credit note, an upgrade an unbilled
charge); a credit note never exceeds what the term billed. Left out:
invoices, payment sources and gateways, coupons, add-ons and usage-based
charges (the invoicing and payments services hold invoices and cards).
Customers are the shared B2B accounts (:mod:`._accounts`).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, Email, Id, Money
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._subscriptions_models import (
    CancelReason, Comment, CreditNote, CreditNoteLine, CreditNoteType, CreditReason, Customer, Subscription,
    SubscriptionItem, SubscriptionsState, UnbilledCharge,
)
from compoworld_gym.envs.services._subscriptions_reads import SubscriptionsBase
from compoworld_gym.envs.services._subscriptions_rules import cancel_credit_cents, cents, mrr, term_end, usd
from compoworld_gym.envs.services._subscriptions_seed import build_state
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import tool

CreditOption = Literal["none", "prorate", "full"]


class Subscriptions(SubscriptionsBase):
    """Chargebee-style subscription billing: plans, subscriptions, plan changes, cancellations, credit notes."""

    name = "subscriptions"
    description = ("Subscription billing (Chargebee-style): plans and prices, customer subscriptions with terms "
                   "and MRR, prorated plan changes, pauses, cancellations and credit notes.")
    domain = "finance"
    spec_source = None
    State = SubscriptionsState

    # ---------------------------------------------------------------- helpers
    def _credit_note(self, sub: Subscription, total_cents: int, reason: str, line: str,
                     kind: str = "refundable") -> CreditNote:
        total = usd(total_cents)
        cn = CreditNote(id=self.new_id("CN"), customer_id=sub.customer_id, subscription_id=sub.id, type=kind,
                        reason_code=reason, status="refund_due" if kind == "refundable" else "adjusted",
                        date=self.today, total=total, amount_available=total if kind == "refundable" else 0.0,
                        line_items=[CreditNoteLine(description=line, amount=total, date_from=self.today,
                                                   date_to=sub.current_term_end)])
        self.state.credit_notes[cn.id] = cn
        return cn

    def _start_term(self, sub: Subscription, day: dt.date) -> None:
        """Begin a fresh billed term on ``day`` (activation, resume, reactivation)."""
        sub.status = "active"
        sub.current_term_start, sub.current_term_end = day, term_end(day, sub.billing_period_unit, sub.billing_period)
        sub.next_billing_at = sub.current_term_end
        sub.cancelled_at = sub.cancel_reason_code = sub.pause_date = sub.resume_date = None
        sub.mrr = mrr(sub)

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Customer)
    def create_customer(self, first_name: str = Field(min_length=1, max_length=60),
                        last_name: str = Field(min_length=1, max_length=60), email: Email = Field(min_length=3),
                        company: CompanyName = Field(min_length=1, max_length=120),
                        auto_collection: Literal["on", "off"] = "on",
                        net_term_days: int = Field(default=0, ge=0, le=90)) -> dict:
        """Create a customer; the billing email must be new (409).

        Args:
            first_name: billing contact's first name.
            last_name: billing contact's last name.
            email: billing contact's email.
            company: the company.
            auto_collection: on (card charged automatically) or off (invoiced).
            net_term_days: days to pay an invoice when auto collection is off.
        """
        if any(c.email.lower() == email.lower() for c in self.state.customers.values()):
            raise Conflict(f"a customer with email {email} exists; use list_customers to find it.")
        c = Customer(id=self.new_id("CUS"), first_name=first_name, last_name=last_name, email=email, company=company,
                     auto_collection=auto_collection, net_term_days=net_term_days, created_at=self.today)
        self.state.customers[c.id] = c
        return c.model_dump()

    @tool(read_only=False, returns=Subscription)
    def create_subscription_for_items(self, customer_id: Id("customer"), item_price_id: Id("billing_plan"),
                                      unit_price: Optional[Money] = Field(default=None, ge=0, le=MONEY_MAX),
                                      start_date: Optional[Date] = None, skip_trial: bool = False) -> dict:
        """Subscribe a customer to a plan: future if it starts later, in_trial if the plan has a trial, else active.

        One live subscription per customer and plan item (409).

        Args:
            customer_id: the customer.
            item_price_id: an active item price (list_item_prices).
            unit_price: a negotiated price per period instead of the list price.
            start_date: first day (YYYY-MM-DD), today or later; default today.
            skip_trial: start billing at once even if the plan has a free trial.
        """
        cust, ip = self._customer(customer_id), self._price(item_price_id)
        if ip.status == "archived":
            raise Unprocessable(f"item price {ip.id} is archived; pick an active one (list_item_prices).")
        start = start_date or self.today
        if start < self.today:
            raise Unprocessable(f"start_date {start} is before today ({self.today}).")
        self._check_one_per_plan(cust.id, ip)
        price = money(ip.price if unit_price is None else unit_price)
        sub = Subscription(id=self.new_id("SUB"), customer_id=cust.id, status="future",
                           subscription_items=[SubscriptionItem(item_price_id=ip.id, quantity=1, unit_price=price,
                                                                amount=price)],
                           billing_period=ip.period, billing_period_unit=ip.period_unit, start_date=start,
                           next_billing_at=start, created_at=self.today)
        if start == self.today and ip.trial_period and not skip_trial:
            sub.status, sub.trial_end = "in_trial", start + dt.timedelta(days=ip.trial_period)
            sub.next_billing_at = sub.trial_end
        elif start == self.today:
            self._start_term(sub, start)
        self.state.subscriptions[sub.id] = sub
        return self._view(sub)

    @tool(read_only=False, returns=Subscription)
    def update_subscription_for_items(self, subscription_id: Id("billing_subscription"),
                                      item_price_id: Id("billing_plan"),
                                      unit_price: Optional[Money] = Field(default=None, ge=0, le=MONEY_MAX),
                                      prorate: bool = True) -> dict:
        """Change a subscription's plan (upgrade, downgrade or billing period), prorated by day.

        A downgrade's unused credit is issued as a refundable credit note
        (reason subscription_change); an upgrade's extra cost becomes an
        unbilled charge. Cancelled (409) and paused (409) subscriptions cannot
        change; the target plan must not be another live subscription of the
        customer (409). See estimate_update_subscription for a preview.

        Args:
            subscription_id: the subscription.
            item_price_id: the new item price.
            unit_price: a negotiated price per period instead of the list price.
            prorate: prorate the current term by day (default true).
        """
        sub = self._sub(subscription_id)
        new, amount, p = self._plan_change(sub, item_price_id, unit_price, prorate)
        old = self.state.item_prices[sub.subscription_items[0].item_price_id]
        sub.subscription_items = [SubscriptionItem(item_price_id=new.id, quantity=1, unit_price=amount, amount=amount)]
        sub.billing_period, sub.billing_period_unit = new.period, new.period_unit
        if sub.status in ("active", "non_renewing"):
            sub.current_term_start, sub.current_term_end = p.term_start, p.term_end
            if sub.status == "active":
                sub.next_billing_at = p.term_end
            else:
                sub.cancelled_at = p.term_end
        sub.mrr = mrr(sub)
        out = {"subscription": self._view(sub), "credit_note": None, "unbilled_charge": None}
        if p.net_cents < 0:
            out["credit_note"] = self._credit_note(sub, -p.net_cents, "subscription_change",
                                                   f"Unused {old.external_name} time ({p.days_left} of {p.term_days} "
                                                   f"days) less {new.external_name} for the same days").model_dump()
        elif p.net_cents > 0:
            ubc = UnbilledCharge(id=self.new_id("UBC"), customer_id=sub.customer_id, subscription_id=sub.id,
                                 description=f"Prorated charge for the change to {new.name}", date_from=self.today,
                                 date_to=p.term_end, amount=usd(p.net_cents))
            self.state.unbilled_charges[ubc.id] = ubc
            out["unbilled_charge"] = ubc.model_dump()
        return out

    @tool(read_only=False, destructive=True, returns=Subscription)
    def cancel_subscription_for_items(self, subscription_id: Id("billing_subscription"), end_of_term: bool = False,
                                      cancel_reason_code: CancelReason = "other",
                                      credit_option_for_current_term_charges: CreditOption = "none") -> dict:
        """Cancel a subscription now, or at the end of its current term (it becomes non_renewing).

        Immediately: the subscription is cancelled today; ``prorate`` credits
        the unused days of the term and ``full`` the whole term, as a
        refundable credit note. At end of term (active subscriptions only) no
        credit is given (422 otherwise). A cancelled subscription cannot be
        cancelled again (409).

        Args:
            subscription_id: the subscription.
            end_of_term: true to stop renewal at current_term_end instead of cancelling now.
            cancel_reason_code: too_expensive, missing_features, switched_to_competitor, no_longer_needed,
                non_payment or other.
            credit_option_for_current_term_charges: none, prorate or full (immediate cancellation only).
        """
        sub = self._sub(subscription_id)
        self._not_cancelled(sub, "cancelling")
        if end_of_term:
            if sub.status != "active":
                raise Conflict(f"subscription {sub.id} is {sub.status}; only an active subscription can be "
                               "cancelled at the end of its term (cancel it immediately instead).")
            if credit_option_for_current_term_charges != "none":
                raise Unprocessable("a cancellation at the end of the term uses the whole term: give no credit option.")
            sub.status, sub.cancelled_at, sub.next_billing_at = "non_renewing", sub.current_term_end, None
            sub.cancel_reason_code = cancel_reason_code
            sub.mrr = mrr(sub)
            return {"subscription": self._view(sub), "credit_note": None}
        credit = cancel_credit_cents(sub, self.today, credit_option_for_current_term_charges)
        cn = None
        if credit > 0:
            cn = self._credit_note(sub, credit, "subscription_cancellation",
                                   f"{credit_option_for_current_term_charges.title()} credit of the cancelled term")
        sub.status, sub.cancelled_at, sub.cancel_reason_code = "cancelled", self.today, cancel_reason_code
        sub.next_billing_at = sub.pause_date = sub.resume_date = None
        if sub.current_term_end:
            sub.current_term_end = self.today
        sub.mrr = 0.0
        return {"subscription": self._view(sub), "credit_note": cn.model_dump() if cn else None}

    @tool(read_only=False, returns=Subscription)
    def remove_scheduled_cancellation(self, subscription_id: Id("billing_subscription")) -> dict:
        """Keep a non_renewing subscription: it renews again at the end of its term.

        Args:
            subscription_id: a non_renewing subscription.
        """
        sub = self._sub(subscription_id)
        self._not_cancelled(sub, "removing a cancellation")
        if sub.status != "non_renewing":
            raise Conflict(f"subscription {sub.id} is {sub.status}; only a non_renewing one has a scheduled "
                           "cancellation.")
        sub.status, sub.cancelled_at, sub.cancel_reason_code = "active", None, None
        sub.next_billing_at = sub.current_term_end
        sub.mrr = mrr(sub)
        return self._view(sub)

    @tool(read_only=False, returns=Subscription)
    def pause_subscription(self, subscription_id: Id("billing_subscription"),
                           pause_option: Literal["immediately", "end_of_term"] = "immediately",
                           resume_date: Optional[Date] = None) -> dict:
        """Pause an active subscription now or at the end of its term; it resumes on resume_date if given.

        Args:
            subscription_id: an active subscription.
            pause_option: immediately, or end_of_term (scheduled; it stays active until then).
            resume_date: day it resumes (after the pause starts); none: until resume_subscription.
        """
        sub = self._sub(subscription_id)
        self._not_cancelled(sub, "pausing")
        if sub.status != "active":
            raise Conflict(f"subscription {sub.id} is {sub.status}; only an active subscription can be paused.")
        if sub.pause_date is not None:
            raise Conflict(f"subscription {sub.id} is already scheduled to pause on {sub.pause_date}.")
        day = self.today if pause_option == "immediately" else sub.current_term_end
        if resume_date is not None and resume_date <= day:
            raise Unprocessable(f"resume_date {resume_date} must be after the pause starts ({day}).")
        sub.pause_date, sub.resume_date = day, resume_date
        if pause_option == "immediately":
            sub.status, sub.next_billing_at = "paused", None
            sub.mrr = 0.0
        return self._view(sub)

    @tool(read_only=False, returns=Subscription)
    def resume_subscription(self, subscription_id: Id("billing_subscription")) -> dict:
        """Resume a paused subscription today: a new term starts and is billed.

        Args:
            subscription_id: a paused subscription.
        """
        sub = self._sub(subscription_id)
        self._not_cancelled(sub, "resuming")
        if sub.status != "paused":
            raise Conflict(f"subscription {sub.id} is {sub.status}; only a paused subscription can be resumed.")
        self._start_term(sub, self.today)
        return self._view(sub)

    @tool(read_only=False, returns=Subscription)
    def reactivate_subscription(self, subscription_id: Id("billing_subscription")) -> dict:
        """Reactivate a cancelled subscription on its last plan: a new term starts today.

        The customer may not already hold another live subscription to the same plan (409).

        Args:
            subscription_id: a cancelled subscription.
        """
        sub = self._sub(subscription_id)
        if sub.status != "cancelled":
            raise Conflict(f"subscription {sub.id} is {sub.status}; only a cancelled subscription can be reactivated.")
        ip = self.state.item_prices[sub.subscription_items[0].item_price_id]
        if ip.status == "archived":
            raise Unprocessable(f"its item price {ip.id} is archived; create a new subscription on an active plan.")
        self._check_one_per_plan(sub.customer_id, ip, skip=sub.id)
        self._start_term(sub, self.today)
        return self._view(sub)

    @tool(read_only=False, returns=CreditNote)
    def create_credit_note(self, subscription_id: Id("billing_subscription"),
                           total: Money = Field(ge=0.01, le=MONEY_MAX), reason_code: CreditReason = "other",
                           description: str = Field(min_length=3, max_length=300),
                           type: CreditNoteType = "refundable") -> dict:
        """Credit a customer part of the subscription's current (or last) term charge.

        The total, with the term's other credit notes (not voided), may not
        exceed what the term billed (422); a subscription never billed has
        nothing to credit (422).

        Args:
            subscription_id: the subscription.
            total: amount to credit (USD).
            reason_code: subscription_change, subscription_cancellation, product_unsatisfactory,
                service_unsatisfactory, order_change, waiver or other.
            description: what is credited and why.
            type: refundable (money owed back) or adjustment (reduces an unpaid invoice).
        """
        sub = self._sub(subscription_id)
        if sub.current_term_start is None:
            raise Unprocessable(f"subscription {sub.id} is {sub.status} and has not been billed; nothing to credit.")
        billed = cents(sub.subscription_items[0].amount)
        credited = sum(cents(c.total) for c in self.state.credit_notes.values()
                       if c.subscription_id == sub.id and c.status != "voided" and c.date >= sub.current_term_start)
        if cents(total) + credited > billed:
            raise Unprocessable(f"the term billed {usd(billed):.2f} and {usd(credited):.2f} is already credited; "
                                f"at most {usd(billed - credited):.2f} can be credited.")
        cn = self._credit_note(sub, cents(total), reason_code, description, type)
        return cn.model_dump()

    @tool(read_only=False, destructive=True, returns=CreditNote)
    def void_credit_note(self, credit_note_id: str) -> dict:
        """Void a credit note that was not refunded (409 if refunded or already voided).

        Args:
            credit_note_id: e.g. CN-0004.
        """
        cn = self.lookup(self.state.credit_notes, credit_note_id, "credit note")
        if cn.status in ("refunded", "voided"):
            raise Conflict(f"credit note {cn.id} is {cn.status}; it cannot be voided.")
        cn.status, cn.amount_available, cn.voided_at = "voided", 0.0, self.today
        return cn.model_dump()

    @tool(read_only=False, returns=Comment)
    def create_comment(self, entity_type: Literal["subscription", "customer"], entity_id: str,
                       notes: str = Field(min_length=1, max_length=1000),
                       added_by: Email = OPS_EMAIL) -> dict:
        """Add a comment to a subscription or customer.

        Args:
            entity_type: subscription or customer.
            entity_id: its id (SUB-... or CUS-...).
            notes: the comment.
            added_by: who adds it (default the ops mailbox).
        """
        pool = self.state.subscriptions if entity_type == "subscription" else self.state.customers
        if entity_id not in pool:
            raise NotFound(f"{entity_type} {entity_id!r} not found; list {entity_type}s to find valid ids.")
        c = Comment(id=self.new_id("CMT"), entity_type=entity_type, entity_id=entity_id, notes=notes,
                    added_by=added_by, created_at=self.now())
        self.state.comments[c.id] = c
        return c.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> SubscriptionsState:
        return build_state(rng, today)


__all__ = ["Subscriptions"]
