"""Tests of the quotes service (HubSpot Quotes / CPQ style)."""

from __future__ import annotations

import datetime as dt

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.crm import Crm
from compoworld_gym.envs.services.quotes import Quotes

PRIYA, JAMAL, ELENA, HANNAH = ("priya.raman@company.example", "jamal.wright@company.example",
                               "elena.petrova@company.example", "hannah.kovacs@company.example")
TODAY = dt.date(2026, 1, 15)


@pytest.fixture
def svc(make_service):
    return make_service(Quotes)


def draft(svc, *lines, owner=HANNAH, expires="2026-02-15"):
    return ok(svc, "create_quote", {"title": "Acme - Pilot", "company": "Acme Corp", "owner_email": owner,
                                    "contact_email": "Ann.Lee@acme.example", "expiration_date": expires,
                                    "lines": [dict(zip(("sku", "quantity", "discount_percent"), ln)) for ln in lines]})


def test_seed_lines_up_with_the_crm(svc):
    for seed in (0, 2):
        crm = Crm.seed_state(seed, TODAY)
        emails = {c.email for c in crm.contacts.values()}
        for q in Quotes.seed_state(seed, TODAY).quotes.values():
            deal = crm.deals[q.deal_id]
            assert q.contact_email in emails and q.owner_email == deal.owner_email
            assert q.title.startswith(deal.dealname) and deal.dealname.startswith(q.company)
    rows = ok(svc, "list_quotes", {"deal_id": "DEAL-0001"})
    assert [(r["id"], r["status"]) for r in rows] == [("QUO-0001", "draft"), ("QUO-0007", "rejected")]
    assert [r["id"] for r in ok(svc, "list_quotes", {"contact_email": "EDWARD.HALL@horngonzalez6.example"})] == [
        "QUO-0002", "QUO-0005", "QUO-0008"]
    assert code(svc, "get_quote", {"quote_id": "QUO-0404"}) == 404


def test_catalog_and_policy(svc):
    assert ok(svc, "list_products", {"query": "webcam"}) == [
        {"sku": "WC-HD-12", "name": "1080p Webcam", "category": "electronics", "list_price": 54.0}]
    pol = ok(svc, "get_discount_policy")
    assert (pol["no_approval_up_to_percent"], pol["controller_above_percent"], pol["max_discount_percent"]) == (
        10.0, 25.0, 40.0)
    assert pol["controller_approvers"] == [ELENA] and pol["deal_desk_approvers"] == [PRIYA, JAMAL, ELENA]


def test_create_and_price_lines(svc):
    q = draft(svc, ("kb-mech-01", 10, 10))
    assert (q["id"], q["status"], q["subtotal"], q["total"], q["discount_total"]) == (
        "QUO-0009", "draft", 899.9, 809.9, 90.0)
    assert (q["lines"][0]["sku"], q["lines"][0]["net_price"], q["approval_level"]) == ("KB-MECH-01", 80.99, "none")
    q = ok(svc, "add_line_item", {"quote_id": q["id"], "line": {"sku": "HS-NC-13", "quantity": 3,
                                                                "discount_percent": 12.5}})
    assert (q["total"], q["max_discount_percent"], q["approval_level"]) == (1201.04, 12.5, "deal_desk")
    assert code(svc, "add_line_item", {"quote_id": q["id"], "line": {"sku": "HS-NC-13", "quantity": 1}}) == 409
    assert code(svc, "add_line_item", {"quote_id": q["id"], "line": {"sku": "NOPE-1", "quantity": 1}}) == 404
    e = error(svc, "add_line_item", {"quote_id": q["id"], "line": {"sku": "MS-WL-02", "quantity": 1,
                                                                   "discount_percent": 45}})
    assert e["code"] == 422 and "40%" in e["message"]
    q = ok(svc, "update_line_item", {"quote_id": q["id"], "line": {"sku": "HS-NC-13", "quantity": 3,
                                                                   "discount_percent": 30}})
    assert (q["approval_level"], q["total"]) == ("controller", 1122.8)
    assert code(svc, "update_line_item", {"quote_id": q["id"], "line": {"sku": "MS-WL-02", "quantity": 1}}) == 400
    q = ok(svc, "remove_line_item", {"quote_id": q["id"], "sku": "hs-nc-13"})
    assert (len(q["lines"]), q["total"], q["approval_level"]) == (1, 809.9, "none")
    assert code(svc, "remove_line_item", {"quote_id": q["id"], "sku": "HS-NC-13"}) == 400
    assert code(svc, "create_quote", {"title": "x", "company": "Acme", "owner_email": HANNAH,
                                      "contact_email": "a@acme.example", "expiration_date": "2026-01-14"}) == 422


def test_submit_approve_send_accept(svc):
    q = draft(svc, ("CH-ERG-05", 4, 15))
    s = ok(svc, "submit_quote", {"quote_id": q["id"]})
    assert s["status"] == "pending_approval"
    assert code(svc, "add_line_item", {"quote_id": q["id"], "line": {"sku": "MS-WL-02", "quantity": 1}}) == 409
    assert code(svc, "send_quote", {"quote_id": q["id"]}) == 409
    assert code(svc, "approve_quote", {"quote_id": q["id"], "approver_email": HANNAH}) == 422  # own quote
    assert code(svc, "approve_quote", {"quote_id": q["id"], "approver_email": "luis.ortega@company.example"}) == 422
    a = ok(svc, "approve_quote", {"quote_id": q["id"], "approver_email": "Jamal.Wright@company.example"})
    assert (a["status"], a["approver_email"], a["decided_on"]) == ("approved", JAMAL, "2026-01-15")
    assert code(svc, "approve_quote", {"quote_id": q["id"], "approver_email": JAMAL}) == 409
    sent = ok(svc, "send_quote", {"quote_id": q["id"], "message": "As discussed."})
    assert (sent["status"], sent["sent_on"], sent["cover_message"]) == ("sent", "2026-01-15", "As discussed.")
    e = error(svc, "update_quote", {"quote_id": q["id"], "title": "changed"})
    assert e["code"] == 409 and "clone_quote" in e["message"]
    assert code(svc, "remove_line_item", {"quote_id": q["id"], "sku": "CH-ERG-05"}) == 409
    acc = ok(svc, "accept_quote", {"quote_id": q["id"], "signer_name": "Ann Lee"})
    assert (acc["status"], acc["accepted_on"], acc["signer_name"]) == ("accepted", "2026-01-15", "Ann Lee")
    assert code(svc, "accept_quote", {"quote_id": q["id"], "signer_name": "Ann Lee"}) == 409


def test_controller_level_and_small_discounts(svc):
    assert code(svc, "approve_quote", {"quote_id": "QUO-0002", "approver_email": PRIYA}) == 422  # Priya owns it
    q = draft(svc, ("DK-STD-06", 2, 30))
    ok(svc, "submit_quote", {"quote_id": q["id"]})
    assert code(svc, "approve_quote", {"quote_id": q["id"], "approver_email": JAMAL}) == 422
    assert ok(svc, "approve_quote", {"quote_id": q["id"], "approver_email": ELENA})["status"] == "approved"
    free = draft(svc, ("NB-A5-08", 100, 10))
    assert ok(svc, "submit_quote", {"quote_id": free["id"]})["status"] == "approved"
    empty = draft(svc)
    assert code(svc, "submit_quote", {"quote_id": empty["id"]}) == 422


def test_reject_edit_resubmit_and_edit_voids_approval(svc):
    r = ok(svc, "reject_quote", {"quote_id": "QUO-0002", "approver_email": JAMAL, "reason": "Max 10%"})
    assert (r["status"], r["rejection_reason"]) == ("rejected", "Max 10%")
    e = ok(svc, "update_line_item", {"quote_id": "QUO-0002", "line": {"sku": "MT-FLT-14", "quantity": 5,
                                                                      "discount_percent": 10}})
    assert (e["status"], e["approval_level"], e["rejection_reason"]) == ("draft", "none", None)
    assert ok(svc, "submit_quote", {"quote_id": "QUO-0002"})["status"] == "approved"
    # Editing the approved QUO-0004 voids its approval.
    u = ok(svc, "update_quote", {"quote_id": "QUO-0004", "expiration_date": "2026-03-01"})
    assert (u["status"], u["approver_email"], u["expiration_date"]) == ("draft", None, "2026-03-01")
    assert code(svc, "update_quote", {"quote_id": "QUO-0001", "expiration_date": "2026-01-01"}) == 422


def test_expiry_and_clone(svc):
    assert code(svc, "accept_quote", {"quote_id": "QUO-0008", "signer_name": "Ed Hall"}) == 422  # expired yesterday
    assert ok(svc, "expire_quotes") == {"expired": ["QUO-0008"]}
    assert ok(svc, "expire_quotes") == {"expired": []}
    c = ok(svc, "clone_quote", {"quote_id": "QUO-0008", "expiration_date": "2026-02-20"})
    assert (c["id"], c["status"], c["revision_of"], c["total"]) == ("QUO-0009", "draft", "QUO-0008", 327.75)
    assert code(svc, "clone_quote", {"quote_id": "QUO-0001", "expiration_date": "2026-02-20"}) == 409
    past = draft(svc, ("CB-HDMI-11", 2, 0), expires="2026-01-15")
    ok(svc, "submit_quote", {"quote_id": past["id"]})
    svc.today = dt.date(2026, 1, 16)  # a day later the approved quote has expired
    assert code(svc, "send_quote", {"quote_id": past["id"]}) == 422


def test_failed_writes_roll_back(svc):
    before = svc.state_dict()
    assert code(svc, "add_line_item", {"quote_id": "QUO-0001", "line": {"sku": "MS-WL-02", "quantity": 1,
                                                                        "discount_percent": 41}}) == 422
    assert code(svc, "approve_quote", {"quote_id": "QUO-0002", "approver_email": HANNAH}) == 422
    assert svc.state_dict() == before
