"""State model and seed data of the property management service (Buildium / AppFolio shapes).

Records mirror Buildium's rentals API: properties with units, tenants,
leases with a ledger of charges and payments, vendors, and maintenance
requests (work orders). The seed is a small residential portfolio: three
apartment buildings and two single-family homes, managed by the firm's
property managers.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Address, City, CompanyName, Date, Email, Id, Money, PersonName, Phone
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.service import Record, ServiceState

LeaseStatus = Literal["future", "active", "ended"]
ChargeType = Literal["rent", "late_fee", "utilities", "repair", "other"]
Trade = Literal["general", "plumbing", "electrical", "hvac", "appliance", "pest_control"]
Category = Literal["plumbing", "electrical", "hvac", "appliance", "pest_control", "general"]
Priority = Literal["low", "normal", "high", "urgent"]
RequestStatus = Literal["new", "assigned", "completed", "cancelled"]
#: Days after the due date before rent is late and a late fee may be posted.
GRACE_DAYS = 5
#: A late fee is at most this share of the monthly rent.
LATE_FEE_CAP = 0.10
#: A security deposit is at most this many months of rent.
DEPOSIT_MONTHS_CAP = 2
DOMAIN = "company.example"


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


def balance(lease: Lease) -> float:
    """Charges minus payments of a lease (USD; positive: the tenant owes)."""
    owed = sum(t.amount if t.kind == "charge" else -t.amount for t in lease.transactions)
    return money(owed)


def unpaid_charges(lease: Lease) -> list[tuple[LeaseTransaction, float]]:
    """Charges not yet covered, with the amount still open: payments settle the oldest charges first."""
    paid = sum(t.amount for t in lease.transactions if t.kind == "payment")
    out = []
    for t in sorted((t for t in lease.transactions if t.kind == "charge"), key=lambda t: (t.date, t.id)):
        covered = min(paid, t.amount)
        paid -= covered
        if t.amount - covered > 0.004:
            out.append((t, money(t.amount - covered)))
    return out


# ---------------------------------------------------------------------- seed
_BUILDINGS = (("Harbor View Apartments", 8), ("Maple Court", 6), ("The Foundry Lofts", 6))
VENDORS = (("Summit General Contracting", "general"), ("Keystone Handyman Services", "general"),
           ("BlueLine Plumbing", "plumbing"), ("Brightwire Electric", "electrical"),
           ("Polar Air HVAC", "hvac"), ("Appliance Doctors", "appliance"),
           ("Greenleaf Pest Control", "pest_control"), ("Rapid Rooter Plumbing", "plumbing"))
_ISSUES = {"plumbing": "Kitchen sink drains slowly", "electrical": "Bedroom outlet has no power",
           "hvac": "Heating does not reach set temperature", "appliance": "Dishwasher leaks during cycle",
           "pest_control": "Ants in the kitchen", "general": "Front door lock sticks"}


def _email(first: str, last: str, rng: random.Random, fake: Faker) -> str:
    return f"{first}.{last}{rng.randint(1, 99)}@{fake.free_email_domain()}".lower().replace("'", "")


def _ledger(lease: Lease, today: dt.date, rng: random.Random, n: list[int]) -> None:
    """Rent on the 1st of each month since the start (last 3 months at most), mostly paid by the 3rd."""
    first = today.replace(day=1)
    months = [first]
    for _ in range(2):
        months.insert(0, (months[0] - dt.timedelta(days=1)).replace(day=1))
    behind = rng.random() < 0.25
    for due in (m for m in months if m >= lease.start_date):
        n[0] += 1
        lease.transactions.append(LeaseTransaction(id=f"TRX-{n[0]:04d}", kind="charge", charge_type="rent",
                                                   amount=lease.rent, date=due, memo=f"Rent {due:%B %Y}"))
        if not (behind and due == first) and due + dt.timedelta(days=2) <= today:
            n[0] += 1
            lease.transactions.append(LeaseTransaction(id=f"TRX-{n[0]:04d}", kind="payment", amount=lease.rent,
                                                       date=due + dt.timedelta(days=rng.randint(0, 2)),
                                                       memo=f"ACH {rng.randint(100000, 999999)}"))


def build_seed(fake: Faker, rng: random.Random, today: dt.date) -> PropertyManagementState:
    """The seeded portfolio: 5 properties (22 units), a lease history per unit, 8 vendors, 8 requests."""
    st = PropertyManagementState()
    managers = [(f"{f} {l}", f"{f}.{l}@{DOMAIN}".lower().replace("'", ""))
                for f, l in ((fake.first_name(), fake.last_name()) for _ in range(3))]
    sites = [(name, units, "apartment_building") for name, units in _BUILDINGS] + [
        (None, 1, "single_family"), (None, 1, "single_family")]
    for i, (name, count, kind) in enumerate(sites, start=1):
        street, (mname, memail) = f"{fake.building_number()} {fake.street_name()}", managers[i % 3]
        pid = f"PRP-{i:04d}"
        st.properties[pid] = Property(id=pid, name=name or street, address=street, city=fake.city(),
                                      state=fake.state_abbr(), postal_code=fake.zipcode(), property_type=kind,
                                      manager_email=memail, manager_name=mname)
        for u in range(count):
            uid = f"UNT-{len(st.units) + 1:04d}"
            beds = rng.randint(1, 3) if kind == "apartment_building" else rng.randint(3, 4)
            st.units[uid] = Unit(id=uid, property_id=pid,
                                 unit_number="Main" if count == 1 else f"{u // 4 + 1}{'ABCD'[u % 4]}",
                                 bedrooms=beds, bathrooms=1.0 + 0.5 * (beds > 1), square_feet=450 + 300 * beds,
                                 market_rent=float(900 + 450 * beds + rng.randint(0, 6) * 25))
    n = [0]
    for uid, unit in st.units.items():
        for past in (True, False):
            if not past and rng.random() < 0.15:
                continue  # a vacant unit
            first, last = fake.first_name(), fake.last_name()
            tid = f"TNT-{len(st.tenants) + 1:04d}"
            st.tenants[tid] = Tenant(id=tid, name=f"{first} {last}", phone=fake.numerify("+1-###-555-####"),
                                     email=_email(first, last, rng, fake))
            start = (today - dt.timedelta(days=rng.randint(400, 700) if past else rng.randint(30, 330))).replace(day=1)
            end = start.replace(year=start.year + 1) - dt.timedelta(days=1)
            rent = money(unit.market_rent - rng.randint(0, 4) * 25)
            lid = f"LSE-{len(st.leases) + 1:04d}"
            if past:
                end = min(end, today - dt.timedelta(days=31))
            lease = Lease(id=lid, property_id=unit.property_id, unit_id=uid, tenant_id=tid,
                          tenant_name=f"{first} {last}", tenant_email=st.tenants[tid].email, start_date=start, end_date=end,
                          rent=rent, security_deposit=rent, status="ended" if past else "active")
            if past:
                lease.move_out_date = lease.end_date
                if rng.random() < 0.75:  # the rest still await their deposit refund
                    lease.deposit_returned = money(rent - rng.choice((0, 0, 150)))
                    lease.deposit_deductions = None if lease.deposit_returned == rent else "Carpet cleaning"
            else:
                _ledger(lease, today, rng, n)
            st.leases[lid] = lease
    for i, (vname, trade) in enumerate(VENDORS, start=1):
        vid = f"VND-{i:04d}"
        slug = vname.lower().split()[0]
        st.vendors[vid] = Vendor(id=vid, name=vname, trade=trade, email=f"dispatch@{slug}.example",
                                 phone=fake.numerify("+1-###-555-####"), active=i != 8,
                                 insurance_expires=today + dt.timedelta(days=-10 if i == 6 else 200 + 30 * i))
    statuses = ("new", "new", "assigned", "assigned", "completed", "completed", "cancelled", "new")
    active = [l for l in st.leases.values() if l.status == "active"]
    for i, status in enumerate(statuses, start=1):
        lease = active[(i * 3) % len(active)]
        cat = ("plumbing", "electrical", "hvac", "appliance", "pest_control", "general", "plumbing", "hvac")[i - 1]
        req = MaintenanceRequest(id=f"MNT-{i:04d}", property_id=lease.property_id, unit_id=lease.unit_id,
                                 tenant_email=lease.tenant_email, category=cat, 
                                 priority=rng.choice(("low", "normal", "high")),
                                 description=_ISSUES[cat], status=status,
                                 created_on=today - dt.timedelta(days=20 - 2 * i))
        if status in ("assigned", "completed"):
            v = next(v for v in sorted(st.vendors.values(), key=lambda v: v.trade == "general")
                     if v.trade in (cat, "general") and v.active and v.insurance_expires > today)
            req.vendor_id, req.vendor_name, req.estimate = v.id, v.name, float(rng.randint(8, 60) * 10)
            req.scheduled_date = today + dt.timedelta(days=3 if status == "assigned" else -5)
        if status == "completed":
            req.actual_cost, req.resolution = req.estimate, "Repaired on site."
        if status == "cancelled":
            req.resolution = "Tenant fixed it themselves."
        st.maintenance_requests[req.id] = req
    st.counters = {"PRP": len(st.properties) + 1, "UNT": len(st.units) + 1, "TNT": len(st.tenants) + 1,
                   "LSE": len(st.leases) + 1, "TRX": n[0] + 1, "VND": len(st.vendors) + 1,
                   "MNT": len(st.maintenance_requests) + 1}
    return st
