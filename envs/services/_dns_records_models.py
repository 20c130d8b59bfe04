"""Records of the DNS service (Cloudflare API v4 style).

Cloudflare's objects keep their names and fields, snake_cased: ``Zone``
(``name``, ``status``, ``name_servers``, ``plan``), ``DNSRecord`` (``type``,
``name``, ``content``, ``ttl``, ``proxied``, ``proxiable``, ``priority``,
``comment``, ``created_on``, ``modified_on``) and zone settings (``ssl``,
``always_use_https``, ``min_tls_version``).
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, Id, entity
from compoworld_gym.service import Record, ServiceState

Domain = Annotated[str, entity("domain")]
IpAddress = Annotated[str, entity("ip_address")]
RecordType = Literal["A", "AAAA", "CNAME", "MX", "TXT", "NS"]
SslMode = Literal["off", "flexible", "full", "strict"]


class ZoneSettings(Record):
    """A zone's edge settings."""

    ssl: SslMode = Field(default="full", description="SSL/TLS mode: off, flexible, full or strict.")
    always_use_https: Literal["on", "off"] = Field(default="on", description="Redirect HTTP to HTTPS.")
    min_tls_version: Literal["1.0", "1.1", "1.2", "1.3"] = Field(default="1.2", description="Minimum TLS version.")


class Zone(Record):
    """A zone (a domain) on the account."""

    id: Id("dns_zone") = Field(description="Zone id, e.g. ZN-0001.")
    name: Domain = Field(description="The domain, e.g. company.example.")
    status: Literal["active", "pending"] = Field(description="active once the name servers point here.")
    plan: Literal["free", "pro", "business"] = Field(description="Plan.")
    name_servers: list[str] = Field(description="Assigned name servers.")
    settings: ZoneSettings = Field(default_factory=ZoneSettings, description="Edge settings.")


class DnsRecord(Record):
    """A DNS record of a zone."""

    id: Id("dns_record") = Field(description="Record id, e.g. DNS-0004.")
    zone_id: Id("dns_zone") = Field(description="The zone.")
    zone_name: Domain = Field(description="The zone's domain.")
    type: RecordType = Field(description="A, AAAA, CNAME, MX, TXT or NS.")
    name: Domain = Field(description="Fully qualified record name, e.g. checkout.company.example.")
    content: str = Field(description="IPv4 (A), IPv6 (AAAA), target hostname (CNAME, MX, NS) or text (TXT).")
    ip_address: Optional[IpAddress] = Field(default=None, description="The address, for A and AAAA records.")
    ttl: int = Field(description="1 for automatic, else 60-86400 seconds.")
    proxied: bool = Field(default=False, description="Traffic goes through Cloudflare's proxy.")
    proxiable: bool = Field(description="Whether the type can be proxied (A, AAAA, CNAME).")
    priority: Optional[int] = Field(default=None, description="MX priority.")
    comment: str = Field(default="", description="Note on the record.")
    created_on: DateTime = Field(description="Created.")
    modified_on: DateTime = Field(description="Last changed.")


class DnsState(ServiceState):
    """Zones and their DNS records."""

    zones: dict[str, Zone] = Field(default_factory=dict, description="Zones by id.")
    dns_records: dict[str, DnsRecord] = Field(default_factory=dict, description="DNS records by id.")
