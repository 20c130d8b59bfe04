"""Tests of the student_records service (PowerSchool-style SIS)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.student_records import StudentRecords

# today is 2026-01-15 (Thursday); S2 began 2026-01-05; 2026-01-19 is MLK Day


@pytest.fixture
def svc(make_service):
    return make_service(StudentRecords)


def attend(svc, sid, day, att_code, comment=""):
    return svc.call("record_attendance", {"student_id": sid, "att_date": day, "attendance_code": att_code,
                                          "att_comment": comment})


def test_search_and_get_student(svc):
    rows = ok(svc, "search_students", {"guardian_email": "EMMA.WILSON@yahoo.com"})
    assert [(r["id"], r["lastfirst"], r["enroll_status"]) for r in rows] == [("STU-0002", "Wilson, Diana", "A"),
                                                                            ("STU-0003", "Wilson, Dale", "G")]
    assert [r["id"] for r in ok(svc, "search_students", {"guardian_email": "emma.wilson@yahoo.com",
                                                         "enroll_status": "A"})] == ["STU-0002"]
    assert [r["id"] for r in ok(svc, "search_students", {"name": "davis"})] == ["STU-0004"]
    assert [r["id"] for r in ok(svc, "search_students", {"student_number": "290013"})] == ["STU-0013"]
    assert len(ok(svc, "search_students", {"grade_level": 9})) == 4
    st = ok(svc, "get_student", {"student_id": "STU-0004"})
    assert (st["full_name"], st["homeroom_teacher_email"], st["contacts"][0]["email"]) == (
        "Timothy Davis", "laura.bennett@company.example", "jason.davis@gmail.com")
    assert st["attendance_summary"] == {"unexcused_absences": 2, "excused_absences": 0, "tardies": 1,
                                        "last_unexcused_absence": "2026-01-12"}
    assert st["log_entries"][0]["subject"] == "Algebra I failing"
    assert code(svc, "get_student", {"student_id": "STU-0999"}) == 404
    assert code(svc, "search_students", {"grade_level": 8}) == 400


def test_schedule_sections_and_calendar(svc):
    sched = ok(svc, "get_student_schedule", {"student_id": "STU-0001"})
    assert [(r["period"], r["course_number"], r["id"]) for r in sched] == [
        (1, "ENG1010", "CC-0001"), (2, "MAT1200", "CC-0002"), (3, "SCI1100", "CC-0003"), (4, "SOC1300", "CC-0004"),
        (5, "ART1500", "CC-0006")]
    s1 = ok(svc, "get_student_schedule", {"student_id": "STU-0001", "term_id": "S1"})
    assert [(r["section_id"], r["date_left"]) for r in s1] == [("SEC-0009", "2025-12-19")]
    gone = ok(svc, "get_student_schedule", {"student_id": "STU-0010", "term_id": "Y1"})
    assert {r["status"] for r in gone} == {"dropped"}
    art = ok(svc, "list_sections", {"course_number": "ART1500", "term_id": "S2"})
    assert [(s["id"], s["enrolled"], s["seats_open"]) for s in art] == [("SEC-0010", 4, 0)]
    assert [s["id"] for s in ok(svc, "list_sections", {"teacher_email": "grace.liu@company.example"})] == [
        "SEC-0013", "SEC-0014"]
    assert [s["id"] for s in ok(svc, "list_sections", {"period": 1})] == ["SEC-0001", "SEC-0004"]
    sec = ok(svc, "get_section", {"section_id": "SEC-0010"})
    assert [r["student_id"] for r in sec["roster"]] == ["STU-0001", "STU-0002", "STU-0006", "STU-0008"]
    cal = ok(svc, "get_school_calendar")
    assert [(t["id"], t["first_day"], t["last_day"]) for t in cal["terms"]] == [
        ("Y1", "2025-08-20", "2026-06-05"), ("S1", "2025-08-20", "2025-12-19"), ("S2", "2026-01-05", "2026-06-05")]
    assert {"date": "2026-01-19", "description": "Martin Luther King Jr. Day"} in cal["non_school_days"]
    assert cal["attendance_codes"][0] == {"code": "A", "description": "Absent Unexcused", "presence_status": "Absent"}
    assert code(svc, "get_section", {"section_id": "SEC-0999"}) == 404


def test_grades_and_transcript_reads(svc):
    grades = ok(svc, "list_stored_grades", {"student_id": "STU-0004", "storecode": "S1"})
    assert [(g["id"], g["course_number"], g["grade"]) for g in grades] == [
        ("GRD-0011", "ENG1010", "B+"), ("GRD-0012", "MAT1200", "F"), ("GRD-0013", "SCI1100", "C"),
        ("GRD-0014", "SOC1300", "A"), ("GRD-0015", "CSC2400", "B-")]
    tr = ok(svc, "get_transcript", {"student_id": "STU-0004"})
    assert (tr["cumulative_gpa"], tr["credits_attempted"], tr["credits_earned"], tr["terms"][0]["gpa"]) == (
        2.4, 2.5, 2.0, 2.4)
    assert ok(svc, "list_stored_grades", {"student_id": "STU-0004", "storecode": "S2"}) == []
    assert ok(svc, "get_transcript", {"student_id": "STU-0003"})["cumulative_gpa"] is None
    rows = ok(svc, "list_attendance", {"student_id": "STU-0004", "attendance_code": "A"})
    assert [(a["id"], a["att_date"], a["description"]) for a in rows] == [
        ("ATT-0006", "2026-01-05", "Absent Unexcused"), ("ATT-0005", "2026-01-12", "Absent Unexcused")]
    assert [a["id"] for a in ok(svc, "list_attendance", {"student_id": "STU-0004", "start_date": "2026-01-13",
                                                         "end_date": "2026-01-14"})] == ["ATT-0004"]


def test_enrollment_capacity(svc):
    msg = error(svc, "enroll_student", {"student_id": "STU-0005", "section_id": "SEC-0010"})
    assert msg["code"] == 409 and "full (4 of 4 seats)" in msg["message"]
    dropped = ok(svc, "drop_enrollment", {"enrollment_id": "CC-0006"})
    assert (dropped["status"], dropped["date_left"]) == ("dropped", "2026-01-15")
    assert code(svc, "drop_enrollment", {"enrollment_id": "CC-0006"}) == 409
    e = ok(svc, "enroll_student", {"student_id": "STU-0005", "section_id": "SEC-0010"})
    assert (e["id"], e["date_enrolled"], e["date_left"], e["status"]) == ("CC-0078", "2026-01-15", "2026-06-05",
                                                                          "enrolled")
    assert code(svc, "enroll_student", {"student_id": "STU-0005", "section_id": "SEC-0010"}) == 409  # already in it


def test_enrollment_period_and_term_rules(svc):
    msg = error(svc, "enroll_student", {"student_id": "STU-0005", "section_id": "SEC-0006"})
    assert msg["code"] == 409 and "already has period 4" in msg["message"]
    msg = error(svc, "enroll_student", {"student_id": "STU-0005", "section_id": "SEC-0008"})
    assert msg["code"] == 409 and "already in SOC1300" in msg["message"]
    assert error(svc, "enroll_student", {"student_id": "STU-0005", "section_id": "SEC-0009"})["message"].startswith(
        "term S1 ended")
    assert code(svc, "enroll_student", {"student_id": "STU-0010", "section_id": "SEC-0013"}) == 409  # transferred
    assert ok(svc, "enroll_student", {"student_id": "STU-0005", "section_id": "SEC-0013"})["section_id"] == "SEC-0013"


def test_attendance_only_on_school_days(svc):
    for day, why in (("2026-01-17", "is a Saturday"), ("2026-01-19", "Martin Luther King Jr. Day"),
                     ("2025-12-29", "outside the terms")):
        msg = error(svc, "record_attendance", {"student_id": "STU-0004", "att_date": day, "attendance_code": "A"})
        assert msg["code"] == 422 and why in msg["message"]
    assert code(svc, "record_attendance", {"student_id": "STU-0004", "att_date": "2026-01-16",
                                           "attendance_code": "A"}) == 422  # not ahead of today
    assert code(svc, "record_attendance", {"student_id": "STU-0004", "att_date": "2026-02-04",
                                           "attendance_code": "E"}) == 422  # too far ahead
    ahead = attend(svc, "STU-0004", "2026-01-16", "E", "Orthodontist")["data"]
    assert (ahead["id"], ahead["attendance_code"], ahead["previous_code"]) == ("ATT-0017", "E", None)
    assert code(svc, "record_attendance", {"student_id": "STU-0003", "att_date": "2026-01-14",
                                           "attendance_code": "A"}) == 409  # graduated


def test_attendance_replaces_the_days_code(svc):
    fixed = attend(svc, "STU-0004", "2026-01-12", "E", "Note from father")["data"]
    assert (fixed["id"], fixed["attendance_code"], fixed["previous_code"], fixed["att_comment"]) == (
        "ATT-0005", "E", "A", "Note from father")
    summary = ok(svc, "get_student", {"student_id": "STU-0004"})["attendance_summary"]
    assert (summary["unexcused_absences"], summary["last_unexcused_absence"]) == (1, "2026-01-05")


def test_no_grade_without_enrollment(svc):
    msg = error(svc, "store_grade", {"student_id": "STU-0005", "section_id": "SEC-0001", "storecode": "S1",
                                     "percent": 90})
    assert msg["code"] == 422 and "not enrolled in section SEC-0001" in msg["message"]
    assert code(svc, "store_grade", {"student_id": "STU-0010", "section_id": "SEC-0004", "storecode": "S1",
                                     "percent": 90}) == 422  # dropped (transferred)
    assert code(svc, "store_grade", {"student_id": "STU-0004", "section_id": "SEC-0013", "storecode": "S1",
                                     "percent": 90}) == 422  # an S2 section
    assert code(svc, "store_grade", {"student_id": "STU-0004", "section_id": "SEC-0003", "storecode": "S1",
                                     "percent": 70}) == 409  # already stored
    assert code(svc, "store_grade", {"student_id": "STU-0004", "section_id": "SEC-0003", "storecode": "S2",
                                     "percent": 101}) == 400
    g = ok(svc, "store_grade", {"student_id": "STU-0004", "section_id": "SEC-0013", "storecode": "S2",
                                "percent": 88.5, "comment_value": "Strong start"})
    assert (g["id"], g["grade"], g["gpa_points"], g["potential_crhrs"], g["teacher_email"]) == (
        "GRD-0061", "B+", 3.3, 0.5, "grace.liu@company.example")


def test_change_grade_comment_and_gpa(svc):
    ch = ok(svc, "change_stored_grade", {"grade_id": "GRD-0012", "percent": 68, "reason": "Retake exam"})
    assert (ch["grade"], ch["gpa_points"], ch["earned_crhrs"]) == ("D+", 1.3, 0.5)
    assert ch["change_log"] == ["2026-01-15: 58.0% F -> 68.0% D+ (Retake exam)"]
    assert ok(svc, "get_transcript", {"student_id": "STU-0004"})["cumulative_gpa"] == 2.66
    assert code(svc, "change_stored_grade", {"grade_id": "GRD-0012", "percent": 68, "reason": "again"}) == 409
    c = ok(svc, "set_grade_comment", {"grade_id": "GRD-0012", "comment_value": "Tutoring Tuesdays"})
    assert c["comment_value"] == "Tutoring Tuesdays"
    assert ok(svc, "get_stored_grade", {"grade_id": "GRD-0012"})["comment_value"] == "Tutoring Tuesdays"
    assert code(svc, "set_grade_comment", {"grade_id": "GRD-0999", "comment_value": "x"}) == 404


def test_log_entries(svc):
    log = ok(svc, "add_log_entry", {"student_id": "STU-0001", "author_email": "Kevin.Huang@company.example",
                                    "subject": "Absence", "entry": "Called Mr. Thompson", "logtype": "Parent Contact"})
    assert (log["id"], log["author_email"], log["entry_date"]) == ("LOG-0015", "kevin.huang@company.example",
                                                                   "2026-01-15")
    assert ok(svc, "get_student", {"student_id": "STU-0001"})["log_entries"][-1]["entry"] == "Called Mr. Thompson"
    assert code(svc, "add_log_entry", {"student_id": "STU-0001", "author_email": "parent@gmail.com",
                                       "subject": "Hi", "entry": "Hello"}) == 404


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("enroll_student", {"student_id": "STU-0005", "section_id": "SEC-0010"})["success"] is False
    assert attend(svc, "STU-0004", "2026-01-19", "A")["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(StudentRecords, seed=5).state_dict() == make_service(StudentRecords, seed=5).state_dict()
