"""Tests of the court e-filing service (Odyssey eFileAndServe / ECF 4.01 style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.court_filings import CourtFilings

LEAD = "v.reed@harlowreed.example"  # attorney of record on CASE-0001, CASE-0003 and CASE-0009
MOTION = [{"filing_code": "Notice of Motion and Motion", "title": "Motion to compel", "file_name": "motion.pdf"}]


@pytest.fixture
def svc(make_service):
    return make_service(CourtFilings)


def submit(svc, case_id="CASE-0001", account="PAY-0001", documents=None, **extra):
    return svc.call("submit_filing", {"case_id": case_id, "filer_email": LEAD, "documents": documents or MOTION,
                                      "payment_account_id": account, **extra})


def test_courts_codes_and_accounts(svc):
    courts = ok(svc, "list_courts")
    assert [c["code"] for c in courts] == ["riverton:cv", "riverton:lc", "marlow:cir"]
    assert [r["courtroom"] for r in courts[0]["courtrooms"]] == ["Dept. 3", "Dept. 7", "Dept. 12"]
    assert {"date": "2026-01-19", "name": "Martin Luther King Jr. Day"} in courts[0]["holidays"]
    codes = ok(svc, "list_filing_codes")
    assert codes["efiling_service_fee"] == 4.95
    assert {"filing_code": "Answer", "fee": 435.0, "category": "responsive pleading"} in codes["filing_codes"]
    accounts = ok(svc, "list_payment_accounts")
    assert [(a["id"], a["type"], a["active"]) for a in accounts] == [
        ("PAY-0001", "credit_card", True), ("PAY-0002", "bank_account", True), ("PAY-0003", "credit_card", True),
        ("PAY-0004", "fee_waiver", True), ("PAY-0005", "credit_card", False)]


def test_search_and_get_case(svc):
    assert [c["id"] for c in ok(svc, "search_cases", {"party_name": "berry"})] == ["CASE-0001"]
    assert [c["id"] for c in ok(svc, "search_cases", {"case_number": "25cv013520"})] == ["CASE-0001"]
    assert [c["id"] for c in ok(svc, "search_cases", {"attorney_email": "R.Okafor@harlowreed.example"})] == [
        "CASE-0002", "CASE-0005", "CASE-0007"]
    assert [c["id"] for c in ok(svc, "search_cases", {"status": "closed"})] == ["CASE-0006", "CASE-0008"]
    assert [c["id"] for c in ok(svc, "search_cases", {"court": "marlow:cir"})] == ["CASE-0004", "CASE-0007"]
    assert [c["id"] for c in ok(svc, "search_cases", {"client_company": "gonzalez-smith"})] == ["CASE-0001"]
    assert ok(svc, "search_cases", {"matter_id": "MAT-0001"}) == []
    case = ok(svc, "get_case", {"case_id": "CASE-0001"})
    assert (case["case_number"], case["courtroom"], case["lead_attorney_email"], case["amount_in_controversy"]) == (
        "25CV013520", "Dept. 3", LEAD, 766000.0)
    assert (case["next_hearing"]["id"], case["next_hearing"]["date"], case["pending_filings"]) == (
        "HRG-0001", "2026-01-22", ["FIL-0002"])
    assert ok(svc, "get_case", {"case_id": "CASE-0006"})["next_hearing"] is None
    assert code(svc, "get_case", {"case_id": "CASE-0999"}) == 404


def test_filings_and_fees(svc):
    assert [f["id"] for f in ok(svc, "get_filing_list", {"case_id": "CASE-0004"})] == ["FIL-0005", "FIL-0006"]
    assert [f["id"] for f in ok(svc, "get_filing_list", {"status": "rejected"})] == ["FIL-0004", "FIL-0006"]
    f = ok(svc, "get_filing_status", {"filing_id": "FIL-0006"})
    assert (f["status"], f["total_fees"], f["payment_status"]) == ("rejected", 24.95, "voided")
    assert f["rejection_reason"] == "Proposed order must be submitted as a separate document."
    fees = ok(svc, "get_fees_calculation", {"case_id": "CASE-0001", "filing_codes": ["Answer",
                                                                                     "Notice of Motion and Motion"]})
    assert [x["amount"] for x in fees["fees"]] == [435.0, 60.0, 4.95] and fees["total_fees"] == 499.95
    waived = ok(svc, "get_fees_calculation", {"case_id": "CASE-0005", "filing_codes": ["Answer"]})
    assert (waived["fee_waiver"], waived["total_fees"]) == (True, 0.0)
    assert code(svc, "get_fees_calculation", {"case_id": "CASE-0001", "filing_codes": ["Complaint"]}) == 400
    assert code(svc, "get_filing_status", {"filing_id": "FIL-0999"}) == 404


def test_submit_and_review_filing(svc):
    res = submit(svc, service_contact_ids=["SC-0001"], comments_to_clerk="Hearing set for Jan 22",
                 client_reference="MAT-0042")
    f = res["data"]
    assert (f["id"], f["envelope_number"], f["status"], f["total_fees"], f["payment_status"]) == (
        "FIL-0012", "24310204", "submitted", 64.95, "authorized")
    assert (f["filer_email"], f["served_contact_ids"], f["submitted_on"]) == (LEAD, ["SC-0001"], "2026-01-15")
    assert code(svc, "complete_filing_review", {"filing_id": "FIL-0012", "decision": "rejected"}) == 422
    done = ok(svc, "complete_filing_review", {"filing_id": "FIL-0012", "decision": "accepted"})
    assert (done["status"], done["payment_status"], done["reviewed_on"]) == ("accepted", "captured", "2026-01-15")
    assert code(svc, "complete_filing_review", {"filing_id": "FIL-0012", "decision": "rejected", "reason": "x"}) == 409
    rej = ok(svc, "complete_filing_review", {"filing_id": "FIL-0002", "decision": "rejected",
                                             "reason": "Missing proposed order"})
    assert (rej["status"], rej["payment_status"], rej["rejection_reason"]) == ("rejected", "voided",
                                                                             "Missing proposed order")


def test_filing_on_a_closed_case_is_rejected(svc):
    msg = error(svc, "submit_filing", {"case_id": "CASE-0006", "filer_email": "n.brooks@harlowreed.example",
                                       "documents": MOTION, "payment_account_id": "PAY-0001"})
    assert msg["code"] == 409 and "closed on 2025-12-30 (Dismissed with prejudice)" in msg["message"]


def test_fees_must_be_paid(svc):
    assert "expired on 2025-12-31" in error(svc, "submit_filing", {
        "case_id": "CASE-0001", "filer_email": LEAD, "documents": MOTION, "payment_account_id": "PAY-0003"})["message"]
    assert code(svc, "submit_filing", {"case_id": "CASE-0001", "filer_email": LEAD, "documents": MOTION,
                                       "payment_account_id": "PAY-0005"}) == 422  # inactive
    assert code(svc, "submit_filing", {"case_id": "CASE-0001", "filer_email": LEAD, "documents": MOTION,
                                       "payment_account_id": "PAY-0004"}) == 422  # no waiver on this case
    assert code(svc, "submit_filing", {"case_id": "CASE-0001", "filer_email": LEAD, "documents": MOTION,
                                       "payment_account_id": "PAY-0999"}) == 404
    waived = svc.call("submit_filing", {"case_id": "CASE-0005", "filer_email": "r.okafor@harlowreed.example",
                                        "documents": MOTION, "payment_account_id": "PAY-0004"})["data"]
    assert (waived["total_fees"], waived["payment_status"]) == (0.0, "waived")


def test_filer_and_service_contacts_must_belong_to_the_case(svc):
    assert code(svc, "submit_filing", {"case_id": "CASE-0002", "filer_email": LEAD, "documents": MOTION,
                                       "payment_account_id": "PAY-0001"}) == 422
    assert code(svc, "submit_filing", {"case_id": "CASE-0001", "filer_email": LEAD, "documents": MOTION,
                                       "payment_account_id": "PAY-0001", "service_contact_ids": ["SC-0002"]}) == 422
    assert code(svc, "submit_filing", {"case_id": "CASE-0001", "filer_email": LEAD, "payment_account_id": "PAY-0001",
                                       "documents": [{"filing_code": "Answer", "title": "Answer",
                                                      "file_name": "answer.docx"}]}) == 400


def test_service_contacts(svc):
    assert [s["id"] for s in ok(svc, "list_service_contacts", {"case_id": "CASE-0002"})] == ["SC-0002"]
    assert [s["id"] for s in ok(svc, "list_service_contacts", {"query": "garcialaw"})] == ["SC-0001"]
    sc = ok(svc, "create_service_contact", {"name": "Dana Brooks", "email": "D.Brooks@ellislaw.example",
                                            "firm": "Ellis Law Group"})
    assert (sc["id"], sc["email"]) == ("SC-0010", "d.brooks@ellislaw.example")
    assert code(svc, "create_service_contact", {"name": "Dana B", "email": "d.brooks@ellislaw.example",
                                                "firm": "Ellis"}) == 409
    case = ok(svc, "attach_service_contact", {"case_id": "CASE-0001", "service_contact_id": "SC-0010"})
    assert case["service_contact_ids"] == ["SC-0001", "SC-0010"]
    assert code(svc, "attach_service_contact", {"case_id": "CASE-0001", "service_contact_id": "SC-0010"}) == 409
    assert code(svc, "attach_service_contact", {"case_id": "CASE-0006", "service_contact_id": "SC-0010"}) == 409
    assert submit(svc, service_contact_ids=["SC-0010"])["data"]["served_contact_ids"] == ["SC-0010"]


def test_rejected_filing_is_resubmitted_once_corrected(svc):
    assert code(svc, "resubmit_filing", {"filing_id": "FIL-0005", "correction_note": "Signed"}) == 409  # accepted
    wrong = [{"filing_code": "Answer", "title": "Answer", "file_name": "answer.pdf"}]
    assert code(svc, "resubmit_filing", {"filing_id": "FIL-0004", "correction_note": "Signed form",
                                         "documents": wrong}) == 422
    fixed = [{"filing_code": "Request for Dismissal", "title": "Request for Dismissal (signed)",
              "file_name": "civ110_signed.pdf"}]
    new = ok(svc, "resubmit_filing", {"filing_id": "FIL-0004", "correction_note": "Signed CIV-110 attached",
                                      "documents": fixed, "payment_account_id": "PAY-0002"})
    assert (new["id"], new["status"], new["resubmission_of"], new["payment_account_id"], new["total_fees"]) == (
        "FIL-0012", "submitted", "FIL-0004", "PAY-0002", 4.95)
    assert new["documents"][0]["file_name"] == "civ110_signed.pdf"
    assert ok(svc, "get_filing_status", {"filing_id": "FIL-0004"})["resubmitted_as"] == "FIL-0012"
    msg = error(svc, "resubmit_filing", {"filing_id": "FIL-0004", "correction_note": "Again"})
    assert msg["code"] == 409 and "already resubmitted as FIL-0012" in msg["message"]
    again = ok(svc, "resubmit_filing", {"filing_id": "FIL-0006", "correction_note": "Order split out"})
    assert (again["id"], again["documents"][0]["filing_code"]) == ("FIL-0013", "Stipulation and Proposed Order")


def test_cancel_filing(svc):
    f = ok(svc, "cancel_filing", {"filing_id": "FIL-0009"})
    assert (f["status"], f["payment_status"]) == ("cancelled", "voided")
    assert code(svc, "cancel_filing", {"filing_id": "FIL-0009"}) == 409
    assert code(svc, "cancel_filing", {"filing_id": "FIL-0001"}) == 409


def test_court_schedule_and_available_dates(svc):
    day = ok(svc, "get_court_schedule", {"court": "riverton:cv", "date": "2026-01-22"})
    dept3 = day["courtrooms"][0]
    assert (dept3["courtroom"], [h["id"] for h in dept3["hearings"]], dept3["free_times"]) == (
        "Dept. 3", ["HRG-0001"], ["10:00", "13:30", "15:00"])
    holiday = ok(svc, "get_court_schedule", {"court": "riverton:cv", "date": "2026-01-19"})
    assert (holiday["court_day"], holiday["closed_reason"]) == (False, "2026-01-19 is a court holiday "
                                                                       "(Martin Luther King Jr. Day)")
    slots = ok(svc, "get_available_court_dates", {"case_id": "CASE-0001", "start_date": "2026-01-22", "limit": 4})
    assert [(s["date"], s["time"]) for s in slots["slots"]] == [
        ("2026-01-22", "10:00"), ("2026-01-22", "13:30"), ("2026-01-22", "15:00"), ("2026-01-23", "08:30")]
    first = ok(svc, "get_available_court_dates", {"case_id": "CASE-0001", "limit": 1})["slots"][0]
    assert (first["date"], first["time"]) == ("2026-01-16", "08:30")
    assert code(svc, "get_available_court_dates", {"case_id": "CASE-0001", "courtroom": "Dept. 21"}) == 422
    assert [h["id"] for h in ok(svc, "list_hearings", {"case_id": "CASE-0009"})] == ["HRG-0008", "HRG-0009"]
    assert [h["id"] for h in ok(svc, "list_hearings", {"status": "scheduled", "date_to": "2026-01-20"})] == [
        "HRG-0007", "HRG-0003"]
    assert [h["id"] for h in ok(svc, "list_hearings", {"court": "marlow:cir", "date_from": "2026-01-15"})] == [
        "HRG-0007", "HRG-0004"]


def test_hearings_only_on_free_court_days(svc):
    args = {"case_id": "CASE-0001", "hearing_type": "Status Conference", "time": "10:00"}
    assert "is a Saturday" in error(svc, "reserve_court_date", {**args, "date": "2026-01-17"})["message"]
    assert "court holiday" in error(svc, "reserve_court_date", {**args, "date": "2026-01-19"})["message"]
    assert code(svc, "reserve_court_date", {**args, "date": "2026-01-15"}) == 422  # today
    assert code(svc, "reserve_court_date", {**args, "date": "2026-09-01"}) == 422  # past the calendar horizon
    assert code(svc, "reserve_court_date", {**args, "date": "2026-01-20", "courtroom": "Dept. 21"}) == 422
    taken = error(svc, "reserve_court_date", {**args, "date": "2026-01-22", "time": "08:30"})
    assert taken["code"] == 409 and "already booked on 2026-01-22 at 08:30 (hearing HRG-0001)" in taken["message"]
    h = ok(svc, "reserve_court_date", {**args, "date": "2026-01-20"})
    assert (h["id"], h["courtroom"], h["judge"], h["status"]) == ("HRG-0010", "Dept. 3", "Hon. Alicia Moreno",
                                                                  "scheduled")
    assert code(svc, "reserve_court_date", {**args, "date": "2026-01-21"}) == 409  # one status conference per case
    assert code(svc, "reserve_court_date", {**args, "case_id": "CASE-0006", "date": "2026-01-21"}) == 409  # closed
    # A vacated hearing frees its courtroom time (HRG-0008 held Dept. 12 on 2026-01-22 08:30).
    free = ok(svc, "reserve_court_date", {"case_id": "CASE-0009",
                                          "hearing_type": "Motion Hearing", "date": "2026-01-22", "time": "08:30"})
    assert (free["courtroom"], free["date"]) == ("Dept. 12", "2026-01-22")


def test_reschedule_and_vacate(svc):
    moved = ok(svc, "reschedule_hearing", {"hearing_id": "HRG-0001", "date": "2026-01-23", "time": "13:30"})
    assert (moved["date"], moved["time"], moved["note"]) == ("2026-01-23", "13:30", "Continued from 2026-01-22 08:30.")
    clash = error(svc, "reschedule_hearing", {"hearing_id": "HRG-0002", "date": "2026-01-22", "time": "10:00"})
    assert clash["code"] == 409 and "HRG-0006" in clash["message"]  # Dept. 7 is taken then
    assert code(svc, "reschedule_hearing", {"hearing_id": "HRG-0001", "date": "2026-01-24", "time": "10:00"}) == 422
    assert code(svc, "reschedule_hearing", {"hearing_id": "HRG-0005", "date": "2026-01-23", "time": "10:00"}) == 409
    gone = ok(svc, "vacate_hearing", {"hearing_id": "HRG-0001", "reason": "Settled in principle"})
    assert (gone["status"], gone["note"]) == ("vacated", "Vacated: Settled in principle")
    assert code(svc, "vacate_hearing", {"hearing_id": "HRG-0001", "reason": "again"}) == 409
    assert ok(svc, "get_case", {"case_id": "CASE-0001"})["next_hearing"] is None


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert submit(svc, account="PAY-0003")["success"] is False
    assert svc.call("resubmit_filing", {"filing_id": "FIL-0001", "correction_note": "nothing"})["success"] is False
    assert svc.state_dict() == before
    assert make_service(CourtFilings, seed=3).state_dict() == make_service(CourtFilings, seed=3).state_dict()
    hearings = [h for h in before["hearings"].values() if h["status"] == "scheduled"]
    assert len({(h["court"], h["courtroom"], h["date"], h["time"]) for h in hearings}) == len(hearings)
