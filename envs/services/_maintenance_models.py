"""Records of the maintenance service (UpKeep CMMS API style).

Locations, assets (here *equipment*), parts, work orders with labor and
parts used, preventive maintenance schedules and meters keep UpKeep's
resource and field names, snake_cased (``serialNumber`` is ``serial``,
``assignedToUser`` is ``assigned_technician_id``, ``dueDate`` is
``due_date``, ``minimumQuantity`` is ``minimum_quantity``).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Address, Date, DateTime, Email, Id, Money, PersonName, Sku
from compoworld_gym.service import Record, ServiceState

Priority = Literal["none", "low", "medium", "high"]
WorkOrderStatus = Literal["open", "in_progress", "on_hold", "complete"]
EquipmentStatus = Literal["operational", "down", "decommissioned"]
Category = Literal["hvac", "material_handling", "electrical", "building", "compressed_air"]
WorkCategory = Literal["corrective", "preventive", "meter", "inspection"]
#: Statuses each manual status change may start from (complete is reached by complete_work_order).
MOVES: dict[str, tuple[str, ...]] = {"in_progress": ("open", "on_hold"), "on_hold": ("open", "in_progress"),
                                     "open": ("on_hold",)}


class Location(Record):
    """A site: one of the company's warehouses or offices (UpKeep ``/locations``)."""

    id: str = Field(description="Site code: a warehouse (WH-EAST) or an office (SF-HQ).")
    name: str = Field(description="Site name.")
    kind: Literal["warehouse", "office"] = Field(description="warehouse or office.")
    address: Address = Field(description="Street address.")


class Equipment(Record):
    """An asset (UpKeep ``/assets``) at a site, with its serial number."""

    id: Id("equipment") = Field(description="Equipment id, e.g. EQ-0001.")
    name: str = Field(description="Asset name.")
    category: Category = Field(description="Asset category.")
    model: str = Field(description="Manufacturer and model.")
    serial: str = Field(description="Manufacturer's serial number (unique).")
    location_id: str = Field(description="Site code (see list_locations).")
    room_id: Optional[Id("room")] = Field(default=None, description="Meeting room it serves (room booking id).")
    device_entity_id: Optional[Id("device_entity")] = Field(default=None,
                                                            description="Its Home Assistant entity (thermostat).")
    status: EquipmentStatus = Field(description="operational, down or decommissioned.")
    install_date: Date = Field(description="Day installed.")
    decommission_reason: Optional[str] = Field(default=None, description="Why it was retired.")


class Technician(Record):
    """A user who can be assigned work: a field-service contractor or an in-house employee."""

    id: Id("technician") = Field(description="Field-service technician id (TEC-0001) or employee id (EMP-0007).")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work email.")
    kind: Literal["contractor", "employee"] = Field(description="Field-service contractor or in-house employee.")
    skills: list[str] = Field(default_factory=list, description="Trades.")
    hourly_rate: Money = Field(gt=0, description="USD per labor hour.")
    active: bool = Field(default=True, description="Inactive users cannot be assigned or log labor.")


class Part(Record):
    """A spare part in the stockroom (UpKeep ``/parts``)."""

    id: str = Field(description="Part id, e.g. PRT-0001.")
    sku: Sku = Field(description="Part number.")
    name: str = Field(description="Part name.")
    unit_cost: Money = Field(gt=0, description="USD per unit.")
    quantity_on_hand: int = Field(ge=0, description="Units in stock.")
    minimum_quantity: int = Field(ge=0, description="Reorder point.")


class LaborEntry(Record):
    """Time logged on a work order."""

    technician_id: Id("technician") = Field(description="Who worked.")
    hours: float = Field(gt=0, description="Hours worked.")
    rate: Money = Field(description="USD per hour.")
    cost: Money = Field(description="hours x rate.")
    logged_on: Date = Field(description="Day logged.")


class PartUsage(Record):
    """Parts taken from stock for a work order."""

    part_id: str = Field(description="The part.")
    sku: Sku = Field(description="Part number.")
    quantity: int = Field(ge=1, description="Units used.")
    unit_cost: Money = Field(description="USD per unit when used.")
    cost: Money = Field(description="quantity x unit_cost.")


class WorkOrder(Record):
    """A work order (UpKeep ``/work-orders``) on one piece of equipment."""

    id: Id("work_order") = Field(description="Work order id, e.g. WO-0001.")
    title: str = Field(description="What to do.")
    description: str = Field(default="", description="Details.")
    priority: Priority = Field(description="none, low, medium or high.")
    status: WorkOrderStatus = Field(description="open, in_progress, on_hold or complete.")
    category: WorkCategory = Field(description="corrective, preventive, meter or inspection.")
    equipment_id: Id("equipment") = Field(description="The equipment worked on.")
    location_id: str = Field(description="The equipment's site.")
    room_id: Optional[Id("room")] = Field(default=None, description="The meeting room the equipment serves.")
    assigned_technician_id: Optional[Id("technician")] = Field(default=None, description="Assigned user.")
    assigned_technician_email: Optional[Email] = Field(default=None, description="Assigned user's email.")
    requested_by: Optional[Email] = Field(default=None, description="Who asked for the work.")
    due_date: Date = Field(description="Day it is due.")
    created_on: Date = Field(description="Day created.")
    source: str = Field(default="manual", description="manual, pm:<schedule id> or meter:<meter id>.")
    labor: list[LaborEntry] = Field(default_factory=list, description="Time logged.")
    parts: list[PartUsage] = Field(default_factory=list, description="Parts used.")
    labor_hours: float = Field(default=0.0, ge=0, description="Sum of logged hours.")
    total_cost: Money = Field(default=0.0, ge=0, description="Labor plus parts (USD).")
    on_hold_reason: Optional[str] = Field(default=None, description="Why it is on hold.")
    completion_note: Optional[str] = Field(default=None, description="What was done (required to complete).")
    completed_on: Optional[Date] = Field(default=None, description="Day completed.")
    notes: list[str] = Field(default_factory=list, description="Comments, oldest first.")


class PMSchedule(Record):
    """A preventive maintenance schedule (UpKeep ``/preventive-maintenance``) generating work orders by interval."""

    id: str = Field(description="Schedule id, e.g. PM-0001.")
    equipment_id: Id("equipment") = Field(description="Equipment maintained.")
    title: str = Field(description="Title of the generated work orders.")
    interval_days: int = Field(ge=1, le=730, description="Days between work orders.")
    next_due_date: Date = Field(description="Due day of the next work order.")
    priority: Priority = Field(description="Priority of the generated work orders.")
    assigned_technician_id: Optional[Id("technician")] = Field(default=None, description="Default assignee.")
    last_work_order_id: Optional[Id("work_order")] = Field(default=None, description="Latest generated one.")
    active: bool = Field(default=True, description="Paused schedules generate nothing.")


class Reading(Record):
    """One meter reading."""

    value: float = Field(description="Value in the meter's units.")
    recorded_at: DateTime = Field(description="When it was taken.")


class Meter(Record):
    """A meter on equipment (UpKeep ``/meters``) whose readings can trigger a work order."""

    id: str = Field(description="Meter id, e.g. MTR-0001.")
    equipment_id: Id("equipment") = Field(description="Equipment measured.")
    name: str = Field(description="What it measures.")
    units: str = Field(description="Units, e.g. hours, degF, inWC.")
    cumulative: bool = Field(description="A running total (hour meter) that never goes down.")
    trigger_above: Optional[float] = Field(default=None, description="A reading above this opens a work order.")
    trigger_below: Optional[float] = Field(default=None, description="A reading below this opens a work order.")
    trigger_title: str = Field(description="Title of the work order a trigger opens.")
    trigger_priority: Priority = Field(default="high", description="Its priority.")
    readings: list[Reading] = Field(default_factory=list, description="Readings, oldest first.")


class MaintenanceState(ServiceState):
    """Sites, equipment, technicians, parts, work orders, PM schedules and meters."""

    locations: dict[str, Location] = Field(default_factory=dict, description="Sites by code.")
    equipment: dict[str, Equipment] = Field(default_factory=dict, description="Equipment by id.")
    technicians: dict[str, Technician] = Field(default_factory=dict, description="Assignable users by id.")
    parts: dict[str, Part] = Field(default_factory=dict, description="Parts by id.")
    work_orders: dict[str, WorkOrder] = Field(default_factory=dict, description="Work orders by id.")
    schedules: dict[str, PMSchedule] = Field(default_factory=dict, description="PM schedules by id.")
    meters: dict[str, Meter] = Field(default_factory=dict, description="Meters by id.")
