"""Meta Ads: ad accounts, campaigns, ad sets, ads, creatives and insights (the Marketing API).

Follows the MCP server ``@brnardo_meta-ads-mcp`` (``spec_source``). As in the
Marketing API, ids are numeric strings (accounts ``act_<digits>``), budgets
and bids are integer cents given as strings (``"5000"`` is $50.00), and list
tools answer ``{"data": [...]}``. Rules are Meta's: a campaign has one
objective (it cannot change) and a daily *or* a lifetime budget, not both
(400); a campaign budget (Advantage campaign budget) means its ad sets carry
none, otherwise each ad set needs its own (422); budgets are at least $1.00
a day (422); a lifetime budget needs an end time (422); special ad
categories (housing, employment, credit) forbid narrowing age below 18-65
(422); a spend cap cannot be below what was already spent (422); ARCHIVED
objects can only be deleted and DELETED is final (409); nothing is created
in a disabled account (409); an ad's creative must belong to its account.

Implemented: 18 of the server's 25 tools. Left out: ``get_ad_image``,
``save_ad_image_locally``, ``save_ad_image_via_api``, ``debug_image_download``
and ``upload_ad_image`` (binary image files on disk), ``get_login_link``
(OAuth) and ``search_ads_archive`` (the public Ads Library, outside data).
The optional ``access_token`` parameter is not taken (no auth is modelled),
nor ``ab_test_control_setups``, ``breakdown``, ``instagram_actor_id`` or ``create_ad``'s
``tracking_specs`` (an array in the spec, a string in ``update_ad``).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Annotated, Any, Literal, Optional, Union

from faker import Faker
from pydantic import BaseModel, ConfigDict, Field

from compoworld_gym.entities import Url
from compoworld_gym.envs.services import _meta_ads_seed as seed
from compoworld_gym.envs.services._meta_ads_seed import (
    Ad, AdId, AdSet, AdSetId, BidStrategy, CallToAction, Campaign, CampaignId, Creative, MetaAdsState, Objective,
    OptimizationGoal, SpecialCategory, Targeting,
)
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Service, tool

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


def _cents(value: Optional[str], what: str) -> Optional[int]:
    if value is None:
        return None
    if not value.isdigit():
        raise InvalidArgument(f"{what} must be a whole number of cents as a string, e.g. '5000' for $50.00.")
    return int(value)


class MetaAds(Service):
    """Meta (Facebook/Instagram) Ads: campaigns, ad sets, ads, creatives and delivery insights."""

    name = "meta_ads"
    description = "Meta Ads Manager: ad accounts, campaigns with budgets and objectives, ad sets with targeting, " \
                  "ads and creatives, and delivery insights (spend, clicks, conversions)."
    domain = "marketing"
    spec_source = "@brnardo_meta-ads-mcp"
    State = MetaAdsState

    # --------------------------------------------------------------- helpers
    def _account(self, account_id: str, *, writable: bool = False) -> Any:
        acct = self.lookup(self.state.accounts, account_id, "ad account")
        if writable and acct.account_status != 1:
            raise Conflict(f"ad account {account_id} is disabled; nothing can be created in it.")
        return acct

    @staticmethod
    def _live(obj: Any, what: str) -> None:
        if obj.status in ("ARCHIVED", "DELETED"):
            raise Conflict(f"{what} {obj.id} is {obj.status}; it can no longer be changed (only deleted).")

    @staticmethod
    def _status_change(obj: Any, status: Optional[str], what: str) -> None:
        if status is None or status == obj.status:
            return
        if obj.status == "DELETED" or (obj.status == "ARCHIVED" and status != "DELETED"):
            raise Conflict(f"{what} {obj.id} is {obj.status}; it can only be deleted.")
        obj.status = status

    @staticmethod
    def _budget(daily: Optional[int], lifetime: Optional[int]) -> None:
        if daily is not None and lifetime is not None:
            raise InvalidArgument("give a daily_budget or a lifetime_budget, not both.")
        if daily is not None and daily < 100:
            raise Unprocessable("the daily budget must be at least 100 cents ($1.00).")
        if lifetime is not None and lifetime < 100:
            raise Unprocessable("the lifetime budget must be at least 100 cents ($1.00).")

    def _has_campaign_budget(self, c: Campaign) -> bool:
        return c.daily_budget is not None or c.lifetime_budget is not None

    @staticmethod
    def _check_targeting(t: Targeting, categories: list[str]) -> None:
        if not t.geo_locations.get("countries"):
            raise Unprocessable("targeting needs geo_locations.countries.")
        if t.age_min > t.age_max:
            raise InvalidArgument("targeting age_min is above age_max.")
        if set(categories) - {"NONE"} and (t.age_min != 18 or t.age_max != 65):
            raise Unprocessable("campaigns with special ad categories must target ages 18-65.")

    # --------------------------------------------------------------- accounts
    @tool(read_only=True)
    def get_ad_accounts(self, user_id: str = "me", limit: int = Field(default=10, ge=1, le=100)) -> dict:
        """Get ad accounts accessible by a user.

        Args:
            user_id: 'me' (the operations user) or a user's email.
            limit: maximum number of accounts.
        """
        who = seed.OPS_EMAIL if user_id == "me" else user_id.lower()
        rows = [a.model_dump(mode="json", exclude={"users"}) for a in self.state.accounts.values() if who in a.users]
        return {"data": rows[:limit]}

    @tool(read_only=True)
    def get_account_info(self, account_id: str) -> dict:
        """Get detailed information about a specific ad account (status, spend, cap, pages).

        Args:
            account_id: ad account id (act_XXXXXXXXX).
        """
        a = self._account(account_id)
        return {**a.model_dump(mode="json"), "amount_spent_usd": seed.dollars(a.amount_spent)}

    @tool(read_only=True)
    def get_account_pages(self, account_id: str) -> dict:
        """Get pages associated with a Meta Ads account.

        Args:
            account_id: ad account id.
        """
        self._account(account_id)
        return {"data": [p.model_dump(mode="json") for p in self.state.pages.values() if p.account_id == account_id]}

    # -------------------------------------------------------------- campaigns
    @tool(read_only=True, returns=list[Campaign])
    def get_campaigns(self, account_id: str, limit: int = Field(default=10, ge=1, le=200),
                      status_filter: Optional[AnyStatus] = None) -> dict:
        """Get campaigns for a Meta Ads account with optional filtering.

        Args:
            account_id: ad account id.
            limit: maximum number of campaigns.
            status_filter: only campaigns with this status (ACTIVE, PAUSED, ARCHIVED, DELETED).
        """
        self._account(account_id)
        rows = [c.model_dump(mode="json") for c in self.state.campaigns.values()
                if c.account_id == account_id and (status_filter is None or c.status == status_filter)]
        return {"data": rows[:limit]}

    @tool(read_only=True, returns=Campaign)
    def get_campaign_details(self, campaign_id: CampaignId) -> dict:
        """Get detailed information about a specific campaign (objective, status, budgets, spend).

        Args:
            campaign_id: campaign id.
        """
        c = self.lookup(self.state.campaigns, campaign_id, "campaign")
        return {**c.model_dump(mode="json"), "amount_spent_usd": seed.dollars(c.amount_spent)}

    @tool(read_only=False, returns=Campaign)
    def create_campaign(self, account_id: str, name: Name,
                        objective: Objective = "OUTCOME_TRAFFIC", status: CreateStatus = "PAUSED",
                        special_ad_categories: list[SpecialCategory] = Field(default_factory=list),
                        daily_budget: Cents = None, lifetime_budget: Cents = None,
                        buying_type: Literal["AUCTION"] = "AUCTION",
                        bid_strategy: BidStrategy = "LOWEST_COST_WITHOUT_CAP", bid_cap: Cents = None,
                        spend_cap: Cents = None, campaign_budget_optimization: bool = False) -> dict:
        """Create a new campaign in a Meta Ads account.

        Args:
            account_id: ad account id.
            name: campaign name.
            objective: OUTCOME_AWARENESS, OUTCOME_TRAFFIC, OUTCOME_ENGAGEMENT, OUTCOME_LEADS, OUTCOME_SALES or
                OUTCOME_APP_PROMOTION.
            status: ACTIVE or PAUSED (default PAUSED).
            special_ad_categories: declared categories (HOUSING, EMPLOYMENT, CREDIT, ...); empty if none.
            daily_budget: campaign daily budget in cents (makes it a campaign-budget campaign).
            lifetime_budget: campaign lifetime budget in cents.
            buying_type: AUCTION.
            bid_strategy: LOWEST_COST_WITHOUT_CAP, LOWEST_COST_WITH_BID_CAP or COST_CAP.
            bid_cap: bid cap in cents (needed with LOWEST_COST_WITH_BID_CAP).
            spend_cap: campaign spend cap in cents.
            campaign_budget_optimization: true for a campaign budget (then a budget is required).
        """
        self._account(account_id, writable=True)
        daily, life = _cents(daily_budget, "daily_budget"), _cents(lifetime_budget, "lifetime_budget")
        self._budget(daily, life)
        if campaign_budget_optimization and daily is None and life is None:
            raise InvalidArgument("campaign_budget_optimization needs a daily_budget or lifetime_budget.")
        if bid_strategy == "LOWEST_COST_WITH_BID_CAP" and bid_cap is None:
            raise Unprocessable("LOWEST_COST_WITH_BID_CAP needs bid_cap.")
        cap = _cents(spend_cap, "spend_cap")
        if cap is not None and cap < 100:
            raise Unprocessable("spend_cap must be at least 100 cents.")
        now = self.now()
        c = Campaign(id=seed.next_object_id(self.state.counters), account_id=account_id, name=name,
                     objective=objective, status=status, special_ad_categories=special_ad_categories,
                     daily_budget=daily, lifetime_budget=life, bid_strategy=bid_strategy, spend_cap=cap,
                     created_time=now, updated_time=now)
        self.state.campaigns[c.id] = c
        return c.model_dump(mode="json")

    @tool(read_only=False, idempotent=True, returns=Campaign)
    def update_campaign(self, campaign_id: CampaignId, name: Optional[str] = Field(default=None, min_length=1),
                        status: Optional[AnyStatus] = None,
                        special_ad_categories: Optional[list[SpecialCategory]] = None,
                        daily_budget: Cents = None, lifetime_budget: Cents = None,
                        bid_strategy: Optional[BidStrategy] = None, bid_cap: Cents = None, spend_cap: Cents = None,
                        campaign_budget_optimization: Optional[bool] = None,
                        objective: Optional[Objective] = None) -> dict:
        """Update an existing campaign: name, status (ACTIVE, PAUSED, ARCHIVED, DELETED), budgets, spend cap.

        Args:
            campaign_id: campaign id.
            name: new name.
            status: new status; ARCHIVED campaigns can only be DELETED, DELETED is final.
            special_ad_categories: declared categories.
            daily_budget: new campaign daily budget in cents (only for campaign-budget campaigns).
            lifetime_budget: new campaign lifetime budget in cents.
            bid_strategy: new bid strategy.
            bid_cap: bid cap in cents.
            spend_cap: spend cap in cents; not below what the campaign already spent.
            campaign_budget_optimization: must match whether the campaign has a campaign budget.
            objective: must equal the current objective (it cannot change).
        """
        c = self.lookup(self.state.campaigns, campaign_id, "campaign")
        self._status_change(c, status, "campaign")
        if status is None:
            self._live(c, "campaign")
        if objective is not None and objective != c.objective:
            raise Unprocessable(f"a campaign's objective cannot change (it is {c.objective}).")
        daily, life = _cents(daily_budget, "daily_budget"), _cents(lifetime_budget, "lifetime_budget")
        self._budget(daily, life)
        if (daily is not None or life is not None or campaign_budget_optimization) and not self._has_campaign_budget(c):
            raise Unprocessable("this campaign budgets at ad set level; change the ad sets' budgets instead.")
        if campaign_budget_optimization is False and self._has_campaign_budget(c):
            raise Unprocessable("the campaign has a campaign budget; it cannot be turned off here.")
        if daily is not None:
            c.daily_budget, c.lifetime_budget = daily, None
        if life is not None:
            c.lifetime_budget, c.daily_budget = life, None
        cap = _cents(spend_cap, "spend_cap")
        if cap is not None and cap < max(100, c.amount_spent):
            raise Unprocessable(f"spend_cap cannot be below the {c.amount_spent} cents already spent (or $1.00).")
        for key, value in (("name", name), ("special_ad_categories", special_ad_categories),
                           ("bid_strategy", bid_strategy), ("spend_cap", cap)):
            if value is not None:
                setattr(c, key, value)
        if bid_cap is not None:
            _cents(bid_cap, "bid_cap")
        c.updated_time = self.now()
        return c.model_dump(mode="json")

    # ---------------------------------------------------------------- ad sets
    @tool(read_only=True, returns=list[AdSet])
    def get_adsets(self, account_id: str, limit: int = Field(default=10, ge=1, le=200),
                   campaign_id: Optional[CampaignId] = None) -> dict:
        """Get ad sets for a Meta Ads account with optional filtering by campaign.

        Args:
            account_id: ad account id.
            limit: maximum number of ad sets.
            campaign_id: only this campaign's ad sets.
        """
        self._account(account_id)
        rows = [s.model_dump(mode="json") for s in self.state.adsets.values()
                if s.account_id == account_id and campaign_id in (None, s.campaign_id)]
        return {"data": rows[:limit]}

    @tool(read_only=True, returns=AdSet)
    def get_adset_details(self, adset_id: AdSetId) -> dict:
        """Get detailed information about a specific ad set (budget, schedule, targeting, frequency caps).

        Args:
            adset_id: ad set id.
        """
        return self.lookup(self.state.adsets, adset_id, "ad set").model_dump(mode="json")

    @tool(read_only=False, returns=AdSet)
    def create_adset(self, account_id: str, campaign_id: CampaignId, name: Name,
                     status: CreateStatus = "PAUSED", daily_budget: Cents = None, lifetime_budget: Cents = None,
                     targeting: Optional[Targeting] = None, optimization_goal: OptimizationGoal = "LINK_CLICKS",
                     billing_event: Literal["IMPRESSIONS", "LINK_CLICKS"] = "IMPRESSIONS", bid_amount: Cents = None,
                     bid_strategy: Optional[BidStrategy] = None, start_time: Optional[dt.datetime] = None,
                     end_time: Optional[dt.datetime] = None) -> dict:
        """Create a new ad set in a campaign.

        Args:
            account_id: ad account id.
            campaign_id: the campaign (same account, not archived or deleted).
            name: ad set name.
            status: ACTIVE or PAUSED.
            daily_budget: daily budget in cents (not when the campaign has a campaign budget).
            lifetime_budget: lifetime budget in cents (needs end_time).
            targeting: {"geo_locations": {"countries": ["US"]}, "age_min": 18, "age_max": 65}.
            optimization_goal: what delivery optimises for.
            billing_event: IMPRESSIONS or LINK_CLICKS.
            bid_amount: bid cap in cents.
            bid_strategy: bid strategy (LOWEST_COST_WITH_BID_CAP needs bid_amount).
            start_time: delivery start (default now).
            end_time: delivery end.
        """
        self._account(account_id, writable=True)
        c = self.lookup(self.state.campaigns, campaign_id, "campaign")
        if c.account_id != account_id:
            raise Unprocessable(f"campaign {campaign_id} is in account {c.account_id}, not {account_id}.")
        self._live(c, "campaign")
        daily, life = _cents(daily_budget, "daily_budget"), _cents(lifetime_budget, "lifetime_budget")
        self._budget(daily, life)
        if self._has_campaign_budget(c) and (daily or life):
            raise Unprocessable("the campaign has a campaign budget; its ad sets carry no budget of their own.")
        if not self._has_campaign_budget(c) and daily is None and life is None:
            raise Unprocessable("the campaign has no campaign budget: the ad set needs a daily or lifetime budget.")
        if life is not None and end_time is None:
            raise Unprocessable("a lifetime budget needs end_time.")
        start = start_time or self.now()
        if end_time is not None and end_time <= start:
            raise Unprocessable("end_time must be after start_time.")
        if bid_strategy == "LOWEST_COST_WITH_BID_CAP" and bid_amount is None:
            raise Unprocessable("LOWEST_COST_WITH_BID_CAP needs bid_amount.")
        t = targeting or Targeting(geo_locations={"countries": ["US"]})
        self._check_targeting(t, c.special_ad_categories)
        s = AdSet(id=seed.next_object_id(self.state.counters), account_id=account_id, campaign_id=campaign_id,
                  name=name, status=status, daily_budget=daily, lifetime_budget=life, targeting=t,
                  optimization_goal=optimization_goal, billing_event=billing_event,
                  bid_amount=_cents(bid_amount, "bid_amount"), bid_strategy=bid_strategy, start_time=start,
                  end_time=end_time)
        self.state.adsets[s.id] = s
        return s.model_dump(mode="json")

    @tool(read_only=False, idempotent=True, returns=AdSet)
    def update_adset(self, adset_id: AdSetId, frequency_control_specs: Optional[list[dict[str, Any]]] = None,
                     bid_strategy: Optional[BidStrategy] = None, bid_amount: Optional[int] = Field(default=None, ge=1),
                     status: Optional[AnyStatus] = None, targeting: Optional[Targeting] = None,
                     optimization_goal: Optional[OptimizationGoal] = None) -> dict:
        """Update an ad set: frequency caps, bid, status, targeting or optimization goal.

        Args:
            adset_id: ad set id.
            frequency_control_specs: caps, e.g. [{"event": "IMPRESSIONS", "interval_days": 7, "max_frequency": 3}].
            bid_strategy: new bid strategy.
            bid_amount: new bid in cents (an integer).
            status: new status; ARCHIVED ad sets can only be DELETED.
            targeting: new audience.
            optimization_goal: new optimization goal.
        """
        s = self.lookup(self.state.adsets, adset_id, "ad set")
        self._status_change(s, status, "ad set")
        if status is None:
            self._live(s, "ad set")
        for spec in frequency_control_specs or []:
            if set(spec) != {"event", "interval_days", "max_frequency"} or spec["event"] != "IMPRESSIONS":
                raise InvalidArgument("each frequency cap is {event: IMPRESSIONS, interval_days, max_frequency}.")
        if targeting is not None:
            self._check_targeting(targeting, self.state.campaigns[s.campaign_id].special_ad_categories)
        for key, value in (("frequency_control_specs", frequency_control_specs), ("bid_strategy", bid_strategy),
                           ("bid_amount", bid_amount), ("targeting", targeting),
                           ("optimization_goal", optimization_goal)):
            if value is not None:
                setattr(s, key, value)
        if s.bid_strategy == "LOWEST_COST_WITH_BID_CAP" and s.bid_amount is None:
            raise Unprocessable("LOWEST_COST_WITH_BID_CAP needs bid_amount.")
        return s.model_dump(mode="json")

    # --------------------------------------------------------- ads, creatives
    @tool(read_only=True, returns=list[Ad])
    def get_ads(self, account_id: str, limit: int = Field(default=10, ge=1, le=200),
                campaign_id: Optional[CampaignId] = None, adset_id: Optional[AdSetId] = None) -> dict:
        """Get ads for a Meta Ads account with optional filtering.

        Args:
            account_id: ad account id.
            limit: maximum number of ads.
            campaign_id: only this campaign's ads.
            adset_id: only this ad set's ads.
        """
        self._account(account_id)
        rows = [a.model_dump(mode="json") for a in self.state.ads.values() if a.account_id == account_id
                and campaign_id in (None, a.campaign_id) and adset_id in (None, a.adset_id)]
        return {"data": rows[:limit]}

    @tool(read_only=True, returns=Ad)
    def get_ad_details(self, ad_id: AdId) -> dict:
        """Get detailed information about a specific ad.

        Args:
            ad_id: ad id.
        """
        return self.lookup(self.state.ads, ad_id, "ad").model_dump(mode="json")

    @tool(read_only=False, returns=Ad)
    def create_ad(self, account_id: str, name: Name, adset_id: AdSetId, creative_id: str,
                  status: CreateStatus = "PAUSED", bid_amount: Cents = None) -> dict:
        """Create a new ad with an existing creative.

        Args:
            account_id: ad account id.
            name: ad name.
            adset_id: the ad set that delivers it (same account, not archived or deleted).
            creative_id: an existing creative of the same account.
            status: ACTIVE or PAUSED.
            bid_amount: bid in cents.
        """
        self._account(account_id, writable=True)
        s = self.lookup(self.state.adsets, adset_id, "ad set")
        cr = self.lookup(self.state.creatives, creative_id, "creative")
        if s.account_id != account_id or cr.account_id != account_id:
            raise Unprocessable("the ad set and the creative must both belong to the ad account.")
        self._live(s, "ad set")
        a = Ad(id=seed.next_object_id(self.state.counters), account_id=account_id, campaign_id=s.campaign_id,
               adset_id=s.id, name=name, creative_id=cr.id, status=status, bid_amount=_cents(bid_amount, "bid_amount"))
        self.state.ads[a.id] = a
        return a.model_dump(mode="json")

    @tool(read_only=False, idempotent=True, returns=Ad)
    def update_ad(self, ad_id: AdId, status: Optional[AnyStatus] = None,
                  bid_amount: Optional[int] = Field(default=None, ge=1), tracking_specs: Optional[str] = None) -> dict:
        """Update an ad: status, bid or tracking specs.

        Args:
            ad_id: ad id.
            status: new status (ACTIVE, PAUSED, ARCHIVED, DELETED).
            bid_amount: new bid in cents (an integer).
            tracking_specs: tracking specs (JSON text).
        """
        a = self.lookup(self.state.ads, ad_id, "ad")
        self._status_change(a, status, "ad")
        if status is None:
            self._live(a, "ad")
        if bid_amount is not None:
            a.bid_amount = bid_amount
        if tracking_specs is not None:
            a.tracking_specs = tracking_specs
        return a.model_dump(mode="json")

    @tool(read_only=True)
    def get_ad_creatives(self, ad_id: AdId) -> dict:
        """Get creative details for a specific ad.

        Args:
            ad_id: ad id.
        """
        a = self.lookup(self.state.ads, ad_id, "ad")
        return {"data": [self.state.creatives[a.creative_id].model_dump(mode="json")]}

    @tool(read_only=False)
    def create_ad_creative(self, account_id: str, name: Name,
                           image_hash: Annotated[str, Field(pattern=r"^[0-9a-f]{8,64}$")], page_id: str,
                           link_url: Annotated[Url, Field(pattern=r"^https?://\S+$")], message: str = "",
                           headline: str = Field(default="", max_length=255), description: str = "",
                           call_to_action_type: CallToAction = "LEARN_MORE") -> dict:
        """Create a new ad creative from an uploaded image hash, running from a page of the account.

        Args:
            account_id: ad account id.
            name: creative name.
            image_hash: hash of an uploaded image.
            page_id: a page connected to the account (get_account_pages).
            link_url: landing page URL.
            message: primary text.
            headline: headline.
            description: link description.
            call_to_action_type: SHOP_NOW, LEARN_MORE, SIGN_UP, GET_OFFER or CONTACT_US.
        """
        self._account(account_id, writable=True)
        page = self.lookup(self.state.pages, page_id, "page")
        if page.account_id != account_id:
            raise Unprocessable(f"page {page_id} is not connected to ad account {account_id}.")
        cr = Creative(id=seed.next_object_id(self.state.counters), account_id=account_id, name=name, page_id=page_id,
                      image_hash=image_hash, link_url=link_url, message=message, headline=headline,
                      description=description, call_to_action_type=call_to_action_type)
        self.state.creatives[cr.id] = cr
        return cr.model_dump(mode="json")

    # --------------------------------------------------------------- insights
    @tool(read_only=True)
    def get_insights(self, object_id: str, time_range: Union[Preset, TimeRange] = "maximum",
                     level: Literal["ad", "adset", "campaign", "account"] = "campaign") -> dict:
        """Get performance insights (impressions, clicks, spend, conversions) for a campaign, ad set, ad or account.

        Args:
            object_id: a campaign, ad set, ad or account id.
            time_range: a preset (today, yesterday, last_7d, last_14d, last_30d, maximum) or {"since", "until"}.
            level: rows per ad, adset, campaign or account.
        """
        ads = [a for a in self.state.ads.values() if object_id in (a.id, a.adset_id, a.campaign_id, a.account_id)]
        if not ads:
            self.lookup({}, object_id, "campaign, ad set, ad or account")
        since, until = seed.window(self.today, time_range if isinstance(time_range, str) else
                                   (time_range.since, time_range.until))
        return {"data": seed.insights(self.state, ads, since, until, level)}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> MetaAdsState:
        return seed.build_state(fake, rng, today)
