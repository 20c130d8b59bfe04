"""Task hook of procurement: a vendor's email and phone as facts; registering
a vendor with a contact email or phone as a sink."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook, record_sink


def _source(etype: str, field: str, noun: str) -> RecordSource:
    def plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        vid = ctx.new_id("procurement", "VEN")
        record = {"id": vid, "name": cue, "email": f"orders@{ctx.code().lower()}.example",
                  "phone": ctx.fresh("phone"), "payment_terms": "net30", "category": "office supplies",
                  "active": not opts.get("closed")}
        record[field] = value
        return vid, record

    return RecordSource(
        type=etype, tool="list_vendors", collection="vendors", noun=noun, locate="of the vendor {cue}",
        plant=plant, read_args=lambda cue: {}, cue=lambda ctx: ctx.fresh("company"),
        variants=frozenset({"decoy"}), plural="vendor records",
        decoy_rule="Inactive vendor records are retired; use the active {cue} record.")


def _sink(field: str, what: str):
    def sink(ctx: Ctx, fact: Fact) -> SinkStep:
        name = f"{ctx.last_name()} Supply {ctx.code()}"
        args = {"email": "sales@supply.example", "phone": "+1-312-555-0100", field: fact.value}
        return record_sink(
            ctx, fact, service="procurement", tool="create_vendor", value_arg=field, collection="vendors",
            field_path=field, key={"name": name}, where={"name": name},
            calls=[call("create_vendor", name=name, category="logistics", **args)],
            phrase=f"register the vendor '{name}' (category logistics, "
                   f"{'phone +1-312-555-0100' if field == 'email' else 'email sales@supply.example'}) "
                   f"with {{ref}} as its {what}",
            label=f"the vendor '{name}'")
    return sink


HOOK = ServiceHook(
    service="procurement",
    label="procurement",
    sources={"email": _source("email", "email", "the vendor's order email"),
             "phone": _source("phone", "phone", "the vendor's phone number")},
    sinks={"email": ("create_vendor", _sink("email", "email")), "phone": ("create_vendor", _sink("phone", "phone"))},
)
