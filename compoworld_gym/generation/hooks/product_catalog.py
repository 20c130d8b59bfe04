"""Task hook of the product catalog: a product's SKU and price as facts;
new products (by SKU) and price changes as sinks."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook, clone, record_sink

_KINDS = ("Desk Organizer", "Cable Kit", "Monitor Arm", "Laptop Sleeve", "Footrest")


def _product(ctx: Ctx, name: str, opts: dict[str, Any], **fields: Any) -> tuple[str, dict[str, Any]]:
    pid = ctx.new_id("product_catalog", "PRD")
    record = clone(ctx, "product_catalog", "products", pid, sku=f"SKU-{ctx.rng.randint(10000, 99999)}",
                   name=name, description=f"{name} for the office.", category="accessories",
                   price=round(ctx.rng.randint(900, 40000) / 100, 2), currency="USD",
                   active=not opts.get("closed"), created_on=ctx.day(-30 * opts.get("when", 2)), variants=[],
                   price_history=[])
    record.update(fields)
    return pid, record


def _source(etype: str, field: str, noun: str, variants: set[str]) -> RecordSource:
    def plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return _product(ctx, cue, opts, **{field: value})

    return RecordSource(
        type=etype, tool="search_products", collection="products", noun=noun,
        locate="of the catalog product '{cue}'", plant=plant, read_args=lambda cue: {"query": cue},
        cue=lambda ctx: f"{ctx.rng.choice(_KINDS)} {ctx.code()}", variants=frozenset(variants),
        decoy_rule="Inactive products are retired; use the active '{cue}'.", plural="products")


def _sink_price(ctx: Ctx, fact: Fact) -> SinkStep:
    name = f"{ctx.rng.choice(_KINDS)} {ctx.code()}"
    pid, record = _product(ctx, name, {"when": 3}, price=9.99)
    ctx.state("product_catalog")["products"][pid] = record
    return record_sink(
        ctx, fact, service="product_catalog", tool="update_price", value_arg="price", collection="products",
        field_path="price", record_id=pid, where={"sku": record["sku"]},
        calls=[call("search_products", query=name), call("update_price", sku=record["sku"], price=fact.value)],
        phrase=f"set the catalog price of '{name}' to {{ref}}", label=f"the price change of '{name}'")


def _sink_sku(ctx: Ctx, fact: Fact) -> SinkStep:
    name = ctx.unique(f"Replacement kit for {ctx.case()}")
    return record_sink(
        ctx, fact, service="product_catalog", tool="create_product", value_arg="sku", collection="products",
        field_path="sku", key={"name": {"$ieq": name}}, where={"name": {"$ieq": name}},
        calls=[call("create_product", sku=fact.value, name=name, price=49.0, category="accessories",
                    description="Replacement parts kit.")],
        phrase=f"add a catalog product '{name}' (category accessories, price 49.00) under {{ref}} as its SKU",
        label=f"the new product '{name}'")


HOOK = ServiceHook(
    service="product_catalog",
    label="the product catalog",
    sources={"sku": _source("sku", "sku", "the SKU", {"decoy"}),
             "money": _source("money", "price", "the list price", {"decoy", "sum"})},
    sinks={"money": ("update_price", _sink_price), "sku": ("create_product", _sink_sku)},
)
