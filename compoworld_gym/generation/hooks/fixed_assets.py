"""Fixed assets in chained tasks: an asset in the register names its
custodian (a staff member), its net book value and the city of its site; a
purchase order, a vendor bill, a vendor's name or a custodian's work email
leads to the asset bought or held. Writes: transfer the case's asset to the
custodian a policy names, sell it for its net book value, or note a
discovered value on it."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._company import OPS_EMAIL, STAFF
from compoworld_gym.envs.services._fixed_assets_models import Custodian, FixedAsset
from compoworld_gym.envs.services._fixed_assets_seed import SITES
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import employee_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id,
)

SERVICE = "fixed_assets"
_ITEMS = (("27-inch 4K Monitor x12", "CLS-COMP"), ("Dell Latitude 7450 laptops x6", "CLS-COMP"),
          ("Conference room display", "CLS-COMP"), ("Warehouse barcode scanners x10", "CLS-COMP"))


def next_asset_id(state: dict[str, Any]) -> str:
    """Take the next free asset number from the register's counters."""
    return next_id(state, "FA")


def _ref(ctx: Ctx, service: str, prefix: str, start: int) -> str:
    """Another service's next id when it is mounted, else one counted in this state past its seed."""
    if service in ctx.states:
        return next_id(ctx.state(service), prefix)
    ctx.state(SERVICE)["counters"].setdefault(prefix, start + ctx.rng.randrange(20))
    return ctx.new_id(SERVICE, prefix)


def _custodian(state: dict[str, Any], email: str) -> dict[str, Any]:
    for c in state["custodians"].values():
        if c["email"].lower() == email.lower():
            return c
    name = " ".join(p.capitalize() for p in email.split("@")[0].split("."))
    c = Custodian(id=next_id(state, "CUS"), name=name or "Employee", email=email).model_dump(mode="json")
    state["custodians"][c["id"]] = c
    return c


def plant_asset(ctx: Ctx, asset_id: str, *, custodian: str, nbv: float, vendor: str, po_id: str, bill_id: str,
                site: str = "San Francisco HQ", disposed: bool = False) -> str:
    """Add a :class:`FixedAsset` (validated) acquired and placed in service today (so its net book value is
    its cost, ``nbv``) on ``po_id``/``bill_id`` from ``vendor``, held by ``custodian`` (a custodian record is
    added if new); ``disposed`` marks a look-alike already written off. Returns its id."""
    state = ctx.state(SERVICE)
    c = _custodian(state, custodian)
    name, cls = ctx.rng.choice(_ITEMS)
    record = FixedAsset.model_validate({
        "id": asset_id, "name": name, "description": f"Bought on {po_id}", "class_id": cls, "cost": nbv,
        "residual_value": 0.0, "useful_life_months": 36, "acquisition_date": ctx.day(0),
        "in_service_date": ctx.day(0), "status": "disposed" if disposed else "in_service", "location": site,
        "city": SITES[site], "custodian_email": c["email"], "custodian_name": c["name"], "vendor_name": vendor,
        "po_id": po_id, "bill_id": bill_id})
    state["assets"][asset_id] = record.model_dump(mode="json")
    return asset_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    aid = key if by == "id" else next_asset_id(state)
    site = next((s for s, c in SITES.items() if c == outs.get("city")), None) or ctx.rng.choice(sorted(SITES))
    return plant_asset(
        ctx, aid, custodian=key if by == "custodian" else outs.get("email") or ctx.rng.choice(STAFF).email,
        nbv=outs.get("money") or ctx.fresh("money"), vendor=key if by == "company" else ctx.fresh("company"),
        po_id=key if by == "po" else _ref(ctx, "procurement", "PO", 40),
        bill_id=key if by == "bill" else _ref(ctx, "accounts_payable", "BIL", 40), site=site, disposed=stale)


def _in_service(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_assets", status="in_service", limit=200, **where)
    if not rows:
        raise SolveError(f"no asset in service matches {where}")
    return reader.read(SERVICE, "get_asset", asset_id=latest(rows, "acquisition_date")["id"])


_CUSTODIAN = Give("email", "custodian_email", "the asset custodian's work email", "the custodian",
                  draw=employee_email)
_NBV = Give("money", "net_book_value", "the asset's net book value")
_CITY = Give("city", "city", "the city where the asset is kept",
             draw=lambda ctx: ctx.rng.choice(sorted(SITES.values())))
_ASSET = Give("fixed_asset_id", "id", "the fixed asset")
_TRUTH = "A disposed asset is off the books; only the asset in service counts."

ASSET = Relay(
    service=SERVICE, name="fixed asset", key="fixed_asset_id", gives=(_CUSTODIAN, _NBV, _CITY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"),
    find=lambda reader, key: reader.read(SERVICE, "get_asset", asset_id=key),
    where="Each fixed asset in the asset register names its custodian, its net book value and where it is kept.",
    alloc=lambda ctx: next_asset_id(ctx.state(SERVICE)), entry=lambda key: f"fixed asset {key}")

PO_ASSET = Relay(
    service=SERVICE, name="purchase order's fixed asset", key="purchase_order_id", gives=(_ASSET, _CUSTODIAN, _NBV),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "po"),
    find=lambda reader, key: _in_service(reader, po_id=key), truth=_TRUTH,
    alloc=lambda ctx: _ref(ctx, "procurement", "PO", 40),
    where="Equipment bought on a purchase order is capitalized in the asset register under the PO number; the "
          "latest asset in service from it is the one in play.")

BILL_ASSET = Relay(
    service=SERVICE, name="vendor bill's fixed asset", key="bill_id", gives=(_ASSET, _CUSTODIAN, _NBV),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "bill"),
    find=lambda reader, key: _in_service(reader, bill_id=key), truth=_TRUTH,
    alloc=lambda ctx: _ref(ctx, "accounts_payable", "BIL", 40),
    where="A capitalized purchase is recorded in the asset register with the vendor bill it was paid on.")

VENDOR_ASSET = Relay(
    service=SERVICE, name="vendor's fixed asset", key="company", key_party="vendor", gives=(_ASSET, _CUSTODIAN, _NBV),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "company"),
    find=lambda reader, key: _in_service(reader, vendor_name=key), truth=_TRUTH,
    where="The asset register records the vendor each asset was bought from; the vendor's most recently acquired "
          "asset in service is the one in play.")

CUSTODIAN_ASSET = Relay(
    service=SERVICE, name="custodian's fixed asset", key="email", gives=(_ASSET, _NBV, _CITY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "custodian"),
    find=lambda reader, key: _in_service(reader, custodian_email=key), truth=_TRUTH, key_role="staff",
    where="Company equipment is held by an employee custodian in the asset register, under their work email; "
          "their most recently acquired asset in service is the one in play.")


def _live(reader: Reader, aid: str) -> dict[str, Any]:
    a = reader.read(SERVICE, "get_asset", asset_id=aid)
    if a["status"] == "disposed":
        raise SolveError(f"asset {aid} is disposed")
    return a


def _asset_scope(aid: str) -> OnlyChanged:
    return OnlyChanged(id="_", service=SERVICE, collection="assets", allow_ids=[aid],
                       description="No other asset was changed or added.")


def _transfer(reader: Reader, args: dict[str, Found]) -> Write:
    aid, to = args["asset"].value, args["custodian"].value
    a = _live(reader, aid)
    if a["custodian_email"].lower() == str(to).lower():
        raise SolveError(f"asset {aid} is already held by {to}")
    return Write(
        calls=[call("transfer_asset", asset_id=aid, to_custodian_email=to, reason=f"{args['case'].value}")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="assets", record_id=aid,
                              where={"custodian_email": to, "status": a["status"]},
                              description="The asset is held by the new custodian.")],
        scope=[_asset_scope(aid)], tool="transfer_asset", where={"asset_id": aid}, label="the asset transfer")


def _sell(reader: Reader, args: dict[str, Found]) -> Write:
    aid = args["asset"].value
    nbv = _live(reader, aid)["net_book_value"]
    return Write(
        calls=[call("dispose_asset", asset_id=aid, method="sale", proceeds=nbv, notes=f"{args['case'].value}")],
        checks=[RecordExists(id="_", service=SERVICE, collection="disposals",
                             where={"asset_id": aid, "method": "sale", "proceeds": nbv, "gain_loss": 0.0},
                             description="The asset is sold for its net book value, at no gain or loss."),
                RecordMatches(id="_", service=SERVICE, collection="assets", record_id=aid,
                              where={"status": "disposed"}, description="The asset is disposed.")],
        scope=[_asset_scope(aid), OnlyChanged(id="_", service=SERVICE, collection="disposals",
                                              allow_new={"asset_id": aid},
                                              description="No other asset was disposed.")],
        tool="dispose_asset", where={"asset_id": aid}, label="the asset sale", moves_money=True)


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    aid, mention = args["asset"].value, args["mention"]
    reader.read(SERVICE, "get_asset", asset_id=aid)
    return Write(
        calls=[call("add_asset_note", asset_id=aid, author_email=OPS_EMAIL,
                    body=f"{args['case'].value}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="assets", record_id=aid,
                              where={"notes": {"$any": {"body": {"$contains": mention.display}}}},
                              description="A note on the asset quotes the right value.")],
        scope=[_asset_scope(aid)], tool="add_asset_note", where={"asset_id": aid}, label="the note on the asset")


def _keepers(ctx: Ctx) -> tuple[str, str]:
    a, b = ctx.rng.sample([s.email for s in STAFF if s.team in ("logistics", "engineering", "finance")], 2)
    return a, b


_NEED = (Need("asset", "fixed_asset_id"),)

LINKS = ServiceLinks(
    service=SERVICE, label="the fixed asset register",
    relays=(ASSET, PO_ASSET, BILL_ASSET, VENDOR_ASSET, CUSTODIAN_ASSET),
    actions=(
        Action(service=SERVICE, name="transfer",
               needs=(Need("custodian", "email", ("the new custodian",), "custodian"), Need("asset", "fixed_asset_id")),
               build=_transfer, goal="transfer the fixed asset to {custodian}", routable=True),
        Action(service=SERVICE, name="sell", needs=_NEED, build=_sell,
               goal="dispose of the fixed asset as a sale for exactly its net book value, so no gain or loss is "
                    "booked"),
        Action(service=SERVICE, name="note", needs=_NEED, build=_note,
               goal="add a note to the fixed asset stating {mention}"),
    ),
    route_values={"email": _keepers},
)

__all__ = ["LINKS", "next_asset_id", "plant_asset"]
