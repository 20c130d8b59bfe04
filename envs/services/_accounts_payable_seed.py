"""Seed data of accounts payable: procurement's vendors and POs, billed.

The vendors are procurement's seeded vendors for the same seed (ids, names,
emails, terms), and the purchase orders procurement seeds as ordered or
received are billed with their own lines, so a bill's ``po_id`` and vendor
match the PO in a composition holding both services.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._accounts_payable_models import (
    AccountsPayableState, Bill, BillLineInput, Payment,
)
from compoworld_gym.envs.services._accounts_payable_rules import (
    CONTROLLER, FINANCE, build_lines, default_policies, refresh, route,
)
from compoworld_gym.envs.services._blocks import seed_id
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services.procurement import ProcurementState, Vendor

#: Staff who key in vendor invoices (logistics receives the goods); never approvers.
CLERKS: tuple[str, ...] = tuple(s.email for s in STAFF if s.team == "logistics")
TERM_DAYS = {"net15": 15, "net30": 30, "net60": 60}
_SERVICES = ("Freight and handling", "Office cleaning", "IT support retainer", "Equipment maintenance",
             "Packaging materials", "Warehouse racking install")
#: (approval outcome, payment outcome, total range USD) of the non-PO bills, in id order.
_FLOW = (("not_required", "unpaid", (180, 950)), ("pending", "unpaid", (1500, 9000)),
         ("pending", "unpaid", (21000, 36000)), ("approved", "scheduled", (1200, 7000)),
         ("approved", "partially_paid", (2400, 8000)), ("approved", "paid", (1100, 4000)),
         ("denied", "unpaid", (1300, 5000)), ("void", "unpaid", (1400, 3000)),
         ("approved", "unpaid", (1800, 6500)))


def terms_due(vendor: Vendor, invoice_date: dt.date) -> dt.date:
    """The due date the vendor's payment terms give an invoice dated ``invoice_date``."""
    return invoice_date + dt.timedelta(days=TERM_DAYS[vendor.payment_terms])


def _decide(state: AccountsPayableState, bill: Bill, outcome: str, day: dt.date) -> None:
    """Apply a seeded approval outcome (approved, denied or void) decided on ``day``."""
    if bill.approval_status == "pending" and outcome in ("approved", "denied"):
        approver = CONTROLLER if bill.approval_policy_id == "POL-0002" else FINANCE[len(state.bills) % 2]
        bill.approval_status, bill.approver_email, bill.decided_on = outcome, approver, day
        if outcome == "denied":
            bill.denial_reason = "Invoice quantity does not match the goods received."
    if outcome == "void":
        bill.voided, bill.voided_on, bill.void_reason = True, day, "Duplicate of an invoice already paid."


def _pay(state: AccountsPayableState, bill: Bill, outcome: str, today: dt.date) -> None:
    """Add the payments a seeded payment outcome needs, then refresh the bill."""
    amount = {"scheduled": bill.total, "partially_paid": money(bill.total / 2), "paid": bill.total}.get(outcome)
    if amount is not None:
        done = outcome != "scheduled"
        when = today - dt.timedelta(days=4) if done else today + dt.timedelta(days=3)
        pay = Payment(id=seed_id(state, "PAY"), bill_id=bill.id, vendor_id=bill.vendor_id, amount=amount,
                      process_date=when, status="processed" if done else "scheduled",
                      memo=f"{bill.invoice_number}", created_on=today - dt.timedelta(days=6),
                      processed_on=when if done else None)
        state.payments[pay.id] = pay
    refresh(bill, state.payments.values())


def _add_bill(state: AccountsPayableState, rng: random.Random, vendor: Vendor, lines: list[BillLineInput],
              invoice_date: dt.date, po_id: str | None, clerk: str) -> Bill:
    built, total = build_lines(lines)
    bill = Bill(id=seed_id(state, "BIL"), vendor_id=vendor.id, vendor_name=vendor.name,
                invoice_number=f"INV-{rng.randint(10000, 99999)}", invoice_date=invoice_date,
                due_date=terms_due(vendor, invoice_date), po_id=po_id, lines=built, total=total,
                open_balance=total, approval_status="not_required", created_by=clerk,
                created_on=invoice_date + dt.timedelta(days=1))
    route(bill, state.policies)
    state.bills[bill.id] = bill
    return bill


def build_state(fake: Faker, rng: random.Random, today: dt.date, source: ProcurementState) -> AccountsPayableState:
    """A seeded state on procurement's vendors and purchase orders (``source``).

    Args:
        fake: seeded Faker (service descriptions).
        rng: seeded random stream.
        today: the task's date.
        source: procurement's seeded state for the same seed.
    """
    state = AccountsPayableState(vendors={k: v.model_copy() for k, v in source.vendors.items()},
                                 policies=default_policies())
    active = [v for v in state.vendors.values() if v.active]
    billed = [po for po in source.purchase_orders.values()
              if po.status in ("ordered", "partially_received", "received")]
    for n, po in enumerate(billed):
        lines = [BillLineInput(description=f"{ln.sku} per {po.id}", sku=ln.sku, quantity=ln.quantity,
                               unit_price=ln.unit_cost) for ln in po.lines]
        bill = _add_bill(state, rng, state.vendors[po.vendor_id], lines, po.created_on + dt.timedelta(days=7),
                         po.id, CLERKS[n % 2])
        _decide(state, bill, "approved", bill.created_on + dt.timedelta(days=1))
        _pay(state, bill, "paid" if po.status == "received" else "unpaid", today)
    for n, (approval, paid, (lo, hi)) in enumerate(_FLOW):
        vendor = active[n % len(active)]
        qty = rng.choice((1, 2, 4))
        price = money(rng.randint(lo * 100, hi * 100) / 100 / qty)
        item = f"{rng.choice(_SERVICES)} - {fake.month_name()}"
        invoice_date = today - dt.timedelta(days=rng.randint(5, 40))
        bill = _add_bill(state, rng, vendor, [BillLineInput(description=item, quantity=qty, unit_price=price)],
                         invoice_date, None, CLERKS[n % 2])
        _decide(state, bill, approval, bill.created_on + dt.timedelta(days=1))
        _pay(state, bill, paid, today)
    state.counters["VEN"] = source.counters.get("VEN", len(state.vendors) + 1)
    return state
