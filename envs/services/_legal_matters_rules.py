"""Business rules of the legal matters service, as Clio applies them (see ``legal_matters.py``).

Time is kept in 0.1-hour (6-minute) increments and never in the future; a
closed matter takes no new activity and cannot be edited (409); a matter
cannot be closed while it has unbilled billable activity or a draft bill
(422); only attorneys are responsible for matters (422); a billed activity
cannot be deleted (409); a payment cannot exceed a bill's balance (422);
voiding a bill releases its activities.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable, Optional

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._legal_matters_models import Activity, Bill, LegalMattersState, Matter, User
from compoworld_gym.errors import Conflict, NotFound, Unprocessable

#: Days from issue to due date of a bill unless one is given.
BILL_TERMS_DAYS = 30


def unbilled(state: LegalMattersState, matter_id: str) -> list[Activity]:
    """The billable activities of a matter not on any bill, in id order."""
    return [a for a in state.activities.values() if a.matter_id == matter_id and a.billable and a.bill_id is None]


def matter_view(state: LegalMattersState, m: Matter) -> dict:
    """A matter with its billing summary: unbilled hours and amount, outstanding balance (USD)."""
    work = unbilled(state, m.id)
    owed = [b.balance for b in state.bills.values() if b.matter_id == m.id and b.state == "awaiting_payment"]
    return {**m.model_dump(), "unbilled_hours": round(sum(a.quantity for a in work if a.type == "TimeEntry"), 1),
            "unbilled_amount": money(sum(a.total for a in work)), "outstanding_balance": money(sum(owed))}


def find_user(state: LegalMattersState, email: str, attorney: bool = False) -> User:
    """The firm user with ``email`` (any case); with ``attorney``, one who is an attorney.

    Raises:
        NotFound: 404 for an unknown email.
        Unprocessable: 422 for a paralegal where an attorney is needed.
    """
    u = next((u for u in state.users.values() if u.email.lower() == email.lower()), None)
    if u is None:
        raise NotFound(f"no user with email {email!r}; call list_users for valid emails.")
    if attorney and u.role != "attorney":
        raise Unprocessable(f"{u.email} is a {u.role}; only an attorney can be responsible for a matter.")
    return u


def dated(day: dt.date, today: dt.date) -> dt.date:
    """``day`` for an activity, which is never after ``today``.

    Raises:
        Unprocessable: 422 for a future day.
    """
    if day > today:
        raise Unprocessable(f"date {day} is in the future; activity is recorded on or before {today}.")
    return day


def check_increment(hours: float) -> None:
    """Time is kept in 0.1-hour (6-minute) increments.

    Raises:
        Unprocessable: 422 for hours that are not a multiple of 0.1.
    """
    if abs(hours * 10 - round(hours * 10)) > 1e-6:
        raise Unprocessable(f"hours {hours} is not a multiple of 0.1 (6-minute increments).")


def check_closable(state: LegalMattersState, m: Matter) -> None:
    """A matter closes only with no unbilled billable activity and no draft bill.

    Raises:
        Unprocessable: 422 naming what is left.
    """
    work = unbilled(state, m.id)
    drafts = [b.id for b in state.bills.values() if b.matter_id == m.id and b.state == "draft"]
    if work or drafts:
        raise Unprocessable(f"matter {m.id} has {len(work)} unbilled activities and draft bills {drafts}; "
                            "generate and issue a bill (or void the draft) before closing it.")


def ieq_blank(field: str, value: Optional[str]) -> Optional[Callable[[Any], bool]]:
    """A ``_blocks`` filter: records whose optional text ``field`` equals ``value`` ignoring case (a missing
    field matches nothing); None when ``value`` is None."""
    if value is None:
        return None
    wanted = value.lower()
    return lambda r: (getattr(r, field) or "").lower() == wanted


def change_status(state: LegalMattersState, m: Matter, status: str, today: dt.date) -> None:
    """Move matter ``m`` to ``status`` on ``today``: closing dates it (and needs :func:`check_closable`),
    pending dates that, reopening clears the close date. A closed matter reopens to open only.

    Raises:
        Conflict: 409 for the same status, or closed to pending.
        Unprocessable: 422 from :func:`check_closable`.
    """
    if m.status == status:
        raise Conflict(f"matter {m.id} is already {status}.")
    if m.status == "closed" and status == "pending":
        raise Conflict(f"matter {m.id} is closed; reopen it to 'open' first.")
    if status == "closed":
        check_closable(state, m)
        m.close_date = today
    elif status == "pending":
        m.pending_date = today
    else:
        m.close_date = None
    m.status = status


def issue_due(b: Bill, due_at: Optional[dt.date], today: dt.date) -> dt.date:
    """The due date of draft bill ``b`` issued ``today``: ``due_at``, else :data:`BILL_TERMS_DAYS` later.

    Raises:
        Conflict: 409 when ``b`` is not a draft.
        Unprocessable: 422 for a due date before today.
    """
    if b.state != "draft":
        raise Conflict(f"bill {b.id} is {b.state}; only a draft bill can be issued.")
    due = due_at or today + dt.timedelta(days=BILL_TERMS_DAYS)
    if due < today:
        raise Unprocessable(f"due_at {due} is before today ({today}).")
    return due


def apply_payment(b: Bill, amount: float) -> None:
    """Record ``amount`` (USD) paid on bill ``b``, which is awaiting payment; paid in full, it is paid.

    Raises:
        Conflict: 409 when ``b`` is not awaiting payment.
        Unprocessable: 422 for more than the balance.
    """
    if b.state != "awaiting_payment":
        raise Conflict(f"bill {b.id} is {b.state}; payments are recorded on bills awaiting payment.")
    amount = money(amount)
    if amount > b.balance:
        raise Unprocessable(f"payment {amount:.2f} exceeds the balance {b.balance:.2f} of bill {b.id}.")
    b.paid, b.balance = money(b.paid + amount), money(b.balance - amount)
    if b.balance == 0:
        b.state = "paid"


def void(state: LegalMattersState, b: Bill) -> None:
    """Void bill ``b``, which has no payment on it; its activities become unbilled again.

    Raises:
        Conflict: 409 for a paid, void or partly paid bill.
    """
    if b.state in ("paid", "void") or b.paid > 0:
        raise Conflict(f"bill {b.id} is {b.state} with {b.paid:.2f} paid; only an unpaid bill can be voided.")
    for aid in b.activity_ids:
        state.activities[aid].bill_id = None
    b.state = "void"
