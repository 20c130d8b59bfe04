"""Tests of the knowledge_base service (operations manual)."""

from __future__ import annotations

import re

import pytest
from _svc_asserts import data, failed

from compoworld_gym.envs.services._company import STAFF, TEAMS
from compoworld_gym.envs.services.knowledge_base import KnowledgeBase


@pytest.fixture
def kb(make_service):
    return make_service(KnowledgeBase)


def test_seed_is_deterministic_and_consistent(kb, make_service):
    assert make_service(KnowledgeBase).state_dict() == kb.state_dict()
    arts = kb.state.articles
    assert len(arts) == 13 and kb.state.counters["KB"] == 14
    staff_emails = {s.email for s in STAFF}
    for a in arts.values():
        assert a.owner_team in TEAMS and a.owner_email in staff_emails
        # every key fact of a rule is written in its body, so reading the body suffices
        for value in a.facts.values():
            if value.isdigit():
                assert re.search(rf"(?<![\d,]){value}(?!\d)|{int(value):,}", a.body), (a.id, value)
        if a.status == "archived":
            succ = arts[a.superseded_by]
            assert succ.title == a.title and succ.version == a.version + 1
            assert succ.updated_on > a.updated_on and succ.facts != a.facts


def test_seed_varies_thresholds_with_seed(make_service):
    limits = {make_service(KnowledgeBase, seed=s).state.articles["KB-0004"].facts["approval_threshold_usd"]
              for s in range(12)}
    assert limits == {"300", "500", "750"}


def test_search_articles_filters(kb):
    hits = data(kb.call("search_articles", {"query": "refund"}))
    assert [h["id"] for h in hits] == ["KB-0003", "KB-0004", "KB-0011"]
    assert "body" not in hits[0] and hits[0]["snippet"].startswith("Refunds over $1000")
    published = data(kb.call("search_articles", {"category": "billing", "status": "published"}))
    assert [h["id"] for h in published] == ["KB-0002", "KB-0011"]
    assert [h["id"] for h in data(kb.call("search_articles", {"tag": "GDPR"}))] == ["KB-0009"]
    assert data(kb.call("search_articles", {"query": "refund approval", "status": "archived"}))[0]["id"] == "KB-0003"
    assert len(data(kb.call("search_articles", {"limit": 2}))) == 2
    assert data(kb.call("search_articles", {"query": "no such words zzz"})) == []
    failed(kb.call("search_articles", {"limit": 0}), 400)
    failed(kb.call("search_articles", {"status": "deleted"}), 400)


def test_get_article_latest_version_wins(kb):
    current = data(kb.call("get_article", {"article_id": "KB-0002"}))
    assert current["status"] == "published" and current["version"] == 2
    assert current["facts"]["priority"] == "high" and "priority high" in current["body"]
    assert "#billing-escalations" in current["body"] and current["facts"]["channel"] == "billing-escalations"
    old = data(kb.call("get_article", {"article_id": "KB-0001"}))
    assert old["status"] == "archived" and old["superseded_by"] == "KB-0002" and old["facts"]["priority"] == "urgent"
    refund = data(kb.call("get_article", {"article_id": "KB-0004"}))
    assert refund["facts"]["approval_threshold_usd"] == "500" and "Refunds over $500" in refund["body"]
    assert "not found" in failed(kb.call("get_article", {"article_id": "KB-9999"}), 404)
    failed(kb.call("get_article", {}), 400)


def test_list_categories(kb):
    cats = {c["category"]: (c["published"], c["total"]) for c in data(kb.call("list_categories", {}))}
    assert cats == {"billing": (2, 3), "refunds": (1, 2), "shipping": (1, 2), "accounts": (1, 1), "vip": (2, 3),
                    "privacy": (1, 1), "incidents": (1, 1), "general": (0, 0)}


def test_create_article(kb, today):
    art = data(kb.call("create_article", {
        "title": "Weekend coverage", "category": "general", "body": "Weekend tickets go to #support-escalations.",
        "owner_team": "support", "owner_email": "luis.ortega@company.example", "tags": ["weekend"]}))
    assert art["id"] == "KB-0014" and art["version"] == 1 and art["status"] == "draft"
    assert art["updated_on"] == today.isoformat()
    assert kb.state.articles["KB-0014"].tags == ["weekend"] and kb.state.counters["KB"] == 15
    before = kb.state_dict()
    assert "KB-0002" in failed(kb.call("create_article", {
        "title": "overdue billing tickets", "body": "x", "owner_team": "billing",
        "owner_email": "priya.raman@company.example"}), 409)
    assert kb.state_dict() == before
    failed(kb.call("create_article", {"title": "T", "body": "b", "owner_team": "x", "owner_email": "nope"}), 400)
    failed(kb.call("create_article", {"title": "T", "body": "b", "owner_team": "x",
                                   "owner_email": "a@b.example", "status": "archived"}), 400)


def test_update_article_bumps_version(kb, today):
    art = data(kb.call("update_article", {"article_id": "KB-0005", "body": "Delays over 4 days: notify #shipping-ops.",
                                         "owner_email": "grace.okafor@company.example"}))
    assert art["version"] == 2 and art["updated_on"] == today.isoformat()
    assert art["body"].startswith("Delays over 4 days") and art["owner_email"] == "grace.okafor@company.example"
    pub = data(kb.call("update_article", {"article_id": "KB-0013", "status": "published"}))
    assert pub["status"] == "published" and pub["version"] == 2


def test_update_article_errors_roll_back(kb):
    before = kb.state_dict()
    assert "archived" in failed(kb.call("update_article", {"article_id": "KB-0001", "body": "x"}), 409)
    assert "nothing to update" in failed(kb.call("update_article", {"article_id": "KB-0005"}), 400)
    failed(kb.call("update_article", {"article_id": "KB-0005", "title": "Chargebacks"}), 409)
    failed(kb.call("update_article", {"article_id": "KB-0404", "body": "x"}), 404)
    failed(kb.call("update_article", {"article_id": "KB-0005", "status": "archived"}), 400)
    assert kb.state_dict() == before


def test_archive_article(kb, today):
    new = data(kb.call("create_article", {"title": "Chargebacks v2", "category": "billing", "body": "Answer in 3 days.",
                                        "owner_team": "finance", "owner_email": "elena.petrova@company.example",
                                        "status": "published"}))
    arch = data(kb.call("archive_article", {"article_id": "KB-0011", "superseded_by": new["id"]}))
    assert arch["status"] == "archived" and arch["superseded_by"] == "KB-0014"
    assert arch["updated_on"] == today.isoformat()
    before = kb.state_dict()
    assert "already archived" in failed(kb.call("archive_article", {"article_id": "KB-0011"}), 409)
    failed(kb.call("archive_article", {"article_id": "KB-0006", "superseded_by": "KB-0001"}), 400)
    failed(kb.call("archive_article", {"article_id": "KB-0006", "superseded_by": "KB-0006"}), 400)
    failed(kb.call("archive_article", {"article_id": "KB-0006", "superseded_by": "KB-0999"}), 404)
    assert kb.state_dict() == before
