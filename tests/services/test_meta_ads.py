"""Tests of the Meta Ads service."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.meta_ads import MetaAds

RETAIL, BRAND, CLOSED = "act_1029384756", "act_5647382910", "act_9988776655"


@pytest.fixture
def svc(make_service):
    return make_service(MetaAds)


def campaign_of(svc, name_part):
    return next(c for c in svc.state.campaigns.values() if name_part in c.name)


def test_seeded_accounts(svc):
    st = svc.state
    assert [a["id"] for a in ok(svc, "get_ad_accounts")["data"]] == [RETAIL, BRAND, CLOSED]
    assert ok(svc, "get_ad_accounts", {"user_id": "nobody@company.example"})["data"] == []
    sales = [c for c in st.campaigns.values() if c.name.startswith("Sales | SKU-")]
    assert len(sales) == 4 and [c.status for c in sales] == ["ACTIVE", "ACTIVE", "PAUSED", "ACTIVE"]
    for c in st.campaigns.values():  # spend is the sum of its ads' daily stats, within each ad set's budget
        ads = [a for a in st.ads.values() if a.campaign_id == c.id]
        assert c.amount_spent == sum(d.spend for a in ads for d in st.stats[a.id])
    acct = ok(svc, "get_account_info", {"account_id": RETAIL})
    assert acct["amount_spent"] == sum(c.amount_spent for c in st.campaigns.values() if c.account_id == RETAIL)
    assert acct["amount_spent_usd"] == f"{acct['amount_spent'] / 100:.2f}"
    assert MetaAds.seeded(0, svc.today).state_dict() == svc.state_dict()


def test_reads(svc):
    paused = ok(svc, "get_campaigns", {"account_id": RETAIL, "status_filter": "PAUSED"})["data"]
    assert len(paused) == 1 and paused[0]["name"].startswith("Sales | SKU-")
    c = campaign_of(svc, "Spring brand video")
    assert ok(svc, "get_campaign_details", {"campaign_id": c.id})["objective"] == "OUTCOME_AWARENESS"
    sets = ok(svc, "get_adsets", {"account_id": BRAND, "campaign_id": c.id})["data"]
    assert len(sets) == 1 and sets[0]["targeting"]["geo_locations"] == {"countries": ["US", "CA"]}
    assert ok(svc, "get_adset_details", {"adset_id": sets[0]["id"]})["daily_budget"] == 15000
    ads = ok(svc, "get_ads", {"account_id": BRAND, "adset_id": sets[0]["id"]})["data"]
    assert ok(svc, "get_ad_details", {"ad_id": ads[0]["id"]})["creative_id"] == ads[0]["creative_id"]
    creative = ok(svc, "get_ad_creatives", {"ad_id": ads[0]["id"]})["data"][0]
    assert creative["link_url"].startswith("https://www.company.example/spring")
    assert [p["account_id"] for p in ok(svc, "get_account_pages", {"account_id": BRAND})["data"]] == [BRAND]
    assert "not found" in error(svc, "get_campaign_details", {"campaign_id": "999999999"})["message"]
    assert code(svc, "get_campaign_details", {"campaign_id": "abc"}) == 400


def test_insights(svc):
    c = campaign_of(svc, "Spring brand video")
    ad = next(a for a in svc.state.ads.values() if a.campaign_id == c.id)
    week = [d for d in svc.state.stats[ad.id] if d.date.isoformat() >= "2026-01-08"]
    row = ok(svc, "get_insights", {"object_id": c.id, "time_range": "last_7d"})["data"][0]
    assert (row["campaign_id"], row["impressions"], row["date_start"], row["date_stop"]) == (
        c.id, sum(d.impressions for d in week), "2026-01-08", "2026-01-14")
    assert row["spend"] == f"{sum(d.spend for d in week) / 100:.2f}"
    one = ok(svc, "get_insights", {"object_id": ad.id, "level": "ad",
                                   "time_range": {"since": "2026-01-10", "until": "2026-01-10"}})["data"][0]
    assert one["clicks"] == next(d.clicks for d in week if d.date.isoformat() == "2026-01-10")
    accounts = ok(svc, "get_insights", {"object_id": RETAIL, "level": "campaign"})["data"]
    assert len(accounts) == 4
    assert code(svc, "get_insights", {"object_id": c.id, "time_range": {"since": "2026-01-10",
                                                                         "until": "2026-01-01"}}) == 400
    assert code(svc, "get_insights", {"object_id": "424242"}) == 404


def test_campaign_rules(svc):
    made = ok(svc, "create_campaign", {"account_id": RETAIL, "name": "Sales | SKU-11111 | Test", "objective":
                                       "OUTCOME_SALES", "daily_budget": "5000", "campaign_budget_optimization": True})
    assert (made["status"], made["daily_budget"]) == ("PAUSED", 5000)
    base = {"account_id": RETAIL, "name": "x"}
    assert code(svc, "create_campaign", {**base, "daily_budget": "100", "lifetime_budget": "9000"}) == 400
    assert code(svc, "create_campaign", {**base, "daily_budget": "99"}) == 422
    assert code(svc, "create_campaign", {**base, "daily_budget": "50.00"}) == 400
    assert code(svc, "create_campaign", {**base, "campaign_budget_optimization": True}) == 400
    assert code(svc, "create_campaign", {**base, "bid_strategy": "LOWEST_COST_WITH_BID_CAP"}) == 422
    assert code(svc, "create_campaign", {**base, "objective": "OUTCOME_FAME"}) == 400
    assert code(svc, "create_campaign", {**base, "account_id": CLOSED}) == 409
    assert code(svc, "create_campaign", {**base, "account_id": "act_1"}) == 404
    cid = made["id"]
    assert ok(svc, "update_campaign", {"campaign_id": cid, "daily_budget": "8000"})["daily_budget"] == 8000
    assert code(svc, "update_campaign", {"campaign_id": cid, "objective": "OUTCOME_TRAFFIC"}) == 422
    running = campaign_of(svc, "Spring brand video")
    assert code(svc, "update_campaign", {"campaign_id": running.id, "daily_budget": "9000"}) == 422  # ad-set budgets
    assert code(svc, "update_campaign", {"campaign_id": running.id, "spend_cap": str(running.amount_spent - 1)}) == 422
    capped = ok(svc, "update_campaign", {"campaign_id": running.id, "spend_cap": str(running.amount_spent + 5000)})
    assert capped["spend_cap"] == running.amount_spent + 5000
    assert ok(svc, "update_campaign", {"campaign_id": running.id, "status": "PAUSED"})["status"] == "PAUSED"
    ok(svc, "update_campaign", {"campaign_id": running.id, "status": "ARCHIVED"})
    assert code(svc, "update_campaign", {"campaign_id": running.id, "status": "ACTIVE"}) == 409
    assert code(svc, "update_campaign", {"campaign_id": running.id, "name": "renamed"}) == 409
    ok(svc, "update_campaign", {"campaign_id": running.id, "status": "DELETED"})
    assert code(svc, "update_campaign", {"campaign_id": running.id, "status": "PAUSED"}) == 409


def test_adsets_ads_creatives(svc):
    cbo = ok(svc, "create_campaign", {"account_id": RETAIL, "name": "CBO", "daily_budget": "5000",
                                      "campaign_budget_optimization": True})["id"]
    plain = ok(svc, "create_campaign", {"account_id": RETAIL, "name": "Plain"})["id"]
    housing = ok(svc, "create_campaign", {"account_id": RETAIL, "name": "Homes",
                                          "special_ad_categories": ["HOUSING"]})["id"]
    args = {"account_id": RETAIL, "name": "Set", "targeting": {"geo_locations": {"countries": ["US"]}}}
    assert code(svc, "create_adset", {**args, "campaign_id": cbo, "daily_budget": "1000"}) == 422
    assert ok(svc, "create_adset", {**args, "campaign_id": cbo})["daily_budget"] is None
    assert code(svc, "create_adset", {**args, "campaign_id": plain}) == 422  # needs a budget
    assert code(svc, "create_adset", {**args, "campaign_id": plain, "lifetime_budget": "90000"}) == 422  # no end
    assert code(svc, "create_adset", {**args, "campaign_id": plain, "daily_budget": "1000",
                                      "targeting": {"geo_locations": {}}}) == 422
    assert code(svc, "create_adset", {**args, "campaign_id": housing, "daily_budget": "1000",
                                      "targeting": {"geo_locations": {"countries": ["US"]}, "age_min": 25}}) == 422
    assert code(svc, "create_adset", {**args, "account_id": BRAND, "campaign_id": plain, "daily_budget": "1000"}) == 422
    s = ok(svc, "create_adset", {**args, "campaign_id": plain, "lifetime_budget": "90000",
                                 "start_time": "2026-01-16T00:00:00", "end_time": "2026-02-16T00:00:00"})
    caps = [{"event": "IMPRESSIONS", "interval_days": 7, "max_frequency": 3}]
    up = ok(svc, "update_adset", {"adset_id": s["id"], "frequency_control_specs": caps, "bid_amount": 250})
    assert (up["frequency_control_specs"], up["bid_amount"]) == (caps, 250)
    assert code(svc, "update_adset", {"adset_id": s["id"], "frequency_control_specs": [{"event": "CLICKS"}]}) == 400
    bare = ok(svc, "create_adset", {**args, "name": "Bare", "campaign_id": plain, "daily_budget": "1000"})["id"]
    assert code(svc, "update_adset", {"adset_id": bare, "bid_strategy": "LOWEST_COST_WITH_BID_CAP"}) == 422
    assert ok(svc, "update_adset", {"adset_id": s["id"], "bid_strategy": "LOWEST_COST_WITH_BID_CAP"})["bid_amount"] == 250
    page = next(p for p in svc.state.pages.values() if p.account_id == RETAIL)
    cr = ok(svc, "create_ad_creative", {"account_id": RETAIL, "name": "Cr", "image_hash": "abcdef0123456789",
                                        "page_id": page.id, "link_url": "https://shop.company.example/p/x",
                                        "call_to_action_type": "SHOP_NOW"})
    other_page = next(p for p in svc.state.pages.values() if p.account_id == BRAND)
    assert code(svc, "create_ad_creative", {"account_id": RETAIL, "name": "Cr", "image_hash": "abcdef0123456789",
                                            "page_id": other_page.id, "link_url": "https://x.example/"}) == 422
    ad = ok(svc, "create_ad", {"account_id": RETAIL, "name": "Ad", "adset_id": s["id"], "creative_id": cr["id"]})
    assert (ad["campaign_id"], ad["status"]) == (plain, "PAUSED")
    brand_creative = next(c for c in svc.state.creatives.values() if c.account_id == BRAND)
    assert code(svc, "create_ad", {"account_id": RETAIL, "name": "Ad", "adset_id": s["id"],
                                   "creative_id": brand_creative.id}) == 422
    assert ok(svc, "update_ad", {"ad_id": ad["id"], "status": "ACTIVE", "bid_amount": 300})["status"] == "ACTIVE"
    ok(svc, "update_ad", {"ad_id": ad["id"], "status": "DELETED"})
    assert code(svc, "update_ad", {"ad_id": ad["id"], "status": "ACTIVE"}) == 409


def test_new_ids_follow_the_counter(svc):
    svc.state.counters["object"] = 500
    assert ok(svc, "create_campaign", {"account_id": RETAIL, "name": "x"})["id"] == "120210000000500"


def test_failed_write_rolls_back(svc):
    running = campaign_of(svc, "Spring brand video")
    before = svc.state_dict()
    res = svc.call("update_campaign", {"campaign_id": running.id, "status": "PAUSED", "objective": "OUTCOME_SALES"})
    assert res["error"]["code"] == 422  # refused after the status was already set
    assert svc.state_dict() == before
