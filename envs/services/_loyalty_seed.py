"""Seed data of the loyalty service: the store's Smile.io program on the shared commerce roster.

Members are the customers of ``_commerce`` (the same names and emails as
the orders service), in roster order (LM-0001 is the roster's first
customer). Every member earned the signup bonus when joining; the book's
orders that were paid, fulfilled or delivered earned order points (the
refunded one was reversed), so the points line up with the order system.
Long-standing members have points from the previous store platform and
signup points that expired unspent; some bought
rewards (a used code, an unused one, an expired one), one got a staff
goodwill credit and one a staff-issued free-shipping reward. Chloe Dubois
is a candidate who never joined (her order earned nothing) and Lucas
Fernandez opted out (disabled).
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._blocks import day_start, seed_id
from compoworld_gym.envs.services._commerce import CUSTOMERS, order_book
from compoworld_gym.envs.services._loyalty_models import (
    Activity, ActivityRule, LoyaltyMember, LoyaltyState, PointsProduct, PointsTransaction, RewardDef,
    RewardFulfillment, VipTier,
)
from compoworld_gym.envs.services._loyalty_rules import expires_on, fulfillment, order_points, refresh

STORE = "deskforge.shop"
_TIERS = (("Bronze", 0, 1.0, ["1 point per $1"]),
          ("Silver", 750, 1.25, ["1.25 points per $1", "Free standard shipping on orders over $75"]),
          ("Gold", 2000, 1.5, ["1.5 points per $1", "Free express shipping", "Early access to sales"]))
_RULES = (("Sign up", "customer_signup", 200, 0, True, 1), ("Place an order", "order_placed", 0, 1, True, None),
          ("Celebrate a birthday", "customer_birthday", 100, 0, True, None),
          ("Write a product review", "product_review", 50, 0, True, None),
          ("Follow on Instagram", "social_follow", 25, 0, True, 1),
          ("Share on Facebook", "social_follow", 25, 0, False, 1))
#: (name, type, value, minimum subtotal, valid days, active)
_REWARDS = (("$5 off coupon", "fixed_amount_discount", 5.0, 0.0, 90, True),
            ("$10 off coupon", "fixed_amount_discount", 10.0, 50.0, 90, True),
            ("Free shipping", "free_shipping", 5.99, 0.0, 60, True),
            ("10% off your order", "percentage_discount", 10.0, 100.0, 60, True),
            ("Points discount", "variable_discount", 1.0, 0.0, 90, True),
            ("$20 goodwill coupon", "fixed_amount_discount", 20.0, 0.0, 120, True),
            ("$15 off coupon (retired)", "fixed_amount_discount", 15.0, 0.0, 90, False))
#: (reward index, exchange type, price or (step, step value, min, max), active)
_PRODUCTS = ((0, "fixed", 500, True), (1, "fixed", 900, True), (2, "fixed", 300, True), (3, "fixed", 1200, True),
             (4, "variable", (100, 1.0, 500, 5000), True), (6, "fixed", 1300, False))
#: Days ago each roster customer joined (Chloe Dubois, index 8, is a candidate).
_JOINED = (540, 120, 410, 75, 300, 620, 90, 480, 20, 200)
_EARNED = ("delivered", "fulfilled", "paid", "refunded")


def _at(today: dt.date, days_ago: int, hour: int = 10) -> dt.datetime:
    return dt.datetime.combine(today - dt.timedelta(days=days_ago), dt.time(hour, 0))


def _txn(state: LoyaltyState, member: LoyaltyMember, change: int, description: str, source: str,
         when: dt.datetime, **extra) -> PointsTransaction:
    t = PointsTransaction(id=seed_id(state, "PTX"), customer_id=member.id, points_change=change,
                          description=description, source=source, created_at=when,
                          expires_on=expires_on(when.date()) if change > 0 and source != "refund" else None, **extra)
    state.points_transactions[t.id] = t
    return t


def _activity(state: LoyaltyState, member: LoyaltyMember, rule: ActivityRule, when: dt.datetime, today: dt.date,
              order=None) -> None:
    if order is not None:
        tier = state.vip_tiers.get(refresh(state, member, today).vip_tier_id or "")
        points = order_points(order.subtotal, rule.points_per_dollar, tier.points_multiplier if tier else 1.0)
    else:
        points = rule.points
    t = _txn(state, member, points, rule.name if order is None else f"Placed order {order.id}", "activity", when,
             order_id=order.id if order else None)
    a = Activity(id=seed_id(state, "ACT"), customer_id=member.id, activity_rule_id=rule.id,
                 activity_type=rule.activity_type, order_id=order.id if order else None,
                 order_subtotal=order.subtotal if order else None, points_earned=points, points_transaction_id=t.id,
                 created_at=when)
    state.activities[a.id] = a


def _fulfil(state: LoyaltyState, member: LoyaltyMember, product: PointsProduct | None, reward: RewardDef,
            when: dt.datetime, **extra) -> RewardFulfillment:
    spent = product.points_price if product else 0
    rf = fulfillment(seed_id(state, "RF"), member, reward, reward.value, spent, when, product=product)
    for k, v in extra.items():
        setattr(rf, k, v)
    if product:
        _txn(state, member, -spent, f"Redeemed {reward.name}", "redemption", when)
    state.reward_fulfillments[rf.id] = rf
    return rf


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> LoyaltyState:
    """The program, its rules and rewards, and the roster's members with their points history.

    Args:
        fake: seeded Faker (unused: every person comes from the shared roster).
        rng: seeded random stream (review points, birthdays, which member got the goodwill credit).
        today: the task's date.
    """
    state = LoyaltyState()
    for name, milestone, mult, perks in _TIERS:
        t = VipTier(id=seed_id(state, "VIP"), name=name, milestone=milestone, points_multiplier=mult, perks=perks)
        state.vip_tiers[t.id] = t
    rules = []
    for name, kind, pts, per, active, limit in _RULES:
        r = ActivityRule(id=seed_id(state, "AR"), name=name, activity_type=kind, points=pts, points_per_dollar=per,
                         active=active, limit_per_customer=limit)
        state.activity_rules[r.id] = r
        rules.append(r)
    rewards = []
    for name, kind, value, minimum, days, active in _REWARDS:
        r = RewardDef(id=seed_id(state, "RWD"), name=name, reward_type=kind, value=value,
                      minimum_order_subtotal=minimum, valid_days=days, active=active)
        state.rewards[r.id] = r
        rewards.append(r)
    products = []
    for idx, kind, price, active in _PRODUCTS:
        p = PointsProduct(id=seed_id(state, "PP"), reward_id=rewards[idx].id, exchange_type=kind, active=active,
                          exchange_description="")
        if kind == "fixed":
            p.points_price, p.exchange_description = price, f"{price} Points"
        else:
            p.variable_points_step, p.variable_points_step_reward_value, p.variable_points_min, \
                p.variable_points_max = price
            p.exchange_description = f"$1.00 off for every {price[0]} Points"
        state.points_products[p.id] = p
        products.append(p)
    members = []
    for n, c in enumerate(CUSTOMERS):
        first, last = c.name.split(" ", 1)
        joined = _at(today, _JOINED[n], 9 + n % 8)
        dob = dt.date(rng.randint(1968, 2001), rng.randint(1, 12), rng.randint(1, 28)) if n % 3 else None
        m = LoyaltyMember(id=seed_id(state, "LM"), first_name=first, last_name=last, name=c.name, email=c.email,
                          state="candidate" if n == 8 else "disabled" if n == 7 else "member", points_balance=0,
                          date_of_birth=dob, referral_url=f"https://{STORE}/r/{first.lower()}{n + 1:02d}",
                          created_at=joined, updated_at=joined)
        state.customers[m.id] = m
        members.append(m)
        if m.state != "candidate":
            _activity(state, m, rules[0], joined, today)
        if _JOINED[n] > 300 and m.state != "candidate":
            _txn(state, m, rng.randint(30, 70) * 10, "Placed an order", "activity", _at(today, _JOINED[n] - 30),
                 internal_note="Imported from the previous store platform.")
        if _JOINED[n] > 150:
            _activity(state, m, rules[3], _at(today, rng.randint(100, 140)), today)
    by_email = {m.email: m for m in members}
    for o in order_book(today):
        m = by_email[o.customer.email]
        if o.status in _EARNED and m.state != "candidate":
            _activity(state, m, rules[1], dt.datetime.combine(o.placed_on, dt.time(15, 0)), today, o)
        if o.status == "refunded":
            earned = next(t for t in state.points_transactions.values() if t.order_id == o.id)
            _txn(state, m, -earned.points_change, f"Points reversed: order {o.id} refunded", "adjustment",
                 _at(today, 4), order_id=o.id, internal_note="Refund issued in the order system.")
    olivia, liam, mia, emma, noah, james, ethan = (members[i] for i in (0, 3, 6, 2, 1, 9, 5))
    _fulfil(state, mia, products[0], rewards[0], _at(today, 20), usage_status="used",
            used_on_order_id="ORD-0012", used_at=dt.datetime.combine(today - dt.timedelta(days=4), dt.time(15, 2)))
    _fulfil(state, liam, products[1], rewards[1], _at(today, 3))
    _fulfil(state, olivia, products[2], rewards[2], _at(today, 200), usage_status="expired")
    goodwill = rng.choice((noah, james, ethan))
    _txn(state, goodwill, 150, "Goodwill credit", "adjustment", _at(today, 6, 14),
         internal_note="Parcel arrived late; credited per the delay policy.")
    _fulfil(state, emma, None, rewards[2], _at(today, 2), reason="Express shipping promised but the order "
                                                                 "went standard.")
    for m in members:
        refresh(state, m, today)
    return state
