"""Payments: a Stripe-like card payment processor.

No payment-processor server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface follows Stripe's API and its official agent toolkit
(``create_customer``, ``list_customers``, ``create_payment_intent``,
``confirm_payment_intent``, ``capture_payment_intent``, ``create_refund``,
``retrieve_balance``): customers with a card on file, payment intents with
automatic or manual capture, and refunds that never exceed the captured
amount. Amounts are in currency units (e.g. 12.34 USD), rounded to cents,
rather than Stripe's integer cents.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, Money, PersonName
from compoworld_gym.envs.services._commerce import (
    CURRENCY,
    CUSTOMERS,
    MONEY_MAX,
    book_payment_id,
    money,
    order_book,
)
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

IntentStatus = Literal["requires_confirmation", "requires_capture", "succeeded", "canceled"]
CaptureMethod = Literal["automatic", "manual"]
RefundReason = Literal["duplicate", "fraudulent", "requested_by_customer"]
CardBrand = Literal["visa", "mastercard", "amex", "discover"]


class Customer(Record):
    """A payer."""

    id: Id("customer") = Field(description="Customer id, e.g. CUS-0001.")
    name: PersonName = Field(description="Customer's full name.")
    email: Email = Field(description="Customer's email.")
    card_brand: Optional[CardBrand] = Field(default=None, description="Brand of the card on file, if any.")
    card_last4: Optional[str] = Field(default=None, description="Last four digits of the card on file.")
    created_on: Date = Field(description="Date the customer was created.")


class PaymentIntent(Record):
    """One attempt to collect money from a customer."""

    id: Id("payment") = Field(description="Payment intent id, e.g. PI-0001.")
    customer_id: Id("customer") = Field(description="Paying customer.")
    amount: Money = Field(description="Amount to collect.")
    currency: str = Field(description="ISO 4217 currency, lower-case as in Stripe (e.g. usd).")
    capture_method: CaptureMethod = Field(
        description="automatic: captured on confirm; manual: authorise, capture later.")
    status: IntentStatus = Field(description="Lifecycle status.")
    amount_captured: Money = Field(default=0.0, description="Amount captured.")
    amount_refunded: Money = Field(default=0.0, description="Amount refunded so far.")
    description: str = Field(default="", description="What the payment is for.")
    order_id: Optional[Id("order")] = Field(default=None, description="Store order this pays, if any.")
    invoice_id: Optional[Id("invoice")] = Field(default=None, description="Invoice this pays, if any.")
    created_on: Date = Field(description="Date the intent was created.")


class Refund(Record):
    """Money returned from a captured payment."""

    id: str = Field(description="Refund id, e.g. RE-0001.")
    payment_intent_id: Id("payment") = Field(description="Refunded payment intent.")
    amount: Money = Field(description="Refunded amount.")
    reason: RefundReason = Field(description="Stripe refund reason.")
    created_on: Date = Field(description="Date of the refund.")


class PaymentsState(ServiceState):
    """Customers, payment intents and refunds."""

    customers: dict[str, Customer] = Field(default_factory=dict, description="Customers by id.")
    payment_intents: dict[str, PaymentIntent] = Field(default_factory=dict, description="Payment intents by id.")
    refunds: dict[str, Refund] = Field(default_factory=dict, description="Refunds by id.")


class Payments(Service):
    """Stripe-like payments: customers, payment intents, captures and refunds."""

    name = "payments"
    description = "Card payment processor (Stripe-like): customers, payment intents, captures, refunds and balance."
    domain = "finance"
    spec_source = None
    State = PaymentsState

    def _intent(self, pid: str) -> PaymentIntent:
        return self.lookup(self.state.payment_intents, pid, "payment intent")

    # -------------------------------------------------------------- customers
    @tool(read_only=False, returns=Customer)
    def create_customer(self, name: PersonName = Field(min_length=1), email: Email = Field(min_length=3)) -> dict:
        """Create a customer (409 if the email is already a customer).

        Args:
            name: the customer's full name.
            email: the customer's email.
        """
        if any(c.email.lower() == email.lower() for c in self.state.customers.values()):
            raise Conflict(f"a customer with email {email} exists; call list_customers to get its id.")
        c = Customer(id=self.new_id("CUS"), name=name, email=email, created_on=self.today)
        self.state.customers[c.id] = c
        return c.model_dump()

    @tool(read_only=True, returns=list[Customer])
    def list_customers(self, email: Optional[Email] = None, limit: int = Field(default=20, ge=1, le=100)) -> list[dict]:
        """List customers, optionally filtered by exact email.

        Args:
            email: only the customer with this email (case-insensitive).
            limit: maximum number of customers (1-100).
        """
        e = email.lower() if email else None
        return [c.model_dump() for c in self.state.customers.values() if e is None or c.email.lower() == e][:limit]

    @tool(read_only=True, returns=Customer)
    def retrieve_customer(self, customer: Id("customer")) -> dict:
        """Get one customer.

        Args:
            customer: the customer id, e.g. CUS-0001.
        """
        return self.lookup(self.state.customers, customer, "customer").model_dump()

    @tool(read_only=False, idempotent=True, returns=Customer)
    def attach_payment_method(self, customer: Id("customer"), card_brand: CardBrand,
                              card_last4: str = Field(pattern=r"^\d{4}$")) -> dict:
        """Save a card as the customer's default payment method (replaces any previous card).

        Args:
            customer: the customer id.
            card_brand: visa, mastercard, amex or discover.
            card_last4: last four digits of the card.
        """
        c = self.lookup(self.state.customers, customer, "customer")
        c.card_brand, c.card_last4 = card_brand, card_last4
        return c.model_dump()

    # -------------------------------------------------------- payment intents
    @tool(read_only=False, returns=PaymentIntent)
    def create_payment_intent(self, amount: Money = Field(ge=0.01, le=1_000_000),
                              customer: Id("customer") = Field(min_length=1),
                              currency: str = Field(default="usd", pattern=r"^[a-z]{3}$"),
                              capture_method: CaptureMethod = "automatic", description: str = "",
                              order_id: Optional[Id("order")] = None,
                              invoice_id: Optional[Id("invoice")] = None) -> dict:
        """Create a payment intent for a customer (status requires_confirmation).

        Args:
            amount: amount to collect in currency units (rounded to cents), e.g. 25.5.
            customer: the paying customer id.
            currency: three-letter lower-case ISO code, e.g. usd.
            capture_method: automatic (capture on confirm) or manual (authorise only).
            description: what the payment is for.
            order_id: the store order this pays, if any.
            invoice_id: the invoice this pays, if any.
        """
        self.lookup(self.state.customers, customer, "customer")
        pi = PaymentIntent(id=self.new_id("PI"), customer_id=customer, amount=money(amount), currency=currency,
                           capture_method=capture_method, status="requires_confirmation", description=description,
                           order_id=order_id, invoice_id=invoice_id, created_on=self.today)
        self.state.payment_intents[pi.id] = pi
        return pi.model_dump()

    @tool(read_only=False, returns=PaymentIntent)
    def confirm_payment_intent(self, payment_intent: Id("payment")) -> dict:
        """Charge the customer's card: automatic intents succeed, manual ones await capture.

        Fails with 422 if the customer has no card on file.

        Args:
            payment_intent: the payment intent id, e.g. PI-0013.
        """
        pi = self._intent(payment_intent)
        if pi.status != "requires_confirmation":
            raise Conflict(f"payment intent {pi.id} is {pi.status}; only requires_confirmation can be confirmed.")
        if self.state.customers[pi.customer_id].card_brand is None:
            raise Unprocessable(f"customer {pi.customer_id} has no card on file; call attach_payment_method first.")
        if pi.capture_method == "automatic":
            pi.status, pi.amount_captured = "succeeded", pi.amount
        else:
            pi.status = "requires_capture"
        return pi.model_dump()

    @tool(read_only=False, returns=PaymentIntent)
    def capture_payment_intent(self, payment_intent: Id("payment"),
                               amount_to_capture: Optional[Money] = Field(None, ge=0.01, le=MONEY_MAX)) -> dict:
        """Capture an authorised (manual) payment intent, fully or partly.

        Args:
            payment_intent: the payment intent id.
            amount_to_capture: amount to capture (<= the authorised amount); omit for all of it.
        """
        pi = self._intent(payment_intent)
        if pi.status != "requires_capture":
            raise Conflict(f"payment intent {pi.id} is {pi.status}; only requires_capture can be captured.")
        value = pi.amount if amount_to_capture is None else money(amount_to_capture)
        if value > pi.amount:
            raise Unprocessable(f"amount_to_capture {value:.2f} exceeds the authorised {pi.amount:.2f}.")
        pi.status, pi.amount_captured = "succeeded", value
        return pi.model_dump()

    @tool(read_only=False, destructive=True, returns=PaymentIntent)
    def cancel_payment_intent(self, payment_intent: Id("payment")) -> dict:
        """Cancel a payment intent that has not been captured (409 once succeeded: refund instead).

        Args:
            payment_intent: the payment intent id.
        """
        pi = self._intent(payment_intent)
        if pi.status in ("succeeded", "canceled"):
            raise Conflict(f"payment intent {pi.id} is {pi.status} and cannot be canceled"
                           + ("; use create_refund." if pi.status == "succeeded" else "."))
        pi.status = "canceled"
        return pi.model_dump()

    @tool(read_only=True, returns=PaymentIntent)
    def retrieve_payment_intent(self, payment_intent: Id("payment")) -> dict:
        """Get one payment intent with its captured and refunded amounts.

        Args:
            payment_intent: the payment intent id.
        """
        return self._intent(payment_intent).model_dump()

    @tool(read_only=True, returns=list[PaymentIntent])
    def list_payment_intents(self, customer: Optional[Id("customer")] = None, status: Optional[IntentStatus] = None,
                             order_id: Optional[Id("order")] = None,
                             limit: int = Field(default=20, ge=1, le=100)) -> list[dict]:
        """List payment intents, newest first, by customer, status or order.

        Args:
            customer: only this customer's intents.
            status: only intents with this status.
            order_id: only intents paying this order.
            limit: maximum number of intents (1-100).
        """
        out = [pi.model_dump() for pi in reversed(self.state.payment_intents.values())
               if (customer is None or pi.customer_id == customer) and (status is None or pi.status == status)
               and (order_id is None or pi.order_id == order_id)]
        return out[:limit]

    # ---------------------------------------------------------------- refunds
    @tool(read_only=False, returns=Refund)
    def create_refund(self, payment_intent: Id("payment"),
                      amount: Optional[Money] = Field(None, ge=0.01, le=MONEY_MAX),
                      reason: RefundReason = "requested_by_customer") -> dict:
        """Refund a succeeded payment, fully or partly.

        A fully refunded payment cannot be refunded again (409); an amount
        above the captured amount not yet refunded is refused (422).

        Args:
            payment_intent: the payment intent to refund.
            amount: amount to refund (rounded to cents); omit to refund everything left.
            reason: duplicate, fraudulent or requested_by_customer.
        """
        pi = self._intent(payment_intent)
        if pi.status != "succeeded":
            raise Conflict(f"payment intent {pi.id} is {pi.status}; only succeeded payments can be refunded.")
        left = money(pi.amount_captured - pi.amount_refunded)
        if left <= 0:
            raise Conflict(f"payment intent {pi.id} is already fully refunded ({pi.amount_refunded:.2f}).")
        value = left if amount is None else money(amount)
        if value > left:
            raise Unprocessable(f"refund {value:.2f} exceeds the refundable {left:.2f} of {pi.id}.")
        pi.amount_refunded = money(pi.amount_refunded + value)
        r = Refund(id=self.new_id("RE"), payment_intent_id=pi.id, amount=value, reason=reason, created_on=self.today)
        self.state.refunds[r.id] = r
        return {**r.model_dump(), "payment_amount_refunded": pi.amount_refunded}

    @tool(read_only=True, returns=list[Refund])
    def list_refunds(self, payment_intent: Optional[Id("payment")] = None) -> list[dict]:
        """List refunds, optionally of one payment intent.

        Args:
            payment_intent: only refunds of this payment intent.
        """
        return [r.model_dump() for r in self.state.refunds.values()
                if payment_intent is None or r.payment_intent_id == payment_intent]

    @tool(read_only=True)
    def retrieve_balance(self) -> dict:
        """Net balance per currency: captured minus refunded over all payments."""
        totals: dict[str, dict[str, float]] = {}
        for pi in self.state.payment_intents.values():
            t = totals.setdefault(pi.currency, {"captured": 0.0, "refunded": 0.0})
            t["captured"] += pi.amount_captured
            t["refunded"] += pi.amount_refunded
        return {"available": [{"currency": cur, "captured": money(t["captured"]), "refunded": money(t["refunded"]),
                               "amount": money(t["captured"] - t["refunded"])} for cur, t in sorted(totals.items())]}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> PaymentsState:
        state = PaymentsState()
        by_email = {}
        for i, c in enumerate(CUSTOMERS, start=1):
            cid = f"CUS-{i:04d}"
            has_card = i != len(CUSTOMERS)  # the last customer never saved a card
            state.customers[cid] = Customer(
                id=cid, name=c.name, email=c.email, card_brand=rng.choice(("visa", "mastercard", "amex")) if has_card
                else None, card_last4=f"{rng.randint(0, 9999):04d}" if has_card else None,
                created_on=today - dt.timedelta(days=90 + 7 * i))
            by_email[c.email] = cid
        for b in order_book(today):
            if b.status in ("pending", "cancelled"):
                continue
            pid = book_payment_id(b.id)
            state.payment_intents[pid] = PaymentIntent(
                id=pid, customer_id=by_email[b.customer.email], amount=b.total, currency=CURRENCY.lower(),
                capture_method="automatic", status="succeeded", amount_captured=b.total,
                amount_refunded=b.total if b.status == "refunded" else 0.0, description=f"Order {b.id}",
                order_id=b.id, created_on=b.placed_on)
            if b.status == "refunded":
                state.refunds["RE-0001"] = Refund(id="RE-0001", payment_intent_id=pid, amount=b.total,
                                                  reason="requested_by_customer",
                                                  created_on=b.placed_on + dt.timedelta(days=2))
        n = max(int(k[3:]) for k in state.payment_intents) + 1
        pid = f"PI-{n:04d}"  # an authorised, not yet captured deposit
        state.payment_intents[pid] = PaymentIntent(
            id=pid, customer_id="CUS-0002", amount=money(rng.choice((150, 200, 250)) + 0.0), currency="usd",
            capture_method="manual", status="requires_capture", description="Custom desk build deposit",
            created_on=today - dt.timedelta(days=1))
        state.counters.update({"CUS": len(CUSTOMERS) + 1, "PI": n + 1, "RE": 2})
        return state
