"""Tests of the community_forum service (Discourse REST API)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, ok

from compoworld_gym.envs.services.community_forum import CommunityForum

RAW = "Thanks for waiting, the replacement ships today from our warehouse."


@pytest.fixture
def svc(make_service):
    return make_service(CommunityForum)


def test_reads(svc):
    cats = {c["slug"]: c["topic_count"] for c in ok(svc, "list_categories")["categories"]}
    assert cats == {"support": 9, "announcements": 1, "feature-requests": 0, "show-and-tell": 1}
    users = ok(svc, "list_users", {"email": "Olivia.Martinez@gmail.com"})
    assert [u["username"] for u in users] == ["olivia_martinez"]
    assert sorted(u["username"] for u in ok(svc, "list_users", {"flag": "staff"})) == [
        "hannah_kovacs", "jamal_wright", "luis_ortega"]
    assert [u["username"] for u in ok(svc, "list_users", {"flag": "suspended"})] == ["james_oconnor"]
    me = ok(svc, "get_user", {"username": "noah_thompson"})
    assert (me["topic_count"], me["post_count"]) == (1, 1)
    assert code(svc, "get_user", {"username": "nobody"}) == 404
    mine = ok(svc, "list_user_topics", {"username": "olivia_martinez"})["topic_list"]["topics"]
    assert [(t["id"], t["title"]) for t in mine] == [("TOP-0001", "Question about order ORD-0010: LED Desk Lamp")]
    topic = ok(svc, "get_topic", {"topic_id": "TOP-0002"})
    assert topic["accepted_answer_post_id"] == "POST-0003" and topic["posts_count"] == 2
    assert "ORD-0007" in topic["post_stream"]["posts"][0]["raw"]
    assert code(svc, "get_topic", {"topic_id": "TOP-0099"}) == 404
    found = ok(svc, "search", {"q": "ord-0004"})
    assert [t["id"] for t in found["topics"]] == ["TOP-0003"]
    latest = ok(svc, "list_latest_topics", {"category": "support", "status": "solved"})["topic_list"]["topics"]
    assert sorted(t["id"] for t in latest) == ["TOP-0002", "TOP-0005", "TOP-0008"]
    assert [t["id"] for t in ok(svc, "list_latest_topics", {"status": "archived"})["topic_list"]["topics"]] == [
        "TOP-0009"]
    assert ok(svc, "list_latest_topics", {"tag": "setup"})["topic_list"]["topics"][0]["id"] == "TOP-0011"
    assert code(svc, "list_latest_topics", {"category": "nope"}) == 404
    assert [f["id"] for f in ok(svc, "list_review_queue")["reviewables"]] == ["FLG-0001", "FLG-0002", "FLG-0004"]
    assert len(ok(svc, "list_review_queue", {"status": "all"})["reviewables"]) == 4


def test_topics_and_replies(svc):
    made = ok(svc, "create_topic", {"title": "Desk mat color options?", "raw": "Is the felt mat coming in grey too?",
                                    "category": "feature-requests", "tags": ["Mats", "mats"],
                                    "username": "emma_wilson"})
    assert made["topic_id"] == "TOP-0012" and made["post"]["post_number"] == 1
    assert svc.state.topics["TOP-0012"].tags == ["mats"]
    assert code(svc, "create_topic", {"title": "Desk mat color options?", "raw": "x" * 30,
                                      "username": "emma_wilson"}) == 409
    assert code(svc, "create_topic", {"title": "Too short", "raw": "x" * 30, "username": "emma_wilson"}) == 400
    assert code(svc, "create_topic", {"title": "A long enough title", "raw": "x" * 30, "category": "x",
                                      "username": "emma_wilson"}) == 404
    post = ok(svc, "create_post", {"topic_id": "TOP-0001", "raw": RAW, "username": "luis_ortega",
                                   "reply_to_post_number": 1})
    assert (post["id"], post["post_number"]) == ("POST-0018", 2)
    assert code(svc, "create_post", {"topic_id": "TOP-0006", "raw": RAW, "username": "luis_ortega"}) == 409  # closed
    assert code(svc, "create_post", {"topic_id": "TOP-0009", "raw": RAW, "username": "luis_ortega"}) == 409  # archived
    assert code(svc, "create_post", {"topic_id": "TOP-0001", "raw": RAW, "username": "james_oconnor"}) == 409
    assert code(svc, "create_post", {"topic_id": "TOP-0001", "raw": RAW, "username": "luis_ortega",
                                     "reply_to_post_number": 9}) == 404
    assert code(svc, "create_post", {"topic_id": "TOP-0001", "raw": "short", "username": "luis_ortega"}) == 400


def test_status_and_tags(svc):
    assert ok(svc, "update_topic_status", {"topic_id": "TOP-0001", "status": "closed", "enabled": True,
                                           "username": "luis_ortega"})["closed"] is True
    assert code(svc, "update_topic_status", {"topic_id": "TOP-0001", "status": "closed", "enabled": True,
                                             "username": "luis_ortega"}) == 409
    assert code(svc, "update_topic_status", {"topic_id": "TOP-0003", "status": "closed", "enabled": True,
                                             "username": "emma_wilson"}) == 409  # not staff
    assert code(svc, "update_topic_status", {"topic_id": "TOP-0009", "status": "closed", "enabled": True,
                                             "username": "luis_ortega"}) == 409  # archived
    ok(svc, "update_topic_status", {"topic_id": "TOP-0009", "status": "archived", "enabled": False,
                                    "username": "hannah_kovacs"})
    assert ok(svc, "update_topic_tags", {"topic_id": "TOP-0003", "tags": ["Shipping Delay"],
                                         "username": "emma_wilson"})["tags"] == ["shipping-delay"]
    assert code(svc, "update_topic_tags", {"topic_id": "TOP-0003", "tags": ["x"], "username": "liam_patel"}) == 409
    assert code(svc, "update_topic_tags", {"topic_id": "TOP-0003", "tags": [" "], "username": "emma_wilson"}) == 400


def test_solutions(svc):
    reply = ok(svc, "create_post", {"topic_id": "TOP-0003", "raw": RAW, "username": "luis_ortega"})
    done = ok(svc, "accept_solution", {"id": reply["id"], "username": "emma_wilson"})
    assert done["accepted_answer"]["post_id"] == reply["id"]
    assert code(svc, "accept_solution", {"id": reply["id"], "username": "emma_wilson"}) == 409
    assert code(svc, "accept_solution", {"id": reply["id"], "username": "liam_patel"}) == 409  # not starter
    assert code(svc, "accept_solution", {"id": "POST-0004", "username": "luis_ortega"}) == 422  # opening post
    assert code(svc, "accept_solution", {"id": "POST-0016", "username": "luis_ortega"}) == 422  # show-and-tell
    assert ok(svc, "unaccept_solution", {"id": reply["id"], "username": "luis_ortega"})["accepted_answer"] is None
    assert code(svc, "unaccept_solution", {"id": reply["id"], "username": "luis_ortega"}) == 409
    assert code(svc, "accept_solution", {"id": "POST-0999", "username": "luis_ortega"}) == 404


def test_flags_and_review(svc):
    flag = ok(svc, "flag_post", {"id": "POST-0015", "flag_type": "spam", "username": "liam_patel"})
    assert (flag["id"], flag["status"]) == ("FLG-0005", "pending")
    assert code(svc, "flag_post", {"id": "POST-0015", "flag_type": "spam", "username": "liam_patel"}) == 409
    assert code(svc, "flag_post", {"id": "POST-0014", "flag_type": "spam", "username": "ethan_brooks"}) == 422
    assert code(svc, "flag_post", {"id": "POST-0014", "flag_type": "illegal", "username": "emma_wilson"}) == 400
    assert code(svc, "perform_review", {"reviewable_id": "FLG-0001", "action": "agree",
                                        "username": "emma_wilson"}) == 409  # not staff
    done = ok(svc, "perform_review", {"reviewable_id": "FLG-0001", "action": "agree", "username": "luis_ortega"})
    assert (done["status"], done["reviewed_by"]) == ("approved", "luis_ortega")
    assert svc.state.posts["POST-0015"].hidden is True
    assert {svc.state.flags[f].status for f in ("FLG-0002", "FLG-0004", "FLG-0005")} == {"approved"}
    assert code(svc, "perform_review", {"reviewable_id": "FLG-0001", "action": "disagree",
                                        "username": "luis_ortega"}) == 409
    assert code(svc, "perform_review", {"reviewable_id": "FLG-0003", "action": "agree",
                                        "username": "luis_ortega"}) == 409
    assert code(svc, "perform_review", {"reviewable_id": "FLG-0099", "action": "agree",
                                        "username": "luis_ortega"}) == 404


def test_failed_call_rolls_back(svc):
    before = svc.state_dict()
    res = svc.call("create_post", {"topic_id": "TOP-0006", "raw": RAW, "username": "luis_ortega"})
    assert not res["success"] and res["error"]["code"] == 409
    assert svc.state_dict() == before
