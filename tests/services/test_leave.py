"""Tests of the leave service: day counting, workflow, overlaps, balances, rollback."""

from __future__ import annotations

import pytest
from _svc_asserts import data, failed

from compoworld_gym.envs.services._leave_rules import company_holidays
from compoworld_gym.envs.services.leave import Leave


@pytest.fixture
def lv(make_service):
    return make_service(Leave)


@pytest.fixture
def emp(lv):
    """An employee with a manager and no seeded requests, plus the manager's email."""
    busy = {r.employee_id for r in lv.state.requests.values()}
    e = next(e for e in lv.state.employees.values() if e.manager_email and e.id not in busy)
    return e.id, e.manager_email


def test_holidays_and_day_counting(lv):
    names = {h.date.isoformat(): h.name for h in company_holidays(2026)}
    assert names["2026-01-19"] == "Martin Luther King Jr. Day"
    assert names["2026-05-25"] == "Memorial Day" and names["2026-11-26"] == "Thanksgiving"
    assert len(data(lv.call("list_holidays", {"year": 2026}))) == 8
    # Fri 16 Jan .. Tue 20 Jan: Fri, (Sat, Sun), MLK Monday, Tue -> 2 working days.
    out = data(lv.call("calculate_leave_days", {"start_date": "2026-01-16", "end_date": "2026-01-20"}))
    assert out["working_days"] == 2.0 and [h["name"] for h in out["holidays"]] == ["Martin Luther King Jr. Day"]
    assert data(lv.call("calculate_leave_days", {"start_date": "2026-03-02", "end_date": "2026-03-06"}))["working_days"] == 5
    failed(lv.call("calculate_leave_days", {"start_date": "2026-03-06", "end_date": "2026-03-02"}), 422)


def test_leave_types_and_balance(lv, emp):
    types = {t["leave_type"]: t for t in data(lv.call("list_leave_types", {}))}
    assert types["vacation"]["yearly_allowance_days"] == 20.0 and types["unpaid"]["yearly_allowance_days"] is None
    bal = data(lv.call("get_leave_balance", {"employee_id": emp[0]}))
    assert {b["leave_type"]: b["available"] for b in bal["balances"]} == {"vacation": 20.0, "sick": 10.0, "personal": 3.0}
    failed(lv.call("get_leave_balance", {"employee_id": "EMP-0999"}), 404)


def test_seeded_requests_are_consistent(lv):
    for r in lv.state.requests.values():
        assert r.days > 0 and r.start_date <= r.end_date
        if r.status == "approved" and r.leave_type != "unpaid":
            b = lv.state.balances[f"{r.employee_id}:{r.leave_type}"]
            assert b.used >= r.days and b.available + b.used == {"vacation": 20, "sick": 10, "personal": 3}[r.leave_type]
    pending = data(lv.call("list_leave_requests", {"status": "pending"}))
    assert pending and all(r["status"] == "pending" for r in pending)
    first = pending[0]
    assert data(lv.call("get_leave_request", {"request_id": first["id"]}))["employee_id"] == first["employee_id"]
    mgr = lv.state.employees[first["employee_id"]].manager_email
    assert first["id"] in [r["id"] for r in data(lv.call("list_pending_approvals", {"approver_email": mgr}))]
    failed(lv.call("get_leave_request", {"request_id": "LR-9999"}), 404)


def test_request_approve_and_balance(lv, emp):
    eid, mgr = emp
    req = data(lv.call("request_leave", {"employee_id": eid, "leave_type": "vacation", "start_date": "2026-03-02",
                                       "end_date": "2026-03-06", "reason": "Ski week"}))
    assert req["id"] == "LR-0010" and req["days"] == 5.0 and req["status"] == "pending"
    bal = {b["leave_type"]: b for b in data(lv.call("get_leave_balance", {"employee_id": eid}))["balances"]}
    assert bal["vacation"]["pending"] == 5.0 and bal["vacation"]["available"] == 20.0
    msg = failed(lv.call("approve_leave_request", {"request_id": "LR-0010", "approver_email": "someone@company.example"}), 409)
    assert mgr in msg
    done = data(lv.call("approve_leave_request", {"request_id": "LR-0010", "approver_email": mgr, "note": "Enjoy"}))
    assert done["status"] == "approved" and done["approver_email"] == mgr
    b = lv.state.balances[f"{eid}:vacation"]
    assert (b.available, b.used) == (15.0, 5.0)
    out = data(lv.call("who_is_out", {"start_date": "2026-03-04", "end_date": "2026-03-04"}))
    assert [o["request_id"] for o in out] == ["LR-0010"]
    dept = lv.state.employees[eid].department
    assert data(lv.call("who_is_out", {"start_date": "2026-03-04", "end_date": "2026-03-04", "department": dept}))
    assert data(lv.call("who_is_out", {"start_date": "2026-03-04", "end_date": "2026-03-04", "department": "Nope"})) == []
    failed(lv.call("approve_leave_request", {"request_id": "LR-0010", "approver_email": mgr}), 409)
    # Cancelling approved future leave refunds it.
    data(lv.call("cancel_leave_request", {"request_id": "LR-0010"}))
    b = lv.state.balances[f"{eid}:vacation"]
    assert (b.available, b.used) == (20.0, 0.0)
    failed(lv.call("cancel_leave_request", {"request_id": "LR-0010"}), 409)


def test_overlap_and_negative_balance_conflicts(lv, emp):
    eid, mgr = emp
    data(lv.call("request_leave", {"employee_id": eid, "leave_type": "personal", "start_date": "2026-03-02",
                                 "end_date": "2026-03-03"}))
    before = lv.state_dict()
    assert "overlaps" in failed(lv.call("request_leave", {"employee_id": eid, "leave_type": "vacation",
                                                       "start_date": "2026-03-03", "end_date": "2026-03-04"}), 409)
    # 2 personal days pending out of 3: 2 more would go negative.
    assert "balance too low" in failed(lv.call("request_leave", {"employee_id": eid, "leave_type": "personal",
                                                              "start_date": "2026-03-09", "end_date": "2026-03-10"}), 409)
    failed(lv.call("request_leave", {"employee_id": eid, "leave_type": "vacation", "start_date": "2026-01-10",
                                  "end_date": "2026-01-12"}), 422)
    failed(lv.call("request_leave", {"employee_id": eid, "leave_type": "vacation", "start_date": "2026-03-07",
                                  "end_date": "2026-03-08"}), 422)  # a weekend only
    failed(lv.call("request_leave", {"employee_id": eid, "leave_type": "holiday", "start_date": "2026-03-09",
                                  "end_date": "2026-03-10"}), 400)
    assert lv.state_dict() == before
    # Sick leave may be backdated; unpaid has no balance limit.
    assert data(lv.call("request_leave", {"employee_id": eid, "leave_type": "sick", "start_date": "2026-01-12",
                                        "end_date": "2026-01-13"}))["days"] == 2.0
    assert data(lv.call("request_leave", {"employee_id": eid, "leave_type": "unpaid", "start_date": "2026-04-06",
                                        "end_date": "2026-05-01"}))["days"] == 20.0


def test_deny_and_adjust(lv, emp):
    eid, mgr = emp
    data(lv.call("request_leave", {"employee_id": eid, "leave_type": "vacation", "start_date": "2026-03-02",
                                 "end_date": "2026-03-02"}))
    failed(lv.call("deny_leave_request", {"request_id": "LR-0010", "approver_email": mgr}), 400)  # note required
    denied = data(lv.call("deny_leave_request", {"request_id": "LR-0010", "approver_email": mgr, "note": "Launch week"}))
    assert denied["status"] == "denied" and denied["decision_note"] == "Launch week"
    adj = data(lv.call("adjust_leave_balance", {"employee_id": eid, "leave_type": "vacation", "days": 2.5,
                                              "note": "Carry-over from 2025"}))
    assert adj["available"] == 22.5 and adj["adjustments"][0]["note"] == "Carry-over from 2025"
    before = lv.state_dict()
    failed(lv.call("adjust_leave_balance", {"employee_id": eid, "leave_type": "personal", "days": -4,
                                         "note": "Correction"}), 409)
    failed(lv.call("adjust_leave_balance", {"employee_id": eid, "leave_type": "personal", "days": 0,
                                         "note": "Correction"}), 400)
    assert lv.state_dict() == before


@pytest.mark.parametrize("tool", ["calculate_leave_days", "request_leave"])
def test_dates_past_the_holiday_calendar_are_a_422_not_an_overflow(lv, emp, tool):
    before = lv.state_dict()
    extra = {"employee_id": emp[0], "leave_type": "vacation"} if tool == "request_leave" else {}
    for start, end in (("9999-12-31", "9999-12-31"), ("2027-12-31", "2028-01-03")):
        msg = failed(lv.call(tool, {**extra, "start_date": start, "end_date": end}), 422)
        assert "end_date" in msg and "2027-12-31" in msg
    assert lv.state_dict() == before
    # The last day of the calendar still counts (Fri 31 Dec 2027).
    assert data(lv.call("calculate_leave_days", {"start_date": "2027-12-31", "end_date": "2027-12-31"}))[
        "working_days"] == 1.0


def test_working_days_reach_the_last_representable_date(lv):
    import datetime as dt

    assert lv._working_days(dt.date(9999, 12, 27), dt.date.max) == 5.0  # Mon..Fri, no overflow past date.max
