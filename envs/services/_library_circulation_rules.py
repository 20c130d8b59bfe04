"""Circulation rules of the library_circulation service, as plain functions of its state.

Kept apart from the tools so that each rule is written once: the patron
blocks a check-out and a hold both apply, the hold queue a check-in and a
cancellation both advance, the overdue fine a check-in, a renewal and a
lost-item declaration all settle.
"""

from __future__ import annotations

import datetime as dt
from typing import Callable, Optional

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._library_circulation_models import (
    FINE_BLOCK, HOLD_SHELF_DAYS, POLICIES, Fee, Hold, Item, LibraryState, Loan, Patron,
)
from compoworld_gym.errors import Unprocessable


def balance(state: LibraryState, patron_id: str) -> float:
    """What ``patron_id`` owes (USD): the remaining amount of their open fees."""
    return money(sum(f.remaining for f in state.fees.values() if f.patron_id == patron_id and f.status == "open"))


def open_loans(state: LibraryState, patron_id: str) -> list[Loan]:
    """The patron's loans still out, oldest first."""
    return [ln for ln in state.loans.values() if ln.patron_id == patron_id and ln.status == "open"]


def queue(state: LibraryState, item_id: str) -> list[Hold]:
    """The open holds of an item: the one awaiting pickup first, then by queue position."""
    holds = [h for h in state.holds.values() if h.item_id == item_id and h.status.startswith("open")]
    return sorted(holds, key=lambda h: (h.status != "open_awaiting_pickup", h.position or 0, h.id))


def renumber(state: LibraryState, item_id: str) -> None:
    """Close up the queue positions (1, 2, ...) of the item's holds not yet filled."""
    waiting = [h for h in queue(state, item_id) if h.status == "open_not_yet_filled"]
    for n, h in enumerate(waiting, start=1):
        h.position = n


def check_in_good_standing(state: LibraryState, p: Patron, today: dt.date, doing: str) -> None:
    """Refuse ``doing`` for an inactive or expired patron, or one owing more than the block limit.

    Raises:
        Unprocessable: 422 naming the block and how to lift it.
    """
    if not p.active:
        raise Unprocessable(f"patron {p.id} is inactive; reactivate the account with update_patron before {doing}.")
    if p.expiration_date < today:
        raise Unprocessable(f"patron {p.id}'s card expired on {p.expiration_date}; extend expiration_date with "
                            f"update_patron before {doing}.")
    owed = balance(state, p.id)
    if owed > FINE_BLOCK:
        raise Unprocessable(f"patron {p.id} owes {owed:.2f} in fees/fines, over the {FINE_BLOCK:.2f} limit; "
                            f"collect payment (pay_fee) before {doing}.")


def overdue_days(loan: Loan, today: dt.date) -> int:
    """Whole days past the due date (0 when not overdue or returned on time)."""
    end = loan.return_date or today
    return max(0, (end - loan.due_date).days)


def settle_overdue(state: LibraryState, loan: Loan, today: dt.date, new_id: Callable[[], str]) -> Optional[Fee]:
    """Stop the accrual of ``loan``'s overdue fine, billing it now if the nightly job never did.

    Args:
        state: the service state.
        loan: the loan being returned, renewed or declared lost.
        today: the day of the action.
        new_id: gives the id of a newly billed fee (called only when one is billed).

    Returns:
        The loan's overdue fee, or None when the loan was not overdue.
    """
    fee = next((f for f in state.fees.values() if f.loan_id == loan.id and f.fee_type == "overdue_fine"), None)
    if fee is not None:
        fee.accruing = False
        return fee
    days = max(0, (today - loan.due_date).days)
    if not days:
        return None
    policy = POLICIES[state.patrons[loan.patron_id].patron_group]
    amount = money(min(days * policy.fine_per_day, policy.max_fine))
    fee = Fee(id=new_id(), patron_id=loan.patron_id, loan_id=loan.id, item_id=loan.item_id, fee_type="overdue_fine",
              amount=amount, remaining=amount, status="open", payment_status="outstanding", created_on=today)
    state.fees[fee.id] = fee
    return fee


def next_for_shelf(state: LibraryState, item: Item, today: dt.date) -> Optional[Hold]:
    """Put ``item`` on the hold shelf for the first hold in its queue, or back on the shelf.

    Returns:
        The hold now awaiting pickup, or None when the queue was empty (item available).
    """
    waiting = [h for h in queue(state, item.id) if h.status == "open_not_yet_filled"]
    if not waiting:
        item.status = "available"
        return None
    first = waiting[0]
    first.status, first.position = "open_awaiting_pickup", None
    first.hold_shelf_expiration = today + dt.timedelta(days=HOLD_SHELF_DAYS)
    item.status = "on_hold_shelf"
    renumber(state, item.id)
    return first


def loan_view(state: LibraryState, loan: Loan, today: dt.date) -> dict:
    """A loan with its item, borrower, overdue days and the overdue fine still owed (USD)."""
    item, patron = state.items[loan.item_id], state.patrons[loan.patron_id]
    fine = next((f for f in state.fees.values() if f.loan_id == loan.id and f.fee_type == "overdue_fine"), None)
    days = overdue_days(loan, today)
    return {**loan.model_dump(), "item_barcode": item.barcode, "title": item.title,
            "patron_name": f"{patron.first_name} {patron.last_name}", "patron_email": patron.email,
            "guardian_email": patron.guardian_email, "overdue": loan.status == "open" and days > 0,
            "days_overdue": days, "fine_fee_id": fine.id if fine else None,
            "fine_owed": fine.remaining if fine else 0.0,
            "fine_accruing": bool(fine and fine.accruing),
            "holds_in_queue": len(queue(state, loan.item_id))}


def patron_view(state: LibraryState, p: Patron) -> dict:
    """A patron with their group's limits, loans out and balance owed."""
    policy = POLICIES[p.patron_group]
    return {**p.model_dump(), "full_name": f"{p.first_name} {p.last_name}", "loan_limit": policy.loan_limit,
            "loans_out": len(open_loans(state, p.id)), "balance_owed": balance(state, p.id),
            "blocked": balance(state, p.id) > FINE_BLOCK}
