"""Tests of the podcasts service (Transistor.fm API shapes)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.podcasts import Podcasts

OPS, SHIP, PARTNER = "PSH-0001", "PSH-0002", "PSH-0003"


@pytest.fixture
def svc(make_service):
    return make_service(Podcasts)


def test_shows(svc):
    shows = ok(svc, "list_shows")
    assert [(s["id"], s["private"], s["episode_counts"], s["subscriber_count"]) for s in shows] == [
        (OPS, False, {"draft": 1, "scheduled": 1, "published": 4}, None),
        (SHIP, False, {"draft": 1, "scheduled": 0, "published": 3}, None),
        (PARTNER, True, {"draft": 0, "scheduled": 1, "published": 1}, 6)]
    ops = ok(svc, "get_show", {"show_id": OPS})
    assert ops["hosts"] == ["jamal.wright@company.example", "hannah.kovacs@company.example"]
    assert code(svc, "get_show", {"show_id": "PSH-0042"}) == 404


def test_episodes_filters_and_details(svc):
    assert [e["id"] for e in ok(svc, "list_episodes", {"show_id": OPS, "season": 2})] == [
        "PEP-0005", "PEP-0004", "PEP-0006", "PEP-0003"]  # drafts sort by creation
    assert [e["id"] for e in ok(svc, "list_episodes", {"status": "scheduled"})] == ["PEP-0005", "PEP-0012"]
    sponsored = ok(svc, "list_episodes", {"sponsor": "globex corporation"})
    assert [(e["id"], e["sponsor_fee"], e["published_at"]) for e in sponsored] == [
        ("PEP-0003", 2500.0, "2025-12-25T06:00:00")]
    guest = ok(svc, "list_episodes", {"guest_email": "lucius.fox@waynehospitality.example"})
    assert [(e["id"], e["guest_company"], e["status"]) for e in guest] == [("PEP-0005", "Wayne Hospitality",
                                                                           "scheduled")]
    assert [e["id"] for e in ok(svc, "list_episodes", {"query": "ROBOTS"})] == ["PEP-0010"]
    ep = ok(svc, "get_episode", {"episode_id": "PEP-0005"})
    assert (ep["show_title"], ep["season"], ep["number"], ep["sponsor"], ep["host_email"]) == (
        "The Operations Hour", 2, 3, "Tyrell Analytics", "hannah.kovacs@company.example")
    assert ep["audio_url"] == "https://media.transistor.fm/operations-hour/pep-0005.mp3"
    assert code(svc, "get_episode", {"episode_id": "PEP-0999"}) == 404
    assert code(svc, "list_episodes", {"show_id": "PSH-0999"}) == 404


def test_create_episode_and_unique_numbers(svc):
    ep = ok(svc, "create_episode", {"show_id": OPS, "title": "Returns done right", "season": 2, "number": 5,
                                    "sponsor": "Initech", "sponsor_fee": 1999.999,
                                    "guest_email": "samir.nagheenanajar@initech.example"})
    assert (ep["id"], ep["status"], ep["host_email"], ep["sponsor_fee"], ep["share_url"]) == (
        "PEP-0013", "draft", "jamal.wright@company.example", 2000.0, "https://share.transistor.fm/s/pep-0013")
    dup = error(svc, "create_episode", {"show_id": OPS, "title": "Again", "season": 2, "number": 3})
    assert dup["code"] == 409 and "PEP-0005" in dup["message"]
    assert ok(svc, "create_episode", {"show_id": SHIP, "title": "Other show", "season": 2, "number": 3})["number"] == 3
    assert code(svc, "create_episode", {"show_id": OPS, "title": "x", "host_email": "ben.foster@company.example"}) == 422
    assert code(svc, "create_episode", {"show_id": OPS, "title": "x", "sponsor_fee": 100}) == 422
    assert code(svc, "create_episode", {"show_id": OPS, "title": "x", "audio_url": "not a url"}) == 400


def test_update_episode(svc):
    upd = ok(svc, "update_episode", {"episode_id": "PEP-0006", "audio_url": "https://cdn.example/a.mp3",
                                     "duration": 2400, "transcript_text": "[00:00] Hi"})
    assert (upd["audio_url"], upd["duration"], upd["transcript_text"]) == ("https://cdn.example/a.mp3", 2400,
                                                                           "[00:00] Hi")
    assert code(svc, "update_episode", {"episode_id": "PEP-0006", "number": 1}) == 409  # S2E1 is PEP-0003
    assert ok(svc, "update_episode", {"episode_id": "PEP-0006", "season": 3, "number": 1})["season"] == 3
    assert code(svc, "update_episode", {"episode_id": "PEP-0006"}) == 400
    assert code(svc, "update_episode", {"episode_id": "PEP-0002", "sponsor_fee": 50}) == 422  # no sponsor


def test_publish_needs_audio(svc):
    msg = error(svc, "publish_episode", {"episode_id": "PEP-0006", "status": "published"})
    assert msg["code"] == 422 and "no audio" in msg["message"]
    assert code(svc, "publish_episode", {"episode_id": "PEP-0006", "status": "scheduled",
                                         "published_at": "2026-02-01T06:00:00"}) == 422
    live = ok(svc, "publish_episode", {"episode_id": "PEP-0010", "status": "published"})
    assert (live["status"], live["published_at"]) == ("published", "2026-01-15T09:00:00")
    assert code(svc, "publish_episode", {"episode_id": "PEP-0010", "status": "published"}) == 409
    assert code(svc, "publish_episode", {"episode_id": "PEP-0010", "status": "scheduled",
                                         "published_at": "2026-02-01T06:00:00"}) == 409
    early = ok(svc, "publish_episode", {"episode_id": "PEP-0005", "status": "published"})
    assert early["status"] == "published"
    assert code(svc, "publish_episode", {"episode_id": "PEP-0012", "status": "published",
                                         "published_at": "2026-01-10T06:00:00"}) == 400


def test_schedule_in_the_future_and_unpublish(svc):
    past = error(svc, "publish_episode", {"episode_id": "PEP-0010", "status": "scheduled",
                                          "published_at": "2026-01-15T08:00:00"})
    assert past["code"] == 422 and "after now" in past["message"]
    assert code(svc, "publish_episode", {"episode_id": "PEP-0010", "status": "scheduled"}) == 422
    sched = ok(svc, "publish_episode", {"episode_id": "PEP-0010", "status": "scheduled",
                                        "published_at": "2026-01-22T06:00:00"})
    assert (sched["status"], sched["published_at"]) == ("scheduled", "2026-01-22T06:00:00")
    moved = ok(svc, "publish_episode", {"episode_id": "PEP-0010", "status": "scheduled",
                                        "published_at": "2026-01-29T06:00:00"})
    assert moved["published_at"] == "2026-01-29T06:00:00"
    draft = ok(svc, "publish_episode", {"episode_id": "PEP-0004", "status": "draft"})
    assert (draft["status"], draft["published_at"]) == ("draft", None)
    assert code(svc, "publish_episode", {"episode_id": "PEP-0004", "status": "draft"}) == 409


def test_analytics(svc):
    ep = ok(svc, "get_episode_analytics", {"episode_id": "PEP-0004"})
    assert (ep["start_date"], ep["end_date"], ep["total_downloads"]) == ("2026-01-01", "2026-01-14", 1399)
    assert [d["downloads"] for d in ep["downloads"][6:9]] == [0, 378, 304]  # live on 2026-01-08
    ranged = ok(svc, "get_episode_analytics", {"episode_id": "PEP-0004", "start_date": "2026-01-08",
                                               "end_date": "2026-01-08"})
    assert ranged["downloads"] == [{"date": "2026-01-08", "downloads": 378}]
    assert ok(svc, "get_episode_analytics", {"episode_id": "PEP-0006"})["total_downloads"] == 0  # a draft
    show = ok(svc, "get_show_analytics", {"show_id": OPS})
    assert show["total_downloads"] == 2297
    assert {e["episode_id"]: e["downloads"] for e in show["episodes"]}["PEP-0004"] == 1399
    assert sum(d["downloads"] for d in show["downloads"]) == 2297
    assert code(svc, "get_show_analytics", {"show_id": OPS, "start_date": "2026-01-10", "end_date": "2026-01-01"}) == 422
    assert code(svc, "get_show_analytics", {"show_id": OPS, "start_date": "2024-01-01", "end_date": "2026-01-01"}) == 422


def test_private_subscribers(svc):
    subs = ok(svc, "list_subscribers", {"show_id": PARTNER})
    assert [s["email"] for s in subs][:2] == ["hank.scorpio@globex.example", "samir.nagheenanajar@initech.example"]
    pub = error(svc, "list_subscribers", {"show_id": OPS})
    assert pub["code"] == 422 and "public" in pub["message"]
    assert code(svc, "add_subscriber", {"show_id": SHIP, "email": "a@b.example"}) == 422
    new = ok(svc, "add_subscriber", {"show_id": PARTNER, "email": "sol.roth@soylent.example"})
    assert (new["id"], new["show_id"]) == ("PSB-0007", PARTNER)
    assert code(svc, "add_subscriber", {"show_id": PARTNER, "email": "SOL.ROTH@soylent.example"}) == 409
    gone = ok(svc, "remove_subscriber", {"show_id": PARTNER, "email": "hank.scorpio@globex.example"})
    assert gone["id"] == "PSB-0001"
    assert len(ok(svc, "list_subscribers", {"show_id": PARTNER})) == 6
    assert code(svc, "remove_subscriber", {"show_id": PARTNER, "email": "hank.scorpio@globex.example"}) == 404


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("publish_episode", {"episode_id": "PEP-0006", "status": "published"})["success"] is False
    assert svc.call("update_episode", {"episode_id": "PEP-0006", "number": 1})["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(Podcasts, seed=5).state_dict() == make_service(Podcasts, seed=5).state_dict()
