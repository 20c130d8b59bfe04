"""Records and state of the accounts-payable service (BILL v3 style).

Vendors are procurement's own :class:`Vendor` records (same ids, names and
terms in one composition); bills carry line items, a due date, their
approval routing and their payment progress; payments are scheduled against
one bill and later processed or cancelled.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, Email, Id, Money, Sku
from compoworld_gym.envs.services.procurement import Vendor
from compoworld_gym.service import Record, ServiceState

ApprovalStatus = Literal["not_required", "pending", "approved", "denied"]
PaymentStatus = Literal["unpaid", "scheduled", "partially_paid", "paid"]
PaymentState = Literal["scheduled", "processed", "cancelled"]


class BillLineInput(Record):
    """A line item as the caller enters it (BILL ``billLineItems``)."""

    description: str = Field(min_length=1, max_length=200, description="What was billed.")
    sku: Optional[Sku] = Field(default=None, description="SKU billed, for goods on a purchase order.")
    quantity: int = Field(default=1, ge=1, le=100000, description="Units billed.")
    # ge=0.01: a price that rounds to 0.00 would bill nothing.
    unit_price: Money = Field(ge=0.01, le=1_000_000, description="Price per unit (USD).")


class BillLine(BillLineInput):
    """A stored line item with its amount (quantity x unit price, in cents)."""

    amount: Money = Field(description="Line amount (USD).")


class Bill(Record):
    """A vendor invoice entered for payment (BILL ``bill``)."""

    id: Id("bill") = Field(description="Bill id, e.g. BIL-0001.")
    vendor_id: Id("vendor") = Field(description="The vendor who sent the invoice.")
    vendor_name: CompanyName = Field(description="The vendor's company name.")
    invoice_number: str = Field(description="The vendor's own invoice number.")
    invoice_date: Date = Field(description="Date on the vendor's invoice.")
    due_date: Date = Field(description="Date the bill must be paid by.")
    po_id: Optional[Id("purchase_order")] = Field(default=None, description="Purchase order billed against.")
    lines: list[BillLine] = Field(min_length=1, description="Line items.")
    total: Money = Field(description="Sum of line amounts (USD).")
    paid_amount: Money = Field(default=0.0, description="Sum of processed payments (USD).")
    scheduled_amount: Money = Field(default=0.0, description="Sum of scheduled, unprocessed payments (USD).")
    open_balance: Money = Field(description="Total less processed payments (USD).")
    approval_status: ApprovalStatus = Field(description="Approval routing state.")
    approval_policy_id: Optional[str] = Field(default=None, description="The policy the bill was routed by.")
    approver_email: Optional[Email] = Field(default=None, description="Who approved or denied it.")
    decided_on: Optional[Date] = Field(default=None, description="Date approved or denied.")
    denial_reason: Optional[str] = Field(default=None, description="Why it was denied.")
    payment_status: PaymentStatus = Field(default="unpaid", description="Payment progress.")
    created_by: Email = Field(description="Staff member who entered the bill.")
    created_on: Date = Field(description="Date entered.")
    voided: bool = Field(default=False, description="A voided bill is never paid.")
    void_reason: Optional[str] = Field(default=None, description="Why it was voided.")
    voided_on: Optional[Date] = Field(default=None, description="Date voided.")


class ApprovalPolicy(Record):
    """An approval rule: bills whose total is above ``above`` need one of ``approvers``."""

    id: str = Field(description="Policy id, e.g. POL-0001.")
    name: str = Field(description="Policy name.")
    above: Money = Field(description="Bills with a total above this (USD) are routed by the policy.")
    approvers: list[Email] = Field(min_length=1, description="Who may approve or deny the routed bills.")


class Payment(Record):
    """A vendor payment against one bill (BILL ``payment``)."""

    id: Id("payment") = Field(description="Payment id, e.g. PAY-0001.")
    bill_id: Id("bill") = Field(description="The bill paid.")
    vendor_id: Id("vendor") = Field(description="The vendor paid.")
    amount: Money = Field(description="Amount (USD).")
    process_date: Date = Field(description="Date the payment is (or was) sent.")
    status: PaymentState = Field(description="scheduled, processed or cancelled.")
    memo: str = Field(default="", description="Remittance memo the vendor sees.")
    created_on: Date = Field(description="Date scheduled.")
    processed_on: Optional[Date] = Field(default=None, description="Date processed.")
    cancel_reason: Optional[str] = Field(default=None, description="Why it was cancelled.")


class AccountsPayableState(ServiceState):
    """Vendors, bills, approval policies and payments."""

    vendors: dict[str, Vendor] = Field(default_factory=dict, description="Vendors by id (procurement's).")
    bills: dict[str, Bill] = Field(default_factory=dict, description="Bills by id.")
    policies: dict[str, ApprovalPolicy] = Field(default_factory=dict, description="Approval policies by id.")
    payments: dict[str, Payment] = Field(default_factory=dict, description="Payments by id.")
