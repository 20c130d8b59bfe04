"""Tests of the slack service (modelcontextprotocol-slack)."""

from __future__ import annotations

import re

import pytest
from _svc_asserts import data, failed

from compoworld_gym.envs.services.knowledge_base import KnowledgeBase
from compoworld_gym.envs.services.slack import Slack

POST_TS = "1768467600.000018"  # 2026-01-15 09:00 UTC, 18th message of the workspace


@pytest.fixture
def sl(make_service):
    return make_service(Slack)


def test_seed_shape(sl, make_service):
    assert make_service(Slack).state_dict() == sl.state_dict()
    st = sl.state
    assert len(st.users) == 13 and len(st.channels) == 11 and len(st.messages) == 17
    assert st.counters["TS"] == 18 and st.bot_user_id == "U0001"
    assert st.users["U0002"].email == "priya.raman@company.example"
    assert all(st.users[m.user] and st.channels[m.channel_id] for m in st.messages.values())


def test_every_channel_named_by_the_manual_exists(sl, make_service):
    kb = make_service(KnowledgeBase)
    named = {c for a in kb.state.articles.values() for c in re.findall(r"#([a-z][a-z-]+)", a.body)}
    active = {c.name for c in sl.state.channels.values() if not c.is_archived}
    assert named and named <= active


def test_list_channels_pages(sl):
    first = data(sl.call("slack_list_channels", {"limit": 4}))
    assert [c["name"] for c in first["channels"]] == ["general", "random", "billing-escalations", "finance-approvals"]
    assert first["response_metadata"]["next_cursor"] == "C0005"
    rest = data(sl.call("slack_list_channels", {"cursor": "C0005"}))
    assert [c["id"] for c in rest["channels"]] == [f"C{i:04d}" for i in range(5, 11)]  # archived C0011 hidden
    assert rest["response_metadata"]["next_cursor"] == ""
    assert first["channels"][2]["num_members"] == 4
    failed(sl.call("slack_list_channels", {"cursor": "C9999"}), 400)
    failed(sl.call("slack_list_channels", {"limit": 500}), 400)


def test_channel_history(sl):
    hist = data(sl.call("slack_get_channel_history", {"channel_id": "C0003"}))
    texts = [m["text"] for m in hist["messages"]]
    assert texts[0].startswith("Weekly overdue count") and texts[1].startswith("INV-5506 for Pierce-Guerrero")
    assert hist["messages"][1]["reply_count"] == 1 and hist["has_more"] is False
    one = data(sl.call("slack_get_channel_history", {"channel_id": "C0003", "limit": 1}))
    assert len(one["messages"]) == 1 and one["has_more"] is True
    failed(sl.call("slack_get_channel_history", {"channel_id": "billing-escalations"}), 404)
    failed(sl.call("slack_get_channel_history", {}), 400)


def test_thread_replies(sl):
    thread = data(sl.call("slack_get_thread_replies", {"channel_id": "C0003", "thread_ts": "1768146540.000003"}))
    assert [m["text"] for m in thread["messages"]][1] == "Customer notified, account owner cc'd."
    assert thread["messages"][1]["user_name"] == "marcus.bell"
    no_dot = data(sl.call("slack_get_thread_replies", {"channel_id": "C0003", "thread_ts": "1768146540000003"}))
    assert no_dot == thread
    failed(sl.call("slack_get_thread_replies", {"channel_id": "C0004", "thread_ts": "1768146540.000003"}), 404)


def test_users_and_profiles(sl):
    page = data(sl.call("slack_get_users", {"limit": 5}))
    assert [u["name"] for u in page["members"]][:3] == ["ops-bot", "priya.raman", "marcus.bell"]
    assert page["response_metadata"]["next_cursor"] == "U0006"
    assert len(data(sl.call("slack_get_users", {"cursor": "U0006"}))["members"]) == 8
    prof = data(sl.call("slack_get_user_profile", {"user_id": "U0004"}))
    assert prof["profile"]["email"] == "elena.petrova@company.example"
    assert prof["profile"]["title"] == "Finance Controller"
    failed(sl.call("slack_get_user_profile", {"user_id": "U9999"}), 404)


def test_post_message(sl):
    msg = data(sl.call("slack_post_message", {"channel_id": "C0003", "text": "INV-5506 escalated to high."}))
    assert msg["ts"] == POST_TS and msg["user"] == "U0001" and msg["thread_ts"] is None
    assert sl.state.messages[POST_TS].text == "INV-5506 escalated to high."
    assert data(sl.call("slack_get_channel_history", {"channel_id": "C0003", "limit": 1}))["messages"][0]["ts"] == POST_TS
    second = data(sl.call("slack_post_message", {"channel_id": "C0001", "text": "x"}))
    assert second["ts"] == "1768467660.000019"  # logical clock moved one minute


def test_post_errors_roll_back(sl):
    before = sl.state_dict()
    assert "archived" in failed(sl.call("slack_post_message", {"channel_id": "C0011", "text": "hello"}), 409)
    failed(sl.call("slack_post_message", {"channel_id": "C0404", "text": "hello"}), 404)
    failed(sl.call("slack_post_message", {"channel_id": "C0003", "text": ""}), 400)
    failed(sl.call("slack_reply_to_thread", {"channel_id": "C0011", "thread_ts": "1760707560.000017", "text": "x"}), 409)
    assert sl.state_dict() == before


def test_reply_to_thread(sl):
    reply = data(sl.call("slack_reply_to_thread", {"channel_id": "C0007", "thread_ts": "1768237560.000011",
                                                  "text": "Ticket from them escalated."}))
    assert reply["thread_ts"] == "1768237560.000011" and reply["ts"] == POST_TS
    # replying to a reply joins the parent's thread
    nested = data(sl.call("slack_reply_to_thread", {"channel_id": "C0007", "thread_ts": "1768237980.000012",
                                                   "text": "x"}))
    assert nested["thread_ts"] == "1768237560.000011"
    thread = data(sl.call("slack_get_thread_replies", {"channel_id": "C0007", "thread_ts": "1768237560.000011"}))
    assert len(thread["messages"]) == 4
    failed(sl.call("slack_reply_to_thread", {"channel_id": "C0007", "thread_ts": "123.000001", "text": "x"}), 404)


def test_add_reaction(sl):
    msg = data(sl.call("slack_add_reaction", {"channel_id": "C0004", "timestamp": "1768059120.000006",
                                             "reaction": ":white_check_mark:"}))
    assert msg["reactions"] == [{"name": "white_check_mark", "users": ["U0005", "U0001"], "count": 2}]
    new = data(sl.call("slack_add_reaction", {"channel_id": "C0004", "timestamp": "1768389060.000007",
                                             "reaction": "eyes"}))
    assert new["reactions"] == [{"name": "eyes", "users": ["U0001"], "count": 1}]
    before = sl.state_dict()
    assert "already_reacted" in failed(sl.call("slack_add_reaction", {
        "channel_id": "C0004", "timestamp": "1768389060.000007", "reaction": "eyes"}), 409)
    failed(sl.call("slack_add_reaction", {"channel_id": "C0004", "timestamp": "1768389060.000007",
                                       "reaction": "thumbs up!"}), 400)
    failed(sl.call("slack_add_reaction", {"channel_id": "C0004", "timestamp": "1768389060.999999",
                                       "reaction": "eyes"}), 404)
    assert sl.state_dict() == before
