"""Tests of the whatsapp service (WaPulse WhatsApp API)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._commerce import CUSTOMERS
from compoworld_gym.envs.services._whatsapp_seed import customer_phone
from compoworld_gym.envs.services.whatsapp import Whatsapp

OLIVIA, EMMA = "15035551001", "15125551003"
SUPPORT, DISPATCH, CARRIER_GROUP, BETA = (f"1203630200000000{k:02d}" for k in (1, 2, 4, 5))
LUIS, MARCUS, DANIEL = "15035552010", "15035552002", "15035552006"


@pytest.fixture
def svc(make_service):
    return make_service(Whatsapp)


def test_customer_chats_follow_the_roster(svc):
    assert customer_phone(CUSTOMERS[0]) == OLIVIA
    chat = ok(svc, "load_chat_messages", {"id": "+1 (503) 555-1001", "type": "user"})
    assert (chat["id"], chat["name"], chat["count"]) == ("15035551001@c.us", "Olivia Martinez", 2)
    assert chat["last_message"]["body"] == "Why was ORD-0010 cancelled? I did not cancel it."
    emma = ok(svc, "load_chat_messages", {"id": "15125551003@c.us", "type": "user"})
    assert emma["last_message"]["body"] == "Hi Emma, order ORD-0004 shipped with UPS, tracking number 1ZCW84100004."
    first = emma["messages"][0]["id"]
    assert ok(svc, "load_chat_messages", {"id": EMMA, "type": "user", "until": first})["count"] == 1
    assert ok(svc, "load_chat_messages", {"id": EMMA, "type": "user", "until": "2020-01-01T00:00"})["count"] == 0
    assert code(svc, "load_chat_messages", {"id": EMMA, "type": "user", "until": "yesterday"}) == 400
    assert code(svc, "load_chat_messages", {"id": "15035559999", "type": "user"}) == 404
    assert code(svc, "load_chat_messages", {"id": SUPPORT + "@g.us", "type": "user"}) == 404
    group = ok(svc, "load_chat_messages", {"id": SUPPORT, "type": "group"})
    assert group["name"] == "Support Escalations" and group["messages"][0]["sender"] == LUIS


def test_get_all_chats_newest_first(svc):
    chats = ok(svc, "get_all_chats")
    assert chats["count"] == 15
    times = [c["last_message_at"] for c in chats["chats"] if c["last_message_at"]]
    assert times == sorted(times, reverse=True)
    assert {c["type"] for c in chats["chats"]} == {"user", "group"}


def test_send_message_to_customer_and_group(svc):
    res = ok(svc, "send_whatsapp_message", {"to": OLIVIA, "message": "Hi Olivia, ORD-0010 was cancelled by mistake."})
    msg = res["message"]
    assert (res["chat_id"], msg["id"], msg["from_me"], msg["sender"]) == (
        "15035551001@c.us", "WAM-000024", True, "15035550100")
    assert svc.state.chats["15035551001@c.us"].unread_count == 0
    new = ok(svc, "send_whatsapp_message", {"to": "14155550123", "message": "Hello"})
    assert svc.state.chats[new["chat_id"]].name == "14155550123"
    grp = ok(svc, "send_whatsapp_message", {"to": SUPPORT, "message": "TCK-0042 needs a callback", "type": "group"})
    assert grp["chat_id"] == SUPPORT + "@g.us" and grp["message"]["chat_type"] == "group"
    assert code(svc, "send_whatsapp_message", {"to": "+1-503-555-1001", "message": "x"}) == 400  # pattern
    assert code(svc, "send_whatsapp_message", {"to": "05035551001", "message": "x"}) == 400
    assert code(svc, "send_whatsapp_message", {"to": "15035550199", "message": "x"}) == 422  # landline
    assert code(svc, "send_whatsapp_message", {"to": "120363999999999999", "message": "x", "type": "group"}) == 404
    assert code(svc, "send_whatsapp_message", {"to": OLIVIA, "message": ""}) == 400


def test_send_files_and_audio(svc):
    res = ok(svc, "send_whatsapp_files", {"to": EMMA, "files": [
        {"file": "https://files.example/label.pdf", "filename": "label.pdf", "caption": "Return label"},
        {"file": "https://files.example/box.jpg", "filename": "box.jpg"}]})
    assert [(m["kind"], m["body"], m["filename"]) for m in res["messages"]] == [
        ("document", "Return label", "label.pdf"), ("image", "", "box.jpg")]
    assert ok(svc, "send_whatsapp_files", {"to": BETA, "files": [
        {"file": "data:x", "filename": "guide.pdf"}]})["chat_id"] == BETA + "@g.us"
    assert code(svc, "send_whatsapp_files", {"to": EMMA, "files": [{"file": "u", "filename": "noext"}]}) == 400
    assert code(svc, "send_whatsapp_files", {"to": EMMA, "files": [{"filename": "a.pdf"}]}) == 400
    assert code(svc, "send_whatsapp_files", {"to": EMMA, "files": []}) == 400
    voice = ok(svc, "send_whatsapp_audio", {"to": EMMA, "audio": {"file": "u", "filename": "note.ogg",
                                                                  "isVoiceNote": True}})
    assert voice["message"]["kind"] == "voice"
    assert ok(svc, "send_whatsapp_audio", {"to": EMMA, "audio": {"file": "u", "filename": "a.mp3"}})[
        "message"]["kind"] == "audio"
    assert code(svc, "send_whatsapp_audio", {"to": EMMA, "audio": {"file": "u", "filename": "a.pdf"}}) == 422
    assert code(svc, "send_whatsapp_audio", {"to": EMMA, "audio": {"filename": "a.mp3"}}) == 400


def test_directory_checks(svc):
    assert ok(svc, "validate_phone_number", {"phoneNumber": "+1 (503) 555-1001"}) == {
        "valid": True, "input": "+1 (503) 555-1001", "formatted": OLIVIA, "reason": None}
    bad = ok(svc, "validate_phone_number", {"phoneNumber": "0503 555"})
    assert bad["valid"] is False and bad["formatted"] is None
    assert ok(svc, "check_id_exists", {"value": OLIVIA, "type": "user"}) == {
        "exists": True, "id": "15035551001@c.us", "name": "Olivia Martinez"}
    assert ok(svc, "check_id_exists", {"value": "15035550199", "type": "user"})["exists"] is False
    assert ok(svc, "check_id_exists", {"value": "12", "type": "user"})["exists"] is False
    assert ok(svc, "check_id_exists", {"value": SUPPORT, "type": "group"})["name"] == "Support Escalations"
    assert ok(svc, "check_id_exists", {"value": "1203639", "type": "group"})["exists"] is False


def test_groups_list_and_create(svc):
    groups = ok(svc, "get_all_groups", {"id": "wp-inst-7c41"})
    assert groups["count"] == 5
    carrier = next(g for g in groups["groups"] if g["id"] == CARRIER_GROUP + "@g.us")
    assert carrier["i_am_admin"] is False and carrier["owner"] == "13125557700"
    assert code(svc, "get_all_groups", {"id": "other"}) == 404
    made = ok(svc, "create_whatsapp_group", {"name": "Returns Desk", "participants": [LUIS, MARCUS]})
    assert (made["id"], made["admins"], made["participants"]) == (
        "120363020000000006@g.us", ["15035550100"], ["15035550100", LUIS, MARCUS])
    assert "120363020000000006@g.us" in svc.state.chats
    assert code(svc, "create_whatsapp_group", {"name": "x", "participants": [LUIS, LUIS]}) == 400
    assert code(svc, "create_whatsapp_group", {"name": "x", "participants": ["15035550199"]}) == 422
    assert code(svc, "create_whatsapp_group", {"name": "x", "participants": ["15035550100"]}) == 400
    assert code(svc, "create_whatsapp_group", {"name": "", "participants": [LUIS]}) == 400


def test_participants_admin_rules(svc):
    added = ok(svc, "add_group_participants", {"id": SUPPORT, "participants": [MARCUS]})
    assert added == {"group": SUPPORT + "@g.us", "added": [MARCUS], "size": 6}
    assert svc.state.groups[SUPPORT + "@g.us"].requests == []  # Marcus's request is dropped
    assert code(svc, "add_group_participants", {"id": SUPPORT, "participants": [MARCUS]}) == 409
    assert code(svc, "add_group_participants", {"id": CARRIER_GROUP, "participants": [MARCUS]}) == 409  # not admin
    assert code(svc, "add_group_participants", {"id": "120363000", "participants": [MARCUS]}) == 404
    assert ok(svc, "promote_group_participants", {"id": SUPPORT, "participants": [MARCUS]})["admins"][-1] == MARCUS
    assert code(svc, "promote_group_participants", {"id": SUPPORT, "participants": [MARCUS]}) == 409
    assert code(svc, "promote_group_participants", {"id": SUPPORT, "participants": ["14155550123"]}) == 404
    assert ok(svc, "demote_group_participants", {"id": SUPPORT, "participants": [MARCUS]})["admins"] == [
        "15035550100", LUIS]
    assert code(svc, "demote_group_participants", {"id": SUPPORT, "participants": [MARCUS]}) == 409
    assert code(svc, "demote_group_participants", {"id": DISPATCH, "participants": [DANIEL]}) == 409  # creator
    assert code(svc, "demote_group_participants", {"id": BETA, "participants": ["15035550100"]}) == 409  # last
    assert ok(svc, "remove_group_participants", {"id": SUPPORT, "participants": [LUIS]})["removed"] == [LUIS]
    assert LUIS not in svc.state.groups[SUPPORT + "@g.us"].admins
    assert code(svc, "remove_group_participants", {"id": SUPPORT, "participants": [LUIS]}) == 404
    assert code(svc, "remove_group_participants", {"id": DISPATCH, "participants": [DANIEL]}) == 409
    assert code(svc, "remove_group_participants", {"id": SUPPORT, "participants": ["15035550100"]}) == 400


def test_invite_codes_and_requests(svc):
    link = ok(svc, "get_group_invite_link", {"id": BETA + "@g.us"})
    new = ok(svc, "change_group_invite_code", {"id": BETA})
    assert new["revoked_link"] == link["invite_link"] and new["invite_code"] != link["invite_code"]
    assert ok(svc, "get_group_invite_link", {"id": BETA})["invite_link"] == new["invite_link"]
    assert svc.state.groups[BETA + "@g.us"].revoked_invite_codes == [link["invite_code"]]
    assert code(svc, "get_group_invite_link", {"id": CARRIER_GROUP}) == 409
    ava, lucas = "16195551005", "13125551008"
    reqs = ok(svc, "get_group_requests", {"id": BETA, "numbers": [ava, EMMA]})
    assert [r["number"] for r in reqs["requests"]] == [ava] and reqs["no_request"] == [EMMA]
    assert reqs["pending_total"] == 2
    assert ok(svc, "approve_group_request", {"id": BETA, "numbers": [ava]})["approved"] == [ava]
    assert ava in svc.state.groups[BETA + "@g.us"].participants
    assert code(svc, "approve_group_request", {"id": BETA, "numbers": [ava]}) == 404
    assert ok(svc, "reject_group_request", {"id": BETA, "numbers": [lucas]}) == {
        "group": BETA + "@g.us", "rejected": [lucas], "pending_total": 0}
    assert lucas not in svc.state.groups[BETA + "@g.us"].participants
    assert code(svc, "reject_group_request", {"id": BETA, "numbers": [lucas]}) == 404
    assert code(svc, "get_group_requests", {"id": CARRIER_GROUP, "numbers": [ava]}) == 409


def test_leave_group(svc):
    msg = error(svc, "leave_whatsapp_group", {"id": BETA})
    assert msg["code"] == 409 and "only admin" in msg["message"]
    assert ok(svc, "leave_whatsapp_group", {"id": CARRIER_GROUP}) == {
        "group": CARRIER_GROUP + "@g.us", "left": True, "remaining": 4}
    assert code(svc, "leave_whatsapp_group", {"id": CARRIER_GROUP}) == 409
    assert code(svc, "send_whatsapp_message", {"to": CARRIER_GROUP, "message": "x", "type": "group"}) == 409
    assert ok(svc, "get_all_groups", {"id": "wp-inst-7c41"})["count"] == 4
    assert ok(svc, "check_id_exists", {"value": CARRIER_GROUP, "type": "group"})["member"] is False


def test_failed_call_rolls_back(svc):
    before = svc.state_dict()
    res = svc.call("add_group_participants", {"id": SUPPORT, "participants": [MARCUS, "15035550199"]})
    assert not res["success"] and res["error"]["code"] == 422
    assert svc.state_dict() == before
