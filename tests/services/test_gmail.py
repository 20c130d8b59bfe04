"""Tests of the gmail service (@shinzo-labs_gmail-mcp subset)."""

from __future__ import annotations

import pytest
from _svc_asserts import data, failed

from compoworld_gym.envs.services.gmail import Gmail
from compoworld_gym.matching import matches


@pytest.fixture
def gm(make_service):
    return make_service(Gmail)


def ids(items):
    return [x["id"] for x in items]


def test_seed_shape(gm, make_service):
    assert make_service(Gmail).state_dict() == gm.state_dict()
    st = gm.state
    assert st.email_address == "ops@company.example"
    assert len(st.messages) == 14 and len(st.drafts) == 2 and len(st.labels) == 12
    assert st.counters == {"LBL": 5, "MSG": 15, "THR": 13, "DRF": 3}
    assert st.messages["MSG-0008"].sender == "priya.raman@company.example"
    assert st.messages["MSG-0012"].to == ["logistics@company.example"]
    assert make_service(Gmail, seed=1).state.messages["MSG-0002"].sender != st.messages["MSG-0002"].sender


def test_list_messages_queries(gm):
    unread = data(gm.call("list_messages", {"q": "is:unread"}))
    assert ids(unread["messages"]) == ["MSG-0005", "MSG-0004", "MSG-0010", "MSG-0001", "MSG-0007"]
    assert unread["resultSizeEstimate"] == 5 and "body" not in unread["messages"][0]
    assert ids(data(gm.call("list_messages", {"q": "is:unread", "includeSpamTrash": True}))["messages"])[4] == "MSG-0013"
    assert ids(data(gm.call("list_messages", {"q": "in:trash"}))["messages"]) == ["MSG-0014"]
    assert ids(data(gm.call("list_messages", {"q": "from:priya.raman"}))["messages"]) == ["MSG-0008"]
    assert ids(data(gm.call("list_messages", {"q": "label:billing"}))["messages"]) == ["MSG-0001", "MSG-0008"]
    assert ids(data(gm.call("list_messages", {"labelIds": ["LBL-0002"]}))["messages"]) == ["MSG-0010"]
    assert ids(data(gm.call("list_messages", {"q": "in:sent to:logistics"}))["messages"]) == ["MSG-0012"]
    assert ids(data(gm.call("list_messages", {"q": 'subject:"refund request" after:2026/01/10'}))["messages"]) == [
        "MSG-0004", "MSG-0003"]
    assert ids(data(gm.call("list_messages", {"q": "older_than:8d"}))["messages"]) == ["MSG-0009", "MSG-0011"]
    assert ids(data(gm.call("list_messages", {"q": "newer_than:2d is:read"}))["messages"]) == []
    assert ids(data(gm.call("list_messages", {"q": "cc:hannah"}))["messages"]) == ["MSG-0010"]
    assert len(data(gm.call("list_messages", {"maxResults": 2}))["messages"]) == 2
    failed(gm.call("list_messages", {"q": "after:yesterday"}), 400)
    failed(gm.call("list_messages", {"q": "is:snoozed"}), 400)
    failed(gm.call("list_messages", {"labelIds": ["LBL-0404"]}), 404)
    failed(gm.call("list_messages", {"maxResults": 0}), 400)


def test_get_message(gm):
    msg = data(gm.call("get_message", {"id": "MSG-0002"}))
    assert msg["thread_id"] == "THR-0002" and msg["subject"].startswith("Refund request for order #")
    assert "full refund of $340.00" in msg["body"]
    failed(gm.call("get_message", {"id": "MSG-9999"}), 404)


def test_send_message_is_recorded(gm, today):
    sent = data(gm.call("send_message", {"to": ["priya.raman@company.example"], "cc": ["billing@company.example"],
                                        "subject": "INV-1234 escalated", "body": "Escalated to priority high."}))
    assert sent["id"] == "MSG-0015" and sent["thread_id"] == "THR-0013" and sent["label_ids"] == ["SENT"]
    assert sent["sender"] == "ops@company.example" and sent["date"] == f"{today.isoformat()}T09:00:00"
    record = gm.state_dict()["messages"]["MSG-0015"]
    assert matches(record, {"to": {"$contains": "priya.raman@company.example"},
                            "body": {"$contains": "priority high"}, "label_ids": {"$contains": "SENT"}})
    reply = data(gm.call("send_message", {"to": ["x@y.example"], "threadId": "THR-0002", "body": "Approved."}))
    assert reply["thread_id"] == "THR-0002" and reply["subject"] == "Re: Refund request for order #809481"
    assert data(gm.call("get_thread", {"id": "THR-0002"}))["messages"][-1]["id"] == "MSG-0016"


def test_send_message_errors_roll_back(gm):
    before = gm.state_dict()
    failed(gm.call("send_message", {"to": [], "subject": "s"}), 400)
    failed(gm.call("send_message", {"to": ["not-an-email"], "subject": "s"}), 400)
    assert "subject is required" in failed(gm.call("send_message", {"to": ["a@b.example"], "body": "x"}), 400)
    failed(gm.call("send_message", {"to": ["a@b.example"], "threadId": "THR-0404"}), 404)
    failed(gm.call("send_message", {"to": ["a@b.example"], "subject": "s", "raw": "abc"}), 400)
    assert gm.state_dict() == before


def test_modify_and_batch_modify(gm):
    m = data(gm.call("modify_message", {"id": "MSG-0001", "removeLabelIds": ["UNREAD"], "addLabelIds": ["STARRED"]}))
    assert m["label_ids"] == ["INBOX", "IMPORTANT", "LBL-0001", "STARRED"]
    done = data(gm.call("batch_modify_messages", {"ids": ["MSG-0004", "MSG-0005"], "addLabelIds": ["LBL-0004"],
                                                "removeLabelIds": ["UNREAD"]}))
    assert done == {"modified": ["MSG-0004", "MSG-0005"]}
    assert gm.state.messages["MSG-0005"].label_ids == ["INBOX", "LBL-0004"]
    before = gm.state_dict()
    failed(gm.call("batch_modify_messages", {"ids": ["MSG-0006", "MSG-0404"], "addLabelIds": ["STARRED"]}), 404)
    failed(gm.call("modify_message", {"id": "MSG-0006", "addLabelIds": ["LBL-0404"]}), 404)
    failed(gm.call("modify_message", {"id": "MSG-0006", "addLabelIds": ["SENT"]}), 400)
    failed(gm.call("modify_message", {"id": "MSG-0006"}), 400)
    failed(gm.call("modify_message", {"id": "MSG-0006", "addLabelIds": ["STARRED"], "removeLabelIds": ["STARRED"]}), 400)
    assert gm.state_dict() == before


def test_trash_message(gm):
    assert data(gm.call("trash_message", {"id": "MSG-0011"}))["label_ids"] == ["LBL-0003", "TRASH"]
    assert "MSG-0011" not in ids(data(gm.call("list_messages", {}))["messages"])
    before = gm.state_dict()
    failed(gm.call("trash_message", {"id": "MSG-0011"}), 409)
    assert gm.state_dict() == before


def test_threads(gm):
    thread = data(gm.call("get_thread", {"id": "THR-0002"}))
    assert ids(thread["messages"]) == ["MSG-0002", "MSG-0003", "MSG-0004"]
    listed = data(gm.call("list_threads", {"q": "refund"}))
    assert [(t["id"], t["messageCount"]) for t in listed["threads"]] == [("THR-0002", 3), ("THR-0007", 1)]
    assert listed["threads"][0]["subject"] == "Refund request for order #809481"
    assert data(gm.call("list_threads", {"maxResults": 3}))["resultSizeEstimate"] == 10
    failed(gm.call("get_thread", {"id": "THR-0404"}), 404)


def test_drafts(gm):
    listed = data(gm.call("list_drafts", {}))
    assert ids(listed["drafts"]) == ["DRF-0001", "DRF-0002"]
    assert ids(data(gm.call("list_drafts", {"q": "subject:notes"}))["drafts"]) == ["DRF-0002"]
    d = data(gm.call("create_draft", {"to": ["elena.petrova@company.example"], "subject": "Refund approval",
                                     "body": "Please approve $620 for order #1."}))
    assert d["id"] == "DRF-0003" and gm.state.drafts["DRF-0003"].to == ["elena.petrova@company.example"]
    assert data(gm.call("get_draft", {"id": "DRF-0003"}))["body"] == "Please approve $620 for order #1."
    sent = data(gm.call("send_draft", {"id": "DRF-0001"}))
    assert sent["thread_id"] == "THR-0002" and sent["label_ids"] == ["SENT"] and "DRF-0001" not in gm.state.drafts
    assert sent["to"] == [gm.state.messages["MSG-0002"].sender]
    assert data(gm.call("delete_draft", {"id": "DRF-0003"})) == {"deleted": "DRF-0003"}
    before = gm.state_dict()
    assert "no recipients" in failed(gm.call("send_draft", {"id": "DRF-0002"}), 422)
    failed(gm.call("get_draft", {"id": "DRF-0003"}), 404)
    failed(gm.call("delete_draft", {"id": "DRF-0003"}), 404)
    failed(gm.call("create_draft", {"threadId": "THR-0404"}), 404)
    assert gm.state_dict() == before


def test_labels(gm):
    labels = data(gm.call("list_labels", {}))["labels"]
    assert [lb["id"] for lb in labels][-4:] == ["LBL-0001", "LBL-0002", "LBL-0003", "LBL-0004"]
    billing = data(gm.call("get_label", {"id": "LBL-0001"}))
    assert billing["name"] == "Billing" and billing["messagesTotal"] == 2 and billing["messagesUnread"] == 1
    new = data(gm.call("create_label", {"name": "Refunds", "color": {"textColor": "#000000",
                                                                   "backgroundColor": "#ffffff"}}))
    assert new["id"] == "LBL-0005" and new["type"] == "user" and new["color"]["backgroundColor"] == "#ffffff"
    before = gm.state_dict()
    failed(gm.call("create_label", {"name": "billing"}), 409)
    failed(gm.call("create_label", {"name": "X", "color": {"textColor": "red", "backgroundColor": "#ffffff"}}), 400)
    failed(gm.call("get_label", {"id": "LBL-0404"}), 404)
    assert gm.state_dict() == before


def test_get_profile(gm):
    assert data(gm.call("get_profile", {})) == {"emailAddress": "ops@company.example", "messagesTotal": 14,
                                              "threadsTotal": 12}


@pytest.mark.parametrize("tool, key", [("list_messages", "messages"), ("list_threads", "threads"),
                                       ("list_drafts", "drafts")])
def test_ages_reaching_past_year_one_match_everything_or_nothing(gm, tool, key):
    everything = data(gm.call(tool, {}))[key]
    assert everything and data(gm.call(tool, {"q": "newer_than:999999y"}))[key] == everything
    assert data(gm.call(tool, {"q": "older_than:999999y"}))[key] == []
    for age in ("99999999d", "9" * 5000 + "d"):  # over 6 digits (int() refuses 4300+ digits)
        assert "bad age" in failed(gm.call(tool, {"q": f"newer_than:{age}"}), 400)


@pytest.mark.parametrize("tool", ["list_messages", "list_threads"])
def test_label_filters_are_tagged_label_ids(tool):
    # Fuzzed label filters drew free strings instead of the mailbox's label ids.
    assert Gmail.tools[tool].input_schema["properties"]["labelIds"]["anyOf"][0]["items"]["x-entity"] == "label_id"
