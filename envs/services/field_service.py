"""Field service: on-site jobs, technicians with skills and zones, dispatch and parts.

No field-service server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface is designed the way Jobber's / ServiceTitan's job APIs look (jobs
for a customer at an address with a scheduled date and arrival window,
assigned technician, status ``unscheduled -> scheduled -> in_progress ->
completed`` or ``cancelled``, parts used from van stock, an invoice total on
completion). Rules: a technician needs the job's skill (422) and must cover
its zone (422); one job per technician per date and window (409); work in the
past cannot be scheduled (422); parts come out of stock (409 when short).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Address, Date, Email, Id, PersonName, Phone, Sku
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._field_service_models import (
    CITY, LABOR_RATE, FieldServiceState, Job, JobStatus, Part, PartUse, Skill, Technician, Window, Zone)
from compoworld_gym.envs.services._field_service_seed import seed_field_service
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Service, tool


class FieldService(Service):
    """Dispatch technicians to on-site jobs by skill, zone and schedule; track parts and completion."""

    name = "field_service"
    description = "Field service management: customer jobs, technicians with skills and zones, dispatch, parts, completion."
    domain = "operations"
    spec_source = None
    State = FieldServiceState

    # ---------------------------------------------------------------- helpers
    def _job(self, job_id: str) -> Job:
        return self.lookup(self.state.jobs, job_id, "job")

    def _busy(self, technician_id: str, date: dt.date, window: str, exclude: str = "") -> Optional[Job]:
        for j in self.state.jobs.values():
            if (j.technician_id == technician_id and j.scheduled_date == date and j.time_window == window
                    and j.status in ("scheduled", "in_progress") and j.id != exclude):
                return j
        return None

    def _check_fit(self, job: Job, tech: Technician, date: dt.date, window: str) -> None:
        if not tech.active:
            raise Conflict(f"technician {tech.id} is off duty; use find_available_technicians.")
        if job.service_type not in tech.skills:
            raise Unprocessable(f"{tech.name} lacks the {job.service_type} skill needed by {job.id}.")
        if job.zone not in tech.zones:
            raise Unprocessable(f"{tech.name} does not cover the {job.zone} zone of {job.id}.")
        if date < self.today:
            raise Unprocessable(f"cannot schedule on {date}: it is in the past (today is {self.today}).")
        other = self._busy(tech.id, date, window, exclude=job.id)
        if other is not None:
            raise Conflict(f"{tech.name} already has {other.id} on {date} {window}; pick another window "
                           "or technician (find_available_technicians).")

    def _open(self, job: Job, action: str) -> None:
        if job.status in ("completed", "cancelled"):
            raise Conflict(f"job {job.id} is {job.status}; cannot {action} it.")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Job])
    def list_jobs(
        self,
        status: Optional[JobStatus] = None,
        technician_id: Optional[Id("technician")] = None,
        scheduled_date: Optional[Date] = None,
        zone: Optional[Zone] = None,
        customer_email: Optional[Email] = None,
        limit: int = Field(default=50, ge=1, le=200),
    ) -> list[dict]:
        """List jobs by status, technician, date, zone or customer.

        Args:
            status: only jobs with this status.
            technician_id: only jobs assigned to this technician.
            scheduled_date: only jobs scheduled on this date (YYYY-MM-DD).
            zone: only jobs in this zone.
            customer_email: only this customer's jobs.
            limit: maximum number of jobs (1-200).
        """
        out = []
        for j in self.state.jobs.values():
            if (status and j.status != status) or (technician_id and j.technician_id != technician_id):
                continue
            if (scheduled_date and j.scheduled_date != scheduled_date) or (zone and j.zone != zone):
                continue
            if customer_email and j.customer_email.lower() != customer_email.lower():
                continue
            out.append(j.model_dump(exclude={"notes"}))
        return out[:limit]

    @tool(read_only=True, returns=Job)
    def get_job(self, job_id: Id("job")) -> dict:
        """Get one job with parts, notes and invoice.

        Args:
            job_id: the job id, e.g. JOB-0003.
        """
        return self._job(job_id).model_dump()

    @tool(read_only=True, returns=list[Technician])
    def list_technicians(self, skill: Optional[Skill] = None, zone: Optional[Zone] = None) -> list[dict]:
        """List technicians, optionally only those with a skill or covering a zone.

        Args:
            skill: hvac, plumbing, electrical or appliance.
            zone: north, south, east, west or central.
        """
        return [t.model_dump() for t in self.state.technicians.values()
                if (skill is None or skill in t.skills) and (zone is None or zone in t.zones)]

    @tool(read_only=True, returns=list[Job])
    def get_technician_schedule(self, technician_id: Id("technician"), date: Date) -> dict:
        """Get a technician's jobs on one date, by window, and which windows are free.

        Args:
            technician_id: the technician.
            date: the day (YYYY-MM-DD).
        """
        t = self.lookup(self.state.technicians, technician_id, "technician")
        windows = {}
        for w in ("08:00-12:00", "12:00-16:00", "16:00-20:00"):
            j = self._busy(t.id, date, w)
            windows[w] = None if j is None else {"job_id": j.id, "customer_name": j.customer_name,
                                                 "address": j.address, "status": j.status}
        return {"technician_id": t.id, "name": t.name, "date": date, "active": t.active, "windows": windows}

    @tool(read_only=True, returns=list[Technician])
    def find_available_technicians(self, job_id: Id("job"), date: Date, time_window: Window) -> list[dict]:
        """List active technicians with the job's skill and zone who are free in that window.

        Args:
            job_id: the job to staff.
            date: visit date (YYYY-MM-DD).
            time_window: 08:00-12:00, 12:00-16:00 or 16:00-20:00.
        """
        j = self._job(job_id)
        return [t.model_dump() for t in self.state.technicians.values()
                if t.active and j.service_type in t.skills and j.zone in t.zones
                and self._busy(t.id, date, time_window, exclude=j.id) is None]

    @tool(read_only=True, returns=list[Part])
    def search_parts(self, query: Optional[str] = None, category: Optional[Skill] = None) -> list[dict]:
        """Search stocked parts by name text or trade, with price and stock.

        Args:
            query: case-insensitive text in the part name or SKU.
            category: only parts of this trade.
        """
        q = query.lower() if query else None
        return [p.model_dump() for p in self.state.parts.values()
                if (q is None or q in p.name.lower() or q in p.sku.lower()) and (category is None or p.category == category)]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Job)
    def create_job(
        self,
        customer_name: PersonName = Field(min_length=1),
        customer_phone: Phone = Field(min_length=7),
        customer_email: Email = Field(min_length=3),
        address: Address = Field(min_length=5),
        zone: Zone = Field(),
        service_type: Skill = Field(),
        description: str = Field(min_length=3, max_length=1000),
        priority: Literal["normal", "urgent"] = "normal",
    ) -> dict:
        """Open a new unscheduled job for a customer visit.

        Args:
            customer_name: customer's full name.
            customer_phone: customer's phone, E.164.
            customer_email: customer's email.
            address: street address of the visit.
            zone: service zone of the address.
            service_type: trade needed.
            description: the problem as the customer reported it.
            priority: normal or urgent.
        """
        j = Job(id=self.new_id("JOB"), customer_name=customer_name, customer_phone=customer_phone,
                customer_email=customer_email, address=address, city=CITY, zone=zone, service_type=service_type,
                description=description, priority=priority, status="unscheduled")
        self.state.jobs[j.id] = j
        return j.model_dump()

    @tool(read_only=False, returns=Job)
    def dispatch_job(
        self, job_id: Id("job"), technician_id: Id("technician"), scheduled_date: Date, time_window: Window
    ) -> dict:
        """Assign a technician to a job for a date and arrival window (status becomes 'scheduled').

        Args:
            job_id: the job.
            technician_id: a technician with the job's skill and zone, free in that window.
            scheduled_date: visit date (YYYY-MM-DD), today or later.
            time_window: arrival window.
        """
        j = self._job(job_id)
        self._open(j, "dispatch")
        if j.status == "in_progress":
            raise Conflict(f"job {job_id} is already in progress with {j.technician_id}.")
        t = self.lookup(self.state.technicians, technician_id, "technician")
        self._check_fit(j, t, scheduled_date, time_window)
        j.technician_id, j.scheduled_date, j.time_window, j.status = t.id, scheduled_date, time_window, "scheduled"
        j.notes.append(f"Dispatched to {t.name} for {scheduled_date} {time_window}.")
        return j.model_dump()

    @tool(read_only=False, returns=Job)
    def reschedule_job(
        self, job_id: Id("job"), scheduled_date: Date, time_window: Window, reason: str = Field(min_length=3, max_length=500)
    ) -> dict:
        """Move a scheduled job to another date or window, keeping its technician.

        Args:
            job_id: a scheduled job.
            scheduled_date: new visit date (YYYY-MM-DD), today or later.
            time_window: new arrival window.
            reason: why it moves (kept in the job notes).
        """
        j = self._job(job_id)
        if j.status != "scheduled" or j.technician_id is None:
            raise Conflict(f"job {job_id} is {j.status}; only scheduled jobs can be rescheduled "
                           "(dispatch_job schedules an unscheduled one).")
        t = self.lookup(self.state.technicians, j.technician_id, "technician")
        self._check_fit(j, t, scheduled_date, time_window)
        old = f"{j.scheduled_date} {j.time_window}"
        j.scheduled_date, j.time_window = scheduled_date, time_window
        j.notes.append(f"Rescheduled from {old} to {scheduled_date} {time_window}: {reason}")
        return j.model_dump()

    @tool(read_only=False, returns=Job)
    def start_job(self, job_id: Id("job")) -> dict:
        """Mark a scheduled job as in progress (technician on site); only on its scheduled date.

        Args:
            job_id: a scheduled job.
        """
        j = self._job(job_id)
        if j.status != "scheduled":
            raise Conflict(f"job {job_id} is {j.status}; only scheduled jobs can start.")
        if j.scheduled_date != self.today:
            raise Unprocessable(f"job {job_id} is scheduled for {j.scheduled_date}, not today ({self.today}).")
        j.status = "in_progress"
        return j.model_dump()

    @tool(read_only=False, returns=Job)
    def add_job_parts(self, job_id: Id("job"), sku: Sku, quantity: int = Field(ge=1, le=50)) -> dict:
        """Record parts used on a job; they are taken out of stock.

        Args:
            job_id: an open job.
            sku: part SKU (see search_parts).
            quantity: units used (1-50).
        """
        j = self._job(job_id)
        self._open(j, "add parts to")
        p = self.lookup(self.state.parts, sku, "part")
        if p.stock < quantity:
            raise Conflict(f"only {p.stock} of {sku} ({p.name}) in stock; {quantity} requested.")
        p.stock -= quantity
        j.parts.append(PartUse(sku=sku, quantity=quantity, unit_price=p.unit_price))
        return j.model_dump()

    @tool(read_only=False, returns=Job)
    def complete_job(
        self, job_id: Id("job"), labor_hours: float = Field(gt=0, le=24), resolution: str = Field(min_length=3, max_length=1000)
    ) -> dict:
        """Complete an in-progress job; the invoice is parts plus labor at the trade's hourly rate.

        Args:
            job_id: an in-progress job (start_job first).
            labor_hours: hours worked on site.
            resolution: what was done.
        """
        j = self._job(job_id)
        if j.status != "in_progress":
            raise Conflict(f"job {job_id} is {j.status}; start_job must run before complete_job.")
        parts = sum(u.quantity * u.unit_price for u in j.parts)
        j.labor_hours = labor_hours
        j.invoice_total = money(parts + labor_hours * LABOR_RATE[j.service_type])
        j.status = "completed"
        j.notes.append(f"Completed: {resolution}")
        return j.model_dump()

    @tool(read_only=False, destructive=True, returns=Job)
    def cancel_job(self, job_id: Id("job"), reason: str = Field(min_length=3, max_length=500)) -> dict:
        """Cancel an open job; any parts recorded on it go back into stock.

        Args:
            job_id: the job.
            reason: why (kept in the job notes).
        """
        j = self._job(job_id)
        self._open(j, "cancel")
        for u in j.parts:
            if u.sku in self.state.parts:
                self.state.parts[u.sku].stock += u.quantity
        j.status = "cancelled"
        j.notes.append(f"Cancelled: {reason}")
        return j.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> FieldServiceState:
        return seed_field_service(fake, rng, today)
