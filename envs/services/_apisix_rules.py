"""Business rules of the APISIX service (APISIX's own; see ``apisix.py``).

A route needs ``uri`` or ``uris`` and an upstream (inline, by id, or its
service's); referenced upstreams, services and consumer groups must exist
(404); an upstream, service or consumer group still in use cannot be
deleted (409); plugins must be known and their configs valid (400); a
key-auth key belongs to one consumer only (409); a credential holds exactly
one auth plugin (400). Patches merge ``plugins``/``labels`` one level deep
(null removes an entry) and replace the other fields.
"""

from __future__ import annotations

from typing import Any, Optional

from pydantic import ValidationError

from compoworld_gym.envs.services import _apisix_gateway as gateway
from compoworld_gym.envs.services._apisix_models import ApisixState, Route
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Service

#: Plugin name → (priority, {config key: (JSON type, required)}): what get_plugin_schema shows and
#: what route/service/consumer plugin configs are checked against.
PLUGINS: dict[str, tuple[int, dict[str, tuple[str, bool]]]] = {
    "key-auth": (2500, {"key": ("string", False), "header": ("string", False), "hide_credentials": ("boolean", False)}),
    "basic-auth": (2520, {"username": ("string", False), "password": ("string", False)}),
    "ip-restriction": (3000, {"whitelist": ("array", False), "blacklist": ("array", False), "message": ("string", False)}),
    "cors": (4000, {"allow_origins": ("string", False), "allow_methods": ("string", False)}),
    "limit-count": (1002, {"count": ("integer", True), "time_window": ("integer", True),
                           "rejected_code": ("integer", False), "key_type": ("string", False)}),
    "limit-req": (1001, {"rate": ("number", True), "burst": ("number", True), "rejected_code": ("integer", False)}),
    "proxy-rewrite": (1008, {"uri": ("string", False), "host": ("string", False), "headers": ("object", False)}),
    "response-rewrite": (899, {"status_code": ("integer", False), "body": ("string", False)}),
    "prometheus": (500, {"prefer_name": ("boolean", False)}),
    "request-id": (12015, {"header_name": ("string", False), "include_in_response": ("boolean", False)}),
}
_JSON_TYPES = {"string": str, "boolean": bool, "array": list, "object": dict, "integer": int, "number": (int, float)}


def valid(model: type, data: dict[str, Any]) -> Any:
    """``model`` validated from ``data``; a bad value is the caller's 400, not a 500."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(x) for x in first.get("loc", ()))
        raise InvalidArgument(f"invalid {model.__name__.lower()} {where}: {first['msg']}.") from None


def merge(old: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """``old`` with ``patch`` applied (JSON merge patch, one level: null removes a key)."""
    out = dict(old)
    for k, v in patch.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = v
    return out


def check_plugins(plugins: dict[str, Any]) -> None:
    """Check plugin configs against :data:`PLUGINS`.

    Raises:
        InvalidArgument: an unknown plugin or property, a wrong type, a missing required property.
    """
    for name, conf in plugins.items():
        if name not in PLUGINS:
            raise InvalidArgument(f"unknown plugin {name!r}; get_all_plugin_names lists the available ones.")
        fields = PLUGINS[name][1]
        for key, value in conf.items():
            if key == "_meta":
                continue
            if key not in fields:
                raise InvalidArgument(f"plugin {name}: unknown property {key!r} (see get_plugin_schema).")
            kind = fields[key][0]
            if not isinstance(value, _JSON_TYPES[kind]) or (kind in ("integer", "number") and isinstance(value, bool)):
                raise InvalidArgument(f"plugin {name}: property {key!r} must be a {kind}.")
        missing = [k for k, (_, required) in fields.items() if required and k not in conf]
        if missing:
            raise InvalidArgument(f"plugin {name}: missing required properties {', '.join(missing)}.")


def new_id(state: ApisixState, kind: str, given: Optional[str]) -> str:
    """``given``, else the next free numeric id of collection ``kind`` (its counter moves past it)."""
    if given:
        return given
    coll, n = getattr(state, kind), state.counters.get(kind, 1)
    while str(n) in coll:
        n += 1
    state.counters[kind] = n + 1
    return str(n)


def check_refs(state: ApisixState, upstream_id: Optional[str], service_id: Optional[str]) -> None:
    """The referenced upstream and service exist.

    Raises:
        NotFound: 404 for either.
    """
    if upstream_id is not None:
        Service.lookup(state.upstreams, upstream_id, "upstream")
    if service_id is not None:
        Service.lookup(state.services, service_id, "service")


def check_route(state: ApisixState, r: Route) -> None:
    """A route has ``uri`` or ``uris``, existing references, valid plugins and some upstream.

    Raises:
        InvalidArgument: 400 for no uri or a bad plugin config.
        NotFound: 404 for a missing upstream or service.
        Unprocessable: 422 when no upstream can be resolved.
    """
    if not r.uri and not r.uris:
        raise InvalidArgument("a route needs uri or uris.")
    check_refs(state, r.upstream_id, r.service_id)
    check_plugins(r.plugins)
    if gateway.resolve_upstream(state, r) is None:
        raise Unprocessable("the route has no upstream: give upstream_id, an inline upstream, or a service_id "
                            "whose service has an upstream.")


def key_holders(state: ApisixState, key: Optional[str]) -> set[tuple[str, str]]:
    """``{(username, credential id or "")}`` holding key-auth ``key``."""
    if not key:
        return set()
    out = {(c.username, "") for c in state.consumers.values() if c.plugins.get("key-auth", {}).get("key") == key}
    return out | {(c.username, cid) for c in state.consumers.values() for cid, cr in c.credentials.items()
                  if cr.plugins.get("key-auth", {}).get("key") == key}


def check_key_free(state: ApisixState, key: Optional[str], holder: tuple[str, str]) -> None:
    """No one but ``holder`` (username, credential id or "") holds key-auth ``key``.

    Raises:
        Conflict: 409.
    """
    if key_holders(state, key) - {holder}:
        raise Conflict("that key-auth key already belongs to another consumer or credential.")


def entry(kind: str, oid: str, rec: Any) -> dict:
    """The Admin API's answer for one resource: ``{"key": "/apisix/<kind>/<id>", "value": {...}}``."""
    return {"key": f"/apisix/{kind}/{oid}", "value": rec.model_dump(mode="json", exclude={"credentials"})}


def listed(rec: Any, name: Optional[str], labels: Optional[dict[str, str]], uri: Optional[str]) -> bool:
    """Whether a resource passes get_resource's filters: name (substring of name or username, any case),
    labels (all equal) and uri (substring of uri or uris)."""
    rec_name = getattr(rec, "name", None) or getattr(rec, "username", None) or ""
    rec_labels = getattr(rec, "labels", {})
    if name is not None and name.lower() not in rec_name.lower():
        return False
    if labels and any(rec_labels.get(k) != v for k, v in labels.items()):
        return False
    return not (uri is not None and uri not in " ".join(filter(None, [getattr(rec, "uri", None)] +
                                                               list(getattr(rec, "uris", [])))))


def check_unused(state: ApisixState, type: str, oid: str) -> None:
    """An upstream, service or consumer group is deleted only when nothing uses it.

    Raises:
        Conflict: 409 naming the users.
    """
    users: list[str] = []
    if type == "upstreams":
        users = [f"route {r.id}" for r in state.routes.values() if r.upstream_id == oid]
        users += [f"service {s.id}" for s in state.services.values() if s.upstream_id == oid]
    elif type == "services":
        users = [f"route {r.id}" for r in state.routes.values() if r.service_id == oid]
    elif type == "consumer_groups":
        users = [f"consumer {c.username}" for c in state.consumers.values() if c.group_id == oid]
    if users:
        raise Conflict(f"can not delete this {type.rstrip('s').replace('_', ' ')}: {', '.join(users)} "
                       "still using it now.")


def patched(rec: Any, patch: dict[str, Any], model: type, stamp: int) -> Any:
    """``rec`` with an update's ``patch`` applied (plugins and labels merge), stamped ``stamp``, validated.

    Raises:
        InvalidArgument: 400 for an invalid result (see :func:`valid`).
    """
    data = rec.model_dump()
    for key in ("plugins", "labels"):
        if patch.get(key) is not None:
            data[key] = merge(data.get(key, {}), patch.pop(key))
    data.update({k: v for k, v in patch.items() if k not in ("plugins", "labels")})
    data["update_time"] = stamp
    return valid(model, data)


def credential_key(plugins: dict[str, Any]) -> Optional[str]:
    """The key-auth key of a credential's plugins, which hold exactly one valid auth plugin.

    Raises:
        InvalidArgument: 400 for not exactly one auth plugin, a bad config, or key-auth without a key.
    """
    auth = [p for p in plugins if p.endswith("-auth")]
    if len(auth) != 1 or len(plugins) != 1:
        raise InvalidArgument("a credential holds exactly one auth plugin (e.g. key-auth).")
    check_plugins(plugins)
    key = plugins.get("key-auth", {}).get("key")
    if "key-auth" in plugins and not key:
        raise InvalidArgument("key-auth credentials need a key.")
    return key
