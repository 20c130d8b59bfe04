"""Statutory rules of the public_records service: the city's business-day calendar,
deadlines, the once-only extension, fees and closing a request.

Pure functions over dates and records, shared by the tools, the seed factory
and the generation hook.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache

from compoworld_gym.envs.services._blocks import Lifecycle
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._public_records_models import (
    CLOSED, EXEMPTIONS, FeeEstimate, FeeLine, RecordsRequest,
)
from compoworld_gym.errors import Conflict, Unprocessable

#: Business days to acknowledge a request, to answer it, and of the one extension.
ACK_DAYS, RESPONSE_DAYS, EXTENSION_DAYS = 3, 10, 10
#: Fee schedule (USD): a copied page, the media of an electronic release.
COPY_PRICE, MEDIA_PRICE = 0.10, 5.00
#: Which statuses each action may start from (a closed request is never among them).
REQUEST = Lifecycle("records request", {
    "acknowledge": ("received",), "start": ("acknowledged",), "extend": ("acknowledged", "in_progress"),
    "estimate": ("acknowledged", "in_progress"), "pay": ("acknowledged", "in_progress"),
    "waive": ("acknowledged", "in_progress"), "release": ("in_progress",), "close": ("acknowledged", "in_progress"),
    "withdraw": ("received", "acknowledged", "in_progress"),
    "note": ("received", "acknowledged", "in_progress")})


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> dt.date:
    first = dt.date(year, month, 1)
    if n > 0:
        return first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
    last = dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)
    return last - dt.timedelta(days=(last.weekday() - weekday) % 7)


def _observed(day: dt.date) -> dt.date:
    """A fixed-date holiday on a weekend is observed on the Friday before or the Monday after."""
    return day - dt.timedelta(days=1) if day.weekday() == 5 else day + dt.timedelta(days=1) if day.weekday() == 6 \
        else day


@lru_cache(maxsize=64)
def city_holidays(year: int) -> frozenset[dt.date]:
    """The city's closed days of ``year`` (US federal holidays, fixed dates observed off weekends)."""
    fixed = [dt.date(year, 1, 1), dt.date(year, 6, 19), dt.date(year, 7, 4), dt.date(year, 11, 11),
             dt.date(year, 12, 25)]
    floating = [_nth_weekday(year, 1, 0, 3), _nth_weekday(year, 2, 0, 3), _nth_weekday(year, 5, 0, -1),
                _nth_weekday(year, 9, 0, 1), _nth_weekday(year, 10, 0, 2), _nth_weekday(year, 11, 3, 4)]
    return frozenset([_observed(d) for d in fixed] + floating)


def is_business_day(day: dt.date) -> bool:
    """Monday to Friday and not a city holiday."""
    return day.weekday() < 5 and day not in city_holidays(day.year)


def add_business_days(day: dt.date, n: int) -> dt.date:
    """The ``n``-th business day after ``day`` (``n`` < 0 counts back)."""
    step = 1 if n >= 0 else -1
    left = abs(n)
    while left:
        day += dt.timedelta(days=step)
        if is_business_day(day):
            left -= 1
    return day


def business_days_between(start: dt.date, end: dt.date) -> int:
    """Business days after ``start`` up to and including ``end`` (negative when ``end`` is before)."""
    if end < start:
        return -business_days_between(end, start)
    return sum(1 for k in range(1, (end - start).days + 1) if is_business_day(start + dt.timedelta(days=k)))


def check_open(r: RecordsRequest, action: str) -> None:
    """Refuse ``action`` on a closed request, or from the wrong status.

    Raises:
        Conflict: 409 (a closed request cannot change).
    """
    if r.status in CLOSED:
        raise Conflict(f"records request {r.id} is closed ({r.status}); a closed request cannot change. "
                       "The requester may file a new request.")
    REQUEST.check(r.id, r.status, action)


def check_exemptions(codes: list[str]) -> None:
    """Raises Unprocessable (422) naming any code that is not an exemption of the statute."""
    unknown = [c for c in codes if c not in EXEMPTIONS]
    if unknown:
        raise Unprocessable(f"unknown exemption(s) {unknown}; cite codes from list_exemptions.")


def estimate(pages: int, extraction_cost: float, media: bool, today: dt.date) -> FeeEstimate:
    """The fee estimate of copying ``pages`` pages, ``extraction_cost`` USD of data extraction and a media.

    Raises:
        Unprocessable: 422 when nothing is charged.
    """
    lines = []
    if pages:
        lines.append(FeeLine(code="COPY", description="Copies", quantity=pages, unit_price=COPY_PRICE,
                             amount=money(pages * COPY_PRICE)))
    if extraction_cost:
        lines.append(FeeLine(code="EXTRACT", description="Data extraction (actual cost)", quantity=1,
                             unit_price=money(extraction_cost), amount=money(extraction_cost)))
    if media:
        lines.append(FeeLine(code="MEDIA", description="Electronic media", quantity=1, unit_price=MEDIA_PRICE,
                             amount=MEDIA_PRICE))
    total = money(sum(x.amount for x in lines))
    if total < 0.01:
        raise Unprocessable("a fee estimate needs pages, an extraction cost or media; with no fees, release "
                            "the records without one.")
    return FeeEstimate(lines=lines, total=total, status="pending", estimated_on=today)


def fees_due(r: RecordsRequest) -> float:
    """USD of a pending fee estimate (0 when none, paid or waived)."""
    return r.fee_estimate.total if r.fee_estimate is not None and r.fee_estimate.status == "pending" else 0.0


def check_fees_settled(r: RecordsRequest, what: str) -> None:
    """Raises Unprocessable (422) while a fee estimate is pending."""
    if fees_due(r):
        raise Unprocessable(f"records request {r.id} has a pending fee estimate of {fees_due(r):.2f}; it must be "
                            f"paid or waived before {what}.")


def check_close(r: RecordsRequest, outcome: str, exemptions: list[str]) -> None:
    """What each outcome needs: fulfilled releases records and withholds none; partially_fulfilled
    releases some and cites an exemption; denied releases none and cites one.

    Raises:
        Unprocessable: 422 naming what is missing.
    """
    check_exemptions(exemptions)
    cited = exemptions or [e for d in r.documents for e in d.exemptions]
    if outcome in ("fulfilled", "partially_fulfilled"):
        if not r.documents:
            raise Unprocessable(f"records request {r.id} has no released documents; release_document first, or "
                                "deny it citing an exemption.")
        check_fees_settled(r, "it is closed")
    if outcome == "fulfilled" and exemptions:
        raise Unprocessable("a fulfilled request withholds nothing; with exemptions it is partially_fulfilled.")
    if outcome == "partially_fulfilled" and not cited:
        raise Unprocessable("a partially fulfilled request cites the exemption for what was withheld or redacted.")
    if outcome == "denied":
        if r.documents:
            raise Unprocessable(f"records request {r.id} released documents; close it as partially_fulfilled.")
        if not exemptions:
            raise Unprocessable("a denial must cite at least one exemption (see list_exemptions).")
