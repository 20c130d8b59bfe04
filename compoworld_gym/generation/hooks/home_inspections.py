"""Home inspections in chained tasks: a buyer's inspection names the home's
street address, the client (the buyer: email and name) and the report's
repair estimate, whose high end a house policy can decide by; a home's
inspection is found by its street address (an MLS listing's or a loan's
subject property) and a buyer's by their email. Writes: publish the
inspection's report, or add an internal note quoting a value."""

from __future__ import annotations

from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._home_inspections_models import HomeInspectionsState, Inspector, ServiceOffering
from compoworld_gym.envs.services._home_inspections_rules import split_estimate
from compoworld_gym.envs.services._home_inspections_seed import DEFECTS, PRICE_LIST, Plan, add_inspection
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id,
)

SERVICE = "home_inspections"


def next_inspection_id(state: dict[str, Any]) -> str:
    """Take the next free inspection id from the service's counters (as ``new_id("INSP")``)."""
    return next_id(state, "INSP")


def _home(ctx: Ctx, address: str) -> dict[str, Any]:
    """The home at ``address`` as the task's MLS or lender knows it, else a plausible one."""
    for lst in ctx.states.get("listings", {}).get("listings", {}).values():
        if lst["unparsed_address"].lower() == address.lower():
            kind = {"Condominium": "Condominium", "Townhouse": "Townhouse"}.get(lst["property_sub_type"],
                                                                              "Single Family")
            return {"address": address, "city": lst["city"], "state": lst["state_or_province"],
                    "zip": lst["postal_code"], "property_type": kind, "square_feet": lst["living_area"],
                    "year_built": lst["year_built"]}
    home: dict[str, Any] = {"address": address, "city": ctx.fresh("city"), "state": "OR",
                            "zip": f"97{ctx.rng.randint(100, 999)}", "property_type": "Single Family",
                            "square_feet": ctx.rng.randrange(1200, 3200, 10), "year_built": ctx.rng.randint(1925, 2015)}
    for loan in ctx.states.get("mortgage_loans", {}).get("loans", {}).values():
        p = loan["subject_property"]
        if p["street_address"].lower() == address.lower():
            home.update(city=p["city"], state=p["state"], zip=p["postal_code"])
    return home


def plant_inspection(ctx: Ctx, iid: str, *, address: str, email: str, name: Optional[str] = None,
                     estimate: Optional[float] = None, cancelled: bool = False) -> str:
    """Add an inspection (validated) of the home at ``address`` for buyer ``email``: done two days ago,
    agreement signed and fee paid, its report not yet published, with two or three defects whose
    repair estimates' high ends total ``estimate``; or, ``cancelled``, an inspection called off
    three weeks ago before it took place. Returns the id."""
    raw = ctx.state(SERVICE)
    state = HomeInspectionsState.model_validate(raw)
    staff = [x for x in state.inspectors.values() if x.active] or [
        Inspector(id="USR-0001", name="Nora Castillo", email="nora.castillo@company.example", phone="+1-503-555-0140",
                  license_number="HI-20417")]
    state.inspectors.setdefault(staff[0].id, staff[0])
    estimate = estimate if estimate is not None else ctx.fresh("money")
    picks = ctx.rng.sample(range(len(DEFECTS)), 3)[: 2 + ctx.rng.randint(0, 1)]
    plan = (Plan(-20, 10, "cancelled", (0,), False, "refunded", None, ()) if cancelled
            else Plan(-2, 10, "completed", (0,), True, "full", None, tuple(picks)))
    if "SVC-0001" not in state.services:
        n, fee, sqft, per, old, minutes, add_on = PRICE_LIST[0]
        state.services["SVC-0001"] = ServiceOffering(id="SVC-0001", name=n, base_fee=fee, sqft_included=sqft,
                                                     fee_per_500_sqft=per, pre_1950_fee=old, duration=minutes,
                                                     add_on=add_on)
    i = add_inspection(state, ctx.today, ctx.rng.choice(staff), plan, home=_home(ctx, address),
                       client=(name or name_from_email(email), email), agents={}, iid=iid)
    if not cancelled:
        ours = [d for d in state.defects.values() if d.inspection_id == i.id]
        for d, high in zip(ours, split_estimate(estimate, len(ours))):
            d.estimate_high, d.estimate_low = high, round(high * 0.5, 2)
    dumped = state.model_dump(mode="json")
    for coll in ("inspectors", "services", "inspections", "agreements", "payments", "defects", "counters"):
        raw[coll] = dumped[coll]
    return iid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    iid = key if by == "id" else next_inspection_id(state)
    email = str(key) if by == "email" else outs.get("email") or ctx.person()[1]
    address = str(key) if by == "address" else outs.get("address") or ctx.fresh("address")
    if stale and by == "address":
        email = ctx.person()[1]  # an earlier buyer whose deal fell through before the inspection
    if stale and by == "email":
        address = ctx.fresh("address")  # the buyer's earlier home, walked away from
    return plant_inspection(ctx, iid, address=address, email=email, name=outs.get("person_name"),
                            estimate=outs.get("money"), cancelled=stale)


def _get(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_inspection", inspection_id=key)


def _live(rows: list[dict[str, Any]], **where: Any) -> dict[str, Any]:
    hits = [r for r in rows if r["status"] != "cancelled"]
    return latest(hits, "datetime", **where)


def _home_inspection(reader: Reader, key: Any) -> dict[str, Any]:
    return _get(reader, _live(reader.read(SERVICE, "list_inspections", address=key, limit=200), address=key)["id"])


def _client_inspection(reader: Reader, key: Any) -> dict[str, Any]:
    return _get(reader, _live(reader.read(SERVICE, "list_inspections", client_email=key, limit=200))["id"])


_ESTIMATE = Give("money", "report.repair_estimate_high", "the high end of the inspection report's repair estimate",
                 "the repair estimate")
_CLIENT = Give("email", "client_email", "the inspection client's (buyer's) email address", "the customer")
_ID = Give("home_inspection_id", "id", "the home's inspection")
_TRUTH = "A cancelled inspection never took place; only the live inspection counts."

INSPECTION = Relay(
    service=SERVICE, name="home inspection", key="home_inspection_id",
    gives=(Give("address", "address", "the inspected home's street address"), _CLIENT,
           Give("person_name", "client_name", "the inspection client's name", "the customer"), _ESTIMATE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_get,
    where="Each home inspection names the home's street address, the client who ordered it and the report's "
          "repair estimate.",
    alloc=lambda ctx: next_inspection_id(ctx.state(SERVICE)), entry=lambda key: f"home inspection {key}")

HOME_INSPECTION = Relay(
    service=SERVICE, name="home's inspection", key="address", gives=(_ID, _CLIENT, _ESTIMATE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "address"), find=_home_inspection,
    where="The inspection company files each inspection under the inspected home's street address.", truth=_TRUTH)

CLIENT_INSPECTION = Relay(
    service=SERVICE, name="buyer's home inspection", key="email",
    gives=(_ID, Give("address", "address", "the street address of the home inspected"), _ESTIMATE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "email"), find=_client_inspection,
    where="The inspection company files inspections under the client's (the buyer's) email address.", truth=_TRUTH)


def _publish(reader: Reader, args: dict[str, Found]) -> Write:
    iid = args["inspection"].value
    i = _get(reader, iid)
    if i["status"] != "completed" or i["report_published"] or not (i["agreed"] and i["paid"]):
        raise SolveError(f"the report of inspection {iid} cannot be published now")
    return Write(
        calls=[call("publish_report", inspection_id=iid)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="inspections", record_id=iid,
                              where={"report_published": True},
                              description="The inspection's report is published to the client and agents.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="inspections", allow_ids=[iid],
                           description="No other inspection was changed or created."),
               OnlyChanged(id="_", service=SERVICE, collection="defects",
                           description="The report's defects were left as the inspector wrote them."),
               OnlyChanged(id="_", service=SERVICE, collection="outbox", allow_new={"about": iid}, max_new=1,
                           description="Only the one Report Ready notice of this inspection was sent.")],
        tool="publish_report", where={"inspection_id": iid}, label="the published inspection report")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    iid, mention, case = args["inspection"].value, args["mention"], args["case"].value
    _get(reader, iid)
    return Write(
        calls=[call("add_internal_note", inspection_id=iid, note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="inspections", record_id=iid,
                              where={"internal_notes": {"$some": {"$all": [{"$contains": case},
                                                                           {"$contains": mention.display}]}}},
                              description="An internal note on the inspection quotes the case and the right value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="inspections", allow_ids=[iid],
                           description="No other inspection was changed or created.")],
        tool="add_internal_note", where={"inspection_id": iid}, label="the inspection note")


LINKS = ServiceLinks(
    service=SERVICE, label="the home inspection company's Spectora account",
    relays=(INSPECTION, HOME_INSPECTION, CLIENT_INSPECTION),
    actions=(
        Action(service=SERVICE, name="publish", needs=(Need("inspection", "home_inspection_id"),), build=_publish,
               goal="publish the home inspection report to the buyer and the agents"),
        Action(service=SERVICE, name="note", needs=(Need("inspection", "home_inspection_id"),), build=_note,
               goal="add an internal note to the home inspection stating {mention}"),
    ),
)

__all__ = ["LINKS", "next_inspection_id", "plant_inspection"]
