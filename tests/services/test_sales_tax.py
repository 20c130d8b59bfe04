"""Tests of the sales_tax service (Avalara AvaTax REST v2 style). Today is 2026-01-15."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.sales_tax import SalesTax

CHICAGO = {"line1": "233 S Wacker Drive", "city": "Chicago", "region": "IL", "postal_code": "60601"}


@pytest.fixture
def svc(make_service):
    return make_service(SalesTax)


def create(svc, customer, code_, lines, **kw):
    return ok(svc, "create_transaction", {"code": code_, "customer_code": customer, "lines": lines, **kw})


def test_rates_and_address_resolution(svc):
    chicago = ok(svc, "tax_rates_by_address", CHICAGO)
    assert chicago["total_rate"] == 0.1025
    assert [(r["type"], r["name"], r["rate"]) for r in chicago["rates"]] == [
        ("STA", "ILLINOIS", 0.0625), ("CTY", "COOK", 0.0175), ("CIT", "CHICAGO", 0.0125),
        ("STJ", "REGIONAL TRANSPORTATION AUTHORITY (RTA)", 0.01)]
    portland = ok(svc, "tax_rates_by_address", {"line1": "418 Maple Avenue", "city": "Portland", "region": "OR",
                                                "postal_code": "97205"})
    assert (portland["total_rate"], portland["rates"]) == (0.0, [])
    assert code(svc, "tax_rates_by_address", {"line1": "Lindenstrasse 12", "city": "Berlin", "region": "BE",
                                              "postal_code": "10969", "country": "DE"}) == 422
    assert code(svc, "tax_rates_by_address", {**CHICAGO, "postal_code": "60699"}) == 422
    assert "is in Chicago, IL" in error(svc, "tax_rates_by_address", {**CHICAGO, "city": "Evanston"})["message"]
    denver = ok(svc, "resolve_address", {"line1": "9 Birch Lane", "city": "denver", "region": "co",
                                         "postal_code": "80202"})
    assert (denver["validated_address"]["city"], denver["validated_address"]["county"]) == ("Denver", "Denver")
    assert [a["juris_type"] for a in denver["tax_authorities"]] == ["STA", "CIT", "STJ", "STJ"]
    lyon = ok(svc, "resolve_address", {"line1": "14 Rue des Lilas", "city": "Lyon", "region": "ARA",
                                       "postal_code": "69003", "country": "FR"})
    assert lyon["tax_authorities"] == [] and "No tax nexus" in lyon["messages"][0]


def test_tax_codes_customers_and_seeded_documents(svc):
    codes = {c["tax_code"]: c for c in ok(svc, "list_tax_codes")}
    assert sorted(codes) == ["FR020100", "NT", "P0000000", "SW054000"]
    assert codes["SW054000"]["taxable_fraction_by_state"]["TX"] == 0.8
    assert [c["customer_code"] for c in ok(svc, "list_customers", {"email_address": "Emma.Wilson@yahoo.com"})] == [
        "CUS-0003"]
    assert ok(svc, "get_customer", {"customer_code": "CUS-0010"})["address"]["postal_code"] == "98101"
    assert code(svc, "get_customer", {"customer_code": "CUS-0404"}) == 404
    seattle = ok(svc, "get_transaction", {"transaction_id": "AVT-0003"})
    assert (seattle["code"], seattle["status"], seattle["total_amount"], seattle["total_tax"]) == (
        "INV-0003", "Committed", 167.99, 17.38)
    assert [ln["tax"] for ln in seattle["lines"]] == [16.77, 0.61]
    assert seattle["customer_email"] == "james.oconnor@icloud.com"
    assert [d["id"] for d in ok(svc, "list_transactions", {"status": "Saved"})] == ["AVT-0008", "AVT-0009"]
    assert [d["id"] for d in ok(svc, "list_transactions", {"customer_code": "CUS-0004"})] == ["AVT-0001", "AVT-0011"]
    assert ok(svc, "get_transaction_by_code", {"code": "INV-0010"})["status"] == "Cancelled"
    assert code(svc, "get_transaction_by_code", {"code": "INV-0404"}) == 404
    assert code(svc, "get_transaction", {"transaction_id": "AVT-0404"}) == 404


def test_tax_per_line_and_jurisdiction_rounded_half_up(svc):
    doc = create(svc, "CUS-0003", "INV-0020", [{"amount": 1000, "tax_code": "SW054000", "description": "Annual plan"},
                                               {"amount": 19.99, "tax_code": "FR020100"}])
    saas, ship = doc["lines"]
    # Texas taxes 80% of SaaS: 800.00 x (6.25% + 1% + 1%).
    assert (saas["taxable_amount"], saas["exempt_amount"], saas["tax"]) == (800.0, 200.0, 66.0)
    # Shipping: 1.249375 -> 1.25, 0.1999 -> 0.20 twice.
    assert ([d["tax"] for d in ship["details"]], ship["tax"], ship["tax_calculated"]) == ([1.25, 0.2, 0.2], 1.65,
                                                                                          1.649175)
    assert (doc["id"], doc["status"], doc["total_amount"], doc["total_taxable"], doc["total_exempt"],
            doc["total_tax"]) == ("AVT-0013", "Saved", 1019.99, 819.99, 200.0, 67.65)
    assert [(s["juris_name"], s["tax"]) for s in doc["summary"]] == [("TEXAS", 51.25), ("AUSTIN", 8.2),
                                                                   ("AUSTIN MTA TRANSIT", 8.2)]
    # Chicago: each of four jurisdictions rounds up, 1.04 where the exact total is 1.026025.
    small = create(svc, "CUS-0002", "INV-0021", [{"amount": 10.01}], ship_to=CHICAGO)
    assert (small["total_tax"], small["total_tax_calculated"]) == (1.04, 1.026025)
    assert create(svc, "CUS-0002", "INV-0022", [{"amount": 50, "tax_code": "NT"}])["total_exempt"] == 50.0
    assert code(svc, "create_transaction", {"code": "INV-0023", "customer_code": "CUS-0002", "lines": [],
                                            }) == 400
    assert code(svc, "create_transaction", {"code": "INV-0023", "customer_code": "CUS-0002",
                                            "lines": [{"amount": 5}], "ship_to": {**CHICAGO, "region": "IN"}}) == 422


def test_a_sales_order_is_only_an_estimate(svc):
    before = svc.state_dict()
    est = create(svc, "CUS-0010", "INV-0030", [{"amount": 200}], type="SalesOrder")
    assert (est["status"], est["total_tax"]) == ("Temporary", 20.7)  # Seattle 10.35%
    assert svc.state_dict() == before


def test_valid_certificates_exempt_expired_ones_do_not(svc):
    ethan = create(svc, "CUS-0006", "INV-0020", [{"amount": 100}])
    assert (ethan["total_tax"], ethan["total_exempt"], ethan["lines"][0]["exempt_cert_id"], ethan["exemption_no"]) == (
        0.0, 100.0, "CERT-0001", "PA-41481361")
    emma = create(svc, "CUS-0003", "INV-0021", [{"amount": 100}])  # her TX certificate expired 2025-12-21
    assert (emma["total_tax"], emma["exemption_no"]) == (8.25, None)
    msg = error(svc, "create_transaction", {"code": "INV-0022", "customer_code": "CUS-0003",
                                            "lines": [{"amount": 100}], "exemption_no": "TX-38551790"})
    assert msg["code"] == 422 and "valid 2023-12-22 to 2025-12-21" in msg["message"]
    # Liam's certificate is for Texas: it exempts a delivery to Austin, not one to his Denver address.
    assert create(svc, "CUS-0004", "INV-0023", [{"amount": 100}])["total_tax"] == 8.81
    austin = {"line1": "1 Congress Avenue", "city": "Austin", "region": "TX", "postal_code": "78701"}
    assert create(svc, "CUS-0004", "INV-0024", [{"amount": 100}], ship_to=austin)["total_tax"] == 0.0
    assert ok(svc, "revoke_certificate", {"certificate_id": "CERT-0001"})["status"] == "REVOKED"
    assert code(svc, "revoke_certificate", {"certificate_id": "CERT-0001"}) == 409
    assert create(svc, "CUS-0006", "INV-0025", [{"amount": 100}])["total_tax"] == 8.0
    assert code(svc, "create_transaction", {"code": "INV-0026", "customer_code": "CUS-0006",
                                            "lines": [{"amount": 1}], "exemption_no": "XX-1"}) == 422


def test_a_committed_transaction_is_only_adjusted(svc):
    replaced = create(svc, "CUS-0005", "INV-0008", [{"amount": 400}])  # Saved: creating its code again replaces it
    assert (replaced["id"], replaced["total_tax"]) == ("AVT-0008", 31.0)
    committed = ok(svc, "commit_transaction", {"transaction_id": "AVT-0008"})
    assert committed["status"] == "Committed"
    assert code(svc, "commit_transaction", {"transaction_id": "AVT-0008"}) == 409
    msg = error(svc, "create_transaction", {"code": "INV-0008", "customer_code": "CUS-0005",
                                            "lines": [{"amount": 300}]})
    assert msg["code"] == 409 and "adjust_transaction" in msg["message"]
    adj = ok(svc, "adjust_transaction", {"transaction_id": "AVT-0008", "adjustment_reason": "PriceAdjusted",
                                         "lines": [{"amount": 300}], "adjustment_description": "Agreed discount"})
    assert (adj["status"], adj["version"], adj["total_tax"], adj["adjustment_reason"]) == ("Committed", 2, 23.25,
                                                                                           "PriceAdjusted")
    assert code(svc, "adjust_transaction", {"transaction_id": "AVT-0008", "adjustment_reason": "Other",
                                            "lines": [{"amount": 300}]}) == 422
    assert code(svc, "create_transaction", {"code": "INV-0008", "customer_code": "CUS-0001",
                                            "lines": [{"amount": 1}]}) == 409


def test_a_voided_transaction_cannot_be_committed(svc):
    msg = error(svc, "commit_transaction", {"transaction_id": "AVT-0010"})
    assert msg["code"] == 409 and "voided" in msg["message"]
    assert code(svc, "adjust_transaction", {"transaction_id": "AVT-0010", "adjustment_reason": "PriceAdjusted",
                                            "lines": [{"amount": 1}]}) == 409
    assert code(svc, "void_transaction", {"transaction_id": "AVT-0010"}) == 409
    voided = ok(svc, "void_transaction", {"transaction_id": "AVT-0009", "code": "DocDeleted"})
    assert (voided["status"], voided["void_reason"]) == ("Cancelled", "DocDeleted")
    again = create(svc, "CUS-0008", "INV-0009", [{"amount": 210.94}], commit=True)
    assert (again["id"], again["status"]) == ("AVT-0013", "Committed")
    assert ok(svc, "get_transaction_by_code", {"code": "INV-0009"})["id"] == "AVT-0013"


def test_certificates_and_customers(svc):
    certs = {c["id"]: c["valid_today"] for c in ok(svc, "list_certificates")}
    assert certs == {"CERT-0001": True, "CERT-0002": False, "CERT-0003": True, "CERT-0004": False, "CERT-0005": True}
    assert [c["id"] for c in ok(svc, "list_certificates", {"exposure_zone": "tx"})] == ["CERT-0002", "CERT-0005"]
    assert ok(svc, "get_certificate", {"certificate_id": "CERT-0004"})["status"] == "REVOKED"
    args = {"customer_code": "CUS-0003", "exemption_reason": "CHARITABLE/EXEMPT ORG", "exposure_zone": "TX",
            "exemption_number": "TX-11112222", "signed_date": "2026-01-10", "expiration_date": "2029-01-10"}
    new = ok(svc, "create_certificate", args)
    assert (new["id"], new["valid_today"]) == ("CERT-0006", True)
    assert create(svc, "CUS-0003", "INV-0020", [{"amount": 100}])["total_tax"] == 0.0  # renewed: exempt again
    assert code(svc, "create_certificate", {**args, "expiration_date": "2026-01-01"}) == 422
    assert code(svc, "create_certificate", {**args, "signed_date": "2026-02-01"}) == 422
    assert code(svc, "create_certificate", {**args, "exposure_zone": "FL"}) == 422
    cust = {"customer_code": "CUS-0042", "name": "Globex Corporation", "email_address": "ap@globex.example",
            "address": {"line1": "10 Hudson Yards", "city": "New York", "region": "NY", "postal_code": "10001"}}
    assert ok(svc, "create_customer", cust)["customer_code"] == "CUS-0042"
    assert code(svc, "create_customer", cust) == 409
    assert code(svc, "create_customer", {**cust, "customer_code": "CUS-0043"}) == 409  # same email
    assert code(svc, "create_customer", {**cust, "customer_code": "CUS-0044", "email_address": "x@y.example",
                                         "address": {**cust["address"], "postal_code": "10002"}}) == 422
    assert create(svc, "CUS-0042", "INV-0031", [{"amount": 100}])["total_tax"] == 8.88  # 4 + 4.5 + 0.375 (0.38)


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("commit_transaction", {"transaction_id": "AVT-0010"})["success"] is False
    assert svc.call("create_transaction", {"code": "INV-0001", "customer_code": "CUS-0004",
                                           "lines": [{"amount": 5}]})["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(SalesTax, seed=5).state_dict() == make_service(SalesTax, seed=5).state_dict()
