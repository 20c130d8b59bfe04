"""Records and argument models of the APISIX service (see ``apisix.py``): the
Admin API's resources as stored, and the shapes its create/update tools take."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from compoworld_gym.entities import entity
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.service import Record, ServiceState

RouteId = Annotated[str, entity("gateway_route_id", pattern=r"^[A-Za-z0-9_.-]{1,64}$")]
UpstreamId = Annotated[str, entity("upstream_id", pattern=r"^[A-Za-z0-9_.-]{1,64}$")]
ConsumerName = Annotated[str, entity("consumer_id", pattern=r"^[A-Za-z0-9_-]{1,100}$")]
ObjectId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]{1,64}$")]
#: APISIX label values are non-blank strings without whitespace.
LabelValue = Annotated[str, Field(pattern=r"^\S+$", max_length=256)]
Labels = dict[Annotated[str, Field(pattern=r"^\S+$", max_length=256)], LabelValue]
Method = Literal["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "CONNECT", "PURGE"]
Balancer = Literal["roundrobin", "chash", "ewma", "least_conn"]
Scheme = Literal["http", "https", "grpc", "grpcs"]
#: The public hostname the gateway serves.
GATEWAY_HOST = f"api.{DOMAIN}"



class Node(Record):
    """One upstream target."""

    host: str = Field(min_length=1, max_length=253, description="IP address or hostname.")
    port: int = Field(ge=1, le=65535, description="TCP port.")
    weight: int = Field(default=100, ge=0, le=10000, description="Load-balancing weight; 0 drains the node.")
    priority: int = Field(default=0, ge=0, description="Higher-priority nodes are used first.")


class Timeout(Record):
    """Upstream timeouts (seconds)."""

    connect: float = Field(default=6, gt=0, le=300, description="Connect timeout (s).")
    send: float = Field(default=6, gt=0, le=300, description="Send timeout (s).")
    read: float = Field(default=6, gt=0, le=300, description="Read timeout (s).")


class UpstreamSpec(Record):
    """An upstream's configuration (inline on a route or service, or stored)."""

    name: Optional[str] = Field(default=None, max_length=100, description="Upstream name.")
    desc: Optional[str] = Field(default=None, max_length=256, description="Description.")
    type: Balancer = Field(default="roundrobin", description="Load-balancing algorithm.")
    nodes: list[Node] = Field(min_length=1, description="Targets.")
    scheme: Scheme = Field(default="http", description="Protocol to the targets.")
    pass_host: Literal["pass", "node", "rewrite"] = Field(default="pass", description="Host header sent upstream.")
    upstream_host: Optional[str] = Field(default=None, description="Host header for pass_host=rewrite.")
    retries: Optional[int] = Field(default=None, ge=0, le=20, description="Retries on failure.")
    timeout: Optional[Timeout] = Field(default=None, description="Timeouts.")
    labels: Labels = Field(default_factory=dict, description="Labels.")


class Upstream(UpstreamSpec):
    """A stored upstream."""

    id: UpstreamId = Field(description="Upstream id.")
    create_time: int = Field(description="Creation time (Unix seconds).")
    update_time: int = Field(description="Last update (Unix seconds).")


class GatewayService(Record):
    """A service: shared plugins and upstream for several routes."""

    id: ObjectId = Field(description="Service id.")
    name: Optional[str] = Field(default=None, max_length=100, description="Service name.")
    desc: Optional[str] = Field(default=None, max_length=256, description="Description.")
    upstream_id: Optional[UpstreamId] = Field(default=None, description="Stored upstream it proxies to.")
    upstream: Optional[UpstreamSpec] = Field(default=None, description="Inline upstream.")
    plugins: dict[str, dict[str, Any]] = Field(default_factory=dict, description="Plugin configs by name.")
    hosts: list[str] = Field(default_factory=list, description="Hosts it answers for.")
    labels: Labels = Field(default_factory=dict, description="Labels.")
    create_time: int = Field(description="Creation time (Unix seconds).")
    update_time: int = Field(description="Last update (Unix seconds).")


class Route(Record):
    """A route: which requests match, and where they go."""

    id: RouteId = Field(description="Route id.")
    name: Optional[str] = Field(default=None, max_length=100, description="Route name.")
    desc: Optional[str] = Field(default=None, max_length=256, description="Description.")
    uri: Optional[str] = Field(default=None, description="Path; a trailing '*' matches any suffix.")
    uris: list[str] = Field(default_factory=list, description="Several paths.")
    host: Optional[str] = Field(default=None, description="Host it answers for.")
    hosts: list[str] = Field(default_factory=list, description="Hosts it answers for.")
    methods: list[Method] = Field(default_factory=list, description="Allowed methods (empty: all).")
    priority: int = Field(default=0, description="Higher wins when several routes match.")
    service_id: Optional[ObjectId] = Field(default=None, description="Service it belongs to.")
    upstream_id: Optional[UpstreamId] = Field(default=None, description="Stored upstream it proxies to.")
    upstream: Optional[UpstreamSpec] = Field(default=None, description="Inline upstream.")
    plugins: dict[str, dict[str, Any]] = Field(default_factory=dict, description="Plugin configs by name.")
    labels: Labels = Field(default_factory=dict, description="Labels, e.g. app and owner.")
    enable_websocket: bool = Field(default=False, description="Proxy websocket upgrades.")
    status: Literal[0, 1] = Field(default=1, description="1 published, 0 disabled (never matched).")
    create_time: int = Field(description="Creation time (Unix seconds).")
    update_time: int = Field(description="Last update (Unix seconds).")


class Credential(Record):
    """A consumer credential (APISIX 3.x)."""

    id: ObjectId = Field(description="Credential id, unique per consumer.")
    name: str = Field(min_length=1, max_length=100, description="Credential name.")
    desc: Optional[str] = Field(default=None, max_length=256, description="Description.")
    plugins: dict[str, dict[str, Any]] = Field(description="One auth plugin config, e.g. key-auth with its key.")
    labels: Labels = Field(default_factory=dict, description="Labels.")


class Consumer(Record):
    """An API consumer (a partner or an app calling the gateway)."""

    username: ConsumerName = Field(description="Consumer username, unique.")
    desc: Optional[str] = Field(default=None, max_length=256, description="Description.")
    labels: Labels = Field(default_factory=dict, description="Labels, e.g. contact email and plan.")
    plugins: dict[str, dict[str, Any]] = Field(default_factory=dict, description="Plugin configs by name.")
    group_id: Optional[ObjectId] = Field(default=None, description="Consumer group.")
    credentials: dict[str, Credential] = Field(default_factory=dict, description="Credentials by id.")
    create_time: int = Field(description="Creation time (Unix seconds).")
    update_time: int = Field(description="Last update (Unix seconds).")


class ConsumerGroup(Record):
    """A consumer group: plugins shared by its consumers (e.g. a plan's rate limit)."""

    id: ObjectId = Field(description="Group id.")
    desc: Optional[str] = Field(default=None, max_length=256, description="Description.")
    plugins: dict[str, dict[str, Any]] = Field(description="Plugin configs by name.")
    labels: Labels = Field(default_factory=dict, description="Labels.")
    create_time: int = Field(description="Creation time (Unix seconds).")
    update_time: int = Field(description="Last update (Unix seconds).")


class Ssl(Record):
    """A TLS certificate served for some SNIs."""

    id: ObjectId = Field(description="SSL id.")
    snis: list[str] = Field(min_length=1, description="Server names it is served for.")
    cert: str = Field(description="Certificate (PEM).")
    key: str = Field(description="Private key (stored masked).")
    type: Literal["server", "client"] = Field(default="server", description="Certificate use.")
    status: Literal[0, 1] = Field(default=1, description="1 enabled, 0 disabled.")
    validity_end: Optional[int] = Field(default=None, description="Expiry (Unix seconds).")
    labels: Labels = Field(default_factory=dict, description="Labels.")
    create_time: int = Field(description="Creation time (Unix seconds).")
    update_time: int = Field(description="Last update (Unix seconds).")


class GlobalRule(Record):
    """Plugins run on every request."""

    id: ObjectId = Field(description="Global rule id.")
    plugins: dict[str, dict[str, Any]] = Field(description="Plugin configs by name.")
    create_time: int = Field(description="Creation time (Unix seconds).")
    update_time: int = Field(description="Last update (Unix seconds).")


class ApisixState(ServiceState):
    """The gateway's admin configuration (etcd), by resource type."""

    routes: dict[str, Route] = Field(default_factory=dict, description="Routes by id.")
    services: dict[str, GatewayService] = Field(default_factory=dict, description="Services by id.")
    upstreams: dict[str, Upstream] = Field(default_factory=dict, description="Upstreams by id.")
    consumers: dict[str, Consumer] = Field(default_factory=dict, description="Consumers by username.")
    consumer_groups: dict[str, ConsumerGroup] = Field(default_factory=dict, description="Consumer groups by id.")
    ssls: dict[str, Ssl] = Field(default_factory=dict, description="Certificates by id.")
    global_rules: dict[str, GlobalRule] = Field(default_factory=dict, description="Global rules by id.")


ResourceType = Literal["routes", "services", "upstreams", "consumers", "ssls", "consumer_groups", "global_rules"]
Plugins = dict[str, dict[str, Any]]
PluginPatch = dict[str, Optional[dict[str, Any]]]
LabelPatch = dict[str, Optional[LabelValue]]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class RoutePatch(_In):
    """Route fields (all optional; in ``update_route`` only those given change)."""

    name: Optional[str] = Field(default=None, max_length=100, description="Route name.")
    desc: Optional[str] = Field(default=None, max_length=256, description="Description.")
    labels: Optional[LabelPatch] = Field(default=None, description="Labels (no whitespace in values).")
    uri: Optional[str] = Field(default=None, pattern=r"^/", description="Path; a trailing '*' matches any suffix.")
    uris: Optional[list[Annotated[str, Field(pattern=r"^/")]]] = Field(default=None, description="Several paths.")
    host: Optional[str] = Field(default=None, description="Host it answers for.")
    hosts: Optional[list[str]] = Field(default=None, description="Hosts it answers for.")
    methods: Optional[list[Method]] = Field(default=None, description="Allowed HTTP methods (empty: all).")
    priority: Optional[int] = Field(default=None, description="Higher wins when several routes match.")
    service_id: Optional[ObjectId] = Field(default=None, description="Service id.")
    upstream_id: Optional[ObjectId] = Field(default=None, description="Upstream id.")
    upstream: Optional[UpstreamSpec] = Field(default=None, description="Inline upstream (nodes required).")
    plugins: Optional[PluginPatch] = Field(default=None, description="Plugin configs by name.")
    enable_websocket: Optional[bool] = Field(default=None, description="Proxy websocket upgrades.")
    status: Optional[Literal[0, 1]] = Field(default=None, description="1 published, 0 disabled.")


class ServicePatch(_In):
    """Service fields (all optional in ``update_service``)."""

    name: Optional[str] = Field(default=None, min_length=1, max_length=100, description="Service name.")
    desc: Optional[str] = Field(default=None, max_length=256, description="Description.")
    labels: Optional[LabelPatch] = Field(default=None, description="Labels.")
    upstream_id: Optional[ObjectId] = Field(default=None, description="Upstream id.")
    upstream: Optional[UpstreamSpec] = Field(default=None, description="Inline upstream.")
    plugins: Optional[PluginPatch] = Field(default=None, description="Plugin configs by name.")
    hosts: Optional[list[str]] = Field(default=None, description="Hosts.")


class UpstreamPatch(_In):
    """Upstream fields (all optional in ``update_upstream``; nodes replace the list)."""

    name: Optional[str] = Field(default=None, max_length=100, description="Upstream name.")
    desc: Optional[str] = Field(default=None, max_length=256, description="Description.")
    type: Optional[Literal["roundrobin", "chash", "ewma", "least_conn"]] = Field(default=None, description="Balancer.")
    nodes: Optional[list[Node]] = Field(default=None, min_length=1, description="Nodes: host, port, weight, priority.")
    scheme: Optional[Literal["http", "https", "grpc", "grpcs"]] = Field(default=None, description="Protocol.")
    retries: Optional[int] = Field(default=None, ge=0, le=20, description="Retries.")
    labels: Optional[LabelPatch] = Field(default=None, description="Labels.")


class CredentialIn(_In):
    """A consumer credential."""

    name: str = Field(min_length=1, max_length=100, description="Credential name.")
    desc: Optional[str] = Field(default=None, max_length=256, description="Description.")
    plugins: Plugins = Field(description="Exactly one auth plugin, e.g. {'key-auth': {'key': '...'}}.")
    labels: Labels = Field(default_factory=dict, description="Labels.")


class ConsumerGroupIn(_In):
    """A consumer group."""

    desc: Optional[str] = Field(default=None, max_length=256, description="Description.")
    plugins: Plugins = Field(description="Plugins its consumers share.")
    labels: Labels = Field(default_factory=dict, description="Labels.")


class SslIn(_In):
    """A TLS certificate."""

    cert: str = Field(pattern=r"^-----BEGIN CERTIFICATE-----", description="Certificate (PEM).")
    key: str = Field(pattern=r"^-----BEGIN [A-Z ]*PRIVATE KEY-----", description="Private key (PEM).")
    sni: Optional[str] = Field(default=None, description="One server name.")
    snis: Optional[list[str]] = Field(default=None, description="Server names.")
    type: Literal["server", "client"] = Field(default="server", description="Certificate use.")
    status: Literal[0, 1] = Field(default=1, description="1 enabled.")
    validity_end: Optional[int] = Field(default=None, description="Expiry (Unix seconds).")
    labels: Labels = Field(default_factory=dict, description="Labels.")


class GatewayRequest(_In):
    """A request to send through the gateway."""

    path: str = Field(pattern=r"^/", description="Request path.")
    method: Method = Field(description="HTTP method.")
    data: Any = Field(default=None, description="Request body (not inspected).")
    headers: dict[str, str] = Field(default_factory=dict, description="Headers (Host, apikey, ...).")
    repeatCount: int = Field(default=1, ge=1, le=100, description="Identical requests to send.")  # noqa: N815
