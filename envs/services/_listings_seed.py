"""Seed data of the listings service: one brokerage's listings on the MLS.

The four fixed sales of ``_listings_deals`` (three under contract, one
closed; the buyers are shared store customers with loans at the lender),
six active listings with offers and showings, one withdrawn and one expired,
in Portland, Austin, Denver and Seattle. The listing agents are the
brokerage's staff at the company domain; buyers' agents work elsewhere.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._blocks import fake_person
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.envs.services._listings_deals import DEALS
from compoworld_gym.envs.services._listings_models import Listing, ListingsState, Offer, Showing
from compoworld_gym.envs.services._listings_rules import log

#: The listing brokerage and its agents (name, work email).
OFFICE = "Summit Ridge Realty"
AGENTS: tuple[tuple[str, str], ...] = tuple(
    (n, f"{n.lower().replace(' ', '.')}@{DOMAIN}") for n in ("Claire Whitmore", "Derek Osei", "Maya Lindgren",
                                                              "Rafael Quintero"))
#: Buyers' agents of other brokerages.
BUYER_AGENTS: tuple[tuple[str, str], ...] = (
    ("Jordan Blake", "jordan.blake@keystonehomes.example"), ("Priscilla Vaughn", "priscilla.vaughn@harborlight.example"),
    ("Marcus Reid", "marcus.reid@openhousepartners.example"), ("Tessa Moreno", "tessa.moreno@keystonehomes.example"))
#: City -> (state, ZIP prefix).
CITIES = {"Portland": ("OR", "972"), "Austin": ("TX", "787"), "Denver": ("CO", "802"), "Seattle": ("WA", "981")}
_REMARKS = ("Light-filled home on a quiet street, updated kitchen and fenced yard.",
            "Move-in ready with new roof, hardwood floors and a finished basement.",
            "Walk to parks and cafes; open plan living and a two-car garage.")
#: The other listings: (status, city, sub type, beds, days on market, agreement days left).
_OTHERS = (("Active", "Portland", "Single Family Residence", 3, 12, 170),
           ("Active", "Austin", "Townhouse", 3, 34, 146), ("Active", "Denver", "Single Family Residence", 4, 6, 174),
           ("Active", "Seattle", "Condominium", 2, 21, 159), ("Active", "Portland", "Single Family Residence", 5, 3, 177),
           ("Active", "Austin", "Single Family Residence", 4, 181, -1),
           ("Withdrawn", "Denver", "Townhouse", 2, 60, 120), ("Expired", "Seattle", "Single Family Residence", 3, 200, -20))


def _deal_listing(i: int, rng: random.Random, today: dt.date) -> tuple[Listing, Offer]:
    deal = DEALS[i]
    agent, bagent = AGENTS[i % len(AGENTS)], BUYER_AGENTS[i % len(BUYER_AGENTS)]
    contract = today + dt.timedelta(days=deal.contract_offset)
    listed = contract - dt.timedelta(days=rng.randint(8, 25))
    lst = Listing(id=deal.key, standard_status="Pending", property_sub_type=deal.sub_type,
                  unparsed_address=deal.address, city=deal.city, state_or_province=deal.state,
                  postal_code=deal.postal_code, bedrooms_total=deal.beds, bathrooms_total_integer=deal.baths,
                  living_area=deal.living_area, year_built=deal.year_built, list_price=deal.list_price,
                  original_list_price=deal.list_price, list_agent_full_name=agent[0], list_agent_email=agent[1],
                  list_office_name=OFFICE, listing_contract_date=listed, expiration_date=listed + dt.timedelta(days=180),
                  public_remarks=_REMARKS[i % len(_REMARKS)], purchase_contract_date=contract,
                  buyer_agent_full_name=bagent[0], buyer_agent_email=bagent[1], buyer_financing=deal.financing)
    log(lst, "New Listing", "ListPrice", None, deal.list_price, listed)
    log(lst, "Status Change", "StandardStatus", "Active", "Pending", contract)
    close = today + dt.timedelta(days=deal.close_offset)
    offer = Offer(id=f"OFR-{i + 1:04d}", listing_id=deal.key, buyer_name=deal.buyer.name, buyer_email=deal.buyer.email,
                  buyer_agent_full_name=bagent[0], buyer_agent_email=bagent[1], offer_price=deal.price,
                  earnest_money_amount=round(deal.price * 0.02, -2), buyer_financing=deal.financing,
                  proposed_close_date=close, offer_expiration_date=contract + dt.timedelta(days=2),
                  status="Accepted", submitted_on=contract - dt.timedelta(days=1), responded_on=contract)
    if deal.close_offset < 0:
        lst.standard_status, lst.close_price, lst.close_date = "Closed", deal.price, close
        log(lst, "Status Change", "StandardStatus", "Pending", "Closed", close)
    return lst, offer


def _other_listing(n: int, row: tuple, fake: Faker, rng: random.Random, today: dt.date) -> Listing:
    status, city, sub, beds, dom, left = row
    agent = AGENTS[n % len(AGENTS)]
    state, zip3 = CITIES[city]
    listed = today - dt.timedelta(days=dom)
    price = float(rng.randrange(300 + 90 * beds, 420 + 160 * beds) * 1000)
    lst = Listing(id=f"LST-{n:04d}", standard_status=status, property_sub_type=sub,
                  unparsed_address=f"{rng.randint(100, 9899)} {fake.street_name()}", city=city,
                  state_or_province=state, postal_code=f"{zip3}{rng.randint(1, 99):02d}", bedrooms_total=beds,
                  bathrooms_total_integer=max(1, beds - 1), living_area=520 + 430 * beds + rng.randint(0, 20) * 10,
                  year_built=rng.randint(1948, 2021), list_price=price, original_list_price=price,
                  list_agent_full_name=agent[0], list_agent_email=agent[1], list_office_name=OFFICE,
                  listing_contract_date=listed, expiration_date=today + dt.timedelta(days=left),
                  public_remarks=rng.choice(_REMARKS))
    log(lst, "New Listing", "ListPrice", None, price, listed)
    if dom > 20 and status == "Active":  # a stale listing got a price cut
        cut = price - 15000.0
        log(lst, "Price Change", "ListPrice", price, cut, today - dt.timedelta(days=dom // 2))
        lst.list_price = cut
    if status in ("Withdrawn", "Expired"):
        off = today - dt.timedelta(days=20) if status == "Withdrawn" else lst.expiration_date + dt.timedelta(days=1)
        lst.off_market_date = off
        log(lst, "Status Change", "StandardStatus", "Active", status, off)
    return lst


#: Offers on the other listings: (listing n, status, price vs list, days since submitted, days left to accept).
_OFFERS = ((5, "Submitted", -10000, 1, 2), (5, "Submitted", -25000, 0, 3), (6, "Countered", -30000, 3, 1),
           (7, "Submitted", -5000, 4, -1), (8, "Withdrawn", -40000, 6, -3), (1, "Rejected", -35000, 11, -8))
#: Showings: (listing n, day offset, start hour, minutes, status).
_SHOWINGS = ((5, 1, 10, 45, "Scheduled"), (5, 1, 11, 30, "Scheduled"), (6, 0, 16, 45, "Scheduled"),
             (7, -1, 14, 30, "Completed"), (8, -2, 12, 30, "Cancelled"), (9, 3, 17, 60, "Scheduled"),
             (1, -15, 11, 45, "Completed"), (10, 2, 9, 30, "Scheduled"))


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> ListingsState:
    """Twelve listings, ten offers, eight showings."""
    state = ListingsState()
    for i in range(len(DEALS)):
        lst, offer = _deal_listing(i, rng, today)
        state.listings[lst.id], state.offers[offer.id] = lst, offer
    for n, row in enumerate(_OTHERS, start=len(DEALS) + 1):
        lst = _other_listing(n, row, fake, rng, today)
        state.listings[lst.id] = lst
    for n, status, delta, ago, left in _OFFERS:
        lst, buyer = state.listings[f"LST-{n:04d}"], fake_person(fake)
        agent = BUYER_AGENTS[(len(state.offers) + 1) % len(BUYER_AGENTS)]
        price = lst.list_price + delta
        oid = f"OFR-{len(state.offers) + 1:04d}"
        submitted = today - dt.timedelta(days=ago)
        state.offers[oid] = Offer(
            id=oid, listing_id=lst.id, buyer_name=buyer.name, buyer_email=buyer.email, buyer_agent_full_name=agent[0],
            buyer_agent_email=agent[1], offer_price=price, earnest_money_amount=round(price * 0.01, -2),
            buyer_financing=rng.choice(("Conventional", "Conventional", "FHA", "Cash")),
            proposed_close_date=today + dt.timedelta(days=rng.randint(30, 45)),
            offer_expiration_date=today + dt.timedelta(days=left), status=status, submitted_on=submitted,
            counter_price=lst.list_price - 12000 if status == "Countered" else None,
            responded_on=submitted + dt.timedelta(days=1) if status in ("Countered", "Rejected") else None,
            response_note={"Countered": "Seller will meet closer to list.",
                           "Rejected": "Seller accepted a stronger offer."}.get(status))
    for n, offset, hour, minutes, status in _SHOWINGS:
        agent = BUYER_AGENTS[n % len(BUYER_AGENTS)]
        start = dt.datetime.combine(today + dt.timedelta(days=offset), dt.time(hour, 0))
        sid = f"SHW-{len(state.showings) + 1:04d}"
        state.showings[sid] = Showing(
            id=sid, listing_id=f"LST-{n:04d}", showing_start_timestamp=start,
            showing_end_timestamp=start + dt.timedelta(minutes=minutes), showing_agent_full_name=agent[0],
            showing_agent_email=agent[1], status=status,
            remarks="Buyers pre-approved; lockbox on the side door." if status == "Scheduled" else "",
            feedback="Buyers liked the layout; kitchen feels dated." if status == "Completed" else None)
    state.counters.update(LST=len(state.listings) + 1, OFR=len(state.offers) + 1, SHW=len(state.showings) + 1)
    return state
