"""Tests of the benefits service (Noyo / Gusto benefits shapes)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.benefits import Benefits


@pytest.fixture
def svc(make_service):
    return make_service(Benefits)


def test_group_plans_and_rates(svc):
    g = ok(svc, "get_group")
    assert (g["open_enrollment_start"], g["open_enrollment_end"], g["open_enrollment_active"],
            g["pay_periods_per_year"]) == ("2025-11-01", "2025-11-30", False, 24)
    medical = ok(svc, "list_plans", {"line_of_coverage": "medical"})
    assert [p["id"] for p in medical] == ["PLN-0001", "PLN-0002", "PLN-0003"]
    ppo = ok(svc, "get_plan", {"plan_id": "PLN-0001"})
    assert [(r["tier"], r["monthly_premium"], r["employer_contribution"]) for r in ppo["rates"]] == [
        ("employee", 640.0, 512.0), ("employee_spouse", 1344.0, 934.4), ("employee_children", 1216.0, 857.6),
        ("family", 1920.0, 1280.0)]
    assert ok(svc, "get_plan", {"plan_id": "PLN-0006"})["employer_match_pct"] == 0.04
    assert code(svc, "get_plan", {"plan_id": "PLN-0099"}) == 404
    assert code(svc, "list_plans", {"line_of_coverage": "life"}) == 400


def test_employees_dependents_and_deductions(svc):
    hire = ok(svc, "list_employees", {"email": "MICHAEL.TERRY@yahoo.com"})
    assert [(e["id"], e["email"], e["hire_date"]) for e in hire] == [
        ("EMP-0051", "michael.terry@company.example", "2026-02-20")]
    assert [e["id"] for e in ok(svc, "list_employees", {"email": "grace.okafor@company.example"})] == ["EMP-0010"]
    assert len(ok(svc, "list_employees", {"department": "finance"})) == 3
    emp = ok(svc, "get_employee", {"employee_id": "EMP-0018"})
    assert [(d["id"], d["relationship"]) for d in emp["dependents"]] == [("DEP-0010", "spouse"), ("DEP-0011", "child")]
    assert [e["id"] for e in emp["enrollments"]] == ["ENR-0014"]
    assert emp["total_deduction_per_paycheck"] == 204.8 and emp["open_life_events"][0]["id"] == "QLE-0002"
    assert ok(svc, "get_employee", {"employee_id": "EMP-0051"})["new_hire_window_ends"] == "2026-03-22"
    assert [d["id"] for d in ok(svc, "list_dependents", {"employee_id": "EMP-0008"})] == ["DEP-0001", "DEP-0002",
                                                                                          "DEP-0003"]
    ded = ok(svc, "get_payroll_deductions", {"employee_id": "EMP-0008"})
    assert [d["deduction_per_paycheck"] for d in ded["deductions"]] == [164.0, 26.56, 4.66]
    assert ded["total_per_paycheck"] == 195.22
    assert code(svc, "get_employee", {"employee_id": "EMP-0999"}) == 404


def test_enrollment_and_event_reads(svc):
    assert [e["id"] for e in ok(svc, "list_enrollments", {"employee_id": "EMP-0013"})] == ["ENR-0004", "ENR-0005",
                                                                                         "ENR-0023"]
    assert [e["id"] for e in ok(svc, "list_enrollments", {"status": "terminated"})] == ["ENR-0023"]
    assert len(ok(svc, "list_enrollments", {"line_of_coverage": "401k"})) == 3
    assert len(ok(svc, "list_enrollments", {"plan_id": "PLN-0004", "limit": 2})) == 2
    enr = ok(svc, "get_enrollment", {"enrollment_id": "ENR-0023"})
    assert (enr["status"], enr["life_event_id"], enr["end_date"]) == ("terminated", "QLE-0004", "2025-12-31")
    events = ok(svc, "list_life_events", {"status": "pending"})
    assert [(e["id"], e["event_type"], e["window_open"]) for e in events] == [
        ("QLE-0001", "marriage", True), ("QLE-0002", "birth", True), ("QLE-0003", "loss_of_coverage", False)]
    assert ok(svc, "get_life_event", {"life_event_id": "QLE-0004"})["enrollment_ids"] == ["ENR-0023"]
    assert [e["id"] for e in ok(svc, "list_life_events", {"employee_id": "EMP-0010", "event_type": "marriage"})] == [
        "QLE-0001"]
    assert code(svc, "get_life_event", {"life_event_id": "QLE-0099"}) == 404


def test_marriage_adds_spouse_and_recomputes_deduction(svc):
    upd = ok(svc, "update_enrollment", {"enrollment_id": "ENR-0012", "reason": "qualifying_life_event",
                                        "life_event_id": "QLE-0001", "tier": "employee_spouse",
                                        "dependent_ids": ["DEP-0009"]})
    assert (upd["tier"], upd["monthly_premium"], upd["employer_contribution"], upd["employee_monthly_deduction"],
            upd["deduction_per_paycheck"], upd["effective_date"]) == ("employee_spouse", 1344.0, 934.4, 409.6, 204.8,
                                                                      "2026-02-01")
    ev = ok(svc, "get_life_event", {"life_event_id": "QLE-0001"})
    assert (ev["status"], ev["enrollment_ids"]) == ("processed", ["ENR-0012"])
    assert code(svc, "update_enrollment", {"enrollment_id": "ENR-0012", "reason": "qualifying_life_event",
                                           "life_event_id": "QLE-0001", "tier": "employee_spouse",
                                           "dependent_ids": ["DEP-0009"]}) == 409  # nothing to change


def test_birth_moves_to_family_tier(svc):
    upd = ok(svc, "update_enrollment", {"enrollment_id": "ENR-0014", "reason": "qualifying_life_event",
                                        "life_event_id": "QLE-0002", "tier": "family",
                                        "dependent_ids": ["DEP-0010", "DEP-0011"]})
    assert (upd["tier"], upd["deduction_per_paycheck"], upd["effective_date"]) == ("family", 320.0, "2025-12-26")


def test_rule_changes_need_a_window(svc):
    msg = error(svc, "update_enrollment", {"enrollment_id": "ENR-0022", "reason": "open_enrollment",
                                           "plan_id": "PLN-0002"})
    assert msg["code"] == 422 and "2025-11-01 to 2025-11-30" in msg["message"]
    assert "closed on" in error(svc, "update_enrollment", {"enrollment_id": "ENR-0022", "reason": "new_hire",
                                                            "plan_id": "PLN-0002"})["message"]
    expired = error(svc, "update_enrollment", {"enrollment_id": "ENR-0015", "reason": "qualifying_life_event",
                                               "life_event_id": "QLE-0003", "tier": "employee_spouse",
                                               "dependent_ids": ["DEP-0012"]})
    assert expired["code"] == 422 and "ended on 2026-01-05" in expired["message"]
    assert code(svc, "update_enrollment", {"enrollment_id": "ENR-0022", "reason": "qualifying_life_event",
                                           "life_event_id": "QLE-0001", "plan_id": "PLN-0002"}) == 422  # not theirs
    assert code(svc, "update_enrollment", {"enrollment_id": "ENR-0022", "reason": "qualifying_life_event",
                                           "plan_id": "PLN-0002"}) == 422  # no event cited


def test_rule_event_type_limits_who_is_added(svc):
    child = ok(svc, "add_dependent", {"employee_id": "EMP-0010", "first_name": "Ivy", "last_name": "Okafor",
                                      "relationship": "child", "date_of_birth": "2019-04-02"})
    assert child["id"] == "DEP-0013"
    msg = error(svc, "update_enrollment", {"enrollment_id": "ENR-0012", "reason": "qualifying_life_event",
                                           "life_event_id": "QLE-0001", "tier": "family",
                                           "dependent_ids": ["DEP-0009", "DEP-0013"]})
    assert msg["code"] == 422 and "cannot add a child" in msg["message"]


def test_rule_dependents_must_fit_tier_and_belong(svc):
    msg = error(svc, "update_enrollment", {"enrollment_id": "ENR-0012", "reason": "qualifying_life_event",
                                           "life_event_id": "QLE-0001", "tier": "family", "dependent_ids": ["DEP-0009"]})
    assert msg["code"] == 422 and "tier family covers" in msg["message"]
    assert code(svc, "update_enrollment", {"enrollment_id": "ENR-0012", "reason": "qualifying_life_event",
                                           "life_event_id": "QLE-0001", "tier": "employee_spouse",
                                           "dependent_ids": ["DEP-0001"]}) == 422  # EMP-0008's spouse
    assert code(svc, "update_enrollment", {"enrollment_id": "ENR-0012", "reason": "qualifying_life_event",
                                           "life_event_id": "QLE-0001", "plan_id": "PLN-0004"}) == 422  # dental plan
    assert code(svc, "update_enrollment", {"enrollment_id": "ENR-0023", "reason": "open_enrollment"}) == 409


def test_new_hire_enrolls_and_one_per_line(svc):
    enr = ok(svc, "create_enrollment", {"employee_id": "EMP-0051", "plan_id": "PLN-0003", "tier": "employee",
                                        "reason": "new_hire"})
    assert (enr["id"], enr["effective_date"], enr["deduction_per_paycheck"]) == ("ENR-0024", "2026-03-01", 0.0)
    assert code(svc, "create_enrollment", {"employee_id": "EMP-0051", "plan_id": "PLN-0001", "tier": "employee",
                                           "reason": "new_hire"}) == 409
    assert code(svc, "create_enrollment", {"employee_id": "EMP-0051", "plan_id": "PLN-0006", "tier": "employee",
                                           "reason": "new_hire"}) == 422  # 401(k) needs a deferral
    assert code(svc, "create_enrollment", {"employee_id": "EMP-0051", "plan_id": "PLN-0004", "tier": "employee",
                                           "reason": "new_hire", "contribution_pct": 0.05}) == 422
    k = ok(svc, "create_enrollment", {"employee_id": "EMP-0051", "plan_id": "PLN-0006", "tier": "employee",
                                      "reason": "new_hire", "contribution_pct": 0.05})
    assert (k["line_of_coverage"], k["contribution_pct"], k["monthly_premium"]) == ("401k", 0.05, 0.0)
    assert code(svc, "create_enrollment", {"employee_id": "EMP-0020", "plan_id": "PLN-0004", "tier": "employee",
                                           "reason": "new_hire"}) == 422  # hired long ago


def test_report_life_event_and_dependents(svc):
    assert code(svc, "report_life_event", {"employee_id": "EMP-0020", "event_type": "marriage",
                                           "event_date": "2025-12-01"}) == 422  # over 30 days ago
    assert code(svc, "report_life_event", {"employee_id": "EMP-0020", "event_type": "birth",
                                           "event_date": "2026-01-20"}) == 422  # future
    assert code(svc, "report_life_event", {"employee_id": "EMP-0020", "event_type": "marriage",
                                           "event_date": "2026-01-10", "dependent_ids": ["DEP-0001"]}) == 422
    ev = ok(svc, "report_life_event", {"employee_id": "EMP-0020", "event_type": "marriage",
                                       "event_date": "2026-01-10"})
    assert (ev["id"], ev["special_enrollment_ends"], ev["status"], ev["window_open"]) == (
        "QLE-0005", "2026-02-09", "pending", True)
    assert code(svc, "report_life_event", {"employee_id": "EMP-0020", "event_type": "marriage",
                                           "event_date": "2026-01-10"}) == 409
    assert code(svc, "add_dependent", {"employee_id": "EMP-0010", "first_name": "Al", "last_name": "Okafor",
                                       "relationship": "domestic_partner", "date_of_birth": "1990-01-01"}) == 409
    assert code(svc, "add_dependent", {"employee_id": "EMP-0010", "first_name": "Al", "last_name": "Okafor",
                                       "relationship": "child", "date_of_birth": "1995-01-01"}) == 422  # 31
    assert code(svc, "add_dependent", {"employee_id": "EMP-0010", "first_name": "Al", "last_name": "Okafor",
                                       "date_of_birth": "2026-02-01"}) == 422


def test_terminate_enrollment(svc):
    t = ok(svc, "terminate_enrollment", {"enrollment_id": "ENR-0013", "reason": "qualifying_life_event",
                                         "life_event_id": "QLE-0001"})
    assert (t["status"], t["end_date"]) == ("terminated", "2026-01-31")
    assert code(svc, "terminate_enrollment", {"enrollment_id": "ENR-0013", "reason": "qualifying_life_event",
                                              "life_event_id": "QLE-0001"}) == 409
    assert code(svc, "terminate_enrollment", {"enrollment_id": "ENR-0022", "reason": "open_enrollment"}) == 422
    assert ok(svc, "get_payroll_deductions", {"employee_id": "EMP-0010"})["total_per_paycheck"] == 64.0


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("update_enrollment", {"enrollment_id": "ENR-0012", "reason": "open_enrollment",
                                          "tier": "employee_spouse", "dependent_ids": ["DEP-0009"]})["success"] is False
    assert svc.state_dict() == before
    assert make_service(Benefits, seed=3).state_dict() == make_service(Benefits, seed=3).state_dict()
