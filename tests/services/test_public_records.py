"""Tests of the public_records service (NextRequest-style public records requests)."""

from __future__ import annotations

import datetime as dt

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._public_records_rules import add_business_days, business_days_between, city_holidays
from compoworld_gym.envs.services.public_records import PublicRecords


@pytest.fixture
def svc(make_service):
    return make_service(PublicRecords)


def test_business_day_calendar():
    assert dt.date(2026, 1, 19) in city_holidays(2026)  # Martin Luther King Jr. Day
    assert dt.date(2026, 7, 3) in city_holidays(2026)  # July 4th on a Saturday, observed Friday
    assert add_business_days(dt.date(2026, 1, 15), 3) == dt.date(2026, 1, 21)
    assert add_business_days(dt.date(2026, 1, 15), -4) == dt.date(2026, 1, 9)
    assert business_days_between(dt.date(2026, 1, 15), dt.date(2026, 1, 30)) == 10


def test_reads_and_search(svc):
    assert {"department": "Police", "point_of_contact": "Sgt. Kevin Rourke"} in ok(svc, "list_departments")
    codes = [e["code"] for e in ok(svc, "list_exemptions")]
    assert "GC 7923.600" in codes and codes[-1] == "FEES"
    r = ok(svc, "get_request", {"request_id": "PRR-0004"})
    assert (r["requester_email"], r["related_permit_id"], r["fees_due"], r["due_on"], r["business_days_left"]) == \
        ("pepper.potts@starklogistics.example", "PRM-0005", 120.0, "2026-01-26", 6)
    assert [x["code"] for x in r["fee_estimate"]["lines"]] == ["COPY", "EXTRACT"]
    assert [x["id"] for x in ok(svc, "search_requests", {"related_permit_id": "PRM-0005"})] == ["PRR-0004"]
    assert [x["id"] for x in ok(svc, "search_requests", {"overdue": True})] == ["PRR-0009"]
    assert [x["id"] for x in ok(svc, "search_requests", {"department": "Police"})] == ["PRR-0003", "PRR-0007"]
    assert [x["id"] for x in ok(svc, "search_requests", {"query": "MINUTES"})] == ["PRR-0005"]
    assert [x["id"] for x in ok(svc, "search_requests", {"requester_email": "Hank.Scorpio@globex.example"})] == \
        ["PRR-0005"]
    assert ok(svc, "get_request", {"request_id": "PRR-0002"})["ack_overdue"] is True
    assert code(svc, "get_request", {"request_id": "PRR-0999"}) == 404
    assert code(svc, "search_requests", {"status": "closed"}) == 400


def test_create_and_acknowledge_within_three_business_days(svc):
    r = ok(svc, "create_request", {"requester_name": "Olivia Martinez", "requester_email": "olivia.m@gmail.com",
                                   "description": "Inspection results for permit PRM-0002.",
                                   "department": "Building & Permits", "related_permit_id": "PRM-0002"})
    assert (r["id"], r["status"], r["ack_due_on"], r["due_on"], r["point_of_contact"]) == \
        ("PRR-0011", "received", "2026-01-21", "2026-01-30", "Janet Pruitt")
    a = ok(svc, "acknowledge_request", {"request_id": "PRR-0011", "message": "We have your request."})
    assert (a["status"], a["acknowledged_on"], a["late_ack_reason"]) == ("acknowledged", "2026-01-15", None)
    assert code(svc, "acknowledge_request", {"request_id": "PRR-0011", "message": "Again, hello."}) == 409
    late = error(svc, "acknowledge_request", {"request_id": "PRR-0002", "message": "We have your request."})
    assert late["code"] == 422 and "2026-01-13" in late["message"]
    a2 = ok(svc, "acknowledge_request", {"request_id": "PRR-0002", "message": "We have your request.",
                                         "late_reason": "Misrouted to the wrong department"})
    assert a2["late_ack_reason"] == "Misrouted to the wrong department"


def test_extension_only_once_and_before_due(svc):
    again = error(svc, "extend_deadline", {"request_id": "PRR-0005", "reason": "More archive boxes"})
    assert again["code"] == 409 and "only once" in again["message"]
    e = ok(svc, "extend_deadline", {"request_id": "PRR-0004", "reason": "Consulting the permit file archive"})
    assert (e["extended"], e["due_on"], e["extension_reason"]) == (True, "2026-02-09", "Consulting the permit file "
                                                                                      "archive")
    assert code(svc, "extend_deadline", {"request_id": "PRR-0004", "reason": "Still consulting"}) == 409
    assert code(svc, "extend_deadline", {"request_id": "PRR-0009", "reason": "Too late now"}) == 422  # overdue
    assert code(svc, "extend_deadline", {"request_id": "PRR-0003", "reason": "x"}) == 400
    assert code(svc, "extend_deadline", {"request_id": "PRR-0001", "reason": "Not acknowledged yet"}) == 409


def test_fees_paid_before_release_then_fulfilled(svc):
    msg = error(svc, "release_document", {"request_id": "PRR-0004", "title": "Inspection reports", "pages": 24})
    assert msg["code"] == 422 and "120.00" in msg["message"]
    assert code(svc, "pay_request_fees", {"request_id": "PRR-0004", "amount": 100}) == 422
    paid = ok(svc, "pay_request_fees", {"request_id": "PRR-0004", "amount": 120, "reference": "case 1"})
    assert (paid["status"], paid["receipt_number"], paid["settled_on"]) == ("paid", "PRC-0002", "2026-01-15")
    assert code(svc, "pay_request_fees", {"request_id": "PRR-0004", "amount": 120}) == 409
    assert code(svc, "close_request", {"request_id": "PRR-0004", "outcome": "fulfilled", "message": "Done here"}) == 422
    doc = ok(svc, "release_document", {"request_id": "PRR-0004", "title": "Inspection reports", "pages": 24})
    assert (doc["id"], doc["redacted"], doc["released_on"]) == ("DOC-0005", False, "2026-01-15")
    assert code(svc, "close_request", {"request_id": "PRR-0004", "outcome": "fulfilled", "message": "Released",
                                       "exemptions": ["GC 7927.700"]}) == 422
    done = ok(svc, "close_request", {"request_id": "PRR-0004", "outcome": "fulfilled", "message": "All released."})
    assert (done["status"], done["closed_on"], done["business_days_left"]) == ("fulfilled", "2026-01-15", None)


def test_estimate_waive_release_partial(svc):
    est = ok(svc, "estimate_fees", {"request_id": "PRR-0003", "pages": 50, "extraction_cost": 12.5, "media": True})
    assert ([x["amount"] for x in est["lines"]], est["total"]) == ([5.0, 12.5, 5.0], 22.5)
    assert code(svc, "estimate_fees", {"request_id": "PRR-0003"}) == 422  # nothing charged
    w = ok(svc, "waive_fees", {"request_id": "PRR-0003", "reason": "Public interest: traffic safety"})
    assert (w["status"], w["reference"]) == ("waived", "Public interest: traffic safety")
    assert code(svc, "estimate_fees", {"request_id": "PRR-0003", "pages": 5}) == 409
    assert code(svc, "waive_fees", {"request_id": "PRR-0003", "reason": "Twice over"}) == 409
    assert code(svc, "release_document", {"request_id": "PRR-0003", "title": "Report", "pages": 3}) == 409
    assert ok(svc, "start_processing", {"request_id": "PRR-0003"})["status"] == "in_progress"
    assert code(svc, "start_processing", {"request_id": "PRR-0001"}) == 409
    base = {"request_id": "PRR-0003", "title": "Collision report", "pages": 4}
    assert code(svc, "release_document", base | {"redacted": True}) == 422
    assert code(svc, "release_document", base | {"redacted": True, "exemptions": ["GC 9999"]}) == 422
    doc = ok(svc, "release_document", base | {"redacted": True, "exemptions": ["GC 7927.700"]})
    assert (doc["id"], doc["exemptions"]) == ("DOC-0005", ["GC 7927.700"])
    part = ok(svc, "close_request", {"request_id": "PRR-0003", "outcome": "partially_fulfilled",
                                     "message": "Driver addresses redacted."})
    assert part["status"] == "partially_fulfilled"


def test_denial_cites_an_exemption(svc):
    assert code(svc, "close_request", {"request_id": "PRR-0009", "outcome": "denied", "message": "Denied."}) == 422
    assert code(svc, "close_request", {"request_id": "PRR-0009", "outcome": "fulfilled", "message": "Done."}) == 422
    d = ok(svc, "close_request", {"request_id": "PRR-0009", "outcome": "denied", "message": "Withheld.",
                                  "exemptions": ["GC 7927.300", "GC 7927.300"]})
    assert (d["status"], d["exemptions_cited"]) == ("denied", ["GC 7927.300"])
    assert code(svc, "close_request", {"request_id": "PRR-0005", "outcome": "denied", "message": "Denied now.",
                                       "exemptions": ["GC 7922.000"]}) == 422  # documents already released


def test_closed_request_cannot_change(svc):
    for tool, args in (("add_request_note", {"note": "late thought"}), ("extend_deadline", {"reason": "Too late"}),
                       ("estimate_fees", {"pages": 3}), ("withdraw_request", {"reason": "Never mind"}),
                       ("acknowledge_request", {"message": "Hello there"})):
        msg = error(svc, tool, {"request_id": "PRR-0006", **args})
        assert msg["code"] == 409 and "cannot change" in msg["message"], tool
    w = ok(svc, "withdraw_request", {"request_id": "PRR-0010", "reason": "Found it in our files"})
    assert (w["status"], w["closure_reason"]) == ("withdrawn", "Found it in our files")
    assert code(svc, "add_request_note", {"request_id": "PRR-0010", "note": "x"}) == 409
    n = ok(svc, "add_request_note", {"request_id": "PRR-0001", "note": "Pulled the PRM-0003 file"})
    assert n["notes"] == ["Pulled the PRM-0003 file"]


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("pay_request_fees", {"request_id": "PRR-0004", "amount": 1.0})["success"] is False
    assert svc.call("extend_deadline", {"request_id": "PRR-0005", "reason": "Once more"})["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(PublicRecords, seed=4).state_dict() == make_service(PublicRecords, seed=4).state_dict()
