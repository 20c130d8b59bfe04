"""Business rules of the property management service (Buildium's and AppFolio's; see ``property_management.py``).

A unit has at most one active or future lease at a time (409); a security
deposit is at most two months' rent (422); a payment never exceeds the open
balance (422) nor is dated in the future; a late fee needs rent unpaid past
the grace period and is capped at 10% of the rent (422); a deposit is
returned once, after move-out, and never above what was held (422); work
goes only to an active vendor of the right trade whose insurance covers the
visit date (422). Payments settle the oldest open charges first.
"""

from __future__ import annotations

import datetime as dt
from typing import Optional

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._property_management_models import (
    Lease, LeaseTransaction, MaintenanceRequest, PropertyManagementState, Unit, Vendor,
)
from compoworld_gym.errors import Conflict, Unprocessable

#: Days after the due date before rent is late and a late fee may be posted.
GRACE_DAYS = 5
#: A late fee is at most this share of the monthly rent.
LATE_FEE_CAP = 0.10
#: A security deposit is at most this many months of rent.
DEPOSIT_MONTHS_CAP = 2


def balance(lease: Lease) -> float:
    """Charges minus payments of a lease (USD; positive: the tenant owes)."""
    owed = sum(t.amount if t.kind == "charge" else -t.amount for t in lease.transactions)
    return money(owed)


def unpaid_charges(lease: Lease) -> list[tuple[LeaseTransaction, float]]:
    """Charges not yet covered, with the amount still open: payments settle the oldest charges first."""
    paid = sum(t.amount for t in lease.transactions if t.kind == "payment")
    out = []
    for t in sorted((t for t in lease.transactions if t.kind == "charge"), key=lambda t: (t.date, t.id)):
        covered = min(paid, t.amount)
        paid -= covered
        if t.amount - covered > 0.004:
            out.append((t, money(t.amount - covered)))
    return out


def check_lease_terms(state: PropertyManagementState, unit: Unit, start_date: dt.date, end_date: dt.date,
                      rent: float, security_deposit: float) -> None:
    """A new lease of ``unit`` ends after it starts, holds at most :data:`DEPOSIT_MONTHS_CAP` months' rent
    as deposit, and overlaps no active or future lease of the unit.

    Raises:
        Unprocessable: 422 for the dates or the deposit.
        Conflict: 409 for an overlapping lease.
    """
    if end_date <= start_date:
        raise Unprocessable("end_date must be after start_date.")
    if security_deposit > DEPOSIT_MONTHS_CAP * rent:
        raise Unprocessable(f"security_deposit {security_deposit:.2f} exceeds {DEPOSIT_MONTHS_CAP} months' rent "
                            f"({DEPOSIT_MONTHS_CAP * rent:.2f}).")
    for other in state.leases.values():
        if (other.unit_id == unit.id and other.status != "ended"
                and other.start_date <= end_date and start_date <= other.end_date):
            raise Conflict(f"unit {unit.id} already has {other.status} lease {other.id} "
                           f"({other.start_date} to {other.end_date}).")


def check_deposit_return(lease: Lease, amount: float, deductions: Optional[str]) -> None:
    """The deposit of an ended lease is returned once, at most what was held; keeping part needs a reason.

    Raises:
        Conflict: 409 for a lease not ended or a deposit already returned.
        Unprocessable: 422 for more than the deposit, or a partial refund without deductions.
    """
    if lease.status != "ended":
        raise Conflict(f"lease {lease.id} is {lease.status}; deposits are returned after move-out.")
    if lease.deposit_returned is not None:
        raise Conflict(f"the deposit of lease {lease.id} was already returned ({lease.deposit_returned:.2f}).")
    if amount > lease.security_deposit:
        raise Unprocessable(f"amount {amount:.2f} is above the deposit held ({lease.security_deposit:.2f}).")
    if amount < lease.security_deposit and not deductions:
        raise Unprocessable("a partial refund needs deductions explaining what is kept.")


def check_charge(lease: Lease, amount: float, charge_type: str, today: dt.date) -> None:
    """A charge goes on a lease that has not ended; a late fee needs rent unpaid more than
    :data:`GRACE_DAYS` past due and is at most :data:`LATE_FEE_CAP` of the rent.

    Raises:
        Conflict: 409 for an ended lease.
        Unprocessable: 422 for a late fee without late rent or above the cap.
    """
    if lease.status == "ended":
        raise Conflict(f"lease {lease.id} has ended; post charges to an active lease.")
    if charge_type == "late_fee":
        late = [c for c, _ in unpaid_charges(lease) if c.charge_type == "rent"
                and (today - c.date).days > GRACE_DAYS]
        if not late:
            raise Unprocessable(f"no rent on lease {lease.id} is unpaid more than {GRACE_DAYS} days past due.")
        if amount > LATE_FEE_CAP * lease.rent:
            raise Unprocessable(f"a late fee is at most {LATE_FEE_CAP:.0%} of the rent "
                                f"({LATE_FEE_CAP * lease.rent:.2f}).")


def check_payment(lease: Lease, amount: float, when: dt.date, today: dt.date) -> None:
    """A payment is not dated after ``today`` and is at most the open balance.

    Raises:
        Unprocessable: 422.
    """
    if when > today:
        raise Unprocessable(f"payment_date {when} is in the future.")
    if money(amount) > balance(lease):
        raise Unprocessable(f"amount {amount:.2f} exceeds the open balance {balance(lease):.2f} "
                            f"of lease {lease.id}.")


def check_assignable(r: MaintenanceRequest, v: Vendor, scheduled_date: dt.date, today: dt.date) -> None:
    """A new or assigned request goes to an active vendor of its trade (or general), insured on the
    visit date, which is not in the past.

    Raises:
        Conflict: 409 for a completed or cancelled request.
        Unprocessable: 422 for the date or the vendor.
    """
    if r.status not in ("new", "assigned"):
        raise Conflict(f"request {r.id} is {r.status}; only new or assigned requests take a vendor.")
    if scheduled_date < today:
        raise Unprocessable(f"scheduled_date {scheduled_date} is in the past.")
    if not v.active:
        raise Unprocessable(f"vendor {v.id} is inactive.")
    if v.trade not in (r.category, "general"):
        raise Unprocessable(f"vendor {v.id} does {v.trade} work; request {r.id} needs {r.category} or general.")
    if v.insurance_expires < scheduled_date:
        raise Unprocessable(f"vendor {v.id}'s insurance ends {v.insurance_expires}, before the visit.")
