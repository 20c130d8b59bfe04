"""Tests of the newsletters service (Mailchimp Marketing API v3 shapes)."""

from __future__ import annotations

import hashlib

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._newsletters_models import engagement, subscriber_hash
from compoworld_gym.envs.services.newsletters import Newsletters

MAIN, BUSINESS, EVENTS = "NLS-0001", "NLS-0002", "NLS-0003"
OLIVIA = "olivia.martinez@gmail.com"


@pytest.fixture
def svc(make_service):
    return make_service(Newsletters)


def test_subscriber_hash_is_md5_of_lowercase_email():
    assert subscriber_hash("Olivia.Martinez@GMAIL.com") == hashlib.md5(OLIVIA.encode()).hexdigest()
    assert subscriber_hash(OLIVIA) == "62b22b4923e18468809df75955c93d19"


def test_lists_and_merge_fields(svc):
    lists = ok(svc, "get_lists")
    assert [(x["id"], x["name"]) for x in lists] == [(MAIN, "Monthly Customer Newsletter"),
                                                      (BUSINESS, "Business Account Updates"),
                                                      (EVENTS, "Events and Webinars")]
    assert lists[0]["stats"] == {"member_count": 7, "unsubscribe_count": 2, "cleaned_count": 1, "pending_count": 2}
    one = ok(svc, "get_list", {"list_id": BUSINESS})
    assert (one["contact"]["company"], one["campaign_defaults"]["from_email"]) == ("Acme Inc.",
                                                                                 "newsletter@company.example")
    fields = ok(svc, "get_list_merge_fields", {"list_id": MAIN})
    assert [(f["tag"], f["required"]) for f in fields] == [("FNAME", True), ("LNAME", False), ("COMPANY", False),
                                                            ("PHONE", False)]
    assert code(svc, "get_list", {"list_id": "NLS-0099"}) == 404


def test_members_by_hash_email_status_and_search(svc):
    m = ok(svc, "get_list_member", {"list_id": MAIN, "subscriber_hash": "62b22b4923e18468809df75955c93d19"})
    assert (m["email_address"], m["status"], m["full_name"], m["tags"]) == (OLIVIA, "subscribed", "Olivia Martinez",
                                                                            ["vip"])
    assert m["notes"][0]["note"].startswith("Asked for fewer emails")
    hank = ok(svc, "get_list_member", {"list_id": BUSINESS, "subscriber_hash": "Hank.Scorpio@globex.example"})
    assert (hank["company"], hank["merge_fields"]["COMPANY"], hank["tags"]) == ("Globex Corporation",
                                                                                "Globex Corporation", ["manufacturing"])
    unsub = ok(svc, "list_members", {"list_id": MAIN, "status": "unsubscribed"})
    assert [x["email_address"] for x in unsub["members"]] == ["emma.wilson@yahoo.com", "james.oconnor@icloud.com"]
    assert ok(svc, "list_members", {"list_id": MAIN, "tag": "vip"})["total_items"] == 2
    page = ok(svc, "list_members", {"list_id": MAIN, "count": 2, "offset": 10})
    assert (page["total_items"], len(page["members"])) == (12, 2)
    found = ok(svc, "search_members", {"query": "emma.wilson@yahoo.com"})
    assert [(x["list_id"], x["status"]) for x in found["exact_matches"]["members"]] == [(MAIN, "unsubscribed"),
                                                                                        (EVENTS, "subscribed")]
    assert [x["email_address"] for x in ok(svc, "search_members", {"query": "vandelay"})["full_search"]["members"]] \
        == ["art.vandelay@vandelay.example"]
    assert code(svc, "get_list_member", {"list_id": MAIN, "subscriber_hash": "nobody@example.com"}) == 404


def test_add_member_rules(svc):
    new = ok(svc, "add_list_member", {"list_id": MAIN, "email_address": "Ann.Lee@example.com", "status": "pending",
                                      "merge_fields": {"fname": "Ann", "LNAME": "Lee"}, "tags": ["vip", "vip"]})
    assert (new["id"], new["status"], new["merge_fields"], new["tags"]) == (
        subscriber_hash("ann.lee@example.com"), "pending", {"FNAME": "Ann", "LNAME": "Lee"}, ["vip"])
    assert code(svc, "add_list_member", {"list_id": MAIN, "email_address": "ann.lee@example.com",
                                         "merge_fields": {"FNAME": "Ann"}}) == 409
    missing = error(svc, "add_list_member", {"list_id": MAIN, "email_address": "bo@example.com",
                                             "merge_fields": {"LNAME": "Bo"}})
    assert missing["code"] == 422 and "FNAME" in missing["message"]
    assert code(svc, "add_list_member", {"list_id": MAIN, "email_address": "bo@example.com",
                                         "merge_fields": {"FNAME": "Bo", "BIRTHDAY": "01/02"}}) == 422
    assert code(svc, "add_list_member", {"list_id": MAIN, "email_address": "bo@example.com", "status": "cleaned",
                                         "merge_fields": {"FNAME": "Bo"}}) == 400


def test_unsubscribe_and_no_direct_resubscribe(svc):
    out = ok(svc, "update_list_member", {"list_id": MAIN, "subscriber_hash": OLIVIA, "status": "unsubscribed",
                                         "unsubscribe_reason": "Ticket TCK-0042"})
    assert (out["status"], out["unsubscribe_reason"], out["last_changed"]) == ("unsubscribed", "Ticket TCK-0042",
                                                                               "2026-01-15T09:00:00")
    assert code(svc, "update_list_member", {"list_id": MAIN, "subscriber_hash": OLIVIA, "status": "unsubscribed"}) == 409
    back = error(svc, "update_list_member", {"list_id": MAIN, "subscriber_hash": OLIVIA, "status": "subscribed"})
    assert back["code"] == 409 and "pending" in back["message"]
    cleaned = error(svc, "update_list_member", {"list_id": MAIN, "subscriber_hash": "ava.nguyen@hotmail.com",
                                                "status": "subscribed"})
    assert cleaned["code"] == 409 and "cleaned" in cleaned["message"]
    assert ok(svc, "update_list_member", {"list_id": MAIN, "subscriber_hash": OLIVIA, "status": "pending"})[
        "status"] == "pending"
    assert ok(svc, "update_list_member", {"list_id": MAIN, "subscriber_hash": "mia.schneider@gmx.de",
                                          "status": "subscribed"})["status"] == "subscribed"
    assert code(svc, "update_list_member", {"list_id": MAIN, "subscriber_hash": OLIVIA}) == 400
    assert code(svc, "update_list_member", {"list_id": MAIN, "subscriber_hash": OLIVIA, "status": "pending",
                                            "unsubscribe_reason": "x"}) == 400
    assert code(svc, "update_list_member", {"list_id": MAIN, "subscriber_hash": OLIVIA,
                                            "merge_fields": {"FNAME": ""}}) == 422


def test_merge_fields_tags_and_notes(svc):
    upd = ok(svc, "update_list_member", {"list_id": MAIN, "subscriber_hash": "liam.patel@gmail.com",
                                         "merge_fields": {"PHONE": "+1-303-555-0199", "COMPANY": "Patel Studio"}})
    assert (upd["phone"], upd["company"], upd["full_name"]) == ("+1-303-555-0199", "Patel Studio", "Liam Patel")
    tagged = ok(svc, "update_list_member_tags", {"list_id": MAIN, "subscriber_hash": "liam.patel@gmail.com",
                                                 "tags": [{"name": "vip", "status": "active"},
                                                          {"name": "electronics", "status": "inactive"}]})
    assert tagged["tags"] == ["vip"]
    assert code(svc, "update_list_member_tags", {"list_id": MAIN, "subscriber_hash": "liam.patel@gmail.com",
                                                 "tags": [{"name": "vip", "status": "on"}]}) == 400
    note = ok(svc, "create_list_member_note", {"list_id": MAIN, "subscriber_hash": "liam.patel@gmail.com",
                                               "note": "Prefers SMS"})
    assert (note["id"], note["note"], note["email_address"]) == (2, "Prefers SMS", "liam.patel@gmail.com")


def test_segments(svc):
    segs = ok(svc, "list_segments", {"list_id": BUSINESS})
    assert [(s["id"], s["type"], s["member_count"]) for s in segs] == [("SEG-0002", "static", 4)]
    members = ok(svc, "get_segment_members", {"list_id": BUSINESS, "segment_id": "SEG-0002"})
    assert [m["email_address"] for m in members][-1] == "art.vandelay@vandelay.example"
    assert code(svc, "get_segment_members", {"list_id": MAIN, "segment_id": "SEG-0002"}) == 404
    static = ok(svc, "create_segment", {"list_id": MAIN, "name": "Portland", "static_segment": [OLIVIA]})
    assert (static["id"], static["type"], static["member_count"]) == ("SEG-0004", "static", 1)
    saved = ok(svc, "create_segment", {"list_id": MAIN, "name": "Furniture fans", "tag": "furniture"})
    assert (saved["type"], saved["member_count"]) == ("saved", 3)
    assert code(svc, "create_segment", {"list_id": MAIN, "name": "x", "static_segment": ["ghost@example.com"]}) == 422
    assert code(svc, "create_segment", {"list_id": MAIN, "name": "x"}) == 400
    assert code(svc, "create_segment", {"list_id": MAIN, "name": "x", "tag": "vip", "static_segment": [OLIVIA]}) == 400


def test_campaign_reads_and_reports(svc):
    assert [c["id"] for c in ok(svc, "list_campaigns", {"status": "sent"})] == ["NCP-0002", "NCP-0001"]
    assert [c["id"] for c in ok(svc, "list_campaigns", {"list_id": EVENTS})] == ["NCP-0003"]
    draft = ok(svc, "get_campaign", {"campaign_id": "NCP-0005"})
    assert draft["send_checklist"] == {"is_ready": False, "items": ["the campaign has no content (set_campaign_content)"]}
    assert draft["recipient_count"] == 2  # the VIP segment: both subscribed
    report = ok(svc, "get_campaign_report", {"campaign_id": "NCP-0002"})
    # The static segment holds Art Vandelay too, but he unsubscribed: three recipients, not four.
    assert (report["emails_sent"], report["unique_opens"], report["unique_clicks"]) == (3, 2, 1)
    assert [r["email_address"] for r in report["recipients"]] == ["hank.scorpio@globex.example",
                                                                 "pepper.potts@starklogistics.example",
                                                                 "rachael.rosen@tyrell.example"]
    assert report["recipients"][0] == {"email_address": "hank.scorpio@globex.example", "opened": True, "clicked": True}
    assert engagement("NCP-0002", "hank.scorpio@globex.example") == (True, True)
    missing = error(svc, "get_campaign_report", {"campaign_id": "NCP-0004"})
    assert missing["code"] == 404 and "not sent" in missing["message"]


def test_create_edit_and_send_skips_unsubscribed(svc):
    c = ok(svc, "create_campaign", {"list_id": MAIN, "title": "Flash sale"})
    assert (c["id"], c["status"], c["settings"]["reply_to"], c["recipient_count"]) == (
        "NCP-0007", "save", "newsletter@company.example", 7)
    not_ready = error(svc, "send_campaign", {"campaign_id": "NCP-0007"})
    assert not_ready["code"] == 422 and "subject line" in not_ready["message"] and "content" in not_ready["message"]
    ok(svc, "update_campaign", {"campaign_id": "NCP-0007", "subject_line": "48 hours only"})
    ok(svc, "set_campaign_content", {"campaign_id": "NCP-0007", "html": "<p>Sale</p>"})
    assert code(svc, "set_campaign_content", {"campaign_id": "NCP-0007"}) == 400
    report = ok(svc, "send_campaign", {"campaign_id": "NCP-0007"})
    sent_to = {r["email_address"] for r in report["recipients"]}
    assert report["emails_sent"] == 7 and not sent_to & {"emma.wilson@yahoo.com", "ava.nguyen@hotmail.com",
                                                         "mia.schneider@gmx.de", "james.oconnor@icloud.com"}
    assert ok(svc, "get_campaign", {"campaign_id": "NCP-0007"})["status"] == "sent"
    edit = error(svc, "update_campaign", {"campaign_id": "NCP-0007", "subject_line": "Oops"})
    assert edit["code"] == 409 and "cannot be edited" in edit["message"]
    assert code(svc, "set_campaign_content", {"campaign_id": "NCP-0001", "html": "<p>x</p>"}) == 409
    assert code(svc, "send_campaign", {"campaign_id": "NCP-0007"}) == 409
    assert code(svc, "create_campaign", {"list_id": MAIN, "title": "x", "segment_id": "SEG-0002"}) == 404


def test_no_send_without_subscribed_recipients(svc):
    seg = ok(svc, "create_segment", {"list_id": MAIN, "name": "Gone", "static_segment": ["emma.wilson@yahoo.com"]})
    c = ok(svc, "create_campaign", {"list_id": MAIN, "title": "Win-back", "subject_line": "We miss you",
                                    "segment_id": seg["id"]})
    ok(svc, "set_campaign_content", {"campaign_id": c["id"], "plain_text": "Come back"})
    msg = error(svc, "send_campaign", {"campaign_id": c["id"]})
    assert msg["code"] == 422 and "no subscribed member" in msg["message"]


def test_schedule_rules(svc):
    off = error(svc, "schedule_campaign", {"campaign_id": "NCP-0004", "schedule_time": "2026-01-20T10:10:00"})
    assert off["code"] == 422 and "quarter hour" in off["message"]
    past = error(svc, "schedule_campaign", {"campaign_id": "NCP-0004", "schedule_time": "2026-01-14T10:15:00"})
    assert past["code"] == 422 and "future" in past["message"]
    assert code(svc, "schedule_campaign", {"campaign_id": "NCP-0006", "schedule_time": "2026-01-20T10:15:00"}) == 422
    done = ok(svc, "schedule_campaign", {"campaign_id": "NCP-0004", "schedule_time": "2026-01-20T10:45:00"})
    assert (done["status"], done["send_time"]) == ("schedule", "2026-01-20T10:45:00")
    assert code(svc, "update_campaign", {"campaign_id": "NCP-0004", "title": "New"}) == 409  # unschedule first
    assert code(svc, "send_campaign", {"campaign_id": "NCP-0004"}) == 409
    assert code(svc, "schedule_campaign", {"campaign_id": "NCP-0001", "schedule_time": "2026-01-20T10:45:00"}) == 409
    back = ok(svc, "unschedule_campaign", {"campaign_id": "NCP-0003"})
    assert (back["status"], back["send_time"]) == ("save", None)
    assert code(svc, "unschedule_campaign", {"campaign_id": "NCP-0003"}) == 409


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("send_campaign", {"campaign_id": "NCP-0005"})["success"] is False
    assert svc.call("update_list_member", {"list_id": MAIN, "subscriber_hash": OLIVIA,
                                           "merge_fields": {"NOPE": "x"}})["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(Newsletters, seed=3).state_dict() == make_service(Newsletters, seed=3).state_dict()
