"""Tests of the learning management (Canvas-style LMS) service."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._learning_management_models import LatePolicy
from compoworld_gym.envs.services._learning_management_rules import late_deduction
from compoworld_gym.envs.services.learning_management import LearningManagement

PRIYA, MARCUS, HANNAH = "priya.raman@company.example", "marcus.bell@company.example", "hannah.kovacs@company.example"
VINCENT, DANIEL, RACHEL = "vincent.evans@gmail.com", "daniel.price@yahoo.com", "rachel.rivera@gmail.com"


@pytest.fixture
def svc(make_service):
    return make_service(LearningManagement)


def test_seeded_academy(svc):
    assert len(LearningManagement.tools) == 20
    st = svc.state
    assert (len(st.courses), len(st.assignments), len(st.enrollments), len(st.submissions)) == (8, 32, 47, 80)
    assert st.counters == {"CRS": 9, "ASG": 33, "ENR": 48, "SUB": 81, "OVR": 1}
    c = ok(svc, "get_course", {"course_id": "CRS-0002"})
    assert (c["name"], c["instructor_email"], c["active_students"], c["assignments"]) == (
        "Billing Operations Certification", PRIYA, 4, 4)
    assert c["late_policy"]["late_submission_deduction"] == 10.0
    for s in st.submissions.values():  # every seeded score is the late policy applied to the entered score
        if s.entered_score is not None:
            a, pol = st.assignments[s.assignment_id], st.courses[s.course_id].late_policy
            assert s.score == round(s.entered_score - late_deduction(pol, a.points_possible, s.entered_score,
                                                                     s.seconds_late), 2)
            assert s.entered_score <= a.points_possible


def test_list_courses_and_enrollments(svc):
    assert len(ok(svc, "list_courses", {"workflow_state": "available"})) == 5
    assert [c["id"] for c in ok(svc, "list_courses", {"instructor_email": PRIYA.upper()})] == ["CRS-0002"]
    assert [c["id"] for c in ok(svc, "list_courses", {"search_term": "privacy"})] == ["CRS-0003"]
    roster = ok(svc, "list_enrollments", {"course_id": "CRS-0002", "type": "StudentEnrollment"})
    assert [e["user_email"] for e in roster] == [VINCENT, DANIEL, RACHEL, "kimberly.ball@gmail.com"]
    mine = ok(svc, "list_enrollments", {"user_email": DANIEL})
    assert {e["course_id"] for e in mine} == {"CRS-0002", "CRS-0007"}
    assert ok(svc, "get_enrollment", {"enrollment_id": "ENR-0013"})["user_email"] == VINCENT
    assert code(svc, "list_enrollments", {}) == 400
    assert code(svc, "list_enrollments", {"course_id": "CRS-0999"}) == 404
    assert "list or search" in error(svc, "get_enrollment", {"enrollment_id": "ENR-0999"})["message"]


def test_assignments_and_submissions_reads(svc):
    rows = ok(svc, "list_assignments", {"course_id": "CRS-0002"})
    assert [(a["id"], a["published"]) for a in rows] == [("ASG-0005", True), ("ASG-0006", True),
                                                          ("ASG-0007", True), ("ASG-0008", False)]
    assert [a["id"] for a in ok(svc, "list_assignments", {"course_id": "CRS-0002", "published": False})] == ["ASG-0008"]
    assert ok(svc, "get_assignment", {"assignment_id": "ASG-0006"})["points_possible"] == 100.0
    pending = ok(svc, "list_submissions", {"assignment_id": "ASG-0006", "workflow_state": "submitted"})
    assert [s["id"] for s in pending] == ["SUB-0039", "SUB-0069"]
    s = ok(svc, "get_submission", {"assignment_id": "ASG-0006", "user_email": DANIEL})
    assert (s["id"], s["late"], s["seconds_late"], s["cached_due_date"]) == ("SUB-0039", True, 180000,
                                                                              "2026-01-09T23:59:00")
    assert ok(svc, "get_submission_by_id", {"submission_id": "SUB-0039"}) == s
    newest = ok(svc, "list_student_submissions", {"user_email": DANIEL})
    assert [x["id"] for x in newest][:2] == ["SUB-0039", "SUB-0038"]
    assert code(svc, "get_submission", {"assignment_id": "ASG-0007", "user_email": DANIEL}) == 404
    assert code(svc, "get_submission_by_id", {"submission_id": "SUB-0999"}) == 404


def test_enroll_and_conclude(svc):
    e = ok(svc, "enroll_user", {"course_id": "CRS-0002", "user_email": "Ann.Lee@Example.org", "user_name": "Ann Lee"})
    assert (e["id"], e["user_email"], e["enrollment_state"], e["created_at"]) == (
        "ENR-0048", "ann.lee@example.org", "active", "2026-01-15T09:00:00")
    assert code(svc, "enroll_user", {"course_id": "CRS-0002", "user_email": "ann.lee@example.org",
                                     "user_name": "Ann Lee"}) == 409
    assert code(svc, "enroll_user", {"course_id": "CRS-0004", "user_email": "x@example.org", "user_name": "X"}) == 409
    assert code(svc, "enroll_user", {"course_id": "CRS-0999", "user_email": "x@example.org", "user_name": "X"}) == 404
    done = ok(svc, "conclude_enrollment", {"enrollment_id": "ENR-0013"})
    assert (done["enrollment_state"], done["completed_at"]) == ("completed", "2026-01-15T09:01:00")
    assert code(svc, "conclude_enrollment", {"enrollment_id": "ENR-0013"}) == 409
    # a concluded student can no longer submit
    assert code(svc, "submit_assignment", {"assignment_id": "ASG-0007", "user_email": VINCENT,
                                           "submission_type": "online_url", "url": "https://x.example/a"}) == 422


def test_submit_rules_and_attempts(svc):
    url = {"submission_type": "online_url", "url": "https://files.example/lab.pdf"}
    s = ok(svc, "submit_assignment", {"assignment_id": "ASG-0007", "user_email": VINCENT, **url})
    assert (s["id"], s["attempt"], s["late"], s["workflow_state"]) == ("SUB-0081", 1, False, "submitted")
    assert ok(svc, "submit_assignment", {"assignment_id": "ASG-0007", "user_email": VINCENT, **url})["attempt"] == 2
    assert code(svc, "submit_assignment", {"assignment_id": "ASG-0007", "user_email": VINCENT, **url}) == 422
    # unpublished, locked, wrong type, missing body, not enrolled
    assert code(svc, "submit_assignment", {"assignment_id": "ASG-0008", "user_email": DANIEL,
                                           "submission_type": "online_text_entry", "body": "x"}) == 422
    assert code(svc, "submit_assignment", {"assignment_id": "ASG-0005", "user_email": DANIEL,
                                           "submission_type": "online_text_entry", "body": "x"}) == 422
    assert code(svc, "submit_assignment", {"assignment_id": "ASG-0007", "user_email": DANIEL,
                                           "submission_type": "online_text_entry", "body": "x"}) == 422
    assert code(svc, "submit_assignment", {"assignment_id": "ASG-0007", "user_email": DANIEL,
                                           "submission_type": "online_url"}) == 422
    assert code(svc, "submit_assignment", {"assignment_id": "ASG-0007", "user_email": "no.one@example.org",
                                           **url}) == 422
    # publishing lets students submit
    assert ok(svc, "update_assignment", {"assignment_id": "ASG-0008", "published": True})["published"] is True
    s = ok(svc, "submit_assignment", {"assignment_id": "ASG-0008", "user_email": DANIEL,
                                      "submission_type": "online_text_entry", "body": "My capstone."})
    assert (s["body"], s["cached_due_date"]) == ("My capstone.", "2026-02-06T23:59:00")


def test_late_penalty_and_grade_limits(svc):
    g = ok(svc, "grade_submission", {"assignment_id": "ASG-0006", "user_email": DANIEL, "posted_grade": 90,
                                     "grader_email": PRIYA, "text_comment": "Good analysis, but late."})
    # 50 hours late = 3 days x 10% x 100 points
    assert (g["entered_score"], g["points_deducted"], g["score"], g["workflow_state"]) == (90.0, 30.0, 60.0, "graded")
    assert g["comments"][0]["comment"] == "Good analysis, but late." and g["grader_email"] == PRIYA
    floor = ok(svc, "grade_submission", {"assignment_id": "ASG-0006", "user_email": DANIEL, "posted_grade": 60,
                                         "grader_email": PRIYA})
    assert (floor["points_deducted"], floor["score"]) == (20.0, 40.0)  # never below the 40% floor
    low = ok(svc, "grade_submission", {"assignment_id": "ASG-0006", "user_email": DANIEL, "posted_grade": 30,
                                       "grader_email": PRIYA})
    assert (low["points_deducted"], low["score"]) == (0.0, 30.0)  # already below the floor: nothing taken
    assert code(svc, "grade_submission", {"assignment_id": "ASG-0006", "user_email": DANIEL, "posted_grade": 100.5,
                                          "grader_email": PRIYA}) == 422
    assert code(svc, "grade_submission", {"assignment_id": "ASG-0006", "user_email": DANIEL, "posted_grade": -1,
                                          "grader_email": PRIYA}) == 400
    assert code(svc, "grade_submission", {"assignment_id": "ASG-0006", "user_email": DANIEL, "posted_grade": 80,
                                          "grader_email": MARCUS}) == 422
    on_time = ok(svc, "grade_submission", {"assignment_id": "ASG-0006", "user_email": RACHEL, "posted_grade": 100,
                                           "grader_email": PRIYA})
    assert (on_time["score"], on_time["points_deducted"]) == (100.0, 0.0)


def test_teaching_assistant_grades_and_hourly_policy(svc):
    pol = ok(svc, "update_late_policy", {"course_id": "CRS-0002", "late_submission_deduction": 5,
                                         "late_submission_interval": "hour"})["late_policy"]
    assert pol == {"late_submission_deduction_enabled": True, "late_submission_deduction": 5.0,
                   "late_submission_interval": "hour", "late_submission_minimum_percent": 40.0}
    g = ok(svc, "grade_submission", {"assignment_id": "ASG-0006", "user_email": DANIEL, "posted_grade": 90,
                                     "grader_email": PRIYA})
    assert g["score"] == 40.0  # 50 hours x 5% would take 250 points; the floor keeps 40
    ok(svc, "update_late_policy", {"course_id": "CRS-0002", "late_submission_deduction_enabled": False})
    assert ok(svc, "grade_submission", {"assignment_id": "ASG-0006", "user_email": DANIEL, "posted_grade": 90,
                                        "grader_email": PRIYA})["score"] == 90.0
    ta = [s for s in svc.state.submissions.values() if s.course_id == "CRS-0001" and s.workflow_state == "submitted"][0]
    done = ok(svc, "grade_submission", {"assignment_id": ta.assignment_id, "user_email": ta.user_email,
                                        "posted_grade": 10, "grader_email": HANNAH})
    assert done["grader_email"] == HANNAH
    assert late_deduction(LatePolicy(), 100, 80, 1) == 10.0  # one second late is one interval


def test_extension_override(svc):
    a = ok(svc, "create_assignment_override", {"assignment_id": "ASG-0006", "student_emails": [DANIEL],
                                               "due_at": "2026-01-20T23:59:00"})
    assert a["overrides"] == [{"id": "OVR-0001", "student_emails": [DANIEL], "due_at": "2026-01-20T23:59:00",
                               "lock_at": None}]
    assert svc.state.submissions["SUB-0039"].cached_due_date.isoformat() == "2026-01-20T23:59:00"
    again = ok(svc, "submit_assignment", {"assignment_id": "ASG-0006", "user_email": DANIEL,
                                          "submission_type": "online_text_entry", "body": "Revised."})
    assert (again["attempt"], again["late"], again["seconds_late"]) == (2, False, 0)
    assert ok(svc, "grade_submission", {"assignment_id": "ASG-0006", "user_email": DANIEL, "posted_grade": 90,
                                        "grader_email": PRIYA})["score"] == 90.0
    assert code(svc, "create_assignment_override", {"assignment_id": "ASG-0006", "student_emails": [MARCUS],
                                                    "due_at": "2026-01-20T23:59:00"}) == 422
    assert code(svc, "create_assignment_override", {"assignment_id": "ASG-0006", "student_emails": [RACHEL],
                                                    "due_at": "2026-06-01T23:59:00"}) == 422


def test_create_and_update_assignment(svc):
    a = ok(svc, "create_assignment", {"course_id": "CRS-0002", "name": "Refund workflow quiz", "points_possible": 25,
                                      "due_at": "2026-02-20T23:59:00"})
    assert (a["id"], a["published"], a["submission_types"], a["allowed_attempts"]) == (
        "ASG-0033", False, ["online_text_entry"], None)
    assert code(svc, "create_assignment", {"course_id": "CRS-0002", "name": "Too late", "points_possible": 10,
                                           "due_at": "2026-04-01T23:59:00"}) == 422
    assert code(svc, "create_assignment", {"course_id": "CRS-0002", "name": "Bad lock", "points_possible": 10,
                                           "due_at": "2026-02-20T23:59:00", "lock_at": "2026-02-19T00:00:00"}) == 422
    assert code(svc, "update_assignment", {"assignment_id": "ASG-0006", "published": False}) == 409
    assert code(svc, "update_assignment", {"assignment_id": "ASG-0006", "points_possible": 50}) == 422
    moved = ok(svc, "update_assignment", {"assignment_id": "ASG-0006", "due_at": "2026-01-13T23:59:00",
                                          "lock_at": "2026-01-20T23:59:00"})
    assert moved["due_at"] == "2026-01-13T23:59:00"
    assert svc.state.submissions["SUB-0039"].cached_due_date.isoformat() == "2026-01-13T23:59:00"


def test_excuse_and_comment(svc):
    ex = ok(svc, "excuse_submission", {"assignment_id": "ASG-0006", "user_email": RACHEL})
    assert (ex["excused"], ex["score"], ex["workflow_state"]) == (True, None, "graded")
    assert code(svc, "excuse_submission", {"assignment_id": "ASG-0006", "user_email": RACHEL}) == 409
    new = ok(svc, "excuse_submission", {"assignment_id": "ASG-0007", "user_email": VINCENT})
    assert (new["id"], new["submitted_at"], new["excused"]) == ("SUB-0081", None, True)
    assert code(svc, "grade_submission", {"assignment_id": "ASG-0007", "user_email": VINCENT, "posted_grade": 5,
                                          "grader_email": PRIYA}) == 409
    regraded = ok(svc, "grade_submission", {"assignment_id": "ASG-0006", "user_email": RACHEL, "posted_grade": 70,
                                            "grader_email": PRIYA})
    assert (regraded["excused"], regraded["score"]) == (False, 70.0)
    c = ok(svc, "add_submission_comment", {"assignment_id": "ASG-0006", "user_email": DANIEL,
                                           "text_comment": "Case KQ-1: extension approved.", "author_email": PRIYA})
    assert c["comments"][-1] == {"author_email": PRIYA, "comment": "Case KQ-1: extension approved.",
                                 "created_at": "2026-01-15T09:03:00"}
    assert ok(svc, "add_submission_comment", {"assignment_id": "ASG-0006", "user_email": DANIEL,
                                              "text_comment": "Thanks!", "author_email": DANIEL})["comments"][-1][
        "author_email"] == DANIEL
    assert code(svc, "add_submission_comment", {"assignment_id": "ASG-0006", "user_email": DANIEL,
                                                "text_comment": "Hi", "author_email": MARCUS}) == 422


def test_failed_writes_roll_back(svc):
    before = svc.state_dict()
    for tool, args in [("grade_submission", {"assignment_id": "ASG-0006", "user_email": DANIEL, "posted_grade": 500,
                                             "grader_email": PRIYA}),
                       ("create_assignment_override", {"assignment_id": "ASG-0006", "student_emails": [DANIEL, MARCUS],
                                                       "due_at": "2026-01-20T23:59:00"}),
                       ("update_assignment", {"assignment_id": "ASG-0006", "due_at": "2026-05-01T00:00:00"})]:
        assert not svc.call(tool, args)["success"]
    assert svc.state_dict() == before  # the clock did not move either
