"""Task hook of the CRM (HubSpot-like): a contact's email, phone, company
and city as facts; updates of another contact's properties as sinks."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook, clone, record_sink


def _contact(ctx: Ctx, first: str, last: str, opts: dict[str, Any], **props: Any) -> tuple[str, dict[str, Any]]:
    cid = ctx.new_id("crm", "CON")
    stamp = f"{ctx.day(-opts.get('when', 2) * 7)}T{9 + opts.get('rank', 1)}:00:00"
    record = clone(ctx, "crm", "contacts", cid, createdate=f"{ctx.day(-200)}T09:00:00", lastmodifieddate=stamp,
                   archived=False, email=ctx.person()[1], firstname=first, lastname=last,
                   phone=ctx.fresh("phone"), company=ctx.fresh("company"), jobtitle="Purchasing Lead",
                   lifecyclestage="customer", hs_lead_status=None, city=ctx.fresh("city"), country="United States")
    record.update(props)
    return cid, record


def _search(last: str) -> dict[str, Any]:
    return {"filterGroups": [{"filters": [{"propertyName": "lastname", "operator": "EQ", "value": last}]}],
            "limit": 100}


def _cue(ctx: Ctx) -> str:
    return f"{ctx.first_name()} {ctx.last_name()}{ctx.rng.choice(('-Ross', '-Hale', '-Diaz', '-Kerr'))}"


def _source(etype: str, field: str, noun: str) -> RecordSource:
    def plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        first, last = cue.split(" ", 1)
        return _contact(ctx, first, last, opts, **{field: value})

    return RecordSource(
        type=etype, tool="crm_search_contacts", collection="contacts", noun=noun,
        locate="of the CRM contact {cue}", plant=plant, read_args=lambda cue: _search(cue.split(" ", 1)[1]),
        cue=_cue, variants=frozenset({"latest"}), plural="CRM contact records")


def _sink(field: str, what: str):
    def sink(ctx: Ctx, fact: Fact) -> SinkStep:
        first, last = _cue(ctx).split(" ", 1)
        cid, record = _contact(ctx, first, last, {"when": 3})
        ctx.state("crm")["contacts"][cid] = record
        return record_sink(
            ctx, fact, service="crm", tool="crm_update_contact", value_arg=f"properties.{field}",
            collection="contacts", field_path=field, record_id=cid, where={"contactId": cid},
            calls=[call("crm_search_contacts", **_search(last)),
                   call("crm_update_contact", contactId=cid, properties={field: fact.value})],
            phrase=f"update the {what} of the CRM contact {first} {last} to {{ref}}",
            label=f"the CRM update of {first} {last}")
    return sink


HOOK = ServiceHook(
    service="crm",
    label="the CRM",
    sources={"email": _source("email", "email", "the email address"),
             "phone": _source("phone", "phone", "the phone number"),
             "company": _source("company", "company", "the company name"),
             "city": _source("city", "city", "the city")},
    sinks={"phone": ("crm_update_contact", _sink("phone", "phone number")),
           "company": ("crm_update_contact", _sink("company", "company")),
           "city": ("crm_update_contact", _sink("city", "city")),
           "country": ("crm_update_contact", _sink("country", "country"))},
)
