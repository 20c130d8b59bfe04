"""Tests of the business_reviews service (Google Business Profile API)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, ok

from compoworld_gym.envs.services.business_reviews import BusinessReviews


@pytest.fixture
def svc(make_service):
    return make_service(BusinessReviews)


def test_accounts_and_locations(svc):
    acc = ok(svc, "list_accounts")["accounts"][0]
    assert (acc["name"], acc["accountName"], acc["locations"]) == (
        "accounts/108234567890123456789", "Northwind Desk Co.", 3)
    assert [loc["id"] for loc in ok(svc, "list_locations", {"city": "austin"})] == ["LOC-0002"]
    online = ok(svc, "get_location", {"location_id": "LOC-0003"})
    assert (online["title"], online["averageRating"], online["totalReviewCount"]) == (
        "Northwind Desk Co. Online", 2.6, 10)
    assert ok(svc, "get_location", {"location_id": "LOC-0002"})["averageRating"] is None
    assert code(svc, "get_location", {"location_id": "LOC-0009"}) == 404


def test_reviews(svc):
    page = ok(svc, "list_reviews", {"location_id": "LOC-0003", "order_by": "rating"})
    assert page["reviews"][0]["star_rating"] == "ONE" and page["reviews"][-1]["star_rating"] == "FIVE"
    assert page["totalReviewCount"] == 10
    assert len(ok(svc, "list_reviews", {"location_id": "LOC-0003", "page_size": 3})["reviews"]) == 3
    assert code(svc, "list_reviews", {"location_id": "LOC-0003", "page_size": 51}) == 400
    rev = ok(svc, "get_review", {"review_id": "REV-0001"})
    assert (rev["reviewer"]["display_name"], rev["star_rating"]) == ("Olivia Martinez", "ONE")
    assert "ORD-0010" in rev["comment"] and rev["review_reply"] is None
    assert ok(svc, "get_review", {"review_id": "REV-0011"})["reviewer"]["is_anonymous"] is True
    assert code(svc, "get_review", {"review_id": "REV-0099"}) == 404


def test_one_reply_per_review(svc):
    first = ok(svc, "update_reply", {"review_id": "REV-0001", "comment": "Sorry Olivia, ORD-0010 was refunded."})
    assert first["replaced"] is False and first["review_id"] == "REV-0001"
    again = ok(svc, "update_reply", {"review_id": "REV-0001", "comment": "Refund of $120.00 sent today."})
    assert again["replaced"] is True
    assert svc.state.reviews["REV-0001"].review_reply.comment == "Refund of $120.00 sent today."
    assert code(svc, "update_reply", {"review_id": "REV-0001", "comment": "x" * 4097}) == 400
    assert code(svc, "update_reply", {"review_id": "REV-0001", "comment": "   "}) == 400
    assert code(svc, "update_reply", {"review_id": "REV-0099", "comment": "hi"}) == 404
    assert ok(svc, "update_reply", {"review_id": "REV-0002", "comment": "x" * 4096})["replaced"] is False
    assert ok(svc, "delete_reply", {"review_id": "REV-0003"}) == {"review_id": "REV-0003", "deleted": True}
    assert svc.state.reviews["REV-0003"].review_reply is None
    assert code(svc, "delete_reply", {"review_id": "REV-0003"}) == 404


def test_questions_and_answers(svc):
    open_q = ok(svc, "list_questions", {"location_id": "LOC-0002", "unanswered_only": True})
    assert [q["id"] for q in open_q] == ["QST-0002"]
    assert ok(svc, "list_questions", {"location_id": "LOC-0001", "unanswered_only": True}) == []
    ans = ok(svc, "upsert_answer", {"question_id": "QST-0002", "text": "Yes, three free spaces at the door."})
    assert ans["answer"]["author_type"] == "MERCHANT"
    ok(svc, "upsert_answer", {"question_id": "QST-0002", "text": "Yes, free parking behind the building."})
    assert [a.text for a in svc.state.questions["QST-0002"].answers] == ["Yes, free parking behind the building."]
    assert ok(svc, "delete_answer", {"question_id": "QST-0001"})["deleted"] is True
    assert code(svc, "delete_answer", {"question_id": "QST-0001"}) == 409
    assert code(svc, "upsert_answer", {"question_id": "QST-0099", "text": "x"}) == 404
    assert code(svc, "upsert_answer", {"question_id": "QST-0003", "text": " "}) == 400
    assert code(svc, "list_questions", {"location_id": "LOC-0099"}) == 404


def test_failed_call_rolls_back(svc):
    before = svc.state_dict()
    res = svc.call("delete_reply", {"review_id": "REV-0002"})
    assert not res["success"] and res["error"]["code"] == 404
    assert svc.state_dict() == before
