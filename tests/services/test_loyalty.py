"""Tests of the loyalty service (Smile.io REST API style)."""

from __future__ import annotations

import datetime as dt

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._commerce import CUSTOMERS
from compoworld_gym.envs.services._loyalty_models import PointsTransaction
from compoworld_gym.envs.services._loyalty_rules import order_points, points_of, reward_code
from compoworld_gym.envs.services.loyalty import Loyalty
from compoworld_gym.envs.services.orders import Orders


@pytest.fixture
def svc(make_service):
    return make_service(Loyalty)


def _t(n, change, day, source="activity", expires=None):
    return PointsTransaction(id=f"PTX-{n:04d}", customer_id="LM-0001", points_change=change, description="x",
                             source=source, created_at=dt.datetime(2025, 1, day, 10), expires_on=expires)


def test_points_are_spent_oldest_first_and_expired_points_do_not_count():
    old, new = dt.date(2025, 6, 1), dt.date(2026, 6, 1)
    txns = [_t(1, 300, 1, expires=old), _t(2, 200, 2, expires=new), _t(3, -250, 3, "redemption")]
    assert points_of(txns, dt.date(2025, 5, 1)) == (250, 0, 500)
    assert points_of(txns, dt.date(2026, 1, 15)) == (200, 50, 500)  # 50 left of the old lot expired
    assert points_of([*txns, _t(4, -100, 4, "adjustment")], dt.date(2026, 1, 15)) == (150, 0, 400)
    assert order_points(537.9, 1, 1.25) == 671 and reward_code(2) == "SMILE-FSRJK3"


def test_members_are_the_commerce_roster(svc, make_service):
    members = ok(svc, "list_customers")
    assert [m["email"] for m in members] == [c.email for c in CUSTOMERS]
    orders = make_service(Orders)
    emails = {o.customer_email for o in orders.state.orders.values()}
    assert emails <= {m["email"] for m in members}
    noah = ok(svc, "list_customers", {"email": "NOAH.THOMPSON@outlook.com"})
    assert [(m["id"], m["points_balance"], m["vip_tier_name"]) for m in noah] == [("LM-0002", 737, "Bronze")]
    earned = ok(svc, "list_points_transactions", {"order_id": "ORD-0007"})
    assert [(t["customer_id"], t["points_change"]) for t in earned] == [("LM-0002", 537)]


def test_reads(svc):
    emma = ok(svc, "get_customer", {"customer_id": "LM-0003"})
    assert (emma["points_balance"], emma["points_expired"], emma["lifetime_points"], emma["vip_tier_id"]) == (
        787, 630, 1417, "VIP-0002")
    assert code(svc, "get_customer", {"customer_id": "LM-0999"}) == 404
    assert [m["id"] for m in ok(svc, "list_customers", {"vip_tier_id": "VIP-0002"})] == [
        "LM-0003", "LM-0004", "LM-0007", "LM-0008"]
    assert [m["name"] for m in ok(svc, "list_customers", {"state": "disabled"})] == ["Lucas Fernandez"]
    liam = ok(svc, "list_points_transactions", {"customer_id": "LM-0004", "limit": 3})
    assert [(t["points_change"], t["source"]) for t in liam] == [(-900, "redemption"), (-498, "adjustment"),
                                                                (498, "activity")]
    assert [(t["name"], t["milestone"]) for t in ok(svc, "list_vip_tiers")] == [
        ("Bronze", 0), ("Silver", 750), ("Gold", 2000)]
    assert [r["id"] for r in ok(svc, "list_activity_rules", {"active": False})] == ["AR-0006"]
    assert [a["points_earned"] for a in ok(svc, "list_activities", {"order_id": "ORD-0002"})] == [1231]
    assert len(ok(svc, "list_activities", {"customer_id": "LM-0009"})) == 0
    assert [r["id"] for r in ok(svc, "list_rewards", {"active": False})] == ["RWD-0007"]
    assert [p["id"] for p in ok(svc, "list_points_products", {"active": True})] == [
        "PP-0001", "PP-0002", "PP-0003", "PP-0004", "PP-0005"]
    pp = ok(svc, "get_points_product", {"points_product_id": "PP-0002"})
    assert (pp["points_price"], pp["reward"]["name"], pp["reward"]["minimum_order_subtotal"]) == (
        900, "$10 off coupon", 50.0)
    assert code(svc, "get_points_product", {"points_product_id": "PP-0099"}) == 404
    codes = ok(svc, "list_reward_fulfillments", {"usage_status": "unused"})
    assert [(f["id"], f["customer_id"], f["code"]) for f in codes] == [
        ("RF-0004", "LM-0003", reward_code(4)), ("RF-0002", "LM-0004", "SMILE-FSRJK3")]
    assert ok(svc, "list_reward_fulfillments", {"code": "smile-7wdrte"})[0]["used_on_order_id"] == "ORD-0012"
    assert ok(svc, "get_reward_fulfillment", {"reward_fulfillment_id": "RF-0003"})["usage_status"] == "expired"
    assert code(svc, "get_reward_fulfillment", {"reward_fulfillment_id": "RF-0099"}) == 404


def test_points_adjustment_needs_a_reason_and_enough_points(svc):
    t = ok(svc, "create_points_transaction", {"customer_id": "LM-0002", "points_change": 250,
                                              "description": "Goodwill credit for late order ORD-0007"})
    assert (t["id"], t["points_balance"], t["expires_on"]) == ("PTX-0033", 987, "2027-01-15")
    assert ok(svc, "get_customer", {"customer_id": "LM-0002"})["vip_tier_name"] == "Silver"
    assert code(svc, "create_points_transaction", {"customer_id": "LM-0002", "points_change": 10,
                                                   "description": "  "}) == 400
    assert code(svc, "create_points_transaction", {"customer_id": "LM-0002", "points_change": 10}) == 400
    assert code(svc, "create_points_transaction", {"customer_id": "LM-0002", "points_change": 0,
                                                   "description": "nothing"}) == 400
    msg = error(svc, "create_points_transaction", {"customer_id": "LM-0003", "points_change": -800,
                                                   "description": "Clawback"})
    assert msg["code"] == 422 and "787 spendable points (630 more expired unspent)" in msg["message"]
    assert code(svc, "create_points_transaction", {"customer_id": "LM-0008", "points_change": 10,
                                                   "description": "Disabled"}) == 409
    d = ok(svc, "create_points_transaction", {"customer_id": "LM-0003", "points_change": -87,
                                              "description": "Duplicate review points removed"})
    assert d["points_balance"] == 700
    assert ok(svc, "get_customer", {"customer_id": "LM-0003"})["lifetime_points"] == 1330


def test_redeeming_needs_enough_points(svc):
    rf = ok(svc, "purchase_points_product", {"points_product_id": "PP-0002", "customer_id": "LM-0007"})
    assert (rf["id"], rf["code"], rf["value"], rf["points_balance"], rf["expires_at"]) == (
        "RF-0005", reward_code(5), 10.0, 217, "2026-04-15")
    assert ok(svc, "get_customer", {"customer_id": "LM-0007"})["lifetime_points"] == 1617  # spending keeps the tier
    msg = error(svc, "purchase_points_product", {"points_product_id": "PP-0001", "customer_id": "LM-0007"})
    assert msg["code"] == 422 and "217 spendable points" in msg["message"]
    var = ok(svc, "purchase_points_product", {"points_product_id": "PP-0005", "customer_id": "LM-0002",
                                              "points_to_spend": 700})
    assert (var["value"], var["points_balance"]) == (7.0, 37)
    assert code(svc, "purchase_points_product", {"points_product_id": "PP-0005", "customer_id": "LM-0003",
                                                 "points_to_spend": 550}) == 422
    assert code(svc, "purchase_points_product", {"points_product_id": "PP-0005", "customer_id": "LM-0003"}) == 400
    assert code(svc, "purchase_points_product", {"points_product_id": "PP-0001", "customer_id": "LM-0003",
                                                 "points_to_spend": 400}) == 400
    assert code(svc, "purchase_points_product", {"points_product_id": "PP-0006", "customer_id": "LM-0003"}) == 409
    assert code(svc, "purchase_points_product", {"points_product_id": "PP-0003", "customer_id": "LM-0009"}) == 409


def test_issue_reward_and_single_use_codes(svc):
    rf = ok(svc, "issue_reward", {"customer_id": "LM-0002", "reward_id": "RWD-0006",
                                  "reason": "Goodwill for late order ORD-0007"})
    assert (rf["source"], rf["points_spent"], rf["value"], rf["expires_at"]) == ("issued", 0, 20.0, "2026-05-15")
    assert ok(svc, "get_customer", {"customer_id": "LM-0002"})["points_balance"] == 737
    assert code(svc, "issue_reward", {"customer_id": "LM-0002", "reward_id": "RWD-0007", "reason": "old"}) == 409
    assert code(svc, "issue_reward", {"customer_id": "LM-0002", "reward_id": "RWD-0005", "reason": "var"}) == 422
    assert code(svc, "issue_reward", {"customer_id": "LM-0002", "reward_id": "RWD-0099", "reason": "none"}) == 404
    assert code(svc, "use_reward_fulfillment", {"code": "SMILE-FSRJK3", "order_id": "ORD-0020",
                                                "order_subtotal": 40}) == 422  # under the $50 minimum
    used = ok(svc, "use_reward_fulfillment", {"code": "smile-fsrjk3", "order_id": "ORD-0020", "order_subtotal": 80})
    assert (used["usage_status"], used["used_on_order_id"]) == ("used", "ORD-0020")
    msg = error(svc, "use_reward_fulfillment", {"code": "SMILE-FSRJK3", "order_id": "ORD-0021",
                                                "order_subtotal": 80})
    assert msg["code"] == 409 and "single-use" in msg["message"]
    assert code(svc, "use_reward_fulfillment", {"code": "SMILE-NP5BAS", "order_id": "ORD-0021",
                                                "order_subtotal": 80}) == 422  # expired
    assert code(svc, "use_reward_fulfillment", {"code": "SMILE-NOPE00", "order_id": "ORD-0021",
                                                "order_subtotal": 80}) == 404


def test_activities_earn_by_rule_and_tier(svc):
    a = ok(svc, "create_activity", {"customer_id": "LM-0007", "activity_rule_id": "AR-0002", "order_id": "ORD-0030",
                                    "order_subtotal": 100.99})
    assert (a["points_earned"], a["points_balance"]) == (125, 1242)  # Silver: 1.25 points per $1
    assert code(svc, "create_activity", {"customer_id": "LM-0002", "activity_rule_id": "AR-0002",
                                         "order_id": "ORD-0030", "order_subtotal": 100}) == 409  # earned once
    assert code(svc, "create_activity", {"customer_id": "LM-0002", "activity_rule_id": "AR-0002"}) == 400
    assert code(svc, "create_activity", {"customer_id": "LM-0002", "activity_rule_id": "AR-0004",
                                         "order_id": "ORD-0031"}) == 400
    assert ok(svc, "create_activity", {"customer_id": "LM-0002", "activity_rule_id": "AR-0005"})["points_earned"] == 25
    assert code(svc, "create_activity", {"customer_id": "LM-0002", "activity_rule_id": "AR-0005"}) == 409  # limit 1
    assert code(svc, "create_activity", {"customer_id": "LM-0002", "activity_rule_id": "AR-0006"}) == 409  # inactive
    assert code(svc, "create_activity", {"customer_id": "LM-0002", "activity_rule_id": "AR-0099"}) == 404


def test_update_customer_and_notes(svc):
    chloe = ok(svc, "update_customer", {"customer_id": "LM-0009", "state": "member"})
    assert chloe["state"] == "member"
    assert ok(svc, "create_activity", {"customer_id": "LM-0009", "activity_rule_id": "AR-0001"})["points_balance"] == 200
    assert code(svc, "update_customer", {"customer_id": "LM-0009", "state": "candidate"}) == 409
    assert code(svc, "update_customer", {"customer_id": "LM-0002", "state": "member"}) == 409
    assert code(svc, "update_customer", {"customer_id": "LM-0002"}) == 400
    assert code(svc, "update_customer", {"customer_id": "LM-0002", "date_of_birth": "2030-01-01"}) == 400
    assert ok(svc, "update_customer", {"customer_id": "LM-0008", "state": "member"})["state"] == "member"
    n = ok(svc, "add_customer_note", {"customer_id": "LM-0002", "note": "case KQ-1: the order total is 543.89."})
    assert n["notes"] == ["case KQ-1: the order total is 543.89."]
    assert code(svc, "add_customer_note", {"customer_id": "LM-0002", "note": "   "}) == 400
    assert code(svc, "add_customer_note", {"customer_id": "LM-0404", "note": "x"}) == 404


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("purchase_points_product", {"points_product_id": "PP-0004", "customer_id": "LM-0002"})[
        "success"] is False
    assert svc.state_dict() == before
    assert make_service(Loyalty, seed=3).state_dict() == make_service(Loyalty, seed=3).state_dict()
