"""The data plane of the APISIX service: how ``send_request_to_gateway`` answers.

Deterministic and read-only: a request is matched against the published
routes (host, method, path; a trailing ``*`` matches any suffix; higher
``priority`` first, then the longer path), authenticated by ``key-auth``
(header ``apikey``, or the plugin's ``header``), limited by ``limit-count``
within one call (the N+1st of ``repeatCount`` requests is rejected), and
proxied to a node of the resolved upstream by smooth weighted round robin
(weight-0 nodes are drained; no node left is a 502).
"""

from __future__ import annotations

from typing import Any, Optional

from compoworld_gym.envs.services._apisix_models import GATEWAY_HOST, ApisixState, Consumer, Route, UpstreamSpec


def _path_matches(pattern: str, path: str) -> bool:
    return path.startswith(pattern[:-1]) if pattern.endswith("*") else path == pattern


def match_route(state: ApisixState, method: str, path: str, host: str) -> Optional[Route]:
    """The published route that serves a request, or None."""
    hits = []
    for r in state.routes.values():
        hosts = r.hosts or ([r.host] if r.host else [])
        if r.status != 1 or (hosts and host not in hosts) or (r.methods and method not in r.methods):
            continue
        patterns = [p for p in ([r.uri] if r.uri else []) + r.uris if _path_matches(p, path)]
        if patterns:
            hits.append((r.priority, max(len(p) for p in patterns), r.id, r))
    return max(hits, key=lambda h: h[:3])[3] if hits else None


def resolve_upstream(state: ApisixState, route: Route) -> Optional[UpstreamSpec]:
    """The upstream a route proxies to: inline, by id, or its service's."""
    if route.upstream is not None:
        return route.upstream
    if route.upstream_id is not None:
        return state.upstreams.get(route.upstream_id)
    service = state.services.get(route.service_id or "")
    if service is None:
        return None
    return service.upstream if service.upstream is not None else state.upstreams.get(service.upstream_id or "")


def route_plugins(state: ApisixState, route: Route) -> dict[str, dict[str, Any]]:
    """Effective plugins: global rules, then the service's, then the route's (later wins)."""
    merged: dict[str, dict[str, Any]] = {}
    for rule in state.global_rules.values():
        merged.update(rule.plugins)
    service = state.services.get(route.service_id or "")
    if service is not None:
        merged.update(service.plugins)
    merged.update(route.plugins)
    return {k: v for k, v in merged.items() if not (v.get("_meta") or {}).get("disable")}


def consumer_by_key(state: ApisixState, key: str) -> Optional[Consumer]:
    """The consumer holding key-auth ``key`` (in a credential or its own plugins)."""
    for c in state.consumers.values():
        keys = [cr.plugins.get("key-auth", {}).get("key") for cr in c.credentials.values()]
        keys.append(c.plugins.get("key-auth", {}).get("key"))
        if key in keys:
            return c
    return None


class _Balancer:
    """Smooth weighted round robin over an upstream's nodes (nginx's algorithm)."""

    def __init__(self, upstream: UpstreamSpec) -> None:
        top = max((n.priority for n in upstream.nodes if n.weight > 0), default=0)
        self.nodes = [n for n in upstream.nodes if n.weight > 0 and n.priority == top]
        self.current = [0] * len(self.nodes)

    def pick(self) -> Optional[str]:
        if not self.nodes:
            return None
        total = sum(n.weight for n in self.nodes)
        self.current = [c + n.weight for c, n in zip(self.current, self.nodes)]
        best = max(range(len(self.nodes)), key=lambda i: (self.current[i], -i))
        self.current[best] -= total
        return f"{self.nodes[best].host}:{self.nodes[best].port}"


def send(state: ApisixState, method: str, path: str, headers: dict[str, str], repeat: int) -> list[dict]:
    """The responses to ``repeat`` identical requests (see the module docstring)."""
    host = next((v for k, v in headers.items() if k.lower() == "host"), GATEWAY_HOST)
    route = match_route(state, method, path, host)
    if route is None:
        return [{"status": 404, "body": {"error_msg": "404 Route Not Found"}}] * repeat
    plugins = route_plugins(state, route)
    base: dict[str, Any] = {"route_id": route.id}
    if "key-auth" in plugins:
        header = plugins["key-auth"].get("header", "apikey").lower()
        key = next((v for k, v in headers.items() if k.lower() == header), None)
        if key is None:
            return [{**base, "status": 401, "body": {"message": "Missing API key in request"}}] * repeat
        consumer = consumer_by_key(state, key)
        if consumer is None:
            return [{**base, "status": 401, "body": {"message": "Invalid API key in request"}}] * repeat
        base["consumer"] = consumer.username
    upstream = resolve_upstream(state, route)
    if upstream is None:
        return [{**base, "status": 503, "body": {"error_msg": "missing upstream configuration"}}] * repeat
    limit = plugins.get("limit-count", {})
    balancer, out = _Balancer(upstream), []
    for n in range(repeat):
        if limit and n >= int(limit.get("count", repeat)):
            out.append({**base, "status": int(limit.get("rejected_code", 503)), "body": {"error_msg": "rate limited"}})
            continue
        node = balancer.pick()
        out.append({**base, "status": 502, "body": {"error_msg": "no healthy upstream node"}} if node is None
                   else {**base, "status": 200, "upstream_node": node})
    return out
