"""Gift cards: a shop's Square gift cards, their balances and activity ledger, linked to customers.

No gift card server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Square Gift Cards API:
``ListGiftCards`` (``type``, ``state``, ``customer_id``, ``limit``),
``RetrieveGiftCard``, ``RetrieveGiftCardFromGAN`` (``gan``),
``CreateGiftCard`` (``location_id``, ``gift_card.type``, ``gift_card.gan``;
a new card is PENDING), ``LinkCustomerToGiftCard`` /
``UnlinkCustomerFromGiftCard`` (``customer_id``), ``ListGiftCardActivities``
(``gift_card_id``, ``type``) and ``CreateGiftCardActivity``, one tool per
activity type (ACTIVATE, LOAD, REDEEM, REFUND, CLEAR_BALANCE, DEACTIVATE,
BLOCK, UNBLOCK, ADJUST_INCREMENT / ADJUST_DECREMENT) with the fields of its
``*_activity_details`` (``amount_money``, ``order_id``, ``reference_id``,
``payment_id``, ``redeem_activity_id``, ``reason``); plus the Customers
API's ``SearchCustomers`` by ``email_address`` and ``RetrieveCustomer``.
Customers are the store's customers under the same email; a card may be
issued as a refund of a store order (its ACTIVATE names the order).

Rules of the real product: only an ACTIVE card is loaded, redeemed,
refunded onto, adjusted or cleared; a PENDING card is activated once; a
card's balance never passes the maximum balance ($2,000 in the US) and a
redeem or decrement never takes more than the balance; BLOCK/UNBLOCK toggle
ACTIVE and BLOCKED (chargebacks); DEACTIVATED is final; a REFUND returns at
most what its REDEEM took on the same card; a custom GAN is 8-20 digits and
unique; activities are append-only (no update or delete). Left out:
cursors, nonces (RetrieveGiftCardFromNonce), webhooks, locations other than
the one store, and cents (amounts are dollars).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Email, Id, Money
from compoworld_gym.envs.services._blocks import eq, has, ieq, select
from compoworld_gym.envs.services._gift_cards_models import (
    MAX_BALANCE, ActivityType, ClearReason, DeactivateReason, DecrementReason, GiftCard, GiftCardActivity,
    GiftCardsState, GiftCardState, GiftCardType, IncrementReason, SquareCustomer,
)
from compoworld_gym.envs.services._gift_cards_rules import gan_for, refundable
from compoworld_gym.envs.services._gift_cards_seed import build_state, record_activity
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

Amount = Field(gt=0, le=MAX_BALANCE)
Ref = Field(default=None, max_length=120)


class GiftCards(Service):
    """Square-style gift cards: cards, activities and linked customers."""

    name = "gift_cards"
    description = ("Gift cards (Square Gift Cards API): digital and physical cards by GAN, their state and balance, "
                   "the append-only activity ledger (activate, load, redeem, refund, block, deactivate, adjust) and "
                   "the customers linked to each card.")
    domain = "commerce"
    spec_source = None
    State = GiftCardsState

    # ---------------------------------------------------------------- helpers
    def _card(self, gift_card_id: str) -> GiftCard:
        return self.lookup(self.state.gift_cards, gift_card_id, "gift card")

    def _customer(self, customer_id: str) -> SquareCustomer:
        return self.lookup(self.state.customers, customer_id, "customer")

    def _act(self, gift_card_id: str, kind: str, amount: Optional[float] = None, **details) -> dict:
        card = self._card(gift_card_id)
        a = record_activity(self.state, self.new_id("GCA"), card, kind, self.now(), amount,
                            **{k: v for k, v in details.items() if v is not None})
        return {**a.model_dump(), "gift_card": card.model_dump()}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[SquareCustomer])
    def search_customers(self, email_address: Optional[Email] = None,
                         name: Optional[str] = Field(default=None, max_length=120),
                         limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search customer profiles by exact email address (case-insensitive) or name.

        Args:
            email_address: the customer's email address.
            name: the customer's full name (case-insensitive).
            limit: maximum number of customers (1-200).
        """
        rows = select(self.state.customers.values(), ieq("email_address", email_address), ieq("name", name),
                      limit=limit)
        return [c.model_dump() for c in rows]

    @tool(read_only=True, returns=SquareCustomer)
    def retrieve_customer(self, customer_id: Id("customer")) -> dict:
        """Get one customer profile with the ids of the gift cards linked to it.

        Args:
            customer_id: the customer id, e.g. CUS-0001.
        """
        c = self._customer(customer_id)
        cards = [g.id for g in self.state.gift_cards.values() if c.id in g.customer_ids]
        return {**c.model_dump(), "gift_card_ids": cards}

    @tool(read_only=True, returns=list[GiftCard])
    def list_gift_cards(self, type: Optional[GiftCardType] = None, state: Optional[GiftCardState] = None,
                        customer_id: Optional[Id("customer")] = None,
                        limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List gift cards by type, state or linked customer.

        Args:
            type: DIGITAL or PHYSICAL.
            state: PENDING, ACTIVE, DEACTIVATED or BLOCKED.
            customer_id: only cards linked to this customer.
            limit: maximum number of cards (1-200).
        """
        rows = select(self.state.gift_cards.values(), eq("type", type), eq("state", state),
                      has("customer_ids", customer_id), limit=limit)
        return [g.model_dump() for g in rows]

    @tool(read_only=True, returns=GiftCard)
    def retrieve_gift_card(self, gift_card_id: Id("gift_card")) -> dict:
        """Get one gift card: its GAN, state, balance and linked customers.

        Args:
            gift_card_id: the gift card id, e.g. GC-0001.
        """
        return self._card(gift_card_id).model_dump()

    @tool(read_only=True, returns=GiftCard)
    def retrieve_gift_card_from_gan(self, gan: str = Field(min_length=8, max_length=24)) -> dict:
        """Get the gift card with a given account number (GAN), spaces ignored.

        Args:
            gan: the gift card account number, e.g. 7783320000000011.
        """
        want = gan.replace(" ", "")
        card = next((g for g in self.state.gift_cards.values() if g.gan == want), None)
        if card is None:
            raise NotFound(f"no gift card has GAN {gan!r}.")
        return card.model_dump()

    @tool(read_only=True, returns=list[GiftCardActivity])
    def list_gift_card_activities(self, gift_card_id: Optional[Id("gift_card")] = None,
                                  type: Optional[ActivityType] = None, order_id: Optional[Id("order")] = None,
                                  limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List activities, newest first, of one card or all cards, by type or store order.

        Args:
            gift_card_id: only this card's activities.
            type: only this activity type, e.g. ACTIVATE or REDEEM.
            order_id: only activities for this store order (a card bought with or refunded onto it).
            limit: maximum number of activities (1-200).
        """
        if gift_card_id is not None:
            self._card(gift_card_id)
        rows = select(reversed(self.state.activities.values()), eq("gift_card_id", gift_card_id), eq("type", type),
                      eq("order_id", order_id), limit=limit)
        return [a.model_dump() for a in rows]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=GiftCard)
    def create_gift_card(self, type: GiftCardType = "DIGITAL",
                         gan: Optional[str] = Field(default=None, pattern=r"^[0-9]{8,20}$")) -> dict:
        """Create a gift card in PENDING state (activate it to put money on it).

        Args:
            type: DIGITAL or PHYSICAL.
            gan: a custom 8-20 digit account number (a physical card's printed GAN); Square generates one if omitted.
        """
        if gan is not None and any(g.gan == gan for g in self.state.gift_cards.values()):
            raise Conflict(f"GAN {gan} is already used by another gift card.")
        gid = self.new_id("GC")
        card = GiftCard(id=gid, type=type, gan_source="OTHER" if gan else "SQUARE",
                        gan=gan or gan_for(int(gid.split("-")[1])), state="PENDING", balance_money=0.0,
                        created_at=self.now())
        self.state.gift_cards[gid] = card
        return card.model_dump()

    @tool(read_only=False, returns=GiftCard)
    def link_customer_to_gift_card(self, gift_card_id: Id("gift_card"), customer_id: Id("customer")) -> dict:
        """Link a customer profile to a gift card (so it shows on their profile).

        Args:
            gift_card_id: the card.
            customer_id: the customer, e.g. CUS-0003.
        """
        card, c = self._card(gift_card_id), self._customer(customer_id)
        if card.state == "DEACTIVATED":
            raise Conflict(f"gift card {card.id} is DEACTIVATED; link the customer's active card instead.")
        if c.id in card.customer_ids:
            raise Conflict(f"customer {c.id} is already linked to gift card {card.id}.")
        card.customer_ids.append(c.id)
        card.customer_emails.append(c.email_address)
        return card.model_dump()

    @tool(read_only=False, returns=GiftCard)
    def unlink_customer_from_gift_card(self, gift_card_id: Id("gift_card"), customer_id: Id("customer")) -> dict:
        """Unlink a customer from a gift card.

        Args:
            gift_card_id: the card.
            customer_id: a customer linked to it.
        """
        card, c = self._card(gift_card_id), self._customer(customer_id)
        if c.id not in card.customer_ids:
            raise Unprocessable(f"customer {c.id} is not linked to gift card {card.id}.")
        i = card.customer_ids.index(c.id)
        del card.customer_ids[i], card.customer_emails[i]
        return card.model_dump()

    @tool(read_only=False, returns=GiftCardActivity)
    def activate_gift_card(self, gift_card_id: Id("gift_card"), amount_money: Money = Amount,
                           order_id: Optional[Id("order")] = None, reference_id: Optional[str] = Ref) -> dict:
        """ACTIVATE a PENDING card with its first balance (a sale, or a refund issued onto a new card).

        Args:
            gift_card_id: a PENDING card.
            amount_money: the opening balance in USD (at most 2,000).
            order_id: the store order the card was bought with or is a refund of.
            reference_id: your reference, e.g. "Refund of order ORD-0011".
        """
        return self._act(gift_card_id, "ACTIVATE", amount_money, order_id=order_id, reference_id=reference_id)

    @tool(read_only=False, returns=GiftCardActivity)
    def load_gift_card(self, gift_card_id: Id("gift_card"), amount_money: Money = Amount,
                       order_id: Optional[Id("order")] = None, reference_id: Optional[str] = Ref) -> dict:
        """LOAD money onto an ACTIVE card (the balance may not pass $2,000).

        Args:
            gift_card_id: an ACTIVE card.
            amount_money: amount to add, USD.
            order_id: the store order the money comes from (e.g. a refund of it).
            reference_id: your reference, e.g. a return or case id.
        """
        return self._act(gift_card_id, "LOAD", amount_money, order_id=order_id, reference_id=reference_id)

    @tool(read_only=False, returns=GiftCardActivity)
    def redeem_gift_card(self, gift_card_id: Id("gift_card"), amount_money: Money = Amount,
                         payment_id: Optional[Id("payment")] = None, reference_id: Optional[str] = Ref) -> dict:
        """REDEEM (spend) part of an ACTIVE card's balance; never more than the balance.

        Args:
            gift_card_id: an ACTIVE card.
            amount_money: amount spent, USD.
            payment_id: the payment the card paid.
            reference_id: your reference.
        """
        return self._act(gift_card_id, "REDEEM", amount_money, payment_id=payment_id, reference_id=reference_id)

    @tool(read_only=False, returns=GiftCardActivity)
    def refund_gift_card(self, gift_card_id: Id("gift_card"), redeem_activity_id: Id("gift_card_activity"),
                         amount_money: Money = Amount, reference_id: Optional[str] = Ref) -> dict:
        """REFUND money back onto an ACTIVE card from one of its REDEEM activities.

        Args:
            gift_card_id: the card that was redeemed.
            redeem_activity_id: the REDEEM activity refunded, on the same card.
            amount_money: amount to give back, at most what is left unrefunded of that redeem.
            reference_id: your reference.
        """
        card = self._card(gift_card_id)
        red = self.lookup(self.state.activities, redeem_activity_id, "gift card activity")
        if red.type != "REDEEM" or red.gift_card_id != card.id:
            raise InvalidArgument(f"activity {red.id} is not a REDEEM of gift card {card.id}.")
        left = refundable(red, self.state.activities.values())
        if amount_money > left:
            raise Unprocessable(f"redeem {red.id} has {left:,.2f} USD left to refund; {amount_money:,.2f} is more.")
        return self._act(gift_card_id, "REFUND", amount_money, redeem_activity_id=red.id, payment_id=red.payment_id,
                         reference_id=reference_id)

    @tool(read_only=False, returns=GiftCardActivity)
    def adjust_gift_card_balance(self, gift_card_id: Id("gift_card"), amount_money: Money = Amount,
                                 direction: Literal["INCREMENT", "DECREMENT"] = Field(),
                                 reason: str = Field(min_length=3, max_length=40)) -> dict:
        """ADJUST_INCREMENT or ADJUST_DECREMENT an ACTIVE card's balance, with Square's reason code.

        Args:
            gift_card_id: an ACTIVE card.
            amount_money: amount of the adjustment, USD.
            direction: INCREMENT or DECREMENT.
            reason: for INCREMENT COMPLIMENTARY, SUPPORT_ISSUE or TRANSACTION_VOIDED; for DECREMENT
                SUSPICIOUS_ACTIVITY, BALANCE_ACCIDENTALLY_INCREASED, SUPPORT_ISSUE or PURCHASE_WAS_REFUNDED.
        """
        codes = (IncrementReason if direction == "INCREMENT" else DecrementReason).__args__
        if reason not in codes:
            raise InvalidArgument(f"reason for ADJUST_{direction} is one of {', '.join(codes)}.")
        return self._act(gift_card_id, f"ADJUST_{direction}", amount_money, reason=reason)

    @tool(read_only=False, destructive=True, returns=GiftCardActivity)
    def clear_gift_card_balance(self, gift_card_id: Id("gift_card"), reason: ClearReason = "UNKNOWN_REASON") -> dict:
        """CLEAR_BALANCE: set an ACTIVE card's balance to zero.

        Args:
            gift_card_id: an ACTIVE card with a balance.
            reason: SUSPICIOUS_ACTIVITY, REUSE_GIFTCARD or UNKNOWN_REASON.
        """
        return self._act(gift_card_id, "CLEAR_BALANCE", None, reason=reason)

    @tool(read_only=False, destructive=True, returns=GiftCardActivity)
    def deactivate_gift_card(self, gift_card_id: Id("gift_card"),
                             reason: DeactivateReason = "UNKNOWN_REASON") -> dict:
        """DEACTIVATE a card for good (final: it can never be used, loaded or reactivated).

        Args:
            gift_card_id: an ACTIVE or BLOCKED card.
            reason: SUSPICIOUS_ACTIVITY, UNKNOWN_REASON or CHARGEBACK_DEACTIVATE.
        """
        return self._act(gift_card_id, "DEACTIVATE", None, reason=reason)

    @tool(read_only=False, returns=GiftCardActivity)
    def block_gift_card(self, gift_card_id: Id("gift_card"), reference_id: Optional[str] = Ref) -> dict:
        """BLOCK an ACTIVE card (reason CHARGEBACK_BLOCK): it cannot be used until unblocked.

        Args:
            gift_card_id: an ACTIVE card.
            reference_id: your reference, e.g. the dispute or case id.
        """
        return self._act(gift_card_id, "BLOCK", None, reason="CHARGEBACK_BLOCK", reference_id=reference_id)

    @tool(read_only=False, returns=GiftCardActivity)
    def unblock_gift_card(self, gift_card_id: Id("gift_card"), reference_id: Optional[str] = Ref) -> dict:
        """UNBLOCK a BLOCKED card (reason CHARGEBACK_UNBLOCK): it is ACTIVE again.

        Args:
            gift_card_id: a BLOCKED card.
            reference_id: your reference.
        """
        return self._act(gift_card_id, "UNBLOCK", None, reason="CHARGEBACK_UNBLOCK", reference_id=reference_id)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> GiftCardsState:
        return build_state(rng, today)


__all__ = ["GiftCards"]
