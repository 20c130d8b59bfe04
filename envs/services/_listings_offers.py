"""Offer tools of the listings service: submit, counter, accept and reject.

A mixin of :class:`compoworld_gym.envs.services.listings.Listings`: it uses
the service's ``_listing``, ``_offer`` and ``_offer_view``.
"""

from __future__ import annotations

from typing import Optional

from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, Money, PersonName
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._listings_models import LIVE_OFFER, BuyerFinancing, Offer
from compoworld_gym.envs.services._listings_rules import check_offer_open, log, require_marketable
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import tool


class OffersMixin:
    """Buyers' offers and the seller's answers; its methods become tools of the service."""

    # ----------------------------------------------------------------- offers
    @tool(read_only=False, returns=Offer)
    def submit_offer(self, listing_id: Id("listing"), buyer_name: PersonName = Field(min_length=2, max_length=80),
                     buyer_email: Email = Field(), buyer_agent_full_name: PersonName = Field(min_length=2),
                     buyer_agent_email: Email = Field(), offer_price: Money = Field(ge=1000, le=MONEY_MAX),
                     earnest_money_amount: Money = Field(default=0.0, ge=0, le=MONEY_MAX),
                     buyer_financing: BuyerFinancing = "Conventional", proposed_close_date: Date = Field(),
                     offer_expiration_date: Date = Field()) -> dict:
        """Submit a buyer's offer on an Active listing (one live offer per buyer per listing).

        Args:
            listing_id: the listing.
            buyer_name: the buyer.
            buyer_email: the buyer's email.
            buyer_agent_full_name: the buyer's agent.
            buyer_agent_email: their email.
            offer_price: price offered (USD).
            earnest_money_amount: deposit (USD), at most the price.
            buyer_financing: Cash, Conventional, FHA or VA.
            proposed_close_date: closing day, after the expiration day.
            offer_expiration_date: last day the seller may accept, today or later.
        """
        lst = self._listing(listing_id)
        require_marketable(lst, self.today, "an offer")
        if offer_expiration_date < self.today or proposed_close_date <= offer_expiration_date:
            raise Unprocessable("offer_expiration_date must be today or later and proposed_close_date after it.")
        if earnest_money_amount > offer_price:
            raise Unprocessable("earnest_money_amount cannot exceed offer_price.")
        mine = [o.id for o in self.state.offers.values() if o.listing_id == lst.id and o.status in LIVE_OFFER
                and o.buyer_email.lower() == buyer_email.lower()]
        if mine:
            raise Conflict(f"{buyer_email} already has live offer {mine[0]} on {lst.id}; answer or withdraw it first.")
        o = Offer(id=self.new_id("OFR"), listing_id=lst.id, buyer_name=buyer_name, buyer_email=buyer_email,
                  buyer_agent_full_name=buyer_agent_full_name, buyer_agent_email=buyer_agent_email,
                  offer_price=money(offer_price), earnest_money_amount=money(earnest_money_amount),
                  buyer_financing=buyer_financing, proposed_close_date=proposed_close_date,
                  offer_expiration_date=offer_expiration_date, status="Submitted", submitted_on=self.today)
        self.state.offers[o.id] = o
        return self._offer_view(o)

    @tool(read_only=False, returns=Offer)
    def counter_offer(self, offer_id: Id("offer"), counter_price: Money = Field(ge=1000, le=MONEY_MAX),
                      response_note: Optional[str] = Field(default=None, max_length=500)) -> dict:
        """Counter a submitted offer at another price (the buyer may then accept it).

        Args:
            offer_id: a Submitted, unexpired offer on an Active listing.
            counter_price: the seller's price (USD), different from the offer.
            response_note: the seller's remark.
        """
        o = self._offer(offer_id)
        check_offer_open(o, self.today, ("Submitted",), "a counter")
        require_marketable(self.state.listings[o.listing_id], self.today, "a counter")
        if money(counter_price) == o.offer_price:
            raise Unprocessable(f"the counter equals the offer price {o.offer_price:.2f}; accept the offer instead.")
        o.status, o.counter_price, o.responded_on, o.response_note = "Countered", money(counter_price), self.today, \
            response_note
        return self._offer_view(o)

    @tool(read_only=False, returns=Offer)
    def accept_offer(self, offer_id: Id("offer"), response_note: Optional[str] = Field(default=None, max_length=500)
                     ) -> dict:
        """Accept an offer: the seller accepts a Submitted one, or the buyer accepts the seller's counter
        (the agreed price is then the counter price). The listing becomes Pending.

        Args:
            offer_id: a Submitted or Countered offer, not expired, on an Active listing.
            response_note: remark kept on the offer.
        """
        o = self._offer(offer_id)
        check_offer_open(o, self.today, LIVE_OFFER, "accepting")
        lst = self.state.listings[o.listing_id]
        require_marketable(lst, self.today, "accepting an offer")
        if o.status == "Countered":
            o.offer_price = o.counter_price
        o.status, o.responded_on = "Accepted", self.today
        if response_note:
            o.response_note = response_note
        lst.standard_status, lst.purchase_contract_date = "Pending", self.today
        lst.buyer_agent_full_name, lst.buyer_agent_email = o.buyer_agent_full_name, o.buyer_agent_email
        lst.buyer_financing = o.buyer_financing
        log(lst, "Status Change", "StandardStatus", "Active", "Pending", self.today)
        return self._offer_view(o)

    @tool(read_only=False, returns=Offer)
    def reject_offer(self, offer_id: Id("offer"), response_note: Optional[str] = Field(default=None, max_length=500)
                     ) -> dict:
        """Reject a Submitted or Countered offer.

        Args:
            offer_id: the offer.
            response_note: the seller's remark.
        """
        o = self._offer(offer_id)
        if o.status not in LIVE_OFFER:
            raise Conflict(f"offer {o.id} is {o.status}; only Submitted or Countered offers can be rejected.")
        o.status, o.responded_on, o.response_note = "Rejected", self.today, response_note
        return self._offer_view(o)
