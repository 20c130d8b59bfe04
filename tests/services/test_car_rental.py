"""Tests of the car-rental service (Hertz / Amadeus style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._gazetteer import PLACES
from compoworld_gym.envs.services.car_rental import CarRental

ANN = {"driver_name": "Ann Lee", "driver_email": "Ann.Lee@example.com"}


@pytest.fixture
def svc(make_service):
    return make_service(CarRental)


def book(svc, car="CAR-0002", start="2026-01-20", end="2026-01-23", age=30, **extra):
    return ok(svc, "create_rental_agreement", {"car_id": car, **ANN, "driver_age": age, "pickup_date": start,
                                               "return_date": end, **extra})


def test_locations_are_the_gazetteer_cities(svc):
    cities = {loc["city"] for loc in ok(svc, "list_locations")}
    assert cities == {p.city for p in PLACES.values()}
    chi = ok(svc, "list_locations", {"city": "chicago"})
    assert [(x["id"], x["kind"], x["address"]) for x in chi] == [
        ("CHI-A", "airport", "10000 W O'Hare Ave, Chicago, IL 60666, USA"),
        ("CHI-D", "downtown", chi[1]["address"])]
    assert chi[1]["address"] in {p.address for p in PLACES.values() if p.city == "Chicago"}
    classes = ok(svc, "list_car_classes")
    assert [(c["car_class"], c["acriss"], c["daily_rate"]) for c in classes][:2] == [("economy", "ECAR", 39.0),
                                                                                    ("compact", "CCAR", 45.0)]


def test_search_excludes_booked_and_maintenance_cars(svc):
    vans = ok(svc, "search_available_cars", {"location_id": "SFO-A", "car_class": "van", "pickup_date": "2026-01-20",
                                             "return_date": "2026-01-22"})
    assert [(c["id"], c["days"], c["estimated_total"]) for c in vans] == [("CAR-0011", 2, 176.0)]  # CAR-0012 in shop
    econ = ok(svc, "search_available_cars", {"city": "San Francisco", "car_class": "economy",
                                             "pickup_date": "2026-01-19", "return_date": "2026-01-21"})
    assert [c["id"] for c in econ] == ["CAR-0002", "CAR-0013"]  # CAR-0001 is on RA-0001 (18th-22nd)
    after = ok(svc, "search_available_cars", {"location_id": "SFO-A", "car_class": "economy",
                                              "pickup_date": "2026-01-22", "return_date": "2026-01-24"})
    assert [c["id"] for c in after] == ["CAR-0001", "CAR-0002"]  # a return day frees the car
    assert code(svc, "search_available_cars", {"pickup_date": "2026-01-20", "return_date": "2026-01-22"}) == 400
    assert code(svc, "search_available_cars", {"location_id": "XXX", "pickup_date": "2026-01-20",
                                               "return_date": "2026-01-22"}) == 404
    assert code(svc, "search_available_cars", {"city": "Boston", "pickup_date": "2026-01-20",
                                               "return_date": "2026-01-20"}) == 422


def test_book_prices_and_young_driver(svc):
    a = book(svc)
    assert (a["id"], a["status"], a["days"], a["daily_rate"], a["total"], a["driver_email"], a["pickup_time"]) == (
        "RA-0009", "reserved", 3, 39.0, 117.0, "ann.lee@example.com", "10:00")
    y = book(svc, car="CAR-0004", age=22, flight_number="UA1234")
    assert (y["young_driver_fee"], y["total"], y["flight_number"]) == (75.0, 210.0, "UA1234")
    e = error(svc, "create_rental_agreement", {"car_id": "CAR-0003", **ANN, "driver_age": 20,
                                               "pickup_date": "2026-01-20", "return_date": "2026-01-21"})
    assert e["code"] == 422 and "21" in e["message"]
    assert ok(svc, "get_car", {"car_id": "CAR-0002"})["booked"] == [
        {"agreement_id": "RA-0009", "pickup_date": "2026-01-20", "return_date": "2026-01-23"}]


def test_no_double_booking_and_date_rules(svc):
    book(svc)
    e = error(svc, "create_rental_agreement", {"car_id": "CAR-0002", **ANN, "driver_age": 40,
                                               "pickup_date": "2026-01-22", "return_date": "2026-01-25"})
    assert e["code"] == 409 and "search_available_cars" in e["message"]
    assert book(svc, start="2026-01-23", end="2026-01-24")["id"] == "RA-0010"  # back-to-back is fine
    assert code(svc, "create_rental_agreement", {"car_id": "CAR-0012", **ANN, "driver_age": 40,
                                                 "pickup_date": "2026-01-20", "return_date": "2026-01-21"}) == 409
    base = {"car_id": "CAR-0003", **ANN, "driver_age": 40}
    assert code(svc, "create_rental_agreement", {**base, "pickup_date": "2026-01-14",
                                                 "return_date": "2026-01-16"}) == 422
    assert code(svc, "create_rental_agreement", {**base, "pickup_date": "2026-01-16",
                                                 "return_date": "2026-02-20"}) == 422
    assert code(svc, "create_rental_agreement", {**base, "pickup_date": "2026-01-16", "return_date": "2026-01-18",
                                                 "pickup_time": "25:00"}) == 400
    assert code(svc, "create_rental_agreement", {**base, "car_id": "CAR-0999", "pickup_date": "2026-01-16",
                                                 "return_date": "2026-01-18"}) == 404


def test_modify_reprices_and_checks_the_car(svc):
    m = ok(svc, "modify_rental_agreement", {"agreement_id": "RA-0002", "return_date": "2026-01-20"})
    assert (m["days"], m["young_driver_fee"], m["total"]) == (4, 100.0, 388.0)  # suv 72/day + 25/day under 25
    book(svc, car="CAR-0001", start="2026-01-22", end="2026-01-24")
    assert code(svc, "modify_rental_agreement", {"agreement_id": "RA-0001", "return_date": "2026-01-23"}) == 409
    assert code(svc, "modify_rental_agreement", {"agreement_id": "RA-0004", "return_date": "2026-01-20"}) == 409


def test_cancellation_fee_within_24_hours(svc):
    free = ok(svc, "cancel_rental_agreement", {"agreement_id": "RA-0002", "reason": "Plans changed"})
    assert (free["status"], free["cancellation_fee"], free["total"], free["cancel_reason"]) == (
        "cancelled", 0.0, 0.0, "Plans changed")  # pickup tomorrow 09:30, now 09:00: 24.5 h ahead
    late = ok(svc, "cancel_rental_agreement", {"agreement_id": "RA-0007", "reason": "Flight cancelled"})
    assert (late["cancellation_fee"], late["total"]) == (72.0, 72.0)  # pickup today 15:45: one day of 216/3
    assert code(svc, "cancel_rental_agreement", {"agreement_id": "RA-0007", "reason": "again"}) == 409
    assert code(svc, "cancel_rental_agreement", {"agreement_id": "RA-0404", "reason": "x"}) == 404


def test_pickup_and_return(svc):
    assert code(svc, "pick_up_car", {"agreement_id": "RA-0001"}) == 422  # pickup is on the 18th
    p = ok(svc, "pick_up_car", {"agreement_id": "RA-0007"})
    assert (p["status"], p["picked_up_on"]) == ("picked_up", "2026-01-15")
    r = ok(svc, "return_car", {"agreement_id": "RA-0008", "fuel_full": False})
    assert (r["status"], r["extra_charges"], r["total"]) == ("returned", 60.0, 130.0)
    late = ok(svc, "return_car", {"agreement_id": "RA-0004"})
    assert (late["extra_charges"], late["total"]) == (0.0, 225.0)
    assert code(svc, "return_car", {"agreement_id": "RA-0004"}) == 409
    rows = ok(svc, "list_rental_agreements", {"city": "new york", "status": "returned"})
    assert [a["id"] for a in rows] == ["RA-0004", "RA-0005"]
    assert [a["id"] for a in ok(svc, "list_rental_agreements", {"driver_email": "AMBER.COX@gmail.com"})] == ["RA-0003"]
    assert [a["id"] for a in ok(svc, "list_rental_agreements", {"pickup_date": "2026-01-15"})] == ["RA-0007"]


def test_service_status(svc):
    assert code(svc, "set_car_in_service", {"car_id": "CAR-0001", "in_service": False}) == 409  # booked
    assert ok(svc, "set_car_in_service", {"car_id": "CAR-0012", "in_service": True})["in_service"] is True
    assert ok(svc, "set_car_in_service", {"car_id": "CAR-0003", "in_service": False})["in_service"] is False
    assert code(svc, "create_rental_agreement", {"car_id": "CAR-0003", **ANN, "driver_age": 40,
                                                 "pickup_date": "2026-01-20", "return_date": "2026-01-21"}) == 409


def test_failed_writes_roll_back(svc):
    before = svc.state_dict()
    assert code(svc, "create_rental_agreement", {"car_id": "CAR-0001", **ANN, "driver_age": 40,
                                                 "pickup_date": "2026-01-19", "return_date": "2026-01-20"}) == 409
    assert code(svc, "cancel_rental_agreement", {"agreement_id": "RA-0005", "reason": "x"}) == 409
    assert svc.state_dict() == before
