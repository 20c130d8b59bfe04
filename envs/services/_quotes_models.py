"""Records, state and pure rules of the quotes service (HubSpot Quotes / Salesforce CPQ style).

A quote belongs to a CRM deal and company, is addressed to a contact email,
and holds line items priced from the product catalog's list prices with a
per-line discount. The deepest line discount decides who must approve it:
up to 10 % nobody, above 10 % the deal desk, above 25 % the Finance
Controller; above 40 % is never allowed.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, Email, Id, Money, Sku
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.service import Record, ServiceState

QuoteStatus = Literal["draft", "pending_approval", "approved", "rejected", "sent", "accepted", "expired"]
#: Line discounts (percent) up to this need no approval.
FREE_DISCOUNT = 10.0
#: Line discounts (percent) above this need the Finance Controller.
CONTROLLER_DISCOUNT = 25.0
#: No line may be discounted more than this (percent).
MAX_DISCOUNT = 40.0
#: Deal desk approvers (discounts above 10 %): Jamal Wright, Priya Raman.
DEAL_DESK: tuple[str, ...] = tuple(s.email for s in STAFF if s.title in ("Senior Account Manager",
                                                                         "Billing Operations Lead"))
CONTROLLER: str = next(s.email for s in STAFF if s.title == "Finance Controller")
#: Sales reps who own quotes (the CRM's account owners).
REPS: tuple[str, ...] = tuple(s.email for s in STAFF if s.team in ("customer_success", "billing"))


class LineInput(Record):
    """A line item as the caller enters it."""

    sku: Sku = Field(description="Catalog SKU, e.g. KB-MECH-01.")
    quantity: int = Field(ge=1, le=100000, description="Units quoted.")
    discount_percent: float = Field(default=0.0, ge=0, le=100, description="Discount off the list price (percent).")


class QuoteLine(LineInput):
    """A priced line item of a quote."""

    name: str = Field(description="Product name.")
    list_price: Money = Field(description="Catalog list price per unit (USD).")
    net_price: Money = Field(description="Unit price after the discount (USD).")
    amount: Money = Field(description="quantity x net price (USD).")


class Quote(Record):
    """A sales quote (HubSpot ``quote`` object)."""

    id: Id("quote") = Field(description="Quote id, e.g. QUO-0001.")
    title: str = Field(description="Quote title.")
    deal_id: Optional[Id("deal")] = Field(default=None, description="The CRM deal quoted.")
    company: CompanyName = Field(description="Customer company.")
    contact_email: Email = Field(description="Customer contact the quote is addressed to.")
    owner_email: Email = Field(description="Sales rep who owns the quote.")
    status: QuoteStatus = Field(description="Workflow status.")
    expiration_date: Date = Field(description="Last day the customer may accept.")
    lines: list[QuoteLine] = Field(default_factory=list, description="Line items.")
    subtotal: Money = Field(default=0.0, description="Sum at list prices (USD).")
    discount_total: Money = Field(default=0.0, description="Sum of discounts (USD).")
    total: Money = Field(default=0.0, description="Amount the customer pays (USD).")
    max_discount_percent: float = Field(default=0.0, description="Deepest line discount (percent).")
    approval_level: Literal["none", "deal_desk", "controller"] = Field(default="none",
                                                                      description="Who must approve it.")
    approver_email: Optional[Email] = Field(default=None, description="Who approved or rejected it.")
    decided_on: Optional[Date] = Field(default=None, description="Date approved or rejected.")
    rejection_reason: Optional[str] = Field(default=None, description="Why approval was refused.")
    sent_on: Optional[Date] = Field(default=None, description="Date sent to the customer.")
    cover_message: Optional[str] = Field(default=None, description="Message sent with the quote.")
    accepted_on: Optional[Date] = Field(default=None, description="Date the customer accepted.")
    signer_name: Optional[str] = Field(default=None, description="Who signed on the customer side.")
    created_on: Date = Field(description="Date created.")
    revision_of: Optional[Id("quote")] = Field(default=None, description="Quote this one revises.")


class QuotesState(ServiceState):
    """Quotes by id."""

    quotes: dict[str, Quote] = Field(default_factory=dict, description="Quotes by id.")


def approval_level(max_discount: float) -> Literal["none", "deal_desk", "controller"]:
    """Who must approve a quote whose deepest line discount is ``max_discount`` percent."""
    if max_discount > CONTROLLER_DISCOUNT:
        return "controller"
    return "deal_desk" if max_discount > FREE_DISCOUNT else "none"


def approvers(level: str) -> tuple[str, ...]:
    """The emails that may approve at ``level`` (the Controller may approve any level)."""
    return {"none": (), "deal_desk": (*DEAL_DESK, CONTROLLER), "controller": (CONTROLLER,)}[level]


def reprice(q: Quote) -> None:
    """Recompute subtotal, discounts, total, deepest discount and approval level from the lines."""
    q.subtotal = money(sum(ln.quantity * ln.list_price for ln in q.lines))
    q.total = money(sum(ln.amount for ln in q.lines))
    q.discount_total = money(q.subtotal - q.total)
    q.max_discount_percent = max((ln.discount_percent for ln in q.lines), default=0.0)
    q.approval_level = approval_level(q.max_discount_percent)


def price_line(line: LineInput, name: str, list_price: float) -> QuoteLine:
    """A priced line: net price = list price less the discount, rounded to cents."""
    net = money(list_price * (1 - line.discount_percent / 100))
    return QuoteLine(**line.model_dump(), name=name, list_price=list_price, net_price=net,
                     amount=money(net * line.quantity))
