"""Loyalty: the store's points-and-rewards program (members, points, VIP tiers, reward codes).

No loyalty server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Smile.io REST API:
``/v1/customers`` (``first_name``, ``last_name``, ``email``, ``state``
candidate/member/disabled, ``points_balance``, ``vip_tier_id``,
``date_of_birth``, ``referral_url``; filtered by ``email``),
``/v1/points_transactions`` (``customer_id``, ``points_change``,
``description``, ``internal_note``), ``/v1/activities`` and the program's
ways to earn (activity rules: signup, order placed per dollar, birthday,
product review, social follow), ``/v1/points_products`` (``exchange_type``
fixed/variable, ``points_price``, ``variable_points_step``,
``variable_points_min``/``max``) and ``/v1/points_products/{id}/purchase``
(``customer_id``, ``points_to_spend``), ``/v1/reward_fulfillments``
(``code``, ``usage_status``, ``expires_at``) and the VIP tiers
(``milestone``). Members are the shared commerce roster's customers, under
the same emails as the order system.

Rules of the real product: a purchase needs enough spendable points (and,
for a variable product, whole steps between its min and max); a staff
points adjustment needs a description (the reason the member sees) and
cannot take more than the balance; earned points expire 365 days after
they were earned, spending takes the oldest valid points first and expired
points count for nothing; the VIP tier follows lifetime points (earned and
staff-credited, less staff deductions) and multiplies order points; an
order earns points once; a rule with a per-customer limit earns that many
times at most; a candidate or disabled member earns and spends nothing; a
reward code is single-use, usable only until it expires and on an order of
at least its minimum subtotal. Left out: referrals, webhooks, the storefront
widget, spend-based VIP milestones and the marketing emails Smile sends.
Staff notes on a member mirror the Smile admin's customer notes.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, Money
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._commerce import MONEY_MAX
from compoworld_gym.envs.services._loyalty_models import (
    Activity, ActivityRule, LoyaltyMember, LoyaltyState, MemberState, PointsProduct, PointsTransaction, RewardDef,
    RewardFulfillment, TxnSource, UsageStatus, VipTier,
)
from compoworld_gym.envs.services._loyalty_rules import expires_on, fulfillment, order_points, price_of, refresh
from compoworld_gym.envs.services._loyalty_seed import build_state
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

_LIMIT = Field(default=50, ge=1, le=200)


class Loyalty(Service):
    """Smile.io-style loyalty program: members, points, rewards and VIP tiers."""

    name = "loyalty"
    description = ("Loyalty program (Smile.io): store customers as members with points balances and VIP tiers, "
                   "points adjustments, earning rules, rewards bought with points and single-use reward codes.")
    domain = "commerce"
    spec_source = None
    State = LoyaltyState

    # ---------------------------------------------------------------- helpers
    def _member(self, customer_id: str) -> LoyaltyMember:
        return self.lookup(self.state.customers, customer_id, "customer")

    def _active(self, m: LoyaltyMember, action: str) -> None:
        if m.state != "member":
            raise Conflict(f"customer {m.id} is a {m.state}, not a member; {action} needs an active member.")

    def _add_txn(self, m: LoyaltyMember, change: int, description: str, source: TxnSource, *,
                 internal_note: Optional[str] = None, order_id: Optional[str] = None) -> PointsTransaction:
        made = self.now()
        t = PointsTransaction(id=self.new_id("PTX"), customer_id=m.id, points_change=change, description=description,
                              internal_note=internal_note, source=source, order_id=order_id, created_at=made,
                              expires_on=expires_on(made.date()) if change > 0 and source != "refund" else None)
        self.state.points_transactions[t.id] = t
        refresh(self.state, m, self.today)
        m.updated_at = made
        return t

    def _spend(self, m: LoyaltyMember, points: int, what: str) -> None:
        if points > m.points_balance:
            expired = f" ({m.points_expired} more expired unspent)" if m.points_expired else ""
            raise Unprocessable(f"customer {m.id} has {m.points_balance} spendable points{expired}; {what} needs "
                                f"{points}.")

    def _fulfil(self, m: LoyaltyMember, reward: RewardDef, value: float, spent: int, *,
                product: Optional[PointsProduct] = None, reason: Optional[str] = None) -> RewardFulfillment:
        rf = fulfillment(self.new_id("RF"), m, reward, value, spent, self.now(), product=product, reason=reason)
        self.state.reward_fulfillments[rf.id] = rf
        return rf

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[LoyaltyMember])
    def list_customers(self, email: Optional[Email] = None, state: Optional[MemberState] = None,
                       vip_tier_id: Optional[str] = None, limit: int = _LIMIT) -> list[dict]:
        """List loyalty members (customers), by email, membership state or VIP tier.

        Args:
            email: the customer's email address (case-insensitive): the store customer's.
            state: candidate, member or disabled.
            vip_tier_id: the VIP tier, e.g. VIP-0002.
            limit: maximum number of members (1-200).
        """
        rows = select(self.state.customers.values(), ieq("email", email), eq("state", state),
                      eq("vip_tier_id", vip_tier_id), limit=limit)
        return [m.model_dump() for m in rows]

    @tool(read_only=True, returns=LoyaltyMember)
    def get_customer(self, customer_id: Id("loyalty_member")) -> dict:
        """Get one member: points balance, expired points, lifetime points, VIP tier, notes.

        Args:
            customer_id: the member id, e.g. LM-0003.
        """
        return self._member(customer_id).model_dump()

    @tool(read_only=True, returns=list[PointsTransaction])
    def list_points_transactions(self, customer_id: Optional[Id("loyalty_member")] = None,
                                 source: Optional[TxnSource] = None, order_id: Optional[Id("order")] = None,
                                 limit: int = _LIMIT) -> list[dict]:
        """List points transactions, newest first, by member, source or order.

        Args:
            customer_id: the member.
            source: activity, adjustment, redemption, expiry or refund.
            order_id: the store order a transaction is about, e.g. ORD-0004.
            limit: maximum number of transactions (1-200).
        """
        rows = sorted(self.state.points_transactions.values(), key=lambda t: (t.created_at, t.id), reverse=True)
        return [t.model_dump() for t in select(rows, eq("customer_id", customer_id), eq("source", source),
                                               eq("order_id", order_id), limit=limit)]

    @tool(read_only=True, returns=list[VipTier])
    def list_vip_tiers(self) -> list[dict]:
        """The VIP tiers, lowest first, with the lifetime points each needs and its order-points multiplier."""
        return [t.model_dump() for t in sorted(self.state.vip_tiers.values(), key=lambda t: t.milestone)]

    @tool(read_only=True, returns=list[ActivityRule])
    def list_activity_rules(self, active: Optional[bool] = None) -> list[dict]:
        """The ways to earn points (activity rules), with their points and limits.

        Args:
            active: only active (true) or inactive (false) rules.
        """
        return [r.model_dump() for r in select(self.state.activity_rules.values(), eq("active", active))]

    @tool(read_only=True, returns=list[Activity])
    def list_activities(self, customer_id: Optional[Id("loyalty_member")] = None,
                        order_id: Optional[Id("order")] = None, limit: int = _LIMIT) -> list[dict]:
        """List recorded activities (what earned points), newest first.

        Args:
            customer_id: the member.
            order_id: the store order, for order_placed activities.
            limit: maximum number of activities (1-200).
        """
        rows = select(reversed(self.state.activities.values()), eq("customer_id", customer_id),
                      eq("order_id", order_id), limit=limit)
        return [a.model_dump() for a in rows]

    @tool(read_only=True, returns=list[RewardDef])
    def list_rewards(self, active: Optional[bool] = None) -> list[dict]:
        """The reward definitions (what a code gives at checkout), including staff-only ones.

        Args:
            active: only active (true) or retired (false) rewards.
        """
        return [r.model_dump() for r in select(self.state.rewards.values(), eq("active", active))]

    @tool(read_only=True, returns=list[PointsProduct])
    def list_points_products(self, active: Optional[bool] = None) -> list[dict]:
        """The points products: rewards members buy with points, at a fixed price or in steps.

        Args:
            active: only products on sale (true) or retired (false).
        """
        return [p.model_dump() for p in select(self.state.points_products.values(), eq("active", active))]

    @tool(read_only=True, returns=PointsProduct)
    def get_points_product(self, points_product_id: str) -> dict:
        """Get one points product with its reward.

        Args:
            points_product_id: the points product id, e.g. PP-0002.
        """
        p = self.lookup(self.state.points_products, points_product_id, "points product")
        return {**p.model_dump(), "reward": self.state.rewards[p.reward_id].model_dump()}

    @tool(read_only=True, returns=list[RewardFulfillment])
    def list_reward_fulfillments(self, customer_id: Optional[Id("loyalty_member")] = None,
                                 usage_status: Optional[UsageStatus] = None, code: Optional[str] = None,
                                 limit: int = _LIMIT) -> list[dict]:
        """List reward fulfillments (codes members hold), newest first.

        Args:
            customer_id: the member holding them.
            usage_status: unused, used or expired.
            code: the discount code (case-insensitive), e.g. SMILE-7WDRTE.
            limit: maximum number of fulfillments (1-200).
        """
        rows = select(reversed(self.state.reward_fulfillments.values()), eq("customer_id", customer_id),
                      eq("usage_status", usage_status), ieq("code", code), limit=limit)
        return [f.model_dump() for f in rows]

    @tool(read_only=True, returns=RewardFulfillment)
    def get_reward_fulfillment(self, reward_fulfillment_id: Id("reward")) -> dict:
        """Get one reward fulfillment (its code, value, usage status and expiry).

        Args:
            reward_fulfillment_id: the fulfillment id, e.g. RF-0002.
        """
        return self.lookup(self.state.reward_fulfillments, reward_fulfillment_id, "reward fulfillment").model_dump()

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=PointsTransaction)
    def create_points_transaction(self, customer_id: Id("loyalty_member"),
                                  points_change: int = Field(ge=-100000, le=100000),
                                  description: str = Field(min_length=3, max_length=200),
                                  internal_note: Optional[str] = Field(default=None, max_length=500)) -> dict:
        """Adjust a member's points by hand: credit (positive) or deduct (negative), with the reason.

        Args:
            customer_id: an active member.
            points_change: points to add (positive) or take away (negative); not zero.
            description: the reason, which the member sees (e.g. 'Goodwill credit for late order ORD-0007').
            internal_note: a note only staff see.
        """
        m = self._member(customer_id)
        if points_change == 0:
            raise InvalidArgument("points_change must not be zero.")
        if not description.strip():
            raise InvalidArgument("a points adjustment needs a description (its reason).")
        self._active(m, "a points adjustment")
        if points_change < 0:
            self._spend(m, -points_change, "this deduction")
        t = self._add_txn(m, points_change, description.strip(), "adjustment", internal_note=internal_note)
        return {**t.model_dump(), "points_balance": m.points_balance}

    @tool(read_only=False, returns=Activity)
    def create_activity(self, customer_id: Id("loyalty_member"), activity_rule_id: str,
                        order_id: Optional[Id("order")] = None,
                        order_subtotal: Optional[Money] = Field(default=None, ge=0, le=MONEY_MAX)) -> dict:
        """Record an activity a member did; its rule's points are credited (orders: per dollar, tier-multiplied).

        Args:
            customer_id: an active member.
            activity_rule_id: the active earning rule, e.g. AR-0002 (Place an order).
            order_id: the store order, for an order_placed rule (each order earns once).
            order_subtotal: the order's subtotal in USD, for an order_placed rule.
        """
        m = self._member(customer_id)
        rule = self.lookup(self.state.activity_rules, activity_rule_id, "activity rule")
        if rule.activity_type == "order_placed" and (order_id is None or order_subtotal is None):
            raise InvalidArgument("an order_placed activity needs order_id and order_subtotal.")
        if rule.activity_type != "order_placed" and (order_id or order_subtotal is not None):
            raise InvalidArgument(f"rule {rule.id} ({rule.activity_type}) takes no order.")
        self._active(m, "earning points")
        if not rule.active:
            raise Conflict(f"activity rule {rule.id} ({rule.name}) is inactive.")
        mine = [a for a in self.state.activities.values() if a.customer_id == m.id and a.activity_rule_id == rule.id]
        if rule.limit_per_customer is not None and len(mine) >= rule.limit_per_customer:
            raise Conflict(f"customer {m.id} already earned '{rule.name}' {len(mine)} time(s), its limit.")
        if order_id and any(a.order_id == order_id for a in self.state.activities.values()):
            raise Conflict(f"order {order_id} already earned points.")
        tier = self.state.vip_tiers.get(m.vip_tier_id or "")
        points = (order_points(order_subtotal, rule.points_per_dollar, tier.points_multiplier if tier else 1.0)
                  if order_id else rule.points)
        t = self._add_txn(m, points, f"Placed order {order_id}" if order_id else rule.name, "activity",
                          order_id=order_id) if points else None
        a = Activity(id=self.new_id("ACT"), customer_id=m.id, activity_rule_id=rule.id,
                     activity_type=rule.activity_type, order_id=order_id, order_subtotal=order_subtotal,
                     points_earned=points, points_transaction_id=t.id if t else None, created_at=self.now())
        self.state.activities[a.id] = a
        return {**a.model_dump(), "points_balance": m.points_balance, "vip_tier_name": m.vip_tier_name}

    @tool(read_only=False, returns=RewardFulfillment)
    def purchase_points_product(self, points_product_id: str, customer_id: Id("loyalty_member"),
                                points_to_spend: Optional[int] = Field(default=None, ge=1, le=1000000)) -> dict:
        """Redeem a member's points for a reward: spends the points and fulfils a single-use code.

        Args:
            points_product_id: the points product on sale, e.g. PP-0001.
            customer_id: an active member with enough spendable points.
            points_to_spend: for a variable product only: whole steps between its min and max.
        """
        p = self.lookup(self.state.points_products, points_product_id, "points product")
        m = self._member(customer_id)
        reward = self.state.rewards[p.reward_id]
        spend, value = price_of(p, reward, points_to_spend)
        if not (p.active and reward.active):
            raise Conflict(f"points product {p.id} is no longer on sale.")
        self._active(m, "redeeming points")
        self._spend(m, spend, f"points product {p.id}")
        rf = self._fulfil(m, reward, value, spend, product=p)
        self._add_txn(m, -spend, f"Redeemed {reward.name}", "redemption")
        return {**rf.model_dump(), "points_balance": m.points_balance}

    @tool(read_only=False, returns=RewardFulfillment)
    def issue_reward(self, customer_id: Id("loyalty_member"), reward_id: str,
                     reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Issue a reward to a member for free (staff goodwill): a single-use code, no points spent.

        Args:
            customer_id: an active member.
            reward_id: the active reward definition, e.g. RWD-0006 ($20 goodwill coupon).
            reason: why it is issued (kept on the fulfillment).
        """
        m = self._member(customer_id)
        reward = self.lookup(self.state.rewards, reward_id, "reward")
        if reward.reward_type == "variable_discount":
            raise Unprocessable(f"reward {reward.id} is a points discount; it can only be bought with points.")
        if not reward.active:
            raise Conflict(f"reward {reward.id} ({reward.name}) is retired.")
        self._active(m, "issuing a reward")
        m.updated_at = self.now()
        return self._fulfil(m, reward, reward.value, 0, reason=reason.strip()).model_dump()

    @tool(read_only=False, returns=RewardFulfillment)
    def use_reward_fulfillment(self, code: str = Field(min_length=4, max_length=40),
                               order_id: Id("order") = Field(pattern=r"^ORD-\d{4,}$"),
                               order_subtotal: Money = Field(ge=0, le=MONEY_MAX)) -> dict:
        """Redeem a reward code on an order at checkout; a code is used once, before it expires.

        Args:
            code: the discount code, e.g. SMILE-FSRJK3.
            order_id: the store order it is applied to.
            order_subtotal: the order's subtotal (USD); it must reach the reward's minimum.
        """
        rf = next((f for f in self.state.reward_fulfillments.values() if f.code.lower() == code.strip().lower()), None)
        if rf is None:
            raise NotFound(f"no reward code {code!r}; list_reward_fulfillments shows a member's codes.")
        if rf.usage_status == "used":
            raise Conflict(f"code {rf.code} was already used on order {rf.used_on_order_id}; a code is single-use.")
        if rf.usage_status == "expired" or rf.expires_at < self.today:
            raise Unprocessable(f"code {rf.code} expired on {rf.expires_at.isoformat()}.")
        reward = self.state.rewards[rf.reward_id]
        if order_subtotal < reward.minimum_order_subtotal:
            raise Unprocessable(f"code {rf.code} needs an order subtotal of at least "
                                f"{reward.minimum_order_subtotal:.2f}; this order's is {order_subtotal:.2f}.")
        rf.usage_status, rf.used_on_order_id, rf.used_at = "used", order_id, self.now()
        return rf.model_dump()

    @tool(read_only=False, returns=LoyaltyMember)
    def update_customer(self, customer_id: Id("loyalty_member"), state: Optional[MemberState] = None,
                        date_of_birth: Optional[Date] = None) -> dict:
        """Update a member: join a candidate, disable or re-enable membership, or set the birthday.

        Args:
            customer_id: the member.
            state: member (join or re-enable), disabled (opt out); a member cannot go back to candidate.
            date_of_birth: the birthday (not in the future).
        """
        m = self._member(customer_id)
        if state is None and date_of_birth is None:
            raise InvalidArgument("give state or date_of_birth to change.")
        if state == "candidate" and m.state != "candidate":
            raise Conflict(f"customer {m.id} is a {m.state}; a joined customer cannot become a candidate again.")
        if date_of_birth is not None and date_of_birth > self.today:
            raise InvalidArgument("date_of_birth is in the future.")
        if state is not None and state == m.state:
            raise Conflict(f"customer {m.id} is already {m.state}.")
        if state is not None:
            m.state = state
        if date_of_birth is not None:
            m.date_of_birth = date_of_birth
        m.updated_at = self.now()
        return m.model_dump()

    @tool(read_only=False, returns=LoyaltyMember)
    def add_customer_note(self, customer_id: Id("loyalty_member"),
                          note: str = Field(min_length=1, max_length=1000)) -> dict:
        """Add a staff note to a member's record.

        Args:
            customer_id: the member.
            note: the note text.
        """
        m = self._member(customer_id)
        if not note.strip():
            raise InvalidArgument("note is empty.")
        m.notes.append(note.strip())
        m.updated_at = self.now()
        return m.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> LoyaltyState:
        return build_state(fake, rng, today)


__all__ = ["Loyalty"]
