"""Status machine and showing/offer rules of the listings service.

Example:
    >>> import datetime as dt
    >>> a = (dt.datetime(2026, 1, 16, 10, 0), dt.datetime(2026, 1, 16, 10, 45))
    >>> overlaps(a, (dt.datetime(2026, 1, 16, 10, 30), dt.datetime(2026, 1, 16, 11, 0)))
    True
    >>> overlaps(a, (dt.datetime(2026, 1, 16, 10, 45), dt.datetime(2026, 1, 16, 11, 0)))
    False
"""

from __future__ import annotations

import datetime as dt
from typing import Optional

from compoworld_gym.envs.services._listings_models import HistoryTransactional, Listing, Offer
from compoworld_gym.errors import Conflict, Unprocessable

#: ``update_listing_status`` moves: target -> statuses it may start from (Pending is
#: reached by accepting an offer, Closed by closing the sale).
STATUS_MOVES: dict[str, tuple[str, ...]] = {"Withdrawn": ("Active",), "Expired": ("Active",),
                                             "Active": ("Withdrawn", "Expired", "Pending")}
#: Hours a showing may take place in (start no earlier, end no later).
SHOWING_HOURS = (dt.time(8, 0), dt.time(20, 0))

Slot = tuple[dt.datetime, dt.datetime]


def overlaps(a: Slot, b: Slot) -> bool:
    """Whether two ``(start, end)`` slots share time (touching ends do not)."""
    return a[0] < b[1] and b[0] < a[1]


def require_marketable(listing: Listing, today: dt.date, action: str) -> None:
    """Refuse ``action`` unless the listing is Active with a listing agreement still running.

    Raises:
        Conflict: 409 naming the status, or the expired agreement.
    """
    if listing.standard_status != "Active":
        raise Conflict(f"listing {listing.id} is {listing.standard_status}; {action} needs an Active listing.")
    if listing.expiration_date < today:
        raise Conflict(f"the listing agreement of {listing.id} ended on {listing.expiration_date}; relist it "
                       "with a new expiration_date (or mark it Expired) first.")


def check_showing_slot(start: dt.datetime, end: dt.datetime, today: dt.date) -> None:
    """Refuse a showing in the past or outside showing hours (08:00-20:00 on one day).

    Raises:
        Unprocessable: 422 saying what is allowed.
    """
    if start.date() <= today:
        raise Unprocessable(f"showings are booked from tomorrow on; {start:%Y-%m-%d} is not after {today}.")
    if start.time() < SHOWING_HOURS[0] or end.date() != start.date() or end.time() > SHOWING_HOURS[1]:
        raise Unprocessable("a showing must start at 08:00 or later and end by 20:00 the same day.")


def check_offer_open(offer: Offer, today: dt.date, allowed: tuple[str, ...], action: str) -> None:
    """Refuse ``action`` on an offer not in ``allowed`` or past its expiration day.

    Raises:
        Conflict: 409 naming the status or the expiration.
    """
    if offer.status not in allowed:
        raise Conflict(f"offer {offer.id} is {offer.status}; {action} needs status {' or '.join(allowed)}.")
    if offer.offer_expiration_date < today:
        raise Conflict(f"offer {offer.id} expired on {offer.offer_expiration_date}; the buyer must submit a new one.")


def check_move(listing: Listing, target: str, expiration_date: Optional[dt.date], today: dt.date) -> None:
    """Refuse a status change the RESO status machine does not allow.

    Raises:
        Conflict: 409 for a move from the wrong status.
        Unprocessable: 422 for an Expired mark before the agreement ended, or a
            relist without an expiration day after today.
    """
    allowed = STATUS_MOVES[target]
    if listing.standard_status not in allowed:
        raise Conflict(f"listing {listing.id} is {listing.standard_status}; it can become {target} only from "
                       f"{' or '.join(allowed)}.")
    if target == "Expired" and listing.expiration_date >= today:
        raise Unprocessable(f"the listing agreement of {listing.id} runs through {listing.expiration_date}; "
                            "withdraw it instead.")
    if target == "Active" and listing.standard_status in ("Withdrawn", "Expired"):
        if expiration_date is None or expiration_date <= today:
            raise Unprocessable("relisting needs a new expiration_date after today.")


def log(listing: Listing, change_type: str, field: str, previous: Optional[object], new: object, day: dt.date) -> None:
    """Append a ``HistoryTransactional`` entry to the listing (values written as text)."""
    listing.history.append(HistoryTransactional(
        change_type=change_type, field_name=field, previous_value=None if previous is None else _text(previous),
        new_value=_text(new), modification_date=day))


def _text(value: object) -> str:
    return f"{value:.2f}" if isinstance(value, float) else str(value)
