"""Records and state of the Meta Ads service (see ``meta_ads.py``), and the argument types its tools share.

As in the Marketing API, object ids are numeric strings (one sequence for
every object type, above :data:`ID_BASE`), accounts are ``act_<digits>``
and money is integer cents.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from compoworld_gym.entities import Url, entity
from compoworld_gym.service import Record, ServiceState

CampaignId = Annotated[str, entity("ad_campaign_id", pattern=r"^\d{6,20}$")]
AdSetId = Annotated[str, entity("ad_set_id", pattern=r"^\d{6,20}$")]
AdId = Annotated[str, entity("ad_id", pattern=r"^\d{6,20}$")]
Objective = Literal["OUTCOME_AWARENESS", "OUTCOME_TRAFFIC", "OUTCOME_ENGAGEMENT", "OUTCOME_LEADS", "OUTCOME_SALES",
                    "OUTCOME_APP_PROMOTION"]
Status = Literal["ACTIVE", "PAUSED", "ARCHIVED", "DELETED"]
SpecialCategory = Literal["NONE", "EMPLOYMENT", "HOUSING", "CREDIT", "ISSUES_ELECTIONS_POLITICS"]
BidStrategy = Literal["LOWEST_COST_WITHOUT_CAP", "LOWEST_COST_WITH_BID_CAP", "COST_CAP"]
OptimizationGoal = Literal["IMPRESSIONS", "REACH", "LINK_CLICKS", "LANDING_PAGE_VIEWS", "OFFSITE_CONVERSIONS",
                           "LEAD_GENERATION"]
CallToAction = Literal["SHOP_NOW", "LEARN_MORE", "SIGN_UP", "GET_OFFER", "CONTACT_US"]
#: First digits of every object id (Meta ids are long numeric strings).
ID_BASE = 120210000000000


class Targeting(Record):
    """Who an ad set reaches."""

    geo_locations: dict[str, list[str]] = Field(description="{'countries': ['US', ...]}.")
    age_min: int = Field(default=18, ge=13, le=65, description="Minimum age.")
    age_max: int = Field(default=65, ge=13, le=65, description="Maximum age.")
    interests: list[str] = Field(default_factory=list, description="Interest names.")


class AdAccount(Record):
    """An ad account."""

    id: str = Field(pattern=r"^act_\d+$", description="Account id, e.g. act_1029384756.")
    name: str = Field(description="Account name.")
    business_name: str = Field(description="Business that owns the account.")
    currency: Literal["USD"] = Field(default="USD", description="Account currency.")
    timezone_name: str = Field(default="America/Chicago", description="Reporting time zone.")
    account_status: Literal[1, 2] = Field(description="1 active, 2 disabled.")
    spend_cap: int = Field(ge=0, description="Account spend cap in cents (0: none).")
    amount_spent: int = Field(ge=0, description="Lifetime spend in cents.")
    users: list[str] = Field(description="Emails of people with access.")


class Page(Record):
    """A Facebook page ads can run from."""

    id: str = Field(description="Page id.")
    name: str = Field(description="Page name.")
    account_id: str = Field(description="Ad account it is connected to.")
    link: Url = Field(description="Page URL.")


class Campaign(Record):
    """A campaign."""

    id: CampaignId = Field(description="Campaign id.")
    account_id: str = Field(description="Ad account.")
    name: str = Field(description="Campaign name.")
    objective: Objective = Field(description="Objective.")
    status: Status = Field(description="Delivery status set by the advertiser.")
    special_ad_categories: list[SpecialCategory] = Field(default_factory=list, description="Declared categories.")
    daily_budget: Optional[int] = Field(default=None, ge=100, description="Campaign daily budget (cents).")
    lifetime_budget: Optional[int] = Field(default=None, ge=100, description="Campaign lifetime budget (cents).")
    bid_strategy: BidStrategy = Field(default="LOWEST_COST_WITHOUT_CAP", description="Bid strategy.")
    spend_cap: Optional[int] = Field(default=None, ge=100, description="Campaign spend cap (cents).")
    amount_spent: int = Field(default=0, ge=0, description="Spend so far (cents).")
    created_time: dt.datetime = Field(description="Creation time.")
    updated_time: dt.datetime = Field(description="Last change.")


class AdSet(Record):
    """An ad set: budget (unless the campaign has one), schedule and targeting."""

    id: AdSetId = Field(description="Ad set id.")
    account_id: str = Field(description="Ad account.")
    campaign_id: CampaignId = Field(description="Campaign.")
    name: str = Field(description="Ad set name.")
    status: Status = Field(description="Status.")
    daily_budget: Optional[int] = Field(default=None, ge=100, description="Daily budget (cents).")
    lifetime_budget: Optional[int] = Field(default=None, ge=100, description="Lifetime budget (cents).")
    targeting: Targeting = Field(description="Audience.")
    optimization_goal: OptimizationGoal = Field(description="What delivery optimises for.")
    billing_event: Literal["IMPRESSIONS", "LINK_CLICKS"] = Field(default="IMPRESSIONS", description="Billed on.")
    bid_amount: Optional[int] = Field(default=None, ge=1, description="Bid cap (cents).")
    bid_strategy: Optional[BidStrategy] = Field(default=None, description="Bid strategy.")
    start_time: dt.datetime = Field(description="Delivery start.")
    end_time: Optional[dt.datetime] = Field(default=None, description="Delivery end (needed with a lifetime budget).")
    frequency_control_specs: list[dict[str, Any]] = Field(default_factory=list, description="Frequency caps.")


class Creative(Record):
    """An ad creative."""

    id: str = Field(description="Creative id.")
    account_id: str = Field(description="Ad account.")
    name: str = Field(description="Creative name.")
    page_id: str = Field(description="Page it runs from.")
    image_hash: str = Field(description="Uploaded image hash.")
    link_url: Url = Field(description="Landing page.")
    message: str = Field(default="", description="Primary text.")
    headline: str = Field(default="", description="Headline.")
    description: str = Field(default="", description="Link description.")
    call_to_action_type: CallToAction = Field(default="LEARN_MORE", description="Button.")


class Ad(Record):
    """An ad: a creative delivered by an ad set."""

    id: AdId = Field(description="Ad id.")
    account_id: str = Field(description="Ad account.")
    campaign_id: CampaignId = Field(description="Campaign.")
    adset_id: AdSetId = Field(description="Ad set.")
    name: str = Field(description="Ad name.")
    creative_id: str = Field(description="Creative.")
    status: Status = Field(description="Status.")
    bid_amount: Optional[int] = Field(default=None, ge=1, description="Bid (cents).")
    tracking_specs: Optional[str] = Field(default=None, description="Tracking specs (JSON text).")


class DayStats(Record):
    """One day of delivery of one ad."""

    date: dt.date = Field(description="Day.")
    impressions: int = Field(ge=0, description="Impressions.")
    clicks: int = Field(ge=0, description="Link clicks.")
    spend: int = Field(ge=0, description="Spend (cents).")
    conversions: int = Field(ge=0, description="Purchases or leads.")


class MetaAdsState(ServiceState):
    """Accounts, pages, campaigns, ad sets, creatives, ads and delivery stats (keyed by id)."""

    accounts: dict[str, AdAccount] = Field(default_factory=dict, description="Ad accounts by id.")
    pages: dict[str, Page] = Field(default_factory=dict, description="Pages by id.")
    campaigns: dict[str, Campaign] = Field(default_factory=dict, description="Campaigns by id.")
    adsets: dict[str, AdSet] = Field(default_factory=dict, description="Ad sets by id.")
    creatives: dict[str, Creative] = Field(default_factory=dict, description="Creatives by id.")
    ads: dict[str, Ad] = Field(default_factory=dict, description="Ads by id.")
    stats: dict[str, list[DayStats]] = Field(default_factory=dict, description="Daily delivery per ad id.")


#: A budget or bid argument: integer cents as a string ("5000" is $50.00), or None.
Cents = Optional[str]
Name = Annotated[str, Field(min_length=1, max_length=400)]
CreateStatus = Literal["ACTIVE", "PAUSED"]
AnyStatus = Literal["ACTIVE", "PAUSED", "ARCHIVED", "DELETED"]
Preset = Literal["today", "yesterday", "last_7d", "last_14d", "last_30d", "maximum"]


class TimeRange(BaseModel):
    """An explicit reporting window (inclusive dates)."""

    model_config = ConfigDict(extra="forbid")
    since: dt.date = Field(description="First day.")
    until: dt.date = Field(description="Last day.")
