"""Tests of the marketing (Mailchimp-style) service."""

from __future__ import annotations

import pytest
from _svc_asserts import data, failed

from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services.marketing import Marketing

ME = "jamal.wright@company.example"


@pytest.fixture
def svc(make_service):
    return make_service(Marketing, seed=0)


def _email(svc, list_id, status):
    return next(m.email for m in svc.state.members.values() if m.list_id == list_id and m.status == status)


def test_seed(make_service):
    a = make_service(Marketing, seed=7)
    assert a.state_dict() == make_service(Marketing, seed=7).state_dict()
    b2b = {m.email for m in a.state.members.values() if m.list_id == "LST-0002"}
    assert b2b == {acc.contact_email for acc in ACCOUNTS}
    assert a.state.members[f"LST-0002:{ACCOUNTS[2].contact_email}"].status == "unsubscribed"
    for c in a.state.campaigns.values():
        if c.status == "sent":
            assert c.report.emails_sent == len(c.sent_to)
    assert len(Marketing.tools) == 14


def test_audiences_and_members(svc):
    lists = data(svc.call("list_audiences", {}))
    assert [x["name"] for x in lists] == ["Acme Store Newsletter", "Business Customers", "Product Beta Program"]
    assert sum(lists[1]["member_counts"].values()) == len(ACCOUNTS)
    unsub = data(svc.call("list_members", {"list_id": "LST-0002", "status": "unsubscribed"}))
    assert ACCOUNTS[2].contact_email in {m["email"] for m in unsub}
    assert len(unsub) == lists[1]["member_counts"]["unsubscribed"]
    failed(svc.call("list_members", {"list_id": "LST-0999"}), 404)
    m = data(svc.call("get_member", {"list_id": "LST-0002", "email": ACCOUNTS[2].contact_email.upper()}))
    assert m["status"] == "unsubscribed" and m["full_name"] == ACCOUNTS[2].contact_name
    failed(svc.call("get_member", {"list_id": "LST-0002", "email": "nobody@nowhere.io"}), 404)


def test_add_update_unsubscribe(svc):
    new = data(svc.call("add_member", {"list_id": "LST-0001", "email": "new.buyer@gmail.com",
                                     "full_name": "New Buyer", "tags": ["vip", "vip"]}))
    assert (new["status"], new["tags"], new["opted_in_on"]) == ("subscribed", ["vip"], "2026-01-15")
    failed(svc.call("add_member", {"list_id": "LST-0001", "email": "NEW.buyer@gmail.com", "full_name": "x"}), 409)
    gone = _email(svc, "LST-0001", "unsubscribed")
    assert "only they can re-subscribe" in failed(svc.call("add_member", {"list_id": "LST-0001", "email": gone,
                                                                       "full_name": "x"}), 409)
    tagged = data(svc.call("update_member_tags", {"list_id": "LST-0001", "email": "new.buyer@gmail.com",
                                                "add_tags": ["furniture"], "remove_tags": ["vip"]}))
    assert tagged["tags"] == ["furniture"]
    failed(svc.call("update_member_tags", {"list_id": "LST-0001", "email": "new.buyer@gmail.com"}), 400)
    out = data(svc.call("unsubscribe_member", {"list_id": "LST-0001", "email": "new.buyer@gmail.com"}))
    assert (out["status"], out["unsubscribed_on"]) == ("unsubscribed", "2026-01-15")
    failed(svc.call("unsubscribe_member", {"list_id": "LST-0001", "email": "new.buyer@gmail.com"}), 409)
    failed(svc.call("add_member", {"list_id": "LST-0001", "email": "not-an-email", "full_name": "x"}), 400)


def test_campaign_reads(svc):
    sent = data(svc.call("list_campaigns", {"status": "sent"}))
    assert [c["id"] for c in sent] == ["CMP-0001", "CMP-0002"] and "sent_to" not in sent[0]
    full = data(svc.call("get_campaign", {"campaign_id": "CMP-0001"}))
    rep = data(svc.call("get_campaign_report", {"campaign_id": "CMP-0001"}))
    assert rep["emails_sent"] == len(full["sent_to"])
    assert rep["open_rate"] == round(rep["opens"] / rep["emails_sent"], 4)
    failed(svc.call("get_campaign_report", {"campaign_id": "CMP-0004"}), 409)
    failed(svc.call("get_campaign", {"campaign_id": "CMP-0999"}), 404)


def test_never_email_unsubscribed(svc):
    blocked = ACCOUNTS[2].contact_email
    before = svc.state_dict()
    msg = failed(svc.call("send_campaign", {"campaign_id": "CMP-0004"}), 409)
    assert blocked in msg
    assert svc.state_dict() == before  # nothing sent, nothing changed
    failed(svc.call("schedule_campaign", {"campaign_id": "CMP-0004", "schedule_time": "2026-01-20T10:00:00"}), 409)
    failed(svc.call("create_campaign", {"list_id": "LST-0002", "title": "t", "subject_line": "s", "from_name": "Acme",
                                     "reply_to": ME, "created_by": ME, "recipient_emails": [blocked]}), 409)
    failed(svc.call("create_campaign", {"list_id": "LST-0002", "title": "t", "subject_line": "s", "from_name": "Acme",
                                     "reply_to": ME, "created_by": ME, "recipient_emails": ["x@stranger.io"]}), 422)
    keep = [e for e in svc.state.campaigns["CMP-0004"].recipient_emails
            if svc.state.members[f"LST-0002:{e}"].status == "subscribed"]
    data(svc.call("update_campaign", {"campaign_id": "CMP-0004", "recipient_emails": keep}))
    sent = data(svc.call("send_campaign", {"campaign_id": "CMP-0004"}))
    assert sent["status"] == "sent" and sent["sent_to"] == keep and blocked not in sent["sent_to"]
    failed(svc.call("send_campaign", {"campaign_id": "CMP-0004"}), 409)


def test_create_schedule_send_to_list(svc):
    c = data(svc.call("create_campaign", {"list_id": "LST-0001", "title": "Spring", "subject_line": "New desks",
                                        "from_name": "Acme", "reply_to": ME, "created_by": ME}))
    assert (c["id"], c["status"]) == ("CMP-0006", "save")
    failed(svc.call("create_campaign", {"list_id": "LST-0001", "title": "t", "subject_line": "s", "from_name": "A",
                                     "reply_to": ME, "created_by": ME, "segment_tag": "vip",
                                     "recipient_emails": ["olivia.martinez@gmail.com"]}), 400)
    data(svc.call("update_campaign", {"campaign_id": "CMP-0006", "subject_line": "New desks are here"}))
    failed(svc.call("update_campaign", {"campaign_id": "CMP-0006"}), 400)
    failed(svc.call("schedule_campaign", {"campaign_id": "CMP-0006", "schedule_time": "2026-01-01T10:00:00"}), 422)
    sch = data(svc.call("schedule_campaign", {"campaign_id": "CMP-0006", "schedule_time": "2026-01-20T10:00:00"}))
    assert (sch["status"], sch["send_time"]) == ("schedule", "2026-01-20T10:00:00")
    failed(svc.call("update_campaign", {"campaign_id": "CMP-0006", "subject_line": "x"}), 409)
    assert data(svc.call("unschedule_campaign", {"campaign_id": "CMP-0006"}))["status"] == "save"
    failed(svc.call("unschedule_campaign", {"campaign_id": "CMP-0006"}), 409)
    sent = data(svc.call("send_campaign", {"campaign_id": "CMP-0006"}))
    expected = [m.email for m in svc.state.members.values() if m.list_id == "LST-0001" and m.status == "subscribed"]
    assert sent["sent_to"] == expected and sent["report"]["emails_sent"] == len(expected)
    empty = data(svc.call("create_campaign", {"list_id": "LST-0001", "title": "t", "subject_line": "s",
                                            "from_name": "A", "reply_to": ME, "created_by": ME,
                                            "segment_tag": "no-such-tag"}))
    failed(svc.call("send_campaign", {"campaign_id": empty["id"]}), 422)
