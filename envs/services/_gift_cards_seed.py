"""Seed data of the gift cards service: the store customers' Square gift cards.

Customers are the shared store customers (``_commerce.CUSTOMERS``, same
names and emails, CUS-0001 = the first). Cards cover every state: active
digital and physical cards with purchase, load and redeem history; a card
issued as a refund of the refunded book order ORD-0011 to its customer; a
card activated by the purchase of book order ORD-0003; an old deactivated
card beside its customer's current one; a card blocked after a chargeback;
a card at the $2,000 maximum; two pending physical cards in store stock.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from compoworld_gym.envs.services._blocks import day_start, seed_id
from compoworld_gym.envs.services._commerce import CUSTOMERS, order_book
from compoworld_gym.envs.services._gift_cards_models import GiftCard, GiftCardActivity, GiftCardsState, SquareCustomer
from compoworld_gym.envs.services._gift_cards_rules import NEW_STATE, gan_for, new_balance

#: Seeded cards: (customer index or None, type, days ago created, activities (type, amount, extra)).
_CARDS: tuple = (
    (0, "DIGITAL", 60, (("ACTIVATE", 100.0, {}), ("REDEEM", 35.5, {"payment_id": "PI-0091"}))),
    (1, "PHYSICAL", 45, (("ACTIVATE", 50.0, {}), ("LOAD", 25.0, {}))),
    (3, "DIGITAL", 8, (("ACTIVATE", None, {"order_id": "ORD-0011", "reference_id": "Refund of order ORD-0011"}),)),
    (2, "DIGITAL", 120, (("ACTIVATE", 80.0, {}), ("REDEEM", 80.0, {"payment_id": "PI-0087"}),
                         ("DEACTIVATE", None, {"reason": "SUSPICIOUS_ACTIVITY"}))),
    (3, "DIGITAL", 30, (("ACTIVATE", 40.0, {}), ("BLOCK", None, {"reason": "CHARGEBACK_BLOCK"}))),
    (None, "PHYSICAL", 20, ()),
    (None, "PHYSICAL", 20, ()),
    (2, "DIGITAL", 25, (("ACTIVATE", 150.0, {}),)),
    (8, "DIGITAL", 50, (("ACTIVATE", 200.0, {}), ("REDEEM", 60.0, {"payment_id": "PI-0093"}),
                        ("REFUND", 20.0, {"refund_of": 1}), ("REDEEM", 45.25, {"payment_id": "PI-0095"}))),
    (5, "DIGITAL", 15, (("ACTIVATE", 2000.0, {"reference_id": "Corporate gift, Brooks Design"}),)),
    (9, "PHYSICAL", 35, (("ACTIVATE", 75.0, {"order_id": "ORD-0003"}), ("ADJUST_INCREMENT", 10.0,
                                                                     {"reason": "SUPPORT_ISSUE"}))),
)


def customer_id(index: int) -> str:
    """The Square customer id of store customer ``CUSTOMERS[index]``."""
    return f"CUS-{index + 1:04d}"


def record_activity(state: GiftCardsState, aid: str, card: GiftCard, kind: str, when: dt.datetime,
                    amount: Optional[float] = None, **details) -> GiftCardActivity:
    """Apply activity ``kind`` to ``card`` (checked by the rules) and append it to ``state``."""
    card.balance_money = new_balance(card, kind, amount)
    if kind in NEW_STATE:
        card.state = NEW_STATE[kind]
    a = GiftCardActivity(id=aid, type=kind, gift_card_id=card.id, gift_card_gan=card.gan,
                         gift_card_balance_money=card.balance_money, amount_money=amount, created_at=when, **details)
    state.activities[a.id] = a
    return a


def build_state(rng: random.Random, today: dt.date) -> GiftCardsState:
    """Customers, cards and their activity history as of ``today``."""
    state = GiftCardsState()
    start = day_start(today)
    for i, c in enumerate(CUSTOMERS):
        first, _, last = c.name.partition(" ")
        state.customers[customer_id(i)] = SquareCustomer(
            id=seed_id(state, "CUS"), given_name=first, family_name=last, name=c.name, email_address=c.email,
            created_at=start - dt.timedelta(days=200 - 10 * i, hours=rng.randint(0, 6)))
    book = {o.id: o for o in order_book(today)}
    for n, (who, kind, days, acts) in enumerate(_CARDS, start=1):
        made = start - dt.timedelta(days=days) + dt.timedelta(hours=rng.randint(0, 7))
        card = GiftCard(id=seed_id(state, "GC"), type=kind, gan_source="SQUARE", gan=gan_for(n), state="PENDING",
                        balance_money=0.0, created_at=made)
        if who is not None:
            card.customer_ids, card.customer_emails = [customer_id(who)], [CUSTOMERS[who].email]
        state.gift_cards[card.id] = card
        done: list[GiftCardActivity] = []
        for step, (act, amount, extra) in enumerate(acts):
            extra = dict(extra)
            if act == "ACTIVATE" and amount is None:
                amount = book[extra["order_id"]].total
            if "refund_of" in extra:
                extra["redeem_activity_id"] = done[extra.pop("refund_of")].id
            when = made + dt.timedelta(days=step * max(1, days // (len(acts) + 1)), minutes=5 + step)
            done.append(record_activity(state, seed_id(state, "GCA"), card, act, when, amount, **extra))
    return state
