"""Tests of the shipping service."""

from __future__ import annotations

import pytest
from _svc_asserts import data, error, error_code

from compoworld_gym.envs.services.shipping import Shipping


@pytest.fixture
def svc(make_service):
    return make_service(Shipping)


NEW = {"to_name": "Noah Thompson", "to_address": "77 Harbor Street", "to_city": "Boston", "to_postal_code": "02110",
       "weight_kg": 2.0, "carrier": "fedex", "service": "express", "order_id": "ORD-0005"}


def test_seed_ships_the_fulfilled_book_orders(svc):
    by_order = {s.order_id: s for s in svc.state.shipments.values() if s.order_id}
    assert set(by_order) == {"ORD-0001", "ORD-0002", "ORD-0003", "ORD-0004", "ORD-0011"}
    assert by_order["ORD-0003"].tracking_number == "1ZCW84100003"
    assert by_order["ORD-0001"].status == "delivered"


def test_carriers_rates_and_address(svc):
    carriers = {c["carrier"]: [s["service"] for s in c["services"]] for c in data(svc.call("list_carriers", {}))}
    assert carriers["usps"] == ["ground", "express"] and carriers["dhl"] == ["express", "overnight"]
    rates = data(svc.call("get_rates", {"weight_kg": 2.0}))
    assert rates[0] == {"carrier": "usps", "service": "ground", "rate": 8.85, "transit_days": 6}
    intl = data(svc.call("get_rates", {"weight_kg": 2.0, "to_country": "DE", "service": "overnight"}))
    assert [(q["carrier"], q["rate"]) for q in intl] == [("fedex", 89.4), ("ups", 91.6), ("dhl", 116.0)]
    ok = data(svc.call("validate_address", {"address": "77 harbor street", "city": "boston", "postal_code": "02110"}))
    assert ok["valid"] and ok["normalized"]["address"] == "77 Harbor Street"
    bad = data(svc.call("validate_address", {"address": "Harbor", "city": "Boston", "postal_code": "2110"}))
    assert not bad["valid"] and len(bad["problems"]) == 2
    assert not data(svc.call("validate_address", {"address": "1 A St", "city": "Tokyo", "postal_code": "100",
                                                  "country": "JP"}))["valid"]
    assert error_code(svc.call("get_rates", {"weight_kg": 0})) == 400


def test_create_label_track(svc):
    s = data(svc.call("create_shipment", NEW))
    assert (s["id"], s["rate"], s["status"], s["estimated_delivery"]) == ("SHP-0009", 23.5, "created", "2026-01-17")
    lab = data(svc.call("purchase_label", {"shipment_id": "SHP-0009"}))
    assert (lab["tracking_number"], lab["status"]) == ("771291010009", "label_purchased")
    assert error_code(svc.call("purchase_label", {"shipment_id": "SHP-0009"})) == 409
    ev = data(svc.call("add_tracking_event", {"shipment_id": "SHP-0009", "status": "in_transit", "location": "Newark"}))
    assert (ev["shipment_status"], ev["at"]) == ("in_transit", "2026-01-15T09:00:00")
    assert error_code(svc.call("add_tracking_event", {"shipment_id": "SHP-0009", "status": "delivered",
                                                "location": "Boston"})) == 409
    data(svc.call("add_tracking_event", {"shipment_id": "SHP-0009", "status": "out_for_delivery", "location": "Boston"}))
    data(svc.call("add_tracking_event", {"shipment_id": "SHP-0009", "status": "delivered", "location": "Boston"}))
    t = data(svc.call("track_shipment", {"tracking_number": "771291010009"}))
    assert t["status"] == "delivered" and [e["status"] for e in t["events"]] == ["in_transit", "out_for_delivery",
                                                                                  "delivered"]
    assert error_code(svc.call("add_tracking_event", {"shipment_id": "SHP-0009", "status": "in_transit",
                                                "location": "Boston"})) == 409
    assert error_code(svc.call("cancel_shipment", {"shipment_id": "SHP-0009"})) == 409
    assert error_code(svc.call("track_shipment", {"tracking_number": "NOPE"})) == 404


def test_create_rules(svc):
    assert error_code(svc.call("create_shipment", {**NEW, "to_postal_code": "ABCDE"})) == 422
    assert error_code(svc.call("create_shipment", {**NEW, "carrier": "usps", "service": "overnight"})) == 400
    assert error_code(svc.call("create_shipment", {**NEW, "from_warehouse": "WH-MOON"})) == 404
    assert error_code(svc.call("create_shipment", {**NEW, "ship_date": "2026-01-01"})) == 422
    assert error_code(svc.call("create_shipment", {**NEW, "weight_kg": 100})) == 400


def test_list_get_update_cancel(svc):
    created = data(svc.call("list_shipments", {"status": "created"}))
    assert [s["id"] for s in created] == ["SHP-0006", "SHP-0007", "SHP-0008"]
    assert [s["id"] for s in data(svc.call("list_shipments", {"order_id": "ORD-0002"}))] == ["SHP-0002"]
    assert data(svc.call("get_shipment", {"shipment_id": "SHP-0001"}))["events"][-1]["status"] == "delivered"
    assert error_code(svc.call("get_shipment", {"shipment_id": "SHP-0999"})) == 404
    moved = data(svc.call("update_shipment_address", {"shipment_id": "SHP-0006", "to_address": "14 Rue des Lilas",
                                                      "to_city": "Lyon", "to_postal_code": "69003", "to_country": "FR"}))
    assert (moved["to_country"], moved["rate"]) == ("FR", 16.75)
    assert error_code(svc.call("update_shipment_address", {"shipment_id": "SHP-0001", "to_address": "1 Main St",
                                                     "to_city": "Reno", "to_postal_code": "89501"})) == 409
    assert data(svc.call("cancel_shipment", {"shipment_id": "SHP-0007"}))["status"] == "cancelled"
    assert error_code(svc.call("cancel_shipment", {"shipment_id": "SHP-0007"})) == 409


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert error_code(svc.call("update_shipment_address", {"shipment_id": "SHP-0006", "to_address": "nowhere",
                                                     "to_city": "X", "to_postal_code": "12"})) == 422
    assert error_code(svc.call("purchase_label", {"shipment_id": "SHP-0001"})) == 409
    assert svc.state_dict() == before


@pytest.mark.parametrize("ship_date", ["9999-12-31", "2026-04-16"])
def test_a_ship_date_too_far_ahead_is_a_422_naming_ship_date(svc, ship_date):

    e = error(svc, "create_shipment", {**NEW, "weight_kg": 5e-324, "ship_date": ship_date})
    assert e["code"] == 422 and "ship_date" in e["message"] and "2026-04-15" in e["message"]
    assert data(svc.call("create_shipment", {**NEW, "ship_date": "2026-04-15"}))["ship_date"] == "2026-04-15"
