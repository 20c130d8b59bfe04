"""Tests of the hotels service: search, pricing, no overbooking, modify/cancel rules."""

from __future__ import annotations

import pytest
from _svc_asserts import data, failed

from compoworld_gym.envs.services.hotels import Hotels


@pytest.fixture
def ht(make_service):
    h = make_service(Hotels)
    # Clear the seeded reservations of one hotel so counts below are exact.
    h.state.reservations = {k: r for k, r in h.state.reservations.items() if r.hotel_id != "HTL-0007"}
    return h


def reserve(ht, rooms=1, room_type="standard", ci="2026-02-02", co="2026-02-04", guests=1):
    return ht.call("create_reservation", {"hotel_id": "HTL-0007", "room_type": room_type, "check_in": ci,
                                          "check_out": co, "guest_name": "Ivy Chen", "guest_email": "ivy@mail.example",
                                          "guests": guests, "rooms": rooms})


def test_catalogue(ht):
    cities = {c["city"]: c["hotels"] for c in data(ht.call("list_hotel_cities", {}))}
    assert cities == {c: 3 for c in ("San Francisco", "New York", "Chicago", "Austin", "Seattle", "London")}
    h = data(ht.call("get_hotel", {"hotel_id": "HTL-0007"}))
    assert h["city"] == "Chicago" and h["stars"] == 3 and set(h["room_types"]) == {"standard", "deluxe"}
    assert "wifi" in h["amenities"]
    failed(ht.call("get_hotel", {"hotel_id": "HTL-0999"}), 404)


def test_pricing_weekend_and_tax(ht):
    rate = ht.state.hotels["HTL-0007"].room_types["standard"].nightly_rate
    # Thu 5 Feb, Fri 6 Feb nights: 1.0 + 1.2 (Friday) times the rate, plus 14% tax.
    av = data(ht.call("check_availability", {"hotel_id": "HTL-0007", "check_in": "2026-02-05",
                                           "check_out": "2026-02-07"}))
    std = next(t for t in av["room_types"] if t["room_type"] == "standard")
    sub = round(rate * 2.2, 2)
    assert (std["nights"], std["subtotal"], std["tax"]) == (2, sub, round(sub * 0.14, 2))
    assert std["total_price"] == round(sub + round(sub * 0.14, 2), 2)
    assert av["free_cancellation_until"] == "2026-02-03"
    failed(ht.call("check_availability", {"hotel_id": "HTL-0007", "check_in": "2026-02-07", "check_out": "2026-02-05"}), 422)
    failed(ht.call("check_availability", {"hotel_id": "HTL-0007", "check_in": "2026-01-02", "check_out": "2026-01-05"}), 422)


def test_search(ht):
    res = data(ht.call("search_hotels", {"city": "chicago", "check_in": "2026-02-02", "check_out": "2026-02-04"}))
    assert [h["hotel_id"] for h in res] == ["HTL-0007", "HTL-0008", "HTL-0009"]
    totals = [h["cheapest_offer"]["total_price"] for h in res]
    assert totals == sorted(totals)
    assert [h["hotel_id"] for h in data(ht.call("search_hotels", {
        "city": "Chicago", "check_in": "2026-02-02", "check_out": "2026-02-04", "min_stars": 5}))] == ["HTL-0009"]
    big = data(ht.call("search_hotels", {"city": "Chicago", "check_in": "2026-02-02", "check_out": "2026-02-04",
                                       "guests": 4, "rooms": 1}))
    assert all(h["cheapest_offer"]["room_type"] == "suite" for h in big)
    assert data(ht.call("search_hotels", {"city": "Atlantis", "check_in": "2026-02-02", "check_out": "2026-02-04"})) == []


def test_no_overbooking(ht):
    count = ht.state.hotels["HTL-0007"].room_types["standard"].count
    r = data(reserve(ht, rooms=count, guests=count))
    assert r["id"] == "RSV-0011" and r["status"] == "confirmed"
    before = ht.state_dict()
    assert "0 standard room(s) free" in failed(reserve(ht, ci="2026-02-03", co="2026-02-05"), 409)
    failed(reserve(ht, room_type="suite"), 400)  # a 3-star has no suites
    failed(reserve(ht, guests=3), 422)  # 1 standard room sleeps 2
    failed(reserve(ht, ci="2026-02-04", co="2026-02-04"), 422)
    assert ht.state_dict() == before
    # The night after the stay is free again.
    assert data(reserve(ht, ci="2026-02-04", co="2026-02-05"))["id"] == "RSV-0012"
    av = data(ht.call("check_availability", {"hotel_id": "HTL-0007", "check_in": "2026-02-02", "check_out": "2026-02-03"}))
    assert next(t for t in av["room_types"] if t["room_type"] == "standard")["rooms_free"] == 0


def test_modify_cancel_and_requests(ht):
    r = data(reserve(ht))
    mod = data(ht.call("modify_reservation", {"reservation_id": r["id"], "check_out": "2026-02-05", "room_type": "deluxe"}))
    deluxe = ht.state.hotels["HTL-0007"].room_types["deluxe"].nightly_rate
    assert mod["room_type"] == "deluxe" and mod["total_price"] == round(deluxe * 3 * 1.14, 2)
    failed(ht.call("modify_reservation", {"reservation_id": r["id"]}), 400)
    req = data(ht.call("add_special_request", {"reservation_id": r["id"], "request": "High floor please"}))
    assert req["special_requests"] == ["High floor please"]
    mine = data(ht.call("list_reservations", {"guest_email": "IVY@mail.example"}))
    assert [m["id"] for m in mine] == [r["id"]]
    assert data(ht.call("get_reservation", {"reservation_id": r["id"]}))["check_out"] == "2026-02-05"
    out = data(ht.call("cancel_reservation", {"reservation_id": r["id"]}))
    assert out["cancellation_fee"] == 0.0 and out["refund"] == mod["total_price"]
    failed(ht.call("cancel_reservation", {"reservation_id": r["id"]}), 409)
    failed(ht.call("add_special_request", {"reservation_id": r["id"], "request": "Late"}), 409)
    late = data(reserve(ht, ci="2026-01-16", co="2026-01-18"))
    rate = ht.state.hotels["HTL-0007"].room_types["standard"].nightly_rate
    fee = data(ht.call("cancel_reservation", {"reservation_id": late["id"]}))["cancellation_fee"]
    sub = round(rate * 1.2, 2)  # 16 Jan 2026 is a Friday night
    assert fee == round(sub + round(sub * 0.14, 2), 2)
    failed(ht.call("get_reservation", {"reservation_id": "RSV-0999"}), 404)
