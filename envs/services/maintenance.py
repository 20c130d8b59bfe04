"""Maintenance (CMMS): equipment at the company's sites, work orders, preventive schedules and meters.

No CMMS server is in ``compoworld_gym/data/mcp_servers.jsonl`` (``spec_source
= None``); the interface follows the UpKeep API v2: ``/locations``,
``/assets`` (``name``, ``model``, ``serial``, ``location``, ``status``),
``/work-orders`` (``title``, ``priority`` none/low/medium/high, ``status``
open/in_progress/on_hold/complete, ``category``, ``asset``,
``assignedToUser``, ``dueDate``, labor ``time`` entries, ``parts`` used,
``completedDate``), ``/parts`` (``quantity`` on hand, ``minimumQuantity``,
``cost``), ``/preventive-maintenance`` schedules (cadence in days, next due
date) and ``/meters`` with readings and triggers. Sites are the warehouses
and offices other services know; assignable users are field_service's
technicians and the roster's logistics employees (see ``_maintenance_seed``).

Rules of the real product: open -> in_progress <-> on_hold, and complete only
from in_progress with labor hours logged and a completion note; putting work
on hold needs a reason; labor is logged on work in progress by an active
user; parts used cannot exceed the stock on hand; no work order, labor,
parts, reading or schedule on decommissioned equipment, and equipment with
open work orders cannot be decommissioned; a PM schedule does not generate
a new work order while its last one is still open; a meter reading past its
trigger opens one work order; hour meters never go down.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id
from compoworld_gym.envs.services._blocks import eq, select
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._maintenance_models import (
    MOVES, Category, Equipment, EquipmentStatus, LaborEntry, Location, MaintenanceState, Meter, Part, PartUsage,
    PMSchedule, Priority, Reading, Technician, WorkOrder, WorkOrderStatus,
)
from compoworld_gym.envs.services._maintenance_rules import (
    crosses, new_work_order, open_from, recost, run_due, workable,
)
from compoworld_gym.envs.services._maintenance_seed import build_state, seed_for
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Service, tool


class Maintenance(Service):
    """UpKeep-style CMMS for the company's warehouses and offices."""

    name = "maintenance"
    description = ("Maintenance management (UpKeep CMMS): equipment at the warehouses and offices, work orders "
                   "with labor and parts, preventive maintenance schedules and meter readings.")
    domain = "operations"
    spec_source = None
    State = MaintenanceState

    # ---------------------------------------------------------------- helpers
    def _wo(self, wid: str) -> WorkOrder:
        return self.lookup(self.state.work_orders, wid, "work order")

    def _eq(self, eid: str) -> Equipment:
        return self.lookup(self.state.equipment, eid, "equipment")

    def _tech(self, tid: str) -> Technician:
        t = self.lookup(self.state.technicians, tid, "technician")
        if not t.active:
            raise Conflict(f"technician {t.id} ({t.name}) is inactive; choose an active one (list_technicians).")
        return t

    def _open_wo(self, wid: str, action: str) -> tuple[WorkOrder, Equipment]:
        wo = self._wo(wid)
        if wo.status == "complete":
            raise Conflict(f"work order {wo.id} is complete; no {action} on it.")
        e = self.state.equipment[wo.equipment_id]
        workable(e, action)
        return wo, e

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Location])
    def list_locations(self) -> list[dict]:
        """The sites: warehouses (WH-EAST, WH-WEST, WH-CENT) and offices (SF-HQ, NY-01, AUS-01)."""
        return [loc.model_dump() for loc in self.state.locations.values()]

    @tool(read_only=True, returns=list[Equipment])
    def list_equipment(self, location_id: Optional[str] = None, category: Optional[Category] = None,
                       status: Optional[EquipmentStatus] = None, room_id: Optional[Id("room")] = None,
                       device_entity_id: Optional[Id("device_entity")] = None,
                       serial: Optional[str] = None) -> list[dict]:
        """List equipment by site, category, status, meeting room served, Home Assistant entity or serial.

        Args:
            location_id: a site code, e.g. WH-EAST or SF-HQ.
            category: hvac, material_handling, electrical, building or compressed_air.
            status: operational, down or decommissioned.
            room_id: the meeting room it serves, e.g. RM-0001.
            device_entity_id: its thermostat's entity id, e.g. climate.redwood.
            serial: the manufacturer's serial number.
        """
        return [e.model_dump() for e in select(self.state.equipment.values(), eq("location_id", location_id),
                                               eq("category", category), eq("status", status), eq("room_id", room_id),
                                               eq("device_entity_id", device_entity_id), eq("serial", serial))]

    @tool(read_only=True, returns=Equipment)
    def get_equipment(self, equipment_id: Id("equipment")) -> dict:
        """Get one piece of equipment with its open work orders, meters and PM schedules.

        Args:
            equipment_id: the equipment id, e.g. EQ-0008.
        """
        e = self._eq(equipment_id)
        return {**e.model_dump(),
                "open_work_orders": [w.id for w in self.state.work_orders.values()
                                     if w.equipment_id == e.id and w.status != "complete"],
                "meters": [m.id for m in self.state.meters.values() if m.equipment_id == e.id],
                "schedules": [p.id for p in self.state.schedules.values() if p.equipment_id == e.id]}

    @tool(read_only=True, returns=list[WorkOrder])
    def list_work_orders(self, status: Optional[WorkOrderStatus] = None,
                         equipment_id: Optional[Id("equipment")] = None,
                         technician_id: Optional[Id("technician")] = None, priority: Optional[Priority] = None,
                         location_id: Optional[str] = None, room_id: Optional[Id("room")] = None,
                         limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List work orders (without labor and parts detail) by status, equipment, assignee, priority, site or room.

        Args:
            status: open, in_progress, on_hold or complete.
            equipment_id: the equipment worked on.
            technician_id: the assigned user.
            priority: none, low, medium or high.
            location_id: the site code.
            room_id: the meeting room the equipment serves.
            limit: maximum number of work orders (1-200).
        """
        rows = select(self.state.work_orders.values(), eq("status", status), eq("equipment_id", equipment_id),
                      eq("assigned_technician_id", technician_id), eq("priority", priority),
                      eq("location_id", location_id), eq("room_id", room_id), limit=limit)
        return [w.model_dump(exclude={"labor", "parts", "notes"}) for w in rows]

    @tool(read_only=True, returns=WorkOrder)
    def get_work_order(self, work_order_id: Id("work_order")) -> dict:
        """Get one work order with its labor, parts, costs and notes.

        Args:
            work_order_id: the work order id, e.g. WO-0003.
        """
        return self._wo(work_order_id).model_dump()

    @tool(read_only=True, returns=list[Technician])
    def list_technicians(self, kind: Optional[Literal["contractor", "employee"]] = None,
                         active: Optional[bool] = None) -> list[dict]:
        """Users who can be assigned work: field-service contractors (TEC-...) and employees (EMP-...).

        Args:
            kind: contractor or employee.
            active: only active (true) or inactive (false) users.
        """
        return [t.model_dump() for t in select(self.state.technicians.values(), eq("kind", kind), eq("active", active))]

    @tool(read_only=True, returns=list[Part])
    def list_parts(self, low_stock: bool = False) -> list[dict]:
        """Spare parts with stock on hand; low_stock keeps those at or below their minimum quantity.

        Args:
            low_stock: only parts at or below their reorder point.
        """
        return [p.model_dump() for p in self.state.parts.values()
                if not low_stock or p.quantity_on_hand <= p.minimum_quantity]

    @tool(read_only=True, returns=list[PMSchedule])
    def list_preventive_maintenance(self, equipment_id: Optional[Id("equipment")] = None) -> list[dict]:
        """Preventive maintenance schedules, optionally of one piece of equipment.

        Args:
            equipment_id: the equipment.
        """
        return [p.model_dump() for p in select(self.state.schedules.values(), eq("equipment_id", equipment_id))]

    @tool(read_only=True, returns=list[Meter])
    def list_meters(self, equipment_id: Optional[Id("equipment")] = None) -> list[dict]:
        """Meters with their trigger limits and readings, optionally of one piece of equipment.

        Args:
            equipment_id: the equipment.
        """
        return [m.model_dump() for m in select(self.state.meters.values(), eq("equipment_id", equipment_id))]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=WorkOrder)
    def create_work_order(self, equipment_id: Id("equipment"), title: str = Field(min_length=3, max_length=160),
                          priority: Priority = "medium", due_date: Optional[Date] = None,
                          description: str = Field(default="", max_length=1000),
                          category: Literal["corrective", "inspection"] = "corrective",
                          assigned_technician_id: Optional[Id("technician")] = None,
                          requested_by: Optional[Email] = None) -> dict:
        """Open a work order on equipment that is not decommissioned.

        Args:
            equipment_id: the equipment.
            title: what to do.
            priority: none, low, medium or high.
            due_date: due day (YYYY-MM-DD), not before today; default today.
            description: details.
            category: corrective or inspection.
            assigned_technician_id: an active user (TEC-... or EMP-...).
            requested_by: who asked for the work.
        """
        e = self._eq(equipment_id)
        workable(e, "new work order")
        if due_date is not None and due_date < self.today:
            raise Unprocessable(f"due_date {due_date} is before today.")
        tech = self._tech(assigned_technician_id) if assigned_technician_id else None
        wo = new_work_order(self.new_id("WO"), e, title=title, priority=priority, category=category,
                            due=due_date or self.today, today=self.today, tech=tech, description=description,
                            requested_by=requested_by)
        self.state.work_orders[wo.id] = wo
        return wo.model_dump()

    @tool(read_only=False, returns=WorkOrder)
    def assign_work_order(self, work_order_id: Id("work_order"), technician_id: Id("technician")) -> dict:
        """Assign an open work order to an active user.

        Args:
            work_order_id: a work order not complete.
            technician_id: TEC-... (field-service contractor) or EMP-... (employee).
        """
        wo, _ = self._open_wo(work_order_id, "assignment")
        t = self._tech(technician_id)
        if wo.assigned_technician_id == t.id:
            raise Conflict(f"work order {wo.id} is already assigned to {t.id}.")
        wo.assigned_technician_id, wo.assigned_technician_email = t.id, t.email
        return wo.model_dump()

    @tool(read_only=False, returns=WorkOrder)
    def update_work_order_status(self, work_order_id: Id("work_order"),
                                 status: Literal["open", "in_progress", "on_hold"],
                                 reason: Optional[str] = Field(default=None, max_length=300)) -> dict:
        """Start (in_progress), pause (on_hold, with a reason) or reopen (open) a work order.

        Completing is complete_work_order.

        Args:
            work_order_id: the work order.
            status: in_progress (from open or on_hold), on_hold (from open or in_progress) or open (from on_hold).
            reason: why it is on hold (required for on_hold).
        """
        wo, _ = self._open_wo(work_order_id, "status change")
        if wo.status not in MOVES[status]:
            raise Conflict(f"work order {wo.id} is {wo.status}; {status} needs status {' or '.join(MOVES[status])}.")
        if status == "on_hold" and not reason:
            raise Unprocessable("say why the work order is on hold in reason (e.g. waiting for a part).")
        if status == "in_progress" and wo.assigned_technician_id is None:
            raise Unprocessable(f"work order {wo.id} has no assignee; assign it before starting.")
        wo.status, wo.on_hold_reason = status, reason if status == "on_hold" else None
        return wo.model_dump()

    @tool(read_only=False, returns=WorkOrder)
    def log_labor(self, work_order_id: Id("work_order"), technician_id: Id("technician"),
                  hours: float = Field(ge=0.25, le=16)) -> dict:
        """Log hours an active user worked on a work order in progress (costed at their hourly rate).

        Args:
            work_order_id: a work order in progress.
            technician_id: who worked.
            hours: hours worked (0.25-16).
        """
        wo, _ = self._open_wo(work_order_id, "labor")
        if wo.status != "in_progress":
            raise Conflict(f"work order {wo.id} is {wo.status}; start it (in_progress) before logging labor.")
        t = self._tech(technician_id)
        wo.labor.append(LaborEntry(technician_id=t.id, hours=hours, rate=t.hourly_rate,
                                   cost=money(hours * t.hourly_rate), logged_on=self.today))
        recost(wo)
        return wo.model_dump()

    @tool(read_only=False, returns=WorkOrder)
    def add_parts_to_work_order(self, work_order_id: Id("work_order"), part_id: str,
                                quantity: int = Field(ge=1, le=500)) -> dict:
        """Take parts from stock for a work order; never more than the quantity on hand (422).

        Args:
            work_order_id: a work order not complete.
            part_id: the part, e.g. PRT-0003 (see list_parts).
            quantity: units used.
        """
        wo, _ = self._open_wo(work_order_id, "parts")
        p = self.lookup(self.state.parts, part_id, "part")
        if quantity > p.quantity_on_hand:
            raise Unprocessable(f"only {p.quantity_on_hand} of {p.sku} ({p.name}) are in stock; order more first.")
        p.quantity_on_hand -= quantity
        wo.parts.append(PartUsage(part_id=p.id, sku=p.sku, quantity=quantity, unit_cost=p.unit_cost,
                                  cost=money(quantity * p.unit_cost)))
        recost(wo)
        return {**wo.model_dump(), "part_quantity_left": p.quantity_on_hand}

    @tool(read_only=False, returns=WorkOrder)
    def complete_work_order(self, work_order_id: Id("work_order"),
                            completion_note: str = Field(default="", max_length=1000)) -> dict:
        """Complete a work order in progress: it needs logged labor hours and a completion note (422).

        Args:
            work_order_id: a work order in progress.
            completion_note: what was done (at least 10 characters).
        """
        wo, e = self._open_wo(work_order_id, "completion")
        if wo.status != "in_progress":
            raise Conflict(f"work order {wo.id} is {wo.status}; only work in progress can be completed.")
        if wo.labor_hours <= 0:
            raise Unprocessable(f"work order {wo.id} has no labor hours; log the time worked (log_labor) first.")
        if len(completion_note.strip()) < 10:
            raise Unprocessable("a completed work order needs a completion note saying what was done.")
        wo.status, wo.completion_note, wo.completed_on = "complete", completion_note.strip(), self.today
        if e.status == "down" and not any(w.equipment_id == e.id and w.status != "complete"
                                          for w in self.state.work_orders.values()):
            e.status = "operational"  # the last open repair brings the asset back
        return wo.model_dump()

    @tool(read_only=False, returns=WorkOrder)
    def add_work_order_note(self, work_order_id: Id("work_order"), note: str = Field(min_length=1, max_length=500)
                            ) -> dict:
        """Add a comment to a work order.

        Args:
            work_order_id: the work order.
            note: the comment.
        """
        wo = self._wo(work_order_id)
        wo.notes.append(note)
        return wo.model_dump()

    @tool(read_only=False, returns=PMSchedule)
    def create_preventive_maintenance(self, equipment_id: Id("equipment"),
                                      title: str = Field(min_length=3, max_length=160),
                                      interval_days: int = Field(ge=1, le=730), start_date: Optional[Date] = None,
                                      priority: Priority = "medium",
                                      assigned_technician_id: Optional[Id("technician")] = None) -> dict:
        """Schedule preventive maintenance every ``interval_days`` from ``start_date``.

        Args:
            equipment_id: equipment that is not decommissioned.
            title: title of the generated work orders.
            interval_days: days between work orders (1-730).
            start_date: first due day, not before today (default today).
            priority: priority of the generated work orders.
            assigned_technician_id: default assignee.
        """
        e = self._eq(equipment_id)
        workable(e, "preventive maintenance")
        if start_date is not None and start_date < self.today:
            raise Unprocessable(f"start_date {start_date} is before today.")
        tech = self._tech(assigned_technician_id).id if assigned_technician_id else None
        pm = PMSchedule(id=self.new_id("PM"), equipment_id=e.id, title=title, interval_days=interval_days,
                        next_due_date=start_date or self.today, priority=priority, assigned_technician_id=tech)
        self.state.schedules[pm.id] = pm
        return pm.model_dump()

    @tool(read_only=False, returns=list[WorkOrder])
    def run_preventive_maintenance(self, as_of: Optional[Date] = None) -> dict:
        """Generate the work orders of every active schedule due by ``as_of``; skipped ones say why.

        A schedule whose last work order is still open, or whose equipment is decommissioned,
        generates nothing.

        Args:
            as_of: generate what is due up to this day (today to 30 days ahead; default today).
        """
        day = as_of or self.today
        if not self.today <= day <= self.today + dt.timedelta(days=30):
            raise Unprocessable("as_of must be between today and 30 days ahead.")
        return run_due(self.state, day, lambda: self.new_id("WO"), self.today)

    @tool(read_only=False, returns=Meter)
    def add_meter_reading(self, meter_id: str, value: float = Field(ge=-1000, le=10**7)) -> dict:
        """Record a meter reading; past the meter's trigger limit it opens a work order (one at a time).

        Args:
            meter_id: the meter, e.g. MTR-0001 (see list_meters).
            value: the reading in the meter's units (an hour meter never goes down).
        """
        m = self.lookup(self.state.meters, meter_id, "meter")
        e = self.state.equipment[m.equipment_id]
        workable(e, "meter reading")
        last = m.readings[-1].value if m.readings else None
        if m.cumulative and last is not None and value < last:
            raise Unprocessable(f"{m.name} of {e.id} reads {last} {m.units}; a running total cannot go down.")
        m.readings.append(Reading(value=value, recorded_at=self.now()))
        opened = None
        if crosses(m, value) and open_from(self.state, f"meter:{m.id}") is None:
            wo = new_work_order(self.new_id("WO"), e, title=m.trigger_title, priority=m.trigger_priority,
                                category="meter", due=self.today, today=self.today, source=f"meter:{m.id}",
                                description=f"{m.name} read {value} {m.units}.")
            self.state.work_orders[wo.id] = wo
            opened = wo.id
        return {**m.model_dump(), "work_order_opened": opened}

    @tool(read_only=False, returns=Equipment)
    def set_equipment_status(self, equipment_id: Id("equipment"), status: EquipmentStatus,
                             reason: Optional[str] = Field(default=None, max_length=300)) -> dict:
        """Mark equipment operational, down or decommissioned (final; needs a reason and no open work orders).

        Args:
            equipment_id: the equipment.
            status: operational, down or decommissioned.
            reason: why (required to decommission).
        """
        e = self._eq(equipment_id)
        workable(e, "status change")
        if e.status == status:
            raise Conflict(f"equipment {e.id} is already {status}.")
        if status == "decommissioned":
            busy = [w.id for w in self.state.work_orders.values() if w.equipment_id == e.id and w.status != "complete"]
            if busy:
                raise Conflict(f"equipment {e.id} has open work orders ({', '.join(busy)}); complete them first.")
            if not reason:
                raise Unprocessable("give the reason the equipment is decommissioned.")
            e.decommission_reason = reason
        e.status = status
        return e.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> MaintenanceState:
        """Seeded state on field_service's technicians and the HR roster for the same seed."""
        return seed_for(seed, today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> MaintenanceState:
        return build_state(fake, rng, today, None, rng.randrange(2**31))


__all__ = ["Maintenance"]
