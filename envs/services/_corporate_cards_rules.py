"""Rules of the corporate cards service: limit periods, spend against a limit and authorization.

A card's limit (``spending_restrictions.amount``) counts the card's PENDING
and CLEARED transactions whose time falls in the current interval (the day,
the calendar month, quarter or year, or the card's whole life for TOTAL);
DECLINED ones spend nothing. An authorization is declined (and recorded as
DECLINED, as Ramp records it) when the card is locked or terminated, the
merchant category is blocked, the amount is over the per-transaction limit,
or it is over what is left of the limit.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Callable, Iterable, Optional

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._corporate_cards_models import Card, CardTransaction
from compoworld_gym.errors import InvalidArgument

_RECEIPT = re.compile(r"^[\w .-]{1,120}\.(pdf|jpg|jpeg|png|heic)$", re.IGNORECASE)


def period_start(interval: str, today: dt.date) -> Optional[dt.date]:
    """First day of the limit's current interval; None for TOTAL (the card's whole life)."""
    if interval == "DAILY":
        return today
    if interval == "MONTHLY":
        return today.replace(day=1)
    if interval == "QUARTERLY":
        return dt.date(today.year, 3 * ((today.month - 1) // 3) + 1, 1)
    if interval == "YEARLY":
        return dt.date(today.year, 1, 1)
    return None


def spent(card: Card, transactions: Iterable[CardTransaction], today: dt.date) -> float:
    """What ``card`` spent in its limit's current interval: PENDING plus CLEARED amounts."""
    start = period_start(card.spending_restrictions.interval, today)
    return money(sum(t.amount for t in transactions if t.card_id == card.id and t.state != "DECLINED"
                     and (start is None or t.user_transaction_time.date() >= start)))


def limit_view(card: Card, transactions: Iterable[CardTransaction], today: dt.date) -> dict:
    """The card's limit as ``GET /limits`` reports it: amount, interval, period, spent and remaining."""
    rows = [t for t in transactions if t.card_id == card.id]
    start = period_start(card.spending_restrictions.interval, today)
    used = spent(card, rows, today)
    pending = money(sum(t.amount for t in rows if t.state == "PENDING"
                        and (start is None or t.user_transaction_time.date() >= start)))
    r = card.spending_restrictions
    return {"card_id": card.id, "cardholder_email": card.cardholder_email, "state": card.state,
            "amount": r.amount, "interval": r.interval, "transaction_amount_limit": r.transaction_amount_limit,
            "blocked_categories": list(r.blocked_categories), "period_start": start.isoformat() if start else None,
            "spent": used, "pending": pending, "cleared": money(used - pending),
            "remaining": money(max(0.0, r.amount - used))}


def decline_reason(card: Card, amount: float, category: str, used: float) -> Optional[str]:
    """Why an authorization of ``amount`` in ``category`` is refused, or None when it is approved."""
    if card.state == "TERMINATED":
        return "CARD_TERMINATED"
    if card.state == "SUSPENDED":
        return "CARD_SUSPENDED"
    r = card.spending_restrictions
    if category in r.blocked_categories:
        return "BLOCKED_CATEGORY"
    if r.transaction_amount_limit is not None and amount > r.transaction_amount_limit:
        return "TRANSACTION_AMOUNT_LIMIT"
    if money(used + amount) > r.amount:
        return "INSUFFICIENT_LIMIT"
    return None


def window(from_date: Optional[dt.date], to_date: Optional[dt.date], min_amount: Optional[float],
           max_amount: Optional[float], has_no_receipts: Optional[bool]) -> Callable[[CardTransaction], bool]:
    """The filter of ``GET /transactions``' date, amount and receipt parameters (None: no bound)."""
    def keep(t: CardTransaction) -> bool:
        day = t.user_transaction_time.date()
        return ((from_date is None or day >= from_date) and (to_date is None or day <= to_date)
                and (min_amount is None or t.amount >= min_amount) and (max_amount is None or t.amount <= max_amount)
                and (has_no_receipts is None or (not t.receipts) == has_no_receipts))
    return keep


def check_receipt_name(filename: str) -> str:
    """The receipt's file name, trimmed, if it names a PDF or image.

    Raises:
        InvalidArgument: 400, not a PDF, JPEG, PNG or HEIC file name.
    """
    name = filename.strip()
    if not _RECEIPT.match(name):
        raise InvalidArgument(f"receipt {filename!r} must be a PDF, JPG, PNG or HEIC file name, e.g. 'uber-0114.pdf'.")
    return name
