"""Tests of the background_checks service (Checkr API shapes)."""

from __future__ import annotations

import datetime as dt

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.background_checks import BackgroundChecks
from compoworld_gym.envs.services.recruiting import Recruiting


@pytest.fixture
def svc(make_service):
    return make_service(BackgroundChecks)


def test_candidates_line_up_with_recruiting(make_service):
    checks, recruiting = make_service(BackgroundChecks, seed=4), make_service(Recruiting, seed=4)
    for cand in checks.state.candidates.values():
        app = recruiting.state.applications[cand.custom_id]
        assert (cand.email, f"{cand.first_name} {cand.last_name}") == (app.candidate_email, app.candidate_name)


def test_packages_and_candidate_reads(svc):
    assert [(p["slug"], p["price"], len(p["screenings"])) for p in ok(svc, "list_packages")] == [
        ("basic", 29.99, 3), ("pro", 79.99, 5)]
    hits = ok(svc, "list_candidates", {"email": "TROY.WILSON@yahoo.com"})
    assert [(c["id"], c["custom_id"], c["driver_license_state"]) for c in hits] == [("CND-0007", "APP-0012", "CA")]
    assert [c["id"] for c in ok(svc, "list_candidates", {"custom_id": "APP-0003"})] == ["CND-0002"]
    cand = ok(svc, "get_candidate", {"candidate_id": "CND-0005"})
    assert [(i["id"], i["status"]) for i in cand["invitations"]] == [("IVT-0005", "expired"), ("IVT-0006", "pending")]
    assert (cand["consent_given_at"], cand["report_ids"]) == (None, [])
    assert code(svc, "get_candidate", {"candidate_id": "CND-0099"}) == 404


def test_invitation_and_report_reads(svc):
    assert [i["id"] for i in ok(svc, "list_invitations", {"status": "pending"})] == ["IVT-0006"]
    assert [i["id"] for i in ok(svc, "list_invitations", {"candidate_id": "CND-0007"})] == ["IVT-0008"]
    assert [r["id"] for r in ok(svc, "list_reports", {"result": "consider"})] == ["RPT-0004", "RPT-0005", "RPT-0006"]
    assert [r["id"] for r in ok(svc, "list_reports", {"status": "pending"})] == ["RPT-0001"]
    assert [r["id"] for r in ok(svc, "list_reports", {"adjudication": "engaged"})] == ["RPT-0003"]
    rep = ok(svc, "get_report", {"report_id": "RPT-0006"})
    assert (rep["package"], rep["result"], rep["candidate_email"], rep["custom_id"]) == (
        "pro", "consider", "troy.wilson@yahoo.com", "APP-0012")
    assert [s["type"] for s in rep["screenings"] if s["result"] == "consider"] == ["motor_vehicle_report"]
    assert [a["id"] for a in rep["adverse_actions"]] == ["AA-0002"]
    assert [a["id"] for a in ok(svc, "list_adverse_actions", {"status": "pending"})] == ["AA-0001", "AA-0002"]
    assert ok(svc, "get_adverse_action", {"adverse_action_id": "AA-0002"})["post_notice_ready_at"] == "2026-01-19"
    assert code(svc, "get_report", {"report_id": "RPT-0099"}) == 404


def test_new_candidate_invitation_flow(svc):
    c = ok(svc, "create_candidate", {"first_name": "Nia", "last_name": "Okoro", "email": "nia.okoro@gmail.com",
                                     "custom_id": "APP-0001"})
    assert (c["id"], c["consent_given_at"]) == ("CND-0008", None)
    assert code(svc, "create_candidate", {"first_name": "N", "last_name": "O", "email": "NIA.OKORO@gmail.com"}) == 409
    inv = ok(svc, "create_invitation", {"candidate_id": "CND-0008", "package": "basic"})
    assert (inv["id"], inv["status"], inv["expires_at"], inv["invitation_url"]) == (
        "IVT-0009", "pending", "2026-01-22", "https://apply.checkr.com/invitations/ivt-0009")
    assert code(svc, "create_invitation", {"candidate_id": "CND-0008", "package": "pro"}) == 409
    assert ok(svc, "cancel_invitation", {"invitation_id": "IVT-0009"})["status"] == "canceled"
    assert code(svc, "cancel_invitation", {"invitation_id": "IVT-0009"}) == 409
    assert code(svc, "cancel_invitation", {"invitation_id": "IVT-0005"}) == 409  # expired


def test_rule_report_needs_consent(svc):
    msg = error(svc, "create_report", {"candidate_id": "CND-0005", "package": "basic"})
    assert msg["code"] == 422 and "has not consented" in msg["message"]
    assert code(svc, "create_report", {"candidate_id": "CND-0002", "package": "pro"}) == 422  # no driver license
    assert code(svc, "create_report", {"candidate_id": "CND-0001", "package": "basic"}) == 409  # one running
    rep = ok(svc, "create_report", {"candidate_id": "CND-0002", "package": "basic"})
    assert (rep["id"], rep["status"], rep["estimated_completion_date"]) == ("RPT-0007", "pending", "2026-01-18")
    assert code(svc, "create_invitation", {"candidate_id": "CND-0002", "package": "basic"}) == 409


def test_engage(svc):
    assert ok(svc, "engage_report", {"report_id": "RPT-0002"})["adjudication"] == "engaged"
    assert code(svc, "engage_report", {"report_id": "RPT-0002"}) == 409
    assert code(svc, "engage_report", {"report_id": "RPT-0001"}) == 409  # pending
    assert code(svc, "engage_report", {"report_id": "RPT-0005"}) == 409  # in adverse action


def test_rule_adverse_action_only_on_consider(svc):
    msg = error(svc, "create_adverse_action", {"report_id": "RPT-0002"})
    assert msg["code"] == 422 and "only for a consider report" in msg["message"]
    assert code(svc, "create_adverse_action", {"report_id": "RPT-0001"}) == 409  # still pending
    assert code(svc, "create_adverse_action", {"report_id": "RPT-0005"}) == 409  # already in progress
    assert code(svc, "create_adverse_action", {"report_id": "RPT-0004", "adverse_items": ["Speeding"]}) == 422
    aa = ok(svc, "create_adverse_action", {"report_id": "RPT-0004"})
    assert (aa["id"], aa["status"], aa["post_notice_ready_at"], aa["adverse_items"]) == (
        "AA-0003", "pending", "2026-01-22", ["Misdemeanor petty theft, 2017, Alameda County, CA"])
    assert ok(svc, "get_report", {"report_id": "RPT-0004"})["adjudication"] == "pre_adverse_action"


def test_rule_post_adverse_after_waiting_period(svc):
    msg = error(svc, "send_post_adverse_action", {"adverse_action_id": "AA-0002"})
    assert msg["code"] == 422 and "runs until 2026-01-19" in msg["message"]
    done = ok(svc, "send_post_adverse_action", {"adverse_action_id": "AA-0001"})
    assert (done["status"], done["post_notice_sent_at"]) == ("complete", "2026-01-15T09:00:00")
    assert ok(svc, "get_report", {"report_id": "RPT-0005"})["adjudication"] == "post_adverse_action"
    assert code(svc, "send_post_adverse_action", {"adverse_action_id": "AA-0001"}) == 409


def test_post_adverse_on_the_ready_day(make_service):
    later = make_service(BackgroundChecks, state=make_service(BackgroundChecks).state_dict())
    later.today = dt.date(2026, 1, 19)
    assert ok(later, "send_post_adverse_action", {"adverse_action_id": "AA-0002"})["status"] == "complete"


def test_cancel_adverse_action_and_tags(svc):
    c = ok(svc, "cancel_adverse_action", {"adverse_action_id": "AA-0002"})
    assert (c["status"], c["canceled_at"]) == ("canceled", "2026-01-15T09:00:00")
    assert ok(svc, "engage_report", {"report_id": "RPT-0006"})["adjudication"] == "engaged"
    assert code(svc, "cancel_adverse_action", {"adverse_action_id": "AA-0002"}) == 409
    t = ok(svc, "add_report_tags", {"report_id": "RPT-0003", "tags": ["onboarding", "case KQ-4821", "onboarding"]})
    assert t["tags"] == ["onboarding", "case KQ-4821"]
    assert code(svc, "add_report_tags", {"report_id": "RPT-0003", "tags": ["onboarding"]}) == 409
    assert code(svc, "add_report_tags", {"report_id": "RPT-0003", "tags": ["x" * 81]}) == 422
    assert code(svc, "add_report_tags", {"report_id": "RPT-0003", "tags": []}) == 400


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("create_adverse_action", {"report_id": "RPT-0002"})["success"] is False
    assert svc.state_dict() == before
    assert make_service(BackgroundChecks, seed=2).state_dict() == make_service(BackgroundChecks, seed=2).state_dict()
