"""Business rules of the loyalty service: points lots, expiry, VIP tiers, reward codes.

Points are spent oldest first (FIFO lots): every credit is a lot that
expires on its ``expires_on`` day (refunded points never expire), every
debit (a redemption, a negative adjustment, an expiry) draws down the
oldest lots still valid at the debit's time. On ``today`` a member's
``points_balance`` is what is left in unexpired lots; what is left in
expired lots is ``points_expired`` and counts for nothing. The VIP tier
follows lifetime points: points earned (activities) and credited by staff,
less staff deductions; spending or expiry never lowers a tier.

Example:
    >>> reward_code(7)
    'SMILE-JAOE9K'
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Iterable, NamedTuple, Optional

from compoworld_gym.envs.services._loyalty_models import (
    LoyaltyMember, LoyaltyState, PointsProduct, PointsTransaction, RewardDef, RewardFulfillment, VipTier,
)
from compoworld_gym.errors import InvalidArgument, Unprocessable

#: Days earned points stay spendable (the program's points expiry setting).
POINTS_EXPIRY_DAYS = 365
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Points(NamedTuple):
    """A member's points on a day: spendable, expired unspent, and lifetime earned."""

    balance: int
    expired: int
    lifetime: int


def points_of(txns: Iterable[PointsTransaction], today: dt.date) -> Points:
    """The member's points on ``today`` from their transactions (FIFO lots, see the module docstring)."""
    lots: list[list] = []  # [remaining, expires_on or None]
    lifetime = 0
    for t in sorted(txns, key=lambda t: (t.created_at, t.id)):
        if t.points_change > 0:
            lots.append([t.points_change, t.expires_on])
            if t.source in ("activity", "adjustment"):
                lifetime += t.points_change
            continue
        if t.source == "adjustment":
            lifetime += t.points_change
        need, day = -t.points_change, t.created_at.date()
        for lot in lots:
            if need == 0:
                break
            if lot[0] == 0 or (lot[1] is not None and lot[1] <= day):
                continue
            take = min(lot[0], need)
            lot[0] -= take
            need -= take
    balance = sum(n for n, exp in lots if exp is None or exp > today)
    expired = sum(n for n, exp in lots if exp is not None and exp <= today)
    return Points(balance, expired, max(lifetime, 0))


def tier_for(tiers: Iterable[VipTier], lifetime: int) -> Optional[VipTier]:
    """The highest tier whose milestone ``lifetime`` points reach (None when none does)."""
    reached = [t for t in tiers if t.milestone <= lifetime]
    return max(reached, key=lambda t: t.milestone) if reached else None


def refresh(state: LoyaltyState, member: LoyaltyMember, today: dt.date) -> LoyaltyMember:
    """Recompute ``member``'s balance, expired points, lifetime points and VIP tier from its transactions."""
    pts = points_of((t for t in state.points_transactions.values() if t.customer_id == member.id), today)
    member.points_balance, member.points_expired, member.lifetime_points = pts
    tier = tier_for(state.vip_tiers.values(), pts.lifetime)
    member.vip_tier_id, member.vip_tier_name = (tier.id, tier.name) if tier else (None, None)
    return member


def order_points(subtotal: float, per_dollar: int, multiplier: float) -> int:
    """Points an order earns: whole dollars of the subtotal times the rate, times the tier multiplier (floored).

    Example:
        >>> order_points(179.98, 1, 1.25)
        223
    """
    return math.floor(math.floor(subtotal + 1e-9) * per_dollar * multiplier + 1e-9)


def expires_on(earned: dt.date) -> dt.date:
    """The day points earned on ``earned`` expire."""
    return earned + dt.timedelta(days=POINTS_EXPIRY_DAYS)


def reward_code(n: int) -> str:
    """The discount code of the ``n``-th fulfillment: ``SMILE-`` and six scrambled base-36 characters."""
    x = (n * 2654435761 + 97) % 36 ** 6
    out = ""
    for _ in range(6):
        x, r = divmod(x, 36)
        out = _ALPHABET[r] + out
    return f"SMILE-{out}"


def variable_value(points: int, step: int, step_value: float) -> float:
    """Dollars off for ``points`` of a variable product: whole steps times the step value."""
    return round((points // step) * step_value, 2)


def price_of(p: PointsProduct, reward: RewardDef, points_to_spend: Optional[int]) -> tuple[int, float]:
    """``(points spent, dollars off)`` of buying ``p``: its fixed price, or ``points_to_spend`` in whole steps.

    Raises:
        InvalidArgument: a points amount on a fixed product that is not its price, or none on a variable one.
        Unprocessable: a variable amount outside min..max or not a whole number of steps.
    """
    if p.exchange_type == "fixed":
        if points_to_spend is not None and points_to_spend != p.points_price:
            raise InvalidArgument(f"points product {p.id} costs {p.points_price} points; omit points_to_spend.")
        return p.points_price, reward.value
    if points_to_spend is None:
        raise InvalidArgument(f"points product {p.id} is variable; give points_to_spend.")
    if not p.variable_points_min <= points_to_spend <= p.variable_points_max or points_to_spend % p.variable_points_step:
        raise Unprocessable(f"points_to_spend must be a multiple of {p.variable_points_step} from "
                            f"{p.variable_points_min} to {p.variable_points_max}.")
    return points_to_spend, variable_value(points_to_spend, p.variable_points_step, p.variable_points_step_reward_value)


def fulfillment(fid: str, m: LoyaltyMember, reward: RewardDef, value: float, spent: int, made: dt.datetime, *,
                product: Optional[PointsProduct] = None, reason: Optional[str] = None) -> RewardFulfillment:
    """A new unused reward fulfillment ``fid`` of ``reward`` for ``m``, valid for the reward's days from ``made``."""
    return RewardFulfillment(id=fid, customer_id=m.id, reward_id=reward.id,
                             points_product_id=product.id if product else None, name=reward.name,
                             code=reward_code(int(fid.split("-")[1])), value=value, points_spent=spent,
                             source="purchase" if product else "issued", reason=reason, usage_status="unused",
                             expires_at=made.date() + dt.timedelta(days=reward.valid_days), created_at=made)
