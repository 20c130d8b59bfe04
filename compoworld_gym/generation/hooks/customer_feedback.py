"""Task hook of customer feedback: a survey respondent's email and company
as facts; logging feedback for a customer as a sink."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook, clone, record_sink


def _source(etype: str, field: str, noun: str) -> RecordSource:
    def plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        rid = ctx.new_id("customer_feedback", "RSP")
        name, email = ctx.person()
        record = clone(ctx, "customer_feedback", "responses", rid, customer_email=email, customer_name=name,
                       company=ctx.fresh("company"), score=3 + opts.get("rank", 1),
                       comment=f"Unhappy about {cue}.", ticket_id=None, submitted_on=ctx.day(-opts.get("when", 2)),
                       tags=[], follow_up_status="none", follow_up_owner=None, follow_up_note="")
        record[field] = value
        return rid, record

    return RecordSource(
        type=etype, tool="search_responses", collection="responses", noun=noun,
        locate="of the survey response complaining about {cue}", plant=plant, read_args=lambda cue: {"limit": 200},
        cue=lambda ctx: f"shipment {ctx.code()}", variants=frozenset({"latest"}), plural="responses")


def _sink(field: str, what: str):
    def sink(ctx: Ctx, fact: Fact) -> SinkStep:
        title = ctx.unique(f"Follow-up on {ctx.case()}")
        args = {"customer_email": "accounts@company.example", field: fact.value}
        return record_sink(
            ctx, fact, service="customer_feedback", tool="create_feedback", value_arg=field, collection="notes",
            field_path=field, key={"title": {"$ieq": title}}, where={"title": {"$ieq": title}},
            calls=[call("create_feedback", title=title, content="Customer follow-up.", **args)],
            phrase=f"log a feedback note titled '{title}' with {{ref}} as the {what}"
                   + ("" if field == "customer_email" else " (customer email accounts@company.example)"),
            label=f"the '{title}' feedback note")
    return sink


HOOK = ServiceHook(
    service="customer_feedback",
    label="customer feedback",
    sources={"email": _source("email", "customer_email", "the respondent's email address"),
             "company": _source("company", "company", "the respondent's company")},
    sinks={"email": ("create_feedback", _sink("customer_email", "customer email")),
           "company": ("create_feedback", _sink("company", "company"))},
)
