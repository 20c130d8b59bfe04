"""Tests of the maps service (Google Maps MCP interface over the fixed gazetteer)."""

from __future__ import annotations

import json

import pytest
from _svc_asserts import data, failed

from compoworld_gym.envs.services._gazetteer import PLACES
from compoworld_gym.envs.services.maps import Maps, haversine_km
from compoworld_gym.specs import SPECS_PATH as SPECS


@pytest.fixture
def mp(make_service):
    return make_service(Maps)


def test_interface_matches_spec():
    spec = next(s for s in map(json.loads, SPECS.read_text().splitlines()) if s["slug"] == Maps.spec_source)
    for t in spec["tools"]:
        mine = Maps.tools[t["name"]].input_schema
        assert set(mine["properties"]) == set(t["inputSchema"]["properties"]), t["name"]
        assert set(mine.get("required", [])) == set(t["inputSchema"]["required"]), t["name"]
        if "mode" in t["inputSchema"]["properties"]:
            assert mine["properties"]["mode"]["enum"] == t["inputSchema"]["properties"]["mode"]["enum"]
    assert len(Maps.tools) == 11


def test_haversine_known_distance():
    # San Francisco to New York city centres: about 4,130 km.
    assert 4100 < haversine_km(37.7749, -122.4194, 40.7128, -74.0060) < 4160
    assert len(PLACES) == 45


def test_geocode_and_reverse(mp):
    g = data(mp.call("maps_geocode", {"address": "1100 Congress Ave, Austin"}))
    assert g == {"location": {"lat": 30.2747, "lng": -97.7404},
                 "formatted_address": "1100 Congress Ave, Austin, TX 78701, USA", "place_id": "PLC-0025"}
    assert data(mp.call("maps_geocode", {"address": "Willis Tower, Chicago"}))["place_id"] == "PLC-0020"
    assert data(mp.call("maps_geocode", {"address": "Boston"}))["formatted_address"] == "Boston, MA, USA"
    failed(mp.call("maps_geocode", {"address": "Atlantis"}), 404)
    failed(mp.call("maps_geocode", {}), 400)
    r = data(mp.call("maps_reverse_geocode", {"latitude": 41.8790, "longitude": -87.6360}))
    assert r["place_id"] == "PLC-0020" and r["address_components"][0]["long_name"] == "Chicago"
    assert data(mp.call("maps_reverse_geocode", {"latitude": 30.40, "longitude": -97.75}))["place_id"] == "PLC-0024"
    failed(mp.call("maps_reverse_geocode", {"latitude": 0.0, "longitude": 0.0}), 404)
    failed(mp.call("maps_reverse_geocode", {"latitude": 91, "longitude": 0}), 400)


def test_search_and_details(mp):
    museums = data(mp.call("maps_search_places", {"query": "museums in Chicago"}))["places"]
    assert [p["name"] for p in museums] == ["Art Institute of Chicago"]
    near = data(mp.call("maps_search_places", {"query": "restaurant", "location": {"latitude": 30.2672,
                                                                                "longitude": -97.7431},
                                             "radius": 5000}))["places"]
    assert [p["place_id"] for p in near] == ["PLC-0028"]
    parks = data(mp.call("maps_search_places", {"query": "park"}))["places"]
    # Six typed parks, Fenway Park by name and the office on Park Ave S by address; best rated first.
    assert parks[0]["rating"] == 4.8 and len(parks) == 8
    assert {"Fenway Park", "New York Office"} <= {p["name"] for p in parks}
    d = data(mp.call("maps_place_details", {"place_id": "PLC-0030"}))
    assert d["name"] == "Austin Hub" and d["opening_hours"]["weekday_text"][0] == "Monday: 09:00-17:00"
    assert data(mp.call("maps_place_details", {"place_id": "PLC-0003"}))["opening_hours"]["weekday_text"][6] == \
        "Sunday: Open 24 hours"
    failed(mp.call("maps_place_details", {"place_id": "PLC-9999"}), 404)
    failed(mp.call("maps_search_places", {"query": "park", "radius": 90000}), 400)


def test_distance_matrix_model(mp):
    m = data(mp.call("maps_distance_matrix", {"origins": ["Austin Hub", "nowhere at all"],
                                            "destinations": ["Franklin Barbecue", "Heathrow Airport"],
                                            "mode": "walking"}))
    a, b = PLACES["PLC-0030"], PLACES["PLC-0028"]
    km = haversine_km(a.lat, a.lng, b.lat, b.lng) * 1.25
    el = m["results"][0]["elements"][0]
    assert el["status"] == "OK" and el["distance"]["value"] == round(km * 1000)
    assert el["duration"]["value"] == round(km / 5.0 * 3600)
    assert m["results"][0]["elements"][1] == {"status": "ZERO_RESULTS"}
    assert m["results"][1]["elements"][0] == {"status": "NOT_FOUND"} and m["origin_addresses"][1] == ""
    drive = data(mp.call("maps_distance_matrix", {"origins": ["30.2651,-97.7479"], "destinations": ["PLC-0027"]}))
    assert drive["results"][0]["elements"][0]["status"] == "OK"
    assert drive["destination_addresses"] == ["3600 Presidential Blvd, Austin, TX 78719, USA"]
    failed(mp.call("maps_distance_matrix", {"origins": [], "destinations": ["Austin"]}), 400)
    failed(mp.call("maps_distance_matrix", {"origins": ["Austin"], "destinations": ["Boston"], "mode": "flying"}), 400)


def test_directions_elevation_meeting_point(mp):
    r = data(mp.call("maps_directions", {"origin": "San Francisco HQ", "destination": "San Francisco International Airport"}))
    route = r["routes"][0]
    assert route["start_address"].startswith("101 Spear St") and route["steps"][0]["instructions"].startswith("Head south")
    assert route["steps"][-1]["instructions"] == "Arrive at San Francisco International Airport"
    assert route["duration"]["value"] > 0 and route["distance"]["text"].endswith("km")
    failed(mp.call("maps_directions", {"origin": "Boston Common", "destination": "British Museum"}), 422)
    failed(mp.call("maps_directions", {"origin": "Atlantis", "destination": "Boston"}), 404)
    e = data(mp.call("maps_elevation", {"locations": [{"latitude": 37.8024, "longitude": -122.4058}]}))
    assert e["results"][0]["elevation"] == 64.0 and e["results"][0]["resolution"] == 0.0
    failed(mp.call("maps_elevation", {"locations": [{"latitude": 0, "longitude": 0}]}), 422)
    meet = data(mp.call("maps_suggest_meeting_point", {"origins": ["Austin Hub", "Texas State Capitol"],
                                                     "place_type": "restaurant"}))
    assert meet["place_id"] == "PLC-0028" and meet["max_duration_seconds"] == max(meet["durations_seconds"])
    failed(mp.call("maps_suggest_meeting_point", {"origins": ["Austin Hub", "British Museum"], "mode": "walking"}), 422)


def test_saved_places_and_rollback(mp):
    saved = data(mp.call("maps_list_saved_places", {}))
    assert [s["label"] for s in saved] == ["Work", "Lunch spot"]
    out = data(mp.call("maps_save_place", {"place_id": "PLC-0011", "label": "Client office", "note": "Floor 21"}))
    assert out["name"] == "Empire State Building" and out["saved_at"] == "2026-01-15T09:00:00"
    before = mp.state_dict()
    failed(mp.call("maps_save_place", {"place_id": "PLC-0011", "label": "Again"}), 409)
    failed(mp.call("maps_save_place", {"place_id": "PLC-0012", "label": "client OFFICE"}), 409)
    failed(mp.call("maps_save_place", {"place_id": "PLC-0999", "label": "Nowhere"}), 404)
    assert mp.state_dict() == before
    assert data(mp.call("maps_remove_saved_place", {"place_id": "PLC-0011"}))["label"] == "Client office"
    failed(mp.call("maps_remove_saved_place", {"place_id": "PLC-0011"}), 404)
