"""Tests of the error tracking service (Sentry Web API style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, ok

from compoworld_gym.envs.services._commerce import CUSTOMERS_BY_EMAIL
from compoworld_gym.envs.services._error_tracking_rules import base36, newer, short_id
from compoworld_gym.envs.services.error_tracking import ErrorTracking

RACHEL = "rachel.adeyemi@company.example"


@pytest.fixture
def svc(make_service):
    return make_service(ErrorTracking)


def test_rules():
    assert (base36(0), base36(35), base36(36), base36(211)) == ("0", "Z", "10", "5V")
    assert short_id("checkout-api", 211) == "CHECKOUT-API-5V"
    assert newer("a@2.10.0", "a@2.9.3") and not newer("a@2.9.3", "a@2.10.0") and newer("a@1.0.0", None)


def test_reads(svc):
    assert len(ok(svc, "list_organization_members")) == 10
    assert [p["id"] for p in ok(svc, "list_projects", {"team": "payments"})] == ["checkout-api", "payments-service"]
    p = ok(svc, "get_project", {"project_id": "checkout-api"})
    assert (p["repository"], p["latest_release"], p["unresolved_issues"]) == (
        "acme/checkout-api", "checkout-api@3.14.2", 2)
    assert [i["id"] for i in ok(svc, "list_project_issues", {"project_id": "checkout-api"})] == [
        "CHECKOUT-API-5O", "CHECKOUT-API-5P"]
    assert [i["id"] for i in ok(svc, "list_project_issues", {"project_id": "web-frontend", "status": "ignored"})] == [
        "WEB-FRONTEND-1O"]
    assert [i["id"] for i in ok(svc, "list_project_issues", {"project_id": "checkout-api", "query": "gateway",
                                                             "assigned_to": RACHEL})] == ["CHECKOUT-API-5P"]
    i = ok(svc, "get_issue", {"issue_id": "checkout-api-5o"})
    assert (i["repository"], i["latest_event"]["user_email"], i["last_release"]) == (
        "acme/checkout-api", "noah.thompson@outlook.com", "checkout-api@3.14.2")
    assert i["latest_event"]["user_email"] in CUSTOMERS_BY_EMAIL
    assert [e["id"] for e in ok(svc, "list_issue_events", {"issue_id": "CHECKOUT-API-5O"})] == ["EVT-0002", "EVT-0001"]
    assert ok(svc, "get_latest_event", {"issue_id": "CHECKOUT-API-5P"})["user_email"] == "liam.patel@gmail.com"
    assert [e["issue_id"] for e in ok(svc, "list_events", {"user_email": "Olivia.Martinez@gmail.com"})][-1] == \
        "CHECKOUT-API-5O"
    assert [e["id"] for e in ok(svc, "list_events", {"release": "checkout-api@3.13.0"})] == ["EVT-0003", "EVT-0001"]
    assert [r["id"] for r in ok(svc, "list_releases", {"project_id": "checkout-api"})] == [
        "checkout-api@3.14.2", "checkout-api@3.13.0", "checkout-api@3.12.3"]
    assert ok(svc, "get_release", {"version": "checkout-api@3.13.0"})["new_issues"] == ["CHECKOUT-API-5O",
                                                                                        "CHECKOUT-API-5P"]
    assert [n["id"] for n in ok(svc, "list_notes", {"issue_id": "CHECKOUT-API-5O"})] == ["NOTE-0001"]
    assert code(svc, "get_issue", {"issue_id": "CHECKOUT-API-ZZ"}) == 404
    assert code(svc, "list_events") == 400
    assert code(svc, "get_project", {"project_id": "nope"}) == 404


def test_resolve_and_ignore(svc):
    r = ok(svc, "update_issue", {"issue_id": "CHECKOUT-API-5O", "status": "resolved", "in_next_release": True})
    assert (r["status"], r["status_details"]["in_next_release"]) == ("resolved", True)
    assert code(svc, "update_issue", {"issue_id": "CHECKOUT-API-5O", "status": "resolved"}) == 409
    rel = ok(svc, "create_release", {"project_id": "checkout-api", "version": "checkout-api@3.15.0",
                                     "ref": "a1b2c3d", "commit_count": 4})
    assert rel["date_released"] is None
    got = ok(svc, "get_issue", {"issue_id": "CHECKOUT-API-5O"})["status_details"]
    assert (got["in_next_release"], got["in_release"]) == (False, "checkout-api@3.15.0")
    assert ok(svc, "create_deploy", {"version": "checkout-api@3.15.0", "environment": "production"})[
        "date_released"] == "2026-01-15T09:02:00"
    assert code(svc, "update_issue", {"issue_id": "CHECKOUT-API-5P", "status": "resolved",
                                      "in_release": "checkout-api@3.14.2"}) == 422
    assert code(svc, "update_issue", {"issue_id": "CHECKOUT-API-5P", "status": "resolved",
                                      "in_release": "search-api@1.3.2"}) == 422
    ok(svc, "update_issue", {"issue_id": "CHECKOUT-API-5P", "status": "resolved", "in_release": "checkout-api@3.15.0"})
    ign = ok(svc, "update_issue", {"issue_id": "SEARCH-API-7Z", "status": "ignored", "ignore_duration": 60})
    assert (ign["status"], ign["status_details"]["ignore_until"]) == ("ignored", "2026-01-15T10:04:00")
    assert code(svc, "update_issue", {"issue_id": "AUTH-SERVICE-22", "status": "ignored", "ignore_count": 5,
                                      "ignore_duration": 5}) == 400
    assert code(svc, "update_issue", {"issue_id": "AUTH-SERVICE-22", "ignore_count": 5}) == 400
    assert code(svc, "update_issue", {"issue_id": "AUTH-SERVICE-22", "status": "resolved", "in_next_release": True,
                                      "in_release": "auth-service@2.11.3"}) == 400
    assert ok(svc, "update_issue", {"issue_id": "WEB-FRONTEND-1O", "status": "unresolved"})["status_details"][
        "ignore_count"] is None


def test_assign_note_link_release(svc):
    assert ok(svc, "update_issue", {"issue_id": "SEARCH-API-7Z", "assigned_to": "Maya.Goldberg@company.example"})[
        "assigned_to"] == "maya.goldberg@company.example"
    assert code(svc, "update_issue", {"issue_id": "SEARCH-API-7Z", "assigned_to": "x@example.com"}) == 422
    assert code(svc, "update_issue", {"issue_id": "SEARCH-API-7Z", "assigned_to": "priya.raman@company.example"}) == 422
    assert code(svc, "update_issue", {"issue_id": "SEARCH-API-7Z"}) == 400
    n = ok(svc, "create_note", {"issue_id": "SEARCH-API-7Z", "text": "Tracked in WEB-184."})
    assert (n["id"], n["user_email"]) == ("NOTE-0004", "ops@company.example")
    assert ok(svc, "link_external_issue", {"issue_id": "SEARCH-API-7Z", "external_issue": "WEB-184"})[
        "linked_issues"] == ["WEB-184"]
    assert code(svc, "link_external_issue", {"issue_id": "SEARCH-API-7Z", "external_issue": "WEB-184"}) == 409
    assert code(svc, "create_release", {"project_id": "checkout-api", "version": "checkout-api@3.14.2",
                                        "ref": "abcdef1"}) == 409
    assert code(svc, "create_release", {"project_id": "checkout-api", "version": "checkout-api@3.1.0",
                                        "ref": "abcdef1"}) == 422
    assert code(svc, "create_release", {"project_id": "checkout-api", "version": "search-api@9.0.0",
                                        "ref": "abcdef1"}) == 400
    assert code(svc, "create_release", {"project_id": "checkout-api", "version": "checkout-api@v4",
                                        "ref": "abcdef1"}) == 400
    assert code(svc, "create_deploy", {"version": "checkout-api@9.9.9", "environment": "staging"}) == 404


def test_failed_call_rolls_back(svc):
    before = svc.state_dict()
    res = svc.call("update_issue", {"issue_id": "SEARCH-API-7Z", "status": "resolved",
                                    "in_release": "search-api@1.2.1"})
    assert not res["success"] and svc.state_dict() == before
