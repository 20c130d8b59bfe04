"""Tests of the visitors service (Envoy Visitors API style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services.visitors import Visitors

TOMORROW_10 = "2026-01-16T10:00:00"


@pytest.fixture
def svc(make_service):
    return make_service(Visitors)


def test_seed_lines_up_with_the_staff_roster(svc):
    hosts = ok(svc, "list_hosts")
    assert [h["email"] for h in hosts][:12] == [s.email for s in STAFF]
    assert hosts[-1]["email"] == "ops@company.example"
    inv = ok(svc, "get_invite", {"invite_id": "VIN-0001"})
    assert (inv["invitee_name"], inv["host_name"], inv["flow_name"], inv["expected_arrival_time"], inv["status"]) == (
        "Nichole Gross", "Jamal Wright", "Customer visit", "2026-01-15T10:00:00", "expected")


def test_reads(svc):
    assert [x["name"] for x in ok(svc, "list_locations", {"active": True})] == ["San Francisco HQ", "Austin Office"]
    assert ok(svc, "get_location_capacity", {"location_id": "LOC-0002", "date": "2026-01-17"})["remaining"] == 0
    hq = ok(svc, "get_location_capacity", {"location_id": "LOC-0001", "date": "2026-01-15"})
    assert (hq["booked"], hq["remaining"]) == (5, 7)
    assert code(svc, "get_location_capacity", {"location_id": "LOC-0099", "date": "2026-01-15"}) == 404
    flows = ok(svc, "list_flows", {"location_id": "LOC-0001"})
    assert [(f["name"], f["nda_required"]) for f in flows] == [
        ("Interview candidate", True), ("Vendor", False), ("Customer visit", False), ("Contractor", True)]
    assert [h["name"] for h in ok(svc, "list_hosts", {"location_id": "LOC-0002"})] == [
        "Daniel Cho", "Luis Ortega", "Aisha Khan"]
    assert [i["id"] for i in ok(svc, "list_invites", {"host_email": "JAMAL.WRIGHT@company.example"})] == [
        "VIN-0007", "VIN-0001"]
    assert [i["id"] for i in ok(svc, "list_invites", {"date": "2026-01-17", "status": "expected"})] == [
        "VIN-0010", "VIN-0011", "VIN-0012"]
    assert [i["id"] for i in ok(svc, "list_invites", {"company": "lawson inc"})] == ["VIN-0008"]
    assert [i["id"] for i in ok(svc, "list_invites", {"query": "interview loop"})] == ["VIN-0003", "VIN-0009"]
    assert [i["id"] for i in ok(svc, "list_invites", {"invitee_email": "gary.maxwell@gmail.com"})] == ["VIN-0014"]
    assert code(svc, "get_invite", {"invite_id": "VIN-0999"}) == 404
    assert [e["id"] for e in ok(svc, "list_entries", {"on_site": True})] == ["ENT-0002", "ENT-0001"]
    assert [e["id"] for e in ok(svc, "list_entries", {"date": "2026-01-14", "location_id": "LOC-0001"})] == [
        "ENT-0004", "ENT-0005", "ENT-0003"]
    assert ok(svc, "get_entry", {"entry_id": "ENT-0001"})["nda_signed"] is True
    assert code(svc, "get_entry", {"entry_id": "ENT-0999"}) == 404
    assert [v["id"] for v in ok(svc, "list_visitors", {"company": "simon group"})] == ["VIS-0001"]
    assert [b["id"] for b in ok(svc, "list_blocklist")] == ["BLK-0001", "BLK-0002"]
    assert [b["id"] for b in ok(svc, "list_blocklist", {"include_removed": True, "email": "lisa.may@hotmail.com"})] \
        == ["BLK-0003"]


def test_create_invite(svc):
    inv = ok(svc, "create_invite", {"invitee_name": "Ana Ruiz", "invitee_email": "ana.ruiz@ruizfoods.example",
                                    "host_email": "hannah.kovacs@company.example", "company": "Ruiz Foods",
                                    "expected_arrival_time": TOMORROW_10, "notes": "QBR; total 417.25"})
    assert (inv["id"], inv["host_name"], inv["flow_id"], inv["status"], inv["created_at"]) == (
        "VIN-0015", "Hannah Kovacs", "FLW-0003", "expected", "2026-01-15T09:00:00")
    no_name = ok(svc, "create_invite", {"invitee_email": "x@y.example", "host_email": "ops@company.example",
                                        "flow_name": "Vendor", "expected_arrival_time": TOMORROW_10})
    assert no_name["invitee_name"] == "x@y.example"
    msg = error(svc, "create_invite", {"invitee_email": "ana@x.example", "host_email": "ops@company.example",
                                       "expected_arrival_time": "2026-01-15T08:59:00"})
    assert msg["code"] == 422 and "not in the future" in msg["message"]
    assert code(svc, "create_invite", {"invitee_email": "a@x.example", "host_email": "nobody@company.example",
                                       "expected_arrival_time": TOMORROW_10}) == 404
    assert code(svc, "create_invite", {"invitee_email": "a@x.example", "host_email": "ops@company.example",
                                       "location_id": "LOC-0003", "expected_arrival_time": TOMORROW_10}) == 422
    assert code(svc, "create_invite", {"invitee_email": "a@x.example", "host_email": "ops@company.example",
                                       "flow_name": "Tourist", "expected_arrival_time": TOMORROW_10}) == 400


def test_blocklisted_visitor_is_refused(svc):
    msg = error(svc, "create_invite", {"invitee_email": "ANTHONY.DANIEL@yahoo.com", "host_email": "ops@company.example",
                                       "expected_arrival_time": TOMORROW_10})
    assert msg["code"] == 422 and "BLK-0001" in msg["message"]
    assert code(svc, "create_invite", {"invitee_email": "new@x.example", "invitee_name": "felicia ayers",
                                       "host_email": "ops@company.example",
                                       "expected_arrival_time": TOMORROW_10}) == 422
    assert code(svc, "create_entry", {"full_name": "Anthony Daniel", "email": "anthony.daniel@yahoo.com",
                                      "host_email": "ops@company.example"}) == 422
    # a removed entry no longer blocks
    assert ok(svc, "create_invite", {"invitee_email": "lisa.may@hotmail.com", "host_email": "ops@company.example",
                                     "expected_arrival_time": TOMORROW_10})["status"] == "expected"
    # blocklisting after the invite stops the check-in
    ok(svc, "add_blocklist_entry", {"email": "nichole.gross@yahoo.com", "reason": "Badge misuse"})
    assert code(svc, "check_in_invite", {"invite_id": "VIN-0001"}) == 422


def test_capacity_per_day(svc):
    msg = error(svc, "create_invite", {"invitee_email": "a@x.example", "host_email": "luis.ortega@company.example",
                                       "location_id": "LOC-0002", "expected_arrival_time": "2026-01-17T15:00:00"})
    assert msg["code"] == 409 and "3 of 3" in msg["message"]
    # moving an invite within its full day keeps its own place
    assert ok(svc, "update_invite", {"invite_id": "VIN-0010", "expected_arrival_time": "2026-01-17T16:00:00"})[
        "expected_arrival_time"] == "2026-01-17T16:00:00"
    moved = ok(svc, "create_invite", {"invitee_email": "b@x.example", "host_email": "luis.ortega@company.example",
                                      "location_id": "LOC-0002", "expected_arrival_time": "2026-01-18T15:00:00"})
    assert code(svc, "update_invite", {"invite_id": moved["id"], "expected_arrival_time": "2026-01-17T10:00:00"}) == 409
    ok(svc, "cancel_invite", {"invite_id": "VIN-0011"})
    assert ok(svc, "create_invite", {"invitee_email": "a@x.example", "host_email": "luis.ortega@company.example",
                                     "location_id": "LOC-0002", "expected_arrival_time": "2026-01-17T15:00:00"})[
        "id"] == "VIN-0016"


def test_update_and_cancel_invite(svc):
    up = ok(svc, "update_invite", {"invite_id": "VIN-0008", "expected_arrival_time": "2026-01-19T15:00:00",
                                   "host_email": "jamal.wright@company.example", "notes": "Moved to Monday"})
    assert (up["expected_arrival_time"], up["host_name"], up["notes"]) == (
        "2026-01-19T15:00:00", "Jamal Wright", "Moved to Monday")
    assert code(svc, "update_invite", {"invite_id": "VIN-0008"}) == 400
    assert code(svc, "update_invite", {"invite_id": "VIN-0008", "expected_arrival_time": "2026-01-14T10:00:00"}) == 422
    assert code(svc, "update_invite", {"invite_id": "VIN-0004", "notes": "x"}) == 409
    c = ok(svc, "cancel_invite", {"invite_id": "VIN-0008"})
    assert (c["status"], c["cancelled_at"]) == ("cancelled", "2026-01-15T09:00:00")
    assert code(svc, "cancel_invite", {"invite_id": "VIN-0008"}) == 409
    assert code(svc, "cancel_invite", {"invite_id": "VIN-0006"}) == 409


def test_check_in_and_sign_out(svc):
    assert code(svc, "check_in_invite", {"invite_id": "VIN-0008"}) == 422  # tomorrow's invite
    msg = error(svc, "check_in_invite", {"invite_id": "VIN-0003"})
    assert msg["code"] == 422 and "requires the NDA" in msg["message"]
    e = ok(svc, "check_in_invite", {"invite_id": "VIN-0003", "nda_signed": True})
    assert (e["id"], e["visitor_id"], e["flow_name"], e["signed_in_at"], e["nda_signed"]) == (
        "ENT-0007", "VIS-0007", "Interview candidate", "2026-01-15T09:00:00", True)
    assert ok(svc, "get_invite", {"invite_id": "VIN-0003"})["status"] == "arrived"
    assert code(svc, "check_in_invite", {"invite_id": "VIN-0003"}) == 409
    out = ok(svc, "sign_out_entry", {"entry_id": "ENT-0007"})
    assert out["signed_out_at"] == "2026-01-15T09:01:00"
    assert ok(svc, "get_invite", {"invite_id": "VIN-0003"})["status"] == "signed_out"
    msg = error(svc, "sign_out_entry", {"entry_id": "ENT-0007"})
    assert msg["code"] == 409 and "already signed out" in msg["message"]
    assert code(svc, "sign_out_entry", {"entry_id": "ENT-0999"}) == 404


def test_walk_in(svc):
    e = ok(svc, "create_entry", {"full_name": "Scott Harrell", "email": "scott.harrell@yahoo.com",
                                 "host_email": "jamal.wright@company.example", "flow_name": "Customer visit",
                                 "company": "Clarke Ltd"})
    assert (e["visitor_id"], e["invite_id"]) == ("VIS-0004", None)
    assert ok(svc, "list_visitors", {"email": "scott.harrell@yahoo.com"})[0]["visit_count"] == 2
    assert code(svc, "create_entry", {"full_name": "Bo Li", "email": "bo@x.example", "flow_name": "Contractor",
                                      "host_email": "ops@company.example"}) == 422  # NDA
    assert code(svc, "create_entry", {"full_name": "Bo Li", "email": "bo@x.example", "location_id": "LOC-0003",
                                      "host_email": "ops@company.example"}) == 422  # inactive location


def test_blocklist_add_and_remove(svc):
    b = ok(svc, "add_blocklist_entry", {"email": "trouble@x.example", "full_name": "Tom Rubble",
                                        "reason": "case QA-1: the order total is 417.25"})
    assert (b["id"], b["active"], b["added_by"]) == ("BLK-0004", True, "ops@company.example")
    assert code(svc, "add_blocklist_entry", {"email": "TROUBLE@x.example", "reason": "again"}) == 409
    assert code(svc, "add_blocklist_entry", {"email": "a@x.example", "reason": "why",
                                             "added_by": "stranger@x.example"}) == 404
    assert ok(svc, "remove_blocklist_entry", {"blocklist_id": "BLK-0004"})["active"] is False
    assert code(svc, "remove_blocklist_entry", {"blocklist_id": "BLK-0004"}) == 409
    assert code(svc, "remove_blocklist_entry", {"blocklist_id": "BLK-0999"}) == 404


def test_failed_call_rolls_back(svc):
    before = svc.state_dict()
    res = svc.call("create_invite", {"invitee_email": "a@x.example", "host_email": "luis.ortega@company.example",
                                     "location_id": "LOC-0002", "expected_arrival_time": "2026-01-17T15:00:00"})
    assert res["success"] is False and svc.state_dict() == before
