"""Meta Ads: ad accounts, campaigns, ad sets, ads, creatives and insights (the Marketing API).

Follows the MCP server ``@brnardo_meta-ads-mcp`` (``spec_source``). As in the
Marketing API, ids are numeric strings (accounts ``act_<digits>``), budgets
and bids are integer cents given as strings (``"5000"`` is $50.00), and list
tools answer ``{"data": [...]}``. The rules are Meta's (budgets, objectives,
targeting, statuses); ``_meta_ads_rules`` lists them.

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
from pydantic import Field

from compoworld_gym.entities import Url
from compoworld_gym.envs.services import _meta_ads_rules as rules
from compoworld_gym.envs.services import _meta_ads_seed as seed
from compoworld_gym.envs.services._blocks import eq, select
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._meta_ads_models import (
    Ad, AdId, AdSet, AdSetId, AnyStatus, BidStrategy, CallToAction, Campaign, CampaignId, Cents, CreateStatus,
    Creative, MetaAdsState, Name, Objective, OptimizationGoal, Preset, SpecialCategory, Targeting, TimeRange,
)
from compoworld_gym.errors import Unprocessable
from compoworld_gym.service import Service, tool


class MetaAds(Service):
    """Meta (Facebook/Instagram) Ads: campaigns, ad sets, ads, creatives and delivery insights."""

    name = "meta_ads"
    description = "Meta Ads Manager: ad accounts, campaigns with budgets and objectives, ad sets with targeting, " \
                  "ads and creatives, and delivery insights (spend, clicks, conversions)."
    domain = "marketing"
    spec_source = "@brnardo_meta-ads-mcp"
    State = MetaAdsState

    # --------------------------------------------------------------- accounts
    @tool(read_only=True)
    def get_ad_accounts(self, user_id: str = "me", limit: int = Field(default=10, ge=1, le=100)) -> dict:
        """Get ad accounts accessible by a user.

        Args:
            user_id: 'me' (the operations user) or a user's email.
            limit: maximum number of accounts.
        """
        who = OPS_EMAIL if user_id == "me" else user_id.lower()
        rows = [a.model_dump(mode="json", exclude={"users"}) for a in self.state.accounts.values() if who in a.users]
        return {"data": rows[:limit]}

    @tool(read_only=True)
    def get_account_info(self, account_id: str) -> dict:
        """Get detailed information about a specific ad account (status, spend, cap, pages).

        Args:
            account_id: ad account id (act_XXXXXXXXX).
        """
        a = rules.account(self.state, account_id)
        return {**a.model_dump(mode="json"), "amount_spent_usd": rules.dollars(a.amount_spent)}

    @tool(read_only=True)
    def get_account_pages(self, account_id: str) -> dict:
        """Get pages associated with a Meta Ads account.

        Args:
            account_id: ad account id.
        """
        rules.account(self.state, account_id)
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
        rules.account(self.state, account_id)
        rows = select(self.state.campaigns.values(), eq("account_id", account_id), eq("status", status_filter),
                      limit=limit)
        return {"data": [c.model_dump(mode="json") for c in rows]}

    @tool(read_only=True, returns=Campaign)
    def get_campaign_details(self, campaign_id: CampaignId) -> dict:
        """Get detailed information about a specific campaign (objective, status, budgets, spend).

        Args:
            campaign_id: campaign id.
        """
        c = self.lookup(self.state.campaigns, campaign_id, "campaign")
        return {**c.model_dump(mode="json"), "amount_spent_usd": rules.dollars(c.amount_spent)}

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
        rules.account(self.state, account_id, writable=True)
        daily, life, cap = rules.new_campaign_money(daily_budget, lifetime_budget, campaign_budget_optimization,
                                                    bid_strategy, bid_cap, spend_cap)
        now = self.now()
        c = Campaign(id=rules.next_object_id(self.state.counters), account_id=account_id, name=name,
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
        rules.apply_status(c, status, "campaign")
        cap = rules.change_campaign_money(c, objective, daily_budget, lifetime_budget, campaign_budget_optimization,
                                          spend_cap)
        rules.set_given(c, name=name, special_ad_categories=special_ad_categories, bid_strategy=bid_strategy,
                        spend_cap=cap)
        if bid_cap is not None:
            rules.cents(bid_cap, "bid_cap")
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
        rules.account(self.state, account_id)
        rows = select(self.state.adsets.values(), eq("account_id", account_id), eq("campaign_id", campaign_id),
                      limit=limit)
        return {"data": [s.model_dump(mode="json") for s in rows]}

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
        rules.account(self.state, account_id, writable=True)
        c = self.lookup(self.state.campaigns, campaign_id, "campaign")
        if c.account_id != account_id:
            raise Unprocessable(f"campaign {campaign_id} is in account {c.account_id}, not {account_id}.")
        rules.check_live(c, "campaign")
        daily, life = rules.adset_budget(c, daily_budget, lifetime_budget, end_time)
        start = start_time or self.now()
        rules.check_adset_schedule(start, end_time, bid_strategy, bid_amount)
        t = targeting or Targeting(geo_locations={"countries": ["US"]})
        rules.check_targeting(t, c.special_ad_categories)
        s = AdSet(id=rules.next_object_id(self.state.counters), account_id=account_id, campaign_id=campaign_id,
                  name=name, status=status, daily_budget=daily, lifetime_budget=life, targeting=t,
                  optimization_goal=optimization_goal, billing_event=billing_event,
                  bid_amount=rules.cents(bid_amount, "bid_amount"), bid_strategy=bid_strategy, start_time=start,
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
        rules.apply_status(s, status, "ad set")
        rules.check_frequency_caps(frequency_control_specs or [])
        if targeting is not None:
            rules.check_targeting(targeting, self.state.campaigns[s.campaign_id].special_ad_categories)
        rules.set_given(s, frequency_control_specs=frequency_control_specs, bid_strategy=bid_strategy,
                        bid_amount=bid_amount, targeting=targeting, optimization_goal=optimization_goal)
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
        rules.account(self.state, account_id)
        rows = select(self.state.ads.values(), eq("account_id", account_id), eq("campaign_id", campaign_id),
                      eq("adset_id", adset_id), limit=limit)
        return {"data": [a.model_dump(mode="json") for a in rows]}

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
        rules.account(self.state, account_id, writable=True)
        s = self.lookup(self.state.adsets, adset_id, "ad set")
        cr = self.lookup(self.state.creatives, creative_id, "creative")
        if s.account_id != account_id or cr.account_id != account_id:
            raise Unprocessable("the ad set and the creative must both belong to the ad account.")
        rules.check_live(s, "ad set")
        a = Ad(id=rules.next_object_id(self.state.counters), account_id=account_id, campaign_id=s.campaign_id,
               adset_id=s.id, name=name, creative_id=cr.id, status=status,
               bid_amount=rules.cents(bid_amount, "bid_amount"))
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
        rules.apply_status(a, status, "ad")
        rules.set_given(a, bid_amount=bid_amount, tracking_specs=tracking_specs)
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
        rules.account(self.state, account_id, writable=True)
        page = self.lookup(self.state.pages, page_id, "page")
        if page.account_id != account_id:
            raise Unprocessable(f"page {page_id} is not connected to ad account {account_id}.")
        cr = Creative(id=rules.next_object_id(self.state.counters), account_id=account_id, name=name, page_id=page_id,
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
        window = time_range if isinstance(time_range, str) else (time_range.since, time_range.until)
        return {"data": rules.insights(self.state, ads, *rules.window(self.today, window), level)}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> MetaAdsState:
        return seed.build_state(fake, rng, today)
