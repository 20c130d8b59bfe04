"""Records and state of the property management service (Buildium / AppFolio shapes; see ``property_management.py``).

Records mirror Buildium's rentals API: properties with units, tenants,
leases with a ledger of charges and payments, vendors, and maintenance
requests (work orders).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Address, City, CompanyName, Date, Email, Id, Money, PersonName, Phone
from compoworld_gym.service import Record, ServiceState

LeaseStatus = Literal["future", "active", "ended"]
ChargeType = Literal["rent", "late_fee", "utilities", "repair", "other"]
Trade = Literal["general", "plumbing", "electrical", "hvac", "appliance", "pest_control"]
Category = Literal["plumbing", "electrical", "hvac", "appliance", "pest_control", "general"]
Priority = Literal["low", "normal", "high", "urgent"]
RequestStatus = Literal["new", "assigned", "completed", "cancelled"]


class Property(Record):
    """A rental property."""

    id: Id("property") = Field(description="Property id, e.g. PRP-0001.")
    name: str = Field(description="Property name.")
    address: Address = Field(description="Street address.")
    city: City = Field(description="City.")
    state: str = Field(description="US state code.")
    postal_code: str = Field(description="ZIP code.")
    property_type: Literal["apartment_building", "single_family"] = Field(description="Kind of property.")
    manager_email: Email = Field(description="The property manager in charge.")
    manager_name: PersonName = Field(description="Their name.")


class Unit(Record):
    """A rentable unit of a property."""

    id: Id("unit") = Field(description="Unit id, e.g. UNT-0001.")
    property_id: Id("property") = Field(description="Its property.")
    unit_number: str = Field(description="Unit number, e.g. 2B ('Main' for a house).")
    bedrooms: int = Field(ge=0, description="Bedrooms.")
    bathrooms: float = Field(ge=0, description="Bathrooms.")
    square_feet: int = Field(ge=100, description="Floor area (sq ft).")
    market_rent: Money = Field(description="Asking monthly rent (USD).")


class Tenant(Record):
    """A tenant (resident)."""

    id: Id("tenant") = Field(description="Tenant id, e.g. TNT-0001.")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Email address.")
    phone: Phone = Field(description="Phone number.")


class LeaseTransaction(Record):
    """One line of a lease ledger: a charge or a payment."""

    id: Id("transaction") = Field(description="Transaction id, e.g. TRX-0001.")
    kind: Literal["charge", "payment"] = Field(description="charge (owed) or payment (received).")
    charge_type: Optional[ChargeType] = Field(default=None, description="For charges: what it is for.")
    amount: Money = Field(gt=0, description="Amount (USD).")
    date: Date = Field(description="Due date of a charge, received date of a payment.")
    memo: str = Field(default="", description="Memo or payment reference.")


class Lease(Record):
    """A lease of one unit to one tenant, with its ledger."""

    id: Id("lease") = Field(description="Lease id, e.g. LSE-0001.")
    property_id: Id("property") = Field(description="The property.")
    unit_id: Id("unit") = Field(description="The leased unit.")
    tenant_id: Id("tenant") = Field(description="The tenant.")
    tenant_name: PersonName = Field(description="Their name.")
    tenant_email: Email = Field(description="Their email.")
    start_date: Date = Field(description="First day of the lease.")
    end_date: Date = Field(description="Last day of the lease term.")
    rent: Money = Field(gt=0, description="Monthly rent (USD), due on the 1st.")
    security_deposit: Money = Field(ge=0, description="Deposit held (USD).")
    status: LeaseStatus = Field(description="future, active or ended.")
    move_out_date: Optional[Date] = Field(default=None, description="When the tenant moved out.")
    deposit_returned: Optional[Money] = Field(default=None, description="Deposit refunded at move-out (USD).")
    deposit_deductions: Optional[str] = Field(default=None, description="Why part of the deposit was kept.")
    transactions: list[LeaseTransaction] = Field(default_factory=list, description="Ledger, in entry order.")
    notes: list[str] = Field(default_factory=list, description="Lease notes, oldest first.")


class Vendor(Record):
    """A maintenance vendor."""

    id: Id("vendor") = Field(description="Vendor id, e.g. VND-0001.")
    name: CompanyName = Field(description="Company name.")
    trade: Trade = Field(description="What they fix; 'general' takes every category.")
    email: Email = Field(description="Dispatch email.")
    phone: Phone = Field(description="Dispatch phone.")
    active: bool = Field(description="Inactive vendors get no work.")
    insurance_expires: Date = Field(description="Liability insurance end; no work is scheduled after it.")


class MaintenanceRequest(Record):
    """A maintenance request (work order) at a property."""

    id: Id("maintenance_request") = Field(description="Request id, e.g. MNT-0001.")
    property_id: Id("property") = Field(description="The property.")
    unit_id: Optional[Id("unit")] = Field(default=None, description="The unit (None for common areas).")
    tenant_email: Optional[Email] = Field(default=None, description="Tenant who reported it.")
    category: Category = Field(description="Kind of work.")
    priority: Priority = Field(description="low, normal, high or urgent.")
    description: str = Field(description="What is wrong.")
    status: RequestStatus = Field(description="new, assigned, completed or cancelled.")
    created_on: Date = Field(description="Date reported.")
    vendor_id: Optional[Id("vendor")] = Field(default=None, description="Assigned vendor.")
    vendor_name: Optional[CompanyName] = Field(default=None, description="Their name.")
    scheduled_date: Optional[Date] = Field(default=None, description="Visit date.")
    estimate: Optional[Money] = Field(default=None, description="Vendor's estimate (USD).")
    actual_cost: Optional[Money] = Field(default=None, description="Final cost (USD).")
    resolution: Optional[str] = Field(default=None, description="How it was resolved or why cancelled.")


class PropertyManagementState(ServiceState):
    """Properties, units, tenants, leases, vendors and maintenance requests."""

    properties: dict[str, Property] = Field(default_factory=dict, description="Properties by id.")
    units: dict[str, Unit] = Field(default_factory=dict, description="Units by id.")
    tenants: dict[str, Tenant] = Field(default_factory=dict, description="Tenants by id.")
    leases: dict[str, Lease] = Field(default_factory=dict, description="Leases by id.")
    vendors: dict[str, Vendor] = Field(default_factory=dict, description="Vendors by id.")
    maintenance_requests: dict[str, MaintenanceRequest] = Field(default_factory=dict, description="Requests by id.")
