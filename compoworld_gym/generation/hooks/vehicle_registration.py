"""Vehicle registration in chained tasks: a registration names the registered
owner's email, the renewal fees due and the expiration date; a fleet van's
registration is found by the fleet's unit number (the ``fleet`` service's
vehicle id) and names the fleet coordinator who files it (whose expense
report carries the fee); a resident's current registration is found by their
email. Writes: renew the registration (paying the fees), pay off a parking
hold on it, or note it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._fleet_seed import Vehicle as FleetVehicle
from compoworld_gym.envs.services._fleet_seed import plate, vin
from compoworld_gym.envs.services._permits_seed import CITY
from compoworld_gym.envs.services._vehicle_registration_models import Hold, Registration, SmogCertificate, Vehicle
from compoworld_gym.envs.services._vehicle_registration_rules import (
    RENEWAL_OPENS_DAYS, fee_lines, smog_required, value_for_vlf,
)
from compoworld_gym.envs.services._vehicle_registration_seed import (
    FLEET_ADDRESS, FLEET_CITY, FLEET_OWNER, FLEET_SPECS, PARKING_AGENCY, STATIONS,
)
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import employee_email, name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "vehicle_registration"
#: ``who`` of the renewal fees and the expiry date: drawn here, in a range a renewal can charge.
FEES, EXPIRY, COORDINATOR = "the registration renewal fees", "the registration expiry date", "the fleet coordinator"
#: Private cars a resident may register: (make, model, model years old, fuel, body, lbs).
_CARS = (("Toyota", "RAV4", 2, "hybrid", "SW", 3600), ("Honda", "Accord", 3, "gasoline", "SD", 3300),
         ("Subaru", "Outback", 1, "gasoline", "SW", 3700), ("Mazda", "CX-5", 4, "gasoline", "SW", 3500))
#: The last resort for a small amount: an older sedan with a fresh smog certificate (no smog abatement fee).
_OLD_CAR = ("Toyota", "Corolla", 9, "gasoline", "SD", 2900)


def renewal_fees(ctx: Ctx) -> float:
    """A plausible renewal total (USD) that a fleet van's fee schedule can reach."""
    return round(ctx.rng.randint(30000, 95000) / 100, 2)


def expiry_day(ctx: Ctx) -> str:
    """An expiration date inside the renewal period (10-60 days ahead)."""
    return ctx.day(ctx.rng.randint(10, min(60, RENEWAL_OPENS_DAYS)))


def unit_id(ctx: Ctx) -> str:
    """A fleet unit number: the fleet's next vehicle id when it is mounted, else past its eight seeded vans."""
    if "fleet" in ctx.states:
        fleet = ctx.state("fleet")
        return next_id(fleet, "VEH", start=len(fleet["vehicles"]) + 1)
    ctx.state(SERVICE)["counters"].setdefault("VEH", 9 + ctx.rng.randrange(25))
    return ctx.new_id(SERVICE, "VEH")


def _vehicle(ctx: Ctx, total: float, make: str, model: str, year: int, cls: str, fuel: str, body: str, lbs: int,
             vid: str) -> Vehicle | None:
    """The vehicle whose renewal today costs exactly ``total`` USD, or None when its fixed fees exceed it."""
    v = Vehicle(vin=vid, make=make, model=model, year=year, body_type=body, vehicle_class=cls, fuel=fuel,
                unladen_weight_lbs=lbs, market_value=0.0, odometer=ctx.rng.randint(8000, 90000),
                title_number=f"{ctx.rng.randint(10**7, 10**8 - 1)}",
                title_issued_on=dt.date(year, ctx.rng.randint(1, 12), ctx.rng.randint(1, 28)),
                lien_status="none")
    vlf = round(total - sum(x.amount for x in fee_lines(v, ctx.today)), 2)
    if vlf < 0.01:
        return None
    v.market_value = value_for_vlf(vlf)
    if smog_required(v, ctx.today):
        v.smog_certificates.append(SmogCertificate(
            certificate_number=f"SC{ctx.rng.randint(10**6, 10**7 - 1)}", station=ctx.rng.choice(STATIONS),
            tested_on=ctx.today - dt.timedelta(days=ctx.rng.randint(3, 30)), result="passed", odometer=v.odometer))
    return v


def plant_registration(ctx: Ctx, reg_id: str, *, total: float, expires: str, profiles: list[tuple], **fields: Any
                       ) -> str:
    """Add an active :class:`Registration` and its vehicle (validated) whose renewal costs ``total`` USD
    and that expires on ``expires``; the first of ``profiles`` (make, model, year, class, fuel, body, lbs,
    vin) whose fixed fees fit is used, else an older sedan. Returns the id."""
    state = ctx.state(SERVICE)
    year = ctx.today.year - _OLD_CAR[2]
    last = (_OLD_CAR[0], _OLD_CAR[1], year, "passenger", *_OLD_CAR[3:], vin(ctx.rng, year))
    v = next(x for p in [*profiles, last] if (x := _vehicle(ctx, total, *p[:7], p[7])) is not None)
    base = {"vin": v.vin, "plate": fields.pop("plate", None) or plate(ctx.rng), "status": "active", "city": CITY,
            "issued_on": ctx.day(-ctx.rng.randint(400, 1400)), "expires_on": expires, "renewals": [], "notes": []}
    reg = Registration.model_validate({**base, **fields, "id": reg_id})
    state["vehicles"][v.vin] = v.model_dump(mode="json")
    state["registrations"][reg_id] = reg.model_dump(mode="json")
    return reg_id


def _car(ctx: Ctx) -> list[tuple]:
    make, model, age, fuel, body, lbs = ctx.rng.choice(_CARS)
    year = ctx.today.year - age
    return [(make, model, year, "passenger", fuel, body, lbs, vin(ctx.rng, year))]


def sync_fleet(ctx: Ctx) -> None:
    """With the fleet mounted, give each active fleet registration its fleet van's VIN and plate (the two
    services draw them from their own random streams)."""
    if "fleet" not in ctx.states:
        return
    vans, state = ctx.state("fleet")["vehicles"], ctx.state(SERVICE)
    for reg in state["registrations"].values():
        van = vans.get(reg.get("unit_number") or "")
        if van is None or reg["status"] != "active" or reg["vin"] == van["vin"] or van["vin"] in state["vehicles"]:
            continue
        old = state["vehicles"].pop(reg["vin"])
        state["vehicles"][van["vin"]] = {**old, "vin": van["vin"], "make": van["make"], "model": van["model"],
                                         "year": van["year"]}
        reg.update(vin=van["vin"], plate=van["license_plate"])


def _plant_unit(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    sync_fleet(ctx)
    fleet = ctx.states.get("fleet", {}).get("vehicles", {})
    van = None if stale else fleet.get(key)
    make, model = (van["make"], van["model"]) if van else ("Ford", "Transit 250")
    year = van["year"] if van else ctx.today.year - ctx.rng.randint(1, 4)
    vid = van["vin"] if van else vin(ctx.rng, year)
    lbs, fuel, body = FLEET_SPECS.get(model, (5000, "gasoline", "VN"))
    profiles = [(make, model, year, "commercial", fuel, body, lbs, vid), (make, model, year, "passenger", fuel, body,
                                                                          lbs, vid)]
    extra = {"status": "cancelled", "cancel_reason": "Van retired and sold at auction."} if stale else {}
    rid = plant_registration(ctx, next_id(ctx.state(SERVICE), "REG"), total=outs.get("money") or renewal_fees(ctx),
                             expires=outs.get("date") or expiry_day(ctx), profiles=profiles,
                             plate=van["license_plate"] if van else None, registered_owner=FLEET_OWNER,
                             owner_company=FLEET_OWNER, owner_email=outs.get("email") or employee_email(ctx),
                             unit_number=key, mailing_address=FLEET_ADDRESS, city=FLEET_CITY, **extra)
    if "fleet" in ctx.states and not stale and key not in fleet:  # the fleet gets the van it registered
        reg = ctx.state(SERVICE)["registrations"][rid]
        v = ctx.state(SERVICE)["vehicles"][reg["vin"]]
        fleet[key] = FleetVehicle(id=key, name=f"Van {100 + int(key.split('-')[1])}", vin=v["vin"],
                                  license_plate=reg["plate"], make=v["make"], model=v["model"], year=v["year"],
                                  odometer_miles=v["odometer"], status="in_service",
                                  last_inspection=ctx.day(-ctx.rng.randint(3, 60))).model_dump(mode="json")
    return rid


def _plant_private(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    rid = key if by == "id" else next_id(state, "REG")
    email = key if by == "email" else outs.get("email") or ctx.person()[1]
    extra = {"status": "cancelled", "cancel_reason": "Vehicle sold; registered to the buyer out of state."} \
        if stale else {}
    return plant_registration(ctx, rid, total=outs.get("money") or renewal_fees(ctx),
                              expires=outs.get("date") or expiry_day(ctx), profiles=_car(ctx),
                              registered_owner=name_from_email(email), owner_email=email,
                              mailing_address=ctx.fresh("address"), **extra)


def _active(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "search_registrations", limit=200, **where)
    rid = pick([r for r in rows if r["status"] == "active"], **where)["id"]
    return reader.read(SERVICE, "get_registration", registration_id=rid)


_FEES = Give("money", "renewal_due", "the registration renewal fees due", FEES, draw=renewal_fees)
_EXPIRES = Give("date", "expires_on", "the registration expiration date", EXPIRY, draw=expiry_day)
_TRUTH = "A cancelled registration no longer counts; only the vehicle's active registration does."

REGISTRATION = Relay(
    service=SERVICE, name="vehicle registration", key="vehicle_registration_id",
    gives=(Give("email", "owner_email", "the registered owner's email address", "the customer"), _FEES, _EXPIRES),
    plant=lambda ctx, key, outs, stale: _plant_private(ctx, key, outs, stale, "id"),
    find=lambda reader, key: reader.read(SERVICE, "get_registration", registration_id=key),
    where="Each vehicle registration at the DMV names the registered owner's email, the renewal fees due and "
          "the expiration date.",
    alloc=lambda ctx: next_id(ctx.state(SERVICE), "REG"), entry=lambda key: f"vehicle registration {key}")

UNIT_REGISTRATION = Relay(
    service=SERVICE, name="fleet van's registration", key="vehicle_id",
    gives=(Give("vehicle_registration_id", "id", "the van's active registration"),
           Give("email", "owner_email", "the fleet coordinator's work email", COORDINATOR, draw=employee_email),
           _FEES, _EXPIRES),
    plant=_plant_unit, find=lambda reader, key: _active(reader, unit_number=key),
    where="The company's fleet registrations are filed at the DMV under the fleet's unit number, with the fleet "
          "coordinator who files them.",
    alloc=unit_id, entry=lambda key: f"fleet vehicle {key}", truth=_TRUTH)

OWNER_REGISTRATION = Relay(
    service=SERVICE, name="owner's active registration", key="email",
    gives=(Give("vehicle_registration_id", "id", "the owner's active vehicle registration"), _FEES, _EXPIRES),
    plant=lambda ctx, key, outs, stale: _plant_private(ctx, key, outs, stale, "email"),
    find=lambda reader, key: _active(reader, owner_email=key),
    where="Vehicle registrations are filed under the registered owner's email.", truth=_TRUTH)


def _scope(collection: str, rid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection=collection, allow_ids=[rid],
                        description=f"No other {collection[:-1]} was changed or created.")]


def _prepare_renew(ctx: Ctx, values: dict[str, Any]) -> None:
    """The case's registration carries no open hold (the agencies were paid last week)."""
    for h in ctx.state(SERVICE)["holds"].values():
        if h["registration_id"] == values["registration"] and h["status"] == "open":
            h.update(status="cleared", cleared_on=ctx.day(-5), reference="Paid online")


def _renew(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["registration"].value, args["mention"], args["case"].value
    q = reader.read(SERVICE, "get_renewal_fees", registration_id=rid)
    if not q["renewable"]:
        raise SolveError(f"registration {rid} cannot be renewed today ({q['blocked_by']})")
    return Write(
        calls=[call("renew_registration", registration_id=rid, amount=q["total_due"], payment_method="credit_card",
                    reference=f"{case}: {mention.display}"[:120])],
        checks=[RecordMatches(id="_", service=SERVICE, collection="registrations", record_id=rid,
                              where={"expires_on": q["new_expiration"],
                                     "renewals": {"$any": {"total": q["total_due"],
                                                           "reference": {"$contains": mention.display}}}},
                              description="The registration is renewed for a year, paying the fees due and quoting "
                                          "the value.")],
        scope=_scope("registrations", rid), tool="renew_registration", where={"registration_id": rid},
        label="the registration renewal", moves_money=True)


def _prepare_hold(ctx: Ctx, values: dict[str, Any]) -> None:
    """A parking citation left unpaid put a hold on the case's registration."""
    state, rid = ctx.state(SERVICE), values["registration"]
    if rid not in state["registrations"] or any(h["registration_id"] == rid and h["status"] == "open"
                                                for h in state["holds"].values()):
        return
    hid = next_id(state, "HLD")
    state["holds"][hid] = Hold(id=hid, registration_id=rid, kind="parking", agency=PARKING_AGENCY,
                               citation_number=f"P{ctx.rng.randint(10**6, 10**7 - 1)}",
                               amount=float(ctx.rng.choice((35, 45, 65, 90, 115))), status="open",
                               placed_on=ctx.day(-ctx.rng.randint(15, 60))).model_dump(mode="json")


def _pay_hold(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["registration"].value, args["mention"], args["case"].value
    holds = reader.read(SERVICE, "list_holds", registration_id=rid, status="open")
    if len(holds) != 1:
        raise SolveError(f"registration {rid} has {len(holds)} open holds")
    h = holds[0]
    return Write(
        calls=[call("pay_hold", hold_id=h["id"], amount=h["amount"], reference=f"{case}: {mention.display}"[:120])],
        checks=[RecordMatches(id="_", service=SERVICE, collection="holds", record_id=h["id"],
                              where={"status": "cleared", "reference": {"$contains": mention.display}},
                              description="The registration's parking hold is paid off, quoting the value.")],
        scope=_scope("holds", h["id"]), tool="pay_hold", where={"hold_id": h["id"]},
        label="the payment of the parking hold", moves_money=True)


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["registration"].value, args["mention"], args["case"].value
    reader.read(SERVICE, "get_registration", registration_id=rid)
    return Write(
        calls=[call("add_registration_note", registration_id=rid,
                    note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="registrations", record_id=rid,
                              where={"notes": {"$some": {"$all": [{"$contains": case},
                                                                  {"$contains": mention.display}]}}},
                              description="The registration carries a note quoting the right value.")],
        scope=_scope("registrations", rid), tool="add_registration_note", where={"registration_id": rid},
        label="the note on the vehicle registration")


_REG = Need("registration", "vehicle_registration_id")

LINKS = ServiceLinks(
    service=SERVICE, label="the DMV business-partner portal",
    relays=(REGISTRATION, UNIT_REGISTRATION, OWNER_REGISTRATION),
    actions=(
        Action(service=SERVICE, name="renew", needs=(_REG,), build=_renew, prepare=_prepare_renew,
               goal="renew the vehicle registration, paying the fees due and quoting {mention} in the payment "
                    "reference"),
        Action(service=SERVICE, name="pay hold", needs=(_REG,), build=_pay_hold, prepare=_prepare_hold,
               goal="pay off the open parking hold on the vehicle registration, quoting {mention} in the payment "
                    "reference"),
        Action(service=SERVICE, name="note", needs=(_REG,), build=_note,
               goal="add a note to the vehicle registration, quoting {mention}"),
    ),
)

__all__ = ["LINKS", "expiry_day", "plant_registration", "renewal_fees", "sync_fleet", "unit_id"]
