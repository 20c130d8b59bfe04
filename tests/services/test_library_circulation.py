"""Tests of the library_circulation service (FOLIO / Koha style circulation)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._library_circulation_models import isbn13_check_digit
from compoworld_gym.envs.services.library_circulation import LibraryCirculation

# today is 2026-01-15


@pytest.fixture
def svc(make_service):
    return make_service(LibraryCirculation)


def out(svc, item, patron):
    return svc.call("check_out_item", {"item_barcode": item, "patron_barcode": patron})


def test_seed_lines_up_with_the_school_and_the_store(svc):
    groups = {g["group"]: g for g in ok(svc, "list_patron_groups")}
    assert (groups["student"]["loan_limit"], groups["student"]["loan_period_days"], groups["student"]["fine_per_day"],
            groups["student"]["max_fine"], groups["student"]["renewals_allowed"]) == (5, 21, 0.25, 10.0, 2)
    assert (groups["community"]["loan_limit"], groups["staff"]["loan_period_days"]) == (3, 42)
    kids = ok(svc, "search_patrons", {"guardian_email": "EMMA.WILSON@yahoo.com"})
    assert [(p["id"], p["student_id"], p["active"]) for p in kids] == [("PAT-0002", "STU-0002", True),
                                                                     ("PAT-0003", "STU-0003", False)]
    assert [p["id"] for p in ok(svc, "search_patrons", {"student_id": "STU-0001"})] == ["PAT-0001"]
    assert [p["id"] for p in ok(svc, "search_patrons", {"email": "olivia.martinez@gmail.com"})] == ["PAT-0010"]
    assert [p["id"] for p in ok(svc, "search_patrons", {"barcode": "21000000000008"})] == ["PAT-0008"]
    assert len(ok(svc, "search_patrons", {"patron_group": "staff", "active": True})) == 3
    assert [p["id"] for p in ok(svc, "search_patrons", {"query": "bennett"})] == ["PAT-0007"]
    assert code(svc, "search_patrons", {"patron_group": "alumni"}) == 400


def test_patron_and_account_views(svc):
    olivia = ok(svc, "get_patron", {"patron_id": "PAT-0010"})
    assert (olivia["balance_owed"], olivia["blocked"], olivia["loan_limit"]) == (12.5, True, 3)
    assert ok(svc, "get_patron", {"patron_id": "PAT-0004"})["loans_out"] == 5
    acct = ok(svc, "get_patron_account", {"patron_id": "PAT-0001"})
    assert [(ln["id"], ln["overdue"], ln["days_overdue"], ln["fine_owed"]) for ln in acct["loans"]] == [
        ("LN-0001", True, 12, 3.0), ("LN-0002", False, 0, 0.0)]
    assert (acct["total_owed"], [f["id"] for f in acct["fees"]]) == (3.0, ["FEE-0001"])
    assert [h["id"] for h in ok(svc, "get_patron_account", {"patron_id": "PAT-0005"})["holds"]] == ["HLD-0003"]
    assert code(svc, "get_patron", {"patron_id": "PAT-0099"}) == 404


def test_items_loans_holds_and_fees(svc):
    assert [i["id"] for i in ok(svc, "search_items", {"isbn": "978-0-06-249853-3"})] == ["ITM-0003"]
    assert [i["id"] for i in ok(svc, "search_items", {"status": "lost"})] == ["ITM-0015"]
    assert [i["id"] for i in ok(svc, "search_items", {"query": "tolkien"})] == ["ITM-0019"]
    assert len(ok(svc, "search_items", {"location": "Main Library - Media Center"})) == 3
    item = ok(svc, "get_item", {"item_id": "ITM-0003"})
    assert (item["current_loan_id"], item["due_date"], item["holds_in_queue"]) == ("LN-0003", "2026-01-21", 2)
    assert [ln["id"] for ln in ok(svc, "list_loans", {"overdue_only": True})] == ["LN-0001", "LN-0011", "LN-0012"]
    assert [ln["id"] for ln in ok(svc, "list_loans", {"item_id": "ITM-0015"})] == ["LN-0015"]
    assert len(ok(svc, "list_loans", {"status": "closed"})) == 4
    loan = ok(svc, "get_loan", {"loan_id": "LN-0012"})
    assert (loan["patron_email"], loan["due_date"], loan["days_overdue"], loan["fine_owed"], loan["fine_accruing"]) == (
        "liam.patel@gmail.com", "2025-12-26", 20, 10.0, True)
    assert ok(svc, "get_loan", {"loan_id": "LN-0001"})["guardian_email"] == "noah.thompson@outlook.com"
    assert [(h["id"], h["position"]) for h in ok(svc, "list_holds", {"item_id": "ITM-0003"})] == [
        ("HLD-0001", 1), ("HLD-0002", 2)]
    assert [h["id"] for h in ok(svc, "list_holds", {"status": "closed_filled"})] == ["HLD-0004"]
    assert [f["id"] for f in ok(svc, "list_fees", {"patron_id": "PAT-0009", "status": "open"})] == ["FEE-0006",
                                                                                                   "FEE-0007"]
    assert [f["id"] for f in ok(svc, "list_fees", {"loan_id": "LN-0013"})] == ["FEE-0004"]
    assert code(svc, "get_loan", {"loan_id": "LN-0999"}) == 404
    assert code(svc, "get_item", {"item_id": "ITM-0999"}) == 404


def test_add_item_validates_the_isbn13_check_digit(svc):
    assert isbn13_check_digit("978030640615") == 7
    item = ok(svc, "add_item", {"title": "The Mathematical Theory of Communication", "isbn": "978-0-306-40615-7",
                                "author": "Claude Shannon", "replacement_cost": 32.5})
    assert (item["id"], item["barcode"], item["isbn"], item["status"]) == ("ITM-0021", "31000000000021",
                                                                           "9780306406157", "available")
    msg = error(svc, "add_item", {"title": "Bad", "isbn": "9780306406158"})
    assert msg["code"] == 422 and "needs 7" in msg["message"]
    assert code(svc, "add_item", {"title": "Short", "isbn": "0306406152"}) == 422
    assert code(svc, "add_item", {"title": "Prefix", "isbn": "1230306406157"}) == 422
    assert code(svc, "add_item", {"title": "Where", "isbn": "9780306406157", "location": "Basement"}) == 422


def test_create_and_update_patrons(svc):
    p = ok(svc, "create_patron", {"first_name": "Ethan", "last_name": "Brooks", "email": "ethan.brooks@brooksdesign.co"})
    assert (p["id"], p["barcode"], p["patron_group"], p["expiration_date"], p["loan_limit"]) == (
        "PAT-0013", "21000000000013", "community", "2027-01-15", 3)
    assert code(svc, "create_patron", {"first_name": "E", "last_name": "B", "email": "ETHAN.BROOKS@brooksdesign.co"}) \
        == 409
    assert code(svc, "create_patron", {"first_name": "K", "last_name": "Lee", "email": "k.lee@x.example",
                                       "patron_group": "student"}) == 422
    assert code(svc, "create_patron", {"first_name": "K", "last_name": "Lee", "email": "k.lee@x.example",
                                       "expiration_date": "2026-01-01"}) == 422
    assert code(svc, "update_patron", {"patron_id": "PAT-0001", "active": False}) == 409  # items still out
    assert code(svc, "update_patron", {"patron_id": "PAT-0012", "expiration_date": "2025-12-31"}) == 422
    up = ok(svc, "update_patron", {"patron_id": "PAT-0003", "active": True, "expiration_date": "2026-06-30"})
    assert (up["active"], up["expiration_date"]) == (True, "2026-06-30")
    assert ok(svc, "update_patron", {"patron_id": "PAT-0012", "email": "ava.n@hotmail.com"})["email"] == "ava.n@hotmail.com"


def test_check_out_sets_the_due_date_from_the_group_policy(svc):
    loan = out(svc, "31000000000017", "21000000000012")["data"]
    assert (loan["id"], loan["loan_policy"], loan["loan_date"], loan["due_date"]) == (
        "LN-0017", "Community 14-day loan", "2026-01-15", "2026-01-29")
    assert ok(svc, "get_item", {"item_id": "ITM-0017"})["status"] == "checked_out"
    staff = out(svc, "31000000000018", "21000000000008")["data"]
    assert staff["due_date"] == "2026-02-26"  # 42 days
    assert code(svc, "check_out_item", {"item_barcode": "39999999999999", "patron_barcode": "21000000000012"}) == 404


def test_no_check_out_over_the_group_loan_limit(svc):
    msg = error(svc, "check_out_item", {"item_barcode": "31000000000018", "patron_barcode": "21000000000004"})
    assert msg["code"] == 422 and "5 items out" in msg["message"]


def test_no_check_out_with_fines_over_ten_dollars(svc):
    msg = error(svc, "check_out_item", {"item_barcode": "31000000000018", "patron_barcode": "21000000000010"})
    assert msg["code"] == 422 and "owes 12.50" in msg["message"]
    # exactly $10.00 owed is not over the limit
    assert out(svc, "31000000000018", "21000000000011")["success"]


def test_no_check_out_for_an_expired_card_or_an_unavailable_item(svc):
    assert "inactive" in error(svc, "check_out_item", {"item_barcode": "31000000000018",
                                                      "patron_barcode": "21000000000003"})["message"]
    ok(svc, "update_patron", {"patron_id": "PAT-0003", "active": True})
    assert "expired on 2025-07-09" in error(svc, "check_out_item", {"item_barcode": "31000000000018",
                                                                    "patron_barcode": "21000000000003"})["message"]
    assert code(svc, "check_out_item", {"item_barcode": "31000000000003", "patron_barcode": "21000000000012"}) == 409
    assert code(svc, "check_out_item", {"item_barcode": "31000000000015", "patron_barcode": "21000000000012"}) == 409
    # the hold shelf copy is only for its requester
    assert code(svc, "check_out_item", {"item_barcode": "31000000000016", "patron_barcode": "21000000000012"}) == 409
    assert out(svc, "31000000000016", "21000000000005")["success"]
    assert ok(svc, "list_holds", {"item_id": "ITM-0016"})[0]["status"] == "closed_filled"


def test_check_in_with_a_waiting_hold_goes_to_the_hold_shelf(svc):
    res = ok(svc, "check_in_item", {"item_barcode": "31000000000003"})
    assert (res["status"], res["return_date"], res["item_status"], res["hold_awaiting_pickup"]) == (
        "closed", "2026-01-15", "on_hold_shelf", "HLD-0001")
    holds = ok(svc, "list_holds", {"item_id": "ITM-0003"})
    assert [(h["id"], h["status"], h["position"], h["hold_shelf_expiration"]) for h in holds] == [
        ("HLD-0001", "open_awaiting_pickup", None, "2026-01-22"), ("HLD-0002", "open_not_yet_filled", 1, None)]
    notice = svc.state.outbox["OUT-0001"]
    assert (notice.to, notice.about) == (["kevin.huang@company.example"], "HLD-0001")
    assert code(svc, "check_in_item", {"item_barcode": "31000000000003"}) == 409


def test_check_in_of_an_overdue_item_settles_the_fine(svc, make_service):
    res = ok(svc, "check_in_item", {"item_barcode": "31000000000001"})
    assert (res["item_status"], res["fine_owed"], res["fine_accruing"]) == ("available", 3.0, False)
    state = svc.state_dict()
    del state["fees"]["FEE-0002"]  # the nightly fines job missed LN-0011: the check-in bills it
    other = make_service(LibraryCirculation, state=state)
    ok(other, "check_in_item", {"item_barcode": "31000000000011"})
    fee = ok(other, "list_fees", {"loan_id": "LN-0011"})[0]
    assert (fee["id"], fee["amount"], fee["accruing"], fee["status"]) == ("FEE-0008", 0.5, False, "open")


def test_renewal_limits(svc):
    first = ok(svc, "renew_loan", {"loan_id": "LN-0002"})
    assert (first["due_date"], first["renewal_count"], first["action"]) == ("2026-02-05", 1, "renewed")
    assert "would not extend" in error(svc, "renew_loan", {"loan_id": "LN-0002"})["message"]
    assert "renewed 2 times" in error(svc, "renew_loan", {"loan_id": "LN-0009"})["message"]
    assert "hold request" in error(svc, "renew_loan", {"loan_id": "LN-0003"})["message"]
    assert code(svc, "renew_loan", {"loan_id": "LN-0013"}) == 409
    late = ok(svc, "renew_loan", {"loan_id": "LN-0001"})
    assert (late["due_date"], late["overdue"], late["fine_owed"], late["fine_accruing"]) == ("2026-02-05", False, 3.0,
                                                                                            False)


def test_declare_item_lost_bills_replacement_and_processing(svc):
    res = ok(svc, "declare_item_lost", {"loan_id": "LN-0003"})
    assert [(f["id"], f["fee_type"], f["amount"]) for f in res["fees"]] == [
        ("FEE-0008", "lost_item_fee", 18.99), ("FEE-0009", "lost_item_processing_fee", 10.0)]
    assert (res["item_status"], res["total_owed"]) == ("lost", 28.99)
    assert [h["status"] for h in ok(svc, "list_holds", {"item_id": "ITM-0003"})] == ["closed_cancelled"] * 2
    assert code(svc, "declare_item_lost", {"loan_id": "LN-0003"}) == 409


def test_place_and_cancel_holds(svc):
    hold = ok(svc, "place_hold", {"item_id": "ITM-0011", "patron_id": "PAT-0012"})
    assert (hold["id"], hold["position"], hold["status"]) == ("HLD-0005", 1, "open_not_yet_filled")
    assert code(svc, "place_hold", {"item_id": "ITM-0011", "patron_id": "PAT-0012"}) == 409  # second hold
    assert code(svc, "place_hold", {"item_id": "ITM-0011", "patron_id": "PAT-0007"}) == 409  # own loan
    assert code(svc, "place_hold", {"item_id": "ITM-0018", "patron_id": "PAT-0012"}) == 409  # on the shelf
    assert code(svc, "place_hold", {"item_id": "ITM-0015", "patron_id": "PAT-0012"}) == 409  # lost
    assert code(svc, "place_hold", {"item_id": "ITM-0011", "patron_id": "PAT-0010"}) == 422  # fines over $10
    assert code(svc, "place_hold", {"item_id": "ITM-0011", "patron_id": "PAT-0008",
                                    "pickup_location": "Rooftop"}) == 422
    cancelled = ok(svc, "cancel_hold", {"hold_id": "HLD-0001", "reason": "Bought a copy"})
    assert (cancelled["status"], cancelled["position"]) == ("closed_cancelled", None)
    assert ok(svc, "list_holds", {"item_id": "ITM-0003", "status": "open_not_yet_filled"})[0]["position"] == 1
    assert code(svc, "cancel_hold", {"hold_id": "HLD-0001", "reason": "again"}) == 409
    ok(svc, "cancel_hold", {"hold_id": "HLD-0003", "reason": "Not picked up"})
    assert ok(svc, "get_item", {"item_id": "ITM-0016"})["status"] == "available"


def test_cancelling_a_hold_on_the_shelf_passes_the_item_on(svc):
    ok(svc, "check_in_item", {"item_barcode": "31000000000003"})
    ok(svc, "cancel_hold", {"hold_id": "HLD-0001", "reason": "No longer needed"})
    nxt = ok(svc, "list_holds", {"item_id": "ITM-0003", "status": "open_awaiting_pickup"})
    assert [(h["id"], h["patron_id"]) for h in nxt] == [("HLD-0002", "PAT-0012")]
    assert svc.state.outbox["OUT-0002"].to == ["ava.nguyen@hotmail.com"]


def test_pay_and_waive_fees(svc):
    part = ok(svc, "pay_fee", {"fee_id": "FEE-0005", "amount": 5, "transaction_info": "desk receipt 88"})
    assert (part["remaining"], part["payment_status"], part["status"], part["patron_balance"]) == (
        7.5, "paid_partially", "open", 7.5)
    assert "more than the 7.50" in error(svc, "pay_fee", {"fee_id": "FEE-0005", "amount": 10})["message"]
    assert code(svc, "pay_fee", {"fee_id": "FEE-0005", "amount": 0}) == 400
    done = ok(svc, "pay_fee", {"fee_id": "FEE-0005", "amount": 7.5, "payment_method": "online"})
    assert (done["status"], done["payment_status"], [p["amount"] for p in done["payments"]]) == (
        "closed", "paid_fully", [5.0, 7.5])
    assert code(svc, "pay_fee", {"fee_id": "FEE-0005", "amount": 1}) == 409
    assert out(svc, "31000000000018", "21000000000010")["success"]  # the block is lifted
    assert code(svc, "waive_fee", {"fee_id": "FEE-0001", "reason": "goodwill"}) == 409  # still accruing
    waived = ok(svc, "waive_fee", {"fee_id": "FEE-0007", "reason": "Staff courtesy"})
    assert (waived["payment_status"], waived["remaining"], waived["patron_balance"]) == ("waived", 0.0, 4.98)
    assert code(svc, "waive_fee", {"fee_id": "FEE-0099", "reason": "none"}) == 404


def test_notices_reach_the_patron_and_a_minors_guardian(svc):
    msg = ok(svc, "send_patron_notice", {"patron_id": "PAT-0001", "subject": "Overdue", "body": "Please return it.",
                                         "loan_id": "LN-0001"})
    assert (msg["id"], msg["to"], msg["about"], msg["sent_at"]) == (
        "OUT-0001", ["jason.thompson@students.riverside.example", "noah.thompson@outlook.com"], "LN-0001",
        "2026-01-15T09:00:00")
    assert code(svc, "send_patron_notice", {"patron_id": "PAT-0002", "subject": "x", "body": "y",
                                            "loan_id": "LN-0001"}) == 422
