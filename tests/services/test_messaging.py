"""Tests of the messaging service (WhatsApp MCP interface)."""

from __future__ import annotations

import json

import pytest
from _svc_asserts import data, failed

from compoworld_gym.envs.services.messaging import MY_NUMBER, Messaging
from compoworld_gym.specs import SPECS_PATH


@pytest.fixture
def wa(make_service):
    return make_service(Messaging)


def test_interface_matches_spec():
    servers = map(json.loads, SPECS_PATH.read_text().splitlines())
    spec = next(s for s in servers if s["slug"] == Messaging.spec_source)
    assert len(Messaging.tools) == len(spec["tools"]) == 12
    for t in spec["tools"]:
        mine = Messaging.tools[t["name"]].input_schema
        assert set(mine["properties"]) == set(t["inputSchema"]["properties"]), t["name"]
        assert set(mine.get("required", [])) == set(t["inputSchema"].get("required", [])), t["name"]


def test_contacts_and_chats(wa):
    c = next(iter(wa.state.contacts.values()))
    found = data(wa.call("search_contacts", {"query": c.name.split()[0].lower()}))
    assert c.jid in [x["jid"] for x in found]
    assert data(wa.call("search_contacts", {"query": "+" + c.phone_number}))[0]["jid"] == c.jid
    chats = data(wa.call("list_chats", {"limit": 50}))
    assert len(chats) == 10
    times = [x["last_message_time"] or "" for x in chats]
    assert times == sorted(times, reverse=True)
    by_name = data(wa.call("list_chats", {"sort_by": "name", "include_last_message": False, "limit": 50}))
    assert [x["name"].lower() for x in by_name] == sorted(x["name"].lower() for x in by_name)
    assert "last_message" not in by_name[0]
    assert [x["name"] for x in data(wa.call("list_chats", {"query": "hikers"}))] == ["Weekend Hikers"]
    group = data(wa.call("get_chat", {"chat_jid": "120363040000000001@g.us"}))
    assert group["is_group"] and len(group["participants"]) == 4
    failed(wa.call("get_chat", {"chat_jid": "999@g.us"}), 404)
    direct = data(wa.call("get_direct_chat_by_contact", {"sender_phone_number": c.phone_number}))
    assert direct["jid"] == c.jid
    failed(wa.call("get_direct_chat_by_contact", {"sender_phone_number": "15550000000"}), 404)
    member = group["participants"][0]
    assert "120363040000000001@g.us" in [x["jid"] for x in data(wa.call("get_contact_chats", {"jid": member}))]


def test_messages_filters_and_context(wa):
    msgs = list(wa.state.messages.values())
    assert all(m.timestamp.date().isoformat() < "2026-01-15" for m in msgs)
    page0 = data(wa.call("list_messages", {"include_context": False, "limit": 5}))
    assert [m["id"] for m in page0] == [m.id for m in sorted(msgs, key=lambda m: (m.timestamp, m.id), reverse=True)[:5]]
    page1 = data(wa.call("list_messages", {"include_context": False, "limit": 5, "page": 1}))
    assert not {m["id"] for m in page0} & {m["id"] for m in page1}
    mine = data(wa.call("list_messages", {"sender_phone_number": "+" + MY_NUMBER, "include_context": False, "limit": 200}))
    assert mine and all(m["is_from_me"] for m in mine)
    hit = data(wa.call("list_messages", {"query": "PHOTO", "limit": 1, "context_before": 1, "context_after": 0}))[0]
    assert "photo" in hit["message"]["content"].lower() and hit["after"] == []
    chat = [m for m in msgs if m.chat_jid == hit["message"]["chat_jid"]]
    idx = [m.id for m in chat].index(hit["message"]["id"])
    assert [m["id"] for m in hit["before"]] == [m.id for m in chat[max(0, idx - 1):idx]]
    mid = chat[len(chat) // 2]
    ctx = data(wa.call("get_message_context", {"message_id": mid.id, "before": 2, "after": 2}))
    assert ctx["message"]["id"] == mid.id and len(ctx["before"]) <= 2 and len(ctx["after"]) <= 2
    late = data(wa.call("list_messages", {"after": "2026-01-14T00:00:00", "include_context": False}))
    assert all(m["timestamp"] > "2026-01-14" for m in late)
    failed(wa.call("get_message_context", {"message_id": "MSG-999999"}), 404)
    member = next(m.sender for m in msgs if m.chat_jid.endswith("@g.us") and not m.is_from_me)
    expect = [m.id for m in msgs if m.sender == member or m.chat_jid == member][-1]
    assert data(wa.call("get_last_interaction", {"jid": member}))["id"] == expect
    failed(wa.call("get_last_interaction", {"jid": "10000000000@s.whatsapp.net"}), 404)


def test_send_message_to_contact_group_and_new_number(wa):
    c = next(iter(wa.state.contacts.values()))
    out = data(wa.call("send_message", {"recipient": "+" + c.phone_number, "message": "See you at 6"}))
    assert out["chat_jid"] == c.jid and out["timestamp"] == "2026-01-15T09:00:00"
    assert data(wa.call("get_chat", {"chat_jid": c.jid}))["last_message"]["content"] == "See you at 6"
    g = data(wa.call("send_message", {"recipient": "120363040000000002@g.us", "message": "Standup moved"}))
    assert g["message"].startswith("Message sent to Project Falcon")
    new = data(wa.call("send_message", {"recipient": "44 7700 900123", "message": "Hello"}))
    assert new["chat_jid"] == "447700900123@s.whatsapp.net"
    assert data(wa.call("get_direct_chat_by_contact", {"sender_phone_number": "447700900123"}))["name"] == "447700900123"
    before = wa.state_dict()
    failed(wa.call("send_message", {"recipient": "123", "message": "x"}), 400)
    failed(wa.call("send_message", {"recipient": "555@g.us", "message": "x"}), 404)
    failed(wa.call("send_message", {"recipient": c.phone_number, "message": ""}), 400)
    assert wa.state_dict() == before


def test_files_audio_and_download(wa):
    c = next(iter(wa.state.contacts.values()))
    f = data(wa.call("send_file", {"recipient": c.phone_number, "media_path": "/home/me/docs/quote.pdf"}))
    m = wa.state.messages[f["message_id"]]
    assert (m.media_type, m.filename, m.content) == ("document", "/home/me/docs/quote.pdf", "quote.pdf")
    a = data(wa.call("send_audio_message", {"recipient": c.phone_number, "media_path": "/tmp/note.mp3"}))
    assert wa.state.messages[a["message_id"]].filename == "/tmp/note.ogg"
    failed(wa.call("send_audio_message", {"recipient": c.phone_number, "media_path": "/tmp/pic.jpg"}), 400)
    failed(wa.call("send_file", {"recipient": c.phone_number, "media_path": "relative/pic.jpg"}), 400)
    d = data(wa.call("download_media", {"message_id": f["message_id"], "chat_jid": c.jid}))
    assert d["file_path"] == f"/store/{c.phone_number}/{f['message_id']}-quote.pdf"
    text = next(x for x in wa.state.messages.values() if x.media_type is None)
    failed(wa.call("download_media", {"message_id": text.id, "chat_jid": text.chat_jid}), 422)
    failed(wa.call("download_media", {"message_id": f["message_id"], "chat_jid": "x@g.us"}), 404)
