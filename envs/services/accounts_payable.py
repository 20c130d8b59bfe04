"""Accounts payable: vendor bills, approval policies and vendor payments.

No accounts-payable server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the BILL (Bill.com) v3 API:
vendors (``/v3/vendors``), bills with ``billLineItems``, an invoice number
and a due date (``/v3/bills``), approval policies that route bills above a
threshold to approvers (``/v3/bills/approvals``: approve / deny), payments
scheduled against a bill with a process date and later processed or
cancelled (``/v3/payments``), and voiding a bill with a reason. Rules: a
bill above a policy threshold is paid only once a Finance approver from the
company roster approved it; no payment may exceed what is still open; a
vendor invoice number is entered once; nobody approves a bill they entered.
Vendors are the procurement service's vendors for the same seed.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, Email, Id, Money, Phone
from compoworld_gym.envs.services._accounts_payable_models import (
    AccountsPayableState, ApprovalPolicy, ApprovalStatus, Bill, BillLineInput, Payment, PaymentState, PaymentStatus,
)
from compoworld_gym.envs.services._accounts_payable_rules import (
    build_lines, check_approver, payable, refresh, route,
)
from compoworld_gym.envs.services._accounts_payable_seed import build_state, terms_due
from compoworld_gym.envs.services._blocks import eq, require_status, select
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services.procurement import Procurement, Terms, Vendor
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Service, tool

_FAKE = Faker("en_US")


class AccountsPayable(Service):
    """Vendor bills with approval routing, scheduled and processed payments, voiding."""

    name = "accounts_payable"
    description = ("Accounts payable (BILL-style): vendors, bills with line items and due dates, approval "
                   "policies, scheduled/processed vendor payments and voids.")
    domain = "finance"
    spec_source = None
    State = AccountsPayableState

    # ---------------------------------------------------------------- helpers
    def _bill(self, bill_id: str) -> Bill:
        return self.lookup(self.state.bills, bill_id, "bill")

    def _payment(self, payment_id: str) -> Payment:
        return self.lookup(self.state.payments, payment_id, "payment")

    def _open_bill(self, bill_id: str) -> Bill:
        bill = self._bill(bill_id)
        if bill.voided:
            raise Conflict(f"bill {bill.id} is void ({bill.void_reason}); nothing more can be done with it.")
        return bill

    def _view(self, bill: Bill) -> dict:
        return {**bill.model_dump(), "payable_amount": payable(bill)}

    # ------------------------------------------------------------------ vendors
    @tool(read_only=True, returns=list[Vendor])
    def list_vendors(self, name: Optional[str] = None, active: Optional[bool] = None) -> list[dict]:
        """List vendors, optionally by name fragment or active flag.

        Args:
            name: only vendors whose name contains this (case-blind).
            active: only active (true) or inactive (false) vendors.
        """
        q = name.lower() if name else None
        return [v.model_dump() for v in select(self.state.vendors.values(), eq("active", active))
                if q is None or q in v.name.lower()]

    @tool(read_only=True, returns=Vendor)
    def get_vendor(self, vendor_id: Id("vendor")) -> dict:
        """Get one vendor with its open balance (unpaid totals of its live bills, USD).

        Args:
            vendor_id: the vendor id, e.g. VEN-0001.
        """
        v = self.lookup(self.state.vendors, vendor_id, "vendor")
        live = [b for b in self.state.bills.values() if b.vendor_id == v.id and not b.voided]
        return {**v.model_dump(), "open_balance": money(sum(b.open_balance for b in live)),
                "open_bills": [b.id for b in live if b.open_balance > 0]}

    @tool(read_only=False, returns=Vendor)
    def create_vendor(self, name: CompanyName = Field(min_length=1, max_length=120), email: Email = Field(min_length=3),
                      phone: Phone = "", payment_terms: Terms = "net30", category: str = "services") -> dict:
        """Add a vendor (409 if one with this name exists).

        Args:
            name: company name.
            email: accounts-receivable email of the vendor.
            phone: phone number.
            payment_terms: net15, net30 or net60 (sets default due dates).
            category: what they supply, e.g. 'services'.
        """
        if any(v.name.lower() == name.lower() for v in self.state.vendors.values()):
            raise Conflict(f"vendor {name!r} exists; call list_vendors to get its id.")
        v = Vendor(id=self.new_id("VEN"), name=name, email=email, phone=phone, payment_terms=payment_terms,
                   category=category)
        self.state.vendors[v.id] = v
        return v.model_dump()

    # -------------------------------------------------------------- policies
    @tool(read_only=True, returns=list[ApprovalPolicy])
    def list_approval_policies(self) -> list[dict]:
        """The approval policies: bills above each threshold (USD) need one of its approvers.

        The strictest policy a bill's total exceeds applies; a bill under every threshold needs no approval.
        """
        return [p.model_dump() for p in sorted(self.state.policies.values(), key=lambda p: p.above)]

    @tool(read_only=True, returns=list[Bill])
    def list_pending_approvals(self, approver_email: Email) -> list[dict]:
        """Bills awaiting approval that this approver may decide (not ones they entered).

        Args:
            approver_email: the approver's work email.
        """
        who = approver_email.lower()
        return [self._view(b) for b in self.state.bills.values()
                if b.approval_status == "pending" and not b.voided and b.created_by.lower() != who
                and who in [a.lower() for a in self.state.policies[b.approval_policy_id].approvers]]

    # ------------------------------------------------------------------ bills
    @tool(read_only=True, returns=list[Bill])
    def list_bills(self, vendor_id: Optional[Id("vendor")] = None, approval_status: Optional[ApprovalStatus] = None,
                   payment_status: Optional[PaymentStatus] = None, po_id: Optional[Id("purchase_order")] = None,
                   due_before: Optional[Date] = None, include_voided: bool = False,
                   limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List bills by vendor, approval or payment status, purchase order or due date (without lines).

        Args:
            vendor_id: only this vendor's bills.
            approval_status: not_required, pending, approved or denied.
            payment_status: unpaid, scheduled, partially_paid or paid.
            po_id: only bills against this purchase order.
            due_before: only bills due on or before this date (YYYY-MM-DD).
            include_voided: also list voided bills.
            limit: maximum number of bills (1-200).
        """
        rows = select(self.state.bills.values(), eq("vendor_id", vendor_id), eq("approval_status", approval_status),
                      eq("payment_status", payment_status),
                      None if po_id is None else (lambda b: (b.po_id or "").lower() == po_id.lower()),
                      None if include_voided else (lambda b: not b.voided),
                      None if due_before is None else (lambda b: b.due_date <= due_before), limit=limit)
        return [{**b.model_dump(exclude={"lines"}), "payable_amount": payable(b)} for b in rows]

    @tool(read_only=True, returns=Bill)
    def get_bill(self, bill_id: Id("bill")) -> dict:
        """Get one bill with its lines, approval routing, payments and what may still be scheduled.

        Args:
            bill_id: the bill id, e.g. BIL-0001.
        """
        b = self._bill(bill_id)
        pays = [p.model_dump() for p in self.state.payments.values() if p.bill_id == b.id]
        return {**self._view(b), "payments": pays}

    @tool(read_only=False, returns=Bill)
    def create_bill(self, vendor_id: Id("vendor"), invoice_number: str = Field(min_length=1, max_length=40),
                    invoice_date: Date = Field(), lines: list[BillLineInput] = Field(min_length=1, max_length=50),
                    created_by: Email = Field(min_length=3), due_date: Optional[Date] = None,
                    po_id: Optional[Id("purchase_order")] = None) -> dict:
        """Enter a vendor invoice as a bill; it is routed for approval by the policy its total falls under.

        A bill under every policy threshold needs no approval. Refused: inactive vendor (409), an invoice
        number the vendor already billed (409), a due date before the invoice date or an invoice dated in
        the future (422).

        Args:
            vendor_id: the vendor, e.g. VEN-0001.
            invoice_number: the vendor's invoice number.
            invoice_date: date on the invoice (YYYY-MM-DD), not in the future.
            lines: line items: description, quantity, unit_price (USD), optional sku.
            created_by: work email of the staff member entering it.
            due_date: payment due date; default from the vendor's payment terms.
            po_id: the purchase order billed against, e.g. PO-0005.
        """
        v = self.lookup(self.state.vendors, vendor_id, "vendor")
        if not v.active:
            raise Conflict(f"vendor {v.id} is inactive; reactivate it or bill an active vendor.")
        if any(b.vendor_id == v.id and b.invoice_number.lower() == invoice_number.lower() and not b.voided
               for b in self.state.bills.values()):
            raise Conflict(f"invoice {invoice_number!r} of vendor {v.id} is already billed; call list_bills.")
        if invoice_date > self.today:
            raise Unprocessable(f"invoice_date {invoice_date} is in the future.")
        due = due_date or terms_due(v, invoice_date)
        if due < invoice_date:
            raise Unprocessable(f"due_date {due} is before the invoice date {invoice_date}.")
        built, total = build_lines(lines)
        b = Bill(id=self.new_id("BIL"), vendor_id=v.id, vendor_name=v.name, invoice_number=invoice_number,
                 invoice_date=invoice_date, due_date=due, po_id=po_id.upper() if po_id else None, lines=built,
                 total=total, open_balance=total, approval_status="not_required", created_by=created_by.lower(),
                 created_on=self.today)
        route(b, self.state.policies)
        self.state.bills[b.id] = b
        return self._view(b)

    @tool(read_only=False, returns=Bill)
    def update_bill(self, bill_id: Id("bill"),
                    lines: Optional[list[BillLineInput]] = Field(default=None, max_length=50),
                    due_date: Optional[Date] = None, invoice_number: Optional[str] = Field(default=None, max_length=40)
                    ) -> dict:
        """Correct a bill before it is approved: lines, due date or invoice number; it is routed again.

        Only a bill pending approval, denied, or not needing approval and without payments may change (409).

        Args:
            bill_id: the bill.
            lines: replacement line items (all of them).
            due_date: new due date, not before the invoice date.
            invoice_number: corrected vendor invoice number.
        """
        b = self._open_bill(bill_id)
        require_status("bill", b.id, b.approval_status, ("pending", "denied", "not_required"), "editing")
        if any(p.bill_id == b.id and p.status != "cancelled" for p in self.state.payments.values()):
            raise Conflict(f"bill {b.id} has payments; cancel scheduled payments before editing it.")
        if due_date is not None and due_date < b.invoice_date:
            raise Unprocessable(f"due_date {due_date} is before the invoice date {b.invoice_date}.")
        if lines:
            b.lines, b.total = build_lines(lines)
        b.due_date = due_date or b.due_date
        b.invoice_number = invoice_number or b.invoice_number
        route(b, self.state.policies)
        refresh(b, self.state.payments.values())
        return self._view(b)

    @tool(read_only=False, returns=Bill)
    def approve_bill(self, bill_id: Id("bill"), approver_email: Email) -> dict:
        """Approve a bill pending approval, as an approver its policy names (422 otherwise or for your own bill).

        Args:
            bill_id: the pending bill.
            approver_email: the approver's work email.
        """
        b = self._open_bill(bill_id)
        require_status("bill", b.id, b.approval_status, ("pending",), "approval")
        b.approver_email = check_approver(b, self.state.policies, approver_email)
        b.approval_status, b.decided_on = "approved", self.today
        return self._view(b)

    @tool(read_only=False, returns=Bill)
    def deny_bill(self, bill_id: Id("bill"), approver_email: Email,
                  reason: str = Field(min_length=1, max_length=500)) -> dict:
        """Deny a bill pending approval with a reason; it can be corrected with update_bill and routed again.

        Args:
            bill_id: the pending bill.
            approver_email: the denying approver's work email.
            reason: what is wrong with the invoice.
        """
        b = self._open_bill(bill_id)
        require_status("bill", b.id, b.approval_status, ("pending",), "denial")
        b.approver_email = check_approver(b, self.state.policies, approver_email)
        b.approval_status, b.decided_on, b.denial_reason = "denied", self.today, reason
        return self._view(b)

    @tool(read_only=False, destructive=True, returns=Bill)
    def void_bill(self, bill_id: Id("bill"), reason: str = Field(min_length=1, max_length=500)) -> dict:
        """Void a bill with a reason so it is never paid (409 once money went out or is scheduled).

        Args:
            bill_id: the bill to void.
            reason: why, e.g. 'Duplicate invoice'.
        """
        b = self._open_bill(bill_id)
        if b.paid_amount > 0:
            raise Conflict(f"bill {b.id} has {b.paid_amount:.2f} USD paid; a paid bill cannot be voided.")
        if b.scheduled_amount > 0:
            raise Conflict(f"bill {b.id} has {b.scheduled_amount:.2f} USD scheduled; cancel the payment first.")
        b.voided, b.void_reason, b.voided_on = True, reason, self.today
        return self._view(b)

    # --------------------------------------------------------------- payments
    @tool(read_only=True, returns=list[Payment])
    def list_payments(self, bill_id: Optional[Id("bill")] = None, vendor_id: Optional[Id("vendor")] = None,
                      status: Optional[PaymentState] = None) -> list[dict]:
        """List payments by bill, vendor or status.

        Args:
            bill_id: only payments of this bill.
            vendor_id: only payments to this vendor.
            status: scheduled, processed or cancelled.
        """
        return [p.model_dump() for p in select(self.state.payments.values(), eq("bill_id", bill_id),
                                               eq("vendor_id", vendor_id), eq("status", status))]

    @tool(read_only=True, returns=Payment)
    def get_payment(self, payment_id: Id("payment")) -> dict:
        """Get one payment.

        Args:
            payment_id: the payment id, e.g. PAY-0001.
        """
        return self._payment(payment_id).model_dump()

    @tool(read_only=False, returns=Payment)
    def schedule_payment(self, bill_id: Id("bill"), amount: Money = Field(ge=0.01, le=10_000_000),
                         process_date: Optional[Date] = None, memo: str = Field(default="", max_length=200)) -> dict:
        """Schedule a payment on an approved bill (or one needing no approval).

        Refused: a bill pending approval or denied (409), a void bill (409), an amount above what is still
        open after other scheduled payments (422), a process date in the past (422).

        Args:
            bill_id: the bill to pay.
            amount: amount in USD, at most the bill's payable_amount.
            process_date: date to send the money (YYYY-MM-DD), today or later; default today.
            memo: remittance memo the vendor sees.
        """
        b = self._open_bill(bill_id)
        require_status("bill", b.id, b.approval_status, ("approved", "not_required"), "payment")
        amount = money(amount)
        if amount > payable(b):
            raise Unprocessable(f"amount {amount:.2f} exceeds the open balance still payable on bill {b.id} "
                                f"({payable(b):.2f} USD).")
        process_date = process_date or self.today
        if process_date < self.today:
            raise Unprocessable(f"process_date {process_date} is in the past.")
        p = Payment(id=self.new_id("PAY"), bill_id=b.id, vendor_id=b.vendor_id, amount=amount,
                    process_date=process_date, status="scheduled", memo=memo, created_on=self.today)
        self.state.payments[p.id] = p
        refresh(b, self.state.payments.values())
        return p.model_dump()

    @tool(read_only=False, returns=Payment)
    def process_payment(self, payment_id: Id("payment")) -> dict:
        """Send a scheduled payment whose process date has come (422 before then).

        Args:
            payment_id: the scheduled payment.
        """
        p = self._payment(payment_id)
        require_status("payment", p.id, p.status, ("scheduled",), "processing")
        if p.process_date > self.today:
            raise Unprocessable(f"payment {p.id} is scheduled for {p.process_date}; it cannot be sent before then.")
        p.status, p.processed_on = "processed", self.today
        refresh(self._bill(p.bill_id), self.state.payments.values())
        return p.model_dump()

    @tool(read_only=False, returns=Payment)
    def cancel_payment(self, payment_id: Id("payment"), reason: str = Field(min_length=1, max_length=300)) -> dict:
        """Cancel a scheduled payment (409 once processed); the amount becomes payable again.

        Args:
            payment_id: the scheduled payment.
            reason: why it is cancelled.
        """
        p = self._payment(payment_id)
        require_status("payment", p.id, p.status, ("scheduled",), "cancellation")
        p.status, p.cancel_reason = "cancelled", reason
        refresh(self._bill(p.bill_id), self.state.payments.values())
        return p.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> AccountsPayableState:
        """The seeded state on procurement's seeded vendors and POs for the same seed (so ids and names match)."""
        source = Procurement.seed_state(seed, today)
        rng = random.Random(f"{cls.name}:{seed}")
        _FAKE.seed_instance(rng.getrandbits(32))
        return build_state(_FAKE, rng, today, source)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> AccountsPayableState:
        """A state on vendors and POs drawn from the same stream (used without a seed number)."""
        return build_state(fake, rng, today, Procurement.build_seed_state(fake, rng, today))


__all__ = ["AccountsPayable"]
