"""Manufacturing in chained tasks: a manufacturing order names the SKU it
makes and the sales order it is made for; a sales order's (or a SKU's) open
manufacturing order is found by that order id (or SKU); a replacement unit
is put into production for the case's order, the case's MO is started once
its materials are in, or it gets a shop-floor note."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._commerce import PRODUCTS_BY_SKU
from compoworld_gym.envs.services._manufacturing_seed import (
    Bom, BomLine, Item, ManufacturingOrder, cost_of, ingredients_for, qty,
)
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.invoicing import order_ref
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id,
)

_OPEN = ("not_started", "in_progress")
#: Materials a planted product is assembled from: (material SKU, quantity per unit).
_KIT = (("MAT-ALU-CASE", 1), ("MAT-USB-CBL", 1), ("MAT-PKG-BOX", 1))


def next_mo_id(state: dict[str, Any]) -> str:
    """Take the next free MO id from the manufacturing counters (as ``new_id("MO")``)."""
    return next_id(state, "MO")


def ensure_product(state: dict[str, Any], sku: str) -> str:
    """Make ``sku`` a product with a BOM (catalog name where the catalog sells
    it, a small assembly kit otherwise); returns the SKU as stored (upper case)."""
    key = sku.upper()
    if key not in state["items"]:
        known = PRODUCTS_BY_SKU.get(key)
        state["items"][key] = Item(sku=key, name=known.name if known else f"Assembly {key}", kind="product",
                                   unit_of_measure="pcs", unit_cost=known.cost if known else 18.0, in_stock=0,
                                   committed=0).model_dump(mode="json")
    if not any(b["product_sku"] == key for b in state["boms"].values()):
        bid = next_id(state, "BOM")
        state["boms"][bid] = Bom(id=bid, product_sku=key, lines=[BomLine(material_sku=m, quantity=q)
                                                                 for m, q in _KIT]).model_dump(mode="json")
    return key


def plant_mo(state: dict[str, Any], mo_id: str, *, sku: str, quantity: float, **fields: Any) -> str:
    """Add a not-started :class:`ManufacturingOrder` (validated) of ``quantity``
    units of ``sku`` (made a product first), ingredients and cost from its BOM; returns the id."""
    key = ensure_product(state, sku)
    bom = Bom.model_validate(next(b for b in state["boms"].values() if b["product_sku"] == key))
    items = {k: Item.model_validate(v) for k, v in state["items"].items()}
    ing = ingredients_for(bom, quantity)
    mo = ManufacturingOrder.model_validate({"status": "not_started", **fields, "id": mo_id, "sku": key,
                                            "planned_quantity": quantity, "ingredients": [i.model_dump() for i in ing],
                                            "total_cost": cost_of(items, ing)})
    state["orders"][mo_id] = mo.model_dump(mode="json")
    return mo_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state("manufacturing")
    mid = key if by == "id" else next_mo_id(state)
    values = {"sku": outs.get("sku") or ctx.rng.choice(("CH-ERG-05", "DK-STD-06", "LP-LED-07")),
              "order_id": outs.get("order_id")}
    if by != "id":
        values[by] = key
    return plant_mo(state, mid, sku=values["sku"], quantity=ctx.rng.randint(1, 4), order_id=values["order_id"],
                    due_date=ctx.day(ctx.rng.randint(4, 12)), created_on=ctx.day(-6 if stale else -1),
                    status="cancelled" if stale else "not_started",
                    notes=["Cancelled: customer changed the order."] if stale else [])


def _open_mo(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read("manufacturing", "list_manufacturing_orders", limit=200, **where)
    live = [r for r in rows if r["status"] in _OPEN]
    return reader.read("manufacturing", "get_manufacturing_order", mo_id=latest(live, "created_on")["id"])


_SKU = Give("sku", "sku", "the SKU being manufactured")
_TRUTH = "A cancelled manufacturing order is void; only the latest open one counts."

MO = Relay(
    service="manufacturing", name="manufacturing order", key="manufacturing_order_id",
    gives=(_SKU, Give("order_id", "order_id", "the sales order it is made for")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"),
    find=lambda reader, key: reader.read("manufacturing", "get_manufacturing_order", mo_id=key),
    where="Each manufacturing order names the SKU it makes and the sales order it is made for.",
    alloc=lambda ctx: next_mo_id(ctx.state("manufacturing")), entry=lambda key: f"manufacturing order {key}")

ORDER_MO = Relay(
    service="manufacturing", name="order's manufacturing order", key="order_id",
    gives=(Give("manufacturing_order_id", "id", "the manufacturing order for the sales order"), _SKU),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "order_id"),
    find=lambda reader, key: _open_mo(reader, order_id=key),
    where="Make-to-order production is filed as manufacturing orders under the sales order's id.",
    alloc=lambda ctx: order_ref(ctx, "manufacturing"), entry=lambda key: f"the manufacturing order for order {key}",
    truth=_TRUTH)

SKU_MO = Relay(
    service="manufacturing", name="SKU's open manufacturing order", key="sku",
    gives=(Give("manufacturing_order_id", "id", "the open manufacturing order of the SKU"),
           Give("order_id", "order_id", "the sales order it is made for")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "sku"),
    find=lambda reader, key: _open_mo(reader, sku=key),
    where="Production of each SKU is planned as manufacturing orders; the latest open one is the live one.",
    truth=_TRUTH)


def _scope(mid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="manufacturing", collection="orders", allow_ids=[mid],
                        description="No other manufacturing order was changed or created.")]


def _prepare_build(ctx: Ctx, values: dict[str, Any]) -> None:
    ensure_product(ctx.state("manufacturing"), str(values["sku"]))


def _build(reader: Reader, args: dict[str, Found]) -> Write:
    sku, oid, mention = str(args["sku"].value).upper(), args["order"].value, args["mention"]
    reader.read("manufacturing", "get_bom", sku=sku)
    where = {"sku": sku, "order_id": oid, "planned_quantity": 1.0, "status": "not_started"}
    note = f"{args['case'].value}: replacement unit; {mention.noun} is {mention.display}."
    return Write(
        calls=[call("create_manufacturing_order", sku=sku, planned_quantity=1, order_id=oid, note=note)],
        checks=[RecordExists(id="_", service="manufacturing", collection="orders",
                             where={**where, "notes": {"$some": {"$contains": mention.display}}},
                             description="One unit of the right SKU is put into production for the right order, "
                                         "quoting the value.")],
        scope=[OnlyChanged(id="_", service="manufacturing", collection="orders", allow_new=where, max_new=1,
                           description="No other manufacturing order was changed or created.")],
        tool="create_manufacturing_order", where={"order_id": oid}, label="the replacement manufacturing order")


def _prepare_start(ctx: Ctx, values: dict[str, Any]) -> None:
    """The materials have arrived: stock every ingredient of the MO it needs."""
    state = ctx.state("manufacturing")
    mo = state["orders"].get(values["mo"])
    for ing in mo["ingredients"] if mo else ():
        item = state["items"][ing["material_sku"]]
        item["in_stock"] = qty(max(item["in_stock"], item["committed"] + ing["required"] + 5))


def _start(reader: Reader, args: dict[str, Found]) -> Write:
    mid = args["mo"].value
    av = reader.read("manufacturing", "check_material_availability", mo_id=mid)
    if not av["can_start"]:
        raise SolveError(f"manufacturing order {mid} cannot start")
    return Write(
        calls=[call("start_manufacturing_order", mo_id=mid)],
        checks=[RecordMatches(id="_", service="manufacturing", collection="orders", record_id=mid,
                              where={"status": "in_progress"},
                              description="Production of the case's manufacturing order has started.")],
        scope=[*_scope(mid), OnlyChanged(id="_", service="manufacturing", collection="adjustments", max_new=0,
                                         description="No stock was adjusted.")],
        tool="start_manufacturing_order", where={"mo_id": mid}, label="the start of production")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    mid, mention, case = args["mo"].value, args["mention"], args["case"].value
    reader.read("manufacturing", "get_manufacturing_order", mo_id=mid)
    return Write(
        calls=[call("add_manufacturing_order_note", mo_id=mid, note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service="manufacturing", collection="orders", record_id=mid,
                              where={"notes": {"$some": {"$all": [{"$contains": case},
                                                                  {"$contains": mention.display}]}}},
                              description="The manufacturing order carries a note quoting the right value.")],
        scope=_scope(mid), tool="add_manufacturing_order_note", where={"mo_id": mid},
        label="the note on the manufacturing order")


LINKS = ServiceLinks(
    service="manufacturing", label="the MRP system",
    relays=(MO, ORDER_MO, SKU_MO),
    actions=(
        Action(service="manufacturing", name="build", needs=(Need("sku", "sku"), Need("order", "order_id")),
               build=_build, prepare=_prepare_build,
               goal="put one replacement unit of the SKU into production for the order, its note quoting {mention}"),
        Action(service="manufacturing", name="start", needs=(Need("mo", "manufacturing_order_id"),), build=_start,
               prepare=_prepare_start, goal="start production on the manufacturing order now that its materials "
                                            "are in"),
        Action(service="manufacturing", name="note", needs=(Need("mo", "manufacturing_order_id"),), build=_note,
               goal="add a shop-floor note to the manufacturing order, quoting {mention}"),
    ),
)

__all__ = ["LINKS", "ensure_product", "next_mo_id", "plant_mo"]
