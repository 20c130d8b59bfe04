"""Tests of the hr_directory service (shared roster, org chart, writes, errors)."""

from __future__ import annotations

import contextlib
import signal

import pytest
from _svc_asserts import data, error, failed

from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services.hr_directory import HrDirectory


@pytest.fixture
def hr(make_service):
    return make_service(HrDirectory)


def test_roster_contains_fixed_company_staff(hr):
    emails = {e.email for e in hr.state.employees.values()}
    assert {s.email for s in STAFF} <= emails
    assert len(hr.state.employees) == 22
    priya = data(hr.call("get_employee_by_email", {"email": "PRIYA.RAMAN@company.example"}))
    assert priya["department"] == "Billing Operations" and priya["title"] == "Billing Operations Lead"


def test_same_seed_same_people_across_services(make_service):
    from compoworld_gym.envs.services.leave import Leave
    from compoworld_gym.envs.services.payroll import Payroll

    hr, lv, pay = make_service(HrDirectory, 3), make_service(Leave, 3), make_service(Payroll, 3)
    for eid, e in hr.state.employees.items():
        assert lv.state.employees[eid].email == e.email == pay.state.employees[eid].email


def test_search_and_get(hr):
    billing = data(hr.call("search_employees", {"department": "billing operations"}))
    assert sorted(e["id"] for e in billing) == ["EMP-0003", "EMP-0004", "EMP-0005"]
    assert [e["id"] for e in data(hr.call("search_employees", {"query": "elena"}))] == ["EMP-0006"]
    assert data(hr.call("search_employees", {"title": "counsel"}))[0]["email"] == "aisha.khan@company.example"
    assert len(data(hr.call("search_employees", {"limit": 2}))) == 2
    austin = data(hr.call("search_employees", {"location": "Austin"}))
    assert {e["department"] for e in austin} <= {"Billing Operations", "Customer Support", "Executive"}
    assert len(data(hr.call("search_employees", {"status": "on_leave"}))) == 1
    emp = data(hr.call("get_employee", {"employee_id": "EMP-0004"}))
    assert emp["name"] == "Marcus Bell" and emp["manager_email"] == "priya.raman@company.example"
    failed(hr.call("get_employee", {"employee_id": "EMP-9999"}), 404)
    failed(hr.call("get_employee_by_email", {"email": "nobody@company.example"}), 404)
    failed(hr.call("get_employee_by_email", {"email": "not-an-email"}), 400)


def test_departments_and_org_queries(hr):
    depts = {d["name"]: d for d in data(hr.call("list_departments", {}))}
    assert depts["Finance"]["head_email"] == "elena.petrova@company.example"
    assert depts["Finance"]["headcount"] == 3 and depts["Executive"]["cost_center"] == "CC-100"
    assert data(hr.call("get_manager", {"employee_id": "EMP-0004"}))["id"] == "EMP-0003"
    failed(hr.call("get_manager", {"employee_id": "EMP-0001"}), 404)
    reports = data(hr.call("list_direct_reports", {"employee_id": "EMP-0009"}))
    assert [r["name"] for r in reports] == ["Grace Okafor", hr.state.employees["EMP-0011"].name]
    chain = data(hr.call("get_reporting_chain", {"employee_id": "EMP-0004"}))
    assert [c["id"] for c in chain] == ["EMP-0003", "EMP-0002", "EMP-0001"]
    chart = data(hr.call("get_org_chart", {"depth": 2}))
    assert chart["id"] == "EMP-0001"
    coo = next(n for n in chart["reports"] if n["id"] == "EMP-0002")
    assert {n["id"] for n in coo["reports"]} == {"EMP-0003", "EMP-0009", "EMP-0014", "EMP-0017"}
    assert "reports" not in coo["reports"][0]
    sub = data(hr.call("get_org_chart", {"root_employee_id": "EMP-0006", "depth": 1}))
    assert [r["id"] for r in sub["reports"]] == ["EMP-0007", "EMP-0008"]
    assert data(hr.call("find_common_manager", {"employee_id_a": "EMP-0004", "employee_id_b": "EMP-0018"}))["id"] == "EMP-0002"
    assert data(hr.call("find_common_manager", {"employee_id_a": "EMP-0004", "employee_id_b": "EMP-0007"}))["id"] == "EMP-0001"
    failed(hr.call("find_common_manager", {"employee_id_a": "EMP-0001", "employee_id_b": "EMP-0004"}), 404)


def test_create_employee(hr):
    new = data(hr.call("create_employee", {
        "name": "Dana Whitfield", "email": "dana.whitfield@company.example", "title": "Billing Specialist",
        "department": "billing operations", "manager_email": "priya.raman@company.example",
        "location": "Austin", "start_date": "2026-02-02", "phone": "+15125550177"}))
    assert new["id"] == "EMP-0023" and new["department"] == "Billing Operations"
    assert new["start_date"] == "2026-02-02" and new["status"] == "active"
    assert "EMP-0023" in [r["id"] for r in data(hr.call("list_direct_reports", {"employee_id": "EMP-0003"}))]
    base = {"name": "X Y", "title": "T", "manager_email": "priya.raman@company.example", "location": "Austin",
            "start_date": "2026-02-02"}
    failed(hr.call("create_employee", {**base, "email": "marcus.bell@company.example", "department": "Finance"}), 409)
    failed(hr.call("create_employee", {**base, "email": "x@company.example", "department": "Marketing"}), 400)
    failed(hr.call("create_employee", {**base, "email": "x@company.example", "department": "Finance",
                                    "manager_email": "ghost@company.example"}), 404)
    failed(hr.call("create_employee", {"name": "X"}), 400)


def test_update_employee_and_cycle_rollback(hr):
    upd = data(hr.call("update_employee", {"employee_id": "EMP-0004", "title": "Senior Billing Specialist",
                                         "location": "Chicago"}))
    assert upd["title"] == "Senior Billing Specialist" and upd["location"] == "Chicago"
    moved = data(hr.call("update_employee", {"employee_id": "EMP-0004", "manager_email": "daniel.cho@company.example",
                                           "department": "Logistics"}))
    assert moved["manager_email"] == "daniel.cho@company.example" and moved["department"] == "Logistics"
    before = hr.state_dict()
    # The COO managing their own report's report would be a cycle.
    failed(hr.call("update_employee", {"employee_id": "EMP-0002", "manager_email": "priya.raman@company.example"}), 409)
    failed(hr.call("update_employee", {"employee_id": "EMP-0004"}), 400)
    assert hr.state_dict() == before


def test_terminate_employee_with_reassignment(hr):
    msg = failed(hr.call("terminate_employee", {"employee_id": "EMP-0003", "end_date": "2026-01-31"}), 409)
    assert "marcus.bell@company.example" in msg
    coo = hr.state.employees["EMP-0002"].email
    out = data(hr.call("terminate_employee", {"employee_id": "EMP-0003", "end_date": "2026-01-31",
                                            "reassign_reports_to": coo}))
    assert out["status"] == "terminated" and out["reassigned_reports"] == ["EMP-0004", "EMP-0005"]
    assert hr.state.employees["EMP-0004"].manager_email == coo
    failed(hr.call("terminate_employee", {"employee_id": "EMP-0003", "end_date": "2026-01-31"}), 409)
    failed(hr.call("update_employee", {"employee_id": "EMP-0003", "title": "x"}), 409)
    failed(hr.call("terminate_employee", {"employee_id": "EMP-0004", "end_date": "1990-01-01"}), 422)
    assert hr.call("no_such_tool", {})["error"]["code"] == 404


@contextlib.contextmanager
def _deadline(seconds: float = 5.0):
    """Turn a runaway loop into a TimeoutError (the service reports it as a 500) instead of a hung test."""

    def expire(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_terminating_the_ceo_promotes_the_chosen_direct_report(hr):
    # Fuzz seed 1000020: this reassignment used to make EMP-0002 her own manager; the next
    # manager change then walked that loop forever and get_org_chart found no top.
    coo = hr.state.employees["EMP-0002"].email
    ceo_reports = [r["id"] for r in data(hr.call("list_direct_reports", {"employee_id": "EMP-0001"}))]
    assert "EMP-0002" in ceo_reports and len(ceo_reports) > 1
    out = data(hr.call("terminate_employee", {"employee_id": "EMP-0001", "end_date": "2026-01-31",
                                            "reassign_reports_to": coo}))
    assert hr.state.employees["EMP-0002"].manager_email is None  # the top now, not her own manager
    assert out["promoted_report"] == "EMP-0002" and out["reassigned_reports"] == ceo_reports
    assert all(hr.state.employees[i].manager_email == coo for i in ceo_reports if i != "EMP-0002")
    with _deadline():
        assert data(hr.call("get_org_chart", {"depth": 1}))["id"] == "EMP-0002"
        chain = data(hr.call("get_reporting_chain", {"employee_id": "EMP-0004"}))
        assert [c["id"] for c in chain] == ["EMP-0003", "EMP-0002"]
        moved = data(hr.call("update_employee", {"employee_id": "EMP-0004", "manager_email": coo}))
        assert moved["manager_email"] == coo


def test_terminate_refuses_a_new_manager_from_below_the_reports(hr):
    # Marcus (EMP-0004) reports to Priya (EMP-0003), a direct report of EMP-0002: taking over
    # EMP-0002's reports, he would manage his own manager.
    marcus = hr.state.employees["EMP-0004"].email
    err = error(hr, "terminate_employee", {"employee_id": "EMP-0002", "end_date": "2026-01-31",
                                          "reassign_reports_to": marcus})
    assert err["code"] == 409 and "reporting cycle" in err["message"] and "Choose a manager" in err["message"]
    own = hr.state.employees["EMP-0002"].email
    err = error(hr, "terminate_employee", {"employee_id": "EMP-0002", "end_date": "2026-01-31",
                                          "reassign_reports_to": own})
    assert err["code"] == 400 and "other than the leaving employee" in err["message"]


def test_update_employee_refuses_self_management(hr):
    marcus = hr.state.employees["EMP-0004"].email
    err = error(hr, "update_employee", {"employee_id": "EMP-0004", "manager_email": marcus})
    assert err["code"] == 409 and "managed by themselves" in err["message"]


def test_manager_walks_end_on_a_loop_in_the_initial_state(make_service):
    # A task's initial state is data: here EMP-0002 -> EMP-0004 -> EMP-0003 -> EMP-0002.
    state = make_service(HrDirectory).state_dict()
    state["employees"]["EMP-0002"]["manager_email"] = state["employees"]["EMP-0004"]["email"]
    hr = make_service(HrDirectory, state=state)
    priya = hr.state.employees["EMP-0003"].email
    with _deadline():
        for tool, args in (("get_reporting_chain", {"employee_id": "EMP-0004"}),
                           ("find_common_manager", {"employee_id_a": "EMP-0004", "employee_id_b": "EMP-0007"}),
                           ("update_employee", {"employee_id": "EMP-0018", "manager_email": priya})):
            err = error(hr, tool, args)
            assert err["code"] == 409 and "loops back" in err["message"], (tool, err)
        ceo = hr.state.employees["EMP-0001"].email
        data(hr.call("update_employee", {"employee_id": "EMP-0002", "manager_email": ceo}))  # the repair
        chain = data(hr.call("get_reporting_chain", {"employee_id": "EMP-0004"}))
    assert [c["id"] for c in chain] == ["EMP-0003", "EMP-0002", "EMP-0001"]
