"""Tests of the venue booking service (Tripleseat API shapes)."""

from __future__ import annotations

import datetime as dt

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.venue_booking import VenueBooking

CONTACT = {"company": "Initech", "contact_name": "Samir Nagheenanajar",
           "contact_email": "samir.nagheenanajar@initech.example", "contact_phone": "+1-512-555-0101"}


@pytest.fixture
def svc(make_service):
    return make_service(VenueBooking)


def book(svc, rooms, start, end, guests, **extra):
    return svc.call("create_event", {"name": "Initech Offsite", **CONTACT, "room_ids": rooms, "event_start": start,
                                     "event_end": end, "guest_count": guests, **extra})


def test_locations_menu_and_availability(svc):
    locs = ok(svc, "list_locations")
    assert [(x["name"], [r["capacity"] for r in x["rooms"]]) for x in locs] == [
        ("Riverside Convention Center", [1200, 150, 20]), ("The Grand Ballroom", [400, 120, 40]),
        ("Downtown Loft", [80, 60])]
    menu = {m["name"]: (m["category"], m["unit_price"]) for m in ok(svc, "list_menu")}
    assert menu["Plated dinner - salmon"] == ("food", 64.0) and menu["AV package"] == ("rental", 650.0)
    rooms = ok(svc, "check_availability", {"event_start": "2026-02-09T19:00:00", "event_end": "2026-02-09T21:00:00",
                                           "guest_count": 150, "location_id": "LOC-0002"})
    assert [(r["id"], r["available"], r["booked_by"], r["fits"]) for r in rooms] == [
        ("SPC-0004", False, ["VEV-0003"], True), ("SPC-0005", True, [], False), ("SPC-0006", True, [], False)]
    # Back to back is free: VEV-0003 ends at 22:00.
    later = ok(svc, "check_availability", {"event_start": "2026-02-09T22:00:00", "event_end": "2026-02-09T23:00:00"})
    assert next(r for r in later if r["id"] == "SPC-0004")["available"] is True
    # A lost event frees its room (VEV-0005 in the Main Loft).
    lost = ok(svc, "check_availability", {"event_start": "2026-02-02T18:00:00", "event_end": "2026-02-02T21:00:00"})
    assert next(r for r in lost if r["id"] == "SPC-0007")["available"] is True
    assert code(svc, "check_availability", {"event_start": "2026-02-09T19:00:00",
                                            "event_end": "2026-02-09T18:00:00"}) == 422


def test_leads(svc):
    assert [ld["id"] for ld in ok(svc, "list_leads", {"status": "new"})] == ["VLD-0010", "VLD-0007"]
    globex = ok(svc, "list_leads", {"company": "globex corporation"})
    assert [(ld["id"], ld["status"], ld["event_id"]) for ld in globex] == [("VLD-0001", "converted", "VEV-0001")]
    assert ok(svc, "get_lead", {"lead_id": "VLD-0009"})["lost_reason"] == "Budget cut for the quarter"
    assert ok(svc, "list_leads", {"email_address": "Rachael.Rosen@tyrell.example"})[0]["id"] == "VLD-0007"
    new = ok(svc, "create_lead", {"first_name": "Sol", "last_name": "Roth", "email_address": "sol.roth@soylent.example",
                                  "phone_number": "+1-312-555-0188", "company": "Soylent Foods",
                                  "event_description": "Summer tasting", "event_start": "2026-06-01T17:00:00",
                                  "event_end": "2026-06-01T20:00:00", "guest_count": 40, "location_id": "LOC-0003"})
    assert (new["id"], new["status"], new["created_at"]) == ("VLD-0011", "new", "2026-01-15T09:00:00")
    assert code(svc, "create_lead", {**{k: new[k] for k in ("first_name", "last_name", "email_address", "phone_number",
                                                            "company", "event_description", "guest_count")},
                                     "event_start": "2026-01-10T17:00:00", "event_end": "2026-01-10T20:00:00",
                                     "location_id": "LOC-0003"}) == 422  # in the past
    assert ok(svc, "update_lead_status", {"lead_id": "VLD-0011", "status": "contacted"})["status"] == "contacted"
    assert code(svc, "update_lead_status", {"lead_id": "VLD-0011", "status": "lost"}) == 422  # no reason
    assert ok(svc, "update_lead_status", {"lead_id": "VLD-0011", "status": "lost",
                                          "lost_reason": "Went elsewhere"})["status"] == "lost"
    assert code(svc, "update_lead_status", {"lead_id": "VLD-0001", "status": "contacted"}) == 409
    assert code(svc, "get_lead", {"lead_id": "VLD-0999"}) == 404


def test_convert_lead(svc):
    small = error(svc, "convert_lead", {"lead_id": "VLD-0007", "room_ids": ["SPC-0003"]})
    assert small["code"] == 422 and "150 guests exceed" in small["message"]
    assert code(svc, "convert_lead", {"lead_id": "VLD-0007", "room_ids": ["SPC-0004"]}) == 422  # other location
    assert code(svc, "convert_lead", {"lead_id": "VLD-0007", "room_ids": ["SPC-0099"]}) == 404
    ev = ok(svc, "convert_lead", {"lead_id": "VLD-0007", "room_ids": ["SPC-0002"], "event_style": "Conference"})
    assert (ev["id"], ev["status"], ev["lead_id"], ev["company"], ev["contact_email"], ev["guest_count"]) == (
        "VEV-0011", "prospect", "VLD-0007", "Tyrell Analytics", "rachael.rosen@tyrell.example", 150)
    assert ok(svc, "get_lead", {"lead_id": "VLD-0007"})["event_id"] == "VEV-0011"
    assert code(svc, "convert_lead", {"lead_id": "VLD-0007", "room_ids": ["SPC-0002"]}) == 409
    assert code(svc, "convert_lead", {"lead_id": "VLD-0009", "room_ids": ["SPC-0005"]}) == 409  # lost


def test_events_reads(svc):
    definite = ok(svc, "list_events", {"status": "definite"})
    assert [e["id"] for e in definite] == ["VEV-0006", "VEV-0001", "VEV-0007"]
    summit = ok(svc, "list_events", {"ticketed_event_id": "TEV-0001"})
    assert [(e["id"], e["name"], e["location"], e["event_start"]) for e in summit] == [
        ("VEV-0007", "Customer Summit 2026", "Riverside Convention Center", "2026-02-18T09:00:00")]
    assert [e["id"] for e in ok(svc, "list_events", {"room_id": "SPC-0004", "start_date": "2026-01-01"})] == [
        "VEV-0003", "VEV-0009"]
    ev = ok(svc, "get_event", {"event_id": "VEV-0001"})
    assert ev["financials"] == {"grand_total": 7755.73, "deposit_required": 1938.93, "deposits_paid": 2326.72,
                                "amount_paid": 2326.72, "amount_due": 5429.01}
    assert ev["banquet_orders"] == [{"id": "BEO-0001", "title": "Conference BEO", "grand_total": 7755.73,
                                     "revision": 1}]
    beo = ok(svc, "get_banquet_order", {"banquet_order_id": "BEO-0001"})
    assert (beo["subtotal"], beo["service_charge"], beo["tax"], beo["event"]["company"]) == (
        6095.0, 1089.0, 571.73, "Globex Corporation")
    assert code(svc, "get_event", {"event_id": "VEV-0999"}) == 404


def test_no_double_booking(svc):
    clash = error(svc, "create_event", {"name": "Initech Offsite", **CONTACT, "room_ids": ["SPC-0004"],
                                        "event_start": "2026-02-09T19:00:00", "event_end": "2026-02-09T21:00:00",
                                        "guest_count": 100})
    assert clash["code"] == 409 and "VEV-0003" in clash["message"]
    ok(svc, "update_event_status", {"event_id": "VEV-0003", "status": "lost", "reason": "Client moved the date"})
    ev = ok(svc, "create_event", {"name": "Initech Offsite", **CONTACT, "room_ids": ["SPC-0004"],
                                  "event_start": "2026-02-09T19:00:00", "event_end": "2026-02-09T21:00:00",
                                  "guest_count": 100, "ticketed_event_id": "TEV-0042"})
    assert (ev["id"], ev["status"], ev["owner_email"], ev["ticketed_event_id"]) == (
        "VEV-0011", "prospect", "jamal.wright@company.example", "TEV-0042")
    assert code(svc, "update_event", {"event_id": "VEV-0004", "event_start": "2026-02-09T18:00:00",
                                      "event_end": "2026-02-09T20:00:00", "room_ids": ["SPC-0004"]}) == 409


def test_capacity_bounds_guests(svc):
    res = book(svc, ["SPC-0004"], "2026-03-20T18:00:00", "2026-03-20T22:00:00", 500)
    assert res["success"] is False and res["error"]["code"] == 422 and "capacity" in res["error"]["message"]
    both = book(svc, ["SPC-0004", "SPC-0005"], "2026-03-20T18:00:00", "2026-03-20T22:00:00", 500)
    assert both["success"] and both["data"]["room_ids"] == ["SPC-0004", "SPC-0005"]
    assert code(svc, "update_event", {"event_id": "VEV-0004", "guest_count": 200}) == 422  # Terrace holds 150
    moved = ok(svc, "update_event", {"event_id": "VEV-0004", "guest_count": 200, "room_ids": ["SPC-0001"]})
    assert (moved["guest_count"], moved["rooms"][0]["name"]) == (200, "Hall A")
    assert code(svc, "update_event", {"event_id": "VEV-0004"}) == 400
    assert code(svc, "update_event", {"event_id": "VEV-0004", "event_start": "2026-01-10T10:00:00"}) == 422
    assert book(svc, ["SPC-0004", "SPC-0007"], "2026-03-21T18:00:00", "2026-03-21T22:00:00", 10)["error"]["code"] == 422


def test_definite_needs_a_quarter_deposit(svc):
    short = error(svc, "update_event_status", {"event_id": "VEV-0003", "status": "definite"})
    assert short["code"] == 422 and "8977.81" in short["message"] and "3591.13 is paid" in short["message"]
    paid = ok(svc, "record_payment", {"event_id": "VEV-0003", "amount": 5386.68, "kind": "deposit",
                                      "method": "wire", "reference": "case QA-1"})
    assert paid["financials"]["deposits_paid"] == 8977.81 and paid["payments"][-1]["id"] == "VPY-0009"
    done = ok(svc, "update_event_status", {"event_id": "VEV-0003", "status": "definite"})
    assert done["status"] == "definite"
    ok(svc, "update_event_status", {"event_id": "VEV-0009", "status": "tentative"})
    none = error(svc, "update_event_status", {"event_id": "VEV-0009", "status": "definite"})
    assert none["code"] == 422 and "no banquet event order" in none["message"]


def test_status_transitions(svc):
    assert code(svc, "update_event_status", {"event_id": "VEV-0004", "status": "definite"}) == 409  # prospect
    assert code(svc, "update_event_status", {"event_id": "VEV-0004", "status": "lost"}) == 422  # no reason
    back = ok(svc, "update_event_status", {"event_id": "VEV-0008", "status": "prospect", "reason": "Dates moving"})
    assert (back["status"], back["notes"]) == ("prospect", ["prospect: Dates moving"])
    assert code(svc, "update_event_status", {"event_id": "VEV-0005", "status": "prospect"}) == 409  # lost is final
    assert code(svc, "record_payment", {"event_id": "VEV-0005", "amount": 10}) == 409
    assert ok(svc, "add_event_note", {"event_id": "VEV-0005", "note": "Call back in spring"})["notes"] == [
        "Call back in spring"]


def test_closed_event_cannot_change(svc):
    msg = error(svc, "update_event", {"event_id": "VEV-0002", "guest_count": 310})
    assert msg["code"] == 409 and "closed" in msg["message"]
    assert code(svc, "update_event_status", {"event_id": "VEV-0002", "status": "lost", "reason": "x" * 5}) == 409
    assert code(svc, "record_payment", {"event_id": "VEV-0002", "amount": 5}) == 409
    assert code(svc, "create_banquet_order", {"event_id": "VEV-0002", "items": [{"name": "Dance floor",
                                                                                 "quantity": 1}]}) == 409
    assert code(svc, "update_banquet_order", {"banquet_order_id": "BEO-0002", "title": "Revised"}) == 409
    assert code(svc, "add_event_note", {"event_id": "VEV-0002", "note": "late"}) == 409


def test_close_after_the_event_with_nothing_due(svc):
    early = error(svc, "update_event_status", {"event_id": "VEV-0006", "status": "closed"})
    assert early["code"] == 422 and "once it is over" in early["message"]
    ev = svc.state.events["VEV-0006"]
    ev.event_start, ev.event_end = dt.datetime(2026, 1, 10, 17), dt.datetime(2026, 1, 10, 20)
    due = error(svc, "update_event_status", {"event_id": "VEV-0006", "status": "closed"})
    assert due["code"] == 422 and "1957.50 due" in due["message"]
    over = error(svc, "record_payment", {"event_id": "VEV-0006", "amount": 2000, "kind": "payment"})
    assert over["code"] == 422 and "exceeds the 1957.50 due" in over["message"]
    ok(svc, "record_payment", {"event_id": "VEV-0006", "amount": 1957.5, "kind": "payment", "method": "ach"})
    assert ok(svc, "update_event_status", {"event_id": "VEV-0006", "status": "closed"})["status"] == "closed"


def test_banquet_orders(svc):
    beo = ok(svc, "create_banquet_order", {"event_id": "VEV-0004", "title": "Dinner BEO", "items": [
        {"name": "plated dinner - chicken", "quantity": 120},
        {"name": "Flowers", "quantity": 12, "category": "rental", "unit_price": 45}]})
    assert (beo["id"], beo["subtotal"], beo["service_charge"], beo["tax"], beo["grand_total"]) == (
        "BEO-0009", 7500.0, 1392.0, 730.8, 9622.8)
    assert beo["items"][0]["name"] == "Plated dinner - chicken"
    assert beo["event_financials"]["grand_total"] == 17217.9
    assert code(svc, "create_banquet_order", {"event_id": "VEV-0004", "items": [{"name": "Ice sculpture",
                                                                                 "quantity": 1}]}) == 422
    assert code(svc, "create_banquet_order", {"event_id": "VEV-0004", "items": [
        {"name": "Plated lunch", "quantity": 1, "unit_price": 1}]}) == 422
    rev = ok(svc, "update_banquet_order", {"banquet_order_id": "BEO-0004", "service_charge_rate": 0.22,
                                           "items": [{"name": "Plated lunch", "quantity": 100}]})
    assert (rev["revision"], rev["subtotal"], rev["service_charge"], rev["tax"], rev["grand_total"]) == (
        2, 4200.0, 924.0, 448.35, 5572.35)
    assert code(svc, "update_banquet_order", {"banquet_order_id": "BEO-0004"}) == 400
    assert code(svc, "record_payment", {"event_id": "VEV-0009", "amount": 100}) == 422  # no BEO, nothing due


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("update_event_status", {"event_id": "VEV-0003", "status": "definite"})["success"] is False
    assert book(svc, ["SPC-0004"], "2026-02-09T19:00:00", "2026-02-09T21:00:00", 50)["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(VenueBooking, seed=7).state_dict() == make_service(VenueBooking, seed=7).state_dict()
