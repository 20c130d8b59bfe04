"""Records, seed data and insight arithmetic of the Meta Ads service (see ``meta_ads.py``).

The company advertises from two ad accounts (retail and brand); budgets are
integer cents as the Marketing API reports them (``"5000"`` is $50.00 a
day). Catalog sales campaigns name the SKU they promote ("Sales | SKU-40213
| Winter push"), so a campaign leads to the product, stock and orders of
that SKU. Insights are a fixed daily table per ad, drawn once at seeding.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Annotated, Any, Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Url, entity
from compoworld_gym.envs.services._company import DOMAIN, OPS_EMAIL
from compoworld_gym.errors import InvalidArgument
from compoworld_gym.service import DAY_START, Record, ServiceState

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


def next_object_id(counters: dict[str, int]) -> str:
    """The next Meta object id (one sequence for every object type)."""
    n = counters.get("object", 1)
    counters["object"] = n + 1
    return str(ID_BASE + n)


def _at(today: dt.date, days: int) -> dt.datetime:
    return dt.datetime.combine(today + dt.timedelta(days=days), DAY_START)


def add_campaign(st: MetaAdsState, rng: random.Random, today: dt.date, *, account_id: str, name: str,
                 objective: str, status: str, daily_budget: int, link: str, started: int = -20,
                 countries: Optional[list[str]] = None, campaign_id: Optional[str] = None) -> Campaign:
    """Add a campaign (id ``campaign_id`` or the next one) with one ad set (its own daily
    budget), one creative and one ad, plus delivery stats for the days it ran; returns the campaign."""
    ids = st.counters
    cid = campaign_id or next_object_id(ids)
    sid, crid, aid = (next_object_id(ids) for _ in range(3))
    page = next(p for p in st.pages.values() if p.account_id == account_id)
    started_at = _at(today, started)
    st.campaigns[cid] = Campaign(id=cid, account_id=account_id, name=name, objective=objective, status=status,
                                 created_time=started_at, updated_time=started_at)
    goal = {"OUTCOME_SALES": "OFFSITE_CONVERSIONS", "OUTCOME_LEADS": "LEAD_GENERATION"}.get(objective, "LINK_CLICKS")
    st.adsets[sid] = AdSet(id=sid, account_id=account_id, campaign_id=cid, name=f"{name} | Broad",
                           status="ACTIVE" if status != "DELETED" else "DELETED", daily_budget=daily_budget,
                           targeting=Targeting(geo_locations={"countries": countries or ["US"]}, age_min=21),
                           optimization_goal=goal, start_time=started_at)
    st.creatives[crid] = Creative(id=crid, account_id=account_id, name=f"{name} | Creative", page_id=page.id,
                                  image_hash=f"{rng.getrandbits(64):016x}", link_url=link,
                                  headline=name.split(" | ")[-1], call_to_action_type="SHOP_NOW")
    st.ads[aid] = Ad(id=aid, account_id=account_id, campaign_id=cid, adset_id=sid, name=f"{name} | Ad 1",
                     creative_id=crid, status="ACTIVE" if status == "ACTIVE" else "PAUSED")
    days = [today + dt.timedelta(days=d) for d in range(started, 0)]
    rows = []
    for day in days[-30:]:
        imp = rng.randint(800, 9000)
        clicks = imp * rng.randint(8, 25) // 1000
        rows.append(DayStats(date=day, impressions=imp, clicks=clicks, spend=min(daily_budget, clicks * rng.randint(40, 120)),
                             conversions=clicks // rng.randint(12, 30)))
    st.stats[aid] = rows
    st.campaigns[cid].amount_spent = sum(r.spend for r in rows)
    st.accounts[account_id].amount_spent += st.campaigns[cid].amount_spent
    return st.campaigns[cid]


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> MetaAdsState:
    """The seeded ad accounts (see the module docstring)."""
    st = MetaAdsState()
    marketers = [OPS_EMAIL, f"hannah.kovacs@{DOMAIN}", f"jamal.wright@{DOMAIN}"]
    for acct, name, status in (("act_1029384756", "Acme Retail - Performance", 1),
                               ("act_5647382910", "Acme Brand - Awareness", 1),
                               ("act_9988776655", "Acme Legacy (closed)", 2)):
        st.accounts[acct] = AdAccount(id=acct, name=name, business_name="Acme Corp", account_status=status,
                                      spend_cap=0 if status == 1 else 100000, amount_spent=0, users=marketers)
        pid = str(ID_BASE // 1000 + len(st.pages) + 1)
        st.pages[pid] = Page(id=pid, name=f"{name.split(' - ')[0]} Shop", account_id=acct,
                             link=f"https://www.facebook.com/{name.split(' ')[1].lower()}shop{len(st.pages) + 1}")
    retail, brand = "act_1029384756", "act_5647382910"
    for k in range(4):
        sku = f"SKU-{rng.randint(10000, 99999)}"
        add_campaign(st, rng, today, account_id=retail, name=f"Sales | {sku} | {fake.word().title()} push",
                     objective="OUTCOME_SALES", status=("ACTIVE", "ACTIVE", "PAUSED", "ACTIVE")[k],
                     daily_budget=rng.choice((2500, 5000, 7500, 10000)), started=-rng.randint(10, 40),
                     link=f"https://shop.{DOMAIN}/p/{sku.lower()}?utm_source=meta&utm_campaign=sales")
    add_campaign(st, rng, today, account_id=brand, name="Awareness | Spring brand video", objective="OUTCOME_AWARENESS",
                 status="ACTIVE", daily_budget=15000, started=-12, countries=["US", "CA"],
                 link=f"https://www.{DOMAIN}/spring?utm_source=meta")
    add_campaign(st, rng, today, account_id=brand, name="Leads | B2B newsletter", objective="OUTCOME_LEADS",
                 status="PAUSED", daily_budget=4000, started=-35, link=f"https://www.{DOMAIN}/newsletter")
    return st


def dollars(cents: int) -> str:
    """Cents as the Marketing API's decimal dollar string ("161.86")."""
    return f"{cents / 100:.2f}"


def window(today: dt.date, time_range: Any) -> tuple[dt.date, dt.date]:
    """The inclusive reporting days of a preset ("last_7d": the 7 days before today) or a (since, until) pair.

    Raises:
        InvalidArgument: since is after until.
    """
    if isinstance(time_range, tuple):
        if time_range[0] > time_range[1]:
            raise InvalidArgument("time_range.since is after time_range.until.")
        return time_range
    yesterday = today - dt.timedelta(days=1)
    if time_range == "today":
        return today, today
    if time_range == "yesterday":
        return yesterday, yesterday
    days = {"last_7d": 7, "last_14d": 14, "last_30d": 30, "maximum": 3650}[time_range]
    return today - dt.timedelta(days=days), yesterday


def insights(st: MetaAdsState, ads: list[Ad], since: dt.date, until: dt.date, level: str) -> list[dict]:
    """Delivery of ``ads`` from ``since`` to ``until`` summed per ``level`` object (ad, adset, campaign, account)."""
    rows: dict[str, dict[str, int]] = {}
    for a in ads:
        key = {"ad": a.id, "adset": a.adset_id, "campaign": a.campaign_id, "account": a.account_id}[level]
        agg = rows.setdefault(key, {"impressions": 0, "clicks": 0, "spend": 0, "conversions": 0})
        for d in st.stats.get(a.id, []):
            if since <= d.date <= until:
                for k in agg:
                    agg[k] += getattr(d, k)
    return [{f"{level}_id": k, "impressions": v["impressions"], "clicks": v["clicks"], "spend": dollars(v["spend"]),
             "conversions": v["conversions"],
             "ctr": round(100 * v["clicks"] / v["impressions"], 2) if v["impressions"] else 0.0,
             "date_start": since.isoformat(), "date_stop": until.isoformat()} for k, v in sorted(rows.items())]
