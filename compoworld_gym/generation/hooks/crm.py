"""The CRM in chained tasks: a contact, found by email, names the account
owner and the customer's company; a company names its owner."""

from __future__ import annotations

from typing import Any

from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._crm_models import Company, Contact
from compoworld_gym.generation.context import Ctx
from compoworld_gym.generation.links import Give, Reader, Relay, ServiceLinks, SolveError


def _next(state: dict[str, Any], prefix: str) -> str:
    n = state["counters"].get(prefix, 1)
    state["counters"][prefix] = n + 1
    return f"{prefix}-{n:04d}"


def plant_contact(state: dict[str, Any], **props: Any) -> str:
    """Add a :class:`Contact` (validated) with the next free id; returns it.
    Shared by hooks and built-in tasks."""
    cid = _next(state, "CON")
    base = {"createdate": "2025-06-01T09:00:00", "lastmodifieddate": "2026-01-02T09:00:00", "archived": False,
            "lifecyclestage": "customer"}
    state["contacts"][cid] = Contact.model_validate({**base, **props, "id": cid}).model_dump(mode="json")
    return cid


def plant_company(state: dict[str, Any], **props: Any) -> str:
    """Add a :class:`Company` (validated) with the next free id; returns it."""
    cid = _next(state, "COMP")
    base = {"createdate": "2025-03-01T09:00:00", "lastmodifieddate": "2026-01-03T09:00:00", "archived": False,
            "lifecyclestage": "customer"}
    state["companies"][cid] = Company.model_validate({**base, **props, "id": cid}).model_dump(mode="json")
    return cid


def staff_email(ctx: Ctx) -> str:
    """A company staff member's email (account owners are staff)."""
    return ctx.rng.choice(STAFF).email


def _search(reader: Reader, otype: str, prop: str, value: Any) -> dict[str, Any]:
    tool = "crm_search_contacts" if otype == "contacts" else "crm_search_companies"
    flt = {"filters": [{"propertyName": prop, "operator": "EQ", "value": value}]}
    rows = reader.read("crm", tool, filterGroups=[flt], limit=10)["results"]
    if len(rows) != 1:
        raise SolveError(f"{len(rows)} CRM {otype} have {prop} = {value!r}")
    return rows[0]


def _plant_contact(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    first, last = (outs.get("person_name") or ctx.client()).split(" ", 1)
    return plant_contact(ctx.state("crm"), email=key, firstname=first, lastname=last,
                         owner_email=outs.get("email") or staff_email(ctx), company=outs.get("company") or ctx.fresh("company"),
                         phone=outs.get("phone") or ctx.fresh("phone"), jobtitle="Operations Manager")


def _plant_company(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return plant_company(ctx.state("crm"), name=key, owner_email=outs.get("email") or staff_email(ctx),
                         industry="Retail", annualrevenue=outs.get("money"))


_OWNER = Give("email", "properties.owner_email", "the account owner's email address", "the account owner",
              draw=staff_email)

CONTACT = Relay(
    service="crm", name="contact", key="email",
    gives=(_OWNER, Give("company", "properties.company", "the customer's company", party="customer"),
           Give("phone", "properties.phone", "the customer's phone number")),
    plant=_plant_contact, find=lambda reader, key: _search(reader, "contacts", "email", key),
    where="The CRM contact, filed under the customer's email, names the account owner and the company.")

COMPANY = Relay(
    service="crm", name="company", key="company", key_party="customer",
    gives=(_OWNER, Give("money", "properties.annualrevenue", "the company's annual revenue")),
    plant=_plant_company, find=lambda reader, key: _search(reader, "companies", "name", key),
    where="The CRM company record names the company's account owner.")

LINKS = ServiceLinks(service="crm", label="the CRM", relays=(CONTACT, COMPANY))

__all__ = ["LINKS", "plant_company", "plant_contact", "staff_email"]
