"""Tests of the trademarks service (USPTO TSDR and Trademark Center)."""

from __future__ import annotations

import datetime as dt

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._trademarks_rules import add_months, add_years
from compoworld_gym.envs.services.trademarks import Trademarks

ATTY = "n.brooks@harlowreed.example"


@pytest.fixture
def svc(make_service):
    return make_service(Trademarks)


def test_date_arithmetic():
    assert add_months(dt.date(2025, 11, 30), 3) == dt.date(2026, 2, 28)
    assert add_years(dt.date(2024, 2, 29), 5) == dt.date(2029, 2, 28)


def test_case_status_and_portfolio(svc):
    c = ok(svc, "get_case_status", {"serial_number": "98310842"})
    assert (c["mark_literal"], c["owner_name"], c["attorney_email"], c["status_description"]) == (
        "QUIETWAVE", "Acme Inc.", ATTY, "Non-final action - mailed")
    oa = c["open_office_action"]
    assert (oa["id"], oa["response_deadline"], oa["days_to_deadline"], oa["examining_attorney"]) == (
        "OA-0002", "2026-01-25", 10, "Jared Holloway")
    assert ok(svc, "get_by_registration_number", {"registration_number": "5034412"})["status_code"] == "702"
    assert code(svc, "get_by_registration_number", {"registration_number": "1234567"}) == 404
    assert code(svc, "get_case_status", {"serial_number": "11111111"}) == 404
    assert [a["id"] for a in ok(svc, "search_marks", {"nice_class": 9, "status_code": "641"})] == [
        "98221457", "98310842", "97988655"]
    assert [a["mark_literal"] for a in ok(svc, "search_marks", {"mark_literal": "hub"})] == ["HUBLINE"]
    assert [a["id"] for a in ok(svc, "search_marks", {"product_sku": "mn-27k-04"})] == ["97988655"]
    h = ok(svc, "get_prosecution_history", {"serial_number": "98054117"})
    assert [e["code"] for e in h] == ["NWAP", "GNRN", "TEME", "GNFR", "EXT3"]


def test_office_actions_filings_docket_reads(svc):
    rows = ok(svc, "list_office_actions", {"status": "open"})
    assert [(r["id"], r["deadline_passed"]) for r in rows] == [
        ("OA-0005", True), ("OA-0002", False), ("OA-0001", False), ("OA-0004", False)]
    assert [r["id"] for r in ok(svc, "list_office_actions", {"due_before": "2026-01-31"})][-2:] == [
        "OA-0005", "OA-0002"]
    final = ok(svc, "get_office_action", {"office_action_id": "OA-0004"})
    assert (final["action_type"], final["extended"], final["response_deadline"], final["extension_available"]) == (
        "final", True, "2026-03-15", False)
    assert code(svc, "get_office_action", {"office_action_id": "OA-0999"}) == 404
    assert [f["id"] for f in ok(svc, "list_filings", {"filing_type": "section_8"})] == ["TC-0001"]
    assert ok(svc, "list_filings", {"serial_number": "98054117"})[0]["fee"] == 125.0
    assert [e["id"] for e in ok(svc, "list_docket", {"due_before": "2026-02-01"})] == ["DKT-0004"]


def test_maintenance_windows(svc):
    m = ok(svc, "get_maintenance_status", {"serial_number": "97412236"})
    assert (m["section_8_phase"], m["section_8_window_opens"], m["section_8_window_closes"], m["section_8_fee"]) == (
        "open", "2025-09-15", "2026-09-15", 325.0)
    g = ok(svc, "get_maintenance_status", {"serial_number": "88154021"})
    assert (g["section_8_phase"], g["grace_period_ends"], g["section_8_fee"]) == ("grace_period", "2026-04-15", 425.0)
    assert ok(svc, "get_maintenance_status", {"serial_number": "90877310"})["section_8_phase"] == "not_yet_open"
    assert ok(svc, "get_maintenance_status", {"serial_number": "98221457"}) == {
        "serial_number": "98221457", "registration_number": None, "mark_literal": "HUBLINE", "registered": False}


def test_respond_before_deadline(svc):
    f = ok(svc, "file_office_action_response", {"office_action_id": "OA-0001", "response_text":
           "HUBLINE and HUBLYNE differ in commercial impression; goods amended to 'USB hubs, namely computer hardware'."})
    assert (f["id"], f["fee"], f["signatory_email"], f["status_code"]) == ("TC-0006", 0.0, ATTY, "661")
    assert f["office_action"]["status"] == "responded"
    assert ok(svc, "get_case_status", {"serial_number": "98221457"})["open_office_action"] is None
    assert code(svc, "file_office_action_response", {"office_action_id": "OA-0001",
                                                     "response_text": "A second response."}) == 409
    msg = error(svc, "file_office_action_response", {"office_action_id": "OA-0002", "response_text": "x" * 20,
                                                     "signatory_email": "aisha.khan@company.example"})
    assert msg["code"] == 422 and "attorney of record" in msg["message"]
    assert code(svc, "file_office_action_response", {"office_action_id": "OA-0002", "response_text": "short"}) == 400


def test_late_response_refused_and_registered_cannot_respond(svc):
    msg = error(svc, "file_office_action_response", {"office_action_id": "OA-0005",
                                                     "response_text": "Disclaimer of 4K entered."})
    assert msg["code"] == 422 and "abandoned for failure to respond" in msg["message"]
    assert code(svc, "request_extension", {"office_action_id": "OA-0005"}) == 422
    assert code(svc, "file_office_action_response", {"office_action_id": "OA-0006",
                                                     "response_text": "Too late for this."}) == 409
    svc.state.applications["98310842"].status_code = "700"
    msg = error(svc, "file_office_action_response", {"office_action_id": "OA-0002", "response_text": "y" * 20})
    assert msg["code"] == 409 and "is registered" in msg["message"]


def test_extension_once(svc):
    e = ok(svc, "request_extension", {"office_action_id": "OA-0002"})
    assert (e["response_deadline"], e["extended"], e["fee"], e["filing_id"]) == ("2026-04-25", True, 125.0, "TC-0006")
    msg = error(svc, "request_extension", {"office_action_id": "OA-0002"})
    assert msg["code"] == 409 and "already extended once" in msg["message"]
    assert code(svc, "request_extension", {"office_action_id": "OA-0004"}) == 409


def test_section_8_and_15(svc):
    s8 = ok(svc, "file_section_8", {"serial_number": "88154021",
                                    "specimen_description": "Product page showing KEYFORGE on the keyboard."})
    assert (s8["fee"], s8["section_8_phase"]) == (425.0, "grace_period")
    assert code(svc, "file_section_8", {"serial_number": "88154021", "specimen_description": "Again, same page."}) == 409
    msg = error(svc, "file_section_8", {"serial_number": "90877310", "specimen_description": "Lamp listing page."})
    assert msg["code"] == 422 and "opens on 2028-01-15" in msg["message"]
    assert code(svc, "file_section_8", {"serial_number": "98221457", "specimen_description": "Not registered yet"}) == 409
    assert ok(svc, "file_section_15", {"serial_number": "97412236"})["fee"] == 250.0
    assert code(svc, "file_section_15", {"serial_number": "86733190"}) == 409  # already filed
    assert code(svc, "file_section_15", {"serial_number": "90877310"}) == 422  # under 5 years
    svc.state.applications["88154021"].section_8_filed_on = None
    svc.state.applications["88154021"].registration_date = dt.date(2019, 1, 1)
    assert code(svc, "file_section_8", {"serial_number": "88154021", "specimen_description": "Too late now."}) == 422


def test_revive_abandon_and_new_application(svc):
    r = ok(svc, "petition_to_revive", {"serial_number": "97650981",
                                       "response_text": "Goods amended to 'paper notebooks of dotted A5 paper'."})
    assert (r["fee"], r["office_action_id"]) == (250.0, "OA-0006")
    assert ok(svc, "get_case_status", {"serial_number": "97650981"})["status_code"] == "777"
    msg = error(svc, "petition_to_revive", {"serial_number": "97500234", "response_text": "Late petition text."})
    assert msg["code"] == 422 and "ended on 2025-10-15" in msg["message"]
    assert code(svc, "petition_to_revive", {"serial_number": "98221457", "response_text": "Not abandoned."}) == 409
    a = ok(svc, "express_abandon", {"serial_number": "98221457"})
    assert (a["status_code"], a["abandoned_on"]) == ("602", "2026-01-15")
    assert svc.state.office_actions["OA-0001"].status == "abandoned"
    assert code(svc, "express_abandon", {"serial_number": "98221457"}) == 409
    assert code(svc, "express_abandon", {"serial_number": "97412236"}) == 409
    new = ok(svc, "file_application", {"mark_literal": "hubline", "nice_class": 9, "goods_services": "USB hubs",
                                       "product_sku": "HB-USBC-03"})
    assert (new["id"], new["status_code"], new["mark_literal"]) == ("98600001", "630", "HUBLINE")
    assert ok(svc, "list_filings", {"serial_number": "98600001"})[0]["fee"] == 350.0
    assert code(svc, "file_application", {"mark_literal": "Keyforge", "nice_class": 9,
                                          "goods_services": "Keyboards"}) == 409


def test_docket(svc):
    d = ok(svc, "add_docket_entry", {"serial_number": "98310842", "office_action_id": "OA-0002",
                                     "note": "Deadline 2026-01-25; Harlow Reed drafting.", "due_date": "2026-01-25"})
    assert (d["id"], d["author_email"], d["due_date"]) == ("DKT-0006", "aisha.khan@company.example", "2026-01-25")
    assert code(svc, "add_docket_entry", {"serial_number": "98310842", "office_action_id": "OA-0001",
                                          "note": "wrong action"}) == 422
    assert code(svc, "add_docket_entry", {"serial_number": "98310842", "office_action_id": "OA-0999",
                                          "note": "missing action"}) == 404


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("request_extension", {"office_action_id": "OA-0004"})["success"] is False
    assert svc.state_dict() == before
    assert make_service(Trademarks, seed=4).state_dict() == make_service(Trademarks, seed=4).state_dict()
