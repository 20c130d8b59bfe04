"""Task hook of the helpdesk: facts on tickets, and ticket writes as sinks."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook

_TOPICS = ("Refund request", "Delivery problem", "Login trouble", "Billing question", "Damaged item")
_PRIORITY = ("low", "normal", "high")


def _ticket(ctx: Ctx, cue: str, opts: dict[str, Any], **fields: Any) -> tuple[str, dict[str, Any]]:
    name, email = ctx.person()
    created = ctx.day(-opts.get("when", 2) - 1)
    tid = ctx.new_id("helpdesk", "TCK")
    record = {
        "id": tid, "subject": f"{ctx.rng.choice(_TOPICS)}: {cue}",
        "description": f"Customer wrote in about {cue}.", "status": "closed" if opts.get("closed") else "open",
        "priority": _PRIORITY[opts.get("rank", 1)], "category": "billing", "requester_name": name,
        "requester_email": email, "assignee_email": None, "created_on": created,
        "due_date": ctx.day(ctx.rng.randint(3, 20)), "tags": [], "comments": [],
    }
    record.update({k: v for k, v in fields.items() if v is not None})
    return tid, record


def _source(etype: str, field: str, noun: str) -> RecordSource:
    def plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return _ticket(ctx, cue, opts, **({field: value} if field != "id" else {}))

    return RecordSource(
        type=etype, tool="search_tickets", collection="tickets", noun=noun,
        locate="on the helpdesk ticket about {cue}", plant=plant,
        read_args=lambda cue: {"query": cue},
        cue=lambda ctx: f"order {ctx.code()}",
        variants=frozenset({"latest", "decoy", "ranked"}),
        decoy_rule="A closed ticket is history; the open ticket about {cue} is the source of truth.",
        rank_rule="the one with the highest priority", plural="tickets",
    )


def _sink_email(ctx: Ctx, fact: Fact) -> SinkStep:
    subject = ctx.unique(f"Follow-up on {ctx.case()}")
    name = ctx.fresh("person_name")

    def checks(value: Any) -> list[dict[str, Any]]:
        return [{"kind": "record_exists", "service": "helpdesk", "collection": "tickets",
                 "where": {"subject": {"$ieq": subject}, "requester_email": ctx.matcher("email", value)},
                 "description": f"A ticket '{subject}' exists for the right requester email."}]

    return SinkStep(
        service="helpdesk", tool="create_ticket", value_arg="requester_email",
        calls=[call("create_ticket", subject=subject, description=f"Follow-up for {name}.",
                    requester_name=name, requester_email=fact.value)],
        phrase=f"open a helpdesk ticket titled '{subject}' for {name}, with {{ref}} as the requester email",
        label=f"opening ticket '{subject}'", checks=checks, where={"subject": {"$ieq": subject}})


def _sink_date(ctx: Ctx, fact: Fact) -> SinkStep:
    cue = f"case {ctx.code()}"
    tid, record = _ticket(ctx, cue, {"when": 3})
    offset = 21
    while record["due_date"] in (fact.value, *fact.wrong):  # the write must change the due date
        record["due_date"], offset = ctx.day(offset), offset + 1
    ctx.state("helpdesk")["tickets"][tid] = record

    def checks(value: Any) -> list[dict[str, Any]]:
        return [{"kind": "record_matches", "service": "helpdesk", "collection": "tickets", "record_id": tid,
                 "where": {"due_date": value}, "description": f"Ticket {tid} is due on the right date."}]

    return SinkStep(
        service="helpdesk", tool="update_ticket", value_arg="due_date",
        calls=[call("search_tickets", query=cue), call("update_ticket", ticket_id=tid, due_date=fact.value)],
        phrase=f"set the due date of the helpdesk ticket about {cue} to {{ref}}",
        label=f"the due-date change on the {cue} ticket", checks=checks, where={"ticket_id": tid})


HOOK = ServiceHook(
    service="helpdesk",
    label="the helpdesk",
    sources={
        "email": _source("email", "requester_email", "the requester's email address"),
        "person_name": _source("person_name", "requester_name", "the requester's name"),
        "date": _source("date", "due_date", "the due date"),
    },
    sinks={"email": ("create_ticket", _sink_email), "date": ("update_ticket", _sink_date)},
)
