"""Task hook of inventory: the SKU and warehouse of a stock adjustment as
facts; stock corrections and reorder points for a SKU as sinks."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook, record_sink


def _level(ctx: Ctx, sku: str, wid: str) -> None:
    ctx.state("inventory")["stock"][f"{wid}/{sku}"] = {"sku": sku, "warehouse_id": wid, "on_hand": 40, "reserved": 0,
                                                       "reorder_point": 10, "reorder_quantity": 50}


def _source(etype: str, field: str, noun: str) -> RecordSource:
    def plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        wids = sorted(ctx.state("inventory")["warehouses"])
        rec = {"sku": f"SKU-{ctx.rng.randint(10000, 99999)}", "warehouse_id": ctx.rng.choice(wids)}
        rec[field] = value if value is not None else rec[field]
        _level(ctx, rec["sku"], rec["warehouse_id"])
        aid = ctx.new_id("inventory", "ADJ")
        return aid, {"id": aid, **rec, "delta": -2, "reason": "damaged", "note": f"Damaged in transit, {cue}.",
                     "on": ctx.day(-opts.get("when", 2))}

    return RecordSource(
        type=etype, tool="list_adjustments", collection="adjustments", noun=noun,
        locate="of the stock adjustment noted as 'Damaged in transit, {cue}'", plant=plant,
        read_args=lambda cue: {"limit": 500}, cue=lambda ctx: f"claim {ctx.code()}",
        value=(lambda ctx: ctx.rng.choice(sorted(ctx.state("inventory")["warehouses"])))
        if etype == "warehouse_id" else None,
        variants=frozenset({"latest"} if etype == "sku" else ()), plural="adjustments")


def _sink_sku(ctx: Ctx, fact: Fact) -> SinkStep:
    wid = ctx.rng.choice(sorted(ctx.state("inventory")["warehouses"]))
    for sku in [fact.value, *fact.wrong]:  # the SKU is stocked there (and so are tempting wrong ones)
        if isinstance(sku, str):
            _level(ctx, sku.upper(), wid)
    point = ctx.rng.choice((15, 25, 30, 35))
    sink = record_sink(
        ctx, fact, service="inventory", tool="set_reorder_point", value_arg="sku", collection="stock",
        field_path="sku", key={"warehouse_id": wid, "reorder_point": point}, where={"warehouse_id": wid},
        calls=[call("list_stock", warehouse_id=wid, limit=500),
               call("set_reorder_point", sku=fact.value, warehouse_id=wid, reorder_point=point)],
        phrase=f"set the reorder point of {{ref}} at warehouse {wid} to {point} units",
        label=f"the reorder point change at {wid}")
    # The stock level already exists (planted above): the write updates it in place.
    sink.scope = {"stock": {"allow_ids": [f"{wid}/{fact.value.upper()}"]}}
    return sink


HOOK = ServiceHook(
    service="inventory",
    label="inventory",
    sources={"sku": _source("sku", "sku", "the SKU"),
             "warehouse_id": _source("warehouse_id", "warehouse_id", "the warehouse id")},
    sinks={"sku": ("set_reorder_point", _sink_sku)},
)
