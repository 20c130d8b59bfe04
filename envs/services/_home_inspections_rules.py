"""Rules of the home_inspections service: fees, the schedule and the report summary.

A service's fee follows Spectora's fee modifiers: the base fee covers the
service's included square footage, each started 500 sq ft beyond adds the
per-500 fee, and a home built before 1950 adds the age fee. An inspector
takes one inspection at a time (non-cancelled inspections may not overlap)
and starts between 07:00 and 17:00. The report summary groups defects by
section and severity and totals the repair estimate ranges.
"""

from __future__ import annotations

import datetime as dt
from typing import Iterable

from compoworld_gym.envs.services._blocks import Lifecycle
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._home_inspections_models import (
    SEVERITIES, Defect, Inspection, ServiceOffering,
)

#: Which statuses each action on an inspection may start from.
INSPECTION = Lifecycle("inspection", {
    "confirm": ("unconfirmed",), "reschedule": ("unconfirmed", "confirmed"), "cancel": ("unconfirmed", "confirmed"),
    "add a service": ("unconfirmed", "confirmed"), "complete": ("confirmed",),
    "write the report": ("confirmed", "completed"), "publish": ("completed",)})
#: Earliest and latest start of an inspection.
FIRST_START, LAST_START = dt.time(7, 0), dt.time(17, 0)


def service_fee(s: ServiceOffering, square_feet: int, year_built: int) -> float:
    """The fee of service ``s`` for a home of ``square_feet`` built in ``year_built``."""
    fee = s.base_fee
    if s.sqft_included and square_feet > s.sqft_included:
        fee += s.fee_per_500_sqft * -(-(square_feet - s.sqft_included) // 500)
    if year_built < 1950:
        fee += s.pre_1950_fee
    return money(fee)


def overlaps(a_start: dt.datetime, a_minutes: int, b_start: dt.datetime, b_minutes: int) -> bool:
    """Whether two time spans overlap."""
    return a_start < b_start + dt.timedelta(minutes=b_minutes) and b_start < a_start + dt.timedelta(minutes=a_minutes)


def busy_with(inspections: Iterable[Inspection], inspector_id: str, start: dt.datetime, minutes: int,
              skip: str = "") -> list[str]:
    """Ids of the inspector's non-cancelled inspections that overlap ``start`` for ``minutes``."""
    return [i.id for i in inspections if i.inspector_id == inspector_id and i.id != skip
            and i.status != "cancelled" and overlaps(i.datetime, i.duration, start, minutes)]


def balance_due(i: Inspection) -> float:
    """What the client still owes."""
    return money(max(0.0, i.fee_total - i.amount_paid))


def summary(defects: list[Defect]) -> dict:
    """Counts by severity, defects by section (most serious first) and the repair estimate totals."""
    order = {s: n for n, s in enumerate(reversed(SEVERITIES))}
    by_section: dict[str, list[dict]] = {}
    for d in sorted(defects, key=lambda d: (order[d.severity], d.id)):
        by_section.setdefault(d.section, []).append(d.model_dump())
    return {"counts": {s: sum(d.severity == s for d in defects) for s in SEVERITIES},
            "defect_count": len(defects), "sections": by_section,
            "repair_estimate_low": money(sum(d.estimate_low for d in defects)),
            "repair_estimate_high": money(sum(d.estimate_high for d in defects))}


def split_estimate(total: float, parts: int) -> list[float]:
    """``total`` split into ``parts`` positive amounts in cents, largest first, summing exactly to it."""
    cents = round(total * 100)
    parts = max(1, min(parts, cents))
    weights = list(range(parts, 0, -1))
    shares = [cents * w // sum(weights) for w in weights]
    shares[0] += cents - sum(shares)
    return [s / 100 for s in shares]
