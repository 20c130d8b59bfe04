"""Home Assistant in chained tasks: a meeting room (by the booking system's
room id, the alias of its Home Assistant area) leads to the room's thermostat;
a thermostat names its room. The case's thermostat is set to heat for the
meeting, or gets a logbook entry quoting a discovered value."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._home_assistant_models import Area, Attributes, Entity
from compoworld_gym.envs.services._home_assistant_seed import COMFORT, SETBACK, room_entities, slug
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick

SERVICE = "home_assistant"
ROOM_RX = r"RM-\d{4,}"


def _area_of_room(state: dict[str, Any], room_id: str) -> dict[str, Any] | None:
    return next((a for a in state["areas"].values() if room_id in a["aliases"]), None)


def alloc_room(ctx: Ctx) -> str:
    """A meeting room the task does not use yet (reserved for the rest of the planting): one of the
    building's rooms, the same ids as the room booking system's, or a new ``RM-00NN`` once all are taken."""
    taken = ctx.__dict__.setdefault("_ha_rooms", set())
    rooms = sorted(x for a in ctx.state(SERVICE)["areas"].values() for x in a["aliases"] if re.fullmatch(ROOM_RX, x))
    free = [r for r in rooms if r not in taken]
    if free:
        room = ctx.rng.choice(free)
    else:
        room = f"RM-{max([int(x[3:]) for x in taken | set(rooms)] + [0]) + 1:04d}"
    taken.add(room)
    return room


def ensure_room(ctx: Ctx, room_id: str) -> dict[str, Any]:
    """The area of room ``room_id``, planted (named after a fresh place, on an existing floor, with a
    thermostat, lights and a sensor) if the building has none."""
    state = ctx.state(SERVICE)
    area = _area_of_room(state, room_id)
    if area is not None:
        return area
    name = ctx.fresh("city")
    while slug(name) in state["areas"] or f"climate.{slug(name)}" in state["entities"]:
        name = f"{name} {ctx.rng.randint(2, 9)}"
    floor = ctx.rng.choice(sorted(f for f in state["floors"] if not f.endswith("_1")))
    state["areas"][slug(name)] = Area(area_id=slug(name), name=name, floor_id=floor,
                                      aliases=[room_id]).model_dump(mode="json")
    when = dt.datetime.fromisoformat(ctx.at(-1, 18))
    for e in room_entities(name, slug(name), 6, "off", SETBACK, round(ctx.rng.uniform(63.0, 67.0), 1), when, False):
        state["entities"][e.entity_id] = e.model_dump(mode="json")
    return state["areas"][slug(name)]


def _retire_old(ctx: Ctx, area: dict[str, Any]) -> str:
    """A removed thermostat left in the area: unavailable, restored, named '(old)'."""
    state = ctx.state(SERVICE)
    eid = f"climate.{area['area_id']}_old"
    when = dt.datetime.fromisoformat(ctx.at(-ctx.rng.randint(20, 90), 10))
    state["entities"][eid] = Entity(entity_id=eid, state="unavailable", area_id=area["area_id"], last_changed=when,
                                    last_updated=when, attributes=Attributes(
                                        friendly_name=f"{area['name']} Thermostat (old)", restored=True,
                                        supported_features=0)).model_dump(mode="json")
    return eid


def _thermostat_of(ctx: Ctx, area: dict[str, Any]) -> str:
    return f"climate.{area['area_id']}" if f"climate.{area['area_id']}" in ctx.state(SERVICE)["entities"] else \
        next(k for k, e in ctx.state(SERVICE)["entities"].items()
             if k.startswith("climate.") and e["area_id"] == area["area_id"] and e["state"] != "unavailable")


def _plant_room(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    area = ensure_room(ctx, key)
    return _retire_old(ctx, area) if stale else _thermostat_of(ctx, area)


def _find_room(reader: Reader, key: Any) -> dict[str, Any]:
    hits = reader.read(SERVICE, "search_entities_tool", query=key, limit=200)["results"]
    eid = pick([h for h in hits if h["domain"] == "climate" and h["state"] != "unavailable"])["entity_id"]
    state = reader.read(SERVICE, "get_entity", entity_id=eid, detailed=True)
    # The entity id is the found record's own id: the generator reads an own id from "id".
    return {**state, "id": state["entity_id"]}


def _alloc_thermostat(ctx: Ctx) -> str:
    return _thermostat_of(ctx, ensure_room(ctx, alloc_room(ctx)))


def _plant_thermostat(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state(SERVICE)
    room = outs.get("room_id")
    if key in state["entities"]:
        if room:  # the chain names the room: the thermostat's area carries that room id
            area = state["areas"][state["entities"][key]["area_id"]]
            area["aliases"] = [room] + [x for x in area["aliases"] if not re.fullmatch(ROOM_RX, x)]
        return key
    area = ensure_room(ctx, room or alloc_room(ctx))
    thermostat = dict(state["entities"][_thermostat_of(ctx, area)], entity_id=key)
    state["entities"][key] = thermostat
    return key


ROOM_THERMOSTAT = Relay(
    service=SERVICE, name="meeting room's thermostat", key="room_id",
    gives=(Give("device_entity_id", "id", "the room's thermostat"),),
    plant=_plant_room, find=_find_room,
    where="In Home Assistant each meeting room is an area whose alias is the booking system's room id; its "
          "thermostat is the area's climate entity.",
    alloc=alloc_room, entry=lambda key: f"meeting room {key}",
    truth="An unavailable thermostat belongs to a removed device; only the room's available thermostat counts.")

THERMOSTAT = Relay(
    service=SERVICE, name="thermostat", key="device_entity_id",
    gives=(Give("room_id", "area_aliases", "the meeting room the thermostat is in", pattern=ROOM_RX),),
    plant=_plant_thermostat,
    find=lambda reader, key: reader.read(SERVICE, "get_entity", entity_id=key, detailed=True),
    where="A Home Assistant thermostat sits in a meeting room's area, whose alias is the room id.",
    alloc=_alloc_thermostat, entry=lambda key: f"thermostat {key}")


def _prepare_preheat(ctx: Ctx, values: dict[str, Any]) -> None:
    """Overnight setback: the thermostat is off at 64 °F, so the pre-heat is work to do."""
    rec = ctx.state(SERVICE)["entities"].get(values["thermostat"])
    if rec is not None:
        rec["state"] = "off"
        rec["attributes"].update(temperature=SETBACK, hvac_action="off")


def _preheat(reader: Reader, args: dict[str, Found]) -> Write:
    eid = args["thermostat"].value
    reader.read(SERVICE, "get_entity", entity_id=eid, detailed=True)
    return Write(
        calls=[call("call_service_tool", domain="climate", service="set_temperature",
                    data={"entity_id": eid, "temperature": COMFORT, "hvac_mode": "heat"})],
        checks=[RecordMatches(id="_", service=SERVICE, collection="entities", record_id=eid,
                              where={"state": "heat", "attributes.temperature": COMFORT},
                              description="The room's thermostat heats to 70 °F.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="entities", allow_ids=[eid],
                           description="No other entity was changed.")],
        tool="call_service_tool", where={"domain": "climate"}, label="the thermostat setting")


def _log(reader: Reader, args: dict[str, Found]) -> Write:
    eid, mention, case = args["thermostat"].value, args["mention"], args["case"].value
    reader.read(SERVICE, "get_entity", entity_id=eid)
    where = {"entity_id": eid, "message": {"$contains": mention.display}}
    return Write(
        calls=[call("call_service_tool", domain="logbook", service="log",
                    data={"name": case, "message": f"{mention.noun} is {mention.display}", "entity_id": eid})],
        checks=[RecordExists(id="_", service=SERVICE, collection="logbook", where=where,
                             description="A logbook entry on the thermostat quotes the right value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="logbook", allow_new={"entity_id": eid}, max_new=1,
                           description="No other logbook entry was written.")],
        tool="call_service_tool", where={"domain": "logbook"}, label="the logbook entry")


_THERMOSTAT = (Need("thermostat", "device_entity_id", noun="thermostat"),)

LINKS = ServiceLinks(
    service=SERVICE, label="Home Assistant",
    relays=(THERMOSTAT, ROOM_THERMOSTAT),
    actions=(
        Action(service=SERVICE, name="preheat", needs=_THERMOSTAT, build=_preheat, prepare=_prepare_preheat,
               goal="set {thermostat} in Home Assistant to heat at 70 °F for the meeting"),
        Action(service=SERVICE, name="logbook", needs=_THERMOSTAT, build=_log,
               goal="write a Home Assistant logbook entry on {thermostat}, quoting {mention}"),
    ),
)

__all__ = ["LINKS", "alloc_room", "ensure_room"]
