"""Tests of the quality_management service (ETQ Reliance / Qualio style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.manufacturing import Manufacturing
from compoworld_gym.envs.services.quality_management import QualityManagement

RENEE, SAM, LINA = "renee.alvarado@company.example", "samuel.okoye@company.example", "lina.park@company.example"
NEW = {"title": "Keycaps misprinted legends", "source": "incoming_inspection", "sku": "mat-cap-set",
       "lot_number": "lot-2601-77", "quantity_affected": 12, "severity": "minor", "reported_by": LINA}


@pytest.fixture
def svc(make_service):
    return make_service(QualityManagement)


def test_parts_and_mos_line_up_with_manufacturing(make_service, svc):
    mrp = make_service(Manufacturing)
    parts = {p["sku"]: p for p in ok(svc, "list_parts")}
    assert {s: (i.name, i.unit_cost) for s, i in mrp.state.items.items()} == {
        s: (p["name"], p["unit_cost"]) for s, p in parts.items()}
    for n in ok(svc, "list_ncrs", {"limit": 200}):
        mo = n["manufacturing_order_id"]
        if mo is not None:
            assert mrp.state.orders[mo].sku == n["sku"] or n["sku"] in [
                i.material_sku for i in mrp.state.orders[mo].ingredients]


def test_reads(svc):
    assert [u["name"] for u in ok(svc, "list_quality_users", {"mrb_member": True})] == [
        "Renee Alvarado", "Samuel Okoye", "Diego Marin", "Hannah Cole"]
    assert [p["sku"] for p in ok(svc, "list_parts", {"supplier": "apex motion systems"})] == [
        "MAT-GASLIFT", "MAT-CASTOR", "MAT-MOTOR-DC", "MAT-CTRL-BOX"]
    assert len(ok(svc, "list_parts", {"kind": "product"})) == 5
    assert code(svc, "list_parts", {"kind": "service"}) == 400
    assert [n["id"] for n in ok(svc, "list_ncrs", {"open_only": True})] == [
        "NCR-0004", "NCR-0003", "NCR-0007", "NCR-0002", "NCR-0005"]
    assert [n["id"] for n in ok(svc, "list_ncrs", {"sku": "mat-gaslift"})] == ["NCR-0002"]
    assert [n["id"] for n in ok(svc, "list_ncrs", {"manufacturing_order_id": "MO-0004"})] == ["NCR-0007"]
    assert [n["id"] for n in ok(svc, "list_ncrs", {"supplier": "Carolina Textile Mills"})] == ["NCR-0003"]
    assert [n["id"] for n in ok(svc, "list_ncrs", {"owner_email": LINA, "status": "closed"})] == ["NCR-0008"]
    assert [n["id"] for n in ok(svc, "list_ncrs", {"severity": "critical"})] == ["NCR-0002"]
    n = ok(svc, "get_ncr", {"ncr_id": "NCR-0005"})
    assert (n["cost"], n["disposition"], n["capas"]) == (263.0, "scrap", [{"id": "CAPA-0003",
                                                                          "status": "pending_verification"}])
    assert code(svc, "get_ncr", {"ncr_id": "NCR-0999"}) == 404
    assert [(c["id"], c["status"]) for c in ok(svc, "list_capas", {"overdue": True})] == [("CAPA-0002", "in_progress")]
    assert [c["id"] for c in ok(svc, "list_capas", {"owner_email": SAM})] == ["CAPA-0001", "CAPA-0003"]
    assert [c["id"] for c in ok(svc, "list_capas", {"ncr_id": "NCR-0007"})] == ["CAPA-0004"]
    assert ok(svc, "get_capa", {"capa_id": "CAPA-0005"})["effectiveness_checks"][0]["result"] == "not_effective"
    assert code(svc, "get_capa", {"capa_id": "CAPA-0999"}) == 404


def test_ncr_lifecycle(svc):
    n = ok(svc, "create_ncr", NEW)
    assert (n["id"], n["sku"], n["lot_number"], n["status"], n["cost"], n["supplier"]) == (
        "NCR-0009", "MAT-CAP-SET", "LOT-2601-77", "open", 81.6, "Shenzhen Keytech Components")
    assert ok(svc, "create_ncr", {**NEW, "cost": 250})["cost"] == 250.0
    assert code(svc, "create_ncr", {**NEW, "sku": "NOPE-1"}) == 404
    assert code(svc, "create_ncr", {**NEW, "reported_by": "paul.brandt@company.example"}) == 409  # inactive
    assert code(svc, "create_ncr", {**NEW, "quantity_affected": 0}) == 400
    assert code(svc, "set_disposition", {"ncr_id": "NCR-0009", "disposition": "rework", "notes": "x" * 5}) == 409
    assert ok(svc, "start_investigation", {"ncr_id": "NCR-0009", "owner_email": LINA})["status"] == "investigation"
    assert code(svc, "start_investigation", {"ncr_id": "NCR-0009", "owner_email": LINA}) == 409
    msg = error(svc, "close_ncr", {"ncr_id": "NCR-0009"})
    assert msg["code"] == 422 and "closes only once it is dispositioned" in msg["message"]
    d = ok(svc, "set_disposition", {"ncr_id": "NCR-0009", "disposition": "return_to_vendor",
                                    "notes": "Supplier reprints the caps."})
    assert (d["status"], d["disposition_approved_by"]) == ("dispositioned", LINA)  # minor: the owner approves
    assert ok(svc, "add_ncr_comment", {"ncr_id": "NCR-0009", "comment": "RMA 5521 issued."})["comments"] == [
        "RMA 5521 issued."]
    c = ok(svc, "close_ncr", {"ncr_id": "NCR-0009"})
    assert (c["status"], c["closed_on"]) == ("closed", "2026-01-15")
    assert code(svc, "close_ncr", {"ncr_id": "NCR-0009"}) == 409
    assert code(svc, "add_ncr_comment", {"ncr_id": "NCR-0009", "comment": "late"}) == 409


def test_disposition_rules(svc):
    base = {"notes": "Board review."}
    msg = error(svc, "set_disposition", {**base, "ncr_id": "NCR-0003", "disposition": "use_as_is",
                                         "approved_by": "nobody@company.example"})
    assert msg["code"] == 404
    ok(svc, "start_investigation", {"ncr_id": "NCR-0004", "owner_email": LINA})  # major, Lina is off the board
    msg = error(svc, "set_disposition", {**base, "ncr_id": "NCR-0004", "disposition": "scrap"})
    assert msg["code"] == 422 and "material review board member" in msg["message"]
    assert ok(svc, "set_disposition", {**base, "ncr_id": "NCR-0004", "disposition": "scrap",
                                       "approved_by": RENEE})["disposition_approved_by"] == RENEE
    ok(svc, "create_ncr", {**NEW, "sku": "CH-ERG-05", "severity": "critical"})
    ok(svc, "start_investigation", {"ncr_id": "NCR-0009", "owner_email": SAM})
    msg = error(svc, "set_disposition", {**base, "ncr_id": "NCR-0009", "disposition": "return_to_vendor"})
    assert msg["code"] == 422 and "names no supplier" in msg["message"]
    msg = error(svc, "set_disposition", {**base, "ncr_id": "NCR-0009", "disposition": "use_as_is"})
    assert msg["code"] == 422 and "cannot be used as is" in msg["message"]
    ok(svc, "set_disposition", {**base, "ncr_id": "NCR-0009", "disposition": "rework"})
    msg = error(svc, "close_ncr", {"ncr_id": "NCR-0009"})
    assert msg["code"] == 422 and "open a CAPA" in msg["message"]
    assert ok(svc, "create_capa", {"title": "Castor housing", "problem_statement": "Cracked castors.",
                                   "owner_email": SAM, "ncr_ids": ["NCR-0009"]})["due_date"] == "2026-01-29"
    assert ok(svc, "close_ncr", {"ncr_id": "NCR-0009"})["status"] == "closed"


def test_void(svc):
    assert ok(svc, "void_ncr", {"ncr_id": "NCR-0004", "reason": "Raised twice."})["status"] == "void"
    assert code(svc, "void_ncr", {"ncr_id": "NCR-0004", "reason": "again"}) == 409
    assert code(svc, "void_ncr", {"ncr_id": "NCR-0002", "reason": "too late"}) == 409  # dispositioned
    assert code(svc, "create_capa", {"title": "Void one", "problem_statement": "Nothing.", "owner_email": SAM,
                                     "ncr_ids": ["NCR-0004"]}) == 409
    assert code(svc, "link_ncr_to_capa", {"capa_id": "CAPA-0004", "ncr_id": "NCR-0004"}) == 409


def test_create_and_link_capa(svc):
    c = ok(svc, "create_capa", {"title": "Mesh colour control", "problem_statement": "Shade drift on mesh lots.",
                                "owner_email": LINA, "ncr_ids": ["NCR-0003"]})
    assert (c["id"], c["status"], c["due_date"], c["overdue"]) == ("CAPA-0006", "open", "2026-03-16", False)
    assert ok(svc, "get_ncr", {"ncr_id": "NCR-0003"})["capa_ids"] == ["CAPA-0006"]
    p = ok(svc, "create_capa", {"title": "Preventive supplier audits", "problem_statement": "No audit schedule.",
                                "owner_email": RENEE, "type": "preventive", "due_date": "2026-02-01"})
    assert (p["ncr_ids"], p["due_date"]) == ([], "2026-02-01")
    assert code(svc, "create_capa", {"title": "No NCR", "problem_statement": "Nothing.", "owner_email": SAM}) == 400
    msg = error(svc, "create_capa", {"title": "Past due", "problem_statement": "Late.", "owner_email": SAM,
                                     "ncr_ids": ["NCR-0003"], "due_date": "2026-01-15"})
    assert msg["code"] == 422 and "not after today" in msg["message"]
    assert code(svc, "create_capa", {"title": "Nobody", "problem_statement": "Who owns it?", "owner_email": "x@y.example",
                                     "ncr_ids": ["NCR-0003"]}) == 404
    assert ok(svc, "link_ncr_to_capa", {"capa_id": "CAPA-0006", "ncr_id": "NCR-0004"})["ncr_ids"] == [
        "NCR-0003", "NCR-0004"]
    assert code(svc, "link_ncr_to_capa", {"capa_id": "CAPA-0006", "ncr_id": "NCR-0004"}) == 409
    assert code(svc, "link_ncr_to_capa", {"capa_id": "CAPA-0003", "ncr_id": "NCR-0004"}) == 409  # verifying


def test_capa_workflow_needs_an_effective_check(svc):
    msg = error(svc, "complete_capa_actions", {"capa_id": "CAPA-0004"})
    assert msg["code"] == 409  # open: plan first
    ok(svc, "update_capa_plan", {"capa_id": "CAPA-0004", "root_cause": "No incoming noise test.",
                                 "action_plan": "Add a 50 dB test to receiving."})
    assert ok(svc, "complete_capa_actions", {"capa_id": "CAPA-0004"})["status"] == "pending_verification"
    msg = error(svc, "close_capa", {"capa_id": "CAPA-0004"})
    assert msg["code"] == 422 and "closes only after its effectiveness check" in msg["message"]
    msg = error(svc, "record_effectiveness_check", {"capa_id": "CAPA-0004", "result": "effective",
                                                    "checked_by": "hannah.cole@company.example", "notes": "Mine."})
    assert msg["code"] == 422 and "verified by someone else" in msg["message"]
    back = ok(svc, "record_effectiveness_check", {"capa_id": "CAPA-0004", "result": "not_effective",
                                                  "checked_by": RENEE, "notes": "Noisy motors still passed."})
    assert (back["status"], back["actions_completed_on"]) == ("in_progress", None)
    assert code(svc, "record_effectiveness_check", {"capa_id": "CAPA-0004", "result": "effective",
                                                    "checked_by": RENEE, "notes": "again"}) == 409
    ok(svc, "complete_capa_actions", {"capa_id": "CAPA-0004"})
    assert code(svc, "close_capa", {"capa_id": "CAPA-0004"}) == 422  # the latest check is not effective
    ok(svc, "record_effectiveness_check", {"capa_id": "CAPA-0004", "result": "effective", "checked_by": RENEE,
                                           "notes": "Three lots clean."})
    done = ok(svc, "close_capa", {"capa_id": "CAPA-0004"})
    assert (done["status"], done["closed_on"], len(done["effectiveness_checks"])) == ("closed", "2026-01-15", 2)
    assert code(svc, "close_capa", {"capa_id": "CAPA-0004"}) == 409
    assert code(svc, "update_capa_plan", {"capa_id": "CAPA-0001", "root_cause": "later",
                                          "action_plan": "later"}) == 409


def test_extend_due_date(svc):
    e = ok(svc, "extend_capa_due_date", {"capa_id": "CAPA-0002", "due_date": "2026-02-10",
                                         "reason": "Supplier retest slot."})
    assert (e["due_date"], e["overdue"], e["extensions"]) == ("2026-02-10", False,
                                                              ["2026-01-13 -> 2026-02-10: Supplier retest slot."])
    assert code(svc, "extend_capa_due_date", {"capa_id": "CAPA-0002", "due_date": "2026-02-01",
                                              "reason": "earlier"}) == 400
    assert code(svc, "extend_capa_due_date", {"capa_id": "CAPA-0003", "due_date": "2026-01-14",
                                              "reason": "past"}) == 422
    assert code(svc, "extend_capa_due_date", {"capa_id": "CAPA-0001", "due_date": "2026-03-01",
                                              "reason": "closed"}) == 409


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("close_capa", {"capa_id": "CAPA-0003"})["success"] is False
    assert svc.call("close_ncr", {"ncr_id": "NCR-0002"})["success"] is True  # critical with a CAPA
    svc2 = make_service(QualityManagement)
    assert svc2.call("set_disposition", {"ncr_id": "NCR-0003", "disposition": "rework", "notes": "Board.",
                                         "approved_by": "paul.brandt@company.example"})["success"] is False
    assert svc2.state_dict() == before
    assert make_service(QualityManagement, seed=4).state_dict() == make_service(QualityManagement, seed=4).state_dict()
