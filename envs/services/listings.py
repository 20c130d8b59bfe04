"""Listings: an MLS of homes for sale with showings, offers, price changes and closings.

No MLS server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the RESO Web API and its
Data Dictionary: the ``Property`` resource (``ListingKey``, ``StandardStatus``
Active/Pending/Closed/Withdrawn/Expired, ``ListPrice``,
``OriginalListPrice``, ``UnparsedAddress``, ``City``, ``BedroomsTotal``,
``BathroomsTotalInteger``, ``LivingArea``, ``ListAgentEmail``,
``ListingContractDate``, ``ExpirationDate``, ``PurchaseContractDate``,
``BuyerFinancing``, ``ClosePrice``, ``CloseDate``), ``HistoryTransactional``
for logged price and status changes, and the ``Showing`` resource
(``ShowingKey``, ``ShowingStartTimestamp``, ``ShowingEndTimestamp``). Offers
are the MLS offer-form records that feed those contract fields. Field names
are the snake_case forms (see ``_listings_models``).

Rules: showings and offers only on an Active listing whose agreement is
still running; no two scheduled showings of one listing overlap, showings
are from tomorrow, 08:00-20:00; one live offer per buyer per listing;
accepting an offer (or the buyer accepting a counter) makes the listing
Pending; a Pending listing closes with ClosePrice and CloseDate (on or
before today, not before the contract) or goes back to Active (the accepted
offer is terminated); price changes only while Active, each logged. Left
out: media, rooms, open houses and OData ``$filter`` syntax (search takes
plain filters).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Address, City, Date, DateTime, Email, Id, Money, PersonName
from compoworld_gym.envs.services._blocks import eq, ieq, select, text
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._listings_models import (
    Listing, ListingsState, Offer, OfferStatus, PropertySubType, Showing, ShowingStatus, StandardStatus,
)
from compoworld_gym.envs.services._listings_offers import OffersMixin
from compoworld_gym.envs.services._listings_rules import (
    check_move, check_showing_slot, log, overlaps, require_marketable,
)
from compoworld_gym.envs.services._listings_seed import AGENTS, OFFICE, build_state
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Service, tool


class Listings(OffersMixin, Service):
    """RESO-style MLS: listings, showings, offers and closings."""

    name = "listings"
    description = ("Real-estate MLS: homes for sale (price, beds, status Active/Pending/Closed), showing "
                   "appointments, buyers' offers and counters, price changes and closings.")
    domain = "real_estate"
    spec_source = None
    State = ListingsState

    # ---------------------------------------------------------------- helpers
    def _listing(self, listing_id: str) -> Listing:
        return self.lookup(self.state.listings, listing_id, "listing")

    def _offer(self, offer_id: str) -> Offer:
        return self.lookup(self.state.offers, offer_id, "offer")

    def _showing(self, showing_id: str) -> Showing:
        return self.lookup(self.state.showings, showing_id, "showing")

    def _view(self, lst: Listing) -> dict:
        end = lst.close_date or lst.off_market_date or self.today
        return {**lst.model_dump(), "days_on_market": (end - lst.listing_contract_date).days}

    def _offer_view(self, o: Offer) -> dict:
        return {**o.model_dump(), "unparsed_address": self.state.listings[o.listing_id].unparsed_address}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Listing])
    def search_listings(self, city: Optional[City] = None, min_price: Optional[Money] = Field(default=None, ge=0),
                        max_price: Optional[Money] = Field(default=None, ge=0),
                        min_beds: Optional[int] = Field(default=None, ge=0, le=20),
                        standard_status: Optional[StandardStatus] = None, address: Optional[Address] = None,
                        property_sub_type: Optional[PropertySubType] = None, list_agent_email: Optional[Email] = None,
                        limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search the MLS (RESO Property): rows with key, status, address, price, beds, baths and agent.

        Args:
            city: the City (case-insensitive).
            min_price: lowest ListPrice (USD).
            max_price: highest ListPrice (USD).
            min_beds: fewest BedroomsTotal.
            standard_status: Active, Pending, Closed, Withdrawn or Expired.
            address: part of the UnparsedAddress (street address).
            property_sub_type: Single Family Residence, Condominium or Townhouse.
            list_agent_email: the ListAgentEmail.
            limit: maximum number of listings (1-200).
        """
        rows = select(self.state.listings.values(), ieq("city", city), eq("standard_status", standard_status),
                      text(address, "unparsed_address"), eq("property_sub_type", property_sub_type),
                      ieq("list_agent_email", list_agent_email),
                      None if min_price is None else (lambda r: r.list_price >= min_price),
                      None if max_price is None else (lambda r: r.list_price <= max_price),
                      None if min_beds is None else (lambda r: r.bedrooms_total >= min_beds), limit=limit)
        keep = ("id", "standard_status", "unparsed_address", "city", "list_price", "bedrooms_total",
                "bathrooms_total_integer", "living_area", "property_sub_type", "list_agent_email", "days_on_market")
        return [{k: v for k, v in self._view(r).items() if k in keep} for r in rows]

    @tool(read_only=True, returns=Listing)
    def get_listing(self, listing_id: Id("listing")) -> dict:
        """Get one listing with its contract and closing fields, history and days on market.

        Args:
            listing_id: the ListingKey, e.g. LST-0005.
        """
        return self._view(self._listing(listing_id))

    @tool(read_only=True, returns=list[Showing])
    def list_showings(self, listing_id: Id("listing"), status: Optional[ShowingStatus] = None,
                      day: Optional[Date] = None) -> list[dict]:
        """The showings of a listing, earliest first, optionally of one status or day.

        Args:
            listing_id: the listing.
            status: Scheduled, Completed or Cancelled.
            day: only showings starting on this day (YYYY-MM-DD).
        """
        lst = self._listing(listing_id)
        rows = select(self.state.showings.values(), eq("listing_id", lst.id), eq("status", status),
                      None if day is None else (lambda s: s.showing_start_timestamp.date() == day))
        return [s.model_dump() for s in sorted(rows, key=lambda s: (s.showing_start_timestamp, s.id))]

    @tool(read_only=True, returns=Showing)
    def get_showing(self, showing_id: Id("showing")) -> dict:
        """Get one showing.

        Args:
            showing_id: the ShowingKey, e.g. SHW-0002.
        """
        return self._showing(showing_id).model_dump()

    @tool(read_only=True, returns=list[Offer])
    def list_offers(self, listing_id: Optional[Id("listing")] = None, buyer_email: Optional[Email] = None,
                    status: Optional[OfferStatus] = None) -> list[dict]:
        """Offers, oldest first, by listing, buyer email or status (each with the home's address).

        Args:
            listing_id: the listing.
            buyer_email: the buyer's email (case-insensitive).
            status: Submitted, Countered, Accepted, Rejected, Withdrawn or Terminated.
        """
        if listing_id is not None:
            self._listing(listing_id)
        rows = select(self.state.offers.values(), eq("listing_id", listing_id), ieq("buyer_email", buyer_email),
                      eq("status", status))
        return [self._offer_view(o) for o in rows]

    @tool(read_only=True, returns=Offer)
    def get_offer(self, offer_id: Id("offer")) -> dict:
        """Get one offer with the home's address.

        Args:
            offer_id: the offer id, e.g. OFR-0006.
        """
        return self._offer_view(self._offer(offer_id))

    # --------------------------------------------------------------- listings
    @tool(read_only=False, returns=Listing)
    def create_listing(self, unparsed_address: Address = Field(min_length=5, max_length=120),
                       city: City = Field(min_length=2), state_or_province: str = Field(pattern=r"^[A-Z]{2}$"),
                       postal_code: str = Field(pattern=r"^\d{5}$"),
                       list_price: Money = Field(ge=1000, le=MONEY_MAX), expiration_date: Date = Field(),
                       list_agent_email: Email = Field(), property_sub_type: PropertySubType = "Single Family Residence",
                       bedrooms_total: int = Field(default=3, ge=0, le=20),
                       bathrooms_total_integer: int = Field(default=2, ge=0, le=20),
                       living_area: int = Field(default=1500, ge=100, le=100000),
                       year_built: int = Field(default=1990, ge=1800, le=2026),
                       public_remarks: str = Field(default="", max_length=1000)) -> dict:
        """List a home (status Active from today); one Active or Pending listing per address (409).

        Args:
            unparsed_address: street address.
            city: city.
            state_or_province: state code, e.g. OR.
            postal_code: ZIP code.
            list_price: asking price (USD).
            expiration_date: last day of the listing agreement, after today.
            list_agent_email: one of the brokerage's agents.
            property_sub_type: Single Family Residence, Condominium or Townhouse.
            bedrooms_total: bedrooms.
            bathrooms_total_integer: bathrooms.
            living_area: floor area (sq ft).
            year_built: year built.
            public_remarks: marketing remarks.
        """
        agents = {e: n for n, e in AGENTS}
        if list_agent_email.lower() not in agents:
            raise NotFound(f"{list_agent_email} is not an agent of {OFFICE}; agents are {', '.join(agents)}.")
        if expiration_date <= self.today:
            raise Unprocessable("expiration_date must be after today.")
        live = [r.id for r in self.state.listings.values() if r.standard_status in ("Active", "Pending")
                and r.unparsed_address.lower() == unparsed_address.lower() and r.city.lower() == city.lower()]
        if live:
            raise Conflict(f"{unparsed_address} is already on the market as {live[0]}.")
        lst = Listing(id=self.new_id("LST"), standard_status="Active", property_sub_type=property_sub_type,
                      unparsed_address=unparsed_address, city=city, state_or_province=state_or_province,
                      postal_code=postal_code, bedrooms_total=bedrooms_total,
                      bathrooms_total_integer=bathrooms_total_integer, living_area=living_area, year_built=year_built,
                      list_price=money(list_price), original_list_price=money(list_price),
                      list_agent_full_name=agents[list_agent_email.lower()], list_agent_email=list_agent_email.lower(),
                      list_office_name=OFFICE, listing_contract_date=self.today, expiration_date=expiration_date,
                      public_remarks=public_remarks)
        log(lst, "New Listing", "ListPrice", None, lst.list_price, self.today)
        self.state.listings[lst.id] = lst
        return self._view(lst)

    @tool(read_only=False, returns=Listing)
    def change_list_price(self, listing_id: Id("listing"), list_price: Money = Field(ge=1000, le=MONEY_MAX)) -> dict:
        """Change the asking price of an Active listing (logged as a Price Change).

        Args:
            listing_id: the listing.
            list_price: the new ListPrice (USD), different from the current one.
        """
        lst = self._listing(listing_id)
        require_marketable(lst, self.today, "a price change")
        new = money(list_price)
        if new == lst.list_price:
            raise Conflict(f"listing {lst.id} is already priced at {new:.2f}.")
        log(lst, "Price Change", "ListPrice", lst.list_price, new, self.today)
        lst.list_price = new
        return self._view(lst)

    @tool(read_only=False, returns=Listing)
    def update_listing_status(self, listing_id: Id("listing"),
                              standard_status: Literal["Active", "Withdrawn", "Expired"],
                              expiration_date: Optional[Date] = None) -> dict:
        """Withdraw an Active listing, mark one whose agreement ended Expired, or put one back to Active
        (relist a Withdrawn/Expired one with a new expiration_date; a Pending one whose sale fell
        through, which terminates its accepted offer).

        Args:
            listing_id: the listing.
            standard_status: Active, Withdrawn or Expired.
            expiration_date: new agreement end when relisting (after today).
        """
        lst = self._listing(listing_id)
        check_move(lst, standard_status, expiration_date, self.today)
        previous = lst.standard_status
        if previous == "Pending":
            for o in self.state.offers.values():
                if o.listing_id == lst.id and o.status == "Accepted":
                    o.status, o.responded_on = "Terminated", self.today
            lst.purchase_contract_date = lst.buyer_agent_full_name = lst.buyer_agent_email = None
            lst.buyer_financing = None
        if standard_status == "Active":
            lst.off_market_date = None
            if expiration_date is not None:
                lst.expiration_date = expiration_date
        else:
            lst.off_market_date = self.today
        lst.standard_status = standard_status
        log(lst, "Status Change", "StandardStatus", previous, standard_status, self.today)
        return self._view(lst)

    @tool(read_only=False, returns=Listing)
    def close_listing(self, listing_id: Id("listing"), close_price: Money = Field(ge=1000, le=MONEY_MAX),
                      close_date: Date = Field()) -> dict:
        """Record the closing of a Pending sale: ClosePrice and CloseDate; the listing becomes Closed.

        Args:
            listing_id: a Pending listing.
            close_price: the final sale price (USD).
            close_date: the closing day: not after today, not before the contract day.
        """
        lst = self._listing(listing_id)
        if lst.standard_status != "Pending":
            raise Conflict(f"listing {lst.id} is {lst.standard_status}; only a Pending sale can close.")
        if close_date > self.today:
            raise Unprocessable(f"close_date {close_date} is in the future; record the closing once it happened.")
        if lst.purchase_contract_date and close_date < lst.purchase_contract_date:
            raise Unprocessable(f"close_date {close_date} is before the contract day {lst.purchase_contract_date}.")
        lst.close_price, lst.close_date, lst.standard_status = money(close_price), close_date, "Closed"
        log(lst, "Status Change", "StandardStatus", "Pending", "Closed", self.today)
        return self._view(lst)

    # --------------------------------------------------------------- showings
    @tool(read_only=False, returns=Showing)
    def schedule_showing(self, listing_id: Id("listing"), showing_start_timestamp: DateTime,
                         showing_agent_full_name: PersonName = Field(min_length=2, max_length=80),
                         showing_agent_email: Email = Field(), duration_minutes: int = Field(default=45, ge=15, le=120),
                         remarks: str = Field(default="", max_length=500)) -> dict:
        """Book a showing of an Active listing; it may not overlap another scheduled showing of it.

        Args:
            listing_id: the listing.
            showing_start_timestamp: start (YYYY-MM-DDTHH:MM), from tomorrow, 08:00 or later.
            showing_agent_full_name: the agent bringing the buyers.
            showing_agent_email: their email.
            duration_minutes: 15-120 minutes; the showing must end by 20:00.
            remarks: notes for the listing agent.
        """
        lst = self._listing(listing_id)
        require_marketable(lst, self.today, "a showing")
        start = showing_start_timestamp.replace(tzinfo=None, second=0, microsecond=0)
        end = start + dt.timedelta(minutes=duration_minutes)
        check_showing_slot(start, end, self.today)
        clash = [s for s in self.state.showings.values() if s.listing_id == lst.id and s.status == "Scheduled"
                 and overlaps((start, end), (s.showing_start_timestamp, s.showing_end_timestamp))]
        if clash:
            c = clash[0]
            raise Conflict(f"showing {c.id} of {lst.id} is booked {c.showing_start_timestamp:%Y-%m-%d %H:%M}-"
                           f"{c.showing_end_timestamp:%H:%M}; pick a time that does not overlap it.")
        sh = Showing(id=self.new_id("SHW"), listing_id=lst.id, showing_start_timestamp=start, showing_end_timestamp=end,
                     showing_agent_full_name=showing_agent_full_name, showing_agent_email=showing_agent_email,
                     status="Scheduled", remarks=remarks)
        self.state.showings[sh.id] = sh
        return sh.model_dump()

    @tool(read_only=False, returns=Showing)
    def cancel_showing(self, showing_id: Id("showing"), reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Cancel a scheduled showing.

        Args:
            showing_id: the showing.
            reason: why (kept in its remarks).
        """
        sh = self._showing(showing_id)
        if sh.status != "Scheduled":
            raise Conflict(f"showing {sh.id} is {sh.status}.")
        sh.status = "Cancelled"
        sh.remarks = f"{sh.remarks} Cancelled: {reason}".strip()
        return sh.model_dump()

    @tool(read_only=False, returns=Showing)
    def record_showing_feedback(self, showing_id: Id("showing"),
                                feedback: str = Field(min_length=3, max_length=1000)) -> dict:
        """Record the showing agent's feedback on a showing that has taken place (it becomes Completed).

        Args:
            showing_id: a scheduled showing that started today or earlier.
            feedback: the feedback.
        """
        sh = self._showing(showing_id)
        if sh.status != "Scheduled":
            raise Conflict(f"showing {sh.id} is {sh.status}.")
        if sh.showing_start_timestamp.date() > self.today:
            raise Unprocessable(f"showing {sh.id} is on {sh.showing_start_timestamp:%Y-%m-%d}; feedback comes after.")
        sh.status, sh.feedback = "Completed", feedback
        return sh.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> ListingsState:
        return build_state(fake, rng, today)
