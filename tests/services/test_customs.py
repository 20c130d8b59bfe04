"""Tests of the customs service (US CBP ACE entries filed by a broker)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.customs import Customs

NEW = {"importer_id": "IMP-0002", "mode": "air", "port_code": "4701", "supplier": "Shenzhen Keytech Co",
       "country_of_export": "CN", "arrival_date": "2026-01-14", "bill_of_lading": "176-55512340",
       "tracking_number": "1zcw1234567890", "purchase_order_id": "PO-0009"}
HEADSETS = {"hts_code": "8518.30.2000", "description": "Headsets", "country_of_origin": "CN", "quantity": 100,
            "value": 6400}


@pytest.fixture
def svc(make_service):
    return make_service(Customs)


def test_tariff_ports_and_importers(svc):
    assert ok(svc, "search_hts", {"query": "headphones microphone"}) == [
        {"hts_code": "8518.30.2000", "description": "Headphones and earphones combined with a microphone",
         "general_rate": 0.049, "general_rate_text": "4.9%", "unit": "No.", "agency": "FCC"}]
    assert [h["hts_code"] for h in ok(svc, "search_hts", {"code_prefix": "8471"})] == ["8471.60.2000", "8471.60.9050"]
    assert len(ok(svc, "search_hts")) == 19
    ports = {p["port_code"]: p for p in ok(svc, "list_ports")}
    assert (ports["2704"]["name"], ports["3901"]["modes"]) == ("Los Angeles, CA", ["air", "truck"])
    assert [i["id"] for i in ok(svc, "list_importers", {"query": "walker"})] == ["IMP-0002"]
    assert ok(svc, "list_importers")[0] == {"id": "IMP-0001", "name": "Pollard Inc", "ior_number": "16-6462248-00",
                                            "bond_number": "918955367"}


def test_duty_and_fee_arithmetic(svc):
    est = ok(svc, "estimate_duties", {"lines": [{"hts_code": "8518302000", "value": 16500},
                                                {"hts_code": "8471.60.2000", "value": 15400}]})
    assert (est["duty"], est["mpf"], est["hmf"], est["total_due"]) == (808.5, 110.5, 39.88, 958.88)
    low = ok(svc, "estimate_duties", {"lines": [{"hts_code": "9608.10.0000", "value": 1000}], "mode": "air"})
    assert (low["duty"], low["mpf"], low["hmf"], low["total_due"]) == (54.0, 32.71, 0.0, 86.71)  # MPF minimum
    high = ok(svc, "estimate_duties", {"lines": [{"hts_code": "8528.52.0000", "value": 500000}], "mode": "truck"})
    assert (high["duty"], high["mpf"], high["total_due"]) == (0.0, 634.62, 634.62)  # MPF maximum
    informal = ok(svc, "estimate_duties", {"lines": [{"hts_code": "4202.92.3131", "value": 800}], "mode": "air",
                                           "entry_type": "11"})
    assert (informal["duty"], informal["mpf"], informal["total_due"]) == (140.8, 2.62, 143.42)


def test_list_and_get_entries(svc):
    assert [e["id"] for e in ok(svc, "list_entries", {"status": "held"})] == ["ENT-0007", "ENT-0008"]
    assert [e["id"] for e in ok(svc, "list_entries", {"purchase_order_id": "PO-0006"})] == ["ENT-0003"]
    assert [e["id"] for e in ok(svc, "list_entries", {"importer_name": "pollard inc"})] == ["ENT-0005", "ENT-0010"]
    assert [e["id"] for e in ok(svc, "list_entries", {"tracking_number": "1zcw8772546603"})] == ["ENT-0002"]
    assert [e["id"] for e in ok(svc, "list_entries", {"port_code": "2704"})] == ["ENT-0001", "ENT-0009"]
    e = ok(svc, "get_entry", {"entry_id": "ENT-0007"})
    assert (e["entry_number"], e["total_due"], e["open_holds"], e["duty_paid"]) == ("CW7-0004359-0", 2220.02,
                                                                                   ["HLD-0002"], False)
    assert ok(svc, "get_entry", {"entry_id": "ENT-0001"})["missing_documents"] == ["bill_of_lading", "fcc_form_740"]
    assert code(svc, "get_entry", {"entry_id": "ENT-0999"}) == 404


def test_create_entry_lines_documents_and_file(svc):
    e = ok(svc, "create_entry", NEW)
    assert (e["id"], e["entry_number"], e["status"], e["tracking_number"], e["importer_name"]) == (
        "ENT-0011", "CW7-0004507-0", "draft", "1ZCW1234567890", "Escobar, Davis and Walker")
    assert e["missing_documents"] == ["commercial_invoice", "packing_list", "air_waybill"]
    assert code(svc, "file_entry", {"entry_id": "ENT-0011"}) == 422  # no lines yet
    e = ok(svc, "add_entry_line", {"entry_id": "ENT-0011", **HEADSETS})
    assert (e["duty"], e["mpf"], e["total_due"]) == (313.6, 32.71, 346.31)
    assert e["missing_documents"] == ["commercial_invoice", "packing_list", "air_waybill", "fcc_form_740"]
    e = ok(svc, "add_entry_line", {"entry_id": "ENT-0011", "hts_code": "8471602000", "description": "Keyboards",
                                   "country_of_origin": "CN", "quantity": 50, "value": 1925})
    assert [ln["line_number"] for ln in e["lines"]] == [1, 2] and e["lines"][1]["hts_code"] == "8471.60.2000"
    e = ok(svc, "remove_entry_line", {"entry_id": "ENT-0011", "line_number": 1})
    assert ([ln["hts_code"] for ln in e["lines"]], e["total_due"], e["missing_documents"]) == (
        ["8471.60.2000"], 32.71, ["commercial_invoice", "packing_list", "air_waybill"])
    assert code(svc, "remove_entry_line", {"entry_id": "ENT-0011", "line_number": 5}) == 404
    for doc in ("commercial_invoice", "packing_list"):
        ok(svc, "upload_entry_document", {"entry_id": "ENT-0011", "document_type": doc, "file_name": f"{doc}.pdf"})
    msg = error(svc, "file_entry", {"entry_id": "ENT-0011"})
    assert msg["code"] == 422 and "missing required documents: air_waybill" in msg["message"]
    ok(svc, "upload_entry_document", {"entry_id": "ENT-0011", "document_type": "air_waybill", "file_name": "awb.pdf"})
    extra = ok(svc, "upload_entry_document", {"entry_id": "ENT-0011", "document_type": "certificate_of_origin",
                                              "file_name": "coo.pdf"})
    assert extra["documents"][-1] == {"document_type": "certificate_of_origin", "required": False,
                                      "status": "received", "file_name": "coo.pdf"}
    filed = ok(svc, "file_entry", {"entry_id": "ENT-0011"})
    assert (filed["status"], filed["filed_on"]) == ("filed", "2026-01-15")
    assert code(svc, "add_entry_line", {"entry_id": "ENT-0011", **HEADSETS}) == 409  # lines change only on drafts
    assert code(svc, "file_entry", {"entry_id": "ENT-0011"}) == 409


def test_create_entry_checks_importer_and_port(svc):
    assert code(svc, "create_entry", {**NEW, "importer_id": "IMP-0999"}) == 404
    assert code(svc, "create_entry", {**NEW, "port_code": "9999"}) == 404
    assert code(svc, "create_entry", {**NEW, "port_code": "2304"}) == 422  # Laredo clears trucks only
    assert code(svc, "create_entry", {**NEW, "country_of_export": "China"}) == 400


def test_lines_need_a_valid_hts_code_and_a_value(svc):
    assert "not a valid line" in error(svc, "add_entry_line", {"entry_id": "ENT-0001", **HEADSETS,
                                                               "hts_code": "8518.30.9999"})["message"]
    assert "10 digits" in error(svc, "add_entry_line", {"entry_id": "ENT-0001", **HEADSETS,
                                                        "hts_code": "8518.30.20"})["message"]
    assert code(svc, "add_entry_line", {"entry_id": "ENT-0001", **HEADSETS, "value": 0}) == 400
    assert code(svc, "add_entry_line", {"entry_id": "ENT-0001", **HEADSETS, "quantity": 0}) == 400
    assert code(svc, "estimate_duties", {"lines": [{"hts_code": "1234.56.7890", "value": 10}]}) == 422


def test_informal_entry_limit(svc):
    e = ok(svc, "add_entry_line", {"entry_id": "ENT-0002", **HEADSETS, "value": 2000})
    assert e["entered_value"] == 2840.0
    for doc in e["missing_documents"]:
        ok(svc, "upload_entry_document", {"entry_id": "ENT-0002", "document_type": doc, "file_name": f"{doc}.pdf"})
    assert "limited to 2500.00 USD" in error(svc, "file_entry", {"entry_id": "ENT-0002"})["message"]


def test_no_release_with_an_open_hold(svc):
    msg = error(svc, "release_entry", {"entry_id": "ENT-0007"})
    assert msg["code"] == 409 and "open hold(s) ['HLD-0002']" in msg["message"]
    hold = ok(svc, "place_hold", {"entry_id": "ENT-0007", "hold_type": "CBP exam", "reason": "X-ray anomaly"})
    assert (hold["id"], hold["status"], hold["entry_status"]) == ("HLD-0004", "open", "held")
    e = ok(svc, "resolve_hold", {"entry_id": "ENT-0007", "hold_id": "HLD-0002", "resolution": "FCC ID supplied"})
    assert (e["status"], e["open_holds"]) == ("held", ["HLD-0004"])
    again = {"entry_id": "ENT-0007", "resolution": "again please"}
    assert code(svc, "resolve_hold", {**again, "hold_id": "HLD-0002"}) == 409
    assert code(svc, "resolve_hold", {**again, "hold_id": "HLD-0999"}) == 404
    e = ok(svc, "resolve_hold", {"entry_id": "ENT-0007", "hold_id": "HLD-0004", "resolution": "Exam passed"})
    assert (e["status"], e["open_holds"]) == ("under_review", [])
    released = ok(svc, "release_entry", {"entry_id": "ENT-0007"})
    assert (released["status"], released["released_on"]) == ("released", "2026-01-15")
    assert code(svc, "release_entry", {"entry_id": "ENT-0007"}) == 409
    assert code(svc, "release_entry", {"entry_id": "ENT-0001"}) == 409  # a draft was never filed
    assert code(svc, "place_hold", {"entry_id": "ENT-0009", "hold_type": "FDA hold", "reason": "Too late"}) == 409


def test_pay_duty(svc):
    assert code(svc, "pay_duty", {"entry_id": "ENT-0001", "amount": 958.88}) == 409  # draft
    msg = error(svc, "pay_duty", {"entry_id": "ENT-0003", "amount": 200})
    assert msg["code"] == 422 and "total due 222.81 (duty 139.23 + MPF 61.42 + HMF 22.16)" in msg["message"]
    paid = ok(svc, "pay_duty", {"entry_id": "ENT-0003", "amount": 222.81, "reference": "PO-0006 duties"})
    assert paid == {"amount": 222.81, "method": "ach_debit", "reference": "PO-0006 duties", "paid_on": "2026-01-15",
                    "entry_id": "ENT-0003"}
    assert ok(svc, "get_entry", {"entry_id": "ENT-0003"})["duty_paid"] is True
    assert code(svc, "pay_duty", {"entry_id": "ENT-0003", "amount": 222.81}) == 409
    assert ok(svc, "pay_duty", {"entry_id": "ENT-0007", "amount": 2220.02, "method": "daily_statement"})["amount"] \
        == 2220.02  # a held entry's duties can be paid


def test_notes_rollback_and_seed(svc, make_service):
    e = ok(svc, "add_entry_note", {"entry_id": "ENT-0005", "note": "Broker called CBP re: invoice values"})
    assert [(n["text"], n["at"]) for n in e["notes"]] == [("Broker called CBP re: invoice values",
                                                          "2026-01-15T09:00:00")]
    before = svc.state_dict()
    assert svc.call("pay_duty", {"entry_id": "ENT-0004", "amount": 1.0})["success"] is False
    bad_line = {"entry_id": "ENT-0001", **HEADSETS, "hts_code": "0000000000"}
    assert svc.call("add_entry_line", bad_line)["success"] is False
    assert svc.state_dict() == before
    assert make_service(Customs, seed=4).state_dict() == make_service(Customs, seed=4).state_dict()
    seeded = make_service(Customs).state_dict()["entries"]
    assert all(e["total_due"] == round(e["duty"] + e["mpf"] + e["hmf"], 2) for e in seeded.values())
