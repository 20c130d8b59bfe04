"""Seed data of the ``home_assistant`` service: the offices' building automation.

The areas are the meeting rooms of the ``meeting_rooms`` service (same names,
sites and floors; each area's alias is the room id, e.g. RM-0003) plus each
site's lobby; floors carry the site's street address as an alias. Each room
has a thermostat (°F, 62-80), its lights and a temperature sensor, large
rooms motorised blinds; each site has a main-entrance lock, lobby lights and a
lobby display. The history holds this morning's changes (the 07:30 pre-heat,
doors unlocked at 07:00), the log this morning's errors (a jammed lock in New
York, an offline Zigbee sensor).
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._blocks import day_start
from compoworld_gym.envs.services._home_assistant_models import (
    Area, Attributes, Automation, Entity, Floor, HomeAssistantState, LogLine, StateChange,
)
from compoworld_gym.envs.services.meeting_rooms import SITES, MeetingRooms

#: Thermostat limits of the building (°F) and the comfort target rooms are pre-heated to.
MIN_TEMP, MAX_TEMP, COMFORT, SETBACK = 62.0, 80.0, 70.0, 64.0
_MODES = ["off", "heat", "cool", "heat_cool"]
#: Climate supported_features: target temperature, target range, turn on/off.
_CLIMATE_FEATURES = 1 | 2 | 128 | 256


def slug(text: str) -> str:
    """Home Assistant's object id of a name ("Golden Gate" -> golden_gate, "SF-HQ" -> sf_hq)."""
    out = "".join(c if c.isalnum() else "_" for c in text.lower())
    return "_".join(p for p in out.split("_") if p)


def key_attributes(e: Entity) -> dict[str, float | int | str | None]:
    """The attributes a history row keeps (what a state change is about)."""
    a = e.attributes
    keep = {"temperature": a.temperature, "current_temperature": a.current_temperature, "hvac_action": a.hvac_action,
            "brightness": a.brightness, "current_position": a.current_position, "changed_by": a.changed_by}
    return {k: v for k, v in keep.items() if v is not None}


def thermostat(entity_id: str, name: str, area: str, mode: str, target: float, current: float,
               when: dt.datetime) -> Entity:
    """A room thermostat entity (°F, 62-80)."""
    action = "off" if mode == "off" else "heating" if current < target else "idle"
    return Entity(entity_id=entity_id, state=mode, area_id=area, last_changed=when, last_updated=when,
                  attributes=Attributes(friendly_name=f"{name} Thermostat", hvac_modes=list(_MODES), hvac_action=action,
                                        temperature=target, current_temperature=current, min_temp=MIN_TEMP,
                                        max_temp=MAX_TEMP, target_temp_step=1.0, supported_features=_CLIMATE_FEATURES))


def room_entities(name: str, area: str, capacity: int, mode: str, target: float, current: float,
                  when: dt.datetime, lights_on: bool) -> list[Entity]:
    """The entities of one meeting room: thermostat, lights, temperature sensor, blinds if large."""
    obj = slug(name)
    out = [thermostat(f"climate.{obj}", name, area, mode, target, current, when),
           Entity(entity_id=f"light.{obj}", state="on" if lights_on else "off", area_id=area, last_changed=when,
                  last_updated=when, attributes=Attributes(
                      friendly_name=f"{name} Lights", brightness=204 if lights_on else None,
                      color_temp_kelvin=4000, min_color_temp_kelvin=2700, max_color_temp_kelvin=6500)),
           Entity(entity_id=f"sensor.{obj}_temperature", state=f"{current:.1f}", area_id=area, last_changed=when,
                  last_updated=when, attributes=Attributes(friendly_name=f"{name} Temperature",
                                                           device_class="temperature", unit_of_measurement="°F",
                                                           state_class="measurement"))]
    if capacity >= 10:
        out.append(Entity(entity_id=f"cover.{obj}_blinds", state="open", area_id=area, last_changed=when,
                          last_updated=when, attributes=Attributes(friendly_name=f"{name} Blinds", device_class="blind",
                                                                   current_position=100, supported_features=15)))
    return out


def _floors_and_areas(state: HomeAssistantState, rooms: list) -> None:
    for site in SITES:
        for level in sorted({1} | {r.floor for r in rooms if r.site == site.code}):
            fid = f"{slug(site.code)}_floor_{level}"
            state.floors[fid] = Floor(floor_id=fid, name=f"{site.name} - Floor {level}", level=level,
                                      aliases=[site.address, f"{site.code} {level}"])
        lobby = f"{slug(site.code)}_lobby"
        state.areas[lobby] = Area(area_id=lobby, name=f"{site.name} Lobby", floor_id=f"{slug(site.code)}_floor_1",
                                  aliases=[site.code])
    for r in rooms:
        state.areas[slug(r.name)] = Area(area_id=slug(r.name), name=r.name, aliases=[r.id],
                                         floor_id=f"{slug(r.site)}_floor_{r.floor}")


def _record(state: HomeAssistantState, e: Entity, when: dt.datetime, context: str) -> None:
    rid = f"HIS-{state.counters.get('HIS', 1):04d}"
    state.counters["HIS"] = state.counters.get("HIS", 1) + 1
    state.history[rid] = StateChange(id=rid, entity_id=e.entity_id, state=e.state, attributes=key_attributes(e),
                                     last_changed=when, context=context)


def _entities(state: HomeAssistantState, rooms: list, rng: random.Random, start: dt.datetime) -> None:
    evening = start - dt.timedelta(hours=15)  # 18:00 yesterday: the setback
    preheat = start - dt.timedelta(minutes=90)
    off_rooms = set(rng.sample([r.id for r in rooms], 2))
    changes: list[tuple[dt.datetime, Entity, str]] = []
    for r in rooms:
        current = round(rng.uniform(63.5, 71.0), 1)
        mode, target = ("off", SETBACK) if r.id in off_rooms else ("heat", rng.choice((68.0, COMFORT)))
        lights = rng.random() < 0.5
        for e in room_entities(r.name, slug(r.name), r.capacity, mode, target, current, preheat, lights):
            state.entities[e.entity_id] = e
        climate = state.entities[f"climate.{slug(r.name)}"]
        if mode == "off":
            climate.last_changed = climate.last_updated = evening
            changes.append((evening, climate, "automation.hvac_setback_evenings"))
        else:
            night = climate.model_copy(deep=True)
            night.state, night.attributes.temperature, night.attributes.hvac_action = "off", SETBACK, "off"
            changes += [(evening, night, "automation.hvac_setback_evenings"),
                        (preheat, climate, "automation.preheat_meeting_rooms")]
        if lights:
            on = start - dt.timedelta(minutes=rng.randint(5, 50))
            lamp = state.entities[f"light.{slug(r.name)}"]
            lamp.last_changed = lamp.last_updated = on
            changes.append((on, state.entities[f"light.{slug(r.name)}"], "device"))
    offline = state.entities["sensor.empire_temperature"]
    offline.state = "unavailable"
    for site in SITES:
        code = slug(site.code)
        jammed = site.code == "NY-01"
        opened = start - dt.timedelta(hours=2)
        entrance = Entity(entity_id=f"lock.{code}_main_entrance", state="jammed" if jammed else "unlocked",
                          area_id=f"{code}_lobby", last_changed=opened, last_updated=opened,
                          attributes=Attributes(friendly_name=f"{site.name} Main Entrance", code_format=r"^\d{4}$",
                                                changed_by="automation.unlock_entrances_weekdays"))
        state.entities[entrance.entity_id] = entrance
        changes.append((opened, entrance, "automation.unlock_entrances_weekdays"))
        for e in (Entity(entity_id=f"switch.{code}_lobby_display", state="on", area_id=f"{code}_lobby",
                         last_changed=opened, last_updated=opened,
                         attributes=Attributes(friendly_name=f"{site.name} Lobby Display")),
                  Entity(entity_id=f"light.{code}_lobby", state="on", area_id=f"{code}_lobby", last_changed=opened,
                         last_updated=opened, attributes=Attributes(friendly_name=f"{site.name} Lobby Lights",
                                                                    brightness=255))):
            state.entities[e.entity_id] = e
    for when, e, context in sorted(changes, key=lambda c: (c[0], c[1].entity_id)):
        _record(state, e, when, context)


_AUTOMATIONS = (
    ("1714550400001", "preheat_meeting_rooms", "Pre-heat meeting rooms", "on", "time 07:30, Monday to Friday",
     "Set every meeting room thermostat to heat at 68-70 °F.", 90),
    ("1714550400002", "hvac_setback_evenings", "HVAC setback in the evening", "on", "time 18:00",
     "Set every thermostat to off (setback 64 °F).", 900),
    ("1714550400003", "unlock_entrances_weekdays", "Unlock entrances on weekdays", "on", "time 07:00, Monday to Friday",
     "Unlock the main entrances.", 120),
    ("1714550400004", "lock_entrances_at_night", "Lock entrances at night", "on", "time 21:00",
     "Lock the main entrances.", 720),
    ("1714550400005", "lobby_display_schedule", "Lobby displays on a schedule", "off", "time 08:00 and 19:00",
     "Turn the lobby displays on at 08:00 and off at 19:00.", 2880),
)


def _automations(state: HomeAssistantState, start: dt.datetime) -> None:
    targets = {"preheat_meeting_rooms": "climate.", "hvac_setback_evenings": "climate.",
               "unlock_entrances_weekdays": "lock.", "lock_entrances_at_night": "lock.",
               "lobby_display_schedule": "switch."}
    for cid, obj, alias, status, trigger, what, minutes in _AUTOMATIONS:
        eid = f"automation.{obj}"
        state.automations[eid] = Automation(
            id=cid, entity_id=eid, alias=alias, description=what, state=status, triggers=[trigger],
            targets=sorted(e for e in state.entities if e.startswith(targets[obj])),
            last_triggered=start - dt.timedelta(minutes=minutes), last_changed=start - dt.timedelta(days=30))


def _log(state: HomeAssistantState, start: dt.datetime, rng: random.Random) -> None:
    lines = (
        (-600, "INFO", "homeassistant.bootstrap", f"Home Assistant initialized in {rng.uniform(8, 20):.2f}s"),
        (-420, "WARNING", "homeassistant.components.hue", "Bridge at 10.20.3.11 unreachable, retrying in 30 s"),
        (-130, "ERROR", "homeassistant.components.zwave_js",
         "Node 14 (lock.ny_01_main_entrance) reported the bolt jammed while unlocking"),
        (-95, "ERROR", "homeassistant.components.zha",
         "Device 00:17:88:01:0b:4e:22:f1 (sensor.empire_temperature) did not respond; marking it unavailable"),
        (-90, "WARNING", "homeassistant.components.automation.preheat_meeting_rooms",
         "Pre-heat meeting rooms: climate.empire took 40 s to respond"),
        (-60, "ERROR", "homeassistant.components.zha", "Failed to read attribute local_temperature: timeout"),
    )
    for n, (minutes, level, logger, message) in enumerate(lines, start=1):
        state.error_log[f"ERR-{n:04d}"] = LogLine(id=f"ERR-{n:04d}", when=start + dt.timedelta(minutes=minutes),
                                                  level=level, logger=logger, message=message, boot=0)
    state.counters["ERR"] = len(lines) + 1


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> HomeAssistantState:
    """The seeded state: floors, areas, room and lobby entities, automations, this morning's history and log."""
    # The meeting rooms' seed lays rooms out without randomness (its rng only draws bookings).
    rooms = sorted(MeetingRooms.build_seed_state(fake, random.Random("rooms"), today).rooms.values(),
                   key=lambda r: r.id)
    state = HomeAssistantState()
    start = day_start(today)
    _floors_and_areas(state, rooms)
    _entities(state, rooms, rng, start)
    _automations(state, start)
    _log(state, start, rng)
    return state


__all__ = ["COMFORT", "MAX_TEMP", "MIN_TEMP", "SETBACK", "build_state", "key_attributes", "room_entities", "slug",
           "thermostat"]
