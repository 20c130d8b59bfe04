"""Tests of the legal_matters service (Clio-style practice management)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.legal_matters import LegalMatters

HARLOW, OKAFOR, PARALEGAL = ("m.harlow@harlowreed.example", "r.okafor@harlowreed.example",
                             "l.summers@harlowreed.example")
COUNSEL = "aisha.khan@company.example"


@pytest.fixture
def svc(make_service):
    return make_service(LegalMatters)


def new_matter(svc, area="Employment", lead=OKAFOR):
    c = ok(svc, "create_contact", {"type": "Person", "name": "Dana Whitfield", "email": "dana@whitfield.example",
                                    "company": "Whitfield Foods"})
    return ok(svc, "create_matter", {"client_id": c["id"], "description": "Non-compete dispute for Dana Whitfield",
                                     "practice_area": area, "responsible_attorney_email": lead})


def test_seeded_state_is_consistent(svc):
    users = ok(svc, "list_users", {"role": "attorney"})
    assert len(users) == 6 and COUNSEL in {u["email"] for u in users}
    assert [u["email"] for u in ok(svc, "list_users", {"role": "paralegal"})] == [PARALEGAL]
    st = svc.state
    for b in st.bills.values():
        assert b.total == round(sum(st.activities[a].total for a in b.activity_ids), 2)
        assert all(st.activities[a].bill_id == b.id for a in b.activity_ids)
    for m in st.matters.values():  # a closed matter has nothing unbilled
        if m.status == "closed":
            assert ok(svc, "get_matter", {"matter_id": m.id})["unbilled_amount"] == 0.0
    assert {m.status for m in st.matters.values()} == {"open", "pending", "closed"}


def test_contacts(svc):
    c = ok(svc, "create_contact", {"type": "Company", "name": "Northwind Supply", "email": "legal@northwind.example"})
    assert (c["id"], c["company"]) == ("CON-0011", "Northwind Supply")
    assert code(svc, "create_contact", {"type": "Person", "name": "Copy", "email": "LEGAL@northwind.example"}) == 409
    assert [x["id"] for x in ok(svc, "list_contacts", {"query": "northwind"})] == ["CON-0011"]
    assert ok(svc, "get_contact", {"contact_id": "CON-0011"})["name"] == "Northwind Supply"
    assert len(ok(svc, "list_contacts", {"type": "Company"})) == 3
    assert code(svc, "get_contact", {"contact_id": "CON-0999"}) == 404
    assert code(svc, "create_contact", {"type": "Robot", "name": "R2"}) == 400


def test_create_matter_and_lists(svc):
    m = new_matter(svc)
    assert (m["id"], m["display_number"], m["status"], m["open_date"]) == ("MAT-0011", "00011-Whitfield", "open",
                                                                           "2026-01-15")
    assert (m["client_email"], m["client_company"], m["originating_attorney_email"]) == (
        "dana@whitfield.example", "Whitfield Foods", OKAFOR)
    assert [x["id"] for x in ok(svc, "list_matters", {"client_email": "DANA@whitfield.example"})] == ["MAT-0011"]
    assert [x["id"] for x in ok(svc, "list_matters", {"client_company": "whitfield foods"})] == ["MAT-0011"]
    mine = ok(svc, "list_matters", {"responsible_attorney_email": OKAFOR, "status": "open"})
    assert "MAT-0011" in {x["id"] for x in mine} and all("notes" not in x for x in mine)
    assert len(ok(svc, "list_matters", {"status": "closed"})) == 2
    assert code(svc, "create_matter", {"client_id": "CON-0001", "description": "Lease review",
                                       "practice_area": "Real Estate", "responsible_attorney_email": PARALEGAL}) == 422
    assert code(svc, "create_matter", {"client_id": "CON-0999", "description": "Lease review",
                                       "practice_area": "Real Estate", "responsible_attorney_email": HARLOW}) == 404
    assert code(svc, "create_matter", {"client_id": "CON-0001", "description": "Lease review",
                                       "practice_area": "Tax", "responsible_attorney_email": HARLOW}) == 400
    assert code(svc, "get_matter", {"matter_id": "MAT-0999"}) == 404


def test_time_and_expense_entries(svc):
    mid = new_matter(svc)["id"]
    t = ok(svc, "create_time_entry", {"matter_id": mid, "user_email": OKAFOR, "date": "2026-01-14", "hours": 1.5,
                                      "note": "Review non-compete"})
    assert (t["id"], t["price"], t["total"], t["bill_id"]) == ("ACT-0033", 425.0, 637.5, None)
    p = ok(svc, "create_time_entry", {"matter_id": mid, "user_email": PARALEGAL, "date": "2026-01-15", "hours": 0.3,
                                      "note": "Prepare exhibits", "rate": 150})
    assert p["total"] == 45.0
    e = ok(svc, "create_expense_entry", {"matter_id": mid, "user_email": OKAFOR, "date": "2026-01-13",
                                         "amount": 402, "note": "Court filing fee"})
    assert (e["type"], e["quantity"], e["total"]) == ("ExpenseEntry", 1, 402.0)
    m = ok(svc, "get_matter", {"matter_id": mid})
    assert (m["unbilled_hours"], m["unbilled_amount"], m["outstanding_balance"]) == (1.8, 1084.5, 0.0)
    assert code(svc, "create_time_entry", {"matter_id": mid, "user_email": OKAFOR, "date": "2026-01-14",
                                           "hours": 0.25, "note": "Quarter hour"}) == 422
    assert code(svc, "create_time_entry", {"matter_id": mid, "user_email": OKAFOR, "date": "2026-01-16",
                                           "hours": 1, "note": "Tomorrow"}) == 422
    assert code(svc, "create_time_entry", {"matter_id": mid, "user_email": "x@y.example", "date": "2026-01-14",
                                           "hours": 1, "note": "Nobody"}) == 404
    assert code(svc, "create_expense_entry", {"matter_id": mid, "user_email": OKAFOR, "date": "2026-01-14",
                                              "amount": 0, "note": "Free"}) == 400
    assert [a["id"] for a in ok(svc, "list_activities", {"matter_id": mid, "billed": False})] == [
        "ACT-0033", "ACT-0034", "ACT-0035"]
    assert ok(svc, "delete_activity", {"activity_id": "ACT-0034"}) == {"deleted": "ACT-0034"}
    assert code(svc, "delete_activity", {"activity_id": "ACT-0034"}) == 404
    assert code(svc, "delete_activity", {"activity_id": "ACT-0001"}) == 409  # on BIL-0001


def test_bill_lifecycle_and_closing(svc):
    mid = new_matter(svc)["id"]
    assert code(svc, "generate_bill", {"matter_id": mid}) == 422
    ok(svc, "create_time_entry", {"matter_id": mid, "user_email": OKAFOR, "date": "2026-01-14", "hours": 2,
                                  "note": "Draft demand letter"})
    assert error(svc, "update_matter_status", {"matter_id": mid, "status": "closed"})["code"] == 422
    b = ok(svc, "generate_bill", {"matter_id": mid})
    assert (b["id"], b["state"], b["total"], b["balance"]) == ("BIL-0005", "draft", 850.0, 850.0)
    assert code(svc, "update_matter_status", {"matter_id": mid, "status": "closed"}) == 422  # a draft bill
    assert code(svc, "record_payment", {"bill_id": b["id"], "amount": 10}) == 409
    assert code(svc, "issue_bill", {"bill_id": b["id"], "due_at": "2026-01-01"}) == 422
    i = ok(svc, "issue_bill", {"bill_id": b["id"]})
    assert (i["state"], i["issued_at"], i["due_at"]) == ("awaiting_payment", "2026-01-15", "2026-02-14")
    assert code(svc, "issue_bill", {"bill_id": b["id"]}) == 409
    assert code(svc, "record_payment", {"bill_id": b["id"], "amount": 850.01}) == 422
    assert ok(svc, "record_payment", {"bill_id": b["id"], "amount": 350})["balance"] == 500.0
    assert code(svc, "void_bill", {"bill_id": b["id"]}) == 409  # a payment is recorded
    paid = ok(svc, "record_payment", {"bill_id": b["id"], "amount": 500})
    assert (paid["state"], paid["paid"], paid["balance"]) == ("paid", 850.0, 0.0)
    got = ok(svc, "get_bill", {"bill_id": b["id"]})
    assert [a["bill_id"] for a in got["activities"]] == [b["id"]]
    closed = ok(svc, "update_matter_status", {"matter_id": mid, "status": "closed"})
    assert (closed["status"], closed["close_date"]) == ("closed", "2026-01-15")
    assert code(svc, "create_time_entry", {"matter_id": mid, "user_email": OKAFOR, "date": "2026-01-15",
                                           "hours": 1, "note": "After close"}) == 409
    assert code(svc, "update_matter", {"matter_id": mid, "description": "Renamed"}) == 409
    assert code(svc, "upload_document", {"matter_id": mid, "name": "Late.pdf"}) == 409
    assert code(svc, "generate_bill", {"matter_id": mid}) == 409
    assert code(svc, "update_matter_status", {"matter_id": mid, "status": "pending"}) == 409
    assert ok(svc, "update_matter_status", {"matter_id": mid, "status": "open"})["close_date"] is None
    assert [x["id"] for x in ok(svc, "list_bills", {"matter_id": mid, "state": "paid"})] == [b["id"]]


def test_void_bill_releases_activities(svc):
    v = ok(svc, "void_bill", {"bill_id": "BIL-0001"})
    assert v["state"] == "void"
    assert all(svc.state.activities[a].bill_id is None for a in v["activity_ids"])
    assert code(svc, "void_bill", {"bill_id": "BIL-0001"}) == 409
    assert code(svc, "void_bill", {"bill_id": "BIL-0002"}) == 409  # paid
    assert code(svc, "get_bill", {"bill_id": "BIL-0999"}) == 404


def test_update_matter_status_notes_documents(svc):
    u = ok(svc, "update_matter", {"matter_id": "MAT-0002", "responsible_attorney_email": HARLOW.upper(),
                                  "practice_area": "Corporate"})
    assert (u["responsible_attorney_email"], u["practice_area"]) == (HARLOW, "Corporate")
    assert code(svc, "update_matter", {"matter_id": "MAT-0002", "responsible_attorney_email": PARALEGAL}) == 422
    p = ok(svc, "update_matter_status", {"matter_id": "MAT-0002", "status": "pending"})
    assert (p["status"], p["pending_date"]) == ("pending", "2026-01-15")
    assert code(svc, "update_matter_status", {"matter_id": "MAT-0002", "status": "pending"}) == 409
    n = ok(svc, "create_note", {"matter_id": "MAT-0005", "subject": "Archive", "detail": "File boxed"})
    assert [(x["subject"], x["created_at"]) for x in n["notes"]] == [("Archive", "2026-01-15T09:00:00")]
    d = ok(svc, "upload_document", {"matter_id": "MAT-0002", "name": "Purchase agreement.pdf",
                                    "category": "contract"})
    assert (d["id"], d["uploaded_on"]) == ("DOC-0011", "2026-01-15")
    assert code(svc, "upload_document", {"matter_id": "MAT-0002", "name": "PURCHASE AGREEMENT.pdf"}) == 409
    assert [x["id"] for x in ok(svc, "list_documents", {"matter_id": "MAT-0002"})] == ["DOC-0002", "DOC-0011"]
    assert code(svc, "list_documents", {"matter_id": "MAT-0999"}) == 404
    assert code(svc, "list_activities", {"matter_id": "MAT-0999"}) == 404


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    res = svc.call("update_matter_status", {"matter_id": "MAT-0001", "status": "closed"})
    assert res["error"]["code"] == 422 and "unbilled" in res["error"]["message"]
    assert svc.call("record_payment", {"bill_id": "BIL-0001", "amount": 99999})["error"]["code"] == 422
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(LegalMatters, seed=3).state_dict() == make_service(LegalMatters, seed=3).state_dict()
    assert make_service(LegalMatters, seed=3).state_dict() != make_service(LegalMatters, seed=4).state_dict()


def test_a_time_entry_below_one_increment_is_a_400_not_an_invalid_record(make_service):
    # Regression (fuzz, seed 11): hours=5e-324 passed gt=0 and the 0.1 check, rounded to 0 and made a 500.
    from compoworld_gym.envs.services.legal_matters import LegalMatters

    svc = make_service(LegalMatters)
    before = svc.state_dict()
    out = svc.call("create_time_entry", {"matter_id": "MAT-0001", "user_email": "aisha.khan@company.example",
                                         "date": "2025-09-27", "hours": 5e-324, "note": "research"})
    assert out["error"]["code"] == 400 and "hours" in out["error"]["message"]
    assert svc.state_dict() == before
