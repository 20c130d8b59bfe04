"""Invoicing: customer invoices with line items, sending, payments and voiding.

No invoicing server is in ``compoworld_gym/data/mcp_servers.jsonl``; the interface
is designed the way QuickBooks Online / Stripe Invoicing look: invoices with
a customer, line items, optional tax, a due date and the lifecycle
``draft -> sent -> (overdue) -> paid`` or ``void``; payments are recorded
against the balance due and may never exceed it. Line amounts are rounded
to cents; subtotal is the exact sum of the rounded line amounts.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, Money, PersonName, Sku
from compoworld_gym.envs.services._commerce import (
    CURRENCY,
    MONEY_MAX,
    PRODUCTS_BY_SKU,
    book_payment_id,
    money,
    order_book,
)
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

InvoiceStatus = Literal["draft", "sent", "paid", "overdue", "void"]
PayMethod = Literal["card", "bank_transfer", "check", "cash"]


class LineInput(Record):
    """A requested invoice line."""

    description: str = Field(min_length=1, max_length=300, description="What is billed.")
    quantity: float = Field(gt=0, le=100000, description="Quantity billed.")
    unit_price: Money = Field(ge=0, le=1_000_000, description="Price per unit.")
    sku: Optional[Sku] = Field(default=None, description="Product SKU, if the line is a product.")


class InvoiceLine(LineInput):
    """A line of an invoice."""

    amount: Money = Field(description="quantity x unit_price, rounded to cents.")


class InvoicePayment(Record):
    """A payment applied to an invoice."""

    amount: Money = Field(description="Amount applied.")
    paid_on: Date = Field(description="Payment date.")
    method: PayMethod = Field(description="How it was paid.")
    payment_id: Optional[Id("payment")] = Field(default=None, description="Processor payment id, if any.")


class Invoice(Record):
    """A customer invoice."""

    id: Id("invoice") = Field(description="Invoice id, e.g. INV-0001.")
    customer_name: PersonName = Field(description="Billed customer.")
    customer_email: Email = Field(description="Where the invoice is sent.")
    order_id: Optional[Id("order")] = Field(default=None, description="Store order billed, if any.")
    lines: list[InvoiceLine] = Field(default_factory=list, description="Invoice lines.")
    tax_rate: float = Field(default=0.0, ge=0, le=0.5, description="Tax rate applied to the subtotal, e.g. 0.08.")
    subtotal: Money = Field(default=0.0, description="Sum of line amounts.")
    tax: Money = Field(default=0.0, description="subtotal x tax_rate, rounded to cents.")
    total: Money = Field(default=0.0, description="subtotal + tax.")
    amount_paid: Money = Field(default=0.0, description="Sum of payments.")
    balance_due: Money = Field(default=0.0, description="total - amount_paid.")
    currency: str = Field(default=CURRENCY, description="ISO 4217 currency.")
    status: InvoiceStatus = Field(description="Lifecycle status.")
    issue_date: Date = Field(description="Date issued (created).")
    due_date: Date = Field(description="Payment due date.")
    memo: str = Field(default="", description="Note printed on the invoice.")
    sent_at: Optional[Date] = Field(default=None, description="Date first sent.")
    reminders_sent: int = Field(default=0, ge=0, description="Payment reminders sent.")
    void_reason: Optional[str] = Field(default=None, description="Why it was voided.")
    payments: list[InvoicePayment] = Field(default_factory=list, description="Payments, oldest first.")


class InvoicingState(ServiceState):
    """All invoices."""

    invoices: dict[str, Invoice] = Field(default_factory=dict, description="Invoices by id.")


def _recompute(inv: Invoice) -> None:
    inv.subtotal = money(sum(ln.amount for ln in inv.lines))
    inv.tax = money(inv.subtotal * inv.tax_rate)
    inv.total = money(inv.subtotal + inv.tax)
    inv.amount_paid = money(sum(p.amount for p in inv.payments))
    inv.balance_due = money(inv.total - inv.amount_paid)


def _line(li: LineInput) -> InvoiceLine:
    return InvoiceLine(**li.model_dump(), amount=money(li.quantity * li.unit_price))


class Invoicing(Service):
    """Customer invoices: create, edit drafts, send, remind, record payments, void."""

    name = "invoicing"
    description = "Accounts-receivable invoicing: invoices, line items, due dates, sending, payments and voids."
    domain = "finance"
    spec_source = None
    State = InvoicingState

    def _invoice(self, invoice_id: str) -> Invoice:
        return self.lookup(self.state.invoices, invoice_id, "invoice")

    @staticmethod
    def _require(inv: Invoice, allowed: tuple[str, ...], action: str) -> None:
        if inv.status not in allowed:
            raise Conflict(f"invoice {inv.id} is {inv.status}; {action} needs status {' or '.join(allowed)}.")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Invoice])
    def list_invoices(self, status: Optional[InvoiceStatus] = None, customer_email: Optional[Email] = None,
                      order_id: Optional[Id("order")] = None, due_before: Optional[Date] = None,
                      limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List invoices by status, customer, order or due date (without lines and payments).

        Args:
            status: only invoices with this status.
            customer_email: only this customer's invoices (case-insensitive).
            order_id: only invoices billing this order.
            due_before: only invoices due strictly before this date (YYYY-MM-DD).
            limit: maximum number of invoices (1-200).
        """
        e = customer_email.lower() if customer_email else None
        out = [inv.model_dump(exclude={"lines", "payments"}) for inv in self.state.invoices.values()
               if (status is None or inv.status == status) and (e is None or inv.customer_email.lower() == e)
               and (order_id is None or inv.order_id == order_id) and (due_before is None or inv.due_date < due_before)]
        return out[:limit]

    @tool(read_only=True, returns=Invoice)
    def get_invoice(self, invoice_id: Id("invoice")) -> dict:
        """Get one invoice with its lines, totals and payments.

        Args:
            invoice_id: the invoice id, e.g. INV-0001.
        """
        return self._invoice(invoice_id).model_dump()

    @tool(read_only=True)
    def get_customer_balance(self, customer_email: Email) -> dict:
        """Total open balance (sent and overdue invoices) of a customer.

        Args:
            customer_email: the customer's email (case-insensitive).
        """
        e = customer_email.lower()
        open_inv = [inv for inv in self.state.invoices.values()
                    if inv.customer_email.lower() == e and inv.status in ("sent", "overdue")]
        return {"customer_email": customer_email, "open_invoices": [inv.id for inv in open_inv],
                "balance_due": money(sum(inv.balance_due for inv in open_inv)),
                "overdue": money(sum(inv.balance_due for inv in open_inv if inv.status == "overdue"))}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Invoice)
    def create_invoice(self, customer_name: PersonName = Field(min_length=1),
                       customer_email: Email = Field(min_length=3),
                       due_date: Date = Field(), lines: list[LineInput] = Field(default_factory=list, max_length=100),
                       order_id: Optional[Id("order")] = None, tax_rate: float = Field(default=0.0, ge=0, le=0.5),
                       memo: str = "") -> dict:
        """Create a draft invoice. The due date may not be before today (422).

        Args:
            customer_name: billed customer's name.
            customer_email: billed customer's email.
            due_date: payment due date (YYYY-MM-DD), today or later.
            lines: invoice lines, each {description, quantity, unit_price, sku?}.
            order_id: the store order billed, if any.
            tax_rate: tax rate on the subtotal, e.g. 0.08 for 8%.
            memo: note printed on the invoice.
        """
        if due_date < self.today:
            raise Unprocessable(f"due_date {due_date} is before today ({self.today}).")
        inv = Invoice(id=self.new_id("INV"), customer_name=customer_name, customer_email=customer_email,
                      order_id=order_id, lines=[_line(li) for li in lines], tax_rate=tax_rate, status="draft",
                      issue_date=self.today, due_date=due_date, memo=memo)
        _recompute(inv)
        self.state.invoices[inv.id] = inv
        return inv.model_dump()

    @tool(read_only=False, returns=Invoice)
    def add_line_item(self, invoice_id: Id("invoice"), description: str = Field(min_length=1, max_length=300),
                      quantity: float = Field(gt=0, le=100000), unit_price: Money = Field(ge=0, le=1_000_000),
                      sku: Optional[Sku] = None) -> dict:
        """Add a line to a draft invoice and recompute its totals.

        Args:
            invoice_id: the draft invoice.
            description: what is billed.
            quantity: quantity billed.
            unit_price: price per unit.
            sku: product SKU, if the line is a product.
        """
        inv = self._invoice(invoice_id)
        self._require(inv, ("draft",), "editing lines")
        inv.lines.append(_line(LineInput(description=description, quantity=quantity, unit_price=unit_price, sku=sku)))
        _recompute(inv)
        return inv.model_dump()

    @tool(read_only=False, destructive=True, returns=Invoice)
    def remove_line_item(self, invoice_id: Id("invoice"), line_number: int = Field(ge=1)) -> dict:
        """Remove a line (1-based position) from a draft invoice.

        Args:
            invoice_id: the draft invoice.
            line_number: 1-based position of the line to remove.
        """
        inv = self._invoice(invoice_id)
        self._require(inv, ("draft",), "editing lines")
        if line_number > len(inv.lines):
            raise InvalidArgument(f"invoice {inv.id} has {len(inv.lines)} lines; "
                                  f"line_number must be 1-{len(inv.lines)}.")
        inv.lines.pop(line_number - 1)
        _recompute(inv)
        return inv.model_dump()

    @tool(read_only=False, returns=Invoice)
    def update_invoice(self, invoice_id: Id("invoice"), due_date: Optional[Date] = None,
                       customer_email: Optional[Email] = None, memo: Optional[str] = None) -> dict:
        """Change the due date, billing email or memo of a draft, sent or overdue invoice.

        Moving the due date of an overdue invoice to today or later makes it 'sent' again.

        Args:
            invoice_id: the invoice to change.
            due_date: new due date (YYYY-MM-DD), today or later.
            customer_email: new billing email.
            memo: new memo.
        """
        inv = self._invoice(invoice_id)
        self._require(inv, ("draft", "sent", "overdue"), "updating")
        if due_date is None and customer_email is None and memo is None:
            raise InvalidArgument("nothing to update: give due_date, customer_email or memo.")
        if due_date is not None:
            if due_date < self.today:
                raise Unprocessable(f"due_date {due_date} is before today ({self.today}).")
            inv.due_date = due_date
            if inv.status == "overdue":
                inv.status = "sent"
        if customer_email is not None:
            inv.customer_email = customer_email
        if memo is not None:
            inv.memo = memo
        return inv.model_dump(exclude={"lines", "payments"})

    @tool(read_only=False, returns=Invoice)
    def send_invoice(self, invoice_id: Id("invoice")) -> dict:
        """Send a draft invoice to the customer's email (status becomes 'sent').

        An invoice without lines or with a zero total cannot be sent (422).

        Args:
            invoice_id: the draft invoice.
        """
        inv = self._invoice(invoice_id)
        self._require(inv, ("draft",), "sending")
        if not inv.lines or inv.total <= 0:
            raise Unprocessable(f"invoice {inv.id} has no billable amount; add line items first.")
        inv.status, inv.sent_at = "sent", self.today
        return {**inv.model_dump(exclude={"lines", "payments"}), "sent_to": inv.customer_email}

    @tool(read_only=False, returns=Invoice)
    def send_reminder(self, invoice_id: Id("invoice")) -> dict:
        """Email a payment reminder for a sent or overdue invoice.

        Args:
            invoice_id: the unpaid invoice.
        """
        inv = self._invoice(invoice_id)
        self._require(inv, ("sent", "overdue"), "a reminder")
        inv.reminders_sent += 1
        return {"invoice_id": inv.id, "sent_to": inv.customer_email, "reminders_sent": inv.reminders_sent,
                "balance_due": inv.balance_due}

    @tool(read_only=False, returns=Invoice)
    def record_payment(self, invoice_id: Id("invoice"), amount: Money = Field(ge=0.01, le=MONEY_MAX),
                       method: PayMethod = "card", payment_id: Optional[Id("payment")] = None,
                       paid_on: Optional[Date] = None) -> dict:
        """Apply a payment to a sent or overdue invoice; at zero balance it becomes 'paid'.

        The amount may not exceed the balance due (422).

        Args:
            invoice_id: the invoice being paid.
            amount: amount received (rounded to cents).
            method: card, bank_transfer, check or cash.
            payment_id: processor payment id (e.g. PI-0013), if paid by card.
            paid_on: payment date (YYYY-MM-DD); defaults to today; not in the future.
        """
        inv = self._invoice(invoice_id)
        self._require(inv, ("sent", "overdue"), "recording a payment")
        value = money(amount)
        if value > inv.balance_due:
            raise Unprocessable(f"payment {value:.2f} exceeds the balance due {inv.balance_due:.2f} of {inv.id}.")
        day = paid_on or self.today
        if day > self.today:
            raise Unprocessable(f"paid_on {day} is in the future.")
        inv.payments.append(InvoicePayment(amount=value, paid_on=day, method=method, payment_id=payment_id))
        _recompute(inv)
        if inv.balance_due == 0:
            inv.status = "paid"
        return inv.model_dump()

    @tool(read_only=False, destructive=True, returns=Invoice)
    def void_invoice(self, invoice_id: Id("invoice"), reason: str = Field(min_length=1, max_length=500)) -> dict:
        """Void an invoice that has no payments (409 if paid, partly paid or already void).

        Args:
            invoice_id: the invoice to void.
            reason: why it is voided.
        """
        inv = self._invoice(invoice_id)
        self._require(inv, ("draft", "sent", "overdue"), "voiding")
        if inv.payments:
            raise Conflict(f"invoice {inv.id} has payments of {inv.amount_paid:.2f}; refund them before voiding.")
        inv.status, inv.void_reason = "void", reason
        return inv.model_dump(exclude={"lines", "payments"})

    @tool(read_only=False, idempotent=True)
    def mark_overdue_invoices(self) -> dict:
        """Flag every sent invoice whose due date is before today as 'overdue'; returns their ids."""
        flagged = []
        for inv in self.state.invoices.values():
            if inv.status == "sent" and inv.due_date < self.today:
                inv.status = "overdue"
                flagged.append(inv.id)
        return {"marked_overdue": flagged}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> InvoicingState:
        state = InvoicingState()
        n = 0
        for b in order_book(today):
            n += 1
            iid = f"INV-{n:04d}"
            lines = [InvoiceLine(description=PRODUCTS_BY_SKU[ln.sku].name, quantity=ln.quantity,
                                 unit_price=ln.unit_price, sku=ln.sku, amount=ln.amount) for ln in b.lines]
            lines.append(InvoiceLine(description=f"Shipping ({b.shipping_method})", quantity=1,
                                     unit_price=b.shipping_fee, amount=b.shipping_fee))
            status = {"pending": "sent", "cancelled": "void"}.get(b.status, "paid")
            inv = Invoice(id=iid, customer_name=b.customer.name, customer_email=b.customer.email, order_id=b.id,
                          lines=lines, status=status, issue_date=b.placed_on,
                          due_date=b.placed_on + dt.timedelta(days=14),
                          sent_at=b.placed_on, void_reason="Order cancelled." if status == "void" else None)
            if status == "paid":
                inv.payments.append(InvoicePayment(amount=b.total, paid_on=b.placed_on, method="card",
                                                   payment_id=book_payment_id(b.id)))
            _recompute(inv)
            if status == "sent" and inv.due_date < today:
                inv.status = "overdue"
            state.invoices[iid] = inv
        for _ in range(4):  # business (B2B) invoices without a store order
            n += 1
            iid = f"INV-{n:04d}"
            company = fake.company()
            hours = rng.randint(4, 40)
            status = rng.choice(("draft", "sent", "overdue"))
            issued = today - dt.timedelta(days=rng.randint(0, 3) if status == "draft" else rng.randint(5, 45))
            inv = Invoice(id=iid, customer_name=fake.name(), customer_email=f"ap@{fake.domain_name()}",
                          lines=[InvoiceLine(description=f"Office fit-out consulting for {company}", quantity=hours,
                                             unit_price=95.0, amount=money(hours * 95.0))],
                          tax_rate=0.08, status=status, issue_date=issued,
                          due_date=issued + dt.timedelta(days=30), memo="Net 30")
            if inv.status != "draft":
                inv.sent_at = inv.issue_date
                inv.status = "overdue" if inv.due_date < today else "sent"
            _recompute(inv)
            state.invoices[iid] = inv
        state.counters["INV"] = n + 1
        return state
