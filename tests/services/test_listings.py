"""Tests of the listings service (RESO-style MLS)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.listings import Listings

# today is 2026-01-15 (Thursday)
AGENT = {"showing_agent_full_name": "Jordan Blake", "showing_agent_email": "jordan.blake@keystonehomes.example"}
BUYER = {"buyer_name": "Emma Wilson", "buyer_email": "emma.wilson@yahoo.com", "buyer_agent_full_name": "Tessa Moreno",
         "buyer_agent_email": "tessa.moreno@keystonehomes.example", "offer_price": 640000,
         "earnest_money_amount": 12000, "buyer_financing": "Conventional", "proposed_close_date": "2026-02-27",
         "offer_expiration_date": "2026-01-17"}


@pytest.fixture
def svc(make_service):
    return make_service(Listings)


def test_search_listings(svc):
    rows = ok(svc, "search_listings", {"city": "portland", "standard_status": "Active"})
    assert [(r["id"], r["list_price"], r["bedrooms_total"]) for r in rows] == [("LST-0005", 633000.0, 3),
                                                                               ("LST-0009", 846000.0, 5)]
    assert [r["id"] for r in ok(svc, "search_listings", {"min_beds": 4, "max_price": 800000})] == ["LST-0002",
                                                                                                  "LST-0007"]
    assert [r["id"] for r in ok(svc, "search_listings", {"min_price": 900000})] == ["LST-0004", "LST-0010"]
    assert [r["id"] for r in ok(svc, "search_listings", {"address": "shoal creek"})] == ["LST-0002"]
    assert [r["id"] for r in ok(svc, "search_listings", {"property_sub_type": "Condominium"})] == ["LST-0003",
                                                                                                  "LST-0008"]
    assert len(ok(svc, "search_listings", {"list_agent_email": "Claire.Whitmore@company.example"})) == 3
    assert code(svc, "search_listings", {"standard_status": "Sold"}) == 400


def test_get_listing_and_reads(svc):
    lst = ok(svc, "get_listing", {"listing_id": "LST-0004"})
    assert (lst["standard_status"], lst["close_price"], lst["close_date"], lst["days_on_market"]) == (
        "Closed", 940000.0, "2026-01-03", 53)
    six = ok(svc, "get_listing", {"listing_id": "LST-0006"})
    assert (six["original_list_price"], six["list_price"], six["history"][-1]["change_type"]) == (
        621000.0, 606000.0, "Price Change")
    shows = ok(svc, "list_showings", {"listing_id": "LST-0005", "status": "Scheduled"})
    assert [(s["id"], s["showing_start_timestamp"]) for s in shows] == [("SHW-0001", "2026-01-16T10:00:00"),
                                                                        ("SHW-0002", "2026-01-16T11:00:00")]
    assert ok(svc, "list_showings", {"listing_id": "LST-0005", "day": "2026-01-17"}) == []
    assert ok(svc, "get_showing", {"showing_id": "SHW-0004"})["feedback"].startswith("Buyers liked")
    offers = ok(svc, "list_offers", {"listing_id": "LST-0001"})
    assert [(o["id"], o["status"]) for o in offers] == [("OFR-0001", "Accepted"), ("OFR-0010", "Rejected")]
    mine = ok(svc, "list_offers", {"buyer_email": "OLIVIA.MARTINEZ@gmail.com"})
    assert [(o["id"], o["unparsed_address"]) for o in mine] == [("OFR-0001", "2714 SE Clinton Street")]
    assert [o["id"] for o in ok(svc, "list_offers", {"status": "Countered"})] == ["OFR-0007"]
    assert ok(svc, "get_offer", {"offer_id": "OFR-0002"})["offer_price"] == 775000.0
    assert code(svc, "get_listing", {"listing_id": "LST-0999"}) == 404
    assert code(svc, "list_offers", {"listing_id": "LST-0999"}) == 404


def test_create_listing(svc):
    args = {"unparsed_address": "61 Elm Court", "city": "Chicago", "state_or_province": "IL", "postal_code": "60601",
            "list_price": 489000, "expiration_date": "2026-07-15", "list_agent_email": "derek.osei@company.example"}
    lst = ok(svc, "create_listing", args)
    assert (lst["id"], lst["standard_status"], lst["list_agent_full_name"], lst["days_on_market"]) == (
        "LST-0013", "Active", "Derek Osei", 0)
    assert lst["history"] == [{"change_type": "New Listing", "field_name": "ListPrice", "previous_value": None,
                               "new_value": "489000.00", "modification_date": "2026-01-15"}]
    assert code(svc, "create_listing", args) == 409
    assert code(svc, "create_listing", args | {"list_agent_email": "someone@elsewhere.example"}) == 404
    assert code(svc, "create_listing", args | {"unparsed_address": "9 Birch Lane", "expiration_date": "2026-01-01"}) == 422


def test_price_changes_are_logged_and_only_while_active(svc):
    lst = ok(svc, "change_list_price", {"listing_id": "LST-0005", "list_price": 619000})
    assert (lst["list_price"], lst["history"][-1]["previous_value"], lst["history"][-1]["new_value"]) == (
        619000.0, "633000.00", "619000.00")
    assert code(svc, "change_list_price", {"listing_id": "LST-0005", "list_price": 619000}) == 409
    assert code(svc, "change_list_price", {"listing_id": "LST-0001", "list_price": 600000}) == 409  # Pending
    msg = error(svc, "change_list_price", {"listing_id": "LST-0010", "list_price": 990000})
    assert msg["code"] == 409 and "ended on 2026-01-14" in msg["message"]


def test_status_machine(svc):
    assert code(svc, "update_listing_status", {"listing_id": "LST-0001", "standard_status": "Withdrawn"}) == 409
    assert code(svc, "update_listing_status", {"listing_id": "LST-0005", "standard_status": "Expired"}) == 422
    exp = ok(svc, "update_listing_status", {"listing_id": "LST-0010", "standard_status": "Expired"})
    assert (exp["standard_status"], exp["off_market_date"]) == ("Expired", "2026-01-15")
    assert code(svc, "update_listing_status", {"listing_id": "LST-0012", "standard_status": "Active"}) == 422
    back = ok(svc, "update_listing_status", {"listing_id": "LST-0012", "standard_status": "Active",
                                             "expiration_date": "2026-06-30"})
    assert (back["standard_status"], back["expiration_date"], back["off_market_date"]) == ("Active", "2026-06-30", None)
    w = ok(svc, "update_listing_status", {"listing_id": "LST-0009", "standard_status": "Withdrawn"})
    assert w["history"][-1]["new_value"] == "Withdrawn"
    fell = ok(svc, "update_listing_status", {"listing_id": "LST-0002", "standard_status": "Active"})
    assert (fell["standard_status"], fell["purchase_contract_date"]) == ("Active", None)
    assert ok(svc, "get_offer", {"offer_id": "OFR-0002"})["status"] == "Terminated"
    assert code(svc, "update_listing_status", {"listing_id": "LST-0004", "standard_status": "Active"}) == 409


def test_showings_never_overlap(svc):
    msg = error(svc, "schedule_showing", {"listing_id": "LST-0005", "showing_start_timestamp": "2026-01-16T10:30:00",
                                          **AGENT})
    assert msg["code"] == 409 and "SHW-0001" in msg["message"]
    sh = ok(svc, "schedule_showing", {"listing_id": "LST-0005", "showing_start_timestamp": "2026-01-16T10:45:00",
                                      "duration_minutes": 15, **AGENT})
    assert (sh["id"], sh["showing_end_timestamp"], sh["status"]) == ("SHW-0009", "2026-01-16T11:00:00", "Scheduled")
    other = ok(svc, "schedule_showing", {"listing_id": "LST-0009", "showing_start_timestamp": "2026-01-16T10:30:00",
                                         **AGENT})
    assert other["id"] == "SHW-0010"  # another listing's calendar


def test_showing_rules(svc):
    assert code(svc, "schedule_showing", {"listing_id": "LST-0001", "showing_start_timestamp": "2026-01-20T10:00:00",
                                          **AGENT}) == 409  # Pending
    assert code(svc, "schedule_showing", {"listing_id": "LST-0010", "showing_start_timestamp": "2026-01-20T10:00:00",
                                          **AGENT}) == 409  # agreement ended
    assert code(svc, "schedule_showing", {"listing_id": "LST-0005", "showing_start_timestamp": "2026-01-15T18:00:00",
                                          **AGENT}) == 422  # today
    assert code(svc, "schedule_showing", {"listing_id": "LST-0005", "showing_start_timestamp": "2026-01-20T19:30:00",
                                          **AGENT}) == 422  # ends after 20:00
    assert code(svc, "schedule_showing", {"listing_id": "LST-0005", "showing_start_timestamp": "2026-01-20T10:00:00",
                                          "duration_minutes": 5, **AGENT}) == 400
    c = ok(svc, "cancel_showing", {"showing_id": "SHW-0006", "reason": "Buyers sick"})
    assert (c["status"], c["remarks"]) == ("Cancelled", "Buyers pre-approved; lockbox on the side door. "
                                                        "Cancelled: Buyers sick")
    assert code(svc, "cancel_showing", {"showing_id": "SHW-0006", "reason": "again"}) == 409
    fb = ok(svc, "record_showing_feedback", {"showing_id": "SHW-0003", "feedback": "Second visit planned"})
    assert (fb["status"], fb["feedback"]) == ("Completed", "Second visit planned")
    assert code(svc, "record_showing_feedback", {"showing_id": "SHW-0001", "feedback": "too early"}) == 422


def test_submit_counter_accept(svc):
    o = ok(svc, "submit_offer", {"listing_id": "LST-0009", **BUYER})
    assert (o["id"], o["status"], o["unparsed_address"]) == ("OFR-0011", "Submitted", "1362 Weaver Spurs")
    assert code(svc, "submit_offer", {"listing_id": "LST-0009", **BUYER}) == 409  # one live offer per buyer
    assert code(svc, "submit_offer", {"listing_id": "LST-0001", **BUYER}) == 409  # Pending
    assert code(svc, "submit_offer", {"listing_id": "LST-0005", **BUYER, "earnest_money_amount": 700000}) == 422
    assert code(svc, "submit_offer", {"listing_id": "LST-0005", **BUYER, "proposed_close_date": "2026-01-16"}) == 422
    assert code(svc, "counter_offer", {"offer_id": "OFR-0011", "counter_price": 640000}) == 422
    co = ok(svc, "counter_offer", {"offer_id": "OFR-0011", "counter_price": 835000, "response_note": "Near list"})
    assert (co["status"], co["counter_price"], co["offer_price"]) == ("Countered", 835000.0, 640000.0)
    assert code(svc, "counter_offer", {"offer_id": "OFR-0011", "counter_price": 830000}) == 409
    acc = ok(svc, "accept_offer", {"offer_id": "OFR-0011"})  # the buyer takes the counter
    assert (acc["status"], acc["offer_price"]) == ("Accepted", 835000.0)
    lst = ok(svc, "get_listing", {"listing_id": "LST-0009"})
    assert (lst["standard_status"], lst["purchase_contract_date"], lst["buyer_agent_email"]) == (
        "Pending", "2026-01-15", "tessa.moreno@keystonehomes.example")


def test_offer_rules(svc):
    assert ok(svc, "accept_offer", {"offer_id": "OFR-0005"})["status"] == "Accepted"
    msg = error(svc, "accept_offer", {"offer_id": "OFR-0006"})
    assert msg["code"] == 409 and "Pending" in msg["message"]  # the listing is under contract now
    msg = error(svc, "accept_offer", {"offer_id": "OFR-0008"})
    assert msg["code"] == 409 and "expired on 2026-01-14" in msg["message"]
    assert code(svc, "accept_offer", {"offer_id": "OFR-0010"}) == 409  # rejected
    rej = ok(svc, "reject_offer", {"offer_id": "OFR-0006", "response_note": "Under contract"})
    assert (rej["status"], rej["responded_on"]) == ("Rejected", "2026-01-15")
    assert code(svc, "reject_offer", {"offer_id": "OFR-0006"}) == 409


def test_closing_sets_close_price_and_date(svc):
    assert code(svc, "close_listing", {"listing_id": "LST-0005", "close_price": 600000, "close_date": "2026-01-15"}) == 409
    assert code(svc, "close_listing", {"listing_id": "LST-0001", "close_price": 605000, "close_date": "2026-01-20"}) == 422
    msg = error(svc, "close_listing", {"listing_id": "LST-0001", "close_price": 605000, "close_date": "2026-01-02"})
    assert msg["code"] == 422 and "contract day 2026-01-06" in msg["message"]
    closed = ok(svc, "close_listing", {"listing_id": "LST-0001", "close_price": 605000, "close_date": "2026-01-15"})
    assert (closed["standard_status"], closed["close_price"], closed["close_date"], closed["days_on_market"]) == (
        "Closed", 605000.0, "2026-01-15", 31)


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("accept_offer", {"offer_id": "OFR-0008"})["success"] is False
    assert svc.call("schedule_showing", {"listing_id": "LST-0005", "showing_start_timestamp": "2026-01-16T10:15:00",
                                         **AGENT})["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(Listings, seed=4).state_dict() == make_service(Listings, seed=4).state_dict()
