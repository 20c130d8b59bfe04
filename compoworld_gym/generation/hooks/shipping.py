"""Task hook of shipping: a shipment's tracking number, city, ship date and
rate as facts; address changes of a not-yet-labelled shipment as sinks."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook, clone, record_sink


def _shipment(ctx: Ctx, name: str, opts: dict[str, Any], status: str, **fields: Any) -> tuple[str, dict[str, Any]]:
    sid = ctx.new_id("shipping", "SHP")
    record = clone(ctx, "shipping", "shipments", sid, order_id=None, to_name=name,
                   to_address=ctx.fresh("address"), to_city=ctx.fresh("city"), to_postal_code="60601",
                   to_country="US", weight_kg=2.5, status="cancelled" if opts.get("closed") else status,
                   rate=round(ctx.rng.randint(800, 6000) / 100, 2), ship_date=ctx.day(-opts.get("when", 2)),
                   estimated_delivery=ctx.day(4 - opts.get("when", 2)), events=[],
                   tracking_number=f"1Z{ctx.rng.randint(10**9, 10**10 - 1)}11",
                   label_url=f"https://labels.shipping.example/{sid}.pdf")
    if status == "created":
        record.update(tracking_number=None, label_url=None)
    record.update(fields)
    return sid, record


def _source(etype: str, field: str, noun: str, variants: set[str]) -> RecordSource:
    def plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return _shipment(ctx, cue, opts, "in_transit", **{field: value})

    return RecordSource(
        type=etype, tool="list_shipments", collection="shipments", noun=noun,
        locate="of the shipment to {cue}", plant=plant, read_args=lambda cue: {"limit": 200},
        cue=lambda ctx: f"{ctx.first_name()} {ctx.last_name()}-{ctx.rng.choice('LMNOPQ')}",
        variants=frozenset(variants), plural="shipments",
        decoy_rule="A cancelled shipment never left; only the live shipment to {cue} counts.")


def _sink_city(ctx: Ctx, fact: Fact) -> SinkStep:
    sid, record = _shipment(ctx, ctx.client(), {"when": 0}, "created")
    ctx.state("shipping")["shipments"][sid] = record
    return record_sink(
        ctx, fact, service="shipping", tool="update_shipment_address", value_arg="to_city", collection="shipments",
        field_path="to_city", record_id=sid, where={"shipment_id": sid},
        calls=[call("get_shipment", shipment_id=sid),
               call("update_shipment_address", shipment_id=sid, to_address=record["to_address"],
                    to_city=fact.value, to_postal_code=record["to_postal_code"], to_country="US")],
        phrase=f"redirect shipment {sid} to {{ref}}, keeping its street address and postal code",
        label=f"the address change of shipment {sid}")


HOOK = ServiceHook(
    service="shipping",
    label="shipping",
    sources={
        "tracking_number": _source("tracking_number", "tracking_number", "the tracking number", {"decoy", "latest"}),
        "city": _source("city", "to_city", "the destination city", {"decoy"}),
        "date": _source("date", "estimated_delivery", "the estimated delivery date", {"latest"}),
        "money": _source("money", "rate", "the shipping rate", {"sum"}),
    },
    sinks={"city": ("update_shipment_address", _sink_city)},
)
