"""Home Assistant service calls of the ``home_assistant`` service: which
services exist, which data each takes, and what each does to an entity.

Rules are Home Assistant's own: data keys a service does not take are refused
(400 "extra keys not allowed"); a light's ``brightness`` is 0-255 (0 turns it
off), ``brightness_pct`` 0-100, ``color_temp_kelvin`` within the light's range;
a thermostat's target must lie within its ``min_temp``-``max_temp`` (422), a
``heat_cool`` thermostat takes ``target_temp_low``/``target_temp_high`` and the
other modes take ``temperature`` (422); a mode must be one of ``hvac_modes``;
a cover's ``position`` is 0-100; a lock with a ``code_format`` needs a code that
matches it (422) and a jammed lock cannot move (409); an unavailable entity
takes no service call (409).
"""

from __future__ import annotations

import re
from typing import Any, Optional

from compoworld_gym.envs.services._home_assistant_models import Automation, Entity
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable

#: ``{domain: {service: data keys it takes besides entity_id}}``.
SERVICES: dict[str, dict[str, frozenset[str]]] = {
    "light": {"turn_on": frozenset({"brightness", "brightness_pct", "color_temp_kelvin", "transition"}),
              "turn_off": frozenset({"transition"}), "toggle": frozenset()},
    "switch": {"turn_on": frozenset(), "turn_off": frozenset(), "toggle": frozenset()},
    "climate": {"set_temperature": frozenset({"temperature", "target_temp_low", "target_temp_high", "hvac_mode"}),
                "set_hvac_mode": frozenset({"hvac_mode"}), "turn_on": frozenset(), "turn_off": frozenset()},
    "lock": {"lock": frozenset({"code"}), "unlock": frozenset({"code"})},
    "cover": {"open_cover": frozenset(), "close_cover": frozenset(), "stop_cover": frozenset(),
              "set_cover_position": frozenset({"position"}), "toggle": frozenset()},
    "automation": {"turn_on": frozenset(), "turn_off": frozenset(), "toggle": frozenset(),
                   "trigger": frozenset({"skip_condition"}), "reload": frozenset()},
    "logbook": {"log": frozenset({"name", "message", "domain"})},
    "homeassistant": {"restart": frozenset(), "turn_on": frozenset(), "turn_off": frozenset(),
                      "toggle": frozenset()},
}
#: Services that take no entity_id.
NO_TARGET = {("automation", "reload"), ("logbook", "log"), ("homeassistant", "restart")}


def check_data(domain: str, service: str, data: dict[str, Any]) -> None:
    """Refuse an unknown service or data keys it does not take.

    Raises:
        InvalidArgument: 400 naming the known services or the extra keys.
    """
    if domain not in SERVICES or service not in SERVICES[domain]:
        known = ", ".join(f"{d}.{s}" for d in sorted(SERVICES) for s in SERVICES[d])
        raise InvalidArgument(f"service {domain}.{service} not found; services: {known}.")
    extra = sorted(set(data) - SERVICES[domain][service] - {"entity_id"})
    if extra:
        raise InvalidArgument(f"extra keys not allowed for {domain}.{service}: {', '.join(extra)}.")


def _number(data: dict[str, Any], key: str, low: float, high: float) -> Optional[float]:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidArgument(f"{key} must be a number, got {value!r}.")
    if not low <= value <= high:
        raise InvalidArgument(f"{key} {value} is out of range {low:g}-{high:g}.")
    return float(value)


def usable(e: Entity) -> None:
    """Refuse a call on an unavailable entity.

    Raises:
        Conflict: 409.
    """
    if e.state == "unavailable":
        raise Conflict(f"{e.entity_id} is unavailable (its device is offline or removed); it takes no service "
                       "calls.")


def light(e: Entity, service: str, data: dict[str, Any]) -> None:
    """Turn a light on (brightness, colour temperature), off or toggle it."""
    a = e.attributes
    if service == "toggle":
        service = "turn_off" if e.state == "on" else "turn_on"
    if service == "turn_off":
        e.state, a.brightness = "off", None
        return
    level = _number(data, "brightness", 0, 255)
    pct = _number(data, "brightness_pct", 0, 100)
    kelvin = _number(data, "color_temp_kelvin", 1000, 10000)
    _number(data, "transition", 0, 300)
    if kelvin is not None and a.min_color_temp_kelvin and not a.min_color_temp_kelvin <= kelvin <= (
            a.max_color_temp_kelvin or 6500):
        raise Unprocessable(f"color_temp_kelvin {kelvin:g} is outside {e.entity_id}'s range "
                            f"{a.min_color_temp_kelvin}-{a.max_color_temp_kelvin} K.")
    if pct is not None:
        level = round(pct * 255 / 100)
    if level == 0:  # brightness 0 turns a light off, as in Home Assistant
        e.state, a.brightness = "off", None
        return
    e.state = "on"
    a.brightness = int(level) if level is not None else a.brightness or 255
    if kelvin is not None:
        a.color_temp_kelvin = int(kelvin)


def switch(e: Entity, service: str) -> None:
    """Turn a switch on, off or toggle it."""
    e.state = {"turn_on": "on", "turn_off": "off"}.get(service, "off" if e.state == "on" else "on")


def _action(e: Entity) -> None:
    a = e.attributes
    cur, mode = a.current_temperature, e.state
    if mode == "off" or cur is None:
        a.hvac_action = "off" if mode == "off" else "idle"
    elif mode == "heat":
        a.hvac_action = "heating" if a.temperature is not None and cur < a.temperature else "idle"
    elif mode == "cool":
        a.hvac_action = "cooling" if a.temperature is not None and cur > a.temperature else "idle"
    else:
        low, high = a.target_temp_low or cur, a.target_temp_high or cur
        a.hvac_action = "heating" if cur < low else "cooling" if cur > high else "idle"


def _mode(e: Entity, value: Any) -> str:
    modes = e.attributes.hvac_modes or []
    if value not in modes:
        raise Unprocessable(f"hvac_mode {value!r} is not supported by {e.entity_id}; it supports {', '.join(modes)}.")
    return str(value)


def climate(e: Entity, service: str, data: dict[str, Any]) -> None:
    """Set a thermostat's target, mode, or turn it on/off (targets within min_temp-max_temp)."""
    a = e.attributes
    if service in ("turn_off", "turn_on"):
        e.state = "off" if service == "turn_off" else ("heat" if "heat" in (a.hvac_modes or []) else "auto")
    elif service == "set_hvac_mode":
        if "hvac_mode" not in data:
            raise InvalidArgument("climate.set_hvac_mode needs hvac_mode.")
        e.state = _mode(e, data["hvac_mode"])
    else:
        mode = _mode(e, data["hvac_mode"]) if "hvac_mode" in data else e.state
        lo, hi = a.min_temp or 45.0, a.max_temp or 95.0
        values = {k: _number(data, k, -100, 200) for k in ("temperature", "target_temp_low", "target_temp_high")}
        given = {k: v for k, v in values.items() if v is not None}
        if not given:
            raise InvalidArgument("climate.set_temperature needs temperature (or target_temp_low and "
                                  "target_temp_high in heat_cool).")
        for k, v in given.items():
            if not lo <= v <= hi:
                raise Unprocessable(f"Provided temperature {v:g} is not valid. Accepted range is {lo:g} to {hi:g}.")
        if mode == "heat_cool":
            if "temperature" in given or len(given) != 2:
                raise Unprocessable(f"{e.entity_id} is in heat_cool: give target_temp_low and target_temp_high.")
            if given["target_temp_low"] >= given["target_temp_high"]:
                raise Unprocessable("target_temp_low must be below target_temp_high.")
            a.target_temp_low, a.target_temp_high = given["target_temp_low"], given["target_temp_high"]
        else:
            if set(given) != {"temperature"}:
                raise Unprocessable(f"{e.entity_id} in {mode} takes temperature, not a low/high range.")
            a.temperature = given["temperature"]
        e.state = mode
    _action(e)


def lock(e: Entity, service: str, data: dict[str, Any], who: str) -> None:
    """Lock or unlock (a code matching code_format when the lock has one; a jammed lock cannot move)."""
    if e.state == "jammed":
        raise Conflict(f"{e.entity_id} is jammed; someone must clear the bolt on site before it can move.")
    pattern = e.attributes.code_format
    if pattern and not re.fullmatch(pattern, str(data.get("code", ""))):
        raise Unprocessable(f"The code for {e.entity_id} doesn't match pattern {pattern}.")
    e.state = "locked" if service == "lock" else "unlocked"
    e.attributes.changed_by = who


def cover(e: Entity, service: str, data: dict[str, Any]) -> None:
    """Open, close, stop, toggle a cover or set its position (0 closed - 100 open)."""
    a = e.attributes
    if service == "toggle":
        service = "close_cover" if e.state == "open" else "open_cover"
    if service == "stop_cover":
        return
    if service == "set_cover_position":
        pos = _number(data, "position", 0, 100)
        if pos is None:
            raise InvalidArgument("cover.set_cover_position needs position (0-100).")
        a.current_position = int(pos)
    else:
        a.current_position = 100 if service == "open_cover" else 0
    e.state = "closed" if a.current_position == 0 else "open"


def automation(a: Automation, service: str) -> None:
    """Turn an automation on, off or toggle it (trigger is recorded by the caller)."""
    if service in ("turn_on", "turn_off", "toggle"):
        a.state = {"turn_on": "on", "turn_off": "off"}.get(service, "off" if a.state == "on" else "on")


__all__ = ["NO_TARGET", "SERVICES", "automation", "check_data", "climate", "cover", "light", "lock", "switch",
           "usable"]
