"""Pure rules of the subscriptions service: the plan catalog, terms, MRR and proration.

Proration is Chargebee's day-based proration, computed in whole cents: the
unused part of the old plan is ``round_half_up(old_cents * days_left /
term_days)``, the cost of the new plan for the same days likewise; a plan
change within the same billing period credits the first and charges the
second, and the difference becomes a credit note (downgrade) or an unbilled
charge (upgrade). A change of billing period (monthly to annual) starts a
new term today: the unused old part is credited and the new plan charged in
full. Trials and subscriptions that have not started are not prorated.

Example:
    >>> prorate_cents(29900, 10, 31)
    9645
    >>> import datetime as dt
    >>> term_end(dt.date(2026, 1, 31), "month")
    datetime.date(2026, 2, 28)
"""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from dateutil.relativedelta import relativedelta

from compoworld_gym.envs.services._subscriptions_models import ItemPrice, Subscription

#: Plans: (item id, customer-facing name, tier, monthly list price USD, trial days).
#: The annual price is ten months' worth (two months free), as SaaS price pages have it.
PLANS: tuple[tuple[str, str, int, float, int | None], ...] = (
    ("starter", "Starter", 1, 99.0, 14),
    ("growth", "Growth", 2, 299.0, 14),
    ("business", "Business", 3, 799.0, None),
    ("enterprise", "Enterprise", 4, 1999.0, None),
)


def catalog() -> dict[str, ItemPrice]:
    """The item prices: each plan monthly and annual in USD (``<item>-USD-monthly`` / ``-yearly``)."""
    out = {}
    for item, label, tier, monthly, trial in PLANS:
        for unit, price, word in (("month", monthly, "Monthly"), ("year", monthly * 10, "Yearly")):
            ip = ItemPrice(id=f"{item}-USD-{word.lower()}", item_id=item, name=f"{label} USD {word}",
                           external_name=label, tier=tier, pricing_model="flat_fee", price=price,
                           period_unit=unit, trial_period=trial, status="active")
            out[ip.id] = ip
    # The 2024 price point of Growth, kept for the subscriptions still on it (grandfathered).
    legacy = ItemPrice(id="growth-legacy-USD-monthly", item_id="growth", name="Growth USD Monthly (2024)",
                       external_name="Growth", tier=2, pricing_model="flat_fee", price=249.0, period_unit="month",
                       status="archived")
    out[legacy.id] = legacy
    return out


def cents(amount: float) -> int:
    """An amount in USD as whole cents."""
    return int(round(amount * 100))


def usd(amount_cents: int) -> float:
    """Whole cents as USD with two decimals."""
    return amount_cents / 100


def prorate_cents(amount_cents: int, days: int, term_days: int) -> int:
    """``amount_cents * days / term_days`` rounded half up to a whole cent (integer arithmetic, exact)."""
    if term_days <= 0:
        return 0
    return (2 * amount_cents * days + term_days) // (2 * term_days)


def term_end(start: dt.date, unit: str, period: int = 1) -> dt.date:
    """The day a term starting on ``start`` ends: ``period`` months or years later (month ends clamp)."""
    return start + (relativedelta(months=period) if unit == "month" else relativedelta(years=period))


def plan_amount(sub: Subscription) -> float:
    """The subscription's charge per billing period (USD)."""
    return sub.subscription_items[0].amount


def mrr(sub: Subscription) -> float:
    """Monthly recurring revenue (USD): the period charge per month while active or non-renewing, else 0."""
    if sub.status not in ("active", "non_renewing"):
        return 0.0
    amount = cents(plan_amount(sub))
    return usd(amount if sub.billing_period_unit == "month" else (2 * amount + 12) // 24)


class Proration(NamedTuple):
    """A plan change's money: credit for the unused old plan and charge for the new one (cents),
    and the term the subscription is on afterwards."""

    credit_cents: int
    charge_cents: int
    days_left: int
    term_days: int
    term_start: dt.date
    term_end: dt.date

    @property
    def net_cents(self) -> int:
        """Charge less credit: positive is owed by the customer, negative is owed to them."""
        return self.charge_cents - self.credit_cents


def proration(sub: Subscription, new: ItemPrice, new_amount: float, today: dt.date, prorate: bool) -> Proration:
    """What changing ``sub`` to ``new`` (charging ``new_amount`` per period) costs today.

    A subscription without a paid term (future, in trial) or a change with
    ``prorate=False`` moves no money; the term stays unless the billing
    period changes, which starts a new term today.
    """
    same_unit = new.period_unit == sub.billing_period_unit
    paid = sub.status in ("active", "non_renewing") and sub.current_term_start and sub.current_term_end
    start, end = sub.current_term_start, sub.current_term_end
    if not same_unit and paid:
        start, end = today, term_end(today, new.period_unit, new.period)
    if not paid or not prorate:
        return Proration(0, 0, 0, 0, start or sub.start_date, end or term_end(sub.start_date, new.period_unit))
    old_start, old_end = sub.current_term_start, sub.current_term_end
    term_days = (old_end - old_start).days
    days_left = max(0, min(term_days, (old_end - today).days))
    credit = prorate_cents(cents(plan_amount(sub)), days_left, term_days)
    charge = prorate_cents(cents(new_amount), days_left, term_days) if same_unit else cents(new_amount)
    return Proration(credit, charge, days_left, term_days, start, end)


def cancel_credit_cents(sub: Subscription, today: dt.date, option: str) -> int:
    """The credit for the current term when cancelling today: ``none``, ``prorate`` (unused days) or ``full``."""
    if option == "none" or sub.status not in ("active", "non_renewing") or not sub.current_term_end:
        return 0
    amount = cents(plan_amount(sub))
    if option == "full":
        return amount
    term_days = (sub.current_term_end - sub.current_term_start).days
    return prorate_cents(amount, max(0, min(term_days, (sub.current_term_end - today).days)), term_days)


__all__ = ["PLANS", "Proration", "cancel_credit_cents", "catalog", "cents", "mrr", "plan_amount", "prorate_cents",
           "proration", "term_end", "usd"]
