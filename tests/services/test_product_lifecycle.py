"""Tests of the product lifecycle service (Arena PLM API style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._manufacturing_seed import BOMS
from compoworld_gym.envs.services._product_lifecycle_rules import next_revision
from compoworld_gym.envs.services._quality_management_seed import SUPPLIERS
from compoworld_gym.envs.services.product_lifecycle import ProductLifecycle

COO, FM, SRE = "sarah.hunt@company.example", "daniel.cho@company.example", "ben.foster@company.example"


@pytest.fixture
def svc(make_service):
    return make_service(ProductLifecycle)


def test_revisions():
    assert [next_revision(r) for r in ("-", "A", "B", "Z", "AZ")] == ["A", "B", "C", "AA", "BA"]


def test_seed_lines_up_with_mrp_and_qms(svc):
    chair = ok(svc, "search_items", {"number": "ch-erg-05"})[0]
    assert [(ln["item_number"], ln["quantity"]) for ln in chair["bom"]] == list(BOMS["CH-ERG-05"])
    lift = ok(svc, "get_item", {"item_id": "ITM-0011"})
    assert (lift["number"], lift["preferred_supplier"], lift["live_change_ids"]) == (
        "MAT-GASLIFT", SUPPLIERS["MAT-GASLIFT"], ["ECO-0002"])
    assert [c["id"] for c in ok(svc, "search_changes", {"reference": "ncr-0002"})] == ["ECO-0002"]
    assert [u["email"] for u in ok(svc, "list_users")] == [COO, FM, SRE, "michael.harris@company.example"]


def test_reads(svc):
    assert ok(svc, "get_item", {"item_id": "ITM-0001"})["revision"] == "B"
    assert code(svc, "get_item", {"item_id": "ITM-0999"}) == 404
    assert [i["number"] for i in ok(svc, "search_items", {"lifecycle_phase": "Obsolete"})] == ["MAT-CASTOR-40"]
    assert [i["number"] for i in ok(svc, "search_items", {"supplier_name": "great lakes polymers"})] == [
        "MAT-BASE-NYL"]
    assert [i["number"] for i in ok(svc, "search_items", {"name": "lamp", "category": "Purchased Part"})] == [
        "MAT-ALU-ARM"]
    used = ok(svc, "get_item_where_used", {"item_id": "ITM-0016"})
    assert [u["number"] for u in used] == ["KB-MECH-01", "CH-ERG-05", "DK-STD-06", "LP-LED-07"]
    assert [c["id"] for c in ok(svc, "search_changes", {"item_number": "MAT-LED-STRIP"})] == ["ECO-0004"]
    assert [c["id"] for c in ok(svc, "search_changes", {"status": "REJECTED"})] == ["ECO-0005"]
    assert ok(svc, "get_change", {"change_id": "ECO-0001"})["implemented_at"] is not None
    assert code(svc, "get_change", {"change_id": "ECO-0999"}) == 404


def test_production_items_change_only_through_a_change(svc):
    msg = error(svc, "update_item", {"item_id": "ITM-0013", "name": "Grey mesh"})
    assert msg["code"] == 409 and "approved change order" in msg["message"]
    assert code(svc, "add_bom_line", {"item_id": "ITM-0002", "component_number": "MAT-USB-CBL",
                                      "quantity": 1}) == 409
    assert code(svc, "remove_bom_line", {"item_id": "ITM-0002", "line_number": 1}) == 409


def test_design_items_and_bom(svc):
    it = ok(svc, "create_item", {"number": "CH-ERG-05B", "name": "Ergonomic chair, second gen",
                                 "category": "Finished Good"})
    assert (it["id"], it["revision"], it["lifecycle_phase"]) == ("ITM-0021", "-", "In Design")
    assert code(svc, "create_item", {"number": "ch-erg-05b", "name": "dup"}) == 409
    b = ok(svc, "add_bom_line", {"item_id": "ITM-0021", "component_number": "MAT-CASTOR", "quantity": 5})
    assert b["bom"][0] == {"line_number": 1, "item_id": "ITM-0009", "item_number": "MAT-CASTOR", "quantity": 5.0,
                           "ref_des": ""}
    msg = error(svc, "add_bom_line", {"item_id": "ITM-0021", "component_number": "MAT-CASTOR-40", "quantity": 5})
    assert msg["code"] == 422 and "Obsolete" in msg["message"]
    assert code(svc, "add_bom_line", {"item_id": "ITM-0021", "component_number": "MAT-CASTOR", "quantity": 1}) == 409
    assert code(svc, "add_bom_line", {"item_id": "ITM-0021", "component_number": "NOPE-1", "quantity": 1}) == 404
    assert ok(svc, "update_item", {"item_id": "ITM-0021", "lifecycle_phase": "Prototype"})["lifecycle_phase"] == \
        "Prototype"
    assert code(svc, "update_item", {"item_id": "ITM-0021", "lifecycle_phase": "Production"}) == 422
    assert code(svc, "update_item", {"item_id": "ITM-0021"}) == 400
    assert ok(svc, "remove_bom_line", {"item_id": "ITM-0021", "line_number": 1})["bom"] == []
    assert code(svc, "remove_bom_line", {"item_id": "ITM-0021", "line_number": 1}) == 404


def test_sourcing(svc):
    s = ok(svc, "add_item_sourcing", {"item_id": "ITM-0011", "supplier_name": "Stabilus GmbH",
                                      "supplier_part_number": "STB-C4-100", "preferred": True})
    assert [(x["supplier_name"], x["preferred"]) for x in s["sourcing"]] == [
        ("Apex Motion Systems", False), ("Stabilus GmbH", True)]
    assert code(svc, "add_item_sourcing", {"item_id": "ITM-0011", "supplier_name": "stabilus gmbh",
                                           "supplier_part_number": "X-1"}) == 409
    assert code(svc, "add_item_sourcing", {"item_id": "ITM-0001", "supplier_name": "Any Co",
                                           "supplier_part_number": "X-1"}) == 422


def test_change_flow_bumps_revision(svc):
    c = ok(svc, "create_change", {"title": "Castor wall thickness", "description": "Answers NCR-0005: cracked castor.",
                                  "affected_item_ids": ["ITM-0009"],
                                  "approver_emails": [COO, "BEN.FOSTER@company.example"],
                                  "reference": "NCR-0005"})
    assert (c["id"], c["status"], c["affected_items"][0]["new_revision"]) == ("ECO-0007", "OPEN", "B")
    assert code(svc, "create_change", {"title": "again", "description": "dup",
                                       "affected_item_ids": ["ITM-0009"]}) == 409
    assert code(svc, "create_change", {"title": "xyz", "description": "xyz", "affected_item_ids": ["ITM-0007"],
                                       "approver_emails": ["amy.perry@company.example"]}) == 422
    assert code(svc, "decide_change", {"change_id": "ECO-0007", "approver_email": COO, "decision": "APPROVED"}) == 409
    assert ok(svc, "submit_change", {"change_id": "ECO-0007"})["status"] == "SUBMITTED"
    assert code(svc, "implement_change", {"change_id": "ECO-0007"}) == 409  # not all approved
    assert ok(svc, "decide_change", {"change_id": "ECO-0007", "approver_email": COO, "decision": "APPROVED"})[
        "status"] == "SUBMITTED"
    assert code(svc, "decide_change", {"change_id": "ECO-0007", "approver_email": COO, "decision": "APPROVED"}) == 409
    assert code(svc, "decide_change", {"change_id": "ECO-0007", "approver_email": FM, "decision": "APPROVED"}) == 422
    assert ok(svc, "decide_change", {"change_id": "ECO-0007", "approver_email": SRE, "decision": "APPROVED"})[
        "status"] == "APPROVED"
    done = ok(svc, "implement_change", {"change_id": "ECO-0007"})
    assert done["status"] == "IMPLEMENTED" and ok(svc, "get_item", {"item_id": "ITM-0009"})["revision"] == "B"
    assert code(svc, "cancel_change", {"change_id": "ECO-0007"}) == 409


def test_reject_cancel_obsolete(svc):
    assert ok(svc, "decide_change", {"change_id": "ECO-0002", "approver_email": FM, "decision": "REJECTED",
                                     "comment": "No PPAP yet"})["status"] == "REJECTED"
    assert code(svc, "submit_change", {"change_id": "ECO-0002"}) == 409
    ob = ok(svc, "create_change", {"title": "Obsolete the lamp arm", "description": "End of life.",
                                   "affected_item_ids": ["ITM-0005"], "approver_emails": [SRE],
                                   "new_lifecycle_phase": "Obsolete"})
    assert ob["category"] == "Obsolescence"
    ok(svc, "submit_change", {"change_id": ob["id"]})
    ok(svc, "decide_change", {"change_id": ob["id"], "approver_email": SRE, "decision": "APPROVED"})
    ok(svc, "implement_change", {"change_id": ob["id"]})
    assert ok(svc, "get_item", {"item_id": "ITM-0005"})["lifecycle_phase"] == "Obsolete"
    empty = ok(svc, "create_change", {"title": "No routing", "description": "abc", "affected_item_ids": ["ITM-0007"]})
    assert code(svc, "submit_change", {"change_id": empty["id"]}) == 422
    assert ok(svc, "cancel_change", {"change_id": empty["id"]})["status"] == "CANCELED"
    assert ok(svc, "implement_change", {"change_id": "ECO-0004"})["status"] == "IMPLEMENTED"


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("implement_change", {"change_id": "ECO-0002"})["success"] is False
    assert svc.state_dict() == before
    assert make_service(ProductLifecycle, seed=5).state_dict() == make_service(ProductLifecycle, seed=5).state_dict()
