"""Tests of the permits service (Accela-style civic records)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.permits import Permits

MONDAY = "2026-01-19"  # today (2026-01-15) is a Thursday


@pytest.fixture
def svc(make_service):
    return make_service(Permits)


def status(svc, rid, new, comment=None):
    args = {"record_id": rid, "status": new} | ({"comment": comment} if comment else {})
    return svc.call("update_record_status", args)


def test_types_and_search(svc):
    types = ok(svc, "list_record_types")
    alteration = next(t for t in types if t["type"] == "Building/Residential/Alteration")
    assert (alteration["base_fee"], alteration["inspections"]) == (185.0, ["Framing", "Final Building"])
    hits = ok(svc, "search_records", {"address": "sparks causeway"})
    assert [(r["id"], r["status"], r["balance_due"]) for r in hits] == [("PRM-0001", "submitted", 485.5)]
    assert [r["id"] for r in ok(svc, "search_records", {"contractor": "barron builders"})] == ["PRM-0003"]
    assert [r["id"] for r in ok(svc, "search_records", {"applicant_email": "BECKY.TORRES@gmail.com"})] == ["PRM-0003"]
    assert len(ok(svc, "search_records", {"status": "approved"})) == 3
    assert code(svc, "search_records", {"type": "Building/Commercial/Pool"}) == 400


def test_get_record_fees_and_inspections(svc):
    rec = ok(svc, "get_record", {"record_id": "PRM-0003"})
    assert (rec["valuation"], rec["balance_due"], rec["required_inspections"]) == (24000.0, 341.5,
                                                                                  ["Framing", "Final Building"])
    fees = ok(svc, "list_record_fees", {"record_id": "PRM-0003"})
    assert [(f["code"], f["amount"]) for f in fees["fees"]] == [("APP", 185.0), ("VAL", 144.0), ("TECH", 12.5)]
    insp = ok(svc, "list_record_inspections", {"record_id": "PRM-0005"})
    assert [(i["id"], i["inspection_type"], i["status"]) for i in insp] == [("INSP-0003", "Foundation", "passed"),
                                                                          ("INSP-0004", "Framing", "scheduled")]
    assert ok(svc, "get_inspection", {"inspection_id": "INSP-0002"})["status"] == "failed"
    assert code(svc, "get_record", {"record_id": "PRM-0999"}) == 404
    assert code(svc, "get_inspection", {"inspection_id": "INSP-0999"}) == 404


def test_create_record_invoices_fees(svc):
    args = {"type": "Building/Residential/Alteration", "address": "418 Maple Avenue", "applicant_name": "Olivia Martinez",
            "applicant_email": "olivia.martinez@gmail.com", "applicant_phone": "+1-503-555-0142",
            "description": "Basement finish", "valuation": 25000, "contractor": "Copeland Builders"}
    rec = ok(svc, "create_record", args)
    assert (rec["id"], rec["status"], rec["city"], rec["balance_due"]) == ("PRM-0010", "submitted", "Riverton", 347.5)
    assert [f["id"] for f in rec["fees"]] == ["FEE-0023", "FEE-0024", "FEE-0025"]
    assert code(svc, "create_record", args) == 409  # same type, same address, still open
    assert code(svc, "create_record", {**args, "applicant_email": "not-an-email"}) == 400


def test_workflow_transitions(svc):
    assert error(svc, "update_record_status", {"record_id": "PRM-0001", "status": "approved"})["code"] == 409
    assert status(svc, "PRM-0001", "in_review")["data"]["status"] == "in_review"
    assert code(svc, "update_record_status", {"record_id": "PRM-0001", "status": "denied"}) == 422  # no comment
    d = status(svc, "PRM-0001", "denied", "Zoning: exceeds lot coverage")["data"]
    assert (d["status"], d["comments"]) == ("denied", ["denied: Zoning: exceeds lot coverage"])
    assert code(svc, "update_record_status", {"record_id": "PRM-0001", "status": "in_review"}) == 409
    assert status(svc, "PRM-0009", "approved")["data"]["status"] == "approved"
    assert status(svc, "PRM-0002", "withdrawn")["data"]["status"] == "withdrawn"


def test_no_issue_with_unpaid_fees(svc):
    msg = error(svc, "update_record_status", {"record_id": "PRM-0003", "status": "issued"})
    assert msg["code"] == 422 and "341.50 in unpaid fees" in msg["message"]
    assert code(svc, "pay_record_fees", {"record_id": "PRM-0003", "amount": 300}) == 422
    pay = ok(svc, "pay_record_fees", {"record_id": "PRM-0003", "amount": 341.5, "reference": "chk 1182",
                                      "payment_method": "check"})
    assert (pay["receipt_number"], pay["amount"], pay["balance_due"]) == ("RCPT-0010", 341.5, 0.0)
    assert code(svc, "pay_record_fees", {"record_id": "PRM-0003", "amount": 1}) == 409
    issued = status(svc, "PRM-0003", "issued")["data"]
    assert (issued["status"], issued["issued_on"], issued["expires_on"]) == ("issued", "2026-01-15", "2026-07-14")
    assert code(svc, "pay_record_fees", {"record_id": "PRM-0008", "amount": 302.5}) == 409  # denied


def test_failed_final_inspection_blocks_issue_until_reinspection(svc):
    msg = error(svc, "update_record_status", {"record_id": "PRM-0004", "status": "issued"})
    assert msg["code"] == 422 and "Final Plumbing inspection of PRM-0004 failed" in msg["message"]
    assert code(svc, "schedule_inspection", {"record_id": "PRM-0004", "inspection_type": "Framing",
                                             "scheduled_date": MONDAY}) == 422
    assert code(svc, "schedule_inspection", {"record_id": "PRM-0004", "inspection_type": "Final Plumbing",
                                             "scheduled_date": "2026-01-17"}) == 422  # a Saturday
    assert code(svc, "schedule_inspection", {"record_id": "PRM-0004", "inspection_type": "Final Plumbing",
                                             "scheduled_date": MONDAY, "inspector": "Nobody"}) == 404
    insp = ok(svc, "schedule_inspection", {"record_id": "PRM-0004", "inspection_type": "Final Plumbing",
                                           "scheduled_date": MONDAY})
    assert (insp["id"], insp["status"], insp["inspector"]) == ("INSP-0007", "scheduled", "Gordon Pruitt")
    assert code(svc, "schedule_inspection", {"record_id": "PRM-0004", "inspection_type": "Final Plumbing",
                                             "scheduled_date": "2026-01-20"}) == 409
    early = error(svc, "result_inspection", {"inspection_id": "INSP-0007", "result": "passed"})
    assert early["code"] == 422 and "2026-01-19" in early["message"]
    assert code(svc, "schedule_inspection", {"record_id": "PRM-0001", "inspection_type": "Framing",
                                             "scheduled_date": MONDAY}) == 409  # only submitted


def test_result_and_final(svc):
    assert code(svc, "result_inspection", {"inspection_id": "INSP-0004", "result": "failed"}) == 422  # no comment
    res = ok(svc, "result_inspection", {"inspection_id": "INSP-0004", "result": "passed", "comment": "OK"})
    assert (res["status"], res["resulted_on"]) == ("passed", "2026-01-15")
    assert code(svc, "result_inspection", {"inspection_id": "INSP-0004", "result": "passed"}) == 409
    msg = error(svc, "update_record_status", {"record_id": "PRM-0005", "status": "finaled"})
    assert msg["code"] == 422 and "Final Building" in msg["message"]
    assert status(svc, "PRM-0006", "issued")["data"]["status"] == "issued"
    assert status(svc, "PRM-0006", "finaled")["data"]["status"] == "finaled"  # Final Sign passed


def test_fees_comments_cancel(svc):
    fee = ok(svc, "assess_fee", {"record_id": "PRM-0004", "code": "reinsp", "description": "Re-inspection fee",
                                 "amount": 65})
    assert (fee["id"], fee["code"], fee["balance_due"]) == ("FEE-0023", "REINSP", 65.0)
    assert code(svc, "assess_fee", {"record_id": "PRM-0007", "code": "X1", "description": "late", "amount": 5}) == 409
    c = ok(svc, "add_record_comment", {"record_id": "PRM-0004", "comment": "Owner called"})
    assert c["comments"] == ["Owner called"]
    cancelled = ok(svc, "cancel_inspection", {"inspection_id": "INSP-0004", "reason": "Site not ready"})
    assert (cancelled["status"], cancelled["result_comment"]) == ("cancelled", "Site not ready")
    assert code(svc, "cancel_inspection", {"inspection_id": "INSP-0004", "reason": "again"}) == 409


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("pay_record_fees", {"record_id": "PRM-0003", "amount": 1.0})["success"] is False
    assert status(svc, "PRM-0004", "issued")["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(Permits, seed=2).state_dict() == make_service(Permits, seed=2).state_dict()


def test_inspection_availability(svc):
    av = ok(svc, "check_inspection_availability", {"record_id": "PRM-0003", "inspection_type": "Final Building"})
    assert av["available_dates"] == ["2026-01-16", "2026-01-19", "2026-01-20", "2026-01-21", "2026-01-22"]
    assert code(svc, "check_inspection_availability", {"record_id": "PRM-0003", "inspection_type": "Final Sign"}) == 422
