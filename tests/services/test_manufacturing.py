"""Tests of the manufacturing service (Katana-style MRP)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.manufacturing import Manufacturing


@pytest.fixture
def svc(make_service):
    return make_service(Manufacturing)


def test_seeded_items_share_the_catalog_skus(svc):
    products = ok(svc, "list_items", {"kind": "product"})
    assert [p["sku"] for p in products] == ["KB-MECH-01", "CH-ERG-05", "DK-STD-06", "LP-LED-07", "MT-FLT-14"]
    chair = ok(svc, "get_item", {"sku": "ch-erg-05"})
    assert (chair["name"], chair["unit_cost"], chair["unit_of_measure"]) == ("Ergonomic Office Chair", 131.5, "pcs")
    lift = ok(svc, "get_item", {"sku": "MAT-GASLIFT"})
    assert (lift["in_stock"], lift["committed"], lift["available"]) == (15.0, 10.0, 5.0)
    assert [i["sku"] for i in ok(svc, "list_items", {"query": "felt"})] == ["MT-FLT-14", "MAT-FELT-ROLL"]
    assert code(svc, "get_item", {"sku": "NOPE-1"}) == 404


def test_boms(svc):
    assert len(ok(svc, "list_boms")) == 5
    bom = ok(svc, "get_bom", {"sku": "CH-ERG-05"})
    assert bom["id"] == "BOM-0002" and bom["lines"][2] == {"material_sku": "MAT-CASTOR", "quantity": 5.0}
    assert bom["unit_material_cost"] == 31.42  # 1.2*4.60 + 7.90 + 5*0.95 + 12.40 + 0.85
    assert code(svc, "get_bom", {"sku": "MAT-CASTOR"}) == 404


def test_list_and_get_orders(svc):
    assert [m["id"] for m in ok(svc, "list_manufacturing_orders", {"sku": "CH-ERG-05"})] == ["MO-0002", "MO-0003",
                                                                                          "MO-0007"]
    made_to_order = ok(svc, "list_manufacturing_orders", {"order_id": "ORD-0007"})
    assert [(m["id"], m["planned_quantity"], m["due_date"]) for m in made_to_order] == [("MO-0003", 2.0, "2026-01-19")]
    assert ok(svc, "get_manufacturing_order", {"mo_id": "MO-0007"})["ingredient_availability"] == "NOT_AVAILABLE"
    assert ok(svc, "get_manufacturing_order", {"mo_id": "MO-0003"})["ingredient_availability"] == "IN_STOCK"
    assert code(svc, "get_manufacturing_order", {"mo_id": "MO-0099"}) == 404


def test_availability_and_start_refusal(svc):
    av = ok(svc, "check_material_availability", {"mo_id": "MO-0007"})
    lift = next(r for r in av["ingredients"] if r["material_sku"] == "MAT-GASLIFT")
    assert (av["can_start"], lift["required"], lift["available"], lift["shortfall"]) == (False, 30.0, 5.0, 25.0)
    msg = error(svc, "start_manufacturing_order", {"mo_id": "MO-0007"})
    assert msg["code"] == 422 and "MAT-GASLIFT short by 25 pcs" in msg["message"]
    ok(svc, "adjust_stock", {"sku": "MAT-GASLIFT", "quantity_delta": 25, "reason": "PO-0042 received"})
    after = ok(svc, "check_material_availability", {"mo_id": "MO-0007"})
    assert [(r["material_sku"], r["shortfall"]) for r in after["ingredients"] if r["shortfall"]] == [
        ("MAT-MESH-BLK", 19.011), ("MAT-CASTOR", 94.0)]  # 36 m2 vs 16.989 free; 150 castors vs 56 free


def test_start_commits_and_complete_consumes(svc):
    started = ok(svc, "start_manufacturing_order", {"mo_id": "MO-0003"})
    assert (started["status"], started["started_on"], started["ingredient_availability"]) == (
        "in_progress", "2026-01-15", "PROCESSED")
    assert ok(svc, "get_item", {"sku": "MAT-GASLIFT"})["committed"] == 12.0
    assert code(svc, "start_manufacturing_order", {"mo_id": "MO-0003"}) == 409
    assert code(svc, "complete_manufacturing_order", {"mo_id": "MO-0003", "produced_quantity": 3}) == 422
    done = ok(svc, "complete_manufacturing_order", {"mo_id": "MO-0003"})
    assert (done["status"], done["produced_quantity"], done["completed_on"]) == ("done", 2.0, "2026-01-15")
    lift = ok(svc, "get_item", {"sku": "MAT-GASLIFT"})
    assert (lift["in_stock"], lift["committed"]) == (13.0, 10.0)
    assert ok(svc, "get_item", {"sku": "MAT-MESH-BLK"})["in_stock"] == 26.589  # 28.989 - 2 * 1.2
    assert ok(svc, "get_item", {"sku": "CH-ERG-05"})["in_stock"] == 8.0
    assert code(svc, "complete_manufacturing_order", {"mo_id": "MO-0003"}) == 409
    assert code(svc, "cancel_manufacturing_order", {"mo_id": "MO-0003", "reason": "late"}) == 409


def test_create_update_and_cancel(svc):
    mo = ok(svc, "create_manufacturing_order", {"sku": "LP-LED-07", "planned_quantity": 4, "order_id": "ORD-0006",
                                                "note": "Gift wrap"})
    assert (mo["id"], mo["due_date"], mo["total_cost"], mo["notes"]) == ("MO-0008", "2026-01-22", 40.4, ["Gift wrap"])
    assert [(i["material_sku"], i["required"]) for i in mo["ingredients"]][:2] == [("MAT-LED-STRIP", 8.0),
                                                                                  ("MAT-ALU-ARM", 4.0)]
    up = ok(svc, "update_manufacturing_order", {"mo_id": mo["id"], "planned_quantity": 6, "due_date": "2026-01-20"})
    assert (up["planned_quantity"], up["ingredients"][0]["required"], up["total_cost"], up["due_date"]) == (
        6.0, 12.0, 60.6, "2026-01-20")
    assert code(svc, "update_manufacturing_order", {"mo_id": mo["id"]}) == 400
    assert code(svc, "update_manufacturing_order", {"mo_id": mo["id"], "due_date": "2026-01-01"}) == 422
    assert code(svc, "update_manufacturing_order", {"mo_id": "MO-0002", "planned_quantity": 3}) == 409
    assert code(svc, "create_manufacturing_order", {"sku": "MAT-CASTOR", "planned_quantity": 1}) == 422
    assert code(svc, "create_manufacturing_order", {"sku": "LP-LED-07", "planned_quantity": 1,
                                                    "due_date": "2026-01-02"}) == 422
    assert code(svc, "create_manufacturing_order", {"sku": "LP-LED-07", "planned_quantity": 0}) == 400
    c = ok(svc, "cancel_manufacturing_order", {"mo_id": "MO-0002", "reason": "Customer order withdrawn"})
    assert (c["status"], c["notes"][-1]) == ("cancelled", "Cancelled: Customer order withdrawn")
    assert ok(svc, "get_item", {"sku": "MAT-GASLIFT"})["committed"] == 0.0  # MO-0002's 10 released


def test_new_product_needs_a_bom(svc):
    ok(svc, "create_item", {"sku": "ws-oak-15", "name": "Oak Monitor Stand", "kind": "product", "unit_cost": 22})
    assert code(svc, "create_item", {"sku": "WS-OAK-15", "name": "dup"}) == 409
    assert code(svc, "create_manufacturing_order", {"sku": "WS-OAK-15", "planned_quantity": 2}) == 404
    bom = ok(svc, "set_bom_line", {"sku": "WS-OAK-15", "material_sku": "MAT-PKG-BOX", "quantity": 1})
    assert (bom["id"], bom["lines"]) == ("BOM-0006", [{"material_sku": "MAT-PKG-BOX", "quantity": 1.0}])
    assert code(svc, "set_bom_line", {"sku": "MAT-PKG-BOX", "material_sku": "MAT-CASTOR", "quantity": 1}) == 422
    assert code(svc, "set_bom_line", {"sku": "WS-OAK-15", "material_sku": "CH-ERG-05", "quantity": 1}) == 422
    assert ok(svc, "set_bom_line", {"sku": "WS-OAK-15", "material_sku": "MAT-PKG-BOX", "quantity": 0})["lines"] == []
    assert code(svc, "create_manufacturing_order", {"sku": "WS-OAK-15", "planned_quantity": 2}) == 422


def test_stock_adjustments(svc):
    adj = ok(svc, "adjust_stock", {"sku": "MAT-CASTOR", "quantity_delta": -6, "reason": "scrapped: cracked"})
    assert (adj["in_stock"], adj["adjustment"]["id"]) == (100.0, "ADJ-0001")
    assert code(svc, "adjust_stock", {"sku": "MAT-CASTOR", "quantity_delta": -60, "reason": "count"}) == 422
    assert code(svc, "adjust_stock", {"sku": "MAT-CASTOR", "quantity_delta": 0, "reason": "count"}) == 400
    assert [(a["sku"], a["quantity_delta"]) for a in ok(svc, "list_stock_adjustments", {"sku": "mat-castor"})] == [
        ("MAT-CASTOR", -6.0)]
    note = ok(svc, "add_manufacturing_order_note", {"mo_id": "MO-0004", "note": "Use the new motor batch"})
    assert note["notes"] == ["Use the new motor batch"]


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("start_manufacturing_order", {"mo_id": "MO-0007"})["success"] is False
    assert svc.call("complete_manufacturing_order", {"mo_id": "MO-0003", "produced_quantity": 1})["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(Manufacturing, seed=5).state_dict() == make_service(Manufacturing, seed=5).state_dict()


def test_a_quantity_below_the_kept_precision_is_a_400_not_an_invalid_record(make_service):
    # Regression (fuzz, seed 11): planned_quantity=1e-323 passed gt=0, rounded to 0 and made a 500.
    from compoworld_gym.envs.services.manufacturing import Manufacturing

    svc = make_service(Manufacturing)
    before = svc.state_dict()
    out = svc.call("create_manufacturing_order", {"sku": "CH-ERG-05", "planned_quantity": 1e-323})
    assert out["error"]["code"] == 400 and "planned_quantity" in out["error"]["message"]
    assert svc.state_dict() == before


def test_a_bom_quantity_below_the_kept_precision_is_a_400(make_service):
    # Regression (fuzz, seed 12): quantity=4.3e-56 kept the line but rounded it to 0, a 500.
    from compoworld_gym.envs.services.manufacturing import Manufacturing

    svc = make_service(Manufacturing)
    before = svc.state_dict()
    out = svc.call("set_bom_line", {"sku": "CH-ERG-05", "material_sku": "MAT-ALU-ARM", "quantity": 4.3e-56})
    assert out["error"]["code"] == 400 and "0.001" in out["error"]["message"]
    assert svc.state_dict() == before
