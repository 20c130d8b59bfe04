"""Returns: return requests for store orders, refunds, exchanges, return labels and notes.

No returns-management server is in ``compoworld_gym/data/mcp_servers.jsonl`` (``spec_source = None``); the
interface follows the Loop Returns API: ``GET /warehouse/return/list`` (``from``, ``to``, ``state``),
``GET /warehouse/return/details`` (by return ``id`` or ``order_name``: ``line_items`` with ``price``,
``refund`` and ``outcome``, ``exchanges``, ``label`` with ``tracking_number`` and ``status``,
``customer``), the return actions ``POST /warehouse/return/{id}/close``, ``/cancel`` and ``/process``,
``POST /return/{id}/note``, labels (``/label``: carrier, tracking number, ``pre_transit`` /
``in_transit`` / ``delivered``), the customer portal's order lookup and return initiation, and the
shop's policy (``return_window``). Orders are the shared commerce book's (the same order ids, customers,
SKUs and prices as the order system), and a label's tracking number is the shipping service's parcel.

Rules of the real product: a return is started within the return window (days since delivery) for units
of delivered order lines not already on a live return; a refund line gets the price paid back by default
and never more than price x quantity; an exchange refunds nothing and needs the variant in stock (the unit
is reserved, and released again if the return is cancelled or expires); only an open return is processed
(refunds issued), closed (without processing) or cancelled; a closed or cancelled return cannot be
reopened, an expired one can (within the window); one live label per return. Left out: store credit and
gift-card outcomes, shop-now, fees and bonus credit, webhooks, warehouse inspection and restocking.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, Money, Sku
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._returns_models import (
    Carrier, ReturnItemInput, ReturnLabel, ReturnLineItem, ReturnNote, ReturnPolicy, ReturnRequest, ReturnsState,
    ReturnState, ShopOrder, Variant,
)
from compoworld_gym.envs.services._returns_rules import (
    check_refund, check_window, refund_total, returned_units,
)
from compoworld_gym.envs.services._returns_seed import AGENT, build_returns, label_for
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Service, tool

Limit = Field(default=50, ge=1, le=200)


class Returns(Service):
    """Loop-style returns: return requests, refunds, exchanges, labels and notes."""

    name = "returns"
    description = ("Returns (Loop Returns): customers' return requests for store orders, refund and exchange lines, "
                   "prepaid return labels with tracking numbers, notes, and processing, closing or cancelling.")
    domain = "commerce"
    spec_source = None
    State = ReturnsState

    # ---------------------------------------------------------------- helpers
    def _return(self, return_id: str) -> ReturnRequest:
        return self.lookup(self.state.returns, return_id, "return")

    def _order(self, order_id: str) -> ShopOrder:
        return self.lookup(self.state.orders, order_id, "order")

    def _open(self, r: ReturnRequest, action: str) -> None:
        if r.state != "open":
            raise Conflict(f"return {r.id} is {r.state}; only an open return can be {action}.")

    def _release(self, r: ReturnRequest) -> None:
        for li in r.line_items:
            if li.exchange_sku and li.exchange_sku in self.state.variants:
                self.state.variants[li.exchange_sku].available += li.quantity

    def _void_label(self, r: ReturnRequest) -> None:
        if r.label is not None and r.label.status == "pre_transit":
            r.label.status = "voided"

    def _view(self, r: ReturnRequest) -> dict:
        return {**r.model_dump(), "days_since_delivery": (self.today - r.delivered_on).days}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=ReturnPolicy)
    def get_return_policy(self) -> dict:
        """The shop's return policy: the return window after delivery, label validity and carrier."""
        return self.state.policy.model_dump()

    @tool(read_only=True, returns=ShopOrder)
    def lookup_order(self, order_id: Id("order")) -> dict:
        """Look an order up as the returns portal does: delivery, days since, window, units still returnable.

        Args:
            order_id: the store order, e.g. ORD-0001.
        """
        o = self._order(order_id)
        live = list(self.state.returns.values())
        days = (self.today - o.delivered_on).days if o.delivered_on else None
        lines = [{**ln.model_dump(), "returnable": ln.quantity - returned_units(live, o.id, ln.sku)} for ln in o.lines]
        return {**o.model_dump(), "lines": lines, "days_since_delivery": days,
                "within_window": days is not None and days <= self.state.policy.return_window_days}

    @tool(read_only=True, returns=list[ReturnRequest])
    def list_returns(self, state: Optional[ReturnState] = None, customer_email: Optional[Email] = None,
                     order_id: Optional[Id("order")] = None, from_date: Optional[Date] = None,
                     to_date: Optional[Date] = None, limit: int = Limit) -> list[dict]:
        """List returns, newest first, by state, customer email, order or the day they were started.

        Args:
            state: open, closed, cancelled or expired.
            customer_email: the customer's email (case-insensitive).
            order_id: the order returned.
            from_date: started on or after this day.
            to_date: started on or before this day.
            limit: maximum number of returns (1-200).
        """
        if from_date and to_date and from_date > to_date:
            raise InvalidArgument("from_date is after to_date.")

        def day(r: ReturnRequest) -> bool:
            d = r.created_at.date()
            return (from_date is None or d >= from_date) and (to_date is None or d <= to_date)

        rows = sorted(self.state.returns.values(), key=lambda r: (r.created_at, r.id), reverse=True)
        return [self._view(r) for r in select(rows, eq("state", state), ieq("customer_email", customer_email),
                                              eq("order_id", order_id), day, limit=limit)]

    @tool(read_only=True, returns=ReturnRequest)
    def get_return(self, return_id: Id("return_request")) -> dict:
        """Get one return's details: lines, refunds, exchanges, label, notes and days since delivery.

        Args:
            return_id: the return id, e.g. RET-0003.
        """
        return self._view(self._return(return_id))

    @tool(read_only=True, returns=list[ReturnNote])
    def list_notes(self, return_id: Id("return_request")) -> list[dict]:
        """A return's notes, oldest first.

        Args:
            return_id: the return.
        """
        return [n.model_dump() for n in self._return(return_id).notes]

    @tool(read_only=True, returns=ReturnLabel)
    def get_label(self, return_id: Id("return_request")) -> dict:
        """A return's label: carrier, tracking number and status.

        Args:
            return_id: the return.
        """
        r = self._return(return_id)
        if r.label is None:
            raise Unprocessable(f"return {r.id} has no label yet; create one with create_label.")
        return {**r.label.model_dump(), "return_id": r.id}

    @tool(read_only=True, returns=list[Variant])
    def list_exchange_variants(self, sku: Optional[Sku] = None, in_stock: Optional[bool] = None) -> list[dict]:
        """Variants available to send as exchanges, with their stock.

        Args:
            sku: only this SKU.
            in_stock: only variants with (true) or without (false) units available.
        """
        keep = (lambda v: (v.available > 0) == in_stock) if in_stock is not None else None
        return [v.model_dump() for v in select(self.state.variants.values(), eq("id", sku), keep)]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=ReturnRequest)
    def create_return(self, order_id: Id("order"),
                      items: list[ReturnItemInput] = Field(min_length=1, max_length=20)) -> dict:
        """Start a return of a delivered order within the return window (refund lines, or exchanges).

        Args:
            order_id: the delivered order, e.g. ORD-0002.
            items: the lines returned: sku, quantity, reason and, for an exchange, exchange_sku (in stock).
        """
        o = self._order(order_id)
        if o.delivered_on is None:
            raise Unprocessable(f"order {o.id} is not delivered yet; a return starts after delivery.")
        check_window(o.delivered_on, self.today, self.state.policy.return_window_days, o.id)
        by_sku = {ln.sku: ln for ln in o.lines}
        live, want, need = list(self.state.returns.values()), {}, {}
        for it in items:
            if it.sku not in by_sku:
                raise Unprocessable(f"order {o.id} has no line of {it.sku}; its SKUs: {', '.join(by_sku)}.")
            want[it.sku] = want.get(it.sku, 0) + it.quantity
            if it.exchange_sku:
                v = self.lookup(self.state.variants, it.exchange_sku, "variant")
                need[v.id] = need.get(v.id, 0) + it.quantity
        for sku, qty in want.items():
            left = by_sku[sku].quantity - returned_units(live, o.id, sku)
            if qty > left:
                raise Conflict(f"order {o.id} has {left} unit(s) of {sku} left to return; asked for {qty}.")
        for sku, qty in need.items():
            if self.state.variants[sku].available < qty:
                raise Unprocessable(f"exchange variant {sku} has {self.state.variants[sku].available} in stock; "
                                    f"{qty} needed. Offer a refund instead.")
        rid = self.new_id("RET")
        lines = [ReturnLineItem(line_item_id=f"{rid}-{n}", sku=it.sku, title=by_sku[it.sku].title,
                                quantity=it.quantity, price=by_sku[it.sku].price, reason=it.reason,
                                outcome="exchange" if it.exchange_sku else "refund",
                                refund=0.0 if it.exchange_sku else money(by_sku[it.sku].price * it.quantity),
                                exchange_sku=it.exchange_sku) for n, it in enumerate(items, start=1)]
        for sku, qty in need.items():
            self.state.variants[sku].available -= qty
        now = self.now()
        r = ReturnRequest(id=rid, order_id=o.id, customer_email=o.customer_email, customer_name=o.customer_name,
                          state="open", delivered_on=o.delivered_on, created_at=now,
                          expires_on=now.date() + dt.timedelta(days=self.state.policy.label_valid_days),
                          line_items=lines, refund_total=refund_total(lines))
        self.state.returns[rid] = r
        return self._view(r)

    @tool(read_only=False, returns=ReturnRequest)
    def update_refund(self, return_id: Id("return_request"), line_item_id: str,
                      amount: Money = Field(ge=0, le=MONEY_MAX)) -> dict:
        """Set the refund of one line of an open return (at most the price paid for its units).

        Args:
            return_id: an open return.
            line_item_id: the line, e.g. RET-0003-1.
            amount: the refund (USD).
        """
        r = self._return(return_id)
        line = next((li for li in r.line_items if li.line_item_id == line_item_id), None)
        if line is None:
            raise InvalidArgument(f"return {r.id} has no line {line_item_id!r}; its lines: "
                                  f"{', '.join(li.line_item_id for li in r.line_items)}.")
        self._open(r, "changed")
        line.refund = check_refund(line, amount)
        r.refund_total = refund_total(r.line_items)
        return self._view(r)

    @tool(read_only=False, returns=ReturnLabel)
    def create_label(self, return_id: Id("return_request"), carrier: Optional[Carrier] = None) -> dict:
        """Make the prepaid return label of an open return (a voided one is replaced).

        Args:
            return_id: an open return without a live label.
            carrier: ups, usps or fedex (default: the policy's carrier).
        """
        r = self._return(return_id)
        self._open(r, "given a label")
        if r.label is not None and r.label.status != "voided":
            raise Conflict(f"return {r.id} already has label {r.label.tracking_number} ({r.label.status}).")
        n = 2 if r.label is not None else 1
        r.label = label_for(r.id, n, "pre_transit", self.now(), carrier or self.state.policy.carrier)
        return {**r.label.model_dump(), "return_id": r.id}

    @tool(read_only=False, returns=ReturnRequest)
    def process_return(self, return_id: Id("return_request")) -> dict:
        """Process an open return: issue its refunds, release its exchanges, and close it.

        Args:
            return_id: an open return.
        """
        r = self._return(return_id)
        self._open(r, "processed")
        now = self.now()
        r.state, r.processed, r.processed_at, r.closed_at = "closed", True, now, now
        return self._view(r)

    @tool(read_only=False, returns=ReturnRequest)
    def close_return(self, return_id: Id("return_request")) -> dict:
        """Close an open return without processing it (no refund issued, no exchange sent).

        Args:
            return_id: an open return.
        """
        r = self._return(return_id)
        self._open(r, "closed")
        self._release(r)
        self._void_label(r)
        r.state, r.closed_at = "closed", self.now()
        return self._view(r)

    @tool(read_only=False, destructive=True, returns=ReturnRequest)
    def cancel_return(self, return_id: Id("return_request")) -> dict:
        """Cancel an open return: its units can be returned again, reserved exchange stock is released.

        Args:
            return_id: an open return.
        """
        r = self._return(return_id)
        self._open(r, "cancelled")
        self._release(r)
        self._void_label(r)
        r.state, r.cancelled_at = "cancelled", self.now()
        return self._view(r)

    @tool(read_only=False, returns=ReturnRequest)
    def reopen_return(self, return_id: Id("return_request")) -> dict:
        """Reopen an expired return while the order is still within the return window.

        A closed or cancelled return cannot be reopened; start a new return instead.

        Args:
            return_id: an expired return.
        """
        r = self._return(return_id)
        if r.state != "expired":
            raise Conflict(f"return {r.id} is {r.state}; only an expired return can be reopened.")
        check_window(r.delivered_on, self.today, self.state.policy.return_window_days, r.order_id)
        live = list(self.state.returns.values())
        o = self.state.orders.get(r.order_id)
        for li in r.line_items:
            total = next((ln.quantity for ln in o.lines if ln.sku == li.sku), 0) if o else li.quantity
            if li.quantity > total - returned_units(live, r.order_id, li.sku):
                raise Conflict(f"units of {li.sku} on return {r.id} are on another return of {r.order_id} now.")
        for li in r.line_items:
            v = self.state.variants.get(li.exchange_sku) if li.exchange_sku else None
            if li.exchange_sku and (v is None or v.available < li.quantity):
                raise Unprocessable(f"exchange variant {li.exchange_sku} is out of stock; start a refund return.")
        for li in r.line_items:  # the exchange units are reserved again
            if li.exchange_sku:
                self.state.variants[li.exchange_sku].available -= li.quantity
        r.state, r.expires_on = "open", self.today + dt.timedelta(days=self.state.policy.label_valid_days)
        if r.label is not None:
            r.label.status = "pre_transit"
        return self._view(r)

    @tool(read_only=False, returns=ReturnNote)
    def add_note(self, return_id: Id("return_request"), body: str = Field(min_length=1, max_length=2000),
                 author: Email = AGENT) -> dict:
        """Add a note to a return (any state).

        Args:
            return_id: the return.
            body: the note text.
            author: who writes it (default the support lead).
        """
        r = self._return(return_id)
        note = ReturnNote(id=self.new_id("NOTE"), body=body.strip() or body, author=author, created_at=self.now())
        r.notes.append(note)
        return note.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> ReturnsState:
        return build_returns(rng, today)


__all__ = ["Returns"]
