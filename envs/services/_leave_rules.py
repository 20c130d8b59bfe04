"""Booking rules of the leave service: allowances, the holiday calendar and day counting.

Pure functions over plain values and the state's collections, so the seed
factory charges seeded requests exactly as the tools charge new ones.
"""

from __future__ import annotations

import datetime as dt
from typing import Mapping

from compoworld_gym.envs.services._leave_models import Holiday, LeaveRequest

#: Yearly allowance in days; ``unpaid`` has no balance.
ALLOWANCE: dict[str, float] = {"vacation": 20.0, "sick": 10.0, "personal": 3.0}
TYPE_NOTES = {
    "vacation": "Paid vacation; book on or after today.",
    "sick": "Paid sick leave; may be backdated up to 30 days.",
    "personal": "Paid personal days; book on or after today.",
    "unpaid": "Unpaid leave; no balance, still needs approval.",
}
SICK_BACKDATE_DAYS = 30


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> dt.date:
    first = dt.date(year, month, 1)
    if n > 0:
        return first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
    nxt = dt.date(year + month // 12, month % 12 + 1, 1)
    last = nxt - dt.timedelta(days=1)
    return last - dt.timedelta(days=(last.weekday() - weekday) % 7)


def company_holidays(year: int) -> list[Holiday]:
    """The US company holidays of ``year`` (fixed dates are not shifted off weekends)."""
    thanks = _nth_weekday(year, 11, 3, 4)
    days = [
        (dt.date(year, 1, 1), "New Year's Day"), (_nth_weekday(year, 1, 0, 3), "Martin Luther King Jr. Day"),
        (_nth_weekday(year, 5, 0, -1), "Memorial Day"), (dt.date(year, 7, 4), "Independence Day"),
        (_nth_weekday(year, 9, 0, 1), "Labor Day"), (thanks, "Thanksgiving"),
        (thanks + dt.timedelta(days=1), "Day after Thanksgiving"), (dt.date(year, 12, 25), "Christmas Day"),
    ]
    return [Holiday(date=d, name=n) for d, n in days]


def working_days(start: dt.date, end: dt.date, holidays: Mapping[str, Holiday]) -> float:
    """Weekdays from ``start`` to ``end`` (inclusive) that are not in ``holidays`` (keyed by ISO date)."""
    # Offsets, not "d += 1 day while d <= end": that steps past date.max when end is 9999-12-31.
    return float(sum(1 for k in range((end - start).days + 1)
                     if (d := start + dt.timedelta(days=k)).weekday() < 5
                     and d.isoformat() not in holidays))


def pending_days(requests: Mapping[str, LeaveRequest], employee_id: str, leave_type: str,
                 exclude: str = "") -> float:
    """Days an employee has asked for in pending requests of one type (``exclude``: a request id to skip)."""
    return sum((r.days for r in requests.values() if r.employee_id == employee_id
                and r.leave_type == leave_type and r.status == "pending" and r.id != exclude), 0.0)
