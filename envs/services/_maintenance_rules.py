"""Rules of the maintenance service shared by its tools, seed and hook.

A work order's cost is its labor (hours at the technician's rate) plus its
parts (quantity at the unit cost when used). Work on decommissioned
equipment is refused everywhere; a meter triggers a work order when a
reading crosses its limit and none it opened is still open; a PM schedule
generates its next work order when due, unless the last one is still open.
"""

from __future__ import annotations

import datetime as dt
from typing import Callable, Optional

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._maintenance_models import (
    Equipment, MaintenanceState, Meter, PMSchedule, Priority, Technician, WorkCategory, WorkOrder,
)
from compoworld_gym.errors import Conflict


def recost(wo: WorkOrder) -> None:
    """Refresh a work order's labor hours and total cost from its labor and parts."""
    wo.labor_hours = round(sum(e.hours for e in wo.labor), 2)
    wo.total_cost = money(sum(e.cost for e in wo.labor) + sum(p.cost for p in wo.parts))


def workable(eq: Equipment, action: str) -> None:
    """Refuse ``action`` on decommissioned equipment.

    Raises:
        Conflict: 409 naming the equipment.
    """
    if eq.status == "decommissioned":
        raise Conflict(f"equipment {eq.id} ({eq.name}) is decommissioned; no {action} on it.")


def new_work_order(wid: str, eq: Equipment, *, title: str, priority: Priority, category: WorkCategory,
                   due: dt.date, today: dt.date, tech: Optional[Technician] = None, source: str = "manual",
                   description: str = "", requested_by: Optional[str] = None) -> WorkOrder:
    """An open work order on ``eq`` (validated), assigned to ``tech`` when given."""
    return WorkOrder(id=wid, title=title, description=description, priority=priority, status="open",
                     category=category, equipment_id=eq.id, location_id=eq.location_id, room_id=eq.room_id,
                     assigned_technician_id=tech.id if tech else None,
                     assigned_technician_email=tech.email if tech else None, requested_by=requested_by,
                     due_date=due, created_on=today, source=source)


def open_from(state: MaintenanceState, source: str) -> Optional[WorkOrder]:
    """The work order ``source`` (``pm:PM-0001``, ``meter:MTR-0002``) opened that is not complete, if any."""
    return next((w for w in state.work_orders.values() if w.source == source and w.status != "complete"), None)


def crosses(meter: Meter, value: float) -> bool:
    """Whether a reading is past the meter's trigger limit."""
    return ((meter.trigger_above is not None and value > meter.trigger_above)
            or (meter.trigger_below is not None and value < meter.trigger_below))


def pm_work_order(state: MaintenanceState, pm: PMSchedule, wid: str, today: dt.date) -> WorkOrder:
    """The preventive work order ``pm`` generates now (the schedule moves to its next due day)."""
    eq = state.equipment[pm.equipment_id]
    tech = state.technicians.get(pm.assigned_technician_id or "")
    wo = new_work_order(wid, eq, title=pm.title, priority=pm.priority, category="preventive",
                        due=max(pm.next_due_date, today), today=today, tech=tech, source=f"pm:{pm.id}",
                        description=f"Every {pm.interval_days} days.")
    pm.last_work_order_id = wo.id
    pm.next_due_date = pm.next_due_date + dt.timedelta(days=pm.interval_days)
    return wo


def run_due(state: MaintenanceState, day: dt.date, new_id: Callable[[], str], today: dt.date) -> dict:
    """Generate the work orders of every active schedule due by ``day``: ``{"created": [work orders],
    "skipped": [{"schedule_id", "reason"}]}`` (decommissioned equipment, or the last one still open)."""
    created, skipped = [], []
    for pm in state.schedules.values():
        if not pm.active or pm.next_due_date > day:
            continue
        busy = open_from(state, f"pm:{pm.id}")
        if state.equipment[pm.equipment_id].status == "decommissioned":
            skipped.append({"schedule_id": pm.id, "reason": "equipment decommissioned"})
        elif busy is not None:
            skipped.append({"schedule_id": pm.id, "reason": f"last work order {busy.id} is still {busy.status}"})
        else:
            wo = pm_work_order(state, pm, new_id(), today)
            state.work_orders[wo.id] = wo
            created.append(wo.model_dump())
    return {"created": created, "skipped": skipped}
