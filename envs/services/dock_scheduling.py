"""Dock scheduling: the DCs' dock doors, load types and carrier delivery appointments.

No dock scheduling server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Opendock (Loadsmart)
Neutron API: ``GET /warehouse`` and ``/warehouse/{id}`` (``name``,
``timezone``, ``schedule``, lead-time settings), ``GET /dock``
(``warehouseId``, ``loadTypeIds``, ``isActive``), ``GET /loadtype``
(``direction``, ``operation``, ``equipmentType``, ``duration_min``),
``POST /loadtype/{id}/get-availability`` (free start times per dock on a
day), ``GET /appointment`` search (``warehouseId``, ``dockId``, ``status``,
``refNumber``, ``searchStr`` over reference and custom fields, date),
``GET /appointment/{id}``, ``POST /appointment`` (``dockId``,
``loadTypeId``, ``start``, ``refNumber``, carrier, ``customFields``,
``notes``), ``PATCH /appointment/{id}`` (``start``/``dockId`` to reschedule,
``refNumber``, ``notes``, ``customFields``; ``status`` moves and
``cancelReason``). Warehouses are the WMS's DCs (WH-EAST, WH-WEST, WH-CENT);
inbound appointments carry the purchase order number as reference and name
the inbound shipment and freight booking in custom fields.

Rules of the real product: one live appointment per door at a time; inside
the warehouse's opening hours of its day (closed days refuse bookings);
at least the warehouse's minimum lead time ahead and at most its maximum;
the door must be active and take the load type; a reference number has one
live appointment per warehouse; statuses move Requested -> Scheduled ->
Arrived -> InProgress -> Completed, a Scheduled one may be marked NoShow
once its start has passed and checked in (Arrived) only on its day; cancel
needs a reason and is refused from Arrived on; only Requested or Scheduled
appointments are rescheduled. Left out: users and carrier accounts,
recurring appointments, webhooks, tags, asset visits and yard management.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, DateTime, Email, Id
from compoworld_gym.envs.services._blocks import eq, select
from compoworld_gym.envs.services._dock_scheduling_models import (
    NEXT_STATUS, TIMELINE_KEY, Appointment, AppointmentStatus, CustomField, Dock, DockSchedulingState, DockWarehouse,
    LoadType,
)
from compoworld_gym.envs.services._dock_scheduling_rules import check_ref, check_slot, free_slots
from compoworld_gym.envs.services._dock_scheduling_seed import build_state
from compoworld_gym.envs.services.freight import Freight
from compoworld_gym.envs.services.warehouse import WarehouseWms
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Service, tool

Text = Field(default=None, max_length=500)


class DockScheduling(Service):
    """Opendock-style dock scheduling: warehouses, doors, load types, appointments."""

    name = "dock_scheduling"
    description = ("Dock scheduling (Opendock): the distribution centers' dock doors, opening hours and load types, "
                   "and carrier appointments by reference number (purchase order / BOL) from request to completion.")
    domain = "logistics"
    spec_source = None
    State = DockSchedulingState

    # ---------------------------------------------------------------- helpers
    def _appt(self, appointment_id: str) -> Appointment:
        return self.lookup(self.state.appointments, appointment_id, "appointment")

    def _dock(self, dock_id: str) -> Dock:
        return self.lookup(self.state.docks, dock_id, "dock")

    def _load_type(self, load_type_id: str) -> LoadType:
        return self.lookup(self.state.load_types, load_type_id, "load type")

    def _clock(self) -> dt.datetime:
        return dt.datetime.combine(self.today, dt.time(9, 0)) + dt.timedelta(minutes=self.state.clock)

    @staticmethod
    def _fields(custom_fields: Optional[dict[str, str]]) -> list[CustomField]:
        return [CustomField(label=k, value=v) for k, v in (custom_fields or {}).items()]

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[DockWarehouse])
    def list_warehouses(self) -> list[dict]:
        """List the warehouses with their opening hours and lead-time settings."""
        return [w.model_dump() for w in self.state.warehouses.values()]

    @tool(read_only=True, returns=DockWarehouse)
    def get_warehouse(self, warehouse_id: Id("warehouse")) -> dict:
        """Get one warehouse with its opening hours, lead times and docks.

        Args:
            warehouse_id: the warehouse code, e.g. WH-EAST.
        """
        w = self.lookup(self.state.warehouses, warehouse_id, "warehouse")
        docks = [d.id for d in self.state.docks.values() if d.warehouse_id == w.id]
        return {**w.model_dump(), "dock_ids": docks}

    @tool(read_only=True, returns=list[Dock])
    def list_docks(self, warehouse_id: Optional[Id("warehouse")] = None, load_type_id: Optional[str] = None,
                   is_active: Optional[bool] = None) -> list[dict]:
        """List dock doors by warehouse, load type taken or active flag.

        Args:
            warehouse_id: only this warehouse's doors.
            load_type_id: only doors taking this load type, e.g. LT-0002.
            is_active: only active (true) or inactive (false) doors.
        """
        take = (lambda d: load_type_id in d.load_type_ids) if load_type_id else None
        rows = select(self.state.docks.values(), eq("warehouse_id", warehouse_id), eq("is_active", is_active), take)
        return [d.model_dump() for d in rows]

    @tool(read_only=True, returns=Dock)
    def get_dock(self, dock_id: Id("dock_door")) -> dict:
        """Get one dock door.

        Args:
            dock_id: the door id, e.g. DOOR-0001.
        """
        return self._dock(dock_id).model_dump()

    @tool(read_only=True, returns=list[LoadType])
    def list_load_types(self, direction: Optional[str] = Field(default=None, pattern="^(Inbound|Outbound)$")) -> list:
        """List load types (what is delivered or picked up and how long the door is held).

        Args:
            direction: Inbound or Outbound.
        """
        return [t.model_dump() for t in select(self.state.load_types.values(), eq("direction", direction))]

    @tool(read_only=True)
    def get_dock_availability(self, warehouse_id: Id("warehouse"), load_type_id: str, date: Date) -> dict:
        """Free start times on a day for a load type, per door (respecting hours, lead time and bookings).

        Args:
            warehouse_id: the warehouse.
            load_type_id: the load type to book.
            date: the day, YYYY-MM-DD.
        """
        wh = self.lookup(self.state.warehouses, warehouse_id, "warehouse")
        lt = self._load_type(load_type_id)
        return {"warehouse_id": wh.id, "load_type_id": lt.id, "date": date,
                "docks": free_slots(self.state, wh, lt, date, self._clock())}

    @tool(read_only=True, returns=list[Appointment])
    def search_appointments(self, warehouse_id: Optional[Id("warehouse")] = None,
                            dock_id: Optional[Id("dock_door")] = None, status: Optional[AppointmentStatus] = None,
                            ref_number: Optional[str] = Field(default=None, max_length=60),
                            search: Optional[str] = Field(default=None, max_length=60),
                            carrier_name: Optional[CompanyName] = None, date: Optional[Date] = None,
                            limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search appointments, earliest first, by warehouse, door, status, reference, carrier or day.

        Args:
            warehouse_id: the warehouse.
            dock_id: the door.
            status: Requested, Scheduled, Arrived, InProgress, Completed, Cancelled or NoShow.
            ref_number: the exact reference number (case-insensitive), e.g. a PO number.
            search: text found in the reference number or any custom field value (an inbound shipment or
                freight booking id).
            carrier_name: the carrier (case-insensitive).
            date: only appointments starting on this day.
            limit: maximum number of appointments (1-200).
        """
        def hit(a: Appointment) -> bool:
            if ref_number and a.ref_number.lower() != ref_number.lower():
                return False
            if search and not any(search.lower() in v.lower() for v in [a.ref_number]
                                  + [f.value for f in a.custom_fields]):
                return False
            if carrier_name and a.carrier_name.lower() != carrier_name.lower():
                return False
            return date is None or a.start.date() == date
        rows = select(sorted(self.state.appointments.values(), key=lambda a: (a.start, a.id)),
                      eq("warehouse_id", warehouse_id), eq("dock_id", dock_id), eq("status", status), hit, limit=limit)
        return [a.model_dump() for a in rows]

    @tool(read_only=True, returns=Appointment)
    def get_appointment(self, appointment_id: Id("dock_appointment")) -> dict:
        """Get one appointment with its door, times, status timeline and custom fields.

        Args:
            appointment_id: the appointment id, e.g. APT-0001.
        """
        return self._appt(appointment_id).model_dump()

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Appointment)
    def create_appointment(self, dock_id: Id("dock_door"), load_type_id: str, start: DateTime,
                           ref_number: str = Field(min_length=2, max_length=60),
                           carrier_name: CompanyName = Field(min_length=2, max_length=120),
                           carrier_email: Email = Field(min_length=3),
                           purchase_order_id: Optional[Id("purchase_order")] = None,
                           custom_fields: Optional[dict[str, str]] = None, notes: Optional[str] = Text,
                           status: str = Field(default="Scheduled", pattern="^(Requested|Scheduled)$")) -> dict:
        """Book a door for a carrier: Scheduled (confirmed) or Requested (awaiting the dock office).

        Args:
            dock_id: an active door that takes the load type.
            load_type_id: the load type; its duration sets the end.
            start: start, warehouse local time, e.g. 2026-01-19T10:00:00.
            ref_number: reference number, the purchase order number or BOL.
            carrier_name: the trucking carrier.
            carrier_email: the carrier's dispatch email.
            purchase_order_id: the purchase order delivered, if any.
            custom_fields: label -> value, e.g. {"Inbound Shipment": "IB-0003", "Trailer Number": "TRL20411"}.
            notes: notes for the dock office.
            status: Scheduled or Requested.
        """
        dock, lt = self._dock(dock_id), self._load_type(load_type_id)
        start = start.replace(tzinfo=None, second=0, microsecond=0)
        end = check_slot(self.state, dock, lt, start, self._clock())
        check_ref(self.state, dock.warehouse_id, ref_number)
        now = self.now()
        a = Appointment(id=self.new_id("APT"), warehouse_id=dock.warehouse_id, dock_id=dock.id, dock_name=dock.name,
                        load_type_id=lt.id, start=start, end=end, status=status, ref_number=ref_number,
                        purchase_order_id=purchase_order_id, carrier_name=carrier_name, carrier_email=carrier_email,
                        custom_fields=self._fields(custom_fields), notes=notes or "", created_at=now,
                        status_timeline={"requested": now, **({"scheduled": now} if status == "Scheduled" else {})})
        self.state.appointments[a.id] = a
        return a.model_dump()

    @tool(read_only=False, returns=Appointment)
    def update_appointment(self, appointment_id: Id("dock_appointment"),
                           ref_number: Optional[str] = Field(default=None, min_length=2, max_length=60),
                           notes: Optional[str] = Text, custom_fields: Optional[dict[str, str]] = None) -> dict:
        """Change an appointment's reference number, notes or custom fields (merged by label).

        Args:
            appointment_id: the appointment.
            ref_number: a new reference number.
            notes: new notes (replace the old).
            custom_fields: label -> value to set; other labels are kept.
        """
        a = self._appt(appointment_id)
        if a.status in ("Cancelled", "Completed", "NoShow"):
            raise Conflict(f"appointment {a.id} is {a.status}; it can no longer be edited.")
        if ref_number is None and notes is None and not custom_fields:
            raise InvalidArgument("give ref_number, notes or custom_fields to change.")
        if ref_number is not None:
            check_ref(self.state, a.warehouse_id, ref_number, skip=a.id)
            a.ref_number = ref_number
        if notes is not None:
            a.notes = notes
        for k, v in (custom_fields or {}).items():
            old = next((f for f in a.custom_fields if f.label == k), None)
            if old is None:
                a.custom_fields.append(CustomField(label=k, value=v))
            else:
                old.value = v
        return a.model_dump()

    @tool(read_only=False, returns=Appointment)
    def reschedule_appointment(self, appointment_id: Id("dock_appointment"), start: DateTime,
                               dock_id: Optional[Id("dock_door")] = None) -> dict:
        """Move a Requested or Scheduled appointment to a new start (and optionally another door).

        Args:
            appointment_id: the appointment.
            start: the new start, warehouse local time.
            dock_id: a door of the same warehouse; default the current door.
        """
        a = self._appt(appointment_id)
        if a.status not in ("Requested", "Scheduled"):
            raise Conflict(f"appointment {a.id} is {a.status}; only Requested or Scheduled ones are rescheduled.")
        dock = self._dock(dock_id or a.dock_id)
        if dock.warehouse_id != a.warehouse_id:
            raise Unprocessable(f"{dock.id} is at {dock.warehouse_id}; a reschedule stays at {a.warehouse_id}.")
        start = start.replace(tzinfo=None, second=0, microsecond=0)
        end = check_slot(self.state, dock, self._load_type(a.load_type_id), start, self._clock(), skip=a.id)
        a.start, a.end, a.dock_id, a.dock_name = start, end, dock.id, dock.name
        a.status_timeline["rescheduled"] = self.now()
        return a.model_dump()

    @tool(read_only=False, returns=Appointment)
    def update_appointment_status(self, appointment_id: Id("dock_appointment"),
                                  status: str = Field(pattern="^(Scheduled|Arrived|InProgress|Completed|NoShow)$")
                                  ) -> dict:
        """Move an appointment one step: approve (Scheduled), check in (Arrived), start unloading (InProgress),
        complete (Completed), or mark a no-show (NoShow).

        Args:
            appointment_id: the appointment.
            status: Scheduled (from Requested), Arrived (a Scheduled one, on its day), InProgress (from Arrived),
                Completed (from InProgress) or NoShow (a Scheduled one whose start has passed).
        """
        a = self._appt(appointment_id)
        if status not in NEXT_STATUS.get(a.status, ()):
            allowed = ", ".join(NEXT_STATUS.get(a.status, ())) or "nothing (final)"
            raise Conflict(f"appointment {a.id} is {a.status}; it can move to {allowed}, not {status}.")
        clock = self._clock()
        if status == "Arrived" and a.start.date() != clock.date():
            raise Unprocessable(f"appointment {a.id} is on {a.start.date()}; a carrier checks in on the day of "
                                f"the appointment (today is {clock.date()}).")
        if status == "NoShow" and a.start > clock:
            raise Unprocessable(f"appointment {a.id} starts {a.start.isoformat()}; it is no no-show before then.")
        a.status = status
        a.status_timeline[TIMELINE_KEY[status]] = self.now()
        return a.model_dump()

    @tool(read_only=False, destructive=True, returns=Appointment)
    def cancel_appointment(self, appointment_id: Id("dock_appointment"),
                           reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Cancel an appointment before the carrier arrives; the door slot is freed.

        Args:
            appointment_id: a Requested or Scheduled appointment.
            reason: why it is cancelled (required).
        """
        a = self._appt(appointment_id)
        if a.status not in ("Requested", "Scheduled"):
            raise Conflict(f"appointment {a.id} is {a.status}; only an appointment not yet arrived is cancelled.")
        if not reason.strip():
            raise InvalidArgument("a cancellation needs a reason.")
        a.status, a.cancel_reason = "Cancelled", reason.strip()
        a.status_timeline["cancelled"] = self.now()
        return a.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> DockSchedulingState:
        """Seeded state on the WMS's inbound shipments and freight's bookings for the same seed."""
        return build_state(random.Random(f"dock_scheduling:{seed}"), today, WarehouseWms.seed_state(seed, today),
                           Freight.seed_state(seed, today))

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> DockSchedulingState:
        return build_state(rng, today, WarehouseWms.build_seed_state(fake, rng, today),
                           Freight.build_seed_state(fake, rng, today))


__all__ = ["DockScheduling"]
