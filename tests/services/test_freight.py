"""Tests of the freight service (Flexport API v2 style)."""

from __future__ import annotations

import datetime as dt

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._freight_rules import container_number, iso6346_check_digit
from compoworld_gym.envs.services.freight import Freight
from compoworld_gym.envs.services.procurement import Procurement

TODAY = dt.date(2026, 1, 15)


@pytest.fixture
def svc(make_service):
    return make_service(Freight)


def booking_args(**over):
    args = {"transportation_mode": "ocean", "origin_port": "CNSHA", "destination_port": "USNYC",
            "cargo_ready_date": "2026-01-22", "incoterm": "FOB", "shipper_name": "Fisher Ltd",
            "destination_warehouse": "WH-EAST", "cargo_description": "Ergonomic chairs", "total_weight_kg": 2100,
            "total_volume_cbm": 18.0, "purchase_order_ids": ["PO-0001"], "skus": ["CH-ERG-05"]}
    return {**args, **over}


def test_iso6346_check_digit():
    assert iso6346_check_digit("CSQU305438") == 3
    assert container_number("MSCU", 123456) == "MSCU1234566"


def test_seed_lines_up_with_procurement(make_service, svc):
    proc = make_service(Procurement)
    b = ok(svc, "get_booking", {"booking_id": "FB-0003"})
    po = proc.state.purchase_orders["PO-0005"]
    assert b["purchase_order_ids"] == ["PO-0005"] and b["shipper_name"] == proc.state.vendors[po.vendor_id].name
    assert (b["destination_warehouse"], b["skus"]) == (po.ship_to, [ln.sku for ln in po.lines])
    assert (b["shipment_status"], b["master_bill_number"], b["estimated_arrival_date"]) == (
        "in_transit", "HLCU963307283", "2026-01-18")
    assert b["container_numbers"] == ["HLXU6893598"]


def test_reads(svc):
    assert [p["unlocode"] for p in ok(svc, "list_ports", {"query": "shang"})] == ["CNSHA"]
    air = [p["unlocode"] for p in ok(svc, "list_ports", {"transportation_mode": "air"})]
    assert "CNYTN" not in air and "USCHI" in air
    assert [b["id"] for b in ok(svc, "list_bookings", {"status": "submitted"})] == ["FB-0005", "FB-0006"]
    assert [b["id"] for b in ok(svc, "list_bookings", {"purchase_order_id": "po-0006"})] == ["FB-0002"]
    assert [b["id"] for b in ok(svc, "list_bookings", {"shipper_name": "kramer ltd"})] == ["FB-0001", "FB-0008"]
    hits = ok(svc, "list_shipments", {"master_bill_number": "hlcu963307283"})
    assert [(s["id"], s["status"]) for s in hits] == [("FLX-0003", "in_transit")] and "legs" not in hits[0]
    assert len(ok(svc, "list_shipments", {"transportation_mode": "air"})) == 1
    sh = ok(svc, "get_shipment", {"shipment_id": "FLX-0003"})
    assert (sh["next_milestone"], [m["name"] for m in sh["milestones"]]) == ("arrived", ["departed"])
    assert [(leg["origin"], leg["destination"]) for leg in sh["legs"]] == [("CNSHA", "USSAV"), ("USSAV", "WH-CENT")]
    assert ok(svc, "list_containers", {"container_number": "hlxu6893598"})[0]["shipment_id"] == "FLX-0003"
    invs = ok(svc, "list_freight_invoices", {"shipment_id": "FLX-0005"})
    assert [(i["id"], i["status"]) for i in invs] == [("FIN-0005", "outstanding"), ("FIN-0006", "void")]
    assert ok(svc, "get_freight_invoice", {"invoice_id": "FIN-0001"})["status"] == "paid"
    assert ok(svc, "validate_container_number", {"container_number": "CSQU3054383"})["valid"] is True
    assert code(svc, "get_booking", {"booking_id": "FB-0999"}) == 404
    assert code(svc, "get_shipment", {"shipment_id": "FLX-0999"}) == 404
    assert code(svc, "get_freight_invoice", {"invoice_id": "FIN-0999"}) == 404


def test_container_number_check_digit_rule(svc):
    msg = error(svc, "validate_container_number", {"container_number": "CSQU3054384"})
    assert msg["code"] == 422 and "check digit should be 3" in msg["message"]
    assert code(svc, "validate_container_number", {"container_number": "CSQX3054383"}) == 400


def test_create_and_confirm_booking(svc):
    b = ok(svc, "create_booking", booking_args())
    assert (b["id"], b["status"], b["consignee_name"], b["name"]) == ("FB-0010", "submitted", "CompoWorld Retail Inc.",
                                                                      "Fisher Ltd CNSHA-USNYC")
    assert code(svc, "create_booking", booking_args()) == 409  # PO-0001 is on FB-0010 now
    assert code(svc, "create_booking", booking_args(purchase_order_ids=["PO-0005"])) == 409
    c = ok(svc, "confirm_booking", {"booking_id": "FB-0010"})
    assert (c["status"], c["shipment_id"], c["shipment_status"]) == ("confirmed", "FLX-0007", "booked")
    # ready 01-22, departs +4 (01-26), Asia -> US East 32 days (02-27), delivery to Newark 2 days (03-01)
    assert (c["estimated_arrival_date"], c["estimated_delivery_date"]) == ("2026-02-27", "2026-03-01")
    inv = ok(svc, "list_freight_invoices", {"shipment_id": "FLX-0007"})[0]
    assert [(i["name"], i["amount"]) for i in inv["items"]] == [
        ("Ocean freight", 1710.0), ("Origin handling", 185.0), ("Destination delivery", 450.0),
        ("Customs brokerage", 125.0)]
    assert (inv["id"], inv["total"], inv["due_date"]) == ("FIN-0008", 2470.0, "2026-02-14")
    assert code(svc, "confirm_booking", {"booking_id": "FB-0010"}) == 409


def test_lane_validation(svc):
    assert code(svc, "create_booking", booking_args(destination_port="USCHI")) == 422  # no seaport in Chicago
    assert code(svc, "create_booking", booking_args(origin_port="ZZZZZ")) == 404
    assert code(svc, "create_booking", booking_args(origin_port="cn-sh")) == 400
    assert code(svc, "create_booking", booking_args(destination_port="DEHAM")) == 422  # not an import
    msg = error(svc, "create_booking", booking_args(transportation_mode="air", destination_port="USEWR"))
    assert msg["code"] == 422 and "FOB is a sea-only Incoterm" in msg["message"]
    assert code(svc, "create_booking", booking_args(cargo_ready_date="2026-01-10")) == 422
    air = ok(svc, "create_booking", booking_args(transportation_mode="air", destination_port="USEWR",
                                                 incoterm="FCA", purchase_order_ids=[]))
    assert air["transportation_mode"] == "air"


def test_confirmation_needs_future_cargo_ready_date(svc):
    msg = error(svc, "confirm_booking", {"booking_id": "FB-0006"})  # ready 2026-01-12
    assert msg["code"] == 422 and "not after today" in msg["message"]
    assert code(svc, "update_booking", {"booking_id": "FB-0006", "cargo_ready_date": "2026-01-14"}) == 422
    up = ok(svc, "update_booking", {"booking_id": "FB-0006", "cargo_ready_date": "2026-01-19",
                                    "destination_warehouse": "WH-WEST"})
    assert (up["cargo_ready_date"], up["destination_warehouse"]) == ("2026-01-19", "WH-WEST")
    assert ok(svc, "confirm_booking", {"booking_id": "FB-0006"})["status"] == "confirmed"
    assert code(svc, "update_booking", {"booking_id": "FB-0006", "total_weight_kg": 10}) == 409


def test_cancel_booking(svc):
    c = ok(svc, "cancel_booking", {"booking_id": "FB-0005", "reason": "Supplier delay"})
    assert (c["status"], c["cancel_reason"]) == ("cancelled", "Supplier delay")
    assert code(svc, "cancel_booking", {"booking_id": "FB-0004", "reason": "Changed mind"}) == 409
    # the PO is free again for a new booking
    assert ok(svc, "create_booking", booking_args(purchase_order_ids=["PO-0004"]))["id"] == "FB-0010"


def test_milestones_in_order(svc):
    msg = error(svc, "record_milestone", {"shipment_id": "FLX-0003", "milestone": "customs_cleared"})
    assert msg["code"] == 409 and "next milestone is arrived" in msg["message"]
    assert code(svc, "record_milestone", {"shipment_id": "FLX-0003", "milestone": "arrived",
                                          "occurred_on": "2026-01-16"}) == 422  # future
    assert code(svc, "record_milestone", {"shipment_id": "FLX-0003", "milestone": "arrived",
                                          "occurred_on": "2025-12-01"}) == 422  # before departure
    s = ok(svc, "record_milestone", {"shipment_id": "FLX-0003", "milestone": "arrived"})
    assert (s["status"], s["next_milestone"], s["estimated_delivery_date"]) == ("arrived", "customs_cleared",
                                                                                "2026-01-20")
    assert s["containers"][0]["actual_arrival_date"] == "2026-01-15"
    assert ok(svc, "record_milestone", {"shipment_id": "FLX-0003", "milestone": "customs_cleared"})["status"] == \
        "customs_cleared"
    done = ok(svc, "record_milestone", {"shipment_id": "FLX-0003", "milestone": "delivered"})
    assert (done["status"], done["containers"][0]["delivered_on"]) == ("delivered", "2026-01-15")
    assert code(svc, "record_milestone", {"shipment_id": "FLX-0003", "milestone": "delivered"}) == 409


def test_ocean_shipment_sails_with_containers(svc):
    ok(svc, "create_booking", booking_args())
    ok(svc, "confirm_booking", {"booking_id": "FB-0010"})
    assert code(svc, "add_container", {"shipment_id": "FLX-0007", "container_number": "MSCU1234565",
                                       "seal_number": "ML123456"}) == 422  # bad check digit
    early = error(svc, "record_milestone", {"shipment_id": "FLX-0007", "milestone": "departed"})
    assert early["code"] == 422 and "before the previous event (2026-01-22)" in early["message"]
    svc.state.shipments["FLX-0007"].cargo_ready_date = dt.date(2026, 1, 12)  # the supplier was early
    msg = error(svc, "record_milestone", {"shipment_id": "FLX-0007", "milestone": "departed"})
    assert msg["code"] == 422 and "no containers" in msg["message"]
    box = ok(svc, "add_container", {"shipment_id": "FLX-0007", "container_number": "mscu 1234566",
                                    "container_type": "40HC", "seal_number": "ml123456"})
    assert (box["id"], box["container_number"], box["seal_number"], box["capacity_cbm"]) == (
        "CNT-0005", "MSCU1234566", "ML123456", 76.4)
    assert code(svc, "add_container", {"shipment_id": "FLX-0004", "container_number": "MSCU1234566",
                                       "seal_number": "ML999999"}) == 409  # on FLX-0007 already
    assert ok(svc, "record_milestone", {"shipment_id": "FLX-0007", "milestone": "departed"})["status"] == "in_transit"
    assert code(svc, "add_container", {"shipment_id": "FLX-0007", "container_number": "CSQU3054383",
                                       "seal_number": "ML999999"}) == 409  # sailed
    assert code(svc, "add_container", {"shipment_id": "FLX-0005", "container_number": "CSQU3054383",
                                       "seal_number": "ML999999"}) == 422  # air


def test_delivered_shipment_cannot_be_rerouted(svc):
    msg = error(svc, "reroute_shipment", {"shipment_id": "FLX-0001", "destination_warehouse": "WH-EAST",
                                          "reason": "Stock rebalance"})
    assert msg["code"] == 409 and "delivered" in msg["message"]
    assert code(svc, "reroute_shipment", {"shipment_id": "FLX-0003", "destination_warehouse": "WH-CENT",
                                          "reason": "Same"}) == 409
    r = ok(svc, "reroute_shipment", {"shipment_id": "FLX-0003", "destination_warehouse": "WH-EAST",
                                     "reason": "Stock rebalance"})
    assert (r["destination_warehouse"], r["legs"][-1]["destination"], r["estimated_delivery_date"]) == (
        "WH-EAST", "WH-EAST", "2026-01-20")
    assert r["reroutes"] == ["2026-01-15: WH-CENT -> WH-EAST: Stock rebalance"]
    assert ok(svc, "get_booking", {"booking_id": "FB-0003"})["destination_warehouse"] == "WH-EAST"


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("confirm_booking", {"booking_id": "FB-0006"})["success"] is False
    assert svc.state_dict() == before
    assert make_service(Freight, seed=3).state_dict() == make_service(Freight, seed=3).state_dict()
