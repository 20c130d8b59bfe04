"""The product catalog in chained tasks: a product, found by its SKU, names
its list price and catalog id; the case's product is taken off sale."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services.product_catalog import Product
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write

#: (product title, category) of products the chain can plant.
_KINDS = (("Monitor Arm", "accessories"), ("Docking Station", "electronics"), ("Desk Drawer Unit", "furniture"),
          ("Laptop Stand", "accessories"), ("Wireless Presenter", "electronics"), ("Footrest", "furniture"))


def plant_product(state: dict[str, Any], **fields: Any) -> str:
    """Add an active :class:`Product` (validated) with the next free id (as the
    service allocates it); returns the id."""
    n = state["counters"].get("PRD", 1)
    state["counters"]["PRD"] = n + 1
    pid = f"PRD-{n:04d}"
    base = {"description": "", "currency": "USD", "active": True, "variants": [], "price_history": []}
    state["products"][pid] = Product.model_validate({**base, **fields, "id": pid}).model_dump(mode="json")
    return pid


def _plant_new(ctx: Ctx, sku: str, price: float) -> str:
    name, category = ctx.rng.choice(_KINDS)
    return plant_product(ctx.state("product_catalog"), sku=sku.upper(), name=name, category=category,
                         description=f"{name} for a tidy, productive workspace.", price=price,
                         created_on=ctx.day(-ctx.rng.randint(60, 300)))


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return _plant_new(ctx, key, outs.get("money") or round(ctx.rng.randint(1500, 40000) / 100, 2))


def _find(reader: Reader, key: Any) -> dict[str, Any]:
    pid = reader.read("product_catalog", "get_product_by_sku", sku=key)["product"]["id"]
    return reader.read("product_catalog", "get_product", product_id=pid)


PRODUCT = Relay(
    service="product_catalog", name="product", key="sku",
    gives=(Give("money", "price", "the product's list price"), Give("product_id", "id", "the product's catalog id")),
    plant=_plant, find=_find, where="The product catalog lists each product by SKU with its list price.",
    entry=lambda key: f"the catalog product with SKU {key}")


def _prepare(ctx: Ctx, values: dict[str, Any]) -> None:
    sku = str(values["sku"]).upper()
    products = ctx.state("product_catalog")["products"].values()
    if not any(p["sku"] == sku or any(v["sku"] == sku for v in p["variants"]) for p in products):
        _plant_new(ctx, sku, round(ctx.rng.randint(1500, 40000) / 100, 2))


def _pull(reader: Reader, args: dict[str, Found]) -> Write:
    pid = args["product"].value if "product" in args else _find(reader, args["sku"].value)["id"]
    return Write(
        calls=[call("set_product_active", product_id=pid, active=False)],
        checks=[RecordMatches(id="_", service="product_catalog", collection="products", record_id=pid,
                              where={"active": False}, description="The case's product is taken off sale.")],
        scope=[OnlyChanged(id="_", service="product_catalog", collection="products", allow_ids=[pid],
                           description="No other product was changed or created.")],
        tool="set_product_active", where={"product_id": pid}, label="taking the product off sale")


LINKS = ServiceLinks(
    service="product_catalog", label="the product catalog",
    relays=(PRODUCT,),
    actions=(
        Action(service="product_catalog", name="pull", needs=(Need("product", "product_id"),), build=_pull,
               goal="take the product off sale in the catalog"),
        Action(service="product_catalog", name="pull_sku", needs=(Need("sku", "sku"),), build=_pull,
               prepare=_prepare, goal="take the product with the SKU off sale in the catalog"),
    ),
)

__all__ = ["LINKS", "plant_product"]
