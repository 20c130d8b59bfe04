"""Tests of the event ticketing (Eventbrite-style) service."""

from __future__ import annotations

import datetime as dt

import pytest
from _svc_asserts import code, ok

from compoworld_gym.envs.services._event_ticketing_rules import ticket_fee
from compoworld_gym.envs.services.event_ticketing import EventTicketing

MEGAN = "megan.jimenez9@hotmail.com"
BUYER = {"email": "Ann.Lee@Example.org", "name": "Ann Lee"}


@pytest.fixture
def svc(make_service):
    return make_service(EventTicketing)


def test_seeded_calendar(svc):
    assert len(EventTicketing.tools) == 17
    st = svc.state
    assert (len(st.venues), len(st.events), len(st.ticket_classes), len(st.orders), len(st.attendees)) == (
        6, 8, 24, 33, 59)
    for t in st.ticket_classes.values():  # sold counts are the placed orders' tickets
        assert t.quantity_sold == sum(o.quantity for o in st.orders.values()
                                      if o.ticket_class_id == t.id and o.status == "placed")
        assert t.fee == ticket_fee(t.cost) and t.sales_end <= st.events[t.event_id].start
    for o in st.orders.values():
        assert o.gross == round(o.base_price + o.fee, 2)
        assert sum(a.order_id == o.id for a in st.attendees.values()) == o.quantity
    assert ticket_fee(100.0) == 5.49 and ticket_fee(0.0) == 0.0


def test_reads(svc):
    live = ok(svc, "list_events", {"status": "live"})
    assert [e["id"] for e in live] == ["TEV-0003", "TEV-0002", "TEV-0004", "TEV-0001", "TEV-0005"]
    ev = ok(svc, "get_event", {"event_id": "TEV-0004"})
    assert (ev["capacity"], ev["tickets_sold"], ev["tickets_remaining"], ev["venue"]["name"]) == (
        60, 10, 50, "Downtown Loft")
    assert [t["quantity_remaining"] for t in ev["ticket_classes"]] == [7, 32, 5]
    assert [e["id"] for e in ok(svc, "list_events", {"organizer_email": "JAMAL.WRIGHT@company.example"})] == [
        "TEV-0001", "TEV-0005"]
    assert [v["id"] for v in ok(svc, "list_venues", {"city": "monroeton"})] == ["VEN-0005"]
    mine = ok(svc, "list_orders", {"email": MEGAN})
    assert [(o["id"], o["gross"], o["event"]["name"]) for o in mine] == [("TKO-0011", 292.48, "Admin Bootcamp")]
    assert [a["name"] for a in mine[0]["attendees"]] == ["Megan Jimenez", "Timothy Clark"]
    assert [o["id"] for o in ok(svc, "list_orders", {"event_id": "TEV-0004", "status": "refunded"})] == [
        "TKO-0018", "TKO-0023"]
    assert [a["id"] for a in ok(svc, "list_attendees", {"event_id": "TEV-0003", "status": "refunded"})] == ["ATD-0032"]
    assert ok(svc, "get_attendee", {"attendee_id": "ATD-0023"})["email"] == "timothy.clark@hotmail.com"
    assert ok(svc, "get_order", {"order_id": "TKO-0011"})["event"]["start"] == "2026-01-21T09:00:00"
    assert code(svc, "list_orders", {}) == 400
    assert code(svc, "get_order", {"order_id": "TKO-0999"}) == 404
    assert code(svc, "list_ticket_classes", {"event_id": "TEV-0999"}) == 404


def test_create_order_and_sales_rules(svc):
    o = ok(svc, "create_order", {"event_id": "TEV-0003", "ticket_class_id": "TCL-0008", "quantity": 2, **BUYER,
                                 "attendee_names": ["Ann Lee", "Bo Lee"]})
    assert (o["id"], o["base_price"], o["fee"], o["gross"], o["email"], o["status"]) == (
        "TKO-0034", 398.0, 18.3, 416.3, "ann.lee@example.org", "placed")
    assert [(a["id"], a["name"]) for a in o["attendees"]] == [("ATD-0060", "Ann Lee"), ("ATD-0061", "Bo Lee")]
    assert svc.state.ticket_classes["TCL-0008"].quantity_sold == 6
    order = {"quantity": 1, **BUYER}
    assert code(svc, "create_order", {"event_id": "TEV-0003", "ticket_class_id": "TCL-0007", **order}) == 422
    assert code(svc, "create_order", {"event_id": "TEV-0003", "ticket_class_id": "TCL-0009", **order,
                                      "quantity": 5}) == 422
    assert code(svc, "create_order", {"event_id": "TEV-0003", "ticket_class_id": "TCL-0011", **order}) == 422
    assert code(svc, "create_order", {"event_id": "TEV-0007", "ticket_class_id": "TCL-0020", **order}) == 409
    assert code(svc, "create_order", {"event_id": "TEV-0006", "ticket_class_id": "TCL-0017", **order}) == 409
    assert code(svc, "create_order", {"event_id": "TEV-0003", "ticket_class_id": "TCL-0008", **order,
                                      "attendee_names": ["A", "B"]}) == 400
    # a class's own quantity: 5 VIP tickets of TEV-0004 are left
    ok(svc, "create_order", {"event_id": "TEV-0004", "ticket_class_id": "TCL-0012", **order, "quantity": 4})
    assert code(svc, "create_order", {"event_id": "TEV-0004", "ticket_class_id": "TCL-0012", **order,
                                      "quantity": 2}) == 422


def test_no_sale_beyond_event_capacity(svc):
    door = ok(svc, "create_ticket_class", {"event_id": "TEV-0004", "name": "Door", "cost": 0, "quantity_total": 100,
                                           "maximum_quantity_per_order": 100})
    assert (door["id"], door["fee"], door["sales_end"]) == ("TCL-0025", 0.0, "2026-02-04T18:00:00")
    order = {"event_id": "TEV-0004", "ticket_class_id": "TCL-0025", **BUYER}
    assert code(svc, "create_order", {**order, "quantity": 51}) == 422  # 60 places, 10 sold
    assert ok(svc, "create_order", {**order, "quantity": 50})["gross"] == 0.0
    assert ok(svc, "get_event", {"event_id": "TEV-0004"})["tickets_remaining"] == 0
    assert code(svc, "create_order", {**order, "quantity": 1}) == 422


def test_refunds_never_exceed_paid(svc):
    part = ok(svc, "refund_order", {"order_id": "TKO-0014", "amount": 6.94, "reason": "Fee waived"})
    assert (part["status"], part["refunded_amount"], part["attendees"][0]["status"]) == (
        "partially_refunded", 6.94, "attending")
    assert code(svc, "refund_order", {"order_id": "TKO-0014", "amount": 139.31, "reason": "Too much"}) == 422
    full = ok(svc, "refund_order", {"order_id": "TKO-0014", "reason": "Cannot attend"})
    assert (full["status"], full["refunded_amount"], full["attendees"][0]["status"]) == ("refunded", 146.24, "refunded")
    assert svc.state.ticket_classes["TCL-0007"].quantity_sold == 2  # the ticket went back on sale
    assert code(svc, "refund_order", {"order_id": "TKO-0014", "reason": "Again"}) == 409
    assert code(svc, "refund_order", {"order_id": "TKO-0017", "amount": 1, "reason": "Again"}) == 409


def test_event_lifecycle(svc):
    base = {"name": "Admin Roundtable", "venue_id": "VEN-0005", "start": "2026-03-10T18:00:00",
            "end": "2026-03-10T20:00:00", "organizer_email": "luis.ortega@company.example"}
    assert code(svc, "create_event", {**base, "capacity": 81}) == 422
    assert code(svc, "create_event", {**base, "start": "2026-01-10T18:00:00", "capacity": 40}) == 422
    assert code(svc, "create_event", {**base, "venue_id": "VEN-0999", "capacity": 40}) == 404
    ev = ok(svc, "create_event", {**base, "capacity": 70})
    assert (ev["id"], ev["status"], ev["tickets_remaining"]) == ("TEV-0009", "draft", 70)
    assert code(svc, "publish_event", {"event_id": "TEV-0009"}) == 422
    assert code(svc, "create_ticket_class", {"event_id": "TEV-0009", "name": "GA", "cost": 25, "quantity_total": 70,
                                             "sales_end": "2026-03-11T00:00:00"}) == 422
    ok(svc, "create_ticket_class", {"event_id": "TEV-0009", "name": "GA", "cost": 25, "quantity_total": 70})
    assert ok(svc, "publish_event", {"event_id": "TEV-0009"})["status"] == "live"
    assert code(svc, "publish_event", {"event_id": "TEV-0009"}) == 409
    assert code(svc, "cancel_event", {"event_id": "TEV-0004"}) == 409  # paid orders first need refunds
    assert ok(svc, "cancel_event", {"event_id": "TEV-0007"})["status"] == "canceled"
    assert code(svc, "cancel_event", {"event_id": "TEV-0006"}) == 409
    assert code(svc, "create_ticket_class", {"event_id": "TEV-0006", "name": "Late", "cost": 5,
                                             "quantity_total": 5}) == 409


def test_update_ticket_class(svc):
    assert code(svc, "update_ticket_class", {"ticket_class_id": "TCL-0008", "quantity_total": 3}) == 422
    assert code(svc, "update_ticket_class", {"ticket_class_id": "TCL-0008", "cost": 150}) == 409
    assert code(svc, "update_ticket_class", {"ticket_class_id": "TCL-0020", "sales_end": "2026-04-01T00:00:00"}) == 422
    t = ok(svc, "update_ticket_class", {"ticket_class_id": "TCL-0020", "cost": 59, "quantity_total": 60})
    assert (t["cost"], t["fee"], t["quantity_remaining"]) == (59.0, 3.97, 60)


def test_check_in_and_transfer(svc):
    assert code(svc, "check_in_attendee", {"attendee_id": "ATD-0022"}) == 422  # the event is on 2026-01-21
    door = EventTicketing(svc.state_dict(), today=dt.date(2026, 1, 21))
    a = ok(door, "check_in_attendee", {"attendee_id": "ATD-0022"})
    assert (a["status"], a["checked_in_at"]) == ("checked_in", "2026-01-21T09:00:00")
    assert code(door, "check_in_attendee", {"attendee_id": "ATD-0022"}) == 409
    assert code(door, "check_in_attendee", {"attendee_id": "ATD-0032"}) == 409
    assert code(door, "update_attendee", {"attendee_id": "ATD-0022", "name": "Someone Else"}) == 409
    moved = ok(svc, "update_attendee", {"attendee_id": "ATD-0023", "name": "Rita Moreno",
                                        "email": "Rita.Moreno@Example.org"})
    assert (moved["name"], moved["email"]) == ("Rita Moreno", "rita.moreno@example.org")
    assert code(svc, "update_attendee", {"attendee_id": "ATD-0023"}) == 400


def test_failed_writes_roll_back(svc):
    before = svc.state_dict()
    for tool, args in [("create_order", {"event_id": "TEV-0003", "ticket_class_id": "TCL-0009", "quantity": 9,
                                         **BUYER}),
                       ("refund_order", {"order_id": "TKO-0011", "amount": 1000, "reason": "x" * 5}),
                       ("create_event", {"name": "Too big", "venue_id": "VEN-0005", "start": "2026-03-10T18:00:00",
                                         "end": "2026-03-10T20:00:00", "capacity": 500,
                                         "organizer_email": "luis.ortega@company.example"})]:
        assert not svc.call(tool, args)["success"]
    assert svc.state_dict() == before  # neither the clock nor an id counter moved
