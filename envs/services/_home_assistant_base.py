"""The shared part of the home_assistant service: entity views and field
selection, and the service-call engine that records state changes in the
history; ``home_assistant.py`` holds the tools and documents the behaviour.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.envs.services import _home_assistant_rules as rules
from compoworld_gym.envs.services._blocks import day_start
from compoworld_gym.envs.services._home_assistant_models import (
    Automation, Entity, HomeAssistantState, LogbookEntry, LogLine, Restart, StateChange,
)
from compoworld_gym.envs.services._home_assistant_seed import key_attributes
from compoworld_gym.errors import InvalidArgument, NotFound
from compoworld_gym.service import Service

#: Attributes the lean format keeps per domain (besides entity_id, state, name and area).
_LEAN = {"light": ("brightness",), "climate": ("temperature", "current_temperature", "hvac_action",
                                                "target_temp_low", "target_temp_high"),
         "sensor": ("unit_of_measurement",), "cover": ("current_position",), "lock": ("changed_by",),
         "automation": ("last_triggered",)}
#: Top-level fields ``fields`` may name (attributes as ``attr.<name>``).
_TOP = ("entity_id", "state", "attributes", "area", "area_id", "area_aliases", "floor", "last_changed",
        "last_updated")


class HomeAssistantBase(Service, register=False):
    """Helpers of the home_assistant tools."""

    State = HomeAssistantState

    # ---------------------------------------------------------------- helpers
    def _current(self) -> dt.datetime:
        """The logical time now, without moving the clock (for reads)."""
        return day_start(self.today) + dt.timedelta(minutes=self.state.clock)

    def _view(self, entity_id: str) -> dict[str, Any]:
        """The full state object of an entity or an automation."""
        if entity_id in self.state.automations:
            a = self.state.automations[entity_id]
            return {"entity_id": a.entity_id, "state": a.state, "area_id": None, "area": None, "floor": None,
                    "area_aliases": [],
                    "attributes": {"friendly_name": a.alias, "id": a.id, "mode": a.mode, "current": 0,
                                   "last_triggered": a.last_triggered},
                    "last_changed": a.last_changed, "last_updated": a.last_changed}
        e = self.lookup(self.state.entities, entity_id, "entity")
        area = self.state.areas.get(e.area_id or "")
        floor = self.state.floors.get(area.floor_id) if area else None
        return {"entity_id": e.entity_id, "state": e.state, "attributes": e.attributes.model_dump(exclude_none=True),
                "area_id": e.area_id, "area": area.name if area else None, "floor": floor.name if floor else None,
                "area_aliases": area.aliases if area else [], "last_changed": e.last_changed,
                "last_updated": e.last_updated}

    def _views(self) -> list[dict[str, Any]]:
        return [self._view(k) for k in sorted([*self.state.entities, *self.state.automations])]

    def _text(self, view: dict[str, Any]) -> str:
        area = self.state.areas.get(view["area_id"] or "")
        floor = self.state.floors.get(area.floor_id) if area else None
        words = [view["entity_id"], view["state"], *(str(v) for v in view["attributes"].values() if isinstance(v, str))]
        for place in (area, floor):
            if place is not None:
                words += [place.name, *place.aliases]
        return " ".join(words).lower()

    @staticmethod
    def _lean(view: dict[str, Any]) -> dict[str, Any]:
        attrs = view["attributes"]
        out = {"entity_id": view["entity_id"], "state": view["state"], "friendly_name": attrs.get("friendly_name"),
               "area": view["area"]}
        out.update({k: attrs[k] for k in _LEAN.get(view["entity_id"].split(".")[0], ()) if attrs.get(k) is not None})
        return out

    @staticmethod
    def _pick(view: dict[str, Any], fields: Optional[list[str]], detailed: bool) -> dict[str, Any]:
        if detailed:
            return view
        if not fields:
            return HomeAssistantBase._lean(view)
        out: dict[str, Any] = {"entity_id": view["entity_id"]}
        for f in fields:
            if f.startswith("attr."):
                if f[5:] in view["attributes"]:
                    out[f] = view["attributes"][f[5:]]
            elif f in _TOP:
                out[f] = view[f]
            else:
                raise InvalidArgument(f"unknown field {f!r}; use {', '.join(_TOP)} or attr.<name>.")
        return out

    def _record(self, entity_id: str, state: str, attributes: dict[str, Any], when: dt.datetime, context: str) -> None:
        rid = self.new_id("HIS")
        self.state.history[rid] = StateChange(id=rid, entity_id=entity_id, state=state, attributes=attributes,
                                              last_changed=when, context=context)

    def _targets(self, domain: str, data: dict[str, Any]) -> list[str]:
        raw = data.get("entity_id")
        ids = [raw] if isinstance(raw, str) else raw
        if not ids or not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise InvalidArgument(f"{domain} services need data.entity_id: an entity id or a list of them.")
        for eid in ids:
            if eid not in self.state.entities and eid not in self.state.automations:
                raise NotFound(f"entity {eid!r} not found; list_entities or search_entities_tool finds entity ids.")
            if domain != "homeassistant" and eid.split(".")[0] != domain:
                raise InvalidArgument(f"{eid} is not a {domain} entity; call the {eid.split('.')[0]} domain's service.")
        return list(dict.fromkeys(ids))

    def _restart(self) -> dict[str, Any]:
        when = self.now()
        self.state.boot += 1
        rid = self.new_id("RST")
        self.state.restarts[rid] = Restart(id=rid, at=when, boot=self.state.boot)
        lines = [("INFO", "homeassistant.bootstrap", f"Starting Home Assistant {self.state.version}")]
        if any(e.state == "unavailable" for e in self.state.entities.values()):
            lines.append(("ERROR", "homeassistant.components.zha", "Devices still not responding after restart: "
                          + ", ".join(sorted(e.entity_id for e in self.state.entities.values()
                                             if e.state == "unavailable"))))
        for level, logger, message in lines:
            lid = self.new_id("ERR")
            self.state.error_log[lid] = LogLine(id=lid, when=when, level=level, logger=logger, message=message,
                                                boot=self.state.boot)
        return {"result": "Home Assistant restart initiated", "restart_id": rid, "boot": self.state.boot, "at": when}

    def _call(self, domain: str, service: str, data: dict[str, Any]) -> Any:
        """Run one service call; answers the changed states (or the restart)."""
        rules.check_data(domain, service, data)
        if (domain, service) == ("homeassistant", "restart"):
            return self._restart()
        if (domain, service) == ("automation", "reload"):
            return []
        if (domain, service) == ("logbook", "log"):
            return self._log(data)
        targets = self._targets(domain, data)
        when, context = self.now(), f"service {domain}.{service}"
        changed = []
        for eid in targets:
            if eid in self.state.automations:
                self._automation(self.state.automations[eid], service, when)
                changed.append(self._view(eid))
                continue
            e = self.state.entities[eid]
            rules.usable(e)
            before = e.model_dump()
            self._apply(e, eid.split(".")[0], service, data)
            if e.model_dump() != before:
                if e.state != before["state"]:
                    e.last_changed = when
                e.last_updated = when
                self._record(eid, e.state, key_attributes(e), when, context)
            changed.append(self._view(eid))
        return changed

    @staticmethod
    def _apply(e: Entity, kind: str, service: str, data: dict[str, Any]) -> None:
        if kind == "light":
            rules.light(e, service, data)
        elif kind == "switch" and service in ("turn_on", "turn_off", "toggle"):
            rules.switch(e, service)
        elif kind == "climate" and service in rules.SERVICES["climate"]:
            rules.climate(e, service, data)
        elif kind == "lock" and service in ("lock", "unlock"):
            rules.lock(e, service, data, "ops")
        elif kind == "cover" and service in rules.SERVICES["cover"]:
            rules.cover(e, service, data)
        else:
            raise InvalidArgument(f"{e.entity_id} does not take {service}; its domain's services are "
                                  f"{', '.join(rules.SERVICES.get(kind, {})) or 'none (read-only)'}.")

    def _automation(self, a: Automation, service: str, when: dt.datetime) -> None:
        if service == "trigger":
            a.last_triggered = when
            lid = self.new_id("LOG")
            self.state.logbook[lid] = LogbookEntry(id=lid, when=when, name=a.alias, entity_id=a.entity_id,
                                                   domain="automation",
                                                   message="triggered by action automation.trigger")
            return
        before = a.state
        rules.automation(a, service)
        if a.state != before:
            a.last_changed = when
            self._record(a.entity_id, a.state, {}, when, f"service automation.{service}")

    def _log(self, data: dict[str, Any]) -> list:
        name, message = data.get("name"), data.get("message")
        if not isinstance(name, str) or not name.strip() or not isinstance(message, str) or not message.strip():
            raise InvalidArgument("logbook.log needs name and message (text).")
        eid = data.get("entity_id")
        if eid is not None and (not isinstance(eid, str) or (eid not in self.state.entities
                                                             and eid not in self.state.automations)):
            raise NotFound(f"entity {eid!r} not found; logbook.log takes one existing entity_id.")
        lid = self.new_id("LOG")
        self.state.logbook[lid] = LogbookEntry(id=lid, when=self.now(), name=name.strip()[:200],
                                               message=message.strip()[:1000], entity_id=eid,
                                               domain=data["domain"] if isinstance(data.get("domain"), str) else None)
        return []


__all__ = ["HomeAssistantBase"]
