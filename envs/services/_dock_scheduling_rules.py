"""Business rules of the dock scheduling service (Opendock).

A door holds one appointment at a time (appointments that are not
Cancelled or NoShow block their slot); an appointment lies inside the
warehouse's opening hours of its day; it starts at least the warehouse's
minimum lead time from now and at most its maximum lead time ahead; the door
must be active and take the load type; a reference number is used by one
live appointment per warehouse.
"""

from __future__ import annotations

import datetime as dt
from typing import Iterable, Optional

from compoworld_gym.envs.services._dock_scheduling_models import (
    HOLDS_DOOR, WEEKDAYS, Appointment, Dock, DockSchedulingState, DockWarehouse, LoadType,
)
from compoworld_gym.errors import Conflict, Unprocessable

#: Slot grid of the availability search, minutes.
SLOT_MIN = 30


def hours_on(wh: DockWarehouse, day: dt.date) -> Optional[tuple[dt.datetime, dt.datetime]]:
    """The warehouse's (open, close) on ``day``, or None when closed."""
    h = wh.schedule.get(WEEKDAYS[day.weekday()])
    if h is None:
        return None
    return (dt.datetime.combine(day, dt.time.fromisoformat(h.open)),
            dt.datetime.combine(day, dt.time.fromisoformat(h.close)))


def overlapping(appts: Iterable[Appointment], dock_id: str, start: dt.datetime, end: dt.datetime,
                skip: Optional[str] = None) -> list[Appointment]:
    """Live appointments on ``dock_id`` overlapping [start, end), other than ``skip``."""
    return [a for a in appts if a.dock_id == dock_id and a.id != skip and a.status in HOLDS_DOOR
            and a.start < end and start < a.end]


def check_slot(state: DockSchedulingState, dock: Dock, lt: LoadType, start: dt.datetime, now: dt.datetime,
               skip: Optional[str] = None) -> dt.datetime:
    """Check a booking of ``lt`` on ``dock`` at ``start``; return its end. Raises before any change."""
    wh = state.warehouses[dock.warehouse_id]
    if not dock.is_active:
        raise Conflict(f"{dock.name} ({dock.id}) at {wh.name} is inactive; book another door.")
    if lt.id not in dock.load_type_ids:
        raise Unprocessable(f"{dock.name} ({dock.id}) does not take load type {lt.id} ({lt.name}).")
    end = start + dt.timedelta(minutes=lt.duration_min)
    hours = hours_on(wh, start.date())
    if hours is None:
        raise Unprocessable(f"{wh.name} is closed on {WEEKDAYS[start.weekday()].title()}s.")
    if start < hours[0] or end > hours[1]:
        raise Unprocessable(f"{wh.name} is open {hours[0]:%H:%M}-{hours[1]:%H:%M} on {start.date()}; a "
                            f"{lt.duration_min}-minute appointment at {start:%H:%M} does not fit.")
    if start < now + dt.timedelta(hours=wh.min_lead_time_hours):
        raise Unprocessable(f"{wh.name} needs {wh.min_lead_time_hours} hours' notice: book no earlier than "
                            f"{(now + dt.timedelta(hours=wh.min_lead_time_hours)).isoformat(timespec='minutes')}.")
    if start > now + dt.timedelta(days=wh.max_lead_time_days):
        raise Unprocessable(f"{wh.name} books at most {wh.max_lead_time_days} days ahead.")
    clash = overlapping(state.appointments.values(), dock.id, start, end, skip)
    if clash:
        raise Conflict(f"{dock.name} is taken {clash[0].start:%H:%M}-{clash[0].end:%H:%M} by appointment "
                       f"{clash[0].id}; pick a free slot (get_dock_availability).")
    return end


def check_ref(state: DockSchedulingState, warehouse_id: str, ref: str, skip: Optional[str] = None) -> None:
    """A reference number is used by one live appointment per warehouse."""
    dup = next((a for a in state.appointments.values() if a.warehouse_id == warehouse_id and a.id != skip
                and a.status in HOLDS_DOOR and a.status != "Completed" and a.ref_number.lower() == ref.lower()),
               None)
    if dup is not None:
        raise Conflict(f"reference number {ref} already has appointment {dup.id} at {warehouse_id}; reschedule "
                       "that one instead.")


def free_slots(state: DockSchedulingState, wh: DockWarehouse, lt: LoadType, day: dt.date,
               now: dt.datetime) -> list[dict]:
    """Every door's free start times on ``day`` for ``lt`` (30-minute grid)."""
    hours = hours_on(wh, day)
    if hours is None:
        return []
    out = []
    for dock in state.docks.values():
        if dock.warehouse_id != wh.id or not dock.is_active or lt.id not in dock.load_type_ids:
            continue
        t, starts = hours[0], []
        while t + dt.timedelta(minutes=lt.duration_min) <= hours[1]:
            end = t + dt.timedelta(minutes=lt.duration_min)
            if (t >= now + dt.timedelta(hours=wh.min_lead_time_hours)
                    and not overlapping(state.appointments.values(), dock.id, t, end)):
                starts.append(t.strftime("%H:%M"))
            t += dt.timedelta(minutes=SLOT_MIN)
        out.append({"dock_id": dock.id, "dock_name": dock.name, "start_times": starts})
    return out
