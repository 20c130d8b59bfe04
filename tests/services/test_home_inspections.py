"""Tests of the home_inspections service (Spectora style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._home_inspections_rules import service_fee, split_estimate
from compoworld_gym.envs.services.home_inspections import HomeInspections
from compoworld_gym.envs.services.listings import Listings
from compoworld_gym.envs.services.mortgage_loans import MortgageLoans

NORA, BEN, HANA = "nora.castillo@company.example", "ben.whitaker@company.example", "hana.suzuki@company.example"
NEW = {"address": "77 Alder Court", "city": "Portland", "state": "or", "zip": "97214",
       "datetime": "2026-01-19T10:00:00", "inspector_email": BEN, "client_name": "Grace Kim",
       "client_email": "grace.kim@gmail.com", "square_feet": 2600, "year_built": 1938,
       "service_ids": ["SVC-0001", "SVC-0003"]}


@pytest.fixture
def svc(make_service):
    return make_service(HomeInspections)


def test_seed_lines_up_with_the_mls_and_the_lender(make_service, svc):
    mls, lender = make_service(Listings), make_service(MortgageLoans)
    first = ok(svc, "get_inspection", {"inspection_id": "INSP-0001"})
    offer, home = mls.state.offers["OFR-0001"], mls.state.listings["LST-0001"]
    assert (first["address"], first["client_email"], first["buyer_agent_email"], first["listing_agent_email"]) == (
        home.unparsed_address, offer.buyer_email, offer.buyer_agent_email, home.list_agent_email)
    loan = lender.state.loans["LN-0005"]
    eighth = ok(svc, "get_inspection", {"inspection_id": "INSP-0008"})
    assert (eighth["address"], eighth["client_email"]) == (loan.subject_property.street_address,
                                                           loan.borrower.email_address_text)
    withdrawn = next(o for o in mls.state.offers.values() if o.status == "Withdrawn")
    assert ok(svc, "get_inspection", {"inspection_id": "INSP-0007"})["client_email"] == withdrawn.buyer_email


def test_fee_rules():
    from compoworld_gym.envs.services._home_inspections_models import ServiceOffering

    home = ServiceOffering(id="SVC-1", name="Home", base_fee=425, sqft_included=2000, fee_per_500_sqft=50,
                           pre_1950_fee=75, duration=180, add_on=False)
    assert [service_fee(home, sq, yr) for sq, yr in ((2000, 2000), (2001, 2000), (2600, 1938), (3100, 1950))] == [
        425.0, 475.0, 600.0, 575.0]
    assert split_estimate(1000.0, 3) == [500.01, 333.33, 166.66] and round(sum(split_estimate(120.01, 2)), 2) == 120.01


def test_reads(svc):
    rows = ok(svc, "list_inspections", {"address": "clinton"})
    assert [(r["id"], r["status"], r["fee_total"], r["balance_due"]) for r in rows] == [
        ("INSP-0001", "completed", 725.0, 0.0)]
    assert rows[0]["report"] == {"published": True, "locked": False, "defect_count": 5, "safety_hazards": 2,
                                 "repair_estimate_low": 1725.0, "repair_estimate_high": 4450.0}
    assert [r["id"] for r in ok(svc, "list_inspections", {"status": "completed"})] == [
        "INSP-0004", "INSP-0003", "INSP-0001", "INSP-0002", "INSP-0009"]
    assert [r["id"] for r in ok(svc, "list_inspections", {"date_from": "2026-01-15", "paid": False})] == [
        "INSP-0006", "INSP-0005", "INSP-0007"]
    assert [r["id"] for r in ok(svc, "list_inspections", {"client_email": "LIAM.PATEL@gmail.com"})] == ["INSP-0002"]
    assert [r["id"] for r in ok(svc, "list_inspections", {"inspector_email": HANA})] == [
        "INSP-0003", "INSP-0009", "INSP-0007"]
    assert code(svc, "list_inspections", {"date_from": "2026-02-01", "date_to": "2026-01-01"}) == 400
    assert ok(svc, "get_inspection", {"inspection_id": "INSP-0002"})["balance_due"] == 545.0
    assert code(svc, "get_inspection", {"inspection_id": "INSP-0999"}) == 404
    assert [x["name"] for x in ok(svc, "list_inspectors", {"active": False})] == ["Victor Hale"]
    assert [s["name"] for s in ok(svc, "list_services")][:3] == ["Residential Home Inspection",
                                                                "Condominium Inspection", "Radon Testing"]
    rep = ok(svc, "get_report", {"inspection_id": "INSP-0002"})
    assert (rep["published"], rep["locked"], rep["counts"], rep["repair_estimate_high"]) == (
        False, True, {"maintenance_item": 1, "recommendation": 1, "safety_hazard": 2}, 1400.0)
    assert list(rep["sections"]) == ["Garage", "Electrical", "Insulation & Ventilation", "Cooling"]
    assert [d["id"] for d in ok(svc, "list_defects", {"severity": "safety_hazard"})] == [
        "DEF-0002", "DEF-0005", "DEF-0008", "DEF-0009"]
    assert [d["title"] for d in ok(svc, "list_defects", {"inspection_id": "INSP-0009", "section": "Structure"})] == [
        "Foundation crack wider than 1/4 inch"]
    assert code(svc, "list_defects", {"inspection_id": "INSP-0999"}) == 404
    assert [(a["id"], a["status"]) for a in ok(svc, "list_agreements", {"inspection_id": "INSP-0007"})] == [
        ("AGR-0007", "void")]
    assert [(p["amount"], p["refunded"]) for p in ok(svc, "list_payments", {"inspection_id": "INSP-0007"})] == [
        (325.0, True)]


def test_create_prices_the_home_and_issues_an_agreement(svc):
    i = ok(svc, "create_inspection", NEW)
    assert (i["id"], i["status"], i["state"], i["duration"], i["inspector_name"]) == (
        "INSP-0010", "unconfirmed", "OR", 195, "Ben Whitaker")
    assert [(s["name"], s["fee"]) for s in i["services"]] == [("Residential Home Inspection", 600.0),
                                                             ("Radon Testing", 175.0)]
    assert (i["fee_total"], i["paid"], i["agreed"]) == (775.0, False, False)
    assert ok(svc, "list_agreements", {"inspection_id": "INSP-0010"})[0]["fee_total"] == 775.0
    assert ok(svc, "confirm_inspection", {"inspection_id": "INSP-0010"})["status"] == "confirmed"
    assert code(svc, "confirm_inspection", {"inspection_id": "INSP-0010"}) == 409


def test_create_refusals(svc):
    msg = error(svc, "create_inspection", {**NEW, "datetime": "2026-01-14T10:00:00"})
    assert msg["code"] == 422 and "in the past" in msg["message"]
    assert code(svc, "create_inspection", {**NEW, "datetime": "2026-01-15T08:30:00"}) == 422  # earlier today
    assert code(svc, "create_inspection", {**NEW, "datetime": "2026-01-19T18:00:00"}) == 400
    msg = error(svc, "create_inspection", {**NEW, "datetime": "2026-01-16T11:00:00"})
    assert msg["code"] == 409 and "INSP-0006" in msg["message"]  # 09:00 for 195 minutes
    assert code(svc, "create_inspection", {**NEW, "inspector_email": "victor.hale@company.example"}) == 409
    assert code(svc, "create_inspection", {**NEW, "inspector_email": "nobody@company.example"}) == 404
    assert code(svc, "create_inspection", {**NEW, "service_ids": ["SVC-0003"]}) == 422
    assert code(svc, "create_inspection", {**NEW, "service_ids": ["SVC-0001", "SVC-0002"]}) == 422
    assert code(svc, "create_inspection", {**NEW, "service_ids": ["SVC-0099"]}) == 404
    assert code(svc, "create_inspection", {**NEW, "zip": "972"}) == 400


def test_reschedule_and_cancel(svc):
    r = ok(svc, "reschedule_inspection", {"inspection_id": "INSP-0006", "datetime": "2026-01-21T09:00:00",
                                          "inspector_email": HANA})
    assert (r["datetime"], r["inspector_email"]) == ("2026-01-21T09:00:00", HANA)
    assert code(svc, "reschedule_inspection", {"inspection_id": "INSP-0006", "datetime": "2026-01-10T09:00:00"}) == 422
    assert code(svc, "reschedule_inspection", {"inspection_id": "INSP-0005", "datetime": "2026-01-20T11:30:00",
                                               "inspector_email": BEN}) == 409  # BEN has INSP-0008
    assert code(svc, "reschedule_inspection", {"inspection_id": "INSP-0001", "datetime": "2026-01-21T09:00:00"}) == 409
    c = ok(svc, "cancel_inspection", {"inspection_id": "INSP-0008", "reason": "Buyer's financing fell through."})
    assert (c["status"], c["amount_paid"], c["paid"], c["agreed"]) == ("cancelled", 0.0, False, False)
    assert ok(svc, "list_payments", {"inspection_id": "INSP-0008"})[0]["refunded"] is True
    assert ok(svc, "list_agreements", {"inspection_id": "INSP-0008"})[0]["status"] == "void"
    assert code(svc, "cancel_inspection", {"inspection_id": "INSP-0008", "reason": "again"}) == 409
    assert code(svc, "cancel_inspection", {"inspection_id": "INSP-0001", "reason": "too late"}) == 409


def test_add_service_reissues_a_signed_agreement(svc):
    r = ok(svc, "add_service", {"inspection_id": "INSP-0008", "service_id": "SVC-0003"})
    assert (r["fee_total"], r["paid"], r["agreed"], r["balance_due"]) == (795.0, False, False, 175.0)
    assert [(a["id"], a["status"], a["fee_total"]) for a in ok(svc, "list_agreements", {"inspection_id": "INSP-0008"})
            ] == [("AGR-0008", "void", 620.0), ("AGR-0010", "unsigned", 795.0)]
    u = ok(svc, "add_service", {"inspection_id": "INSP-0005", "service_id": "SVC-0004"})  # unsigned: updated
    assert ok(svc, "list_agreements", {"inspection_id": "INSP-0005"})[0]["fee_total"] == u["fee_total"] == 650.0
    assert code(svc, "add_service", {"inspection_id": "INSP-0008", "service_id": "SVC-0003"}) == 409
    assert code(svc, "add_service", {"inspection_id": "INSP-0008", "service_id": "SVC-0007"}) == 422
    assert code(svc, "add_service", {"inspection_id": "INSP-0001", "service_id": "SVC-0006"}) == 409


def test_sign_and_pay(svc):
    assert code(svc, "sign_agreement", {"agreement_id": "AGR-0005", "signer_name": "Someone Else"}) == 422
    a = ok(svc, "sign_agreement", {"agreement_id": "AGR-0005", "signer_name": "daniel carr"})
    assert (a["status"], a["signed_by"]) == ("signed", "Daniel Carr")
    assert code(svc, "sign_agreement", {"agreement_id": "AGR-0005", "signer_name": "Daniel Carr"}) == 409
    assert code(svc, "sign_agreement", {"agreement_id": "AGR-0007", "signer_name": "x y"}) == 409  # void
    assert code(svc, "sign_agreement", {"agreement_id": "AGR-0999", "signer_name": "x y"}) == 404
    msg = error(svc, "record_payment", {"inspection_id": "INSP-0005", "amount": 500})
    assert msg["code"] == 422 and "balance due on INSP-0005 is 425.00" in msg["message"]
    p = ok(svc, "record_payment", {"inspection_id": "INSP-0005", "amount": 125, "method": "ach"})
    assert (p["id"], p["balance_due"]) == ("PAY-0008", 300.0)
    ok(svc, "record_payment", {"inspection_id": "INSP-0005", "amount": 300})
    assert ok(svc, "get_inspection", {"inspection_id": "INSP-0005"})["paid"] is True
    assert code(svc, "record_payment", {"inspection_id": "INSP-0005", "amount": 1}) == 409
    assert code(svc, "record_payment", {"inspection_id": "INSP-0007", "amount": 1}) == 409


def test_complete_and_report_writing(svc):
    msg = error(svc, "complete_inspection", {"inspection_id": "INSP-0005"})
    assert msg["code"] == 422 and "cannot be completed before" in msg["message"]
    assert code(svc, "complete_inspection", {"inspection_id": "INSP-0006"}) == 409  # unconfirmed
    d = ok(svc, "add_defect", {"inspection_id": "INSP-0009", "section": "Roof", "severity": "recommendation",
                               "title": "Worn flashing at chimney", "contractor": "Qualified roofing contractor",
                               "estimate_low": 300, "estimate_high": 650})
    assert d["id"] == "DEF-0017"
    assert ok(svc, "get_report", {"inspection_id": "INSP-0009"})["repair_estimate_high"] == 3950.0
    assert ok(svc, "remove_defect", {"defect_id": "DEF-0017"})["title"] == "Worn flashing at chimney"
    assert code(svc, "remove_defect", {"defect_id": "DEF-0017"}) == 404
    assert code(svc, "remove_defect", {"defect_id": "DEF-0001"}) == 409  # published report
    base = {"section": "Roof", "severity": "recommendation", "title": "Worn flashing", "contractor": "Roofer"}
    assert code(svc, "add_defect", {**base, "inspection_id": "INSP-0001", "estimate_low": 1, "estimate_high": 2}) == 409
    assert code(svc, "add_defect", {**base, "inspection_id": "INSP-0006", "estimate_low": 1, "estimate_high": 2}) == 409
    assert code(svc, "add_defect", {**base, "inspection_id": "INSP-0009", "estimate_low": 5, "estimate_high": 2}) == 400
    assert code(svc, "add_defect", {**base, "inspection_id": "INSP-0009", "severity": "critical",
                                    "estimate_low": 1, "estimate_high": 2}) == 400


def test_publish_needs_signed_agreement_and_full_payment(svc):
    msg = error(svc, "publish_report", {"inspection_id": "INSP-0009"})
    assert msg["code"] == 422 and "agreement of INSP-0009 is not signed" in msg["message"]
    msg = error(svc, "publish_report", {"inspection_id": "INSP-0002"})
    assert msg["code"] == 422 and "545.00 due" in msg["message"]
    assert code(svc, "publish_report", {"inspection_id": "INSP-0001"}) == 409  # already published
    assert code(svc, "publish_report", {"inspection_id": "INSP-0008"}) == 409  # not completed
    ok(svc, "record_payment", {"inspection_id": "INSP-0002", "amount": 545})
    r = ok(svc, "publish_report", {"inspection_id": "INSP-0002"})
    assert r["report_published"] is True and r["report"]["locked"] is False
    (notice,) = svc.state.outbox.values()
    assert notice.to == ["liam.patel@gmail.com", "priscilla.vaughn@harborlight.example",
                         "derek.osei@company.example"] and notice.about == "INSP-0002"


def test_internal_note_and_rollback(svc, make_service):
    n = ok(svc, "add_internal_note", {"inspection_id": "INSP-0002", "note": "Seller's agent asked for the summary."})
    assert n["internal_notes"] == ["Seller's agent asked for the summary."]
    before = svc.state_dict()
    assert svc.call("publish_report", {"inspection_id": "INSP-0009"})["success"] is False
    assert svc.call("add_service", {"inspection_id": "INSP-0008", "service_id": "SVC-0007"})["success"] is False
    assert svc.state_dict() == before
    assert make_service(HomeInspections, seed=3).state_dict() == make_service(HomeInspections, seed=3).state_dict()
