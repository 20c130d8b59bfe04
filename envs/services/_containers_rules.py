"""Rules of the ``containers`` service: names, ports, the registry, Compose files.

Container names follow Docker (``[a-zA-Z0-9][a-zA-Z0-9_.-]+``), Compose
project names Compose (lowercase letters, digits, dashes, underscores,
starting with a letter or digit). Port maps are container port -> host port,
1-65535. Images are pulled from the registries this host can reach (the
``REGISTRY`` catalogue). Compose files are read by PyYAML's ``safe_load``;
a service needs an ``image`` (this host does not build) and may use
only Compose's service keys below.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from typing import Any, Optional

import yaml

from compoworld_gym.errors import InvalidArgument

_NAME = re.compile(r"^[a-zA-Z0-9][a-zA-Z0-9_.-]+$")
_PROJECT = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
#: Images the host can pull: reference -> size in MB.
REGISTRY = {
    "nginx:1.27-alpine": 47.9, "nginx:latest": 192.6, "postgres:16": 431.2, "redis:7.2": 116.8,
    "python:3.12-slim": 154.1, "node:20-alpine": 134.5, "busybox:1.36": 4.3, "adminer:4.8.1": 118.2,
    "grafana/grafana:11.1.0": 432.6, "prom/prometheus:v2.53.0": 276.4, "rabbitmq:3.13-management": 249.9,
}
#: Keys a Compose service may use here.
SERVICE_KEYS = frozenset({"image", "container_name", "ports", "environment", "restart", "depends_on", "labels",
                          "command", "networks", "build"})
_ADJ = ("brave", "calm", "eager", "focused", "gifted", "happy", "jolly", "keen", "nifty", "quirky", "vibrant", "zen")
_NAMES = ("turing", "hopper", "lovelace", "curie", "darwin", "euler", "gauss", "knuth", "noether", "ritchie")


def hex_id(*parts: str) -> str:
    """A 64-hex id from ``parts`` (deterministic)."""
    return hashlib.sha256("/".join(parts).encode()).hexdigest()


def random_name(seed: str) -> str:
    """The adjective_scientist name Docker gives an unnamed container."""
    d = hashlib.sha1(seed.encode()).digest()
    return f"{_ADJ[d[0] % len(_ADJ)]}_{_NAMES[d[1] % len(_NAMES)]}"


def check_name(name: str) -> str:
    if not _NAME.match(name) or len(name) > 128:
        raise InvalidArgument(f"invalid container name {name!r}: only [a-zA-Z0-9][a-zA-Z0-9_.-] are allowed.")
    return name


def check_project(name: str) -> str:
    if not _PROJECT.match(name):
        raise InvalidArgument(f"invalid project name {name!r}: use lowercase letters, digits, dashes and "
                              "underscores, starting with a letter or digit.")
    return name


def normal_ref(image: str) -> str:
    """``image`` with the ``:latest`` tag Docker assumes when none is given."""
    last = image.rsplit("/", 1)[-1]
    return image if ":" in last or "@" in last else f"{image}:latest"


def port_map(ports: Optional[dict[str, str]]) -> dict[str, str]:
    """``{"80": "8080"}`` as Docker holds it, ``{"80/tcp": "8080"}``.

    Raises:
        InvalidArgument: 400, a port that is not 1-65535 or a protocol other than tcp/udp.
    """
    out = {}
    for cport, hport in (ports or {}).items():
        num, _, proto = str(cport).partition("/")
        if not (_port(num) and _port(str(hport)) and proto in ("", "tcp", "udp")):
            raise InvalidArgument(f"invalid port mapping {cport}: {hport}; use container port -> host port, 1-65535.")
        out[f"{int(num)}/{proto or 'tcp'}"] = str(int(hport))
    return out


def _port(text: str) -> bool:
    return text.isdigit() and 1 <= int(text) <= 65535


def status_text(state: str, exit_code: int, started: Optional[dt.datetime], finished: Optional[dt.datetime],
                now: dt.datetime) -> str:
    """``docker ps``'s STATUS column: "Up 3 hours", "Exited (137) 2 days ago", "Created"."""
    if state == "running" and started:
        return f"Up {_ago(now - started)}"
    if state == "exited" and finished:
        return f"Exited ({exit_code}) {_ago(now - finished)} ago"
    return state.capitalize()


def _ago(delta: dt.timedelta) -> str:
    s = max(int(delta.total_seconds()), 0)
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if s >= size:
            n = s // size
            return f"{n} {unit}{'s' if n > 1 else ''}"
    return "Less than a second"


# ------------------------------------------------------------------ YAML


def parse_yaml(text: str) -> Any:
    """The value of a YAML document, read by PyYAML's ``safe_load`` (no tags, no objects).

    Like Docker's own reader, an unquoted ``xx:yy`` with both parts under 60 is
    a YAML 1.1 base-60 number; Compose's docs say to quote port maps for that reason.

    Raises:
        InvalidArgument: 400, text that is not YAML (with the line and column PyYAML names),
            or an empty document.
    """
    try:
        doc = yaml.safe_load(text)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        where = f" line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        raise InvalidArgument(f"compose_yaml{where}: {e.problem or e.context}.") from None
    except yaml.YAMLError as e:
        raise InvalidArgument(f"compose_yaml is not YAML: {e}.") from None
    if doc is None:
        raise InvalidArgument("compose_yaml is empty.")
    return doc


def _text(value: Any) -> str:
    """A Compose scalar as the text Docker passes on (``true``, not Python's ``True``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


# --------------------------------------------------------------- Compose


def _pairs(value: Any, what: str, service: str) -> dict[str, str]:
    """A Compose ``KEY=value`` list or mapping as a dict."""
    if value is None:
        return {}
    if isinstance(value, dict):
        return {str(k): "" if v is None else _text(v) for k, v in value.items()}
    if isinstance(value, list):
        out = {}
        for item in value:
            k, _, v = _text(item).partition("=")
            out[k] = v
        return out
    raise InvalidArgument(f"service {service!r}: {what} must be a list or a mapping.")


def _ports(value: Any, service: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in value or []:
        parts = str(item).split(":")
        if len(parts) == 1:
            raise InvalidArgument(f"service {service!r}: port {item!r} publishes no host port; write HOST:CONTAINER.")
        host, cport = parts[-2], parts[-1]
        out.update(port_map({cport: host}))
    return out


def read_compose(text: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The services of a Compose file, dependencies first, and its extra network names.

    Returns:
        ``([{"service", "image", "container_name", "ports", "env", "labels", "restart", "command",
        "networks", "depends_on"}], [network name])``.

    Raises:
        InvalidArgument: 400, no services, an unknown service key, a service without image, a build
            section, a depends_on or network that is not declared, a dependency cycle, or a bad value.
    """
    doc = parse_yaml(text)
    if not isinstance(doc, dict) or not isinstance(doc.get("services"), dict) or not doc["services"]:
        raise InvalidArgument("compose_yaml needs a non-empty 'services' mapping.")
    nets = list((doc.get("networks") or {}).keys()) if isinstance(doc.get("networks"), dict) else []
    specs = {}
    for name, svc in doc["services"].items():
        if not isinstance(svc, dict):
            raise InvalidArgument(f"service {name!r} must be a mapping.")
        extra = sorted(set(svc) - SERVICE_KEYS)
        if extra:
            raise InvalidArgument(f"services.{name}: additional property {extra[0]!r} is not allowed.")
        if "build" in svc:
            raise InvalidArgument(f"service {name!r} has a build section; this host does not build images: give "
                                  "an image.")
        if not svc.get("image"):
            raise InvalidArgument(f"service {name!r} has neither an image nor a build context specified.")
        restart = str(svc.get("restart") or "no")
        if restart.split(":")[0] not in ("no", "always", "unless-stopped", "on-failure"):
            raise InvalidArgument(f"service {name!r}: invalid restart policy {restart!r}.")
        deps, own_nets = svc.get("depends_on") or [], svc.get("networks") or []
        deps = list(deps) if isinstance(deps, (list, dict)) else [deps]
        own_nets = list(own_nets) if isinstance(own_nets, (list, dict)) else [own_nets]
        for d in deps:
            if d not in doc["services"]:
                raise InvalidArgument(f"service {name!r} depends on undefined service {d!r}.")
        for n in own_nets:
            if n not in nets:
                raise InvalidArgument(f"service {name!r} refers to undefined network {n!r}.")
        if svc.get("container_name"):
            check_name(str(svc["container_name"]))
        specs[name] = {"service": name, "image": normal_ref(str(svc["image"])),
                       "container_name": str(svc.get("container_name") or ""), "ports": _ports(svc.get("ports"), name),
                       "env": _pairs(svc.get("environment"), "environment", name),
                       "labels": _pairs(svc.get("labels"), "labels", name), "restart": restart.split(":")[0],
                       "command": str(svc.get("command") or ""), "networks": own_nets, "depends_on": deps}
    order: list[str] = []

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in path:
            raise InvalidArgument(f"dependency cycle: {' -> '.join(path + (name,))}.")
        if name not in order:
            for d in specs[name]["depends_on"]:
                visit(d, path + (name,))
            order.append(name)
    for name in specs:
        visit(name, ())
    return [specs[n] for n in order], nets
