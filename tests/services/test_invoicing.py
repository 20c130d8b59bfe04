"""Tests of the invoicing service."""

from __future__ import annotations

import pytest
from _svc_asserts import data, error, error_code

from compoworld_gym.envs.services._commerce import order_book
from compoworld_gym.envs.services.invoicing import Invoicing


@pytest.fixture
def svc(make_service):
    return make_service(Invoicing)


NEW = {"customer_name": "Ethan Brooks", "customer_email": "ethan.brooks@brooksdesign.co", "due_date": "2026-02-14",
       "lines": [{"description": "Gel Pen 12-pack", "quantity": 3, "unit_price": 11.4, "sku": "PN-GEL-09"},
                 {"description": "Setup fee", "quantity": 1, "unit_price": 0.333}],
       "tax_rate": 0.08}


def test_seed_bills_the_shared_book(svc, today):
    for n, b in enumerate(order_book(today), start=1):
        inv = svc.state.invoices[f"INV-{n:04d}"]
        assert (inv.order_id, inv.customer_email, inv.total) == (b.id, b.customer.email, b.total)
    assert svc.state.invoices["INV-0008"].status == "overdue"
    assert svc.state.invoices["INV-0009"].status == "sent"
    assert svc.state.invoices["INV-0010"].status == "void"
    assert svc.state.invoices["INV-0001"].payments[0].payment_id == "PI-0001"


def test_list_get_and_balance(svc):
    assert [i["id"] for i in data(svc.call("list_invoices", {"order_id": "ORD-0008"}))] == ["INV-0008"]
    over = data(svc.call("list_invoices", {"status": "overdue"}))
    assert "INV-0008" in {i["id"] for i in over}
    assert all(i["due_date"] < "2026-01-16" for i in data(svc.call("list_invoices", {"due_before": "2026-01-16"})))
    inv = data(svc.call("get_invoice", {"invoice_id": "INV-0008"}))
    assert inv["lines"][-1]["description"].startswith("Shipping")
    assert error_code(svc.call("get_invoice", {"invoice_id": "INV-0999"})) == 404
    bal = data(svc.call("get_customer_balance", {"customer_email": "ava.nguyen@hotmail.com"}))
    assert bal["open_invoices"] == ["INV-0008"] and bal["balance_due"] == bal["overdue"] == inv["balance_due"]


def test_create_edit_and_send(svc):
    inv = data(svc.call("create_invoice", NEW))
    assert (inv["id"], inv["status"], inv["subtotal"], inv["tax"], inv["total"]) == ("INV-0017", "draft", 34.53, 2.76, 37.29)
    assert [ln["amount"] for ln in inv["lines"]] == [34.2, 0.33]
    inv = data(svc.call("add_line_item", {"invoice_id": "INV-0017", "description": "Notebook", "quantity": 2,
                                          "unit_price": 7.25}))
    assert (inv["subtotal"], inv["total"]) == (49.03, 52.95)
    inv = data(svc.call("remove_line_item", {"invoice_id": "INV-0017", "line_number": 2}))
    assert [ln["description"] for ln in inv["lines"]] == ["Gel Pen 12-pack", "Notebook"]
    assert error_code(svc.call("remove_line_item", {"invoice_id": "INV-0017", "line_number": 9})) == 400
    upd = data(svc.call("update_invoice", {"invoice_id": "INV-0017", "memo": "Thanks!"}))
    assert upd["memo"] == "Thanks!"
    sent = data(svc.call("send_invoice", {"invoice_id": "INV-0017"}))
    assert (sent["status"], sent["sent_to"], sent["sent_at"]) == ("sent", "ethan.brooks@brooksdesign.co", "2026-01-15")
    assert error_code(svc.call("send_invoice", {"invoice_id": "INV-0017"})) == 409
    assert error_code(svc.call("add_line_item", {"invoice_id": "INV-0017", "description": "x", "quantity": 1,
                                           "unit_price": 1})) == 409


def test_create_rules(svc):
    assert error_code(svc.call("create_invoice", {**NEW, "due_date": "2026-01-01"})) == 422
    data(svc.call("create_invoice", {**NEW, "lines": []}))
    assert error_code(svc.call("send_invoice", {"invoice_id": "INV-0017"})) == 422
    assert error_code(svc.call("update_invoice", {"invoice_id": "INV-0017"})) == 400
    assert error_code(svc.call("create_invoice", {**NEW, "customer_email": "not-an-email"})) == 400


def test_overdue_due_date_moves_back_to_sent(svc):
    upd = data(svc.call("update_invoice", {"invoice_id": "INV-0008", "due_date": "2026-01-31"}))
    assert (upd["status"], upd["due_date"]) == ("sent", "2026-01-31")
    assert error_code(svc.call("update_invoice", {"invoice_id": "INV-0008", "due_date": "2025-12-01"})) == 422


def test_reminders_and_mark_overdue(svc):
    r = data(svc.call("send_reminder", {"invoice_id": "INV-0008"}))
    assert (r["sent_to"], r["reminders_sent"]) == ("ava.nguyen@hotmail.com", 1)
    assert error_code(svc.call("send_reminder", {"invoice_id": "INV-0001"})) == 409
    svc.state.invoices["INV-0009"].due_date = svc.today.replace(day=10)
    flagged = data(svc.call("mark_overdue_invoices", {}))["marked_overdue"]
    assert "INV-0009" in flagged and svc.state.invoices["INV-0009"].status == "overdue"
    assert data(svc.call("mark_overdue_invoices", {}))["marked_overdue"] == []


def test_record_payment_rules(svc):
    due = svc.state.invoices["INV-0008"].balance_due
    assert error_code(svc.call("record_payment", {"invoice_id": "INV-0008", "amount": due + 0.01})) == 422
    assert error_code(svc.call("record_payment", {"invoice_id": "INV-0008", "amount": 1, "paid_on": "2026-02-01"})) == 422
    part = data(svc.call("record_payment", {"invoice_id": "INV-0008", "amount": 100, "method": "check"}))
    assert (part["status"], part["amount_paid"], part["balance_due"]) == ("overdue", 100.0, round(due - 100, 2))
    assert error_code(svc.call("void_invoice", {"invoice_id": "INV-0008", "reason": "x"})) == 409
    paid = data(svc.call("record_payment", {"invoice_id": "INV-0008", "amount": round(due - 100, 2),
                                            "payment_id": "PI-0014"}))
    assert (paid["status"], paid["balance_due"]) == ("paid", 0.0)
    assert error_code(svc.call("record_payment", {"invoice_id": "INV-0008", "amount": 1})) == 409


def test_void(svc):
    v = data(svc.call("void_invoice", {"invoice_id": "INV-0009", "reason": "Order cancelled by phone"}))
    assert (v["status"], v["void_reason"]) == ("void", "Order cancelled by phone")
    assert error_code(svc.call("void_invoice", {"invoice_id": "INV-0009", "reason": "again"})) == 409
    assert error_code(svc.call("void_invoice", {"invoice_id": "INV-0001", "reason": "paid"})) == 409


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert error_code(svc.call("record_payment", {"invoice_id": "INV-0009", "amount": 1_000_000})) == 422
    assert error_code(svc.call("void_invoice", {"invoice_id": "INV-0002", "reason": "x"})) == 409
    assert svc.state_dict() == before


@pytest.mark.parametrize("amount", [1e308, "inf", 0.004, 1_000_000_001])
def test_out_of_range_payment_amounts_are_a_400_naming_amount(svc, amount):

    err = error(svc, "record_payment", {"invoice_id": "INV-0009", "amount": amount})
    assert err["code"] == 400 and "'amount'" in err["message"]
