"""Seed data of the property management service (records in ``_property_management_models``).

The seed is a small residential portfolio: three apartment buildings and two
single-family homes, managed by the firm's property managers.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._property_management_models import (
    Lease, LeaseTransaction, MaintenanceRequest, Property, PropertyManagementState, Tenant, Unit, Vendor,
)

DOMAIN = "company.example"


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
