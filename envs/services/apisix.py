"""APISIX: the Apache APISIX API gateway's Admin API (routes, upstreams, services, consumers, SSL, plugins).

Follows the MCP server ``@api7_apisix-mcp`` (``spec_source``): resources are
read and deleted by type with ``get_resource``/``delete_resource``
(answers shaped like the Admin API: ``{"key", "value"}`` or
``{"total", "list"}``), created with ``create_*`` (a given id replaces the
resource, as ``PUT`` does) and patched with ``update_*`` (fields merge;
``plugins``/``labels`` entries set to null are removed). The rules are
APISIX's own (``_apisix_rules``); label values have no whitespace.
``send_request_to_gateway`` answers deterministically from the configuration
(see ``_apisix_gateway``).

Implemented: 18 of the server's 32 tools. Left out: ``create_or_update_stream_route``
and ``create_or_update_proto`` (L4 and gRPC proxying, no records here); the
``*_secret`` tools (Vault/AWS/GCP secret managers); plugin metadata
(``get_plugin_metadata``, ``create_or_update_plugin_metadata``,
``delete_plugin_metadata``) and plugin configs (``create_plugin_config``,
``update_plugin_config``); ``update_ssl``, ``update_global_rule`` and
``update_consumer_group`` (``create_*`` with the same id replaces the
resource). ``get_resource``/``delete_resource`` accept the resource types
implemented here (routes, services, upstreams, consumers, ssls,
consumer_groups, global_rules).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any, Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.envs.services import _apisix_gateway as gateway
from compoworld_gym.envs.services import _apisix_rules as rules
from compoworld_gym.envs.services._apisix_models import (
    ApisixState, Consumer, ConsumerGroup, ConsumerGroupIn, ConsumerName, Credential, CredentialIn, GatewayRequest,
    GatewayService, GlobalRule, Labels, ObjectId, Plugins, ResourceType, Route, RouteId, RoutePatch, ServicePatch,
    Ssl, SslIn, Upstream, UpstreamPatch, UpstreamSpec,
)
from compoworld_gym.envs.services._apisix_rules import PLUGINS, check_plugins, valid
from compoworld_gym.envs.services._apisix_seed import build_state, epoch
from compoworld_gym.envs.services._blocks import paginate
from compoworld_gym.errors import InvalidArgument, NotFound
from compoworld_gym.service import Service, tool


class Apisix(Service):
    """Apache APISIX Admin API: routes, upstreams, services, consumers, credentials, SSL, plugins."""

    name = "apisix"
    description = "Apache APISIX API gateway: routes to upstream nodes, services, partner consumers with key-auth, " \
                  "certificates and plugins; test requests through the gateway."
    domain = "devops"
    spec_source = "@api7_apisix-mcp"
    State = ApisixState

    # --------------------------------------------------------------- helpers
    def _stamp(self) -> int:
        return epoch(self.now())

    def _collection(self, kind: str) -> dict[str, Any]:
        return getattr(self.state, kind)

    # ------------------------------------------------------------ generic
    @tool(read_only=True)
    def get_resource(self, type: ResourceType, id: Optional[str] = None, page: int = Field(default=1, ge=1),
                     page_size: int = Field(default=50, ge=10, le=500), name: Optional[str] = None,
                     labels: Optional[dict[str, str]] = None, uri: Optional[str] = None) -> dict:
        """Get resource details by ID or list all resources

        Lists filter by name (substring), labels (all must match) and uri (substring, routes).

        Args:
            type: resource type: routes, services, upstreams, consumers, ssls, consumer_groups or global_rules.
            id: resource id (a consumer's username); omit to list.
            page: page number (from 1).
            page_size: page size (10-500).
            name: filter name (substring; a consumer's username).
            labels: filter labels, e.g. {"app": "checkout-api"}.
            uri: filter uri (substring).
        """
        coll = self._collection(type)
        if id is not None:
            return rules.entry(type, id, self.lookup(coll, id, type.rstrip("s")))
        rows = [rules.entry(type, oid, rec) for oid, rec in coll.items() if rules.listed(rec, name, labels, uri)]
        return {"total": len(rows), "list": paginate(rows, page, page_size)}

    @tool(read_only=False, destructive=True)
    def delete_resource(self, id: str, type: ResourceType) -> dict:
        """Delete a resource by ID

        Refused (409) for an upstream, service or consumer group that something still uses.

        Args:
            id: resource id (a consumer's username).
            type: resource type.
        """
        coll = self._collection(type)
        self.lookup(coll, id, type.rstrip("s"))
        rules.check_unused(self.state, type, id)
        del coll[id]
        return {"key": f"/apisix/{type}/{id}", "deleted": "1"}

    @tool(read_only=True)
    def send_request_to_gateway(self, requests: list[GatewayRequest] = Field(min_length=1, max_length=20)) -> dict:
        """Send a request or multiple requests to the APISIX gateway

        Each answer gives the status, the matched route, the consumer and the upstream node it was proxied to.

        Args:
            requests: requests: path, method, optional headers (Host, apikey) and repeatCount.
        """
        out = []
        for rq in requests:
            answers = gateway.send(self.state, rq.method, rq.path, rq.headers, rq.repeatCount)
            out.append({"path": rq.path, "method": rq.method, "responses": answers})
        return {"results": out}

    # -------------------------------------------------------------- routes
    @tool(read_only=False, returns=Route)
    def create_route(self, route: RoutePatch, id: Optional[RouteId] = None) -> dict:
        """Create a route

        A given id replaces that route (as PUT does).

        Args:
            route: route configuration: uri or uris, methods, hosts, upstream_id / upstream / service_id, plugins,
                labels, status.
            id: route id (generated when omitted).
        """
        rid = rules.new_id(self.state, "routes", id)
        old = self.state.routes.get(rid)
        fields = route.model_dump(exclude_none=True)
        now = self._stamp()
        r = valid(Route, {**fields, "id": rid, "create_time": old.create_time if old else now, "update_time": now})
        rules.check_route(self.state, r)
        self.state.routes[rid] = r
        return rules.entry("routes", rid, r)

    @tool(read_only=False, idempotent=True, returns=Route)
    def update_route(self, id: Optional[RouteId] = None, route: Optional[RoutePatch] = None) -> dict:
        """Update specific attributes of an existing route

        Args:
            id: route id.
            route: the attributes to change; plugins and labels merge (null removes an entry).
        """
        if id is None or route is None:
            raise InvalidArgument("update_route needs id and route.")
        r = self.lookup(self.state.routes, id, "route")
        self.state.routes[id] = new = rules.patched(r, route.model_dump(exclude_unset=True), Route, self._stamp())
        rules.check_route(self.state, new)
        return rules.entry("routes", id, new)

    # ------------------------------------------------------------ services
    @tool(read_only=False)
    def create_service(self, service: ServicePatch, id: Optional[ObjectId] = None) -> dict:
        """Create a service

        Args:
            service: service configuration: name, upstream_id or upstream, plugins, hosts, labels.
            id: service id (generated when omitted).
        """
        sid, now = rules.new_id(self.state, "services", id), self._stamp()
        old = self.state.services.get(sid)
        s = valid(GatewayService, {**service.model_dump(exclude_none=True), "id": sid, "update_time": now,
                                           "create_time": old.create_time if old else now})
        rules.check_refs(self.state, s.upstream_id, None)
        check_plugins(s.plugins)
        self.state.services[sid] = s
        return rules.entry("services", sid, s)

    @tool(read_only=False, idempotent=True)
    def update_service(self, id: Optional[ObjectId] = None, service: Optional[ServicePatch] = None) -> dict:
        """Update specific attributes of an existing service

        Args:
            id: service id.
            service: the attributes to change; plugins and labels merge (null removes an entry).
        """
        if id is None or service is None:
            raise InvalidArgument("update_service needs id and service.")
        s = self.lookup(self.state.services, id, "service")
        new = rules.patched(s, service.model_dump(exclude_unset=True), GatewayService, self._stamp())
        self.state.services[id] = new
        rules.check_refs(self.state, new.upstream_id, None)
        check_plugins(new.plugins)
        return rules.entry("services", id, new)

    # ----------------------------------------------------------- upstreams
    @tool(read_only=False)
    def create_upstream(self, upstream: UpstreamSpec, id: Optional[ObjectId] = None) -> dict:
        """Create an upstream service with load balancing settings

        Args:
            upstream: nodes (host, port, weight), type, scheme, timeout, retries, labels.
            id: upstream id (generated when omitted).
        """
        uid, now = rules.new_id(self.state, "upstreams", id), self._stamp()
        old = self.state.upstreams.get(uid)
        u = valid(Upstream, {**upstream.model_dump(), "id": uid, "update_time": now,
                                     "create_time": old.create_time if old else now})
        self.state.upstreams[uid] = u
        return rules.entry("upstreams", uid, u)

    @tool(read_only=False, idempotent=True)
    def update_upstream(self, id: Optional[ObjectId] = None, upstream: Optional[UpstreamPatch] = None) -> dict:
        """Update specific attributes of an existing upstream

        Args:
            id: upstream id.
            upstream: the attributes to change; nodes replace the list (weight 0 drains a node).
        """
        if id is None or upstream is None:
            raise InvalidArgument("update_upstream needs id and upstream.")
        u = self.lookup(self.state.upstreams, id, "upstream")
        new = rules.patched(u, upstream.model_dump(exclude_unset=True), Upstream, self._stamp())
        self.state.upstreams[id] = new
        return rules.entry("upstreams", id, new)

    # ----------------------------------------------------------- consumers
    @tool(read_only=False, idempotent=True)
    def create_or_update_consumer(self, username: ConsumerName, desc: Optional[str] = None,
                                  labels: Optional[Labels] = None, plugins: Optional[Plugins] = None,
                                  group_id: Optional[ObjectId] = None) -> dict:
        """Create a consumer, if the consumer already exists, it will be updated

        Args:
            username: consumer username (letters, digits, '_' and '-').
            desc: consumer description.
            labels: consumer labels, e.g. {"contact": "dev@partner.example"}.
            plugins: consumer plugins.
            group_id: consumer group id.
        """
        check_plugins(plugins or {})
        if group_id is not None:
            self.lookup(self.state.consumer_groups, group_id, "consumer group")
        old, now = self.state.consumers.get(username), self._stamp()
        c = Consumer(username=username, desc=desc, labels=labels or {}, plugins=plugins or {}, group_id=group_id,
                     credentials=old.credentials if old else {}, create_time=old.create_time if old else now,
                     update_time=now)
        rules.check_key_free(self.state, c.plugins.get("key-auth", {}).get("key"), (username, ""))
        self.state.consumers[username] = c
        return rules.entry("consumers", username, c)

    @tool(read_only=True)
    def get_credential(self, username: ConsumerName, id: Optional[ObjectId] = None) -> dict:
        """Get all credentials or a specific credential for a consumer

        Args:
            username: consumer username.
            id: credential id; omit to list the consumer's credentials.
        """
        c = self.lookup(self.state.consumers, username, "consumer")
        if id is not None:
            cred = self.lookup(c.credentials, id, "credential")
            return {"key": f"/apisix/consumers/{username}/credentials/{id}", "value": cred.model_dump(mode="json")}
        rows = [{"key": f"/apisix/consumers/{username}/credentials/{k}", "value": v.model_dump(mode="json")}
                for k, v in c.credentials.items()]
        return {"total": len(rows), "list": rows}

    @tool(read_only=False, idempotent=True)
    def create_or_update_credential(self, username: ConsumerName, id: ObjectId, credential: CredentialIn) -> dict:
        """Create or update a credential for a consumer

        Args:
            username: consumer username.
            id: credential id.
            credential: name, one auth plugin (key-auth needs a key unique across consumers), desc, labels.
        """
        c = self.lookup(self.state.consumers, username, "consumer")
        rules.check_key_free(self.state, rules.credential_key(credential.plugins), (username, id))
        c.credentials[id] = Credential(id=id, **credential.model_dump())
        c.update_time = self._stamp()
        return {"key": f"/apisix/consumers/{username}/credentials/{id}", "value": c.credentials[id].model_dump()}

    @tool(read_only=False, destructive=True)
    def delete_credential(self, username: ConsumerName, id: ObjectId) -> dict:
        """Delete a credential for a consumer

        Args:
            username: consumer username.
            id: credential id.
        """
        c = self.lookup(self.state.consumers, username, "consumer")
        self.lookup(c.credentials, id, "credential")
        del c.credentials[id]
        c.update_time = self._stamp()
        return {"key": f"/apisix/consumers/{username}/credentials/{id}", "deleted": "1"}

    @tool(read_only=False)
    def create_consumer_group(self, consumerGroup: ConsumerGroupIn, id: Optional[ObjectId] = None) -> dict:  # noqa: N803
        """Create a consumer group

        Args:
            consumerGroup: plugins shared by its consumers (e.g. a plan's limit-count), desc, labels.
            id: group id (generated when omitted).
        """
        check_plugins(consumerGroup.plugins)
        gid, now = rules.new_id(self.state, "consumer_groups", id), self._stamp()
        old = self.state.consumer_groups.get(gid)
        g = ConsumerGroup(id=gid, **consumerGroup.model_dump(), create_time=old.create_time if old else now,
                          update_time=now)
        self.state.consumer_groups[gid] = g
        return rules.entry("consumer_groups", gid, g)

    # ------------------------------------------------------- ssl and rules
    @tool(read_only=False)
    def create_ssl(self, ssl: SslIn, id: Optional[ObjectId] = None) -> dict:
        """Create an SSL certificate

        Args:
            ssl: cert and key (PEM), sni or snis, type, status, validity_end, labels.
            id: SSL id (generated when omitted).
        """
        snis = list(ssl.snis or []) + ([ssl.sni] if ssl.sni else [])
        if not snis:
            raise InvalidArgument("an SSL certificate needs sni or snis.")
        sid, now = rules.new_id(self.state, "ssls", id), self._stamp()
        s = Ssl(id=sid, snis=snis, cert=ssl.cert, key="******", type=ssl.type, status=ssl.status,
                validity_end=ssl.validity_end, labels=ssl.labels, create_time=now, update_time=now)
        self.state.ssls[sid] = s
        return rules.entry("ssls", sid, s)

    @tool(read_only=False)
    def create_global_rule(self, id: ObjectId, plugins: Plugins) -> dict:
        """Create a global rule

        Args:
            id: global rule ID.
            plugins: plugins run on every request.
        """
        check_plugins(plugins)
        now = self._stamp()
        self.state.global_rules[id] = g = GlobalRule(id=id, plugins=plugins, create_time=now, update_time=now)
        return rules.entry("global_rules", id, g)

    @tool(read_only=True)
    def get_all_plugin_names(self) -> list[str]:
        """Get all plugin names"""
        return sorted(PLUGINS)

    @tool(read_only=True)
    def get_plugin_schema(self, name: str, type: Literal["http"] = "http") -> dict:
        """Get all plugins schema or a specific plugin schema by name

        Args:
            name: plugin name, e.g. 'limit-count'.
            type: plugin type (only 'http' plugins here).
        """
        if name not in PLUGINS:
            raise NotFound(f"plugin {name!r} not found; get_all_plugin_names lists the available ones.")
        priority, fields = PLUGINS[name]
        return {"name": name, "priority": priority, "schema": {
            "type": "object", "properties": {k: {"type": t} for k, (t, _) in fields.items()},
            "required": [k for k, (_, req) in fields.items() if req]}}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> ApisixState:
        return build_state(fake, rng, today)
