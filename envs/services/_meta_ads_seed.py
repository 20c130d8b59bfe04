"""Seed data of the Meta Ads service (see ``meta_ads.py``; records in ``_meta_ads_models``).

The company advertises from two ad accounts (retail and brand); budgets are
integer cents as the Marketing API reports them (``"5000"`` is $50.00 a
day). Catalog sales campaigns name the SKU they promote ("Sales | SKU-40213
| Winter push"), so a campaign leads to the product, stock and orders of
that SKU. Insights are a fixed daily table per ad, drawn once at seeding.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker

from compoworld_gym.envs.services._company import DOMAIN, OPS_EMAIL
from compoworld_gym.envs.services._meta_ads_models import (
    ID_BASE, Ad, AdAccount, AdSet, Campaign, Creative, DayStats, MetaAdsState, Page, Targeting,
)
from compoworld_gym.envs.services._meta_ads_rules import next_object_id
from compoworld_gym.service import DAY_START

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

