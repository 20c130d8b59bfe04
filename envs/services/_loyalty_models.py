"""Records of the loyalty service (Smile.io REST API style).

Smile.io's resources keep their names and fields, snake_cased: a
``customer`` (a loyalty member: ``first_name``, ``last_name``, ``email``,
``state`` candidate/member/disabled, ``points_balance``, ``vip_tier_id``),
a ``points_transaction`` (``points_change``, ``description``,
``internal_note``), a ``points_product`` (what points buy: ``exchange_type``
fixed or variable, ``points_price``, ``variable_points_step``...) on a
``reward`` definition, a ``reward_fulfillment`` (the discount ``code`` a
member holds, ``usage_status`` unused/used, ``expires_at``), an
``activity_rule`` (how points are earned) and a ``vip_tier`` (``milestone``).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id, Money, PersonName
from compoworld_gym.service import Record, ServiceState

MemberState = Literal["candidate", "member", "disabled"]
TxnSource = Literal["activity", "adjustment", "redemption", "expiry", "refund"]
UsageStatus = Literal["unused", "used", "expired"]
RewardType = Literal["fixed_amount_discount", "percentage_discount", "free_shipping", "variable_discount"]
ActivityType = Literal["customer_signup", "order_placed", "customer_birthday", "product_review", "social_follow"]


class VipTier(Record):
    """A VIP tier (Smile ``/v1/vip_tiers``): members reach it by lifetime points earned."""

    id: str = Field(description="Tier id, e.g. VIP-0002.")
    name: str = Field(description="Tier name, e.g. Silver.")
    milestone: int = Field(ge=0, description="Lifetime points a member needs to reach the tier.")
    points_multiplier: float = Field(ge=1, description="Order points are multiplied by this in the tier.")
    perks: list[str] = Field(default_factory=list, description="What the tier gives, in words.")


class LoyaltyMember(Record):
    """A loyalty member (Smile ``/v1/customers``): the store customer with points and a VIP tier."""

    id: Id("loyalty_member") = Field(description="Member id, e.g. LM-0003.")
    first_name: str = Field(description="First name.")
    last_name: str = Field(description="Last name.")
    name: PersonName = Field(description="Full name, as the store has it.")
    email: Email = Field(description="Email address: the store customer's (unique in the program).")
    state: MemberState = Field(description="candidate (not joined), member, or disabled (earns and spends nothing).")
    points_balance: int = Field(ge=0, description="Spendable points: unexpired earned points minus spent ones.")
    points_expired: int = Field(ge=0, default=0, description="Earned points that expired unspent (not spendable).")
    lifetime_points: int = Field(ge=0, default=0, description="Points earned over the membership (the VIP measure).")
    vip_tier_id: Optional[str] = Field(default=None, description="The VIP tier its lifetime points reach.")
    vip_tier_name: Optional[str] = Field(default=None, description="That tier's name.")
    date_of_birth: Optional[Date] = Field(default=None, description="Birthday, for the birthday points rule.")
    referral_url: str = Field(description="The member's referral link.")
    notes: list[str] = Field(default_factory=list, description="Staff notes on the member.")
    created_at: DateTime = Field(description="When the member joined (or was created as a candidate).")
    updated_at: DateTime = Field(description="Last change.")


class PointsTransaction(Record):
    """A points transaction (Smile ``/v1/points_transactions``): a change to a member's points."""

    id: str = Field(description="Transaction id, e.g. PTX-0012.")
    customer_id: Id("loyalty_member") = Field(description="The member whose points changed.")
    points_change: int = Field(description="Points added (positive) or taken (negative); never zero.")
    description: str = Field(min_length=1, description="What the member sees, e.g. 'Placed an order'.")
    internal_note: Optional[str] = Field(default=None, description="Note only staff see.")
    source: TxnSource = Field(description="activity (earned), adjustment (by staff), redemption, expiry or refund.")
    order_id: Optional[Id("order")] = Field(default=None, description="The store order it is about, if any.")
    expires_on: Optional[Date] = Field(default=None, description="For earned points: the day they expire.")
    created_at: DateTime = Field(description="When recorded.")


class ActivityRule(Record):
    """An earning rule (Smile ways to earn / activity rules): points for an activity."""

    id: str = Field(description="Rule id, e.g. AR-0002.")
    name: str = Field(description="Name members see, e.g. 'Place an order'.")
    activity_type: ActivityType = Field(description="The activity that earns.")
    points: int = Field(ge=0, description="Fixed points per activity (0 for per-dollar rules).")
    points_per_dollar: int = Field(ge=0, description="Points per whole dollar of the order subtotal (orders).")
    active: bool = Field(description="Inactive rules earn nothing.")
    limit_per_customer: Optional[int] = Field(default=None, ge=1, description="Most times one member may earn it.")


class Activity(Record):
    """An activity (Smile ``/v1/activities``): something a member did, and the points it earned."""

    id: str = Field(description="Activity id, e.g. ACT-0004.")
    customer_id: Id("loyalty_member") = Field(description="The member.")
    activity_rule_id: str = Field(description="The rule that earned.")
    activity_type: ActivityType = Field(description="The activity.")
    order_id: Optional[Id("order")] = Field(default=None, description="The store order, for order_placed.")
    order_subtotal: Optional[Money] = Field(default=None, description="The order's subtotal (USD), for order_placed.")
    points_earned: int = Field(ge=0, description="Points the activity earned.")
    points_transaction_id: Optional[str] = Field(default=None, description="The transaction crediting them.")
    created_at: DateTime = Field(description="When recorded.")


class RewardDef(Record):
    """A reward definition (Smile reward): what a fulfillment gives at checkout."""

    id: str = Field(description="Reward id, e.g. RWD-0001.")
    name: str = Field(description="Name, e.g. '$10 off coupon'.")
    reward_type: RewardType = Field(description="Kind of discount.")
    value: Money = Field(ge=0, description="Dollars off (fixed/variable per step) or percent off.")
    minimum_order_subtotal: Money = Field(ge=0, default=0, description="Least order subtotal to use it (USD).")
    valid_days: int = Field(ge=1, description="Days a fulfilled code stays usable.")
    active: bool = Field(default=True, description="Inactive rewards can no longer be issued or bought.")


class PointsProduct(Record):
    """A points product (Smile ``/v1/points_products``): a reward members buy with points."""

    id: str = Field(description="Points product id, e.g. PP-0001.")
    reward_id: str = Field(description="The reward it fulfils.")
    exchange_type: Literal["fixed", "variable"] = Field(description="Fixed price, or points in steps.")
    exchange_description: str = Field(description="What members see, e.g. '500 Points'.")
    points_price: Optional[int] = Field(default=None, ge=1, description="Price, for fixed products.")
    variable_points_step: Optional[int] = Field(default=None, ge=1, description="Points per step (variable).")
    variable_points_step_reward_value: Optional[Money] = Field(default=None, description="Dollars off per step.")
    variable_points_min: Optional[int] = Field(default=None, ge=1, description="Fewest points to spend (variable).")
    variable_points_max: Optional[int] = Field(default=None, ge=1, description="Most points to spend (variable).")
    active: bool = Field(default=True, description="Inactive products cannot be bought.")


class RewardFulfillment(Record):
    """A reward fulfillment (Smile ``/v1/reward_fulfillments``): a single-use code a member holds."""

    id: Id("reward") = Field(description="Fulfillment id, e.g. RF-0004.")
    customer_id: Id("loyalty_member") = Field(description="The member holding it.")
    reward_id: str = Field(description="The reward definition.")
    points_product_id: Optional[str] = Field(default=None, description="The points product bought, if bought.")
    name: str = Field(description="What it is, e.g. '$10 off coupon'.")
    code: str = Field(description="The discount code, usable once.")
    value: Money = Field(ge=0, description="Dollars off (percent for percentage rewards).")
    points_spent: int = Field(ge=0, description="Points it cost (0 when issued by staff).")
    source: Literal["purchase", "issued"] = Field(description="Bought with points, or issued by staff.")
    reason: Optional[str] = Field(default=None, description="Why staff issued it.")
    usage_status: UsageStatus = Field(description="unused, used (redeemed on an order) or expired.")
    expires_at: Date = Field(description="Last day the code can be used.")
    used_on_order_id: Optional[Id("order")] = Field(default=None, description="The order it was redeemed on.")
    used_at: Optional[DateTime] = Field(default=None, description="When redeemed.")
    created_at: DateTime = Field(description="When fulfilled.")


class LoyaltyState(ServiceState):
    """The loyalty program: tiers, rules, rewards and the members' points."""

    vip_tiers: dict[str, VipTier] = Field(default_factory=dict, description="VIP tiers by id, lowest first.")
    customers: dict[str, LoyaltyMember] = Field(default_factory=dict, description="Members by id.")
    points_transactions: dict[str, PointsTransaction] = Field(default_factory=dict, description="By id.")
    activity_rules: dict[str, ActivityRule] = Field(default_factory=dict, description="Earning rules by id.")
    activities: dict[str, Activity] = Field(default_factory=dict, description="Activities by id.")
    rewards: dict[str, RewardDef] = Field(default_factory=dict, description="Reward definitions by id.")
    points_products: dict[str, PointsProduct] = Field(default_factory=dict, description="Points products by id.")
    reward_fulfillments: dict[str, RewardFulfillment] = Field(default_factory=dict, description="By id.")
