"""State records of the ``home_assistant`` service: floors, areas, entities
with states and attributes, automations, the state history, the logbook, the
error log and restarts.

Names follow Home Assistant's (``entity_id``, ``friendly_name``,
``hvac_modes``, ``current_position``, ``last_changed``...); attributes are one
typed model whose unset fields are left out of answers, as HA only lists the
attributes an entity has.
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, Id, entity
from compoworld_gym.service import Record, ServiceState

#: An entity id, ``<domain>.<object_id>`` (entity type ``device_entity_id``).
EntityId = Annotated[str, entity("device_entity_id", pattern=r"^[a-z_]+\.[a-z0-9_]+$")]
HvacMode = Literal["off", "heat", "cool", "heat_cool", "auto"]
LogLevel = Literal["ERROR", "WARNING", "INFO"]


class Attributes(Record):
    """An entity's attributes (only those the entity has are set)."""

    friendly_name: str = Field(description="Display name.")
    device_class: Optional[str] = Field(default=None, description="temperature, occupancy, blind, door...")
    unit_of_measurement: Optional[str] = Field(default=None, description="Unit of a sensor's state, e.g. °F.")
    state_class: Optional[str] = Field(default=None, description="measurement for numeric sensors.")
    brightness: Optional[int] = Field(default=None, ge=0, le=255, description="Light brightness 0-255 (on only).")
    color_temp_kelvin: Optional[int] = Field(default=None, ge=2000, le=6500, description="Light colour temperature.")
    min_color_temp_kelvin: Optional[int] = Field(default=None, description="Lowest colour temperature.")
    max_color_temp_kelvin: Optional[int] = Field(default=None, description="Highest colour temperature.")
    hvac_modes: Optional[list[HvacMode]] = Field(default=None, description="Modes a thermostat supports.")
    hvac_action: Optional[Literal["off", "heating", "cooling", "idle"]] = Field(default=None,
                                                                              description="What it is doing now.")
    temperature: Optional[float] = Field(default=None, description="Target temperature (°F).")
    target_temp_low: Optional[float] = Field(default=None, description="Lower target in heat_cool (°F).")
    target_temp_high: Optional[float] = Field(default=None, description="Upper target in heat_cool (°F).")
    current_temperature: Optional[float] = Field(default=None, description="Measured temperature (°F).")
    min_temp: Optional[float] = Field(default=None, description="Lowest settable target (°F).")
    max_temp: Optional[float] = Field(default=None, description="Highest settable target (°F).")
    target_temp_step: Optional[float] = Field(default=None, description="Target step (°F).")
    current_position: Optional[int] = Field(default=None, ge=0, le=100, description="Cover position, 100 = open.")
    code_format: Optional[str] = Field(default=None, description="Pattern a lock's code must match.")
    changed_by: Optional[str] = Field(default=None, description="Who last locked or unlocked it.")
    restored: Optional[bool] = Field(default=None, description="True for an entity kept from a removed device.")
    supported_features: Optional[int] = Field(default=None, ge=0, description="Feature bit mask.")


class Entity(Record):
    """One entity (an automation is kept in ``automations`` instead)."""

    entity_id: EntityId = Field(description="Entity id, e.g. climate.redwood.")
    state: str = Field(description="State: on/off, heat/off, locked/unlocked/jammed, open/closed, a reading, "
                                   "or unavailable.")
    attributes: Attributes = Field(description="Attributes.")
    area_id: Optional[str] = Field(default=None, description="Area (room) the entity is in.")
    last_changed: DateTime = Field(description="When the state last changed.")
    last_updated: DateTime = Field(description="When the state or an attribute last changed.")


class Floor(Record):
    """A floor of an office building."""

    floor_id: str = Field(description="Floor id, e.g. sf_hq_floor_2.")
    name: str = Field(description="Floor name.")
    level: int = Field(description="Level number.")
    aliases: list[str] = Field(default_factory=list, description="Other names (the building's address).")


class Area(Record):
    """An area (a meeting room or a lobby)."""

    area_id: str = Field(description="Area id, e.g. redwood.")
    name: str = Field(description="Area name.")
    floor_id: str = Field(description="Floor it is on.")
    aliases: list[str] = Field(default_factory=list, description="Other names (the room id of the booking system).")


class Automation(Record):
    """An automation and its entity."""

    id: Id("automation") = Field(description="Automation config id.")
    entity_id: EntityId = Field(description="Entity id, e.g. automation.preheat_meeting_rooms.")
    alias: str = Field(description="Friendly name.")
    description: str = Field(default="", description="What it does.")
    state: Literal["on", "off"] = Field(description="on (enabled) or off (disabled).")
    mode: Literal["single", "restart", "queued", "parallel"] = Field(default="single", description="Run mode.")
    triggers: list[str] = Field(default_factory=list, description="Its triggers, in words.")
    targets: list[str] = Field(default_factory=list, description="Entity ids its actions change.")
    last_triggered: Optional[DateTime] = Field(default=None, description="When it last ran.")
    last_changed: DateTime = Field(description="When it was last turned on or off.")


class StateChange(Record):
    """One recorded state of an entity (the recorder's history)."""

    id: str = Field(description="Row id, e.g. HIS-0001.")
    entity_id: EntityId = Field(description="Entity id.")
    state: str = Field(description="The new state.")
    attributes: dict[str, float | int | str | None] = Field(default_factory=dict,
                                                           description="Key attributes at that moment.")
    last_changed: DateTime = Field(description="When.")
    context: str = Field(default="", description="What changed it (a service call, an automation, a device).")


class LogbookEntry(Record):
    """A logbook entry (``logbook.log``, automation runs)."""

    id: str = Field(description="Entry id, e.g. LOG-0001.")
    when: DateTime = Field(description="When.")
    name: str = Field(description="Who or what the entry is about.")
    message: str = Field(description="The message.")
    entity_id: Optional[str] = Field(default=None, description="Entity it is about.")
    domain: Optional[str] = Field(default=None, description="Domain it is about.")


class LogLine(Record):
    """A line of home-assistant.log."""

    id: str = Field(description="Line id, e.g. ERR-0001.")
    when: DateTime = Field(description="When.")
    level: LogLevel = Field(description="ERROR, WARNING or INFO.")
    logger: str = Field(description="Logger, e.g. homeassistant.components.zwave_js.")
    message: str = Field(description="Message.")
    boot: int = Field(ge=0, description="Run of Home Assistant that wrote it (a restart starts a new log).")


class Restart(Record):
    """A restart of Home Assistant."""

    id: str = Field(description="Restart id, e.g. RST-0001.")
    at: DateTime = Field(description="When it restarted.")
    boot: int = Field(ge=1, description="The run it started.")


class HomeAssistantState(ServiceState):
    """The building's Home Assistant."""

    version: str = Field(default="2025.1.4", description="Home Assistant version.")
    location_name: str = Field(default="Company Example Offices", description="Installation name.")
    boot: int = Field(default=0, ge=0, description="Current run (restarts so far).")
    floors: dict[str, Floor] = Field(default_factory=dict, description="Floors by id.")
    areas: dict[str, Area] = Field(default_factory=dict, description="Areas by id.")
    entities: dict[str, Entity] = Field(default_factory=dict, description="Entities by entity id.")
    automations: dict[str, Automation] = Field(default_factory=dict, description="Automations by entity id.")
    history: dict[str, StateChange] = Field(default_factory=dict, description="State changes by row id, oldest first.")
    logbook: dict[str, LogbookEntry] = Field(default_factory=dict, description="Logbook entries by id.")
    error_log: dict[str, LogLine] = Field(default_factory=dict, description="Log lines by id.")
    restarts: dict[str, Restart] = Field(default_factory=dict, description="Restarts by id.")


__all__ = ["Area", "Attributes", "Automation", "Entity", "EntityId", "Floor", "HomeAssistantState", "HvacMode",
           "LogLevel", "LogLine", "LogbookEntry", "Restart", "StateChange"]
