"""Tests of the business_licenses service (Accela-style business licensing)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.business_licenses import BusinessLicenses

GENERAL = "Licenses/Business/General/Commercial"
FOOD = "Licenses/Business/Food/Establishment"


@pytest.fixture
def svc(make_service):
    return make_service(BusinessLicenses)


def _new(**over):
    args = {"license_type": GENERAL, "business_name": "Initech", "owner_name": "Samir Nagheenanajar",
            "owner_email": "samir.nagheenanajar@initech.example", "owner_phone": "+1-415-555-0199",
            "address": "4120 Freidrich Lane", "gross_receipts": 250000}
    return args | over


def test_types_and_searches(svc):
    types = {t["license_type"]: t for t in ok(svc, "list_license_types")}
    assert (types[FOOD]["application_fee"], types[FOOD]["annual_base_fee"], types[FOOD]["gross_receipts_rate"]) == \
        (150.0, 325.0, 0.0005)
    assert types[GENERAL]["renewal_opens_days_before"] == 60 and types[GENERAL]["grace_days_after"] == 30
    apps = ok(svc, "search_applications", {"business_name": "stark"})
    assert [(a["id"], a["status"], a["balance_due"]) for a in apps] == [("LAP-0001", "submitted", 500.0)]
    assert [a["id"] for a in ok(svc, "search_applications", {"status": "approved"})] == ["LAP-0003", "LAP-0004"]
    assert [a["id"] for a in ok(svc, "search_applications", {"owner_email": "MICHAEL.SMITH@gmail.com"})] == ["LAP-0008"]
    lic = ok(svc, "search_licenses", {"business_name": "soylent foods"})
    assert [(x["id"], x["expiration_status"], x["renewal_due"]) for x in lic] == [("BL-0002", "about_to_expire", 815.0)]
    assert [x["id"] for x in ok(svc, "search_licenses", {"expiration_status": "expired"})] == ["BL-0003"]
    assert [x["id"] for x in ok(svc, "search_licenses", {"status": "suspended"})] == ["BL-0005"]
    assert [x["id"] for x in ok(svc, "search_licenses", {"license_type": FOOD})] == ["BL-0002", "BL-0007"]
    assert code(svc, "search_licenses", {"status": "expired"}) == 400


def test_get_application_and_license(svc):
    app = ok(svc, "get_application", {"application_id": "LAP-0006"})
    assert (app["status"], app["license_id"], app["balance_due"]) == ("issued", "BL-0001", 0.0)
    lic = ok(svc, "get_license", {"license_id": "BL-0001"})
    assert (lic["business_name"], lic["owner_email"], lic["annual_fee"], lic["expires_on"]) == \
        ("Globex Corporation", "hank.scorpio@globex.example", 968.0, "2026-07-31")
    assert (lic["expiration_status"], lic["renewable"]) == ("current", False)
    assert code(svc, "get_application", {"application_id": "LAP-0999"}) == 404
    assert code(svc, "get_license", {"license_id": "BL-0999"}) == 404


def test_renewal_quote_and_late_fee(svc):
    q = ok(svc, "get_renewal_quote", {"license_id": "BL-0003"})
    assert (q["expiration_status"], q["license_fee"], q["late_fee"], q["total_due"]) == ("expired", 1025.0, 102.5,
                                                                                        1127.5)
    assert (q["window_opens"], q["window_closes"], q["new_expiration"]) == ("2025-11-06", "2026-02-04", "2027-01-05")
    msg = error(svc, "renew_license", {"license_id": "BL-0003", "amount": 1025})
    assert msg["code"] == 422 and "late fee 102.50" in msg["message"]
    ren = ok(svc, "renew_license", {"license_id": "BL-0003", "amount": 1127.5, "payment_method": "check",
                                    "reference": "chk 5521"})
    assert (ren["id"], ren["receipt_number"], ren["new_expiration"], ren["late_fee"]) == ("REN-0003", "LRC-0006",
                                                                                        "2027-01-05", 102.5)
    lic = ok(svc, "get_license", {"license_id": "BL-0003"})
    assert (lic["expires_on"], lic["expiration_status"]) == ("2027-01-05", "current")


def test_renewal_window_rules(svc):
    early = error(svc, "renew_license", {"license_id": "BL-0001", "amount": 968})
    assert early["code"] == 422 and "window opens on 2026-06-01" in early["message"]
    lapsed = error(svc, "renew_license", {"license_id": "BL-0008", "amount": 225})
    assert lapsed["code"] == 422 and "new application" in lapsed["message"]
    ren = ok(svc, "renew_license", {"license_id": "BL-0002", "amount": 815})
    assert (ren["total"], ren["previous_expiration"], ren["new_expiration"]) == (815.0, "2026-02-04", "2027-02-04")


def test_no_renewal_of_revoked_or_suspended(svc):
    revoked = error(svc, "renew_license", {"license_id": "BL-0006", "amount": 250})
    assert revoked["code"] == 409 and "revoked" in revoked["message"]
    assert code(svc, "renew_license", {"license_id": "BL-0005", "amount": 1990}) == 409
    assert code(svc, "reinstate_license", {"license_id": "BL-0006", "reason": "appeal"}) == 409
    back = ok(svc, "reinstate_license", {"license_id": "BL-0005", "reason": "New insurance certificate on file"})
    assert (back["status"], back["status_reason"], back["history"][-1]["action"]) == ("active", None, "reinstated")
    assert ok(svc, "renew_license", {"license_id": "BL-0005", "amount": 1990})["new_expiration"] == "2027-02-14"


def test_suspend_revoke_and_note(svc):
    s = ok(svc, "suspend_license", {"license_id": "BL-0004", "reason": "Unpermitted panel work"})
    assert (s["status"], s["status_reason"]) == ("suspended", "Unpermitted panel work")
    assert code(svc, "suspend_license", {"license_id": "BL-0004", "reason": "again"}) == 409
    r = ok(svc, "revoke_license", {"license_id": "BL-0004", "reason": "Fraudulent permit applications"})
    assert (r["status"], [h["action"] for h in r["history"]]) == ("revoked", ["suspended", "revoked"])
    assert code(svc, "revoke_license", {"license_id": "BL-0004", "reason": "again"}) == 409
    assert code(svc, "suspend_license", {"license_id": "BL-0004", "reason": "x"}) == 400  # reason too short
    n = ok(svc, "add_license_note", {"license_id": "BL-0009", "note": "Owner asked about renewal"})
    assert n["notes"] == ["Owner asked about renewal"]


def test_application_workflow(svc):
    assert error(svc, "update_application_status", {"application_id": "LAP-0001", "status": "approved"})["code"] == 409
    assert ok(svc, "update_application_status", {"application_id": "LAP-0001",
                                                 "status": "under_review"})["status"] == "under_review"
    assert code(svc, "update_application_status", {"application_id": "LAP-0001", "status": "denied"}) == 422
    d = ok(svc, "update_application_status", {"application_id": "LAP-0001", "status": "denied",
                                              "comment": "Incomplete zoning clearance"})
    assert (d["status"], d["decided_on"], d["decision_reason"]) == ("denied", "2026-01-15",
                                                                    "Incomplete zoning clearance")
    assert code(svc, "pay_application_fees", {"application_id": "LAP-0001", "amount": 500}) == 409  # closed
    w = ok(svc, "update_application_status", {"application_id": "LAP-0008", "status": "withdrawn",
                                              "comment": "Merged with parent company"})
    assert w["status"] == "withdrawn"
    assert code(svc, "issue_license", {"application_id": "LAP-0002"}) == 409  # still under review


def test_fees_paid_before_issue(svc):
    msg = error(svc, "issue_license", {"application_id": "LAP-0003"})
    assert msg["code"] == 422 and "809.00 in unpaid fees" in msg["message"]
    assert code(svc, "pay_application_fees", {"application_id": "LAP-0003", "amount": 800}) == 422
    pay = ok(svc, "pay_application_fees", {"application_id": "LAP-0003", "amount": 809, "reference": "case 77"})
    assert (pay["receipt_number"], pay["amount"], pay["balance_due"]) == ("LRC-0006", 809.0, 0.0)
    assert code(svc, "pay_application_fees", {"application_id": "LAP-0003", "amount": 1}) == 409
    lic = ok(svc, "issue_license", {"application_id": "LAP-0003"})
    assert (lic["id"], lic["annual_fee"], lic["issued_on"], lic["expires_on"], lic["status"]) == \
        ("BL-0011", 734.0, "2026-01-15", "2027-01-15", "active")
    app = ok(svc, "get_application", {"application_id": "LAP-0003"})
    assert (app["status"], app["license_id"]) == ("issued", "BL-0011")


def test_one_license_per_business_per_type(svc):
    held = error(svc, "create_application", _new(business_name="SOYLENT FOODS", license_type=FOOD))
    assert held["code"] == 409 and "BL-0002" in held["message"]
    assert "LAP-0001" in error(svc, "create_application", _new(business_name="Stark Logistics"))["message"]
    app = ok(svc, "create_application", _new())  # Initech's license lapsed: a new application is the way
    assert (app["id"], app["status"], app["balance_due"]) == ("LAP-0009", "submitted", 320.0)
    assert [(f["id"], f["code"], f["amount"]) for f in app["fees"]] == [("LFE-0017", "APP", 75.0),
                                                                          ("LFE-0018", "LIC", 245.0)]
    assert ok(svc, "create_application", _new(business_name="Rojas Sign Co",
                                              license_type="Licenses/Business/Contractor/Sign"))["id"] == "LAP-0010"
    assert ok(svc, "create_application", _new(business_name="Soylent Foods"))["id"] == "LAP-0011"  # other type
    assert code(svc, "create_application", _new(business_name="Umbrella Health", owner_email="nope")) == 400


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("renew_license", {"license_id": "BL-0003", "amount": 1.0})["success"] is False
    assert svc.call("issue_license", {"application_id": "LAP-0003"})["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(BusinessLicenses, seed=3).state_dict() == make_service(BusinessLicenses, seed=3).state_dict()
