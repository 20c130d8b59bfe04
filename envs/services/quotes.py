"""Quotes: sales quotes for CRM deals, priced from the product catalog, with discount approval.

No quoting server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the HubSpot Quotes API
(``/crm/v3/objects/quotes`` with associated deal, company, contact and
``line_items``; ``hs_status`` DRAFT → PENDING_APPROVAL → APPROVED / APPROVAL_NOT_APPROVED,
then published to the buyer, signed or expired) and Salesforce CPQ's
discount approvals. Rules: line items are catalog SKUs at list price with a
discount; the deepest discount decides the approver (above 10 % the deal
desk, above 25 % the Finance Controller, never above 40 %); nobody approves
their own quote; only an approved quote is sent; nothing changes after
sending (clone it for a revision); a quote is accepted only before it expires.
Deals, companies and contact emails are the crm service's for the same seed.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, Email, Id, PersonName
from compoworld_gym.envs.services._blocks import Lifecycle, eq, ieq, select
from compoworld_gym.envs.services._commerce import PRODUCTS, PRODUCTS_BY_SKU
from compoworld_gym.envs.services._quotes_models import (
    CONTROLLER_DISCOUNT, FREE_DISCOUNT, MAX_DISCOUNT, LineInput, Quote, QuotesState, QuoteStatus, approvers,
    price_line, reprice,
)
from compoworld_gym.envs.services._quotes_seed import build_state
from compoworld_gym.envs.services.crm import Crm
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

_EDITABLE = ("draft", "approved", "rejected")
LIFECYCLE = Lifecycle("quote", {
    "editing": _EDITABLE, "submission": ("draft", "rejected"), "approval": ("pending_approval",),
    "rejection": ("pending_approval",), "sending": ("approved",), "acceptance": ("sent",),
    "cloning": ("sent", "expired", "rejected", "accepted"),
})


class Quotes(Service):
    """Sales quotes: catalog line items, discount approval, send, accept or expire."""

    name = "quotes"
    description = ("Sales quotes (HubSpot/CPQ-style) for CRM deals: catalog line items with discounts, "
                   "discount approval, sending, acceptance and expiry.")
    domain = "sales"
    spec_source = None
    State = QuotesState

    def _quote(self, quote_id: str) -> Quote:
        return self.lookup(self.state.quotes, quote_id, "quote")

    def _editable(self, quote_id: str) -> Quote:
        q = self._quote(quote_id)
        if q.status in ("sent", "accepted", "expired"):
            raise Conflict(f"quote {q.id} is {q.status}; a sent quote cannot change - clone_quote makes a revision.")
        LIFECYCLE.check(q.id, q.status, "editing")
        return q

    @staticmethod
    def _priced(line: LineInput):
        if line.discount_percent > MAX_DISCOUNT:
            raise Unprocessable(f"discount {line.discount_percent:g}% on {line.sku} exceeds the maximum "
                                f"{MAX_DISCOUNT:g}%.")
        p = PRODUCTS_BY_SKU.get(line.sku.upper())
        if p is None:
            raise NotFound(f"SKU {line.sku!r} is not in the catalog; call list_products for valid SKUs.")
        return price_line(line.model_copy(update={"sku": p.sku}), p.name, p.price)

    def _changed(self, q: Quote) -> dict:
        """Reprice after an edit; an approved or rejected quote goes back to draft (approval is void)."""
        reprice(q)
        q.status, q.approver_email, q.decided_on, q.rejection_reason = "draft", None, None, None
        return q.model_dump()

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_products(self, query: Optional[str] = None) -> list[dict]:
        """The catalog price list: SKU, name, category and list price (USD).

        Args:
            query: only products whose name or SKU contains this (case-blind).
        """
        q = (query or "").lower()
        return [{"sku": p.sku, "name": p.name, "category": p.category, "list_price": p.price}
                for p in PRODUCTS if q in p.name.lower() or q in p.sku.lower()]

    @tool(read_only=True)
    def get_discount_policy(self) -> dict:
        """The discount approval policy: thresholds (percent) and who approves at each level."""
        return {"no_approval_up_to_percent": FREE_DISCOUNT, "controller_above_percent": CONTROLLER_DISCOUNT,
                "max_discount_percent": MAX_DISCOUNT, "deal_desk_approvers": list(approvers("deal_desk")),
                "controller_approvers": list(approvers("controller")), "currency": "USD"}

    @tool(read_only=True, returns=list[Quote])
    def list_quotes(self, status: Optional[QuoteStatus] = None, company: Optional[CompanyName] = None,
                    contact_email: Optional[Email] = None, deal_id: Optional[Id("deal")] = None,
                    limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List quotes by status, company, contact email or deal (without lines).

        Args:
            status: draft, pending_approval, approved, rejected, sent, accepted or expired.
            company: only this customer company (case-blind).
            contact_email: only quotes addressed to this contact.
            deal_id: only quotes of this CRM deal, e.g. DEAL-0001.
            limit: maximum number of quotes (1-200).
        """
        rows = select(self.state.quotes.values(), eq("status", status), ieq("company", company),
                      ieq("contact_email", contact_email), eq("deal_id", deal_id), limit=limit)
        return [q.model_dump(exclude={"lines"}) for q in rows]

    @tool(read_only=True, returns=Quote)
    def get_quote(self, quote_id: Id("quote")) -> dict:
        """Get one quote with its line items, totals and approval state.

        Args:
            quote_id: the quote id, e.g. QUO-0001.
        """
        return self._quote(quote_id).model_dump()

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Quote)
    def create_quote(self, title: str = Field(min_length=1, max_length=150), company: CompanyName = Field(min_length=1),
                     contact_email: Email = Field(min_length=3), owner_email: Email = Field(min_length=3),
                     expiration_date: Date = Field(), deal_id: Optional[Id("deal")] = None,
                     lines: list[LineInput] = Field(default_factory=list, max_length=50)) -> dict:
        """Create a draft quote (expiration today or later, 422 otherwise).

        Args:
            title: quote title, e.g. 'Acme - Annual renewal'.
            company: customer company name.
            contact_email: the customer contact it is addressed to.
            owner_email: the sales rep who owns it.
            expiration_date: last day the customer may accept (YYYY-MM-DD).
            deal_id: the CRM deal quoted.
            lines: initial line items: sku, quantity, discount_percent.
        """
        if expiration_date < self.today:
            raise Unprocessable(f"expiration_date {expiration_date} is in the past.")
        q = Quote(id=self.new_id("QUO"), title=title, deal_id=deal_id, company=company,
                  contact_email=contact_email.lower(), owner_email=owner_email.lower(), status="draft",
                  expiration_date=expiration_date, lines=[self._priced(ln) for ln in lines], created_on=self.today)
        reprice(q)
        self.state.quotes[q.id] = q
        return q.model_dump()

    @tool(read_only=False, returns=Quote)
    def update_quote(self, quote_id: Id("quote"), title: Optional[str] = Field(default=None, max_length=150),
                     expiration_date: Optional[Date] = None, contact_email: Optional[Email] = None) -> dict:
        """Change a quote's title, expiration or contact before it is sent (409 after; needs re-approval).

        Args:
            quote_id: the quote.
            title: new title.
            expiration_date: new expiration date, today or later.
            contact_email: new customer contact.
        """
        q = self._editable(quote_id)
        if expiration_date is not None and expiration_date < self.today:
            raise Unprocessable(f"expiration_date {expiration_date} is in the past.")
        q.title = title or q.title
        q.expiration_date = expiration_date or q.expiration_date
        q.contact_email = contact_email.lower() if contact_email else q.contact_email
        return self._changed(q)

    @tool(read_only=False, returns=Quote)
    def add_line_item(self, quote_id: Id("quote"), line: LineInput) -> dict:
        """Add a catalog line item at list price with an optional discount (max 40 %, 422 above).

        Args:
            quote_id: the quote (draft, approved or rejected; it returns to draft).
            line: sku, quantity and discount_percent.
        """
        q = self._editable(quote_id)
        if any(ln.sku == line.sku.upper() for ln in q.lines):
            raise Conflict(f"quote {q.id} already has a line for {line.sku.upper()}; update_line_item changes it.")
        q.lines.append(self._priced(line))
        return self._changed(q)

    @tool(read_only=False, returns=Quote)
    def update_line_item(self, quote_id: Id("quote"), line: LineInput) -> dict:
        """Change the quantity or discount of the quote's line for a SKU.

        Args:
            quote_id: the quote (draft, approved or rejected; it returns to draft).
            line: sku of an existing line, new quantity and discount_percent.
        """
        q = self._editable(quote_id)
        idx = next((i for i, ln in enumerate(q.lines) if ln.sku == line.sku.upper()), None)
        if idx is None:
            raise InvalidArgument(f"quote {q.id} has no line for {line.sku!r}; its SKUs: "
                                  f"{', '.join(ln.sku for ln in q.lines) or 'none'}.")
        q.lines[idx] = self._priced(line)
        return self._changed(q)

    @tool(read_only=False, destructive=True, returns=Quote)
    def remove_line_item(self, quote_id: Id("quote"), sku: str = Field(min_length=1)) -> dict:
        """Remove the quote's line for a SKU.

        Args:
            quote_id: the quote (draft, approved or rejected; it returns to draft).
            sku: the SKU of the line.
        """
        q = self._editable(quote_id)
        kept = [ln for ln in q.lines if ln.sku != sku.upper()]
        if len(kept) == len(q.lines):
            raise InvalidArgument(f"quote {q.id} has no line for {sku!r}.")
        q.lines = kept
        return self._changed(q)

    @tool(read_only=False, returns=Quote)
    def submit_quote(self, quote_id: Id("quote")) -> dict:
        """Submit a draft for approval: pending approval if a discount needs it, else approved at once.

        Args:
            quote_id: the draft (or rejected) quote; it needs at least one line (422).
        """
        q = self._quote(quote_id)
        LIFECYCLE.check(q.id, q.status, "submission")
        if not q.lines:
            raise Unprocessable(f"quote {q.id} has no line items.")
        q.rejection_reason = q.approver_email = q.decided_on = None
        q.status = "pending_approval" if q.approval_level != "none" else "approved"
        return q.model_dump()

    def _decide(self, quote_id: str, approver_email: str, action: str) -> Quote:
        q = self._quote(quote_id)
        LIFECYCLE.check(q.id, q.status, action)
        who = approver_email.lower()
        if who == q.owner_email:
            raise Unprocessable("a sales rep cannot approve or reject their own quote.")
        allowed = approvers(q.approval_level)
        if who not in allowed:
            raise Unprocessable(f"quote {q.id} has a {q.max_discount_percent:g}% discount ({q.approval_level} "
                                f"level); its approvers are {', '.join(allowed)}.")
        q.approver_email, q.decided_on = who, self.today
        return q

    @tool(read_only=False, returns=Quote)
    def approve_quote(self, quote_id: Id("quote"), approver_email: Email) -> dict:
        """Approve a quote pending approval, as an approver of its discount level (422 otherwise).

        Args:
            quote_id: the pending quote.
            approver_email: the approver's work email (see get_discount_policy).
        """
        q = self._decide(quote_id, approver_email, "approval")
        q.status = "approved"
        return q.model_dump()

    @tool(read_only=False, returns=Quote)
    def reject_quote(self, quote_id: Id("quote"), approver_email: Email,
                     reason: str = Field(min_length=1, max_length=500)) -> dict:
        """Refuse approval of a pending quote with a reason; the rep may edit and resubmit it.

        Args:
            quote_id: the pending quote.
            approver_email: the approver's work email.
            reason: what must change.
        """
        q = self._decide(quote_id, approver_email, "rejection")
        q.status, q.rejection_reason = "rejected", reason
        return q.model_dump()

    @tool(read_only=False, returns=Quote)
    def send_quote(self, quote_id: Id("quote"), message: str = Field(default="", max_length=1000)) -> dict:
        """Send an approved quote to its contact (409 unless approved; 422 if already expired).

        Args:
            quote_id: the approved quote.
            message: cover message to the customer.
        """
        q = self._quote(quote_id)
        LIFECYCLE.check(q.id, q.status, "sending")
        if q.expiration_date < self.today:
            raise Unprocessable(f"quote {q.id} expired on {q.expiration_date}; update the expiration first.")
        q.status, q.sent_on, q.cover_message = "sent", self.today, message
        return q.model_dump()

    @tool(read_only=False, returns=Quote)
    def accept_quote(self, quote_id: Id("quote"),
                     signer_name: PersonName = Field(min_length=1, max_length=120)) -> dict:
        """Record the customer's signature on a sent quote (422 once it has expired).

        Args:
            quote_id: the sent quote.
            signer_name: who signed for the customer.
        """
        q = self._quote(quote_id)
        LIFECYCLE.check(q.id, q.status, "acceptance")
        if q.expiration_date < self.today:
            raise Unprocessable(f"quote {q.id} expired on {q.expiration_date}; it can no longer be accepted.")
        q.status, q.accepted_on, q.signer_name = "accepted", self.today, signer_name
        return q.model_dump()

    @tool(read_only=False, idempotent=True)
    def expire_quotes(self) -> dict:
        """Mark every sent quote whose expiration date has passed as expired; returns their ids."""
        done = [q.id for q in self.state.quotes.values() if q.status == "sent" and q.expiration_date < self.today]
        for qid in done:
            self.state.quotes[qid].status = "expired"
        return {"expired": done}

    @tool(read_only=False, returns=Quote)
    def clone_quote(self, quote_id: Id("quote"), expiration_date: Date = Field()) -> dict:
        """Start a draft revision of a sent, expired, rejected or accepted quote with the same lines.

        Args:
            quote_id: the quote to revise.
            expiration_date: the revision's expiration, today or later.
        """
        src = self._quote(quote_id)
        LIFECYCLE.check(src.id, src.status, "cloning")
        if expiration_date < self.today:
            raise Unprocessable(f"expiration_date {expiration_date} is in the past.")
        q = Quote(id=self.new_id("QUO"), title=src.title, deal_id=src.deal_id, company=src.company,
                  contact_email=src.contact_email, owner_email=src.owner_email, status="draft",
                  expiration_date=expiration_date, lines=[ln.model_copy() for ln in src.lines],
                  created_on=self.today, revision_of=src.id)
        reprice(q)
        self.state.quotes[q.id] = q
        return q.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> QuotesState:
        """The seeded state on the crm service's seeded deals for the same seed (ids and emails match)."""
        return build_state(random.Random(f"{cls.name}:{seed}"), today, Crm.seed_state(seed, today))

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> QuotesState:
        """A state on CRM deals drawn from the same stream (used without a seed number)."""
        return build_state(rng, today, Crm.build_seed_state(fake, rng, today))


__all__ = ["LIFECYCLE", "Quotes"]
