"""Home Assistant: the offices' building automation (rooms' thermostats, lights, blinds, entrance locks).

Follows the MCP server ``@voska_hass-mcp`` (``spec_source``): all 12 of its
tools with its parameters. Entities live in areas (the meeting rooms of the
``meeting_rooms`` service, whose room id is the area's alias, and each site's
lobby) on floors (whose alias is the site's address); searches match an
entity's id, name, attributes and its area's and floor's names and aliases.
Service calls follow Home Assistant's rules (see ``_home_assistant_rules``):
unknown services or data keys are 400s, thermostat targets lie within
``min_temp``-``max_temp`` (422), a jammed lock cannot move and an unavailable
entity takes no call (409). Every state change is recorded in the history on
the logical clock (``get_history`` reads it back, with the entity's logbook
entries); ``logbook.log`` writes the logbook. ``entity_action`` maps on/off/
toggle to ``<domain>.turn_on/turn_off/toggle`` as the server does (locks and
covers have no turn_on: use ``call_service_tool``); its ``params`` is the
additional service data as JSON object text (the server's ``**params``; the
spec types it as a required string, so ``""`` or ``"{}"`` means none).
``restart_ha`` records a restart, which starts a new run: the error log then
shows only what the new run wrote.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections import Counter
from typing import Any, Literal, Optional, Union

from faker import Faker
from pydantic import Field

from compoworld_gym.envs.services._home_assistant_base import HomeAssistantBase
from compoworld_gym.envs.services._home_assistant_models import EntityId, HomeAssistantState
from compoworld_gym.envs.services._home_assistant_seed import build_state
from compoworld_gym.errors import InvalidArgument
from compoworld_gym.service import tool

#: entity_action's on/off/toggle as a service of the entity's domain (as hass-mcp maps them).
_ACTIONS = {"on": "turn_on", "off": "turn_off", "toggle": "toggle"}


class HomeAssistant(HomeAssistantBase):
    """Home Assistant REST API via hass-mcp: entities, service calls, automations, history, error log."""

    name = "home_assistant"
    description = ("The offices' Home Assistant: meeting-room thermostats, lights, blinds and sensors, entrance "
                   "locks, automations, state history and the error log.")
    domain = "workplace"
    spec_source = "@voska_hass-mcp"
    State = HomeAssistantState

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def get_version(self) -> str:
        """Get the Home Assistant version

        Returns the version string, e.g. "2025.1.4".
        """
        return self.state.version

    @tool(read_only=True)
    def get_entity(self, entity_id: EntityId, fields: Optional[list[str]] = None, detailed: bool = False) -> dict:
        """Get the state of a Home Assistant entity with optional field filtering

        Args:
            entity_id: The entity ID to get (e.g. 'light.living_room')
            fields: Optional list of fields to include (e.g. ['state', 'attr.brightness'])
            detailed: If True, returns all entity fields without filtering
        """
        return self._pick(self._view(entity_id), fields, detailed)

    @tool(read_only=True)
    def list_entities(self, domain: Optional[str] = None, search_query: Optional[str] = None,
                      limit: int = Field(default=100, ge=1, le=1000), fields: Optional[list[str]] = None,
                      detailed: bool = False) -> list[dict]:
        """Get a list of Home Assistant entities with optional filtering

        Args:
            domain: Optional domain to filter by (e.g., 'light', 'switch', 'sensor')
            search_query: Optional search term to filter entities by name, id, attributes, area or floor
            limit: Maximum number of entities to return (default: 100)
            fields: Optional list of specific fields to include in each entity
            detailed: If True, returns all entity fields without filtering
        """
        q = (search_query or "").strip().lower()
        rows = [v for v in self._views() if (domain is None or v["entity_id"].split(".")[0] == domain)
                and (not q or q in self._text(v))]
        return [self._pick(v, fields, detailed) for v in rows[:limit]]

    @tool(read_only=True)
    def search_entities_tool(self, query: str = Field(max_length=200),
                             limit: int = Field(default=20, ge=1, le=1000)) -> dict:
        """Search for entities matching a query string

        Matches entity ids, names, attributes and the names and aliases (room ids, addresses)
        of their areas and floors; an empty query lists every entity.

        Args:
            query: The search query to match against entity IDs, names, and attributes.
            limit: Maximum number of results to return (default: 20)
        """
        q = query.strip().lower()
        rows = [v for v in self._views() if not q or q in self._text(v)]
        return {"count": len(rows), "results": [{**self._lean(v), "domain": v["entity_id"].split(".")[0]}
                                                for v in rows[:limit]],
                "domains": dict(Counter(v["entity_id"].split(".")[0] for v in rows))}

    @tool(read_only=True)
    def domain_summary_tool(self, domain: str = Field(min_length=1, max_length=40),
                            example_limit: int = Field(default=3, ge=1, le=50)) -> dict:
        """Get a summary of entities in a specific domain

        Args:
            domain: The domain to summarize (e.g., 'light', 'switch', 'sensor')
            example_limit: Maximum number of examples to include for each state
        """
        rows = [v for v in self._views() if v["entity_id"].split(".")[0] == domain]
        states = Counter(v["state"] for v in rows)
        examples: dict[str, list] = {}
        for v in rows:
            bucket = examples.setdefault(v["state"], [])
            if len(bucket) < example_limit:
                bucket.append({"entity_id": v["entity_id"], "friendly_name": v["attributes"].get("friendly_name")})
        attrs = Counter(k for v in rows for k in v["attributes"])
        return {"domain": domain, "total_count": len(rows), "state_distribution": dict(states), "examples": examples,
                "common_attributes": [[k, n] for k, n in attrs.most_common(10)]}

    @tool(read_only=True)
    def system_overview(self) -> dict:
        """Get a comprehensive overview of the entire Home Assistant system

        Domains with counts and states, samples, common attributes, and entities per area
        (with each area's floor and aliases).
        """
        rows = self._views()
        domains: dict[str, Any] = {}
        for v in rows:
            d = domains.setdefault(v["entity_id"].split(".")[0], {"count": 0, "states": Counter(), "samples": [],
                                                                  "attributes": Counter()})
            d["count"] += 1
            d["states"][v["state"]] += 1
            d["attributes"].update(v["attributes"].keys())
            if len(d["samples"]) < 3:
                d["samples"].append(self._lean(v))
        areas = Counter(v["area_id"] for v in rows if v["area_id"])
        return {"total_entities": len(rows), "version": self.state.version,
                "domains": {k: {"count": d["count"], "states": dict(d["states"])} for k, d in sorted(domains.items())},
                "domain_samples": {k: d["samples"] for k, d in sorted(domains.items())},
                "domain_attributes": {k: [a for a, _ in d["attributes"].most_common(8)]
                                      for k, d in sorted(domains.items())},
                "area_distribution": {aid: {"name": a.name, "floor": self.state.floors[a.floor_id].name,
                                            "aliases": a.aliases, "entities": areas.get(aid, 0)}
                                      for aid, a in sorted(self.state.areas.items())}}

    @tool(read_only=True)
    def list_automations(self) -> list[dict]:
        """Get a list of all automations from Home Assistant

        Each with its id, entity_id, state (on = enabled), alias, description and last run.
        """
        return [{"id": a.id, "entity_id": a.entity_id, "state": a.state, "alias": a.alias,
                 "description": a.description, "last_triggered": a.last_triggered}
                for _, a in sorted(self.state.automations.items())]

    @tool(read_only=True)
    def get_history(self, entity_id: EntityId, hours: int = Field(default=24, ge=1, le=720)) -> dict:
        """Get the history of an entity's state changes

        Also lists the entity's logbook entries in the window.

        Args:
            entity_id: The entity ID to get history for
            hours: Number of hours of history to retrieve (default: 24)
        """
        self._view(entity_id)
        now = self._current()
        since = now - dt.timedelta(hours=hours)
        rows = [h for h in self.state.history.values() if h.entity_id == entity_id and since <= h.last_changed <= now]
        book = [b.model_dump() for b in self.state.logbook.values() if b.entity_id == entity_id and since <= b.when]
        return {"entity_id": entity_id, "states": [h.model_dump(exclude={"id", "entity_id"}) for h in rows],
                "count": len(rows), "first_changed": rows[0].last_changed if rows else None,
                "last_changed": rows[-1].last_changed if rows else None, "logbook": book}

    @tool(read_only=True)
    def get_error_log(self) -> dict:
        """Get the Home Assistant error log for troubleshooting

        The log of the current run: its text, ERROR and WARNING counts, and mentions per integration.
        """
        lines = [ln for ln in self.state.error_log.values() if ln.boot == self.state.boot]
        text = "\n".join(f"{ln.when:%Y-%m-%d %H:%M:%S}.000 {ln.level} (MainThread) [{ln.logger}] {ln.message}"
                         for ln in lines)
        mentions = Counter(ln.logger.split(".")[2] for ln in lines if ln.logger.startswith("homeassistant.components."))
        return {"log_text": text, "error_count": sum(ln.level == "ERROR" for ln in lines),
                "warning_count": sum(ln.level == "WARNING" for ln in lines), "integration_mentions": dict(mentions)}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False)
    def entity_action(self, entity_id: EntityId, action: Literal["on", "off", "toggle"],
                      params: str = Field(max_length=2000)) -> list[dict]:
        """Perform an action on a Home Assistant entity (on, off, toggle)

        Runs ``<domain>.turn_on``/``turn_off``/``toggle`` on the entity with ``params`` as extra data.

        Args:
            entity_id: The entity ID to control (e.g. 'light.living_room')
            action: The action to perform ('on', 'off', 'toggle')
            params: Additional service data as JSON object text, e.g. '{"brightness": 255}' ('' or '{}' for none)
        """
        try:
            extra = json.loads(params) if params.strip() else {}
        except ValueError:
            raise InvalidArgument('params must be JSON object text, e.g. \'{"brightness": 200}\'.') from None
        if not isinstance(extra, dict):
            raise InvalidArgument('params must be a JSON object, e.g. \'{"temperature": 70}\'.')
        return self._call(entity_id.split(".")[0], _ACTIONS[action], {**extra, "entity_id": entity_id})

    @tool(read_only=False)
    def call_service_tool(self, domain: str = Field(min_length=1, max_length=40),
                          service: str = Field(min_length=1, max_length=60),
                          data: Optional[dict[str, Any]] = None) -> Union[list, dict]:
        """Call any Home Assistant service (low-level API access)

        E.g. climate.set_temperature {entity_id, temperature, hvac_mode}, lock.lock {entity_id, code},
        cover.set_cover_position {entity_id, position}, logbook.log {name, message, entity_id}.
        Answers the states it changed.

        Args:
            domain: The domain of the service (e.g., 'light', 'switch', 'automation')
            service: The service to call (e.g., 'turn_on', 'turn_off', 'toggle')
            data: Optional data to pass to the service (e.g., {'entity_id': 'light.living_room'})
        """
        return self._call(domain, service, dict(data or {}))

    @tool(read_only=False, destructive=True)
    def restart_ha(self) -> dict:
        """Restart Home Assistant

        Temporarily disrupts all Home Assistant operations; the restart starts a new error log.
        """
        return self._restart()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> HomeAssistantState:
        return build_state(fake, rng, today)
