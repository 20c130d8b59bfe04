"""Tests of the customer_feedback service."""

from __future__ import annotations

import pytest
from _svc_asserts import data, failed

from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services.customer_feedback import CustomerFeedback

OWNER = "hannah.kovacs@company.example"


@pytest.fixture
def svc(make_service):
    return make_service(CustomerFeedback, seed=0)


def test_seed(make_service):
    a = make_service(CustomerFeedback, seed=4)
    assert a.state_dict() == make_service(CustomerFeedback, seed=4).state_dict()
    for r in a.state.responses.values():
        low = r.score <= 6 if a.state.surveys[r.survey_id].kind == "nps" else r.score <= 2
        assert (r.follow_up_status != "none") == low
    assert {r.customer_email for r in a.state.responses.values() if r.survey_id == "SRV-0003"} == {
        acc.contact_email for acc in ACCOUNTS[:7]}
    assert len(CustomerFeedback.tools) == 12


def test_surveys_and_results(svc):
    surveys = data(svc.call("list_surveys", {}))
    assert [(s["id"], s["kind"], s["responses"]) for s in surveys] == [
        ("SRV-0001", "nps", 7), ("SRV-0002", "csat", 6), ("SRV-0003", "nps", 7)]
    nps = data(svc.call("get_survey_results", {"survey_id": "SRV-0001"}))
    scores = [r.score for r in svc.state.responses.values() if r.survey_id == "SRV-0001"]
    pro, det = sum(s >= 9 for s in scores), sum(s <= 6 for s in scores)
    assert (nps["promoters"], nps["detractors"], nps["nps"]) == (pro, det, round(100 * (pro - det) / 7, 1))
    csat = data(svc.call("get_survey_results", {"survey_id": "SRV-0002"}))
    scores = [r.score for r in svc.state.responses.values() if r.survey_id == "SRV-0002"]
    assert csat["average"] == round(sum(scores) / 6, 2)
    assert csat["satisfied_pct"] == round(100 * sum(s >= 4 for s in scores) / 6, 1)
    failed(svc.call("get_survey_results", {"survey_id": "SRV-0404"}), 404)


def test_search_and_get(svc):
    det = data(svc.call("search_responses", {"survey_id": "SRV-0003", "max_score": 6}))
    assert det and all(r["score"] <= 6 for r in det)
    assert [r["submitted_on"] for r in det] == sorted((r["submitted_on"] for r in det), reverse=True)
    mine = data(svc.call("search_responses", {"company": ACCOUNTS[0].company.upper()}))
    assert [r["customer_email"] for r in mine] == [ACCOUNTS[0].contact_email]
    assert data(svc.call("get_response", {"response_id": mine[0]["id"]})) == mine[0]
    failed(svc.call("get_response", {"response_id": "RSP-0999"}), 404)
    assert all(r["ticket_id"] for r in data(svc.call("search_responses", {"survey_id": "SRV-0002"})))


def test_record_and_tag(svc):
    r = data(svc.call("record_response", {"survey_id": "SRV-0002", "customer_email": "pat@example.org",
                                        "customer_name": "Pat Doe", "score": 2, "comment": "Slow reply",
                                        "ticket_id": "TCK-0004"}))
    assert (r["id"], r["follow_up_status"], r["submitted_on"]) == ("RSP-0021", "needed", "2026-01-15")
    failed(svc.call("record_response", {"survey_id": "SRV-0002", "customer_email": "PAT@example.org",
                                     "customer_name": "Pat", "score": 4}), 409)
    failed(svc.call("record_response", {"survey_id": "SRV-0002", "customer_email": "q@example.org",
                                     "customer_name": "Q", "score": 9}), 422)
    failed(svc.call("record_response", {"survey_id": "SRV-0002", "customer_email": "q@example.org",
                                     "customer_name": "Q", "score": 11}), 400)
    happy = data(svc.call("record_response", {"survey_id": "SRV-0001", "customer_email": "z@example.org",
                                            "customer_name": "Z", "score": 9}))
    assert happy["follow_up_status"] == "none"
    t = data(svc.call("tag_response", {"response_id": "RSP-0021", "add_tags": ["support", "slow"],
                                     "remove_tags": []}))
    assert t["tags"] == ["support", "slow"]
    assert data(svc.call("tag_response", {"response_id": "RSP-0021", "remove_tags": ["slow"]}))["tags"] == ["support"]
    failed(svc.call("tag_response", {"response_id": "RSP-0021"}), 400)


def test_follow_up_rules(svc):
    rid = next(r.id for r in svc.state.responses.values() if r.follow_up_status == "needed")
    failed(svc.call("set_follow_up", {"response_id": rid, "status": "in_progress"}), 400)
    r = data(svc.call("set_follow_up", {"response_id": rid, "status": "in_progress", "owner_email": OWNER,
                                      "note": "Calling Monday"}))
    assert (r["follow_up_owner"], r["follow_up_note"]) == (OWNER, "Calling Monday")
    failed(svc.call("set_follow_up", {"response_id": rid, "status": "done"}), 400)
    data(svc.call("set_follow_up", {"response_id": rid, "status": "done", "note": "Refund issued"}))
    before = svc.state_dict()
    failed(svc.call("set_follow_up", {"response_id": rid, "status": "needed"}), 409)
    assert svc.state_dict() == before


def test_link_ticket(svc):
    rid = next(r.id for r in svc.state.responses.values() if r.ticket_id is None)
    assert data(svc.call("link_ticket", {"response_id": rid, "ticket_id": "TCK-0007"}))["ticket_id"] == "TCK-0007"
    failed(svc.call("link_ticket", {"response_id": rid, "ticket_id": "TCK-0008"}), 409)


def test_feedback_notes(svc):
    notes = data(svc.call("list_feedback", {"tag": "feature-request"}))
    assert notes and all("feature-request" in n["tags"] for n in notes)
    first = data(svc.call("get_feedback", {"note_id": "FBK-0001"}))
    assert first["customer_email"] == ACCOUNTS[3].contact_email and first["company"] == ACCOUNTS[3].company
    failed(svc.call("get_feedback", {"note_id": "FBK-0999"}), 404)
    n = data(svc.call("create_feedback", {"title": "Invoice PDFs", "content": "Need PDF invoices",
                                        "customer_email": ACCOUNTS[0].contact_email, "company": ACCOUNTS[0].company,
                                        "source": "call", "tags": ["billing"], "response_id": "RSP-0001"}))
    assert (n["id"], n["status"], n["created_on"]) == ("FBK-0009", "new", "2026-01-15")
    failed(svc.call("create_feedback", {"title": "x", "content": "y", "customer_email": "a@b.co",
                                     "response_id": "RSP-0999"}), 404)
    failed(svc.call("create_feedback", {"title": "x", "content": "y", "customer_email": "a@b.co",
                                     "source": "fax"}), 400)
    assert [x["id"] for x in data(svc.call("list_feedback", {"customer_email": ACCOUNTS[0].contact_email}))][-1] == \
        "FBK-0009"
    up = data(svc.call("update_feedback", {"note_id": "FBK-0009", "status": "planned", "owner_email": OWNER,
                                         "add_tags": ["q2"]}))
    assert (up["status"], up["owner_email"], up["tags"]) == ("planned", OWNER, ["billing", "q2"])
    failed(svc.call("update_feedback", {"note_id": "FBK-0009"}), 400)
    data(svc.call("update_feedback", {"note_id": "FBK-0009", "status": "closed"}))
    failed(svc.call("update_feedback", {"note_id": "FBK-0009", "add_tags": ["late"]}), 409)
