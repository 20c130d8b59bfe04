"""Records of the dock scheduling service (Opendock / Loadsmart Neutron API style).

Opendock's ``Warehouse`` (``name``, ``timezone``, ``schedule``, the
scheduling lead-time settings), ``Dock`` (``warehouseId``, ``name``,
``doorNumber``, ``loadTypeIds``, ``isActive``), ``LoadType`` (``name``,
``direction``, ``operation``, ``equipmentType``, ``duration_min``) and
``Appointment`` (``dockId``, ``loadTypeId``, ``start``, ``end``, ``status``,
``refNumber``, carrier, ``customFields``, ``notes``, ``statusTimeline``,
``cancelReason``), snake_cased. Times are the warehouse's local time.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import City, CompanyName, DateTime, Email, Id
from compoworld_gym.service import Record, ServiceState

AppointmentStatus = Literal["Requested", "Scheduled", "Arrived", "InProgress", "Completed", "Cancelled", "NoShow"]
Direction = Literal["Inbound", "Outbound"]
#: Statuses whose appointment still holds its door.
HOLDS_DOOR = ("Requested", "Scheduled", "Arrived", "InProgress", "Completed")
#: Forward status moves (Opendock's status flow); Cancelled has its own tool.
NEXT_STATUS = {"Requested": ("Scheduled",), "Scheduled": ("Arrived", "NoShow"), "Arrived": ("InProgress",),
               "InProgress": ("Completed",)}
#: The ``statusTimeline`` key of each status.
TIMELINE_KEY = {"Requested": "requested", "Scheduled": "scheduled", "Arrived": "arrived",
                "InProgress": "in_progress", "Completed": "completed", "Cancelled": "cancelled", "NoShow": "no_show"}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


class OpenHours(Record):
    """One day's opening hours of a warehouse (Opendock ``schedule``)."""

    open: str = Field(description="Opening time, HH:MM local.")
    close: str = Field(description="Closing time, HH:MM local.")


class DockWarehouse(Record):
    """A warehouse (Opendock ``Warehouse``): hours and scheduling settings."""

    id: Id("warehouse") = Field(description="Warehouse code, e.g. WH-EAST (the WMS code).")
    name: str = Field(description="Warehouse name, e.g. East Coast DC.")
    city: City = Field(description="City.")
    timezone: str = Field(description="IANA timezone of the schedule.")
    schedule: dict[str, Optional[OpenHours]] = Field(description="Opening hours per weekday (monday..sunday); "
                                                                 "null: closed.")
    min_lead_time_hours: int = Field(ge=0, description="An appointment starts at least this many hours from now.")
    max_lead_time_days: int = Field(ge=1, description="An appointment starts at most this many days ahead.")
    contact_email: Email = Field(description="The dock office's email.")


class LoadType(Record):
    """A load type (Opendock ``LoadType``): what is delivered and how long the door is held."""

    id: str = Field(description="Load type id, e.g. LT-0001.")
    name: str = Field(description="Load type name.")
    direction: Direction = Field(description="Inbound or Outbound.")
    operation: Literal["Live", "Drop"] = Field(description="Live unload/load or trailer drop.")
    equipment_type: Literal["Dry Van", "Reefer", "Flatbed", "Container"] = Field(description="Equipment.")
    duration_min: int = Field(ge=15, description="Minutes the door is held.")


class Dock(Record):
    """A dock door (Opendock ``Dock``)."""

    id: Id("dock_door") = Field(description="Dock door id, e.g. DOOR-0001.")
    warehouse_id: Id("warehouse") = Field(description="The warehouse.")
    name: str = Field(description="Door name, e.g. Door 3.")
    door_number: int = Field(ge=1, description="Door number at the warehouse.")
    load_type_ids: list[str] = Field(description="Load types the door takes.")
    is_active: bool = Field(default=True, description="An inactive door (repairs) takes no appointments.")


class CustomField(Record):
    """A custom appointment field (Opendock ``customFields``): a label and a value."""

    label: str = Field(description="Field label, e.g. Inbound Shipment, Freight Booking, Trailer Number.")
    value: str = Field(description="Field value.")


class Appointment(Record):
    """A dock appointment (Opendock ``Appointment``)."""

    id: Id("dock_appointment") = Field(description="Appointment id, e.g. APT-0001.")
    warehouse_id: Id("warehouse") = Field(description="The warehouse.")
    dock_id: Id("dock_door") = Field(description="The door booked.")
    dock_name: str = Field(description="The door's name.")
    load_type_id: str = Field(description="The load type.")
    start: DateTime = Field(description="Start, warehouse local time.")
    end: DateTime = Field(description="End (start plus the load type's duration).")
    status: AppointmentStatus = Field(description="Requested -> Scheduled -> Arrived -> InProgress -> Completed; "
                                                  "or Cancelled (before arrival) or NoShow.")
    ref_number: str = Field(description="Reference number: the purchase order number (or the BOL).")
    purchase_order_id: Optional[Id("purchase_order")] = Field(default=None, description="The PO delivered, if any.")
    carrier_name: CompanyName = Field(description="The trucking carrier.")
    carrier_email: Email = Field(description="The carrier's dispatch email.")
    custom_fields: list[CustomField] = Field(default_factory=list, description="Custom fields.")
    notes: str = Field(default="", description="Notes for the dock office.")
    status_timeline: dict[str, DateTime] = Field(default_factory=dict, description="When each status was reached.")
    cancel_reason: Optional[str] = Field(default=None, description="Why it was cancelled.")
    created_at: DateTime = Field(description="When booked.")


class DockSchedulingState(ServiceState):
    """Warehouses, load types, docks and appointments."""

    warehouses: dict[str, DockWarehouse] = Field(default_factory=dict, description="Warehouses by code.")
    load_types: dict[str, LoadType] = Field(default_factory=dict, description="Load types by id.")
    docks: dict[str, Dock] = Field(default_factory=dict, description="Dock doors by id.")
    appointments: dict[str, Appointment] = Field(default_factory=dict, description="Appointments by id.")
