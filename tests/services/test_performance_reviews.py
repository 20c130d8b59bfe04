"""Tests of the performance reviews service (Lattice): cycles, reviews, goals, feedback, rollback."""

from __future__ import annotations

import pytest
from _svc_asserts import code, ok

from compoworld_gym.envs.services._workforce import roster
from compoworld_gym.envs.services.performance_reviews import PerformanceReviews
from tests.conftest import TODAY


@pytest.fixture
def pr(make_service):
    return make_service(PerformanceReviews)


def _mgr_review(pr, status):
    return next(r for r in pr.state.reviews.values() if r.review_type == "manager" and r.status == status
                and r.cycle_id == "RC-0002")


def test_users_follow_the_roster(pr):
    people = roster(0, TODAY)
    assert len(ok(pr, "list_users")) == len(people) == 22
    p = next(p for p in people if p.manager_id)
    u = ok(pr, "get_user", {"user_id": p.employee_id})
    boss = next(b for b in people if b.employee_id == p.manager_id)
    assert (u["email"], u["manager_email"]) == (p.email, boss.email)
    reports = ok(pr, "list_users", {"manager_email": boss.email})
    assert p.employee_id in [r["id"] for r in reports]
    assert ok(pr, "list_users", {"email": p.email.upper()})[0]["id"] == p.employee_id
    assert code(pr, "get_user", {"user_id": "EMP-9999"}) == 404


def test_cycles_and_phases(pr):
    assert [c["id"] for c in ok(pr, "list_review_cycles", {"phase": "open"})] == ["RC-0002"]
    c = ok(pr, "get_review_cycle", {"cycle_id": "RC-0002"})
    assert c["rating_scale_max"] == 5 and sum(c["review_counts"].values()) == 15
    assert code(pr, "update_review_cycle_phase", {"cycle_id": "RC-0003", "phase": "closed"}) == 422
    assert code(pr, "update_review_cycle_phase", {"cycle_id": "RC-0001", "phase": "open"}) == 409
    assert ok(pr, "update_review_cycle_phase", {"cycle_id": "RC-0003", "phase": "open"})["phase"] == "open"


def test_manager_reviews_come_from_the_real_manager(pr):
    for r in pr.state.reviews.values():
        if r.review_type == "manager":
            assert pr.state.users[r.reviewee_id].manager_id == r.reviewer_id
    rows = ok(pr, "list_reviews", {"review_type": "manager", "status": "in_progress"})
    assert [r["id"] for r in rows] == ["PRV-0011"] and rows[0]["reviewer_email"] == "priya.raman@company.example"
    assert ok(pr, "get_review", {"review_id": "PRV-0011"})["cycle_phase"] == "open"


def test_draft_and_submit(pr):
    r = _mgr_review(pr, "not_started")
    args = {"review_id": r.id, "reviewer_email": r.reviewer_email}
    assert code(pr, "submit_review", {**args, "rating": 6, "comments": "x"}) == 400
    assert code(pr, "submit_review", args) == 400  # no rating nor comments
    assert code(pr, "submit_review", {**args, "reviewer_email": r.reviewee_email, "rating": 4,
                                      "comments": "Good"}) == 422
    d = ok(pr, "save_review_draft", {**args, "rating": 4})
    assert (d["status"], d["rating"], d["rating_label"]) == ("in_progress", 4, "Exceeds expectations")
    s = ok(pr, "submit_review", {**args, "comments": "Great half."})
    assert (s["status"], s["rating"], s["comments"]) == ("submitted", 4, "Great half.") and s["submitted_at"]
    assert code(pr, "save_review_draft", {**args, "rating": 2}) == 409  # locked
    assert code(pr, "get_review", {"review_id": "PRV-0999"}) == 404


def test_submit_only_while_open(pr):
    r = _mgr_review(pr, "not_started")
    ok(pr, "update_review_cycle_phase", {"cycle_id": "RC-0002", "phase": "calibration"})
    assert code(pr, "submit_review", {"review_id": r.id, "reviewer_email": r.reviewer_email, "rating": 3,
                                      "comments": "ok"}) == 409


def test_create_review_rules(pr):
    u = next(x for x in pr.state.users.values() if x.manager_id and x.manager_id != "EMP-0001")
    other = next(x for x in pr.state.users.values() if x.id not in (u.id, u.manager_id))
    base = {"cycle_id": "RC-0002", "reviewee_id": u.id}
    assert code(pr, "create_review", {**base, "reviewer_id": other.id, "review_type": "manager"}) == 422
    assert code(pr, "create_review", {**base, "reviewer_id": u.manager_id, "review_type": "peer"}) == 422
    assert code(pr, "create_review", {"cycle_id": "RC-0001", "reviewee_id": u.id, "reviewer_id": u.id,
                                      "review_type": "self"}) == 409
    new = ok(pr, "create_review", {**base, "reviewer_id": other.id, "review_type": "peer"})
    assert new["id"] == "PRV-0021" and new["status"] == "not_started"
    assert code(pr, "create_review", {**base, "reviewer_id": other.id, "review_type": "peer"}) == 409


def test_goals(pr):
    assert len(ok(pr, "list_goals")) == 8 and len(ok(pr, "list_goals", {"status": "achieved"})) == 2
    g = next(g for g in pr.state.goals.values() if g.status == "on_track")
    owner = pr.state.users[g.owner_id]
    assert code(pr, "update_goal", {"goal_id": g.id, "author_email": "nobody@x.example", "progress": 5}) == 404
    stranger = next(u for u in pr.state.users.values() if u.id not in (owner.id, owner.manager_id))
    assert code(pr, "update_goal", {"goal_id": g.id, "author_email": stranger.email, "progress": 50}) == 422
    assert code(pr, "update_goal", {"goal_id": g.id, "author_email": owner.email, "status": "achieved"}) == 422
    out = ok(pr, "update_goal", {"goal_id": g.id, "author_email": owner.email, "progress": 90, "status": "off_track",
                                 "comment": "Vendor delay"})
    assert (out["progress"], out["status"], out["updates"][-1]["comment"]) == (90, "off_track", "Vendor delay")
    done = ok(pr, "update_goal", {"goal_id": g.id, "author_email": owner.manager_email, "progress": 100})
    assert done["status"] == "achieved"
    assert code(pr, "update_goal", {"goal_id": g.id, "author_email": owner.email, "comment": "more"}) == 409
    assert ok(pr, "get_goal", {"goal_id": g.id})["progress"] == 100
    mine = ok(pr, "list_goals", {"owner_email": owner.email})
    assert g.id in [x["id"] for x in mine]


def test_create_goal(pr):
    assert code(pr, "create_goal", {"owner_id": "EMP-0005", "name": "Old", "due_date": "2025-01-01"}) == 400
    assert code(pr, "create_goal", {"owner_id": "EMP-0005", "name": "Closed", "due_date": "2026-06-30",
                                    "cycle_id": "RC-0001"}) == 409
    g = ok(pr, "create_goal", {"owner_id": "EMP-0005", "name": "Close books in 3 days", "due_date": "2026-06-30"})
    assert (g["id"], g["status"], g["progress"], g["owner_id"]) == ("GOAL-0009", "not_started", 0, "EMP-0005")
    out = ok(pr, "update_goal", {"goal_id": g["id"], "author_email": g["owner_email"], "progress": 10})
    assert out["status"] == "on_track"


def test_feedback(pr):
    assert len(ok(pr, "list_feedback")) == 6
    a, b = list(pr.state.users.values())[3:5]
    assert code(pr, "give_feedback", {"giver_email": a.email, "recipient_email": a.email, "body": "Nice"}) == \
        422
    f = ok(pr, "give_feedback", {"giver_email": a.email, "recipient_email": b.email, "body": "Thanks for the help",
                                 "visibility": "public"})
    assert f["id"] == "FB-0007"
    assert ok(pr, "list_feedback", {"recipient_email": b.email})[0]["id"] == "FB-0007"


def test_failed_call_rolls_back(pr):
    before = pr.state_dict()
    r = _mgr_review(pr, "not_started")
    res = pr.call("submit_review", {"review_id": r.id, "reviewer_email": r.reviewer_email, "rating": 9,
                                    "comments": "x"})
    assert not res["success"] and pr.state_dict() == before
