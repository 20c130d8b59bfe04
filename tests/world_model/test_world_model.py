"""World-model runtime: offline simulator, cache, validation of simulations."""

from __future__ import annotations

import datetime as dt

import pytest

from compoworld_gym.importer import build_service
from compoworld_gym.importer.specs import server_from_json
from compoworld_gym.world_model import (
    OfflineWorldModel,
    Simulation,
    SimulationError,
    SimulationRequest,
    cache_size,
    clear_cache,
    parse_simulation,
    set_world_model,
)

TODAY = dt.date(2026, 1, 15)
SERVER = {"server": "Travel", "slug": "travel-sim", "tools": [
    {"name": "create_booking", "description": "Book.", "inputSchema": {
        "type": "object", "properties": {"hotel": {"type": "string"}, "nights": {"type": "integer"}},
        "required": ["hotel", "nights"]}},
    {"name": "search_hotels", "description": "Search hotels (live API).", "inputSchema": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
    {"name": "get_forecast", "description": "Weather.", "outputSchema": {
        "type": "object", "properties": {"temp_c": {"type": "number", "minimum": -30, "maximum": 45},
                                         "sky": {"type": "string", "enum": ["sunny", "cloudy", "rain"]}},
        "required": ["temp_c", "sky"]},
     "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
    {"name": "reserve_table", "description": "Reserve a restaurant table (outside system).", "inputSchema": {
        "type": "object", "properties": {"restaurant": {"type": "string"}}, "required": ["restaurant"]}},
]}


class Scripted:
    """A world model that returns a fixed simulation and counts its calls."""

    name = "scripted"

    def __init__(self, sim):
        self.sim, self.calls = sim, 0

    def simulate(self, request: SimulationRequest) -> Simulation:
        self.calls += 1
        if isinstance(self.sim, Exception):
            raise self.sim
        return self.sim


@pytest.fixture
def cls():
    klass = build_service(server_from_json(SERVER), "travel_sim")
    yield klass
    set_world_model(None)


def test_offline_is_seeded_by_task_seed_tool_and_arguments(cls):
    set_world_model(OfflineWorldModel())
    a, b = cls.seeded(1, TODAY), cls.seeded(1, TODAY)
    first = a.call("search_hotels", {"city": "Porto"})
    assert first["success"] and first["data"]["count"] == len(first["data"]["results"]) >= 2
    assert all(r["city"] == "Porto" for r in first["data"]["results"])
    clear_cache()
    assert b.call("search_hotels", {"city": "Porto"}) == first  # recomputed, same answer
    assert a.call("search_hotels", {"city": "Faro"}) != first
    assert cls.seeded(2, TODAY).call("search_hotels", {"city": "Porto"}) != first
    assert a.state_dict() == cls.seeded(1, TODAY).state_dict()  # reads change nothing


def test_offline_output_schema_and_effects(cls):
    svc = cls.seeded(0, TODAY)
    forecast = svc.call("get_forecast", {"city": "Oslo"})["data"]
    assert -30 <= forecast["temp_c"] <= 45 and forecast["sky"] in ("sunny", "cloudy", "rain")
    done = svc.call("reserve_table", {"restaurant": "Tasca"})
    assert done["data"]["reference"] == "EFF-0001"
    assert svc.state.effects["EFF-0001"].arguments == {"restaurant": "Tasca"}
    assert svc.call("reserve_table", {"restaurant": "Tasca"})["data"]["reference"] == "EFF-0002"


def test_cache_replays_by_state_digest(cls):
    model = Scripted(Simulation(result={"hotels": ["A"]}))
    set_world_model(model)
    svc = cls(today=TODAY)
    assert svc.call("search_hotels", {"city": "Rome"})["data"] == {"hotels": ["A"]}
    assert svc.call("search_hotels", {"city": "Rome"})["data"] == {"hotels": ["A"]}
    assert model.calls == 1 and cache_size() == 1
    svc.call("create_booking", {"hotel": "A", "nights": 2})  # new state digest: asked again
    svc.call("search_hotels", {"city": "Rome"})
    assert model.calls == 2


@pytest.mark.parametrize("sim, why", [
    (Simulation(result={"ok": 1}, state_update={"bookings": {"X": {"id": "X", "hotel": 5, "nights": 1}}}),
     "bookings.X.hotel"),
    (Simulation(result={"ok": 1}, state_update={"nowhere": {}}), "'nowhere' is not a collection"),
    (Simulation(result={"ok": 1}, state_update={"counters": {"X": 1}}), "'counters' is not a collection"),
    (Simulation(result={"ok": 1}, state_update={"bookings": {"NOPE": None}}), "cannot delete"),
    (Simulation(result={1, 2}), "result is not JSON"),
    (SimulationError("endpoint down"), "endpoint down"),
])
def test_invalid_simulation_is_500_state_unchanged(cls, sim, why):
    set_world_model(Scripted(sim))
    svc = cls.seeded(0, TODAY)
    before = svc.state_dict()
    out = svc.call("reserve_table", {"restaurant": "Tasca"})
    assert out["error"]["code"] == 500 and why in out["error"]["message"]
    assert svc.state_dict() == before


def test_read_only_tools_cannot_update_and_outputs_are_checked(cls):
    svc = cls.seeded(0, TODAY)
    update = {"effects": {"E1": {"tool": "t", "arguments": {}, "outcome": None}}}
    set_world_model(Scripted(Simulation(result=[], state_update=update)))
    assert "read-only" in svc.call("search_hotels", {"city": "x"})["error"]["message"]
    set_world_model(Scripted(Simulation(result={"temp_c": 99, "sky": "sunny"})))
    assert svc.call("get_forecast", {"city": "x"})["error"]["code"] == 500


def test_valid_update_enters_state(cls):
    record = {"id": "BOOK-0100", "hotel": "Lux", "nights": 3, "created_at": None}
    set_world_model(Scripted(Simulation(result={"ok": True}, state_update={"bookings": {"BOOK-0100": record}})))
    svc = cls(today=TODAY)
    assert svc.call("reserve_table", {"restaurant": "Lux"})["success"]
    assert svc.state_dict()["bookings"]["BOOK-0100"] == record


def test_parse_simulation():
    assert parse_simulation('Sure!\n```json\n{"result": {"a": 1}}\n```').result == {"a": 1}
    assert parse_simulation('{"result": 2, "state_update": {"x": {}}}').state_update == {"x": {}}
    for bad in ("", "no json here", '{"answer": 1}', '{"result": 1, "state_update": []}', "{bad}"):
        with pytest.raises(SimulationError):
            parse_simulation(bad)
