"""Tests of the status_page service."""

from __future__ import annotations

import pytest
from _svc_asserts import data, failed

from compoworld_gym.envs.services._engineering import APPS
from compoworld_gym.envs.services.status_page import StatusPage

ME = "ben.foster@company.example"


@pytest.fixture
def svc(make_service):
    return make_service(StatusPage, seed=0)


def test_seed(make_service):
    a = make_service(StatusPage, seed=9)
    assert a.state_dict() == make_service(StatusPage, seed=9).state_dict()
    assert [(c.name, c.service) for c in a.state.components.values()] == [(x.component, x.key) for x in APPS]
    open_incs = [i for i in a.state.incidents.values() if i.status != "resolved"]
    assert len(open_incs) == 1 and a.state.components[open_incs[0].component_ids[0]].status == "partial_outage"
    assert len(StatusPage.tools) == 14


def test_summary_and_reads(svc):
    summary = data(svc.call("get_page_summary", {}))
    assert summary["indicator"] == "major"  # one component in partial_outage
    assert [i["id"] for i in summary["unresolved_incidents"]] == ["SPI-0004"]
    assert [m["id"] for m in summary["upcoming_maintenances"]] == ["MNT-0001"]
    broken = data(svc.call("list_components", {"status": "partial_outage"}))
    assert broken == [c.model_dump() for c in svc.state.components.values() if c.status == "partial_outage"]
    assert [i["id"] for i in data(svc.call("list_status_incidents", {"unresolved_only": True}))] == ["SPI-0004"]
    assert len(data(svc.call("list_status_incidents", {"status": "resolved"}))) == 3
    inc = data(svc.call("get_status_incident", {"incident_id": "SPI-0004"}))
    assert [u["status"] for u in inc["updates"]] == ["investigating", "identified"]
    failed(svc.call("get_status_incident", {"incident_id": "SPI-0999"}), 404)
    assert data(svc.call("list_maintenances", {"status": "completed"})) == []


def test_incident_lifecycle(svc):
    failed(svc.call("create_status_incident", {"name": "x", "body": "y", "author_email": ME,
                                            "component_ids": ["CPT-0099"]}), 404)
    failed(svc.call("create_status_incident", {"name": "x", "body": "y", "author_email": ME,
                                            "component_status": "under_maintenance"}), 400)
    inc = data(svc.call("create_status_incident", {"name": "Checkout errors", "body": "Investigating.",
                                                 "author_email": ME, "impact": "major", "component_ids": ["CPT-0001"],
                                                 "component_status": "major_outage",
                                                 "linked_incident_id": "INC-0003"}))
    assert inc["id"] == "SPI-0005" and inc["notified_subscribers"] == len(
        data(svc.call("list_subscribers", {"component_id": "CPT-0001"})))
    assert svc.state.components["CPT-0001"].status == "major_outage"
    assert data(svc.call("get_page_summary", {}))["indicator"] == "critical"
    failed(svc.call("create_status_incident", {"name": "dup", "body": "y", "author_email": ME,
                                            "linked_incident_id": "INC-0003"}), 409)
    up = data(svc.call("post_incident_update", {"incident_id": "SPI-0005", "status": "monitoring",
                                              "body": "Fix deployed.", "author_email": ME,
                                              "component_status": "degraded_performance"}))
    assert up["status"] == "monitoring" and svc.state.components["CPT-0001"].status == "degraded_performance"
    data(svc.call("post_incident_update", {"incident_id": "SPI-0005", "status": "resolved", "body": "All good.",
                                         "author_email": ME}))
    assert svc.state.components["CPT-0001"].status == "operational"
    assert svc.state.incidents["SPI-0005"].resolved_at is not None
    before = svc.state_dict()
    failed(svc.call("post_incident_update", {"incident_id": "SPI-0005", "status": "identified", "body": "x",
                                          "author_email": ME}), 409)
    assert svc.state_dict() == before


def test_shared_component_stays_down_until_last_incident_resolves(svc):
    cid = svc.state.incidents["SPI-0004"].component_ids[0]
    data(svc.call("create_status_incident", {"name": "Second", "body": "b", "author_email": ME,
                                           "component_ids": [cid], "component_status": "partial_outage"}))
    data(svc.call("post_incident_update", {"incident_id": "SPI-0005", "status": "resolved", "body": "ok",
                                         "author_email": ME}))
    assert svc.state.components[cid].status == "partial_outage"  # SPI-0004 still open
    data(svc.call("post_incident_update", {"incident_id": "SPI-0004", "status": "resolved", "body": "ok",
                                         "author_email": ME}))
    assert svc.state.components[cid].status == "operational"
    assert data(svc.call("update_component_status", {"component_id": cid, "status": "degraded_performance"}))[
        "status"] == "degraded_performance"
    failed(svc.call("update_component_status", {"component_id": cid, "status": "degraded_performance"}), 409)
    failed(svc.call("update_component_status", {"component_id": cid, "status": "broken"}), 400)


def test_maintenance(svc):
    failed(svc.call("schedule_maintenance", {"name": "m", "component_ids": ["CPT-0002"],
                                          "scheduled_for": "2026-01-10T22:00:00",
                                          "scheduled_until": "2026-01-10T23:00:00", "body": "b",
                                          "author_email": ME}), 422)
    failed(svc.call("schedule_maintenance", {"name": "m", "component_ids": ["CPT-0002"],
                                          "scheduled_for": "2026-01-20T22:00:00",
                                          "scheduled_until": "2026-01-20T21:00:00", "body": "b",
                                          "author_email": ME}), 422)
    m = data(svc.call("schedule_maintenance", {"name": "Payments DB", "component_ids": ["CPT-0002"],
                                             "scheduled_for": "2026-01-20T22:00:00",
                                             "scheduled_until": "2026-01-20T23:30:00", "body": "Upgrade",
                                             "author_email": ME}))
    assert (m["id"], m["status"]) == ("MNT-0002", "scheduled")
    failed(svc.call("update_maintenance", {"maintenance_id": "MNT-0002", "status": "completed"}), 409)
    data(svc.call("update_maintenance", {"maintenance_id": "MNT-0002", "status": "in_progress"}))
    assert svc.state.components["CPT-0002"].status == "under_maintenance"
    assert data(svc.call("get_page_summary", {}))["indicator"] == "major"  # the open incident outranks maintenance
    failed(svc.call("cancel_maintenance", {"maintenance_id": "MNT-0002"}), 409)
    data(svc.call("update_maintenance", {"maintenance_id": "MNT-0002", "status": "completed"}))
    assert svc.state.components["CPT-0002"].status == "operational"
    assert data(svc.call("cancel_maintenance", {"maintenance_id": "MNT-0001"}))["status"] == "canceled"
    failed(svc.call("update_maintenance", {"maintenance_id": "MNT-0404", "status": "in_progress"}), 404)


def test_subscribers(svc):
    n = len(data(svc.call("list_subscribers", {})))
    assert n == 10
    s = data(svc.call("add_subscriber", {"email": "ops@globex.example", "component_ids": ["CPT-0001"]}))
    assert s == {"email": "ops@globex.example", "component_ids": ["CPT-0001"], "created_on": "2026-01-15"}
    failed(svc.call("add_subscriber", {"email": "OPS@globex.example"}), 409)
    failed(svc.call("add_subscriber", {"email": "a@b.co", "component_ids": ["CPT-0404"]}), 404)
    assert "ops@globex.example" in {x["email"] for x in data(svc.call("list_subscribers", {"component_id": "CPT-0001"}))}
    assert "ops@globex.example" not in {
        x["email"] for x in data(svc.call("list_subscribers", {"component_id": "CPT-0002"}))}
    data(svc.call("remove_subscriber", {"email": "ops@globex.example"}))
    failed(svc.call("remove_subscriber", {"email": "ops@globex.example"}), 404)
