"""Business rules of the gift cards service (Square Gift Cards API).

What each activity type needs of the card's state, and what it does to the
balance. Square's documented limits: only an ACTIVE card is loaded,
redeemed, refunded onto, adjusted or cleared; a PENDING card is activated
once; BLOCK and UNBLOCK toggle ACTIVE and BLOCKED; DEACTIVATED is final; the
balance never goes below zero nor above the maximum balance ($2,000 in the
US); a refund returns at most what its REDEEM activity took (less earlier
refunds of it).
"""

from __future__ import annotations

from typing import Iterable, Optional

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._gift_cards_models import MAX_BALANCE, GiftCard, GiftCardActivity
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable

#: The card state each activity type needs.
NEEDS_STATE: dict[str, tuple[str, ...]] = {
    "ACTIVATE": ("PENDING",), "LOAD": ("ACTIVE",), "REDEEM": ("ACTIVE",), "REFUND": ("ACTIVE",),
    "CLEAR_BALANCE": ("ACTIVE",), "ADJUST_INCREMENT": ("ACTIVE",), "ADJUST_DECREMENT": ("ACTIVE",),
    "DEACTIVATE": ("ACTIVE", "BLOCKED"), "BLOCK": ("ACTIVE",), "UNBLOCK": ("BLOCKED",),
}
#: The state a card is left in by each state-changing activity.
NEW_STATE = {"ACTIVATE": "ACTIVE", "DEACTIVATE": "DEACTIVATED", "BLOCK": "BLOCKED", "UNBLOCK": "ACTIVE"}
#: Activities that add to the balance, and those that take from it.
CREDITS = ("ACTIVATE", "LOAD", "REFUND", "ADJUST_INCREMENT")
DEBITS = ("REDEEM", "ADJUST_DECREMENT")


def gan_for(n: int) -> str:
    """The ``n``-th Square-generated GAN: 16 digits, Square's 7783 prefix and a Luhn check digit."""
    body = f"778332{n:09d}"
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return body + str((10 - total % 10) % 10)


def check_state(card: GiftCard, activity: str) -> None:
    """Raise Conflict unless ``card`` is in a state that allows ``activity``."""
    allowed = NEEDS_STATE[activity]
    if card.state not in allowed:
        final = " A DEACTIVATED card is final." if card.state == "DEACTIVATED" else ""
        raise Conflict(f"gift card {card.id} is {card.state}; {activity} needs a card that is "
                       f"{' or '.join(allowed)}.{final}")


def new_balance(card: GiftCard, activity: str, amount: Optional[float]) -> float:
    """The balance after ``activity`` of ``amount`` on ``card`` (checked; nothing is changed)."""
    check_state(card, activity)
    if activity in CREDITS + DEBITS:
        if amount is None or amount <= 0:
            raise InvalidArgument(f"{activity} needs a positive amount_money.")
        if activity in CREDITS:
            after = money(card.balance_money + amount)
            if after > MAX_BALANCE:
                raise Unprocessable(f"gift card {card.id} holds {card.balance_money:,.2f} USD; adding {amount:,.2f} "
                                    f"would pass the maximum balance of {MAX_BALANCE:,.2f} USD.")
            return after
        if amount > card.balance_money:
            raise Unprocessable(f"gift card {card.id} holds {card.balance_money:,.2f} USD; cannot take "
                                f"{amount:,.2f} USD from it.")
        return money(card.balance_money - amount)
    if activity == "CLEAR_BALANCE":
        if card.balance_money <= 0:
            raise Conflict(f"gift card {card.id} has no balance to clear.")
        return 0.0
    return card.balance_money


def refundable(redeem: GiftCardActivity, activities: Iterable[GiftCardActivity]) -> float:
    """What is left to refund of the REDEEM activity ``redeem`` after its earlier refunds."""
    done = sum(a.amount_money or 0 for a in activities if a.type == "REFUND" and a.redeem_activity_id == redeem.id)
    return money((redeem.amount_money or 0) - done)
