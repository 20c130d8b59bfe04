"""Tests of the inventory service."""

from __future__ import annotations

import pytest
from _svc_asserts import data, error, error_code

from compoworld_gym.envs.services.inventory import Inventory


@pytest.fixture
def svc(make_service):
    return make_service(Inventory)


def level(svc, wh, sku):
    return svc.state.stock[f"{wh}/{sku}"]


def test_seed_reserves_the_paid_book_orders(svc):
    orders = {r.order_id for r in svc.state.reservations.values()}
    assert orders == {"ORD-0005", "ORD-0006", "ORD-0007", "ORD-0012"}
    for lv in svc.state.stock.values():
        assert 0 <= lv.reserved <= lv.on_hand
    assert "WH-CENT/CH-ERG-05" not in svc.state.stock


def test_list_warehouses_and_get_stock(svc):
    assert [w["id"] for w in data(svc.call("list_warehouses", {}))] == ["WH-EAST", "WH-WEST", "WH-CENT"]
    got = data(svc.call("get_stock", {"sku": "kb-mech-01"}))
    assert got["sku"] == "KB-MECH-01" and len(got["levels"]) == 3
    assert got["total_on_hand"] == sum(level(svc, w, "KB-MECH-01").on_hand for w in ("WH-EAST", "WH-WEST", "WH-CENT"))
    one = data(svc.call("get_stock", {"sku": "KB-MECH-01", "warehouse_id": "WH-WEST"}))
    assert [x["warehouse_id"] for x in one["levels"]] == ["WH-WEST"]
    assert error_code(svc.call("get_stock", {"sku": "NOPE"})) == 404
    assert error_code(svc.call("get_stock", {"sku": "KB-MECH-01", "warehouse_id": "WH-MARS"})) == 404


def test_list_stock_needs_reorder(svc):
    low = data(svc.call("list_stock", {"needs_reorder": True}))
    assert low and all(x["available"] <= x["reorder_point"] for x in low)
    east = data(svc.call("list_stock", {"warehouse_id": "WH-EAST", "limit": 500}))
    assert len(east) == 14


def test_adjust_stock(svc):
    before = level(svc, "WH-WEST", "MS-WL-02").on_hand
    adj = data(svc.call("adjust_stock", {"sku": "MS-WL-02", "warehouse_id": "WH-WEST", "quantity_delta": 5,
                                         "reason": "received", "note": "PO-0004"}))
    assert adj["on_hand"] == before + 5 and adj["id"] == "ADJ-0007" and adj["reason"] == "received"
    assert error_code(svc.call("adjust_stock", {"sku": "MS-WL-02", "warehouse_id": "WH-WEST",
                                          "quantity_delta": -(before + 6), "reason": "lost"})) == 409
    assert error_code(svc.call("adjust_stock", {"sku": "MS-WL-02", "warehouse_id": "WH-WEST", "quantity_delta": 0,
                                          "reason": "lost"})) == 400
    assert error_code(svc.call("adjust_stock", {"sku": "MS-WL-02", "warehouse_id": "WH-WEST", "quantity_delta": 1,
                                          "reason": "stolen"})) == 400
    log = data(svc.call("list_adjustments", {"sku": "MS-WL-02", "warehouse_id": "WH-WEST", "limit": 1}))
    assert log[0]["id"] == "ADJ-0007" and log[0]["delta"] == 5


def test_cannot_remove_reserved_units(svc):
    lv = level(svc, "WH-EAST", "HS-NC-13")
    assert lv.reserved >= 1
    r = svc.call("adjust_stock", {"sku": "HS-NC-13", "warehouse_id": "WH-EAST",
                                  "quantity_delta": -(lv.on_hand - lv.reserved + 1), "reason": "damaged"})
    assert error_code(r) == 409 and "reserved" in r["error"]["message"]


def test_transfer_stock(svc):
    src, dst = level(svc, "WH-WEST", "KB-MECH-01"), level(svc, "WH-CENT", "KB-MECH-01")
    a, b = src.on_hand, dst.on_hand
    out = data(svc.call("transfer_stock", {"sku": "KB-MECH-01", "from_warehouse_id": "WH-WEST",
                                           "to_warehouse_id": "WH-CENT", "quantity": 2}))
    assert out["out"]["delta"] == -2 and out["in"]["delta"] == 2
    assert (level(svc, "WH-WEST", "KB-MECH-01").on_hand, level(svc, "WH-CENT", "KB-MECH-01").on_hand) == (a - 2, b + 2)
    data(svc.call("adjust_stock", {"sku": "DK-STD-06", "warehouse_id": "WH-EAST", "quantity_delta": 3,
                                   "reason": "received"}))
    data(svc.call("transfer_stock", {"sku": "DK-STD-06", "from_warehouse_id": "WH-EAST",
                                     "to_warehouse_id": "WH-CENT", "quantity": 1}))
    assert level(svc, "WH-CENT", "DK-STD-06").on_hand == 1
    assert error_code(svc.call("transfer_stock", {"sku": "KB-MECH-01", "from_warehouse_id": "WH-WEST",
                                            "to_warehouse_id": "WH-WEST", "quantity": 1})) == 400
    assert error_code(svc.call("transfer_stock", {"sku": "KB-MECH-01", "from_warehouse_id": "WH-WEST",
                                            "to_warehouse_id": "WH-CENT", "quantity": 10_000})) == 409


def test_reservation_lifecycle(svc):
    lv = level(svc, "WH-WEST", "WC-HD-12")
    on_hand, reserved = lv.on_hand, lv.reserved
    if on_hand - reserved < 2:
        data(svc.call("adjust_stock", {"sku": "WC-HD-12", "warehouse_id": "WH-WEST", "quantity_delta": 5,
                                       "reason": "received"}))
        on_hand += 5
    r = data(svc.call("reserve_stock", {"sku": "WC-HD-12", "warehouse_id": "WH-WEST", "quantity": 2,
                                        "order_id": "ORD-0013"}))
    assert r["id"] == "RSV-0009" and r["status"] == "active"
    assert level(svc, "WH-WEST", "WC-HD-12").reserved == reserved + 2
    assert [x["id"] for x in data(svc.call("list_stock_reservations", {"order_id": "ORD-0013"}))] == ["RSV-0009"]
    done = data(svc.call("fulfill_reservation", {"reservation_id": "RSV-0009"}))
    assert done["status"] == "fulfilled" and done["on_hand"] == on_hand - 2
    assert error_code(svc.call("fulfill_reservation", {"reservation_id": "RSV-0009"})) == 409
    rel = data(svc.call("release_reservation", {"reservation_id": "RSV-0001"}))
    assert rel["status"] == "released"
    assert error_code(svc.call("release_reservation", {"reservation_id": "RSV-0001"})) == 409
    assert error_code(svc.call("release_reservation", {"reservation_id": "RSV-9999"})) == 404
    assert error_code(svc.call("reserve_stock", {"sku": "WC-HD-12", "warehouse_id": "WH-WEST", "quantity": 10_000,
                                           "order_id": "ORD-0013"})) == 409
    assert len(data(svc.call("list_stock_reservations", {"status": "active"}))) == 7


def test_set_reorder_point(svc):
    got = data(svc.call("set_reorder_point", {"sku": "NB-A5-08", "warehouse_id": "WH-EAST", "reorder_point": 1000,
                                              "reorder_quantity": 600}))
    assert (got["reorder_point"], got["reorder_quantity"], got["needs_reorder"]) == (1000, 600, True)
    assert error_code(svc.call("set_reorder_point", {"sku": "NB-A5-08", "warehouse_id": "WH-EAST", "reorder_point": 100,
                                               "reorder_quantity": 10})) == 422
    assert error_code(svc.call("set_reorder_point", {"sku": "NB-A5-08", "warehouse_id": "WH-EAST",
                                               "reorder_point": -1})) == 400


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert error_code(svc.call("reserve_stock", {"sku": "KB-MECH-01", "warehouse_id": "WH-EAST", "quantity": 99_999,
                                           "order_id": "ORD-0001"})) == 409
    assert error_code(svc.call("adjust_stock", {"sku": "KB-MECH-01", "warehouse_id": "WH-NOPE", "quantity_delta": 1,
                                          "reason": "received"})) == 404
    assert svc.state_dict() == before


def test_unit_counts_beyond_a_million_are_a_400_naming_the_field(svc):

    e = error(svc, "adjust_stock", {"sku": "MS-WL-02", "warehouse_id": "WH-CENT", "quantity_delta": 10**30,
                                     "reason": "received"})
    assert e["code"] == 400 and "'quantity_delta'" in e["message"]
    e = error(svc, "set_reorder_point", {"sku": "BP-LAP-10", "warehouse_id": "WH-CENT", "reorder_point": 10**30})
    assert e["code"] == 400 and "'reorder_point'" in e["message"]
