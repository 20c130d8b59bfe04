"""State records of the field_service service: technicians, jobs, parts stock; the service area and rates.

Kept apart from the tools so that hooks and tests can build records (and
price a job) without importing the service.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Address, City, Date, Email, Id, Money, PersonName, Phone, Sku
from compoworld_gym.service import Record, ServiceState

Skill = Literal["hvac", "plumbing", "electrical", "appliance"]
Zone = Literal["north", "south", "east", "west", "central"]
Window = Literal["08:00-12:00", "12:00-16:00", "16:00-20:00"]
JobStatus = Literal["unscheduled", "scheduled", "in_progress", "completed", "cancelled"]
#: USD per labor hour by trade; complete_job bills hours at this rate plus parts.
LABOR_RATE = {"hvac": 145.0, "plumbing": 125.0, "electrical": 135.0, "appliance": 110.0}
#: The one service area: every job is in this city, its zones by ZIP code.
CITY = "Austin"
ZIPS = {"north": "78758", "south": "78745", "east": "78702", "west": "78746", "central": "78701"}


class Technician(Record):
    """A field technician."""

    id: Id("technician") = Field(description="Technician id, e.g. TEC-0001.")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work email.")
    phone: Phone = Field(description="Mobile phone, E.164.")
    skills: list[Skill] = Field(description="Trades the technician is certified for.")
    zones: list[Zone] = Field(description="Service zones the technician covers.")
    active: bool = Field(default=True, description="False when off duty (cannot be dispatched).")


class PartUse(Record):
    """Parts used on a job."""

    sku: Sku = Field(description="Part SKU.")
    quantity: int = Field(ge=1, description="Units used.")
    unit_price: Money = Field(description="USD per unit at time of use.")


class Job(Record):
    """An on-site service job."""

    id: Id("job") = Field(description="Job id, e.g. JOB-0001.")
    customer_name: PersonName = Field(description="Customer's full name.")
    customer_phone: Phone = Field(description="Customer's phone, E.164.")
    customer_email: Email = Field(description="Customer's email.")
    address: Address = Field(description="Street address of the visit.")
    city: City = Field(description="City of the visit.")
    zone: Zone = Field(description="Service zone of the address.")
    service_type: Skill = Field(description="Trade needed (the technician must have this skill).")
    description: str = Field(description="What the customer reported.")
    priority: Literal["normal", "urgent"] = Field(description="Urgency.")
    status: JobStatus = Field(description="Lifecycle status.")
    scheduled_date: Optional[Date] = Field(default=None, description="Visit date once scheduled.")
    time_window: Optional[Window] = Field(default=None, description="Arrival window once scheduled.")
    technician_id: Optional[Id("technician")] = Field(default=None, description="Assigned technician.")
    parts: list[PartUse] = Field(default_factory=list, description="Parts used so far.")
    labor_hours: float = Field(default=0.0, ge=0, description="Hours billed on completion.")
    invoice_total: Optional[Money] = Field(default=None, description="USD billed (parts + labor) once completed.")
    notes: list[str] = Field(default_factory=list, description="Dispatch and resolution notes, oldest first.")


class Part(Record):
    """A stocked part."""

    sku: Sku = Field(description="Part SKU, e.g. PRT-HV-001.")
    name: str = Field(description="Part name.")
    category: Skill = Field(description="Trade the part belongs to.")
    unit_price: Money = Field(description="USD per unit.")
    stock: int = Field(ge=0, description="Units in the warehouse.")


class FieldServiceState(ServiceState):
    """Technicians, jobs and parts stock."""

    technicians: dict[str, Technician] = Field(default_factory=dict, description="Technicians by id.")
    jobs: dict[str, Job] = Field(default_factory=dict, description="Jobs by id.")
    parts: dict[str, Part] = Field(default_factory=dict, description="Parts by SKU.")
