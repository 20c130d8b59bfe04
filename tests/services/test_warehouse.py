"""Tests of the warehouse service (ShipHero WMS style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.warehouse import WarehouseWms


@pytest.fixture
def svc(make_service):
    return make_service(WarehouseWms)


def test_warehouses_bins_and_product_inventory(svc):
    assert [w["id"] for w in ok(svc, "list_warehouses")] == ["WH-EAST", "WH-WEST", "WH-CENT"]
    east = ok(svc, "list_bins", {"warehouse_id": "WH-EAST"})
    assert (len(east), east[0]["name"], east[-1]["name"]) == (17, "A-01-1", "RCV-01")
    assert [b["name"] for b in ok(svc, "list_bins", {"warehouse_id": "WH-EAST", "type": "reserve"})] == [
        "R-01-1", "R-01-2"]
    assert [b["id"] for b in ok(svc, "list_bins", {"warehouse_id": "WH-EAST", "sku": "bp-lap-10"})] == [
        "BIN-0010", "BIN-0015"]
    assert ok(svc, "get_bin", {"bin_id": "BIN-0007"})["items"] == [{"sku": "LP-LED-07", "quantity": 31,
                                                                    "allocated": 2}]
    inv = ok(svc, "get_product_inventory", {"sku": "kb-mech-01"})
    assert (inv["on_hand"], inv["allocated"], inv["available"]) == (116, 0, 116)
    assert [b["bin_id"] for b in inv["bins"]] == ["BIN-0001", "BIN-0018", "BIN-0028"]
    east_lp = ok(svc, "get_product_inventory", {"sku": "LP-LED-07", "warehouse_id": "WH-EAST"})
    assert (east_lp["on_hand"], east_lp["allocated"], east_lp["available"]) == (31, 2, 29)
    assert code(svc, "list_bins", {"warehouse_id": "WH-NORTH"}) == 404
    assert code(svc, "get_bin", {"bin_id": "BIN-0999"}) == 404


def test_inbound_and_order_reads(svc):
    assert [i["id"] for i in ok(svc, "list_inbound_shipments", {"status": "pending"})] == ["IB-0001", "IB-0003"]
    assert [i["id"] for i in ok(svc, "list_inbound_shipments", {"purchase_order_id": "PO-0006"})] == ["IB-0002"]
    assert [i["id"] for i in ok(svc, "list_inbound_shipments", {"sku": "hs-nc-13"})] == ["IB-0003"]
    assert [i["id"] for i in ok(svc, "list_inbound_shipments", {"tracking_number": "cmau2123119"})] == ["IB-0001"]
    assert [i["id"] for i in ok(svc, "list_inbound_shipments", {"warehouse_id": "WH-CENT"})] == ["IB-0004"]
    ib = ok(svc, "get_inbound_shipment", {"inbound_id": "IB-0002"})
    assert [(ln["sku"], ln["expected_quantity"], ln["received_quantity"]) for ln in ib["lines"]] == [
        ("CH-ERG-05", 20, 20), ("LP-LED-07", 60, 25)]
    assert [o["id"] for o in ok(svc, "list_orders", {"status": "shipped"})] == [
        "ORD-0001", "ORD-0002", "ORD-0003", "ORD-0004"]
    assert [o["id"] for o in ok(svc, "list_orders", {"sku": "MT-FLT-14"})] == [
        "ORD-0004", "ORD-0005", "ORD-0006", "ORD-0007"]
    assert ok(svc, "list_orders", {"warehouse_id": "WH-WEST"}) == []
    order = ok(svc, "get_order", {"order_id": "ORD-0003"})
    assert (order["status"], order["carrier"], order["tracking_number"]) == ("shipped", "ups", "1ZCW84100003")
    pl = ok(svc, "get_pick_list", {"pick_list_id": "PL-0005"})
    assert (pl["order_id"], pl["status"], [(ln["bin_name"], ln["quantity"]) for ln in pl["lines"]]) == (
        "ORD-0006", "open", [("A-04-1", 2), ("A-07-2", 3)])
    assert code(svc, "get_order", {"order_id": "ORD-0008"}) == 404
    assert code(svc, "get_pick_list", {"pick_list_id": "PL-0999"}) == 404


def test_receive_at_most_expected_without_over_receipt_flag(svc):
    items = [{"sku": "LP-LED-07", "quantity": 40, "bin_id": "BIN-0017"}]
    msg = error(svc, "receive_inbound", {"inbound_id": "IB-0002", "items": items})
    assert msg["code"] == 422 and "expects 35 more of LP-LED-07" in msg["message"]
    ib = ok(svc, "receive_inbound", {"inbound_id": "IB-0002", "items": items, "allow_over_receipt": True,
                                     "note": "Vendor shipped a full case"})
    assert (ib["status"], ib["lines"][1]["received_quantity"], ib["receipts"][-1]["over_receipt"]) == (
        "received", 65, True)
    assert ok(svc, "get_bin", {"bin_id": "BIN-0017"})["items"] == [{"sku": "LP-LED-07", "quantity": 40,
                                                                    "allocated": 0}]
    change = ok(svc, "list_inventory_changes", {"reason": "received"})[0]
    assert (change["id"], change["delta"], change["reference"], change["note"]) == (
        "CHG-0001", 40, "IB-0002", "Vendor shipped a full case")
    assert code(svc, "receive_inbound", {"inbound_id": "IB-0002", "items": items}) == 409  # fully received


def test_receive_checks_bin_and_sku(svc):
    part = ok(svc, "receive_inbound", {"inbound_id": "IB-0001",
                                       "items": [{"sku": "kb-mech-01", "quantity": 15, "bin_id": "BIN-0001"}]})
    assert (part["status"], part["lines"][0]["received_quantity"]) == ("partially_received", 15)
    assert ok(svc, "get_bin", {"bin_id": "BIN-0001"})["items"][0]["quantity"] == 35
    assert code(svc, "receive_inbound", {"inbound_id": "IB-0001", "items": [  # a WH-WEST bin
        {"sku": "KB-MECH-01", "quantity": 1, "bin_id": "BIN-0018"}]}) == 422
    assert code(svc, "receive_inbound", {"inbound_id": "IB-0001", "items": [
        {"sku": "MS-WL-02", "quantity": 1, "bin_id": "BIN-0017"}]}) == 422
    assert code(svc, "receive_inbound", {"inbound_id": "IB-0001", "items": [  # 2 x 20 > 25 still expected
        {"sku": "KB-MECH-01", "quantity": 20, "bin_id": "BIN-0017"},
        {"sku": "KB-MECH-01", "quantity": 20, "bin_id": "BIN-0001"}]}) == 422
    assert code(svc, "receive_inbound", {"inbound_id": "IB-0005", "items": [
        {"sku": "BP-LAP-10", "quantity": 1, "bin_id": "BIN-0017"}]}) == 409  # canceled


def test_close_and_cancel_inbound(svc):
    assert ok(svc, "close_inbound", {"inbound_id": "IB-0002"})["status"] == "closed"
    assert code(svc, "close_inbound", {"inbound_id": "IB-0001"}) == 409  # nothing received: cancel it instead
    assert ok(svc, "close_inbound", {"inbound_id": "IB-0001", "cancel": True})["status"] == "canceled"
    assert code(svc, "close_inbound", {"inbound_id": "IB-0004", "cancel": True}) == 409


def test_pick_pack_ship(svc):
    pl = ok(svc, "create_pick_list", {"order_id": "ORD-0005", "picker": "Grace Okafor"})
    assert (pl["id"], [(ln["bin_name"], ln["sku"], ln["quantity"]) for ln in pl["lines"]]) == (
        "PL-0008", [("A-04-1", "LP-LED-07", 3), ("A-04-2", "NB-A5-08", 2), ("A-07-2", "MT-FLT-14", 1)])
    assert ok(svc, "get_order", {"order_id": "ORD-0005"})["status"] == "picking"
    assert code(svc, "create_pick_list", {"order_id": "ORD-0005"}) == 409  # already being picked
    assert code(svc, "pack_order", {"order_id": "ORD-0005", "package_weight_kg": 5}) == 409
    done = ok(svc, "confirm_pick", {"pick_list_id": "PL-0008"})
    assert (done["status"], done["picked_at"]) == ("picked", "2026-01-15T09:01:00")
    assert ok(svc, "get_bin", {"bin_id": "BIN-0007"})["items"][0]["quantity"] == 28
    assert [c["delta"] for c in ok(svc, "list_inventory_changes", {"reason": "picked"})] == [-3, -2, -1]
    assert code(svc, "confirm_pick", {"pick_list_id": "PL-0008"}) == 409
    assert code(svc, "ship_order", {"order_id": "ORD-0005", "carrier": "ups", "tracking_number": "1Z999AA10123"}) == 409
    assert ok(svc, "pack_order", {"order_id": "ORD-0005", "package_weight_kg": 5.25})["status"] == "packed"
    shipped = ok(svc, "ship_order", {"order_id": "ORD-0005", "carrier": "ups", "tracking_number": "1z999aa10123"})
    assert (shipped["status"], shipped["tracking_number"], shipped["shipped_on"]) == ("shipped", "1Z999AA10123",
                                                                                     "2026-01-15")


def test_a_shipped_order_cannot_be_picked_again(svc):
    msg = error(svc, "create_pick_list", {"order_id": "ORD-0001"})
    assert msg["code"] == 409 and "a shipped order cannot be picked again" in msg["message"]
    assert code(svc, "create_pick_list", {"order_id": "ORD-0010"}) == 409  # cancelled
    assert code(svc, "create_pick_list", {"order_id": "ORD-0007"}) == 409  # already picked


def test_cannot_pick_more_than_the_bin_holds(svc):
    picks = [{"sku": "LP-LED-07", "bin_id": "BIN-0007", "quantity": 3}, {"sku": "MT-FLT-14", "bin_id": "BIN-0014",
                                                                          "quantity": 1},
             {"sku": "NB-A5-08", "bin_id": "BIN-0008", "quantity": 2}]
    ok(svc, "record_cycle_count", {"bin_id": "BIN-0008", "counts": [{"sku": "NB-A5-08", "counted": 1}]})
    msg = error(svc, "create_pick_list", {"order_id": "ORD-0005", "picks": picks})
    assert msg["code"] == 422 and "cannot pick 2 of NB-A5-08 from bin A-04-2: it has 1" in msg["message"]
    assert "has only 1 of NB-A5-08" in error(svc, "create_pick_list", {"order_id": "ORD-0005"})["message"]
    short = [p for p in picks if p["sku"] != "NB-A5-08"]
    assert code(svc, "create_pick_list", {"order_id": "ORD-0005", "picks": short}) == 422  # order not covered
    assert code(svc, "create_pick_list", {"order_id": "ORD-0005", "picks": [  # a reserve bin is not pickable
        {**picks[0], "bin_id": "BIN-0015"}, *picks[1:]]}) == 422
    ok(svc, "adjust_inventory", {"sku": "NB-A5-08", "bin_id": "BIN-0008", "quantity_delta": 1, "reason": "found"})
    pl = ok(svc, "create_pick_list", {"order_id": "ORD-0005", "picks": picks})
    assert [ln["bin_id"] for ln in pl["lines"]] == ["BIN-0007", "BIN-0014", "BIN-0008"]


def test_confirm_rechecks_the_bin_and_cancel_returns_the_order(svc):
    ok(svc, "record_cycle_count", {"bin_id": "BIN-0014", "counts": [{"sku": "MT-FLT-14", "counted": 2}],
                                   "note": "Shelf recount"})
    assert "no longer holds 3 of MT-FLT-14" in error(svc, "confirm_pick", {"pick_list_id": "PL-0005"})["message"]
    cancelled = ok(svc, "cancel_pick_list", {"pick_list_id": "PL-0005"})
    assert cancelled["status"] == "cancelled"
    order = ok(svc, "get_order", {"order_id": "ORD-0006"})
    assert (order["status"], order["pick_list_id"]) == ("pending", None)
    assert code(svc, "cancel_pick_list", {"pick_list_id": "PL-0005"}) == 409


def test_transfer_adjust_and_cycle_count(svc):
    dst = ok(svc, "transfer_inventory", {"sku": "BP-LAP-10", "from_bin_id": "BIN-0015", "to_bin_id": "BIN-0010",
                                         "quantity": 20})
    assert dst["items"] == [{"sku": "BP-LAP-10", "quantity": 41, "allocated": 0}]
    assert ok(svc, "get_bin", {"bin_id": "BIN-0015"})["items"][0] == {"sku": "BP-LAP-10", "quantity": 38,
                                                                      "allocated": 0}
    assert code(svc, "transfer_inventory", {"sku": "BP-LAP-10", "from_bin_id": "BIN-0015", "to_bin_id": "BIN-0010",
                                            "quantity": 39}) == 422
    assert code(svc, "transfer_inventory", {"sku": "BP-LAP-10", "from_bin_id": "BIN-0015", "to_bin_id": "BIN-0018",
                                            "quantity": 1}) == 422  # another warehouse
    assert code(svc, "transfer_inventory", {"sku": "LP-LED-07", "from_bin_id": "BIN-0007", "to_bin_id": "BIN-0016",
                                            "quantity": 30}) == 422  # 2 of the 31 are on an open pick list
    adj = ok(svc, "adjust_inventory", {"sku": "wc-hd-12", "bin_id": "BIN-0012", "quantity_delta": -1,
                                       "reason": "damaged", "note": "Cracked lens"})
    assert (adj["id"], adj["sku"], adj["delta"], adj["reason"]) == ("CHG-0003", "WC-HD-12", -1, "damaged")
    for bad in ({"quantity_delta": 0}, {"quantity_delta": 2, "reason": "damaged"}, {"quantity_delta": -17},
                {"quantity_delta": 1, "reason": "received"}):
        assert code(svc, "adjust_inventory", {"sku": "WC-HD-12", "bin_id": "BIN-0012", "reason": "correction",
                                              **bad}) == 422
    bin_ = ok(svc, "record_cycle_count", {"bin_id": "BIN-0015", "counts": [{"sku": "BP-LAP-10", "counted": 36},
                                                                         {"sku": "CB-HDMI-11", "counted": 62}]})
    assert [i["quantity"] for i in bin_["items"]] == [36, 62]
    counts = ok(svc, "list_inventory_changes", {"reason": "cycle_count"})
    assert [(c["sku"], c["delta"], c["reference"]) for c in counts] == [("BP-LAP-10", -2, "COUNT-20260115-R-01-1")]
    assert code(svc, "record_cycle_count", {"bin_id": "BIN-0015", "counts": [{"sku": "BP-LAP-10", "counted": 1},
                                                                           {"sku": "bp-lap-10", "counted": 2}]}) == 422
    assert [c["id"] for c in ok(svc, "list_inventory_changes", {"bin_id": "BIN-0015"})] == ["CHG-0001", "CHG-0004"]
    assert len(ok(svc, "list_inventory_changes", {"sku": "BP-LAP-10"})) == 3


def test_rollback_and_seed(svc, make_service):
    before = svc.state_dict()
    assert svc.call("create_pick_list", {"order_id": "ORD-0001"})["success"] is False
    assert svc.call("receive_inbound", {"inbound_id": "IB-0002", "items": [
        {"sku": "CH-ERG-05", "quantity": 1, "bin_id": "BIN-0017"}]})["success"] is False
    assert svc.state_dict() == before
    assert make_service(WarehouseWms, seed=5).state_dict() == make_service(WarehouseWms, seed=5).state_dict()
