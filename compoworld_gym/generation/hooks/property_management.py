"""Property management in chained tasks: a lease names its tenant (email and
name), the monthly rent and the end of its term; a tenant's active lease is
found by their email, and a rented home's current lease by its street address
(a delivery address); a maintenance request names the vendor company sent,
the visit date and the estimate. The case's lease gets a note, and the case's
maintenance request is cancelled or handed to the contractor a policy names."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._property_management_models import (
    Lease, MaintenanceRequest, Property, Tenant, Unit, Vendor,
)
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, next_id, pick,
)

SERVICE = "property_management"
#: The two general contractors a policy can route work to: (larger jobs, smaller jobs).
CONTRACTORS = ("VND-0001", "VND-0002")
#: Vendor name endings and the trade (and request category) they stand for.
_TRADES = {"Plumbing": "plumbing", "Electric": "electrical", "Heating & Air": "hvac",
           "Appliance Repair": "appliance", "Handyman Services": "general"}
_ISSUES = {"plumbing": "Water heater leaking", "electrical": "Breaker keeps tripping", "hvac": "Furnace not igniting",
           "appliance": "Refrigerator not cooling", "general": "Back door frame rotted"}


def vendor_name(ctx: Ctx) -> str:
    """A realistic maintenance vendor's company name, e.g. 'Lopez Plumbing'."""
    return f"{ctx.last_name()} {ctx.rng.choice(sorted(_TRADES))}"


def next_lease_id(state: dict[str, Any]) -> str:
    """Take the next free lease id from the property system's counters (as ``new_id("LSE")``)."""
    return next_id(state, "LSE")


def next_request_id(state: dict[str, Any]) -> str:
    """Take the next free maintenance request id (as ``new_id("MNT")``)."""
    return next_id(state, "MNT")


def _home(ctx: Ctx, address: str, rent: float) -> str:
    """The unit of the single-family home at ``address``, planted if it is new."""
    state = ctx.state(SERVICE)
    for pid, p in state["properties"].items():
        if p["address"].lower() == address.lower():
            return next(u for u, rec in state["units"].items() if rec["property_id"] == pid)
    manager = state["properties"][ctx.rng.choice(sorted(state["properties"]))]
    pid = next_id(state, "PRP")
    state["properties"][pid] = Property.model_validate({
        "id": pid, "name": address, "address": address, "city": ctx.fresh("city"), "state": "WA",
        "postal_code": f"98{ctx.rng.randint(100, 999)}", "property_type": "single_family",
        "manager_email": manager["manager_email"], "manager_name": manager["manager_name"]}).model_dump(mode="json")
    uid = next_id(state, "UNT")
    state["units"][uid] = Unit.model_validate({
        "id": uid, "property_id": pid, "unit_number": "Main", "bedrooms": 3, "bathrooms": 2.0, "square_feet": 1650,
        "market_rent": rent}).model_dump(mode="json")
    return uid


def _tenant(ctx: Ctx, email: str, name: str) -> str:
    state = ctx.state(SERVICE)
    for tid, t in state["tenants"].items():
        if t["email"].lower() == email.lower():
            return tid
    tid = next_id(state, "TNT")
    state["tenants"][tid] = Tenant.model_validate({"id": tid, "name": name, "email": email,
                                                   "phone": ctx.fresh("phone")}).model_dump(mode="json")
    return tid


def plant_lease(ctx: Ctx, lease_id: str, *, email: str, name: str, rent: float, end: str,
                address: Optional[str] = None, ended: bool = False) -> str:
    """Add a :class:`Lease` of a single-family home (planted at ``address``,
    or at a fresh one) to the tenant ``email``: active until ``end`` with this
    month's rent charged and paid, or ``ended`` (a former tenancy, over more
    than a year ago). Returns ``lease_id``.

    Raises:
        pydantic.ValidationError: the fields do not make a valid lease.
    """
    state = ctx.state(SERVICE)
    unit = _home(ctx, address or ctx.fresh("address"), rent)
    last = dt.date.fromisoformat(ctx.day(-430) if ended else end)
    first = last.replace(year=last.year - 1) + dt.timedelta(days=1)
    month = ctx.today.replace(day=1).isoformat()
    ledger = [] if ended else [
        {"id": next_id(state, "TRX"), "kind": "charge", "charge_type": "rent", "amount": rent, "date": month,
         "memo": "Rent"},
        {"id": next_id(state, "TRX"), "kind": "payment", "amount": rent, "date": month, "memo": "ACH transfer"}]
    lease = Lease.model_validate({
        "id": lease_id, "property_id": state["units"][unit]["property_id"], "unit_id": unit,
        "tenant_id": _tenant(ctx, email, name), "tenant_name": name, "tenant_email": email,
        "start_date": first.isoformat(), "end_date": last.isoformat(), "rent": rent, "security_deposit": rent,
        "status": "ended" if ended else "active", "move_out_date": last.isoformat() if ended else None,
        "deposit_returned": rent if ended else None, "transactions": ledger})
    state["leases"][lease_id] = lease.model_dump(mode="json")
    return lease_id


def monthly_rent(ctx: Ctx) -> float:
    """A plausible monthly rent of a single-family home (USD, in steps of 25)."""
    return float(ctx.rng.randint(56, 140) * 25)


def repair_estimate(ctx: Ctx) -> float:
    """A plausible vendor estimate for a repair (USD)."""
    return round(ctx.rng.randint(18000, 240000) / 100, 2)


def _plant_lease(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    lid = key if by == "id" else next_lease_id(state)
    email = str(key) if by == "email" else outs.get("email") or ctx.person()[1]
    if by == "address" and stale:  # the former tenant of the same home
        email = ctx.person()[1]
    name = outs.get("person_name") or name_from_email(email)
    return plant_lease(ctx, lid, email=email, name=name, rent=outs.get("money") or monthly_rent(ctx),
                       end=outs.get("date") or ctx.day(ctx.rng.randint(60, 300)),
                       address=str(key) if by == "address" else None, ended=stale)


def _home_lease(reader: Reader, key: Any) -> dict[str, Any]:
    home = pick(reader.read(SERVICE, "list_properties", search=key), address=key)
    return pick(reader.read(SERVICE, "list_leases", property_id=home["id"], status="active"))


_TENANT = Give("email", "tenant_email", "the tenant's email address", "the customer")
_NAME = Give("person_name", "tenant_name", "the tenant's name", "the customer")
_RENT = Give("money", "rent", "the monthly rent", draw=monthly_rent)
_END = Give("date", "end_date", "the lease end date")
_LEASE_ID = Give("lease_id", "id", "the lease")

LEASE = Relay(
    service=SERVICE, name="lease", key="lease_id", gives=(_TENANT, _NAME, _RENT, _END, _LEASE_ID),
    plant=lambda ctx, key, outs, stale: _plant_lease(ctx, key, outs, stale, "id"),
    find=lambda reader, key: reader.read(SERVICE, "get_lease", lease_id=key),
    where="Each lease in the property system names its tenant, the monthly rent and the end of its term.",
    alloc=lambda ctx: next_lease_id(ctx.state(SERVICE)), entry=lambda key: f"lease {key}")

TENANT_LEASE = Relay(
    service=SERVICE, name="tenant's active lease", key="email", gives=(_LEASE_ID, _RENT, _END),
    plant=lambda ctx, key, outs, stale: _plant_lease(ctx, key, outs, stale, "email"),
    find=lambda reader, key: pick(reader.read(SERVICE, "list_leases", tenant_email=key, status="active")),
    where="The property system files leases under the tenant's email address.",
    truth="An ended lease is history; only the tenant's active lease counts.")

HOME_LEASE = Relay(
    service=SERVICE, name="rented home's lease", key="address", gives=(_TENANT, _NAME, _LEASE_ID),
    plant=lambda ctx, key, outs, stale: _plant_lease(ctx, key, outs, stale, "address"),
    find=_home_lease,
    where="The property system lists each rented home under its street address, with its leases.",
    truth="Ended leases belong to former tenants; only the home's active lease counts.")


def _plant_request(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state(SERVICE)
    company = outs.get("company") or vendor_name(ctx)
    trade = next((t for end, t in _TRADES.items() if company.endswith(end)), "general")
    vid = next((v for v, rec in state["vendors"].items() if rec["name"].lower() == company.lower()), None)
    if vid is None:
        vid = next_id(state, "VND")
        slug = "".join(ch for ch in company.lower() if ch.isalnum())[:20]
        state["vendors"][vid] = Vendor.model_validate({
            "id": vid, "name": company, "trade": trade, "email": f"dispatch@{slug}.example",
            "phone": ctx.fresh("phone"),
            "active": True, "insurance_expires": ctx.day(365)}).model_dump(mode="json")
    email = outs.get("email") or ctx.person()[1]
    lease = plant_lease(ctx, next_lease_id(state), email=email, name=name_from_email(email), rent=monthly_rent(ctx),
                        end=ctx.day(ctx.rng.randint(90, 300)))
    home = state["leases"][lease]
    category = state["vendors"][vid]["trade"]
    category = ctx.rng.choice(sorted(_ISSUES)) if category not in _ISSUES else category
    req = MaintenanceRequest.model_validate({
        "id": key, "property_id": home["property_id"], "unit_id": home["unit_id"], "tenant_email": email,
        "category": category, "priority": "high", "description": _ISSUES[category], "status": "assigned",
        "created_on": ctx.day(-2), "vendor_id": vid, "vendor_name": company,
        "scheduled_date": outs.get("date") or ctx.day(ctx.rng.randint(3, 20)),
        "estimate": outs.get("money") or repair_estimate(ctx)})
    state["maintenance_requests"][key] = req.model_dump(mode="json")
    return key


REQUEST = Relay(
    service=SERVICE, name="maintenance request", key="maintenance_request_id",
    gives=(Give("company", "vendor_name", "the vendor sent to the job", draw=vendor_name, party="vendor"),
           Give("date", "scheduled_date", "the vendor visit date"),
           Give("money", "estimate", "the repair estimate", draw=repair_estimate),
           _TENANT, Give("maintenance_request_id", "id", "the maintenance request")),
    plant=_plant_request, find=lambda reader, key: reader.read(SERVICE, "get_maintenance_request", request_id=key),
    where="Each maintenance request names the vendor sent, the visit date, the estimate and the reporting tenant.",
    alloc=lambda ctx: next_request_id(ctx.state(SERVICE)), entry=lambda key: f"maintenance request {key}")


def _scope(collection: str, rid: str, noun: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection=collection, allow_ids=[rid],
                        description=f"No other {noun} was changed or created.")]


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    lid, mention, case = args["lease"].value, args["mention"], args["case"].value
    reader.read(SERVICE, "get_lease", lease_id=lid)
    return Write(
        calls=[call("add_lease_note", lease_id=lid, note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="leases", record_id=lid,
                              where={"notes": {"$some": {"$all": [{"$contains": case},
                                                                  {"$contains": mention.display}]}}},
                              description="A note on the lease quotes the case and the right value.")],
        scope=_scope("leases", lid, "lease"), tool="add_lease_note", where={"lease_id": lid}, label="the lease note")


def _reassign(reader: Reader, args: dict[str, Found]) -> Write:
    rid, vid = args["request"].value, args["vendor"].value
    req = reader.read(SERVICE, "get_maintenance_request", request_id=rid)
    return Write(
        calls=[call("assign_vendor", request_id=rid, vendor_id=vid, scheduled_date=req["scheduled_date"])],
        checks=[RecordMatches(id="_", service=SERVICE, collection="maintenance_requests", record_id=rid,
                              where={"status": "assigned", "vendor_id": vid},
                              description="The maintenance request is assigned to the contractor the policy names.")],
        scope=_scope("maintenance_requests", rid, "maintenance request"), tool="assign_vendor",
        where={"request_id": rid}, label="the vendor assignment")


def _cancel(reader: Reader, args: dict[str, Found]) -> Write:
    rid, case = args["request"].value, args["case"].value
    reader.read(SERVICE, "get_maintenance_request", request_id=rid)
    return Write(
        calls=[call("cancel_maintenance_request", request_id=rid, reason=f"Cancelled for {case}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="maintenance_requests", record_id=rid,
                              where={"status": "cancelled", "resolution": {"$contains": case}},
                              description="The maintenance request is cancelled, its reason naming the case.")],
        scope=_scope("maintenance_requests", rid, "maintenance request"), tool="cancel_maintenance_request",
        where={"request_id": rid}, label="the cancelled maintenance request")


LINKS = ServiceLinks(
    service=SERVICE, label="the property management system",
    relays=(LEASE, TENANT_LEASE, HOME_LEASE, REQUEST),
    actions=(
        Action(service=SERVICE, name="note", needs=(Need("lease", "lease_id"),), build=_note,
               goal="add a note to the lease stating {mention}"),
        Action(service=SERVICE, name="reassign",
               needs=(Need("vendor", "vendor_id", noun="contractor"), Need("request", "maintenance_request_id")),
               build=_reassign, goal="hand the maintenance request to {vendor}", routable=True),
        Action(service=SERVICE, name="cancel", needs=(Need("request", "maintenance_request_id"),), build=_cancel,
               goal="cancel the maintenance request, naming the case in the reason"),
    ),
    route_values={"vendor_id": lambda ctx: CONTRACTORS},
)

__all__ = ["CONTRACTORS", "LINKS", "next_lease_id", "next_request_id", "monthly_rent", "plant_lease", "repair_estimate",
           "vendor_name"]
