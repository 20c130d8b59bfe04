"""Tests of the discord service (@jackedelic_mcp-discord)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._discord_models import snowflake_time
from compoworld_gym.envs.services._discord_seed import BOT_TOKEN
from compoworld_gym.envs.services.discord import Discord


@pytest.fixture
def svc(make_service):
    return make_service(Discord)


def guild(svc, name="Acme Store Community"):
    return next(g["id"] for g in ok(svc, "discord_login")["guilds"] if g["name"] == name)


def channel(svc, name, gname="Acme Store Community"):
    return next(c["id"] for c in ok(svc, "discord_get_server_info", {"guildId": guild(svc, gname)})["channels"]
                if c["name"] == name)


def post(svc, title):
    forums = ok(svc, "discord_get_forum_channels", {"guildId": guild(svc)})
    return next(p for f in forums for p in f["posts"] if p["title"] == title)


def bot(svc):
    return ok(svc, "discord_login")["user"]["id"]


def test_login_and_server_info(svc):
    login = ok(svc, "discord_login", {"token": BOT_TOKEN})
    assert login["user"]["username"] == "acme_helper"
    assert [g["name"] for g in login["guilds"]] == ["Acme Store Community", "Acme Partners"]
    assert code(svc, "discord_login", {"token": "MTIz.fake.token"}) == 422
    info = ok(svc, "discord_get_server_info", {"guildId": guild(svc)})
    assert info["member_count"] == 23  # bot, 12 staff, 10 customers
    assert [c["name"] for c in info["channels"] if c["type"] == "category"] == ["INFORMATION", "COMMUNITY",
                                                                                "SUPPORT", "STAFF"]
    assert {w["name"] for w in info["webhooks"]} == {"Release Notes", "Status Updates"}
    assert ok(svc, "discord_get_server_info", {"guildId": guild(svc, "Acme Partners")})["member_count"] == 13
    assert code(svc, "discord_get_server_info", {"guildId": "123"}) == 404


def test_forum_channels_and_posts_follow_the_order_book(svc):
    forums = {f["name"]: f for f in ok(svc, "discord_get_forum_channels", {"guildId": guild(svc)})}
    assert sorted(forums) == ["help-desk", "product-feedback"]
    help_desk = forums["help-desk"]
    assert help_desk["available_tags"] == ["Order issue", "Shipping", "Refund", "Product question", "Resolved"]
    assert len(help_desk["posts"]) == 5
    refund = post(svc, "Refund for returned keyboard")
    assert (refund["author"], refund["locked"], refund["applied_tags"]) == ("Liam Patel", True, ["Refund", "Resolved"])
    full = ok(svc, "discord_get_forum_post", {"threadId": refund["id"]})
    assert "ORD-0011" in full["content"] and full["forum_name"] == "help-desk"
    assert [m["author"]["name"] for m in full["messages"]] == ["Liam Patel", "Hannah Kovacs", "Hannah Kovacs"]
    assert full["messages"][0]["id"] == refund["id"]  # the starter message has the thread's id
    assert code(svc, "discord_get_forum_post", {"threadId": "42"}) == 404


def test_create_forum_post_rules(svc):
    forum = channel(svc, "help-desk")
    args = {"forumChannelId": forum, "title": "Holiday shipping times", "content": "Orders after Dec 20 ship in Jan.",
            "tags": ["shipping", "Shipping"]}
    created = ok(svc, "discord_create_forum_post", args)
    assert (created["title"], created["applied_tags"], created["author"]) == ("Holiday shipping times", ["Shipping"],
                                                                            "Acme Helper")
    assert str(snowflake_time(created["id"])) == "2026-01-15 09:00:00"
    assert code(svc, "discord_create_forum_post", {**args, "forumChannelId": channel(svc, "general")}) == 422
    assert "no tag(s) ['Returns']" in error(svc, "discord_create_forum_post", {**args, "tags": ["Returns"]})["message"]
    assert code(svc, "discord_create_forum_post", {**args, "title": "x" * 101}) == 422
    assert code(svc, "discord_create_forum_post", {**args, "content": "y" * 2001}) == 422
    feedback = channel(svc, "product-feedback")
    too_many = {**args, "forumChannelId": feedback, "tags": ["Feature request", "Praise", "Bug"]}
    assert ok(svc, "discord_create_forum_post", too_many)["applied_tags"] == ["Feature request", "Praise", "Bug"]


def test_reply_locked_and_archived_posts(svc):
    refund = post(svc, "Refund for returned keyboard")
    assert "locked" in error(svc, "discord_reply_to_forum", {"threadId": refund["id"], "message": "hi"})["message"]
    webcam = post(svc, "Where is my webcam?")
    svc.state.posts[webcam["id"]].archived = True
    reply = ok(svc, "discord_reply_to_forum", {"threadId": webcam["id"], "message": "Tracking updated."})
    assert (reply["author"]["name"], reply["content"]) == ("Acme Helper", "Tracking updated.")
    assert post(svc, "Where is my webcam?")["archived"] is False  # writing reopens an archived post
    assert code(svc, "discord_reply_to_forum", {"threadId": webcam["id"], "message": "z" * 2001}) == 422


def test_send_and_read_messages(svc):
    general = channel(svc, "general")
    sent = ok(svc, "discord_send", {"channelId": general, "message": "Welcome to the new members!"})
    msgs = ok(svc, "discord_read_messages", {"channelId": general, "limit": 2})["messages"]
    assert [m["id"] for m in msgs][0] == sent["id"] and len(msgs) == 2
    assert ok(svc, "discord_read_messages", {"channelId": general})["messages"][-1]["content"] == \
        "Anyone tried the standing desk with a 4K monitor arm?"
    assert code(svc, "discord_send", {"channelId": channel(svc, "help-desk"), "message": "hi"}) == 422  # forum
    assert code(svc, "discord_send", {"channelId": channel(svc, "STAFF"), "message": "hi"}) == 422  # category
    assert code(svc, "discord_send", {"channelId": general, "message": "a" * 2001}) == 422
    assert code(svc, "discord_send", {"channelId": "999", "message": "hi"}) == 404
    assert code(svc, "discord_read_messages", {"channelId": general, "limit": 101}) == 400
    thread = post(svc, "Payment stuck on pending")["id"]
    ok(svc, "discord_send", {"channelId": thread, "message": "Checking the payment now."})
    assert ok(svc, "discord_read_messages", {"channelId": thread})["messages"][0]["content"] == "Checking the payment now."


def test_delete_message(svc):
    general = channel(svc, "general")
    mid = ok(svc, "discord_read_messages", {"channelId": general})["messages"][0]["id"]
    assert ok(svc, "discord_delete_message", {"channelId": general, "messageId": mid, "reason": "spam"})["deleted"] == mid
    assert [(e.action, e.reason) for e in svc.state.audit_log.values()] == [("MESSAGE_DELETE", "spam")]
    assert code(svc, "discord_delete_message", {"channelId": general, "messageId": mid}) == 404
    thread = post(svc, "Where is my webcam?")["id"]
    assert code(svc, "discord_delete_message", {"channelId": thread, "messageId": thread}) == 422  # starter message


def test_reactions_once_per_user(svc):
    thread = post(svc, "Where is my webcam?")["id"]
    r = ok(svc, "discord_add_reaction", {"channelId": thread, "messageId": thread, "emoji": "✅"})
    assert r["reactions"] == [{"emoji": "✅", "count": 1, "user_ids": [bot(svc)]}]
    assert code(svc, "discord_add_reaction", {"channelId": thread, "messageId": thread, "emoji": "✅"}) == 409
    assert code(svc, "discord_add_reaction", {"channelId": thread, "messageId": thread, "emoji": ":thumbsup:"}) == 422
    assert code(svc, "discord_add_reaction", {"channelId": thread, "messageId": thread, "emoji": "ok"}) == 422
    custom = ok(svc, "discord_add_reaction", {"channelId": thread, "messageId": thread, "emoji": ":shipit:"})
    assert custom["reactions"][1]["emoji"].startswith("shipit:")
    assert code(svc, "discord_add_reaction", {"channelId": thread, "messageId": thread,
                                              "emoji": "<:nope:123456789012345678>"}) == 422
    assert code(svc, "discord_add_reaction", {"channelId": channel(svc, "general"), "messageId": thread,
                                              "emoji": "🎉"}) == 404  # message not in that channel
    gone = ok(svc, "discord_remove_reaction", {"channelId": thread, "messageId": thread, "emoji": "✅"})
    assert [x["emoji"] for x in gone["reactions"]] == [custom["reactions"][1]["emoji"]]
    assert code(svc, "discord_remove_reaction", {"channelId": thread, "messageId": thread, "emoji": "✅"}) == 404


def test_multiple_reactions_all_or_nothing(svc):
    news = channel(svc, "announcements")
    msg = ok(svc, "discord_read_messages", {"channelId": news})["messages"][0]
    fan = msg["reactions"][0]["user_ids"][0]
    ok(svc, "discord_add_multiple_reactions", {"channelId": news, "messageId": msg["id"], "emojis": ["🎉", "🔥", "🔥"]})
    again = error(svc, "discord_add_multiple_reactions", {"channelId": news, "messageId": msg["id"],
                                                          "emojis": ["👀", "🔥"]})
    assert again["code"] == 409 and "🔥" in again["message"]
    many = ["😀", "😁", "😂", "😃", "😄", "😅", "😆", "😇", "😈", "😉", "😊", "😋", "😌", "😍", "😎", "😏", "😐", "😑"]
    assert code(svc, "discord_add_multiple_reactions", {"channelId": news, "messageId": msg["id"], "emojis": many}) == 422
    out = ok(svc, "discord_remove_reaction", {"channelId": news, "messageId": msg["id"], "emoji": "🎉", "userId": fan})
    assert next(x for x in out["reactions"] if x["emoji"] == "🎉")["count"] == 3  # two fans left plus the bot


def test_categories(svc):
    gid = guild(svc)
    cat = ok(svc, "discord_create_category", {"guildId": gid, "name": "Events", "reason": "launch week"})
    assert (cat["name"], cat["type"], cat["position"]) == ("Events", "category", 4)
    assert code(svc, "discord_create_category", {"guildId": gid, "name": "events"}) == 409
    assert ok(svc, "discord_edit_category", {"categoryId": cat["id"], "name": "Live Events", "position": 1})["name"] == \
        "Live Events"
    assert code(svc, "discord_edit_category", {"categoryId": cat["id"]}) == 400
    assert code(svc, "discord_edit_category", {"categoryId": channel(svc, "general"), "name": "X"}) == 422
    staff = channel(svc, "STAFF")
    deleted = ok(svc, "discord_delete_category", {"categoryId": staff})
    assert len(deleted["uncategorized_channels"]) == 4
    assert svc.state.channels[deleted["uncategorized_channels"][0]].parent_id is None
    assert code(svc, "discord_delete_category", {"categoryId": staff}) == 404


def test_text_channels(svc):
    gid = guild(svc)
    ch = ok(svc, "discord_create_text_channel", {"guildId": gid, "channelName": "  Order Help (EU) ",
                                                 "topic": "EU orders"})
    assert (ch["name"], ch["type"], ch["topic"]) == ("order-help-eu", "text", "EU orders")
    assert code(svc, "discord_create_text_channel", {"guildId": gid, "channelName": "ORDER help eu"}) == 409
    assert code(svc, "discord_create_text_channel", {"guildId": gid, "channelName": "!!!"}) == 422
    forum = channel(svc, "help-desk")
    out = ok(svc, "discord_delete_channel", {"channelId": forum, "reason": "moving to tickets"})
    assert (out["type"], out["deleted_posts"]) == ("forum", 5)
    assert not any(p.parent_id == forum for p in svc.state.posts.values())
    assert code(svc, "discord_delete_channel", {"channelId": channel(svc, "SUPPORT")}) == 422
    assert code(svc, "discord_delete_channel", {"channelId": forum}) == 404


def test_delete_forum_post(svc):
    p = post(svc, "Chair arrived with a scuffed base")
    out = ok(svc, "discord_delete_forum_post", {"threadId": p["id"], "reason": "duplicate"})
    assert (out["deleted_messages"], out["title"]) == (2, "Chair arrived with a scuffed base")
    assert not any(m.channel_id == p["id"] for m in svc.state.messages.values())
    assert code(svc, "discord_delete_forum_post", {"threadId": p["id"]}) == 404


def test_webhooks(svc):
    news = channel(svc, "announcements")
    hook = ok(svc, "discord_create_webhook", {"channelId": news, "name": "Launch Bot",
                                              "avatar": "https://cdn.company.example/a.png"})
    assert len(hook["token"]) == 68 and hook["url"].endswith(hook["token"])
    assert code(svc, "discord_create_webhook", {"channelId": news, "name": "Discord Alerts"}) == 422
    assert code(svc, "discord_create_webhook", {"channelId": channel(svc, "STAFF"), "name": "X"}) == 422
    msg = ok(svc, "discord_send_webhook_message", {"webhookId": hook["id"], "webhookToken": hook["token"],
                                                   "content": "We launch Monday!", "username": "Acme Launches"})
    assert (msg["author_name"], msg["channel_id"]) == ("Acme Launches", news)
    assert code(svc, "discord_send_webhook_message", {"webhookId": hook["id"], "webhookToken": "bad",
                                                      "content": "x"}) == 422
    assert code(svc, "discord_send_webhook_message", {"webhookId": hook["id"], "webhookToken": hook["token"],
                                                      "content": "x", "threadId": "1"}) == 422
    assert code(svc, "discord_send_webhook_message", {"webhookId": "1", "webhookToken": "t", "content": "x"}) == 404
    edited = ok(svc, "discord_edit_webhook", {"webhookId": hook["id"], "name": "Launches",
                                              "channelId": channel(svc, "general")})
    assert (edited["name"], edited["channel_id"]) == ("Launches", channel(svc, "general"))
    assert code(svc, "discord_edit_webhook", {"webhookId": hook["id"], "webhookToken": hook["token"],
                                              "channelId": news}) == 422
    assert code(svc, "discord_edit_webhook", {"webhookId": hook["id"]}) == 400
    assert ok(svc, "discord_delete_webhook", {"webhookId": hook["id"], "webhookToken": hook["token"]})["deleted"] == \
        hook["id"]
    assert code(svc, "discord_delete_webhook", {"webhookId": hook["id"]}) == 404


def test_forum_webhook_needs_a_post(svc):
    forum = channel(svc, "help-desk")
    hook = ok(svc, "discord_create_webhook", {"channelId": forum, "name": "Order Status"})
    base = {"webhookId": hook["id"], "webhookToken": hook["token"], "content": "Your order shipped."}
    assert code(svc, "discord_send_webhook_message", base) == 422
    other = post(svc, "Darker colour for the felt desk mat")["id"]
    assert code(svc, "discord_send_webhook_message", {**base, "threadId": other}) == 422  # another forum
    webcam = post(svc, "Where is my webcam?")["id"]
    assert ok(svc, "discord_send_webhook_message", {**base, "threadId": webcam})["channel_id"] == webcam
    refund = post(svc, "Refund for returned keyboard")["id"]
    assert code(svc, "discord_send_webhook_message", {**base, "threadId": refund}) == 409  # locked


def test_webhook_limit(svc):
    chat = channel(svc, "support-chat")
    for n in range(14):  # one seeded already
        ok(svc, "discord_create_webhook", {"channelId": chat, "name": f"Hook {n}"})
    assert "15 webhooks" in error(svc, "discord_create_webhook", {"channelId": chat, "name": "One more"})["message"]


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("discord_add_multiple_reactions", {"channelId": channel(svc, "general"), "messageId": "1",
                                                       "emojis": ["✅"]})["success"] is False
    assert svc.call("discord_create_text_channel", {"guildId": guild(svc), "channelName": "general"})["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(Discord, seed=3).state_dict() == make_service(Discord, seed=3).state_dict()
