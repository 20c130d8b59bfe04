"""The MLS in chained tasks: a listing names its street address, listing
agent and asking price, and a home's current listing is found by its street
address; an accepted offer names the buyer (email and name), the agreed
price, the closing day and the home's address, and is found by its id, by
the buyer's email or by the home's street address. A home planted at an
address the property-management portfolio or the lender already holds takes
that home's city, size and price. Writes: book a showing on a day, withdraw
a listing, or record the closing of the accepted offer's sale."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._listings_models import Listing, Offer
from compoworld_gym.envs.services._listings_seed import AGENTS, BUYER_AGENTS, CITIES, OFFICE
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "listings"
_AGENTS = dict((e, n) for n, e in AGENTS)


def home_price(ctx: Ctx) -> float:
    """A plausible asking or sale price of a home (USD, whole thousands)."""
    return float(ctx.rng.randrange(285, 990) * 1000)


def agent_email(ctx: Ctx) -> str:
    """One of the brokerage's listing agents."""
    return ctx.rng.choice(sorted(_AGENTS))


def _known_home(ctx: Ctx, address: str) -> dict[str, Any]:
    """What the task's other real-estate services know of the home at ``address``:
    city, state, ZIP and bedrooms from property management, price from the lender."""
    facts: dict[str, Any] = {}
    pm = ctx.states.get("property_management", {})
    for pid, p in pm.get("properties", {}).items():
        if p["address"].lower() == address.lower():
            unit = next((u for u in pm["units"].values() if u["property_id"] == pid), None)
            facts.update(city=p["city"], state=p["state"], postal_code=p["postal_code"],
                         beds=unit["bedrooms"] if unit else None, area=unit["square_feet"] if unit else None)
    for loan in ctx.states.get("mortgage_loans", {}).get("loans", {}).values():
        home = loan["subject_property"]
        if home["street_address"].lower() == address.lower() and loan["purchase_price_amount"]:
            facts.update(city=facts.get("city", home["city"]), state=facts.get("state", home["state"]),
                         postal_code=facts.get("postal_code", home["postal_code"]), price=loan["purchase_price_amount"])
    return facts


def plant_listing(ctx: Ctx, listing_id: str, *, address: str, price: Optional[float] = None,
                  agent: Optional[str] = None, status: str = "Active", days_listed: int = 14) -> str:
    """Add a :class:`Listing` (validated) of the home at ``address``, listed
    ``days_listed`` days ago, Active (or Expired/Withdrawn, off the market a
    month ago); returns the id. City, size and price follow what the task's
    other services know of the home (see :func:`_known_home`)."""
    state, known = ctx.state(SERVICE), _known_home(ctx, address)
    city = known.get("city") or ctx.rng.choice(sorted(CITIES))
    st, zip3 = CITIES.get(city, (known.get("state", "OR"), "972"))
    beds = known.get("beds") or ctx.rng.randint(2, 4)
    agent = agent or agent_email(ctx)
    listed = dt.date.fromisoformat(ctx.day(-days_listed))
    price = price or known.get("price") or home_price(ctx)
    off = status in ("Expired", "Withdrawn")
    lst = Listing.model_validate({
        "id": listing_id, "standard_status": status, "property_sub_type": "Single Family Residence",
        "unparsed_address": address, "city": city, "state_or_province": known.get("state", st),
        "postal_code": known.get("postal_code") or f"{zip3}{ctx.rng.randint(1, 99):02d}", "bedrooms_total": beds,
        "bathrooms_total_integer": max(1, beds - 1), "living_area": known.get("area") or 600 + 420 * beds,
        "year_built": ctx.rng.randint(1950, 2018), "list_price": price, "original_list_price": price,
        "list_agent_full_name": _AGENTS.get(agent, name_from_email(agent)), "list_agent_email": agent,
        "list_office_name": OFFICE, "listing_contract_date": listed.isoformat(),
        "expiration_date": (listed + dt.timedelta(days=150 if off else 180)).isoformat(),
        "off_market_date": ctx.day(-30) if off else None,
        "history": [{"change_type": "New Listing", "field_name": "ListPrice", "new_value": f"{price:.2f}",
                     "modification_date": listed.isoformat()}]})
    state["listings"][listing_id] = lst.model_dump(mode="json")
    return listing_id


def plant_offer(ctx: Ctx, offer_id: str, listing_id: str, *, email: str, name: str, price: float,
                close: Optional[str] = None, status: str = "Accepted") -> str:
    """Add an :class:`Offer` (validated) by buyer ``email`` on ``listing_id``:
    Accepted three days ago (the listing becomes Pending) or Rejected. Returns the id."""
    state = ctx.state(SERVICE)
    agent_name, agent = ctx.rng.choice(BUYER_AGENTS)
    offer = Offer.model_validate({
        "id": offer_id, "listing_id": listing_id, "buyer_name": name, "buyer_email": email,
        "buyer_agent_full_name": agent_name, "buyer_agent_email": agent, "offer_price": price,
        "earnest_money_amount": round(price * 0.02, -2), "buyer_financing": "Conventional",
        "proposed_close_date": close or ctx.day(ctx.rng.randint(20, 40)), "offer_expiration_date": ctx.day(-2),
        "status": status, "submitted_on": ctx.day(-4), "responded_on": ctx.day(-3)})
    state["offers"][offer_id] = offer.model_dump(mode="json")
    if status == "Accepted":
        lst = state["listings"][listing_id]
        lst.update(standard_status="Pending", purchase_contract_date=ctx.day(-3), buyer_agent_full_name=agent_name,
                   buyer_agent_email=agent, buyer_financing="Conventional")
        lst["history"].append({"change_type": "Status Change", "field_name": "StandardStatus",
                               "previous_value": "Active", "new_value": "Pending", "modification_date": ctx.day(-3)})
    return offer_id


def _listing_at(ctx: Ctx, address: str) -> str:
    """The Active or Pending listing at ``address``, planted if there is none."""
    state = ctx.state(SERVICE)
    for lid, rec in state["listings"].items():
        if rec["unparsed_address"].lower() == address.lower() and rec["standard_status"] in ("Active", "Pending"):
            return lid
    return plant_listing(ctx, next_id(state, "LST"), address=address)


def _plant_listing(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state(SERVICE)
    lid = key if by_id else next_id(state, "LST")
    address = (outs.get("address") or ctx.fresh("address")) if by_id else str(key)
    return plant_listing(ctx, lid, address=address, price=outs.get("money"), agent=outs.get("email"),
                         status="Expired" if stale else "Active", days_listed=210 if stale else 14)


def _plant_offer(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    oid = key if by == "id" else next_id(state, "OFR")
    email = str(key) if by == "email" else outs.get("email") or ctx.person()[1]
    if by == "address":
        lid = _listing_at(ctx, str(key))
        if stale:
            email = ctx.person()[1]  # an outbid buyer's offer on the same home
    else:  # an offer of this buyer on another home when stale
        lid = plant_listing(ctx, next_id(state, "LST"), address=outs.get("address") or ctx.fresh("address"))
    home = state["listings"][lid]
    price = outs.get("money") or (home["list_price"] - 5000.0 if stale else home["list_price"])
    return plant_offer(ctx, oid, lid, email=email, name=outs.get("person_name") or name_from_email(email),
                       price=price, close=outs.get("date"), status="Rejected" if stale else "Accepted")


def _home_listing(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "search_listings", address=key, standard_status="Active")
    return reader.read(SERVICE, "get_listing", listing_id=pick(rows, unparsed_address=key)["id"])


def _home_deal(reader: Reader, key: Any) -> dict[str, Any]:
    home = pick(reader.read(SERVICE, "search_listings", address=key, standard_status="Pending"), unparsed_address=key)
    return pick(reader.read(SERVICE, "list_offers", listing_id=home["id"], status="Accepted"))


_AGENT = Give("email", "list_agent_email", "the listing agent's email address", "the listing agent", draw=agent_email)
_LIST_PRICE = Give("money", "list_price", "the asking price", "the list price", draw=home_price)
_BUYER = Give("email", "buyer_email", "the buyer's email address", "the customer")
_CLOSE = Give("date", "proposed_close_date", "the sale's closing date")
_OFFER_ID = Give("offer_id", "id", "the accepted offer")
_DEAD = "A rejected or withdrawn offer is dead; only the accepted offer counts."

LISTING = Relay(
    service=SERVICE, name="MLS listing", key="listing_id",
    gives=(Give("address", "unparsed_address", "the listed home's street address"), _AGENT, _LIST_PRICE),
    plant=lambda ctx, key, outs, stale: _plant_listing(ctx, key, outs, stale, True),
    find=lambda reader, key: reader.read(SERVICE, "get_listing", listing_id=key),
    where="Each MLS listing names the home's street address, the listing agent and the asking price.",
    alloc=lambda ctx: next_id(ctx.state(SERVICE), "LST"), entry=lambda key: f"MLS listing {key}")

HOME_LISTING = Relay(
    service=SERVICE, name="home's current listing", key="address",
    gives=(Give("listing_id", "id", "the home's current MLS listing"), _AGENT, _LIST_PRICE),
    plant=lambda ctx, key, outs, stale: _plant_listing(ctx, key, outs, stale, False), find=_home_listing,
    where="The MLS lists each home for sale under its street address.",
    truth="An expired or withdrawn listing is off the market; only the home's active listing counts.")

OFFER = Relay(
    service=SERVICE, name="accepted offer", key="offer_id",
    gives=(_BUYER, Give("person_name", "buyer_name", "the buyer's name", "the customer"),
           Give("money", "offer_price", "the agreed purchase price", "the purchase price", draw=home_price), _CLOSE,
           Give("address", "unparsed_address", "the street address of the home sold")),
    plant=lambda ctx, key, outs, stale: _plant_offer(ctx, key, outs, stale, "id"),
    find=lambda reader, key: reader.read(SERVICE, "get_offer", offer_id=key),
    where="Each offer on the MLS names the buyer, the agreed price, the closing date and the home's street address.",
    alloc=lambda ctx: next_id(ctx.state(SERVICE), "OFR"), entry=lambda key: f"accepted MLS offer {key}")

BUYER_OFFER = Relay(
    service=SERVICE, name="buyer's accepted offer", key="email",
    gives=(_OFFER_ID, _CLOSE, Give("address", "unparsed_address", "the street address of the home bought")),
    plant=lambda ctx, key, outs, stale: _plant_offer(ctx, key, outs, stale, "email"),
    find=lambda reader, key: pick(reader.read(SERVICE, "list_offers", buyer_email=key, status="Accepted")),
    where="The MLS files offers under the buyer's email address.", truth=_DEAD)

HOME_DEAL = Relay(
    service=SERVICE, name="home's accepted offer", key="address", gives=(_OFFER_ID, _BUYER, _CLOSE),
    plant=lambda ctx, key, outs, stale: _plant_offer(ctx, key, outs, stale, "address"), find=_home_deal,
    where="The MLS files each home's offers under the listing of its street address.", truth=_DEAD)


def _scope(collection: str, ids: list[str], noun: str, **new: Any) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection=collection, allow_ids=ids, allow_new=new or None,
                        max_new=1 if new else None, description=f"No other {noun} was changed or created.")]


def _free_start(reader: Reader, lid: str, day: str) -> str:
    """The first 45-minute showing slot of ``day``, on the hour from 10:00, free on the listing's calendar."""
    booked = [(s["showing_start_timestamp"], s["showing_end_timestamp"])
              for s in reader.read(SERVICE, "list_showings", listing_id=lid, status="Scheduled", day=day)]
    for hour in range(10, 19):
        start, end = f"{day}T{hour:02d}:00:00", f"{day}T{hour:02d}:45:00"
        if all(not (start < b_end and b_start < end) for b_start, b_end in booked):
            return start
    raise SolveError(f"listing {lid} has no free showing slot on {day}")


def _showing(reader: Reader, args: dict[str, Found]) -> Write:
    lid, day, mention, case = args["listing"].value, str(args["day"].value), args["mention"], args["case"].value
    lst = reader.read(SERVICE, "get_listing", listing_id=lid)
    if lst["standard_status"] != "Active" or day <= _today(reader, lid):
        raise SolveError(f"listing {lid} ({lst['standard_status']}) takes no showing on {day}")
    start = _free_start(reader, lid, day)
    remarks = f"{case}: {mention.noun} is {mention.display}."
    where = {"listing_id": lid, "status": "Scheduled", "showing_start_timestamp": {"$gte": f"{day}T00:00:00",
                                                                                   "$lte": f"{day}T23:59:59"},
             "remarks": {"$all": [{"$contains": case}, {"$contains": mention.display}]}}
    return Write(
        calls=[call("schedule_showing", listing_id=lid, showing_start_timestamp=start,
                    showing_agent_full_name=lst["list_agent_full_name"], showing_agent_email=lst["list_agent_email"],
                    remarks=remarks)],
        checks=[RecordExists(id="_", service=SERVICE, collection="showings", where=where,
                             description="A showing of the listing is booked on the day, its remarks quoting the "
                                         "case and the value.")],
        scope=_scope("showings", [], "showing", listing_id=lid), tool="schedule_showing",
        where={"listing_id": lid}, label="the showing booking")


def _withdraw(reader: Reader, args: dict[str, Found]) -> Write:
    lid = args["listing"].value
    if reader.read(SERVICE, "get_listing", listing_id=lid)["standard_status"] != "Active":
        raise SolveError(f"listing {lid} is not Active")
    return Write(
        calls=[call("update_listing_status", listing_id=lid, standard_status="Withdrawn")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="listings", record_id=lid,
                              where={"standard_status": "Withdrawn"},
                              description="The listing is withdrawn from the market.")],
        scope=_scope("listings", [lid], "listing"), tool="update_listing_status", where={"listing_id": lid},
        label="the withdrawn listing")


def _close(reader: Reader, args: dict[str, Found]) -> Write:
    offer = reader.read(SERVICE, "get_offer", offer_id=args["offer"].value)
    lid = offer["listing_id"]
    if offer["status"] != "Accepted" or reader.read(SERVICE, "get_listing", listing_id=lid)["standard_status"] != "Pending":
        raise SolveError(f"offer {offer['id']} is not an accepted offer on a pending sale")
    day = _today(reader, lid)
    return Write(
        calls=[call("close_listing", listing_id=lid, close_price=offer["offer_price"], close_date=day)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="listings", record_id=lid,
                              where={"standard_status": "Closed", "close_price": offer["offer_price"], "close_date": day},
                              description="The sale is closed today at the accepted offer's price.")],
        scope=_scope("listings", [lid], "listing") + _scope("offers", [], "offer"), tool="close_listing",
        where={"listing_id": lid}, label="the recorded closing", moves_money=True)


def _today(reader: Reader, lid: str) -> str:
    """Today's date as the MLS counts days on market (the listing date plus its days on market)."""
    lst = reader.read(SERVICE, "get_listing", listing_id=lid)
    return (dt.date.fromisoformat(lst["listing_contract_date"]) + dt.timedelta(days=lst["days_on_market"])).isoformat()


LINKS = ServiceLinks(
    service=SERVICE, label="the MLS",
    relays=(LISTING, HOME_LISTING, OFFER, BUYER_OFFER, HOME_DEAL),
    actions=(
        Action(service=SERVICE, name="showing", needs=(Need("listing", "listing_id"), Need("day", "date", ("",))),
               build=_showing, goal="book a showing of the listed home on {day}, the remarks quoting {mention}"),
        Action(service=SERVICE, name="withdraw", needs=(Need("listing", "listing_id"),), build=_withdraw,
               goal="withdraw the home's listing from the market"),
        Action(service=SERVICE, name="close", needs=(Need("offer", "offer_id"),), build=_close,
               goal="record today's closing of the sale at the accepted offer's price"),
    ),
)

__all__ = ["LINKS", "agent_email", "home_price", "plant_listing", "plant_offer"]
