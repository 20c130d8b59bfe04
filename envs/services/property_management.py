"""Property management: properties, units, tenants, leases with rent ledgers, vendors and maintenance.

No property-management server is in ``compoworld_gym/data/mcp_servers.jsonl``;
the interface follows the Buildium rentals API (``/v1/rentals``,
``/rentals/units``, ``/leases``, ``/leases/{id}/charges``,
``/leases/{id}/payments``, ``/leases/{id}/notes``, ``/vendors``,
``/workorders``) with AppFolio's vendor compliance rule; the rules the real
systems enforce are in ``_property_management_rules``.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import City, Date, Email, Id, Money, PersonName, Phone
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services import _property_management_rules as rules
from compoworld_gym.envs.services._blocks import eq, ieq, select, text, text_in_any
from compoworld_gym.envs.services._property_management_models import (
    Category, ChargeType, Lease, LeaseStatus, LeaseTransaction, MaintenanceRequest, Priority, Property,
    PropertyManagementState, RequestStatus, Tenant, Trade, Unit, Vendor,
)
from compoworld_gym.envs.services._property_management_rules import balance
from compoworld_gym.envs.services._property_management_seed import build_seed
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Service, tool

_AMOUNT = Field(ge=0.01, le=1_000_000)


class PropertyManagement(Service):
    """Buildium-style property management: rentals, leases and ledgers, vendors and work orders."""

    name = "property_management"
    description = ("Property management (Buildium-style): properties and units, tenants, leases with rent charges "
                   "and payments, deposits, vendors and maintenance requests.")
    domain = "real_estate"
    spec_source = None
    State = PropertyManagementState

    # ---------------------------------------------------------------- helpers
    def _lease(self, lease_id: str) -> Lease:
        return self.lookup(self.state.leases, lease_id, "lease")

    def _request(self, request_id: str) -> MaintenanceRequest:
        return self.lookup(self.state.maintenance_requests, request_id, "maintenance request")

    def _view(self, lease: Lease) -> dict:
        return {**lease.model_dump(), "balance": balance(lease)}

    def _txn(self, lease: Lease, **fields) -> LeaseTransaction:
        t = LeaseTransaction(id=self.new_id("TRX"), **fields)
        lease.transactions.append(t)
        return t

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Property])
    def list_properties(self, city: Optional[City] = None, search: Optional[str] = None) -> list[dict]:
        """List properties, optionally in a city or matching a name/address search.

        Args:
            city: only properties in this city.
            search: case-blind part of the name or street address.
        """
        rows = select(self.state.properties.values(), ieq("city", city), text_in_any(search, "name", "address"))
        return [p.model_dump() for p in rows]

    @tool(read_only=True, returns=Property)
    def get_property(self, property_id: Id("property")) -> dict:
        """Get a property with its units and which are occupied.

        Args:
            property_id: the property id, e.g. PRP-0001.
        """
        p = self.lookup(self.state.properties, property_id, "property")
        return {**p.model_dump(), "units": self.list_units(property_id)}

    @tool(read_only=True, returns=list[Unit])
    def list_units(self, property_id: Optional[Id("property")] = None, vacant: Optional[bool] = None) -> list[dict]:
        """List units with their occupancy (an active lease occupies a unit).

        Args:
            property_id: only this property's units.
            vacant: only vacant (true) or occupied (false) units.
        """
        busy = {l.unit_id: l.id for l in self.state.leases.values() if l.status == "active"}
        return [{**u.model_dump(), "vacant": u.id not in busy, "active_lease_id": busy.get(u.id)}
                for u in self.state.units.values()
                if (property_id is None or u.property_id == property_id)
                and (vacant is None or (u.id not in busy) == vacant)]

    @tool(read_only=True, returns=list[Tenant])
    def list_tenants(self, email: Optional[Email] = None, search: Optional[str] = None) -> list[dict]:
        """List tenants by email or a case-blind name search.

        Args:
            email: exact email address.
            search: part of the name.
        """
        return [t.model_dump() for t in select(self.state.tenants.values(), ieq("email", email), text(search, "name"))]

    @tool(read_only=True, returns=list[Lease])
    def list_leases(self, property_id: Optional[Id("property")] = None, unit_id: Optional[Id("unit")] = None,
                    tenant_email: Optional[Email] = None, status: Optional[LeaseStatus] = None) -> list[dict]:
        """List leases (without ledgers) with their balance.

        Args:
            property_id: only this property.
            unit_id: only this unit.
            tenant_email: only this tenant's leases.
            status: future, active or ended.
        """
        rows = select(self.state.leases.values(), eq("property_id", property_id), eq("unit_id", unit_id),
                      ieq("tenant_email", tenant_email), eq("status", status))
        return [{**l.model_dump(exclude={"transactions", "notes"}), "balance": balance(l)} for l in rows]

    @tool(read_only=True, returns=Lease)
    def get_lease(self, lease_id: Id("lease")) -> dict:
        """Get a lease with its ledger, notes and open balance.

        Args:
            lease_id: the lease id, e.g. LSE-0001.
        """
        return self._view(self._lease(lease_id))

    @tool(read_only=True, returns=list[Vendor])
    def list_vendors(self, trade: Optional[Trade] = None, active: Optional[bool] = None) -> list[dict]:
        """List maintenance vendors with their trade and insurance end date.

        Args:
            trade: general, plumbing, electrical, hvac, appliance or pest_control.
            active: only active (true) or inactive (false) vendors.
        """
        return [v.model_dump() for v in select(self.state.vendors.values(), eq("trade", trade), eq("active", active))]

    @tool(read_only=True, returns=list[MaintenanceRequest])
    def list_maintenance_requests(self, property_id: Optional[Id("property")] = None,
                                  status: Optional[RequestStatus] = None,
                                  vendor_id: Optional[Id("vendor")] = None) -> list[dict]:
        """List maintenance requests, newest first.

        Args:
            property_id: only this property.
            status: new, assigned, completed or cancelled.
            vendor_id: only this vendor's work.
        """
        rows = select(self.state.maintenance_requests.values(), eq("property_id", property_id), eq("status", status),
                      eq("vendor_id", vendor_id))
        return [r.model_dump() for r in sorted(rows, key=lambda r: (r.created_on, r.id), reverse=True)]

    @tool(read_only=True, returns=MaintenanceRequest)
    def get_maintenance_request(self, request_id: Id("maintenance_request")) -> dict:
        """Get a maintenance request.

        Args:
            request_id: the request id, e.g. MNT-0001.
        """
        return self._request(request_id).model_dump()

    # ----------------------------------------------------------------- leases
    @tool(read_only=False, returns=Tenant)
    def create_tenant(self, name: PersonName = Field(min_length=1, max_length=120), email: Email = Field(),
                      phone: Phone = Field(min_length=7, max_length=30)) -> dict:
        """Add a tenant; emails are unique (409).

        Args:
            name: full name.
            email: email address.
            phone: phone number.
        """
        if self.list_tenants(email=email):
            raise Conflict(f"a tenant with email {email} exists; call list_tenants to find them.")
        t = Tenant(id=self.new_id("TNT"), name=name, email=email.lower(), phone=phone)
        self.state.tenants[t.id] = t
        return t.model_dump()

    @tool(read_only=False, returns=Lease)
    def create_lease(self, unit_id: Id("unit"), tenant_id: Id("tenant"), start_date: Date, end_date: Date,
                     rent: Money = _AMOUNT, security_deposit: Money = Field(ge=0, le=1_000_000)) -> dict:
        """Lease a unit to a tenant; the first month's rent and the deposit are charged at once.

        Args:
            unit_id: the unit; refused (409) if another active or future lease overlaps the dates.
            tenant_id: the tenant.
            start_date: first day (YYYY-MM-DD).
            end_date: last day, after start_date.
            rent: monthly rent in USD.
            security_deposit: deposit in USD, at most two months' rent (422).
        """
        unit = self.lookup(self.state.units, unit_id, "unit")
        tenant = self.lookup(self.state.tenants, tenant_id, "tenant")
        # Cents first: a deposit under half a cent is no deposit (it must not become a $0.00 charge).
        rent, deposit = money(rent), money(security_deposit)
        rules.check_lease_terms(self.state, unit, start_date, end_date, rent, deposit)
        lease = Lease(id=self.new_id("LSE"), property_id=unit.property_id, unit_id=unit.id, tenant_id=tenant.id,
                      tenant_name=tenant.name, tenant_email=tenant.email, start_date=start_date, end_date=end_date,
                      rent=rent, security_deposit=deposit,
                      status="future" if start_date > self.today else "active")
        self._txn(lease, kind="charge", charge_type="rent", amount=rent, date=start_date, memo="First month's rent")
        if deposit > 0:
            self._txn(lease, kind="charge", charge_type="other", amount=deposit, date=start_date,
                      memo="Security deposit")
        self.state.leases[lease.id] = lease
        return self._view(lease)

    @tool(read_only=False, returns=Lease)
    def end_lease(self, lease_id: Id("lease"), move_out_date: Date) -> dict:
        """End an active lease at move-out (the unit becomes vacant).

        Args:
            lease_id: the active lease.
            move_out_date: the day the tenant moved out, not before the start.
        """
        lease = self._lease(lease_id)
        if lease.status != "active":
            raise Conflict(f"lease {lease.id} is {lease.status}; only an active lease can end.")
        if move_out_date < lease.start_date:
            raise Unprocessable(f"move_out_date is before the lease started ({lease.start_date}).")
        lease.status, lease.move_out_date = "ended", move_out_date
        return self._view(lease)

    @tool(read_only=False, returns=Lease)
    def return_deposit(self, lease_id: Id("lease"), amount: Money = Field(ge=0, le=1_000_000),
                       deductions: Optional[str] = Field(default=None, max_length=500)) -> dict:
        """Refund the security deposit of an ended lease, once; what is kept needs a reason.

        Args:
            lease_id: the ended lease.
            amount: USD refunded, at most the deposit held (422).
            deductions: why part of the deposit is kept (required when amount is below the deposit).
        """
        lease = self._lease(lease_id)
        rules.check_deposit_return(lease, amount, deductions)
        lease.deposit_returned, lease.deposit_deductions = money(amount), deductions
        return self._view(lease)

    @tool(read_only=False, returns=Lease)
    def add_lease_note(self, lease_id: Id("lease"), note: str = Field(min_length=1, max_length=1000)) -> dict:
        """Add a note to a lease.

        Args:
            lease_id: the lease.
            note: the text.
        """
        lease = self._lease(lease_id)
        lease.notes.append(note)
        return self._view(lease)

    @tool(read_only=False, returns=LeaseTransaction)
    def post_charge(self, lease_id: Id("lease"), amount: Money = _AMOUNT, charge_type: ChargeType = "other",
                    due_date: Optional[Date] = None, memo: str = Field(default="", max_length=200)) -> dict:
        """Post a charge to an active or future lease's ledger.

        A late_fee needs a rent charge still unpaid more than 5 days after its
        due date and is at most 10% of the monthly rent (422).

        Args:
            lease_id: the lease.
            amount: USD.
            charge_type: rent, late_fee, utilities, repair or other.
            due_date: when it is due (default today).
            memo: what it is for.
        """
        lease = self._lease(lease_id)
        rules.check_charge(lease, amount, charge_type, self.today)
        t = self._txn(lease, kind="charge", charge_type=charge_type, amount=money(amount),
                      date=due_date or self.today, memo=memo)
        return {**t.model_dump(), "lease_id": lease.id, "balance": balance(lease)}

    @tool(read_only=False, returns=LeaseTransaction)
    def record_payment(self, lease_id: Id("lease"), amount: Money = _AMOUNT, payment_date: Optional[Date] = None,
                       reference: str = Field(default="", max_length=100)) -> dict:
        """Record a tenant payment; it settles the oldest open charges first.

        Args:
            lease_id: the lease.
            amount: USD received, at most the open balance (422).
            payment_date: date received (default today; not in the future).
            reference: check number or transfer reference.
        """
        lease = self._lease(lease_id)
        when = payment_date or self.today
        rules.check_payment(lease, amount, when, self.today)
        t = self._txn(lease, kind="payment", amount=money(amount), date=when, memo=reference)
        return {**t.model_dump(), "lease_id": lease.id, "balance": balance(lease)}

    # ------------------------------------------------------------ maintenance
    @tool(read_only=False, returns=MaintenanceRequest)
    def create_maintenance_request(self, property_id: Id("property"), category: Category,
                                   description: str = Field(min_length=3, max_length=1000),
                                   unit_id: Optional[Id("unit")] = None, priority: Priority = "normal",
                                   tenant_email: Optional[Email] = None) -> dict:
        """Open a maintenance request at a property (status new).

        Args:
            property_id: the property.
            category: plumbing, electrical, hvac, appliance, pest_control or general.
            description: what is wrong.
            unit_id: the unit, which must belong to the property (None: common area).
            priority: low, normal, high or urgent.
            tenant_email: the reporting tenant.
        """
        self.lookup(self.state.properties, property_id, "property")
        if unit_id is not None and self.lookup(self.state.units, unit_id, "unit").property_id != property_id:
            raise Unprocessable(f"unit {unit_id} is not in property {property_id}.")
        r = MaintenanceRequest(id=self.new_id("MNT"), property_id=property_id, unit_id=unit_id, category=category,
                               priority=priority, description=description, status="new", created_on=self.today,
                               tenant_email=tenant_email.lower() if tenant_email else None)
        self.state.maintenance_requests[r.id] = r
        return r.model_dump()

    @tool(read_only=False, returns=MaintenanceRequest)
    def assign_vendor(self, request_id: Id("maintenance_request"), vendor_id: Id("vendor"), scheduled_date: Date,
                      estimate: Optional[Money] = Field(default=None, ge=0, le=1_000_000)) -> dict:
        """Assign (or reassign) a new or assigned request to a vendor for a visit date.

        Args:
            request_id: the request.
            vendor_id: an active vendor of the request's trade (or general), insured on the visit date.
            scheduled_date: the visit date, not in the past.
            estimate: the vendor's estimate in USD.
        """
        r = self._request(request_id)
        v = self.lookup(self.state.vendors, vendor_id, "vendor")
        rules.check_assignable(r, v, scheduled_date, self.today)
        r.status, r.vendor_id, r.vendor_name, r.scheduled_date = "assigned", v.id, v.name, scheduled_date
        r.estimate = r.estimate if estimate is None else money(estimate)
        return r.model_dump()

    @tool(read_only=False, returns=MaintenanceRequest)
    def complete_maintenance_request(self, request_id: Id("maintenance_request"),
                                     actual_cost: Money = Field(ge=0, le=1_000_000),
                                     resolution: str = Field(min_length=3, max_length=500)) -> dict:
        """Close an assigned request as done, with its cost.

        Args:
            request_id: the assigned request.
            actual_cost: final cost in USD.
            resolution: what was done.
        """
        r = self._request(request_id)
        if r.status != "assigned":
            raise Conflict(f"request {r.id} is {r.status}; only an assigned request can be completed.")
        r.status, r.actual_cost, r.resolution = "completed", money(actual_cost), resolution
        return r.model_dump()

    @tool(read_only=False, returns=MaintenanceRequest)
    def cancel_maintenance_request(self, request_id: Id("maintenance_request"),
                                   reason: str = Field(min_length=3, max_length=500)) -> dict:
        """Cancel a new or assigned request.

        Args:
            request_id: the request.
            reason: why it is cancelled.
        """
        r = self._request(request_id)
        if r.status in ("completed", "cancelled"):
            raise Conflict(f"request {r.id} is already {r.status}.")
        r.status, r.resolution = "cancelled", reason
        return r.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> PropertyManagementState:
        return build_seed(fake, rng, today)

