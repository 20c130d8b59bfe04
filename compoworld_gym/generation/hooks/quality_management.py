"""Quality management in chained tasks: an NCR names the nonconforming part
(SKU), its supplier, the quality owner investigating it and the estimated
cost of the nonconformance, which a house policy can decide by; a
manufacturing order's, a SKU's or a supplier's open NCR is found by that MO
id, SKU or company name. A CAPA names its owner and due date. Writes: the
material review board's disposition of the NCR (rework, scrap, return to
vendor), closing a dispositioned NCR, opening a CAPA for it, or verifying a
CAPA as effective and closing it."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._commerce import PRODUCTS_BY_SKU
from compoworld_gym.envs.services._quality_management_models import Capa, Ncr, Part, QualityUser
from compoworld_gym.envs.services._quality_management_seed import TEAM, email_of
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id,
)

SERVICE = "quality_management"
#: Quality engineers on the material review board who own planted NCRs and CAPAs (never the manager).
OWNERS = tuple(email_of(n) for n, title, mrb, active in TEAM if mrb and active and title != "Quality Manager")
_LIVE = ("open", "investigation", "dispositioned")
_PRODUCTS = ("CH-ERG-05", "DK-STD-06", "LP-LED-07", "KB-MECH-01")


def next_ncr_id(state: dict[str, Any]) -> str:
    """Take the next free NCR number from the service's counters (as ``new_id("NCR")``)."""
    return next_id(state, "NCR")


def mo_key(ctx: Ctx) -> str:
    """A manufacturing order id: the MRP's next one when it is mounted, else one past the seeded MOs."""
    if "manufacturing" in ctx.states:
        return next_id(ctx.state("manufacturing"), "MO")
    return next_id(ctx.state(SERVICE), "MO", start=40)


def owner_email(ctx: Ctx) -> str:
    """A quality engineer who owns NCRs and CAPAs."""
    return ctx.rng.choice(OWNERS)


def _user(state: dict[str, Any], email: str) -> dict[str, Any]:
    for u in state["users"].values():
        if u["email"].lower() == email.lower():
            return u
    uid = next_id(state, "USR")
    state["users"][uid] = QualityUser(id=uid, name=name_from_email(email), email=email, title="Quality Engineer",
                                      mrb_member=True).model_dump(mode="json")
    return state["users"][uid]


def _part(state: dict[str, Any], sku: str, supplier: Optional[str]) -> dict[str, Any]:
    key = sku.upper()
    if key not in state["parts"]:
        known = PRODUCTS_BY_SKU.get(key)
        state["parts"][key] = Part(sku=key, name=known.name if known else f"Component {key}",
                                   kind="product" if known or not supplier else "material", unit_of_measure="pcs",
                                   unit_cost=known.cost if known else 18.0,
                                   supplier=None if known else supplier).model_dump(mode="json")
    return state["parts"][key]


def plant_ncr(ctx: Ctx, nid: str, *, sku: str, cost: float, supplier: str, owner: str,
              mo: Optional[str] = None, void: bool = False) -> str:
    """Add a major :class:`Ncr` (validated) on a lot of ``sku`` from ``supplier``, raised yesterday and under
    investigation by ``owner`` (a board member), estimated at ``cost``; or, ``void``, a duplicate voided
    last week. Returns the id."""
    state = ctx.state(SERVICE)
    part, who = _part(state, sku, supplier), _user(state, owner)
    day = ctx.today - dt.timedelta(days=6 if void else 1)
    qty = float(ctx.rng.randint(4, 60))
    ncr = Ncr(id=nid, title=f"{part['name']} out of specification", description="Measured outside the drawing "
              "tolerance at inspection; lot quarantined.", source="in_process" if mo else "incoming_inspection",
              sku=part["sku"], part_name=part["name"], lot_number=f"LOT-{day:%y%m}-{ctx.rng.randint(100, 999)}",
              manufacturing_order_id=mo, quantity_affected=qty, supplier=supplier, severity="major",
              status="void" if void else "investigation", owner_name=who["name"], owner_email=who["email"],
              reported_by=who["email"], reported_on=day, cost=cost,
              void_reason="Duplicate of an NCR raised on the same lot." if void else None)
    state["ncrs"][nid] = ncr.model_dump(mode="json")
    return nid


def _mo_sku(ctx: Ctx, mo: str) -> Optional[str]:
    return ctx.states.get("manufacturing", {}).get("orders", {}).get(mo, {}).get("sku")


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    nid = key if by == "id" else next_ncr_id(ctx.state(SERVICE))
    mo = str(key) if by == "mo" else None
    sku = str(key) if by == "sku" else outs.get("sku") or (mo and _mo_sku(ctx, mo)) or ctx.rng.choice(_PRODUCTS)
    supplier = str(key) if by == "company" else outs.get("company") or ctx.fresh("company")
    return plant_ncr(ctx, nid, sku=sku, cost=outs.get("money") or ctx.fresh("money"), supplier=supplier,
                     owner=outs.get("email") or owner_email(ctx), mo=mo, void=stale)


def plant_capa(ctx: Ctx, cid: str, *, owner: str, due: str) -> str:
    """Add a corrective :class:`Capa` (validated) owned by ``owner`` and due ``due``, its actions implemented
    and waiting for the effectiveness check, addressing a rework NCR planted with it. Returns the id."""
    state = ctx.state(SERVICE)
    nid = plant_ncr(ctx, next_ncr_id(state), sku=ctx.rng.choice(_PRODUCTS), cost=ctx.fresh("money"),
                    supplier=ctx.fresh("company"), owner=owner)
    ncr = state["ncrs"][nid]
    ncr.update(status="dispositioned", disposition="rework", disposition_notes="Rework the lot and re-inspect.",
               disposition_approved_by=ncr["owner_email"], dispositioned_on=ctx.day(0), capa_ids=[cid])
    who = _user(state, owner)
    capa = Capa(id=cid, title=f"Corrective action for {nid}", type="corrective", problem_statement=ncr["title"],
                owner_name=who["name"], owner_email=who["email"], ncr_ids=[nid], due_date=due,
                root_cause="Fixture wear let parts drift out of tolerance.",
                action_plan="Replace the fixture, add a first-article check per shift.", status="pending_verification",
                created_on=ctx.day(-20), actions_completed_on=ctx.day(-2))
    state["capas"][cid] = capa.model_dump(mode="json")
    return cid


def _get(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_ncr", ncr_id=key)


def _open(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_ncrs", open_only=True, limit=200, **where)
    return _get(reader, latest(rows, "reported_on")["id"])


_COST = Give("money", "cost", "the estimated cost of the nonconformance", "the nonconformance cost")
_SUPPLIER = Give("company", "supplier", "the supplier of the nonconforming material", party="vendor")
_NCR_ID = Give("nonconformance_id", "id", "the open NCR")
_TRUTH = "A void or closed NCR is history; only the latest open NCR counts."

NCR = Relay(
    service=SERVICE, name="nonconformance report", key="nonconformance_id",
    gives=(Give("sku", "sku", "the nonconforming part's SKU"), _COST, _SUPPLIER,
           Give("email", "owner_email", "the NCR owner's email address", "the NCR owner", draw=owner_email)),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_get,
    where="Each NCR names the nonconforming part, its supplier, the quality owner and the estimated cost.",
    alloc=lambda ctx: next_ncr_id(ctx.state(SERVICE)), entry=lambda key: f"NCR {key}")

MO_NCR = Relay(
    service=SERVICE, name="manufacturing order's open NCR", key="manufacturing_order_id",
    gives=(_NCR_ID, _COST, _SUPPLIER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "mo"),
    find=lambda reader, key: _open(reader, manufacturing_order_id=key), alloc=mo_key,
    where="Nonconformances found in production are filed as NCRs under the manufacturing order's id.", truth=_TRUTH)

SKU_NCR = Relay(
    service=SERVICE, name="SKU's open NCR", key="sku", gives=(_NCR_ID, _COST, _SUPPLIER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "sku"),
    find=lambda reader, key: _open(reader, sku=key),
    where="The quality system files NCRs under the nonconforming part's SKU.", truth=_TRUTH)

SUPPLIER_NCR = Relay(
    service=SERVICE, name="supplier's open NCR", key="company", key_party="vendor",
    gives=(_NCR_ID, Give("sku", "sku", "the SKU of the supplier's nonconforming part"), _COST),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "company"),
    find=lambda reader, key: _open(reader, supplier=key),
    where="NCRs on bought-in material are filed under the supplier's company name.", truth=_TRUTH)

CAPA = Relay(
    service=SERVICE, name="CAPA", key="capa_id",
    gives=(Give("email", "owner_email", "the CAPA owner's email address", "the CAPA owner", draw=owner_email),
           Give("date", "due_date", "the CAPA's due date")),
    plant=lambda ctx, key, outs, stale: plant_capa(ctx, key, owner=outs.get("email") or owner_email(ctx),
                                                   due=outs.get("date") or ctx.fresh("date")),
    find=lambda reader, key: reader.read(SERVICE, "get_capa", capa_id=key),
    where="Each CAPA names its owner and its due date.",
    alloc=lambda ctx: next_id(ctx.state(SERVICE), "CAPA"), entry=lambda key: f"CAPA {key}")


def _ncrs_scope(nid: str) -> OnlyChanged:
    return OnlyChanged(id="_", service=SERVICE, collection="ncrs", allow_ids=[nid],
                       description="No other NCR was changed or created.")


def _dispose(disposition: str):
    def build(reader: Reader, args: dict[str, Found]) -> Write:
        nid, mention, case = args["ncr"].value, args["mention"], args["case"].value
        n = _get(reader, nid)
        if n["status"] != "investigation" or (disposition == "return_to_vendor" and not n["supplier"]):
            raise SolveError(f"NCR {nid} cannot be dispositioned {disposition}")
        notes = f"{case}: {mention.noun} is {mention.display}."
        return Write(
            calls=[call("set_disposition", ncr_id=nid, disposition=disposition, notes=notes)],
            checks=[RecordMatches(id="_", service=SERVICE, collection="ncrs", record_id=nid,
                                  where={"status": "dispositioned", "disposition": disposition,
                                         "disposition_notes": {"$all": [{"$contains": case},
                                                                        {"$contains": mention.display}]}},
                                  description=f"The NCR is dispositioned {disposition.replace('_', ' ')}, the "
                                              "notes quoting the case and the value.")],
            scope=[_ncrs_scope(nid)], tool="set_disposition", where={"ncr_id": nid},
            label=f"the {disposition.replace('_', '-')} disposition")
    return build


def _prepare_close(ctx: Ctx, values: dict[str, Any]) -> None:
    """The board already dispositioned the NCR: rework, approved by its owner."""
    n = ctx.state(SERVICE)["ncrs"].get(values["ncr"])
    if n and n["status"] == "investigation":
        n.update(status="dispositioned", disposition="rework", disposition_notes="Rework and re-inspect the lot.",
                 disposition_approved_by=n["owner_email"], dispositioned_on=ctx.day(0))


def _close(reader: Reader, args: dict[str, Found]) -> Write:
    nid = args["ncr"].value
    n = _get(reader, nid)
    if n["status"] != "dispositioned" or (n["severity"] == "critical" and not n["capa_ids"]):
        raise SolveError(f"NCR {nid} cannot be closed")
    return Write(
        calls=[call("close_ncr", ncr_id=nid)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="ncrs", record_id=nid, where={"status": "closed"},
                              description="The dispositioned NCR is closed.")],
        scope=[_ncrs_scope(nid)], tool="close_ncr", where={"ncr_id": nid}, label="the closed NCR")


def _open_capa(reader: Reader, args: dict[str, Found]) -> Write:
    nid, mention, case = args["ncr"].value, args["mention"], args["case"].value
    n = _get(reader, nid)
    if n["status"] not in _LIVE or not n["owner_email"]:
        raise SolveError(f"NCR {nid} takes no CAPA")
    statement = f"{case}: {mention.noun} is {mention.display}."
    where = {"ncr_ids": [nid], "owner_email": {"$ieq": n["owner_email"]}, "type": "corrective", "status": "open",
             "problem_statement": {"$all": [{"$contains": case}, {"$contains": mention.display}]}}
    return Write(
        calls=[call("create_capa", title=f"Corrective action for {nid}", problem_statement=statement,
                    owner_email=n["owner_email"], ncr_ids=[nid])],
        checks=[RecordExists(id="_", service=SERVICE, collection="capas", where=where,
                             description="A corrective CAPA for the NCR is open, owned by the NCR's owner, its "
                                         "problem statement quoting the case and the value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="capas", allow_new={"ncr_ids": [nid]}, max_new=1,
                           description="No other CAPA was changed or created."), _ncrs_scope(nid)],
        tool="create_capa", where={"ncr_ids": [nid]}, label="the CAPA for the NCR")


def _verify(reader: Reader, args: dict[str, Found]) -> Write:
    cid, mention, case = args["capa"].value, args["mention"], args["case"].value
    c = reader.read(SERVICE, "get_capa", capa_id=cid)
    manager = next((u for u in reader.read(SERVICE, "list_quality_users", active=True)
                    if u["title"] == "Quality Manager"), None)
    if c["status"] != "pending_verification" or manager is None or manager["email"] == c["owner_email"]:
        raise SolveError(f"CAPA {cid} cannot be verified by the quality manager")
    notes = f"{case}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("record_effectiveness_check", capa_id=cid, result="effective", checked_by=manager["email"],
                    notes=notes), call("close_capa", capa_id=cid)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="capas", record_id=cid, where={
            "status": "closed", "effectiveness_checks": {"$any": {
                "result": "effective", "checked_by": manager["email"],
                "notes": {"$all": [{"$contains": case}, {"$contains": mention.display}]}}}},
            description="The quality manager's effectiveness check found the CAPA effective, its notes quoting "
                        "the case and the value, and the CAPA is closed.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="capas", allow_ids=[cid],
                           description="No other CAPA was changed or created."),
               OnlyChanged(id="_", service=SERVICE, collection="ncrs", description="No NCR was changed.")],
        tool="close_capa", where={"capa_id": cid}, label="the verified and closed CAPA")


_NEED = (Need("ncr", "nonconformance_id"),)

LINKS = ServiceLinks(
    service=SERVICE, label="the quality management system",
    relays=(NCR, MO_NCR, SKU_NCR, SUPPLIER_NCR, CAPA),
    actions=(
        Action(service=SERVICE, name="rework", needs=_NEED, build=_dispose("rework"),
               goal="disposition the NCR as rework, the disposition notes quoting {mention}"),
        Action(service=SERVICE, name="scrap", needs=_NEED, build=_dispose("scrap"),
               goal="disposition the NCR as scrap, the disposition notes quoting {mention}"),
        Action(service=SERVICE, name="return_to_vendor", needs=_NEED, build=_dispose("return_to_vendor"),
               effect="ends", goal="disposition the NCR as return to vendor, the disposition notes quoting {mention}"),
        Action(service=SERVICE, name="close", needs=_NEED, build=_close, prepare=_prepare_close,
               goal="close the NCR now that the review board has dispositioned it"),
        Action(service=SERVICE, name="capa", needs=_NEED, build=_open_capa,
               goal="open a corrective action (CAPA) for the NCR, owned by the NCR's owner, its problem statement "
                    "quoting {mention}"),
        Action(service=SERVICE, name="verify", needs=(Need("capa", "capa_id"),), build=_verify,
               goal="record the quality manager's effectiveness check of the CAPA as effective, its notes quoting "
                    "{mention}, and close the CAPA"),
    ),
)

__all__ = ["LINKS", "mo_key", "next_ncr_id", "owner_email", "plant_capa", "plant_ncr"]
