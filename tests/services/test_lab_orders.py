"""Tests of the lab orders service (Health Gorilla-style FHIR ServiceRequest / Specimen / Observation)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.lab_orders import LabOrders


@pytest.fixture
def svc(make_service):
    return make_service(LabOrders)


def test_compendium_and_search(svc):
    tests = {t["code"]: t for t in ok(svc, "list_lab_tests")}
    assert [a["code"] for a in tests["57698-3"]["analytes"]] == ["2093-3", "13457-7", "2085-9", "2571-8"]
    assert tests["58410-2"]["analytes"][0]["female"] == [12.0, 15.5]
    assert [o["id"] for o in ok(svc, "search_lab_orders", {"status": "active"})] == ["LAB-0005", "LAB-0006", "LAB-0011"]
    assert [o["id"] for o in ok(svc, "search_lab_orders", {"patient_id": "PAT-0006"})] == ["LAB-0002"]
    assert len(ok(svc, "search_lab_orders", {"requester_id": "PRA-0004"})) == 2
    assert ok(svc, "search_lab_orders", {"appointment_id": "APT-0001"}) == []
    assert code(svc, "search_lab_orders", {"status": "cancelled"}) == 400


def test_get_order_and_results(svc):
    o = ok(svc, "get_lab_order", {"lab_order_id": "LAB-0005"})
    assert (o["status"], o["priority"], o["specimens_needed"], o["pending_analytes"]) == (
        "active", "urgent", ["serum"], ["2160-0", "1742-6"])
    assert [(r["code"], r["interpretation"]) for r in o["results"]] == [("2345-7", "H"), ("2951-2", "N"), ("2823-3", "H")]
    assert o["report"]["status"] == "preliminary"
    flagged = ok(svc, "list_lab_results", {"patient_id": "PAT-0006", "abnormal_only": True})
    assert [(r["id"], r["value"], r["interpretation"]) for r in flagged] == [
        ("OBS-0002", 251.0, "H"), ("OBS-0003", 178.0, "H"), ("OBS-0004", 38.0, "L"), ("OBS-0005", 175.0, "H")]
    assert [r["id"] for r in ok(svc, "list_lab_results", {"lab_order_id": "LAB-0009", "abnormal_only": True})] == []
    assert [r["id"] for r in ok(svc, "list_lab_results", {"code": "3016-3"})] == ["OBS-0007"]
    r = ok(svc, "get_lab_result", {"lab_result_id": "OBS-0015"})  # a girl's hemoglobin: female range
    assert (r["value"], r["reference_low"], r["reference_high"], r["interpretation"], r["status"]) == (
        10.9, 12.0, 15.5, "L", "final")
    assert r["requester_email"] == "naomi.fischer@riversidehealth.example"
    assert code(svc, "get_lab_result", {"lab_result_id": "OBS-0999"}) == 404
    assert code(svc, "get_lab_order", {"lab_order_id": "LAB-0999"}) == 404


def test_order_lifecycle(svc):
    o = ok(svc, "create_lab_order", {"patient_id": "PAT-0006", "requester_id": "PRA-0004", "test_codes": ["57698-3"],
                                     "priority": "routine", "reason_code": "E78.5", "appointment_id": "APT-0003"})
    assert (o["id"], o["status"], o["requester_email"], o["performer"]) == (
        "LAB-0012", "draft", "samuel.adeyemi@riversidehealth.example", "Quest Diagnostics")
    assert code(svc, "collect_specimen", {"lab_order_id": "LAB-0012", "specimen_type": "serum"}) == 409  # draft
    assert ok(svc, "activate_lab_order", {"lab_order_id": "LAB-0012"})["status"] == "active"
    assert code(svc, "activate_lab_order", {"lab_order_id": "LAB-0012"}) == 409
    assert [o["id"] for o in ok(svc, "search_lab_orders", {"appointment_id": "APT-0003"})] == ["LAB-0012"]
    bad = {"patient_id": "PAT-0006", "requester_id": "PRA-0004"}
    assert code(svc, "create_lab_order", bad | {"test_codes": ["99999-9"]}) == 422
    assert code(svc, "create_lab_order", bad | {"test_codes": ["3016-3", "3016-3"]}) == 422
    assert code(svc, "create_lab_order", bad | {"test_codes": ["3016-3"], "requester_id": "PRA-0042"}) == 404
    assert code(svc, "create_lab_order", bad | {"test_codes": ["3016-3"], "patient_id": "PAT-0999"}) == 404
    assert code(svc, "create_lab_order", bad | {"test_codes": ["3016-3"], "priority": "soon"}) == 400


def test_results_only_for_collected_specimens(svc):
    msg = error(svc, "record_lab_result", {"lab_order_id": "LAB-0006", "code": "718-7", "value": 13.1})
    assert msg["code"] == 422 and "only for collected specimens" in msg["message"]
    assert code(svc, "collect_specimen", {"lab_order_id": "LAB-0006", "specimen_type": "serum"}) == 422  # CBC: blood
    assert code(svc, "collect_specimen", {"lab_order_id": "LAB-0006", "specimen_type": "whole blood",
                                          "collector": "Nobody"}) == 404
    spc = ok(svc, "collect_specimen", {"lab_order_id": "LAB-0006", "specimen_type": "whole blood"})
    assert (spc["id"], spc["container"], spc["collected_at"], spc["collector"]) == (
        "SPC-0010", "EDTA (lavender top)", "2026-01-15T09:00:00", "Luis Moreno, CPT")
    assert code(svc, "collect_specimen", {"lab_order_id": "LAB-0006", "specimen_type": "whole blood"}) == 409
    r = ok(svc, "record_lab_result", {"lab_order_id": "LAB-0006", "code": "718-7", "value": 11.2})
    assert (r["id"], r["reference_low"], r["interpretation"], r["status"], r["specimen_id"]) == (
        "OBS-0017", 12.0, "L", "preliminary", "SPC-0010")  # Olivia Bennett: female range
    assert ok(svc, "get_lab_order", {"lab_order_id": "LAB-0006"})["report"]["result_ids"] == ["OBS-0017"]
    assert code(svc, "record_lab_result", {"lab_order_id": "LAB-0006", "code": "718-7", "value": 12}) == 409
    assert code(svc, "record_lab_result", {"lab_order_id": "LAB-0006", "code": "2345-7", "value": 90}) == 422
    assert code(svc, "record_lab_result", {"lab_order_id": "LAB-0007", "code": "3016-3", "value": 2}) == 409  # draft
    assert code(svc, "record_lab_result", {"lab_order_id": "LAB-0006", "code": "6690-2", "value": -1}) == 400


def test_flags_and_release(svc):
    assert ok(svc, "record_lab_result", {"lab_order_id": "LAB-0005", "code": "2160-0", "value": 1.2}
              )["interpretation"] == "N"  # Henry Caldwell: male range 0.7-1.3
    msg = error(svc, "release_report", {"lab_order_id": "LAB-0005", "conclusion": "CKD stage 3"})
    assert msg["code"] == 422 and "1742-6" in msg["message"]
    assert ok(svc, "record_lab_result", {"lab_order_id": "LAB-0005", "code": "1742-6", "value": 80}
              )["interpretation"] == "H"
    rep = ok(svc, "release_report", {"lab_order_id": "LAB-0005", "conclusion": "Hyperkalemia; repeat potassium."})
    assert (rep["id"], rep["status"], len(rep["result_ids"])) == ("RPT-0005", "final", 5)
    o = ok(svc, "get_lab_order", {"lab_order_id": "LAB-0005"})
    assert (o["status"], o["completed_on"]) == ("completed", "2026-01-15")
    assert {r["status"] for r in o["results"]} == {"final"}
    assert code(svc, "record_lab_result", {"lab_order_id": "LAB-0005", "code": "2160-0", "value": 1}) == 409
    assert code(svc, "release_report", {"lab_order_id": "LAB-0005", "conclusion": "again"}) == 409


def test_critical_values_and_corrections(svc):
    ok(svc, "collect_specimen", {"lab_order_id": "LAB-0006", "specimen_type": "whole blood"})
    assert ok(svc, "record_lab_result", {"lab_order_id": "LAB-0006", "code": "6690-2", "value": 35}
              )["interpretation"] == "HH"
    fixed = ok(svc, "correct_lab_result", {"lab_result_id": "OBS-0017", "value": 9.5, "reason": "Clotted sample re-run"})
    assert (fixed["value"], fixed["interpretation"], fixed["status"], fixed["note"]) == (
        9.5, "N", "corrected", "Corrected from 35.0: Clotted sample re-run")
    k = ok(svc, "correct_lab_result", {"lab_result_id": "OBS-0010", "value": 6.5, "reason": "Recalibrated analyzer"})
    assert k["interpretation"] == "HH"
    assert code(svc, "correct_lab_result", {"lab_result_id": "OBS-0010", "value": 6.5, "reason": "same"}) == 409
    done = ok(svc, "correct_lab_result", {"lab_result_id": "OBS-0001", "value": 8.1, "reason": "Transcription"})
    assert (done["status"], done["interpretation"]) == ("corrected", "H")  # a completed order's result


def test_revoke_rules_and_notes(svc):
    msg = error(svc, "revoke_lab_order", {"lab_order_id": "LAB-0001", "reason": "not needed"})
    assert msg["code"] == 409 and "completed" in msg["message"]
    o = ok(svc, "revoke_lab_order", {"lab_order_id": "LAB-0007", "reason": "Patient declined"})
    assert (o["status"], o["revoked_reason"]) == ("revoked", "Patient declined")
    assert code(svc, "revoke_lab_order", {"lab_order_id": "LAB-0008", "reason": "again"}) == 409
    assert ok(svc, "revoke_lab_order", {"lab_order_id": "LAB-0011", "reason": "Drawn at an outside lab"}
              )["status"] == "revoked"
    assert code(svc, "correct_lab_result", {"lab_result_id": "OBS-0001", "value": 1, "reason": "x"}) == 400
    assert ok(svc, "add_lab_order_note", {"lab_order_id": "LAB-0008", "note": "Outside result scanned"})["notes"] == [
        "Outside result scanned"]


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("release_report", {"lab_order_id": "LAB-0011", "conclusion": "n/a"})["success"] is False
    assert svc.state_dict() == before
    assert make_service(LabOrders, seed=5).state_dict() == make_service(LabOrders, seed=5).state_dict()
