"""Tests of the social (Reddit-style) service."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _svc_asserts import data, failed

from compoworld_gym.envs.services.social import Social

MOD = "acme_support"
from compoworld_gym.specs import SPECS_PATH as SPECS  # noqa: E402


@pytest.fixture
def svc(make_service):
    return make_service(Social, seed=0)


def _spec_tool(name):
    with open(SPECS) as fh:
        for line in fh:
            server = json.loads(line)
            if server["slug"] == Social.spec_source:
                return next(t for t in server["tools"] if t["name"] == name)
    raise AssertionError("spec server missing")


@pytest.mark.parametrize("name", ["fetch_reddit_hot_threads", "fetch_reddit_post_content"])
def test_follows_real_spec(name):
    real = _spec_tool(name)["inputSchema"]
    mine = Social.tools[name].input_schema
    assert set(mine["properties"]) == set(real["properties"])
    assert set(mine.get("required", [])) == set(real.get("required", []))
    for p, prop in real["properties"].items():
        assert mine["properties"][p]["type"] == prop["type"]
        assert mine["properties"][p].get("default") == prop.get("default")


def test_seed(make_service):
    a = make_service(Social, seed=5)
    assert a.state_dict() == make_service(Social, seed=5).state_dict()
    assert a.state.accounts["olivia_martinez"].email == "olivia.martinez@gmail.com"
    assert all(c.post_id in a.state.posts for c in a.state.comments.values())
    assert len(Social.tools) == 13


def test_hot_threads_and_content(svc):
    hot = data(svc.call("fetch_reddit_hot_threads", {"subreddit": "acmestore", "limit": 3}))
    published = sorted((p for p in svc.state.posts.values() if p.subreddit == "acmestore" and p.status == "published"),
                       key=lambda p: -p.score)
    assert [h["id"] for h in hot] == [p.id for p in published[:3]]
    assert data(svc.call("fetch_reddit_hot_threads", {"subreddit": "r/acmestore", "limit": 3})) == hot
    failed(svc.call("fetch_reddit_hot_threads", {"subreddit": "nowhere"}), 404)
    failed(svc.call("fetch_reddit_hot_threads", {}), 400)
    pid = next(c.post_id for c in svc.state.comments.values() if c.parent_id)
    post = data(svc.call("fetch_reddit_post_content", {"post_id": pid}))
    assert any(c["replies"] for c in post["comments"])
    flat = data(svc.call("fetch_reddit_post_content", {"post_id": pid, "comment_depth": 1}))
    assert all(c["replies"] == [] for c in flat["comments"])
    assert data(svc.call("fetch_reddit_post_content", {"post_id": pid, "comment_limit": 0}))["comments"] == []
    failed(svc.call("fetch_reddit_post_content", {"post_id": "PST-9999"}), 404)


def test_search_account_subreddit(svc):
    scheduled = data(svc.call("search_posts", {"status": "scheduled"}))
    assert {p["id"] for p in scheduled} == {"PST-0015", "PST-0016"}
    assert all("refund" in p["title"].lower() or "refund" in p["body"].lower()
               for p in data(svc.call("search_posts", {"query": "REFUND"})))
    acct = data(svc.call("get_account", {"username": "u/acme_support"}))
    assert acct["email"] == "support@company.example" and acct["posts"] >= 2
    failed(svc.call("get_account", {"username": "ghost"}), 404)
    info = data(svc.call("get_subreddit_info", {"subreddit": "acmestore"}))
    assert info["moderators"] == ["acme_support", "jamal_wright"] and info["rules"][0] == "Be civil."


def test_create_schedule_publish_cancel(svc):
    post = data(svc.call("create_post", {"subreddit": "acmestore", "author": "olivia_martinez",
                                       "title": "Where is my order?", "body": "ORD-0003 is late", "flair": "Support"}))
    assert (post["id"], post["status"], post["score"], post["created_at"]) == (
        "PST-0017", "published", 1, "2026-01-15T09:00:00")
    later = data(svc.call("create_post", {"subreddit": "acmestore", "author": MOD, "title": "Sale",
                                        "scheduled_for": "2026-01-20T10:00:00"}))
    assert later["status"] == "scheduled" and later["scheduled_for"] == "2026-01-20T10:00:00"
    failed(svc.call("create_post", {"subreddit": "acmestore", "author": MOD, "title": "Old",
                                 "scheduled_for": "2026-01-01T10:00:00"}), 422)
    failed(svc.call("create_post", {"subreddit": "acmestore", "author": "ghost", "title": "x"}), 404)
    pub = data(svc.call("publish_scheduled_post", {"post_id": later["id"]}))
    assert pub["status"] == "published" and pub["scheduled_for"] is None
    failed(svc.call("publish_scheduled_post", {"post_id": later["id"]}), 409)
    gone = data(svc.call("cancel_scheduled_post", {"post_id": "PST-0016"}))
    assert gone["title"].startswith("Winter sale") and "PST-0016" not in svc.state.posts
    failed(svc.call("cancel_scheduled_post", {"post_id": "PST-0016"}), 404)


def test_comments_and_likes(svc):
    c = data(svc.call("add_comment", {"post_id": "PST-0001", "author": MOD, "body": "We're on it"}))
    reply = data(svc.call("add_comment", {"post_id": "PST-0001", "author": "olivia_martinez", "body": "thanks",
                                        "parent_comment_id": c["id"]}))
    assert reply["parent_id"] == c["id"]
    other = next(x for x in svc.state.comments.values() if x.post_id != "PST-0001")
    failed(svc.call("add_comment", {"post_id": "PST-0001", "author": MOD, "body": "x",
                                 "parent_comment_id": other.id}), 422)
    failed(svc.call("add_comment", {"post_id": "PST-0015", "author": MOD, "body": "x"}), 409)  # scheduled
    post = svc.state.posts["PST-0001"]
    liker = next(u for u in svc.state.accounts if u not in post.liked_by)
    score, karma = post.score, svc.state.accounts[post.author].karma
    liked = data(svc.call("like_post", {"post_id": "PST-0001", "username": liker}))
    assert liked["score"] == score + 1 and svc.state.accounts[post.author].karma == karma + 1
    failed(svc.call("like_post", {"post_id": "PST-0001", "username": liker}), 409)


def test_moderation_and_bans(svc):
    pid = next(p.id for p in svc.state.posts.values() if p.subreddit == "acmestore" and p.status == "published")
    entry = data(svc.call("moderate_content", {"content_id": pid, "action": "hide", "moderator": MOD,
                                             "reason": "personal data"}))
    assert (entry["id"], entry["action"], entry["target"]) == ("MOD-0001", "hide", pid)
    assert pid not in {h["id"] for h in data(svc.call("fetch_reddit_hot_threads", {"subreddit": "acmestore"}))}
    failed(svc.call("moderate_content", {"content_id": pid, "action": "hide", "moderator": MOD, "reason": "x"}), 409)
    data(svc.call("moderate_content", {"content_id": pid, "action": "unhide", "moderator": MOD, "reason": "edited"}))
    data(svc.call("moderate_content", {"content_id": pid, "action": "remove", "moderator": MOD, "reason": "spam"}))
    failed(svc.call("moderate_content", {"content_id": pid, "action": "unhide", "moderator": MOD, "reason": "x"}), 409)
    outside = next(p.id for p in svc.state.posts.values() if p.subreddit == "productivity")
    before = svc.state_dict()
    failed(svc.call("moderate_content", {"content_id": outside, "action": "remove", "moderator": MOD,
                                      "reason": "x"}), 409)
    assert svc.state_dict() == before
    failed(svc.call("moderate_content", {"content_id": "CMT-9999", "action": "hide", "moderator": MOD,
                                      "reason": "x"}), 404)
    sub = data(svc.call("ban_user", {"subreddit": "acmestore", "username": "liam_patel", "moderator": MOD,
                                   "reason": "harassment"}))
    assert sub["banned"] == ["liam_patel"]
    failed(svc.call("create_post", {"subreddit": "acmestore", "author": "liam_patel", "title": "hi"}), 409)
    failed(svc.call("ban_user", {"subreddit": "acmestore", "username": "liam_patel", "moderator": MOD,
                              "reason": "again"}), 409)
    log = data(svc.call("list_mod_log", {"subreddit": "acmestore"}))
    assert [e["action"] for e in log] == ["ban", "remove", "unhide", "hide"]
