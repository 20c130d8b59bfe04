"""Tests of the admissions service (Slate style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.admissions import Admissions
from compoworld_gym.envs.services.student_records import StudentRecords

DIRECTOR, ASSOCIATE = "rebecca.stone@company.example", "carlos.mendez@company.example"
FACULTY = "laura.bennett@company.example"


@pytest.fixture
def svc(make_service):
    return make_service(Admissions)


def test_seed_lines_up_with_student_records(make_service, svc):
    sis = make_service(StudentRecords)
    rows = ok(svc, "list_applications", {"round_id": "RND-0001"})
    assert [(r["id"], r["student_id"], r["status"]) for r in rows] == [
        ("ADM-0001", "STU-0001", "enrolled"), ("ADM-0002", "STU-0004", "enrolled"),
        ("ADM-0003", "STU-0009", "enrolled"), ("ADM-0004", "STU-0013", "enrolled")]
    for r in rows:
        st = sis.state.students[r["student_id"]]
        assert r["applicant_name"] == f"{st.first_name} {st.last_name}" and st.grade_level == 9
        assert r["guardian_email"] == st.contacts[0].email
    assert rows[0]["guardian_email"] == "noah.thompson@outlook.com"
    sibling = ok(svc, "list_applications", {"guardian_email": "EMMA.WILSON@yahoo.com"})
    assert [a["id"] for a in sibling] == ["ADM-0009"]
    assert {s.contacts[0].email for s in sis.state.students.values()} >= {"emma.wilson@yahoo.com"}


def test_reads(svc):
    assert [(r["id"], r["rolling"]) for r in ok(svc, "list_rounds", {"active": True})] == [
        ("RND-0002", False), ("RND-0003", False), ("RND-0004", True)]
    assert [r["email"] for r in ok(svc, "list_readers", {"role": "Faculty Reader", "active": True})] == [
        FACULTY, "kevin.huang@company.example"]
    assert [a["id"] for a in ok(svc, "search_applicants", {"name": "wilson"})] == ["APC-0009", "APC-0017"]
    assert [a["id"] for a in ok(svc, "search_applicants", {"email": "joshua.patel16@gmail.com"})] == ["APC-0005"]
    assert [a["id"] for a in ok(svc, "search_applicants", {"current_school": "st. mary"})] == ["APC-0012",
                                                                                            "APC-0017"]
    apl = ok(svc, "get_applicant", {"applicant_id": "APC-0005"})
    assert apl["applications"] == [{"id": "ADM-0005", "round_id": "RND-0002", "status": "decided"}]
    app = ok(svc, "get_application", {"application_id": "ADM-0005"})
    assert (app["applicant_name"], app["guardian_email"], app["deposit_due"], app["reply_by"]) == (
        "Joshua Patel", "liam.patel@gmail.com", 2850.0, "2026-02-02")
    assert ok(svc, "get_application", {"application_id": "ADM-0009"})["outstanding"] == [
        "Math Teacher Recommendation", "SSAT Score Report"]
    assert [a["id"] for a in ok(svc, "list_applications", {"decision": "admit", "status": "decided"})] == [
        "ADM-0005", "ADM-0013", "ADM-0015", "ADM-0019"]
    assert [a["id"] for a in ok(svc, "list_applications", {"reader_email": "Kevin.Huang@company.example"})] == [
        "ADM-0010"]
    assert [a["id"] for a in ok(svc, "list_applications", {"student_id": "STU-0013"})] == ["ADM-0004"]
    assert code(svc, "get_application", {"application_id": "ADM-0999"}) == 404
    assert code(svc, "get_applicant", {"applicant_id": "APC-0999"}) == 404


def test_new_application_lifecycle(svc):
    a = ok(svc, "create_applicant", {"first_name": "Nora", "last_name": "Quinn", "birthdate": "2010-09-02",
                                     "current_school": "Lincoln Middle School", "current_grade": 9,
                                     "guardian_name": "Dana Quinn", "guardian_email": "dana.quinn@gmail.com",
                                     "guardian_phone": "+1-503-555-0188"})
    assert a["id"] == "APC-0020"
    app = ok(svc, "create_application", {"applicant_id": "APC-0020", "round_id": "RND-0004", "grade_applying": 10})
    assert (app["id"], app["status"], app["outstanding"]) == ("ADM-0020", "awaiting_submission", [
        "Application Form", "Application Fee", "School Transcript", "Counselor Recommendation", "Student Interview"])
    sub = ok(svc, "submit_application", {"application_id": "ADM-0020"})
    assert sub["status"] == "awaiting_materials" and "Application Form" not in sub["outstanding"]
    assert code(svc, "submit_application", {"application_id": "ADM-0020"}) == 409
    assert ok(svc, "update_checklist_item", {"application_id": "ADM-0020", "item": "application fee",
                                             "status": "waived", "note": "Fee waiver: financial need"})["status"] == \
        "waived"
    ok(svc, "update_checklist_item", {"application_id": "ADM-0020", "item": "School Transcript"})
    ok(svc, "update_checklist_item", {"application_id": "ADM-0020", "item": "CHK-0127"})
    done = ok(svc, "update_checklist_item", {"application_id": "ADM-0020", "item": "Student Interview",
                                             "note": "Interviewed by Carlos"})
    assert (done["application_status"], done["outstanding"]) == ("ready_for_review", [])
    assert ok(svc, "assign_reader", {"application_id": "ADM-0020", "reader_email": FACULTY})["reader_email"] == FACULTY
    rev = ok(svc, "add_review", {"application_id": "ADM-0020", "reader_email": FACULTY, "rating": 4,
                                 "recommendation": "admit", "comments": "Thoughtful essay, strong grades."})
    assert rev["id"] == "REV-0016"
    dec = ok(svc, "create_decision", {"application_id": "ADM-0020", "code": "admit", "decided_by": ASSOCIATE,
                                      "financial_aid": 8500})
    assert (dec["net_tuition"], dec["deposit_due"], dec["released"]) == (20000.0, 2000.0, False)
    rel = ok(svc, "release_decision", {"application_id": "ADM-0020"})
    assert (rel["released"], rel["reply_by"]) == (True, "2026-01-29")  # rolling: 14 days
    dep = ok(svc, "record_deposit", {"application_id": "ADM-0020", "amount": 2000, "method": "credit_card"})
    assert (dep["id"], dep["paid_on"]) == ("DEP-0006", "2026-01-15")
    final = ok(svc, "get_application", {"application_id": "ADM-0020"})
    assert (final["status"], final["decision"]["response"], final["deposit_due"]) == ("enrolled", "accept", None)


def test_application_rules(svc):
    assert code(svc, "create_application", {"applicant_id": "APC-0014", "round_id": "RND-0003",
                                            "grade_applying": 9}) == 422  # deadline passed
    assert code(svc, "submit_application", {"application_id": "ADM-0014"}) == 422  # RND-0003 closed 01-11
    assert code(svc, "create_application", {"applicant_id": "APC-0001", "round_id": "RND-0001",
                                            "grade_applying": 9}) == 422  # closed round
    assert code(svc, "create_application", {"applicant_id": "APC-0015", "round_id": "RND-0004",
                                            "grade_applying": 10}) == 409  # live application for Fall 2026
    msg = error(svc, "create_application", {"applicant_id": "APC-0017", "round_id": "RND-0004", "grade_applying": 11})
    assert msg["code"] == 422 and "grade 9" in msg["message"]
    assert ok(svc, "create_application", {"applicant_id": "APC-0017", "round_id": "RND-0004",
                                          "grade_applying": 10})["id"] == "ADM-0020"  # after a withdrawal
    assert code(svc, "create_applicant", {"first_name": "joanne", "last_name": "WILSON", "birthdate": "2012-05-10",
                                          "current_school": "X School", "current_grade": 8, "guardian_name": "E W",
                                          "guardian_email": "e@x.com", "guardian_phone": "+1-555-0100"}) == 409
    assert code(svc, "create_applicant", {"first_name": "A", "last_name": "B", "birthdate": "2027-01-01",
                                          "current_school": "X School", "current_grade": 8, "guardian_name": "E W",
                                          "guardian_email": "e@x.com", "guardian_phone": "+1-555-0100"}) == 400


def test_checklist_rules(svc):
    msg = error(svc, "update_checklist_item", {"application_id": "ADM-0009", "item": "Math Teacher Recommendation",
                                               "status": "waived", "note": "n/a"})
    assert msg["code"] == 422 and "cannot be waived" in msg["message"]
    assert code(svc, "update_checklist_item", {"application_id": "ADM-0009", "item": "SSAT Score Report",
                                               "status": "waived"}) == 400  # no reason
    assert code(svc, "update_checklist_item", {"application_id": "ADM-0009", "item": "Transcript"}) == 404
    assert code(svc, "update_checklist_item", {"application_id": "ADM-0009", "item": "School Transcript"}) == 409
    assert code(svc, "update_checklist_item", {"application_id": "ADM-0014", "item": "Application Form"}) == 422
    assert code(svc, "update_checklist_item", {"application_id": "ADM-0017", "item": "Student Interview"}) == 409
    one = ok(svc, "update_checklist_item", {"application_id": "ADM-0009", "item": "SSAT Score Report",
                                            "status": "waived", "note": "Test-optional for siblings"})
    assert (one["application_status"], one["outstanding"]) == ("awaiting_materials", ["Math Teacher Recommendation"])


def test_review_and_decision_rules(svc):
    assert code(svc, "add_review", {"application_id": "ADM-0009", "reader_email": FACULTY, "rating": 3,
                                    "recommendation": "admit", "comments": "Too early"}) == 409  # incomplete
    assert code(svc, "add_review", {"application_id": "ADM-0011", "reader_email": "kevin.huang@company.example",
                                    "rating": 3, "recommendation": "admit", "comments": "Second read"}) == 409
    assert code(svc, "add_review", {"application_id": "ADM-0011", "reader_email": "paul.weber@company.example",
                                    "rating": 3, "recommendation": "admit", "comments": "Second read"}) == 422
    assert code(svc, "add_review", {"application_id": "ADM-0011", "reader_email": "nobody@company.example",
                                    "rating": 3, "recommendation": "admit", "comments": "Second read"}) == 404
    assert code(svc, "create_decision", {"application_id": "ADM-0012", "code": "admit",
                                         "decided_by": DIRECTOR}) == 422  # no review
    msg = error(svc, "create_decision", {"application_id": "ADM-0011", "code": "admit", "decided_by": FACULTY})
    assert msg["code"] == 422 and "Faculty Reader" in msg["message"]
    assert code(svc, "create_decision", {"application_id": "ADM-0011", "code": "deny", "decided_by": DIRECTOR,
                                         "financial_aid": 100}) == 400
    assert code(svc, "create_decision", {"application_id": "ADM-0011", "code": "admit", "decided_by": DIRECTOR,
                                         "financial_aid": 30000}) == 422
    assert code(svc, "create_decision", {"application_id": "ADM-0007", "code": "admit",
                                         "decided_by": DIRECTOR}) == 409  # released deny is final
    # a staged decision is replaced; release waits for the round's date
    new = ok(svc, "create_decision", {"application_id": "ADM-0013", "code": "waitlist", "decided_by": DIRECTOR})
    app = ok(svc, "get_application", {"application_id": "ADM-0013"})
    assert [d["id"] for d in app["decisions"]] == [new["id"]] and new["id"] == "DEC-0012"
    msg = error(svc, "release_decision", {"application_id": "ADM-0013"})
    assert msg["code"] == 422 and "2026-03-02" in msg["message"]
    assert code(svc, "release_decision", {"application_id": "ADM-0005"}) == 409  # already released
    # the waitlist may later admit
    up = ok(svc, "create_decision", {"application_id": "ADM-0008", "code": "admit", "decided_by": ASSOCIATE})
    assert up["deposit_due"] == 2850.0
    assert ok(svc, "release_decision", {"application_id": "ADM-0008"})["reply_by"] == "2026-02-02"
    assert code(svc, "create_decision", {"application_id": "ADM-0008", "code": "deny",
                                         "decided_by": ASSOCIATE}) == 409


def test_replies_and_deposits(svc):
    msg = error(svc, "record_deposit", {"application_id": "ADM-0005", "amount": 2500})
    assert msg["code"] == 422 and "2,850.00" in msg["message"]
    assert code(svc, "record_deposit", {"application_id": "ADM-0019", "amount": 2850}) == 422  # lapsed 01-09
    assert code(svc, "record_decision_response", {"application_id": "ADM-0019", "response": "accept"}) == 422
    assert code(svc, "record_deposit", {"application_id": "ADM-0006", "amount": 2500}) == 409  # paid
    assert code(svc, "record_deposit", {"application_id": "ADM-0007", "amount": 100}) == 409  # a deny
    assert code(svc, "record_deposit", {"application_id": "ADM-0013", "amount": 2250}) == 409  # staged
    acc = ok(svc, "record_decision_response", {"application_id": "ADM-0005", "response": "accept"})
    assert acc["response"] == "accept"
    assert code(svc, "record_decision_response", {"application_id": "ADM-0005", "response": "decline"}) == 409
    dep = ok(svc, "record_deposit", {"application_id": "ADM-0005", "amount": 2850, "reference": "ACH 99"})
    assert dep["amount"] == 2850.0
    assert ok(svc, "get_application", {"application_id": "ADM-0005"})["status"] == "enrolled"
    no = ok(svc, "record_decision_response", {"application_id": "ADM-0015", "response": "decline"})
    assert no["response"] == "decline"
    assert ok(svc, "get_application", {"application_id": "ADM-0015"})["status"] == "declined"
    assert code(svc, "record_deposit", {"application_id": "ADM-0015", "amount": 2450}) == 409


def test_withdraw_and_comment(svc):
    w = ok(svc, "withdraw_application", {"application_id": "ADM-0006", "reason": "Family chose another school"})
    assert (w["status"], w["withdraw_reason"]) == ("withdrawn", "Family chose another school")
    assert code(svc, "withdraw_application", {"application_id": "ADM-0006", "reason": "again"}) == 409
    c = ok(svc, "add_comment", {"application_id": "ADM-0009", "author_email": DIRECTOR, "body": "Call re SSAT."})
    assert c["id"] == "CMT-0002"
    assert [x["body"] for x in ok(svc, "get_application", {"application_id": "ADM-0009"})["comments"]][-1] == \
        "Call re SSAT."
    assert code(svc, "add_comment", {"application_id": "ADM-0999", "author_email": DIRECTOR, "body": "x y"}) == 404
    assert code(svc, "assign_reader", {"application_id": "ADM-0011", "reader_email": ASSOCIATE}) == 409
    assert code(svc, "assign_reader", {"application_id": "ADM-0014", "reader_email": ASSOCIATE}) == 409


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("record_deposit", {"application_id": "ADM-0005", "amount": 1})["success"] is False
    assert svc.call("create_decision", {"application_id": "ADM-0012", "code": "admit",
                                        "decided_by": DIRECTOR})["success"] is False
    assert svc.state_dict() == before
    assert make_service(Admissions, seed=5).state_dict() == make_service(Admissions, seed=5).state_dict()
