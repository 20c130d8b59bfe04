"""Procurement: vendors and purchase orders with approval thresholds and goods receipt.

No procurement server is in ``compoworld_gym/data/mcp_servers.jsonl``; the interface
is designed the way Coupa / QuickBooks purchase orders look: vendors with
payment terms, purchase orders ``draft -> pending_approval -> approved ->
ordered -> partially_received -> received`` (or ``rejected``/``cancelled``),
approval by someone whose limit covers the total, and receipt of goods per
SKU that may never exceed what was ordered (422). POs up to
``AUTO_APPROVE_LIMIT`` are approved on submission.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, Email, Id, Money, Phone, Sku
from compoworld_gym.envs.services._commerce import PRODUCTS, money
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

POStatus = Literal["draft", "pending_approval", "approved", "rejected", "ordered", "partially_received",
                   "received", "cancelled"]
Terms = Literal["net15", "net30", "net60"]
#: POs with a total up to this (USD) are approved automatically on submission.
AUTO_APPROVE_LIMIT = 1000.0
#: Approvers and the largest PO total (USD) each may approve.
APPROVERS: dict[str, float] = {STAFF[3].email: 5000.0, STAFF[5].email: 10000.0, STAFF[2].email: 100000.0}
WAREHOUSES = ("WH-EAST", "WH-WEST", "WH-CENT")


class Vendor(Record):
    """A supplier."""

    id: Id("vendor") = Field(description="Vendor id, e.g. VEN-0001.")
    name: CompanyName = Field(description="Company name.")
    email: Email = Field(description="Order desk email.")
    phone: Phone = Field(description="Order desk phone.")
    payment_terms: Terms = Field(description="Invoice payment terms.")
    category: str = Field(description="What they supply, e.g. 'electronics'.")
    active: bool = Field(default=True, description="Inactive vendors receive no new POs.")


class LineInput(Record):
    """A requested PO line."""

    sku: Sku = Field(description="SKU ordered.")
    quantity: int = Field(gt=0, le=100000, description="Units ordered.")
    # ge=0.01, not gt=0: a cost that rounds to 0.00 would be no cost at all.
    unit_cost: Money = Field(ge=0.01, le=1_000_000, description="Cost per unit (USD), at least one cent.")


class POLine(LineInput):
    """A line of a purchase order."""

    amount: Money = Field(description="quantity x unit_cost, rounded to cents.")
    received_quantity: int = Field(default=0, ge=0, description="Units received so far.")


class PurchaseOrder(Record):
    """A purchase order to a vendor."""

    id: Id("purchase_order") = Field(description="PO id, e.g. PO-0001.")
    vendor_id: Id("vendor") = Field(description="Supplier.")
    requester_email: Email = Field(description="Who asked for the goods.")
    lines: list[POLine] = Field(description="Lines.")
    total: Money = Field(description="Sum of line amounts (USD).")
    status: POStatus = Field(description="Lifecycle status.")
    ship_to: Id("warehouse") = Field(description="Receiving warehouse code.")
    created_on: Date = Field(description="Date created.")
    expected_date: Optional[Date] = Field(default=None, description="Expected delivery date.")
    approver_email: Optional[Email] = Field(default=None, description="Who approved or rejected it ('auto' = none).")
    decision_note: Optional[str] = Field(default=None, description="Rejection or cancellation reason.")


class ProcurementState(ServiceState):
    """Vendors and purchase orders."""

    vendors: dict[str, Vendor] = Field(default_factory=dict, description="Vendors by id.")
    purchase_orders: dict[str, PurchaseOrder] = Field(default_factory=dict, description="Purchase orders by id.")


class Procurement(Service):
    """Vendors and purchase orders: approval thresholds, sending and goods receipt."""

    name = "procurement"
    description = "Purchasing: vendors, purchase orders, approval thresholds, sending to vendors and receiving goods."
    domain = "finance"
    spec_source = None
    State = ProcurementState

    def _po(self, po_id: str) -> PurchaseOrder:
        return self.lookup(self.state.purchase_orders, po_id, "purchase order")

    @staticmethod
    def _require(po: PurchaseOrder, allowed: tuple[str, ...], action: str) -> None:
        if po.status not in allowed:
            raise Conflict(f"purchase order {po.id} is {po.status}; {action} needs status {' or '.join(allowed)}.")

    @staticmethod
    def _require_approver(po: PurchaseOrder, approver_email: str) -> None:
        limit = APPROVERS.get(approver_email.lower())
        if limit is None:
            raise Unprocessable(f"{approver_email} is not an approver; call get_approval_policy.")
        if po.total > limit:
            raise Unprocessable(f"{approver_email} may approve up to {limit:.2f}; {po.id} totals {po.total:.2f}.")
        if approver_email.lower() == po.requester_email.lower():
            raise Unprocessable("requesters cannot approve or reject their own purchase orders.")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def get_approval_policy(self) -> dict:
        """Approval thresholds: the auto-approval limit and each approver's maximum (USD)."""
        return {"auto_approve_limit": AUTO_APPROVE_LIMIT,
                "approvers": [{"email": e, "max_total": m} for e, m in APPROVERS.items()]}

    @tool(read_only=True, returns=list[Vendor])
    def list_vendors(self, category: Optional[str] = None, active: Optional[bool] = None) -> list[dict]:
        """List vendors by supply category or active flag.

        Args:
            category: only vendors supplying this, e.g. 'electronics'.
            active: only active (true) or inactive (false) vendors.
        """
        return [v.model_dump() for v in self.state.vendors.values()
                if (category is None or v.category == category) and (active is None or v.active == active)]

    @tool(read_only=True, returns=Vendor)
    def get_vendor(self, vendor_id: Id("vendor")) -> dict:
        """Get one vendor.

        Args:
            vendor_id: the vendor id, e.g. VEN-0001.
        """
        return self.lookup(self.state.vendors, vendor_id, "vendor").model_dump()

    @tool(read_only=True, returns=PurchaseOrder)
    def get_purchase_order(self, po_id: Id("purchase_order")) -> dict:
        """Get one purchase order with its lines and received quantities.

        Args:
            po_id: the PO id, e.g. PO-0001.
        """
        return self._po(po_id).model_dump()

    @tool(read_only=True, returns=list[PurchaseOrder])
    def list_purchase_orders(self, status: Optional[POStatus] = None, vendor_id: Optional[Id("vendor")] = None,
                             sku: Optional[Sku] = None, limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List purchase orders by status, vendor or SKU.

        Args:
            status: only POs with this status.
            vendor_id: only POs to this vendor.
            sku: only POs containing this SKU.
            limit: maximum number of POs (1-200).
        """
        key = sku.upper() if sku else None
        return [po.model_dump() for po in self.state.purchase_orders.values()
                if (status is None or po.status == status) and (vendor_id is None or po.vendor_id == vendor_id)
                and (key is None or any(ln.sku == key for ln in po.lines))][:limit]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Vendor)
    def create_vendor(self, name: CompanyName = Field(min_length=1, max_length=120), email: Email = Field(min_length=3),
                      phone: Phone = Field(min_length=5, max_length=30), category: str = Field(min_length=1),
                      payment_terms: Terms = "net30") -> dict:
        """Add a vendor (409 if the name exists).

        Args:
            name: company name.
            email: order desk email.
            phone: order desk phone.
            category: what they supply, e.g. 'electronics'.
            payment_terms: net15, net30 or net60.
        """
        if any(v.name.lower() == name.lower() for v in self.state.vendors.values()):
            raise Conflict(f"vendor {name!r} exists; call list_vendors to get its id.")
        v = Vendor(id=self.new_id("VEN"), name=name, email=email, phone=phone, category=category,
                   payment_terms=payment_terms)
        self.state.vendors[v.id] = v
        return v.model_dump()

    @tool(read_only=False, returns=PurchaseOrder)
    def create_purchase_order(self, vendor_id: Id("vendor"), requester_email: Email,
                              lines: list[LineInput] = Field(min_length=1, max_length=50),
                              ship_to: Id("warehouse") = "WH-EAST", expected_date: Optional[Date] = None) -> dict:
        """Create a draft PO to an active vendor (409 if inactive).

        Args:
            vendor_id: the supplier.
            requester_email: who asks for the goods.
            lines: PO lines, each {sku, quantity, unit_cost}; a SKU may appear once.
            ship_to: receiving warehouse: WH-EAST, WH-WEST or WH-CENT.
            expected_date: expected delivery date (YYYY-MM-DD), not before today.
        """
        v = self.lookup(self.state.vendors, vendor_id, "vendor")
        if not v.active:
            raise Conflict(f"vendor {v.id} is inactive; choose an active vendor.")
        if ship_to not in WAREHOUSES:
            raise NotFound(f"warehouse {ship_to!r} not found; use one of {', '.join(WAREHOUSES)}.")
        skus = [ln.sku.upper() for ln in lines]
        if len(set(skus)) != len(skus):
            raise InvalidArgument("each SKU may appear only once in lines; merge the quantities.")
        if expected_date is not None and expected_date < self.today:
            raise Unprocessable(f"expected_date {expected_date} is before today.")
        po_lines = [POLine(sku=ln.sku.upper(), quantity=ln.quantity, unit_cost=money(ln.unit_cost),
                           amount=money(ln.quantity * money(ln.unit_cost))) for ln in lines]
        po = PurchaseOrder(id=self.new_id("PO"), vendor_id=v.id, requester_email=requester_email, lines=po_lines,
                           total=money(sum(ln.amount for ln in po_lines)), status="draft", ship_to=ship_to,
                           created_on=self.today, expected_date=expected_date)
        self.state.purchase_orders[po.id] = po
        return po.model_dump()

    @tool(read_only=False, returns=PurchaseOrder)
    def submit_purchase_order(self, po_id: Id("purchase_order")) -> dict:
        """Submit a draft PO: totals up to the auto-approval limit are approved, others await approval.

        Args:
            po_id: the draft PO.
        """
        po = self._po(po_id)
        self._require(po, ("draft",), "submission")
        if po.total <= AUTO_APPROVE_LIMIT:
            po.status, po.approver_email = "approved", None
        else:
            po.status = "pending_approval"
        return po.model_dump()

    @tool(read_only=False, returns=PurchaseOrder)
    def approve_purchase_order(self, po_id: Id("purchase_order"), approver_email: Email) -> dict:
        """Approve a PO pending approval; the approver's limit must cover the total (422).

        Args:
            po_id: the PO pending approval.
            approver_email: the approver (see get_approval_policy).
        """
        po = self._po(po_id)
        self._require(po, ("pending_approval",), "approval")
        self._require_approver(po, approver_email)
        po.status, po.approver_email = "approved", approver_email.lower()
        return po.model_dump()

    @tool(read_only=False, returns=PurchaseOrder)
    def reject_purchase_order(self, po_id: Id("purchase_order"), approver_email: Email,
                              reason: str = Field(min_length=1, max_length=500)) -> dict:
        """Reject a PO pending approval.

        Args:
            po_id: the PO pending approval.
            approver_email: the approver (see get_approval_policy).
            reason: why it is rejected.
        """
        po = self._po(po_id)
        self._require(po, ("pending_approval",), "rejection")
        self._require_approver(po, approver_email)
        po.status, po.approver_email, po.decision_note = "rejected", approver_email.lower(), reason
        return po.model_dump()

    @tool(read_only=False, returns=PurchaseOrder)
    def send_purchase_order(self, po_id: Id("purchase_order")) -> dict:
        """Send an approved PO to the vendor (status becomes 'ordered').

        Args:
            po_id: the approved PO.
        """
        po = self._po(po_id)
        self._require(po, ("approved",), "sending")
        po.status = "ordered"
        return {**po.model_dump(), "sent_to": self.state.vendors[po.vendor_id].email}

    @tool(read_only=False, returns=PurchaseOrder)
    def receive_goods(self, po_id: Id("purchase_order"), sku: Sku, quantity: int = Field(gt=0, le=100000)) -> dict:
        """Record units of a SKU received against an ordered PO (never more than outstanding: 422).

        Args:
            po_id: the ordered or partially received PO.
            sku: the SKU received.
            quantity: units received.
        """
        po = self._po(po_id)
        self._require(po, ("ordered", "partially_received"), "receiving goods")
        line = next((ln for ln in po.lines if ln.sku == sku.upper()), None)
        if line is None:
            raise NotFound(f"SKU {sku!r} is not on {po.id}; its SKUs: {', '.join(ln.sku for ln in po.lines)}.")
        outstanding = line.quantity - line.received_quantity
        if quantity > outstanding:
            raise Unprocessable(f"only {outstanding} units of {line.sku} are outstanding on {po.id}.")
        line.received_quantity += quantity
        done = all(ln.received_quantity == ln.quantity for ln in po.lines)
        po.status = "received" if done else "partially_received"
        return po.model_dump()

    @tool(read_only=False, destructive=True, returns=PurchaseOrder)
    def cancel_purchase_order(self, po_id: Id("purchase_order"),
                              reason: str = Field(min_length=1, max_length=500)) -> dict:
        """Cancel a PO before any goods are received (409 afterwards).

        Args:
            po_id: the PO to cancel.
            reason: why it is cancelled.
        """
        po = self._po(po_id)
        self._require(po, ("draft", "pending_approval", "approved", "ordered"), "cancellation")
        po.status, po.decision_note = "cancelled", reason
        return po.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> ProcurementState:
        state = ProcurementState()
        for i, cat in enumerate(("electronics", "furniture", "stationery", "accessories", "electronics", "furniture"),
                                start=1):
            company = fake.company()
            domain = company.lower().replace(",", "").replace(" ", "").replace("-", "")[:18] + ".example"
            vid = f"VEN-{i:04d}"
            state.vendors[vid] = Vendor(id=vid, name=company, email=f"orders@{domain}", phone=fake.phone_number(),
                                        payment_terms=rng.choice(("net15", "net30", "net60")), category=cat,
                                        active=i != 6)
        requesters = [s.email for s in STAFF if s.team == "logistics"]
        flow = ("draft", "pending_approval", "pending_approval", "approved", "ordered", "partially_received",
                "received", "rejected", "ordered", "cancelled")
        vendors = [v for v in state.vendors.values() if v.active]
        for i, status in enumerate(flow, start=1):
            v = vendors[i % len(vendors)]
            picks = rng.sample([p for p in PRODUCTS if p.category == v.category], 2)
            lines = [POLine(sku=p.sku, quantity=q, unit_cost=p.cost, amount=money(q * p.cost))
                     for p in picks for q in (rng.choice((10, 20, 40, 60)),)]
            if status == "partially_received":
                lines[0].received_quantity = lines[0].quantity
            if status == "received":
                for ln in lines:
                    ln.received_quantity = ln.quantity
            total = money(sum(ln.amount for ln in lines))
            approver = None
            decided = status in ("approved", "ordered", "partially_received", "received", "rejected")
            if decided and total > AUTO_APPROVE_LIMIT:
                approver = next(e for e, m in APPROVERS.items() if m >= total and e != requesters[i % 2])
            created = today - dt.timedelta(days=30 - 2 * i)
            po = PurchaseOrder(id=f"PO-{i:04d}", vendor_id=v.id, requester_email=requesters[i % 2], lines=lines,
                               total=total, status=status, ship_to=WAREHOUSES[i % 3], created_on=created,
                               expected_date=created + dt.timedelta(days=14), approver_email=approver,
                               decision_note={"rejected": "Over budget this quarter.",
                                              "cancelled": "Duplicate of an earlier PO."}.get(status))
            state.purchase_orders[po.id] = po
        state.counters.update({"VEN": 7, "PO": len(flow) + 1})
        return state
