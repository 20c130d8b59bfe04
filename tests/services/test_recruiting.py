"""Tests of the recruiting service (Greenhouse-style applicant tracking)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.recruiting import Recruiting

JAMAL, HANNAH, PRIYA, MARCUS = ("jamal.wright@company.example", "hannah.kovacs@company.example",
                                "priya.raman@company.example", "marcus.bell@company.example")
OPS = "ops@company.example"


@pytest.fixture
def svc(make_service):
    return make_service(Recruiting)


def test_seeded_pipeline(svc):
    st = svc.state
    sizes = (len(st.jobs), len(st.candidates), len(st.applications), len(st.interviews), len(st.offers))
    assert sizes == (5, 14, 14, 17, 3)
    managers = [j.hiring_manager_email for j in st.jobs.values()]
    assert managers == [JAMAL, PRIYA, "ben.foster@company.example", "daniel.cho@company.example",
                        "elena.petrova@company.example"]
    hired = st.applications["APP-0006"]
    assert (hired.status, hired.start_date) == ("hired", st.offers["OFR-0002"].start_date)
    assert st.jobs["REQ-0002"].openings[0].application_id == "APP-0006"
    assert Recruiting.seed_state(0, svc.today) == Recruiting.seed_state(0, svc.today)


def test_reads(svc):
    assert [j["id"] for j in ok(svc, "list_jobs", {"hiring_manager_email": PRIYA})] == ["REQ-0002"]
    assert len(ok(svc, "list_jobs", {"status": "open"})) == 5
    job = ok(svc, "get_job", {"job_id": "REQ-0004"})
    assert job["stages"][-1] == "Offer" and len(job["openings"]) == 2
    assert code(svc, "get_job", {"job_id": "REQ-0099"}) == 404
    cands = ok(svc, "list_candidates", {"email": "Troy.Wilson@yahoo.com"})
    assert [c["id"] for c in cands] == ["CAN-0012"]
    assert ok(svc, "get_candidate", {"candidate_id": "CAN-0012"})["application_ids"] == ["APP-0012"]
    offers = [a["id"] for a in ok(svc, "list_applications", {"current_stage": "offer", "status": "active"})]
    assert offers == ["APP-0003", "APP-0012"]
    assert len(ok(svc, "list_applications", {"job_id": "REQ-0001"})) == 4
    mine = ok(svc, "list_applications", {"hiring_manager_email": "Daniel.Cho@company.example", "status": "active"})
    assert [a["id"] for a in mine] == ["APP-0011", "APP-0012"]
    app = ok(svc, "get_application", {"application_id": "APP-0003"})
    assert [i["stage"] for i in app["interviews"]] == ["Phone Screen", "Technical Interview", "Onsite"]
    assert [o["status"] for o in app["offers"]] == ["unresolved"]
    assert code(svc, "get_application", {"application_id": "APP-0999"}) == 404
    sched = ok(svc, "list_scheduled_interviews", {"status": "scheduled", "interviewer_email": JAMAL})
    assert [i["id"] for i in sched] == ["INT-0016"]


def test_candidate_and_application(svc):
    c = ok(svc, "create_candidate", {"first_name": "Ana", "last_name": "Lima", "email": "Ana.Lima@mail.example",
                                     "company": "Lima Labs"})
    assert (c["id"], c["email"]) == ("CAN-0015", "ana.lima@mail.example")
    assert code(svc, "create_candidate", {"first_name": "A", "last_name": "L", "email": "ana.lima@mail.example"}) == 409
    n = ok(svc, "add_candidate_note", {"candidate_id": "CAN-0015", "user_email": OPS, "body": "Referred by Jamal."})
    assert (n["candidate_id"], n["body"]) == ("CAN-0015", "Referred by Jamal.")
    a = ok(svc, "create_application", {"candidate_id": "CAN-0015", "job_id": "REQ-0001", "source": "Referral"})
    assert (a["id"], a["current_stage"], a["hiring_manager_email"]) == ("APP-0015", "Application Review", JAMAL)
    assert code(svc, "create_application", {"candidate_id": "CAN-0015", "job_id": "REQ-0001"}) == 409
    assert code(svc, "create_application", {"candidate_id": "CAN-0099", "job_id": "REQ-0001"}) == 404


def test_stage_moves(svc):
    assert ok(svc, "advance_application", {"application_id": "APP-0001"})["current_stage"] == "Phone Screen"
    msg = error(svc, "move_application", {"application_id": "APP-0001", "to_stage": "Offer"})
    assert msg["code"] == 422 and "completed interview" in msg["message"]
    assert code(svc, "move_application", {"application_id": "APP-0001", "to_stage": "Phone Screen"}) == 409
    assert code(svc, "move_application", {"application_id": "APP-0001", "to_stage": "Lunch"}) == 422
    back = ok(svc, "move_application", {"application_id": "APP-0007", "to_stage": "Phone Screen"})
    assert [h["stage"] for h in back["history"]][-1] == "Phone Screen"
    assert ok(svc, "advance_application", {"application_id": "APP-0007"})["current_stage"] == "Technical Interview"
    assert code(svc, "advance_application", {"application_id": "APP-0003"}) == 422
    assert code(svc, "advance_application", {"application_id": "APP-0006"}) == 409
    assert "unreject" in error(svc, "move_application", {"application_id": "APP-0004", "to_stage": "Onsite"})["message"]


def test_reject_and_unreject(svc):
    r = ok(svc, "reject_application", {"application_id": "APP-0003", "rejection_reason": "Withdrew",
                                       "notes": "Took another offer."})
    assert (r["status"], r["rejection_reason"], r["rejection_notes"]) == ("rejected", "Withdrew", "Took another offer.")
    assert svc.state.offers["OFR-0001"].status == "deprecated"
    assert code(svc, "reject_application", {"application_id": "APP-0003", "rejection_reason": "Withdrew"}) == 409
    assert code(svc, "reject_application", {"application_id": "APP-0002", "rejection_reason": "Bad vibes"}) == 400
    ok(svc, "reject_application", {"application_id": "APP-0002", "rejection_reason": "Other"})
    assert svc.state.interviews["INT-0016"].status == "cancelled"
    u = ok(svc, "unreject_application", {"application_id": "APP-0003"})
    assert (u["status"], u["rejection_reason"], u["current_stage"]) == ("active", None, "Offer")
    assert code(svc, "unreject_application", {"application_id": "APP-0003"}) == 409
    assert code(svc, "reject_application", {"application_id": "APP-0006", "rejection_reason": "Other"}) == 409


def test_interviews_and_scorecards(svc):
    i = ok(svc, "schedule_interview", {"application_id": "APP-0011", "interviewers": ["Daniel.Cho@company.example"],
                                       "start": "2026-01-20T10:00:00", "duration_minutes": 30})
    assert (i["id"], i["stage"], i["end"], i["status"]) == ("INT-0018", "Phone Screen", "2026-01-20T10:30:00", "scheduled")
    base = {"application_id": "APP-0005", "start": "2026-01-16T14:30:00"}
    assert code(svc, "schedule_interview", {**base, "interviewers": [PRIYA]}) == 409  # overlaps INT-0017
    assert code(svc, "schedule_interview", {**base, "interviewers": ["someone@else.example"]}) == 422
    assert code(svc, "schedule_interview", {**base, "start": "2026-01-10T10:00:00", "interviewers": [MARCUS]}) == 422
    assert code(svc, "schedule_interview", {**base, "application_id": "APP-0001", "interviewers": [MARCUS]}) == 422
    msg = error(svc, "submit_scorecard", {"interview_id": "INT-0017", "interviewer_email": PRIYA,
                                          "overall_recommendation": "yes"})
    assert msg["code"] == 422 and "after it took place" in msg["message"]
    done = ok(svc, "submit_scorecard", {"interview_id": "INT-0016", "interviewer_email": HANNAH,
                                        "overall_recommendation": "strong_yes", "notes": "Great debugging."})
    assert done["status"] == "completed" and done["scorecards"][0]["interviewer_email"] == HANNAH
    assert code(svc, "submit_scorecard", {"interview_id": "INT-0016", "interviewer_email": HANNAH,
                                          "overall_recommendation": "yes"}) == 409
    assert code(svc, "submit_scorecard", {"interview_id": "INT-0016", "interviewer_email": PRIYA,
                                          "overall_recommendation": "yes"}) == 422
    assert ok(svc, "cancel_interview", {"interview_id": "INT-0018"})["status"] == "cancelled"
    assert code(svc, "cancel_interview", {"interview_id": "INT-0018"}) == 409


def test_offer_and_hire(svc):
    assert code(svc, "create_offer", {"application_id": "APP-0007", "salary": 90000, "start_date": "2026-03-01"}) == 422
    assert code(svc, "create_offer", {"application_id": "APP-0003", "salary": 90000, "start_date": "2026-03-01"}) == 409
    assert code(svc, "hire_application", {"application_id": "APP-0003"}) == 422  # offer not accepted yet
    assert code(svc, "resolve_offer", {"offer_id": "OFR-0001", "status": "deprecated"}) == 400
    assert ok(svc, "resolve_offer", {"offer_id": "OFR-0001", "status": "rejected"})["status"] == "rejected"
    assert code(svc, "resolve_offer", {"offer_id": "OFR-0001", "status": "accepted"}) == 409
    assert code(svc, "create_offer", {"application_id": "APP-0003", "salary": 95000, "start_date": "2026-01-15"}) == 422
    o = ok(svc, "create_offer", {"application_id": "APP-0003", "salary": 95000, "start_date": "2026-03-02"})
    assert (o["id"], o["status"], o["salary"]) == ("OFR-0004", "unresolved", 95000.0)
    ok(svc, "resolve_offer", {"offer_id": "OFR-0004", "status": "accepted"})
    assert code(svc, "hire_application", {"application_id": "APP-0003", "opening_id": "OPN-0099"}) == 404
    h = ok(svc, "hire_application", {"application_id": "APP-0003"})
    assert (h["status"], h["start_date"]) == ("hired", "2026-03-02")
    assert svc.state.jobs["REQ-0001"].openings[0].status == "filled"
    assert code(svc, "move_application", {"application_id": "APP-0003", "to_stage": "Onsite"}) == 409
    # APP-0012's job has two openings; once both are filled no one else can be hired there.
    ok(svc, "resolve_offer", {"offer_id": "OFR-0003", "status": "accepted"})
    for op in svc.state.jobs["REQ-0004"].openings:
        op.status = "closed"
    assert code(svc, "hire_application", {"application_id": "APP-0012"}) == 422


def test_failed_call_rolls_back(svc):
    # submit_scorecard reads the logical clock (advancing it) before refusing a future interview: the
    # clock tick must be rolled back with the rest.
    before = svc.state_dict()
    res = svc.call("submit_scorecard", {"interview_id": "INT-0017", "interviewer_email": PRIYA,
                                        "overall_recommendation": "yes"})
    assert res["error"]["code"] == 422 and svc.state_dict() == before and svc.state.clock == 0
