"""Contracts in chained tasks: a customer contract, found by its id or by the
customer company, names the company, the account manager and the annual
value; the case's contract gets a note or is renewed."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._company import OPS_EMAIL, staff_of
from compoworld_gym.envs.services.contracts import Contract, Customer
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick, next_id

_LIVE = ("active", "notice_given")
_INDUSTRIES = ("manufacturing", "software", "healthcare", "logistics", "retail")


def account_manager(ctx: Ctx) -> str:
    """A customer-success account manager's email (contract owners are)."""
    return ctx.rng.choice(staff_of("customer_success")).email


def next_contract_id(state: dict[str, Any]) -> str:
    """Take the next free contract id from the contracts counters (as the service does)."""
    return next_id(state, "CTR")


def plant_customer(state: dict[str, Any], company: str, **fields: Any) -> str:
    """Add a :class:`Customer` company (validated) unless one is named
    ``company``; returns its id."""
    for cust in state["customers"].values():
        if cust["company"].lower() == company.lower():
            return cust["id"]
    n = state["counters"].get("CUS", len(state["customers"]) + 1)
    while f"CUS-{n:04d}" in state["customers"]:
        n += 1
    state["counters"]["CUS"] = n + 1
    cid = f"CUS-{n:04d}"
    state["customers"][cid] = Customer.model_validate({**fields, "id": cid, "company": company}).model_dump(mode="json")
    return cid


def plant_contract(state: dict[str, Any], contract_id: str, *, customer_id: str, **fields: Any) -> str:
    """Add a one-year, auto-renewing growth :class:`Contract` (validated) of
    ``customer_id`` under ``contract_id``; ``fields`` override; returns the id."""
    base = {"plan": "growth", "seats": 25, "currency": "USD", "auto_renew": True, "notice_period_days": 60,
            "renewal_term_months": 12, "price_uplift_pct": 3.0, "status": "active", "notes": []}
    company = state["customers"][customer_id]["company"]
    contract = Contract.model_validate({**base, **fields, "id": contract_id, "customer_id": customer_id,
                                        "company": company})
    state["contracts"][contract_id] = contract.model_dump(mode="json")
    return contract_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state("contracts")
    company = (outs.get("company") or ctx.fresh("company")) if by_id else key
    owner = outs.get("email") or account_manager(ctx)
    contact = ctx.client()
    domain = "".join(ch for ch in company.lower() if ch.isalnum()) + ".example"
    cust = plant_customer(state, company, industry=ctx.rng.choice(_INDUSTRIES), contact_name=contact,
                          contact_email=f"{contact.split()[0].lower()}@{domain}", owner_email=owner)
    cid = key if by_id else next_contract_id(state)
    start = ctx.rng.randint(120, 300) + (365 if stale else 0)
    value = outs.get("money") or round(ctx.rng.randint(800000, 4800000) / 100, 2)
    plant_contract(state, cid, customer_id=cust, annual_value=value, owner_email=owner,
                   start_date=ctx.day(-start), end_date=ctx.day(364 - start),
                   status="renewed" if stale else "active")
    if stale:  # the superseded term points at the live one
        live = [c for c in state["contracts"].values() if c["customer_id"] == cust and c["status"] in _LIVE]
        if len(live) == 1:
            state["contracts"][cid]["renewed_to"], live[0]["renewed_from"] = live[0]["id"], cid
    return cid


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read("contracts", "get_contract", contract_id=key)


def _by_company(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read("contracts", "search_contracts", company=key, limit=200)
    return pick([r for r in rows if r["status"] in _LIVE], company=key)


_OWNER = Give("email", "owner_email", "the account manager's email address", "the account owner",
              draw=account_manager)
_VALUE = Give("money", "annual_value", "the contract's annual value")

CONTRACT = Relay(
    service="contracts", name="contract", key="contract_id",
    gives=(Give("company", "company", "the customer company", party="customer"), _OWNER, _VALUE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_by_id,
    where="Each contract names the customer company, its account manager and its annual value.",
    alloc=lambda ctx: next_contract_id(ctx.state("contracts")), entry=lambda key: f"contract {key}")

COMPANY_CONTRACT = Relay(
    service="contracts", name="company's contract", key="company", key_party="customer",
    gives=(Give("contract_id", "id", "the live contract's number"), _OWNER, _VALUE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_by_company,
    where="Contracts are filed under the customer company, with the account manager and the annual value.",
    entry=lambda key: f"the live contract of {key}",
    truth="A renewed or expired contract term is history; only the company's live contract counts.")


def _scope(cid: str, **extra: Any) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="contracts", collection="contracts", allow_ids=[cid],
                        description="No other contract was changed or created.", **extra)]


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    cid, mention = args["contract"].value, args["mention"]
    _by_id(reader, cid)
    return Write(
        calls=[call("add_contract_note", contract_id=cid, author_email=OPS_EMAIL,
                    body=f"{args['case'].value}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service="contracts", collection="contracts", record_id=cid,
                              where={"notes": {"$any": {"body": {"$contains": mention.display}}}},
                              description="A note on the contract quotes the right value.")],
        scope=_scope(cid), tool="add_contract_note", where={"contract_id": cid}, label="the note on the contract")


def _renew(reader: Reader, args: dict[str, Found]) -> Write:
    cid = args["contract"].value
    _by_id(reader, cid)
    return Write(
        calls=[call("renew_contract", contract_id=cid, actor_email=OPS_EMAIL)],
        checks=[RecordMatches(id="_", service="contracts", collection="contracts", record_id=cid,
                              where={"status": "renewed"}, description="The case's contract is renewed."),
                RecordExists(id="_", service="contracts", collection="contracts",
                             where={"renewed_from": cid, "status": "active"},
                             description="A new term follows the case's contract.")],
        scope=_scope(cid, allow_new={"renewed_from": cid}), tool="renew_contract", where={"contract_id": cid},
        label="the contract renewal")


LINKS = ServiceLinks(
    service="contracts", label="the contracts system",
    relays=(CONTRACT, COMPANY_CONTRACT),
    actions=(
        Action(service="contracts", name="note", needs=(Need("contract", "contract_id"),), build=_note,
               goal="note {mention} on the customer's contract"),
        Action(service="contracts", name="renew", needs=(Need("contract", "contract_id"),), build=_renew,
               goal="renew the customer's contract on its current terms"),
    ),
)

__all__ = ["LINKS", "account_manager", "next_contract_id", "plant_contract", "plant_customer"]
