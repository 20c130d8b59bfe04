"""Rules of the fixed assets service: straight-line depreciation by month.

Depreciation uses the full-month convention of both products: an asset
depreciates from the month it is placed in service, one period per month
end passed. The monthly amount is ``(cost - residual value) / useful life
months``, rounded to cents; the last period takes the rounding so that a
fully depreciated asset stands at exactly its residual value. A disposed
asset depreciates through the month before its disposal. Figures are
computed from the asset's fields whenever they are read.
"""

from __future__ import annotations

import datetime as dt
from typing import Optional

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._fixed_assets_models import FixedAsset


def months_between(start: dt.date, end: dt.date) -> int:
    """Month ends passed from the start of ``start``'s month to the start of ``end``'s month."""
    return (end.year - start.year) * 12 + (end.month - start.month)


def monthly_amount(a: FixedAsset) -> float:
    """One period's depreciation (USD)."""
    return money((a.cost - a.residual_value) / a.useful_life_months)


def periods(a: FixedAsset, as_of: dt.date, disposed_on: Optional[dt.date] = None) -> int:
    """Periods depreciated as of ``as_of`` (none while pending; capped at the life and at disposal)."""
    if a.in_service_date is None:
        return 0
    end = min(as_of, disposed_on) if disposed_on else as_of
    return max(0, min(a.useful_life_months, months_between(a.in_service_date, end)))


def accumulated(a: FixedAsset, n: int) -> float:
    """Accumulated depreciation after ``n`` periods (the last period takes the rounding)."""
    if n >= a.useful_life_months:
        return money(a.cost - a.residual_value)
    return money(monthly_amount(a) * n)


def figures(a: FixedAsset, as_of: dt.date, disposed_on: Optional[dt.date] = None) -> dict:
    """Periods, monthly amount, accumulated depreciation, net book value and remaining life as of ``as_of``."""
    n = periods(a, as_of, disposed_on)
    acc = accumulated(a, n)
    return {"as_of": as_of, "periods_depreciated": n, "monthly_depreciation": monthly_amount(a),
            "accumulated_depreciation": acc, "net_book_value": money(a.cost - acc),
            "remaining_life_months": a.useful_life_months - n if a.in_service_date else a.useful_life_months,
            "fully_depreciated": n >= a.useful_life_months}


def schedule(a: FixedAsset, disposed_on: Optional[dt.date], today: dt.date) -> list[dict]:
    """The asset's depreciation schedule: one row per period of its life (to disposal, if disposed)."""
    if a.in_service_date is None:
        return []
    rows, y, m = [], a.in_service_date.year, a.in_service_date.month
    last = a.useful_life_months if disposed_on is None else periods(a, disposed_on, disposed_on)
    for n in range(1, last + 1):
        acc = accumulated(a, n)
        month_end = dt.date(y + (m - 1 + n) // 12, (m - 1 + n) % 12 + 1, 1) - dt.timedelta(days=1)
        rows.append({"period": month_end.strftime("%Y-%m"), "period_end": month_end,
                     "depreciation": money(acc - accumulated(a, n - 1)), "accumulated_depreciation": acc,
                     "net_book_value": money(a.cost - acc), "posted": month_end < today})
    return rows
